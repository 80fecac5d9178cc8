-- Drives headless Neovim 0.11 with editors/neovim loaded as a plugin (from a clean config):
-- filetype and syntax, diagnostics of a conflict, hover pencil marks, :SudokuSolve, the code
-- lenses (rating, Hint, Solve), the hint code action and :SudokuNew; then semantic tokens, go to
-- definition, references, the outline, folding, completion, inlay hints and formatting; a
-- killer puzzle's diagnostic, hover and links; last
-- :checkhealth sudoku, with the server found and with a wrong path.
-- Run by tests/editors/neovim.sh:
--   nvim --headless --clean --cmd 'set rtp^=editors/neovim' -c 'luafile tests/editors/neovim/test.lua'
local server = assert(os.getenv('SUDOKU_LSP'), 'SUDOKU_LSP not set')
local fixtures = assert(os.getenv('FIXTURES'), 'FIXTURES not set')
local report = dofile(debug.getinfo(1, 'S').source:sub(2):match('(.*/)') .. 'report.lua')
local say, check = report.say, report.check
local TIMEOUT = 20000

local function finish()
  if report.failures > 0 then
    say('--- :messages')
    say(vim.api.nvim_exec2('messages', { output = true }).output)
    say('--- LSP log (' .. vim.lsp.log.get_filename() .. ')')
    local f = io.open(vim.lsp.log.get_filename(), 'r')
    if f then
      local text = f:read('*a')
      f:close()
      say(text:sub(-6000))
    end
    vim.cmd('cquit 1')
  else
    vim.cmd('qall!')
  end
end

vim.lsp.set_log_level('debug')
-- What a user writes in init.lua: point the shipped config at the binary, and enable it.
vim.lsp.config('sudoku', { cmd = { server } })
vim.lsp.enable('sudoku')

local function open(name)
  vim.cmd('silent edit ' .. vim.fn.fnameescape(fixtures .. '/' .. name))
  local buf = vim.api.nvim_get_current_buf()
  local attached = vim.wait(TIMEOUT, function()
    return #vim.lsp.get_clients({ bufnr = buf, name = 'sudoku' }) > 0
  end, 50)
  if not check(attached, name .. ': sudoku-lsp attached to the buffer') then
    error('sudoku-lsp did not start; see the LSP log below', 0)
  end
  return buf
end

local ok, err = xpcall(function()
  -- The conflict: 2 at A9 (line 3, byte 18) repeats the 2 at A5 (line 3, byte 9) in row A.
  vim.cmd('silent edit ' .. vim.fn.fnameescape(fixtures .. '/conflict.sudoku'))
  local buf = vim.api.nvim_get_current_buf()
  check(vim.bo[buf].filetype == 'sudoku', 'filetype is sudoku', vim.bo[buf].filetype)
  check(vim.b[buf].current_syntax == 'sudoku', 'syntax/sudoku.vim is loaded')
  local group = vim.fn.synIDattr(vim.fn.synID(3, 5, true), 'name')
  check(group == 'sudokuGiven', 'a given digit is highlighted as sudokuGiven', group)
  group = vim.fn.synIDattr(vim.fn.synID(6, 7, true), 'name')
  check(group == 'sudokuBorder', 'a box border line is highlighted as sudokuBorder', group)
  group = vim.fn.synIDattr(vim.fn.synID(2, 3, true), 'name')
  check(group == 'sudokuMetaKey', '"title" in "# title:" is a metadata key', group)
  check(vim.bo[buf].commentstring == '# %s', "commentstring is '# %s'", vim.bo[buf].commentstring)
  check(vim.fn.exists(':SudokuSolve') == 2, 'plugin/sudoku.lua defined :SudokuSolve')
  buf = open('conflict.sudoku')

  local function conflict_at(col)
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.code == 'conflict' and d.lnum == 2 and d.col == col then
        return d
      end
    end
  end
  vim.wait(TIMEOUT, function()
    return conflict_at(18) ~= nil and conflict_at(9) ~= nil
  end, 50)
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    say(string.format('       diagnostic %d:%d-%d:%d %s [%s] %s', d.lnum, d.col, d.end_lnum, d.end_col,
      vim.diagnostic.severity[d.severity], tostring(d.code), d.message))
  end
  for _, col in ipairs({ 9, 18 }) do
    local d = conflict_at(col)
    if check(d ~= nil, ('conflict diagnostic at line 3, byte %d'):format(col)) then
      check(d.severity == vim.diagnostic.severity.ERROR, '  ... is an error')
      check(d.source == 'sudoku', '  ... has source sudoku', tostring(d.source))
      check(d.end_lnum == 2 and d.end_col == col + 1, '  ... covers exactly the cell',
        ('%d:%d'):format(d.end_lnum, d.end_col))
      check(d.message:find('row A', 1, true) ~= nil, '  ... names row A', d.message)
    end
  end

  -- Hover on A8 (line 4, byte 9) of the easy puzzle: pencil marks {5, 7, 8, 9}.
  buf = open('solve.sudoku')
  vim.api.nvim_win_set_cursor(0, { 4, 9 })
  local client = vim.lsp.get_clients({ bufnr = buf, name = 'sudoku' })[1]
  if client then
    local params = vim.lsp.util.make_position_params(0, client.offset_encoding)
    local reply = client:request_sync('textDocument/hover', params, TIMEOUT, buf)
    local contents = reply and reply.result and reply.result.contents
    local text = type(contents) == 'table' and (contents.value or vim.inspect(contents)) or tostring(contents)
    say('       hover: ' .. text:gsub('\n', ' | '):sub(1, 200))
    check(text:match('%b{}') == '{5, 7, 8, 9}', 'hover on A8 shows pencil marks {5, 7, 8, 9}',
      tostring(text:match('%b{}')))
    -- On the title: the summary as text, no image (Neovim draws none: a float of blank rows).
    vim.api.nvim_win_set_cursor(0, { 2, 4 })
    params = vim.lsp.util.make_position_params(0, client.offset_encoding)
    reply = client:request_sync('textDocument/hover', params, TIMEOUT, buf)
    contents = reply and reply.result and reply.result.contents
    text = type(contents) == 'table' and (contents.value or vim.inspect(contents)) or tostring(contents)
    check(text:find('Easy classic', 1, true) ~= nil and text:find('data:image', 1, true) == nil
      and text:find('![', 1, true) == nil, 'hover on the title is text alone, no image',
      text:gsub('\n', ' | '):sub(1, 300))
  end

  -- Code lenses: the rating on the title line, then the Hint and Solve lenses, commands the
  -- server runs itself.
  local function lens_titled(pattern)
    for _, lens in ipairs(vim.lsp.codelens.get(buf)) do
      if lens.command and lens.command.title:match(pattern) then
        return lens
      end
    end
  end
  -- plugin/sudoku.lua asks for them; the server's refresh request, when ratings arrive, too.
  local function wait_lens(pattern)
    local found
    vim.wait(TIMEOUT, function()
      found = lens_titled(pattern)
      return found ~= nil
    end, 50)
    return found
  end
  local function messages()
    return vim.api.nvim_exec2('messages', { output = true }).output
  end
  local rating = wait_lens('^SE ')
  if check(rating ~= nil, 'a code lens shows the rating',
      vim.inspect(vim.tbl_map(function(l) return l.command and l.command.title end, vim.lsp.codelens.get(buf)))) then
    say('       lens: ' .. rating.command.title)
    check(rating.command.title:match('^SE %d+%.%d · %a+ · unique · 32 givens') ~= nil,
      '  ... says SE, level, unique and the givens', rating.command.title)
    check(rating.range.start.line == 1, '  ... on the title line', tostring(rating.range.start.line))
    check(rating.command.title:find('redundant', 1, true) == nil, '  ... and nothing of redundant givens',
      rating.command.title)
  end
  -- Rated, the puzzle gets no redundant-given diagnostics: they are for setters (a setting),
  -- and were an I sign on every row.
  vim.wait(1000, function() return false end, 50)
  local redundant = vim.tbl_filter(function(d) return d.code == 'redundant-given' end, vim.diagnostic.get(buf))
  check(#redundant == 0, 'no redundant-given diagnostics by default', tostring(#redundant))
  local hint = lens_titled('^Hint$')
  if check(hint ~= nil, 'a Hint lens') and client then
    client:exec_cmd(hint.command, { bufnr = buf })
    local shown = vim.wait(TIMEOUT, function()
      return messages():find('Hint 1/3: look at', 1, true) ~= nil
    end, 50)
    check(shown, '  ... running it shows "Hint 1/3: look at …"', messages():sub(-300))
  end

  -- :SudokuHint 3 runs the "Hint: the whole step" code action: the same command, level 3.
  vim.api.nvim_win_set_cursor(0, { 5, 1 })
  vim.cmd('SudokuHint 3')
  local whole = vim.wait(TIMEOUT, function()
    return messages():find('Hint 3/3: ', 1, true) ~= nil
  end, 50)
  check(whole, ':SudokuHint 3 shows the whole step', messages():sub(-300))

  -- :SudokuNextStep writes the next step's placement: the hidden single 6 in B2 (line 5).
  vim.cmd('SudokuNextStep')
  local placed = vim.wait(TIMEOUT, function()
    return vim.api.nvim_buf_get_lines(buf, 4, 5, false)[1]:sub(1, 3) == '96.'
  end, 50)
  check(placed, ':SudokuNextStep writes 6 into B2', vim.api.nvim_buf_get_lines(buf, 4, 5, false)[1])

  -- :SudokuSolve (plugin/sudoku.lua) applies the server's "Solve puzzle" code action.
  vim.api.nvim_win_set_cursor(0, { 5, 1 })
  vim.cmd('SudokuSolve')
  local expected = vim.fn.readfile(fixtures .. '/solve.solved.sudoku')
  local solved = vim.wait(TIMEOUT, function()
    return vim.deep_equal(vim.api.nvim_buf_get_lines(buf, 0, -1, false), expected)
  end, 50)
  check(solved, ':SudokuSolve leaves the solved grid in the buffer',
    '\n' .. table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n'))

  -- Back to the puzzle, then the Solve lens: the server asks Neovim to apply the solution.
  vim.cmd('silent edit!')
  local solve = wait_lens('^Solve$')
  if check(solve ~= nil, 'a Solve lens after reloading the file') and client then
    client:exec_cmd(solve.command, { bufnr = buf })
    solved = vim.wait(TIMEOUT, function()
      return vim.deep_equal(vim.api.nvim_buf_get_lines(buf, 0, -1, false), expected)
    end, 50)
    check(solved, '  ... running it leaves the solved grid in the buffer',
      '\n' .. table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n'))
  end

  -- :SudokuNew inserts a new puzzle from the generator above the cursor's line.
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  vim.cmd('SudokuNew 4 vertical')
  local inserted = vim.wait(TIMEOUT, function()
    local lines = vim.api.nvim_buf_get_lines(buf, 0, 4, false)
    return lines[1] == '# title: New puzzle' and lines[2]:match('^# source: sudoku%-lsp new %-%-seed %d+ %-%-size 4 %-%-symmetry vertical$') ~= nil
  end, 50)
  check(inserted, ':SudokuNew inserts "# title: New puzzle" and its source above the cursor',
    '\n' .. table.concat(vim.api.nvim_buf_get_lines(buf, 0, 12, false), '\n'))
  -- :SudokuNew killer: a killer, its cages above its grid.
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  vim.cmd('SudokuNew killer')
  local killer = vim.wait(TIMEOUT, function()
    local lines = vim.api.nvim_buf_get_lines(buf, 0, 8, false)
    return lines[2]:match('^# source: sudoku%-lsp new %-%-seed %d+ %-%-variant killer$') ~= nil
      and vim.iter(lines):any(function(l) return l:match('^cage %d+: ') ~= nil end)
  end, 50)
  check(killer, ':SudokuNew killer inserts a killer: its source line and its cages',
    '\n' .. table.concat(vim.api.nvim_buf_get_lines(buf, 0, 12, false), '\n'))

  -- The editor surface, each through Neovim's own LSP front end where it has one.
  buf = open('conflict.sudoku')
  client = vim.lsp.get_clients({ bufnr = buf, name = 'sudoku' })[1]

  -- Semantic tokens (Neovim asks for them by itself): the given 3 at A3 (line 3, byte 4) is a
  -- read-only number; the conflicting 2 at A9 (byte 18) is deprecated too, once the run found it.
  local function token_at(row, col)
    for _, token in ipairs(vim.lsp.semantic_tokens.get_at_pos(buf, row, col) or {}) do
      if token.client_id == client.id then
        return token
      end
    end
  end
  local given, clash
  vim.wait(TIMEOUT, function()
    given, clash = token_at(2, 4), token_at(2, 18)
    return given ~= nil and clash ~= nil and clash.modifiers.deprecated == true
  end, 50)
  check(given ~= nil and given.type == 'number' and given.modifiers.readonly == true,
    'semantic token of the given at A3: number, readonly', vim.inspect(given))
  check(clash ~= nil and clash.modifiers.deprecated == true,
    'semantic token of the conflicting 2 at A9: deprecated', vim.inspect(clash))

  -- Go to definition on the conflicting 2 at A9 jumps to the other 2, at A5 (byte 9).
  vim.api.nvim_win_set_cursor(0, { 3, 18 })
  vim.lsp.buf.definition()
  local jumped = vim.wait(TIMEOUT, function()
    return vim.deep_equal(vim.api.nvim_win_get_cursor(0), { 3, 9 })
  end, 50)
  check(jumped, 'go to definition on the 2 at A9 jumps to A5', vim.inspect(vim.api.nvim_win_get_cursor(0)))

  -- References of the 2 at A5: the cells of its units that hold a 2 or could.
  local references
  vim.lsp.buf.references(nil, { on_list = function(list) references = list.items end })
  vim.wait(TIMEOUT, function() return references ~= nil end, 50)
  local function listed(lnum, col)
    return vim.iter(references or {}):any(function(item) return item.lnum == lnum and item.col == col end)
  end
  check(listed(3, 10) and listed(3, 19), 'references of the 2 at A5 list A5 and A9',
    vim.inspect(references))

  -- The outline: one symbol for the puzzle, named by its title, its rows inside.
  local symbols
  vim.lsp.buf.document_symbol({ on_list = function(list) symbols = list.items end })
  vim.wait(TIMEOUT, function() return symbols ~= nil end, 50)
  local titled = vim.tbl_filter(function(item) return item.text:find('Row A conflict', 1, true) end,
    symbols or {})
  check(#titled == 1, 'document symbols: the puzzle, by its title', vim.inspect(symbols and symbols[1]))

  -- Folding ranges through vim.lsp.foldexpr(): the puzzle folds from its title to its last row.
  vim.wo.foldmethod = 'expr'
  vim.wo.foldexpr = 'v:lua.vim.lsp.foldexpr()'
  local folded = vim.wait(TIMEOUT, function()
    vim.cmd('normal! zx')
    return vim.fn.foldlevel(5) >= 1
  end, 100)
  check(folded, 'vim.lsp.foldexpr() folds the puzzle', tostring(vim.fn.foldlevel(5)))

  -- Completion in the empty cell A1 of the easy puzzle: the digits that fit, 4 among them.
  buf = open('solve.sudoku')
  vim.cmd('silent edit!') -- the file as it is on disk: the steps above solved the buffer
  vim.api.nvim_win_set_cursor(0, { 4, 0 })
  local params = vim.lsp.util.make_position_params(0, client.offset_encoding)
  local reply = client:request_sync('textDocument/completion', params, TIMEOUT, buf)
  local items = reply and reply.result and (reply.result.items or reply.result) or {}
  local labels = vim.tbl_map(function(item) return item.label end, items)
  check(vim.tbl_contains(labels, '4') and #labels < 9, 'completion in A1 offers the digits that fit',
    vim.inspect(labels))

  -- Inlay hints, once the setting asks for candidates: after the empty cells of the grid.
  client:notify('workspace/didChangeConfiguration', { settings = { sudoku = { inlayHints = 'candidates' } } })
  vim.lsp.inlay_hint.enable(true, { bufnr = buf })
  local hints = {}
  vim.wait(TIMEOUT, function()
    hints = vim.lsp.inlay_hint.get({ bufnr = buf })
    return #hints > 0
  end, 100)
  check(#hints > 0, 'inlay hints show candidates',
    vim.inspect(hints[1] and hints[1].inlay_hint.label))

  -- Formatting: vim.lsp.buf.format() lays out a loosely written grid.
  buf = open('format.sudoku')
  vim.lsp.buf.format({ bufnr = buf, timeout_ms = TIMEOUT })
  local formatted = vim.fn.readfile(fixtures .. '/format.formatted.sudoku')
  check(vim.deep_equal(vim.api.nvim_buf_get_lines(buf, 0, -1, false), formatted),
    'vim.lsp.buf.format() writes the grid layout',
    '\n' .. table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n'))

  -- A variant puzzle: the broken cage's diagnostic at its line (line 3), the hover naming the
  -- cage behind a digit ruled out of B1 (line 19 of the second puzzle), and the links.
  buf = open('variant.sudoku')
  client = vim.lsp.get_clients({ bufnr = buf, name = 'sudoku' })[1]
  local cage
  vim.wait(TIMEOUT, function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.lnum == 2 and d.message:find('cage 10 at A1 A2', 1, true) then
        cage = d
      end
    end
    return cage ~= nil
  end, 50)
  check(cage ~= nil and cage.severity == vim.diagnostic.severity.ERROR,
    'variant: an error at the cage line names the broken cage',
    vim.inspect(vim.tbl_map(function(d) return d.lnum .. ': ' .. d.message end, vim.diagnostic.get(buf))))
  vim.api.nvim_win_set_cursor(0, { 19, 0 })
  params = vim.lsp.util.make_position_params(0, client.offset_encoding)
  reply = client:request_sync('textDocument/hover', params, TIMEOUT, buf)
  local contents = reply and reply.result and reply.result.contents
  local text = type(contents) == 'table' and (contents.value or vim.inspect(contents)) or tostring(contents)
  check(text:find('cage 10 at B1 B2 would leave 1 for B2, which row B already holds (B5)', 1, true) ~= nil,
    'variant: hover on B1 names the cage that rules 9 out', text:gsub('\n', ' | '):sub(1, 400))
  -- :SudokuOpenInSudokuPad: the server asks Neovim to open the link (vim.ui.open, caught here).
  local opened
  local ui_open = vim.ui.open
  vim.ui.open = function(uri)
    opened = uri
    return { wait = function() return { code = 0 } end }
  end
  vim.cmd('SudokuOpenInSudokuPad')
  vim.wait(TIMEOUT, function() return opened ~= nil end, 50)
  vim.ui.open = ui_open
  check(opened ~= nil and opened:find('https://sudokupad.app/fpuzzles', 1, true) == 1,
    ':SudokuOpenInSudokuPad opens the puzzle\'s SudokuPad link', tostring(opened))
  vim.fn.setreg('"', '')
  vim.cmd('SudokuCopyLink')
  local copied = vim.wait(TIMEOUT, function()
    return vim.fn.getreg('"'):find('https://www.f-puzzles.com/?load=', 1, true) == 1
  end, 50)
  check(copied, ':SudokuCopyLink puts the f-puzzles link in the " register', vim.fn.getreg('"'):sub(1, 80))

  -- :checkhealth sudoku (lua/sudoku/health.lua) from the attached puzzle: every check OK ...
  local function checkhealth()
    vim.cmd('silent checkhealth sudoku')
    local report = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
    vim.cmd('tabclose') -- back to the puzzle
    return report
  end
  local report = checkhealth()
  local function has(text)
    return report:find(text, 1, true) ~= nil
  end
  check(has('OK sudoku-lsp found: ' .. server), ':checkhealth sudoku finds the server at its path', report)
  check(has('OK version: sudoku-lsp '), ':checkhealth sudoku reports the server\'s version', report)
  check(has('OK *.sudoku files get the `sudoku` filetype'), ':checkhealth sudoku: the filetype is detected',
    report)
  check(report:find('OK sudoku%-lsp %(client %d+%) is attached to [^\n]*variant%.sudoku') ~= nil,
    ':checkhealth sudoku: a client is attached to the buffer', report)
  check(not has('ERROR') and not has('WARNING'), ':checkhealth sudoku reports no error or warning', report)
  -- ... and an ERROR, with advice, when the configured server path is wrong.
  local wrong = fixtures .. '/no-such-sudoku-lsp'
  vim.lsp.config('sudoku', { cmd = { wrong } })
  report = checkhealth()
  vim.lsp.config('sudoku', { cmd = { server } })
  check(has('ERROR `' .. wrong .. '` (the config\'s cmd) is not an executable file') and has('cargo install sudoku-lsp'),
    ':checkhealth sudoku: an ERROR with advice for a wrong server path', report)
end, debug.traceback)
check(ok, 'the test script ran to the end', err)
finish()
