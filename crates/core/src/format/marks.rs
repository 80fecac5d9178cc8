//! Pencil marks written in the file: the pencil-mark grid and the line of N³ places.
//!
//! A pencil-mark grid (as HoDoKu and SudokuWiki export it) has one group of digits a cell:
//! `4 19 1679 | 39 2 579 | 8 13 5`. A lone digit is a placed digit, a lone empty mark a cell
//! with no marks written, several digits the cell's candidates, and a digit after `*` (`*7`)
//! an empty cell's only candidate (HoDoKu writes such a cell so when it is part of a step, and
//! reads it back as a candidate). The line form (as Sukaku
//! Explainer and tdoku read it) gives each cell N places, place `d` holding digit `d` when it is
//! a candidate and an empty mark when it is not. Either way a cell with every digit marked says
//! nothing yet, and reads as an empty cell without marks.
//!
//! Here are the two readers; the parser decides where they apply (`parse`).

use super::cells::CellSpans;
use super::digits::{cell_digit, every_digit, stray_finding, DigitSet};
use super::lines::{self, Token};
use super::puzzle::Entries;
use crate::finding::{plural, Code, Finding, Span};
use crate::grid::{digit_char, Size};

/// The cells of a pencil-mark puzzle as they are read, and whether anything was wrong.
pub(super) struct MarkCells {
    size: Size,
    pub givens: Vec<u8>,
    /// Which placed digits are entries (`+7`).
    entries: Vec<bool>,
    pub marks: Vec<DigitSet>,
    spans: Vec<Span>,
    pub broken: bool,
}

impl MarkCells {
    pub(super) fn new(size: Size) -> MarkCells {
        MarkCells {
            size,
            givens: Vec::with_capacity(size.cells()),
            entries: Vec::with_capacity(size.cells()),
            marks: Vec::with_capacity(size.cells()),
            spans: Vec::with_capacity(size.cells()),
            broken: false,
        }
    }

    /// Read one row of a pencil-mark grid, `content` found at byte `base`: one group a cell.
    /// Returns how many cells (groups) it had.
    pub(super) fn row(&mut self, content: &str, base: usize, problems: &mut Vec<Finding>) -> usize {
        let mut group: Option<Span> = None;
        let mut count = 0;
        for token in lines::RowTokens::new(content, base) {
            match token {
                Token::Cell(_, span) => match &mut group {
                    Some(g) if g.end == span.start => g.end = span.end,
                    _ => {
                        if let Some(g) = group.replace(span) {
                            self.group(&content[g.start - base..g.end - base], g, problems);
                            count += 1;
                        }
                    }
                },
                Token::Stray(span) => {
                    self.broken = true;
                    let stray = &content[span.start - base..span.end - base];
                    problems.push(stray_finding(stray, span, Some(self.size)));
                }
                Token::Comment(_) => {}
            }
        }
        if let Some(g) = group {
            self.group(&content[g.start - base..g.end - base], g, problems);
            count += 1;
        }
        count
    }

    /// One cell's group of characters, `text` at `span`.
    fn group(&mut self, text: &str, span: Span, problems: &mut Vec<Finding>) {
        let side = self.size.side();
        let (mut given, mut set): (u8, DigitSet) = (0, 0);
        let entry = text.starts_with('+');
        let lone_mark = text.starts_with('*');
        if entry && text.len() > 2 {
            self.broken = true;
            problems.push(Finding::error(
                Code::Syntax,
                span,
                "a + marks a digit you entered: it goes before a lone digit (+7), not before \
                 pencil marks",
            ));
        } else if lone_mark && text.len() > 2 {
            self.broken = true;
            problems.push(Finding::error(
                Code::Syntax,
                span,
                format!(
                    "a * marks an empty cell's only pencil mark (*7); several marks are written \
                     together without it ({})",
                    text.replace(['*', '+'], "")
                ),
            ));
        } else if entry || lone_mark {
            match cell_digit(text.as_bytes()[1] as char, span, self.size, problems) {
                Some(d) if d > 0 && entry => (given, set) = (d, 1 << (d - 1)),
                Some(d) if d > 0 => set = 1 << (d - 1),
                _ => self.broken = true,
            }
        } else if text.len() == 1 {
            let ch = text.as_bytes()[0] as char;
            match cell_digit(ch, span, self.size, problems) {
                Some(0) => set = every_digit(side),
                Some(d) => (given, set) = (d, 1 << (d - 1)),
                None => self.broken = true,
            }
        } else {
            for (k, ch) in text.char_indices() {
                let at = Span::new(span.start + k, span.start + k + 1);
                match cell_digit(ch, at, self.size, problems) {
                    Some(0) => {
                        self.broken = true;
                        problems.push(Finding::error(
                            Code::Syntax,
                            at,
                            format!(
                                "'{ch}' among a cell's pencil marks: write the cell's candidate \
                                 digits together ({}), or a lone . for a cell without marks",
                                &text.replace(['.', '0', '_'], "")
                            ),
                        ));
                    }
                    Some(d) if set & (1 << (d - 1)) != 0 => {
                        self.broken = true;
                        problems.push(Finding::error(
                            Code::Syntax,
                            at,
                            format!("{ch} is marked twice in this cell: each candidate once"),
                        ));
                    }
                    Some(d) => set |= 1 << (d - 1),
                    None => self.broken = true,
                }
            }
        }
        self.givens.push(given);
        self.entries.push(entry);
        self.marks.push(set);
        self.spans.push(span);
    }

    /// Read a line of N³ places, `run` found at byte `start`: N places a cell, place `d`
    /// holding `d` or an empty mark.
    pub(super) fn line(&mut self, run: &[u8], start: usize, problems: &mut Vec<Finding>) {
        let side = self.size.side();
        for (cell, places) in run.chunks(side).enumerate() {
            let mut set: DigitSet = 0;
            for (k, &b) in places.iter().enumerate() {
                let at = start + cell * side + k;
                let span = Span::new(at, at + 1);
                match cell_digit(b as char, span, self.size, problems) {
                    Some(0) => {}
                    Some(d) if d as usize == k + 1 => set |= 1 << k,
                    Some(_) => {
                        self.broken = true;
                        problems.push(misplaced(b as char, k, cell, side, span));
                    }
                    None => self.broken = true,
                }
            }
            let given = if set.count_ones() == 1 {
                set.trailing_zeros() as u8 + 1
            } else {
                0
            };
            self.givens.push(given);
            self.entries.push(false);
            // No candidate at all is kept as it is: the mark checks say so.
            self.marks.push(set);
            self.spans
                .push(Span::new(start + cell * side, start + (cell + 1) * side));
        }
    }

    /// The cells, which are entries (`None` when none is), their marks and spans, unless
    /// something was wrong.
    #[allow(clippy::type_complexity)]
    pub(super) fn finish(self) -> Option<(Vec<u8>, Entries, Box<[DigitSet]>, CellSpans)> {
        if self.broken {
            return None;
        }
        let entries = self.entries.contains(&true).then(|| self.entries.into());
        Some((
            self.givens,
            entries,
            self.marks.into_boxed_slice(),
            CellSpans::from_spans(&self.spans),
        ))
    }
}

/// A digit in the wrong place of a line of pencil marks.
fn misplaced(ch: char, place: usize, cell: usize, side: usize, span: Span) -> Finding {
    let row = crate::grid::row_letter(cell / side);
    let column = cell % side + 1;
    Finding::error(
        Code::Syntax,
        span,
        format!(
            "'{ch}' in place {} of cell {row}{column}'s {}: in a line of pencil marks each cell \
             has {side} places, place d holding digit d ({} here) or . where d is not a candidate",
            place + 1,
            plural(side, "place"),
            digit_char(place as u8 + 1),
        ),
    )
}

/// The seeds' naked-twins puzzle after elimination as a pencil-mark grid in the canonical form:
/// the tests' common fixture.
#[cfg(test)]
pub(crate) const ALIGNED: &str = "\
1  237 4    | 2357 9   257 | 27  6 8
9  5   6    | 27   1   8   | 27  3 4
23 237 8    | 4    37  6   | 9   5 1
------------+--------------+--------
5  1   2379 | 237  347 279 | 34  8 6
8  37  379  | 6    347 579 | 345 1 2
6  4   23   | 1235 8   125 | 35  9 7
------------+--------------+--------
7  8   1    | 9    2   3   | 6   4 5
4  9   5    | 17   6   17  | 8   2 3
23 6   23   | 8    5   4   | 1   7 9
";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::Code;
    use crate::format::{canonical, parse, Layout};

    /// The seeds' naked-twins puzzle after elimination, as HoDoKu prints a pencil-mark grid.
    const HODOKU: &str = "\
.----------------.------------------.------------.
| 1  237 4       | 2357 9   257     | 27  6 8    |
| 9  5   6       | 27   1   8       | 27  3 4    |
| 23 237 8       | 4    37  6       | 9   5 1    |
:----------------+------------------+------------:
| 5  1   2379    | 237  347 279     | 34  8 6    |
| 8  37  379     | 6    347 579     | 345 1 2    |
| 6  4   23      | 1235 8   125     | 35  9 7    |
:----------------+------------------+------------:
| 7  8   1       | 9    2   3       | 6   4 5    |
| 4  9   5       | 17   6   17      | 8   2 3    |
| 23 6   23      | 8    5   4       | 1   7 9    |
'----------------'------------------'------------'
";

    fn set(digits: &str) -> DigitSet {
        digits.bytes().map(|b| 1 << (b - b'1')).sum()
    }

    fn codes(text: &str) -> Vec<(Code, String)> {
        parse(text)
            .problems
            .iter()
            .map(|f| (f.code, text[f.span.start..f.span.end].to_string()))
            .collect()
    }

    #[test]
    fn a_hodoku_grid_reads_marks_placed_digits_and_group_spans() {
        let doc = parse(HODOKU);
        assert!(doc.problems.is_empty(), "{:?}", doc.problems);
        let [puzzle] = &doc.puzzles[..] else {
            panic!("one puzzle, got {}", doc.puzzles.len())
        };
        assert_eq!(puzzle.layout, Layout::Marks);
        let marks = puzzle.marks.as_deref().expect("marks");
        assert_eq!(&puzzle.givens[..3], [1, 0, 4]);
        assert_eq!(marks[1], set("237"));
        assert_eq!(marks[0], set("1"));
        assert_eq!(marks[29], set("2379"));
        let span = puzzle.cell_span(29);
        assert_eq!(&HODOKU[span.start..span.end], "2379");
        assert_eq!(puzzle.cell_at(span.start + 2), Some(29));
        assert_eq!(puzzle.givens_count(), 54);
    }

    #[test]
    fn the_grid_reads_the_same_without_bars_or_borders() {
        let bare: String = HODOKU
            .lines()
            .filter(|l| !l.starts_with(['.', ':', '\'']))
            .map(|l| l.replace('|', " ") + "\n")
            .collect();
        let (a, b) = (parse(HODOKU), parse(&bare));
        assert!(b.problems.is_empty(), "{:?}", b.problems);
        assert_eq!(a.puzzles[0].marks, b.puzzles[0].marks);
        assert_eq!(a.puzzles[0].givens, b.puzzles[0].givens);
    }

    #[test]
    fn a_line_of_places_reads_each_cell() {
        let grid = &parse(HODOKU).puzzles[0];
        let line = crate::format::marks_line(grid.size, grid.marks.as_deref().unwrap());
        assert_eq!(line.len(), 729);
        assert!(line.starts_with("1.........23..7..") || line.starts_with("1........"));
        let text = format!("{line} from HoDoKu\n");
        let doc = parse(&text);
        assert!(doc.problems.is_empty(), "{:?}", doc.problems);
        let puzzle = &doc.puzzles[0];
        assert_eq!(puzzle.layout, Layout::MarksLine);
        assert_eq!(puzzle.marks, grid.marks);
        assert_eq!(puzzle.givens, grid.givens);
        assert_eq!(puzzle.cell_span(1).len(), 9);
        // `0` is as good as `.` where a digit is not a candidate.
        let zeros = parse(&line.replace('.', "0"));
        assert_eq!(zeros.puzzles[0].marks, grid.marks);
    }

    #[test]
    fn a_cell_with_every_digit_or_a_lone_dot_has_no_marks_written() {
        let text = "12 . | 34 4\n3 4 | 12 12\n. . | . .\n. . | . 1234\n";
        let doc = parse(text);
        assert!(doc.problems.is_empty(), "{:?}", doc.problems);
        let puzzle = &doc.puzzles[0];
        assert_eq!(puzzle.size.side(), 4);
        let marks = puzzle.marks.as_deref().unwrap();
        assert_eq!(marks[1], every_digit(4));
        assert_eq!(marks[15], every_digit(4));
        assert_eq!(puzzle.givens[..8], [0, 0, 0, 4, 3, 4, 0, 0]);
    }

    #[test]
    fn rows_of_grids_without_marks_are_not_taken_for_marks() {
        for text in [
            "483 921 657\n967 345 821\n251 876 493\n548 132 976\n729 564 138\n136 798 245\n372 689 514\n814 253 769\n695 417 382\n",
            "1234 5678 9ABC DEFG\n",
            "12 34\n34 12\n21 43\n43 21\n",
        ] {
            let doc = parse(text);
            assert!(doc.puzzles.iter().all(|p| p.marks.is_none()), "{text}");
        }
    }

    #[test]
    fn bad_marks_are_errors_at_their_characters() {
        let mut rows: Vec<String> = HODOKU.lines().map(str::to_string).collect();
        rows[1] = rows[1].replace("237 4", "2.7 4");
        rows[2] = rows[2].replace("27   1", "277  1");
        rows[6] = rows[6].replace("| 8  37", "| 37");
        let text = rows.join("\n");
        let found = codes(&text);
        assert_eq!(found[0], (Code::Syntax, ".".to_string()));
        assert_eq!(found[1], (Code::Syntax, "7".to_string()));
        assert_eq!(found[2].0, Code::RowLength);
        assert!(found[2].1.starts_with("| 37"), "{:?}", found[2]);
        assert_eq!(found.len(), 3, "{found:?}");
        let line = "2".repeat(729);
        let found = codes(&line);
        assert_eq!(found.len(), 729 - 81);
        let message = &parse(&line).problems[0].message;
        assert!(
            message.contains("place 1 of cell A1's 9 places"),
            "{message}"
        );
    }

    #[test]
    fn the_canonical_form_aligns_columns_and_reads_back_the_same() {
        let bare: String = HODOKU
            .lines()
            .filter(|l| !l.starts_with(['.', ':', '\'']))
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" ") + "\n")
            .collect();
        let canon = canonical(&bare, &parse(&bare));
        let expected = ALIGNED;
        assert_eq!(canon, expected);
        assert_eq!(canonical(expected, &parse(expected)), expected);
    }

    #[test]
    fn a_lone_mark_is_an_empty_cell_with_one_candidate() {
        let text = HODOKU.replacen("| 1  237 4 ", "| 1  *7  4 ", 1);
        let doc = parse(&text);
        assert!(doc.problems.is_empty(), "{:?}", doc.problems);
        let puzzle = &doc.puzzles[0];
        assert_eq!(puzzle.layout, Layout::Marks);
        assert_eq!(
            (puzzle.givens[1], puzzle.marks.as_deref().unwrap()[1]),
            (0, set("7"))
        );
        assert_eq!(puzzle.entries, None);
        let span = puzzle.cell_span(1);
        assert_eq!(&text[span.start..span.end], "*7");
        assert!(puzzle.has_lone_marks());
        // The canonical form keeps it, and cannot put it on a line of places.
        let canon = canonical(&text, &doc);
        assert!(canon.starts_with("1  *7  4 "), "{canon}");
        // A grid whose only groups of marks are lone marks is a pencil-mark grid too.
        let lone = "1 *2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1\n";
        let p = &parse(lone).puzzles[0];
        assert_eq!((p.layout, p.givens[1]), (Layout::Marks, 0));
    }

    #[test]
    fn a_star_before_several_marks_or_outside_a_pencil_mark_grid_is_an_error() {
        let text = HODOKU.replacen("| 1  237 4 ", "| 1  *237 4", 1);
        let found = parse(&text).problems;
        assert!(found[0].message.contains("(237)"), "{found:?}");
        let plain = "1*234\n3412\n2143\n4321\n";
        let found = parse(plain).problems;
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0]
            .message
            .starts_with("a * marks an empty cell's only pencil mark"));
        assert_eq!(&plain[found[0].span.start..found[0].span.end], "*2");
    }

    #[test]
    fn every_size_has_both_forms() {
        for side in [4usize, 5, 6, 9, 12, 16, 25] {
            let size = Size::from_side(side).unwrap();
            let mut marks = vec![every_digit(side); size.cells()];
            marks[0] = 1;
            marks[1] = every_digit(side) & !1;
            let mut placed = vec![0; size.cells()];
            placed[0] = 1;
            // A grid without boxes is drawn without them, under regions of its own.
            let (drawn, regions) = match size.has_boxes() {
                true => (size, ""),
                false => (size.unboxed(), "regions: none\n"),
            };
            let grid = crate::format::marks_grid(drawn, &placed, &marks, None);
            let line = crate::format::marks_line(size, &marks);
            for text in [grid, line] {
                let doc = parse(&format!("{regions}{text}"));
                assert!(doc.problems.is_empty(), "{side}: {:?}", doc.problems);
                assert_eq!(doc.puzzles.len(), 1, "{side}");
                assert_eq!(doc.puzzles[0].marks.as_deref(), Some(&marks[..]), "{side}");
            }
        }
    }
}
