//! Findings about puzzles: conflicts, impossible cells, digits with no place, and the verdict.
//!
//! `analyze` looks at one grid and knows no text positions, so its result can be cached by
//! content; `findings` places it in the source through the puzzle's spans. `explain_cell` and
//! `summarize` give the faces ready-made sentences for hover and the like.

use crate::engine::{Budget, Digits, Stop};
use crate::finding::Finding;
use crate::format::{Document, Puzzle};
use crate::grid::{Size, Variant};

/// The same digit more than once in a unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    pub unit: usize,
    pub digit: u8,
    /// Every cell of the unit holding the digit, ascending.
    pub cells: Vec<usize>,
}

/// A digit missing from a unit that fits in none of the unit's empty cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoPlace {
    pub unit: usize,
    pub digit: u8,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Conflicts, impossible cells or digits with no place already show there is no solution.
    Broken,
    NoSolution,
    Unique(Vec<u8>),
    /// Two different solutions and the first cell where they differ.
    Several {
        first: Vec<u8>,
        second: Vec<u8>,
        differ: usize,
    },
    /// The budget ran out first; with the solution found so far, if any.
    Undecided {
        stop: Stop,
        found: Option<Vec<u8>>,
    },
}

/// Everything we conclude about one grid; positions are cell indices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    pub size: Size,
    pub variant: Variant,
    pub conflicts: Vec<Conflict>,
    /// Empty cells whose pencil marks are empty.
    pub impossible: Vec<usize>,
    pub no_place: Vec<NoPlace>,
    pub verdict: Verdict,
    /// True when every cell is filled (and so, with no conflict, solved).
    pub full: bool,
}

/// Analyse one grid.
pub fn analyze(size: Size, variant: Variant, givens: &[u8], budget: &Budget) -> Analysis {
    let _ = (size, variant, givens, budget);
    todo!()
}

/// The findings of one analysed puzzle, placed at its spans.
pub fn findings(puzzle: &Puzzle, analysis: &Analysis) -> Vec<Finding> {
    let _ = (puzzle, analysis);
    todo!()
}

/// A whole text parsed and analysed: every puzzle's analysis and all findings in source order.
pub struct Checked {
    pub document: Document,
    pub analyses: Vec<Analysis>,
    pub findings: Vec<Finding>,
}

pub fn check_text(text: &str, budget: &Budget) -> Checked {
    let _ = (text, budget);
    todo!()
}

/// What hover says about one cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellExplanation {
    /// "E5"
    pub name: String,
    /// "row E", "column 5", "box 5", …
    pub units: Vec<String>,
    pub state: CellState,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CellState {
    /// A digit in the source; `conflicts` names each clash, e.g. "row E: E2".
    Given { digit: u8, conflicts: Vec<String> },
    Empty {
        /// The pencil marks.
        marks: Digits,
        /// Each excluded digit with why, e.g. (4, "row E: E2"),
        /// (9, "naked twins {8, 9} in column 5: B5, H5").
        excluded: Vec<(u8, String)>,
        /// What full propagation concludes, e.g. "propagation places 7 (only place for 7 in box 5)"
        /// or "propagation leaves {2, 7}".
        conclusion: String,
    },
}

/// Explain one cell of a puzzle (computed on demand: it costs microseconds).
pub fn explain_cell(puzzle: &Puzzle, cell: usize) -> CellExplanation {
    let _ = (puzzle, cell);
    todo!()
}

/// One line per fact about a puzzle as a whole: size, variant, givens, solution status.
pub fn summarize(puzzle: &Puzzle, analysis: &Analysis) -> Vec<String> {
    let _ = (puzzle, analysis);
    todo!()
}
