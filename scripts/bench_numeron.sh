#!/usr/bin/env bash
# Numeron speed figures against the targets of the issues. Builds --release, then times
# each command (wall clock, best of 3; the exact optima best of $RUNS, 1 by default) and
# prints it beside its target. The exact optima run on one thread and on every core
# (and on each power of two between, where the machine has more than two), with the
# parallel efficiency (speed-up over one thread, divided by the threads), the processor
# time, and the value each run proved; with a previous binary (PREVIOUS=path) that one
# runs too, in the same round, and its values must be the same.
#
#   scripts/bench_numeron.sh            the heuristics and the four published optima
#   scripts/bench_numeron.sh --larger   also the sizes beyond the published tables
#   scripts/bench_numeron.sh --moonshot also the fewest 4-digit secrets needing a 7th guess
#                                       (within $MOONSHOT_BUDGET seconds, 1800 by default)
#   PREVIOUS=/path/to/old/tabula scripts/bench_numeron.sh
#
# The load average is printed before and after: a figure is only as good as the machine
# was quiet.
set -euo pipefail
cd "$(dirname "$0")/.."
# TABULA_BIN times another build (a copy, say, while the tree is rebuilt) instead.
if [[ -z "${TABULA_BIN:-}" ]]; then
    cargo build --release --quiet
fi
bin=${TABULA_BIN:-target/release/tabula}
previous=${PREVIOUS:-}
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
cores=$(nproc)
threads=(1)
t=2
while (( t < cores )); do threads+=("$t"); t=$((t * 2)); done
(( cores > 1 )) && threads+=("$cores")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
echo "load before: $(uptime)"
echo "threads: ${threads[*]} (of $cores cores)${previous:+; previous binary: $previous}"

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

# value FILE: what an `optimum --json` document proved (lower..upper when not exact), its
# first guess, and its classes' values.
value() {
    python3 -c '
import json, sys
v = json.load(open(sys.argv[1]))
text = str(v["lower"]) if v["exact"] else "%d..%d" % (v["lower"], v["upper"])
if "mean_lower_exact" in v and v["exact"]:
    text += " (" + v["mean_lower_exact"] + ")"
classes = " ".join("%d:%d" % (c["size"], c["upper"]) for c in v["per_class"])
print(text + ", first guess " + v["first_guess"] + "|" + classes)' "$1"
}

# timed OUT BIN THREADS ARGS...: runs BIN ARGS --quiet --json on THREADS threads ("" for
# the default) $runs times; prints "wall cpu" of the fastest run, keeps its output in OUT.
timed() {
    local out=$1 program=$2 t=$3
    shift 3
    local best="" cpu=""
    for _ in $(seq "$runs"); do
        local times="$scratch/time"
        if [[ -n "$t" ]]; then
            RAYON_NUM_THREADS=$t /usr/bin/time -f '%e %U %S' -o "$times" \
                "$program" "$@" --quiet --json >"$out" 2>/dev/null
        else
            /usr/bin/time -f '%e %U %S' -o "$times" "$program" "$@" --quiet --json >"$out" 2>/dev/null
        fi
        read -r wall user sys <"$times"
        if [[ -z "$best" ]] || (( $(echo "$wall < $best" | bc -l) )); then
            best=$wall
            cpu=$(echo "$user + $sys" | bc -l)
        fi
    done
    echo "$best $cpu"
}

# optimum LABEL TARGET EXPECTED CMD...: one line per thread count (and the previous
# binary), with the wall and processor time, the parallel efficiency, the value proved
# beside the expected one, and the target checked on the most threads.
optimum() {
    local label=$1 target=$2 expected=$3
    shift 3
    echo "$label"
    local first_wall="" first_value="" last_wall=""
    for t in "${threads[@]}"; do
        local w c v eff
        # "$@" is the command, its program first.
        read -r w c < <(timed "$scratch/out" "$1" "$t" "${@:2}")
        v=$(value "$scratch/out")
        [[ -z "$first_wall" ]] && first_wall=$w && first_value=$v
        last_wall=$w
        eff=$(echo "$first_wall / $w / $t * 100" | bc -l)
        local check=""
        if [[ "$expected" != "-" ]]; then
            if [[ "${v%%|*}" == "$expected"* ]]; then check="  = published"; else check="  != published $expected"; fi
        fi
        [[ "$v" != "$first_value" ]] && check="$check  DIFFERS from one thread"
        local goal="(no target)"
        [[ "$t" == "${threads[-1]}" ]] && goal=$(verdict "$w" "$target")
        printf '  %2s thread%-2s %9.3f s wall %9.3f s cpu  efficiency %5.1f%%   %s\n      %s%s\n' \
            "$t" "$([[ $t == 1 ]] && echo ' ' || echo s)" "$w" "$c" "$eff" "$goal" "${v%%|*}" "$check"
    done
    if [[ -n "$previous" ]]; then
        local w c v
        read -r w c < <(timed "$scratch/prev" "$previous" "" "${@:2}")
        v=$(value "$scratch/prev")
        local same="same values"
        [[ "$v" != "$first_value" ]] && same="DIFFERENT values: ${v}"
        printf '  previous   %9.3f s wall %9.3f s cpu  (%.2f times the wall on %s threads)   %s\n' \
            "$w" "$c" "$(echo "$w / $last_wall" | bc -l)" "${threads[-1]}" "$same"
    fi
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
echo "The published optima (issues 29 and 37), best of $runs:"
optimum "optimum --digits 4 (Bulls and Cows, least total)" 12 "26274 (4379/840)" "$bin" numeron optimum --digits 4
optimum "optimum --digits 4 --worst (least worst case)" 60 7 "$bin" numeron optimum --digits 4 --worst
optimum "mastermind optimum (4 pegs, 6 colours, least total)" 60 "5625 (625/144)" "$bin" mastermind optimum
optimum "mastermind optimum --worst (least worst case)" 60 5 "$bin" mastermind optimum --worst

if $larger; then
    echo
    echo "Beyond the published tables (each within a budget of 600 s: bounds when it runs out):"
    big=(--budget 600)
    optimum "mastermind optimum --colours 7 (2,401 secrets)" 600 "11228" "$bin" mastermind optimum --colours 7 "${big[@]}"
    optimum "mastermind optimum --colours 7 --worst" 600 - "$bin" mastermind optimum --colours 7 --worst "${big[@]}"
    optimum "mastermind optimum --pegs 5 --colours 5 (3,125)" 600 - "$bin" mastermind optimum --pegs 5 --colours 5 "${big[@]}"
    optimum "mastermind optimum --pegs 5 --colours 5 --worst" 600 - "$bin" mastermind optimum --pegs 5 --colours 5 --worst "${big[@]}"
    optimum "mastermind optimum --colours 8 (4,096 secrets)" 600 - "$bin" mastermind optimum --colours 8 "${big[@]}"
    optimum "mastermind optimum --colours 8 --worst" 600 - "$bin" mastermind optimum --colours 8 --worst "${big[@]}"
    optimum "mastermind optimum --pegs 5 --worst (7,776; settled: 6)" 1800 6 "$bin" mastermind optimum --pegs 5 --worst --budget 1800
fi

if $moonshot; then
    echo
    echo "The moonshot: within 7 guesses, the fewest 4-digit secrets that need the 7th:"
    optimum "optimum --digits 4 --fewest-at-worst --budget ${MOONSHOT_BUDGET:-1800}" 60 50 \
        "$bin" numeron optimum --digits 4 --fewest-at-worst --budget "${MOONSHOT_BUDGET:-1800}"
fi
echo
echo "load after: $(uptime)"
