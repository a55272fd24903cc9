#!/usr/bin/env bash
# The exchange of the two-sided bear-off build shared by MPI ranks (docs/bearoff.md,
# "Across machines"): each size built in one process and by 2 (and 4) ranks on this
# machine, the wall time of each, and what rank 0 exchanged — gathers to it, the row
# tiles' transposes, bytes sent and received, the most received in one layer, seconds in
# gathers, transposes and barriers — and the bytes it read against one process's, from
# the builds' --json reports. The tables must be the one-process ones byte for byte.
#
#   scripts/bench_bearoff_mpi.sh                  # 6x8 and 6x10 with the cube, 2 ranks
#   SIZES="6x10 4x15" RANKS="2 4" scripts/bench_bearoff_mpi.sh
#
# Builds tabula with the feature mpi into target-mpi/ (release, the default profile).
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES=${SIZES:-"6x8 6x10"}
RANKS=${RANKS:-2}
MEMORY=${MEMORY:-300M}
CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$PWD/target-mpi} cargo build --release --features mpi --quiet
T=${CARGO_TARGET_DIR:-$PWD/target-mpi}/release/tabula
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
ROOT=""; [ "$(id -u)" -eq 0 ] && ROOT=--allow-run-as-root
echo "load $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
for size in $SIZES; do
  p=${size%x*}; c=${size#*x}
  s=$(date +%s%N)
  "$T" bearoff build --two-sided --points "$p" --checkers "$c" --memory "$MEMORY" --json \
    --table "$WORK/one.tbl" >"$WORK/one.json"
  echo "${size} with the cube, one process: $(( ($(date +%s%N) - s) / 1000000 )) ms"
  for n in $RANKS; do
    s=$(date +%s%N)
    mpirun $ROOT --oversubscribe -n "$n" "$T" bearoff build --two-sided --points "$p" \
      --checkers "$c" --mpi --memory "$MEMORY" --json --timings --table "$WORK/mpi.tbl" >"$WORK/report"
    ms=$(( ($(date +%s%N) - s) / 1000000 ))
    cmp "$WORK/one.tbl" "$WORK/mpi.tbl"
    python3 - "$WORK/report" "$size" "$n" "$ms" "$WORK/one.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
alone = json.load(open(sys.argv[5]))["out_of_core"]["bytes_read"]
o, x = r["out_of_core"], r["out_of_core"]["exchange"]
pairs = r["pairs"]
print(f"{sys.argv[2]} with the cube, {sys.argv[3]} ranks: {sys.argv[4]} ms, the same bytes; "
      f"rank 0: {x['gathers']} gathers, {x['bytes_sent']/1e6:.0f} MB sent, "
      f"{x['bytes_received']/1e6:.0f} MB received ({x['bytes_received']/pairs:.1f} bytes a pair; "
      f"at most {x['largest_layer_received']/1e6:.0f} MB in one of {o['layers']} layers), "
      f"{x['gather_seconds']:.2f} s in gathers, "
      f"{x['transposes']} transposes in {x['transpose_seconds']:.2f} s, "
      f"{x['barrier_seconds']:.2f} s in barriers; "
      f"rank 0 read {o['bytes_read']/1e6:.0f} MB, one process {alone/1e6:.0f} MB")
PY
  done
done
