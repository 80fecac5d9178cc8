//! One well-formed puzzle as read: its digits, entries and pencil marks, where each cell is in
//! the source, its metadata and how it was laid out.

use std::sync::Arc;

use crate::rules::Rules;

use super::cells::CellSpans;
use super::digits::DigitSet;
use super::metadata::Metadata;
use crate::finding::Span;
use crate::grid::{geometry, PuzzleGeometry, Size, Variant};

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
    /// The constraints of a variant puzzle beyond its houses (cages, thermometers, dots…),
    /// from the constraint lines above it; `None` for a puzzle without any.
    pub rules: Option<Arc<Rules>>,
}

impl Puzzle {
    /// The puzzle's units and peers: its size's boxes, or its own regions (a jigsaw).
    pub fn geometry(&self) -> PuzzleGeometry {
        match &self.rules {
            Some(rules) => rules.geometry(self.size, self.variant),
            None => PuzzleGeometry::Shared(geometry(self.size, self.variant)),
        }
    }
    /// The size as its grid is written: a puzzle with regions of its own draws no box
    /// separators (`|`, `---+---`), which would show boxes it does not have.
    pub fn drawn_size(&self) -> Size {
        match &self.rules {
            Some(rules) if rules.regions.is_some() => self.size.unboxed(),
            _ => self.size,
        }
    }
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
    pub(crate) fn has_lone_marks(&self) -> bool {
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
