; Highlights for .sudoku files, with the capture names nvim-treesitter and the tree-sitter CLI
; use (Helix's copy, with its own names, is editors/helix/queries/sudoku/highlights.scm).

; A puzzle's givens, and a solver's entries (`+8`).
(given) @number
(entry) @variable

; Empty cells (`.`, `0`, `_`) and pencil marks (a cell's candidates, or a line of places).
(empty) @punctuation.special
(marks) @constant
(places) @constant

; Box separators and border lines.
(separator) @punctuation.delimiter
(border) @punctuation.delimiter

; `# key: value` metadata.
(metadata "#" @comment)
(metadata ":" @punctuation.delimiter)
(key) @property
(value) @string

(comment) @comment

; Constraint lines of variant puzzles: `cage 15: A1 A2 B1`, `arrow: E5 > D4`, `antiknight`.
(constraint (keyword) @keyword)
(constraint ":" @punctuation.delimiter)
(rule_value) @number
(cell) @variable
(word) @constant
(number) @number
(operator) @operator

; Free text after a one-line puzzle, and a line that is no row (a title without its `#`).
(free_text) @string.special
(text (content) @string.special)

; A character that is no cell.
(stray) @error
