//! A dedicated solver for 9×9 sudoku (classic and diagonal), built for speed.
//!
//! The general engine (`engine::search`) stays the reference, with reasons for every step; this
//! one only answers "how many solutions, up to two, and which". Ideas (not code) from the fastest
//! published designs (JCZSolve, fsss2, tdoku): one bitboard per digit split into three 27-bit band
//! words, the "each band/stack is a permutation" rule (covering box–line interaction and hidden
//! singles; from tables one digit at a time for bands, in arithmetic nine digits at once for
//! stacks), naked singles by bit-sliced counting, and on hard grids the triad rule
//! (naked and hidden triples on minirows and minicolumns) with band-first branching (see
//! `branch`). A node is a `Copy` board of 128 bytes; the search keeps the pending sides on a
//! reused stack, so no allocation per node.
//!
//! Layout: `tables` (compile-time lookup tables), `board` (the state and its propagation),
//! `branch` (where to split), this module (API and search), `generate` (puzzles for benches and
//! tests).

mod board;
mod branch;
mod generate;
mod tables;

use std::sync::atomic::{AtomicBool, Ordering};

use board::{Board, Triads};
use branch::Branch;
pub use generate::{generate, minimal_puzzle, random_solution, XorShift};

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

/// A side of a branch waiting its turn: its board and the two-candidate cells of its parent
/// (see `Board::propagate`).
type Pending = (Board, [u32; 3]);

/// How often (in nodes, a power of two) the cancel flag is read.
const CANCEL_EVERY: u64 = 1024;

/// A running search: what it found and what it may still spend (built by `solve`).
pub(crate) struct Fast9<'a> {
    outcome: Fast9Outcome,
    limit: usize,
    max_nodes: u64,
    cancel: Option<&'a AtomicBool>,
    strong: bool,
    tuning: Tuning,
}

/// Grids with at least this many cells unsolved after the first propagation get the triad
/// rule and band-first branching. Hard grids have 50 and more; below, the rule costs more than
/// the nodes it saves (the several-solutions set has 40–50 and loses ~20% with it).
const STRONG_FROM: u32 = 50;

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
    solve_tuned(
        givens,
        diagonal,
        limit,
        max_nodes,
        cancel,
        Tuning::default(),
    )
}

/// Choices `solve` makes by itself, open to tests so that every path runs on every machine.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Tuning {
    /// Unsolved cells after the first propagation from which the triad rule and band-first
    /// branching are used (0: always; above 81: never).
    pub strong_from: u32,
    /// Stay on the baseline instruction set even where a newer one is found.
    pub baseline: bool,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            strong_from: STRONG_FROM,
            baseline: false,
        }
    }
}

/// `solve` with its choices set by the caller (tests).
#[doc(hidden)]
pub fn solve_tuned(
    givens: &[u8; 81],
    diagonal: bool,
    limit: usize,
    max_nodes: u64,
    cancel: Option<&AtomicBool>,
    tuning: Tuning,
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
        strong: false,
        tuning,
    };
    search.run(givens, diagonal);
    search.outcome
}

/// The 81 cells of a line: `1`–`9` a digit, `.` `0` `_` an empty cell; `None` when the line is
/// shorter or holds anything else in its first 81 bytes.
pub fn parse_line(line: &[u8]) -> Option<[u8; 81]> {
    let cells: &[u8; 81] = line.get(..81)?.try_into().ok()?;
    // Branch-free per byte (digit or dot is a coin toss for the predictor), one check at the
    // end: `byte - b'0'` is 0..=9 for `0`–`9` (wrapping for anything below).
    let mut grid = [0u8; 81];
    let mut bad = false;
    for (out, &byte) in grid.iter_mut().zip(cells) {
        let value = byte.wrapping_sub(b'0');
        bad |= value > 9 && byte != b'.' && byte != b'_';
        *out = if value <= 9 { value } else { 0 };
    }
    (!bad).then_some(grid)
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

    /// Depth-first search without recursion (so that one function body holds it all and can
    /// be compiled for a newer instruction set, see `run`): propagate; on a contradiction or a
    /// solution go back to the last pending side; else branch, keep the `outside` side
    /// pending and go on with `inside`.
    #[inline(always)]
    fn search<const DIAGONAL: bool, const V3: bool>(
        &mut self,
        root: Board,
        pending: &mut Vec<Pending>,
    ) {
        let mut board = root;
        // The root's propagation fills every band's entry; a child's updates those of the
        // bands it changes.
        let mut bivalue = [0; 3];
        loop {
            if !self.spend() {
                return;
            }
            if let Some(branch) = self.visit::<DIAGONAL, V3>(&mut board, &mut bivalue) {
                let mut other = board;
                other.restrict(branch.digit, branch.outside);
                pending.push((other, bivalue));
                board.restrict(branch.digit, branch.inside);
                continue;
            }
            if self.done() {
                return;
            }
            match pending.pop() {
                Some(next) => (board, bivalue) = next,
                None => return,
            }
        }
    }

    /// One node: propagate `board`, note it if solved, and give the branch to take from it
    /// (`None`: a contradiction or a solution).
    #[inline(always)]
    fn visit<const DIAGONAL: bool, const V3: bool>(
        &mut self,
        board: &mut Board,
        bivalue: &mut [u32; 3],
    ) -> Option<Branch> {
        let mut seen = Triads::default();
        let propagated = if self.strong {
            board.propagate::<DIAGONAL, true, V3>(&mut seen, bivalue)
        } else {
            board.propagate::<DIAGONAL, false, V3>(&mut seen, bivalue)
        };
        propagated.ok()?;
        if self.outcome.nodes == 1 && board.unsolved_cells() >= self.tuning.strong_from {
            // A hard grid: the triad rule and band-first branching from here on.
            self.strong = true;
            board
                .propagate::<DIAGONAL, true, V3>(&mut seen, bivalue)
                .ok()?;
        }
        if board.is_solved() {
            self.outcome.solutions[self.outcome.count] = board.grid();
            self.outcome.count += 1;
            return None;
        }
        if self.strong {
            if let Some(branch) = branch::by_configuration(&seen) {
                return Some(branch);
            }
        }
        debug_assert_eq!(
            *bivalue,
            board.bivalue_cells(),
            "two-candidate cells out of date"
        );
        Some(branch::by_cell(board, *bivalue))
    }

    /// The search on `root`, compiled for the newest instruction set this CPU has (among
    /// x86-64-v3 and the baseline). The whole search is one inlined body, so everything in it
    /// (`popcnt`, `tzcnt`, BMI shifts and masks) uses the chosen set: ~7% on the hard sets.
    fn run(&mut self, givens: &[u8; 81], diagonal: bool) {
        // The pending sides, reused across searches of this thread: no allocation per search
        // once it has grown (a path is short in practice; at most 729 long).
        thread_local! {
            static PENDING: std::cell::Cell<Vec<Pending>> = const { std::cell::Cell::new(Vec::new()) };
        }
        let mut pending = PENDING.take();
        pending.clear();
        #[cfg(target_arch = "x86_64")]
        if !self.tuning.baseline && x86_64_v3() {
            // SAFETY: the CPU has every feature `run_v3` enables (just checked).
            unsafe { self.run_v3(givens, diagonal, &mut pending) };
        } else {
            self.search_variant::<false>(givens, diagonal, &mut pending);
        }
        #[cfg(not(target_arch = "x86_64"))]
        self.search_variant::<false>(givens, diagonal, &mut pending);
        PENDING.set(pending);
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
    unsafe fn run_v3(&mut self, givens: &[u8; 81], diagonal: bool, pending: &mut Vec<Pending>) {
        // The one place `V3` is true: this body is compiled for x86-64-v3 and only entered
        // on a CPU that has it, so the intrinsics `V3` selects (`pext`, AVX2) are sound here.
        self.search_variant::<true>(givens, diagonal, pending);
    }

    /// The root board of `givens` and `search` from it for the grid's variant (inlined into
    /// each instruction-set version of `run`). Givens in conflict: no solution.
    #[inline(always)]
    fn search_variant<const V3: bool>(
        &mut self,
        givens: &[u8; 81],
        diagonal: bool,
        pending: &mut Vec<Pending>,
    ) {
        let Ok(root) = Board::new(givens, diagonal) else {
            return;
        };
        if diagonal {
            self.search::<true, V3>(root, pending);
        } else {
            self.search::<false, V3>(root, pending);
        }
    }
}

/// Whether this CPU has what `run_v3` enables (asked once per process).
#[cfg(target_arch = "x86_64")]
fn x86_64_v3() -> bool {
    use std::arch::is_x86_feature_detected as has;
    // Five feature checks cost ~2% of an easy puzzle's solve; one cached answer does not.
    static HAS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *HAS.get_or_init(|| {
        has!("popcnt") && has!("bmi1") && has!("bmi2") && has!("lzcnt") && has!("avx2")
    })
}
