//! A dedicated solver for 9×9 sudoku (classic and diagonal), built for speed.
//!
//! The general engine (`engine::search`) stays the reference, with reasons for every step; this
//! one only answers "how many solutions, up to two, and which". Ideas (not code) from the fastest
//! published designs (JCZSolve, fsss2, tdoku): one bitboard per digit split into three 27-bit band
//! words, the "each band/stack is a permutation" rule from tables (covering box–line interaction
//! and hidden singles), naked singles by bit-sliced counting, and guesses on a bivalue cell. A node
//! is a `Copy` board of 124 bytes kept on the call stack: no allocation during search, and depth
//! is bounded because every guess places one more cell.

mod board;
mod generate;
mod tables;

use std::sync::atomic::{AtomicBool, Ordering};

use board::Board;
pub use generate::generate;

/// Why a search stopped before it was complete.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fast9Stop {
    /// More than `max_nodes` nodes.
    Nodes,
    /// The cancel flag was raised.
    Cancelled,
}

/// What a search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fast9Outcome {
    /// Solutions found, at most `limit`.
    pub count: usize,
    /// The first `count` are valid, digits 1..=9, row-major.
    pub solutions: [[u8; 81]; 2],
    /// `None` when the search was complete (or reached `limit`).
    pub stop: Option<Fast9Stop>,
    /// Nodes visited (one per propagation).
    pub nodes: u64,
}

/// How often (in nodes, a power of two) the cancel flag is read.
const CANCEL_EVERY: u64 = 1024;

/// A running search: what it found and what it may still spend.
pub struct Fast9<'a> {
    outcome: Fast9Outcome,
    limit: usize,
    max_nodes: u64,
    cancel: Option<&'a AtomicBool>,
}

/// Count the solutions of `givens` (0 = empty, 1..=9) up to `limit` (1 or 2; larger values act
/// as 2), spending at most `max_nodes` nodes. Givens with a direct conflict give count 0.
pub fn solve(
    givens: &[u8; 81],
    diagonal: bool,
    limit: usize,
    max_nodes: u64,
    cancel: Option<&AtomicBool>,
) -> Fast9Outcome {
    let mut search = Fast9 {
        outcome: Fast9Outcome {
            count: 0,
            solutions: [[0; 81]; 2],
            stop: None,
            nodes: 0,
        },
        limit: limit.clamp(1, 2),
        max_nodes,
        cancel,
    };
    if let Ok(board) = Board::new(givens, diagonal) {
        if diagonal {
            search.search::<true>(board);
        } else {
            search.search::<false>(board);
        }
    }
    search.outcome
}

/// The 81 cells of a line: `1`–`9` a digit, `.` `0` `_` an empty cell; `None` when the line is
/// shorter or holds anything else in its first 81 bytes.
pub fn parse_line(line: &[u8]) -> Option<[u8; 81]> {
    let cells = line.get(..81)?;
    let mut grid = [0u8; 81];
    for (out, &byte) in grid.iter_mut().zip(cells) {
        *out = match byte {
            b'1'..=b'9' => byte - b'0',
            b'.' | b'0' | b'_' => 0,
            _ => return None,
        };
    }
    Some(grid)
}

impl Fast9<'_> {
    fn done(&self) -> bool {
        self.outcome.count >= self.limit || self.outcome.stop.is_some()
    }

    /// Count one node; false when the budget or the cancel flag says stop.
    fn spend(&mut self) -> bool {
        self.outcome.nodes += 1;
        let nodes = self.outcome.nodes;
        if nodes > self.max_nodes {
            self.outcome.stop = Some(Fast9Stop::Nodes);
            return false;
        }
        if nodes % CANCEL_EVERY == 0 {
            if let Some(flag) = self.cancel {
                if flag.load(Ordering::Relaxed) {
                    self.outcome.stop = Some(Fast9Stop::Cancelled);
                    return false;
                }
            }
        }
        true
    }

    /// Depth-first: propagate, then branch on "digit d at the chosen cell" (recursively) and
    /// "not d there" (by looping on the same board).
    fn search<const DIAGONAL: bool>(&mut self, mut board: Board) {
        loop {
            if !self.spend() || board.propagate::<DIAGONAL>().is_err() {
                return;
            }
            if board.is_solved() {
                self.outcome.solutions[self.outcome.count] = board.grid();
                self.outcome.count += 1;
                return;
            }
            let (digit, band, bit) = choose(&board);
            let mut child = board;
            child.place(digit, band, bit);
            self.search::<DIAGONAL>(child);
            if self.done() {
                return;
            }
            board.remove(digit, band, bit);
        }
    }
}

/// The branch: a cell with two candidates when there is one (first found), else a cell with the
/// fewest; its lowest candidate digit.
fn choose(board: &Board) -> (usize, usize, u32) {
    let mut fallback = None;
    for band in 0..3 {
        let (one, two, three) = board.counts(band);
        let bivalue = two & !three;
        if bivalue != 0 {
            return lowest_digit(board, band, bivalue & bivalue.wrapping_neg());
        }
        if fallback.is_none() && one != 0 {
            fallback = Some(band);
        }
    }
    // No bivalue cell (rare): count candidates cell by cell.
    let mut best = (10, 0, 0);
    for band in 0..3 {
        let mut cells = board.unsolved[band];
        while cells != 0 {
            let bit = cells & cells.wrapping_neg(); // lowest set bit
            cells &= cells - 1;
            let n = board.cand.iter().filter(|w| w[band] & bit != 0).count();
            if n < best.0 {
                best = (n, band, bit);
            }
        }
    }
    let _ = fallback;
    lowest_digit(board, best.1, best.2)
}

fn lowest_digit(board: &Board, band: usize, bit: u32) -> (usize, usize, u32) {
    let digit = board
        .cand
        .iter()
        .position(|w| w[band] & bit != 0)
        .unwrap_or(0);
    (digit, band, bit)
}
