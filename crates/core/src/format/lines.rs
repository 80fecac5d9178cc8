//! Splitting text into lines and sorting each line into blank, comment, border or cells.
//!
//! This is the one pass over every character; the parser and the writer then work on the
//! line table. `\n`, `\r\n` and a lone `\r` all end a line, as in the Language Server Protocol,
//! and every position is a byte offset into the original text.

use crate::finding::Span;
use crate::grid::Size;

/// One line of the source: its content (without the line break) and what kind of line it is.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Line {
    /// Byte offset of the line's first character.
    pub start: usize,
    /// Byte offset just past the content, before the line break.
    pub end: usize,
    /// Byte offset just past the line break (the next line's start).
    pub next: usize,
    pub kind: Kind,
}

impl Line {
    pub(crate) fn span(&self) -> Span {
        Span::new(self.start, self.end)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Nothing but whitespace.
    Blank,
    /// A whole-line comment: the first non-blank character is `#`.
    Comment,
    /// A constraint line of a variant puzzle (`cage 15: A1 A2`, `antiknight`), or a line of that
    /// form that is wrong: `rules::read` says which. It belongs to a puzzle's header as metadata
    /// does.
    Rule,
    /// A box border such as `------+-------+------`, or a line of only `|` and whitespace.
    Border,
    /// Something that is no row even with typos: no cell at all, more than three stray runs,
    /// or prose (a word with a letter beyond `P`) — a comment that lacks its `#`, say.
    Junk(CellLine),
    /// Anything else: a grid row, a one-line puzzle, or something broken.
    Cells(CellLine),
}

/// What one scan of a cell line found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct CellLine {
    /// Cell slots before any comment: cells plus runs of stray characters (a stray `x` usually
    /// stands where a cell was meant, so it counts as one).
    pub slots: usize,
    /// Runs of stray characters (neither cell, separator, whitespace nor comment).
    pub strays: usize,
    /// The length of the leading run of cell characters with nothing between them, when that run
    /// could be a one-line puzzle (16, 36, 81, 144, 256 or 625 cells) and is followed by the end
    /// of the line, whitespace or `#`; 0 otherwise.
    pub run: usize,
    /// Byte offset of that run's first cell (a `+` before an entered digit is part of its cell,
    /// so the run may be longer in bytes than in cells).
    pub run_start: usize,
    /// Byte offset just past that run.
    pub run_end: usize,
    /// The largest digit on the line (letters count as 10, 11, …), 0 if none; only within the
    /// leading run when there is one, since what follows it may be free text.
    pub max_digit: u8,
    /// Byte offset of the `#` starting a trailing comment, if any.
    pub comment: Option<usize>,
    /// Whether the line holds a word: three or more ASCII letters in a row, one of them beyond
    /// `P` (so not a run of digits of a large grid, like `ABC`). Not looked for on a line that
    /// can be a one-line puzzle, whose free text may say anything.
    pub prose: bool,
    /// Groups of cell characters with nothing between them (`4 19 1679 | 39` has four), before
    /// any comment: a pencil-mark grid has one per cell.
    pub groups: usize,
    /// Whether the line can be a row of a pencil-mark grid: no stray characters, and every
    /// group a lone empty mark or digits only.
    pub marks_ok: bool,
    /// Cells written as an empty cell's only pencil mark (`*7`), which only a pencil-mark grid
    /// has.
    pub lone_marks: usize,
}

/// More stray runs than this and a line is not a row with typos but something else.
const MAX_STRAYS: usize = 3;

impl CellLine {
    /// How many cells the line holds as a puzzle line: the leading run of a line that can be a
    /// one-line puzzle (what follows may be free text), else every slot. It does not depend on
    /// spacing, so the canonical form keeps it.
    pub(crate) fn width(&self) -> usize {
        if self.run > 0 {
            self.run
        } else {
            self.slots
        }
    }
}

// Every character with a meaning in the format is ASCII, so lines are scanned byte by byte
// through these tables; only a non-ASCII byte (the start of a multi-byte character) is decoded,
// to ask whether it is whitespace.
const OTHER: u8 = 0;
const SPACE: u8 = 1;
const BAR: u8 = 2;
const HASH: u8 = 3;
const CELL: u8 = 4;
const NON_ASCII: u8 = 5;
/// `+`, which makes the digit right after it an entry (the solver's, not a given).
const PLUS: u8 = 6;
/// `*`, which makes the digit right after it an empty cell's only pencil mark (not placed).
const STAR: u8 = 7;

/// The class of each byte.
static CLASS: [u8; 256] = {
    let mut table = [OTHER; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = match c {
            b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c => SPACE,
            b'|' => BAR,
            b'#' => HASH,
            b'+' => PLUS,
            b'*' => STAR,
            b'1'..=b'9' | b'A'..=b'P' | b'a'..=b'p' | b'.' | b'0' | b'_' => CELL,
            0x80..=0xff => NON_ASCII,
            _ => OTHER,
        };
        b += 1;
    }
    table
};

/// The digit of each cell byte (`1`–`9`, `A`/`a` = 10 … `P`/`p` = 25), 0 for an empty mark.
/// Agrees with `grid::char_digit` and `grid::is_empty_mark`.
static VALUE: [u8; 256] = {
    let mut table = [0; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = match c {
            b'1'..=b'9' => c - b'0',
            b'A'..=b'P' => c - b'A' + 10,
            b'a'..=b'p' => c - b'a' + 10,
            _ => 0,
        };
        b += 1;
    }
    table
};

/// The value of a cell byte: 0 for an empty mark, the digit for a digit (meaningless for
/// other bytes).
pub(crate) fn cell_byte_value(b: u8) -> u8 {
    VALUE[b as usize]
}

/// The value of a cell character: `Some(0)` for an empty mark, `Some(digit)`, or `None`.
pub(crate) fn cell_value(c: char) -> Option<u8> {
    match u8::try_from(c) {
        Ok(b) if CLASS[b as usize] == CELL => Some(VALUE[b as usize]),
        _ => None,
    }
}

/// The length of the cell starting at byte `at` of `bytes`: 1 for a cell character, 2 for `+`
/// and a digit (an entry) or `*` and a digit (a lone pencil mark), 0 for anything else.
fn cell_len(bytes: &[u8], at: usize) -> usize {
    match CLASS[bytes[at] as usize] {
        CELL => 1,
        PLUS | STAR
            if bytes
                .get(at + 1)
                .is_some_and(|&b| CLASS[b as usize] == CELL && VALUE[b as usize] > 0) =>
        {
            2
        }
        _ => 0,
    }
}

/// Whether the character at byte `at` of `s` is whitespace, and its length in bytes.
fn char_at(s: &str, at: usize) -> (bool, usize) {
    match s.get(at..).and_then(|rest| rest.chars().next()) {
        Some(c) => (c.is_whitespace(), c.len_utf8()),
        None => (false, 1),
    }
}

/// Characters a border line is made of (besides whitespace).
fn is_border_byte(b: u8) -> bool {
    matches!(b, b'-' | b'+' | b'|' | b'=' | b'*' | b':' | b'.' | b'\'')
}

/// Split `text` into classified lines. A final line without a line break is a line; an empty
/// text has no lines, and a text ending in a line break has no empty line after it.
pub(crate) fn lines(text: &str) -> Vec<Line> {
    lines_at(text, 0)
}

/// Split `text`, a run of whole lines found at byte `base` of a larger text, into classified
/// lines with offsets into that larger text. Only at its very start is a byte-order mark skipped.
pub(crate) fn lines_at(text: &str, base: usize) -> Vec<Line> {
    let mut out = Vec::with_capacity(text.len() / 64 + 1);
    out.extend(Lines::new(text, base));
    out
}

/// The classified lines of a text one at a time, as [`lines_at`] gives them: what the parser
/// reads, so that it holds a few lines at a time rather than a table of every line (80 bytes a
/// line, 1.6 GB for 20 MB of blank lines).
pub(crate) struct Lines<'a> {
    text: &'a str,
    base: usize,
    /// Where the next line starts, relative to `text`.
    at: usize,
}

impl<'a> Lines<'a> {
    pub(crate) fn new(text: &'a str, base: usize) -> Lines<'a> {
        // A byte-order mark is not content: the first line starts after it.
        let at = if base == 0 && text.starts_with('\u{feff}') {
            '\u{feff}'.len_utf8()
        } else {
            0
        };
        Lines { text, base, at }
    }
}

impl Iterator for Lines<'_> {
    type Item = Line;

    fn next(&mut self) -> Option<Line> {
        let bytes = self.text.as_bytes();
        let start = self.at;
        if start >= bytes.len() {
            return None;
        }
        let (end, next) = match bytes[start..]
            .iter()
            .position(|&b| b == b'\n' || b == b'\r')
        {
            None => (bytes.len(), bytes.len()),
            Some(k) if bytes[start + k] == b'\r' && bytes.get(start + k + 1) == Some(&b'\n') => {
                (start + k, start + k + 2)
            }
            Some(k) => (start + k, start + k + 1),
        };
        self.at = next;
        Some(classify(self.text, self.base, start, end, next))
    }
}

#[cfg(test)]
thread_local! {
    /// How many lines this thread has classified: the tests' measure of work.
    static CLASSIFIED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// How many lines this thread has classified so far.
#[cfg(test)]
pub(crate) fn classified() -> usize {
    CLASSIFIED.with(|c| c.get())
}

fn classify(text: &str, base: usize, start: usize, end: usize, next: usize) -> Line {
    #[cfg(test)]
    CLASSIFIED.with(|c| c.set(c.get() + 1));
    // `\n` and `\r` are ASCII, so line boundaries are character boundaries.
    let kind = kind_of(&text[start..end], base + start);
    Line {
        start: base + start,
        end: base + end,
        next: base + next,
        kind,
    }
}

fn kind_of(content: &str, base: usize) -> Kind {
    let bytes = content.as_bytes();
    let mut lead = 0;
    while lead < bytes.len() {
        match CLASS[bytes[lead] as usize] {
            SPACE => lead += 1,
            NON_ASCII => match char_at(content, lead) {
                (true, len) => lead += len,
                _ => break,
            },
            _ => break,
        }
    }
    match bytes.get(lead) {
        None => return Kind::Blank,
        Some(b'#') => return Kind::Comment,
        // Only a line starting with a letter can be a rule (and no grid row reads as one).
        Some(b) if b.is_ascii_alphabetic() && super::rules::read(content, base).is_some() => {
            return Kind::Rule
        }
        Some(_) => {}
    }
    if is_border(&bytes[lead..]) {
        return Kind::Border;
    }
    let cells = scan_cells(content, base, lead);
    if cells.slots == 0 {
        // Only `|` and whitespace (a spacer line in some frames): nothing to read.
        return Kind::Border;
    }
    // A line that can be a one-line puzzle may have any free text after its cells.
    let row_only = cells.run == 0;
    if cells.slots == cells.strays || row_only && (cells.strays > MAX_STRAYS || cells.prose) {
        return Kind::Junk(cells);
    }
    Kind::Cells(cells)
}

/// Only border characters and whitespace before any comment, with at least three `-` or `=`.
fn is_border(bytes: &[u8]) -> bool {
    let mut rules = 0;
    for &b in bytes {
        match b {
            b'-' | b'=' => rules += 1,
            b'#' => break,
            _ if is_border_byte(b) || CLASS[b as usize] == SPACE => {}
            // Non-ASCII whitespace in a border is rare enough to leave to the row reader.
            _ => return false,
        }
    }
    rules >= 3
}

fn scan_cells(content: &str, base: usize, lead: usize) -> CellLine {
    let bytes = content.as_bytes();
    let mut line = CellLine::default();
    // The leading run, for one-line puzzles.
    let mut run_end = lead;
    let mut run_max = 0;
    let mut run_empties = 0;
    let mut run = 0;
    while run_end < bytes.len() {
        let len = cell_len(bytes, run_end);
        // A lone pencil mark (`*7`) belongs to a pencil-mark grid's row, never to a one-liner.
        if len == 0 || bytes[run_end] == b'*' {
            break;
        }
        let value = VALUE[bytes[run_end + len - 1] as usize];
        run_max = run_max.max(value);
        run_empties += usize::from(value == 0);
        run_end += len;
        run += 1;
    }
    let ends_well = match bytes.get(run_end) {
        None | Some(b'#') => true,
        Some(&b) => match CLASS[b as usize] {
            SPACE => true,
            NON_ASCII => char_at(content, run_end).0,
            _ => false,
        },
    };
    // N² cells is a one-line puzzle, N³ a line of pencil marks (N places a cell).
    let line_length = |s: &Size| s.cells() == run || s.cells() * s.side() == run;
    if ends_well && Size::ALL.iter().any(line_length) {
        line.run = run;
        line.run_start = base + lead;
        line.run_end = base + run_end;
    }
    // The run's bytes are all cells: count them at once and read tokens after it.
    line.slots = run;
    let mut groups = Groups::default();
    if run > 0 {
        groups.run(run, run_empties);
    }
    let mut max_all = run_max;
    let mut tokens = RowTokens::new(content, base);
    tokens.at = run_end;
    for token in tokens {
        match token {
            Token::Cell(c, span) => {
                line.slots += 1;
                max_all = max_all.max(VALUE[c as usize & 0xff]);
                // An entry (`+7`) or a lone mark (`*7`), one token of two characters, stands
                // alone as its group.
                let lone_mark = span.len() > 1 && bytes[span.start - base] == b'*';
                line.lone_marks += usize::from(lone_mark);
                groups.cell(VALUE[c as usize & 0xff] == 0, span.len() > 1, span);
            }
            Token::Stray(_) => {
                line.slots += 1;
                line.strays += 1;
                groups.broken = true;
            }
            Token::Comment(at) => line.comment = Some(at),
        }
    }
    groups.close();
    line.groups = groups.count;
    line.marks_ok = !groups.broken;
    line.max_digit = if line.run > 0 { run_max } else { max_all };
    line.prose = line.run == 0 && has_word(&bytes[lead..]);
    line
}

/// Counting a line's groups of side-by-side cell characters, and whether each is a lone empty
/// mark or digits only (what a pencil-mark grid's cells are).
#[derive(Default)]
struct Groups {
    count: usize,
    /// Where the last cell character ended, while its group may go on.
    end: Option<usize>,
    len: usize,
    empties: usize,
    entries: usize,
    /// A stray, or a group mixing empty marks or entries with other characters.
    broken: bool,
}

impl Groups {
    /// A whole group of `len` characters, `empties` of them empty marks.
    fn run(&mut self, len: usize, empties: usize) {
        self.close();
        self.count += 1;
        self.len = len;
        self.empties = empties;
    }

    fn cell(&mut self, empty: bool, entry: bool, span: Span) {
        if self.end != Some(span.start) {
            self.run(0, 0);
        }
        self.len += 1;
        self.empties += usize::from(empty);
        self.entries += usize::from(entry);
        self.end = Some(span.end);
    }

    fn close(&mut self) {
        self.broken |= (self.empties > 0 || self.entries > 0) && self.len > 1;
        (self.end, self.len, self.empties, self.entries) = (None, 0, 0, 0);
    }
}

/// Three or more ASCII letters in a row, one of them beyond `P`, before any comment.
fn has_word(bytes: &[u8]) -> bool {
    let (mut letters, mut beyond_p) = (0, false);
    for &b in bytes {
        if b == b'#' {
            break;
        }
        if b.is_ascii_alphabetic() {
            letters += 1;
            beyond_p |= CLASS[b as usize] != CELL;
            if letters >= 3 && beyond_p {
                return true;
            }
        } else {
            (letters, beyond_p) = (0, false);
        }
    }
    false
}

/// One token of a row line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Token {
    /// A cell character (always ASCII) and its span: one byte, or two for an entry (`+7`) or a
    /// lone pencil mark (`*7`), the character then being the digit.
    Cell(char, Span),
    /// A run of characters that are neither cells, separators nor a comment.
    Stray(Span),
    /// The `#` starting a trailing comment (always the last token).
    Comment(usize),
}

/// The tokens of a row line, left to right; separators (`|` and whitespace) are skipped.
pub(crate) struct RowTokens<'a> {
    content: &'a str,
    at: usize,
    base: usize,
}

impl<'a> RowTokens<'a> {
    /// Tokens of `content`, whose first byte is at offset `base` of the text.
    pub(crate) fn new(content: &'a str, base: usize) -> RowTokens<'a> {
        RowTokens {
            content,
            at: 0,
            base,
        }
    }

    /// The length of the separator at `at`, if there is one there.
    fn separator(&self, at: usize) -> Option<usize> {
        match CLASS[self.content.as_bytes()[at] as usize] {
            SPACE | BAR => Some(1),
            NON_ASCII => match char_at(self.content, at) {
                (true, len) => Some(len),
                _ => None,
            },
            _ => None,
        }
    }
}

impl Iterator for RowTokens<'_> {
    type Item = Token;

    fn next(&mut self) -> Option<Token> {
        let bytes = self.content.as_bytes();
        while self.at < bytes.len() {
            let at = self.at;
            let b = bytes[at];
            match CLASS[b as usize] {
                HASH => {
                    self.at = bytes.len(); // nothing after a comment is a token
                    return Some(Token::Comment(self.base + at));
                }
                CELL | PLUS | STAR => {
                    let len = cell_len(bytes, at);
                    if len > 0 {
                        self.at += len;
                        let span = Span::new(self.base + at, self.base + at + len);
                        return Some(Token::Cell(bytes[at + len - 1] as char, span));
                    }
                }
                _ => {}
            }
            if let Some(len) = self.separator(at) {
                self.at += len;
                continue;
            }
            // A stray run goes on until a cell, a separator or a comment.
            self.at += char_at(self.content, at).1;
            while self.at < bytes.len()
                && !matches!(CLASS[bytes[self.at] as usize], HASH | CELL)
                && cell_len(bytes, self.at) == 0
                && self.separator(self.at).is_none()
            {
                self.at += char_at(self.content, self.at).1;
            }
            return Some(Token::Stray(Span::new(self.base + at, self.base + self.at)));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<Kind> {
        lines(text).into_iter().map(|l| l.kind).collect()
    }

    #[test]
    fn the_tables_agree_with_the_grid_module() {
        use crate::grid::{char_digit, is_empty_mark};
        for c in (0u8..=255).map(char::from).chain(['é', '🧩', '７']) {
            let expected = if is_empty_mark(c) {
                Some(0)
            } else {
                char_digit(c)
            };
            assert_eq!(cell_value(c), expected, "{c:?}");
        }
    }

    #[test]
    fn every_line_break_style_ends_a_line() {
        let ls = lines("a\nb\r\nc\rd");
        let spans: Vec<_> = ls.iter().map(|l| (l.start, l.end, l.next)).collect();
        assert_eq!(spans, vec![(0, 1, 2), (2, 3, 5), (5, 6, 7), (7, 8, 8)]);
        assert!(lines("").is_empty());
        assert_eq!(lines("x\n").len(), 1);
        assert_eq!(lines("\n\n").len(), 2);
    }

    #[test]
    fn borders_need_three_rules_and_only_border_characters() {
        assert_eq!(kinds("------+-------+------")[0], Kind::Border);
        assert_eq!(kinds("+===+===+ # frame")[0], Kind::Border);
        assert_eq!(kinds(" :--.--' ")[0], Kind::Border);
        assert!(matches!(kinds("...")[0], Kind::Cells(_)));
        assert!(matches!(kinds("--")[0], Kind::Junk(_)));
        assert!(matches!(kinds("---x")[0], Kind::Junk(_)));
        assert!(matches!(kinds("---1")[0], Kind::Cells(_)));
        assert_eq!(kinds("|   |  | # spacer")[0], Kind::Border);
    }

    #[test]
    fn blank_and_comment_lines() {
        assert_eq!(
            kinds(" \t\n  # hi\n#"),
            vec![Kind::Blank, Kind::Comment, Kind::Comment]
        );
    }

    #[test]
    fn a_cell_line_counts_slots_runs_and_comments() {
        let Kind::Cells(c) = kinds("4 8 3 |9 2 1 |6 x7 # row A")[0] else {
            panic!()
        };
        assert_eq!((c.slots, c.strays, c.run, c.max_digit), (9, 1, 0, 9));
        assert_eq!(c.comment, Some(19));
        let Kind::Cells(c) = kinds("  1.3.....4......G rated 7")[0] else {
            panic!()
        };
        assert_eq!((c.run, c.run_end, c.max_digit), (16, 18, 16));
        let Kind::Cells(c) = kinds("1.3.....4.....2.x")[0] else {
            panic!()
        };
        assert_eq!(c.run, 0);
        let Kind::Cells(c) = kinds("1.3.....4.....2. # hard")[0] else {
            panic!()
        };
        assert_eq!((c.run, c.max_digit), (16, 4));
    }

    #[test]
    fn stray_runs_stop_at_cells_and_separators() {
        let tokens: Vec<_> = RowTokens::new("xy1 zé|é", 10).collect();
        assert_eq!(
            tokens,
            vec![
                Token::Stray(Span::new(10, 12)),
                Token::Cell('1', Span::new(12, 13)),
                Token::Stray(Span::new(14, 17)),
                Token::Stray(Span::new(18, 20)),
            ]
        );
    }
}
