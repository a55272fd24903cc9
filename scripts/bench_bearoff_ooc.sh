#!/usr/bin/env bash
# The out-of-core two-sided build against the in-memory one (issue 35, docs/bearoff.md
# "Out of core"): 6x10 and 6x12 with the cube, each built in memory and out of core with
# --memory a tenth of the in-memory build's need (store::footprint: 48 bytes a pair),
# side by side in one run; the tables must be the same bytes. Wall and processor seconds
# and peak memory from /usr/bin/time; the load average before and after (shared machine).
#
#   scripts/bench_bearoff_ooc.sh [SIZES...]     default: 6x10 6x12
#
# 6x12 in memory needs 16.5 GB: on a machine with less free, that build is refused at
# once (and reported so); the out-of-core one still runs.
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES=("$@")
[ ${#SIZES[@]} -eq 0 ] && SIZES=(6x10 6x12)
cargo build --release --quiet
T=$PWD/target/release/tabula
WORK=$(mktemp -d "${TMPDIR:-/tmp}/bench-ooc.XXXX")
trap 'rm -rf "$WORK"' EXIT
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores); $(date -u '+%Y-%m-%d %H:%M UTC')"
printf '| database | build | memory cap | wall s | processor s | peak RSS | checksum |\n|---|---|---|---|---|---|---|\n'
for size in "${SIZES[@]}"; do
  p=${size%x*}; c=${size#*x}
  pairs=$("$T" bearoff count --points "$p" --checkers "$c" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["pairs"])')
  cap=$((pairs * 48 / 10))
  for how in in-memory out-of-core; do
    args=(bearoff build --two-sided --points "$p" --checkers "$c" --quiet --json --table "$WORK/$how.tbl")
    [ "$how" = out-of-core ] && args+=(--memory "$cap")
    if /usr/bin/time -f '%e %U %S %M' -o "$WORK/time" "$T" "${args[@]}" >"$WORK/out" 2>"$WORK/err"; then
      read -r wall user sys rss <"$WORK/time"
      sum=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["table"]["checksum"][:16])' "$WORK/out")
      printf '| %s cube | %s | %s | %s | %.1f | %d MB | %s |\n' "$size" "$how" \
        "$([ "$how" = out-of-core ] && echo "$((cap >> 20)) MiB" || echo -)" "$wall" \
        "$(python3 -c "print($user + $sys)")" "$((rss / 1024))" "$sum"
    else
      printf '| %s cube | %s | - | refused: %s |  |  |  |\n' "$size" "$how" "$(head -c 160 "$WORK/err" | tr '\n' ' ')"
    fi
    rm -f "$WORK/$how.tbl"
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
