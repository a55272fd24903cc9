#!/usr/bin/env bash
# Benchmarks for NikoNiko Gammon (issues 3 and 4): builds --release, then prints each
# figure the issues name against its target. Uses python3 for the arithmetic.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
BIN=$PWD/target/release/tabula
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

json() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }
verdict() { python3 -c "import sys; v,t=float(sys.argv[1]),float(sys.argv[2]); print('OK' if v<t else 'MISSED')" "$1" "$2"; }
row() { printf '%-58s %10s  target < %-8s %s\n' "$1" "$2" "$3" "$(verdict "$2" "$3")"; }

# Issue 3: enumerate + verify all round trips; plays of all 6 rolls on one core.
count=$("$BIN" nikoniko count --json | json 'd["seconds"]')
row "count: enumerate + verify 1,106,945 round trips (s)" "$count" 0.5
plays=$(RAYON_NUM_THREADS=1 "$BIN" nikoniko count --plays --json | json 'd["plays"]["seconds"]')
row "plays of all 6 rolls for every state, one core (s)" "$plays" 2

# Issue 4: the full build, wall time and peak memory.
/usr/bin/time -f '%e %M' -o "$WORK/time" "$BIN" nikoniko build --quiet --json --table "$WORK/n.tbl" >"$WORK/build.json"
read -r wall kib <"$WORK/time"
row "build: from nothing to both tables on disk, wall (s)" "$wall" 2
row "build: peak memory (MiB)" "$(python3 -c "print(round($kib/1024))")" 1024
python3 - "$WORK/build.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(f"  {d['sweeps']} equity sweeps (residual {d['residual']:.1e}), {d['outcome_sweeps']} outcome sweeps; "
      f"{d['graph_seconds']:.2f} s generating plays, {d['solve_seconds']:.2f} s iterating")
PY

# Equity from a cold process: the best and the median of 30 runs.
python3 - "$BIN" "$WORK/n.tbl" <<'PY'
import subprocess, sys, time, statistics
bin, table = sys.argv[1], sys.argv[2]
times = []
for _ in range(30):
    t = time.perf_counter()
    subprocess.run([bin, "nikoniko", "equity", "8,8,5,2,2/8,8,5,2,2", "--table", table], check=True, stdout=subprocess.DEVNULL)
    times.append((time.perf_counter() - t) * 1000)
best, median = min(times), statistics.median(times)
print(f"{'equity from a cold process, median of 30 (ms)':<58} {median:10.2f}  target < 10       {'OK' if median < 10 else 'MISSED'} (best {best:.2f} ms)")
PY
