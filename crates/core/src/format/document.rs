//! The parsed file: its puzzles and the problems met on the way.

use super::meta::Scope;
use super::metadata::Metadata;
use super::puzzle::Puzzle;
use crate::finding::{Counts, Finding};

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
    /// Where each grid starts that was found but not read, each because of an error among
    /// `problems` (a row too short, a constraint line that does not fit): what a count of the
    /// puzzles checked leaves out. In source order.
    pub unread: Vec<usize>,
    /// The cap, for a parse with one: how many problems of each severity it keeps.
    pub(crate) kept: Option<usize>,
    /// Metadata that applies to every puzzle of the file (before the first puzzle, then a blank line).
    pub file_meta: Metadata,
    /// The same with its size and variant read: what re-reading part of the file starts from.
    pub(crate) file_scope: Scope,
}

impl Document {
    /// The puzzle whose grid or header lines (title, metadata, constraints) hold byte `offset`,
    /// with its index: what the cursor is on.
    pub fn puzzle_at(&self, offset: usize) -> Option<(usize, &Puzzle)> {
        let puzzles = &self.puzzles;
        // Puzzles are in source order, each one's header just above its grid: only the last
        // grids starting at or before the offset, or the next one by its header, can hold it
        // (a binary search, not a walk through a large collection).
        let next = puzzles.partition_point(|p| p.span.start <= offset);
        (next.saturating_sub(2)..(next + 1).min(puzzles.len()))
            .map(|i| (i, &puzzles[i]))
            .find(|(_, puzzle)| {
                puzzle.span.touches(offset) || puzzle.header.iter().any(|s| s.touches(offset))
            })
    }
}
