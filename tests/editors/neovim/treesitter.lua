-- Drives headless Neovim 0.11 with the tree-sitter parser of editors/tree-sitter-sudoku,
-- compiled by tests/editors/neovim.sh into $SUDOKU_PARSER, and the queries that editors/neovim
-- ships (queries/sudoku/, links to the grammar's): the parser registered as a user's config
-- does it, vim.treesitter started on .sudoku buffers, the captures under a given, an empty
-- cell, a separator, a border, a comment, metadata, pencil marks and places, the folds, and
-- the tree after edits.
local parser = assert(os.getenv('SUDOKU_PARSER'), 'SUDOKU_PARSER not set')
local puzzles = assert(os.getenv('PUZZLES'), 'PUZZLES not set')
local report = dofile(debug.getinfo(1, 'S').source:sub(2):match('(.*/)') .. 'report.lua')
local say, check = report.say, report.check

local ok, err = xpcall(function()
  -- What editors/neovim/README.md tells a user to write.
  vim.treesitter.language.add('sudoku', { path = parser })
  vim.api.nvim_create_autocmd('FileType', {
    pattern = 'sudoku',
    callback = function(args)
      vim.treesitter.start(args.buf, 'sudoku')
      vim.wo.foldmethod = 'expr'
      vim.wo.foldexpr = 'v:lua.vim.treesitter.foldexpr()'
    end,
  })

  local function open(name)
    vim.cmd('silent edit ' .. vim.fn.fnameescape(puzzles .. '/' .. name))
    local buf = vim.api.nvim_get_current_buf()
    check(vim.bo[buf].filetype == 'sudoku', name .. ': filetype sudoku', vim.bo[buf].filetype)
    check(vim.treesitter.highlighter.active[buf] ~= nil, name .. ': the tree-sitter highlighter is on')
    local tree = vim.treesitter.get_parser(buf, 'sudoku'):parse()[1]
    check(not tree:root():has_error(), name .. ': parsed without an error node')
    return buf
  end

  local function captures(buf, row, col)
    local names = {}
    for _, c in ipairs(vim.treesitter.get_captures_at_pos(buf, row, col)) do
      if c.lang == 'sudoku' then names[#names + 1] = c.capture end
    end
    return names
  end

  -- Each case: 0-based line and column, the capture expected there, what stands there.
  local function expect(buf, cases)
    local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
    for _, case in ipairs(cases) do
      local row, col, want, what = case[1], case[2], case[3], case[4]
      local got = captures(buf, row, col)
      check(vim.tbl_contains(got, want),
        string.format('%s at %d:%d (%q) is @%s', what, row + 1, col + 1,
          lines[row + 1]:sub(col + 1, col + 1), want),
        vim.inspect(got))
    end
  end

  local buf = open('easy.sudoku')
  expect(buf, {
    { 0, 2, 'property', 'a metadata key' },
    { 0, 9, 'string', 'a metadata value' },
    { 4, 0, 'comment', 'a comment' },
    { 7, 0, 'number', 'a given' },
    { 7, 2, 'punctuation.special', 'an empty cell' },
    { 7, 6, 'punctuation.delimiter', 'a box separator' },
    { 10, 0, 'punctuation.delimiter', 'a border line' },
  })
  -- A given is not also a comment, nor a border a number: the captures tell them apart.
  check(not vim.tbl_contains(captures(buf, 7, 0), 'comment'), 'a given is not captured as a comment')

  buf = open('marks.sudoku')
  expect(buf, {
    { 6, 5, 'constant', 'a group of pencil marks' },
    { 6, 2, 'number', 'a placed digit in a pencil-mark grid' },
    { 5, 0, 'punctuation.delimiter', "HoDoKu's border" },
    { 20, 0, 'constant', 'a line of places' },
  })
  -- Folds: one for the comment block at the top, one per puzzle with its title line.
  vim.cmd('normal! zM')
  check(vim.fn.foldclosed(1) == 1 and vim.fn.foldclosedend(1) == 3, 'the comment block folds (lines 1-3)',
    vim.fn.foldclosed(1) .. '-' .. vim.fn.foldclosedend(1))
  check(vim.fn.foldclosed(5) == 5 and vim.fn.foldclosedend(5) == 18,
    'the pencil-mark grid folds with its title (lines 5-18)',
    vim.fn.foldclosed(5) .. '-' .. vim.fn.foldclosedend(5))
  check(vim.fn.foldlevel(4) == 0 and vim.fn.foldlevel(19) == 0, 'blank lines between puzzles are in no fold')

  -- Edits: the scanner keeps the grid block it reads (its side, its rows so far), so after each
  -- edit the tree Neovim updates incrementally must be the one a fresh parse gives.
  buf = vim.api.nvim_create_buf(true, false)
  vim.api.nvim_set_current_buf(buf)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false,
    { '12|34', '34|12', '--+--', '21|43', '43|21', '.2|3.', '3.|.2', '--+--', '2.|.3', '.3|2.' })
  vim.bo[buf].filetype = 'sudoku'
  local ts_parser = vim.treesitter.get_parser(buf, 'sudoku')
  local function puzzles_in(root)
    local n = 0
    for child in root:iter_children() do
      if child:type() == 'puzzle' then n = n + 1 end
    end
    return n
  end
  check(puzzles_in(ts_parser:parse()[1]:root()) == 2, 'two 4x4 grids back to back are two puzzles')
  local edits = {
    { 0, 1, {}, 'the first row deleted' },
    { 2, 2, { '', '# title: x' }, 'a blank line and a title inserted' },
    { 0, 0, { '1234123412341234' }, 'a 4x4 one-line puzzle inserted on top' },
    { 3, 5, { '4 3 2 1' }, 'two lines replaced by a row' },
  }
  for _, edit in ipairs(edits) do
    vim.api.nvim_buf_set_lines(buf, edit[1], edit[2], false, edit[3])
    local incremental = ts_parser:parse()[1]:root():sexpr()
    local text = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n') .. '\n'
    local fresh = vim.treesitter.get_string_parser(text, 'sudoku'):parse()[1]:root():sexpr()
    check(incremental == fresh, 'after an edit (' .. edit[4] .. ') the tree is a fresh parse\'s',
      '\n' .. incremental .. '\n' .. fresh)
  end
end, debug.traceback)
check(ok, 'the test script ran to the end', err)
if report.failures > 0 then
  vim.cmd('cquit 1')
else
  vim.cmd('qall!')
end
