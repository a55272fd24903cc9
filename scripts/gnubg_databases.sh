#!/usr/bin/env bash
# Builds GNU Backgammon's Hypergammon databases hyper1.bd and hyper2.bd with its own
# `makehyper`, for tabula's gnubg interchange checks (docs/gammon.md).
#
#   scripts/gnubg_databases.sh [FOLDER] [CHECKERS...]
#
# FOLDER defaults to tables/gnubg; CHECKERS default to "1 2" (3 works too, but takes
# CPU-hours and about 0.4 GB). Installs the Debian package `gnubg` when `makehyper` is
# missing (needs root and apt-get). Prints, per file, the wall and CPU (user + system)
# seconds makehyper took. Then run the checks on the files:
#
#   TABULA_GNUBG_DIR=FOLDER cargo test --release --test suite gammon_gnubg -- --include-ignored
set -euo pipefail

FOLDER=${1:-tables/gnubg}
shift || true
CHECKERS=("$@")
[ ${#CHECKERS[@]} -eq 0 ] && CHECKERS=(1 2)

find_makehyper() {
    command -v makehyper 2>/dev/null || { [ -x /usr/games/makehyper ] && echo /usr/games/makehyper; } || true
}

MAKEHYPER=$(find_makehyper)
if [ -z "$MAKEHYPER" ]; then
    echo "makehyper not found: installing the Debian package gnubg" >&2
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq gnubg >&2
    MAKEHYPER=$(find_makehyper)
    [ -n "$MAKEHYPER" ] || { echo "makehyper still not found after installing gnubg" >&2; exit 1; }
fi

mkdir -p "$FOLDER"
LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT

for c in "${CHECKERS[@]}"; do
    case "$c" in 1|2|3) ;; *) echo "makehyper builds 1, 2 or 3 checkers, not $c" >&2; exit 2 ;; esac
    out="$FOLDER/hyper$c.bd"
    # -n: no checkpoint file per iteration; -f: the output (else hyper<C>.bd here).
    /usr/bin/time -f '%e %U %S' -o "$LOG" "$MAKEHYPER" -c "$c" -n -f "$out" >"$FOLDER/makehyper$c.log"
    read -r wall user sys <"$LOG"
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
    iterations=$(grep -c 'Iteration' "$FOLDER/makehyper$c.log" || true)
    printf 'hyper%s.bd  %12d bytes  %3s iterations  wall %8.2f s  cpu %8.2f s\n' \
        "$c" "$(stat -c %s "$out")" "$iterations" "$wall" "$cpu"
done
