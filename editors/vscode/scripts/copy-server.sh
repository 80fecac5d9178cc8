#!/usr/bin/env bash
# Copies a built sudoku-lsp into server/ so that `npm run package` makes a platform .vsix with it.
# Usage: scripts/copy-server.sh [PATH-TO-sudoku-lsp]   (default: ../../target/release/sudoku-lsp)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
src=${1:-$here/../../target/release/sudoku-lsp}
[ -x "$src" ] || { echo "copy-server.sh: no executable at $src (run cargo build --release first)" >&2; exit 1; }
mkdir -p "$here/server"
cp "$src" "$here/server/sudoku-lsp"
chmod 755 "$here/server/sudoku-lsp"
echo "copied $src to $here/server/sudoku-lsp"
