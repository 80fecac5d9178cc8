-- `*.sudoku` files are sudoku puzzles.
vim.filetype.add({ extension = { sudoku = 'sudoku' } })
