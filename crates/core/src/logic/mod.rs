//! Human-style solving: techniques a person uses, each step named and explained, and the
//! difficulty rating on Sudoku Explainer's scale.
//!
//! It sits between `engine` (whose bitsets and budgets it uses) and `analysis`. Each family of
//! techniques has its own file, each finder a pure function from a `Board` (a candidate grid) to
//! steps; `ladder` orders the finders the way Sudoku Explainer does, and `solver` walks the path
//! that always takes the simplest step available, which is what the rating measures.
//!
//! Hints go further: `hints` puts the patterns HoDoKu and SudokuWiki name where Sudoku Explainer
//! has none (W-wing, finned fish, simple colouring, Sue de Coq, ALS-XZ, AICs) into that ladder at
//! their difficulty, so that a hint names a pattern before it falls back on a forcing chain. The
//! rating keeps to Sudoku Explainer's ladder alone.

mod aic;
mod als;
mod board;
pub mod chains;
mod colouring;
mod constraints;
mod exclusion;
mod fish;
#[cfg(test)]
pub(crate) mod fixtures;
mod hints;
mod intersections;
mod ladder;
mod links;
mod rule_forcing;
mod single_digit;
mod singles;
mod solver;
mod step;
mod subsets;
mod uniqueness;
mod variant;
mod wings;

pub use crate::cells::CellSet;
pub use board::Board;
pub use hints::{hint, lead, next_hint, Extra, HintRung, EXTRAS, HINT_LADDER};
pub use ladder::Rung;
pub use solver::{
    next_step, next_step_within, rate, solve_path, stopped, Level, Outcome, Path, Rating,
};
pub use step::{Candidate, Difficulty, RuleFamily, Step, Technique};
pub use variant::{lead_with_rules, next_step_with_rules, solve_path_with_rules};

use std::ops::ControlFlow;

/// Where finders put the steps they find; it says when it has enough.
pub struct Sink {
    pub steps: Vec<Step>,
    limit: usize,
}

impl Sink {
    /// Stops at the first step.
    pub fn first() -> Sink {
        Sink {
            steps: Vec::new(),
            limit: 1,
        }
    }
    /// Takes every step.
    pub fn all() -> Sink {
        Sink {
            steps: Vec::new(),
            limit: usize::MAX,
        }
    }
    /// Whether only one more step is wanted (a finder may then skip the search for any step
    /// that cannot come first).
    pub fn wants_one(&self) -> bool {
        self.limit - self.steps.len() <= 1
    }
    pub fn push(&mut self, step: Step) -> ControlFlow<()> {
        debug_assert!(
            step.is_productive(),
            "a step that changes nothing: {}",
            step.text
        );
        self.steps.push(step);
        if self.steps.len() >= self.limit {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
}

/// For a finder that reads each digit's places alone (fish, turbot fish, strong links, X-chains):
/// the digits it may skip, each known to give nothing on the places it has now, and, once the
/// finder has run, every digit known to give nothing there (what a path remembers for the next
/// time it tries that finder).
#[derive(Clone, Copy, Debug, Default)]
pub struct DigitScope {
    pub skip: crate::engine::Digits,
    pub nothing: crate::engine::Digits,
}

impl DigitScope {
    /// Every digit searched, nothing known beforehand.
    pub fn every() -> DigitScope {
        DigitScope::default()
    }
}

/// Calls `visit` with every `k`-element combination of `items` in colexicographic order — by
/// last element, then the one before: {0,1}, {0,2}, {1,2}, {0,3}… — the order Sudoku Explainer
/// enumerates them in (as binary numbers counting up), until it breaks. At most 64 items.
pub fn combinations<T: Copy>(
    items: &[T],
    k: usize,
    visit: impl FnMut(&[T]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let n = items.len();
    if k == 0 || k > n || n > 64 {
        return ControlFlow::Continue(());
    }
    // The chosen items go on the stack when there are few (subsets, fish, unique loops: at most
    // 7), as this is called thousands of times a path.
    const FEW: usize = 8;
    if k <= FEW {
        let mut chosen = [items[0]; FEW];
        combinations_into(items, &mut chosen[..k], visit)
    } else {
        combinations_into(items, &mut vec![items[0]; k], visit)
    }
}

/// `combinations` with room for the `chosen.len()` items of each combination.
fn combinations_into<T: Copy>(
    items: &[T],
    chosen: &mut [T],
    mut visit: impl FnMut(&[T]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let (n, k) = (items.len(), chosen.len());
    let mut mask: u64 = u64::MAX >> (64 - k);
    loop {
        let mut bits = mask;
        let mut i = 0;
        while bits != 0 {
            chosen[i] = items[bits.trailing_zeros() as usize];
            i += 1;
            bits &= bits - 1;
        }
        visit(chosen)?;
        // Gosper's hack: the next larger number with as many bits set.
        let lowest = mask & mask.wrapping_neg();
        let ripple = mask.wrapping_add(lowest);
        if ripple == 0 {
            return ControlFlow::Continue(()); // the last one reached bit 63
        }
        mask = ripple | (((mask ^ ripple) >> 2) / lowest);
        if n < 64 && mask >> n != 0 {
            return ControlFlow::Continue(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_are_lexicographic_and_complete() {
        let mut seen = Vec::new();
        let _ = combinations(&[1, 2, 3, 4], 2, |c| {
            seen.push(c.to_vec());
            ControlFlow::Continue(())
        });
        assert_eq!(seen, [[1, 2], [1, 3], [2, 3], [1, 4], [2, 4], [3, 4]]);
        let mut count = 0;
        let _ = combinations(&[0; 9], 4, |_| {
            count += 1;
            ControlFlow::Continue(())
        });
        assert_eq!(count, 126);
        let mut full = 0;
        let _ = combinations(&[0u8; 64], 1, |_| {
            full += 1;
            ControlFlow::Continue(())
        });
        assert_eq!(full, 64);
        let mut none = 0;
        let _ = combinations(&[1, 2], 3, |_| {
            none += 1;
            ControlFlow::Continue(())
        });
        assert_eq!(none, 0);
    }
}
