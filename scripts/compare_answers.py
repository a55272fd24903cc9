#!/usr/bin/env python3
"""Asks two tabula binaries the same few hundred questions and compares their answers.

    scripts/compare_answers.py OLD NEW [--keep DIR]

The questions: `gammon equity` and `hint` (money play, every cube state, on Hypergammon-1,
Hypergammon-2 and a 12-point board with two checkers), `equity` and `hint` at match
scores (Hypergammon-1 to 7 points), `met`, `bearoff distribution`, `equity` and `hint`
(one-sided 6 points, two-sided 6x6), `numeron optimum` on small games. The tables are
built once, by OLD, into a fresh folder (or DIR with --keep) and read by both.

Each question is asked with `--json` and without. A JSON document of NEW must hold every
key of OLD's with the same value (NEW may add keys beside them); the text must be the
same bytes; an error must have the same status and message. Differences are printed per
command and key, with an example; the exit status is 1 when any is found.
"""

import json
import os
import random
import subprocess
import sys
import tempfile
from collections import defaultdict

ROLLS = ["1-1", "2-1", "3-1", "4-2", "5-3", "6-1", "6-5", "4-4", "6-6", "3-2"]
STATES = ["owned", "centred", "centred-jacoby", "opponent-owns"]


def run(binary, args, env):
    p = subprocess.run([binary] + args, capture_output=True, env=env, timeout=600)
    return p.returncode, p.stdout, p.stderr


def subset_diffs(old, new, path=""):
    """Where NEW differs from OLD on OLD's keys: a list of (path, old, new)."""
    if isinstance(old, dict) and isinstance(new, dict):
        out = []
        for k, v in old.items():
            if k not in new:
                out.append((f"{path}.{k}", v, "<missing>"))
            else:
                out += subset_diffs(v, new[k], f"{path}.{k}")
        return out
    if isinstance(old, list) and isinstance(new, list):
        if len(old) != len(new):
            return [(path, f"{len(old)} items", f"{len(new)} items")]
        out = []
        for i, (a, b) in enumerate(zip(old, new)):
            out += subset_diffs(a, b, f"{path}[{i}]")
        return out
    return [] if old == new else [(path, old, new)]


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    old, new = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    keep = sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--keep" else None
    work = keep or tempfile.mkdtemp(prefix="compare-answers-")
    os.makedirs(work, exist_ok=True)
    env = dict(os.environ, TABULA_TABLES=work)
    rng = random.Random(33)

    def build(args):
        code, _, err = run(old, args + ["--quiet"], env)
        if code != 0:
            sys.exit(f"building {' '.join(args)} failed: {err.decode()}")

    small = "points=12:checkers=2"
    for v in ["hyper1", "hyper2", small]:
        build(["gammon", "build", "--variant", v])
    build(["gammon", "met", "--variant", "hyper1", "--length", "7", "--match-tables", work])
    build(["bearoff", "build", "--points", "6"])
    build(["bearoff", "build", "--points", "6", "--checkers", "6", "--two-sided"])

    questions = []  # (command name, args)
    records = {"hyper1": 676, "hyper2": 123201, small: 11025}
    for v, n in [("hyper1", 120), ("hyper2", 120), (small, 80)]:
        for _ in range(n):
            index = str(rng.randrange(records[v]))
            state = rng.choice(STATES)
            questions.append(("equity", ["gammon", "equity", index, "--variant", v, "--cube", state]))
            roll = rng.choice(ROLLS)
            cube = [] if rng.random() < 0.3 else ["--cube", rng.choice(STATES)]
            questions.append(("hint", ["gammon", "hint", index, roll, "--variant", v, "--no-board"] + cube))
    scores = ["7-7", "3-5", "5-3", "2-2", "2-4", "4-2", "1-3", "3-1", "1-1", "2-1", "1-2", "6-7"]
    for _ in range(150):
        index = str(rng.randrange(676))
        score = rng.choice(scores)
        extra = []
        if score.startswith("1-") or score.endswith("-1"):
            if score != "1-1" and rng.random() < 0.5:
                extra = ["--crawford"]
        if not extra and rng.random() < 0.4:
            extra = ["--cube", rng.choice(["2", "4"]), "--owner", rng.choice(["on-roll", "opponent"])]
        base = ["--variant", "hyper1", "--score", score, "--match-tables", work] + extra
        questions.append(("equity --score", ["gammon", "equity", index] + base))
        questions.append(("hint --score", ["gammon", "hint", index, rng.choice(ROLLS)] + base))
    questions.append(("met", ["gammon", "met", "--variant", "hyper1", "--length", "7", "--match-tables", work, "--quiet"]))
    questions.append(("opening", ["gammon", "opening", "--variant", "hyper2"]))
    ts = os.path.join(work, "bearoff-ts-6x6.tbl")
    os_ = os.path.join(work, "bearoff-os-6.tbl")
    for _ in range(60):
        side = ",".join(sorted((str(rng.randint(1, 6)) for _ in range(rng.randint(1, 6))), reverse=True))
        other = ",".join(sorted((str(rng.randint(1, 6)) for _ in range(rng.randint(1, 6))), reverse=True))
        questions.append(("bearoff distribution", ["bearoff", "distribution", side, "--table", os_]))
        state = rng.choice(STATES)
        questions.append(("bearoff equity", ["bearoff", "equity", f"{side}/{other}", "--table", ts, "--one-sided", os_, "--cube", state]))
        cube = [] if rng.random() < 0.3 else ["--cube", state]
        questions.append(("bearoff hint", ["bearoff", "hint", f"{side}/{other}", rng.choice(ROLLS), "--table", ts] + cube))
    for args in (["--digits", "2", "--symbols", "5"], ["--digits", "2", "--symbols", "6", "--worst"],
                 ["--digits", "3", "--symbols", "5", "--fewest-at-worst"], ["--digits", "2", "--symbols", "4", "--repeats"]):
        questions.append(("numeron optimum", ["numeron", "optimum", "--quiet"] + args))

    differences = defaultdict(list)
    asked = defaultdict(int)
    answered = defaultdict(int)
    for name, args in questions:
        for form in ("json", "text"):
            full = args + (["--json"] if form == "json" else [])
            a, b = run(old, full, env), run(new, full, env)
            asked[f"{name} ({form})"] += 1
            answered[f"{name} ({form})"] += a[0] == 0
            if a[0] != b[0] or a[2] != b[2]:
                differences[f"{name} ({form}): status or error"].append((full, a[0], b[0], a[2].decode()[:200], b[2].decode()[:200]))
                continue
            if form == "text":
                if a[1] != b[1]:
                    differences[f"{name} (text)"].append((full, a[1].decode(), b[1].decode()))
                continue
            if a[0] != 0:
                continue
            for path, x, y in subset_diffs(json.loads(a[1]), json.loads(b[1])):
                key = path
                for d in "0123456789":
                    key = key.replace(d, "")
                differences[f"{name} (json) {key}"].append((full, path, x, y))

    print(f"tables in {work}")
    for k in sorted(asked):
        print(f"{asked[k]:5} asked, {answered[k]:5} answered (the rest refused alike)  {k}")
    if not differences:
        print("every answer the same (JSON: every key of the old document, same value)")
        return 0
    for k, cases in sorted(differences.items()):
        print(f"\nDIFFERENT {k}: {len(cases)} case(s); the first:")
        first = cases[0]
        print("  tabula " + " ".join(first[0]))
        for part in first[1:]:
            text = str(part)
            print("  " + (text if len(text) < 2000 else text[:2000] + " …").replace("\n", "\n  "))
    return 1


if __name__ == "__main__":
    sys.exit(main())
