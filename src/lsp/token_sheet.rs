//! The semantic tokens the server keeps per document: the last tokens sent, by line, so that
//! the delta after an edit reads again only the lines it touched (widened to whole puzzles, and
//! until the puzzles just outside are the same before and after) and sends them as one splice,
//! instead of walking 4 million tokens of a large collection again. The whole array goes out as
//! JSON written here ([`Sheet::data_json`]).

use ropey::Rope;
use tower_lsp_server::lsp_types::{SemanticToken, SemanticTokensEdit};

use super::documents;
use super::encoding::Encoding;
use super::tokens::{each_token, flatten, read_lines};
use super::view::View;
use crate::format::{self, Puzzle};

/// How many times a delta may widen the lines it reads again before it reads the whole text.
const MAX_WIDENINGS: usize = 64;

/// The tokens of one text, line by line: what the server keeps as the base of the next delta,
/// so that an edit costs the lines it touched, not the whole text.
pub struct Sheet {
    /// Each line's tokens as the protocol encodes them, except that the first token's
    /// `delta_line` is left 0: it depends on the lines above, and is filled in when sent.
    lines: Vec<Vec<SemanticToken>>,
    /// The text they are the tokens of (its chunks shared with the document's).
    rope: Rope,
    /// The lines of each puzzle, from its header's first to its last row, in order: an edit
    /// inside a puzzle can change the tokens of all of it (its layout, its conflicts).
    extents: Vec<Lines>,
    /// Whether the conflicts came from this text's finished run (else there are none).
    analyzed: bool,
    /// How many lines the last `new` or `update` read: what shows a delta took the short way.
    lines_read: usize,
}

/// A run of lines, both ends included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Lines {
    first: usize,
    last: usize,
}

impl Lines {
    fn meets(self, other: Lines) -> bool {
        self.first <= other.last && other.first <= self.last
    }

    fn join(self, other: Lines) -> Lines {
        Lines {
            first: self.first.min(other.first),
            last: self.last.max(other.last),
        }
    }

    fn shifted(self, by: isize) -> Lines {
        Lines {
            first: self.first.saturating_add_signed(by),
            last: self.last.saturating_add_signed(by),
        }
    }

    /// A region of the old text (it holds the change) as it lies in the new text: the same
    /// first line, its last moved by the lines the change added.
    fn in_new(self, shift: isize) -> Lines {
        Lines {
            first: self.first,
            last: self.last.saturating_add_signed(shift).max(self.first),
        }
    }

    /// Lines of the new text in the old one's numbers, around `region` (of the old text):
    /// lines above it keep theirs, lines below move back by `shift`, lines inside stay inside.
    fn in_old(self, region: Lines, shift: isize) -> Lines {
        let new_last = region.in_new(shift).last;
        let map = |line: usize| {
            if line < region.first {
                line
            } else if line > new_last {
                line.saturating_add_signed(-shift)
            } else {
                line.clamp(region.first, region.last)
            }
        };
        Lines {
            first: map(self.first),
            last: map(self.last),
        }
    }
}

impl Sheet {
    /// Every token of the view's text.
    pub fn new(view: &View) -> Sheet {
        let rope = &view.snapshot.rope;
        let lines = read_lines(view, 0, rope.len_lines());
        Sheet {
            lines_read: lines.len(),
            lines,
            rope: rope.clone(),
            extents: extents(view, 0..view.document().puzzles.len()),
            analyzed: view.is_analyzed(),
        }
    }

    /// The whole array, as `textDocument/semanticTokens/full` sends it.
    pub fn data(&self) -> Vec<SemanticToken> {
        flatten(&self.lines, 0, 0)
    }

    /// The whole array as JSON text (`[0,2,5,4,0,...]`), written straight from the lines: for a
    /// large collection, building it as `SemanticToken`s and then as a `serde_json::Value`
    /// costs many times more than the tokens themselves.
    pub fn data_json(&self) -> Vec<u8> {
        let count: usize = self.lines.iter().map(Vec::len).sum();
        // Most numbers of a collection's array are one digit and a comma.
        let mut json = Vec::with_capacity(count * 5 * 2 + 2);
        json.push(b'[');
        let mut digits = itoa::Buffer::new();
        // A token's five numbers are put together here first, then added to the array at once.
        let mut token = [0u8; 5 * 11];
        each_token(&self.lines, 0, 0, |t| {
            let mut end = 0;
            for n in [
                t.delta_line,
                t.delta_start,
                t.length,
                t.token_type,
                t.token_modifiers_bitset,
            ] {
                if n < 10 {
                    token[end] = b'0' + n as u8; // most are one digit: no formatting
                    end += 1;
                } else {
                    let text = digits.format(n).as_bytes();
                    token[end..end + text.len()].copy_from_slice(text);
                    end += text.len();
                }
                token[end] = b',';
                end += 1;
            }
            json.extend_from_slice(&token[..end]);
        });
        match json.last_mut() {
            Some(last @ b',') => *last = b']',
            _ => json.push(b']'),
        }
        json
    }

    /// Bring the sheet to the view's text, reading again only the lines an edit changed and the
    /// puzzles around them; the edits that turn the array sent before into the new one.
    pub fn update(&mut self, view: &View) -> Vec<SemanticTokensEdit> {
        let rope = &view.snapshot.rope;
        let change = documents::change_between(&self.rope, rope);
        let same_text = change.start == change.old_end && change.start == change.new_end;
        if same_text && self.analyzed == view.is_analyzed() {
            self.rope = rope.clone();
            self.lines_read = 0;
            return Vec::new();
        }
        match self.region(view, change) {
            Some(old) => self.splice(view, old, line_shift(&self.rope, rope)),
            None => {
                let old = self.data();
                *self = Sheet::new(view);
                delta(&old, &self.data())
            }
        }
    }

    /// The lines of the old text to read again (in the new text they are shifted by the
    /// difference in line counts after them): those the change touched, widened to whole
    /// puzzles on both sides until the puzzles just outside are the same before and after.
    /// `None` when only the whole text will do: the change reaches the file's own metadata
    /// (above the first grid), conflicts became known or unknown, or no edge is found soon.
    fn region(&self, view: &View, change: format::Change) -> Option<Lines> {
        let (old, new) = (&self.rope, &view.snapshot.rope);
        let puzzles = &view.document().puzzles;
        let first_grid = puzzles.first().map_or(usize::MAX, |p| p.span.start);
        if self.analyzed != view.is_analyzed() || change.start <= first_grid {
            return None;
        }
        let shift = line_shift(old, new);
        let mut lines = Lines {
            first: old.byte_to_line(change.start),
            last: old.byte_to_line(change.old_end),
        };
        // Lines after the change are the same text in both: the old one's last changed line
        // and the new one's moved back agree, except around a split `\r\n`.
        let new_last = new
            .byte_to_line(change.new_end)
            .saturating_add_signed(-shift);
        lines.last = lines.last.max(new_last);
        for _ in 0..MAX_WIDENINGS {
            let wider = self.widened(view, lines, shift);
            if wider == lines {
                return Some(lines);
            }
            lines = wider;
        }
        None
    }

    /// `lines` (of the old text) joined with every puzzle meeting them before or after the
    /// change, and with the nearest puzzles outside them when those differ.
    fn widened(&self, view: &View, lines: Lines, shift: isize) -> Lines {
        let mut wider = self
            .extents_meeting(lines)
            .iter()
            .fold(lines, |l, &e| l.join(e));
        let (meeting, before, after) = new_extents_around(view, lines.in_new(shift));
        for extent in meeting {
            wider = wider.join(extent.in_old(lines, shift));
        }
        let split = self.extents.partition_point(|e| e.last < lines.first);
        let old_before = split.checked_sub(1).map(|i| self.extents[i]);
        let old_after_at = self.extents.partition_point(|e| e.first <= lines.last);
        let old_after = self.extents.get(old_after_at).map(|e| e.shifted(shift));
        // The puzzles just outside must be the same ones, or the change reached them too.
        if old_before != before {
            for extent in old_before.into_iter().chain(before) {
                wider = wider.join(extent);
            }
        }
        if old_after != after {
            for extent in old_after.into_iter().chain(after) {
                wider = wider.join(extent.in_old(lines, shift));
            }
        }
        wider
    }

    /// The old puzzles' extents meeting `lines`.
    fn extents_meeting(&self, lines: Lines) -> &[Lines] {
        let from = self.extents.partition_point(|e| e.last < lines.first);
        let to = self.extents.partition_point(|e| e.first <= lines.last);
        &self.extents[from..to.max(from)]
    }

    /// Read `old` lines again as `old.in_new(shift)` of the view's text, put them in, and say
    /// so as one edit: from the region's first token to the first token after it (whose line
    /// delta counts from the region's last token).
    fn splice(&mut self, view: &View, old: Lines, shift: isize) -> Vec<SemanticTokensEdit> {
        let new = old.in_new(shift);
        let fresh = read_lines(view, new.first, new.last + 1);
        self.lines_read = fresh.len();
        let before: usize = self.lines[..old.first].iter().map(Vec::len).sum();
        let removed: usize = self.lines[old.first..=old.last].iter().map(Vec::len).sum();
        let previous = self.lines[..old.first].iter().rposition(|l| !l.is_empty());
        let next = (old.last + 1..self.lines.len()).find(|&l| !self.lines[l].is_empty());
        let mut data = flatten(&fresh, new.first, previous.unwrap_or(0));
        if let Some(next) = next {
            let last = fresh.iter().rposition(|l| !l.is_empty());
            let above = last.map(|l| new.first + l).or(previous).unwrap_or(0);
            let line = next.saturating_add_signed(shift);
            data.push(SemanticToken {
                delta_line: (line - above) as u32,
                ..self.lines[next][0]
            });
        }
        let removed = removed + usize::from(next.is_some());
        self.lines.splice(old.first..=old.last, fresh);
        self.rope = view.snapshot.rope.clone();
        self.replace_extents(view, old, shift);
        if removed == 0 && data.is_empty() {
            return Vec::new();
        }
        vec![SemanticTokensEdit {
            start: (before * 5) as u32,
            delete_count: (removed * 5) as u32,
            data: Some(data),
        }]
    }

    /// The extents of the puzzles in `old` replaced by those now there; those after, shifted.
    fn replace_extents(&mut self, view: &View, old: Lines, shift: isize) {
        let from = self.extents.partition_point(|e| e.last < old.first);
        let to = self
            .extents
            .partition_point(|e| e.first <= old.last)
            .max(from);
        let (meeting, _, _) = new_extents_around(view, old.in_new(shift));
        for extent in &mut self.extents[to..] {
            *extent = extent.shifted(shift);
        }
        self.extents.splice(from..to, meeting);
    }
}

/// How many more lines the new text has than the old.
fn line_shift(old: &Rope, new: &Rope) -> isize {
    new.len_lines() as isize - old.len_lines() as isize
}

/// The first and last line of each of `puzzles` of the view's document.
fn extents(view: &View, puzzles: std::ops::Range<usize>) -> Vec<Lines> {
    let rope = &view.snapshot.rope;
    let all = &view.document().puzzles;
    // One cursor down the text: a large collection's extents cost one walk, not two rope
    // look-ups a puzzle.
    let mut cursor = Encoding::Utf8.cursor(rope);
    all[puzzles]
        .iter()
        .map(|p| Lines {
            first: cursor.position(top(p)).line as usize,
            last: cursor.position(p.span.end).line as usize,
        })
        .collect()
}

/// Where a puzzle starts: its header's first line, else its first row.
fn top(puzzle: &Puzzle) -> usize {
    puzzle
        .header
        .map_or(puzzle.span.start, |h| h.start.min(puzzle.span.start))
}

/// The extents of the view's puzzles meeting `lines`, and of the nearest puzzle before and
/// after them.
fn new_extents_around(view: &View, lines: Lines) -> (Vec<Lines>, Option<Lines>, Option<Lines>) {
    let rope = &view.snapshot.rope;
    let puzzles = &view.document().puzzles;
    let last = lines.last.min(rope.len_lines().saturating_sub(1));
    let start = rope.line_to_byte(lines.first.min(last));
    let end = rope.line_to_byte(last + 1);
    let from = puzzles.partition_point(|p| p.span.end < start);
    let to = from + puzzles[from..].partition_point(|p| top(p) < end.max(start + 1));
    let all = extents(view, from.saturating_sub(1)..(to + 1).min(puzzles.len()));
    let mut inner = &all[..];
    let mut before = None;
    if from > 0 {
        before = inner.first().copied();
        inner = &inner[1..];
    }
    let mut after = None;
    if to < puzzles.len() {
        after = inner.last().copied();
        inner = &inner[..inner.len() - 1];
    }
    // A puzzle ending on the region's first line is both before and meeting: keep it meeting.
    let meeting: Vec<Lines> = inner.iter().copied().filter(|e| e.meets(lines)).collect();
    (meeting, before.filter(|e| e.last < lines.first), after)
}

/// The edits that turn `old` into `new`: one, replacing what lies between their common start
/// and common end (nothing when they are equal). Offsets count `u32`s, five a token.
pub fn delta(old: &[SemanticToken], new: &[SemanticToken]) -> Vec<SemanticTokensEdit> {
    let (prefix, suffix) = format::common_ends(old, new);
    if prefix == old.len() && prefix == new.len() {
        return Vec::new();
    }
    vec![SemanticTokensEdit {
        start: (prefix * 5) as u32,
        delete_count: ((old.len() - prefix - suffix) * 5) as u32,
        data: Some(new[prefix..new.len() - suffix].to_vec()),
    }]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token(n: u32) -> SemanticToken {
        SemanticToken {
            delta_line: n,
            ..SemanticToken::default()
        }
    }

    fn apply(old: &[SemanticToken], edits: &[SemanticTokensEdit]) -> Vec<SemanticToken> {
        let mut out = old.to_vec();
        for edit in edits.iter().rev() {
            let start = edit.start as usize / 5;
            let end = start + edit.delete_count as usize / 5;
            out.splice(start..end, edit.data.clone().unwrap_or_default());
        }
        out
    }

    fn view_of(rope: &Rope, encoding: Encoding) -> View {
        use super::super::config::ClientConfig;
        use super::super::documents::Snapshot;
        use super::super::view::Earlier;
        let snapshot = Snapshot {
            version: 1,
            generation: 1,
            rope: rope.clone(),
            received: std::time::SystemTime::now(),
        };
        let config = ClientConfig {
            encoding,
            ..ClientConfig::default()
        };
        let uri = "file:///t.sudoku".parse().unwrap();
        View::new(
            uri,
            snapshot,
            Earlier::default(),
            Default::default(),
            config,
        )
    }

    /// A small random number generator, so the test needs no crate and repeats exactly.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    const BLOCK: &str = "# title: b\n3.3|.2.|6..\n9..|3.5|..1  # B\n..1|8.6|4..\n---+---+---\n\
        ..8|1.2|9..\n7..|...|..8\n..6|7.8|2..\n---+---+---\n..2|6.9|5..\n8..|2.3|..9\n\
        ..5|.1.|3+7.\n";
    const ONE_LINE: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
    const MARKS: &str = "# size: 4x4\n1  2  | 34 34\n34 34 | 1  2\n2  1  | 34 34\n4  3  | 2  1\n";
    const PIECES: [&str; 12] = [
        "",
        "5",
        ".",
        "\n",
        "\r",
        "\r\n",
        "# foo: bar\n",
        "---+---+---\n",
        "# 日本 😀",
        "+7",
        "\n\n",
        ONE_LINE,
    ];

    /// Texts of block puzzles, one-liners, pencil marks, comments and blank lines (one in three
    /// with CRLF), each edited five times at random (a piece in place of a few characters):
    /// every delta, applied to the array before, gives the new text's whole array, and so does
    /// the sheet it leaves.
    #[test]
    fn a_delta_applied_to_the_array_before_gives_the_tokens_of_the_new_text() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let parts = [BLOCK, ONE_LINE, MARKS, "\n", "# a note\n", "free text\n"];
        for round in 0..400 {
            let mut text: String = (0..3 + rng.below(6))
                .map(|_| parts[rng.below(parts.len())])
                .collect();
            if round % 3 == 0 {
                text = text.replace('\n', "\r\n");
            }
            let encoding = [Encoding::Utf16, Encoding::Utf8][round % 2];
            let mut rope = Rope::from_str(&text);
            let mut sheet = Sheet::new(&view_of(&rope, encoding));
            for _ in 0..5 {
                let at = rng.below(rope.len_chars() + 1);
                let end = (at + rng.below(4)).min(rope.len_chars());
                rope.remove(at..end);
                rope.insert(at, PIECES[rng.below(PIECES.len())]);
                let view = view_of(&rope, encoding);
                let before = sheet.data();
                let edits = sheet.update(&view);
                let fresh = Sheet::new(&view).data();
                assert_eq!(apply(&before, &edits), fresh, "round {round}: {rope:?}");
                assert_eq!(sheet.data(), fresh, "round {round}: {rope:?}");
            }
        }
    }

    /// In a collection of one-line puzzles, an edit in one reads that line alone again, not
    /// the whole text, anywhere below the first (an edit there may be file metadata: all of it).
    #[test]
    fn a_delta_reads_again_only_the_puzzle_it_changed() {
        let mut rope = Rope::from_str(&ONE_LINE.repeat(500));
        let mut sheet = Sheet::new(&view_of(&rope, Encoding::Utf16));
        assert_eq!(sheet.lines_read, 501);
        let line_start = |rope: &Rope, line: usize| rope.line_to_char(line);
        for (line, column, piece) in [(250, 1, "7"), (1, 0, "."), (499, 80, "9"), (3, 81, "\n\n")] {
            let at = line_start(&rope, line) + column;
            rope.remove(at..at + 1);
            rope.insert(at, piece);
            let view = view_of(&rope, Encoding::Utf16);
            let before = sheet.data();
            let edits = sheet.update(&view);
            assert_eq!(apply(&before, &edits), Sheet::new(&view).data());
            assert!(
                sheet.lines_read <= 2,
                "line {line}: {} lines read",
                sheet.lines_read
            );
        }
    }

    #[test]
    fn delta_applied_to_the_old_array_gives_the_new() {
        let cases: [(&[u32], &[u32]); 6] = [
            (&[1, 2, 3], &[1, 2, 3]),
            (&[1, 2, 3], &[1, 9, 3]),
            (&[1, 2, 3], &[1, 3]),
            (&[1, 3], &[1, 2, 3]),
            (&[], &[4, 4]),
            (&[1, 1, 1], &[1, 1]),
        ];
        for (old, new) in cases {
            let old: Vec<_> = old.iter().map(|&n| token(n)).collect();
            let new: Vec<_> = new.iter().map(|&n| token(n)).collect();
            let edits = delta(&old, &new);
            assert_eq!(apply(&old, &edits), new);
            assert_eq!(edits.is_empty(), old == new);
        }
        let edits = delta(
            &[token(1), token(2), token(3)],
            &[token(1), token(9), token(3)],
        );
        assert_eq!((edits[0].start, edits[0].delete_count), (5, 5));
    }
}
