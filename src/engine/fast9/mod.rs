//! A dedicated solver for 9×9 sudoku (classic and diagonal), built for speed.
//!
//! The general engine (`engine::search`) stays the reference, with reasons for every step; this
//! one only answers "how many solutions, up to two, and which". Ideas (not code) from the fastest
//! published designs (JCZSolve, fsss2, tdoku): one bitboard per digit split into three 27-bit band
//! words, the "each band/stack is a permutation" rule from tables (covering box–line interaction
//! and hidden singles), naked singles by bit-sliced counting, and guesses on the bivalue cell with
//! the most unsolved peers. A node is a `Copy` board of 128 bytes kept on the call stack: no
//! allocation during search, and depth is bounded (≤ 81) because every guess places a cell.
//!
//! Layout: `tables` (compile-time lookup tables), `board` (the state and its propagation), this
//! module (API, search, branching), `generate` (puzzles for benches and tests).

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

/// A running search: what it found and what it may still spend (built by `solve`).
pub struct Fast9<'a> {
    outcome: Fast9Outcome,
    limit: usize,
    max_nodes: u64,
    cancel: Option<&'a AtomicBool>,
}

/// Count the solutions of `givens` (0 = empty, 1..=9) up to `limit` (1 or 2; 0 acts as 1 and
/// larger values as 2), spending at most `max_nodes` nodes. Givens with a direct conflict (or a
/// value above 9) give count 0 with `stop` `None`. `diagonal` adds the two diagonals as units.
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
        // Read the flag at the first node (a search cancelled before it starts stops at once),
        // then every CANCEL_EVERY nodes: `x & (n - 1)` is `x % n` for a power of two.
        if nodes & (CANCEL_EVERY - 1) == 1 {
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
            if !self.spend() {
                return;
            }
            let Ok(bivalue) = board.propagate::<DIAGONAL>() else {
                return;
            };
            if board.is_solved() {
                self.outcome.solutions[self.outcome.count] = board.grid();
                self.outcome.count += 1;
                return;
            }
            let (digit, band, bit) = choose(&board, bivalue);
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

/// The branch: among the cells with two candidates, the one with the most unsolved peers (its
/// two branches each settle many cells, which halves the hard sets' trees against "first bivalue
/// cell"); with no bivalue cell (rare), a cell with the fewest candidates. Its lowest digit.
fn choose(board: &Board, bivalue: [u32; 3]) -> (usize, usize, u32) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: `choose_popcnt` only needs the `popcnt` instruction, which this CPU was just
        // found to have (the check reads a cached flag). Scoring is three popcounts per
        // bivalue cell, and the portable bit-twiddling count made `choose` ~15% of the
        // search on the hard sets.
        return unsafe { choose_popcnt(board, bivalue) };
    }
    choose_portable(board, bivalue)
}

/// `choose_portable` compiled with the `popcnt` instruction.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn choose_popcnt(board: &Board, bivalue: [u32; 3]) -> (usize, usize, u32) {
    choose_portable(board, bivalue)
}

#[inline(always)]
fn choose_portable(board: &Board, bivalue: [u32; 3]) -> (usize, usize, u32) {
    let mut best = (0, 0, 0);
    for (band, &cells) in bivalue.iter().enumerate() {
        let mut cells = cells;
        while cells != 0 {
            let cell = 27 * band + cells.trailing_zeros() as usize;
            let bit = cells & cells.wrapping_neg(); // lowest set bit
            cells &= cells - 1; // clear it
            let peers = &tables::PEERS[cell];
            let score = (peers[0] & board.unsolved[0]).count_ones()
                + (peers[1] & board.unsolved[1]).count_ones()
                + (peers[2] & board.unsolved[2]).count_ones()
                + 1;
            if score > best.0 {
                best = (score, band, bit);
            }
        }
    }
    if best.0 == 0 {
        let mut fewest = 10;
        for band in 0..3 {
            let mut cells = board.unsolved[band];
            while cells != 0 {
                let bit = cells & cells.wrapping_neg();
                cells &= cells - 1;
                let n = board.cand[band][..9]
                    .iter()
                    .filter(|&&w| w & bit != 0)
                    .count();
                if n < fewest {
                    (fewest, best) = (n, (0, band, bit));
                }
            }
        }
    }
    lowest_digit(board, best.1, best.2)
}

fn lowest_digit(board: &Board, band: usize, bit: u32) -> (usize, usize, u32) {
    let digit = board.cand[band][..9]
        .iter()
        .position(|&w| w & bit != 0)
        .unwrap_or(0);
    (digit, band, bit)
}
