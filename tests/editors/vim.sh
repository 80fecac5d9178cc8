#!/usr/bin/env bash
# Vim 9 with ALE 3.3 (Debian vim, vim-ale), silent Ex mode: editors/vim as a plugin folder.
set -euo pipefail
: "${REPO:?}" "${SUDOKU_LSP:?}" "${OUT:?}"
export FIXTURES="$REPO/tests/editors/fixtures" RESULT="$OUT/vim-result.txt"
rm -f "$RESULT"
cmp "$REPO/editors/vim/syntax/sudoku.vim" "$REPO/editors/neovim/syntax/sudoku.vim" \
    || { echo "  FAIL editors/vim/syntax/sudoku.vim differs from editors/neovim/syntax/sudoku.vim (keep them identical)"; exit 1; }
vim --version | head -1
status=0
HOME="$OUT" timeout 120 vim -N -u NONE -i NONE -es \
    --cmd "set rtp^=/usr/share/vim-ale,$REPO/editors/vim" \
    --cmd "let g:ale_sudoku_sudoku_lsp_executable = '$SUDOKU_LSP'" \
    --cmd "let g:ale_linters = {'sudoku': ['sudoku_lsp']}" \
    --cmd "filetype plugin on" --cmd "syntax on" --cmd "runtime plugin/ale.vim" \
    -S "$REPO/tests/editors/vim/test.vim" </dev/null | cat || status=$?
cat "$RESULT" 2>/dev/null || echo "  FAIL Vim wrote no result"
[ -f "$RESULT" ] || status=1
exit "$status"
