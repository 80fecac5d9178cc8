-- Buffer settings for sudoku puzzles: `#` comments (gc toggles them), no wrapping of rows.
vim.bo.commentstring = '# %s'
vim.bo.comments = ':#'
vim.opt_local.wrap = false
vim.b.undo_ftplugin = (vim.b.undo_ftplugin or '') .. '|setlocal commentstring< comments< wrap<'
