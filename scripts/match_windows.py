#!/usr/bin/env python3
"""The cube at the opening of a game, score by score, from a match's tables.

    scripts/match_windows.py VARIANT LENGTH DIR [POSITION]

For each score A-B (both sides needing 2 to LENGTH) asks `tabula gammon equity --score
A-B --match-tables DIR POSITION --json` (POSITION: the variant's opening, the side on roll
first; default Hypergammon-3's) and prints the match-winning chances of not doubling,
double-take and double-pass, the proper action, and the market window gnubg's `show
marketwindow` gives for gammon rates of 0: the dead cube's doubling point and take point
(in winning chances of the side on roll) and the live cube's take point. The table of
docs/gammon.md ("Hypergammon-3's table") is this script's output.
"""
import json
import subprocess
import sys
from pathlib import Path

TABULA = Path(__file__).resolve().parent.parent / "target" / "release" / "tabula"


def ask(variant, a, b, tables, position):
    out = subprocess.run(
        [str(TABULA), "gammon", "equity", "--variant", variant, "--score", f"{a}-{b}",
         "--match-tables", tables, position, "--json"],
        check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def pc(x):
    return "      -" if x is None else f"{100 * x:7.2f}"


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    variant, length, tables = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    position = sys.argv[4] if len(sys.argv) == 5 else "24,23,22/24,23,22"
    print(f"{variant}, the opening position {position} at each score (match-winning "
          "chances of the side on roll, %; window: winning chances, no gammons)")
    print(f"{'score':>5} {'no double':>9} {'dbl/take':>8} {'dbl/pass':>8}  "
          f"{'action':<26} {'doubling':>8} {'take':>7} {'take live':>9}")
    for a in range(2, length + 1):
        for b in range(2, length + 1):
            try:
                d = ask(variant, a, b, tables, position)
            except subprocess.CalledProcessError as e:
                try:
                    why = json.loads(e.stderr)["error"]["message"]
                except (ValueError, KeyError, TypeError):
                    why = e.stderr.strip()
                print(f"{a}-{b:<3} not answered: {why}")
                continue
            c, w = d.get("cube_action"), d.get("market_window") or {}
            if c is None:
                print(f"{a}-{b:<3} {100 * d['mwc']:9.4f}   (no cube decision)")
                continue
            print(f"{a}-{b:<3} {100 * c['no_double']:9.4f} {100 * c['double_take']:8.4f} "
                  f"{100 * c['double_pass']:8.4f}  {c['proper']:<26} "
                  f"{pc(w.get('doubling_point')):>8} {pc(w.get('take_point'))} "
                  f"{pc(w.get('take_point_live')):>9}")


if __name__ == "__main__":
    main()
