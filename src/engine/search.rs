//! Depth-first search on the cell with fewest candidates, propagating at every node.
//!
//! This is the general engine, for every size and variant; `fast9` is the specialised 9×9 one.
//! Each node copies the candidate vector (n² words), so a branch can be undone by dropping it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

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
    fn exhausted(&self, nodes: u64) -> Option<Stop> {
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
    /// Propagate, then try each candidate of the cell with fewest. False when the search must end
    /// (limit reached or budget spent).
    fn explore(&mut self, mut board: Board<'_, Silent>) -> bool {
        self.outcome.nodes += 1;
        if let Some(stop) = self.budget.exhausted(self.outcome.nodes) {
            self.outcome.stop = Some(stop);
            return false;
        }
        if board.reduce().is_err() {
            return true;
        }
        let Some(cell) = fewest_candidates(&board.candidates) else {
            self.outcome.solutions.push(solution_of(&board.candidates));
            return self.outcome.solutions.len() < self.limit;
        };
        for digit in board.candidates[cell].iter() {
            let mut child = board.branch();
            child.assign(cell, digit, None);
            if !self.explore(child) {
                return false;
            }
        }
        true
    }
}

/// The unsolved cell with the fewest candidates (the first of them), or `None` when all are solved.
fn fewest_candidates(candidates: &[Digits]) -> Option<usize> {
    let mut best: Option<(u32, usize)> = None;
    for (cell, c) in candidates.iter().enumerate() {
        let n = c.len();
        if n > 1 && best.is_none_or(|(m, _)| n < m) {
            best = Some((n, cell));
            if n == 2 {
                break; // nothing beats two
            }
        }
    }
    best.map(|(_, cell)| cell)
}

fn solution_of(candidates: &[Digits]) -> Vec<u8> {
    candidates.iter().map(|c| c.only().unwrap_or(0)).collect()
}
