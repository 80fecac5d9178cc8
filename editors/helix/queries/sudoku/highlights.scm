; Highlights for .sudoku files in Helix: editors/tree-sitter-sudoku/queries/highlights.scm
; with Helix's scope names (constant.numeric for @number, variable.other.member for
; @property). Copy to ~/.config/helix/runtime/queries/sudoku/highlights.scm.

; A puzzle's givens, and a solver's entries (`+8`).
(given) @constant.numeric
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
(key) @variable.other.member
(value) @string

(comment) @comment

; Free text after a one-line puzzle, and a line that is no row (a title without its `#`).
(free_text) @string.special
(text (content) @string.special)
