#!/usr/bin/env bash
# Bear-off benchmarks (issue 25, docs/benchmarks.md "Bear-off databases"): tabula's builds
# of the one-sided databases of 6, 8 and 10 points and of the two-sided 6x6, 6x8 and 6x10
# with the cube, each against the issue's figure, side by side in the same run with GNU
# Backgammon's `makebearoff` building the same databases; each file makebearoff writes is
# then compared with tabula's table (`tabula bearoff compare`), so the run also shows that
# both built the same thing.
#
#   scripts/bench_bearoff.sh          tabula's six builds; makebearoff -o 6 and -t 6x6
#   scripts/bench_bearoff.sh --slow   also makebearoff -o 8 and -t 6x8 (about 8 minutes
#                                     more on this machine; -o 10 and -t 6x10 would take
#                                     hours and are not run)
#   RUNS=3                            tabula's builds are each run RUNS times: best and median
#
# Wall seconds, processor seconds (user + system) and peak memory come from
# /usr/bin/time; the load average is printed before and after, since the machine is shared.
set -euo pipefail
cd "$(dirname "$0")/.."
SLOW=0
case "${1:-}" in
    --slow) SLOW=1 ;;
    "") ;;
    *) echo "usage: $0 [--slow]" >&2; exit 2 ;;
esac
RUNS=${RUNS:-3}
MAKEBEAROFF=$(command -v makebearoff 2>/dev/null || echo /usr/games/makebearoff)
cargo build --release --quiet
T=$PWD/target/release/tabula
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores); $(date -u '+%Y-%m-%d %H:%M UTC')"

# One timed run: NAME then the command; writes $WORK/NAME.time (wall user sys KiB).
timed() {
    local name=$1
    shift
    /usr/bin/time -f '%e %U %S %M' -o "$WORK/$name.time" "$@" >"$WORK/$name.out"
}

# tabula's builds: NAME TARGET-SECONDS then the build's size arguments.
CASES=(
    "os6 0.25 --points 6"
    "os8 2 --points 8"
    "os10 30 --points 10"
    "ts6x6 0.2 --points 6 --checkers 6 --two-sided"
    "ts6x8 3 --points 6 --checkers 8 --two-sided"
    "ts6x10 60 --points 6 --checkers 10 --two-sided"
)
for c in "${CASES[@]}"; do
    read -r name _ args <<<"$c"
    for i in $(seq "$RUNS"); do
        # shellcheck disable=SC2086
        timed "$name.$i" "$T" bearoff build $args --quiet --json --table "$WORK/$name.tbl"
    done
    echo "$name $(stat -c %s "$WORK/$name.tbl")" >"$WORK/$name.size"
    # The largest tables are only needed for their size once measured.
    case $name in os10 | ts6x10) rm -f "$WORK/$name.tbl" ;; esac
done

# makebearoff, one run each: NAME then its arguments.
GNUBG=("gos6 -o 6" "gts6x6 -t 6x6")
if [ "$SLOW" = 1 ]; then GNUBG+=("gos8 -o 8" "gts6x8 -t 6x8"); fi
if [ -x "$MAKEBEAROFF" ]; then
    for g in "${GNUBG[@]}"; do
        read -r name args <<<"$g"
        # shellcheck disable=SC2086
        timed "$name" "$MAKEBEAROFF" $args -f "$WORK/$name.bd"
        table=$WORK/${name#g}.tbl
        if [ -f "$table" ]; then
            "$T" bearoff compare --table "$table" --gnubg "$WORK/$name.bd" --json >"$WORK/$name.compare"
        fi
    done
else
    echo "makebearoff not found (Debian's gnubg package): tabula's figures only"
fi
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$WORK" "$RUNS" "${CASES[@]}" <<'PY'
import json, os, statistics, sys
work, runs, cases = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
def read_time(path):
    wall, user, sys_, kib = open(path).read().split()
    return float(wall), float(user) + float(sys_), int(kib)
print(f"\n{'database':<26}{'tabula best':>12}{'median':>8}{'cpu s':>7}{'solve':>7}{'peak MB':>9}{'table MB':>9}"
      f"  {'target':<9}{'':<7}{'makebearoff':>12}{'ratio':>7}")
for c in cases:
    name, target = c.split()[:2]
    target = float(target)
    rows = [read_time(f"{work}/{name}.{i}.time") for i in range(1, runs + 1)]
    best = min(rows, key=lambda r: r[0])
    median = statistics.median(r[0] for r in rows)
    report = json.load(open(f"{work}/{name}.1.out"))
    size = int(open(f"{work}/{name}.size").read().split()[1])
    label = (f"one-sided {name[2:]} points" if name.startswith("os")
             else f"two-sided {name[2:]}, cube")
    gtime = f"{work}/g{name}.time"
    g, ratio = "", ""
    if os.path.exists(gtime):
        gw = read_time(gtime)[0]
        g, ratio = f"{gw:.1f} s", f"{gw / best[0]:.0f}x"
    verdict = "OK" if best[0] < target else "MISSED"
    print(f"{label:<26}{best[0]:>10.2f} s{median:>8.2f}{best[1]:>7.1f}{report['solve_seconds']:>7.2f}"
          f"{best[2] / 1024:>9.0f}{size / 1e6:>9.0f}  < {target:<7g}{verdict:<7}{g:>12}{ratio:>7}")
print()
for g in sorted(f for f in os.listdir(work) if f.endswith(".compare")):
    d = json.load(open(f"{work}/{g}"))
    what = ", ".join(f"{q['quantity']} {q['max_diff']:.1e} ({q['units']:.1f} units)" for q in d.get("quantities", []))
    print(f"compare with makebearoff's {g[1:-8]}: {d['positions']} positions; largest differences: {what}")
PY
