#!/usr/bin/env bash
# The variant engine and sigh's Interactive Sudoku Solver on the same killers, one after the
# other, three rounds, so both see the same machine: `benches/side_by_side.sh SIGH_DIR`, where
# SIGH_DIR is a clone of https://github.com/sigh/Interactive-Sudoku-Solver (Node 20 or later
# runs it). Both count to two solutions (proving uniqueness) on one thread and report each
# puzzle's fastest run; the lines to compare are each round's totals.
set -euo pipefail
sigh=${1:?usage: benches/side_by_side.sh SIGH_DIR}
here=$(cd "$(dirname "$0")/.." && pwd)
cargo bench --manifest-path "$here/Cargo.toml" --bench variants --no-run -q
for round in 1 2 3; do
  echo "round $round"
  (cd "$sigh" && node tools/perf/benchmark_puzzles.js --max-backtracks none \
    --puzzles TAREK_ALL --repeat 3) |
    awk 'NR > 1 { ms += $7; if ($7 > max) max = $7 }
         END { printf "  sigh: 42 killers, %.1f ms in all, slowest %.1f ms\n", ms, max }'
  cargo bench --manifest-path "$here/Cargo.toml" --bench variants -q -- \
    "$here/benches/data/tarek_killers.txt" 2>/dev/null | tail -1 | sed 's/^/  sudoku-lsp: /'
done
