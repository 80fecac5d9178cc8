//! Writing puzzles back to text: filling empty marks in place, and the canonical form.

use super::lines::{lines, CellLine, Kind, Line};
use super::marks::{every_digit, DigitSet};
use super::meta::key_value;
use super::{Document, Layout, Puzzle};
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

/// The edit that makes cell `cell` of `puzzle` hold `set`: a single digit is placed; several
/// digits are pencil marks, and every digit an empty cell without marks. Written in the
/// puzzle's own form: in a pencil-mark grid a group, padded with spaces to the old group's
/// width when shorter (so columns stay aligned); in a line of places the cell's N places; in a
/// plain grid one character, `empty` for anything but a single digit.
pub fn cell_edit(puzzle: &Puzzle, cell: usize, set: DigitSet, empty: char) -> Edit {
    let span = puzzle.cell_span(cell);
    let side = puzzle.size.side();
    let single = (set.count_ones() == 1).then(|| set.trailing_zeros() as u8 + 1);
    let text = match (puzzle.layout, single) {
        (Layout::MarksLine, _) => marks_line(puzzle.size, &[set]),
        (Layout::Block | Layout::Line, Some(d)) => digit_char(d).to_string(),
        (Layout::Block | Layout::Line, None) => empty.to_string(),
        (Layout::Marks, _) => {
            let group = if set == every_digit(side) {
                ".".to_string()
            } else {
                (1..=side as u8)
                    .filter(|d| set & (1 << (d - 1)) != 0)
                    .map(digit_char)
                    .collect()
            };
            format!("{group:<width$}", width = span.len())
        }
    };
    Edit { span, text }
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

/// The canonical form of a document: comments and blank lines kept, metadata as `# key: value`,
/// every block puzzle in the display style (`4 8 3 | 9 2 1 | 6 5 7` rows, border lines between
/// bands, `.` for empty cells), one-line puzzles as one line with their trailing text.
///
/// Lines of broken puzzles, and any puzzle of `doc` that does not match `text`, are kept as
/// they are; trailing comments on rows and border lines with a comment are kept too.
pub fn canonical(text: &str, doc: &Document) -> String {
    let lines = lines(text);
    let mut plan: Vec<Plan> = lines
        .iter()
        .map(|line| match line.kind {
            Kind::Comment => match key_value(&text[line.start..line.end]) {
                Some(kv) => Plan::Replace(metadata_line(kv.key, kv.value)),
                None => Plan::Keep,
            },
            _ => Plan::Keep,
        })
        .collect();
    for puzzle in &doc.puzzles {
        if let Some(rows) = row_lines(text, &lines, puzzle) {
            match (puzzle.layout, &puzzle.marks) {
                (Layout::Line, _) => plan_line(text, &lines, puzzle, rows[0], &mut plan),
                (Layout::Block, _) => {
                    let size = puzzle.size;
                    let n = size.side();
                    let entries = puzzle.entries.as_deref();
                    let digits = |r: usize, row: &[u8]| {
                        row_text(size, row, entries.map(|e| &e[r * n..(r + 1) * n]))
                    };
                    let border = border_text(size);
                    plan_block(text, &lines, puzzle, &rows, (digits, border), &mut plan)
                }
                (Layout::Marks, Some(marks)) => {
                    let grid = MarksGrid::new(puzzle.size, marks, puzzle.entries.as_deref(), true);
                    let groups = |r: usize, _: &[u8]| grid.row(r);
                    let border = grid.border();
                    plan_block(text, &lines, puzzle, &rows, (groups, border), &mut plan)
                }
                (Layout::MarksLine, Some(marks)) => {
                    plan_marks_line(text, &lines, puzzle, marks, rows[0], &mut plan)
                }
                (Layout::Marks | Layout::MarksLine, None) => {}
            }
        }
    }
    let mut out = String::with_capacity(text.len() + text.len() / 2);
    out.push_str(&text[..lines.first().map_or(text.len(), |l| l.start)]);
    for (line, plan) in lines.iter().zip(plan) {
        match plan {
            Plan::Keep => out.push_str(&text[line.start..line.next]),
            Plan::Drop => {}
            Plan::Replace(s) => {
                out.push_str(&s);
                out.push_str(&text[line.end..line.next]);
            }
        }
    }
    out
}

/// A grid in the canonical display style, one line per row with border lines between bands
/// (`.` for an empty cell), each line ending in `\n`.
pub fn grid_block(size: Size, cells: &[u8]) -> String {
    let side = size.side();
    let mut out = String::with_capacity(cells.len() * 3);
    for (r, row) in cells.chunks(side).enumerate() {
        if r > 0 && r % size.box_rows() == 0 {
            out.push_str(&border_text(size));
            out.push('\n');
        }
        out.push_str(&row_text(size, row, None));
        out.push('\n');
    }
    out
}

/// A grid as one line of cells (`.` for an empty cell), no line break.
pub fn grid_line(cells: &[u8]) -> String {
    cells.iter().map(|&d| cell_char(d)).collect()
}

/// What the canonical form does with one source line.
enum Plan {
    Keep,
    Drop,
    /// New content; the line break stays.
    Replace(String),
}

fn metadata_line(key: &str, value: &str) -> String {
    let key = key.to_ascii_lowercase();
    if value.is_empty() {
        format!("# {key}:")
    } else {
        format!("# {key}: {value}")
    }
}

/// The index of each row's line (one line for a one-line puzzle), if the puzzle's spans fit
/// `text` and its lines.
fn row_lines(text: &str, lines: &[Line], puzzle: &Puzzle) -> Option<Vec<usize>> {
    let cells = puzzle.size.cells();
    if puzzle.givens.len() != cells || puzzle.cell_spans.len() != cells {
        return None;
    }
    if puzzle
        .cell_spans
        .iter()
        .any(|s| text.get(s.start..s.end).is_none())
    {
        return None;
    }
    let line_of = |offset: usize| {
        let i = lines.partition_point(|l| l.next <= offset);
        (i < lines.len() && offset < lines[i].end).then_some(i)
    };
    let per_line = match puzzle.layout {
        Layout::Line | Layout::MarksLine => cells,
        Layout::Block | Layout::Marks => puzzle.size.side(),
    };
    let mut rows = Vec::with_capacity(cells / per_line);
    for row in (0..cells).step_by(per_line) {
        let first = line_of(puzzle.cell_span(row).start)?;
        let last = line_of(puzzle.cell_span(row + per_line - 1).start)?;
        if first != last || rows.last().is_some_and(|&r| r >= first) {
            return None;
        }
        rows.push(first);
    }
    Some(rows)
}

fn plan_line(text: &str, lines: &[Line], puzzle: &Puzzle, row: usize, plan: &mut [Plan]) {
    let line = &lines[row];
    let cells_end = puzzle.cell_span(puzzle.cell_spans.len() - 1).end;
    let mut s = String::with_capacity(puzzle.givens.len() + 16);
    for (c, &d) in puzzle.givens.iter().enumerate() {
        if puzzle.is_entry(c) {
            s.push('+');
        }
        s.push(cell_char(d));
    }
    s.push_str(&text[cells_end..line.end]);
    plan[row] = Plan::Replace(s);
}

/// A line of pencil marks with `.` where a digit is not a candidate, its trailing text kept.
fn plan_marks_line(
    text: &str,
    lines: &[Line],
    puzzle: &Puzzle,
    marks: &[DigitSet],
    row: usize,
    plan: &mut [Plan],
) {
    let line = &lines[row];
    let cells_end = puzzle.cell_span(puzzle.cell_spans.len() - 1).end;
    let mut s = marks_line(puzzle.size, marks);
    s.push_str(&text[cells_end..line.end]);
    plan[row] = Plan::Replace(s);
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
/// lines between bands, as HoDoKu prints one.
/// Entries (if `entries` says which) are written `+7`.
pub fn marks_grid(size: Size, marks: &[DigitSet], entries: Option<&[bool]>) -> String {
    let grid = MarksGrid::new(size, marks, entries, false);
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
struct MarksGrid {
    size: Size,
    groups: Vec<String>,
    widths: Vec<usize>,
}

impl MarksGrid {
    /// With `unmarked_as_dot`, a cell with every digit (no marks written) is a lone `.`.
    fn new(
        size: Size,
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
                let digits = (1..=side as u8)
                    .filter(|d| set & (1 << (d - 1)) != 0)
                    .map(digit_char);
                let entry = entries.is_some_and(|e| e[c]) && set.count_ones() == 1;
                entry.then_some('+').into_iter().chain(digits).collect()
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
    fn row(&self, r: usize) -> String {
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
    fn border(&self) -> String {
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

fn plan_block(
    text: &str,
    lines: &[Line],
    puzzle: &Puzzle,
    rows: &[usize],
    (row_text, border): (impl Fn(usize, &[u8]) -> String, String),
    plan: &mut [Plan],
) {
    let size = puzzle.size;
    let n = size.side();
    // Border lines directly above and below go too: the canonical form draws its own.
    let mut top = rows[0];
    while top > 0 && is_plain_border(text, &lines[top - 1]) {
        top -= 1;
    }
    let mut bottom = rows[rows.len() - 1];
    while bottom + 1 < lines.len() && is_plain_border(text, &lines[bottom + 1]) {
        bottom += 1;
    }
    for (i, line) in lines.iter().enumerate().take(bottom + 1).skip(top) {
        if is_plain_border(text, line) {
            plan[i] = Plan::Drop;
        }
    }
    for (r, &i) in rows.iter().enumerate() {
        let line = &lines[i];
        let mut s = row_text(r, &puzzle.givens[r * n..(r + 1) * n]);
        if let Kind::Cells(CellLine {
            comment: Some(hash),
            ..
        }) = line.kind
        {
            s.push(' ');
            s.push_str(&text[hash..line.end]);
        }
        if (r + 1) % size.box_rows() == 0 && r + 1 < n {
            s.push_str(&text[line.end..line.next]);
            s.push_str(&border);
        }
        plan[i] = Plan::Replace(s);
    }
}

/// A border line without a comment (one with a comment is kept where it is).
fn is_plain_border(text: &str, line: &Line) -> bool {
    line.kind == Kind::Border && !text[line.start..line.end].contains('#')
}

fn cell_char(digit: u8) -> char {
    if digit == 0 {
        '.'
    } else {
        digit_char(digit)
    }
}

/// `4 8 3 | 9 2 1 | 6 5 7`, an entry with its `+` (`4 +8 3 | …`).
fn row_text(size: Size, row: &[u8], entries: Option<&[bool]>) -> String {
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
fn border_text(size: Size) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse;

    fn canon(text: &str) -> String {
        canonical(text, &parse(text))
    }

    #[test]
    fn block_in_display_style() {
        let text = "#Title :  Plain rows\n\
                    4.....8.5\n.3.......\n...7.....\n.2.....6.\n....8.4..\n....1....\n...6.3.7.\n5..2.....\n1.4......\n";
        let expected = "# title: Plain rows\n\
                        4 . . | . . . | 8 . 5\n\
                        . 3 . | . . . | . . .\n\
                        . . . | 7 . . | . . .\n\
                        ------+-------+------\n\
                        . 2 . | . . . | . 6 .\n\
                        . . . | . 8 . | 4 . .\n\
                        . . . | . 1 . | . . .\n\
                        ------+-------+------\n\
                        . . . | 6 . 3 | . 7 .\n\
                        5 . . | 2 . . | . . .\n\
                        1 . 4 | . . . | . . .\n";
        assert_eq!(canon(text), expected);
        assert_eq!(canon(expected), expected);
    }

    #[test]
    fn small_sizes_and_frames() {
        let text = "+-----+-----+\r\n|1 . |. 4|\r\n|. . |. .|\r\n+-----+-----+\r\n|. . |. .|\r\n|4 . |. 1|\r\n+-----+-----+\r\n\r\n";
        let expected = "1 . | . 4\r\n. . | . .\r\n----+----\r\n. . | . .\r\n4 . | . 1\r\n\r\n";
        assert_eq!(canon(text), expected);
    }

    #[test]
    fn one_liners_keep_their_trailing_text_and_comments_stay() {
        let text = "# a collection\n\n0000123400000000 easy\n1234000000000000\t# hard\n";
        let expected = "# a collection\n\n....1234........ easy\n1234............\t# hard\n";
        assert_eq!(canon(text), expected);
    }

    #[test]
    fn broken_puzzles_stay_verbatim_and_row_comments_stay() {
        let text = "12 34 # first\n3412\n2143\n4321\n\n123\n";
        let expected = "1 2 | 3 4 # first\n3 4 | 1 2\n----+----\n2 1 | 4 3\n4 3 | 2 1\n\n123\n";
        assert_eq!(canon(text), expected);
    }
}
