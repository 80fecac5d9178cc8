//! The reasoning engine: candidate bitsets, propagation that records why, and search.
//!
//! It knows grids and digits only, never text positions. `pencil_marks` is what a solver would
//! pencil in (peers' digits out, then naked twins); `propagate` is the classic `reduce_puzzle`
//! (elimination, only choice, naked twins to a fixpoint, placing forced digits); `search` is
//! depth-first, counting solutions up to a limit, and reduces each node further (`deduce`:
//! every naked and hidden subset, box-line interaction) than the rules hover explains.
//! `solve` is the door the other layers search through: it takes the dedicated 9×9 solver
//! (`fast9`) where it applies and `search` otherwise, and answers in one `SearchOutcome`.

pub mod bits;
mod deduce;
pub mod fast9;
mod propagate;
mod search;
mod solve;
pub mod variant;

pub use bits::Digits;
pub use propagate::{
    naked_twins, pencil_marks, propagate, Contradiction, Marks, Placement, Propagation,
};
pub use search::{search, Budget, SearchOutcome, Stop};
pub use solve::solve;

/// Why a digit left a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// `peer`, in `unit`, holds the digit.
    Peer { unit: u16, peer: u16 },
    /// The two cells of `pair` in `unit` hold the same two candidates, `digits`, this one among them.
    NakedTwins {
        unit: u16,
        pair: [u16; 2],
        digits: Digits,
    },
    /// `digit` had no other place in `unit`, so it was placed here and pushed the others out.
    OnlyChoice { unit: u16, digit: u8 },
}

/// How propagation came to place a digit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forced {
    /// It was the cell's last candidate.
    LastCandidate,
    /// The cell was the digit's last place in `unit`.
    OnlyPlace { unit: u16 },
}
