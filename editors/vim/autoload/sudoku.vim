" :SudokuSolve and :SudokuFillForced for Vim with ALE: ask sudoku-lsp (the ALE linter sudoku_lsp)
" for the code actions at the cursor and apply the one whose title matches. :SudokuFormat, at the
" end, needs only the sudoku-lsp program.

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

" :SudokuFormat [grid|compact|line]: the buffer through `sudoku-lsp fmt -` (the layout the
" server's formatting writes). The text is replaced only when the formatter succeeds and changes
" it; on an error the buffer stays as it was and the formatter's message is shown. Its stderr
" goes to a file of its own: Vim's system() would otherwise read it into the text.
function! sudoku#Format(...) abort
    let l:executable = get(b:, 'ale_sudoku_sudoku_lsp_executable',
    \   get(g:, 'ale_sudoku_sudoku_lsp_executable', 'sudoku-lsp'))
    let l:arguments = [l:executable, 'fmt'] + (a:0 && !empty(a:1) ? ['--style', a:1] : []) + ['-']
    let l:errors = tempname()
    let l:command = join(map(l:arguments, 'shellescape(v:val)')) . ' 2>' . shellescape(l:errors)
    let l:lines = getline(1, '$')
    let l:output = systemlist(l:command, l:lines)
    let l:failed = v:shell_error
    let l:messages = filereadable(l:errors) ? readfile(l:errors) : []
    call delete(l:errors)
    if l:failed
        echohl ErrorMsg
        echomsg 'Sudoku: the buffer is left as it was: ' . join(l:messages, ' ')
        echohl None
        return
    endif
    if l:output ==# l:lines
        return
    endif
    let l:view = winsaveview()
    if len(l:output) < len(l:lines)
        silent execute 'keepjumps ' . (len(l:output) + 1) . ',$delete _'
    endif
    call setline(1, l:output)
    call winrestview(l:view)
endfunction

function! sudoku#Styles(...) abort
    return "grid\ncompact\nline"
endfunction
