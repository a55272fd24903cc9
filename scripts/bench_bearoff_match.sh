#!/usr/bin/env bash
# The bear-off at a match score (issue 38, docs/bearoff.md "At a match score"): the time
# `tabula bearoff analyse` takes to judge the bear-offs of a 25-point match gnubg played
# against itself (tests/data/gnubg/backgammon-match25.mat) at their scores, side by side
# in the same run with GNU Backgammon analysing the same file (`analyse match`: every
# decision of the match, contact included, at its default level, so not the same work:
# the peer's cost of an analysis of that file), and the largest question of a 6x6 table
# at a score (six checkers on the six-point each at 25-25, eleven cube places).
#
#   scripts/bench_bearoff_match.sh          the 6x6 table
#   scripts/bench_bearoff_match.sh --slow   also the 6x8 table (its build, then the match:
#                                           about a minute more)
#
# The match-equity table is gnubg's own (/usr/share/gnubg/met/Kazaross-XG2.xml). Wall
# seconds, processor seconds (user + system) and peak memory come from /usr/bin/time; the
# load average is printed before and after, since the machine is shared.
set -euo pipefail
cd "$(dirname "$0")/.."
SLOW=0
case "${1:-}" in
    --slow) SLOW=1 ;;
    "") ;;
    *) echo "usage: $0 [--slow]" >&2; exit 2 ;;
esac
MET=/usr/share/gnubg/met/Kazaross-XG2.xml
GNUBG=/usr/games/gnubg
[ -s "$MET" ] && [ -x "$GNUBG" ] || { echo "needs gnubg (Debian: apt-get install gnubg)" >&2; exit 1; }
cargo build --release --quiet
T=$PWD/target/release/tabula
FILE=$PWD/tests/data/gnubg/backgammon-match25.mat
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores); $(date -u '+%Y-%m-%d %H:%M UTC')"

# One timed run: KEY (its files in $WORK), LABEL, then the command; prints wall, processor
# seconds and peak memory.
timed() {
    local key=$1 label=$2
    shift 2
    /usr/bin/time -f '%e %U %S %M' -o "$WORK/$key.time" "$@" >"$WORK/$key.out" 2>"$WORK/$key.err"
    read -r wall user sys kib <"$WORK/$key.time"
    printf '%-48s %8.2f s wall %8.2f processor-s %8.0f MB\n' "$label" "$wall" \
        "$(echo "$user + $sys" | bc)" "$(echo "$kib / 1024" | bc)"
}

# The decisions a document judged.
judged() {
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sum(t["decisions"] for t in d["totals"]))' "$1"
}

sizes=(6)
[ "$SLOW" = 1 ] && sizes+=(8)
for c in "${sizes[@]}"; do
    timed "build$c" "build 6x$c (with the cube)" "$T" bearoff build --points 6 --checkers "$c" --two-sided \
        --table "$WORK/ts-6x$c.tbl" --quiet
    timed "match$c" "tabula: the match's bear-offs, 6x$c" "$T" bearoff analyse "$FILE" \
        --table "$WORK/ts-6x$c.tbl" --met "$MET" --json
    echo "    $(judged "$WORK/match$c.out") decisions judged exactly"
done
timed largest "tabula: 6,6,6,6,6,6/6,6,6,6,6,6 at 25-25 (6x6)" "$T" bearoff equity \
    6,6,6,6,6,6/6,6,6,6,6,6 --score 25-25 --table "$WORK/ts-6x6.tbl" --met "$MET" --json

printf 'import mat %s\nanalyse match\n' "$FILE" >"$WORK/gnubg.commands"
timed gnubg "gnubg: analyse match (the whole match)" sh -c "$GNUBG -t -q -r <'$WORK/gnubg.commands'"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
