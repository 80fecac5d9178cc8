//! The ladder: every finder in the order the solver tries them, the order of Sukaku Explainer's
//! rater (`serate`, v1.15.10 with its default settings), so that the path and the rating are the
//! ones it gives. The order is the rater's, not strictly by difficulty: an X-wing (3.2) is tried
//! before a hidden pair (3.4), a unique rectangle (4.5) before a naked quad (5.0).

use std::ops::ControlFlow;

use crate::engine::Budget;

use super::board::Board;
use super::chains::{self, Chaining};
use super::{
    exclusion, fish, intersections, single_digit, singles, subsets, uniqueness, wings, DigitScope,
    Sink,
};
use crate::cells::CellSet;

/// One rung: a finder, or a finder with its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rung {
    FullHouse,
    HiddenSingle,
    /// Pointing or claiming that leaves a hidden single, placed at once.
    DirectLocking,
    /// A hidden pair or triple that leaves a hidden single, placed at once.
    DirectHiddenSet(u8),
    NakedSingle,
    LockedCandidates,
    NakedSet(u8),
    HiddenSet(u8),
    Fish(u8),
    TurbotFish,
    XyWing,
    XyzWing,
    UniqueLoops,
    StrongLinks(u8),
    WxyzWing,
    Bug,
    VwxyzWing,
    AlignedExclusion(u8),
    Chains(Chaining),
}

/// Sukaku Explainer's order.
pub(crate) const LADDER: &[Rung] = &[
    Rung::FullHouse,
    Rung::HiddenSingle,
    Rung::DirectLocking,
    Rung::DirectHiddenSet(2),
    Rung::NakedSingle,
    Rung::DirectHiddenSet(3),
    Rung::LockedCandidates,
    Rung::NakedSet(2),
    Rung::Fish(2),
    Rung::HiddenSet(2),
    Rung::NakedSet(3),
    Rung::Fish(3),
    Rung::HiddenSet(3),
    Rung::TurbotFish,
    Rung::XyWing,
    Rung::XyzWing,
    Rung::UniqueLoops,
    Rung::NakedSet(4),
    Rung::Fish(4),
    Rung::HiddenSet(4),
    Rung::StrongLinks(3),
    Rung::WxyzWing,
    Rung::Bug,
    Rung::VwxyzWing,
    Rung::AlignedExclusion(2),
    Rung::Chains(Chaining::Cycles),
    Rung::AlignedExclusion(3),
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
    /// Whether the finder can skip digits (see `find_in`).
    pub(crate) fn per_digit(self) -> bool {
        matches!(
            self,
            Rung::DirectLocking
                | Rung::LockedCandidates
                | Rung::Fish(_)
                | Rung::TurbotFish
                | Rung::StrongLinks(_)
                | Rung::Chains(Chaining::Cycles)
        )
    }

    /// Whether the finder can skip what has not changed since a grid where it found nothing
    /// (see `find_near`).
    pub(crate) fn by_cells(self) -> bool {
        matches!(
            self,
            Rung::DirectHiddenSet(_) | Rung::AlignedExclusion(_) | Rung::WxyzWing | Rung::VwxyzWing
        )
    }

    /// `find` on a grid reduced from one where this finder found nothing, `changed` holding the
    /// cells whose candidates changed since (solved ones included): patterns of cells that did
    /// not change are skipped where the finder knows they still give nothing (`by_cells`).
    pub(crate) fn find_near<const W: usize>(
        self,
        b: &Board<'_, W>,
        budget: &Budget,
        changed: &CellSet<W>,
        sink: &mut Sink,
    ) -> ControlFlow<()> {
        // Aligned exclusion and the wings look at empty cells only: a solved one is in none of
        // their patterns, and leaving it out keeps their search narrow.
        let empty = *changed & b.empty_cells();
        match self {
            Rung::DirectHiddenSet(k) => {
                subsets::direct_hidden_near(b, k as usize, Some(changed), sink)
            }
            Rung::AlignedExclusion(k) => {
                exclusion::aligned_exclusion_near(b, k as usize, Some(&empty), sink)
            }
            Rung::WxyzWing => wings::als_wings_near(b, 3, &empty, sink),
            Rung::VwxyzWing => wings::als_wings_near(b, 4, &empty, sink),
            _ => self.find(b, budget, sink),
        }
    }

    /// Runs this rung's finder, which pushes what it finds into `sink`.
    pub fn find<const W: usize>(
        self,
        b: &Board<'_, W>,
        budget: &Budget,
        sink: &mut Sink,
    ) -> ControlFlow<()> {
        self.find_in(b, budget, &mut DigitScope::every(), sink)
    }

    /// `find` skipping the digits of `scope` where the finder reads each digit's places alone
    /// (other finders search every digit); notes in `scope` the digits found to give nothing.
    pub(crate) fn find_in<const W: usize>(
        self,
        b: &Board<'_, W>,
        budget: &Budget,
        scope: &mut DigitScope,
        sink: &mut Sink,
    ) -> ControlFlow<()> {
        match self {
            Rung::FullHouse => singles::full_houses(b, sink),
            Rung::HiddenSingle => singles::hidden_singles(b, sink),
            Rung::DirectLocking => intersections::direct_locking_in(b, scope, sink),
            Rung::DirectHiddenSet(k) => subsets::direct_hidden(b, k as usize, sink),
            Rung::NakedSingle => singles::naked_singles(b, sink),
            Rung::LockedCandidates => intersections::locked_candidates_in(b, scope, sink),
            Rung::NakedSet(k) => subsets::naked(b, k as usize, sink),
            Rung::HiddenSet(k) => subsets::hidden(b, k as usize, sink),
            Rung::Fish(k) => fish::basic_fish(b, k as usize, scope, sink),
            Rung::TurbotFish => single_digit::turbot_fish_in(b, scope, sink),
            Rung::XyWing => wings::xy_wings(b, false, sink),
            Rung::XyzWing => wings::xy_wings(b, true, sink),
            Rung::UniqueLoops => uniqueness::unique_loops(b, sink),
            Rung::StrongLinks(k) => single_digit::strong_links_in(b, k as usize, scope, sink),
            Rung::WxyzWing => wings::wxyz_wings(b, sink),
            Rung::Bug => uniqueness::bug(b, sink),
            Rung::VwxyzWing => wings::vwxyz_wings(b, sink),
            Rung::AlignedExclusion(k) => exclusion::aligned_exclusion(b, k as usize, sink),
            Rung::Chains(kind) => chains::find_in(b, kind, budget, scope, sink),
        }
    }
}
