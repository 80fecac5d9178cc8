" Vim syntax file for .sudoku puzzles (shared by Vim and Neovim).
" Language: Sudoku puzzle files of sudoku-lsp
if exists('b:current_syntax')
  finish
endif

" Cells: given digits (1-9, then A, B, ... above 9x9) and empty marks.
syntax match sudokuGiven /[1-9A-Za-z]/
syntax match sudokuEmpty /[._0]/
syntax match sudokuSeparator /|/
" A line of - + | = * : . ' and spaces holding at least three - or = is a box border.
syntax match sudokuBorder /^\%(\%([^-=]*[-=]\)\{3}\)\@=[-+|=*:.' \t]\+$/
" Free text after a one-line puzzle (a rating, a name).
syntax match sudokuTrailing /^\s*[1-9A-Za-z._]\{16,}\s\+\zs[^#]\{-}\ze\s*\%(#\|$\)/
syntax match sudokuComment /#.*$/ contains=sudokuTodo
syntax keyword sudokuTodo TODO FIXME XXX contained
" `# key: value` metadata lines.
syntax match sudokuMeta /^\s*#\s*[A-Za-z][A-Za-z0-9_-]*\s*:.*$/ contains=sudokuMetaKey,sudokuUnknownKey
" Known keys are defined last so that they win over the generic key pattern.
syntax match sudokuUnknownKey /\%(#\s*\)\@<=[A-Za-z][A-Za-z0-9_-]*\ze\s*:/ contained nextgroup=sudokuMetaColon skipwhite
syntax match sudokuMetaKey /\%(#\s*\)\@<=\%(title\|author\|source\|difficulty\|variant\|size\)\ze\s*:/ contained nextgroup=sudokuMetaColon skipwhite
syntax match sudokuMetaColon /:/ contained nextgroup=sudokuMetaValue skipwhite
syntax match sudokuMetaValue /.*$/ contained

highlight default link sudokuGiven Number
highlight default link sudokuEmpty NonText
highlight default link sudokuSeparator Delimiter
highlight default link sudokuBorder Delimiter
highlight default link sudokuTrailing String
highlight default link sudokuComment Comment
highlight default link sudokuTodo Todo
highlight default link sudokuMeta Comment
highlight default link sudokuMetaKey Keyword
highlight default link sudokuUnknownKey Identifier
highlight default link sudokuMetaColon Delimiter
highlight default link sudokuMetaValue String

let b:current_syntax = 'sudoku'
