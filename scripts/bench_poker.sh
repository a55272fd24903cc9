#!/usr/bin/env bash
# Benchmarks for 大石泉すき poker: builds --release, runs each command, prints its wall
# time against the target the issue names (only `poker verify` has one: under 1 s).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
BIN=target/release/tabula

# best of N runs, in seconds
time_best() {
  local runs=$1; shift
  local best=""
  for _ in $(seq "$runs"); do
    local t0 t1 dt
    t0=$(date +%s.%N)
    "$@" >/dev/null
    t1=$(date +%s.%N)
    dt=$(echo "$t1 - $t0" | bc -l)
    if [ -z "$best" ] || [ "$(echo "$dt < $best" | bc -l)" = 1 ]; then best=$dt; fi
  done
  printf '%.3f' "$best"
}

report() { # name, seconds, target seconds (or "-")
  local name=$1 secs=$2 target=$3 verdict="(no target)"
  if [ "$target" != "-" ]; then
    if [ "$(echo "$secs < $target" | bc -l)" = 1 ]; then verdict="OK (target < ${target} s)";
    else verdict="SLOW (target < ${target} s)"; fi
  fi
  printf '%-28s %8s s  %s\n' "$name" "$secs" "$verdict"
}

report "poker verify" "$(time_best 5 "$BIN" poker verify --json)" 1
report "poker verify (1 thread)" "$(RAYON_NUM_THREADS=1 time_best 3 "$BIN" poker verify --json)" 1
report "poker table" "$(time_best 5 "$BIN" poker table --json)" -
report "poker search-rule --depth 3" "$(time_best 3 "$BIN" poker search-rule --json)" -
report "poker compare" "$(time_best 5 "$BIN" poker compare oizsk sksks --json)" -
report "poker verify --rule (3 stats)" "$(time_best 3 "$BIN" poker verify --json --rule stroke-pos+stroke-at-4+stroke-at-3)" 1
report "poker strength" "$(time_best 5 "$BIN" poker strength oizsk --json)" -
report "poker table --strength" "$(time_best 3 "$BIN" poker table --strength --json)" -
