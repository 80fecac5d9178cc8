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
    /// The cap, for a parse with one: how many problems of each severity it keeps.
    pub(crate) kept: Option<usize>,
    /// Metadata that applies to every puzzle of the file (before the first puzzle, then a blank line).
    pub file_meta: Metadata,
    /// The same with its size and variant read: what re-reading part of the file starts from.
    pub(crate) file_scope: Scope,
}
