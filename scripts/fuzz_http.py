#!/usr/bin/env python3
"""HTTP fuzzing of `tabula serve` (issue 34), beside the command-line fuzzer
(scripts/fuzz_cli.py) and with the same verdicts.

The routes and their parameters are read from the server's route table, the API tables of
docs/serve.md (every row `| /api/...?name=V[&name=V] | tabula ... |`), so a route added
there is fuzzed the day it is documented; so is the one POST route, the review of a match
file (`/api/gammon/analyse`), with gnubg's files of tests/data/gnubg damaged (cut,
bytes changed, lines dropped, repeated or swapped, garbage added) as bodies. The server is
started on a folder with Hypergammon-1 (with the cube and its match tables to 7 points) and
the bear-off databases of 6 points one-sided and 6x6 with the cube, 3 points one-sided and
3x15 with the cube (a race of fifteen checkers is estimated on 6 points, exact on 3 at
`/api/bearoff/race/…`). Then, for a fixed time (default 60 s,
`--seconds`) from a fixed seed (`--seed`), requests are sent on raw sockets: every route,
every parameter given good, bad and borderline values (the command-line fuzzer's
garbage), parameters repeated, unknown and missing, other methods, long queries, heads
and bodies, slow clients (a head sent in pieces, a body declared and never sent) and
clients that half-close after their request. The run fails if any request
- gets a 5xx (the tables are sound: every fault is the client's),
- gets no answer within its time limit (a hang), or the server dies,
- gets an error message that repeats more than 80 characters of the input (the excerpt
  rule) or is longer than the message limit,
- or gets a 200 whose document is not the command line's `--json` for the same question
  (the command the route table names, run with the same folder).
Usage: scripts/fuzz_http.py [--seconds S] [--seed N] [--no-build]
"""

import argparse
import json
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "target", "release", "tabula")
EXCERPT = 80
MAX_MESSAGE = 1000 + 40

GARBAGE = [
    "", " ", "-", "/", ",", "0", "-1", "18446744073709551616", "99999999999999999999999",
    "1e9", "NaN", "bar", "x", "\u00e9", "\u5927\u77f3", "\U0001F600", "\t", "1,,2", "1//2",
    "a-b", "3-1", "+5", " 7 ", "%", "%FF", "%00", "&", "=", "..", "9" * 300, "o" * 3000,
]

# Values a parameter may take when it is given well (the route table's own examples
# first, then others the folder answers).
GOOD = {
    "position": ["24/24", "20/6", "bar/3", "24,23/24,23", "6,6,5/4,2,1", "6/1", "319",
                 "6,6,5,3,1", "-", "AAAgCAAAAAAAAA",
                 "6,6,6,5,5,5,4,4,4,3,3,2,2,1,1/6,6,6,5,5,5,4,4,4,3,3,2,2,1,1",
                 "6,6,6,6,6,6,6/5,4", "3,3,3,3,3,2,2,2,2,2,1,1,1,1,1/3,3,3,3,3,3,2,2,2,2,2,1,1,1,1",
                 "3,3,2/1,1,1,1,1,1,1,1"],
    "roll": ["6-5", "1-1", "2-2", "6-1"],
    "cube": ["owned", "centred", "jacoby", "opponent", "1", "2", "4"],
    "jacoby": ["true", "false"],
    "score": ["1-1", "2-3", "3-2", "1-3", "3-3"],
    "crawford": ["true", "false"],
    "owner": ["on-roll", "opponent"],
    "one_sided": ["bearoff-os-6", "bearoff-os-3"],
    "points": ["6", "3"],
    "checkers": ["6", "15", "8"],
    "size": ["3", "4"],
    "max": ["9", "12"],
    "pattern": ["line", "corners"],
    "no_free": ["true"],
    "players": ["2"],
    "cards": ["us", "uniform"],
    "method": ["auto", "enumerate"],
    "history": ["123:0E1B", "123:0E1B,456:1E0B", ""],
    "digits": ["3"],
    "repeats": ["true", "false"],
    "strategy": ["entropy", "parts", "minimax"],
    "hard": ["false"],
    "a": ["oizsk", "ooiis"],
    "b": ["ooiis", "oizsk"],
    "rule": ["article"],
}
SLOTS = {"variant": ["hyper1"], "table": ["bearoff-os-6", "bearoff-ts-6x6"]}


def routes():
    """(path template, [(name, optional)], command words) from docs/serve.md."""
    out = []
    for line in open(os.path.join(ROOT, "docs", "serve.md"), encoding="utf-8"):
        m = re.match(r"\| `(/api/[^`]*)` \| `?tabula ([a-z-]+ [a-z-]+)?", line)
        if not m:
            continue
        template = m.group(1).replace("\\|", "|")
        path, _, query = template.partition("?")
        params = []
        for part in re.findall(r"\[?&?([a-z_]+)=", query):
            params.append(part)
        optional = set(re.findall(r"\[&([a-z_]+)=", query)) | set(
            re.findall(r"&([a-z_]+)=[^&\]]*\]", query))
        out.append((path, [(p, p in optional) for p in params]))
    assert out, "no route found in docs/serve.md"
    return out


def mutate(rng, text):
    r = rng.random()
    if r < 0.35:
        return rng.choice(GARBAGE)
    if r < 0.5 and text:
        return text[: rng.randrange(len(text))]
    if r < 0.7 and text:
        i = rng.randrange(len(text))
        return text[:i] + rng.choice("0123456789/,-x ;\u00e9%&=+") + text[i + 1:]
    return text + rng.choice(["/", ",", "-1", "9", " bar", "\u00e9", "x" * 100])


def request(rng, route):
    """A path with its query, and the parameters given (None for a mangled query)."""
    template, params = route
    path = template
    clean = True
    for slot, values in SLOTS.items():
        if "{" + slot + "}" in path:
            value = rng.choice(values)
            if rng.random() < 0.1:
                value, clean = mutate(rng, value), False
            path = path.replace("{" + slot + "}", urllib.parse.quote(value, safe=""))
    given = []
    for name, optional in params:
        if optional and rng.random() < 0.5:
            continue
        if not optional and rng.random() < 0.03:
            clean = False
            continue
        value = rng.choice(GOOD.get(name, ["1"]))
        if rng.random() < 0.2:
            value, clean = mutate(rng, value), False
        given.append((name, value))
    r = rng.random()
    if r < 0.05 and given:
        given.append(rng.choice(given))
        clean = False
    elif r < 0.1:
        given.append((rng.choice(["cueb", "x", "position2", "n" * 120]), "1"))
        clean = False
    elif r < 0.12:
        given += [("p%d" % i, "1") for i in range(300)]
        clean = False
    query = "&".join(urllib.parse.quote(n, safe="") + "=" + urllib.parse.quote(v, safe="+")
                     for n, v in given)
    if rng.random() < 0.02:
        query += "&" + "q" * 5000
        clean = False
    return path + ("?" + query if query else ""), (given if clean else None)


def send(addr, raw, limit=15.0, half_close=False, pieces=None):
    """Sends `raw` bytes, returns (status, headers, body) or raises on a hang."""
    s = socket.create_connection(addr, timeout=limit)
    try:
        try:
            if pieces:
                for chunk in pieces:
                    s.sendall(chunk)
                    time.sleep(0.05)
            else:
                s.sendall(raw)
            if half_close:
                s.shutdown(socket.SHUT_WR)
        except OSError:
            # The server refused an oversized request before it was all sent: its answer
            # (a 413 or a 431) may still be there to read.
            pass
        data = b""
        start = time.time()
        while True:
            try:
                chunk = s.recv(65536)
            except socket.timeout:
                raise TimeoutError("no answer within %.0f s" % limit)
            except ConnectionResetError:
                break
            if not chunk:
                break
            data += chunk
            head, sep, body = data.partition(b"\r\n\r\n")
            if sep and raw.startswith(b"HEAD "):
                break
            if sep:
                m = re.search(rb"content-length: (\d+)", head, re.I)
                if m and len(body) >= int(m.group(1)):
                    break
            if time.time() - start > limit:
                raise TimeoutError("no answer within %.0f s" % limit)
    finally:
        s.close()
    if not data:
        return None, b"", b""
    head, _, body = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    return status, head, body


def command_line(path, given, folder):
    """The command line that asks the same question, or None."""
    parts = urllib.parse.unquote(path.split("?")[0]).strip("/").split("/")
    p = dict(given)
    if parts[1] == "gammon":
        _, _, variant, q = parts
        words = ["gammon", q]
        if q in ("show", "moves", "equity", "hint"):
            words.append(p.pop("position"))
        if q in ("moves", "hint"):
            words.append(p.pop("roll"))
        words += ["--variant", variant]
        if "score" in p:
            words += ["--score", p.pop("score"), "--match-tables", folder]
            if p.pop("crawford", "false") == "true":
                words.append("--crawford")
            if "owner" in p:
                words += ["--owner", p.pop("owner")]
        cube = p.pop("cube", None)
        if p.pop("jacoby", "false") == "true":
            if cube not in (None, "centred", "jacoby", "centred-jacoby"):
                return None
            cube = "centred-jacoby"
        if cube is not None:
            words += ["--cube", cube]
    elif parts[1] == "bearoff":
        _, _, table, q = parts
        words = ["bearoff", q, p.pop("position")]
        if q == "hint":
            words.append(p.pop("roll"))
        if table == "race":
            # The table the command line chooses in its tables folder (TABULA_TABLES).
            for name in ("points", "checkers"):
                if name in p:
                    words += ["--" + name, p.pop(name)]
        else:
            table = table if table.endswith(".tbl") else table + ".tbl"
            words += ["--table", os.path.join(folder, table)]
        if "score" in p:
            words += ["--score", p.pop("score")]
            if p.pop("crawford", "false") == "true":
                words.append("--crawford")
            if "owner" in p:
                words += ["--owner", p.pop("owner")]
        cube = p.pop("cube", None)
        if p.pop("jacoby", "false") == "true":
            if cube not in (None, "centred", "jacoby", "centred-jacoby"):
                return None
            cube = "centred-jacoby"
        if cube is not None:
            words += ["--cube", cube]
        if "one_sided" in p:
            words += ["--one-sided", os.path.join(folder, p.pop("one_sided") + ".tbl")]
    elif parts[1] == "poker":
        words = ["poker", "compare", p.pop("a"), p.pop("b")]
        if "rule" in p:
            words += ["--rule", p.pop("rule")]
    else:
        return None  # bingo and numeron: compared by the suite (serve_api.rs)
    if p:
        return None
    return words + ["--json"]


MATCH_FILES = [os.path.join(ROOT, "tests", "data", "gnubg", n) for n in
               ["hyper1-money.sgf", "hyper1-money.mat", "hyper1-match7.sgf", "hyper1-match7.mat",
                "hyper2-money.mat", "backgammon-match3.mat", "backgammon-match25.mat"]]


def damaged_file(rng):
    """A match file of gnubg's, damaged a few ways (or not at all)."""
    data = open(rng.choice(MATCH_FILES), "rb").read()
    for _ in range(rng.choice([0, 1, 1, 2, 3])):
        how = rng.random()
        lines = data.split(b"\n")
        if how < 0.2:
            data = data[: rng.randrange(len(data) + 1)]
        elif how < 0.4 and data:
            i = rng.randrange(len(data))
            data = data[:i] + bytes([rng.randrange(256)]) + data[i + 1:]
        elif how < 0.55 and len(lines) > 1:
            del lines[rng.randrange(len(lines))]
            data = b"\n".join(lines)
        elif how < 0.7 and lines:
            i = rng.randrange(len(lines))
            lines.insert(i, lines[i])
            data = b"\n".join(lines)
        elif how < 0.85 and len(lines) > 1:
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            data = b"\n".join(lines)
        else:
            i = rng.randrange(len(lines) + 1)
            lines.insert(i, rng.choice(GARBAGE).encode("utf-8", "replace"))
            data = b"\n".join(lines)
    return data


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--seed", type=int, default=34)
    ap.add_argument("--no-build", action="store_true")
    args = ap.parse_args()
    if not args.no_build:
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    rng = random.Random(args.seed)
    table = routes()
    work = tempfile.mkdtemp(prefix="fuzz-http-")
    quiet = {"stdout": subprocess.DEVNULL}
    subprocess.run([BIN, "gammon", "build", "--variant", "hyper1", "--quiet", "--table",
                    os.path.join(work, "hyper1.tbl")], check=True, **quiet)
    subprocess.run([BIN, "gammon", "met", "--variant", "hyper1", "--length", "7", "--quiet",
                    "--match-tables", work], check=True, **quiet)
    for extra, name in [(["--points", "6"], "bearoff-os-6.tbl"),
                        (["--points", "6", "--checkers", "6", "--two-sided"],
                         "bearoff-ts-6x6.tbl"),
                        (["--points", "3"], "bearoff-os-3.tbl"),
                        (["--points", "3", "--checkers", "15", "--two-sided"],
                         "bearoff-ts-3x15.tbl")]:
        subprocess.run([BIN, "bearoff", "build", "--quiet", "--table",
                        os.path.join(work, name)] + extra, check=True, **quiet)
    log = open(os.path.join(work, "serve.log"), "w+")
    server = subprocess.Popen([BIN, "serve", "--addr", "127.0.0.1:0", "--tables", work,
                               "--threads", "2"], stderr=log, stdin=subprocess.DEVNULL)
    addr = None
    for _ in range(200):
        log.seek(0)
        m = re.search(r"http://([\d.]+):(\d+)/", log.read())
        if m:
            addr = (m.group(1), int(m.group(2)))
            break
        time.sleep(0.05)
    assert addr, "the server did not start"
    env = dict(os.environ, TABULA_TABLES=work, XDG_DATA_HOME=work)
    failures, count, compared = [], 0, 0
    deadline = time.time() + args.seconds

    def fail(what, detail):
        failures.append("%s: %s" % (what, detail[:600]))

    while time.time() < deadline and len(failures) < 20:
        count += 1
        route = rng.choice(table)
        target, given = request(rng, route)
        method = rng.choice(["GET"] * 12 + ["HEAD", "POST", "PUT", "DELETE", "OPTIONS"])
        body = b""
        headers = "Host: fuzz\r\n"
        r = rng.random()
        posted = rng.random() < 0.1
        if posted:
            target, given, method = "/api/gammon/analyse", None, rng.choice(["POST"] * 9 + ["GET"])
            body = damaged_file(rng)
            headers += "Content-Length: %d\r\n" % len(body)
        elif r < 0.03:
            body = b"x" * rng.choice([10, 20000])
            headers += "Content-Length: %d\r\n" % len(body)
        elif r < 0.05:
            headers += "X-Long: " + "h" * 20000 + "\r\n"
        raw = ("%s %s HTTP/1.1\r\n%s\r\n" % (method, target, headers)).encode() + body
        half = rng.random() < 0.05
        pieces = None
        if rng.random() < 0.02:
            pieces = [raw[i:i + 7] for i in range(0, len(raw), 7)][:40]
            pieces[-1] += raw[len(b"".join(pieces)):]
        try:
            status, head, data = send(addr, raw, half_close=half, pieces=pieces)
        except (TimeoutError, OSError) as e:
            fail(target[:200], "%s %s" % (method, e))
            continue
        if server.poll() is not None:
            fail(target[:200], "the server died (status %s)" % server.returncode)
            break
        if status is None:
            if len(raw) <= 16 * 1024:
                fail(target[:200], "connection closed without an answer")
            continue
        if status >= 500 and status != 503:
            fail(target[:200], "%d %s" % (status, data[:300]))
            continue
        if method == "HEAD" or status in (431,):
            continue
        try:
            doc = json.loads(data)
        except ValueError:
            if target.startswith("/api/"):
                fail(target[:200], "%d and not JSON" % status)
            continue
        if status != 200:
            message = doc.get("error", "") if isinstance(doc, dict) else ""
            if len(message) > MAX_MESSAGE:
                fail(target[:200], "a message of %d characters" % len(message))
            decoded = urllib.parse.unquote(target)
            for run in re.findall(r"[^&=?/]{%d,}" % (EXCERPT + 1), decoded):
                if run[: EXCERPT + 1] in message:
                    fail(target[:200], "the message repeats %d characters" % len(run))
                    break
            continue
        if posted and method == "POST":
            # The same bytes as a file (named for neither format: read as the route reads
            # them) analysed by the command line: the same document, exit 0 or 2.
            path = os.path.join(work, "posted.txt")
            with open(path, "wb") as f:
                f.write(body)
            # A backgammon file's bear-offs (the document says by which tables) are
            # `bearoff analyse`'s, the other files `gammon analyse`'s.
            family = "bearoff" if isinstance(doc, dict) and "tables" in doc else "gammon"
            out = subprocess.run([BIN, family, "analyse", "--all", "--json", path], env=env,
                                 capture_output=True, timeout=60)
            compared += 1
            if out.returncode not in (0, 2):
                fail(target, "200 but the command line exits %d: %s"
                     % (out.returncode, out.stderr[:300]))
            elif json.loads(out.stdout) != doc:
                fail(target, "200 differs from `tabula %s analyse --all --json FILE`" % family)
            continue
        if method == "GET" and given is not None:
            words = command_line(target, given, work)
            if words is None:
                continue
            # Run in the folder: no ./tables there, only TABULA_TABLES's (and no per-user
            # folder) holds the tables a race is answered from, as for the server.
            out = subprocess.run([BIN] + words, env=env, cwd=work, capture_output=True,
                                 timeout=30)
            compared += 1
            if out.returncode != 0:
                fail(target[:200], "200 but the command line exits %d: %s"
                     % (out.returncode, out.stderr[:300]))
            elif json.loads(out.stdout) != doc:
                fail(target[:200], "200 differs from `tabula %s`" % " ".join(words))
    server.terminate()
    try:
        code = server.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.kill()
        code = "hung on SIGTERM"
    if code != 0:
        failures.append("the server's stop: status %s" % code)
    print("fuzz_http: %d requests over %d routes, %d answers compared with the command line, "
          "%d failures" % (count, len(table), compared, len(failures)))
    for f in failures:
        print("  FAIL " + f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
