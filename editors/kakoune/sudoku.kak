# Kakoune support for .sudoku puzzle files: filetype, highlighting, comments.
# With kak-lsp, add `sudoku` to the filetypes of your `lsp-enable-window` hook (see README.md).

hook global BufCreate .*[.]sudoku %{
    set-option buffer filetype sudoku
}

hook global WinSetOption filetype=sudoku %{
    require-module sudoku
    set-option window comment_line '#'
    add-highlighter window/sudoku ref sudoku
    hook -once -always window WinSetOption filetype=.* %{ remove-highlighter window/sudoku }
}

define-command sudoku-solve -docstring "Fill the puzzle at the cursor with its solution (kak-lsp)" %{
    lsp-code-action '^Solve puzzle'
}

define-command sudoku-fill-forced-cells -docstring "Fill the cells propagation forces in the puzzle at the cursor (kak-lsp)" %{
    lsp-code-action '^Fill all forced cells'
}

provide-module sudoku %§
    add-highlighter shared/sudoku group
    add-highlighter shared/sudoku/cells regions
    add-highlighter shared/sudoku/cells/comment region '#' '$' fill comment
    add-highlighter shared/sudoku/cells/grid default-region group
    # Given digits (1-9, then A, B, ... above 9x9), empty marks, separators.
    add-highlighter shared/sudoku/cells/grid/given regex [1-9A-Za-z] 0:value
    add-highlighter shared/sudoku/cells/grid/empty regex [._0] 0:comment
    add-highlighter shared/sudoku/cells/grid/separator regex [|] 0:operator
    # A line of - + | = * : . ' and spaces holding at least three - or = is a box border.
    add-highlighter shared/sudoku/border regex ^[-+|=*:.'\h]*[=-][-+|=*:.'\h]*[=-][-+|=*:.'\h]*[=-][-+|=*:.'\h]*$ 0:operator
    # `# key: value` metadata lines.
    add-highlighter shared/sudoku/metadata regex ^\h*#\h*(title|author|source|difficulty|variant|size)\h*:\h*([^\n]*) 1:keyword 2:string
§
