#!/usr/bin/env bash
# The variant engine and sigh's Interactive Sudoku Solver on the same puzzles, one after the
# other, three rounds, so both see the same machine: `benches/side_by_side.sh SIGH_DIR`, where
# SIGH_DIR is a clone of https://github.com/sigh/Interactive-Sudoku-Solver (Node 20 or later
# runs it). Two sets: sigh's 42 TAREK_ALL killers, and those of sigh's showcase puzzles that
# import fully onto `.sudoku` lines and have rules (sigh is given the same names). Both count
# to two solutions (proving uniqueness) on one thread and report each puzzle's fastest run;
# the lines to compare are each round's totals, medians and slowest.
set -euo pipefail
sigh=${1:?usage: benches/side_by_side.sh SIGH_DIR}
here=$(cd "$(dirname "$0")/.." && pwd)
showcase="$here/crates/core/src/convert/sigh/showcase.txt"
cargo bench --manifest-path "$here/Cargo.toml" --bench variants --no-run -q
ours() {
  cargo bench --manifest-path "$here/Cargo.toml" --bench variants -q -- "$1" 2>/dev/null
}
# sigh's table: the puzzle's name, then status, solutions, guesses, backtracks, nodes, ms.
theirs() {
  (cd "$sigh" && node tools/perf/benchmark_puzzles.js --max-backtracks none \
    --puzzles "$1" --repeat 3) |
    awk -F '  +' 'NR > 1 { print $7 }' | sort -g |
    awk '{ ms[NR] = $1; total += $1 }
         END { printf "%d puzzles, %.1f ms in all, median %.2f ms, slowest %.1f ms\n",
               NR, total, ms[int(NR / 2) + 1], ms[NR] }'
}
names=$(ours "$showcase" | sed -n 's/^.* #[0-9]* (\(.*\)): .*$/\1/p' | paste -sd, -)
for round in 1 2 3; do
  echo "round $round"
  echo "  sigh, TAREK_ALL: $(theirs TAREK_ALL)"
  echo "  sudoku-lsp, TAREK_ALL: $(ours "$here/benches/data/tarek_killers.txt" | tail -1 | sed 's/^[^:]*: //')"
  echo "  sigh, showcase: $(theirs "$names")"
  echo "  sudoku-lsp, showcase: $(ours "$showcase" | tail -1 | sed 's/^[^:]*: //')"
done
