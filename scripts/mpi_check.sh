#!/usr/bin/env bash
# The two-sided bear-off build shared by MPI ranks (docs/bearoff.md, "Across machines"):
# builds tabula with the cargo feature `mpi`, then 6x6 with the cube, 3x15 with gammons
# and Jacoby, and 3x15 stored compact (the 6x15 table's format) in one process and with `mpirun -n 2` and `-n 4` on this machine
# (--oversubscribe), and checks that every table is the one-process table byte for byte.
# Run by .ci/run; needs Debian's openmpi-bin, libopenmpi-dev and libclang-dev.
#
# tabula itself is compiled at opt-level 1 here (its dependencies are the release build's,
# shared): the tables checked are small, and CI saves a minute of compiling. The binary
# left in target/release is then this one; `cargo build --release` puts back the default.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --features mpi --quiet --config 'profile.release.package.tabula.opt-level=1'
T=$PWD/target/release/tabula
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
ROOT=""; [ "$(id -u)" -eq 0 ] && ROOT=--allow-run-as-root
for size in "6 6" "3 15" "3 15 --compact"; do
  read -r p c compact <<<"$size"
  "$T" bearoff build --two-sided --points "$p" --checkers "$c" $compact --quiet --table "$WORK/one.tbl" >/dev/null
  for n in 2 4; do
    start=$(date +%s%N)
    timeout 300 mpirun $ROOT --oversubscribe -n "$n" "$T" bearoff build --two-sided --points "$p" \
      --checkers "$c" $compact --mpi --memory 4M --quiet --table "$WORK/mpi$n.tbl" >/dev/null
    end=$(date +%s%N)
    cmp "$WORK/one.tbl" "$WORK/mpi$n.tbl"
    echo "${p}x${c} with the cube ${compact}, $n ranks: the one-process table byte for byte" \
      "($(((end - start) / 1000000)) ms)"
  done
done
