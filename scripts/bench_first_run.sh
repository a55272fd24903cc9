#!/usr/bin/env bash
# Issue 15's first-run figures: a fresh clone of this repository (into a temporary folder,
# with its own target folder), then the README's two first commands, each timed.
# Usage: scripts/bench_first_run.sh [COMMIT]   (default HEAD: commit before measuring)
#        PARTS="gammon_analyse bearoff_analyse" scripts/bench_first_run.sh   after both
#        commands, runs the suite's tests of each named part alone (a filter of the
#        integration suite, already built) and prints its wall time: what each part adds to
#        the test command. Default: the parts of issue 38 (match files, XGID, the bear-off's
#        analysis, the page).
#        BREAKDOWN=1 scripts/bench_first_run.sh [COMMIT]   also the test command's parts: the
#        processor time of each compilation (through a RUSTC_WRAPPER, which changes nothing
#        that is built) and each test binary's own time (libtest's "finished in").
# Targets: both commands done in under 4 minutes; the test command, after the run
# command, in under 60 s. Cargo's download cache is shared with this machine's, so a
# machine that never fetched the dependencies will take longer by their download.
# On a busy machine the wall times grow; the processor time (user + system, all cores)
# grows much less, and half of it is about what 2 free cores would take at best. The load
# averages before and after say how busy the machine was.
set -euo pipefail
cd "$(dirname "$0")/.."
# As on a newcomer's machine: no settings of this shell's (a shared target folder, an
# incremental release profile, flags) change what is built.
for v in $(compgen -e | grep -E '^(CARGO_PROFILE_|CARGO_BUILD_|CARGO_TARGET_DIR$|CARGO_INCREMENTAL$|RUSTFLAGS$)'); do
  unset "$v"
done
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
git clone --quiet . "$WORK/tabula"
cd "$WORK/tabula"
git checkout --quiet --detach "$(git -C "$OLDPWD" rev-parse "${1:-HEAD}")"
if [ -n "${BREAKDOWN:-}" ]; then
  # Appends "processor-seconds unit" per compilation to $BENCH_LOG (bash's `times`: the
  # children's user and system time).
  cat >"$WORK/rustc-timed" <<'SH'
#!/usr/bin/env bash
"$@"
rc=$?
unit=unknown prev= kind=
for a in "$@"; do
  [ "$prev" = --crate-name ] && unit=$a
  [ "$a" = --test ] && kind=" (test)"
  case $a in src/lib.rs | src/main.rs | tests/*.rs | tests/*/main.rs) unit="$unit $a" ;; esac
  prev=$a
done
times >"$BENCH_LOG.$$" # (in this shell: a pipe or $(...) would time a subshell's children)
echo "$(tail -1 "$BENCH_LOG.$$") $unit$kind" >>"$BENCH_LOG"
rm -f "$BENCH_LOG.$$"
exit $rc
SH
  chmod +x "$WORK/rustc-timed"
  export BENCH_WRAPPER="$WORK/rustc-timed" BENCH_WORK="$WORK"
fi
python3 - <<'PY'
import os, re, resource, subprocess, time

wrapper = os.environ.get("BENCH_WRAPPER")
outputs = []

def timed(commands, quiet_stderr=False, log=None):
    """Runs the commands one after the other; wall seconds and processor seconds."""
    cpu = lambda: (lambda r: r.ru_utime + r.ru_stime)(resource.getrusage(resource.RUSAGE_CHILDREN))
    env = dict(os.environ)
    if wrapper:
        env.update(RUSTC_WRAPPER=wrapper, BENCH_LOG=os.path.join(os.environ["BENCH_WORK"], log))
    wall0, cpu0 = time.monotonic(), cpu()
    for command in commands:
        out = subprocess.run(command, check=True, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL if quiet_stderr else None)
        outputs.append(out.stdout.decode(errors="replace"))
    return time.monotonic() - wall0, cpu() - cpu0

load_before = " ".join(f"{x:.2f}" for x in os.getloadavg())
run = timed([
    ["cargo", "run", "--release", "--quiet", "--", "nikoniko", "build", "--quiet"],
    ["cargo", "run", "--release", "--quiet", "--", "nikoniko", "equity", "8,8,5,2,2/8,8,5,2,2"],
], log="run.log")
test = timed([["cargo", "test", "--release", "--quiet"]], quiet_stderr=True, log="test.log")
test_output = outputs[-1]
load_after = " ".join(f"{x:.2f}" for x in os.getloadavg())
parts = os.environ.get("PARTS", "gammon_analyse gammon_xgid bearoff_analyse browser").split()
part_times = []
for part in parts:
    wall, cpu = timed([["cargo", "test", "--release", "--quiet", "--test", "suite", "--", part]],
                      quiet_stderr=True, log="parts.log")
    m = re.findall(r"test result: \w+\. (\d+) passed", outputs[-1])
    part_times.append((part, wall, cpu, sum(int(x) for x in m)))

ok = lambda v, t: "OK" if v < t else "MISSED"
print(f"{'':<44} {'wall':>8} {'processor':>10}")
print(f"{'run command (compile, build the table, query)':<44} {run[0]:7.1f}s {run[1]:9.1f}s")
print(f"{'test command, after the run command':<44} {test[0]:7.1f}s {test[1]:9.1f}s"
      f"  target < 60 s: {ok(test[0], 60)}")
print(f"{'both, from a fresh clone':<44} {run[0] + test[0]:7.1f}s {run[1] + test[1]:9.1f}s"
      f"  target < 240 s: {ok(run[0] + test[0], 240)}")
for part, wall, cpu, n in part_times:
    print(f"{'  of which tests ' + part:<44} {wall:7.1f}s {cpu:9.1f}s  ({n} tests, run alone)")
print(f"load average (1, 5, 15 min): {load_before} before, {load_after} after;"
      f" {os.cpu_count()} cores")
if wrapper:
    def seconds(field):
        m = re.fullmatch(r"(\d+)m([\d.]+)s", field)
        return int(m.group(1)) * 60 + float(m.group(2))
    units = {}
    for line in open(os.path.join(os.environ["BENCH_WORK"], "test.log")):
        user, system, unit = line.split(maxsplit=2)
        units[unit.strip()] = units.get(unit.strip(), 0) + seconds(user) + seconds(system)
    print(f"test command's compilations: {sum(units.values()):.1f} processor-seconds"
          " (rustdoc's doctests not included)")
    for unit, t in sorted(units.items(), key=lambda u: -u[1])[:12]:
        print(f"  {t:7.1f}s  {unit}")
    print("test binaries in order (lib, bin, suite, doctests), libtest's own wall time:")
    for m in re.finditer(r"test result: .*", test_output):
        print("  " + m.group(0))
PY
