-- :SudokuSolve and :SudokuFillForced apply the server's code action for the puzzle at the cursor.
if vim.g.loaded_sudoku_lsp then
  return
end
vim.g.loaded_sudoku_lsp = true

local function apply(pattern)
  return function()
    vim.lsp.buf.code_action({
      apply = true,
      filter = function(action)
        return action.title:match(pattern) ~= nil and not action.disabled
      end,
    })
  end
end

vim.api.nvim_create_user_command('SudokuSolve', apply('^Solve puzzle'),
  { desc = 'Fill every empty cell of the puzzle at the cursor with its solution' })
vim.api.nvim_create_user_command('SudokuFillForced', apply('^Fill all forced cells'),
  { desc = 'Fill every cell that propagation forces in the puzzle at the cursor' })
