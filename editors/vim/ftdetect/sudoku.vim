" *.sudoku files are sudoku puzzles.
autocmd BufRead,BufNewFile *.sudoku setfiletype sudoku
