//! How many solutions a grid has, as far as the budget lets a search tell: the two-solution
//! search behind the verdict and the one-solution search of the setter checks, both through
//! `engine::solve` (which takes the dedicated 9×9 solver where it applies).

use super::verdict::Verdict;
use crate::engine::{self, Budget, SearchOutcome, Stop};
use crate::grid::{geometry, Geometry, Size, Variant};

/// The node budget of one puzzle's search, for the command line and the editor alike: far more
/// than any 9×9 needs, and a bound on the rare large grid that would otherwise search for minutes.
pub const DEFAULT_MAX_NODES: u64 = 1_000_000;

/// A 9×9 grid searched for two solutions, as `analyze` searches it: enough to tell the verdict
/// nearly every puzzle of a collection gets (one solution), without building an analysis.
#[derive(Clone, Debug)]
pub struct NineSearch {
    outcome: SearchOutcome,
}

impl NineSearch {
    pub fn new(variant: Variant, grid: &[u8; 81], budget: &Budget) -> NineSearch {
        let nine = geometry(Size::NINE, variant);
        NineSearch {
            outcome: engine::solve(nine, grid, 2, budget),
        }
    }

    /// The solution, when the verdict is `Verdict::Unique`: one found, and the search complete.
    pub fn unique(&self) -> Option<&[u8; 81]> {
        let outcome = &self.outcome;
        match (outcome.solutions.as_slice(), outcome.stop) {
            ([only], None) => only.as_slice().try_into().ok(),
            _ => None,
        }
    }

    pub(super) fn two_solutions(self) -> TwoSolutions {
        TwoSolutions::from(self.outcome)
    }
}

/// Search for up to two solutions, through the dedicated 9×9 solver where it applies.
#[cfg(test)]
pub(super) fn verdict(geometry: &Geometry, givens: &[u8], budget: &Budget) -> Verdict {
    verdict_counting(geometry, givens, budget).0
}

/// `verdict`, and the nodes its search visited.
pub(super) fn verdict_counting(
    geometry: &Geometry,
    givens: &[u8],
    budget: &Budget,
) -> (Verdict, u64) {
    verdict_of(two_solutions(geometry, givens, budget))
}

/// Search for up to two solutions, through the dedicated 9×9 solver where it applies.
pub(super) fn two_solutions(geometry: &Geometry, givens: &[u8], budget: &Budget) -> TwoSolutions {
    TwoSolutions::from(engine::solve(geometry, givens, 2, budget))
}

/// What a search for two solutions says of the grid, and the nodes it visited.
pub(super) fn verdict_of(found: TwoSolutions) -> (Verdict, u64) {
    let TwoSolutions {
        first,
        second,
        stop,
        nodes,
    } = found;
    let verdict = match (first, second, stop) {
        (Some(first), Some(second), _) => {
            let differ = (0..first.len())
                .find(|&c| first[c] != second[c])
                .unwrap_or(0);
            Verdict::Several {
                first,
                second,
                differ,
            }
        }
        (found, _, Some(stop)) => Verdict::Undecided { stop, found },
        (Some(only), _, None) => Verdict::Unique(only),
        (None, _, None) => Verdict::NoSolution,
    };
    (verdict, nodes)
}

/// What a search for two solutions found, and what it cost.
pub(super) struct TwoSolutions {
    first: Option<Vec<u8>>,
    second: Option<Vec<u8>>,
    stop: Option<Stop>,
    nodes: u64,
}

impl From<SearchOutcome> for TwoSolutions {
    fn from(outcome: SearchOutcome) -> TwoSolutions {
        let nodes = outcome.nodes;
        let mut solutions = outcome.solutions.into_iter();
        TwoSolutions {
            first: solutions.next(),
            second: solutions.next(),
            stop: outcome.stop,
            nodes,
        }
    }
}

impl TwoSolutions {
    /// Whether the search found a solution (so the grid has no conflict: it holds every given).
    pub(super) fn found_one(&self) -> bool {
        self.first.is_some()
    }
}

/// Whether `givens` has a solution, through the dedicated 9×9 solver where it applies, and the
/// nodes its search visited: `verdict` for a caller that only asks "any solution?", which
/// stops at the first one instead of looking for a second. `Err` when the budget ran out first.
pub(super) fn solvable_counting(
    geometry: &Geometry,
    givens: &[u8],
    budget: &Budget,
) -> (Result<bool, Stop>, u64) {
    let outcome = engine::solve(geometry, givens, 1, budget);
    (
        found_any(!outcome.solutions.is_empty(), outcome.stop),
        outcome.nodes,
    )
}

/// A search for one solution's answer: a solution found stands whatever stopped the search
/// after it; none found is a proof only when nothing did.
pub(super) fn found_any(found: bool, stop: Option<Stop>) -> Result<bool, Stop> {
    match (found, stop) {
        (false, Some(stop)) => Err(stop),
        _ => Ok(found),
    }
}
