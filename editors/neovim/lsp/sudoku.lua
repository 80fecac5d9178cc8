-- sudoku-lsp for Neovim 0.11+: `vim.lsp.enable('sudoku')` starts it for every sudoku buffer.
-- Override any field with `vim.lsp.config('sudoku', { cmd = { '/path/to/sudoku-lsp' } })`.
---@type vim.lsp.Config
return {
  cmd = { 'sudoku-lsp' },
  filetypes = { 'sudoku' },
  root_markers = { '.git' },
  -- Neovim reads a bare file without a project as its own workspace.
  workspace_required = false,
  -- The server asks for the code lenses again when ratings arrive: Neovim 0.11 has no handler
  -- for that, so this one asks for them (lua/sudoku/codelens.lua: the newest answer wins).
  capabilities = { workspace = { codeLens = { refreshSupport = true } } },
  handlers = {
    ['workspace/codeLens/refresh'] = function(_, _, ctx)
      local client = vim.lsp.get_client_by_id(ctx.client_id)
      if client then
        require('sudoku.codelens').request_all(client)
      end
      return vim.NIL
    end,
  },
}
