#!/usr/bin/env bash
# Copies a built sudoku-lsp into server/, stripped, so that `npm run package` makes a platform .vsix
# with it. The release profile keeps line tables (`debug = 1`, for profiling benches); users need
# none of them, and stripping only this copy keeps target/release as it is (linux-x64: 8 MB, not 63).
# Usage: scripts/copy-server.sh [PATH-TO-sudoku-lsp[.exe]]   (default: ../../target/release/sudoku-lsp)
# STRIP names the strip tool (a cross one, e.g. aarch64-linux-gnu-strip); STRIP=none keeps symbols.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
src=${1:-$here/../../target/release/sudoku-lsp}
[ -f "$src" ] || { echo "copy-server.sh: no executable at $src (run cargo build --release first)" >&2; exit 1; }
name=sudoku-lsp
case "$src" in *.exe) name=sudoku-lsp.exe ;; esac
# One server per package: a binary of another platform left from an earlier copy must not ride along.
rm -rf "$here/server"
mkdir -p "$here/server"
cp "$src" "$here/server/$name"
chmod 755 "$here/server/$name"
strip_tool=${STRIP:-strip}
if [ "$strip_tool" = none ]; then
    :
elif command -v "$strip_tool" >/dev/null; then
    "$strip_tool" "$here/server/$name"
else
    echo "copy-server.sh: warning: no $strip_tool; the bundled server keeps its symbols" >&2
fi
size=$(wc -c <"$here/server/$name")
echo "copied $src to $here/server/$name ($((size / 1024)) KiB)"
