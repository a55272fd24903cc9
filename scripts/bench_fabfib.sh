#!/usr/bin/env bash
# Fabfib speed figures against the issue's targets. Builds --release, runs the commands,
# prints each figure beside its target. Usage: scripts/bench_fabfib.sh [GAMES]
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${1:-2000000}
THREADS=${RAYON_NUM_THREADS:-2}
cargo build --release --quiet
BIN=target/release/tabula

now() { date +%s.%N; }

echo "fabfib benchmark on $THREADS threads ($(nproc) cores visible)"

start=$(now)
RAYON_NUM_THREADS=$THREADS "$BIN" fabfib simulate --games "$GAMES" --players 3 \
    --strategies seed --seed 1 --quiet --json >/dev/null
end=$(now)
awk -v g="$GAMES" -v s="$start" -v e="$end" 'BEGIN {
    t = e - s; rate = g / t;
    printf "simulate seed x3: %d games in %.3f s = %.0f games/s (target >= 200000): %s\n",
        g, t, rate, (rate >= 200000 ? "PASS" : "FAIL") }'

start=$(now)
RAYON_NUM_THREADS=$THREADS "$BIN" fabfib simulate --games $((GAMES / 10)) --players 3 \
    --strategies odds --seed 1 --quiet --json >/dev/null
end=$(now)
awk -v g="$((GAMES / 10))" -v s="$start" -v e="$end" 'BEGIN {
    t = e - s; printf "simulate odds x3: %d games in %.3f s = %.0f games/s (no target)\n", g, t, g / t }'

start=$(now)
"$BIN" fabfib odds --json >/dev/null
end=$(now)
awk -v s="$start" -v e="$end" 'BEGIN {
    printf "odds (all C(50,3) hands): %.3f s (no target)\n", e - s }'
