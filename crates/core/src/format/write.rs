//! Writing puzzles back to text: filling empty marks in place, and the pieces of the canonical
//! form (rows, borders, pencil-mark grids and lines) that `style` lays out.

use super::digits::{every_digit, DigitSet};
use super::puzzle::{Layout, Puzzle};
use crate::finding::Span;
use crate::grid::{digit_char, Size};

/// Replace `span` of the source with `text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub span: Span,
    pub text: String,
}

/// The edits that write `solution` into `puzzle`: one per empty mark, and one per entry (`+7`)
/// that is not the solution's digit (corrected, its `+` kept); givens are never touched.
pub fn fill_edits(puzzle: &Puzzle, solution: &[u8]) -> Vec<Edit> {
    (0..puzzle.givens.len())
        .filter(|&c| to_fill(puzzle, c, solution[c]))
        .map(|c| {
            let span = puzzle.cell_span(c);
            Edit {
                span,
                text: solved_cell(puzzle, c, span, solution[c]),
            }
        })
        .collect()
}

/// Whether solving writes `digit` into cell `c`: it is empty, or an entry that differs.
fn to_fill(puzzle: &Puzzle, c: usize, digit: u8) -> bool {
    let placed = puzzle.givens[c];
    placed == 0 || puzzle.is_entry(c) && placed != digit
}

/// The text of cell `c` (at `span`) once solved: an entry keeps its `+`.
fn solved_cell(puzzle: &Puzzle, c: usize, span: Span, digit: u8) -> String {
    if puzzle.is_entry(c) {
        let mut text = filled_cell(puzzle.layout, Span::new(span.start + 1, span.end), digit);
        text.insert(0, '+');
        text
    } else {
        filled_cell(puzzle.layout, span, digit)
    }
}

/// The edit that places `digit` in cell `cell` of `puzzle`, in the puzzle's own form: in a
/// pencil-mark grid padded with spaces to the old group's width (so columns stay aligned), in a
/// line of places the cell's N places with the digit alone.
pub fn digit_edit(puzzle: &Puzzle, cell: usize, digit: u8) -> Edit {
    let span = puzzle.cell_span(cell);
    let text = match puzzle.layout {
        Layout::MarksLine => marks_line(puzzle.size, &[1 << (digit - 1)]),
        Layout::Block | Layout::Line => digit_char(digit).to_string(),
        Layout::Marks => format!("{:<width$}", digit_char(digit), width = span.len()),
    };
    Edit { span, text }
}

/// The edit that makes the empty cell `cell` of `puzzle` hold the pencil marks `set`: every
/// digit is a cell without marks, one digit its only mark (`*7`, never a placed digit), several
/// its candidates. Written in the puzzle's own form: in a pencil-mark grid a group, padded with
/// spaces to the old group's width when shorter (so columns stay aligned, but never with
/// spaces at the end of the line); in a line of places the cell's N places (where one mark
/// reads as placed: see `analysis::marks_unwritable`); in a plain grid, which has no marks,
/// `empty`.
pub fn cell_edit(puzzle: &Puzzle, cell: usize, set: DigitSet, empty: char) -> Edit {
    let span = puzzle.cell_span(cell);
    let side = puzzle.size.side();
    let text = match puzzle.layout {
        Layout::MarksLine => marks_line(puzzle.size, &[set]),
        Layout::Block | Layout::Line => empty.to_string(),
        Layout::Marks if set == every_digit(side) => format!("{:<width$}", ".", width = span.len()),
        Layout::Marks => format!(
            "{:<width$}",
            marks_group(side, set, false, false),
            width = span.len()
        ),
    };
    Edit { span, text }
}

/// A pencil-mark grid's group for a cell with the digits `set`: its digits together; one digit
/// alone when it is placed (`+7` for an entry), else `*7`, an empty cell's only mark.
fn marks_group(side: usize, set: DigitSet, placed: bool, entry: bool) -> String {
    let digits = (1..=side as u8)
        .filter(|d| set & (1 << (d - 1)) != 0)
        .map(digit_char);
    let prefix = match (set.count_ones(), placed, entry) {
        (1, true, true) => Some('+'),
        (1, false, _) => Some('*'),
        _ => None,
    };
    prefix.into_iter().chain(digits).collect()
}

/// What an empty cell at `span` holds once `digit` is written in: the digit; in a pencil-mark
/// grid, padded with spaces to the group's width (so columns stay aligned); in a line of
/// pencil marks, the cell's places with the digit alone marked. The same length as the cell
/// either way.
fn filled_cell(layout: Layout, span: Span, digit: u8) -> String {
    let width = span.len();
    match layout {
        Layout::MarksLine => (1..=width)
            .map(|d| {
                if d == digit as usize {
                    digit_char(digit)
                } else {
                    '.'
                }
            })
            .collect(),
        _ => format!("{:<width$}", digit_char(digit)),
    }
}

/// Write `solution` into `puzzle`'s empty marks directly in `text`, the bytes of the source from
/// byte `base` on: a filled cell is as long as the empty one was, so nothing moves. What
/// `fill_edits` and `apply_edits` do, without an edit per cell, for whole collections.
/// Returns how many marks were filled.
pub fn fill_bytes(text: &mut [u8], base: usize, puzzle: &Puzzle, solution: &[u8]) -> usize {
    let mut filled = 0;
    for (c, span) in puzzle.cell_spans.iter().enumerate() {
        let digit = solution[c];
        if !to_fill(puzzle, c, digit) {
            continue;
        }
        let at = span.start.wrapping_sub(base);
        if let Some(cell) = text.get_mut(at..at.saturating_add(span.len())) {
            if let [mark] = cell {
                *mark = digit_char(digit) as u8;
            } else {
                cell.copy_from_slice(solved_cell(puzzle, c, span, digit).as_bytes());
            }
            filled += 1;
        }
    }
    filled
}

/// Apply non-overlapping edits to `text`.
pub fn apply_edits(text: &str, edits: &[Edit]) -> String {
    let mut sorted: Vec<&Edit> = edits.iter().collect();
    sorted.sort_by_key(|e| e.span.start);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for edit in sorted {
        out.push_str(&text[at..edit.span.start]);
        out.push_str(&edit.text);
        at = edit.span.end;
    }
    out.push_str(&text[at..]);
    out
}

/// A grid in the canonical display style, one line per row with border lines between bands
/// (`.` for an empty cell), each line ending in `\n`.
pub fn grid_block(size: Size, cells: &[u8]) -> String {
    grid_block_with_entries(size, cells, None)
}

/// [`grid_block`] with the solver's entries (as `entries` says which cells) written `+7`.
pub fn grid_block_with_entries(size: Size, cells: &[u8], entries: Option<&[bool]>) -> String {
    let side = size.side();
    let mut out = String::with_capacity(cells.len() * 3);
    for (r, row) in cells.chunks(side).enumerate() {
        if r > 0 && r % size.box_rows() == 0 {
            out.push_str(&border_text(size));
            out.push('\n');
        }
        let row_entries = entries.map(|e| &e[r * side..(r + 1) * side]);
        out.push_str(&row_text(size, row, row_entries));
        out.push('\n');
    }
    out
}

/// A grid as one line of cells (`.` for an empty cell), no line break.
pub fn grid_line(cells: &[u8]) -> String {
    cells.iter().map(|&d| cell_char(d)).collect()
}

/// Cells as one line of pencil marks: N places a cell, place `d` holding `d` when it is a
/// candidate and `.` when it is not.
pub fn marks_line(size: Size, marks: &[DigitSet]) -> String {
    let side = size.side();
    let mut s = String::with_capacity(marks.len() * side);
    for &set in marks {
        for d in 1..=side as u8 {
            s.push(if set & (1 << (d - 1)) != 0 {
                digit_char(d)
            } else {
                '.'
            });
        }
    }
    s
}

/// A pencil-mark grid in columns: each cell's candidates as one group of digits (a placed
/// digit alone), padded to the widest group of its column, ` | ` between boxes and border
/// lines between bands, as HoDoKu prints one. `placed` holds each cell's placed digit (0 for
/// an empty cell, whose only mark is written `*7`); entries (if `entries` says which) are
/// written `+7`.
pub fn marks_grid(
    size: Size,
    placed: &[u8],
    marks: &[DigitSet],
    entries: Option<&[bool]>,
) -> String {
    let grid = MarksGrid::new(size, placed, marks, entries, false);
    let mut out = String::new();
    for r in 0..size.side() {
        if r > 0 && r % size.box_rows() == 0 {
            out.push_str(&grid.border());
            out.push('\n');
        }
        out.push_str(&grid.row(r));
        out.push('\n');
    }
    out
}

/// Each cell's group of a pencil-mark grid, and each column's width.
pub(super) struct MarksGrid {
    size: Size,
    groups: Vec<String>,
    widths: Vec<usize>,
}

impl MarksGrid {
    /// With `unmarked_as_dot`, a cell with every digit (no marks written) is a lone `.`.
    pub(super) fn new(
        size: Size,
        placed: &[u8],
        marks: &[DigitSet],
        entries: Option<&[bool]>,
        unmarked_as_dot: bool,
    ) -> MarksGrid {
        let side = size.side();
        let groups: Vec<String> = marks
            .iter()
            .enumerate()
            .map(|(c, &set)| {
                if set == every_digit(side) && unmarked_as_dot || set == 0 {
                    return ".".to_string();
                }
                marks_group(side, set, placed[c] != 0, entries.is_some_and(|e| e[c]))
            })
            .collect();
        let widths = (0..side)
            .map(|c| {
                (0..side)
                    .map(|r| groups[r * side + c].len())
                    .max()
                    .unwrap_or(1)
            })
            .collect();
        MarksGrid {
            size,
            groups,
            widths,
        }
    }

    /// Row `r`: `4    19   1679 | 39   2    579  | 8    13   5`, without trailing spaces.
    pub(super) fn row(&self, r: usize) -> String {
        let side = self.size.side();
        let mut s = String::new();
        for c in 0..side {
            if c > 0 {
                s.push_str(if c % self.size.box_cols() == 0 {
                    " | "
                } else {
                    " "
                });
            }
            let group = &self.groups[r * side + c];
            s.push_str(group);
            s.extend(std::iter::repeat_n(' ', self.widths[c] - group.len()));
        }
        s.truncate(s.trim_end().len());
        s
    }

    /// The border between bands, as wide as the rows: `-` under cells, `+` under each `|`.
    pub(super) fn border(&self) -> String {
        let side = self.size.side();
        let full: Vec<String> = (0..side).map(|c| " ".repeat(self.widths[c])).collect();
        let mut s = String::new();
        for (c, cell) in full.iter().enumerate() {
            if c > 0 {
                s.push_str(if c % self.size.box_cols() == 0 {
                    " | "
                } else {
                    " "
                });
            }
            s.push_str(cell);
        }
        s.chars()
            .map(|ch| if ch == '|' { '+' } else { '-' })
            .collect()
    }
}

pub(super) fn cell_char(digit: u8) -> char {
    if digit == 0 {
        '.'
    } else {
        digit_char(digit)
    }
}

/// `4 8 3 | 9 2 1 | 6 5 7`, an entry with its `+` (`4 +8 3 | …`).
pub(super) fn row_text(size: Size, row: &[u8], entries: Option<&[bool]>) -> String {
    let mut s = String::with_capacity(row.len() * 2 + 8);
    for (c, &d) in row.iter().enumerate() {
        if c > 0 {
            s.push_str(if c % size.box_cols() == 0 { " | " } else { " " });
        }
        if entries.is_some_and(|e| e[c]) {
            s.push('+');
        }
        s.push(cell_char(d));
    }
    s
}

/// `------+-------+------`, matching `row_text`'s widths.
pub(super) fn border_text(size: Size) -> String {
    let boxes = size.side() / size.box_cols();
    let width = 2 * size.box_cols(); // the box's cells and spaces, plus one space beside a `|`
    (0..boxes)
        .map(|b| {
            let inner = b > 0 && b + 1 < boxes;
            "-".repeat(if inner { width + 1 } else { width })
        })
        .collect::<Vec<_>>()
        .join("+")
}
