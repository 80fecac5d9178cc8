//! Semantic tokens: what each stretch of a `.sudoku` text is, so editors colour it by meaning
//! with no grammar (`textDocument/semanticTokens/full`, `/full/delta` and `/range`).
//!
//! This module owns the legend and the walk from a parsed document to tokens in the client's
//! encoding, line by line; `token_sheet` keeps them by line, as the base of the next delta.
//!
//! What each stretch is comes from the core (`analysis::tokens`, shared with the playground);
//! for conflicts, from the finished diagnostics run of this very text (`analysis`); the server
//! waits a little for that run's analysis before answering. Tokens made without it (the wait
//! ran out) carry no conflict modifier anywhere, and the next delta once it is there reads the
//! whole text again rather than mix the two; a finished run that finds conflicts asks the
//! client for its tokens again (when it can be asked). Lines a delta does not read keep their
//! modifiers: their puzzles, unchanged, have the same analysis.
//!
//! Standard types and modifiers only, so themes colour them with no configuration:
//!
//! | What (the core's `Meaning`) | Type | Modifiers |
//! | --- | --- | --- |
//! | a given (`Given`) | `number` | `readonly` |
//! | an entry, `+7` (`Entry`) | `parameter` | |
//! | a cell of pencil marks (`Marks`) | `number` | `documentation` |
//! | an empty cell, `.` `0` `_` (`Empty`) | `variable` | |
//! | a digit in conflict | as above | `deprecated` (struck through in VS Code) |
//! | borders, `\|` `---+---` (`Border`) | `operator` | |
//! | a metadata key (`Key`) | `property` | |
//! | a metadata value (`Value`) | `string` | |
//! | a comment, free text after a one-line puzzle (`Comment`) | `comment` | |
//! | a constraint's keyword, `cage` (`Keyword`) | `keyword` | |
//! | its value, `15` of `cage 15:` (`Number`) | `number` | |
//! | a cell it names, `A1` (`Cell`) | `variable` | |
//! | a word of it, or a row of a `regions:` block (`Word`) | `enumMember` | |
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
use crate::analysis::tokens::{Lines, Meaning, Token};

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

/// The tokens of lines `first..end` of the view's text, each line's as [`Sheet`] keeps them.
pub fn read_lines(view: &View, first: usize, end: usize) -> Vec<Vec<SemanticToken>> {
    let rope = &view.snapshot.rope;
    let end = end.min(rope.len_lines());
    if first >= end {
        return Vec::new();
    }
    let mut at = rope.line_to_byte(first);
    let mut lines = Lines::new(view.document(), at, |index| view.finished_analysis(index));
    // One buffer used again line after line: no allocation a token, one a line.
    let mut raw = Vec::new();
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
        raw.clear();
        lines.line(text, at, &mut raw);
        out.push(encode(view.config.encoding, text, &raw));
        at += whole.len();
    }
    out
}

/// A meaning's token type and modifiers, in the legend's indices.
fn type_and_modifiers(token: &Token) -> (u32, u32) {
    let (kind, modifiers) = match token.meaning {
        Meaning::Given => (NUMBER, READONLY),
        Meaning::Entry => (PARAMETER, 0),
        Meaning::Marks => (NUMBER, DOCUMENTATION),
        Meaning::Empty | Meaning::Cell => (VARIABLE, 0),
        Meaning::Border => (OPERATOR, 0),
        Meaning::Key => (PROPERTY, 0),
        Meaning::Value => (STRING, 0),
        Meaning::Comment => (COMMENT, 0),
        Meaning::Keyword => (KEYWORD, 0),
        Meaning::Number => (NUMBER, 0),
        Meaning::Word => (ENUM_MEMBER, 0),
    };
    (
        kind,
        modifiers | if token.conflict { DEPRECATED } else { 0 },
    )
}

/// One line's tokens in the client's units, relative as the protocol has them (the first
/// token's column counted from the line's start, its `delta_line` left 0).
fn encode(encoding: Encoding, text: &str, raw: &[Token]) -> Vec<SemanticToken> {
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
        let (kind, modifiers) = type_and_modifiers(t);
        out.push(SemanticToken {
            delta_line: 0,
            delta_start: (start - previous) as u32,
            length: (end - start) as u32,
            token_type: kind,
            token_modifiers_bitset: modifiers,
        });
        previous = start;
    }
    out
}
