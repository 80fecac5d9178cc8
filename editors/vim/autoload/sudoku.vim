" :SudokuSolve and :SudokuFillForced for Vim with ALE: ask sudoku-lsp (the ALE linter sudoku_lsp)
" for the code actions at the cursor and apply the one whose title matches.

function! sudoku#ApplyAction(pattern) abort
    if !exists('*ale#lsp_linter#SendRequest')
        echoerr 'Sudoku: this needs ALE with the sudoku_lsp linter'
        return
    endif
    let l:buffer = bufnr('')
    let [l:line, l:column] = getpos('.')[1:2]
    " An empty range at the cursor (ALE's message takes 1-based start and 0-based end columns).
    let l:message = ale#lsp#message#CodeAction(l:buffer, l:line, l:column, l:line, l:column - 1, [])
    call ale#lsp_linter#SendRequest(l:buffer, 'sudoku_lsp', l:message,
    \   function('s:OnActions', [a:pattern]))
endfunction

function! s:OnActions(pattern, response) abort
    let l:actions = get(a:response, 'result', [])
    for l:action in type(l:actions) is v:t_list ? l:actions : []
        if l:action.title =~# a:pattern && !has_key(l:action, 'disabled')
            call ale#codefix#ApplyLSPCodeAction({}, l:action)
            return
        endif
    endfor
    echomsg 'Sudoku: nothing to do here; put the cursor inside a puzzle that has a solution'
endfunction
