-- :SudokuSolve, :SudokuFillForced and :SudokuNextStep apply the server's code action for the
-- puzzle at the cursor; :SudokuHint [1-3] shows the next step at a level. The code lenses
-- (rating, Hint, Solve) are kept up to date in buffers sudoku-lsp is attached to.
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
vim.api.nvim_create_user_command('SudokuNextStep', apply('^Apply next step'),
  { desc = 'Write the placement of the next step of the puzzle at the cursor' })

local hint_titles = { 'Hint: where to look', 'Hint: which technique', 'Hint: the whole step' }
vim.api.nvim_create_user_command('SudokuHint', function(opts)
  local level = math.max(1, math.min(3, tonumber(opts.args) or 1))
  vim.lsp.buf.code_action({
    apply = true,
    filter = function(action)
      return action.title == hint_titles[level]
    end,
  })
end, { nargs = '?', desc = 'Show the next step: 1 where to look, 2 which technique, 3 the whole step' })

-- Code lenses: asked for when the server attaches and after edits (Neovim does not ask by itself).
local group = vim.api.nvim_create_augroup('sudoku_lsp_codelens', { clear = true })
vim.api.nvim_create_autocmd('LspAttach', {
  group = group,
  callback = function(args)
    local client = vim.lsp.get_client_by_id(args.data.client_id)
    if not client or client.name ~= 'sudoku' then
      return
    end
    local buf = args.buf
    local lenses = require('sudoku.codelens')
    lenses.request(client, buf)
    vim.api.nvim_create_autocmd({ 'BufEnter', 'InsertLeave', 'TextChanged' }, {
      group = group,
      buffer = buf,
      callback = function()
        lenses.request(client, buf)
      end,
    })
  end,
})
