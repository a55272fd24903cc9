#!/usr/bin/env python3
"""gnubg's analysis of a backgammon file, kept only where the position is a bear-off.

    scripts/gnubg_bearoff_analysis.py [--checkers N] OUT.txt EXPORT.txt [EXPORT_002.txt ...]

EXPORT*.txt are what GNU Backgammon writes for `analyse match` then `export match text`
(one file a game). OUT.txt keeps each "Move number" block, whole and as gnubg wrote it,
whose position has every checker of both sides in its home board and none on the bar:
the decisions `tabula bearoff analyse` can judge (tests/suite/bearoff_analyse.rs compares
them); with --checkers N, only those of at most N checkers a side (what a two-sided table
of N checkers holds). The rest of the export, hundreds of kilobytes of contact play, is
left out.

To make the export of tests/data/gnubg/backgammon-money.mat:

    printf 'import mat tests/data/gnubg/backgammon-money.mat\\nanalyse match\\nexport match text /tmp/money.txt\\n' \\
        | /usr/games/gnubg -t -q -r
    scripts/gnubg_bearoff_analysis.py --checkers 6 tests/data/gnubg/backgammon-money-bearoff.txt /tmp/money*.txt
"""
import base64
import sys


def checkers(position_id):
    """Both sides' checkers per point (25 each, the bar last) from a gnubg Position ID."""
    raw = base64.b64decode(position_id + "==")
    bits = [(byte >> i) & 1 for byte in raw for i in range(8)]
    sides, at = [], 0
    for _ in range(2):
        points = []
        for _ in range(25):
            n = 0
            while bits[at]:
                n, at = n + 1, at + 1
            at += 1
            points.append(n)
        sides.append(points)
    return sides


def is_bear_off(position_id, most):
    return all(sum(points[6:]) == 0 and sum(points) <= most for points in checkers(position_id))


def blocks(text):
    """The "Move number" blocks of an export: (Position ID, lines)."""
    current = None
    for line in text.splitlines():
        if line.startswith("Move number "):
            if current:
                yield current
            current = [None, [line]]
        elif current:
            current[1].append(line)
            if current[0] is None and "Position ID: " in line:
                current[0] = line.split("Position ID: ")[1].strip()
    if current:
        yield current


def main():
    args, most = sys.argv[1:], 15
    if args[:1] == ["--checkers"] and len(args) > 1:
        most, args = int(args[1]), args[2:]
    if len(args) < 2:
        sys.exit(__doc__)
    kept = []
    for name in args[1:]:
        with open(name, encoding="utf-8") as f:
            for position_id, lines in blocks(f.read()):
                if position_id and is_bear_off(position_id, most):
                    kept.append("\n".join(lines).rstrip() + "\n")
    with open(args[0], "w", encoding="utf-8") as out:
        out.write("\n".join(kept))
    print(f"{args[0]}: {len(kept)} blocks of bear-off positions kept")


if __name__ == "__main__":
    main()
