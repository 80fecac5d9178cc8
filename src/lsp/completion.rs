//! Completion in an empty cell: the digits that fit it, its pencil marks first, each saying why
//! the other digits are out. Nothing is offered on a placed digit, outside the cells, or where
//! no digit fits (the diagnostics already say that cell is impossible).
//!
//! - The cell: an empty one ending at the cursor (the one just typed or passed), else an empty
//!   one under it. A `.`, `0` or `_` cell, or a cell of pencil marks (its whole group).
//! - The edit replaces exactly that cell. In a puzzle that marks the solver's entries (`+7`)
//!   the digit is written as an entry, since it is the solver's; otherwise as a plain digit,
//!   the way *Solve* and the code actions fill cells (`analysis::place_edit`).
//!
//! On a line outside the grids that is, or may become, a constraint line:
//! - typing its first word: the constraint keywords, each with an example line and what it says;
//! - between `cage` and its `:`, with the cage's cells written after it: the sums a cage of that
//!   many cells can have, each with its combinations (`6 · 1 combination: 1 2 3`);
//! - after the `:`: the cells that may come next, beside the cells written (touching the last
//!   one for a line, diagonally too; side by side with any for a set; the other half of a
//!   dot), every cell when none is written yet.
//! - No trigger characters: typing `.` (an empty cell) or digits must not pop a list at every
//!   cell of a one-liner; the list comes when asked for (Ctrl+Space, `<C-x><C-o>`…).
//! - The filter text starts with the cell's current text, so a client filtering on the text
//!   between the edit's start and the cursor (VS Code does) keeps every item.

use tower_lsp_server::lsp_types::{
    CompletionItem, CompletionItemKind, CompletionTextEdit, Documentation, TextEdit,
};

use super::view::View;
use crate::analysis::{self, Fit};
use crate::finding::Span;
use crate::format::{self, CellsShape, KeywordHelp, Puzzle};
use crate::grid::{digit_char, row_letter};

/// The items at a byte offset; `None` when nothing fits there.
pub fn items(view: &View, offset: usize) -> Option<Vec<CompletionItem>> {
    if let Some(items) = constraint_items(view, offset) {
        return Some(items);
    }
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

/// Completion on a line outside the grids that is, or may become, a constraint line.
fn constraint_items(view: &View, offset: usize) -> Option<Vec<CompletionItem>> {
    let line = view.line_span(offset);
    let puzzle = view.puzzle_at(offset).map(|(_, p)| p);
    if puzzle.is_some_and(|p| p.span.touches(offset) && p.cell_at(offset).is_some()) {
        return None;
    }
    if puzzle.is_some_and(|p| p.span.covers(line)) {
        return None; // a grid's border line
    }
    let rope = &view.snapshot.rope;
    let text = rope.get_byte_slice(line.start..line.end)?.to_string();
    let cursor = offset.checked_sub(line.start)?.min(text.len());
    let before = text.get(..cursor)?;
    let lead = before.len() - before.trim_start().len();
    let head = &before[lead..];
    // A constraint line starts with its keyword: a comment, metadata or a row of cells (of a
    // grid the parser could not read) does not.
    let first = text.trim_start().chars().next();
    if first.is_some_and(|c| !c.is_ascii_alphabetic()) {
        return None;
    }
    let word_len = head
        .bytes()
        .take_while(|b| b.is_ascii_alphabetic() || *b == b'-')
        .count();
    let keywords = format::constraint_keywords();
    if word_len == head.len() {
        let typed = Span::new(line.start + lead, offset);
        return Some(keyword_items(view, &keywords, typed));
    }
    let word = &head[..word_len];
    let keyword = keywords
        .iter()
        .find(|k| k.name.eq_ignore_ascii_case(word))?;
    let side = puzzle.map_or(9, |p| p.size.side());
    match head.find(':') {
        None if keyword.name == "cage" => {
            let value = head[word_len..].trim_start();
            value.bytes().all(|b| b.is_ascii_digit()).then_some(())?;
            let after = text[cursor..].split_once(':')?.1;
            let cells = cells_named(after, side).len();
            let typed = Span::new(offset - value.len(), offset);
            cage_sum_items(view, side, cells, typed)
        }
        None => None,
        Some(colon) => {
            let body = &head[colon + 1..];
            let partial = body
                .rsplit(|c: char| c.is_whitespace() || matches!(c, '>' | '<' | '='))
                .next()
                .unwrap_or("");
            let named = cells_named(&body[..body.len() - partial.len()], side);
            let typed = Span::new(offset - partial.len(), offset);
            let next = next_cells(keyword.cells, &named, side);
            (!next.is_empty()).then(|| cell_items(view, side, &next, typed))
        }
    }
}

/// The keywords, replacing the word typed so far.
fn keyword_items(view: &View, keywords: &[KeywordHelp], typed: Span) -> Vec<CompletionItem> {
    keywords
        .iter()
        .enumerate()
        .map(|(order, k)| {
            let text = match (k.flag, k.value) {
                (true, _) => k.name.to_string(),
                (false, true) => format!("{} ", k.name),
                (false, false) => format!("{}: ", k.name),
            };
            CompletionItem {
                label: k.name.to_string(),
                kind: Some(CompletionItemKind::KEYWORD),
                detail: Some(k.example.to_string()),
                documentation: Some(Documentation::String(format!("{}: {}", k.example, k.means))),
                sort_text: Some(format!("{order:02}")),
                filter_text: Some(k.name.to_string()),
                text_edit: Some(CompletionTextEdit::Edit(TextEdit::new(
                    view.range(typed),
                    text,
                ))),
                ..CompletionItem::default()
            }
        })
        .collect()
}

/// The sums a cage of `cells` cells can have on a grid of `side`, each with its combinations.
fn cage_sum_items(
    view: &View,
    side: usize,
    cells: usize,
    typed: Span,
) -> Option<Vec<CompletionItem>> {
    if cells == 0 || cells > side {
        return None;
    }
    let any = vec![((1u32 << side) - 1) as u16; cells];
    let lowest = cells * (cells + 1) / 2;
    let highest = (side + 1 - cells..=side).sum::<usize>();
    let items = (lowest..=highest)
        .map(|sum| {
            let sets = analysis::cage_combinations(side, Some(sum as u32), &any);
            let detail = match &sets[..] {
                [one] => format!("1 combination: {}", analysis::spaced_digits(*one)),
                _ if sets.len() <= 4 => format!(
                    "{} combinations: {}",
                    sets.len(),
                    sets.iter()
                        .map(|&s| analysis::spaced_digits(s))
                        .collect::<Vec<_>>()
                        .join(" · ")
                ),
                _ => format!("{} combinations", sets.len()),
            };
            CompletionItem {
                label: sum.to_string(),
                kind: Some(CompletionItemKind::VALUE),
                detail: Some(detail),
                sort_text: Some(format!("{sum:04}")),
                filter_text: Some(sum.to_string()),
                text_edit: Some(CompletionTextEdit::Edit(TextEdit::new(
                    view.range(typed),
                    sum.to_string(),
                ))),
                ..CompletionItem::default()
            }
        })
        .collect();
    Some(items)
}

/// The cells written in `text` (`A1 B2 > C3`), in order, as indices on a grid of `side`.
fn cells_named(text: &str, side: usize) -> Vec<usize> {
    text.split(|c: char| c.is_whitespace() || matches!(c, '>' | '<' | '='))
        .filter_map(|token| cell_index(token, side))
        .collect()
}

/// `A1` → 0 on any grid, `B3` → side + 2; `None` for anything else.
fn cell_index(token: &str, side: usize) -> Option<usize> {
    let mut chars = token.chars();
    let letter = chars.next()?.to_ascii_uppercase();
    let row = (letter as usize).checked_sub('A' as usize)?;
    let column: usize = chars.as_str().parse().ok()?;
    (row < side && (1..=side).contains(&column)).then(|| row * side + column - 1)
}

/// The cells that may come next after `named`, in reading order.
fn next_cells(shape: CellsShape, named: &[usize], side: usize) -> Vec<usize> {
    let beside = |cell: usize, diagonal: bool| {
        let (row, col) = ((cell / side) as isize, (cell % side) as isize);
        let mut near = Vec::new();
        for dr in -1..=1isize {
            for dc in -1..=1isize {
                let straight = dr == 0 || dc == 0;
                let (r, c) = (row + dr, col + dc);
                let inside = (0..side as isize).contains(&r) && (0..side as isize).contains(&c);
                if (dr, dc) != (0, 0) && inside && (diagonal || straight) {
                    near.push(r as usize * side + c as usize);
                }
            }
        }
        near
    };
    let mut next: Vec<usize> = match (shape, named.last()) {
        (CellsShape::None, _) => Vec::new(),
        (CellsShape::Pair, Some(_)) if named.len() >= 2 => Vec::new(),
        (CellsShape::First, Some(_)) => Vec::new(),
        (_, None) => (0..side * side).collect(),
        (CellsShape::Line, Some(&last)) => beside(last, true),
        (CellsShape::Pair, Some(&last)) => beside(last, false),
        (_, Some(_)) => named.iter().flat_map(|&c| beside(c, false)).collect(),
    };
    next.retain(|c| !named.contains(c));
    next.sort_unstable();
    next.dedup();
    next
}

/// The cells, by name, replacing the name typed so far.
fn cell_items(view: &View, side: usize, cells: &[usize], typed: Span) -> Vec<CompletionItem> {
    cells
        .iter()
        .map(|&cell| {
            let name = format!("{}{}", row_letter(cell / side), cell % side + 1);
            CompletionItem {
                label: name.clone(),
                kind: Some(CompletionItemKind::VARIABLE),
                sort_text: Some(format!("{cell:04}")),
                filter_text: Some(name.clone()),
                text_edit: Some(CompletionTextEdit::Edit(TextEdit::new(
                    view.range(typed),
                    name,
                ))),
                ..CompletionItem::default()
            }
        })
        .collect()
}
