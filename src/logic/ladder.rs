//! The ladder: every finder in the order the solver tries them, simplest first, the order of
//! Sudoku Explainer's rater (so that the path, and the rating, are the ones it would give).

use std::ops::ControlFlow;

use super::board::Board;
use super::chains::{self, Chaining};
use super::{fish, intersections, singles, subsets, Sink};
use crate::engine::Budget;

/// One rung: a finder, or a finder with its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rung {
    FullHouse,
    HiddenSingle,
    NakedSingle,
    LockedCandidates,
    NakedSet(u8),
    HiddenSet(u8),
    Fish(u8),
    Chains(Chaining),
}

/// Sudoku Explainer's order.
pub const LADDER: &[Rung] = &[
    Rung::FullHouse,
    Rung::HiddenSingle,
    Rung::NakedSingle,
    Rung::LockedCandidates,
    Rung::NakedSet(2),
    Rung::Fish(2),
    Rung::HiddenSet(2),
    Rung::NakedSet(3),
    Rung::Fish(3),
    Rung::HiddenSet(3),
    Rung::NakedSet(4),
    Rung::Fish(4),
    Rung::HiddenSet(4),
    Rung::Chains(Chaining::Cycles),
    Rung::Chains(Chaining::Nishio),
    Rung::Chains(Chaining::Multiple),
    Rung::Chains(Chaining::Dynamic),
    Rung::Chains(Chaining::DynamicPlus),
    Rung::Chains(Chaining::Nested(2, 0)),
    Rung::Chains(Chaining::Nested(3, 0)),
    Rung::Chains(Chaining::Nested(4, 0)),
    Rung::Chains(Chaining::Nested(4, 1)),
    Rung::Chains(Chaining::Nested(4, 2)),
    Rung::Chains(Chaining::Nested(4, 3)),
];

impl Rung {
    /// Runs this rung's finder, which pushes what it finds into `sink`.
    pub fn find<const W: usize>(
        self,
        b: &Board<W>,
        budget: &Budget,
        sink: &mut Sink,
    ) -> ControlFlow<()> {
        match self {
            Rung::FullHouse => singles::full_houses(b, sink),
            Rung::HiddenSingle => singles::hidden_singles(b, sink),
            Rung::NakedSingle => singles::naked_singles(b, sink),
            Rung::LockedCandidates => intersections::locked_candidates(b, sink),
            Rung::NakedSet(k) => subsets::naked(b, k as usize, sink),
            Rung::HiddenSet(k) => subsets::hidden(b, k as usize, sink),
            Rung::Fish(k) => fish::basic_fish(b, k as usize, sink),
            Rung::Chains(kind) => chains::find(b, kind, budget, sink),
        }
    }
}
