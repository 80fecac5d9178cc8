//! The path of simplest steps, and the rating it gives.
//!
//! At each point the solver takes the first step of the lowest rung that has one, applies it,
//! and goes on until the grid is full, no rung finds anything (stuck), or the budget runs out.
//! The rating is the hardest step on that path, as Sudoku Explainer computes it.

use std::fmt;

use super::board::Board;
use super::ladder::LADDER;
use super::step::{Difficulty, Step, Technique};
use super::Sink;
use crate::engine::{Budget, Stop};
use crate::grid::Geometry;

/// How a path ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Solved,
    /// No technique the solver knows applies.
    Stuck,
    /// The grid cannot be completed (a cell or a digit has no place left).
    Broken,
    Stopped(Stop),
}

/// The steps from the puzzle to where the solver stopped.
#[derive(Clone, Debug)]
pub struct Path {
    pub steps: Vec<Step>,
    pub outcome: Outcome,
    /// The digits when it stopped (0 for empty).
    pub values: Vec<u8>,
}

/// The simplest step on `board`, if any.
pub fn next_step<const W: usize>(board: &Board<W>) -> Option<Step> {
    next_step_within(board, &Budget::unlimited())
}

/// The simplest step on `board`, if any is found before the budget runs out.
pub fn next_step_within<const W: usize>(board: &Board<W>, budget: &Budget) -> Option<Step> {
    for rung in LADDER {
        let mut sink = Sink::first();
        let _ = rung.find(board, budget, &mut sink);
        if let Some(step) = sink.steps.pop() {
            return Some(step);
        }
    }
    None
}

/// Walks the path of simplest steps from `givens` (0 for empty).
pub fn solve_path(geo: &'static Geometry, givens: &[u8], budget: &Budget) -> Path {
    if geo.cells() <= 128 {
        walk(Board::<2>::new(geo, givens), budget)
    } else {
        walk(Board::<10>::new(geo, givens), budget)
    }
}

fn walk<const W: usize>(mut board: Board<W>, budget: &Budget) -> Path {
    let mut steps = Vec::new();
    let outcome = loop {
        if board.is_solved() {
            break Outcome::Solved;
        }
        if board.is_broken() {
            break Outcome::Broken;
        }
        if let Some(stop) = stopped(budget) {
            break Outcome::Stopped(stop);
        }
        let Some(step) = next_step_within(&board, budget) else {
            if let Some(stop) = stopped(budget) {
                break Outcome::Stopped(stop);
            }
            break Outcome::Stuck;
        };
        board.apply(&step);
        steps.push(step);
    };
    Path {
        steps,
        outcome,
        values: board.values().to_vec(),
    }
}

/// Why `budget` says stop now (cancelled, or past its deadline), if it does.
pub fn stopped(budget: &Budget) -> Option<Stop> {
    use std::sync::atomic::Ordering;
    if budget.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
        return Some(Stop::Cancelled);
    }
    if budget
        .deadline
        .is_some_and(|d| std::time::Instant::now() >= d)
    {
        return Some(Stop::Deadline);
    }
    None
}

/// The community's names for bands of the scale.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Easy,
    Medium,
    Hard,
    Diabolical,
    Fiendish,
    Extreme,
}

impl Level {
    /// Easy below 1.5, Medium below 2.5, Hard below 5.0, Diabolical below 7.0, Fiendish below
    /// 9.0, Extreme from 9.0.
    pub fn of(difficulty: Difficulty) -> Level {
        match difficulty.0 {
            0..=14 => Level::Easy,
            15..=24 => Level::Medium,
            25..=49 => Level::Hard,
            50..=69 => Level::Diabolical,
            70..=89 => Level::Fiendish,
            _ => Level::Extreme,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "Easy",
            Level::Medium => "Medium",
            Level::Hard => "Hard",
            Level::Diabolical => "Diabolical",
            Level::Fiendish => "Fiendish",
            Level::Extreme => "Extreme",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A puzzle's rating: the hardest step of its path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rating {
    pub difficulty: Difficulty,
    /// The first step of that difficulty (none for a grid already full).
    pub hardest: Option<Technique>,
    pub level: Level,
    /// False when the path did not reach the solution: the rating is then a lower bound.
    pub complete: bool,
}

/// The rating of a path.
pub fn rate(path: &Path) -> Rating {
    let mut difficulty = Difficulty::default();
    let mut hardest = None;
    for step in &path.steps {
        if step.difficulty > difficulty {
            difficulty = step.difficulty;
            hardest = Some(step.technique);
        }
    }
    Rating {
        difficulty,
        hardest,
        level: Level::of(difficulty),
        complete: path.outcome == Outcome::Solved,
    }
}
