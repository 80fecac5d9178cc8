#!/usr/bin/env bash
# The crates as crates.io would get them: `cargo package` packs the files each Cargo.toml's
# `include` names and builds them alone, as `cargo install sudoku-lsp` will (after `cargo test`,
# whose dependencies it reuses): the core library (`crates/core`) first, then the binary, built
# against the core's package rather than the folder. Fails if a package holds what it should
# not or misses what it needs.
set -euo pipefail
cd "$(dirname "$0")/.."

check_list() {
  local package=$1 list
  shift
  list=$(cargo package --locked --list -p "$package")
  for needed in "$@"; do
    grep -qx "$needed" <<<"$list" || { echo "package: $needed is missing from $package" >&2; exit 1; }
  done
  if unwanted=$(grep -E '^(fuzz|editors|tests|benches|target|crates|\.cache)/|node_modules' <<<"$list"); then
    echo "package: these do not belong in $package:" >&2
    echo "$unwanted" >&2
    exit 1
  fi
  echo "package: $package, $(wc -l <<<"$list") files"
}
check_list sudoku-core Cargo.toml src/lib.rs src/grid.rs src/format/parse.rs
check_list sudoku-lsp Cargo.toml Cargo.lock README.md LICENSE-MIT LICENSE-APACHE src/main.rs src/lib.rs \
  puzzles/README.md

# The tests and benches are left out on purpose (they need fixtures, ../shared and the editors):
# cargo's line for each of them is dropped, its other warnings kept.
cargo package --locked --workspace 2>&1 | grep -vE '^warning: ignoring (test|benchmark) `'
for crate in sudoku-core sudoku-lsp; do
  file=$(ls -t target/package/"$crate"-*.crate | head -n 1)
  echo "package: $file, $(( $(wc -c <"$file") / 1024 )) KiB"
done
