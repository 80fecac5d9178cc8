-- `:checkhealth sudoku`: is everything in place for sudoku-lsp to work here? The Neovim
-- version, the server executable (where `cmd` finds it, and that it runs: `--version`), the
-- `sudoku` filetype, `vim.lsp.enable('sudoku')`, and a client on the buffer you came from.
-- Each failure says what to do, since these are the usual reasons nothing happens in a puzzle.
local M = {}

local health = vim.health

local install_advice = {
  'Install it: `cargo install sudoku-lsp` (or `cargo install --path .` in the repository)',
  "Or point the config at a binary: `vim.lsp.config('sudoku', { cmd = { '/path/to/sudoku-lsp' } })`",
}

--- The buffer the user ran `:checkhealth` from: the health buffer is current by now, so the
--- alternate one (the window's previous buffer) when it is a real one.
--- @return integer?
local function user_buffer()
  local alt = vim.fn.bufnr('#')
  if alt > 0 and vim.api.nvim_buf_is_valid(alt) and vim.bo[alt].buftype == '' then
    return alt
  end
  return nil
end

--- Checks that the server executable exists and runs; returns its path when it does.
--- @param config vim.lsp.Config?
local function check_server(config)
  health.start('sudoku-lsp executable')
  local cmd = config and config.cmd
  if type(cmd) == 'function' then
    health.info('`cmd` is a function (a custom transport): its executable cannot be checked here')
    return
  end
  if type(cmd) ~= 'table' or type(cmd[1]) ~= 'string' then
    health.error('no `cmd` in the sudoku config: is editors/neovim on the runtimepath?', {
      "Add it: `vim.opt.runtimepath:append('/path/to/sudoku-lsp/editors/neovim')`, or lazy.nvim's `dir =`",
    })
    return
  end
  local path = vim.fn.exepath(cmd[1])
  if path == '' then
    health.error(('`%s` (the config\'s cmd) is not an executable file, nor on PATH'):format(cmd[1]),
      install_advice)
    return
  end
  health.ok(('sudoku-lsp found: %s'):format(path))

  local ok, result = pcall(function()
    return vim.system({ path, '--version' }, { text = true }):wait(5000)
  end)
  if not ok then
    health.error(('`%s --version` could not run: %s'):format(path, result), install_advice)
  elseif result.code ~= 0 then
    -- A killed run (the 5 s timeout) has a signal and code 124 or the like.
    health.error(('`%s --version` failed (exit %d): %s'):format(path, result.code,
      vim.trim((result.stderr or '') .. (result.stdout or ''))), install_advice)
  else
    local version = vim.split(vim.trim(result.stdout or ''), '\n')[1]
    if version:match('^sudoku%-lsp ') then
      health.ok(('version: %s'):format(version))
    else
      health.warn(('`%s --version` says %q: is it sudoku-lsp?'):format(path, version), install_advice)
    end
  end
end

function M.check()
  health.start('Neovim')
  if vim.fn.has('nvim-0.11') == 1 then
    health.ok(('Neovim %s'):format(tostring(vim.version())))
  else
    health.error('Neovim 0.11 or newer is needed (vim.lsp.config and vim.lsp.enable)',
      { 'Upgrade Neovim, or use the Vim + ALE integration (editors/vim)' })
    return
  end

  check_server(vim.lsp.config.sudoku)

  health.start('filetype')
  local detected = vim.filetype.match({ filename = 'puzzle.sudoku' })
  if detected == 'sudoku' then
    health.ok('*.sudoku files get the `sudoku` filetype')
  else
    health.error(('*.sudoku files get the filetype %s, not `sudoku`'):format(vim.inspect(detected)), {
      'Add editors/neovim to the runtimepath at startup (its ftdetect/sudoku.lua), or with lazy.nvim set `lazy = false`',
    })
  end

  health.start('client')
  if vim.lsp.is_enabled and not vim.lsp.is_enabled('sudoku') then
    health.error('the sudoku config is not enabled', { "Call `vim.lsp.enable('sudoku')` in your config" })
  end
  local buf = user_buffer()
  if not buf or vim.bo[buf].filetype ~= 'sudoku' then
    local clients = vim.lsp.get_clients({ name = 'sudoku' })
    health.info(('the current buffer is not a sudoku file; %d sudoku-lsp client(s) running'):format(#clients))
    health.info('Open a .sudoku file and run `:checkhealth sudoku` again to check its client')
    return
  end
  local name = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(buf), ':~:.')
  local client = vim.lsp.get_clients({ bufnr = buf, name = 'sudoku' })[1]
  if client then
    health.ok(('sudoku-lsp (client %d) is attached to %s'):format(client.id, name))
  else
    health.error(('no sudoku-lsp client is attached to %s'):format(name), {
      "Check the sections above, then `:checkhealth vim.lsp` and the log (`:lua vim.cmd.edit(vim.lsp.log.get_filename())`)",
      'A server that exits at once is in that log',
    })
  end
end

return M
