//! Highlighting by meaning: what each stretch of a `.sudoku` text is, line by line, so that a
//! face colours it with no grammar (the language server's semantic tokens, the playground's
//! highlighting).
//!
//! | What | [`Meaning`] |
//! | --- | --- |
//! | a given | `Given` |
//! | an entry (`+7`) | `Entry` |
//! | a cell of pencil marks | `Marks` |
//! | an empty cell (`.`, `0`, `_`) | `Empty` |
//! | borders (`\|`, `---+---`) | `Border` |
//! | a metadata key (`title`, or any `# word: text` line, as `format` reads it) | `Key` |
//! | a metadata value | `Value` |
//! | a comment, free text after a one-line puzzle | `Comment` |
//! | a constraint's keyword (`cage`, `thermo`, `antiknight`) | `Keyword` |
//! | its value (`15` of `cage 15:`) | `Number` |
//! | a cell it names (`A1`) | `Cell` |
//! | a word of it (`white` of `negative:`, `down-left`, `top 3`) | `Word` |
//! | a row of a `regions:` block (`AAABBBCCC`) | `Word` |
//!
//! A cell in conflict (per the puzzle's [`Analysis`], when the face has one) carries
//! `conflict`. Neighbouring cells of one meaning are one token (`...` of a one-line puzzle,
//! three empty cells, is one `Empty` token three long): they are coloured alike either way, and
//! a collection's tokens are a third as many.
//!
//! ```
//! use sudoku_core::analysis::tokens::{Lines, Meaning};
//! use sudoku_core::format;
//!
//! let grid = "53..7....".repeat(9); // one puzzle on one line
//! let text = format!("# title: Easy\n{grid}");
//! let document = format::parse(&text);
//! let mut lines = Lines::new(&document, 0, |_| None);
//! let mut tokens = Vec::new();
//! lines.line("# title: Easy", 0, &mut tokens);
//! assert_eq!(tokens[0].meaning, Meaning::Key);
//! tokens.clear();
//! lines.line(&grid, 14, &mut tokens);
//! assert_eq!(tokens[0].meaning, Meaning::Given);
//! assert_eq!((tokens[0].span.start, tokens[0].span.end), (0, 2)); // "53", joined
//! assert_eq!(tokens[1].meaning, Meaning::Empty);
//! ```

use super::Analysis;
use crate::finding::Span;
use crate::format::{self, Document, Layout, Puzzle};

/// What a stretch of text is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Meaning {
    Given,
    Entry,
    Marks,
    Empty,
    Border,
    Key,
    Value,
    Comment,
    Keyword,
    Number,
    Cell,
    Word,
}

/// One stretch of one line, by byte span within the line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub span: Span,
    pub meaning: Meaning,
    /// A cell whose digit is in conflict.
    pub conflict: bool,
}

/// The walk along a document's lines, in order: each [`Lines::line`] gives one line's tokens.
/// `analysis` gives a puzzle's analysis by its index, when there is one, for the conflicts.
pub struct Lines<'a, F> {
    cells: Cells<'a, F>,
    region_rows: Vec<Span>,
    /// The cells of the line at hand: a buffer used again line after line.
    on_line: Vec<Token>,
}

impl<'a, F: FnMut(usize) -> Option<&'a Analysis>> Lines<'a, F> {
    /// A walk starting at the line that starts at byte `from` of the document's text.
    pub fn new(document: &'a Document, from: usize, analysis: F) -> Lines<'a, F> {
        Lines {
            cells: Cells::new(document, from, analysis),
            region_rows: region_rows(document),
            on_line: Vec::new(),
        }
    }

    /// Push the tokens of the line `text` (without its line ending) that starts at byte `at` of
    /// the document's text, spans relative to the line, in order. Lines come in order.
    pub fn line(&mut self, text: &str, at: usize, out: &mut Vec<Token>) {
        let line = Span::new(at, at + text.len());
        let on_line = &mut self.on_line;
        on_line.clear();
        self.cells.on_line(line, on_line);
        if let Some(row) = self
            .region_rows
            .iter()
            .find(|row| line.start <= row.start && row.end <= line.end)
        {
            region_row(text, Span::new(row.start - at, row.end - at), out);
        } else if on_line.is_empty() {
            other_line(text, out);
        } else {
            cell_line(text, on_line, out);
        }
    }
}

/// The tokens of the lines of `text` (the document's text) that meet bytes `from..to`, with
/// their spans in the whole text: for a face that wants the lines in view at once, as the
/// playground does.
pub fn between<'a>(
    text: &str,
    document: &'a Document,
    from: usize,
    to: usize,
    analysis: impl FnMut(usize) -> Option<&'a Analysis>,
) -> Vec<Token> {
    let from = from.min(text.len());
    let start = text[..from].rfind('\n').map_or(0, |i| i + 1);
    let mut lines = Lines::new(document, start, analysis);
    let (mut out, mut line_tokens, mut at) = (Vec::new(), Vec::new(), start);
    for whole in text[start..].split_inclusive('\n') {
        if at > to {
            break;
        }
        let line = whole.trim_end_matches(['\n', '\r']);
        line_tokens.clear();
        lines.line(line, at, &mut line_tokens);
        out.extend(line_tokens.iter().map(|t| Token {
            span: Span::new(at + t.span.start, at + t.span.end),
            ..*t
        }));
        at += whole.len();
    }
    out
}

/// The cells of the document in source order, typed, handed out line by line.
struct Cells<'a, F> {
    document: &'a Document,
    analysis: F,
    puzzle: usize,
    cell: usize,
    /// Which cells of the current puzzle are in conflict (per its analysis).
    conflicting: Vec<bool>,
    /// The puzzle `conflicting` is for.
    loaded: Option<usize>,
}

impl<'a, F: FnMut(usize) -> Option<&'a Analysis>> Cells<'a, F> {
    fn new(document: &'a Document, from: usize, analysis: F) -> Cells<'a, F> {
        let puzzle = document.puzzles.partition_point(|p| p.span.end < from);
        Cells {
            document,
            analysis,
            puzzle,
            cell: 0,
            conflicting: Vec::new(),
            loaded: None,
        }
    }

    /// Push the cells starting on `line` (byte offsets of the text), spans made relative to it.
    fn on_line(&mut self, line: Span, out: &mut Vec<Token>) {
        let puzzles = &self.document.puzzles;
        while let Some(puzzle) = puzzles.get(self.puzzle) {
            let spans = &puzzle.cell_spans;
            if self.cell == 0 && self.plain_run_on(puzzle, line, out) {
                self.puzzle += 1;
                continue;
            }
            while self.cell < spans.len() && spans.span(self.cell).start < line.start {
                self.cell += 1;
            }
            while self.cell < spans.len() && spans.span(self.cell).start < line.end {
                let span = spans.span(self.cell);
                let span = Span::new(span.start - line.start, span.end - line.start);
                let (meaning, conflict) = self.meaning(self.puzzle, self.cell);
                push_joined(out, span, meaning, conflict);
                self.cell += 1;
            }
            if self.cell < spans.len() {
                return; // the puzzle goes on below
            }
            self.puzzle += 1;
            self.cell = 0;
        }
    }

    /// The short way for a one-line puzzle of givens and empty cells that lies on `line`,
    /// most of a large collection: its cells' tokens straight from its digits. False, having
    /// pushed nothing, for any other puzzle.
    fn plain_run_on(&mut self, puzzle: &Puzzle, line: Span, out: &mut Vec<Token>) -> bool {
        let Some(run) = puzzle.cell_spans.as_run() else {
            return false;
        };
        let marks = matches!(puzzle.layout, Layout::Marks | Layout::MarksLine);
        let on_line = line.start <= run.start && run.end <= line.end;
        if !on_line || marks || puzzle.entries.is_some() || puzzle.givens.len() != run.len() {
            return false;
        }
        if self.loaded != Some(self.puzzle) {
            self.load_conflicts(self.puzzle);
        }
        let first = run.start - line.start;
        for (cell, &digit) in puzzle.givens.iter().enumerate() {
            let at = first + cell;
            let conflict = self.conflicting.get(cell).copied().unwrap_or(false);
            let meaning = cell_meaning(false, digit != 0, false);
            push_joined(out, Span::new(at, at + 1), meaning, conflict);
        }
        true
    }

    /// A cell's meaning, and whether it is in conflict.
    fn meaning(&mut self, index: usize, cell: usize) -> (Meaning, bool) {
        let puzzle = &self.document.puzzles[index];
        if self.loaded != Some(index) {
            self.load_conflicts(index);
        }
        let marks = matches!(puzzle.layout, Layout::Marks | Layout::MarksLine);
        let conflict = self.conflicting.get(cell).copied().unwrap_or(false);
        let meaning = cell_meaning(puzzle.is_entry(cell), puzzle.givens[cell] != 0, marks);
        (meaning, conflict)
    }

    fn load_conflicts(&mut self, index: usize) {
        self.conflicting.clear();
        self.loaded = Some(index);
        let Some(analysis) = (self.analysis)(index) else {
            return;
        };
        for conflict in &analysis.conflicts {
            for &cell in &conflict.cells {
                if self.conflicting.len() <= cell {
                    self.conflicting.resize(cell + 1, false);
                }
                self.conflicting[cell] = true;
            }
        }
    }
}

/// A cell's meaning: an entry, a given, a cell of pencil marks, or an empty cell.
fn cell_meaning(entry: bool, given: bool, marks: bool) -> Meaning {
    if entry {
        Meaning::Entry
    } else if given {
        Meaning::Given
    } else if marks {
        Meaning::Marks
    } else {
        Meaning::Empty
    }
}

/// Push a cell's token, or lengthen the last one when it is of the same kind and ends where
/// this one starts: joined here already, a one-line puzzle's 81 cells make some 30 tokens to
/// encode, not 81.
fn push_joined(out: &mut Vec<Token>, span: Span, meaning: Meaning, conflict: bool) {
    match out.last_mut() {
        Some(last)
            if last.span.end == span.start
                && (last.meaning, last.conflict) == (meaning, conflict) =>
        {
            last.span.end = span.end;
        }
        _ => out.push(Token {
            span,
            meaning,
            conflict,
        }),
    }
}

fn token(span: Span, meaning: Meaning) -> Token {
    Token {
        span,
        meaning,
        conflict: false,
    }
}

fn is_border_byte(b: u8) -> bool {
    matches!(b, b'-' | b'+' | b'|' | b'=' | b'*' | b':' | b'.' | b'\'')
}

/// `span` of `text` without whitespace at either end.
fn trimmed(text: &str, span: Span) -> Span {
    let content = &text[span.start..span.end];
    let start = span.start + (content.len() - content.trim_start().len());
    let end = span.start + content.trim_end().len();
    Span::new(start, end.max(start))
}

/// A line holding cells (`text`, the cells' spans relative to it): the cells, borders between
/// them, a trailing comment, free text. A stray character between cells gets no token: it is
/// none of these, and the parser's diagnostics already point at it.
fn cell_line(text: &str, cells: &[Token], out: &mut Vec<Token>) {
    let bytes = text.as_bytes();
    let mut at = 0;
    let mut next = 0;
    while at < text.len() {
        if let Some(cell) = cells.get(next).filter(|c| c.span.start <= at) {
            out.push(*cell);
            at = cell.span.end.max(at + 1);
            next += 1;
            continue;
        }
        let b = bytes[at];
        if b.is_ascii_whitespace() {
            at += 1;
        } else if b == b'#' || next >= cells.len() && !is_border_byte(b) {
            // A trailing comment, or free text after the last cell: the rest of the line.
            let rest = trimmed(text, Span::new(at, text.len()));
            out.push(token(rest, Meaning::Comment));
            break;
        } else if is_border_byte(b) {
            let stop = cells.get(next).map_or(text.len(), |c| c.span.start);
            let end = (at..stop)
                .find(|&k| !is_border_byte(bytes[k]))
                .unwrap_or(stop);
            out.push(token(Span::new(at, end), Meaning::Border));
            at = end;
        } else {
            at += text[at..].chars().next().map_or(1, char::len_utf8);
        }
    }
}

/// The rows of every `regions:` block of the document (a few puzzles have one).
fn region_rows(document: &Document) -> Vec<Span> {
    let puzzles = document.puzzles.iter();
    let regions = puzzles.filter_map(|p| p.rules.as_deref()?.regions.as_ref());
    regions.flat_map(|r| r.rows.iter().copied()).collect()
}

/// A row of a `regions:` block: its symbols, and a trailing comment.
fn region_row(text: &str, row: Span, out: &mut Vec<Token>) {
    out.push(token(row, Meaning::Word));
    if let Some(hash) = text[row.end..].find('#') {
        let comment = trimmed(text, Span::new(row.end + hash, text.len()));
        out.push(token(comment, Meaning::Comment));
    }
}

/// A line without cells: a metadata entry, a comment, a border line, or nothing we name.
/// A line is metadata when `format` reads it as `# key: value` (a known key, or one a typo
/// away with a warning there; `# Note: …` is a comment), wherever it stands.
fn other_line(text: &str, out: &mut Vec<Token>) {
    let content = trimmed(text, Span::new(0, text.len()));
    if content.is_empty() {
        return;
    }
    let bytes = text.as_bytes();
    let offset = |part: &str| part.as_ptr() as usize - text.as_ptr() as usize;
    if bytes[content.start] == b'#' {
        match format::key_value(text) {
            Some(kv) => {
                let key = Span::new(offset(kv.key), offset(kv.key) + kv.key.len());
                out.push(token(key, Meaning::Key));
                if !kv.value.is_empty() {
                    let value = Span::new(offset(kv.value), offset(kv.value) + kv.value.len());
                    out.push(token(value, Meaning::Value));
                }
            }
            None => out.push(token(content, Meaning::Comment)),
        }
    } else if bytes[content.start..content.end]
        .iter()
        .all(|&b| is_border_byte(b) || b.is_ascii_whitespace())
    {
        out.push(token(content, Meaning::Border));
    } else if let Some(parts) = format::constraint_line_parts(text, 0) {
        constraint_line(text, &parts, out);
    }
}

/// A constraint line's keyword, value, cells and words, in order, and its trailing comment.
fn constraint_line(text: &str, parts: &format::LineParts, out: &mut Vec<Token>) {
    let mut tokens = Vec::with_capacity(parts.cells.len() + 3);
    tokens.push(token(parts.keyword, Meaning::Keyword));
    if let Some(value) = parts.value {
        tokens.push(token(value, Meaning::Number));
    }
    for &(span, _, _) in &parts.cells {
        tokens.push(token(span, Meaning::Cell));
    }
    for &span in &parts.words {
        tokens.push(token(span, Meaning::Word));
    }
    if let Some(hash) = text.find('#') {
        tokens.push(token(
            trimmed(text, Span::new(hash, text.len())),
            Meaning::Comment,
        ));
    }
    tokens.sort_by_key(|t| t.span.start);
    out.extend(tokens);
}
