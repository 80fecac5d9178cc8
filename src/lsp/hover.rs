//! Hover text: a cell's name, units and state, or a puzzle's summary, as Markdown or plain text.
//!
//! The wording comes from `analysis::explain_cell` and `analysis::summarize`; this module only
//! lays it out. For an empty cell the pencil marks are the first braced set in the text (the
//! heading holds no braces), so a reader (or a test) looking for `{…}` finds them first.

use tower_lsp_server::lsp_types::{Hover, HoverContents, MarkupContent, MarkupKind, Position};

use super::config::Style;
use super::view::{metadata_spans, View};
use super::{commands, jobs, ratings, remembered};
use crate::analysis::prose::{self, constraint, summaries, summary, Text};
use crate::analysis::{self, Verdict};
use crate::format::Puzzle;
use crate::logic::Step;

/// At most this many puzzles are summarised when hovering file-level metadata.
const MAX_SUMMARIES: usize = 8;

/// The hover at a position: a cell, a puzzle's own title or metadata, or the file's metadata.
pub fn answer(view: &View, position: Position) -> Option<Hover> {
    let offset = view.offset(position);
    let style = view.config.hover_style;
    let (value, span) = match view.puzzle_at(offset) {
        Some((index, puzzle)) => {
            match (cell_under(puzzle, offset), constraint_under(puzzle, offset)) {
                (Some(cell), _) => {
                    let explanation =
                        analysis::explain_cell_with(puzzle, cell, &remembered::propagated);
                    let mut value = prose::cell(&explanation, style);
                    if puzzle.givens[cell] == 0 {
                        if let Some(step) = next_step_at(view, index, puzzle, cell) {
                            value.push_str("\n\n");
                            value.push_str(&Text::one(style, &format!("Next step: {}", step.text)));
                        }
                        if let Some(line) = across_solutions(view, index, puzzle, cell) {
                            value.push_str("\n\n");
                            value.push_str(&Text::one(style, &line));
                        }
                    }
                    // An untitled puzzle's first row is its title line: it tells the rating too.
                    if puzzle.anchor() == puzzle.first_row && puzzle.first_row.touches(offset) {
                        let lines = commands::rating_lines(view, index, puzzle);
                        value.push_str("\n\n");
                        value.push_str(&summary(&heading(view, index, puzzle), &lines, style));
                    }
                    (value, puzzle.cell_span(cell))
                }
                (None, Some(constraint_index)) => {
                    let help = analysis::explain_constraint(puzzle, constraint_index)?;
                    let line = puzzle.rules.as_deref()?.constraints[constraint_index].line;
                    (constraint(&help, style), line)
                }
                // Its title or metadata, a border line, a one-line puzzle's trailing text.
                (None, None) => {
                    let mut lines = analysis::summarize(puzzle, status(view, index, puzzle));
                    lines.extend(commands::rating_lines(view, index, puzzle));
                    let heading = heading(view, index, puzzle);
                    let mut value = summary(&heading, &lines, style);
                    let on_title =
                        puzzle.anchor() != puzzle.first_row && puzzle.anchor().touches(offset);
                    // Only a client that says it draws images (see `settings`) gets the picture:
                    // Neovim renders Markdown but showed its alt text and blank rows.
                    let pictures = view.settings.hover_pictures;
                    if let (true, true, Style::Markdown) = (on_title, pictures, style) {
                        if let Some(image) = picture(view, index, puzzle) {
                            value.push_str("\n\n");
                            value.push_str(&image);
                        }
                    }
                    (value, view.line_span(offset))
                }
            }
        }
        None => {
            let document = view.document();
            let line = metadata_spans(&document.file_meta)
                .into_iter()
                .find(|s| s.touches(offset))?;
            let sections: Vec<(String, Vec<String>)> = document
                .puzzles
                .iter()
                .enumerate()
                .take(MAX_SUMMARIES)
                .map(|(index, puzzle)| {
                    let lines = analysis::summarize(puzzle, status(view, index, puzzle));
                    (heading(view, index, puzzle), lines)
                })
                .collect();
            let mut value = summaries(&sections, style);
            let count = document.puzzles.len();
            if count > MAX_SUMMARIES {
                value.push_str(&format!("\n\n…and {} more puzzles", count - MAX_SUMMARIES));
            }
            (value, line)
        }
    };
    let kind = match style {
        Style::Markdown => MarkupKind::Markdown,
        Style::Plain => MarkupKind::PlainText,
    };
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent { kind, value }),
        range: Some(view.range(span)),
    })
}

/// The largest picture a hover carries (a 25×25 full of pencil marks is over a megabyte).
const MAX_PICTURE: usize = 256 << 10;

/// The puzzle's picture as a Markdown image with the SVG inline (`data:` URI, base64), for a
/// hover on its title; `None` when the SVG is too large to send with every such hover.
fn picture(view: &View, index: usize, puzzle: &Puzzle) -> Option<String> {
    use base64::Engine;
    let analysis = view.analysis(index);
    let svg = crate::render::svg(&crate::render::draw(
        puzzle,
        &analysis,
        &crate::render::Options::default(),
    ));
    (svg.len() <= MAX_PICTURE).then(|| {
        let data = base64::engine::general_purpose::STANDARD.encode(svg);
        format!("![The puzzle](data:image/svg+xml;base64,{data})")
    })
}

/// The simplest step from the givens, if it places or eliminates in `cell` or has it in its
/// pattern (only for puzzles with one solution).
fn next_step_at(view: &View, index: usize, puzzle: &Puzzle, cell: usize) -> Option<Step> {
    if !commands::unique(view, index) {
        return None;
    }
    let step = ratings::first_step_for_hover(puzzle, &view.ratings)?;
    step.touches(cell).then_some(step)
}

/// For a puzzle with several solutions: the digits the cell takes across them (its true
/// candidates), searched for on the spot within a small budget.
fn across_solutions(view: &View, index: usize, puzzle: &Puzzle, cell: usize) -> Option<String> {
    if !matches!(view.analysis(index).verdict, Verdict::Several { .. }) {
        return None;
    }
    let geometry = &puzzle.geometry();
    let budget = jobs::on_demand_budget();
    let rules = puzzle.rules.as_deref();
    let (digits, complete) =
        analysis::true_candidates_at(geometry, rules, &puzzle.clues(), cell, &budget);
    let name = geometry.cell_name(cell);
    Some(if complete {
        format!("Across the puzzle's solutions, {name} takes {digits}")
    } else {
        format!(
            "Across the puzzle's solutions, {name} takes at least {digits} (the search stopped \
             at its budget before trying every digit)"
        )
    })
}

/// The index of the constraint whose line holds an offset, among the puzzle's rules.
fn constraint_under(puzzle: &Puzzle, offset: usize) -> Option<usize> {
    let rules = puzzle.rules.as_deref()?;
    rules
        .constraints
        .iter()
        .position(|c| c.line.touches(offset))
}

/// The cell at an offset inside the puzzle's grid (not its header lines).
fn cell_under(puzzle: &Puzzle, offset: usize) -> Option<usize> {
    puzzle
        .span
        .touches(offset)
        .then(|| puzzle.cell_at(offset))
        .flatten()
}

/// "Puzzle 2: Easy one (line 14)"
fn heading(view: &View, index: usize, puzzle: &Puzzle) -> String {
    let line = view
        .snapshot
        .rope
        .byte_to_line(puzzle.span.start.min(view.snapshot.rope.len_bytes()))
        + 1;
    match &puzzle.meta.title {
        Some(title) => format!("Puzzle {}: {} (line {line})", index + 1, title.value),
        None => format!("Puzzle {} (line {line})", index + 1),
    }
}

/// The puzzle's verdict in a line; while a first look's cut search waits for the whole run, that
/// it is still going (not the cut search's "undecided").
fn status(view: &View, index: usize, puzzle: &Puzzle) -> String {
    match view.verdict_pending(index) {
        true => "solutions: still being counted".to_string(),
        false => analysis::status_text(&puzzle.geometry(), &view.analysis(index)),
    }
}
