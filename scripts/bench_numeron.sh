#!/usr/bin/env bash
# Numeron speed figures against the targets of the issue. Builds --release, then times
# each command (wall clock, best of 3) and prints it beside its target.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/tabula

# best_of CMD...: prints the best wall time of three runs, in seconds.
best_of() {
    local best=""
    for _ in 1 2 3; do
        local start end t
        start=$(date +%s.%N)
        "$@" >/dev/null
        end=$(date +%s.%N)
        t=$(echo "$end - $start" | bc -l)
        if [[ -z "$best" ]] || (( $(echo "$t < $best" | bc -l) )); then best=$t; fi
    done
    printf '%.3f' "$best"
}

# figure LABEL TARGET_SECONDS CMD...: one line, measured against target (or "-" for none).
figure() {
    local label=$1 target=$2
    shift 2
    local t
    t=$(best_of "$@")
    if [[ "$target" == "-" ]]; then
        printf '%-52s %8s s   (no target)\n' "$label" "$t"
    else
        local verdict=FAIL
        if (( $(echo "$t < $target" | bc -l) )); then verdict=ok; fi
        printf '%-52s %8s s   target < %s s   %s\n' "$label" "$t" "$target" "$verdict"
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
