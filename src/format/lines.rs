//! Splitting text into lines and sorting each line into blank, comment, border or cells.
//!
//! This is the one pass over every character; the parser and the writer then work on the
//! line table. `\n`, `\r\n` and a lone `\r` all end a line, as in the Language Server Protocol,
//! and every position is a byte offset into the original text.

use crate::finding::Span;
use crate::grid::{char_digit, is_empty_mark, Size};

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
    pub fn span(&self) -> Span {
        Span::new(self.start, self.end)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Nothing but whitespace.
    Blank,
    /// A whole-line comment: the first non-blank character is `#`.
    Comment,
    /// A box border such as `------+-------+------`, or a line of only `|` and whitespace.
    Border,
    /// Something else without a single cell (prose that lacks its `#`, say): never a row.
    Junk(CellLine),
    /// Anything else: a grid row, a one-line puzzle, or something broken.
    Cells(CellLine),
}

/// What one scan of a cell line found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    /// Byte offset just past that run.
    pub run_end: usize,
    /// The largest digit on the line (letters count as 10, 11, …), 0 if none; only within the
    /// leading run when there is one, since what follows it may be free text.
    pub max_digit: u8,
    /// Byte offset of the `#` starting a trailing comment, if any.
    pub comment: Option<usize>,
}

impl CellLine {
    /// How many cells the line holds as a puzzle line: the leading run of a line that can be a
    /// one-line puzzle (what follows may be free text), else every slot. It does not depend on
    /// spacing, so the canonical form keeps it.
    pub fn width(&self) -> usize {
        if self.run > 0 {
            self.run
        } else {
            self.slots
        }
    }
}

/// Whether a character can be a cell: a digit character (`1`–`9`, `A`–`P`) or an empty mark.
pub(crate) fn is_cell_char(c: char) -> bool {
    is_empty_mark(c) || char_digit(c).is_some()
}

/// Characters that may separate cells within a row.
pub(crate) fn is_separator(c: char) -> bool {
    c == '|' || c.is_whitespace()
}

/// Characters a border line is made of (besides whitespace).
fn is_border_char(c: char) -> bool {
    matches!(c, '-' | '+' | '|' | '=' | '*' | ':' | '.' | '\'')
}

/// Split `text` into classified lines. A final line without a line break is a line; an empty
/// text has no lines, and a text ending in a line break has no empty line after it.
pub(crate) fn lines(text: &str) -> Vec<Line> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len() / 32 + 1);
    let mut start = 0;
    // A byte-order mark is not content: the first line starts after it.
    if text.starts_with('\u{feff}') {
        start = '\u{feff}'.len_utf8();
    }
    let mut at = start;
    while at < bytes.len() {
        match bytes[at] {
            b'\n' => {
                out.push(classify(text, start, at, at + 1));
                at += 1;
                start = at;
            }
            b'\r' => {
                let next = if bytes.get(at + 1) == Some(&b'\n') {
                    at + 2
                } else {
                    at + 1
                };
                out.push(classify(text, start, at, next));
                at = next;
                start = at;
            }
            _ => at += 1,
        }
    }
    if start < bytes.len() {
        out.push(classify(text, start, bytes.len(), bytes.len()));
    }
    out
}

fn classify(text: &str, start: usize, end: usize, next: usize) -> Line {
    let kind = kind_of(&text[start..end], start);
    Line {
        start,
        end,
        next,
        kind,
    }
}

fn kind_of(content: &str, base: usize) -> Kind {
    let trimmed = content.trim_start();
    if trimmed.is_empty() {
        return Kind::Blank;
    }
    if trimmed.starts_with('#') {
        return Kind::Comment;
    }
    let before_comment = match content.find('#') {
        Some(hash) => &content[..hash],
        None => content,
    };
    if is_border(before_comment) {
        return Kind::Border;
    }
    let cells = scan_cells(content, base);
    if cells.slots == 0 {
        // Only `|` and whitespace (a spacer line in some frames): nothing to read.
        return Kind::Border;
    }
    if cells.slots == cells.strays {
        return Kind::Junk(cells);
    }
    Kind::Cells(cells)
}

/// Only border characters and whitespace, with at least three `-` or `=`.
fn is_border(s: &str) -> bool {
    let mut rules = 0;
    for c in s.chars() {
        if c == '-' || c == '=' {
            rules += 1;
        } else if !(is_border_char(c) || c.is_whitespace()) {
            return false;
        }
    }
    rules >= 3
}

fn scan_cells(content: &str, base: usize) -> CellLine {
    let mut line = CellLine {
        slots: 0,
        strays: 0,
        run: 0,
        run_end: 0,
        max_digit: 0,
        comment: None,
    };
    // The leading run, for one-line puzzles.
    let lead = content.len() - content.trim_start().len();
    let mut run = 0;
    let mut run_end = lead;
    for (i, c) in content[lead..].char_indices() {
        if is_cell_char(c) {
            run += 1;
            run_end = lead + i + c.len_utf8();
        } else {
            break;
        }
    }
    let after = content[run_end..].chars().next();
    let one_line_count = Size::ALL.iter().any(|s| s.cells() == run);
    if one_line_count && after.is_none_or(|c| c.is_whitespace() || c == '#') {
        line.run = run;
        line.run_end = base + run_end;
    }
    let max_digit_until = if line.run > 0 {
        line.run_end
    } else {
        usize::MAX
    };
    for token in RowTokens::new(content, base) {
        match token {
            Token::Cell(c, span) => {
                line.slots += 1;
                if span.start < max_digit_until {
                    line.max_digit = line.max_digit.max(char_digit(c).unwrap_or(0));
                }
            }
            Token::Stray(_) => {
                line.slots += 1;
                line.strays += 1;
            }
            Token::Comment(at) => line.comment = Some(at),
        }
    }
    line
}

/// One token of a row line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Token {
    /// A cell character and its span.
    Cell(char, Span),
    /// A run of characters that are neither cells, separators nor a comment.
    Stray(Span),
    /// The `#` starting a trailing comment (always the last token).
    Comment(usize),
}

/// The tokens of a row line, left to right; separators are skipped.
pub(crate) struct RowTokens<'a> {
    chars: std::iter::Peekable<std::str::CharIndices<'a>>,
    base: usize,
    done: bool,
}

impl<'a> RowTokens<'a> {
    /// Tokens of `content`, whose first byte is at offset `base` of the text.
    pub fn new(content: &'a str, base: usize) -> RowTokens<'a> {
        RowTokens {
            chars: content.char_indices().peekable(),
            base,
            done: false,
        }
    }
}

impl Iterator for RowTokens<'_> {
    type Item = Token;

    fn next(&mut self) -> Option<Token> {
        if self.done {
            return None;
        }
        while let Some(&(i, c)) = self.chars.peek() {
            let at = self.base + i;
            if c == '#' {
                self.done = true;
                return Some(Token::Comment(at));
            }
            if is_separator(c) {
                self.chars.next();
                continue;
            }
            self.chars.next();
            if is_cell_char(c) {
                return Some(Token::Cell(c, Span::new(at, at + c.len_utf8())));
            }
            // A stray run goes on until a cell, a separator or a comment.
            let mut end = at + c.len_utf8();
            while let Some(&(j, d)) = self.chars.peek() {
                if d == '#' || is_separator(d) || is_cell_char(d) {
                    break;
                }
                end = self.base + j + d.len_utf8();
                self.chars.next();
            }
            return Some(Token::Stray(Span::new(at, end)));
        }
        self.done = true;
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
