" Drives Vim 9 + ALE 3.3 in silent Ex mode: filetype, syntax, ALE diagnostics,
" :ALEGoToDefinition, :ALEHover, :SudokuSolve, :SudokuFormat.
" Run by tests/editors/vim.sh; results are appended to $RESULT (Vim -es prints nothing itself).
let s:failures = 0
let s:fixtures = $FIXTURES

function! s:Say(line) abort
  call writefile([a:line], $RESULT, 'a')
endfunction

function! s:Check(ok, what, ...) abort
  call s:Say((a:ok ? '  ok   ' : '  FAIL ') . a:what . (!a:ok && a:0 ? ': ' . string(a:1) : ''))
  let s:failures += !a:ok
  return a:ok
endfunction

" Sleep in small steps (which runs channel and timer callbacks) until the expression holds.
function! s:Wait(expr) abort
  for l:i in range(200)
    if eval(a:expr)
      return 1
    endif
    sleep 100m
  endfor
  return eval(a:expr)
endfunction

function! s:Run() abort
  execute 'edit ' . fnameescape(s:fixtures . '/conflict.sudoku')
  call s:Check(&filetype ==# 'sudoku', 'ftdetect: filetype is sudoku', &filetype)
  call s:Check(get(b:, 'current_syntax', '') ==# 'sudoku', 'syntax/sudoku.vim is loaded')
  call s:Check(synIDattr(synID(3, 5, 1), 'name') ==# 'sudokuGiven', 'a given digit is sudokuGiven', synIDattr(synID(3, 5, 1), 'name'))
  call s:Check(&commentstring ==# '# %s', 'ftplugin: commentstring is "# %s"', &commentstring)
  call s:Check(index(map(ale#linter#Get('sudoku'), 'v:val.name'), 'sudoku_lsp') >= 0, 'ALE knows the sudoku_lsp linter')

  ALELint
  let l:list = 'get(get(g:ale_buffer_info, bufnr(""), {}), "loclist", [])'
  call s:Wait('len(filter(copy(' . l:list . '), "v:val.linter_name ==# ''sudoku_lsp''")) >= 2')
  let l:diags = filter(copy(eval(l:list)), 'v:val.linter_name ==# "sudoku_lsp"')
  for l:d in l:diags
    call s:Say(printf('       ALE %d:%d-%d:%d %s [%s] %s', l:d.lnum, l:d.col, get(l:d, 'end_lnum', 0), get(l:d, 'end_col', 0), l:d.type, get(l:d, 'code', ''), l:d.text))
  endfor
  for l:col in [10, 19]
    let l:found = filter(copy(l:diags), 'v:val.lnum == 3 && v:val.col == l:col')
    if s:Check(len(l:found) == 1, printf('ALE shows a diagnostic at line 3, column %d', l:col))
      call s:Check(l:found[0].type ==# 'E', '  ... an error', l:found[0].type)
      call s:Check(get(l:found[0], 'code', '') ==# 'conflict', '  ... with code conflict', get(l:found[0], 'code', ''))
      call s:Check(l:found[0].text =~# 'row A', '  ... naming row A', l:found[0].text)
    endif
  endfor

  " :ALEGoToDefinition on the 2 at A9 (line 3, column 19) jumps to the other 2, at A5 (column 10).
  call cursor(3, 19)
  ALEGoToDefinition
  call s:Wait('getpos(".")[1:2] == [3, 10]')
  call s:Check(getpos('.')[1:2] == [3, 10], ':ALEGoToDefinition on the 2 at A9 jumps to A5', getpos('.')[1:2])

  " :ALEHover on A8 (line 4, column 10) of the easy puzzle, shown in the preview window.
  execute 'edit ' . fnameescape(s:fixtures . '/solve.sudoku')
  ALELint
  call cursor(4, 10)
  let g:ale_hover_to_preview = 1
  ALEHover
  call s:Wait('!empty(filter(range(1, winnr("$")), "getwinvar(v:val, ''&previewwindow'')"))')
  let l:hover = ''
  for l:w in range(1, winnr('$'))
    if getwinvar(l:w, '&previewwindow')
      let l:hover = join(getbufline(winbufnr(l:w), 1, '$'), "\n")
    endif
  endfor
  call s:Say('       hover: ' . substitute(l:hover, '\n', ' | ', 'g')[:200])
  call s:Check(matchstr(l:hover, '{[^}]*}') ==# '{5, 7, 8, 9}', ':ALEHover on A8 shows the pencil marks {5, 7, 8, 9}', l:hover)

  " :SudokuSolve (ftplugin + autoload/sudoku.vim) applies the "Solve puzzle" code action via ALE.
  pclose
  call cursor(5, 2)
  SudokuSolve
  let l:expected = readfile(s:fixtures . '/solve.solved.sudoku')
  call s:Wait('getline(1, "$") ==# ' . string(l:expected))
  call s:Check(getline(1, '$') ==# l:expected, ':SudokuSolve leaves the solved grid in the buffer', getline(1, '$'))
  set nomodified

  " :SudokuFormat runs `sudoku-lsp fmt -` over the buffer: the formatted layout, and nothing of
  " the formatter's stderr in the text. A bad style leaves the buffer as it was.
  execute 'edit! ' . fnameescape(s:fixtures . '/format.sudoku')
  call cursor(5, 3)
  SudokuFormat
  let l:expected = readfile(s:fixtures . '/format.formatted.sudoku')
  call s:Check(getline(1, '$') ==# l:expected, ':SudokuFormat leaves the formatted grid in the buffer', getline(1, '$'))
  SudokuFormat line
  call s:Check(line('$') == 3 && getline(3) =~# '^\.\.3\.2\.6\.\.9\.\.3', ':SudokuFormat line puts the puzzle on one line', getline(1, '$'))
  let l:before = getline(1, '$')
  SudokuFormat wide
  call s:Check(getline(1, '$') ==# l:before, ':SudokuFormat wide (no such style) leaves the buffer as it was', getline(1, '$'))
  call s:Check(execute('messages') =~# 'possible values', '  ... and says why', execute('messages'))
  set nomodified
endfunction

try
  call s:Run()
catch
  call s:Check(0, 'the test ran to the end', v:exception . ' at ' . v:throwpoint)
endtry
if s:failures
  call s:Say('--- :messages')
  call s:Say(execute('messages'))
  call s:Say('--- ALE history')
  call s:Say(execute('ALEInfo'))
endif
execute s:failures ? 'cquit' : 'qall!'
