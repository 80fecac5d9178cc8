//! Semantic tokens: what each stretch of a `.sudoku` text is, so editors colour it by meaning
//! with no grammar (`textDocument/semanticTokens/full`, `/full/delta` and `/range`).
//!
//! This module owns the legend, the walk from a parsed document to tokens in the client's
//! encoding, and the delta between two token arrays; the server keeps the last array per
//! document. What a cell is comes from `format` (givens, entries, pencil marks, empty cells)
//! and, for conflicts, from the finished diagnostics run of this very text (`analysis`): while
//! that run goes, no digit carries the conflict modifier, and once it publishes the server asks
//! the client for its tokens again (when it can be asked).
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
//! | a metadata key (`title`) | `property` | |
//! | a metadata value | `string` | |
//! | a comment, free text after a one-line puzzle | `comment` | |
//!
//! A token never spans lines, and its column and length count in the negotiated encoding
//! (UTF-16 units unless the client chose otherwise), through one `encoding::Cursor`.

use std::collections::HashSet;

use tower_lsp_server::lsp_types::{
    SemanticToken, SemanticTokenModifier, SemanticTokenType, SemanticTokensEdit,
    SemanticTokensLegend,
};

use super::view::View;
use crate::finding::Span;
use crate::format::Layout;

const NUMBER: u32 = 0;
const PARAMETER: u32 = 1;
const VARIABLE: u32 = 2;
const OPERATOR: u32 = 3;
const PROPERTY: u32 = 4;
const STRING: u32 = 5;
const COMMENT: u32 = 6;

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
        ],
        token_modifiers: vec![
            SemanticTokenModifier::READONLY,
            SemanticTokenModifier::DOCUMENTATION,
            SemanticTokenModifier::DEPRECATED,
        ],
    }
}

/// One token by byte span, on one line.
#[derive(Clone, Copy)]
struct Raw {
    span: Span,
    kind: u32,
    modifiers: u32,
}

/// The tokens of the view's text, or of the lines that meet `within` (byte offsets; only tokens
/// starting inside it), relative-encoded as the protocol sends them.
pub fn tokens(view: &View, within: Option<Span>) -> Vec<SemanticToken> {
    let text = view.snapshot.text();
    let within = within.unwrap_or(Span::new(0, text.len()));
    let cells = cells(view, within);
    let metadata = metadata_lines(view);
    let mut raw = Vec::new();
    let mut next_cell = 0;
    for line in lines(&text) {
        if line.end < within.start {
            continue;
        }
        if line.start > within.end {
            break;
        }
        while next_cell < cells.len() && cells[next_cell].span.start < line.start {
            next_cell += 1;
        }
        let first = next_cell;
        while next_cell < cells.len() && cells[next_cell].span.start < line.end {
            next_cell += 1;
        }
        let on_line = &cells[first..next_cell];
        if on_line.is_empty() {
            other_line(&text, line, &metadata, &mut raw);
        } else {
            cell_line(&text, line, on_line, &mut raw);
        }
    }
    raw.retain(|t| t.span.start >= within.start && t.span.start < within.end);
    encode(view, &raw)
}

/// The cells of the puzzles meeting `within`, in source order, each typed.
fn cells(view: &View, within: Span) -> Vec<Raw> {
    let puzzles = &view.document().puzzles;
    let first = puzzles.partition_point(|p| p.span.end < within.start);
    let mut cells = Vec::new();
    for (index, puzzle) in puzzles.iter().enumerate().skip(first) {
        if puzzle.span.start > within.end {
            break;
        }
        let mut conflicting = vec![false; puzzle.givens.len()];
        if let Some(analysis) = view.finished_analysis(index) {
            for conflict in &analysis.conflicts {
                for &cell in &conflict.cells {
                    if let Some(flag) = conflicting.get_mut(cell) {
                        *flag = true;
                    }
                }
            }
        }
        let marks = matches!(puzzle.layout, Layout::Marks | Layout::MarksLine);
        for (cell, span) in puzzle.cell_spans.iter().enumerate() {
            let (kind, mut modifiers) = if puzzle.is_entry(cell) {
                (PARAMETER, 0)
            } else if puzzle.givens[cell] != 0 {
                (NUMBER, READONLY)
            } else if marks {
                (NUMBER, DOCUMENTATION)
            } else {
                (VARIABLE, 0)
            };
            if conflicting[cell] {
                modifiers |= DEPRECATED;
            }
            cells.push(Raw {
                span,
                kind,
                modifiers,
            });
        }
    }
    cells
}

/// The start of each metadata entry's line (the file's and every puzzle's own).
fn metadata_lines(view: &View) -> HashSet<usize> {
    let document = view.document();
    let mut starts: HashSet<usize> = document.file_meta.entries().map(|e| e.span.start).collect();
    let mut last: Option<*const crate::format::Metadata> = None;
    for puzzle in &document.puzzles {
        // Puzzles without metadata of their own share one copy: look at each copy once.
        let here = std::sync::Arc::as_ptr(&puzzle.meta);
        if last != Some(here) {
            starts.extend(puzzle.meta.entries().map(|e| e.span.start));
            last = Some(here);
        }
    }
    starts
}

/// The byte span of each line's content, without its line break (`\n`, `\r\n` or `\r`).
fn lines(text: &str) -> impl Iterator<Item = Span> + '_ {
    let bytes = text.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        if at >= bytes.len() {
            return None;
        }
        let start = at;
        let end = bytes[start..]
            .iter()
            .position(|&b| b == b'\n' || b == b'\r')
            .map_or(bytes.len(), |k| start + k);
        at = match bytes.get(end) {
            Some(b'\r') if bytes.get(end + 1) == Some(&b'\n') => end + 2,
            Some(_) => end + 1,
            None => end,
        };
        Some(Span::new(start, end))
    })
}

fn is_border_byte(b: u8) -> bool {
    matches!(b, b'-' | b'+' | b'|' | b'=' | b'*' | b':' | b'.' | b'\'')
}

/// `span` without whitespace at either end.
fn trimmed(text: &str, span: Span) -> Span {
    let content = &text[span.start..span.end];
    let start = span.start + (content.len() - content.trim_start().len());
    let end = span.start + content.trim_end().len();
    Span::new(start, end.max(start))
}

/// A line holding cells: the cells, borders between them, a trailing comment, free text.
fn cell_line(text: &str, line: Span, cells: &[Raw], raw: &mut Vec<Raw>) {
    let bytes = text.as_bytes();
    let mut at = line.start;
    let mut next = 0;
    while at < line.end {
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
            let rest = trimmed(text, Span::new(at, line.end));
            raw.push(Raw {
                span: rest,
                kind: COMMENT,
                modifiers: 0,
            });
            break;
        } else if is_border_byte(b) {
            let stop = cells.get(next).map_or(line.end, |c| c.span.start);
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
            // A stray character before more cells: skipped.
            at += text[at..].chars().next().map_or(1, char::len_utf8);
        }
    }
}

/// A line without cells: a metadata entry, a comment, a border line, or nothing we name.
fn other_line(text: &str, line: Span, metadata: &HashSet<usize>, raw: &mut Vec<Raw>) {
    let content = trimmed(text, line);
    if content.is_empty() {
        return;
    }
    let bytes = text.as_bytes();
    if bytes[content.start] == b'#' {
        let is_meta = metadata.contains(&line.start) || metadata.contains(&content.start);
        let colon = text[content.start..content.end].find(':');
        if let (true, Some(colon)) = (is_meta, colon) {
            let key = trimmed(text, Span::new(content.start + 1, content.start + colon));
            let value = trimmed(text, Span::new(content.start + colon + 1, content.end));
            for (span, kind) in [(key, PROPERTY), (value, STRING)] {
                if !span.is_empty() {
                    raw.push(Raw {
                        span,
                        kind,
                        modifiers: 0,
                    });
                }
            }
        } else {
            raw.push(Raw {
                span: content,
                kind: COMMENT,
                modifiers: 0,
            });
        }
    } else if bytes[content.start..content.end]
        .iter()
        .all(|&b| is_border_byte(b) || b.is_ascii_whitespace())
    {
        raw.push(Raw {
            span: content,
            kind: OPERATOR,
            modifiers: 0,
        });
    }
}

/// The protocol's relative encoding, in the client's units, through one cursor.
fn encode(view: &View, raw: &[Raw]) -> Vec<SemanticToken> {
    let mut cursor = view.config.encoding.cursor(&view.snapshot.rope);
    let (mut line, mut column) = (0, 0);
    raw.iter()
        .filter(|t| !t.span.is_empty())
        .map(|t| {
            let start = cursor.position(t.span.start);
            let end = cursor.position(t.span.end);
            let delta_line = start.line - line;
            let delta_start = if delta_line == 0 {
                start.character - column
            } else {
                start.character
            };
            (line, column) = (start.line, start.character);
            SemanticToken {
                delta_line,
                delta_start,
                length: end.character.saturating_sub(start.character),
                token_type: t.kind,
                token_modifiers_bitset: t.modifiers,
            }
        })
        .collect()
}

/// The edits that turn `old` into `new`: one, replacing what lies between their common start
/// and common end (nothing when they are equal). Offsets count `u32`s, five a token.
pub fn delta(old: &[SemanticToken], new: &[SemanticToken]) -> Vec<SemanticTokensEdit> {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let room = old.len().min(new.len()) - prefix;
    let suffix = old
        .iter()
        .rev()
        .zip(new.iter().rev())
        .take(room)
        .take_while(|(a, b)| a == b)
        .count();
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
