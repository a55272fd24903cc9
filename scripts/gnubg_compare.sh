#!/usr/bin/env bash
# Solves Hypergammon with tabula and with GNU Backgammon's makehyper, and compares the two
# databases value by value (issue 13):
#
#   scripts/gnubg_compare.sh [CHECKERS...]     default: 1 2  (3 takes makehyper CPU-hours)
#
# Installs gnubg when makehyper is missing (scripts/gnubg_databases.sh), builds gnubg's
# hyperC.bd into tables/gnubg, tabula's tables into tables/, and prints the comparison
# (`tabula gammon compare`, also as JSON in tables/gnubg/compareC.json).
set -euo pipefail
cd "$(dirname "$0")/.."
CHECKERS=("$@")
[ ${#CHECKERS[@]} -eq 0 ] && CHECKERS=(1 2)
cargo build --release --quiet
T=target/release/tabula
for c in "${CHECKERS[@]}"; do
    [ -f "tables/gnubg/hyper$c.bd" ] || scripts/gnubg_databases.sh tables/gnubg "$c"
    "$T" gammon build --variant "hyper$c" --quiet | head -1
    "$T" gammon compare --variant "hyper$c" --gnubg "tables/gnubg/hyper$c.bd"
    "$T" gammon compare --variant "hyper$c" --gnubg "tables/gnubg/hyper$c.bd" --json >"tables/gnubg/compare$c.json"
    echo
done
