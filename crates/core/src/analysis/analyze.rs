//! `analyze`: conflicts, impossible cells, digits with no place and the verdict of one grid,
//! and for a grid with no solution its minimal unsolvable core, unless the caller says it has
//! no use for it (`AnalyzeOptions`: rating and hints only need the verdict).

use super::setter::{no_solution_core, no_solution_core_under};
use super::solutions::{two_solutions, verdict_of, NineSearch, TwoSolutions};
use super::verdict::{Analysis, BrokenRule, Conflict, NoPlace, Verdict};
use crate::engine::{self, Budget, Digits, Marks};
use crate::format::Puzzle;
use crate::grid::{geometry, Geometry, Size, Variant};
use crate::rules::Rules;

/// What `analyze` works out beyond conflicts, empty cells and digits and the verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnalyzeOptions {
    /// For a grid with no solution, the minimal set of givens that has none (`Analysis::core`):
    /// the findings show it; rating and hints, which only read the verdict, skip its searches.
    pub core: bool,
}

impl Default for AnalyzeOptions {
    fn default() -> AnalyzeOptions {
        AnalyzeOptions { core: true }
    }
}

/// Analyse one grid.
pub fn analyze(size: Size, variant: Variant, givens: &[u8], budget: &Budget) -> Analysis {
    analyze_with(size, variant, givens, budget, AnalyzeOptions::default())
}

/// Analyse one grid, working out what `options` asks for.
pub fn analyze_with(
    size: Size,
    variant: Variant,
    givens: &[u8],
    budget: &Budget,
    options: AnalyzeOptions,
) -> Analysis {
    // A 9×9 is searched first: a grid the search finds a solution for has no conflict (the
    // solution holds every given), which spares nearly every grid of a collection the pass
    // that looks for them (7% of `check`'s time over one). The dedicated solver refuses a
    // grid with a conflict at once.
    let searched = <&[u8; 81]>::try_from(givens)
        .ok()
        .map(|grid| NineSearch::new(variant, grid, budget));
    analyze_searched_with(size, variant, givens, budget, searched, options)
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
    let options = AnalyzeOptions::default();
    analyze_searched_with(size, variant, givens, budget, searched, options)
}

fn analyze_searched_with(
    size: Size,
    variant: Variant,
    givens: &[u8],
    budget: &Budget,
    searched: Option<NineSearch>,
    options: AnalyzeOptions,
) -> Analysis {
    let geometry = geometry(size, variant);
    let searched = searched.map(|search| search.two_solutions());
    let conflicts = match &searched {
        Some(found) if found.found_one() => Vec::new(),
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
        broken: Vec::new(),
        has_rules: false,
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
    if options.core && analysis.verdict == Verdict::NoSolution {
        analysis.core = Some(no_solution_core(geometry, givens, budget));
    }
    analysis
}

/// Analyse a puzzle as read: under its rules when it has constraints beyond its houses.
pub fn analyze_puzzle(puzzle: &Puzzle, budget: &Budget) -> Analysis {
    let rules = puzzle.rules.as_deref();
    analyze_grid(puzzle.size, puzzle.variant, rules, &puzzle.clues(), budget)
}

/// Analyse a grid under `rules` when there are any (`analyze_rules`), else as `analyze` does.
pub(super) fn analyze_grid(
    size: Size,
    variant: Variant,
    rules: Option<&Rules>,
    givens: &[u8],
    budget: &Budget,
) -> Analysis {
    match rules {
        Some(rules) => analyze_rules(size, variant, rules, givens, budget),
        None => analyze(size, variant, givens, budget),
    }
}

/// Analyse a grid under `rules` besides its houses: repeats in houses, constraints the givens
/// already break (each named), and the verdict of the variant engine's search.
pub fn analyze_rules(
    size: Size,
    variant: Variant,
    rules: &Rules,
    givens: &[u8],
    budget: &Budget,
) -> Analysis {
    let geometry = &rules.geometry(size, variant);
    let mut analysis = Analysis {
        size,
        variant,
        conflicts: find_conflicts(geometry, givens),
        impossible: Vec::new(),
        no_place: Vec::new(),
        verdict: Verdict::Broken,
        core: None,
        full: givens.iter().all(|&d| d != 0),
        broken: broken_rules(size, rules, givens),
        has_rules: true,
    };
    if !analysis.conflicts.is_empty() || !analysis.broken.is_empty() {
        return analysis;
    }
    let found = engine::variant::solve(geometry, rules, givens, 2, budget);
    analysis.verdict = verdict_of(TwoSolutions::from(found)).0;
    // The core is what `check` says only when the rules' pencil marks do not show why (they
    // usually do, and a core costs a search per given and constraint).
    if analysis.verdict == Verdict::NoSolution && !marks_show_no_solution(geometry, rules, givens) {
        analysis.core = Some(no_solution_core_under(geometry, rules, givens, budget));
    }
    analysis
}

/// Whether the rules' own pencil marks show that `givens` have no solution under `rules`: a
/// cell they leave no digit, a constraint that cannot hold, or a house missing a digit (what
/// `rule_reasons` then puts into words).
fn marks_show_no_solution(geometry: &Geometry, rules: &Rules, givens: &[u8]) -> bool {
    let Some(marks) = engine::variant::candidates(geometry, rules, givens) else {
        return true;
    };
    let all = ((1u32 << geometry.side()) - 1) as u16;
    geometry.units.iter().any(|unit| {
        let union = unit
            .cells
            .iter()
            .fold(0u16, |acc, &c| acc | marks[c as usize]);
        union != all
    })
}

/// At most this many fillings of constraints' empty cells are tried per puzzle when looking
/// for broken ones (the search finds the rest as "no solution").
const BROKEN_FILLINGS: u64 = 200_000;

/// The constraints the digits of `grid` break, by the rules' own definitions.
pub fn broken_rules(size: Size, rules: &Rules, grid: &[u8]) -> Vec<BrokenRule> {
    // One allowance of fillings tried for the whole puzzle, however many lines it has.
    let mut allowance = BROKEN_FILLINGS;
    let mut broken: Vec<BrokenRule> = rules
        .constraints
        .iter()
        .enumerate()
        .filter(|(_, c)| !c.is_global() && c.broken_within(size, grid, &mut allowance))
        .map(|(i, c)| BrokenRule {
            constraint: i,
            cells: c.named_cells().into_iter().map(usize::from).collect(),
        })
        .collect();
    broken.extend(
        rules
            .broken_pairs(size, grid)
            .into_iter()
            .map(|(i, a, b)| BrokenRule {
                constraint: i,
                cells: vec![a as usize, b as usize],
            }),
    );
    broken.sort_by_key(|b| b.constraint);
    broken
}

/// Every digit placed more than once in a unit of a grid, entries included (what a picture of a
/// solver's grid marks; `analyze` looks at the givens alone).
pub fn conflicts(geometry: &Geometry, placed: &[u8]) -> Vec<Conflict> {
    find_conflicts(geometry, placed)
}

pub(super) fn find_conflicts(geometry: &Geometry, givens: &[u8]) -> Vec<Conflict> {
    // Nearly every grid of a collection has none: tell that in one pass over its cells (for
    // the two variants that pass knows).
    if let (81, Some(diagonal)) = (givens.len(), geometry.fast9_diagonal()) {
        if !any_conflict_nine(givens, diagonal) {
            return Vec::new();
        }
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

    /// Rating and hints ask for the verdict alone: an unsolvable grid's core is worked out only
    /// when asked for, and the verdict is the same either way.
    #[test]
    fn the_unsolvable_core_is_worked_out_only_when_asked_for() {
        let line =
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
        let mut givens: Vec<u8> = line
            .bytes()
            .map(|b| if b == b'.' { 0 } else { b - b'0' })
            .collect();
        let budget = Budget::unlimited();
        let lean = AnalyzeOptions { core: false };
        let analyse = |givens: &[u8], options| {
            analyze_with(Size::NINE, Variant::Classic, givens, &budget, options)
        };
        let Verdict::Unique(solution) = analyse(&givens, lean).verdict else {
            panic!("unique")
        };
        let solution = &solution;
        let unsolvable = |&(cell, digit): &(usize, u8)| {
            let mut wrong = givens.clone();
            wrong[cell] = digit;
            analyse(&wrong, lean).verdict == Verdict::NoSolution
        };
        let (cell, digit) = (0..81)
            .filter(|&c| givens[c] == 0)
            .flat_map(|c| {
                (1..=9)
                    .filter(move |&d| d != solution[c])
                    .map(move |d| (c, d))
            })
            .find(unsolvable)
            .expect("a digit that leaves no solution");
        givens[cell] = digit;
        let full = analyze(Size::NINE, Variant::Classic, &givens, &budget);
        assert!(full.core.is_some_and(|core| core.cells.contains(&cell)));
        let verdict_only = analyse(&givens, lean);
        assert_eq!(verdict_only.verdict, Verdict::NoSolution);
        assert!(verdict_only.core.is_none());
    }
}
