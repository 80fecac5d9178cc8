" Buffer settings for sudoku puzzles: `#` comments, no wrapping of rows.
if exists('b:did_ftplugin')
  finish
endif
let b:did_ftplugin = 1
setlocal commentstring=#\ %s comments=:# nowrap
let b:undo_ftplugin = 'setlocal commentstring< comments< wrap<'
