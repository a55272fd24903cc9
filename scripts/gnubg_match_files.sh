#!/usr/bin/env bash
# GNU Backgammon plays matches against itself and saves them as .sgf and .mat, then
# analyses them and exports its analysis as text (docs/gammon.md, "Match files"):
# the real files `tabula gammon analyse` is tested on (tests/suite/gammon_analyse.rs).
#
#   scripts/gnubg_match_files.sh OUT NAME CHECKERS LENGTH SEED
#
# CHECKERS 1-3 plays Hypergammon, 15 backgammon; LENGTH 0 is a money session of four
# games (no Jacoby rule; AUTODOUBLES=N lets an opening roll of doubles turn the cube, up to N
# times, which gnubg saves as the game's starting cube, CV[2]). Writes OUT/NAME.sgf, OUT/NAME.mat and OUT/NAME.txt (with
# OUT/NAME_00K.txt for later games, as gnubg exports them). gnubg reads its Hypergammon
# databases from /var/lib/gnubg only; the script builds hyper<C>.bd with makehyper into a
# cache (TABULA_GNUBG_CACHE, default ~/.cache/tabula-gnubg; Hypergammon-2 takes
# minutes, 3 hours) and, as root, lays it over /var/lib/gnubg in a private mount
# namespace (unshare -m) that no other process sees. Without root it uses
# /var/lib/gnubg as it is, and fails when the database is not there.
set -euo pipefail

if [ $# -ne 5 ]; then
    echo "usage: $0 OUT NAME CHECKERS LENGTH SEED" >&2
    exit 2
fi
OUT=$(realpath -m "$1"); NAME=$2; CHECKERS=$3; LENGTH=$4; SEED=$5
GNUBG=/usr/games/gnubg
[ -x "$GNUBG" ] || { echo "gnubg not found (Debian: apt-get install gnubg)" >&2; exit 1; }
mkdir -p "$OUT"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

{
    echo "set player 0 gnubg"
    echo "set player 1 gnubg"
    # Fast players: a play a ply (the databases are exact anyway for Hypergammon).
    for p in 0 1; do
        echo "set player $p chequerplay evaluation plies 0"
        echo "set player $p cubedecision evaluation plies 0"
    done
    case "$CHECKERS" in
        1|2|3) echo "set variation $CHECKERS-chequer-hypergammon" ;;
        15) echo "set variation standard" ;;
        *) echo "CHECKERS is 1, 2, 3 or 15, not $CHECKERS" >&2; exit 2 ;;
    esac
    echo "set seed $SEED"
    if [ "$LENGTH" = 0 ]; then
        echo "set automatic game off"
        echo "set jacoby off"
        echo "set automatic doubles ${AUTODOUBLES:-0}"
        echo "new session"
        for _ in 1 2 3 4; do echo "new game"; done
    else
        echo "new match $LENGTH"
    fi
    echo "save match $OUT/$NAME.sgf"
    echo "export match mat $OUT/$NAME.mat"
    echo "analyse match"
    echo "export match text $OUT/$NAME.txt"
} >"$WORK/commands"

run=("$GNUBG" -t -q -r)
if [ "$CHECKERS" != 15 ]; then
    CACHE=${TABULA_GNUBG_CACHE:-$HOME/.cache/tabula-gnubg}
    mkdir -p "$CACHE"
    if [ ! -s "$CACHE/hyper$CHECKERS.bd" ]; then
        /usr/games/makehyper -c "$CHECKERS" -n -f "$CACHE/hyper$CHECKERS.bd.part" >/dev/null
        mv "$CACHE/hyper$CHECKERS.bd.part" "$CACHE/hyper$CHECKERS.bd"
    fi
    if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
        mkdir -p "$WORK/lib"
        cp -L /var/lib/gnubg/* "$WORK/lib/" 2>/dev/null || true
        cp "$CACHE/hyper$CHECKERS.bd" "$WORK/lib/"
        unshare -m sh -c "mount --bind '$WORK/lib' /var/lib/gnubg && exec $GNUBG -t -q -r" \
            <"$WORK/commands" >"$WORK/log" 2>&1
    elif [ -s "/var/lib/gnubg/hyper$CHECKERS.bd" ]; then
        "${run[@]}" <"$WORK/commands" >"$WORK/log" 2>&1
    else
        echo "gnubg reads hyper$CHECKERS.bd from /var/lib/gnubg only: copy $CACHE/hyper$CHECKERS.bd there, or run as root" >&2
        exit 1
    fi
else
    "${run[@]}" <"$WORK/commands" >"$WORK/log" 2>&1
fi
if grep -q "CRITICAL" "$WORK/log"; then
    echo "gnubg found no database:" >&2
    grep -m3 CRITICAL "$WORK/log" >&2
    exit 1
fi
[ -s "$OUT/$NAME.sgf" ] && [ -s "$OUT/$NAME.mat" ] || { echo "gnubg saved no match" >&2; tail -20 "$WORK/log" >&2; exit 1; }
