#!/usr/bin/env bash
# Numeron speed figures against the targets of the issues. Builds --release, then times
# each command (wall clock, best of 3; the exact optima best of $RUNS, 1 by default) and
# prints it beside its target; the exact optima also print the value they proved.
#
#   scripts/bench_numeron.sh            the heuristics and the four published optima
#   scripts/bench_numeron.sh --larger   also the sizes beyond the published tables
#   scripts/bench_numeron.sh --moonshot also the fewest 4-digit secrets needing a 7th guess
#                                       (within $MOONSHOT_BUDGET seconds, 1800 by default)
set -euo pipefail
cd "$(dirname "$0")/.."
# TABULA_BIN times another build (a copy, say, while the tree is rebuilt) instead.
if [[ -z "${TABULA_BIN:-}" ]]; then
    cargo build --release --quiet
fi
bin=${TABULA_BIN:-target/release/tabula}
larger=false
moonshot=false
for arg in "$@"; do
    case "$arg" in
        --larger) larger=true ;;
        --moonshot) moonshot=true ;;
        *) echo "usage: $0 [--larger] [--moonshot]" >&2; exit 2 ;;
    esac
done
runs=${RUNS:-1}

# best_of N CMD...: prints the best wall time of N runs, in seconds.
best_of() {
    local n=$1 best=""
    shift
    for _ in $(seq "$n"); do
        local start end t
        start=$(date +%s.%N)
        "$@" >/dev/null
        end=$(date +%s.%N)
        t=$(echo "$end - $start" | bc -l)
        if [[ -z "$best" ]] || (( $(echo "$t < $best" | bc -l) )); then best=$t; fi
    done
    printf '%.3f' "$best"
}

# verdict SECONDS TARGET: "target < T s  ok|FAIL", or "(no target)" for "-".
verdict() {
    if [[ "$2" == "-" ]]; then
        printf '(no target)'
    elif (( $(echo "$1 < $2" | bc -l) )); then
        printf 'target < %s s   ok' "$2"
    else
        printf 'target < %s s   FAIL' "$2"
    fi
}

# figure LABEL TARGET_SECONDS CMD...: one line, measured against target (or "-" for none).
figure() {
    local label=$1 target=$2
    shift 2
    local t
    t=$(best_of 3 "$@")
    printf '%-56s %9s s   %s\n' "$label" "$t" "$(verdict "$t" "$target")"
}

# optimum LABEL TARGET EXPECTED CMD...: times an `optimum --json` command $runs times and
# prints the value it proved (lower..upper when not exact) beside the expected one.
optimum() {
    local label=$1 target=$2 expected=$3
    shift 3
    local best="" value=""
    for _ in $(seq "$runs"); do
        local start end t out
        start=$(date +%s.%N)
        out=$("$@" --quiet --json 2>/dev/null)
        end=$(date +%s.%N)
        t=$(echo "$end - $start" | bc -l)
        if [[ -z "$best" ]] || (( $(echo "$t < $best" | bc -l) )); then best=$t; fi
        value=$(python3 -c '
import json, sys
v = json.load(sys.stdin)
text = str(v["lower"]) if v["exact"] else "%d..%d" % (v["lower"], v["upper"])
if "mean_lower_exact" in v and v["exact"]:
    text += " (" + v["mean_lower_exact"] + ")"
print(text + ", first guess " + v["first_guess"])' <<<"$out")
    done
    local check=""
    if [[ "$expected" != "-" ]]; then
        if [[ "$value" == "$expected"* ]]; then check="  = published"; else check="  != published $expected"; fi
    fi
    printf '%-56s %9.3f s   %s\n    %s%s\n' "$label" "$best" "$(verdict "$best" "$target")" "$value" "$check"
}

both_first() {
    "$bin" numeron analyze --digits 3 --strategy first --json
    "$bin" numeron analyze --digits 4 --strategy first --json
}

figure "analyze --strategy first, N = 3 and N = 4 together" 0.2 both_first
figure "analyze --strategy first, N = 5 (30,240 secrets)" - "$bin" numeron analyze --digits 5
figure "analyze --strategy entropy, N = 4" - "$bin" numeron analyze --digits 4 --strategy entropy
figure "analyze --strategy minimax, N = 4" - "$bin" numeron analyze --digits 4 --strategy minimax
figure "analyze --strategy optimal, N = 3 (exact search)" - "$bin" numeron analyze --digits 3 --strategy optimal
figure "analyze --strategy optimal-worst, N = 3 (exact)" - "$bin" numeron analyze --digits 3 --strategy optimal-worst
figure "analyze --strategy optimal --hard, N = 3 (exact)" - "$bin" numeron analyze --digits 3 --strategy optimal --hard

echo
echo "The published optima (issue 29), best of $runs:"
optimum "optimum --digits 4 (Bulls and Cows, least total)" 60 "26274 (4379/840)" "$bin" numeron optimum --digits 4
optimum "optimum --digits 4 --worst (least worst case)" 60 7 "$bin" numeron optimum --digits 4 --worst
optimum "mastermind optimum (4 pegs, 6 colours, least total)" 60 "5625 (625/144)" "$bin" mastermind optimum
optimum "mastermind optimum --worst (least worst case)" 60 5 "$bin" mastermind optimum --worst

if $larger; then
    echo
    echo "Beyond the published tables (each within a budget of 600 s: bounds when it runs out):"
    big=(--budget 600)
    optimum "mastermind optimum --colours 7 (2,401 secrets)" 600 - "$bin" mastermind optimum --colours 7 "${big[@]}"
    optimum "mastermind optimum --colours 7 --worst" 600 - "$bin" mastermind optimum --colours 7 --worst "${big[@]}"
    optimum "mastermind optimum --pegs 5 --colours 5 (3,125)" 600 - "$bin" mastermind optimum --pegs 5 --colours 5 "${big[@]}"
    optimum "mastermind optimum --pegs 5 --colours 5 --worst" 600 - "$bin" mastermind optimum --pegs 5 --colours 5 --worst "${big[@]}"
    optimum "mastermind optimum --colours 8 (4,096 secrets)" 600 - "$bin" mastermind optimum --colours 8 "${big[@]}"
    optimum "mastermind optimum --colours 8 --worst" 600 - "$bin" mastermind optimum --colours 8 --worst "${big[@]}"
    optimum "mastermind optimum --pegs 5 --colours 6 (7,776)" 600 - "$bin" mastermind optimum --pegs 5 --colours 6 "${big[@]}"
    optimum "mastermind optimum --pegs 5 --colours 6 --worst" 600 - "$bin" mastermind optimum --pegs 5 --colours 6 --worst "${big[@]}"
    optimum "numeron optimum --digits 5 --symbols 8 (6,720)" 600 - "$bin" numeron optimum --digits 5 --symbols 8 "${big[@]}"
    optimum "numeron optimum --digits 5 --symbols 8 --worst" 600 - "$bin" numeron optimum --digits 5 --symbols 8 --worst "${big[@]}"
fi

if $moonshot; then
    echo
    echo "The moonshot: within 7 guesses, the fewest 4-digit secrets that need the 7th:"
    optimum "optimum --digits 4 --fewest-at-worst --budget ${MOONSHOT_BUDGET:-1800}" - - \
        "$bin" numeron optimum --digits 4 --fewest-at-worst --budget "${MOONSHOT_BUDGET:-1800}"
fi
