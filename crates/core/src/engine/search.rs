//! Depth-first search, reducing at every node and branching on the cell with fewest candidates
//! or the digit with fewest places in a unit, whichever has fewer.
//!
//! This is the general engine, for every size and variant; `fast9` is the specialised 9×9 one.
//! Each node copies the candidate vector (n² words), so a branch can be undone by dropping it.
//! The reduction (`deduce`) adds subsets and box-line interaction to `propagate`'s rules.

use std::sync::atomic::{AtomicBool, Ordering};
use web_time::Instant;

use super::deduce::PlaceCounts;
use super::propagate::{Board, Silent};
use super::Digits;
use crate::grid::Geometry;

/// How much a search may spend before it gives up and says so.
#[derive(Clone, Copy, Debug, Default)]
pub struct Budget<'a> {
    pub max_nodes: Option<u64>,
    pub deadline: Option<Instant>,
    pub cancel: Option<&'a AtomicBool>,
}

impl Budget<'_> {
    /// No limit at all.
    pub fn unlimited() -> Budget<'static> {
        Budget::default()
    }
    /// Why the work must stop now, if it must: the cancel flag raised, more than `max_nodes`
    /// nodes spent, or the deadline past. Every search asks here (this one, the logic solver,
    /// the chains); `nodes` is what a counting search has spent, 0 for work that does not
    /// count nodes (which then reads the clock at every call, as a count of 0 does).
    pub fn stop(&self, nodes: u64) -> Option<Stop> {
        if self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Some(Stop::Cancelled);
        }
        if self.max_nodes.is_some_and(|max| nodes > max) {
            return Some(Stop::Nodes);
        }
        // Reading the clock costs more than a node of a small grid: look every 64 nodes.
        if nodes % 64 == 0 && self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Some(Stop::Deadline);
        }
        None
    }
}

/// Why a search stopped before it was complete.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    Nodes,
    Deadline,
    Cancelled,
}

#[derive(Clone, Debug)]
pub struct SearchOutcome {
    /// Up to `limit` solutions, row-major digits.
    pub solutions: Vec<Vec<u8>>,
    /// `None` when the search was complete or reached `limit`.
    pub stop: Option<Stop>,
    pub nodes: u64,
}

/// Find up to `limit` solutions of `givens`.
pub fn search(geometry: &Geometry, givens: &[u8], limit: usize, budget: &Budget) -> SearchOutcome {
    let mut run = Search {
        limit,
        budget,
        outcome: SearchOutcome {
            solutions: Vec::new(),
            stop: None,
            nodes: 0,
        },
    };
    let mut board = Board::new(geometry, Silent);
    if board.start(givens).is_ok() && limit > 0 {
        run.explore(board);
    }
    run.outcome
}

struct Search<'b, 'c> {
    limit: usize,
    budget: &'b Budget<'c>,
    outcome: SearchOutcome,
}

impl Search<'_, '_> {
    /// Reduce, then try each option of the branch with fewest. False when the search must end
    /// (limit reached or budget spent).
    fn explore(&mut self, mut board: Board<'_, Silent>) -> bool {
        self.outcome.nodes += 1;
        if let Some(stop) = self.budget.stop(self.outcome.nodes) {
            self.outcome.stop = Some(stop);
            return false;
        }
        if board.reduce_deeply().is_err() {
            return true;
        }
        let Some(branch) = choose_branch(board.geometry, &board.candidates) else {
            self.outcome.solutions.push(solution_of(&board.candidates));
            return self.outcome.solutions.len() < self.limit;
        };
        for (cell, digit) in branch.options(board.geometry, &board.candidates) {
            let mut child = board.branch();
            child.assign(cell, digit, None);
            if !self.explore(child) {
                return false;
            }
        }
        true
    }
}

/// What a node tries, one child per option. Either way the options are exhaustive (every
/// solution takes one of them) and exclusive (none takes two), so nothing is missed or counted
/// twice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Branch {
    /// Each candidate of the cell.
    Cell(usize),
    /// Each place of the digit in the unit.
    Places { unit: usize, digit: u8 },
}

impl Branch {
    /// The (cell, digit) of each child.
    fn options(self, geometry: &Geometry, candidates: &[Digits]) -> Vec<(usize, u8)> {
        match self {
            Branch::Cell(cell) => candidates[cell].iter().map(|d| (cell, d)).collect(),
            Branch::Places { unit, digit } => geometry.units[unit]
                .cells
                .iter()
                .map(|&c| c as usize)
                .filter(|&c| candidates[c].contains(digit) && candidates[c].only().is_none())
                .map(|c| (c, digit))
                .collect(),
        }
    }
}

/// The branch with fewest options: the unsolved cell with fewest candidates, or a digit with
/// fewer places in some unit; `None` when every cell is solved.
fn choose_branch(geometry: &Geometry, candidates: &[Digits]) -> Option<Branch> {
    let (cell, fewest) = fewest_candidates(candidates)?;
    // Nothing beats two: one option would have been placed by propagation.
    if fewest == 2 {
        return Some(Branch::Cell(cell));
    }
    Some(fewest_places(geometry, candidates, fewest).unwrap_or(Branch::Cell(cell)))
}

/// The unsolved cell with the fewest candidates (the first of them) and how many it has, or
/// `None` when all are solved.
fn fewest_candidates(candidates: &[Digits]) -> Option<(usize, u32)> {
    let mut best: Option<(usize, u32)> = None;
    for (cell, c) in candidates.iter().enumerate() {
        let n = c.len();
        if n > 1 && best.is_none_or(|(_, m)| n < m) {
            best = Some((cell, n));
            if n == 2 {
                break; // nothing beats two
            }
        }
    }
    best
}

/// A digit with fewer than `beat` places among the unsolved cells of some unit (the fewest),
/// if there is one.
fn fewest_places(geometry: &Geometry, candidates: &[Digits], beat: u32) -> Option<Branch> {
    let mut best: Option<(Branch, u32)> = None;
    for (unit, u) in geometry.units.iter().enumerate() {
        let counts = PlaceCounts::of(u.cells.iter().map(|&c| candidates[c as usize]));
        let bound = best.map_or(beat, |(_, places)| places);
        if let Some((digit, places)) = counts.fewest_below(bound) {
            best = Some((Branch::Places { unit, digit }, places));
            if places == 2 {
                break;
            }
        }
    }
    best.map(|(branch, _)| branch)
}

fn solution_of(candidates: &[Digits]) -> Vec<u8> {
    candidates.iter().map(|c| c.only().unwrap_or(0)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// Every search asks this one question: a raised flag first, then spent nodes, then the
    /// clock; work that counts no nodes (the logic solver, the chains) passes 0 and so reads
    /// the clock at every call.
    #[test]
    fn the_budget_says_why_to_stop() {
        let raised = AtomicBool::new(true);
        let past = Instant::now() - Duration::from_millis(1);
        let budget = Budget {
            max_nodes: Some(10),
            deadline: Some(past),
            cancel: Some(&raised),
        };
        assert_eq!(budget.stop(0), Some(Stop::Cancelled));
        raised.store(false, Ordering::Relaxed);
        assert_eq!(budget.stop(11), Some(Stop::Nodes));
        assert_eq!(budget.stop(0), Some(Stop::Deadline));
        let uncounted = Budget {
            max_nodes: None,
            ..budget
        };
        assert_eq!(uncounted.stop(63), None, "the clock is read every 64 nodes");
        assert_eq!(Budget::unlimited().stop(u64::MAX), None);
    }
}
