#!/usr/bin/env python3
"""tabula's cube verdict checked against GNU Backgammon's own words (issue 33).

    scripts/gnubg_cube.py [--games N] [--bearoff N] [--checkers 1 2] [--seed S] [--keep DIR]

Positions come from gnubg itself:

- Hypergammon-1 and -2, money play: gnubg plays N games against itself in a money session
  (with the Jacoby rule and without), analyses them and exports the analysis as text. Every
  cube decision of the side on roll before it rolls (centred, or a redouble of its own
  cube) is kept with gnubg's three cubeful equities, their order and its "Proper cube
  action" line. gnubg answers from its database hyper<C>.bd, built by its own makehyper.
- The bear-off, money play: N positions of up to 6 checkers a side on the last 6 points,
  drawn with a fixed seed, each asked of gnubg with `hint` before the roll, the cube centred
  and then owned by the side on roll. gnubg answers from its two-sided database
  gnubg_ts0.bd (6 points, 6 checkers, cubeful); tabula from its 6x6 two-sided table.

For each, tabula is asked the same question (`gammon equity --variant hyperC ID --cube
STATE --json`, `bearoff equity ID --points 6 --checkers 6 --cube STATE --json`) and the
two are compared: the proper action's words (beaver, redouble, too good included), gnubg's
percentage to its printed tenth of a percent, the three choices' order and their equities
to gnubg's printed 3 decimals. gnubg 1.07's rule (FindBestCubeDecision and getPercent in
its eval.c) is restated here and must give tabula's words on tabula's exact values, and,
for Hypergammon, gnubg's words and percentage on gnubg's own database record, whose values
gnubg must print. A table of the disagreements and a summary are printed; the exit status
is 1 when any disagreement is unexplained, 0 otherwise.

Explained disagreements (docs/gammon.md, "The cube verdict against gnubg"):
- `precision`: within gnubg's printed rounding plus its files' error (24 bits in
  hyper<C>.bd; 16 bits in gnubg_ts0.bd, 1.3e-4 at most from the exact values) and the
  error that carries into the percentage; a different action only at a tie that close.
- `database`: gnubg's record differs from tabula's values beyond its 24 bits (makehyper's
  Hypergammon-2 cubeful values), while gnubg's rule on the record gives gnubg's verdict.

Environment: TABULA (default target/release/tabula), GNUBG (default gnubg on PATH or
/usr/games/gnubg), GNUBG_DBS (folder of gnubg's hyper1.bd and hyper2.bd, default
tables/gnubg, built there with scripts/gnubg_databases.sh when missing), TABULA_TABLES
(tabula's tables; default a fresh folder, built there). gnubg 1.07 reads its Hypergammon
databases from /var/lib/gnubg only, so it is run in a private mount namespace (`unshare`)
where that folder is replaced by one holding the hyper files and a copy of gnubg_ts0.bd:
nothing of the system's is changed. Needs unshare (root, or user namespaces).
"""

import argparse
import base64
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SYSTEM_DB = "/var/lib/gnubg"


def die(msg, code=1):
    print(f"gnubg_cube: {msg}", file=sys.stderr)
    sys.exit(code)


# --- gnubg's identifiers, read and written here independently of tabula -----------------


def match_id_fields(mid):
    """The cube's value, its owner (0, 1, or 3 = centred) and the player on roll, from a
    gnubg Match ID (12 characters of base64 over 9 bytes, bits least significant first)."""
    raw = base64.b64decode(mid + "=" * (-len(mid) % 4))
    bits = int.from_bytes(raw, "little")

    def field(start, width):
        return (bits >> start) & ((1 << width) - 1)

    return {"cube": 1 << field(0, 4), "owner": field(4, 2), "on_roll": field(6, 1)}


def position_id(roller, opponent):
    """gnubg's Position ID of a board whose sides are given as counts of checkers on their
    own points 1..24 then the bar (lists of 25): the side not on roll first, a run of ones
    a checker and a zero a point, bits least significant first, 10 bytes in base64."""
    bits = []
    for side in (opponent, roller):
        for n in side:
            bits += [1] * n + [0]
    bits += [0] * (80 - len(bits))
    value = sum(b << i for i, b in enumerate(bits))
    return base64.b64encode(value.to_bytes(10, "little")).decode()[:14]


# --- running gnubg ------------------------------------------------------------------------


class Gnubg:
    def __init__(self, work, dbs, checkers):
        self.work = work
        self.binary = os.environ.get("GNUBG") or shutil.which("gnubg") or "/usr/games/gnubg"
        if not os.access(self.binary, os.X_OK):
            die("gnubg not found: scripts/gnubg_databases.sh installs it")
        if not shutil.which("unshare"):
            die("unshare (util-linux) is needed to show gnubg its databases")
        self.db = os.path.join(work, "db")
        os.makedirs(self.db, exist_ok=True)
        for c in checkers:
            src = os.path.join(dbs, f"hyper{c}.bd")
            shutil.copy(src, self.db)
        shutil.copy(os.path.join(SYSTEM_DB, "gnubg_ts0.bd"), self.db)
        self.runs = 0

    def run(self, commands):
        """gnubg's text output for a list of commands (`gnubg -t`, no rc files, fresh
        preferences), with its data folder replaced in a private mount namespace."""
        self.runs += 1
        cmd_file = os.path.join(self.work, f"commands{self.runs}")
        with open(cmd_file, "w") as f:
            f.write("\n".join(commands) + "\n")
        prefs = os.path.join(self.work, f"prefs{self.runs}")
        inner = (
            f'mount --bind "{self.db}" {SYSTEM_DB} && '
            f'exec "{self.binary}" -t -q -r -s "{prefs}" -c "{cmd_file}"'
        )
        ns = ["unshare", "-m", "--propagation", "private"]
        if os.geteuid() != 0:
            ns.insert(1, "-r")
        # gnubg writes some answers ("You cannot double.") on stderr: both, in order.
        p = subprocess.run(ns + ["sh", "-c", inner], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, stdin=subprocess.DEVNULL,
                           timeout=3600)
        with open(os.path.join(self.work, f"output{self.runs}"), "w") as f:
            f.write(p.stdout)
        if p.returncode != 0:
            die(f"gnubg failed ({p.returncode}): {p.stdout.strip()[-500:]}")
        return p.stdout


CUBE_BLOCK = re.compile(
    r"Cubeful equities:\n"
    r"1\. (?P<c1>[A-Za-z, ]+?) +(?P<e1>[-+]\d+\.\d+)\n"
    r"2\. (?P<c2>[A-Za-z, ]+?) +(?P<e2>[-+]\d+\.\d+) +\([-+]\d+\.\d+\)\n"
    r"3\. (?P<c3>[A-Za-z, ]+?) +(?P<e3>[-+]\d+\.\d+) +\([-+]\d+\.\d+\)\n"
    r"Proper cube action: (?P<proper>[^\n(]+?)(?: \((?P<pct>[-\d.]+)%\))?(?:\n|$)"
)


def cube_block(text):
    """gnubg's three choices (name, equity) in its order and its proper action and
    percentage, from the first cube analysis in `text`; None if there is none."""
    m = CUBE_BLOCK.search(text)
    if not m:
        return None
    choices = [(choice_key(m[f"c{i}"]), float(m[f"e{i}"])) for i in (1, 2, 3)]
    return {
        "order": [c for c, _ in choices],
        "equities": dict(choices),
        "proper": m["proper"].strip(),
        "percent": float(m["pct"]) if m["pct"] is not None else None,
    }


def choice_key(name):
    name = name.strip().lower().replace("redouble", "double")
    assert name in ("no double", "double, take", "double, pass"), name
    return name


def hyper_positions(gnubg, c, games, seed, jacoby):
    """Cube decisions from `games` games gnubg plays against itself in Hypergammon-C."""
    # Each game its own `new game` (no automatic one), with more turns of `play` than a
    # game lasts: a `play` after the game's end only says there is none.
    turns = ["play"] * (60 * c)
    out = gnubg.run(
        ["set player 0 gnubg", "set player 1 gnubg", f"set variation {c}-chequer-hypergammon",
         f"set jacoby {'on' if jacoby else 'off'}", "set automatic game off",
         "set confirm new off", f"set seed {seed}", "new session"]
        + turns + (["new game"] + turns) * (games - 1)
        + ["analyse match", f"export match text {gnubg.work}/hyper{c}-{int(jacoby)}.txt"]
    )
    # The text export writes a file a game: NAME.txt, NAME_002.txt, ...
    stem = f"{gnubg.work}/hyper{c}-{int(jacoby)}"
    paths = [f"{stem}.txt"] + [f"{stem}_{n:03}.txt" for n in range(2, games + 1)]
    paths = [p for p in paths if os.path.exists(p)]
    if not paths:
        die(f"gnubg exported no analysis for hyper{c}:\n{out[-1500:]}")
    text = "".join(open(p).read() for p in paths)
    found = []
    games_played = len(paths)
    for block in re.split(r"\nMove number \d+: +", text)[1:]:
        head = block.split("\n", 1)[0]
        # The decision before a roll: "X to play 63" or "X on roll, cube decision?".
        # A double's block ("X doubles to 2") is the taker's view of the same decision.
        if not (re.search(r" to play \d\d$", head) or head.endswith("on roll, cube decision?")):
            continue
        g = cube_block(block)
        if g is None:
            continue
        pid = re.search(r"Position ID: (\S+)", block)[1]
        f = match_id_fields(re.search(r"Match ID +: (\S+)", block)[1])
        if f["owner"] == 3:
            state = "centred-jacoby" if jacoby else "centred"
        elif f["owner"] == f["on_roll"]:
            state = "owned"
        else:
            continue  # no access: gnubg gives no cube analysis
        found.append({"source": f"hyper{c}", "id": pid, "state": state, "gnubg": g})
    return found, games_played


def stored_values(path, index):
    """gnubg's own record of a position in its hyper<C>.bd (docs/gammon.md, "gnubg's
    Hypergammon database files"): 40 header bytes, then 28 bytes a record in the index's
    order (tabula numbers Hypergammon as gnubg does): five chances, 24 bits each, and the
    four cubeful equities e stored as (e / 6 + 0.5) * 0xFFFFFF."""
    with open(path, "rb") as f:
        f.seek(40 + 28 * index)
        rec = f.read(28)
    v = [int.from_bytes(rec[3 * i:3 * i + 3], "little") / 0xFFFFFF for i in range(9)]
    eq = [(x - 0.5) * 6 for x in v[5:]]
    return {"win": v[0], "win_gammon": v[1], "owned": eq[0], "centred": eq[1],
            "centred-jacoby": eq[2], "opponent-owns": eq[3]}


def random_bearoff_side(rng):
    """Up to 6 checkers on points 1..6, at least one."""
    n = rng.randint(1, 6)
    side = [0] * 25
    for _ in range(n):
        side[rng.randint(0, 5)] += 1
    return side


def bearoff_positions(gnubg, count, seed):
    """gnubg's verdicts on `count` two-sided bear-off positions, the cube centred and then
    owned by the side on roll."""
    rng = random.Random(seed)
    boards = []
    seen = set()
    while len(boards) < count:
        r, o = random_bearoff_side(rng), random_bearoff_side(rng)
        pid = position_id(r, o)
        if pid not in seen:
            seen.add(pid)
            boards.append(pid)
    # A money session of standard backgammon: gnubg makes the opening move, then both
    # sides are human, so the other side is on roll before its roll.
    cmds = ["set player 0 gnubg", "set player 1 gnubg", "set variation standard",
            "set jacoby off", f"set seed {seed}", "new session",
            "set player 0 human", "set player 1 human"]
    for pid in boards:
        # Centred at 1, then 2 owned by each side in turn: the side not on roll cannot
        # double, so gnubg analyses the owned cube of the side on roll only.
        cmds += [f"set board {pid}", "set cube centre", "set cube value 1", "hint",
                 "set cube value 2", "set cube owner 0", "hint", "set cube owner 1", "hint"]
    out = gnubg.run(cmds)
    # One section a `set board`, which shows the board with its Position and Match IDs.
    sections = {}
    for part in re.split(r"(?= GNU Backgammon  Position ID: )", out):
        m = re.match(r" GNU Backgammon  Position ID: (\S+)\n +Match ID +: (\S+)", part)
        if m:
            sections[m[1]] = (match_id_fields(m[2]), part)
    found = []
    for pid in boards:
        if pid not in sections:
            die(f"gnubg did not show bear-off position {pid}")
        fields, part = sections[pid]
        blocks = [cube_block(p) for p in re.split(r"(?=Cube analysis\n)", part)[1:]]
        if len(blocks) != 2 or None in blocks or part.count("You cannot double.") != 1:
            die(f"gnubg's hints on {pid} are not one centred and one owned cube:\n{part[-2000:]}")
        found.append({"source": "bearoff", "id": pid, "state": "centred", "gnubg": blocks[0]})
        found.append({"source": "bearoff", "id": pid, "state": "owned", "gnubg": blocks[1]})
    return found


# --- tabula -------------------------------------------------------------------------------


def tabula_verdict(tabula, env, q):
    if q["source"] == "bearoff":
        args = ["bearoff", "equity", q["id"], "--points", "6", "--checkers", "6"]
    else:
        args = ["gammon", "equity", "--variant", q["source"], q["id"]]
    p = subprocess.run([tabula] + args + ["--cube", q["state"], "--json"],
                       capture_output=True, text=True, env=env, timeout=600)
    if p.returncode != 0:
        die(f"tabula {' '.join(args)} failed: {p.stdout}{p.stderr}")
    return json.loads(p.stdout)


def gnubg_rule(nd, dt, dp, owned, jacoby, win, win_gammon):
    """gnubg 1.07's money-play verdict on three values, restated here from its
    FindBestCubeDecision and getPercent (eval.c): its words and percentage (None where it
    prints none). `win`/`win_gammon`: whether the side on roll can win / win a gammon."""
    re_ = "re" if owned else ""
    Re = "Red" if owned else "D"
    optional = lambda a, b: abs(a - b) <= 1e-5  # noqa: E731
    beaver_range = -2.0 <= dt <= 0.0
    if dt >= nd and dp >= nd:
        if dp > dt:
            if beaver_range:
                if dt * 2 < nd:
                    return "No double, beaver", (nd - dt) / (dp - dt)
                return ("Optional double, beaver" if optional(dt, nd) else "Double, beaver"), None
            if not win:
                return f"No {re_}double, take", (nd - dt) / (dp - dt)
            return ((f"Optional {re_}double, take" if optional(dt, nd) else f"{Re}ouble, take"),
                    None)
        if optional(nd, dp) and win_gammon and (owned or not jacoby):
            return f"Optional {re_}double, pass", None
        return f"{Re}ouble, pass", None
    if nd > dt:
        if dt > dp:  # ND > DT > DP: too good, pass (never right to double: no percentage)
            return (f"Too good to {re_}double, pass" if win_gammon else f"{Re}ouble, pass"), None
        if nd > dp:  # ND > DP > DT: too good, take
            return ((f"Too good to {re_}double, take", None) if win_gammon
                    else (f"No {re_}double, take", (nd - dt) / (dp - dt)))
        # DP >= ND > DT: no double, take or beaver
        kind = "beaver" if beaver_range else "take"
        return f"No {re_}double, {kind}", (nd - dt) / (dp - dt)
    # DT >= ND > DP: too good, pass
    if win_gammon:
        return f"Too good to {re_}double, pass", (nd - dp) / (dt - dp)
    return f"{Re}ouble, pass", None


# How far gnubg's stored equities may be from the exact ones, a side's equity: its
# Hypergammon databases keep 24 bits (3.6e-7 an equity, single-precision arithmetic on
# top); its bear-off file gnubg_ts0.bd 16 bits, which `tabula bearoff compare` measures at
# 1.3e-4 from the exact values at most (docs/bearoff.md, "gnubg's 16-bit values").
PRECISION = {"hyper1": 1e-6, "hyper2": 1e-6, "bearoff": 1.5e-4}


def percent_slack(nd, dt, dp, eps):
    """How far a percentage (in percent) may move when ND is off by up to eps and DT
    (twice a stored equity) by up to 2 eps: the first-order bound on N / D,
    (|dN| + |dD| |N| / |D|) / |D|."""
    if nd > dp:  # too good: (ND - DP) / (DT - DP)
        num, den = nd - dp, dt - dp
    else:  # (ND - DT) / (DP - DT)
        num, den = nd - dt, dp - dt
    if abs(den) < 3 * eps:
        return float("inf")
    return 100 * (eps + 2 * eps + 2 * eps * abs(num) / abs(den)) / abs(den)


def pct_matches(printed, exact, slack):
    """gnubg's printed percentage (one decimal, None for none) against a percentage."""
    if printed is None or exact is None:
        return printed is None and (exact is None or exact < 0)
    return abs(printed - 100 * exact) <= 0.05 + slack + 1e-9


def compare(q, doc, stored):
    """The disagreements between gnubg's verdict and tabula's: a list of (what, gnubg,
    tabula), and `agree`, the explanation if every one is explained, or None. `stored`:
    gnubg's own four cubeful values and chances of the position (Hypergammon), or None."""
    g = q["gnubg"]
    t = doc["cube"]
    eps = PRECISION[q["source"]]
    nd, dt, dp = t["no_double"], t["double_take"], t["double_pass"]
    owned = q["state"] == "owned"
    jacoby = q["state"] == "centred-jacoby"
    diffs = []
    # tabula's words against gnubg's rule on tabula's own exact values: the rule itself.
    o = doc["outcomes"]
    rule_words, _ = gnubg_rule(nd, dt, dp, owned, jacoby, o["win"] > 0, o["win_gammon"] > 0)
    if rule_words != t["proper"]:
        diffs.append(("rule", rule_words, t["proper"]))
    if g["proper"] != t["proper"]:
        diffs.append(("action", g["proper"], t["proper"]))
    tp = None if t["percent"] is None else round(100 * t["percent"], 1)
    if (g["percent"] is None) != (tp is None) or (tp is not None and abs(tp - g["percent"]) > 1e-9):
        exact = None if t["percent"] is None else 100 * t["percent"]
        diffs.append(("percent", g["percent"], exact))
    if g["order"] != t["order"]:
        diffs.append(("order", g["order"], t["order"]))
    te = {"no double": nd, "double, take": dt, "double, pass": dp}
    worst = max(abs(g["equities"][k] - te[k]) for k in te)
    if worst > 0.0005 + 1e-9:
        diffs.append(("equities", g["equities"], {k: round(v, 6) for k, v in te.items()}))
    if stored is not None:
        # gnubg answers from its record (its printed numbers are the record's), and its
        # rule, restated above, gives its words and percentage on that record.
        snd, sdt = stored[q["state"]], 2 * stored["opponent-owns"]
        words, pct = gnubg_rule(snd, sdt, 1.0, owned, jacoby, stored["win"] > 0,
                                stored["win_gammon"] > 0)
        if not (abs(g["equities"]["no double"] - snd) <= 0.0005 + 1e-6
                and abs(g["equities"]["double, take"] - sdt) <= 0.0005 + 2e-6):
            diffs.append(("record", g["equities"], {"no double": snd, "double, take": sdt}))
        if words != g["proper"] or not pct_matches(g["percent"], pct,
                                                   percent_slack(snd, sdt, 1.0, 1e-6)):
            diffs.append(("gnubg's rule", g["proper"], (words, pct)))
    if not diffs:
        return [], "agree"
    if any(d[0] in ("rule", "record", "gnubg's rule") for d in diffs):
        return diffs, None

    # Within gnubg's precision: every printed equity within its rounding plus the
    # database's error (2 eps for DT); the percentage within its rounding plus the error
    # that carries into it; a different action or order only where tabula's choices are
    # that close to a tie (the doubling point, the take point, or ND against DP).
    def within(what, gv, tv):
        if what == "equities":
            return all(abs(gv[k] - te[k]) <= 0.0005 + 2 * eps + 1e-9 for k in te)
        if what == "percent":
            return (gv is not None and tv is not None
                    and abs(gv - tv) <= 0.05 + percent_slack(nd, dt, dp, eps) + 1e-9)
        ties = [min(dt, dp) - nd, dp - dt, nd - dp]
        return min(abs(x) for x in ties) <= 6 * eps

    if all(within(*d) for d in diffs):
        return diffs, "precision"

    # gnubg's database values: gnubg prints its record's numbers and its rule on them gives
    # its words and percentage (checked above), and the record differs from tabula's values
    # beyond its 24 bits: the verdicts differ only because the values do (makehyper's
    # cubeful values, docs/gammon.md).
    if stored is None:
        return diffs, None
    if max(abs(snd - nd), abs(sdt - dt)) > 2e-6:
        return diffs, "database"
    return diffs, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=40, help="games a Hypergammon session")
    ap.add_argument("--bearoff", type=int, default=150, help="bear-off positions")
    ap.add_argument("--checkers", type=int, nargs="*", default=[1, 2])
    ap.add_argument("--seed", type=int, default=33)
    ap.add_argument("--keep", help="keep gnubg's commands and output in this folder")
    a = ap.parse_args()

    tabula = os.environ.get("TABULA") or os.path.join(ROOT, "target/release/tabula")
    if not os.access(tabula, os.X_OK):
        die(f"no tabula binary at {tabula}: cargo build --release, or set TABULA")
    dbs = os.environ.get("GNUBG_DBS") or os.path.join(ROOT, "tables/gnubg")
    for c in a.checkers:
        if not os.path.exists(os.path.join(dbs, f"hyper{c}.bd")):
            subprocess.run([os.path.join(ROOT, "scripts/gnubg_databases.sh"), dbs, str(c)],
                           check=True)
    work = a.keep or tempfile.mkdtemp(prefix="gnubg_cube.")
    os.makedirs(work, exist_ok=True)
    env = dict(os.environ)
    if "TABULA_TABLES" not in env:
        env["TABULA_TABLES"] = os.path.join(work, "tables")
    os.makedirs(env["TABULA_TABLES"], exist_ok=True)
    tables = env["TABULA_TABLES"]
    for c in a.checkers:
        if not os.path.exists(os.path.join(tables, f"hyper{c}.cube")):
            subprocess.run([tabula, "gammon", "build", "--variant", f"hyper{c}", "--quiet"],
                           env=env, check=True, stdout=subprocess.DEVNULL)
    if a.bearoff and not os.path.exists(os.path.join(tables, "bearoff-ts-6x6.tbl")):
        subprocess.run([tabula, "bearoff", "build", "--points", "6", "--checkers", "6",
                        "--two-sided", "--quiet"], env=env, check=True, stdout=subprocess.DEVNULL)

    gnubg = Gnubg(work, dbs, a.checkers)
    questions = []
    for c in a.checkers:
        for jacoby in (False, True):
            found, played = hyper_positions(gnubg, c, a.games, a.seed + c, jacoby)
            print(f"hyper{c}, Jacoby {'on' if jacoby else 'off'}: {played} games, "
                  f"{len(found)} cube decisions")
            questions += found
    if a.bearoff:
        found = bearoff_positions(gnubg, a.bearoff, a.seed)
        print(f"bear-off 6x6: {a.bearoff} positions, {len(found)} cube decisions")
        questions += found

    # One question a position and cube state.
    unique = {}
    for q in questions:
        unique.setdefault((q["source"], q["id"], q["state"]), q)
    questions = list(unique.values())

    summary = {}
    largest_gap = (0.0, "", "", "")
    explained = {}
    unexplained = []
    actions = {}
    rows = []
    for q in questions:
        doc = tabula_verdict(tabula, env, q)
        t = doc["cube"]
        stored = None
        if q["source"] != "bearoff":
            stored = stored_values(os.path.join(dbs, f"{q['source']}.bd"), doc["index"])
        diffs, why = compare(q, doc, stored)
        if why == "database":
            gap = max(abs(stored[q["state"]] - t["no_double"]),
                      abs(2 * stored["opponent-owns"] - t["double_take"]))
            largest_gap = max(largest_gap, (gap, q["source"], q["id"], q["state"]))
        key = (q["source"], q["state"])
        s = summary.setdefault(key, [0, 0])
        s[0] += 1
        if why == "agree":
            s[1] += 1
        elif why:
            explained[why] = explained.get(why, 0) + 1
        else:
            unexplained.append(q)
        actions.setdefault(q["source"], {}).setdefault(q["gnubg"]["proper"], 0)
        actions[q["source"]][q["gnubg"]["proper"]] += 1
        if why != "agree":
            rows.append((q, t, diffs, why))

    print()
    print(f"{'source':8} {'Position ID':15} {'cube':15} {'gnubg':34} {'tabula':34} why")
    for q, t, diffs, why in rows:
        g = q["gnubg"]
        gw = g["proper"] + ("" if g["percent"] is None else f" ({g['percent']:.1f}%)")
        tw = t["proper"] + ("" if t["percent"] is None else f" ({100 * t['percent']:.3f}%)")
        print(f"{q['source']:8} {q['id']:15} {q['state']:15} {gw:34} {tw:34} {why or 'UNEXPLAINED'}")
        for what, gv, tv in diffs:
            if what not in ("action", "percent"):
                print(f"{'':40}{what}: gnubg {gv}  tabula {tv}")
    print()
    print("source   cube            positions  agree")
    for (src, state), (n, ok) in sorted(summary.items()):
        print(f"{src:8} {state:15} {n:9}  {ok:5}")
    total = sum(n for n, _ in summary.values())
    agree = sum(ok for _, ok in summary.values())
    print(f"{'all':24} {total:9}  {agree:5}")
    print()
    for src, words in sorted(actions.items()):
        print(f"{src}: gnubg's actions: " + ", ".join(f"{w} {n}" for w, n in sorted(words.items())))
    print()
    print(f"{total} cube decisions, {agree} agree in words, percentage, order and equities; "
          f"explained: {explained or 'none'}; unexplained: {len(unexplained)}")
    if largest_gap[0] > 0:
        gap, src, pid, state = largest_gap
        print(f"database: gnubg's record differs from tabula's values by up to {gap:.2e} "
              f"({src} {pid}, {state})")
    if not a.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
