//! Grading: a puzzle's solve path of simplest steps and its rating, for puzzles with exactly one
//! solution (the others are not rated, and say why).

use super::{analyze, Analysis, Verdict};
use crate::engine::{Budget, Stop};
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
}

/// Grades a puzzle whose analysis is known.
pub fn grade_analyzed(analysis: &Analysis, givens: &[u8], budget: &Budget) -> Graded {
    let solution = match &analysis.verdict {
        Verdict::Unique(solution) => solution.clone(),
        Verdict::Broken | Verdict::NoSolution => return Graded::NotRated("no solution"),
        Verdict::Several { .. } => return Graded::NotRated("several solutions"),
        Verdict::Undecided { .. } => {
            return Graded::NotRated("undecided: the search ran out of budget")
        }
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
