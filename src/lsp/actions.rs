//! Code actions: fill one cell whose pencil marks leave a single digit, fill every cell
//! propagation forces, solve the whole puzzle, apply the next step of the human-style solver,
//! and the three hints (commands that show the next step, at three levels, without an edit). Each is a `WorkspaceEdit` that replaces only
//! empty marks (built by `format::fill_edits`), versioned when the client supports it so that an
//! edit computed for an older text is refused by the client instead of misapplied. A client that
//! resolves code actions gets them without their edits (built on a view deferring them, each
//! saying where it was [`Offered`]); [`resolve`] works the chosen one's out again.

use std::sync::Arc;

use tower_lsp_server::lsp_types::{
    CodeAction, CodeActionDisabled, CodeActionKind, CodeActionOrCommand,
};

pub use super::edits::Offered;
use super::edits::{action, solve};
use super::view::View;
use super::{commands, jobs, ratings, remembered};
use crate::analysis::{self, Verdict};
use crate::convert::links;
use crate::engine;
use crate::format::{self, Edit, Puzzle};
use crate::grid::{self, digit_char, Geometry};
use crate::rules::Rules;

/// The actions offered at a byte offset, filtered by the client's `only` kinds.
pub fn at(view: &View, offset: usize, only: Option<&[CodeActionKind]>) -> Vec<CodeActionOrCommand> {
    let convert = convert_link(view, offset);
    let Some((index, puzzle)) = view.puzzle_at(offset) else {
        return [convert]
            .into_iter()
            .flatten()
            .filter(|action| wanted(action, only))
            .map(CodeActionOrCommand::CodeAction)
            .collect();
    };
    let mut actions = vec![
        convert,
        fill_cell(view, puzzle, offset),
        remove_redundant(view, puzzle, offset),
        fill_forced(view, puzzle),
        solve(view, index, puzzle),
        add_given(view, index, puzzle),
    ];
    actions.extend(
        remove_ruled_out_here(view, puzzle, offset)
            .into_iter()
            .map(Some),
    );
    actions.extend(mark_actions(view, puzzle));
    if commands::unique(view, index) && puzzle.givens.contains(&0) {
        actions.push(match puzzle.marks {
            Some(_) => next_step_on_marks(view, puzzle),
            None => next_step(view, puzzle),
        });
        actions.extend(hints(view, puzzle).into_iter().map(Some));
    }
    actions.extend(link_actions(view, puzzle).into_iter().map(Some));
    actions
        .into_iter()
        .flatten()
        .filter(|action| wanted(action, only))
        .map(CodeActionOrCommand::CodeAction)
        .collect()
}

/// "Fill E5 with 7": the cell under the cursor, when its pencil marks hold a single digit.
fn fill_cell(view: &View, puzzle: &Puzzle, offset: usize) -> Option<CodeAction> {
    let cell = puzzle
        .span
        .touches(offset)
        .then(|| puzzle.cell_at(offset))??;
    let digit = analysis::cell_marks(puzzle, cell)?.only()?;
    let edit = place(puzzle, cell, digit);
    let name = puzzle.geometry().cell_name(cell);
    let mut action = action(
        view,
        format!("Fill {name} with {}", digit_char(digit)),
        CodeActionKind::QUICKFIX,
        vec![edit],
    );
    action.is_preferred = Some(true);
    Some(action)
}

/// "Remove the redundant given C3": on a given the rated puzzle does not need, for a setter
/// (the `redundantGivens` setting, which shows them), never in a filled-in grid.
fn remove_redundant(view: &View, puzzle: &Puzzle, offset: usize) -> Option<CodeAction> {
    if !view.settings.redundant_givens || ratings::filled_in(puzzle) {
        return None;
    }
    let cell = puzzle
        .span
        .touches(offset)
        .then(|| puzzle.cell_at(offset))??;
    let rated = view.ratings.get(puzzle)?;
    if puzzle.givens[cell] == 0 || !rated.redundant.as_ref()?.contains(&cell) {
        return None;
    }
    let name = puzzle.geometry().cell_name(cell);
    let every = format::every_digit(puzzle.size.side());
    let edit = format::cell_edit(puzzle, cell, every, empty_mark(view, puzzle));
    let title = format!("Remove the redundant given {name} (the puzzle stays unique)");
    Some(action(view, title, CodeActionKind::QUICKFIX, vec![edit]))
}

/// The mark the puzzle writes for an empty cell: that of its first empty cell, else `.`.
fn empty_mark(view: &View, puzzle: &Puzzle) -> char {
    let rope = &view.snapshot.rope;
    (0..puzzle.givens.len())
        .filter(|&c| puzzle.givens[c] == 0)
        .map(|c| puzzle.cell_span(c))
        .find(|span| span.end == span.start + 1 && span.end <= rope.len_bytes())
        .map(|span| char::from(rope.byte(span.start)))
        .filter(|&c| grid::is_empty_mark(c))
        .unwrap_or('.')
}

/// "Add 5 at C3 (the puzzle is then unique)": for a puzzle with several solutions, the given
/// that removes the most of them, worked out on the spot within a small budget.
fn add_given(view: &View, index: usize, puzzle: &Puzzle) -> Option<CodeAction> {
    if !matches!(view.analysis(index).verdict, Verdict::Several { .. }) {
        return None;
    }
    let geometry = &puzzle.geometry();
    let budget = jobs::on_demand_budget();
    let rules = puzzle.rules.as_deref();
    let extra = analysis::best_extra_given(geometry, rules, &puzzle.clues(), &budget)?;
    let name = geometry.cell_name(extra.cell);
    let digit = digit_char(extra.digit);
    let then = match (extra.unique_after, extra.complete) {
        (Some(true), _) => "the puzzle is then unique".to_string(),
        (_, true) => format!("{} of {} solutions remain", extra.left, extra.sample),
        (Some(false), false) => format!(
            "{} of the first {} solutions found remain; still several",
            extra.left, extra.sample
        ),
        (None, false) => format!(
            "{} of the first {} solutions found remain",
            extra.left, extra.sample
        ),
    };
    let edit = place(puzzle, extra.cell, extra.digit);
    let title = format!("Add the given {digit} at {name} ({then})");
    Some(action(view, title, CodeActionKind::QUICKFIX, vec![edit]))
}

/// "Fill all forced cells": every digit propagation places, without search (on a variant
/// puzzle, the rules' propagation too: a cage's sum, a thermometer's order…).
fn fill_forced(view: &View, puzzle: &Puzzle) -> Option<CodeAction> {
    let geometry = &puzzle.geometry();
    // Digits "forced" on the way to a contradiction are not worth writing in.
    let placed = match &puzzle.rules {
        Some(rules) => placed_under(geometry, rules, &puzzle.givens)?,
        None => {
            let propagation = engine::propagate(geometry, &puzzle.givens);
            if propagation.contradiction.is_some() {
                return None;
            }
            let placed = propagation.placed.iter();
            placed.map(|p| (p.cell, p.digit)).collect()
        }
    };
    let mut edits = placed
        .into_iter()
        .filter(|&(cell, _)| puzzle.givens[cell] == 0)
        .map(|(cell, digit)| place(puzzle, cell, digit))
        .collect::<Vec<_>>();
    if edits.is_empty() {
        return None;
    }
    edits.sort_by_key(|edit| edit.span.start); // in text order, as `fill_edits` gives them
    let title = format!("Fill all forced cells ({})", edits.len());
    Some(action(view, title, CodeActionKind::REFACTOR_REWRITE, edits))
}

/// The cells the rules' propagation leaves one digit, with it; `None` on a contradiction.
/// Remembered per grid: the client asks for the code actions at every move of the cursor.
fn placed_under(
    geometry: &Geometry,
    rules: &Arc<Rules>,
    givens: &[u8],
) -> Option<Vec<(usize, u8)>> {
    let masks = remembered::propagated(geometry, rules, givens)?;
    let single = |mask: u16| engine::Digits(u32::from(mask)).only();
    let placed = masks.iter().enumerate();
    Some(
        placed
            .filter_map(|(cell, &m)| single(m).map(|d| (cell, d)))
            .collect(),
    )
}

/// The titles of the three hint actions, by level.
pub const HINT_TITLES: [&str; 3] = [
    "Hint: where to look",
    "Hint: which technique",
    "Hint: the whole step",
];

/// "Hint: where to look" and the others: each runs the hint command at its level.
fn hints(view: &View, puzzle: &Puzzle) -> Vec<CodeAction> {
    (1..=3u8)
        .map(|level| {
            let title = HINT_TITLES[usize::from(level) - 1].to_string();
            CodeAction {
                title: title.clone(),
                // The empty kind: offered when no kind is asked for, left out when one is.
                kind: Some(CodeActionKind::EMPTY),
                command: Some(commands::command(
                    view,
                    puzzle,
                    title,
                    commands::HINT,
                    Some(level),
                )),
                ..CodeAction::default()
            }
        })
        .collect()
}

/// *Open in SudokuPad* and *Copy f-puzzles link*: commands, so that the link (a compressed
/// export of the puzzle) is made when asked for, not at every move of the cursor.
fn link_actions(view: &View, puzzle: &Puzzle) -> Vec<CodeAction> {
    [
        ("Open in SudokuPad", commands::OPEN_IN_SUDOKUPAD),
        ("Copy f-puzzles link", commands::COPY_FPUZZLES_LINK),
    ]
    .into_iter()
    .map(|(title, name)| CodeAction {
        title: title.to_string(),
        kind: Some(CodeActionKind::EMPTY),
        command: Some(commands::command(
            view,
            puzzle,
            title.to_string(),
            name,
            None,
        )),
        ..CodeAction::default()
    })
    .collect()
}

/// *Convert link to .sudoku*: on a line holding an f-puzzles, SudokuPad or sigh link, the line
/// replaced by the puzzle it holds, as `sudoku-lsp import` writes it; shown disabled with the
/// reason (or not at all) when the link holds no puzzle it can read.
fn convert_link(view: &View, offset: usize) -> Option<CodeAction> {
    let line = view.line_span(offset);
    let text = view
        .snapshot
        .rope
        .get_byte_slice(line.start..line.end)?
        .to_string();
    let trimmed = text.trim();
    let linkish = trimmed.starts_with("http://")
        || trimmed.starts_with("https://")
        || trimmed.starts_with("sudokupad://");
    if !linkish || trimmed.contains(char::is_whitespace) {
        return None;
    }
    let title = "Convert link to .sudoku".to_string();
    match links::import(trimmed) {
        Ok(imported) if imported.errors.is_empty() => {
            let mut title = title;
            if let [first, rest @ ..] = &imported.warnings[..] {
                let more = match rest.len() {
                    0 => String::new(),
                    n => format!(" and {n} more"),
                };
                title = format!("{title} (note: {first}{more})");
            }
            let edit = Edit {
                span: line,
                text: imported.text.trim_end_matches('\n').to_string(),
            };
            Some(action(
                view,
                title,
                CodeActionKind::REFACTOR_REWRITE,
                vec![edit],
            ))
        }
        Ok(imported) => disabled(view, title, imported.errors.join("; ")),
        Err(why) => disabled(view, title, why),
    }
}

/// An action shown disabled with its reason, for clients that show such; none for others.
fn disabled(view: &View, title: String, reason: String) -> Option<CodeAction> {
    view.config.disabled_support.then(|| CodeAction {
        title,
        kind: Some(CodeActionKind::REFACTOR_REWRITE),
        disabled: Some(CodeActionDisabled { reason }),
        ..CodeAction::default()
    })
}

/// "Apply next step: Hidden single: 7 in box 5 can only go in E5": the placements of the first
/// step of the path that places a digit. The file holds no pencil marks, so the steps before it
/// that only eliminate are named in the title.
fn next_step(view: &View, puzzle: &Puzzle) -> Option<CodeAction> {
    let lead = ratings::lead(puzzle, &view.ratings);
    let title = analysis::prose::next_step_title(&lead)?;
    let step = lead.last()?;
    let mut edits: Vec<Edit> = step
        .placements
        .iter()
        .filter(|p| puzzle.givens[p.cell as usize] == 0)
        .map(|p| place(puzzle, p.cell as usize, p.digit))
        .collect();
    edits.sort_by_key(|edit| edit.span.start);
    Some(action(view, title, CodeActionKind::REFACTOR_REWRITE, edits))
}

/// The edit that writes `digit` into `cell`, in the puzzle's own form (a padded group in a
/// pencil-mark grid, the cell's places in a line of them).
fn place(puzzle: &Puzzle, cell: usize, digit: u8) -> Edit {
    format::digit_edit(puzzle, cell, digit)
}

/// "Remove 7 from E2 (E5 holds 7)": each mark of the cell under the cursor that a placed peer
/// rules out.
fn remove_ruled_out_here(view: &View, puzzle: &Puzzle, offset: usize) -> Vec<CodeAction> {
    let Some(marks) = puzzle.marks.as_deref() else {
        return Vec::new();
    };
    let Some(cell) = puzzle
        .span
        .touches(offset)
        .then(|| puzzle.cell_at(offset))
        .flatten()
    else {
        return Vec::new();
    };
    let geometry = &puzzle.geometry();
    analysis::ruled_out(puzzle)
        .into_iter()
        .filter(|r| r.cell == cell)
        .map(|r| {
            let d = digit_char(r.digit);
            let edit = format::cell_edit(puzzle, cell, marks[cell] & !(1 << (r.digit - 1)), '.');
            let title = format!(
                "Remove {d} from {} ({} holds {d})",
                geometry.cell_name(cell),
                geometry.cell_name(r.peer)
            );
            let mut action = action(view, title, CodeActionKind::QUICKFIX, vec![edit]);
            action.is_preferred = Some(true);
            action
        })
        .collect()
}

/// The actions on a puzzle's pencil marks: fill them in afresh, remove those placed digits
/// rule out, remove naked twins; each offered when it changes something.
fn mark_actions(view: &View, puzzle: &Puzzle) -> Vec<Option<CodeAction>> {
    if !puzzle.givens.contains(&0) {
        return Vec::new();
    }
    let current = analysis::marks_of(puzzle);
    let count = |after: &[format::DigitSet]| -> u32 {
        current
            .iter()
            .zip(after)
            .map(|(a, b)| (a & !b).count_ones())
            .sum()
    };
    let mut out = Vec::new();
    let filled = analysis::fill_marks(puzzle);
    let (text, base) = view.snapshot.lines_around(puzzle.span);
    let marks_edits =
        |after: &[format::DigitSet]| analysis::marks_edits(puzzle, after, &text, base);
    let writable = |after: &[format::DigitSet]| analysis::marks_unwritable(puzzle, after).is_none();
    if writable(&filled) && (puzzle.marks.is_none() || filled != current) {
        let edits = marks_edits(&filled);
        let title = "Fill in pencil marks".to_string();
        out.push(Some(action(
            view,
            title,
            CodeActionKind::REFACTOR_REWRITE,
            edits,
        )));
    }
    if let Some(after) = analysis::without_ruled_out(puzzle).filter(|a| writable(a)) {
        let title = format!(
            "Remove every mark a placed digit rules out ({})",
            crate::finding::plural(count(&after) as usize, "mark")
        );
        let edits = marks_edits(&after);
        out.push(Some(action(view, title, CodeActionKind::QUICKFIX, edits)));
    }
    if let Some(after) = analysis::remove_naked_twins(puzzle).filter(|a| writable(a)) {
        let title = format!(
            "Remove naked twins ({})",
            crate::finding::plural(count(&after) as usize, "mark")
        );
        let edits = marks_edits(&after);
        out.push(Some(action(
            view,
            title,
            CodeActionKind::REFACTOR_REWRITE,
            edits,
        )));
    }
    out
}

/// "Apply next step: …" on a puzzle written with pencil marks: the simplest step on the marks
/// as they are, its placements and eliminations written into them.
fn next_step_on_marks(view: &View, puzzle: &Puzzle) -> Option<CodeAction> {
    let marks = puzzle.marks.as_deref()?;
    let step = analysis::next_step(puzzle, &jobs::on_demand_budget())?;
    let mut after = marks.to_vec();
    for e in &step.eliminations {
        after[e.cell as usize] &= !(1 << (e.digit - 1));
    }
    let (text, base) = view.snapshot.lines_around(puzzle.span);
    // A placement is written as a placed digit, the other changes as marks (a cell left with
    // one of them stays a mark).
    for p in &step.placements {
        after[p.cell as usize] = marks[p.cell as usize];
    }
    let mut edits = analysis::marks_edits(puzzle, &after, &text, base);
    edits.extend(
        step.placements
            .iter()
            .map(|p| analysis::place_edit(puzzle, p.cell as usize, p.digit)),
    );
    if edits.is_empty() {
        return None;
    }
    let title = format!("Apply next step: {}", step.text);
    Some(action(view, title, CodeActionKind::REFACTOR_REWRITE, edits))
}

/// Kinds are hierarchical: asking for `refactor` includes `refactor.rewrite`.
fn wanted(action: &CodeAction, only: Option<&[CodeActionKind]>) -> bool {
    let (Some(only), Some(kind)) = (only, &action.kind) else {
        return true;
    };
    only.iter().any(|asked| {
        let (asked, kind) = (asked.as_str(), kind.as_str());
        kind == asked || kind.starts_with(&format!("{asked}."))
    })
}

/// Why an offered action cannot be resolved.
pub enum Unresolved {
    /// The text changed since it was offered.
    Moved,
    /// The same text no longer offers it (it cannot happen for an unchanged text, unless the
    /// client changed the title).
    Gone,
}

/// `action` with its edit, worked out again where it was `offered`.
pub fn resolve(
    view: &View,
    mut action: CodeAction,
    offered: &Offered,
) -> Result<CodeAction, Unresolved> {
    if view.snapshot.version != offered.version {
        return Err(Unresolved::Moved);
    }
    let again = at(view, view.offset(offered.position), None);
    let edit = again.into_iter().find_map(|candidate| match candidate {
        CodeActionOrCommand::CodeAction(c) if c.title == action.title => c.edit,
        _ => None,
    });
    action.edit = Some(edit.ok_or(Unresolved::Gone)?);
    Ok(action)
}
