" Buffer settings for sudoku puzzles: `#` comments, no wrapping of rows, :SudokuFormat for the
" buffer, and (with ALE) :SudokuSolve and :SudokuFillForced for the puzzle at the cursor.
if exists('b:did_ftplugin')
  finish
endif
let b:did_ftplugin = 1
setlocal commentstring=#\ %s comments=:# nowrap
command! -buffer SudokuSolve call sudoku#ApplyAction('^Solve puzzle')
command! -buffer SudokuFillForced call sudoku#ApplyAction('^Fill all forced cells')
command! -buffer -nargs=? -complete=custom,sudoku#Styles SudokuFormat call sudoku#Format(<q-args>)
let b:undo_ftplugin = 'setlocal commentstring< comments< wrap< | delcommand -buffer SudokuSolve | delcommand -buffer SudokuFillForced | delcommand -buffer SudokuFormat'
