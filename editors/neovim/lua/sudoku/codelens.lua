-- Asks sudoku-lsp for a buffer's code lenses and shows the newest answer.
--
-- vim.lsp.codelens.refresh() does nothing while an earlier request for the buffer is still in
-- flight, so the server's `workspace/codeLens/refresh` (sent when a rating arrives) could be
-- dropped and the stale `rating…` lens stay. Here every call sends a request, and an answer
-- is shown only if no newer request was sent since.
local M = {}

local latest = {} --- @type table<integer, integer> request count per buffer

--- @param client vim.lsp.Client
--- @param buf integer
function M.request(client, buf)
  if not vim.api.nvim_buf_is_loaded(buf) then
    return
  end
  latest[buf] = (latest[buf] or 0) + 1
  local mine = latest[buf]
  local params = { textDocument = vim.lsp.util.make_text_document_params(buf) }
  client:request('textDocument/codeLens', params, function(err, result, ctx)
    if latest[buf] == mine then
      vim.lsp.codelens.on_codelens(err, result, ctx)
    end
  end, buf)
end

--- Every buffer the client is attached to.
--- @param client vim.lsp.Client
function M.request_all(client)
  for _, buf in ipairs(vim.lsp.get_buffers_by_client_id(client.id)) do
    M.request(client, buf)
  end
end

return M
