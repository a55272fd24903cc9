#!/usr/bin/env bash
# Match play's figures (issues 30 and 36) on this machine:
#
#   scripts/bench_match.sh [--prev PREV]               hyper1 to 7 points, hyper2 to 3 and
#                                                      to 7
#   scripts/bench_match.sh [--prev PREV] --hyper3 [N]  also hyper3's scores to N points
#                                                      (default 3; each score about one
#                                                      cube solve, 6-8 GB), and the
#                                                      projection to 11 points, on one
#                                                      machine and on a cluster
#
# With --prev, each figure is measured with the previous binary PREV (e.g. main's) too,
# right after the current one, and the two sets of tables compared (their checksums: the
# same bytes); the last column is PREV's wall time over the current one's. Hyper3 to 7
# points takes about an hour a binary, and the disk its tables fill (checked first).
#
# Targets: hyper1 to 7 well under a second, hyper2 to 3 under 20 s and to 7 under 2
# minutes (issue 30; a plain exact solver — one thread, f64, no tricks — takes under a
# second and 65 s for the first two here); hyper3's 7-point table under an hour (issue 36).
# Each figure solves every score from nothing into a fresh folder (the tables of the
# states' graph included), wall and processor seconds. A busy machine shows in the load
# average printed first: the same solves take three to six times longer at a load of 10
# than on a quiet machine.
set -euo pipefail
# A failed run inside $(…) stops the script too.
shopt -s inherit_errexit
cd "$(dirname "$0")/.."
HYPER3=0
H3_LENGTH=3
PREV=""
while [ $# -gt 0 ]; do
    case "$1" in
        --prev) PREV=$(readlink -f "${2:?--prev needs a binary}"); shift ;;
        --hyper3)
            HYPER3=1
            if [[ "${2:-}" =~ ^[0-9]+$ ]]; then H3_LENGTH=$2; shift; fi ;;
        *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done
if [ -n "$PREV" ] && [ ! -x "$PREV" ]; then
    echo "not an executable: $PREV" >&2
    exit 2
fi
cargo build --release --quiet
T=$PWD/target/release/tabula
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores${PREV:+; previous: $PREV}"

# Solves VARIANT to LENGTH with BINARY into a fresh folder, the report in OUT: wall and
# processor seconds, peak memory; the checksums of the folder's tables in OUT.sum. A
# failed run stops the script with its command and the end of its error output.
run() {
    local bin=$1 variant=$2 length=$3 out=$4 dir="$WORK/$2-$3-$RANDOM"
    mkdir -p "$dir"
    if ! /usr/bin/time -f '%e %U %S %M' -o "$WORK/t" "$bin" gammon met --variant "$variant" \
        --length "$length" --match-tables "$dir" --quiet --json --timings >"$out" 2>"$WORK/err"; then
        echo "failed: $bin gammon met --variant $variant --length $length" >&2
        tail -5 "$WORK/err" >&2
        exit 1
    fi
    (cd "$dir" && sha256sum -- *.tbl) >"$out.sum"
    read -r wall user sys peak <"$WORK/t"
    rm -rf "$dir"
    awk -v w="$wall" -v u="$user" -v s="$sys" -v m="$peak" \
        'BEGIN { printf "%9.2f %9.2f %8.2f", w, u + s, m / 1048576 }'
}

# The current binary's figure for VARIANT to LENGTH (its report in $WORK/VARIANT-LENGTH.json)
# and, with --prev, the previous binary's beside it, the ratio of their walls, and whether
# their tables are the same bytes.
solve() {
    local variant=$1 length=$2 out="$WORK/$1-$2.json" now before same="same bytes"
    now=$(run "$T" "$variant" "$length" "$out")
    if [ -z "$PREV" ]; then
        echo "$now"
        return
    fi
    before=$(run "$PREV" "$variant" "$length" "$out.prev")
    cmp -s "$out.sum" "$out.prev.sum" || same="TABLES DIFFER"
    echo "$now | $before | $(awk -v a="$now" -v b="$before" \
        'BEGIN { split(a, x, " "); split(b, y, " "); printf "%.2fx", y[1] / x[1] }'), $same"
}

if [ -n "$PREV" ]; then
    printf '%-24s %9s %9s %8s | %s\n' "" "wall s" "cpu s" "peak GB" "previous: wall, cpu, peak | ratio"
else
    printf '%-24s %9s %9s %8s\n' "" "wall s" "cpu s" "peak GB"
fi
# One line of figures: LABEL, TARGET, then VARIANT LENGTH. (An assignment, not an argument
# of printf, so that a failed run stops the script.)
row() {
    local figures
    figures=$(solve "$3" "$4")
    printf '%-24s %s   %s\n' "$1" "$figures" "$2"
}
row "hyper1 to 7 points" "target well under 1 s" hyper1 7
row "hyper2 to 3 points" "target < 20 s (plain solver: 65 s)" hyper2 3
row "hyper2 to 7 points" "target < 2 min" hyper2 7
python3 - "$WORK/hyper2-7.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
units = [u for u in d["units"] if u.get("solve")]
sweeps = sum(u["solve"]["sweeps"] for u in units)
print(f"  hyper2 to 7: {len(units)} scores, {sweeps} sweeps in all "
      f"({sweeps / len(units):.0f} a score), {sum(u['solve']['seconds'] for u in units):.1f} s solving")
EOF
# The test's own plain solver (matchplay::naive: value iteration on boards, every cube
# value to 16 with both owners, no dead level assumed) beside tabula, and every value
# compared to 1e-10 (`--ignored` unit test).
cargo test --release --quiet --lib -- --ignored hyper1_to_seven --nocapture 2>/dev/null |
    grep '^hyper1 to 7 points' | sed 's/^/  /'

if [ "$HYPER3" = 1 ]; then
    avail=$(awk '/MemAvailable/ { printf "%d", $2 / 1048576 }' /proc/meminfo)
    if [ "$avail" -lt 9 ]; then
        echo "hyper3: only $avail GB available, 9 needed: not run"
        exit 0
    fi
    # The tables of one binary's run (a run's folder is removed before the next starts).
    records=$("$T" gammon count --variant hyper3 --json |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["records"])')
    need=$(python3 scripts/match_units.py disk "$records" "$H3_LENGTH")
    disk=$(df --output=avail -B1 "$WORK" | tail -1)
    if [ "$disk" -lt "$need" ]; then
        echo "hyper3 to $H3_LENGTH points: $((disk >> 30)) GB free in $WORK, $((need >> 30)) GB needed: not run"
        exit 0
    fi
    row "hyper3 to $H3_LENGTH points" "target to 7 points < 1 hour" hyper3 "$H3_LENGTH"
    # Each score's time against its width (values a state), fitted as seconds per 16-byte
    # pair of values (what a sweep reads of each successor), and projected to 11 points.
    python3 - "$WORK/hyper3-$H3_LENGTH.json" <<'EOF'
import json, math, sys
sys.path.insert(0, "scripts")
from match_units import parse, units as match_units, width
d = json.load(open(sys.argv[1]))
units = [u for u in d["units"] if u.get("solve")]

def pairs(w):
    return math.ceil(w / 2)

print("  score          width  sweeps  seconds")
for u in units:
    a, b, g = parse(u["unit"])
    s = u["solve"]
    print(f"  {u['unit']:<14} {width(a, b, g):>5} {s['sweeps']:>7} {s['seconds']:>8.1f}")
per_pair = sum(u["solve"]["seconds"] for u in units) / sum(pairs(width(*parse(u["unit"]))) for u in units)
for length in (5, 11):
    all_units = match_units(length)
    cost = {u: per_pair * pairs(width(*u)) for u in all_units}
    total = sum(cost.values())
    # A cluster: the scores of one total (a + b) are independent; each level waits for
    # the one below, and each process builds the graph again (its first seconds).
    levels = {}
    for u, c in cost.items():
        levels[u[0] + u[1]] = max(levels.get(u[0] + u[1], 0), c)
    print(f"  projected to {length} points: {len(all_units)} scores, {total / 60:.0f} min on this "
          f"machine; on a cluster of {max(sum(1 for u in all_units if u[0] + u[1] == t) for t in levels)} "
          f"machines {sum(levels.values()) / 60:.0f} min plus a graph build a level "
          f"({len(levels)} levels)")
EOF
fi
