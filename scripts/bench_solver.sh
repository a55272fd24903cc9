#!/usr/bin/env bash
# The solver's figures (issue 36) beside a previous binary, in one run, on this machine:
#
#   scripts/bench_solver.sh PREV                 hyper2 with the cube, RUNS runs each
#                                                (5), hyper3 H3_RUNS runs each (1)
#   scripts/bench_solver.sh PREV --hyper3        also hyper3 cubeless and with the cube
#                                                (about 6 GB each, one at a time)
#   scripts/bench_solver.sh PREV --score DIR     also one hyper3 match score, 2-2, solved
#                                                from DIR's tables of 1-1 and 1-2-crawford
#
# PREV is a previous `tabula` (e.g. main's). Targets (issue 36): hyper2 with the cube at
# least 2x faster than before; hyper3 cubeless under 40 s, with the cube under 90 s, peak
# no higher than 6 GB; one hyper3 score under 60 s. Each pair of runs ends by comparing
# the two binaries' tables (their checksums: the same bytes). The runs alternate between
# the binaries; wall and processor seconds, peak memory. A busy machine shows in the
# load average printed before each figure: compare the processor seconds there, and
# measure again on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."
PREV=$(readlink -f "${1:?usage: bench_solver.sh PREV [--hyper3] [--score DIR]}")
shift
HYPER3=0
SCORE_DIR=""
while [ $# -gt 0 ]; do
    case "$1" in
        --hyper3) HYPER3=1 ;;
        --score) SCORE_DIR=$(readlink -f "$2"); shift ;;
        *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done
RUNS=${RUNS:-5}
# Hyper3's builds take a minute or two each: once a binary unless asked for more.
H3_RUNS=${H3_RUNS:-1}
cargo build --release --quiet
NEW=$PWD/target/release/tabula
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
echo "$(nproc) cores; previous: $PREV"

# One run of BINARY with ARGS…: "wall cpu peak_GB".
run() {
    local bin=$1; shift
    # A failed run (a full disk, say) stops the script with its command and last words.
    if ! /usr/bin/time -f '%e %U %S %M' -o "$WORK/t" "$bin" "$@" >/dev/null 2>"$WORK/err"; then
        echo "failed: $bin $*" >&2
        tail -n 5 "$WORK/err" >&2
        exit 1
    fi
    awk '{ printf "%.2f %.2f %.2f\n", $1, $2 + $3, $4 / 1048576 }' "$WORK/t"
}

# Medians of the lines "wall cpu peak" on stdin.
medians() {
    python3 -c 'import statistics as s, sys
rows = [l.split() for l in sys.stdin if l.strip()]
print(" ".join("%8.2f" % s.median(float(r[i]) for r in rows) for i in range(3)))'
}

# The checksum a table's header gives.
checksum() { "$NEW" table info "$1" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["checksum"])'; }

# Which binary runs first in the next round: the order alternates from round to round,
# across the pairs too, so that neither binary always meets the machine first (a fresh
# process's first touch of its memory costs more after the machine has been idle).
FIRST=prev
# Runs LABEL with ARGS (where @T@ stands for the table's path), RUNS times each binary
# alternately, and prints both medians, the ratio, and whether the tables agree.
pair() {
    local label=$1 runs=$2 ext=$3; shift 3
    : >"$WORK/prev.txt"; : >"$WORK/new.txt"
    for _ in $(seq "$runs"); do
        local order="prev new"; [ "$FIRST" = new ] && order="new prev"
        if [ "$FIRST" = prev ]; then FIRST=new; else FIRST=prev; fi
        for who in $order; do
            local bin=$PREV; [ "$who" = new ] && bin=$NEW
            local args=("${@//@T@/$WORK/$who}")
            run "$bin" "${args[@]}" >>"$WORK/$who.txt"
        done
    done
    local p n
    p=$(medians <"$WORK/prev.txt"); n=$(medians <"$WORK/new.txt")
    local same="same bytes"
    local a b
    for e in $ext; do
        a=$(checksum "$WORK/prev.$e"); b=$(checksum "$WORK/new.$e")
        if [ "$a" != "$b" ]; then
            same="TABLES DIFFER ($e)"
            echo "  .$e checksums: previous $a, new $b"
        fi
    done
    echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
    printf '%-34s %s   (previous)\n' "$label" "$p"
    printf '%-34s %s   %s; processor time %s\n' "" "$n" "$same" \
        "$(awk -v a="$p" -v b="$n" 'BEGIN { split(a, x, " "); split(b, y, " "); printf "%.2fx faster", x[2] / y[2] }')"
    if [ "$runs" -gt 1 ]; then
        # Run i of each binary ran back to back: the median of those pairs' ratios is
        # steadier than the ratio of medians on a machine whose speed drifts.
        python3 -c 'import statistics as s, sys
p = [l.split() for l in open(sys.argv[1]) if l.strip()]
n = [l.split() for l in open(sys.argv[2]) if l.strip()]
for i, what in ((0, "wall"), (1, "processor")):
    r = sorted(float(a[i]) / float(b[i]) for a, b in zip(p, n))
    print("  per-pair ratio, %-9s median %.2fx (quartiles %.2f-%.2f)" % (what, s.median(r), r[len(r) // 4], r[3 * len(r) // 4]))' \
            "$WORK/prev.txt" "$WORK/new.txt"
        printf '%-34s previous %s; new %s\n' "  each run's wall s:" \
            "$(cut -d' ' -f1 "$WORK/prev.txt" | tr '\n' ' ')" "$(cut -d' ' -f1 "$WORK/new.txt" | tr '\n' ' ')"
    fi
}

printf '%-34s %8s %8s %7s\n' "" "wall s" "cpu s" "peak GB"
pair "hyper2 with the cube" "$RUNS" "tbl cube" gammon build --variant hyper2 --quiet --table @T@.tbl
if [ "$HYPER3" = 1 ]; then
    pair "hyper3 cubeless" "$H3_RUNS" "tbl" gammon build --variant hyper3 --cubeless --quiet --table @T@.tbl
    pair "hyper3 with the cube" "$H3_RUNS" "tbl cube" gammon build --variant hyper3 --quiet --table @T@.tbl
fi
if [ -n "$SCORE_DIR" ]; then
    for who in prev new; do
        mkdir -p "$WORK/$who-m"
        cp "$SCORE_DIR/hyper3.match-1-1.tbl" "$SCORE_DIR/hyper3.match-1-2-crawford.tbl" "$WORK/$who-m/"
    done
    # The score's table is written beside its inputs: named so that `pair` compares it.
    pair "hyper3 score 2-2" 1 "" gammon score-build --variant hyper3 --score 2-2 --quiet \
        --match-tables @T@-m
    for who in prev new; do cp "$WORK/$who-m/hyper3.match-2-2.tbl" "$WORK/$who.m22"; done
    [ "$(checksum "$WORK/prev.m22")" = "$(checksum "$WORK/new.m22")" ] &&
        echo "  2-2's tables: same bytes" || echo "  2-2's tables DIFFER"
fi
