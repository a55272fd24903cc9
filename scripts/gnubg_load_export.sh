#!/usr/bin/env bash
# Proves that GNU Backgammon itself loads a database tabula exported and evaluates from it
# (issue 14): solves Hypergammon-C with the cube, exports `hyperC.bd`, puts it where gnubg
# looks (/var/lib/gnubg, its own file kept aside and put back on exit), asks `gnubg -t` to
# evaluate some positions, and compares what gnubg prints (3 decimals for chances, 4 for
# the cube) with tabula's values. The positions include ones where gnubg's own database
# differs from tabula's by more than gnubg prints, so a match shows which file gnubg read.
#
#   scripts/gnubg_load_export.sh [CHECKERS]        default 2; needs root for /var/lib/gnubg
set -euo pipefail
cd "$(dirname "$0")/.."
C=${1:-2}
case "$C" in 1|2|3) ;; *) echo "gnubg reads Hypergammon 1 to 3, not $C" >&2; exit 2 ;; esac
command -v gnubg >/dev/null || [ -x /usr/games/gnubg ] || scripts/gnubg_databases.sh tables/gnubg 1 >/dev/null
cargo build --release --quiet
T=$PWD/target/release/tabula
WORK=$(mktemp -d)
DATA=/var/lib/gnubg
KEPT=""
PLACED=0
restore() {
    # gnubg's own file back where it was, or none if there was none.
    if [ -n "$KEPT" ]; then
        mv -f "$KEPT" "$DATA/hyper$C.bd"
    elif [ "$PLACED" = 1 ]; then
        rm -f "$DATA/hyper$C.bd"
    fi
    rm -rf "$WORK"
}
trap restore EXIT
"$T" gammon build --variant "hyper$C" --quiet --table "$WORK/hyper$C.tbl" >/dev/null
"$T" gammon export --variant "hyper$C" --table "$WORK/hyper$C.tbl" --gnubg "$WORK/hyper$C.bd"
mkdir -p "$DATA"
if [ -f "$DATA/hyper$C.bd" ]; then
    KEPT="$DATA/hyper$C.bd.gnubg-own"
    mv "$DATA/hyper$C.bd" "$KEPT"
fi
cp "$WORK/hyper$C.bd" "$DATA/hyper$C.bd"
PLACED=1

# The opening and, for C = 2, positions where gnubg's own cubeful values are off.
case "$C" in
    1) POSITIONS=("24/24" "15/22" "bar/10" "18/18") ;;
    2) POSITIONS=("24,23/24,23" "12,12/19,19" "23/5,5" "22,1/9,9" "21,2/10,10" "10,4/18,5") ;;
    3) POSITIONS=("24,23,22/24,23,22") ;;
esac
IDS=()
for p in "${POSITIONS[@]}"; do
    IDS+=("$("$T" gammon show "$p" --variant "hyper$C" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["position_id"])')")
done
# A position gnubg prints nothing for is reported below, one line each.
scripts/gnubg_eval.sh "$C" "${IDS[@]}" >"$WORK/gnubg.txt" || true
fails=0
for i in "${!POSITIONS[@]}"; do
    p=${POSITIONS[$i]}
    ours=$("$T" gammon equity "$p" --variant "hyper$C" --table "$WORK/hyper$C.tbl" --json)
    line=$(grep "^${IDS[$i]} " "$WORK/gnubg.txt" || true)
    verdict=$(python3 - "$ours" "$line" <<'PY'
import json, sys
ours = json.loads(sys.argv[1])
f = sys.argv[2].split()
if len(f) < 12:
    print("gnubg gave no database evaluation"); sys.exit(0)
o, c = ours["outcomes"], ours["cubeful"]
mine = [o["win"], o["win_gammon"], o["win_backgammon"], o["lose_gammon"], o["lose_backgammon"],
        c["owned"], c["centred"], c["centred_jacoby"], c["opponent_owns"]]
theirs = [float(x) for x in f[3:12]]
# gnubg prints chances to 3 decimals and cube equities to 4 (its 24-bit values truncated).
worst = max(abs(a - b) - (0.0005 if k < 5 else 0.00005) for k, (a, b) in enumerate(zip(mine, theirs)))
print("agrees" if worst <= 1e-6 else "DIFFERS", " ".join(f"{x:+.4f}" for x in mine[5:]), "| gnubg", " ".join(f[8:12]))
PY
)
    printf '%-20s %s  %s\n' "$p" "${IDS[$i]}" "$verdict"
    case "$verdict" in agrees*) ;; *) fails=$((fails + 1)) ;; esac
done
[ "$fails" = 0 ] && echo "gnubg evaluates from tabula's exported hyper$C.bd: every value agrees to what it prints"
exit "$fails"
