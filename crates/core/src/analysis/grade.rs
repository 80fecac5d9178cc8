//! Grading: a puzzle's solve path of simplest steps and its rating, for puzzles with exactly one
//! solution (the others are not rated, and say why).

use super::analyze::{analyze_rules, analyze_with, AnalyzeOptions};
use super::verdict::{Analysis, Verdict};
use crate::engine::{Budget, Digits, Stop};
use crate::format::Puzzle;
use crate::grid::geometry;
use crate::logic::{self, Outcome, Path, Rating};

/// A puzzle with one solution, graded: its path of simplest steps, the rating (a lower bound
/// when the path stopped early) and the solution.
#[derive(Clone, Debug)]
pub struct Rated {
    pub rating: Rating,
    pub path: Path,
    pub solution: Vec<u8>,
    /// The scale the rating is on.
    pub scale: Scale,
}

/// The scale of a rating: Sudoku Explainer's for a puzzle of houses alone, the project's own
/// for one with variant constraints (SE's difficulties for the house techniques, its own for
/// the rules' deductions: `logic::solve_path_with_rules`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    SudokuExplainer,
    Variant,
}

impl Scale {
    /// "se", "variant": as JSON names it.
    pub fn id(self) -> &'static str {
        match self {
            Scale::SudokuExplainer => "se",
            Scale::Variant => "variant",
        }
    }
}

/// The next hint of a puzzle with one solution: `None` when the grid is full, or no technique
/// applies or the budget ran out (`stopped` says which of the last two).
#[derive(Clone, Debug)]
pub struct NextHint {
    pub step: Option<logic::Step>,
    pub stopped: bool,
}

/// Why a puzzle is neither rated nor hinted, in a few words ("no solution", "several
/// solutions"…): only a puzzle with exactly one solution is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotRated(pub &'static str);

/// The solution, or why a puzzle is not graded.
fn unique(analysis: &Analysis) -> Result<Vec<u8>, NotRated> {
    match &analysis.verdict {
        Verdict::Unique(solution) => Ok(solution.clone()),
        Verdict::Broken | Verdict::NoSolution => Err(NotRated("no solution")),
        Verdict::Several { .. } => Err(NotRated("several solutions")),
        Verdict::Undecided { .. } => Err(NotRated("undecided: the search ran out of budget")),
    }
}

/// A classic grade from an analysis of a puzzle with rules is a mistake of the caller's: the
/// path must be walked under the rules (`grade_puzzle`).
const RULES_NEED_THE_PUZZLE: NotRated =
    NotRated("a puzzle with variant constraints is graded from the puzzle itself");

/// Grades a puzzle whose analysis is known.
pub fn grade_analyzed(
    analysis: &Analysis,
    givens: &[u8],
    budget: &Budget,
) -> Result<Rated, NotRated> {
    if analysis.has_rules {
        return Err(RULES_NEED_THE_PUZZLE);
    }
    let solution = unique(analysis)?;
    let geo = geometry(analysis.size, analysis.variant);
    let path = logic::solve_path(geo, givens, budget);
    debug_assert!(
        path.outcome != Outcome::Broken,
        "a unique puzzle broke on the path"
    );
    let rating = logic::rate(&path);
    Ok(Rated {
        rating,
        path,
        solution,
        scale: Scale::SudokuExplainer,
    })
}

/// Rating and hints read the verdict alone: no unsolvable core for them.
const VERDICT_ONLY: AnalyzeOptions = AnalyzeOptions { core: false };

/// Analyses then grades a puzzle.
pub fn grade(
    size: crate::grid::Size,
    variant: crate::grid::Variant,
    givens: &[u8],
    budget: &Budget,
) -> Result<Rated, NotRated> {
    let analysis = analyze_with(size, variant, givens, budget, VERDICT_ONLY);
    grade_analyzed(&analysis, givens, budget)
}

/// The verdict a grade needs: under the puzzle's rules when it has any.
fn verdict_of_puzzle(puzzle: &Puzzle, budget: &Budget) -> Analysis {
    let clues = puzzle.clues();
    match puzzle.rules.as_deref() {
        Some(rules) => analyze_rules(puzzle.size, puzzle.variant, rules, &clues, budget),
        None => analyze_with(puzzle.size, puzzle.variant, &clues, budget, VERDICT_ONLY),
    }
}

/// Analyses then grades a puzzle as read; one with variant constraints on the variant scale
/// (`logic::solve_path_with_rules`).
pub fn grade_puzzle(puzzle: &Puzzle, budget: &Budget) -> Result<Rated, NotRated> {
    let Some(rules) = puzzle.rules.as_deref() else {
        return grade(puzzle.size, puzzle.variant, &puzzle.clues(), budget);
    };
    let clues = puzzle.clues();
    let analysis = verdict_of_puzzle(puzzle, budget);
    let solution = unique(&analysis)?;
    let geometry = rules.geometry(puzzle.size, puzzle.variant);
    let path = logic::solve_path_with_rules(&geometry, rules, &clues, budget);
    debug_assert!(
        path.outcome != Outcome::Broken,
        "a unique variant puzzle broke on the path"
    );
    Ok(Rated {
        rating: logic::rate(&path),
        path,
        solution,
        scale: Scale::Variant,
    })
}

/// The next hint of a puzzle whose givens have one solution: the simplest step of the hint
/// ladder (which names patterns — W-wing, ALS-XZ, finned fish… — before it falls back on
/// forcing chains) from where the solver is (`next_step`); on a variant puzzle, of the variant
/// ladder.
pub fn hint(puzzle: &Puzzle, budget: &Budget) -> Result<NextHint, NotRated> {
    let analysis = verdict_of_puzzle(puzzle, budget);
    unique(&analysis)?;
    let step = next_step(puzzle, budget);
    let stopped = step.is_none() && logic::stopped(budget).is_some();
    Ok(NextHint { step, stopped })
}

/// The simplest step from where the solver is: the givens and the solver's entries, and the
/// pencil marks the file holds (a digit left out of a cell's marks is out). What `hint`, the
/// editor's hint and its *Apply next step* on pencil marks all answer; the rating is about the
/// givens alone.
pub fn next_step(puzzle: &Puzzle, budget: &Budget) -> Option<logic::Step> {
    let marks: Option<Vec<Digits>> = puzzle
        .marks
        .as_deref()
        .map(|marks| marks.iter().map(|&set| Digits(set)).collect());
    if let Some(rules) = puzzle.rules.as_deref() {
        let geometry = rules.geometry(puzzle.size, puzzle.variant);
        return logic::next_step_with_rules(
            &geometry,
            rules,
            &puzzle.givens,
            marks.as_deref(),
            budget,
        );
    }
    let geo = crate::grid::geometry(puzzle.size, puzzle.variant); // no regions of its own
    logic::hint(geo, &puzzle.givens, marks.as_deref(), budget)
}

/// "ran out of time", "was cancelled", "needs techniques beyond the solver's": why a rating is
/// only a lower bound, or `None` when the path reached the solution.
pub fn incomplete_reason(path: &Path) -> Option<&'static str> {
    match path.outcome {
        Outcome::Solved => None,
        Outcome::Stuck => Some("needs a technique it does not know yet"),
        Outcome::Broken => Some("reached a contradiction"),
        Outcome::Stopped(Stop::Cancelled) => Some("was cancelled"),
        Outcome::Stopped(_) => Some("ran out of its budget"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse;

    const GENTLE: &str = include_str!("../../../../puzzles/easy.sudoku");

    #[test]
    fn grading_and_hinting_each_answer_with_their_own_type() {
        let doc = parse(GENTLE);
        let puzzle = &doc.puzzles[0];
        let budget = Budget::unlimited();
        let rated: Rated = grade(puzzle.size, puzzle.variant, &puzzle.clues(), &budget)
            .expect("a puzzle with one solution is rated");
        assert_eq!(incomplete_reason(&rated.path), None);
        assert_eq!(rated.solution, rated.path.values);
        let hinted: NextHint = hint(puzzle, &budget).expect("and hinted");
        assert!(hinted.step.is_some() && !hinted.stopped);

        let mut twice = puzzle.clues().into_owned();
        twice[1] = twice[0]; // 6 6 in the first row
        assert_eq!(
            grade(puzzle.size, puzzle.variant, &twice, &budget).map(|_| ()),
            Err(NotRated("no solution"))
        );
        let mut several = puzzle.clues().into_owned();
        several.iter_mut().for_each(|d| *d = 0);
        assert_eq!(
            grade(puzzle.size, puzzle.variant, &several, &budget).map(|_| ()),
            Err(NotRated("several solutions"))
        );
    }
}
