#!/usr/bin/env bash
# Emacs 30 (bookworm-backports) in batch: sudoku-mode, eglot, flymake, hover, sudoku-solve.
set -euo pipefail
: "${REPO:?}" "${SUDOKU_LSP:?}" "${OUT:?}"
export FIXTURES="$REPO/tests/editors/fixtures" SUDOKU_LSP
home="$OUT/emacs-home"; rm -rf "$home"; mkdir -p "$home"
emacs --version | head -1
# Byte-compiling must be clean of warnings a user would see.
cp "$REPO/editors/emacs/sudoku-mode.el" "$home/"
HOME="$home" emacs --batch -Q --eval '(setq byte-compile-error-on-warn t)' -f batch-byte-compile "$home/sudoku-mode.el"
echo "  ok   sudoku-mode.el byte-compiles without warnings"
HOME="$home" timeout 120 emacs --batch -Q -l "$REPO/tests/editors/emacs/test.el" </dev/null
