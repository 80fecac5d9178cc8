//! A solver's pencil marks: checked against the placed digits, and worked on.
//!
//! The checks are those of a careful solver looking over a grid: a mark a placed peer already
//! rules out (a hint, with the edit that removes it), a cell with no mark left, and a unit where
//! a digit has no mark left (errors: the grid as marked has no solution). The work is the
//! seeds' naked twins on the marks as written, and filling in every cell's marks afresh from
//! the placed digits (elimination, then naked twins, placing nothing). A cell with every digit
//! marked has no marks written yet, and is left out of the checks.

use crate::engine::{self, Digits};
use crate::finding::{Code, Finding, Related, Span};
use crate::format::{self, every_digit, DigitSet, Edit, Puzzle};
use crate::grid::{digit_char, Geometry};

/// A mark that a placed digit in the same unit rules out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuledOut {
    pub cell: usize,
    pub digit: u8,
    /// The peer holding the digit.
    pub peer: usize,
}

/// The findings about `puzzle`'s pencil marks (none for a puzzle written without them).
pub fn mark_findings(puzzle: &Puzzle) -> Vec<Finding> {
    let Some(marks) = puzzle.marks.as_deref() else {
        return Vec::new();
    };
    let geometry = &puzzle.geometry();
    let mut out: Vec<Finding> = ruled_out(puzzle)
        .into_iter()
        .map(|r| ruled_out_finding(geometry, puzzle, r))
        .collect();
    for (cell, &set) in marks.iter().enumerate() {
        if set == 0 {
            out.push(Finding::error(
                Code::NoMark,
                puzzle.cell_span(cell),
                format!(
                    "no pencil mark left in {}: no digit can go there, so the grid as marked has \
                     no solution",
                    geometry.cell_name(cell)
                ),
            ));
        }
    }
    out.extend(unmarked_digits(geometry, puzzle, marks));
    out.sort_by_key(|f| f.span.start);
    out
}

/// Each entry (`+7`) that repeats a digit of its row, column, box or diagonal, naming which
/// side each digit is on: "7 appears twice in row E: your entry at E5 and the given at E2".
pub fn entry_findings(puzzle: &Puzzle) -> Vec<Finding> {
    if puzzle.entries.is_none() {
        return Vec::new();
    }
    let geometry = &puzzle.geometry();
    let side = |c: usize| {
        let name = geometry.cell_name(c);
        if puzzle.is_entry(c) {
            format!("your entry at {name}")
        } else {
            format!("the given at {name}")
        }
    };
    let mut out = Vec::new();
    for cell in (0..puzzle.givens.len()).filter(|&c| puzzle.is_entry(c)) {
        let digit = puzzle.givens[cell];
        for &peer in geometry.peers[cell].iter() {
            let peer = peer as usize;
            if puzzle.givens[peer] != digit {
                continue;
            }
            let d = digit_char(digit);
            let units = super::wording::shared_unit_names(geometry, cell, peer);
            let message = format!(
                "{d} appears twice in {units}: {} and {}",
                side(cell),
                side(peer)
            );
            let related = Related::new(
                puzzle.cell_span(peer),
                format!("the other {d}: {}", side(peer)),
            );
            out.push(
                Finding::error(Code::Conflict, puzzle.cell_span(cell), message)
                    .with_related(vec![related]),
            );
        }
    }
    out
}

/// What the puzzle's unique solution says about the solver's work, for those who ask for it
/// (it gives the solution away): each entry that is not the solution's digit, and each cell
/// whose pencil marks leave out the digit the solution puts there. Nothing for a puzzle
/// without exactly one solution.
pub fn solution_findings(puzzle: &Puzzle, solution: &[u8]) -> Vec<Finding> {
    let geometry = &puzzle.geometry();
    let full = every_digit(puzzle.size.side());
    let mut out = Vec::new();
    for cell in 0..puzzle.givens.len() {
        let name = geometry.cell_name(cell);
        let right = solution[cell];
        if puzzle.is_entry(cell) && puzzle.givens[cell] != right {
            out.push(Finding::error(
                Code::WrongEntry,
                puzzle.cell_span(cell),
                format!(
                    "{} is not the solution's digit at {name}",
                    digit_char(puzzle.givens[cell])
                ),
            ));
        }
        let set = puzzle.marks.as_deref().map_or(full, |m| m[cell]);
        if puzzle.givens[cell] == 0 && set != full && set & (1 << (right - 1)) == 0 {
            out.push(Finding::error(
                Code::WrongEntry,
                puzzle.cell_span(cell),
                format!("the pencil marks of {name} leave out the digit the solution puts there"),
            ));
        }
    }
    out
}

/// Every mark of an empty cell that a placed peer rules out, cell by cell, digits ascending.
pub fn ruled_out(puzzle: &Puzzle) -> Vec<RuledOut> {
    let Some(marks) = puzzle.marks.as_deref() else {
        return Vec::new();
    };
    let geometry = &puzzle.geometry();
    let full = every_digit(puzzle.size.side());
    let mut out = Vec::new();
    for (cell, &set) in marks.iter().enumerate() {
        if puzzle.givens[cell] != 0 || set == full {
            continue;
        }
        for digit in Digits(set).iter() {
            let peer = geometry.peers[cell]
                .iter()
                .map(|&p| p as usize)
                .find(|&p| puzzle.givens[p] == digit);
            if let Some(peer) = peer {
                out.push(RuledOut { cell, digit, peer });
            }
        }
    }
    out
}

/// "7 cannot go in E2: E5 holds 7".
fn ruled_out_finding(geometry: &Geometry, puzzle: &Puzzle, r: RuledOut) -> Finding {
    let d = digit_char(r.digit);
    let (cell, peer) = (geometry.cell_name(r.cell), geometry.cell_name(r.peer));
    Finding::hint(
        Code::MarkRuledOut,
        puzzle.cell_span(r.cell),
        format!("{d} cannot go in {cell}: {peer} holds {d}"),
    )
    .with_related(vec![Related::new(
        puzzle.cell_span(r.peer),
        format!("the {d} at {peer}"),
    )])
}

/// A unit where a digit is not placed and no cell's marks hold it: an error on the unit's
/// first empty cell, the others related.
fn unmarked_digits(geometry: &Geometry, puzzle: &Puzzle, marks: &[DigitSet]) -> Vec<Finding> {
    let mut out = Vec::new();
    for (u, unit) in geometry.units.iter().enumerate() {
        let cells: Vec<usize> = unit.cells.iter().map(|&c| c as usize).collect();
        let placed: DigitSet = cells
            .iter()
            .filter(|&&c| puzzle.givens[c] != 0)
            .map(|&c| 1 << (puzzle.givens[c] - 1))
            .fold(0, |a, b| a | b);
        let empty: Vec<usize> = cells
            .iter()
            .copied()
            .filter(|&c| puzzle.givens[c] == 0)
            .collect();
        let marked = empty.iter().fold(0, |a, &c| a | marks[c]);
        let Some(&first) = empty.first() else {
            continue;
        };
        let missing = every_digit(geometry.side()) & !placed & !marked;
        for digit in Digits(missing).iter() {
            let d = digit_char(digit);
            let unit_name = geometry.unit_name(u);
            let related = empty[1..]
                .iter()
                .map(|&c| {
                    Related::new(
                        puzzle.cell_span(c),
                        format!("{} has no mark {d}", geometry.cell_name(c)),
                    )
                })
                .collect();
            out.push(
                Finding::error(
                    Code::NoMark,
                    puzzle.cell_span(first),
                    format!(
                        "no place left for {d} in {unit_name}: no empty cell there has the mark \
                         {d}, so the grid as marked has no solution"
                    ),
                )
                .with_related(related),
            );
        }
    }
    out
}

/// Each cell's marks for a puzzle: as written, or, written without marks, every digit for an
/// empty cell.
pub fn marks_of(puzzle: &Puzzle) -> Vec<DigitSet> {
    match puzzle.marks.as_deref() {
        Some(marks) => marks.to_vec(),
        None => {
            let full = every_digit(puzzle.size.side());
            puzzle
                .givens
                .iter()
                .map(|&d| if d == 0 { full } else { 1 << (d - 1) })
                .collect()
        }
    }
}

/// Every empty cell's pencil marks afresh from the placed digits: the digits no placed peer
/// holds, on a puzzle with constraint lines what each constraint then rules out
/// (`engine::variant::candidates`: a cage's combinations, a thermometer's order…), then naked
/// twins to a fixpoint. Nothing is placed (a cell left with one candidate keeps it as its mark,
/// and it rules nothing out).
pub fn fill_marks(puzzle: &Puzzle) -> Vec<DigitSet> {
    let geometry = &puzzle.geometry();
    let by_rules = puzzle
        .rules
        .as_deref()
        .and_then(|rules| engine::variant::candidates(geometry, rules, &puzzle.givens));
    let marks = match by_rules {
        Some(candidates) => {
            let candidates: Vec<Digits> =
                candidates.into_iter().map(|m| Digits(m.into())).collect();
            engine::naked_twins(geometry, &candidates)
        }
        // Rules that leave a cell nothing are `check`'s to report: the marks by the houses
        // alone still stand.
        None => engine::pencil_marks(geometry, &puzzle.givens),
    };
    marks.candidates.iter().map(|d| d.0).collect()
}

/// The marks after the seeds' naked twins on the marks as written: two cells of a unit with the
/// same two marks take those digits from the unit's other cells, until nothing changes. `None`
/// when it removes nothing (or the puzzle has no marks).
pub fn remove_naked_twins(puzzle: &Puzzle) -> Option<Vec<DigitSet>> {
    let marks = puzzle.marks.as_deref()?;
    let geometry = &puzzle.geometry();
    let candidates: Vec<Digits> = marks.iter().map(|&m| Digits(m)).collect();
    let after = engine::naked_twins(geometry, &candidates);
    let after: Vec<DigitSet> = after.candidates.iter().map(|d| d.0).collect();
    (after != marks).then_some(after)
}

/// The marks with every mark a placed peer rules out taken away; `None` if there is none.
pub fn without_ruled_out(puzzle: &Puzzle) -> Option<Vec<DigitSet>> {
    let found = ruled_out(puzzle);
    if found.is_empty() {
        return None;
    }
    let mut marks = marks_of(puzzle);
    for r in found {
        marks[r.cell] &= !(1 << (r.digit - 1));
    }
    Some(marks)
}

/// Why `marks` cannot be written into `puzzle`, if it cannot: a line of places has no way to
/// tell an entry from a given, nor a cell left with one mark from a placed digit.
pub fn marks_unwritable(puzzle: &Puzzle, marks: &[DigitSet]) -> Option<String> {
    let line = matches!(
        puzzle.layout,
        format::Layout::Line | format::Layout::MarksLine
    );
    if !line {
        return None;
    }
    if puzzle.entries.is_some() {
        return Some(
            "a line of pencil marks cannot tell your entries (+7) from givens: write the puzzle \
             as a grid block to keep pencil marks beside entries"
                .to_string(),
        );
    }
    let lone = (0..marks.len()).find(|&c| puzzle.givens[c] == 0 && marks[c].count_ones() == 1)?;
    let geometry = &puzzle.geometry();
    let d = digit_char(marks[lone].trailing_zeros() as u8 + 1);
    Some(format!(
        "{} is left with the one mark {d}, which a line of pencil marks reads as a placed digit: \
         write the puzzle as a grid block, where it is written *{d}, to fill in its marks",
        geometry.cell_name(lone)
    ))
}

/// The edits that write `marks` into the empty cells of `puzzle` (see `marks_unwritable`
/// first); placed digits are never changed, and an empty cell never becomes one: a cell left
/// with one mark is written `*7`. `text` is the source from byte `base`, holding at least the
/// puzzle's lines. A puzzle written with pencil marks gets one edit per changed cell, in its own
/// form (a group no wider than the old one is padded to keep the columns, except at the end of
/// its line). One written without them becomes a pencil-mark grid (a block, row by row, each
/// row's comment kept) or a line of places (a one-liner, in place of its cells, the text after
/// them kept).
pub fn marks_edits(puzzle: &Puzzle, marks: &[DigitSet], text: &str, base: usize) -> Vec<Edit> {
    let mut edits = if let Some(old) = puzzle.marks.as_deref() {
        (0..marks.len())
            .filter(|&c| old[c] != marks[c] && puzzle.givens[c] == 0)
            .map(|c| unpadded_at_line_end(format::cell_edit(puzzle, c, marks[c], '.'), text, base))
            .collect()
    } else if puzzle.layout == format::Layout::Line {
        let first = puzzle.cell_span(0).start;
        let last = puzzle.cell_span(marks.len() - 1).end;
        let span = Span::new(first, last);
        return vec![Edit {
            span,
            text: format::marks_line(puzzle.size, marks),
        }];
    } else {
        block_edits(puzzle, marks, text, base)
    };
    let block = !matches!(
        puzzle.layout,
        format::Layout::Line | format::Layout::MarksLine
    );
    if let (true, false, Some(apart)) = (block, edits.is_empty(), kept_apart(puzzle, text, base)) {
        match edits.iter_mut().find(|e| e.span.start == apart.span.start) {
            // One edit where both start (clients may refuse an insertion at a replacement's start).
            Some(first) => first.text.insert_str(0, &apart.text),
            None => edits.insert(0, apart),
        }
    }
    edits
}

/// The edits that turn a grid block without pencil marks into one with `marks`.
fn block_edits(puzzle: &Puzzle, marks: &[DigitSet], text: &str, base: usize) -> Vec<Edit> {
    // Only the block's own lines: a collection of blocks is then filled in linear time.
    let (text, base) = own_lines(puzzle, text, base);
    let entries = puzzle.entries.as_deref();
    format::marks_block_edits(text, base, puzzle, marks, entries).unwrap_or_else(|| {
        let mut grid = format::marks_grid(puzzle.drawn_size(), &puzzle.givens, marks, entries);
        grid.pop(); // the block's own last line break stays
        vec![Edit {
            span: puzzle.span,
            text: grid,
        }]
    })
}

/// A line break before the block when the line right above its first row is another puzzle's
/// line (a one-line puzzle): rows of pencil marks read as plain cells can count as many as that
/// line's, and the block would then read as that puzzle's grid: `1234341223414123` (a 4×4
/// one-liner) right above a 12×12 grid filled in became the first row of a broken 16×16.
fn kept_apart(puzzle: &Puzzle, text: &str, base: usize) -> Option<Edit> {
    let before = &text[..puzzle.span.start.checked_sub(base)?];
    let first_row = before.rfind(['\n', '\r']).map_or(0, |at| at + 1);
    let above = &before[..first_row];
    let break_above = if above.ends_with("\r\n") {
        "\r\n"
    } else {
        &above[above.len().checked_sub(1)?..]
    };
    let line_above = above[..above.len() - break_above.len()]
        .rsplit(['\n', '\r'])
        .next()?;
    let kind = format::lines::lines(line_above).first()?.kind;
    if !matches!(kind, format::lines::Kind::Cells(_)) {
        return None;
    }
    Some(Edit {
        span: Span::new(base + first_row, base + first_row),
        text: break_above.to_string(),
    })
}

/// The part of `text` (the source from byte `base`) from the puzzle's first line to the end
/// of its last line's line break, and where it starts.
fn own_lines<'t>(puzzle: &Puzzle, text: &'t str, base: usize) -> (&'t str, usize) {
    let start = puzzle.span.start - base;
    let mut end = puzzle.span.end - base;
    let rest = text.as_bytes()[end..].iter();
    end += match rest.take(2).collect::<Vec<_>>()[..] {
        [b'\r', b'\n'] => 2,
        [b'\n' | b'\r', ..] => 1,
        _ => 0,
    };
    (&text[start..end], base + start)
}

/// `edit` without the spaces that pad its group, when nothing but whitespace follows it on its
/// line (no trailing spaces are written).
fn unpadded_at_line_end(mut edit: Edit, text: &str, base: usize) -> Edit {
    let after = &text[edit.span.end - base..];
    let line_rest = after.split(['\n', '\r']).next().unwrap_or("");
    if line_rest.trim().is_empty() {
        edit.text.truncate(edit.text.trim_end().len());
    }
    edit
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse;

    const GRID: &str = crate::format::marks::ALIGNED;

    fn puzzle(text: &str) -> Puzzle {
        let doc = parse(text);
        assert!(doc.problems.is_empty(), "{:?}", doc.problems);
        doc.puzzles.into_iter().next().unwrap()
    }

    fn messages(puzzle: &Puzzle) -> Vec<String> {
        mark_findings(puzzle)
            .iter()
            .map(|f| f.message.to_string())
            .collect()
    }

    #[test]
    fn a_grid_filled_in_stays_apart_from_a_one_liner_right_above_it() {
        // A 4×4 one-liner, then a grid with no blank line between: its rows of pencil marks,
        // read as plain cells, can count 16, and took the one-liner as their first row.
        let twelve = "1234341223414123\n.234..7.9ABC\n.6789ABC1234\n9ABC1.34.678\n2345.789ABC1\n\
                      6789ABC12345\nABC123456789\n3456789ABC12\n789ABC123456\nBC12345.789A\n\
                      4567.9ABC123\n89ABC1.34567\nC1.3456789AB\n";
        let nine = "1234341223414123\n12.....89\n456.89123\n78912..56\n234.67891\n567891234\n\
                    89123.567\n345.78912\n678912345\n912.45678\n";
        for text in [twelve, nine] {
            let doc = parse(text);
            assert!(doc.problems.is_empty() && doc.puzzles.len() == 2);
            let grid = &doc.puzzles[1];
            let marks = fill_marks(grid);
            let written = format::apply_edits(text, &marks_edits(grid, &marks, text, 0));
            assert!(written.starts_with("1234341223414123\n\n"), "{written}");
            let again = parse(&written);
            assert!(again.problems.is_empty(), "{:?}", again.problems);
            assert_eq!(again.puzzles.len(), 2);
            assert_eq!(marks_of(&again.puzzles[1]), marks);
            // Filled in again: nothing changes, no second blank line.
            let grid = &again.puzzles[1];
            assert!(marks_edits(grid, &fill_marks(grid), &written, 0).is_empty());
        }
    }

    #[test]
    fn marks_left_by_elimination_need_no_word() {
        assert!(mark_findings(&puzzle(GRID)).is_empty());
    }

    #[test]
    fn a_mark_a_placed_peer_rules_out_is_a_hint_naming_the_peer() {
        let text = GRID.replacen("1  237 4", "1  137 4", 1);
        let p = puzzle(&text);
        assert_eq!(messages(&p), ["1 cannot go in A2: A1 holds 1"]);
        let finding = &mark_findings(&p)[0];
        assert_eq!(&text[finding.span.start..finding.span.end], "137");
        let fixed = without_ruled_out(&p).unwrap();
        let edits = marks_edits(&p, &fixed, &text, 0);
        assert_eq!(edits.len(), 1);
        assert_eq!(edits[0].text, "37 ");
        assert_eq!(
            format::apply_edits(&text, &edits).lines().next(),
            GRID.lines()
                .next()
                .map(|l| l.replacen("237", "37 ", 1))
                .as_deref()
        );
    }

    #[test]
    fn a_cell_or_a_unit_with_no_mark_left_is_an_error() {
        // A line of places with no candidate in A2, and 9 marked nowhere in row E.
        let g = puzzle(GRID);
        let mut marks = g.marks.as_deref().unwrap().to_vec();
        marks[1] = 0;
        for e in [4 * 9 + 2, 4 * 9 + 5] {
            marks[e] &= !(1 << 8);
        }
        let line = format::marks_line(g.size, &marks);
        let p = puzzle(&line);
        let found = messages(&p);
        assert!(
            found
                .iter()
                .any(|m| m.starts_with("no pencil mark left in A2")),
            "{found:?}"
        );
        assert!(
            found
                .iter()
                .any(|m| m.starts_with("no place left for 9 in row E")),
            "{found:?}"
        );
        assert!(mark_findings(&p).iter().all(|f| f.span.len() == 9));
    }

    /// The seeds' naked-twins puzzle, a one-liner.
    const TWINS: &str =
        "1.4.9..68956.18.34..84.695151.....868..6...1264..8..97781923645495.6.823.6.854179";

    /// The same puzzle as a grid block of plain rows.
    fn twins_block() -> String {
        (0..9)
            .map(|r| format!("{}\n", &TWINS[r * 9..r * 9 + 9]))
            .collect()
    }

    #[test]
    fn filling_in_marks_is_elimination_then_naked_twins() {
        let p = puzzle(TWINS);
        let marks = fill_marks(&p);
        // C1 keeps 2 and 3; E2 loses 7 to the naked twins 79 in D3 and E3 (box 4).
        assert_eq!(marks[2 * 9], 0b110);
        assert_eq!(marks[4 * 9 + 1], 0b100);
    }

    #[test]
    fn a_one_liner_becomes_a_line_of_places_keeping_its_text() {
        // E2 only has the mark 3 (left by elimination, then the naked twins in box 4): a line of
        // places would read it as placed, so that puzzle's marks cannot be written on one line.
        let p = puzzle(TWINS);
        let why = marks_unwritable(&p, &fill_marks(&p)).expect("a lone mark");
        assert!(why.starts_with("E2 is left with the one mark 3"), "{why}");
        let plain = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4...... #x\n";
        let p = puzzle(plain);
        let marks = fill_marks(&p);
        assert_eq!(marks_unwritable(&p, &marks), None);
        let written = format::apply_edits(plain, &marks_edits(&p, &marks, plain, 0));
        assert!(written.ends_with(" #x\n"));
        let back = puzzle(&written);
        assert_eq!(back.layout, format::Layout::MarksLine);
        assert_eq!(back.marks.as_deref(), Some(&marks[..]));
        assert_eq!(back.givens, p.givens);
    }

    #[test]
    fn a_plain_block_becomes_a_pencil_mark_grid() {
        let block = "4 . . | . . . | 8 . 5\n. 3 . | . . . | . . .\n. . . | 7 . . | . . .\n------+-------+------\n. 2 . | . . . | . 6 .\n. . . | . 8 . | 4 . .\n. . . | . 1 . | . . .\n------+-------+------\n. . . | 6 . 3 | . 7 .\n5 . . | 2 . . | . . .\n1 . 4 | . . . | . . .\n";
        let p = puzzle(block);
        let marks = fill_marks(&p);
        let written = format::apply_edits(block, &marks_edits(&p, &marks, block, 0));
        let back = puzzle(&written);
        assert_eq!(back.layout, format::Layout::Marks);
        assert_eq!(back.marks.as_deref(), Some(&marks[..]));
        assert_eq!(back.givens, p.givens);
    }

    /// `text` with its first puzzle's pencil marks filled in, as *Fill in pencil marks* writes.
    fn filled(text: &str) -> String {
        let p = puzzle(text);
        format::apply_edits(text, &marks_edits(&p, &fill_marks(&p), text, 0))
    }

    #[test]
    fn a_block_filled_in_keeps_its_row_comments_line_breaks_and_other_lines() {
        let block = "# before\r\n4 . . | . . . | 8 . 5  # first row\r\n. 3 . | . . . | . . .\r\n. . . | 7 . . | . . . # seven\r\n------+-------+------\r\n. 2 . | . . . | . 6 .\r\n. . . | . 8 . | 4 . .\r\n. . . | . 1 . | . . .\r\n------+-------+------\r\n. . . | 6 . 3 | . 7 .\r\n5 . . | 2 . . | . . .\r\n1 . 4 | . . . | . . .\r\n# after\r\n";
        let written = filled(block);
        let lines: Vec<&str> = written.split("\r\n").collect();
        assert_eq!(lines.len(), 14, "{written}");
        assert_eq!(
            (lines[0], lines[12], lines[13]),
            ("# before", "# after", "")
        );
        assert!(!written.replace("\r\n", "").contains('\n'), "{written:?}");
        assert!(lines[1].starts_with("4 ") && lines[1].ends_with(" # first row"));
        assert!(lines[3].ends_with(" # seven"), "{}", lines[3]);
        // The borders are drawn as wide as the new rows.
        let widest = lines[1..12]
            .iter()
            .map(|l| l.find(" #").unwrap_or(l.len()))
            .max();
        assert_eq!(Some(lines[4].len()), widest, "{written}");
        let (p, back) = (puzzle(block), puzzle(&written));
        assert_eq!(back.layout, format::Layout::Marks);
        assert_eq!(back.givens, p.givens);
        assert_eq!(back.marks.as_deref(), Some(&fill_marks(&p)[..]));
    }

    #[test]
    fn a_cell_left_with_one_mark_is_written_as_a_lone_mark_never_placed() {
        // E2 is left with the one mark 3: written `*3`, it reads back as an empty cell with that
        // mark, so the givens stay, and filling in again changes nothing.
        let block = twins_block();
        let p = puzzle(&block);
        let once = filled(&block);
        assert!(once.lines().nth(5).unwrap().contains("*3"), "{once}");
        let back = puzzle(&once);
        assert_eq!(back.givens, p.givens, "{once}");
        assert_eq!(back.entries, None);
        assert_eq!(back.marks.as_deref(), Some(&fill_marks(&p)[..]));
        assert!(
            mark_findings(&back).is_empty(),
            "{:?}",
            mark_findings(&back)
        );
        assert_eq!(filled(&once), once, "filling in again changes nothing");
        assert!(once.lines().all(|l| l == l.trim_end()), "{once:?}");
    }

    #[test]
    fn entries_stay_entries_and_lone_marks_stay_marks() {
        let rows: Vec<String> = twins_block().lines().map(str::to_string).collect();
        let with_entry = format!("1 +7 4 . 9 . . 6 8\n{}\n", rows[1..].join("\n"));
        let p = puzzle(&with_entry);
        let written = filled(&with_entry);
        let back = puzzle(&written);
        assert_eq!(back.givens, p.givens, "{written}");
        assert_eq!(back.entries, p.entries, "{written}");
        assert_eq!(filled(&written), written);
    }

    #[test]
    fn shrinking_marks_pads_to_keep_columns_but_not_at_the_end_of_a_line() {
        let once = filled(&twins_block());
        let p = puzzle(&once);
        // Take one mark from every cell of two marks or more: the last cells of rows shrink too.
        let fewer: Vec<DigitSet> = p
            .marks
            .as_deref()
            .unwrap()
            .iter()
            .enumerate()
            .map(|(c, &m)| match m.count_ones() > 1 && p.givens[c] == 0 {
                true => m & (m - 1),
                false => m,
            })
            .collect();
        let written = format::apply_edits(&once, &marks_edits(&p, &fewer, &once, 0));
        assert!(written.lines().all(|l| l == l.trim_end()), "{written:?}");
        assert_eq!(puzzle(&written).marks.as_deref(), Some(&fewer[..]));
        assert_eq!(puzzle(&written).givens, p.givens);
    }

    #[test]
    fn filling_in_one_block_of_a_collection_reads_only_its_own_lines() {
        // `marks` fills the puzzles of a file one by one: reading the whole file for each made a
        // collection of blocks quadratic (3,800 puzzles took 16 s, 100,000 never finished).
        let block = twins_block();
        let text = format!("{block}\n").repeat(300);
        let doc = format::parse(&text);
        let last = doc.puzzles.last().unwrap();
        let before = format::lines_classified();
        let edits = marks_edits(last, &fill_marks(last), &text, 0);
        let read = format::lines_classified() - before;
        assert!(!edits.is_empty());
        assert!(
            read <= 2 * 10,
            "{read} lines read to fill one block of 9 rows"
        );
    }
}
