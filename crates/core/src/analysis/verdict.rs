//! What `analyze` concludes about one grid: its conflicts, impossible cells, digits with no
//! place, and the verdict on its solutions. Positions are cell indices; no text positions, so
//! an analysis can be cached by content.

use crate::engine::Stop;
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

impl Verdict {
    /// The solution to write in, if there is one (the first of several).
    pub fn solution(&self) -> Option<&[u8]> {
        match self {
            Verdict::Unique(s) => Some(s),
            Verdict::Several { first, .. } => Some(first),
            _ => None,
        }
    }
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
    /// For a puzzle with no solution: the givens that together leave none.
    pub core: Option<Core>,
    /// True when every cell is filled (and so, with no conflict, solved).
    pub full: bool,
    /// The puzzle's constraints (beyond its houses) that its givens break.
    pub broken: Vec<BrokenRule>,
    /// Whether the puzzle has constraints beyond its houses (and so, for now, no rating).
    pub has_rules: bool,
}

impl Analysis {
    /// Whether this is the analysis any run would reach: not one whose verdict or no-solution
    /// core a deadline or a cancel cut short, which another run could finish (a node budget's
    /// cut is final: the same budget always cuts at the same place). Caches keep only final
    /// analyses.
    pub fn is_final(&self) -> bool {
        let passing = |stop: &Stop| matches!(stop, Stop::Deadline | Stop::Cancelled);
        let verdict_cut = matches!(&self.verdict, Verdict::Undecided { stop, .. } if passing(stop));
        let core_cut = self
            .core
            .as_ref()
            .is_some_and(|core| core.cut.as_ref().is_some_and(passing));
        !verdict_cut && !core_cut
    }
}

/// A constraint of the puzzle's rules that the digits placed break: its index in
/// `Rules::constraints`, and the cells that show it (for a rule of the whole grid, the pair
/// that breaks it; else the constraint's own cells).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrokenRule {
    pub constraint: usize,
    pub cells: Vec<usize>,
}

/// Givens that together leave no solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Core {
    /// Ascending.
    pub cells: Vec<usize>,
    /// On a variant puzzle, the constraints (indices in its rules, ascending) that leave no
    /// solution together with `cells`; empty on a classic one.
    pub constraints: Vec<usize>,
    /// Why a given or constraint was kept without proof that it is needed, if one was: a try's
    /// node budget, the deadline or the cancel flag. `None` when the core is minimal.
    pub cut: Option<Stop>,
}

impl Core {
    /// Whether removing any one of its givens or constraints gives a solution.
    pub fn minimal(&self) -> bool {
        self.cut.is_none()
    }
}
