#!/usr/bin/env bash
# Issue 16, "fair under contention": the NikoNiko build on a quiet machine, then with one
# busy process per core beside it. Targets: wall time under load at most 2.3x the quiet
# wall time, CPU time (user + system) under load at most 1.25x the quiet CPU time.
# Each condition is measured BUILDS times (default 5); the medians are compared.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
BIN=$PWD/target/release/tabula
WORK=$(mktemp -d)
BUSY=()
cleanup() {
  for pid in "${BUSY[@]:-}"; do [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT
BUILDS=${BUILDS:-5}
CORES=$(nproc)

measure() { # label
  for i in $(seq "$BUILDS"); do
    /usr/bin/time -f '%e %U %S' -o "$WORK/$1.$i" "$BIN" nikoniko build --quiet --table "$WORK/n.tbl" >/dev/null
  done
}

measure quiet
# One busy process per core: a pure CPU loop, nothing shared with the build.
for _ in $(seq "$CORES"); do
  ( while :; do :; done ) &
  BUSY+=("$!")
done
sleep 1
measure loaded
for pid in "${BUSY[@]}"; do kill "$pid" 2>/dev/null || true; done
BUSY=()

python3 - "$WORK" "$BUILDS" "$CORES" <<'PY'
import statistics, sys
work, builds, cores = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def runs(label):
    out = []
    for i in range(1, builds + 1):
        wall, user, sys_ = map(float, open(f"{work}/{label}.{i}").read().split())
        out.append((wall, user + sys_))
    return out
q, l = runs("quiet"), runs("loaded")
qw, qc = statistics.median(r[0] for r in q), statistics.median(r[1] for r in q)
lw, lc = statistics.median(r[0] for r in l), statistics.median(r[1] for r in l)
ok = lambda v, t: "OK" if v <= t else "MISSED"
print(f"NikoNiko build, median of {builds}, {cores} busy processes beside the loaded runs")
print(f"  quiet:  wall {qw:6.2f} s   cpu {qc:6.2f} s")
print(f"  loaded: wall {lw:6.2f} s   cpu {lc:6.2f} s")
print(f"  wall ratio {lw / qw:5.2f}  target <= 2.30  {ok(lw / qw, 2.3)}")
print(f"  cpu ratio  {lc / qc:5.2f}  target <= 1.25  {ok(lc / qc, 1.25)}")
PY
