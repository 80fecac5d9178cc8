//! The `.sudoku` text format: reading it leniently with exact spans, writing it back.
//!
//! `parse` turns text into a [`Document`]: the well-formed puzzles, each cell with its byte span,
//! and a finding for everything that did not fit. `write` holds the ways back to text: filling
//! empty marks in place (what `solve` and the code actions do) and the rows, borders and
//! pencil-mark forms of the canonical form; `style` lays whole documents out in the canonical
//! form and the other formatting styles (`grid`, `compact`, `line`), as checked edits.
//! See `puzzles/README.md` for the format as users read it.

mod cells;
pub(crate) mod lines;
#[cfg(test)]
pub(crate) use lines::classified as lines_classified;
pub(crate) mod marks;
mod meta;
pub(crate) use meta::{key_value, parse_size};
mod parse;
mod reparse;
mod stream;
mod style;
mod write;

pub use cells::CellSpans;
pub use marks::{every_digit, DigitSet};
pub use parse::{keep_problems, parse, parse_keeping};
pub use reparse::{reparse, Change, Splice};
pub use stream::{LineEnd, PartParser, Pieces};
pub use style::{
    canonical, common_ends, format, format_edits, format_range_edits, format_range_edits_at,
    marks_block_edits, Options, Style,
};
pub use write::{
    apply_edits, cell_edit, digit_edit, fill_bytes, fill_edits, grid_block, grid_line, marks_grid,
    marks_line, Edit,
};

use std::sync::Arc;

use crate::finding::{Counts, Finding, Span};
use crate::grid::{Size, Variant};

/// A parsed file: its puzzles in source order and the problems met on the way.
#[derive(Clone, Debug, Default)]
pub struct Document {
    pub puzzles: Vec<Puzzle>,
    /// Parse errors and metadata warnings, in source order: all of them, or the first ones of
    /// each severity when the parse was asked to keep only so many (`parse_keeping`).
    pub problems: Vec<Finding>,
    /// The problems past those kept, counted but not held (a text where every line is an
    /// error would otherwise hold 64 bytes of finding for each 2-byte line).
    pub unkept: Counts,
    /// The cap, for a parse with one: how many problems of each severity it keeps.
    pub(crate) kept: Option<usize>,
    /// Metadata that applies to every puzzle of the file (before the first puzzle, then a blank line).
    pub file_meta: Metadata,
    /// The same with its size and variant read: what re-reading part of the file starts from.
    pub(crate) file_scope: meta::Scope,
}

/// How a puzzle was laid out in the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// N lines of N cells (with optional separators and border lines).
    Block,
    /// One line of N² cells, with optional trailing free text.
    Line,
    /// A pencil-mark grid: N lines of N groups of digits, one group a cell.
    Marks,
    /// One line of pencil marks: N places for each of the N² cells.
    MarksLine,
}

/// Which placed digits are the solver's entries (`+7`), cell by cell; `None` when none is.
pub type Entries = Option<Box<[bool]>>;

/// One well-formed puzzle.
#[derive(Clone, Debug)]
pub struct Puzzle {
    pub size: Size,
    pub variant: Variant,
    /// Row-major, `0` for an empty cell, `1..=side` for a placed digit: a given, or an entry
    /// (the solver's own digit, written `+7`) when `entries` says so.
    pub givens: Vec<u8>,
    /// Which placed digits are the solver's entries rather than the puzzle's givens; `None`
    /// when there is none. The verdict on a puzzle is about its givens alone (`clues`).
    pub entries: Entries,
    /// The pencil marks, for a puzzle written with them (`Layout::Marks` or `MarksLine`): each
    /// cell's candidates, bit `d - 1` for digit `d`. A placed cell has its digit alone; an
    /// empty cell without marks written has every digit.
    pub marks: Option<Box<[DigitSet]>>,
    /// The source span of each cell's character, row-major.
    pub cell_spans: CellSpans,
    /// From the first cell's line start to the end of the last row (not including metadata).
    pub span: Span,
    /// The first row's line (for a one-line puzzle, its cells), where whole-puzzle findings go.
    pub first_row: Span,
    /// The effective metadata: the file's, overridden by the puzzle's own. Puzzles without
    /// metadata of their own share one copy of the file's (a collection has thousands).
    pub meta: Arc<Metadata>,
    /// The puzzle's own comment and metadata lines directly above it, as one span from the
    /// first one's start to the last one's end (a line of junk between two of them is inside
    /// it). One span rather than one a line: a header may be a million lines long.
    pub header: Option<Span>,
    pub layout: Layout,
}

impl Puzzle {
    /// Where whole-puzzle findings go: the title line if the puzzle has its own, else the first row.
    pub fn anchor(&self) -> Span {
        match &self.meta.title {
            Some(title) if self.header.is_some_and(|h| h.covers(title.span)) => title.span,
            _ => self.first_row,
        }
    }
    /// The cell whose character span contains (or ends at) a byte offset.
    pub fn cell_at(&self, offset: usize) -> Option<usize> {
        self.cell_spans.cell_at(offset)
    }
    /// The source span of cell `i`'s character. Panics if there is no such cell.
    pub fn cell_span(&self, i: usize) -> Span {
        self.cell_spans.span(i)
    }
    /// How many givens the puzzle has (entries are not givens).
    pub fn givens_count(&self) -> usize {
        (0..self.givens.len()).filter(|&c| self.is_given(c)).count()
    }
    /// Whether cell `c` holds one of the puzzle's givens.
    pub fn is_given(&self, c: usize) -> bool {
        self.givens[c] != 0 && !self.is_entry(c)
    }
    /// Whether cell `c` holds a digit the solver entered (`+7`).
    pub fn is_entry(&self, c: usize) -> bool {
        self.entries.as_ref().is_some_and(|e| e[c])
    }
    /// Whether an empty cell has a single pencil mark (`*7` in a pencil-mark grid), which a
    /// line of places cannot write: it reads one mark as a placed digit.
    pub fn has_lone_marks(&self) -> bool {
        self.marks.as_deref().is_some_and(|marks| {
            (0..self.givens.len()).any(|c| self.givens[c] == 0 && marks[c].count_ones() == 1)
        })
    }
    /// The givens alone, entries left out: what the verdict, the rating and the setter checks
    /// are about.
    pub fn clues(&self) -> std::borrow::Cow<'_, [u8]> {
        match &self.entries {
            None => std::borrow::Cow::Borrowed(&self.givens),
            Some(entries) => std::borrow::Cow::Owned(
                self.givens
                    .iter()
                    .zip(entries.iter())
                    .map(|(&d, &entry)| if entry { 0 } else { d })
                    .collect(),
            ),
        }
    }
}

/// One `# key: value` entry: its value and the span of its whole line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub value: String,
    pub span: Span,
}

/// The known metadata keys. `variant` and `size` are applied to the puzzle itself.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Metadata {
    pub title: Option<Entry>,
    pub author: Option<Entry>,
    pub source: Option<Entry>,
    pub difficulty: Option<Entry>,
    pub variant: Option<Entry>,
    pub size: Option<Entry>,
}

impl Metadata {
    /// Every key's slot, in the order the keys are documented.
    pub fn fields(&self) -> [&Option<Entry>; 6] {
        [
            &self.title,
            &self.author,
            &self.source,
            &self.difficulty,
            &self.variant,
            &self.size,
        ]
    }

    /// The same slots, to change in place.
    pub fn fields_mut(&mut self) -> [&mut Option<Entry>; 6] {
        [
            &mut self.title,
            &mut self.author,
            &mut self.source,
            &mut self.difficulty,
            &mut self.variant,
            &mut self.size,
        ]
    }

    /// The entries present.
    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.fields().into_iter().flatten()
    }
}
