//! How many solutions a grid has, as far as the budget lets a search tell: the two-solution
//! search behind the verdict, through the dedicated 9×9 solver where it applies, and the
//! one-solution search of the setter checks.

use super::verdict::Verdict;
use crate::engine::{self, fast9, Budget, Stop};
use crate::grid::{Geometry, Variant};

/// The node budget of one puzzle's search, for the command line and the editor alike: far more
/// than any 9×9 needs, and a bound on the rare large grid that would otherwise search for minutes.
pub const DEFAULT_MAX_NODES: u64 = 1_000_000;

/// A 9×9 grid searched for two solutions, as `analyze` searches it: enough to tell the verdict
/// nearly every puzzle of a collection gets (one solution), without building an analysis.
#[derive(Clone, Copy, Debug)]
pub struct NineSearch {
    outcome: fast9::Fast9Outcome,
}

impl NineSearch {
    pub fn new(variant: Variant, grid: &[u8; 81], budget: &Budget) -> NineSearch {
        let diagonal = variant == Variant::Diagonal;
        let max_nodes = budget.max_nodes.unwrap_or(u64::MAX);
        NineSearch {
            outcome: fast9::solve(grid, diagonal, 2, max_nodes, budget.cancel),
        }
    }

    /// The solution, when the verdict is `Verdict::Unique`: one found, and the search complete.
    pub fn unique(&self) -> Option<&[u8; 81]> {
        let outcome = &self.outcome;
        (outcome.count == 1 && outcome.stop.is_none()).then_some(&outcome.solutions[0])
    }

    pub(super) fn two_solutions(&self) -> TwoSolutions {
        let outcome = &self.outcome;
        let found = |i: usize| (outcome.count > i).then(|| outcome.solutions[i].to_vec());
        TwoSolutions {
            first: found(0),
            second: found(1),
            stop: outcome.stop.map(fast9_stop),
            nodes: outcome.nodes,
        }
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
    if let Ok(grid) = <&[u8; 81]>::try_from(givens) {
        return solve_nine(geometry, grid, budget);
    }
    let outcome = engine::search(geometry, givens, 2, budget);
    let nodes = outcome.nodes;
    let mut solutions = outcome.solutions.into_iter();
    TwoSolutions {
        first: solutions.next(),
        second: solutions.next(),
        stop: outcome.stop,
        nodes,
    }
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

impl TwoSolutions {
    /// Whether the search found a solution (so the grid has no conflict: it holds every given).
    pub(super) fn found_one(&self) -> bool {
        self.first.is_some()
    }
}

/// The dedicated 9×9 solver. It takes a node budget and a cancel flag but no deadline: the
/// hardest known 9×9 needs well under a millisecond.
fn solve_nine(geometry: &Geometry, grid: &[u8; 81], budget: &Budget) -> TwoSolutions {
    NineSearch::new(geometry.variant, grid, budget).two_solutions()
}

/// Whether `givens` has a solution, through the dedicated 9×9 solver where it applies, and the
/// nodes its search visited: `verdict` for a caller that only asks "any solution?", which
/// stops at the first one instead of looking for a second. `Err` when the budget ran out first.
pub(super) fn solvable_counting(
    geometry: &Geometry,
    givens: &[u8],
    budget: &Budget,
) -> (Result<bool, Stop>, u64) {
    let Ok(grid) = <&[u8; 81]>::try_from(givens) else {
        let outcome = engine::search(geometry, givens, 1, budget);
        return (
            found_any(!outcome.solutions.is_empty(), outcome.stop),
            outcome.nodes,
        );
    };
    let diagonal = geometry.variant == Variant::Diagonal;
    let max_nodes = budget.max_nodes.unwrap_or(u64::MAX);
    let outcome = fast9::solve(grid, diagonal, 1, max_nodes, budget.cancel);
    let found = found_any(outcome.count > 0, outcome.stop.map(fast9_stop));
    (found, outcome.nodes)
}

/// A search for one solution's answer: a solution found stands whatever stopped the search
/// after it; none found is a proof only when nothing did.
pub(super) fn found_any(found: bool, stop: Option<Stop>) -> Result<bool, Stop> {
    match (found, stop) {
        (false, Some(stop)) => Err(stop),
        _ => Ok(found),
    }
}

/// The engine's reason for a stop of the 9×9 solver.
fn fast9_stop(stop: fast9::Fast9Stop) -> Stop {
    match stop {
        fast9::Fast9Stop::Nodes => Stop::Nodes,
        fast9::Fast9Stop::Cancelled => Stop::Cancelled,
    }
}
