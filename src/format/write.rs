//! Writing puzzles back to text: filling empty marks in place, and the canonical form.

use super::lines::{lines, CellLine, Kind, Line};
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

/// The edits that write `solution` into `puzzle`: one per empty mark, nothing else touched.
pub fn fill_edits(puzzle: &Puzzle, solution: &[u8]) -> Vec<Edit> {
    puzzle
        .givens
        .iter()
        .zip(solution)
        .zip(puzzle.cell_spans.iter())
        .filter(|((&given, _), _)| given == 0)
        .map(|((_, &digit), span)| Edit {
            span,
            text: digit_char(digit).to_string(),
        })
        .collect()
}

/// Write `solution` into `puzzle`'s empty marks directly in `text`, the bytes of the source from
/// byte `base` on: every cell is one ASCII byte and so is every digit, so nothing moves. What
/// `fill_edits` and `apply_edits` do, without an edit per cell, for whole collections.
/// Returns how many marks were filled.
pub fn fill_bytes(text: &mut [u8], base: usize, puzzle: &Puzzle, solution: &[u8]) -> usize {
    let mut filled = 0;
    for ((&given, &digit), span) in puzzle
        .givens
        .iter()
        .zip(solution)
        .zip(puzzle.cell_spans.iter())
    {
        if given == 0 {
            if let Some(mark) = text.get_mut(span.start.wrapping_sub(base)) {
                *mark = digit_char(digit) as u8;
                filled += 1;
            }
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
            match puzzle.layout {
                Layout::Line => plan_line(text, &lines, puzzle, rows[0], &mut plan),
                Layout::Block => plan_block(text, &lines, puzzle, &rows, &mut plan),
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
        out.push_str(&row_text(size, row));
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
        Layout::Line => cells,
        Layout::Block => puzzle.size.side(),
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
    let mut s: String = puzzle.givens.iter().map(|&d| cell_char(d)).collect();
    s.push_str(&text[cells_end..line.end]);
    plan[row] = Plan::Replace(s);
}

fn plan_block(text: &str, lines: &[Line], puzzle: &Puzzle, rows: &[usize], plan: &mut [Plan]) {
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
        let mut s = row_text(size, &puzzle.givens[r * n..(r + 1) * n]);
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
            s.push_str(&border_text(size));
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

/// `4 8 3 | 9 2 1 | 6 5 7`
fn row_text(size: Size, row: &[u8]) -> String {
    let mut s = String::with_capacity(row.len() * 2 + 8);
    for (c, &d) in row.iter().enumerate() {
        if c > 0 {
            s.push_str(if c % size.box_cols() == 0 { " | " } else { " " });
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
