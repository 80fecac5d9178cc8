//! Completion in an empty cell: the digits that fit it, its pencil marks first, each saying why
//! the other digits are out. Nothing is offered on a placed digit, outside the cells, or where
//! no digit fits (the diagnostics already say that cell is impossible).
//!
//! - The cell: an empty one ending at the cursor (the one just typed or passed), else an empty
//!   one under it. A `.`, `0` or `_` cell, or a cell of pencil marks (its whole group).
//! - The edit replaces exactly that cell. In a puzzle that marks the solver's entries (`+7`)
//!   the digit is written as an entry, since it is the solver's; otherwise as a plain digit,
//!   the way *Solve* and the code actions fill cells (`analysis::place_edit`).
//! - No trigger characters: typing `.` (an empty cell) or digits must not pop a list at every
//!   cell of a one-liner; the list comes when asked for (Ctrl+Space, `<C-x><C-o>`…).
//! - The filter text starts with the cell's current text, so a client filtering on the text
//!   between the edit's start and the cursor (VS Code does) keeps every item.

use tower_lsp_server::lsp_types::{
    CompletionItem, CompletionItemKind, CompletionTextEdit, Documentation, TextEdit,
};

use super::view::View;
use crate::analysis::{self, Fit};
use crate::format::Puzzle;
use crate::grid::digit_char;

/// The items at a byte offset; `None` when nothing fits there.
pub fn items(view: &View, offset: usize) -> Option<Vec<CompletionItem>> {
    let (_, puzzle) = view.puzzle_at(offset)?;
    let cell = empty_cell_near(puzzle, offset)?;
    let fits = analysis::fits(puzzle, cell)?;
    if fits.fits.is_empty() {
        return None;
    }
    let name = puzzle.geometry().cell_name(cell);
    let span = puzzle.cell_span(cell);
    let current = view
        .snapshot
        .rope
        .get_byte_slice(span.start..span.end)
        .map(|s| s.to_string())
        .unwrap_or_default();
    let out = if fits.excluded.is_empty() {
        format!("Every digit fits {name}.")
    } else {
        format!("Out of {name}:\n{}", fits.excluded.join("\n"))
    };
    let marked = fits.fits.iter().filter(|f| f.marked).count();
    let items = fits
        .fits
        .iter()
        .map(|fit| {
            let edit = analysis::place_edit(puzzle, cell, fit.digit);
            let label = digit_char(fit.digit).to_string();
            CompletionItem {
                detail: Some(detail(fit, &name)),
                kind: Some(CompletionItemKind::VALUE),
                documentation: Some(Documentation::String(out.clone())),
                // Marks first, each group ascending (digits above 9 sort by value, not letter).
                sort_text: Some(format!("{}{:02}", u8::from(!fit.marked), fit.digit)),
                filter_text: Some(format!("{current}{label}")),
                // The only mark is the likely choice.
                preselect: (fit.marked && marked == 1).then_some(true),
                text_edit: Some(CompletionTextEdit::Edit(TextEdit::new(
                    view.range(edit.span),
                    edit.text,
                ))),
                label,
                ..CompletionItem::default()
            }
        })
        .collect();
    Some(items)
}

/// "pencil mark · fits E5", or "fits E5 · not a pencil mark: naked twins {8, 9} in …".
fn detail(fit: &Fit, name: &str) -> String {
    match &fit.unmarked_why {
        None => format!("pencil mark · fits {name}"),
        Some(why) => format!("fits {name} · not a pencil mark: {why}"),
    }
}

/// The empty cell ending at `offset` (the cursor just after it), else the one under it.
fn empty_cell_near(puzzle: &Puzzle, offset: usize) -> Option<usize> {
    let empty_at = |at: usize| {
        let cell = puzzle.cell_at(at)?;
        let inside = puzzle.cell_span(cell).contains(at);
        (inside && puzzle.givens[cell] == 0).then_some(cell)
    };
    offset
        .checked_sub(1)
        .and_then(empty_at)
        .or_else(|| empty_at(offset))
}
