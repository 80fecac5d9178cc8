// The core's meanings of the text's stretches, as its `tokens` answer numbers them: shared by
// highlight.js (the editor's marks) and early.js (the drawing before the editor), which cannot
// import highlight.js without CodeMirror.

// In the order of the core's numbers (crates/web's `meaning_index`).
export const MEANINGS = ["given", "entry", "marks", "empty", "border", "key", "value", "comment", "keyword", "number", "cell", "word"];
// The bit the core adds to a digit's meaning when the digit is in conflict.
export const CONFLICT = 1 << 8;
