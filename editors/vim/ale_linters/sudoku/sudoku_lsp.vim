" ALE linter for .sudoku files: sudoku-lsp over LSP (diagnostics, :ALEHover, :ALECodeAction).
" Set g:ale_sudoku_sudoku_lsp_executable when sudoku-lsp is not on $PATH.

call ale#Set('sudoku_sudoku_lsp_executable', 'sudoku-lsp')

" The nearest folder holding .git, else the file's own folder (ALE needs a root for LSP).
function! ale_linters#sudoku#sudoku_lsp#GetProjectRoot(buffer) abort
    let l:git = ale#path#FindNearestDirectory(a:buffer, '.git')

    return !empty(l:git) ? fnamemodify(l:git, ':h:h') : expand('#' . a:buffer . ':p:h')
endfunction

call ale#linter#Define('sudoku', {
\   'name': 'sudoku_lsp',
\   'lsp': 'stdio',
\   'executable': {b -> ale#Var(b, 'sudoku_sudoku_lsp_executable')},
\   'command': '%e',
\   'project_root': function('ale_linters#sudoku#sudoku_lsp#GetProjectRoot'),
\})
