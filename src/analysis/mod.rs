//! Findings about puzzles: conflicts, impossible cells, digits with no place, and the verdict.
//!
//! `analyze` (here) looks at one grid and knows no text positions, so its result can be cached by
//! content (`check`); `findings` places it in the source through the puzzle's spans; `explain`
//! gives the faces ready-made sentences for hover and the like; `navigate` answers the editor's
//! navigation (the digits that fit a cell, the cells of its units holding a digit).

mod check;
mod explain;
mod findings;
mod generate;
mod grade;
mod marks;
mod navigate;
mod setter;

pub use check::{
    against_solution, check_document, check_text, check_text_with, document_findings,
    document_findings_analysed, recheck, Asked, Cache, Checked,
};
pub use explain::{explain_cell, summarize, CellExplanation, CellState};
pub use findings::{findings, givens_finding, reason_text, redundant_finding};
pub use generate::{
    block_text, clock_seed, generate, generate_cancellable, line_text, parse_window, puzzle_rng,
    Failure, Generated, Request,
};
pub use grade::{grade, grade_analyzed, hint, incomplete_reason, next_step, Graded};
pub use marks::{
    entry_findings, fill_marks, mark_findings, marks_edits, marks_of, marks_unwritable,
    remove_naked_twins, ruled_out, solution_findings, without_ruled_out, RuledOut,
};
pub use navigate::{
    digit_cells, fits, holders, place_edit, row_candidate_counts, status_word, unit_places,
    CellFits, Fit, Place,
};
pub use setter::{
    best_extra_given, no_solution_core, redundant_givens, symmetry, true_candidates,
    true_candidates_at, Core, ExtraGiven, Spread, Symmetry, SAMPLE,
};

use crate::engine::{self, fast9, Budget, Digits, Marks, Stop};
use crate::grid::{geometry, Geometry, Size, Variant};

/// The node budget of one puzzle's search, for the command line and the editor alike: far more
/// than any 9×9 needs, and a bound on the rare large grid that would otherwise search for minutes.
pub const DEFAULT_MAX_NODES: u64 = 1_000_000;

/// The same digit more than once in a unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    pub unit: usize,
    pub digit: u8,
    /// Every cell of the unit holding the digit, ascending.
    pub cells: Vec<usize>,
}

/// A digit missing from a unit that fits in none of the unit's empty cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoPlace {
    pub unit: usize,
    pub digit: u8,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Conflicts, impossible cells or digits with no place already show there is no solution.
    Broken,
    NoSolution,
    Unique(Vec<u8>),
    /// Two different solutions and the first cell where they differ.
    Several {
        first: Vec<u8>,
        second: Vec<u8>,
        differ: usize,
    },
    /// The budget ran out first; with the solution found so far, if any.
    Undecided {
        stop: Stop,
        found: Option<Vec<u8>>,
    },
}

impl Verdict {
    /// The solution to write in, if there is one (the first of several).
    pub fn solution(&self) -> Option<&[u8]> {
        match self {
            Verdict::Unique(s) => Some(s),
            Verdict::Several { first, .. } => Some(first),
            _ => None,
        }
    }
}

/// Everything we conclude about one grid; positions are cell indices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    pub size: Size,
    pub variant: Variant,
    pub conflicts: Vec<Conflict>,
    /// Empty cells whose pencil marks are empty.
    pub impossible: Vec<usize>,
    pub no_place: Vec<NoPlace>,
    pub verdict: Verdict,
    /// For a puzzle with no solution: the givens that together leave none.
    pub core: Option<Core>,
    /// True when every cell is filled (and so, with no conflict, solved).
    pub full: bool,
}

/// Analyse one grid.
pub fn analyze(size: Size, variant: Variant, givens: &[u8], budget: &Budget) -> Analysis {
    // A 9×9 is searched first: a grid the search finds a solution for has no conflict (the
    // solution holds every given), which spares nearly every grid of a collection the pass
    // that looks for them (7% of `check`'s time over one). The dedicated solver refuses a
    // grid with a conflict at once.
    let searched = <&[u8; 81]>::try_from(givens)
        .ok()
        .map(|grid| NineSearch::new(variant, grid, budget));
    analyze_searched(size, variant, givens, budget, searched)
}

/// A 9×9 grid searched for two solutions, as `analyze` searches it: enough to tell the verdict
/// nearly every puzzle of a collection gets (one solution), without building an analysis.
#[derive(Clone, Copy, Debug)]
pub struct NineSearch {
    outcome: fast9::Fast9Outcome,
}

impl NineSearch {
    pub fn new(variant: Variant, grid: &[u8; 81], budget: &Budget) -> NineSearch {
        let diagonal = variant == Variant::Diagonal;
        let max_nodes = budget.max_nodes.unwrap_or(u64::MAX);
        NineSearch {
            outcome: fast9::solve(grid, diagonal, 2, max_nodes, budget.cancel),
        }
    }

    /// The solution, when the verdict is `Verdict::Unique`: one found, and the search complete.
    pub fn unique(&self) -> Option<&[u8; 81]> {
        let outcome = &self.outcome;
        (outcome.count == 1 && outcome.stop.is_none()).then_some(&outcome.solutions[0])
    }

    fn two_solutions(&self) -> TwoSolutions {
        let outcome = &self.outcome;
        let found = |i: usize| (outcome.count > i).then(|| outcome.solutions[i].to_vec());
        TwoSolutions {
            first: found(0),
            second: found(1),
            stop: outcome.stop.map(fast9_stop),
            nodes: outcome.nodes,
        }
    }
}

/// `analyze`, given the search of a 9×9 grid when it is one (`NineSearch` of these givens,
/// variant and budget): the same analysis, the grid not searched again.
pub fn analyze_searched(
    size: Size,
    variant: Variant,
    givens: &[u8],
    budget: &Budget,
    searched: Option<NineSearch>,
) -> Analysis {
    let geometry = geometry(size, variant);
    let searched = searched.map(|search| search.two_solutions());
    let conflicts = match &searched {
        Some(found) if found.first.is_some() => Vec::new(),
        _ => find_conflicts(geometry, givens),
    };
    let mut analysis = Analysis {
        size,
        variant,
        conflicts,
        impossible: Vec::new(),
        no_place: Vec::new(),
        verdict: Verdict::Broken,
        core: None,
        full: givens.iter().all(|&d| d != 0),
    };
    // A grid with a conflict is already wrong, and the extra digit empties cells and units that
    // would be fine without it: those follow-on findings wait until the conflict is fixed.
    if !analysis.conflicts.is_empty() {
        return analysis;
    }
    let found = searched.unwrap_or_else(|| two_solutions(geometry, givens, budget));
    analysis.verdict = verdict_of(found).0;
    // Pencil marks keep every digit of every solution, so a puzzle with a solution has neither
    // impossible cells nor digits without a place: look for them only when search found none.
    if analysis.verdict.solution().is_none() {
        let marks = engine::pencil_marks(geometry, givens);
        analysis.impossible = (0..givens.len())
            .filter(|&c| givens[c] == 0 && marks.candidates[c].is_empty())
            .collect();
        analysis.no_place = find_no_place(geometry, givens, &marks);
        if !analysis.impossible.is_empty() || !analysis.no_place.is_empty() {
            analysis.verdict = Verdict::Broken;
        }
    }
    if analysis.verdict == Verdict::NoSolution {
        analysis.core = Some(no_solution_core(geometry, givens, budget));
    }
    analysis
}

/// Every digit placed more than once in a unit of a grid, entries included (what a picture of a
/// solver's grid marks; `analyze` looks at the givens alone).
pub fn conflicts(size: Size, variant: Variant, placed: &[u8]) -> Vec<Conflict> {
    find_conflicts(geometry(size, variant), placed)
}

fn find_conflicts(geometry: &Geometry, givens: &[u8]) -> Vec<Conflict> {
    // Nearly every grid of a collection has none: tell that in one pass over its cells.
    if givens.len() == 81 && !any_conflict_nine(givens, geometry.variant == Variant::Diagonal) {
        return Vec::new();
    }
    conflicts_in_units(geometry, givens)
}

fn conflicts_in_units(geometry: &Geometry, givens: &[u8]) -> Vec<Conflict> {
    let mut conflicts = Vec::new();
    for (u, unit) in geometry.units.iter().enumerate() {
        let (mut seen, mut twice) = (Digits::EMPTY, Digits::EMPTY);
        for &cell in unit.cells.iter() {
            let digit = givens[cell as usize];
            if digit != 0 {
                if seen.contains(digit) {
                    twice.insert(digit);
                }
                seen.insert(digit);
            }
        }
        for digit in twice.iter() {
            let cells = unit
                .cells
                .iter()
                .map(|&c| c as usize)
                .filter(|&c| givens[c] == digit)
                .collect();
            conflicts.push(Conflict {
                unit: u,
                digit,
                cells,
            });
        }
    }
    conflicts
}

/// Whether a 9×9 grid has a digit twice in a unit: one pass with a mask of digits per row,
/// column, box (and diagonal), where the general walk over the geometry's units costs a
/// sixth of `check`'s time over a collection.
fn any_conflict_nine(givens: &[u8], diagonal: bool) -> bool {
    let (mut rows, mut columns, mut boxes) = ([0u16; 9], [0u16; 9], [0u16; 9]);
    let mut diagonals = [0u16; 2];
    let mut clash = 0u16;
    for (cell, &digit) in givens.iter().enumerate() {
        if digit == 0 {
            continue;
        }
        if digit > 9 {
            return true; // not a 9×9's digit: the general walk says what it is
        }
        let bit = 1u16 << digit;
        let (r, c) = (cell / 9, cell % 9);
        let b = r / 3 * 3 + c / 3;
        clash |= (rows[r] | columns[c] | boxes[b]) & bit;
        rows[r] |= bit;
        columns[c] |= bit;
        boxes[b] |= bit;
        if diagonal {
            for (d, on) in [(0, r == c), (1, r + c == 8)] {
                if on {
                    clash |= diagonals[d] & bit;
                    diagonals[d] |= bit;
                }
            }
        }
    }
    clash != 0
}

fn find_no_place(geometry: &Geometry, givens: &[u8], marks: &Marks) -> Vec<NoPlace> {
    let mut found = Vec::new();
    for (u, unit) in geometry.units.iter().enumerate() {
        let mut present = Digits::EMPTY;
        let mut fits = Digits::EMPTY;
        for &cell in unit.cells.iter() {
            let cell = cell as usize;
            match givens[cell] {
                0 => fits = fits | marks.candidates[cell],
                digit => present.insert(digit),
            }
        }
        let missing = Digits::all(geometry.side()) & !present;
        for digit in (missing & !fits).iter() {
            found.push(NoPlace { unit: u, digit });
        }
    }
    found
}

/// Search for up to two solutions, through the dedicated 9×9 solver where it applies.
#[cfg(test)]
fn verdict(geometry: &Geometry, givens: &[u8], budget: &Budget) -> Verdict {
    verdict_counting(geometry, givens, budget).0
}

/// `verdict`, and the nodes its search visited.
fn verdict_counting(geometry: &Geometry, givens: &[u8], budget: &Budget) -> (Verdict, u64) {
    verdict_of(two_solutions(geometry, givens, budget))
}

/// Search for up to two solutions, through the dedicated 9×9 solver where it applies.
fn two_solutions(geometry: &Geometry, givens: &[u8], budget: &Budget) -> TwoSolutions {
    if let Ok(grid) = <&[u8; 81]>::try_from(givens) {
        return solve_nine(geometry, grid, budget);
    }
    let outcome = engine::search(geometry, givens, 2, budget);
    let nodes = outcome.nodes;
    let mut solutions = outcome.solutions.into_iter();
    TwoSolutions {
        first: solutions.next(),
        second: solutions.next(),
        stop: outcome.stop,
        nodes,
    }
}

/// What a search for two solutions says of the grid, and the nodes it visited.
fn verdict_of(found: TwoSolutions) -> (Verdict, u64) {
    let TwoSolutions {
        first,
        second,
        stop,
        nodes,
    } = found;
    let verdict = match (first, second, stop) {
        (Some(first), Some(second), _) => {
            let differ = (0..first.len())
                .find(|&c| first[c] != second[c])
                .unwrap_or(0);
            Verdict::Several {
                first,
                second,
                differ,
            }
        }
        (found, _, Some(stop)) => Verdict::Undecided { stop, found },
        (Some(only), _, None) => Verdict::Unique(only),
        (None, _, None) => Verdict::NoSolution,
    };
    (verdict, nodes)
}

/// What a search for two solutions found, and what it cost.
struct TwoSolutions {
    first: Option<Vec<u8>>,
    second: Option<Vec<u8>>,
    stop: Option<Stop>,
    nodes: u64,
}

/// The dedicated 9×9 solver. It takes a node budget and a cancel flag but no deadline: the
/// hardest known 9×9 needs well under a millisecond.
fn solve_nine(geometry: &Geometry, grid: &[u8; 81], budget: &Budget) -> TwoSolutions {
    NineSearch::new(geometry.variant, grid, budget).two_solutions()
}

/// Whether `givens` has a solution, through the dedicated 9×9 solver where it applies, and the
/// nodes its search visited: `verdict` for a caller that only asks "any solution?", which
/// stops at the first one instead of looking for a second. `Err` when the budget ran out first.
fn solvable_counting(
    geometry: &Geometry,
    givens: &[u8],
    budget: &Budget,
) -> (Result<bool, Stop>, u64) {
    let Ok(grid) = <&[u8; 81]>::try_from(givens) else {
        let outcome = engine::search(geometry, givens, 1, budget);
        return (
            found_any(!outcome.solutions.is_empty(), outcome.stop),
            outcome.nodes,
        );
    };
    let diagonal = geometry.variant == Variant::Diagonal;
    let max_nodes = budget.max_nodes.unwrap_or(u64::MAX);
    let outcome = fast9::solve(grid, diagonal, 1, max_nodes, budget.cancel);
    let found = found_any(outcome.count > 0, outcome.stop.map(fast9_stop));
    (found, outcome.nodes)
}

/// A search for one solution's answer: a solution found stands whatever stopped the search
/// after it; none found is a proof only when nothing did.
fn found_any(found: bool, stop: Option<Stop>) -> Result<bool, Stop> {
    match (found, stop) {
        (false, Some(stop)) => Err(stop),
        _ => Ok(found),
    }
}

/// The engine's reason for a stop of the 9×9 solver.
fn fast9_stop(stop: fast9::Fast9Stop) -> Stop {
    match stop {
        fast9::Fast9Stop::Nodes => Stop::Nodes,
        fast9::Fast9Stop::Cancelled => Stop::Cancelled,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_quick_conflict_pass_agrees_with_the_walk_over_every_unit() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for variant in [Variant::Classic, Variant::Diagonal] {
            let geometry = geometry(Size::NINE, variant);
            let (mut with, mut without) = (0, 0);
            for _ in 0..20_000 {
                let filled = next() % 30;
                let mut grid = [0u8; 81];
                for _ in 0..filled {
                    grid[(next() % 81) as usize] = (next() % 10) as u8;
                }
                let walk = conflicts_in_units(geometry, &grid);
                let quick = any_conflict_nine(&grid, variant == Variant::Diagonal);
                assert_eq!(quick, !walk.is_empty(), "{grid:?}");
                assert_eq!(find_conflicts(geometry, &grid), walk);
                if quick {
                    with += 1;
                } else {
                    without += 1;
                }
            }
            assert!(with > 1000 && without > 1000, "{with} {without}");
        }
    }
}
