//! What the chaining producers find: a `Hint` (its `Kind`, the `Mode` of the engine that found
//! it, its difficulty and chains) and Sudoku Explainer's order of hints.

use crate::logic::step::{length_steps, Difficulty};

/// The settings of one chaining engine (Sudoku Explainer's `Chaining` constructor).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Mode {
    pub multiple: bool,
    pub dynamic: bool,
    pub nishio: bool,
    pub level: u8,
    pub nesting: u8,
}

impl Mode {
    /// The base difficulty of binary, cell and region chains.
    pub(super) fn base(self) -> f64 {
        if self.level > 0 {
            8.5 + 0.5 * f64::from(self.level)
        } else if self.nishio {
            7.5
        } else if self.dynamic {
            8.5
        } else {
            8.0
        }
    }
}

/// What a hint is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Cycle {
        x: bool,
        y: bool,
        cells: u32,
    },
    Forcing {
        x: bool,
        y: bool,
    },
    /// A contradiction (`absurd`) or a double forcing chain.
    Binary {
        absurd: bool,
    },
    Cell,
    Region {
        unit: u16,
    },
}

/// A candidate as (cell, digit).
pub(crate) type Cand = (u16, u8);

/// A hint found by a producer, light until it becomes a step.
#[derive(Clone, Debug)]
pub(crate) struct Hint {
    pub kind: Kind,
    pub mode: Mode,
    pub difficulty: f64,
    pub complexity: u32,
    pub flat: u32,
    pub sort_key: u8,
    /// The digit it places (the hint's result is "on").
    pub placement: Option<(u16, u8)>,
    /// What it removes, ascending.
    pub removable: Vec<(u16, u8)>,
    /// The assumption: the potential, cell or unit the chains start from.
    pub source: u32,
    /// Each chain, from its start to its target, as potentials.
    pub paths: Vec<Vec<u32>>,
    /// For a nested producer: the eliminations of the enclosing chain this hint depends on.
    pub rule_parents: Vec<u32>,
    pub key: u64,
}

/// Sudoku Explainer's length increment: 0.1 for each threshold 4, 6, 8, 12, 16, 24, … that
/// `complexity - 2` exceeds.
pub(crate) fn length_difficulty(complexity: u32) -> f64 {
    let length = (complexity as usize).saturating_sub(2);
    // Added a tenth at a time, as Sudoku Explainer does, so the sums round as its do.
    (0..length_steps(length)).fold(0.0, |added, _| added + 0.1)
}

/// The difficulty in tenths as Sudoku Explainer prints it.
pub(crate) fn tenths(d: f64) -> Difficulty {
    Difficulty(((d + 0.05) * 10.0) as u16)
}

/// Sudoku Explainer's order: difficulty, complexity, kind, then the order found (stable).
pub(super) fn sort(hints: &mut [Hint]) {
    hints.sort_by(|a, b| {
        a.difficulty
            .partial_cmp(&b.difficulty)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.complexity.cmp(&b.complexity))
            .then(a.sort_key.cmp(&b.sort_key))
    });
}

/// The sort key of a cycle or forcing chain: XY after Y after X.
pub(crate) fn sort_key(x: bool, y: bool) -> u8 {
    match (x, y) {
        (true, true) => 4,
        (false, true) => 3,
        _ => 2,
    }
}
