//! Inlay hints, as the `inlayHints` setting asks (off by default): `candidates` writes each
//! empty cell's candidates right after it (`{1 5 8}`), `rowCounts` the number of candidates
//! at the end of each row (`23 candidates`). The candidates are hover's pencil marks
//! (elimination, then naked twins). For setters, `trueCandidates` writes after each empty cell
//! of a puzzle with several solutions the digits some solution puts there (`{5 7}`; a cell
//! every solution agrees on, its one digit), as Rangsk's solver shows them.
//!
//! Only grid blocks get hints: a one-line puzzle would carry up to 81 of them on one line,
//! which is noise rather than help, and a grid of pencil marks already shows its candidates
//! in the text. Only hints inside the requested range are computed.

use tower_lsp_server::lsp_types::{InlayHint, InlayHintLabel, InlayHintTooltip, Position, Range};

use super::jobs;
use super::settings::InlayHints;
use super::view::View;
use crate::analysis::{self, Verdict};
use crate::finding::{plural, Span};
use crate::format::{Layout, Puzzle};
use crate::grid::digit_char;

/// The hints of `mode` whose positions lie in `range`.
pub fn hints(view: &View, mode: InlayHints, range: Range) -> Vec<InlayHint> {
    if mode == InlayHints::Off {
        return Vec::new();
    }
    let wanted = Span::new(view.offset(range.start), view.offset(range.end));
    let puzzles = &view.document().puzzles;
    // Puzzles are in source order: skip those ending before the range, stop past it.
    let first = puzzles.partition_point(|p| p.span.end < wanted.start);
    let mut hints = Vec::new();
    for puzzle in puzzles[first..]
        .iter()
        .take_while(|p| p.span.start <= wanted.end)
        .filter(|p| p.layout == Layout::Block)
    {
        match mode {
            InlayHints::Candidates => candidates(view, puzzle, wanted, &mut hints),
            InlayHints::RowCounts => row_counts(view, puzzle, wanted, &mut hints),
            InlayHints::TrueCandidates => true_candidates(view, puzzle, wanted, &mut hints),
            InlayHints::Off => {}
        }
    }
    hints
}

fn candidates(view: &View, puzzle: &Puzzle, wanted: Span, hints: &mut Vec<InlayHint>) {
    let marks = analysis::fill_marks(puzzle);
    let geometry = &puzzle.geometry();
    for (cell, span) in puzzle.cell_spans.iter().enumerate() {
        if puzzle.givens[cell] != 0 || !wanted.touches(span.end) {
            continue;
        }
        let digits: Vec<String> = (1..=puzzle.size.side() as u8)
            .filter(|d| marks[cell] & 1 << (d - 1) != 0)
            .map(|d| digit_char(d).to_string())
            .collect();
        let tooltip = format!(
            "{}: the digits no placed peer holds, after naked twins",
            geometry.cell_name(cell)
        );
        let label = format!("{{{}}}", digits.join(" "));
        hints.push(hint(view.range(span).end, label, tooltip, false));
    }
}

/// The true candidates of each empty cell of a puzzle with several solutions, searched for
/// within the on-demand budget (a cell a search did not finish for says so in its tooltip).
/// A puzzle with one solution gets none: they would write the answer into the grid.
fn true_candidates(view: &View, puzzle: &Puzzle, wanted: Span, hints: &mut Vec<InlayHint>) {
    let index = view
        .document()
        .puzzles
        .iter()
        .position(|p| std::ptr::eq(p, puzzle));
    let several =
        index.is_some_and(|i| matches!(view.analysis(i).verdict, Verdict::Several { .. }));
    if !several {
        return;
    }
    let geometry = &puzzle.geometry();
    let budget = jobs::on_demand_budget();
    let spread =
        analysis::true_candidates(geometry, puzzle.rules.as_deref(), &puzzle.clues(), &budget);
    for (cell, span) in puzzle.cell_spans.iter().enumerate() {
        if puzzle.givens[cell] != 0 || !wanted.touches(span.end) {
            continue;
        }
        let digits: Vec<String> = spread.digits[cell]
            .iter()
            .map(|d| digit_char(d).to_string())
            .collect();
        let name = geometry.cell_name(cell);
        let tooltip = match spread.complete {
            true => format!("{name}: the digits some solution puts here"),
            false => format!(
                "{name}: digits some solution puts here (the search stopped at its budget: there \
                 may be more)"
            ),
        };
        let label = format!("{{{}}}", digits.join(" "));
        hints.push(hint(view.range(span).end, label, tooltip, false));
    }
}

fn row_counts(view: &View, puzzle: &Puzzle, wanted: Span, hints: &mut Vec<InlayHint>) {
    let side = puzzle.size.side();
    for (row, count) in analysis::row_candidate_counts(puzzle)
        .into_iter()
        .enumerate()
    {
        let Some(last) = puzzle.cell_spans.get(row * side + side - 1) else {
            continue;
        };
        // At the end of the row's line, after any separator or trailing comment.
        let end = view.line_span(last.start).end;
        if !wanted.touches(end) {
            continue;
        }
        let label = plural(count as usize, "candidate");
        let tooltip = "candidates left in the row's empty cells (elimination, then naked twins)";
        hints.push(hint(
            view.range(Span::new(end, end)).end,
            label,
            tooltip.into(),
            true,
        ));
    }
}

fn hint(position: Position, label: String, tooltip: String, padding_left: bool) -> InlayHint {
    InlayHint {
        position,
        label: InlayHintLabel::String(label),
        kind: None,
        text_edits: None,
        tooltip: Some(InlayHintTooltip::String(tooltip)),
        padding_left: Some(padding_left),
        padding_right: Some(!padding_left),
        data: None,
    }
}
