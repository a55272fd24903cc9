#!/usr/bin/env bash
# Match play's figures (issue 30) on this machine:
#
#   scripts/bench_match.sh                 hyper1 to 7 points, hyper2 to 3 and to 7
#   scripts/bench_match.sh --hyper3 [N]    also hyper3's scores to N points (default 3;
#                                          each score about one cube solve, 6-8 GB), and
#                                          the projection to 11 points, on one machine and
#                                          on a cluster
#
# Targets (issue 30): hyper1 to 7 well under a second, hyper2 to 3 under 20 s and to 7
# under 2 minutes (a plain exact solver — one thread, f64, no tricks — takes under a second
# and 65 s for the first two here). Each figure solves every score from nothing into a
# fresh folder (the tables of the states' graph included), wall and processor seconds. A
# busy machine shows in the load average printed first: the same solves take three to six
# times longer at a load of 10 than on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."
HYPER3=0
H3_LENGTH=3
if [ "${1:-}" = "--hyper3" ]; then
    HYPER3=1
    H3_LENGTH=${2:-3}
fi
cargo build --release --quiet
T=$PWD/target/release/tabula
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"

# Solves VARIANT to LENGTH into a fresh folder: wall and processor seconds, peak memory.
solve() {
    local variant=$1 length=$2 dir="$WORK/$1-$2-$RANDOM"
    mkdir -p "$dir"
    /usr/bin/time -f '%e %U %S %M' -o "$WORK/t" "$T" gammon met --variant "$variant" \
        --length "$length" --match-tables "$dir" --quiet --json >"$WORK/$variant-$length.json"
    read -r wall user sys peak <"$WORK/t"
    rm -rf "$dir"
    awk -v w="$wall" -v u="$user" -v s="$sys" -v m="$peak" \
        'BEGIN { printf "%9.2f %9.2f %8.2f", w, u + s, m / 1048576 }'
}

printf '%-36s %9s %9s %8s\n' "" "wall s" "cpu s" "peak GB"
printf '%-36s %s   target well under 1 s\n' "hyper1 to 7 points" "$(solve hyper1 7)"
printf '%-36s %s   target < 20 s (plain solver: 65 s)\n' "hyper2 to 3 points" "$(solve hyper2 3)"
printf '%-36s %s   target < 2 min\n' "hyper2 to 7 points" "$(solve hyper2 7)"
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
    printf '%-36s %s\n' "hyper3 to $H3_LENGTH points" "$(solve hyper3 "$H3_LENGTH")"
    # Each score's time against its width (values a state), fitted as seconds per 16-byte
    # pair of values (what a sweep reads of each successor), and projected to 11 points.
    python3 - "$WORK/hyper3-$H3_LENGTH.json" <<'EOF'
import json, math, sys
d = json.load(open(sys.argv[1]))
units = [u for u in d["units"] if u.get("solve")]

def width(a, b, game):
    if (a, b) == (1, 1):
        return 1
    if game == "crawford":
        return 2
    live = 0
    while 2 << live < b:
        live += 1
    return (1 if a == b else 2) * (1 + 2 * live)

def parse(name):
    game = "crawford" if name.endswith("-crawford") and "post" not in name else \
        "post" if "post" in name else "normal"
    a, b = name.split("-")[:2]
    return int(a), int(b), game

def pairs(w):
    return math.ceil(w / 2)

print("  score          width  sweeps  seconds")
for u in units:
    a, b, g = parse(u["unit"])
    s = u["solve"]
    print(f"  {u['unit']:<14} {width(a, b, g):>5} {s['sweeps']:>7} {s['seconds']:>8.1f}")
per_pair = sum(u["solve"]["seconds"] for u in units) / sum(pairs(width(*parse(u["unit"]))) for u in units)
for length in (5, 11):
    all_units = [(1, 1, "post")]
    for b in range(2, length + 1):
        all_units += [(1, b, "post"), (1, b, "crawford")]
        all_units += [(a, b, "normal") for a in range(2, b + 1)]
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
