//! A sequence of edits, each re-read incrementally with `format::reparse` (windows of random
//! margins, as the server's are): the document must equal a fresh parse of the same text,
//! spans included. When `reparse` declines, the document is parsed whole, as the server does.
#![no_main]

use arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use sudoku_lsp::format::{parse, reparse, Change};
use sudoku_lsp_fuzz::{check_invariants, lsp_lines, piece, text};

/// The byte range of whole lines around `from..to`, with `before` and `after` more lines.
fn window_around(
    text: &str,
    from: usize,
    to: usize,
    before: usize,
    after: usize,
) -> (usize, usize) {
    let starts: Vec<usize> = lsp_lines(text).iter().map(|l| l.0).collect();
    let first = starts
        .partition_point(|&s| s <= from)
        .saturating_sub(1 + before);
    let last = starts.partition_point(|&s| s <= to).saturating_add(after);
    let end = starts.get(last).copied().unwrap_or(text.len());
    (starts[first], end)
}

fn run(u: &mut Unstructured) -> Result<()> {
    let mut current = text(u, 30)?;
    let mut doc = parse(&current);
    let edits = u.int_in_range(1..=8)?;
    for _ in 0..edits {
        let bounds: Vec<usize> = (0..=current.len())
            .filter(|&i| current.is_char_boundary(i))
            .collect();
        let a = bounds[u.choose_index(bounds.len())?];
        let b = if u.ratio(1, 2)? {
            a
        } else {
            bounds[u.choose_index(bounds.len())?]
        };
        let (from, to) = (a.min(b), a.max(b));
        let inserted = match u.int_in_range(0..=3)? {
            0 => String::new(),
            1 | 2 => piece(u)?,
            _ => text(u, 4)?,
        };
        let margins = match u.int_in_range(0..=4)? {
            0 => (usize::MAX / 4, usize::MAX / 4),
            1 => (100, 100),
            _ => (u.int_in_range(0..=3)?, u.int_in_range(0..=3)?),
        };
        let old = current.clone();
        current.replace_range(from..to, &inserted);
        let change = Change {
            start: from,
            old_end: to,
            new_end: from + inserted.len(),
        };
        let (ws, we) = window_around(&current, change.start, change.new_end, margins.0, margins.1);
        let before = doc.puzzles.len();
        let full = parse(&current);
        match reparse(&mut doc, &current[ws..we], ws, current.len(), change) {
            Some(splice) => {
                assert_eq!(
                    format!("{doc:?}"),
                    format!("{full:?}"),
                    "reparse differs from a full parse\nold: {old:?}\nnew: {current:?}\nwindow: {ws}..{we} {splice:?}"
                );
                assert_eq!(before - splice.removed + splice.added, full.puzzles.len());
            }
            None => doc = full,
        }
        check_invariants(&current, &doc);
    }
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let _ = run(&mut Unstructured::new(data));
});
