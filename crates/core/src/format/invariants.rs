//! The parser's contract: what holds for any parse of any text. The tests (on generated and
//! hand-written documents) and the fuzz targets (on arbitrary bytes) check the same list here,
//! so the two cannot drift apart; nothing else calls it.

use super::{every_digit, DigitSet, Document, Layout};
use crate::finding::Span;
use crate::grid::{char_digit, digit_char};

/// Whether `doc`, a parse of `text`, keeps the contract: every span inside the text, the
/// problems in source order, each puzzle whole (a digit and a span per cell, the spans in order
/// inside the puzzle's, each cell's text saying what was read). The first broken rule, said.
pub fn check_invariants(text: &str, doc: &Document) -> Result<(), String> {
    let in_text = |s: Span| s.start <= s.end && text.get(s.start..s.end).is_some();
    for f in &doc.problems {
        ensure(in_text(f.span), || {
            format!("finding span {:?} outside the text", f.span)
        })?;
        ensure(!f.message.is_empty(), || {
            format!("finding at {:?} says nothing", f.span)
        })?;
        if let Some(r) = f.related.iter().find(|r| !in_text(r.span)) {
            return Err(format!("related span {:?} outside the text", r.span));
        }
    }
    ensure(
        doc.problems
            .windows(2)
            .all(|w| w[0].span.start <= w[1].span.start),
        || "problems out of source order".to_string(),
    )?;
    for (p, puzzle) in doc.puzzles.iter().enumerate() {
        check_puzzle(text, puzzle).map_err(|e| format!("puzzle {}: {e}", p + 1))?;
    }
    Ok(())
}

fn check_puzzle(text: &str, p: &super::Puzzle) -> Result<(), String> {
    let in_text = |s: Span| s.start <= s.end && text.get(s.start..s.end).is_some();
    let n = p.size.side();
    ensure(
        p.givens.len() == n * n && p.cell_spans.len() == n * n,
        || {
            format!(
                "{} digits and {} spans for {} cells",
                p.givens.len(),
                p.cell_spans.len(),
                n * n
            )
        },
    )?;
    ensure(p.givens.iter().all(|&d| d as usize <= n), || {
        "a digit beyond the size".into()
    })?;
    for (i, (&d, s)) in p.givens.iter().zip(p.cell_spans.iter()).enumerate() {
        ensure(in_text(s), || format!("cell span {s:?} outside the text"))?;
        let cell = &text[s.start..s.end];
        match &p.marks {
            Some(marks) => check_marks_cell(cell, p.layout, d, marks[i], n)?,
            None => check_plain_cell(cell, d, p.is_entry(i))?,
        }
    }
    let spans: Vec<_> = p.cell_spans.iter().collect();
    ensure(spans.windows(2).all(|w| w[0].end <= w[1].start), || {
        "cell spans out of order".into()
    })?;
    ensure(in_text(p.span) && in_text(p.first_row), || {
        format!("puzzle span {:?} outside the text", p.span)
    })?;
    ensure(
        p.span.start <= spans[0].start && spans[n * n - 1].end <= p.span.end,
        || format!("cells outside the puzzle's span {:?}", p.span),
    )?;
    ensure(
        p.header
            .iter()
            .all(|&h| in_text(h) && h.end <= p.span.start),
        || "a header line outside the text or after the puzzle".into(),
    )?;
    if let Some(entry) = p.meta.entries().find(|e| !in_text(e.span)) {
        return Err(format!("metadata span {:?} outside the text", entry.span));
    }
    Ok(())
}

/// A cell without pencil marks is one character (`.` `0` `_` when empty), or `+` and a digit
/// for an entry.
fn check_plain_cell(cell: &str, digit: u8, entry: bool) -> Result<(), String> {
    ensure(cell.len() == 1 + usize::from(entry), || {
        format!("cell {cell:?}")
    })?;
    ensure(cell.starts_with('+') == entry, || {
        format!("entry cell {cell:?}")
    })?;
    let c = cell.chars().last().unwrap_or(' ');
    if digit == 0 {
        ensure(matches!(c, '.' | '0' | '_'), || format!("empty cell {c:?}"))
    } else {
        ensure(c.to_ascii_uppercase() == digit_char(digit), || {
            format!("cell {c:?} read as {digit}")
        })
    }
}

/// A cell of pencil marks says what was read: its digits (or the places holding them) are its
/// set, one digit is placed (unless written `*7`, an empty cell's only mark), and a lone empty
/// mark or every digit is an empty cell.
fn check_marks_cell(
    cell: &str,
    layout: Layout,
    given: u8,
    set: DigitSet,
    side: usize,
) -> Result<(), String> {
    let written: DigitSet = cell
        .chars()
        .filter_map(char_digit)
        .map(|d| 1 << (d - 1))
        .sum();
    match layout {
        Layout::MarksLine => ensure(cell.len() == side, || format!("marks {cell:?}"))?,
        // `*7`, an empty cell's lone mark, is one longer than its digits.
        _ => ensure(cell.len() <= side + 1, || format!("marks {cell:?}"))?,
    }
    let expected = if written == 0 && layout == Layout::Marks {
        every_digit(side)
    } else {
        written
    };
    ensure(set == expected, || {
        format!("marks {cell:?} read as {set:#b}")
    })?;
    let single = set.count_ones() == 1;
    if cell.starts_with('*') {
        // An empty cell's only mark: one digit, not placed.
        return ensure(single && given == 0, || {
            format!("marks {cell:?} placed {given}")
        });
    }
    ensure((given != 0) == single, || {
        format!("marks {cell:?} placed {given}")
    })?;
    ensure(!single || set == 1 << (given - 1), || {
        format!("marks {cell:?} placed {given}")
    })
}

fn ensure(holds: bool, broken: impl FnOnce() -> String) -> Result<(), String> {
    if holds {
        Ok(())
    } else {
        Err(broken())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse;

    /// A 4×4 one-liner, and a 12×12 pencil-mark grid with empty cells' lone marks (`*6`).
    const TEXT: &str = "1234341223414123\n\n\
        15 2 3  4 | 568 *6 7  68 | 9  A B C\n*5 6 7  8 | 9   A  B  C  | 1  2 3 4\n\
        9  A B  C | 1   *2 3  4  | *5 6 7 8\n----------+--------------+---------\n\
        2  3 4  5 | *6  7  8  9  | A  B C 1\n6  7 8  9 | A   B  C  1  | 2  3 4 5\n\
        A  B C  1 | 2   3  4  5  | 6  7 8 9\n----------+--------------+---------\n\
        3  4 5  6 | 7   8  9  A  | B  C 1 2\n7  8 9  A | B   C  1  2  | 3  4 5 6\n\
        B  C 1  2 | 3   4  5  *6 | 7  8 9 A\n----------+--------------+---------\n\
        4  5 6  7 | *8  9  A  B  | C  1 2 3\n8  9 A  B | C   1  *2 3  | 4  5 6 7\n\
        C  1 *2 3 | 4   5  6  7  | 8  9 A B\n";

    #[test]
    fn a_parse_keeps_the_contract() {
        let doc = parse(TEXT);
        assert!(doc.problems.is_empty(), "{:?}", doc.problems);
        assert_eq!(doc.puzzles.len(), 2);
        assert_eq!(check_invariants(TEXT, &doc), Ok(()));
    }

    #[test]
    fn a_broken_parse_is_named() {
        let mut doc = parse(TEXT);
        doc.puzzles[1].givens[0] = 3; // the cell `15` read as a placed 3
        let broken = check_invariants(TEXT, &doc).unwrap_err();
        assert!(broken.starts_with("puzzle 2: marks \"15\""), "{broken}");
        let mut doc = parse(TEXT);
        doc.puzzles[0].span.end = TEXT.len() + 1;
        let broken = check_invariants(TEXT, &doc).unwrap_err();
        assert!(broken.contains("outside the text"), "{broken}");
    }
}
