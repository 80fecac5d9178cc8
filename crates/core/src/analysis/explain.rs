//! What hover says: one cell explained (units, pencil marks and why each digit is out, what
//! propagation concludes), and one puzzle summed up.

use std::sync::Arc;

use super::verdict::{Analysis, Verdict};
use super::wording::{and_list, reason_text, shared_unit_names, stop_text};
use crate::engine::{self, Contradiction, Digits, Forced};
use crate::format::Puzzle;
use crate::grid::{digit_char, Geometry, Variant};
use crate::rules::Rules;

/// What hover says about one cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellExplanation {
    /// "E5"
    pub name: String,
    /// "row E", "column 5", "box 5", …
    pub units: Vec<String>,
    pub state: CellState,
    /// The pencil marks written in the file for an empty cell, when there are some (a cell
    /// with every digit has none written).
    pub written: Option<Digits>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CellState {
    /// A digit in the source (a given, or the solver's `entry`); `conflicts` names each clash,
    /// e.g. "row E: E2".
    Given {
        digit: u8,
        entry: bool,
        conflicts: Vec<String>,
    },
    Empty {
        /// The pencil marks.
        marks: Digits,
        /// Each excluded digit with why, e.g. (4, "row E: E2"),
        /// (9, "naked twins {8, 9} in column 5: B5, H5").
        excluded: Vec<(u8, String)>,
        /// What full propagation concludes, e.g. "propagation places 7 (only place for 7 in box 5)"
        /// or "propagation leaves {2, 7}".
        conclusion: String,
    },
}

/// Explain one cell of a puzzle (computed on demand: it costs microseconds).
pub fn explain_cell(puzzle: &Puzzle, cell: usize) -> CellExplanation {
    explain_cell_with(puzzle, cell, &|geometry, rules, givens| {
        engine::variant::propagated(geometry, rules, givens).map(Into::into)
    })
}

/// The rules' full propagation of a grid ([`engine::variant::propagated`]), as a caller that
/// keeps it per grid hands it to [`explain_cell_with`].
/// It gets the puzzle's own shared rules, by which a keeper can know them again cheaply.
pub type Propagated<'a> = dyn Fn(&Geometry, &Arc<Rules>, &[u8]) -> Option<Arc<[u16]>> + 'a;

/// [`explain_cell`], with the rules' full propagation from `propagated` (on a variant puzzle
/// it builds the rules' model with the 45 rule's innies and outies, most of a hover's time: an
/// editor keeps it per grid, for the cursor's next move).
pub fn explain_cell_with(puzzle: &Puzzle, cell: usize, propagated: &Propagated) -> CellExplanation {
    let geometry = &puzzle.geometry();
    let units = geometry.units_of[cell]
        .iter()
        .map(|&u| geometry.unit_name(u as usize))
        .collect();
    let state = match puzzle.givens[cell] {
        0 => match puzzle.rules.as_ref().filter(|r| !r.is_empty()) {
            Some(rules) => {
                let after = propagated(geometry, rules, &puzzle.givens);
                super::rule_reasons::explain_empty(geometry, puzzle, rules, cell, after.as_deref())
            }
            None => explain_empty(geometry, &puzzle.givens, cell),
        },
        digit => CellState::Given {
            digit,
            entry: puzzle.is_entry(cell),
            conflicts: geometry.peers[cell]
                .iter()
                .map(|&p| p as usize)
                .filter(|&p| puzzle.givens[p] == digit)
                .map(|p| {
                    format!(
                        "{}: {}",
                        shared_unit_names(geometry, cell, p),
                        geometry.cell_name(p)
                    )
                })
                .collect(),
        },
    };
    let full = crate::format::every_digit(geometry.side());
    let written = puzzle
        .marks
        .as_deref()
        .map(|m| m[cell])
        .filter(|&set| puzzle.givens[cell] == 0 && set != full)
        .map(Digits);
    CellExplanation {
        name: geometry.cell_name(cell),
        units,
        state,
        written,
    }
}

/// The pencil marks [`explain_cell`] gives an empty `cell` (`None` for a given): the same
/// digits without the reasons and without propagation's conclusion, which on a variant puzzle
/// costs most of a hover (the 45 rule's innies and outies are worked out for it). What a
/// "fill the only candidate" action needs, at every move of the cursor.
pub fn cell_marks(puzzle: &Puzzle, cell: usize) -> Option<Digits> {
    if puzzle.givens[cell] != 0 {
        return None;
    }
    let geometry = &puzzle.geometry();
    let marks = match puzzle.rules.as_deref().filter(|r| !r.is_empty()) {
        Some(rules) => engine::variant::candidates_with_reasons(geometry, rules, &puzzle.givens)
            .masks[cell]
            .into(),
        None => match explain_empty(geometry, &puzzle.givens, cell) {
            CellState::Empty { marks, .. } => return Some(marks),
            CellState::Given { .. } => return None,
        },
    };
    Some(Digits(marks))
}

fn explain_empty(geometry: &Geometry, givens: &[u8], cell: usize) -> CellState {
    let marks = engine::pencil_marks(geometry, givens);
    let here = marks.candidates[cell];
    let excluded = (Digits::all(geometry.side()) & !here)
        .iter()
        .map(|d| (d, reason_text(geometry, marks.reason(cell, d))))
        .collect();
    CellState::Empty {
        marks: here,
        excluded,
        conclusion: propagation_conclusion(geometry, givens, cell),
    }
}

/// What `propagate` says of one cell, in a sentence.
fn propagation_conclusion(geometry: &Geometry, givens: &[u8], cell: usize) -> String {
    let result = engine::propagate(geometry, givens);
    if let Some(contradiction) = result.contradiction {
        return format!(
            "propagation finds no solution: {}",
            contradiction_text(geometry, contradiction)
        );
    }
    if let Some(placement) = result.placed.iter().find(|p| p.cell == cell) {
        let d = digit_char(placement.digit);
        return match placement.how {
            Forced::LastCandidate => format!("propagation places {d}: its last candidate"),
            Forced::OnlyPlace { unit } => {
                format!(
                    "propagation places {d}: its only place in {}",
                    geometry.unit_name(unit as usize)
                )
            }
        };
    }
    format!("propagation leaves {}", result.marks.candidates[cell])
}

fn contradiction_text(geometry: &Geometry, contradiction: Contradiction) -> String {
    match contradiction {
        Contradiction::EmptyCell { cell } => {
            format!("{} is left with no candidate", geometry.cell_name(cell))
        }
        Contradiction::NoPlace { unit, digit } => {
            format!(
                "{} has no place left in {}",
                digit_char(digit),
                geometry.unit_name(unit)
            )
        }
        Contradiction::Clash { unit, digit } => {
            format!(
                "{} would be placed twice in {}",
                digit_char(digit),
                geometry.unit_name(unit)
            )
        }
    }
}

/// One line per fact about a puzzle as a whole: size, variant, givens, solution status (`status`,
/// the analysis' [`status_text`] or what a face says while the verdict is being worked out).
pub fn summarize(puzzle: &Puzzle, status: String) -> Vec<String> {
    let geometry = &puzzle.geometry();
    // The title is not repeated here: the faces already name the puzzle by it.
    let empty = puzzle.givens.len() - puzzle.givens_count();
    vec![
        puzzle_kind(puzzle),
        format!("{} givens, {empty} empty cells", puzzle.givens_count()),
        status,
        format!(
            "symmetry of the givens: {}",
            super::setter::symmetry(geometry, &puzzle.clues()).name()
        ),
    ]
}

/// "9×9 classic sudoku", "9×9 sudoku with regions of its own, 30 cages and anti-knight".
pub fn puzzle_kind(puzzle: &Puzzle) -> String {
    let size = puzzle.size.label();
    let variant = puzzle.variant;
    let Some(rules) = puzzle.rules.as_deref().filter(|r| !r.is_empty()) else {
        return format!("{size} {} sudoku", variant.name());
    };
    let mut parts: Vec<String> = Vec::new();
    if let Some(regions) = &rules.regions {
        let none = regions.of_cell.iter().all(|&r| r == crate::grid::NO_REGION);
        parts.push(match none {
            true => "no boxes".to_string(),
            false => "regions of its own".to_string(),
        });
    }
    let mut families: Vec<(String, usize, bool)> = Vec::new();
    for constraint in &rules.constraints {
        let name = constraint.listed_name();
        // "cage 15", "little killer 12", "white dot 3": the family without its number.
        let family = match name.rsplit_once(' ') {
            Some((head, number)) if number.parse::<u32>().is_ok() => head.to_string(),
            _ => name,
        };
        match families.iter_mut().find(|(f, _, _)| *f == family) {
            Some((_, count, _)) => *count += 1,
            None => families.push((family, 1, constraint.is_global())),
        }
    }
    for (family, count, global) in families {
        parts.push(match (global, count) {
            (true, _) => family,
            (false, 1) => format!("1 {family}"),
            (false, _) if family.ends_with('s') => format!("{count} {family}"),
            (false, _) => format!("{count} {family}s"),
        });
    }
    let base = match variant {
        Variant::Classic => format!("{size} sudoku"),
        _ => format!("{size} {} sudoku", variant.name()),
    };
    format!("{base} with {}", and_list(&parts))
}

/// The verdict's line of [`summarize`] ("unique", "2+ solutions", "undecided: …").
pub fn status_text(geometry: &Geometry, analysis: &Analysis) -> String {
    let count = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    match &analysis.verdict {
        Verdict::Broken => {
            let mut parts = Vec::new();
            if !analysis.conflicts.is_empty() {
                parts.push(count(analysis.conflicts.len(), "conflict"));
            }
            if !analysis.impossible.is_empty() {
                parts.push(count(analysis.impossible.len(), "impossible cell"));
            }
            if !analysis.no_place.is_empty() {
                parts.push(count(analysis.no_place.len(), "digit with no place"));
            }
            format!("no solution: {}", parts.join(", "))
        }
        Verdict::NoSolution => "no solution".to_string(),
        Verdict::Unique(_) if analysis.full => "solved".to_string(),
        Verdict::Unique(_) => "exactly one solution".to_string(),
        Verdict::Several {
            first,
            second,
            differ,
        } => format!(
            "several solutions ({} can be {} or {})",
            geometry.cell_name(*differ),
            digit_char(first[*differ]),
            digit_char(second[*differ])
        ),
        Verdict::Undecided { stop, .. } => format!("undecided: the search {}", stop_text(*stop)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cheap marks are the hover's, on every empty cell of a classic puzzle and of variants
    /// (a killer's cages, thermometers, kropki dots).
    #[test]
    fn cell_marks_are_the_marks_explain_cell_gives() {
        let texts = [
            include_str!("../../../../puzzles/easy.sudoku"),
            include_str!("../../../../puzzles/variants/killer.sudoku"),
            include_str!("../../../../puzzles/variants/thermo.sudoku"),
            include_str!("../../../../puzzles/variants/kropki.sudoku"),
        ];
        for text in texts {
            let document = crate::format::parse(text);
            let puzzle = &document.puzzles[0];
            for cell in 0..puzzle.givens.len() {
                let explained = match explain_cell(puzzle, cell).state {
                    CellState::Empty { marks, .. } => Some(marks),
                    CellState::Given { .. } => None,
                };
                assert_eq!(cell_marks(puzzle, cell), explained, "cell {cell} of {text}");
            }
            assert!(puzzle.givens.contains(&0), "{text}");
        }
    }
}
