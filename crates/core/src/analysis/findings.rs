//! Placing an analysis in the source: one finding per problem, at the spans of its cells, with
//! messages that name cells and units the classic way.

use super::verdict::{Analysis, Conflict, NoPlace, Verdict};
use super::wording::{reason_text, shared_unit_names, stop_text};
use crate::engine::{self, Digits, Marks, Reason, Stop};
use crate::finding::{plural, Code, Finding, Related, Severity, Span};
use crate::format::{self, Puzzle};
use crate::grid::{digit_char, Geometry};

/// The findings of one analysed puzzle, placed at its spans.
pub fn findings(puzzle: &Puzzle, analysis: &Analysis) -> Vec<Finding> {
    let geometry = &puzzle.geometry();
    let mut out = conflict_findings(geometry, puzzle, &analysis.conflicts);
    out.extend(super::broken::broken_findings(
        geometry,
        puzzle,
        &analysis.broken,
    ));
    if !analysis.impossible.is_empty() || !analysis.no_place.is_empty() {
        let marks = engine::pencil_marks(geometry, &puzzle.givens);
        for &cell in &analysis.impossible {
            out.push(impossible_finding(geometry, puzzle, &marks, cell));
        }
        for no_place in &analysis.no_place {
            out.push(no_place_finding(geometry, puzzle, &marks, no_place));
        }
    }
    // A variant puzzle without a solution: its rules' own pencil marks often show why, each
    // digit's reason named, in place of the bare verdict.
    let explained = match (&puzzle.rules, &analysis.verdict) {
        (Some(rules), Verdict::NoSolution) => {
            super::rule_reasons::no_solution_findings(geometry, puzzle, rules)
        }
        _ => Vec::new(),
    };
    if explained.is_empty() {
        out.extend(verdict_finding(geometry, puzzle, analysis));
    }
    out.extend(explained);
    out.extend(super::marks::mark_findings(puzzle));
    out.extend(super::marks::entry_findings(puzzle));
    out
}

/// One finding per cell of a conflict and other cell it clashes with, naming every shared unit.
fn conflict_findings(geometry: &Geometry, puzzle: &Puzzle, conflicts: &[Conflict]) -> Vec<Finding> {
    let mut pairs: Vec<(usize, usize, u8)> = Vec::new();
    for conflict in conflicts {
        for &a in &conflict.cells {
            for &b in conflict.cells.iter().filter(|&&b| b != a) {
                if !pairs.contains(&(a, b, conflict.digit)) {
                    pairs.push((a, b, conflict.digit));
                }
            }
        }
    }
    pairs.sort_unstable();
    pairs
        .into_iter()
        .map(|(cell, other, digit)| {
            let units = shared_unit_names(geometry, cell, other);
            let d = digit_char(digit);
            let finding = Finding::error(
                Code::Conflict,
                puzzle.cell_span(cell),
                format!(
                    "{d} appears twice in {units}: {} and {}",
                    geometry.cell_name(cell),
                    geometry.cell_name(other)
                ),
            );
            finding.with_related(vec![Related::new(
                puzzle.cell_span(other),
                format!("the other {d} in {units}, at {}", geometry.cell_name(other)),
            )])
        })
        .collect()
}

fn impossible_finding(geometry: &Geometry, puzzle: &Puzzle, marks: &Marks, cell: usize) -> Finding {
    let reasons: Vec<String> = Digits::all(geometry.side())
        .iter()
        .map(|d| {
            format!(
                "{} ({})",
                digit_char(d),
                reason_text(geometry, marks.reason(cell, d))
            )
        })
        .collect();
    let finding = Finding::error(
        Code::ImpossibleCell,
        puzzle.cell_span(cell),
        format!(
            "no digit fits in {}: {}",
            geometry.cell_name(cell),
            reasons.join(", ")
        ),
    );
    finding.with_related(related_peers(geometry, puzzle, marks, cell))
}

/// The peers that took digits from `cell`, one related location each.
fn related_peers(geometry: &Geometry, puzzle: &Puzzle, marks: &Marks, cell: usize) -> Vec<Related> {
    let mut related: Vec<Related> = Vec::new();
    for digit in Digits::all(geometry.side()).iter() {
        if let Some(Reason::Peer { peer, .. }) = marks.reason(cell, digit) {
            let span = puzzle.cell_span(peer as usize);
            if !related.iter().any(|r| r.span == span) {
                related.push(Related::new(
                    span,
                    format!(
                        "{} takes {}",
                        geometry.cell_name(peer as usize),
                        digit_char(digit)
                    ),
                ));
            }
        }
    }
    related
}

fn no_place_finding(
    geometry: &Geometry,
    puzzle: &Puzzle,
    marks: &Marks,
    no_place: &NoPlace,
) -> Finding {
    let unit = &geometry.units[no_place.unit];
    let empties: Vec<usize> = unit
        .cells
        .iter()
        .map(|&c| c as usize)
        .filter(|&c| puzzle.givens[c] == 0)
        .collect();
    let d = digit_char(no_place.digit);
    let unit_name = geometry.unit_name(no_place.unit);
    let why: Vec<String> = empties
        .iter()
        .map(|&c| {
            format!(
                "{} ({})",
                geometry.cell_name(c),
                reason_text(geometry, marks.reason(c, no_place.digit))
            )
        })
        .collect();
    let message = if why.is_empty() {
        format!("{d} has no place in {unit_name}")
    } else {
        format!("{d} has no place in {unit_name}: {}", why.join(", "))
    };
    let span = unit_span(puzzle, &unit.cells, &empties);
    let mut finding = Finding::error(Code::NoPlace, span, message);
    finding.related = empties
        .iter()
        .skip(1)
        .map(|&c| {
            Related::new(
                puzzle.cell_span(c),
                format!("{} cannot hold {d}", geometry.cell_name(c)),
            )
        })
        .collect();
    finding
}

/// Where a unit-wide finding goes: the whole row when the unit's cells sit on one line of the
/// source, else its first empty cell (a column or box spans lines full of other text).
pub(super) fn unit_span(puzzle: &Puzzle, cells: &[u16], empties: &[usize]) -> Span {
    let first = puzzle.cell_span(cells[0] as usize);
    let last = puzzle.cell_span(cells[cells.len() - 1] as usize);
    let is_row = cells.windows(2).all(|w| w[1] == w[0] + 1);
    if is_row && puzzle.layout == format::Layout::Block {
        Span::new(first.start, last.end)
    } else {
        empties.first().map_or(first, |&c| puzzle.cell_span(c))
    }
}

fn verdict_finding(geometry: &Geometry, puzzle: &Puzzle, analysis: &Analysis) -> Option<Finding> {
    let at = puzzle.anchor();
    match &analysis.verdict {
        Verdict::Broken => None,
        Verdict::NoSolution => Some(no_solution_finding(geometry, puzzle, analysis)),
        Verdict::Unique(_) if analysis.full => {
            Some(Finding::new(Severity::Hint, Code::Solved, at, "solved"))
        }
        Verdict::Unique(_) => None,
        Verdict::Several {
            first,
            second,
            differ,
        } => Some(Finding::warning(
            Code::SeveralSolutions,
            at,
            format!(
                "several solutions: {} can be {} or {}",
                geometry.cell_name(*differ),
                digit_char(first[*differ]),
                digit_char(second[*differ])
            ),
        )),
        Verdict::Undecided { stop, found } => Some(Finding::new(
            Severity::Info,
            Code::Undecided,
            at,
            format!(
                "undecided: the search {} before it could tell {}",
                stop_text(*stop),
                if found.is_some() {
                    "whether the solution it found is the only one"
                } else {
                    "whether there is a solution"
                }
            ),
        )),
    }
}

/// A given the puzzle does not need (information): the setter may remove it.
pub fn redundant_finding(puzzle: &Puzzle, cell: usize) -> Finding {
    let geometry = &puzzle.geometry();
    let name = geometry.cell_name(cell);
    Finding::new(
        Severity::Info,
        Code::RedundantGiven,
        puzzle.cell_span(cell),
        format!("{name} is not needed: without it the puzzle still has one solution"),
    )
}

/// What a setter asks of a unique puzzle's givens (information, at the puzzle): how many, whether
/// the puzzle is minimal, and their symmetry; `redundant` is `Err` when the budget ran out
/// before every given was tried.
pub fn givens_finding(puzzle: &Puzzle, redundant: Result<&[usize], Stop>) -> Finding {
    let geometry = &puzzle.geometry();
    let minimal = match redundant {
        Ok([]) => "minimal".to_string(),
        Ok(cells) => format!("not minimal ({})", plural(cells.len(), "redundant given")),
        Err(stop) => format!("minimality not decided: {}", stop_words(stop)),
    };
    let symmetry = super::setter::symmetry(geometry, &puzzle.clues());
    Finding::new(
        Severity::Info,
        Code::Givens,
        puzzle.anchor(),
        format!(
            "{}, {minimal}, symmetry: {}",
            plural(puzzle.givens_count(), "given"),
            symmetry.name()
        ),
    )
}

/// What a setter asks of a puzzle with several solutions (code `givens`, at the puzzle): where
/// they differ and the givens that would leave one. `solutions differ in 2 cells (of 2
/// solutions): H1 {5 7}, H2 {5 7}; any one of these givens leaves one solution: 5 at H1, 7 at
/// H1, 5 at H2, 7 at H2`.
pub(crate) fn differences_finding(
    puzzle: &Puzzle,
    differences: &super::setter::Differences,
) -> Finding {
    const SHOWN: usize = 12;
    let geometry = &puzzle.geometry();
    let spaced = |digits: Digits| {
        let list: Vec<String> = digits.iter().map(|d| digit_char(d).to_string()).collect();
        list.join(" ")
    };
    let list = |items: Vec<String>| {
        let more = items.len().saturating_sub(SHOWN);
        let mut shown = items.into_iter().take(SHOWN).collect::<Vec<_>>().join(", ");
        if more > 0 {
            shown.push_str(&format!(" and {more} more"));
        }
        shown
    };
    let cells: Vec<String> = differences
        .cells
        .iter()
        .map(|&(cell, digits)| format!("{} {{{}}}", geometry.cell_name(cell), spaced(digits)))
        .collect();
    let sample = match differences.complete {
        true => plural(differences.sample, "solution"),
        false => format!("the first {} found", plural(differences.sample, "solution")),
    };
    let mut message = format!(
        "solutions differ in {} (of {sample}): {}",
        plural(differences.cells.len(), "cell"),
        list(cells)
    );
    if !differences.unique_makers.is_empty() {
        let makers: Vec<String> = differences
            .unique_makers
            .iter()
            .map(|&(cell, digit)| format!("{} at {}", digit_char(digit), geometry.cell_name(cell)))
            .collect();
        message.push_str(&format!(
            "; any one of these givens leaves one solution: {}",
            list(makers)
        ));
    }
    Finding::new(Severity::Info, Code::Givens, puzzle.anchor(), message)
}

/// "no solution: cage 10 at A1 A2 and thermo at A2 A3 A4 cannot hold together with the givens
/// A4 (3); without any one of them there is a solution", each part as related information.
fn rule_core_finding(
    geometry: &Geometry,
    puzzle: &Puzzle,
    rules: &crate::rules::Rules,
    core: &super::verdict::Core,
) -> Finding {
    let label = |i: usize| rules.constraints[i].label(geometry);
    let labels: Vec<String> = core.constraints.iter().map(|&i| label(i)).collect();
    let givens: Vec<String> = core
        .cells
        .iter()
        .map(|&c| {
            format!(
                "{} ({})",
                geometry.cell_name(c),
                digit_char(puzzle.givens[c])
            )
        })
        .collect();
    let with = match givens.is_empty() {
        true => "on an empty grid".to_string(),
        false => format!("with the givens {}", givens.join(", ")),
    };
    let holds = match labels.len() {
        1 => "cannot hold",
        _ => "cannot hold together",
    };
    let which = core_words(core);
    let message = format!(
        "no solution: {} {holds} {with}; {which}",
        super::wording::and_list(&labels)
    );
    let mut related: Vec<Related> = core
        .constraints
        .iter()
        .map(|&i| {
            Related::new(
                rules.constraints[i].line,
                format!("{}, part of what leaves no solution", label(i)),
            )
        })
        .collect();
    related.extend(core.cells.iter().map(|&c| {
        let name = geometry.cell_name(c);
        let d = digit_char(puzzle.givens[c]);
        Related::new(
            puzzle.cell_span(c),
            format!("{name} holds {d}, part of what leaves no solution"),
        )
    }));
    Finding::error(Code::NoSolution, puzzle.anchor(), message).with_related(related)
}

/// Whether a no-solution core is minimal, or why it may not be.
fn core_words(core: &super::verdict::Core) -> String {
    match core.cut {
        None => "without any one of them there is a solution".to_string(),
        Some(stop) => format!("{} before the set could be made smaller", stop_words(stop)),
    }
}

/// Why a check stopped short, in a few words.
fn stop_words(stop: Stop) -> &'static str {
    match stop {
        Stop::Nodes => "the search budget ran out",
        Stop::Deadline => "the time ran out",
        Stop::Cancelled => "cancelled",
    }
}

/// No solution, with the givens that together leave none (the core) as related locations; on a
/// variant puzzle, the constraints among them too.
fn no_solution_finding(geometry: &Geometry, puzzle: &Puzzle, analysis: &Analysis) -> Finding {
    let at = puzzle.anchor();
    let core = analysis
        .core
        .as_ref()
        .filter(|c| !c.cells.is_empty() || !c.constraints.is_empty());
    let Some(core) = core else {
        let message = if analysis.has_rules {
            "no solution: the empty cells cannot be filled so that each unit holds every digit \
             once and every constraint holds"
        } else {
            "no solution: the empty cells cannot be filled so that each unit holds every digit once"
        };
        return Finding::error(Code::NoSolution, at, message);
    };
    if let Some(rules) = puzzle
        .rules
        .as_deref()
        .filter(|_| !core.constraints.is_empty())
    {
        return rule_core_finding(geometry, puzzle, rules, core);
    }
    let names: Vec<String> = core.cells.iter().map(|&c| geometry.cell_name(c)).collect();
    let count = core.cells.len();
    let which = core_words(core);
    let message = format!(
        "no solution: these {count} givens leave none between them: {}; {which}",
        names.join(", ")
    );
    let related = core
        .cells
        .iter()
        .map(|&c| {
            let d = digit_char(puzzle.givens[c]);
            let name = geometry.cell_name(c);
            Related::new(
                puzzle.cell_span(c),
                format!("{name} holds {d}, one of the {count} givens that leave no solution"),
            )
        })
        .collect();
    Finding::error(Code::NoSolution, at, message).with_related(related)
}
