//! Human-style solving: techniques a person uses, each step named and explained, and the
//! difficulty rating on Sudoku Explainer's scale.
//!
//! It sits between `engine` (whose bitsets and budgets it uses) and `analysis`. Each family of
//! techniques has its own file, each finder a pure function from a `Board` (a candidate grid) to
//! steps; `ladder` orders the finders the way Sudoku Explainer does, and `solver` walks the path
//! that always takes the simplest step available, which is what the rating measures.

mod board;
mod cells;
pub mod chains;
mod fish;
mod intersections;
mod ladder;
mod singles;
mod solver;
mod step;
mod subsets;

pub use board::Board;
pub use cells::CellSet;
pub use ladder::Rung;
pub use solver::{next_step, next_step_within, rate, solve_path, Level, Outcome, Path, Rating};
pub use step::{Candidate, Difficulty, Step, Technique};

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

/// Calls `visit` with every `k`-element combination of `items`, in lexicographic order, until it
/// breaks.
pub fn combinations<T: Copy>(
    items: &[T],
    k: usize,
    mut visit: impl FnMut(&[T]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    fn go<T: Copy>(
        items: &[T],
        k: usize,
        chosen: &mut Vec<T>,
        visit: &mut impl FnMut(&[T]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if chosen.len() == k {
            return visit(chosen);
        }
        let need = k - chosen.len();
        for i in 0..items.len().saturating_sub(need - 1) {
            chosen.push(items[i]);
            go(&items[i + 1..], k, chosen, visit)?;
            chosen.pop();
        }
        ControlFlow::Continue(())
    }
    if k == 0 || k > items.len() {
        return ControlFlow::Continue(());
    }
    go(items, k, &mut Vec::with_capacity(k), &mut visit)
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
        assert_eq!(seen.len(), 6);
        assert_eq!(seen[0], [1, 2]);
        assert_eq!(seen[5], [3, 4]);
        let mut none = 0;
        let _ = combinations(&[1, 2], 3, |_| {
            none += 1;
            ControlFlow::Continue(())
        });
        assert_eq!(none, 0);
    }
}
