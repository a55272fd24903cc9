#!/usr/bin/env bash
# What GNU Backgammon itself says about Hypergammon positions, driven through `gnubg -t`
# without a terminal (docs/gammon.md, "Driving gnubg").
#
#   scripts/gnubg_eval.sh CHECKERS POSITION_ID...
#
# Needs gnubg's hyper<CHECKERS>.bd in its data folder (Debian: /var/lib/gnubg; build it
# with scripts/gnubg_databases.sh and copy it there), else gnubg falls back to its neural
# net and prints no database numbers. One line per Position ID:
#
#   ID  player opponent  win win_gammon win_backgammon lose_gammon lose_backgammon
#       owned centred centred_jacoby opponent_owns
#
# `player`/`opponent` are gnubg's side numbers for the side on roll (the ID's second side)
# and the other; the probabilities are printed by gnubg to 3 decimals, the cubeful
# equities to 4. With RAW=1 the whole of gnubg's output is shown instead.
set -euo pipefail

if [ $# -lt 2 ]; then
    echo "usage: $0 CHECKERS POSITION_ID..." >&2
    exit 2
fi
CHECKERS=$1
shift
case "$CHECKERS" in 1|2|3) ;; *) echo "gnubg plays 1, 2 or 3 checkers, not $CHECKERS" >&2; exit 2 ;; esac
GNUBG=$(command -v gnubg 2>/dev/null || echo /usr/games/gnubg)
[ -x "$GNUBG" ] || { echo "gnubg not found: scripts/gnubg_databases.sh installs it" >&2; exit 1; }

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
{
    echo "set player 0 human"
    echo "set player 1 human"
    echo "set variation $CHECKERS-chequer-hypergammon"
    echo "new session"
    for id in "$@"; do
        echo "set board $id"
        echo "eval"
    done
} >"$WORK/commands"

# -t: no window; -q: no sound; -r: no rc files; -s: a fresh preferences folder.
"$GNUBG" -t -q -r -s "$WORK/prefs" -c "$WORK/commands" >"$WORK/out" 2>&1 </dev/null

if [ "${RAW:-0}" = 1 ]; then
    cat "$WORK/out"
    exit 0
fi

awk '
/^Position ID:/ { id = $3 }
/^Evaluator:/ { evaluator = $2 }
/^Position / && evaluator ~ /Hypergammon/ { player = $2; opponent = $3 }
/^Owned cube/ { owned = $NF }
/^Centered cube  / { centred = $NF }
/^Centered cube \(Jacoby/ { jacoby = $NF }
/^Opponent owns cube/ { opp = $NF }
/^static:/ {
    if (evaluator !~ /Hypergammon/) { printf "%s  no database evaluation (evaluator %s)\n", id, evaluator; next }
    printf "%s %s %s %s %s %s %s %s %s %s %s %s\n", id, player, opponent, $2, $3, $4, $5, $6, owned, centred, jacoby, opp
}
' "$WORK/out" >"$WORK/lines"
cat "$WORK/lines"
# A Position ID gnubg printed no line for: it found no database (or refused the ID).
missing=0
for id in "$@"; do
    if ! grep -q "^$id " "$WORK/lines"; then
        echo "$id: gnubg printed no evaluation; is hyper$CHECKERS.bd in gnubg's data folder (Debian: /var/lib/gnubg)? RAW=1 shows its output" >&2
        missing=1
    fi
done
exit "$missing"
