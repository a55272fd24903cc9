"""The scores (units) of a match and the values a state each keeps, as `tabula gammon met`
solves them (docs/gammon.md, "Match play"): for scripts/bench_match.sh.

    python3 scripts/match_units.py disk RECORDS LENGTH

prints the bytes the tables of a match to LENGTH take for a variant of RECORDS records,
and a tenth more for room: 4 bytes a record for each value (8 at 1-1, stored as f64).
"""
import sys


def width(a, b, game):
    """Values a state keeps at a-b; game is "normal", "crawford" or "post"."""
    if (a, b) == (1, 1):
        return 1
    if game == "crawford":
        return 2
    live = 0
    while 2 << live < b:
        live += 1
    return (1 if a == b else 2) * (1 + 2 * live)


def parse(name):
    """(a, b, game) of a unit's name: 2-5, 1-3-crawford, 1-3-post-crawford."""
    game = "post" if "post" in name else "crawford" if name.endswith("-crawford") else "normal"
    a, b = name.split("-")[:2]
    return int(a), int(b), game


def units(length):
    """Every unit of a match to `length`, as (a, b, game)."""
    out = [(1, 1, "post")]
    for b in range(2, length + 1):
        out += [(1, b, "post"), (1, b, "crawford")]
        out += [(a, b, "normal") for a in range(2, b + 1)]
    return out


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] != "disk":
        sys.exit(__doc__)
    records, length = int(sys.argv[2]), int(sys.argv[3])
    values = sum(width(*u) for u in units(length)) + 1  # 1-1's f64: two u32's room
    print(int(4 * records * values * 1.1))
