#!/usr/bin/env bash
# Fabfib speed figures against the issue's targets. Builds --release, runs the commands,
# prints each figure beside its target.
#
# Usage: scripts/bench_fabfib.sh [GAMES]     (default 2,000,000 games; 2 threads)
#
# Two figures per simulation: the wall-clock rate (what the target names; it suffers when
# other work shares the cores) and the CPU-time rate scaled to the thread count (games per
# CPU-second times the threads: what the same cores give when they are not shared).
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${1:-2000000}
THREADS=${RAYON_NUM_THREADS:-2}
cargo build --release --quiet
BIN=target/release/tabula
TIMES=$(mktemp)
trap 'rm -f "$TIMES"' EXIT

echo "fabfib benchmark: $THREADS threads, $(nproc) cores visible, load average $(cut -d' ' -f1-3 /proc/loadavg)"

# measure LABEL GAMES TARGET ARGS...
measure() {
    local label=$1 games=$2 target=$3
    shift 3
    RAYON_NUM_THREADS=$THREADS /usr/bin/time -f "%e %U %S" -o "$TIMES" \
        "$BIN" fabfib simulate --games "$games" --seed 1 --quiet --json "$@" >/dev/null
    awk -v label="$label" -v g="$games" -v target="$target" -v threads="$THREADS" '{
        wall = $1; cpu = $2 + $3;
        rate = g / wall; cpu_rate = g / cpu * threads;
        verdict = (target > 0) ? sprintf("target >= %d: %s", target, (rate >= target) ? "PASS" : "FAIL") : "no target";
        cpu_verdict = (target > 0) ? ((cpu_rate >= target) ? "PASS" : "FAIL") : "";
        printf "%s: %d games in %.2f s wall = %.0f games/s (%s); ", label, g, wall, rate, verdict;
        printf "%.2f CPU-s = %.0f games/s on %d unshared cores %s\n", cpu, cpu_rate, threads, cpu_verdict
    }' "$TIMES"
}

measure "simulate 3 x article" "$GAMES" 200000 --players 3 --strategies article
measure "simulate odds,article,article" "$((GAMES / 10))" 0 --players 3 --strategies odds,article,article

/usr/bin/time -f "%e" -o "$TIMES" "$BIN" fabfib odds --json >/dev/null
echo "odds, all C(50,3) = 19600 hands: $(cat "$TIMES") s (no target)"
/usr/bin/time -f "%e" -o "$TIMES" "$BIN" fabfib odds --best --hand 876 --target 900 --json >/dev/null
echo "odds --best, 7 discards: $(cat "$TIMES") s (no target)"
