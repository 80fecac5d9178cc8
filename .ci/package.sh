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

# The binary is verified against the core's package, which cargo takes for a registry crate and
# so never rebuilds once built: a second run (a developer's) would verify against the core as it
# was the first time. Its build and its unpacked copy from an earlier run go first (the folder's
# own build stays; crates.io's copies are not touched).
for unpacked in "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/sudoku-core-*; do
  [ -d "$unpacked" ] && rm -rf "$unpacked"
done
target=${CARGO_TARGET_DIR:-target}
for info in "$target"/debug/deps/sudoku_core-*.d; do
  [ -f "$info" ] && grep -q "registry/src/" "$info" || continue
  hash=${info##*/sudoku_core-}
  hash=${hash%.d}
  rm -rf "$target"/debug/deps/*sudoku_core-"$hash".* "$target"/debug/.fingerprint/sudoku-core-"$hash"
done

# A package's manifest carries no profiles (cargo reads them from the workspace's root only), so
# the verifying builds would compile every dependency again with full debug info; given the
# workspace's dev profile (Cargo.toml) they reuse what `cargo test` built (2 m 38 s → 1 m 36 s
# here, all of it the dependencies whose features differ when the core is built alone). The
# core itself is built twice (as the folder, then as the registry's copy the binary verifies
# against) and only whether it builds is in question: at opt-level 0, not the tests' 2.
profile=(--config 'profile.dev.package."*".debug="line-tables-only"'
  --config 'profile.dev.package.sudoku-core.opt-level=0')
# The tests and benches are left out on purpose (they need fixtures, ../shared and the editors):
# cargo's line for each of them is dropped, its other warnings kept.
cargo package --locked --workspace "${profile[@]}" 2>&1 | grep -vE '^warning: ignoring (test|benchmark) `'
for crate in sudoku-core sudoku-lsp; do
  file=$(ls -t target/package/"$crate"-*.crate | head -n 1)
  echo "package: $file, $(( $(wc -c <"$file") / 1024 )) KiB"
done
