//! Depth-first search on the cell with fewest candidates, propagating at every node.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::grid::Geometry;

/// How much a search may spend before it gives up and says so.
#[derive(Clone, Copy, Debug, Default)]
pub struct Budget<'a> {
    pub max_nodes: Option<u64>,
    pub deadline: Option<Instant>,
    pub cancel: Option<&'a AtomicBool>,
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
    /// `None` when the search was complete (or reached `limit`).
    pub stop: Option<Stop>,
    pub nodes: u64,
}

/// Find up to `limit` solutions of `givens`.
pub fn search(geometry: &Geometry, givens: &[u8], limit: usize, budget: &Budget) -> SearchOutcome {
    let _ = (geometry, givens, limit, budget);
    todo!()
}
