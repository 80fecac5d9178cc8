//! Completion: what may be typed at a cursor, for the language server and the playground alike.
//!
//! In an empty cell: the digits that fit it, its pencil marks first, each saying why the other
//! digits are out. Nothing is offered on a placed digit, outside the cells, or where no digit
//! fits (the diagnostics already say that cell is impossible).
//! - The cell: an empty one ending at the cursor (the one just typed or passed), else an empty
//!   one under it. A `.`, `0` or `_` cell, or a cell of pencil marks (its whole group).
//! - The edit replaces exactly that cell. In a puzzle that marks the solver's entries (`+7`)
//!   the digit is written as an entry, since it is the solver's; otherwise as a plain digit,
//!   the way *Solve* and the code actions fill cells (`place_edit`).
//!
//! On a line outside the grids that is, or may become, a constraint line:
//! - typing its first word: the constraint keywords, each with an example line and what it says;
//! - between `cage` and its `:`, with the cage's cells written after it: the sums a cage of that
//!   many cells can have, each with its combinations (`6 · 1 combination: 1 2 3`);
//! - after the `:`: the cells that may come next, beside the cells written (touching the last
//!   one for a line, diagonally too; side by side with any for a set; the other half of a
//!   dot), every cell when none is written yet.
//!
//! Each item's `filter` starts with the text its edit replaces, so a face filtering on the text
//! between the edit's start and the cursor keeps every item; `typed` is that stretch.
//!
//! ```
//! use sudoku_core::analysis::completion::{items, Kind};
//! use sudoku_core::format;
//!
//! let text = "cag";
//! let document = format::parse(text);
//! let offered = items(&document, 0, text, 3).unwrap();
//! assert!(offered.iter().any(|item| item.label == "cage" && item.kind == Kind::Keyword));
//! ```

use super::{cage_combinations, fits, place_edit, spaced_digits, Fit};
use crate::finding::Span;
use crate::format::{self, CellsShape, Document, Edit, KeywordHelp, Puzzle};
use crate::grid::{digit_char, row_letter};

/// What an item is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A digit for an empty cell.
    Digit,
    /// A constraint's keyword.
    Keyword,
    /// A cage's sum.
    Sum,
    /// A cell's name on a constraint line.
    Cell,
}

/// One thing that may be typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    pub label: String,
    pub kind: Kind,
    /// A line beside the label.
    pub detail: Option<String>,
    /// More, shown when the item is chosen in the list.
    pub documentation: Option<String>,
    /// The order among the items (they sort by it).
    pub sort: String,
    /// The text a face filters the item by (see the module's note).
    pub filter: String,
    /// The likely choice, to be selected first.
    pub preselect: bool,
    /// What choosing it writes, in bytes of the text.
    pub edit: Edit,
}

/// The items at byte `offset` of the document's text, whose line (without its line break) is
/// `line`, starting at byte `line_start`; `None` when nothing fits there.
pub fn items(
    document: &Document,
    line_start: usize,
    line: &str,
    offset: usize,
) -> Option<Vec<Item>> {
    if let Some(items) = constraint_items(document, line_start, line, offset) {
        return Some(items);
    }
    let (_, puzzle) = document.puzzle_at(offset)?;
    let cell = empty_cell_near(puzzle, offset)?;
    digit_items(puzzle, cell, line_start, line)
}

/// The digits that fit an empty cell (on the line given).
fn digit_items(puzzle: &Puzzle, cell: usize, line_start: usize, line: &str) -> Option<Vec<Item>> {
    let fits = fits(puzzle, cell)?;
    if fits.fits.is_empty() {
        return None;
    }
    let name = puzzle.geometry().cell_name(cell);
    let span = puzzle.cell_span(cell);
    let current = span
        .start
        .checked_sub(line_start)
        .and_then(|start| line.get(start..span.end - line_start))
        .unwrap_or_default();
    let out = if fits.excluded.is_empty() {
        format!("Every digit fits {name}.")
    } else {
        format!("Out of {name}:\n{}", fits.excluded.join("\n"))
    };
    let marked = fits.fits.iter().filter(|f| f.marked).count();
    let items = fits.fits.iter().map(|fit| {
        let label = digit_char(fit.digit).to_string();
        Item {
            detail: Some(detail(fit, &name)),
            kind: Kind::Digit,
            documentation: Some(out.clone()),
            // Marks first, each group ascending (digits above 9 sort by value, not letter).
            sort: format!("{}{:02}", u8::from(!fit.marked), fit.digit),
            filter: format!("{current}{label}"),
            // The only mark is the likely choice.
            preselect: fit.marked && marked == 1,
            edit: place_edit(puzzle, cell, fit.digit),
            label,
        }
    });
    Some(items.collect())
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
fn constraint_items(
    document: &Document,
    line_start: usize,
    text: &str,
    offset: usize,
) -> Option<Vec<Item>> {
    let line = Span::new(line_start, line_start + text.len());
    let puzzle = document.puzzle_at(offset).map(|(_, p)| p);
    if puzzle.is_some_and(|p| p.span.touches(offset) && p.cell_at(offset).is_some()) {
        return None;
    }
    if puzzle.is_some_and(|p| p.span.covers(line)) {
        return None; // a grid's border line
    }
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
        return Some(keyword_items(&keywords, typed));
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
            cage_sum_items(side, cells, typed)
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
            (!next.is_empty()).then(|| cell_items(side, &next, typed))
        }
    }
}

/// The keywords, replacing the word typed so far.
fn keyword_items(keywords: &[KeywordHelp], typed: Span) -> Vec<Item> {
    let items = keywords.iter().enumerate().map(|(order, k)| {
        let text = match (k.flag, k.value) {
            (true, _) => k.name.to_string(),
            (false, true) => format!("{} ", k.name),
            (false, false) => format!("{}: ", k.name),
        };
        Item {
            label: k.name.to_string(),
            kind: Kind::Keyword,
            detail: Some(k.example.to_string()),
            documentation: Some(format!("{}: {}", k.example, k.means)),
            sort: format!("{order:02}"),
            filter: k.name.to_string(),
            preselect: false,
            edit: Edit { span: typed, text },
        }
    });
    items.collect()
}

/// The sums a cage of `cells` cells can have on a grid of `side`, each with its combinations.
fn cage_sum_items(side: usize, cells: usize, typed: Span) -> Option<Vec<Item>> {
    if cells == 0 || cells > side {
        return None;
    }
    let any = vec![((1u32 << side) - 1) as u16; cells];
    let lowest = cells * (cells + 1) / 2;
    let highest = (side + 1 - cells..=side).sum::<usize>();
    let items = (lowest..=highest).map(|sum| {
        let sets = cage_combinations(side, Some(sum as u32), &any);
        let detail = match &sets[..] {
            [one] => format!("1 combination: {}", spaced_digits(*one)),
            _ if sets.len() <= 4 => format!(
                "{} combinations: {}",
                sets.len(),
                sets.iter()
                    .map(|&s| spaced_digits(s))
                    .collect::<Vec<_>>()
                    .join(" · ")
            ),
            _ => format!("{} combinations", sets.len()),
        };
        Item {
            label: sum.to_string(),
            kind: Kind::Sum,
            detail: Some(detail),
            documentation: None,
            sort: format!("{sum:04}"),
            filter: sum.to_string(),
            preselect: false,
            edit: Edit {
                span: typed,
                text: sum.to_string(),
            },
        }
    });
    Some(items.collect())
}

/// The cells written in `text` (`A1 B2 > C3`), in order, as indices on a grid of `side`.
fn cells_named(text: &str, side: usize) -> Vec<usize> {
    text.split(|c: char| c.is_whitespace() || matches!(c, '>' | '<' | '='))
        .filter_map(|token| cell_index(token, side))
        .collect()
}

/// `A1` → 0 on any grid, `B3` → side + 2, read as the parser reads a cell's name; `None` for
/// anything else, and for a cell outside a grid of `side`.
fn cell_index(token: &str, side: usize) -> Option<usize> {
    let (row, column) = crate::format::rules::cell_name(token)?;
    let (row, column) = (row as usize, column as usize);
    (row < side && column < side).then_some(row * side + column)
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
fn cell_items(side: usize, cells: &[usize], typed: Span) -> Vec<Item> {
    let items = cells.iter().map(|&cell| {
        let name = format!("{}{}", row_letter(cell / side), cell % side + 1);
        Item {
            label: name.clone(),
            kind: Kind::Cell,
            detail: None,
            documentation: None,
            sort: format!("{cell:04}"),
            filter: name.clone(),
            preselect: false,
            edit: Edit {
                span: typed,
                text: name,
            },
        }
    });
    items.collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_named_as_the_parser_reads_them() {
        // `a3` is A3; `A01` and `A+1` are no cell's name to the parser, and
        // `J1` lies outside a 9×9, so none of them says where the line has got to.
        assert_eq!(cells_named("A1 a3 > B2", 9), vec![0, 2, 10]);
        assert_eq!(cells_named("A01 A+1 J1 A10", 9), Vec::<usize>::new());
        assert_eq!(cells_named("A10 P16", 16), vec![9, 255]);
    }
}
