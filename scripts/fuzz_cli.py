#!/usr/bin/env python3
"""Command-line fuzzing of `tabula` (issues 16 and 26): zero panics, zero hangs.

First, cases derived from the command tree itself (`--help` of every subcommand, so a new
command is covered the day it is added), starting from each subcommand's own example:
- the example as it is, with stdout on /dev/full (exit 1 when it prints anything), and
  with stderr on /dev/full (the same exit status, no panic);
- every file argument (a value named PATH, FILE, OUTPUT or TREE) given a named pipe, a
  folder and a missing path: an answer within the time limit, exit 1 or 2 naming the path
  (a missing output may be written: exit 0);
- every argument given 128 KiB of text: a refusal whose stderr stays short (the excerpt
  rule);
- every table-building command (`build`) under an address-space limit: exit 0 or 1 with a
  message, never an abort.
Then random cases for the rest of the time budget: runs the release binary over
generated arguments and standard input for a fixed time
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
import re
import resource
import shlex
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


FILE_VALUES = ("PATH", "FILE", "OUTPUT", "TREE")
# The longest single argument Linux passes is 128 KiB less its closing NUL.
LONG = "x" * 131000


def help_text(words, env):
    return subprocess.run([BIN] + words + ["--help"], capture_output=True, text=True, env=env).stdout


def leaves(env):
    """Every subcommand: (its words, its example's arguments, its arguments as
    (flag or None for a positional, value name))."""
    out = []

    def walk(words):
        text = help_text(words, env)
        block = re.search(r"^Commands:\n(.*?)(?:\n\n|\Z)", text, re.S | re.M)
        subs = [] if not block else [
            l.split()[0] for l in block.group(1).splitlines() if l.strip() and l.split()[0] != "help"]
        if subs:
            for sub in subs:
                walk(words + [sub])
            return
        example = re.search(r"Examples?:\n\s+tabula (.*)", text)
        args = []
        for m in re.finditer(r"^  (?:-\w, )?(--[\w-]+)(?: <([A-Z_]+)>)?", text, re.M):
            if m.group(1) not in ("--help", "--version") and m.group(2):
                args.append((m.group(1), m.group(2)))
        usage = re.search(r"Usage: \S+ (.*)", text).group(1)
        for m in re.finditer(r"<([A-Z_]+)>", usage.split("[OPTIONS]")[-1] if "[OPTIONS]" in usage else usage):
            args.append((None, m.group(1)))
        out.append((words, shlex.split(example.group(1)) if example else None, args))

    walk([])
    return out


def run(argv, env, limit, stdin=b"q\n", stdout=subprocess.PIPE, stderr=subprocess.PIPE, rlimit=None):
    def limits():
        if rlimit:
            resource.setrlimit(resource.RLIMIT_AS, (rlimit, rlimit))
    return subprocess.run([BIN] + argv, input=stdin, stdout=stdout, stderr=stderr, timeout=limit,
                          env=env, cwd=os.path.dirname(env["TABULA_TABLES"]),
                          preexec_fn=limits if rlimit else None)


def systematic(work, env, limit):
    """The cases derived from the command tree (see the module's documentation)."""
    failures, runs = [], 0
    fifo = os.path.join(work, "a-fifo")
    os.mkfifo(fifo)
    folder = os.path.join(work, "a-folder")
    os.mkdir(folder)
    missing = os.path.join(work, "no-such-folder", "missing.file")
    full = open("/dev/full", "wb")

    def check(argv, what, **kw):
        nonlocal runs
        runs += 1
        try:
            p = run(argv, env, limit, **kw)
        except subprocess.TimeoutExpired:
            failures.append((argv, what, f"no answer within {limit} s"))
            return None
        err = (p.stderr or b"").decode("utf-8", "replace")
        if p.returncode not in (0, 1, 2):
            failures.append((argv, f"{what}: exit {p.returncode}", err[-400:]))
            return None
        if "panicked" in err or "RUST_BACKTRACE" in err:
            failures.append((argv, f"{what}: panic", err[-400:]))
            return None
        return p

    for words, example, args in leaves(env):
        # A server runs until stopped: its faults are tested by its own suite
        # (tests/suite/serve_api.rs), with a real HTTP client.
        if words == ["serve"]:
            continue
        if example is None:
            failures.append((words, "no example", "the subcommand's help has no example"))
            continue
        base = check(example, "the example")
        if base is None:
            continue
        p = check(example, "stdout on /dev/full", stdout=full)
        if p and base.returncode == 0 and base.stdout and p.returncode != 1:
            failures.append((example, "stdout on /dev/full", f"exit {p.returncode}, expected 1"))
        p = check(example, "stderr on /dev/full", stderr=full)
        if p and p.returncode != base.returncode:
            failures.append((example, "stderr on /dev/full",
                             f"exit {p.returncode}, {base.returncode} with a stderr"))
        free = [i for i in range(len(words), len(example))
                if not example[i].startswith("--") and not example[i - 1].startswith("--")]
        positional = iter(free)
        for flag, name in args:
            slot = None if flag else next(positional, None)
            if not flag and slot is None:
                continue

            def put(value):
                if slot is not None:
                    argv = list(example)
                    argv[slot] = value
                    return argv
                argv = list(example)
                if flag in argv:
                    argv[argv.index(flag) + 1] = value
                else:
                    argv += [flag, value]
                return argv

            p = check(put(LONG), f"{flag or name} of 128 KiB")
            if p and len(p.stderr) > 2000:
                failures.append((put(LONG), "echo", f"{len(p.stderr)} bytes of stderr"))
            if name not in FILE_VALUES:
                continue
            output = name in ("OUTPUT", "TREE") or words[-1] in ("export", "build")
            for path, kind in ((fifo, "a named pipe"), (folder, "a folder"), (missing, "a missing path")):
                p = check(put(path), f"{flag or name} as {kind}")
                if p is None:
                    continue
                if p.returncode == 0 and not (output and path == missing):
                    failures.append((put(path), f"{flag or name} as {kind}", "exit 0"))
                elif p.returncode != 0 and path not in p.stderr.decode("utf-8", "replace"):
                    failures.append((put(path), f"{flag or name} as {kind}",
                                     "the message does not name the path: "
                                     + p.stderr.decode("utf-8", "replace")[-300:]))
        if words[-1] == "build":
            p = check(example, "under an address-space limit", rlimit=300 << 20)
            if p and p.returncode == 1 and "memory" not in p.stderr.decode("utf-8", "replace"):
                failures.append((example, "under an address-space limit",
                                 "exit 1 without a word of memory: "
                                 + p.stderr.decode("utf-8", "replace")[-300:]))
    full.close()
    return runs, failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--limit", type=float, default=20, help="seconds one run may take")
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--no-systematic", action="store_true", help="random cases only")
    args = ap.parse_args()
    if not args.no_build:
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    rng = random.Random(args.seed)
    failures = []
    runs = 0
    with tempfile.TemporaryDirectory() as work:
        tables = os.path.join(work, "tables")
        os.mkdir(tables)
        env = dict(os.environ, RUST_BACKTRACE="0", TABULA_TABLES=tables)
        table = os.path.join(tables, "nikoniko.tbl")
        subprocess.run([BIN, "nikoniko", "build", "--quiet", "--table", table], check=True,
                       stdout=subprocess.DEVNULL)
        for v in ("hyper1", "hyper2"):
            subprocess.run([BIN, "gammon", "build", "--variant", v, "--quiet"], check=True,
                           stdout=subprocess.DEVNULL, env=env, cwd=work)
        hyper2 = os.path.join(tables, "hyper2.tbl")
        started = time.monotonic()
        if not args.no_systematic:
            done, failures = systematic(work, env, args.limit)
            runs += done
            print(f"fuzz: {done} cases from the command tree in {time.monotonic() - started:.0f} s, "
                  f"{len(failures)} failed")
        deadline = time.monotonic() + args.seconds
        for argv, stdin in cases(rng, table, hyper2):
            if time.monotonic() > deadline:
                break
            runs += 1
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
