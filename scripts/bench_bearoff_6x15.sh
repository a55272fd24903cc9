#!/usr/bin/env bash
# The 6x15 two-sided database, cubeless (every home-board race; 2,944,581,696 pairs, a
# 35.3 GB compact table) or with CUBE=1 the cube's equities (a 47.1 GB compact table of
# the four no-double equities), built out of core and killed once part way (kill -9), then
# resumed by the same command: the wall time of both parts, the peak memory of each
# (/usr/bin/time), the layers resumed, the disk used, and the checksum, which must be the
# one an uninterrupted build gives (docs/benchmarks.md has one).
#
#   scripts/bench_bearoff_6x15.sh                 # tables/, killed after 600 s, 8G
#   DIR=/big KILL_AFTER=900 MEMORY=12G scripts/bench_bearoff_6x15.sh
#   EXPECT=ac906de7… scripts/bench_bearoff_6x15.sh  # fail unless the checksum is this
#   CUBE=1 DIR=/big scripts/bench_bearoff_6x15.sh    # with the cube
#
# Needs about 36 GB (with the cube 48 GB) free in DIR and an hour on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."
T=${TABULA:-$PWD/target/release/tabula}
DIR=${DIR:-tables}
KILL_AFTER=${KILL_AFTER:-600}
MEMORY=${MEMORY:-8G}
mkdir -p "$DIR"
if [ -n "${CUBE:-}" ]; then
  WHAT="with the cube (its equities)"
  FLAGS=()
  TABLE=$DIR/bearoff-ts-6x15.tbl
else
  WHAT=cubeless
  FLAGS=(--cubeless)
  TABLE=$DIR/bearoff-ts-6x15-cubeless.tbl
fi
LOG=$(mktemp -d)
trap 'rm -rf "$LOG"' EXIT
rm -rf "$TABLE" "$TABLE.build"
echo "== 6x15 $WHAT, compact, out of core in $MEMORY; killed after $KILL_AFTER s; load $(cut -d' ' -f1-3 /proc/loadavg)"
start=$(date +%s.%N)
/usr/bin/time -v -o "$LOG/first" "$T" bearoff build --two-sided --points 6 --checkers 15 "${FLAGS[@]}" \
  --memory "$MEMORY" --table "$TABLE" --quiet >/dev/null 2>&1 &
timer=$!
sleep "$KILL_AFTER"
pkill -9 -P "$timer" || true
wait "$timer" || true
killed=$(date +%s.%N)
journal=$(stat -c %s "$TABLE.build/journal")
echo "killed after $(echo "$killed - $start" | bc) s: $(( (journal - 16) / 32 )) of 91 layers done, $(du -sh "$TABLE.build" | cut -f1) on disk"
/usr/bin/time -v -o "$LOG/second" "$T" bearoff build --two-sided --points 6 --checkers 15 "${FLAGS[@]}" \
  --memory "$MEMORY" --table "$TABLE" --json >"$LOG/report" 2>/dev/null
done_at=$(date +%s.%N)
peak() { awk -F': ' '/Maximum resident/ {printf "%.2f GB", $2 / 1048576}' "$1"; }
sum=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); o=r["out_of_core"]; print(r["table"]["checksum"], o["resumed_layers"], o["peak_memory"], o["bytes_read"], o["bytes_written"])' "$LOG/report")
read -r checksum resumed held read written <<<"$sum"
echo "resumed: $resumed layers kept; $(echo "$done_at - $killed" | bc) s more"
echo "total wall $(echo "$done_at - $start" | bc) s; peak memory $(peak "$LOG/first") then $(peak "$LOG/second") (working values held at most $((held >> 20)) MB)"
echo "the resumed run read $((read >> 30)) GiB of the layers below and wrote $((written >> 30)) GiB"
echo "table $(stat -c %s "$TABLE") bytes; checksum $checksum"
if [ -n "${EXPECT:-}" ] && [ "$checksum" != "$EXPECT" ]; then
  echo "checksum differs from $EXPECT" >&2
  exit 1
fi
