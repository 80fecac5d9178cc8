//! Grading: a puzzle's solve path of simplest steps and its rating, for puzzles with exactly one
//! solution (the others are not rated, and say why).

use super::{analyze, Analysis, Verdict};
use crate::engine::{Budget, Digits, Stop};
use crate::format::Puzzle;
use crate::grid::geometry;
use crate::logic::{self, Outcome, Path, Rating};

/// What grading one puzzle concluded.
#[derive(Clone, Debug)]
pub enum Graded {
    /// One solution: the path and its rating (a lower bound when the path stopped early).
    Rated {
        rating: Rating,
        path: Path,
        solution: Vec<u8>,
    },
    /// Not rated, and why, in a few words ("no solution", "several solutions"…).
    NotRated(&'static str),
    /// One solution, and its next hint (`None`: the grid is full, or no technique applies or
    /// the budget ran out — `stopped` says which of the last two).
    Hinted {
        step: Option<logic::Step>,
        stopped: bool,
    },
}

/// The solution, or why a puzzle is not graded.
fn unique(analysis: &Analysis) -> Result<Vec<u8>, &'static str> {
    match &analysis.verdict {
        Verdict::Unique(solution) => Ok(solution.clone()),
        Verdict::Broken | Verdict::NoSolution => Err("no solution"),
        Verdict::Several { .. } => Err("several solutions"),
        Verdict::Undecided { .. } => Err("undecided: the search ran out of budget"),
    }
}

/// Grades a puzzle whose analysis is known.
pub fn grade_analyzed(analysis: &Analysis, givens: &[u8], budget: &Budget) -> Graded {
    let solution = match unique(analysis) {
        Ok(solution) => solution,
        Err(why) => return Graded::NotRated(why),
    };
    let geo = geometry(analysis.size, analysis.variant);
    let path = logic::solve_path(geo, givens, budget);
    debug_assert!(
        path.outcome != Outcome::Broken,
        "a unique puzzle broke on the path"
    );
    let rating = logic::rate(&path);
    Graded::Rated {
        rating,
        path,
        solution,
    }
}

/// Analyses then grades a puzzle.
pub fn grade(
    size: crate::grid::Size,
    variant: crate::grid::Variant,
    givens: &[u8],
    budget: &Budget,
) -> Graded {
    let analysis = analyze(size, variant, givens, budget);
    grade_analyzed(&analysis, givens, budget)
}

/// The next hint of a puzzle whose givens have one solution: the simplest step of the hint
/// ladder (which names patterns — W-wing, ALS-XZ, finned fish… — before it falls back on
/// forcing chains) from where the solver is (`next_step`).
pub fn hint(puzzle: &Puzzle, budget: &Budget) -> Graded {
    let analysis = analyze(puzzle.size, puzzle.variant, &puzzle.clues(), budget);
    if let Err(why) = unique(&analysis) {
        return Graded::NotRated(why);
    }
    let step = next_step(puzzle, budget);
    let stopped = step.is_none() && logic::stopped(budget).is_some();
    Graded::Hinted { step, stopped }
}

/// The simplest step from where the solver is: the givens and the solver's entries, and the
/// pencil marks the file holds (a digit left out of a cell's marks is out). What `hint`, the
/// editor's hint and its *Apply next step* on pencil marks all answer; the rating is about the
/// givens alone.
pub fn next_step(puzzle: &Puzzle, budget: &Budget) -> Option<logic::Step> {
    let geo = geometry(puzzle.size, puzzle.variant);
    let marks: Option<Vec<Digits>> = puzzle
        .marks
        .as_deref()
        .map(|marks| marks.iter().map(|&set| Digits(set)).collect());
    logic::hint(geo, &puzzle.givens, marks.as_deref(), budget)
}

/// "ran out of time", "was cancelled", "needs techniques beyond the solver's": why a rating is
/// only a lower bound, or `None` when the path reached the solution.
pub fn incomplete_reason(path: &Path) -> Option<&'static str> {
    match path.outcome {
        Outcome::Solved => None,
        Outcome::Stuck => Some("needs a technique the solver does not know yet"),
        Outcome::Broken => Some("reached a contradiction"),
        Outcome::Stopped(Stop::Cancelled) => Some("was cancelled"),
        Outcome::Stopped(_) => Some("ran out of its budget"),
    }
}
