#!/usr/bin/env bash
# The crate as crates.io would get it: `cargo package` packs the files Cargo.toml's `include`
# names and builds them alone, as `cargo install sudoku-lsp` will (after `cargo test`, whose
# dependencies it reuses). Fails if the package holds what it should not or misses what it needs.
set -euo pipefail
cd "$(dirname "$0")/.."

list=$(cargo package --locked --list)
for needed in Cargo.toml Cargo.lock README.md LICENSE-MIT LICENSE-APACHE src/main.rs src/lib.rs puzzles/README.md; do
  grep -qx "$needed" <<<"$list" || { echo "package: $needed is missing from the package" >&2; exit 1; }
done
if unwanted=$(grep -E '^(fuzz|editors|tests|benches|target|\.cache)/|node_modules' <<<"$list"); then
  echo "package: these do not belong in the crate:" >&2
  echo "$unwanted" >&2
  exit 1
fi

# The tests and benches are left out on purpose (they need fixtures, ../shared and the editors):
# cargo's line for each of them is dropped, its other warnings kept.
cargo package --locked 2>&1 | grep -vE '^warning: ignoring (test|benchmark) `'
crate=$(ls -t target/package/sudoku-lsp-*.crate | head -n 1)
echo "package: $crate, $(wc -l <<<"$list") files, $(( $(wc -c <"$crate") / 1024 )) KiB"
