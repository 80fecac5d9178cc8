-- :SudokuSolve, :SudokuFillForced and :SudokuNextStep apply the server's code action for the
-- puzzle at the cursor; :SudokuHint [1-3] shows the next step at a level; :SudokuNew inserts
-- a new puzzle; :SudokuOpenInSudokuPad, :SudokuCopyLink and :SudokuConvertLink go between
-- the file and f-puzzles / SudokuPad links. The code lenses
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

-- :SudokuNew [size] [variant] [symmetry] [rating], in any order, inserts a new puzzle from the
-- server's generator above the cursor's line, e.g. `:SudokuNew 9 rotational180 4.0..6.0` or
-- `:SudokuNew killer`: a number is the size, a window (or one rating) the rating, a variant
-- name (classic, diagonal, killer, kropki, xv, thermo) the variant, anything else the symmetry.
local VARIANTS = { classic = true, diagonal = true, killer = true, kropki = true, xv = true, thermo = true }
vim.api.nvim_create_user_command('SudokuNew', function(opts)
  local client = vim.lsp.get_clients({ bufnr = 0, name = 'sudoku' })[1]
  if not client then
    vim.notify('sudoku-lsp is not attached to this buffer', vim.log.levels.WARN)
    return
  end
  local cursor = vim.api.nvim_win_get_cursor(0)
  local args = {
    uri = vim.uri_from_bufnr(0),
    -- The line is what matters (the puzzle goes in at its start): no column to encode.
    position = { line = cursor[1] - 1, character = 0 },
  }
  for _, word in ipairs(opts.fargs) do
    if word:match('^%d+$') then
      args.size = tonumber(word)
    elseif word:find('..', 1, true) or word:match('^%d+%.%d+$') then
      args.rating = word
    elseif VARIANTS[word:lower()] then
      args.variant = word:lower()
    else
      args.symmetry = word
    end
  end
  client:exec_cmd({ title = 'New puzzle', command = 'sudoku.newPuzzle', arguments = { args } }, { bufnr = 0 })
end, { nargs = '*', desc = 'Insert a new puzzle above the cursor: [size] [variant] [symmetry] [rating window]' })

-- A command of the server on the puzzle at the cursor, its result to `on_result`.
local function puzzle_command(name, on_result)
  local client = vim.lsp.get_clients({ bufnr = 0, name = 'sudoku' })[1]
  if not client then
    vim.notify('sudoku-lsp is not attached to this buffer', vim.log.levels.WARN)
    return
  end
  local params = vim.lsp.util.make_position_params(0, client.offset_encoding)
  local args = { uri = params.textDocument.uri, position = params.position }
  client:exec_cmd({ title = name, command = name, arguments = { args } }, { bufnr = 0 }, on_result)
end

-- :SudokuOpenInSudokuPad: the server asks Neovim to open the puzzle's SudokuPad link
-- (window/showDocument, which Neovim hands to vim.ui.open).
vim.api.nvim_create_user_command('SudokuOpenInSudokuPad', function()
  puzzle_command('sudoku.openInSudokuPad')
end, { desc = 'Open the puzzle at the cursor in SudokuPad, in the browser' })

-- :SudokuCopyLink: the puzzle's f-puzzles link into the unnamed register (and the clipboard,
-- `+`, when Neovim has one).
vim.api.nvim_create_user_command('SudokuCopyLink', function()
  puzzle_command('sudoku.copyFpuzzlesLink', function(err, result)
    if err or type(result) ~= 'string' then
      return
    end
    vim.fn.setreg('"', result)
    pcall(vim.fn.setreg, '+', result)
    vim.notify('sudoku: the f-puzzles link is in the " register (and +, with a clipboard)')
  end)
end, { desc = "Copy the puzzle's f-puzzles link" })

vim.api.nvim_create_user_command('SudokuConvertLink', apply('^Convert link to %.sudoku'),
  { desc = 'Replace the f-puzzles or SudokuPad link on this line by the puzzle it holds' })

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
