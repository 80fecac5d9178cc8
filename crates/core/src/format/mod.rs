//! The `.sudoku` text format: reading it leniently with exact spans, writing it back.
//!
//! `parse` turns text into a [`Document`]: the well-formed puzzles, each cell with its byte span,
//! and a finding for everything that did not fit. `write` holds the ways back to text: filling
//! empty marks in place (what `solve` and the code actions do) and the rows, borders and
//! pencil-mark forms of the canonical form; `style` lays whole documents out in the canonical
//! form and the other formatting styles (`grid`, `compact`, `line`), as checked edits.
//! See `puzzles/README.md` for the format as users read it.
//!
//! The models, each in its own file: [`Document`] (`document`), [`Puzzle`] with its [`Layout`]
//! (`puzzle`), [`Metadata`] (`metadata`), a cell's digit and pencil marks (`digits`). This file
//! only declares the modules and re-exports their API.

mod cells;
mod digits;
mod document;
mod invariants;
pub(crate) mod lines;
#[cfg(test)]
pub(crate) use lines::classified as lines_classified;
pub(crate) mod marks;
pub(crate) mod meta;
pub use meta::{key_value, parse_size, KeyValue};
mod constraints;
mod metadata;
mod parse;
mod puzzle;
mod reparse;
pub(crate) mod rules;
pub use rules::{
    keywords as constraint_keywords, parts as constraint_line_parts, CellsShape, KeywordHelp,
    LineParts,
};
mod stream;
mod style;
mod write;

pub use cells::CellSpans;
pub use digits::{every_digit, DigitSet};
pub use document::Document;
pub use invariants::check_invariants;
pub use metadata::{Entry, Metadata};
pub use parse::{keep_problems, parse, parse_keeping};
pub use puzzle::{Entries, Layout, Puzzle};
pub use reparse::{reparse, shared_bytes, window, Change, Splice, WINDOW_MARGIN_LINES};
pub use stream::{LineEnd, PartParser, Pieces};
pub use style::{
    canonical, common_ends, format, format_edits, format_range_edits, format_range_edits_at,
    marks_block_edits, Options, Style,
};
pub use write::{
    apply_edits, cell_edit, digit_edit, fill_bytes, fill_edits, grid_block,
    grid_block_with_entries, grid_line, marks_grid, marks_line, Edit,
};
