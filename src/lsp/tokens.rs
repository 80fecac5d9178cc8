//! Semantic tokens: what each stretch of a `.sudoku` text is, so editors colour it by meaning
//! with no grammar (`textDocument/semanticTokens/full`, `/full/delta` and `/range`).
//!
//! This module owns the legend and the walk from a parsed document to tokens in the client's
//! encoding, line by line; `token_sheet` keeps them by line, as the base of the next delta.
//!
//! What a cell is comes from `format` (givens, entries, pencil marks, empty cells) and, for
//! conflicts, from the finished diagnostics run of this very text (`analysis`); the server
//! waits a little for that run's analysis before answering. Tokens made without it (the wait
//! ran out) carry no conflict modifier anywhere, and the next delta once it is there reads the
//! whole text again rather than mix the two; a finished run that finds conflicts asks the
//! client for its tokens again (when it can be asked). Lines a delta does not read keep their
//! modifiers: their puzzles, unchanged, have the same analysis.
//!
//! Standard types and modifiers only, so themes colour them with no configuration:
//!
//! | What | Type | Modifiers |
//! | --- | --- | --- |
//! | a given | `number` | `readonly` |
//! | an entry (`+7`) | `parameter` | |
//! | a cell of pencil marks | `number` | `documentation` |
//! | an empty cell (`.`, `0`, `_`) | `variable` | |
//! | a digit in conflict | as above | `deprecated` (struck through in VS Code) |
//! | borders (`\|`, `---+---`) | `operator` | |
//! | a metadata key (`title`, or any `# word: text` line, as `format` reads it) | `property` | |
//! | a metadata value | `string` | |
//! | a comment, free text after a one-line puzzle | `comment` | |
//! | a constraint's keyword (`cage`, `thermo`, `antiknight`) | `keyword` | |
//! | its value (`15` of `cage 15:`) | `number` | |
//! | a cell it names (`A1`) | `variable` | |
//! | a word of it (`white` of `negative:`, `down-left`, `top 3`) | `enumMember` | |
//! | a row of a `regions:` block (`AAABBBCCC`) | `enumMember` | |
//!
//! A token never spans lines, and its column and length count in the negotiated encoding
//! (UTF-16 units unless the client chose otherwise), through one `encoding::Cursor`.
//! Neighbouring stretches of one kind are one token (`...` of a one-line puzzle, three empty
//! cells, is one `variable` token three long): they are coloured alike either way, and a
//! collection's array is a third as long (1.4 million tokens for 4 million cells of
//! `sudoku17.txt`). The whole array goes out as JSON written by `token_sheet`.

use tower_lsp_server::lsp_types::{
    Range, SemanticToken, SemanticTokenModifier, SemanticTokenType, SemanticTokensLegend,
};

use super::encoding::Encoding;
use super::view::View;
use crate::finding::Span;
use crate::format::{self, Layout, Puzzle};

const NUMBER: u32 = 0;
const PARAMETER: u32 = 1;
const VARIABLE: u32 = 2;
const OPERATOR: u32 = 3;
const PROPERTY: u32 = 4;
const STRING: u32 = 5;
const COMMENT: u32 = 6;
const KEYWORD: u32 = 7;
const ENUM_MEMBER: u32 = 8;

const READONLY: u32 = 1 << 0;
const DOCUMENTATION: u32 = 1 << 1;
const DEPRECATED: u32 = 1 << 2;

/// The legend sent at `initialize`: token types and modifiers by index, as used above.
pub fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: vec![
            SemanticTokenType::NUMBER,
            SemanticTokenType::PARAMETER,
            SemanticTokenType::VARIABLE,
            SemanticTokenType::OPERATOR,
            SemanticTokenType::PROPERTY,
            SemanticTokenType::STRING,
            SemanticTokenType::COMMENT,
            SemanticTokenType::KEYWORD,
            SemanticTokenType::ENUM_MEMBER,
        ],
        token_modifiers: vec![
            SemanticTokenModifier::READONLY,
            SemanticTokenModifier::DOCUMENTATION,
            SemanticTokenModifier::DEPRECATED,
        ],
    }
}
/// The tokens of the lines of the view's text that meet `range` and start inside it, for
/// `textDocument/semanticTokens/range`.
pub fn range(view: &View, range: Range) -> Vec<SemanticToken> {
    let rope = &view.snapshot.rope;
    let last = (range.end.line as usize).min(rope.len_lines().saturating_sub(1));
    let first = (range.start.line as usize).min(last);
    let mut lines = read_lines(view, first, last + 1);
    for (i, tokens) in lines.iter_mut().enumerate() {
        let line = (first + i) as u32;
        let inside = |column: u32| {
            (line, column) >= (range.start.line, range.start.character)
                && (line, column) < (range.end.line, range.end.character)
        };
        keep_columns(tokens, inside);
    }
    flatten(&lines, first, 0)
}

/// Keep the tokens of one line whose column `keep` accepts, re-encoding their starts.
fn keep_columns(tokens: &mut Vec<SemanticToken>, keep: impl Fn(u32) -> bool) {
    let (mut column, mut kept_column) = (0, 0);
    tokens.retain_mut(|t| {
        column += t.delta_start;
        if !keep(column) {
            return false;
        }
        t.delta_start = column - kept_column;
        kept_column = column;
        true
    });
}

/// The protocol's array of `lines`, the first of which is line `first` of the text, after a
/// token on line `previous` (0 when none).
pub fn flatten(lines: &[Vec<SemanticToken>], first: usize, previous: usize) -> Vec<SemanticToken> {
    let mut out = Vec::with_capacity(lines.iter().map(Vec::len).sum());
    each_token(lines, first, previous, |t| out.push(t));
    out
}

/// Hand each token of `lines` to `take` as the protocol's array has it, `lines` starting at
/// line `first` of the text, after a token on line `previous` (0 when none).
pub fn each_token(
    lines: &[Vec<SemanticToken>],
    first: usize,
    mut previous: usize,
    mut take: impl FnMut(SemanticToken),
) {
    for (i, tokens) in lines.iter().enumerate() {
        if let Some((head, rest)) = tokens.split_first() {
            let line = first + i;
            take(SemanticToken {
                delta_line: (line - previous) as u32,
                ..*head
            });
            rest.iter().for_each(|&t| take(t));
            previous = line;
        }
    }
}

/// One token by byte span within its line.
#[derive(Clone, Copy)]
struct Raw {
    span: Span,
    kind: u32,
    modifiers: u32,
}

/// The tokens of lines `first..end` of the view's text, each line's as [`Sheet`] keeps them.
pub fn read_lines(view: &View, first: usize, end: usize) -> Vec<Vec<SemanticToken>> {
    let rope = &view.snapshot.rope;
    let end = end.min(rope.len_lines());
    if first >= end {
        return Vec::new();
    }
    let mut cells = Cells::new(view, rope.line_to_byte(first));
    let region_rows = region_rows(view);
    let mut at = rope.line_to_byte(first);
    // Buffers used again line after line: no allocation a token, one a line.
    let (mut on_line, mut raw) = (Vec::new(), Vec::new());
    let mut out = Vec::with_capacity(end - first);
    for slice in rope.lines_at(first).take(end - first) {
        let owned;
        let whole = match slice.as_str() {
            Some(text) => text,
            None => {
                owned = slice.to_string();
                &owned
            }
        };
        let text = whole.trim_end_matches(['\n', '\r']);
        on_line.clear();
        raw.clear();
        cells.on_line(Span::new(at, at + text.len()), &mut on_line);
        let line = Span::new(at, at + text.len());
        if let Some(row) = region_rows
            .iter()
            .find(|row| line.start <= row.start && row.end <= line.end)
        {
            region_row(text, Span::new(row.start - at, row.end - at), &mut raw);
        } else if on_line.is_empty() {
            other_line(text, &mut raw);
        } else {
            cell_line(text, &on_line, &mut raw);
        }
        out.push(encode(view.config.encoding, text, &raw));
        at += whole.len();
    }
    out
}

/// The cells of the document in source order, typed, handed out line by line.
struct Cells<'a> {
    view: &'a View,
    puzzle: usize,
    cell: usize,
    /// Which cells of the current puzzle are in conflict (per its finished analysis).
    conflicting: Vec<bool>,
    /// The puzzle `conflicting` is for.
    loaded: Option<usize>,
}

impl<'a> Cells<'a> {
    fn new(view: &'a View, from: usize) -> Cells<'a> {
        let puzzle = view
            .document()
            .puzzles
            .partition_point(|p| p.span.end < from);
        Cells {
            view,
            puzzle,
            cell: 0,
            conflicting: Vec::new(),
            loaded: None,
        }
    }

    /// Push the cells starting on `line` (byte offsets of the text), spans made relative to it.
    fn on_line(&mut self, line: Span, out: &mut Vec<Raw>) {
        let puzzles = &self.view.document().puzzles;
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
                let (kind, modifiers) = self.kind(self.puzzle, self.cell);
                push_joined(out, span, kind, modifiers);
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
    fn plain_run_on(&mut self, puzzle: &Puzzle, line: Span, out: &mut Vec<Raw>) -> bool {
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
            let (kind, modifiers) = cell_kind(false, digit != 0, false, conflict);
            push_joined(out, Span::new(at, at + 1), kind, modifiers);
        }
        true
    }

    /// A cell's type and modifiers.
    fn kind(&mut self, index: usize, cell: usize) -> (u32, u32) {
        let puzzle = &self.view.document().puzzles[index];
        if self.loaded != Some(index) {
            self.load_conflicts(index);
        }
        let marks = matches!(puzzle.layout, Layout::Marks | Layout::MarksLine);
        let conflict = self.conflicting.get(cell).copied().unwrap_or(false);
        cell_kind(
            puzzle.is_entry(cell),
            puzzle.givens[cell] != 0,
            marks,
            conflict,
        )
    }

    fn load_conflicts(&mut self, index: usize) {
        self.conflicting.clear();
        self.loaded = Some(index);
        let Some(analysis) = self.view.finished_analysis(index) else {
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

/// A cell's type and modifiers: an entry, a given, a cell of pencil marks, or an empty cell;
/// struck through when in conflict.
fn cell_kind(entry: bool, given: bool, marks: bool, conflict: bool) -> (u32, u32) {
    let (kind, modifiers) = if entry {
        (PARAMETER, 0)
    } else if given {
        (NUMBER, READONLY)
    } else if marks {
        (NUMBER, DOCUMENTATION)
    } else {
        (VARIABLE, 0)
    };
    (kind, modifiers | if conflict { DEPRECATED } else { 0 })
}

/// Push a cell's token, or lengthen the last one when it is of the same kind and ends where
/// this one starts: joined here already, a one-line puzzle's 81 cells make some 30 tokens to
/// encode, not 81.
fn push_joined(out: &mut Vec<Raw>, span: Span, kind: u32, modifiers: u32) {
    match out.last_mut() {
        Some(last)
            if last.span.end == span.start && (last.kind, last.modifiers) == (kind, modifiers) =>
        {
            last.span.end = span.end;
        }
        _ => out.push(Raw {
            span,
            kind,
            modifiers,
        }),
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
fn cell_line(text: &str, cells: &[Raw], raw: &mut Vec<Raw>) {
    let bytes = text.as_bytes();
    let mut at = 0;
    let mut next = 0;
    while at < text.len() {
        if let Some(cell) = cells.get(next).filter(|c| c.span.start <= at) {
            raw.push(*cell);
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
            raw.push(Raw {
                span: rest,
                kind: COMMENT,
                modifiers: 0,
            });
            break;
        } else if is_border_byte(b) {
            let stop = cells.get(next).map_or(text.len(), |c| c.span.start);
            let end = (at..stop)
                .find(|&k| !is_border_byte(bytes[k]))
                .unwrap_or(stop);
            raw.push(Raw {
                span: Span::new(at, end),
                kind: OPERATOR,
                modifiers: 0,
            });
            at = end;
        } else {
            at += text[at..].chars().next().map_or(1, char::len_utf8);
        }
    }
}

/// The rows of every `regions:` block of the document (a few puzzles have one).
fn region_rows(view: &View) -> Vec<Span> {
    let puzzles = view.document().puzzles.iter();
    let regions = puzzles.filter_map(|p| p.rules.as_deref()?.regions.as_ref());
    regions.flat_map(|r| r.rows.iter().copied()).collect()
}

/// A row of a `regions:` block: its symbols, and a trailing comment.
fn region_row(text: &str, row: Span, raw: &mut Vec<Raw>) {
    raw.push(Raw {
        span: row,
        kind: ENUM_MEMBER,
        modifiers: 0,
    });
    if let Some(hash) = text[row.end..].find('#') {
        raw.push(Raw {
            span: trimmed(text, Span::new(row.end + hash, text.len())),
            kind: COMMENT,
            modifiers: 0,
        });
    }
}

/// A line without cells: a metadata entry, a comment, a border line, or nothing we name.
/// A line is metadata when `format` reads it as `# key: value` (a known key, or one a typo
/// away with a warning there; `# Note: …` is a comment), wherever it stands.
fn other_line(text: &str, raw: &mut Vec<Raw>) {
    let content = trimmed(text, Span::new(0, text.len()));
    if content.is_empty() {
        return;
    }
    let bytes = text.as_bytes();
    let offset = |part: &str| part.as_ptr() as usize - text.as_ptr() as usize;
    let token = |span, kind| Raw {
        span,
        kind,
        modifiers: 0,
    };
    if bytes[content.start] == b'#' {
        match format::key_value(text) {
            Some(kv) => {
                let key = Span::new(offset(kv.key), offset(kv.key) + kv.key.len());
                raw.push(token(key, PROPERTY));
                if !kv.value.is_empty() {
                    let value = Span::new(offset(kv.value), offset(kv.value) + kv.value.len());
                    raw.push(token(value, STRING));
                }
            }
            None => raw.push(token(content, COMMENT)),
        }
    } else if bytes[content.start..content.end]
        .iter()
        .all(|&b| is_border_byte(b) || b.is_ascii_whitespace())
    {
        raw.push(token(content, OPERATOR));
    } else if let Some(parts) = format::constraint_line_parts(text, 0) {
        constraint_line(text, &parts, raw);
    }
}

/// A constraint line's keyword, value, cells and words, in order, and its trailing comment.
fn constraint_line(text: &str, parts: &format::LineParts, raw: &mut Vec<Raw>) {
    let mut tokens: Vec<Raw> = Vec::with_capacity(parts.cells.len() + 3);
    let mut push = |span: Span, kind: u32| {
        tokens.push(Raw {
            span,
            kind,
            modifiers: 0,
        })
    };
    push(parts.keyword, KEYWORD);
    if let Some(value) = parts.value {
        push(value, NUMBER);
    }
    for &(span, _, _) in &parts.cells {
        push(span, VARIABLE);
    }
    for &span in &parts.words {
        push(span, ENUM_MEMBER);
    }
    if let Some(hash) = text.find('#') {
        push(trimmed(text, Span::new(hash, text.len())), COMMENT);
    }
    tokens.sort_by_key(|t| t.span.start);
    raw.extend(tokens);
}

/// One line's tokens in the client's units, relative as the protocol has them (the first
/// token's column counted from the line's start, its `delta_line` left 0).
fn encode(encoding: Encoding, text: &str, raw: &[Raw]) -> Vec<SemanticToken> {
    let ascii = text.is_ascii();
    // Past the first non-ASCII character, count units from the last token's start onwards:
    // one walk along the line, not one from its start for each token.
    let (mut byte, mut units) = (0, 0);
    let mut column = |at: usize| {
        if ascii {
            return at;
        }
        let part = text.get(byte.min(at)..at).unwrap_or("");
        units += encoding.units(part);
        byte = byte.max(at);
        units
    };
    let mut previous = 0;
    let mut out = Vec::with_capacity(raw.len());
    for t in raw.iter().filter(|t| !t.span.is_empty()) {
        let start = column(t.span.start);
        let end = column(t.span.end);
        out.push(SemanticToken {
            delta_line: 0,
            delta_start: (start - previous) as u32,
            length: (end - start) as u32,
            token_type: t.kind,
            token_modifiers_bitset: t.modifiers,
        });
        previous = start;
    }
    out
}
