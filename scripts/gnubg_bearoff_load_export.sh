#!/usr/bin/env bash
# Proves that GNU Backgammon itself loads the bear-off databases tabula exports and
# evaluates races from them (issue 25, docs/bearoff.md "gnubg's files"): builds the
# one-sided database of 6 points and the two-sided 6x6 with the cube, exports them as
# gnubg_os0.bd (compressed) and gnubg_ts0.bd, puts them where gnubg 1.07 reads them
# (/usr/share/gnubg/gnubg_os0.bd, /var/lib/gnubg/gnubg_ts0.bd; gnubg's own files are kept
# aside and put back on exit), and asks `gnubg -t` to evaluate races with six digits.
#
# For each race it prints the evaluator gnubg used (Bearoff2: the two-sided file; Bearoff1:
# the one-sided file), what gnubg printed, what tabula's exported file implies and what
# gnubg's own file would have given. A race passes when gnubg prints tabula's values; the
# races are chosen where gnubg's own files differ from tabula's by more than gnubg prints,
# so a pass shows which file gnubg read.
#
#   scripts/gnubg_bearoff_load_export.sh        needs root (gnubg's data folders)
set -euo pipefail
cd "$(dirname "$0")/.."
GNUBG=$(command -v gnubg 2>/dev/null || echo /usr/games/gnubg)
if [ ! -x "$GNUBG" ]; then
    if command -v apt-get >/dev/null; then
        apt-get install -y gnubg >/dev/null
    else
        echo "gnubg is not installed" >&2
        exit 1
    fi
fi
OS_FILE=/usr/share/gnubg/gnubg_os0.bd
TS_FILE=/var/lib/gnubg/gnubg_ts0.bd
cargo build --release --quiet
T=$PWD/target/release/tabula
WORK=$(mktemp -d)
KEPT_OS="" KEPT_TS=""
put_back() {
    if [ -n "$KEPT_OS" ]; then mv -f "$KEPT_OS" "$OS_FILE"; fi
    if [ -n "$KEPT_TS" ]; then mv -f "$KEPT_TS" "$TS_FILE"; fi
    KEPT_OS="" KEPT_TS=""
}
trap 'put_back; rm -rf "$WORK"' EXIT

"$T" bearoff build --points 6 --quiet --table "$WORK/os6.tbl" >/dev/null
"$T" bearoff build --points 6 --checkers 6 --two-sided --quiet --table "$WORK/ts66.tbl" >/dev/null
"$T" bearoff export --table "$WORK/os6.tbl" --gnubg "$WORK/gnubg_os0.bd"
"$T" bearoff export --table "$WORK/ts66.tbl" --gnubg "$WORK/gnubg_ts0.bd"
cp "$OS_FILE" "$WORK/own_os0.bd"
cp "$TS_FILE" "$WORK/own_ts0.bd"

# Two-sided races (at most six checkers a side: gnubg's Bearoff2) where gnubg's own
# cubeful values are furthest from the exact ones, and one-sided races (Bearoff1) with
# fifteen checkers, gammons possible, where its own distributions differ most.
RACES=(
    "6,6,6,6,6,6/6,6,6,6,3,1"
    "6,6,5,5,4,4/6,6,6,6,6,6"
    "6,6,6,6,6,2/5,5,5,5,4,1"
    "6,6,6,6,6,6/5,5,5,4,2,1"
    "6,6,5/4,2,1"
    "6,6,6,5,5,5,5,5,5,5,5,5,5,2,2/6,6,6,6,6,6,6,6,6,6,6,6,6,6,3"
    "5,5,5,4,3,3,3,3,1/6,6,6,5,5,4,4,3,3,2"
    "4,3,2,2,1/6,6,6,6,6,6,6,6,6,6,6,6,6,6,6"
    "6,6,6,6,6,6,6,6,6,6,5,5,5,5,5/3,2,1"
)
IDS=()
for r in "${RACES[@]}"; do
    IDS+=("$("$T" bearoff show "$r" --checkers 15 --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["position_id"])')")
done
{
    echo "set output digits 6"
    echo "set player 0 human"
    echo "set player 1 human"
    echo "new session"
    for id in "${IDS[@]}"; do
        echo "set board $id"
        echo "eval"
    done
} >"$WORK/commands"

# gnubg reads its databases once, at start: swap tabula's in only now.
KEPT_OS="$OS_FILE.gnubg-own"
KEPT_TS="$TS_FILE.gnubg-own"
mv "$OS_FILE" "$KEPT_OS"
mv "$TS_FILE" "$KEPT_TS"
cp "$WORK/gnubg_os0.bd" "$OS_FILE"
cp "$WORK/gnubg_ts0.bd" "$TS_FILE"
"$GNUBG" -t -q -r -s "$WORK/prefs" -c "$WORK/commands" >"$WORK/out" 2>&1 </dev/null
put_back

python3 - "$WORK" "${RACES[*]}" "${IDS[*]}" <<'PY'
import struct, sys
work = sys.argv[1]
races, ids = sys.argv[2].split(), sys.argv[3].split()

def comb(n, k):
    from math import comb as c
    return c(n, k)

def rank(counts):
    # gnubg's PositionBearoff: stars and bars, point P at the bottom.
    p, c = len(counts), 0
    cell, r = 0, 0
    for q in range(p, 0, -1):
        cell += counts[q - 1]
        r += comb(cell, p - q + 1)
        cell += 1
    return r

def side(text, p=6):
    counts = [0] * p
    if text != "-":
        for x in text.split(","):
            counts[int(x) - 1] += 1
    return counts

def ts_values(path, us, them, n=924):
    with open(path, "rb") as f:
        f.seek(40 + 8 * (us * n + them))
        u = struct.unpack("<4H", f.read(8))
    e = [x / 32767.5 - 1 for x in u]
    return {"win": (e[0] + 1) / 2, "centred": e[2]}

def os_dist(path, s, n=54264):
    with open(path, "rb") as f:
        f.seek(40 + 8 * s)
        off, nz, first, gnz, gfirst = struct.unpack("<IBBBB", f.read(8))
        f.seek(40 + 8 * n + 2 * off)
        data = struct.unpack("<%dH" % (nz + gnz), f.read(2 * (nz + gnz)))
    rolls, gammon = [0.0] * 32, [0.0] * 32
    for i in range(nz):
        rolls[first + i] = data[i] / 65535
    for i in range(gnz):
        gammon[gfirst + i] = data[nz + i] / 65535
    return rolls, gammon

def os_values(path, us, them):
    # gnubg's BearoffEvalOneSided: the side on roll wins if it needs no more rolls.
    (pu, gu), (pt, gt) = os_dist(path, rank(us)), os_dist(path, rank(them))
    win = sum(pu[i] * pt[j] for i in range(32) for j in range(i, 32))
    full = sum(us) == 15 or sum(them) == 15
    wg = sum(pu[i] * gt[j] for i in range(32) for j in range(i, 32)) if full else 0.0
    lg = sum(pt[i] * gu[j] for i in range(32) for j in range(i + 1, 32)) if full else 0.0
    return {"win": win, "win_gammon": wg, "lose_gammon": lg}

printed = {}
current = None
for line in open(work + "/out"):
    f = line.split()
    if line.startswith("Position ID:"):
        current = f[2]
        printed[current] = {}
    elif current and line.startswith("Evaluator:"):
        printed[current]["evaluator"] = f[1]
    elif current and line.startswith("static:"):
        printed[current].update(win=float(f[1]), win_gammon=float(f[2]), lose_gammon=float(f[4]))
    elif current and "No double" in line and "centred" not in printed[current]:
        printed[current]["centred"] = float(f[3])

fails = 0
for race, pid in zip(races, ids):
    us, them = (side(s) for s in race.split("/"))
    got = printed.get(pid, {})
    ev = got.get("evaluator", "none")
    two = max(sum(us), sum(them)) <= 6
    if two:
        ours = ts_values(work + "/gnubg_ts0.bd", rank(us), rank(them))
        own = ts_values(work + "/own_ts0.bd", rank(us), rank(them))
        keys, want = ["win", "centred"], "Bearoff2"
    else:
        ours = os_values(work + "/gnubg_os0.bd", us, them)
        own = os_values(work + "/own_os0.bd", us, them)
        keys, want = ["win", "win_gammon", "lose_gammon"], "Bearoff1"
    ok = ev == want and all(k in got and abs(got[k] - ours[k]) <= 1.5e-6 for k in keys)
    tells = any(abs(own[k] - ours[k]) > 1.5e-6 for k in keys)
    print(f"{race:<66} {pid} {ev:<9} " + " ".join(
        f"{k} gnubg {got.get(k, float('nan')):+.6f} tabula {ours[k]:+.6f} own {own[k]:+.6f};" for k in keys)
        + (" agrees" if ok else " DIFFERS") + ("" if tells else " (own file alike)"))
    fails += 0 if ok else 1
if fails == 0:
    print("gnubg evaluates races from tabula's exported gnubg_os0.bd and gnubg_ts0.bd: every value agrees")
sys.exit(1 if fails else 0)
PY
