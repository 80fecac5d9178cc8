//! Re-reading a document after an edit: only the lines around the edit, the rest reused.
//!
//! The parser walks lines left to right, and at some lines it provably starts afresh: after a
//! blank line (no comment group is pending and nothing before looks past a blank line), and
//! after a one-line puzzle whose width can be nothing else (36, 81, 144, 256 or 625 cells: no
//! block row has that many, so no block swallows it, and with no size declared, in the file or
//! its header, it is read on its own; its header is taken with it, so none is pending after). Once a grid has been
//! seen the file's metadata is settled, so the parser's whole state at such a point is known.
//! `reparse` therefore re-reads the text between the last such point before the edit and the
//! first one after it, keeps the old puzzles and findings before it, and moves those after it
//! by the edit's change in length: the result is the same as a full parse of the new text (a
//! property test checks exactly that, spans included). With no such point before the edit, it
//! re-reads from the start of the text, and keeps the rest only if the file's metadata it
//! reads is what it was.

use std::sync::Arc;

use super::document::Document;
use super::lines::{Kind, Line, Lines};
use super::meta::key_value;
use super::parse::{one_line_size, parse, parse_region};
use super::puzzle::Puzzle;
use crate::finding::{Finding, Span};
use crate::grid::Size;

/// An edit as byte offsets: the old text's `start..old_end` became the new text's
/// `start..new_end`; before and after those, the texts are the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    pub start: usize,
    pub old_end: usize,
    pub new_end: usize,
}

/// What `reparse` changed: puzzles `first..first + removed` of the old document became
/// `first..first + added` of the new one; the puzzles before are untouched and those after
/// were only moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Splice {
    pub first: usize,
    pub removed: usize,
    pub added: usize,
}

impl Change {
    /// Where two texts differ: their longest common prefix and, in what remains, suffix (a
    /// 4 MB text compares in about a millisecond; see [`shared_bytes`]).
    pub fn between(old: &str, new: &str) -> Change {
        let prefix = shared_bytes(std::iter::once(old), std::iter::once(new), false);
        let suffix = shared_bytes(std::iter::once(old), std::iter::once(new), true);
        Change::from_shared(old.len(), new.len(), prefix, suffix)
    }

    /// The change between texts of `old_len` and `new_len` bytes that share their first
    /// `prefix` bytes and their last `suffix`, each run measured alone (`shared_bytes`: a
    /// rope's chunks or a string's one): the suffix is cut short where it would reach into the
    /// prefix (`aa` → `aaa` shares two bytes each way; one was inserted).
    pub fn from_shared(old_len: usize, new_len: usize, prefix: usize, suffix: usize) -> Change {
        let suffix = suffix.min(old_len.min(new_len) - prefix);
        Change {
            start: prefix,
            old_end: old_len - suffix,
            new_end: new_len - suffix,
        }
    }
}

/// How many lines on each side of an edit a re-read may look at for a point to resume parsing
/// at (one line does in a collection of one-liners; a blank line between block puzzles is
/// seldom further away than this). The language server's window over its rope and [`window`]
/// both keep it.
pub const WINDOW_MARGIN_LINES: usize = 100;

/// Whole lines of `text` around the change's new bytes, with [`WINDOW_MARGIN_LINES`] each
/// side, and where they start: the window `reparse` reads.
pub fn window(text: &str, change: Change) -> (usize, &str) {
    // Bytes, not characters: where two texts start to differ may be inside a character.
    let bytes = text.as_bytes();
    let breaks_before = bytes[..change.start].iter().rposition(|&b| b == b'\n');
    let mut start = breaks_before.map_or(0, |at| at + 1);
    for _ in 0..WINDOW_MARGIN_LINES {
        if start == 0 {
            break;
        }
        start = bytes[..start - 1]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |at| at + 1);
    }
    let mut end = change.new_end;
    for _ in 0..=WINDOW_MARGIN_LINES {
        match bytes[end..].iter().position(|&b| b == b'\n') {
            Some(at) => end += at + 1,
            None => {
                end = text.len();
                break;
            }
        }
    }
    (start, &text[start..end])
}

/// Update `doc`, the parse of the old text, to the parse of the new text, reading only `window`:
/// whole lines of the new text starting at its byte `window_start` (a line start) and covering
/// the change, in a new text of `text_len` bytes. `None`, with `doc` untouched, when the window
/// holds no point to resume parsing at on either side of the change (or the change is outside
/// it): then parse the whole text.
// Over 80 lines: one sequence (resume point before the change, then after it, reparse, splice)
// whose steps share the lines around the change and the window's bounds.
pub fn reparse(
    doc: &mut Document,
    window: &str,
    window_start: usize,
    text_len: usize,
    change: Change,
) -> Option<Splice> {
    let window_end = window_start + window.len();
    let sane = change.start <= change.old_end.min(change.new_end)
        && window_start <= change.start
        && change.new_end <= window_end
        && window_end <= text_len;
    if !sane {
        return None;
    }
    // Resuming needs the file's metadata settled, which it is once the first grid is seen.
    let first_grid = doc.puzzles.first()?.span.start;
    // Only the lines before the change and those after it are looked at, and held: the changed
    // ones between them (a paste of any length) are read by the parser alone, which holds a few
    // lines at a time.
    let mut lines = Lines::new(window, window_start);
    let before: Vec<Line> = lines
        .by_ref()
        .take_while(|l| l.next <= change.start)
        .collect();
    let after: Vec<Line> = lines.skip_while(|l| l.start <= change.new_end).collect();
    let sized = doc.file_scope.size.valid().is_some();
    let source = (window, window_start);
    let at_break = |x: usize| window.as_bytes()[x - window_start - 1] == b'\n';
    // The last resume point before the change whose line break the change cannot touch.
    let from = (0..before.len())
        .rev()
        .filter(|&k| has_break(&before[k]))
        .map(|k| (k, before[k].next))
        .find(|&(k, x)| {
            (x < change.start || at_break(x))
                && first_grid < x
                && resumes_after(&before, k, sized, source, window_start == 0)
        })
        .map(|(_, x)| x);
    // Failing that, the very start (where the parser's state is its first), when in reach.
    let from = match from {
        Some(x) => x,
        None if window_start == 0 => 0,
        None => return None,
    };
    // The first resume point after the change whose lines are the same in the old text (the
    // line before the first of `after` is a changed one).
    let until = (0..after.len())
        .filter(|&k| has_break(&after[k]))
        .map(|k| (k, after[k].next))
        .find(|&(k, x)| {
            let certain = x < window_end || at_break(x) || x == text_len;
            certain && resumes_after(&after, k, sized, source, false)
        })
        .map(|(_, x)| x);
    let until = match until {
        Some(x) => x,
        None if window_end == text_len => text_len,
        None => return None,
    };
    let region = &window[from - window_start..until - window_start];
    let old_until = until - change.new_end + change.old_end;
    let fresh = if from == 0 {
        // Read from the start, the file's metadata is read again: the rest can be kept only if
        // it comes out the same and is settled (a grid seen) on both sides of `until`.
        let fresh = parse(region);
        let settled = first_grid < old_until && !fresh.puzzles.is_empty();
        if !settled || fresh.file_scope != doc.file_scope {
            return None;
        }
        fresh
    } else {
        parse_region(region, from, doc.file_scope.clone())
    };
    let delta = change.new_end as isize - change.old_end as isize;
    let replaced = (from, old_until);
    let (first, removed, added) = splice_region(
        &mut doc.puzzles,
        fresh.puzzles,
        replaced,
        delta,
        |p| p.span.start,
        shift_puzzle,
    );
    splice_region(
        &mut doc.problems,
        fresh.problems,
        replaced,
        delta,
        |f| f.span.start,
        shift_finding,
    );
    splice_region(
        &mut doc.unread,
        fresh.unread,
        replaced,
        delta,
        |&start| start,
        shift_offset,
    );
    Some(Splice {
        first,
        removed,
        added,
    })
}

/// Replace the `items` (sorted by where they start) that start in `from..old_until` of the old
/// text with `fresh`, and move those after by `delta` bytes; gives where the replaced ones began,
/// how many there were and how many came in.
fn splice_region<T>(
    items: &mut Vec<T>,
    fresh: Vec<T>,
    (from, old_until): (usize, usize),
    delta: isize,
    start: impl Fn(&T) -> usize,
    shift: fn(&mut T, usize, isize),
) -> (usize, usize, usize) {
    let first = items.partition_point(|item| start(item) < from);
    let last = items.partition_point(|item| start(item) < old_until);
    let added = fresh.len();
    items.splice(first..last, fresh);
    if delta != 0 {
        for item in &mut items[first + added..] {
            shift(item, old_until, delta);
        }
    }
    (first, last - first, added)
}

fn has_break(line: &Line) -> bool {
    line.next > line.end
}

/// Whether the parser starts afresh after line `k` (see the module comment) of `lines`, a run of
/// consecutive lines of `window` (found at a byte offset of the text) that read the same in the
/// old text (a one-liner's header must, or the old parse may have read it differently).
/// `first_resumes` says what to conclude when the look back reaches the run's first line: true
/// only when that is the text's first line.
fn resumes_after(
    lines: &[Line],
    k: usize,
    sized: bool,
    (window, window_start): (&str, usize),
    first_resumes: bool,
) -> bool {
    let source = |line: &Line| &window[line.start - window_start..line.end - window_start];
    match lines[k].kind {
        Kind::Blank => true,
        Kind::Cells(c) if !sized && is_only_one_line(c.run) => {
            // Its header: the comments (junk and borders between them change nothing) up to a
            // blank or cells line. With no `size` there it is read alone, as a one-liner.
            for line in lines[..k].iter().rev() {
                match line.kind {
                    Kind::Blank | Kind::Cells(_) => return true,
                    Kind::Comment if declares_size(source(line)) => return false,
                    Kind::Comment | Kind::Rule | Kind::Junk(_) | Kind::Border => {}
                }
            }
            first_resumes
        }
        _ => false,
    }
}

pub(super) fn declares_size(comment: &str) -> bool {
    key_value(comment).is_some_and(|kv| kv.key.eq_ignore_ascii_case("size"))
}

/// A cell count that only a one-line puzzle has (16 is also a row of a 16×16 block).
pub(super) fn is_only_one_line(cells: usize) -> bool {
    one_line_size(cells).is_some() && Size::from_side(cells).is_none()
}

/// Move a span that lies at or after `from` in the old text by `delta`.
fn shift(span: &mut Span, from: usize, delta: isize) {
    if span.start >= from {
        span.start = span.start.wrapping_add_signed(delta);
        span.end = span.end.wrapping_add_signed(delta);
    }
}

fn shift_puzzle(puzzle: &mut Puzzle, from: usize, delta: isize) {
    puzzle.cell_spans.shift(delta);
    shift(&mut puzzle.span, from, delta);
    shift(&mut puzzle.first_row, from, delta);
    if let Some(span) = &mut puzzle.header {
        shift(span, from, delta);
    }
    // The file's own entries lie above the first grid and stay where they are; a puzzle with
    // none of its own shares them with others, so is left as it is.
    let own = puzzle.meta.entries().any(|entry| entry.span.start >= from);
    if !own {
        return;
    }
    let entries = Arc::make_mut(&mut puzzle.meta).fields_mut();
    for entry in entries.into_iter().flatten() {
        shift(&mut entry.span, from, delta);
    }
}

/// Where an unread grid starts (`Document::unread`).
fn shift_offset(start: &mut usize, from: usize, delta: isize) {
    if *start >= from {
        *start = start.wrapping_add_signed(delta);
    }
}

fn shift_finding(finding: &mut Finding, from: usize, delta: isize) {
    shift(&mut finding.span, from, delta);
    for related in finding.related.iter_mut() {
        shift(&mut related.span, from, delta);
    }
}

/// The run of bytes two texts, each a sequence of chunks (a rope's, or a string's one), share
/// from their start or (`from_end`, chunks given last first) from their end. Chunk boundaries
/// need not agree.
pub fn shared_bytes<'a>(
    mut a: impl Iterator<Item = &'a str>,
    mut b: impl Iterator<Item = &'a str>,
    from_end: bool,
) -> usize {
    let (mut x, mut y): (&[u8], &[u8]) = (&[], &[]);
    let mut shared = 0;
    loop {
        if x.is_empty() {
            match a.next() {
                Some(chunk) => x = chunk.as_bytes(),
                None => return shared,
            }
            continue;
        }
        if y.is_empty() {
            match b.next() {
                Some(chunk) => y = chunk.as_bytes(),
                None => return shared,
            }
            continue;
        }
        let n = x.len().min(y.len());
        let run = if from_end {
            shared_run(&x[x.len() - n..], &y[y.len() - n..], true)
        } else {
            shared_run(&x[..n], &y[..n], false)
        };
        shared += run;
        if run < n {
            return shared;
        }
        if from_end {
            (x, y) = (&x[..x.len() - n], &y[..y.len() - n]);
        } else {
            (x, y) = (&x[n..], &y[n..]);
        }
    }
}

/// How many bytes two equally long pieces share from their start (or end). The ropes of two
/// versions share their unchanged chunks, so the same memory is the same text; else they are
/// compared a block at a time (a slice comparison is a `memcmp`), byte by byte only in the
/// block where they differ.
fn shared_run(x: &[u8], y: &[u8], from_end: bool) -> usize {
    const BLOCK: usize = 256;
    if std::ptr::eq(x, y) || x == y {
        return x.len();
    }
    let n = x.len();
    let mut run = 0;
    while run + BLOCK <= n {
        let (bx, by) = if from_end {
            (&x[n - run - BLOCK..n - run], &y[n - run - BLOCK..n - run])
        } else {
            (&x[run..run + BLOCK], &y[run..run + BLOCK])
        };
        if bx != by {
            break;
        }
        run += BLOCK;
    }
    let rest = if from_end {
        x[..n - run]
            .iter()
            .rev()
            .zip(y[..n - run].iter().rev())
            .take_while(|(p, q)| p == q)
            .count()
    } else {
        x[run..]
            .iter()
            .zip(&y[run..])
            .take_while(|(p, q)| p == q)
            .count()
    };
    run + rest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_is_where_two_texts_differ_and_its_runs_do_not_overlap() {
        let change = Change::between("aa", "aaa");
        assert_eq!((change.start, change.old_end, change.new_end), (2, 2, 3));
        let change = Change::between("12345", "12x45");
        assert_eq!((change.start, change.old_end, change.new_end), (2, 3, 3));
        // `é` (C3 A9) became `è` (C3 A8): they differ inside the character.
        let change = Change::between("aé", "aè");
        assert_eq!((change.start, change.old_end, change.new_end), (2, 3, 3));
    }

    #[test]
    fn the_window_is_whole_lines_with_the_margin_each_side() {
        let lines: Vec<String> = (0..300).map(|i| format!("line {i}\n")).collect();
        let old = lines.concat();
        let mut edited = lines.clone();
        edited[150] = "line 150 edited\n".into();
        let new = edited.concat();
        let (start, window) = window(&new, Change::between(&old, &new));
        let first = 150 - WINDOW_MARGIN_LINES;
        assert_eq!(start, lines[..first].concat().len());
        let expected = edited[first..=150 + WINDOW_MARGIN_LINES].concat();
        assert_eq!(window, expected);
        // Near the ends the window stops at the text's.
        let short = "a\nb\nc";
        assert_eq!(window_of(short, 4), (0, short));
    }

    fn window_of(text: &str, at: usize) -> (usize, &str) {
        let change = Change {
            start: at,
            old_end: at,
            new_end: at,
        };
        window(text, change)
    }
}
