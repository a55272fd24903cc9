#!/usr/bin/env bash
# The backgammon engine against a previous build of tabula, side by side in the same run
# (issue 24: "no build or query is slower"): every build and query below runs with both
# binaries, alternately, and the median of N runs of each is printed with the ratio.
#
#   scripts/bench_engine.sh OLD_BINARY [RUNS]       (RUNS default 5)
#
# OLD_BINARY is a `tabula` built from an earlier commit, e.g.
#   git worktree add /tmp/old <commit> && (cd /tmp/old && cargo build --release)
#   scripts/bench_engine.sh /tmp/old/target/release/tabula
# Builds before issue 24 spell "with the cube" `--cube` and "cubeless" as nothing; later
# ones spell them nothing and `--cubeless`: the script asks each binary which it takes.
# The load average is printed first: on a busy machine the two columns share the noise.
set -euo pipefail
cd "$(dirname "$0")/.."
OLD=${1:?usage: scripts/bench_engine.sh OLD_BINARY [RUNS]}
RUNS=${2:-5}
cargo build --release --quiet
NEW=$PWD/target/release/tabula
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores; medians of $RUNS"

# The build flags a binary takes: "CUBELESS CUBE" (a dash for none).
flags() {
    if "$1" gammon build --help | grep -q -- --cubeless; then echo "--cubeless -"; else echo "- --cube"; fi
}
read -r OLD_CUBELESS OLD_CUBE <<<"$(flags "$OLD")"
read -r NEW_CUBELESS NEW_CUBE <<<"$(flags "$NEW")"

# Seconds of one run of a command (output discarded), to the microsecond.
once() {
    local start=$EPOCHREALTIME
    "$@" >/dev/null 2>&1 </dev/null || echo "failed: $*" >&2
    awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.6f\n", b - a }'
}

# Runs the line for both binaries RUNS times, alternately; prints both medians and the
# ratio. In the command, BIN stands for the binary, CUBELESS and CUBE for its flags.
compare() {
    local label=$1; shift
    local -a old new
    for _ in $(seq "$RUNS"); do
        for who in OLD NEW; do
            local bin cubeless cube args=()
            if [ "$who" = OLD ]; then bin=$OLD cubeless=$OLD_CUBELESS cube=$OLD_CUBE; else bin=$NEW cubeless=$NEW_CUBELESS cube=$NEW_CUBE; fi
            for a in "$@"; do
                case "$a" in
                    BIN) args+=("$bin") ;;
                    CUBELESS) [ "$cubeless" != - ] && args+=("$cubeless") ;;
                    CUBE) [ "$cube" != - ] && args+=("$cube") ;;
                    *) args+=("${a//@WHO@/$who}") ;;
                esac
            done
            t=$(once "${args[@]}")
            if [ "$who" = OLD ]; then old+=("$t"); else new+=("$t"); fi
        done
    done
    med() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
    local o n
    o=$(med "${old[@]}"); n=$(med "${new[@]}")
    awk -v l="$label" -v o="$o" -v n="$n" \
        'BEGIN { printf "%-46s %9.4f %9.4f %7.2fx\n", l, o, n, (o > 0 ? n / o : 1) }'
}

printf '%-46s %9s %9s %8s\n' "" "old s" "new s" "new/old"
compare "nikoniko build (the article's tables)" BIN nikoniko build --quiet --table "$WORK/@WHO@-n.tbl"
compare "gammon build hyper2, cubeless" BIN gammon build --variant hyper2 CUBELESS --quiet --table "$WORK/@WHO@-h2.tbl"
compare "gammon build hyper2, with the cube" BIN gammon build --variant hyper2 CUBE --quiet --table "$WORK/@WHO@-h2c.tbl"
compare "gammon build nikoniko, with the cube" BIN gammon build --variant nikoniko CUBE --quiet --table "$WORK/@WHO@-nc.tbl"
compare "nikoniko count --plays" BIN nikoniko count --plays
compare "nikoniko equity (opening)" BIN nikoniko equity 8,8,5,2,2/8,8,5,2,2 --table "$WORK/@WHO@-n.tbl"
compare "nikoniko hint (opening, 1-2)" BIN nikoniko hint 8,8,5,2,2/8,8,5,2,2 1-2 --table "$WORK/@WHO@-n.tbl"
compare "nikoniko verify" BIN nikoniko verify --table "$WORK/@WHO@-n.tbl"
compare "gammon equity hyper2 (with the cube)" BIN gammon equity 24,23/24,23 --variant hyper2 --table "$WORK/@WHO@-h2c.tbl"
compare "gammon hint hyper2 6-5 (cubeless)" BIN gammon hint 24,23/24,23 6-5 --variant hyper2 --table "$WORK/@WHO@-h2c.tbl"
compare "gammon hint hyper2 6-5 --cube centred" BIN gammon hint 24,23/24,23 6-5 --variant hyper2 --cube centred --table "$WORK/@WHO@-h2c.tbl"
compare "gammon opening hyper2" BIN gammon opening --variant hyper2 --table "$WORK/@WHO@-h2c.tbl"
compare "gammon verify hyper2" BIN gammon verify --variant hyper2 --table "$WORK/@WHO@-h2c.tbl"
for who in OLD NEW; do
    bin=$OLD; [ "$who" = NEW ] && bin=$NEW
    for f in n.tbl n.outcomes h2.tbl h2c.cube nc.cube; do
        "$bin" table info "$WORK/$who-$f" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["checksum"])' >>"$WORK/sums.$who"
    done
done
if cmp -s "$WORK/sums.OLD" "$WORK/sums.NEW"; then
    echo "tables: the two binaries wrote the same bytes (payload checksums of all five equal)"
else
    echo "tables: the two binaries' tables DIFFER"; paste "$WORK/sums.OLD" "$WORK/sums.NEW"; exit 1
fi
