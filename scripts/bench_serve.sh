#!/usr/bin/env bash
# `tabula serve` under load (issue 28): many concurrent clients on this machine, `equity`
# and `hint` on Hypergammon-2 (with the cube), requests per second and p50 / p99 latency,
# and no errors allowed.
#
#   scripts/bench_serve.sh                 30 s each, 64 connections
#   SECONDS_EACH=10 CONNECTIONS=256 scripts/bench_serve.sh
#   SERVER_THREADS=1 scripts/bench_serve.sh    the server on one worker thread
#
# The client is wrk (Debian's package; installed with apt-get when missing), on one
# thread: on 2 cores it takes about one of them. Targets: at least 20,000 `equity`
# answers a second with p99 under 5 ms. The load average printed first tells how busy the
# machine was; every request is checked (a non-2xx answer or a socket error fails the run).
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=${SECONDS_EACH:-30}
CONNECTIONS=${CONNECTIONS:-64}
SERVER_THREADS=${SERVER_THREADS:-$(nproc)}
if ! command -v wrk >/dev/null; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq wrk >&2
fi
[ "${1:-}" = "--no-build" ] || cargo build --release --quiet
T=${TABULA:-$PWD/target/release/tabula}   # TABULA=path measures another build (before/after)
WORK=$(mktemp -d)
SERVER=""
cleanup() {
    [ -n "$SERVER" ] && kill -TERM "$SERVER" 2>/dev/null && wait "$SERVER" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"

"$T" gammon build --variant hyper2 --quiet --table "$WORK/hyper2.tbl" >/dev/null
"$T" serve --addr 127.0.0.1:0 --tables "$WORK" --threads "$SERVER_THREADS" 2>"$WORK/serve.log" &
SERVER=$!
for _ in $(seq 100); do
    grep -q 'listening on' "$WORK/serve.log" && break
    sleep 0.05
done
BASE=$(sed -n 's#.*listening on \(http://[^/]*\)/.*#\1#p' "$WORK/serve.log")
[ -n "$BASE" ] || { cat "$WORK/serve.log"; exit 1; }
echo "server: $BASE, $SERVER_THREADS worker threads; client: wrk, 1 thread, $CONNECTIONS connections, ${SECONDS_EACH} s a route"

# A position mid-game and the opening, both with the cube's decision.
EQUITY="/api/gammon/hyper2/equity?position=20,14/22,9&cube=centred"
HINT="/api/gammon/hyper2/hint?position=24,23/24,23&roll=6-5&cube=centred"
for route in "$EQUITY" "$HINT"; do
    curl -fsS "$BASE$route" >/dev/null || { echo "$route fails"; exit 1; }
done

# The server's processor time so far (user + system), in seconds: on a machine shared with
# other work, requests per processor-second say what a core of its own would answer.
cpu() {
    awk -v hz="$(getconf CLK_TCK)" '{ printf "%.3f", ($14 + $15) / hz }' "/proc/$SERVER/stat"
}

failed=0
run() {
    local name=$1 route=$2
    local before after
    before=$(cpu)
    wrk -t1 -c"$CONNECTIONS" -d"${SECONDS_EACH}s" --latency "$BASE$route" >"$WORK/$name.txt"
    after=$(cpu)
    local rps p50 p99 bad sock
    rps=$(awk '/^Requests\/sec/ { print $2 }' "$WORK/$name.txt")
    p50=$(awk '$1 == "50%" { print $2 }' "$WORK/$name.txt")
    p99=$(awk '$1 == "99%" { print $2 }' "$WORK/$name.txt")
    bad=$(awk '/Non-2xx/ { print $NF }' "$WORK/$name.txt")
    sock=$(grep -c 'Socket errors' "$WORK/$name.txt" || true)
    local total per_cpu
    total=$(awk '/requests in/ { print $1 }' "$WORK/$name.txt")
    per_cpu=$(awk -v n="$total" -v a="$before" -v b="$after" 'BEGIN { printf "%.0f", n / (b - a) }')
    printf '%-7s %10s req/s   p50 %8s   p99 %8s   %7s req per server processor-second   non-2xx %s   socket errors %s\n' \
        "$name" "$rps" "$p50" "$p99" "$per_cpu" "${bad:-0}" "$( [ "$sock" = 0 ] && echo 0 || grep 'Socket errors' "$WORK/$name.txt")"
    if [ -n "$bad" ] || [ "$sock" != 0 ]; then failed=1; fi
}
run equity "$EQUITY"
run hint "$HINT"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $failed
