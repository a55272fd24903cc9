#!/usr/bin/env python3
"""Bounded command-line fuzzing of `tabula` (issue 16): zero panics, zero hangs.

Runs the release binary over generated arguments and standard input for a fixed time
(default 60 s, `--seconds`), from a fixed seed (`--seed`), and fails if any run
- exits with a status other than 0, 1 or 2 (a panic exits 101; a signal is negative),
- prints "panicked" or "RUST_BACKTRACE" on stderr,
- takes longer than its time limit (a hang),
- or answers a bad input with status 0 where the input cannot be valid.
Each input mixes valid tokens with mutations: truncation, wrong separators, huge numbers,
unicode, empty strings, control bytes. Usage: scripts/fuzz_cli.py [--seconds S] [--seed N]
(the binary is built first unless --no-build).
"""

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "target", "release", "tabula")

GARBAGE = [
    "", " ", "-", "--", "/", ",", "0", "-1", "18446744073709551616", "99999999999999999999999",
    "1e9", "NaN", "inf", "bar", "BAR", "x", "\u00e9", "\u5927\u77f3", "\U0001F600", "\t",
    "1,,2", "1//2", "a-b", "3-1", "0x10", "+5", " 7 ", "9" * 300, "1" * 5000,
]


def mutate(rng, text):
    """A random small change to a valid token, or garbage."""
    r = rng.random()
    if r < 0.25:
        return rng.choice(GARBAGE)
    if r < 0.4 and text:
        cut = rng.randrange(len(text))
        return text[:cut]
    if r < 0.55 and text:
        i = rng.randrange(len(text))
        return text[:i] + rng.choice("0123456789/,-xb ;\u00e9") + text[i + 1:]
    if r < 0.65:
        return text + rng.choice(["/", ",", "-1", "9", " bar", "\u00e9"])
    if r < 0.72:
        return text * rng.randint(2, 40)
    return text


def position(rng):
    def side():
        n = rng.randint(0, 6)
        return ",".join(rng.choice(["1", "2", "3", "4", "5", "6", "7", "8", "bar", "9", "0"]) for _ in range(n))
    if rng.random() < 0.2:
        return str(rng.randint(0, 1_200_000))
    return mutate(rng, side() + "/" + side())


def hyper_position(rng):
    def side():
        n = rng.randint(0, 3)
        return ",".join(rng.choice(["24", "23", "1", "6", "13", "bar", "25", "0"]) for _ in range(n))
    r = rng.random()
    if r < 0.15:
        return str(rng.randint(0, 130_000))
    if r < 0.25:
        return mutate(rng, "AABAAQAACgAAAA")
    return mutate(rng, side() + "/" + side())


def variant(rng):
    if rng.random() < 0.6:
        return mutate(rng, rng.choice(["hyper1", "hyper2", "nikoniko-12", "hyper3"]))
    parts = [f"points={rng.randint(0, 30)}", f"checkers={rng.randint(0, 7)}"]
    if rng.random() < 0.5:
        parts.append("faces=" + rng.choice(["0-2", "1-6", "1,2", "0", "1,1", "3-1", "0-20"]))
    if rng.random() < 0.5:
        parts.append(f"home={rng.randint(0, 30)}")
    if rng.random() < 0.5:
        parts.append("start=" + ",".join(str(rng.randint(0, 30)) for _ in range(rng.randint(0, 4))))
    return mutate(rng, ":".join(parts))


def roll(rng):
    return mutate(rng, f"{rng.randint(0, 3)}-{rng.randint(0, 3)}")


def hand(rng):
    return mutate(rng, "".join(rng.choice("0123456789AKQJT") for _ in range(rng.randint(3, 6))))


def digits(rng, n):
    return mutate(rng, "".join(rng.choice("0123456789") for _ in range(n)))


def number(rng, lo, hi):
    return mutate(rng, str(rng.randint(lo, hi)))


def workload(rng, lo, hi):
    """A count of work (games): in range, malformed, or far above any maximum (which must
    be refused at once), never a large legal count that would simply take long."""
    r = rng.random()
    if r < 0.7:
        return str(rng.randint(lo, hi))
    if r < 0.85:
        return rng.choice(["", "-1", "x", "1e9", "0x10", "NaN", "1,000"])
    return rng.choice(["18446744073709551615", "18446744073709551616", "99999999999999999999999"])


def cases(rng, table, hyper2):
    """One command line (and its stdin) at a time, for ever."""
    makers = [
        lambda: (["gammon", "count", "--variant", variant(rng)], b""),
        lambda: (["gammon", "show", hyper_position(rng), "--variant", variant(rng), "--json"], b""),
        lambda: (["gammon", "moves", hyper_position(rng), mutate(rng, f"{rng.randint(0, 7)}-{rng.randint(0, 7)}"),
                  "--variant", "hyper2"], b""),
        lambda: (["gammon", "equity", hyper_position(rng), "--variant", "hyper2", "--table", hyper2], b""),
        lambda: (["gammon", "hint", hyper_position(rng), mutate(rng, f"{rng.randint(1, 6)}-{rng.randint(1, 6)}"),
                  "--variant", "hyper2", "--table", hyper2, "--json"], b""),
        lambda: (["gammon", "play", "--variant", "hyper2", "--table", hyper2, "--seed", number(rng, 0, 9)],
                 "\n".join(hyper_position(rng) for _ in range(rng.randint(0, 6))).encode("utf-8", "replace")),
        lambda: (["gammon", "compare", "--variant", "hyper2", "--table", hyper2, "--gnubg", mutate(rng, table)], b""),
        lambda: (["nikoniko", "show", position(rng)], b""),
        lambda: (["nikoniko", "moves", position(rng), roll(rng), "--json"], b""),
        lambda: (["nikoniko", "equity", position(rng), "--table", table], b""),
        lambda: (["nikoniko", "hint", position(rng), roll(rng), "--table", table, "--json"], b""),
        lambda: (["nikoniko", "pnc", "--places", number(rng, 0, 70), "--checkers", number(rng, 0, 70)], b""),
        lambda: (["nikoniko", "listing", "--places", number(rng, 0, 12), "--checkers", number(rng, 0, 8)], b""),
        lambda: (["nikoniko", "play", "--table", table, "--seed", number(rng, 0, 9)],
                 "\n".join(position(rng) for _ in range(rng.randint(0, 6))).encode("utf-8", "replace")
                 + rng.choice([b"", b"\xff\xfe\n", b"\x00" * 5000])),
        lambda: (["poker", "judge", hand(rng)], b""),
        lambda: (["poker", "compare", hand(rng), hand(rng), "--json"], b""),
        lambda: (["numeron", "trace", "--secret", digits(rng, 3), "--digits", number(rng, 0, 11)], b""),
        lambda: (["numeron", "solve", "--digits", number(rng, 1, 4)],
                 "\n".join(rng.choice(["1 0", "1E0B", "0B1E", "-1 0", "3 0", "x", "", "2E1B", "0 0"])
                           for _ in range(rng.randint(0, 8))).encode() + rng.choice([b"", b"\xff\n"])),
        lambda: (["numeron", "play", "--digits", number(rng, 1, 4), "--seed", number(rng, 0, 9)],
                 "\n".join(digits(rng, 3) for _ in range(rng.randint(0, 8))).encode("utf-8", "replace")),
        # Few digits only: four digits is a search of hours however it is asked.
        lambda: (["numeron", "optimum", "--digits", str(rng.randint(1, 2)), "--budget", number(rng, 0, 2**64 + 5)], b""),
        lambda: (["fabfib", "odds", "--hand", digits(rng, 3), "--target", digits(rng, 3), "--best"], b""),
        lambda: (["fabfib", "odds", "--json"], b""),
        lambda: (["fabfib", "replay", "--seed", number(rng, 0, 99), "--players", number(rng, 0, 12),
                  "--strategies", mutate(rng, rng.choice(["seed", "article", "honest", "odds", "odds:700"]))], b""),
        lambda: (["fabfib", "simulate", "--games", workload(rng, 0, 300), "--seed", number(rng, 0, 9), "--quiet"], b""),
        lambda: (["bingo", "exact", "--size", number(rng, 0, 8), "--max", number(rng, 0, 100),
                  "--pattern", mutate(rng, rng.choice(["line", "reach", "double", "blackout", "corners"]))], b""),
        lambda: (["bingo", "simulate", "--size", number(rng, 2, 5), "--games", workload(rng, 0, 2000), "--quiet"], b""),
        lambda: (["table", "info", mutate(rng, table)], b""),
        lambda: ([mutate(rng, "nikoniko"), mutate(rng, "show"), position(rng)], b""),
    ]
    while True:
        yield rng.choice(makers)()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--limit", type=float, default=20, help="seconds one run may take")
    ap.add_argument("--no-build", action="store_true")
    args = ap.parse_args()
    if not args.no_build:
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    rng = random.Random(args.seed)
    failures = []
    runs = 0
    with tempfile.TemporaryDirectory() as work:
        table = os.path.join(work, "nikoniko.tbl")
        subprocess.run([BIN, "nikoniko", "build", "--quiet", "--table", table], check=True,
                       stdout=subprocess.DEVNULL)
        hyper2 = os.path.join(work, "hyper2.tbl")
        subprocess.run([BIN, "gammon", "build", "--variant", "hyper2", "--quiet", "--table", hyper2],
                       check=True, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + args.seconds
        for argv, stdin in cases(rng, table, hyper2):
            if time.monotonic() > deadline:
                break
            runs += 1
            env = dict(os.environ, RUST_BACKTRACE="0")
            try:
                p = subprocess.run([BIN] + argv, input=stdin, capture_output=True,
                                   timeout=args.limit, env=env, cwd=work)
            except subprocess.TimeoutExpired:
                failures.append((argv, "hang", f"no answer within {args.limit} s"))
                continue
            err = p.stderr.decode("utf-8", "replace")
            if p.returncode not in (0, 1, 2):
                failures.append((argv, f"exit {p.returncode}", err[-400:]))
            elif "panicked" in err or "RUST_BACKTRACE" in err:
                failures.append((argv, "panic", err[-400:]))
    for argv, what, detail in failures[:20]:
        shown = [a if len(a) < 60 else a[:60] + "…" for a in argv]
        print(f"FAIL ({what}): tabula {' '.join(repr(a) for a in shown)}\n    {detail.strip()}")
    print(f"fuzz: {runs - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
