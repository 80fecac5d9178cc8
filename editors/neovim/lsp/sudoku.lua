-- sudoku-lsp for Neovim 0.11+: `vim.lsp.enable('sudoku')` starts it for every sudoku buffer.
-- Override any field with `vim.lsp.config('sudoku', { cmd = { '/path/to/sudoku-lsp' } })`.
---@type vim.lsp.Config
return {
  cmd = { 'sudoku-lsp' },
  filetypes = { 'sudoku' },
  root_markers = { '.git' },
  -- Neovim reads a bare file without a project as its own workspace.
  workspace_required = false,
}
