//! Pencil marks and propagation, recording why each digit left each cell.

use super::{Digits, Forced, Reason};
use crate::grid::Geometry;

/// Candidates of every cell and, for each removed (cell, digit), why it went.
#[derive(Clone, Debug)]
pub struct Marks {
    pub side: usize,
    pub candidates: Vec<Digits>,
    /// Indexed `cell * side + digit - 1`; `None` for digits still there (or never examined).
    pub why: Vec<Option<Reason>>,
}

impl Marks {
    pub fn reason(&self, cell: usize, digit: u8) -> Option<Reason> {
        self.why[cell * self.side + digit as usize - 1]
    }
}

/// A digit propagation placed in an empty cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    pub cell: usize,
    pub digit: u8,
    pub how: Forced,
}

/// Why propagation proved the puzzle has no solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contradiction {
    /// A cell lost its last candidate.
    EmptyCell { cell: usize },
    /// A digit missing from a unit has no place left in it.
    NoPlace { unit: usize, digit: u8 },
    /// Two cells of a unit ended with the same digit.
    Clash { unit: usize, digit: u8 },
}

#[derive(Clone, Debug)]
pub struct Propagation {
    pub marks: Marks,
    /// In the order they were placed.
    pub placed: Vec<Placement>,
    pub contradiction: Option<Contradiction>,
}

/// Pencil marks of every cell: digits no filled peer holds, then naked twins to a fixpoint.
/// Nothing is placed. Filled cells keep just their digit.
pub fn pencil_marks(geometry: &Geometry, givens: &[u8]) -> Marks {
    let _ = (geometry, givens);
    todo!()
}

/// The classic `reduce_puzzle`: elimination, only choice and naked twins until nothing changes.
pub fn propagate(geometry: &Geometry, givens: &[u8]) -> Propagation {
    let _ = (geometry, givens);
    todo!()
}
