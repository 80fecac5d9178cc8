//! Position encoding: the one place that turns byte offsets into LSP positions and back.
//!
//! LSP counts a position's `character` in the negotiated unit (UTF-16 code units unless the
//! client offers `utf-8` or `utf-32` in `general.positionEncodings`), and breaks lines only at
//! `\n`, `\r\n` and `\r`. The rope is built with ropey's `cr_lines` and without `unicode_lines`,
//! so its lines are exactly LSP's. Every conversion goes through ropey's `try_*` functions or is
//! clamped first, so a position from a confused client can never panic: it lands on the nearest
//! character boundary inside the document, and the caller learns that it was clamped.

use ropey::{Rope, RopeSlice};
use tower_lsp_server::lsp_types::{ClientCapabilities, Position, PositionEncodingKind, Range};

use crate::finding::Span;

/// The unit in which a position's `character` counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    /// The protocol's default.
    #[default]
    Utf16,
    Utf32,
}

impl Encoding {
    /// The client's first offered encoding that we speak; UTF-16 when it offers none.
    pub fn negotiate(capabilities: &ClientCapabilities) -> Encoding {
        let offered = capabilities
            .general
            .as_ref()
            .and_then(|general| general.position_encodings.as_ref());
        offered
            .into_iter()
            .flatten()
            .find_map(Encoding::from_kind)
            .unwrap_or_default()
    }

    fn from_kind(kind: &PositionEncodingKind) -> Option<Encoding> {
        match kind.as_str() {
            "utf-8" => Some(Encoding::Utf8),
            "utf-16" => Some(Encoding::Utf16),
            "utf-32" => Some(Encoding::Utf32),
            _ => None,
        }
    }

    pub fn kind(self) -> PositionEncodingKind {
        match self {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
            Encoding::Utf32 => PositionEncodingKind::UTF32,
        }
    }

    /// The LSP position of a byte offset (clamped to the text, rounded down to a character).
    pub fn position(self, rope: &Rope, byte: usize) -> Position {
        let byte = byte.min(rope.len_bytes());
        let char_index = rope.byte_to_char(byte);
        let line = rope.char_to_line(char_index);
        let line_start = rope.line_to_char(line);
        let character = match self {
            Encoding::Utf8 => rope.char_to_byte(char_index) - rope.line_to_byte(line),
            Encoding::Utf16 => {
                rope.char_to_utf16_cu(char_index) - rope.char_to_utf16_cu(line_start)
            }
            Encoding::Utf32 => char_index - line_start,
        };
        Position::new(saturate(line), saturate(character))
    }

    pub fn range(self, rope: &Rope, span: Span) -> Range {
        Range::new(
            self.position(rope, span.start),
            self.position(rope, span.end),
        )
    }

    /// The ranges of many spans, as `range` gives them, through one `Cursor`: when the spans come
    /// in order (formatting's edits do), a collection's tens of thousands of edits cost one walk
    /// down the text instead of several rope look-ups each. Spans out of order are still placed
    /// right.
    pub fn ranges(self, rope: &Rope, spans: &[Span]) -> Vec<Range> {
        let mut cursor = self.cursor(rope);
        spans
            .iter()
            .map(|span| {
                let start = cursor.position(span.start);
                Range::new(start, cursor.position(span.end.max(span.start)))
            })
            .collect()
    }

    /// The char index of an LSP position, and whether it had to be clamped to get there.
    ///
    /// Per the spec a `character` past the end of its line means the line's end; a line past the
    /// document's last means the document's end (as vscode-languageserver's TextDocument does);
    /// a position inside a multi-unit character (half a surrogate pair, the middle of a UTF-8
    /// sequence) rounds down to that character's start.
    pub fn char_index(self, rope: &Rope, position: Position) -> Located {
        let line = position.line as usize;
        if line >= rope.len_lines() {
            return Located {
                index: rope.len_chars(),
                clamped: true,
            };
        }
        let line_start = rope.line_to_char(line);
        let content = line_content_chars(rope.line(line));
        let wanted = position.character as usize;
        let (offset, clamped) = match self {
            Encoding::Utf32 => (wanted.min(content), wanted > content),
            Encoding::Utf16 => {
                let base = rope.char_to_utf16_cu(line_start);
                let end = rope.char_to_utf16_cu(line_start + content) - base;
                let unit = wanted.min(end);
                (
                    rope.utf16_cu_to_char(base + unit) - line_start,
                    wanted > end,
                )
            }
            Encoding::Utf8 => {
                let base = rope.line_to_byte(line);
                let end = rope.char_to_byte(line_start + content) - base;
                let byte = wanted.min(end);
                (rope.byte_to_char(base + byte) - line_start, wanted > end)
            }
        };
        Located {
            index: line_start + offset,
            clamped,
        }
    }

    /// The byte offset of an LSP position (clamped like `char_index`).
    pub fn byte_offset(self, rope: &Rope, position: Position) -> Located {
        let located = self.char_index(rope, position);
        Located {
            index: rope.char_to_byte(located.index),
            clamped: located.clamped,
        }
    }
}

impl Encoding {
    /// A converter for many offsets in a row, such as a large collection's outline.
    pub fn cursor(self, rope: &Rope) -> Cursor<'_> {
        let mut cursor = Cursor {
            rope,
            encoding: self,
            line: 0,
            lines: 0..0,
            text: None,
        };
        cursor.remember(0, 0..rope.line_to_byte(1));
        cursor
    }

    /// The length of `text` in this encoding's units.
    pub fn units(self, text: &str) -> usize {
        match self {
            Encoding::Utf8 => text.len(),
            _ if text.is_ascii() => text.len(),
            Encoding::Utf16 => text.encode_utf16().count(),
            Encoding::Utf32 => text.chars().count(),
        }
    }
}

/// Byte offsets to positions, remembering the line of the last one (and its text, when it lies
/// in one chunk of the rope, as short lines mostly do): an offset on the same line or the next
/// costs next to nothing, where each `Encoding::position` walks down the rope five times (the
/// outline of a large collection takes four positions a puzzle). Any order works; ascending
/// is fastest.
pub struct Cursor<'a> {
    rope: &'a Rope,
    encoding: Encoding,
    line: usize,
    /// The remembered line's bytes, its line break included.
    lines: std::ops::Range<usize>,
    text: Option<&'a str>,
}

impl<'a> Cursor<'a> {
    /// The same as [`Encoding::position`].
    pub fn position(&mut self, byte: usize) -> Position {
        let rope = self.rope;
        let byte = byte.min(rope.len_bytes());
        if !self.lines.contains(&byte) {
            self.find(byte);
        }
        let before = match self.text {
            Some(text) => text
                .get(..byte - self.lines.start)
                .map(|t| self.encoding.units(t)),
            None => rope
                .get_byte_slice(self.lines.start..byte)
                .map(|s| match self.encoding {
                    Encoding::Utf8 => s.len_bytes(),
                    Encoding::Utf16 => s.len_utf16_cu(),
                    Encoding::Utf32 => s.len_chars(),
                }),
        };
        match before {
            Some(character) => Position::new(saturate(self.line), saturate(character)),
            // Off a character boundary (never for the spans of a parse): the general way rounds.
            None => self.encoding.position(rope, byte),
        }
    }

    pub fn range(&mut self, span: Span) -> Range {
        Range::new(self.position(span.start), self.position(span.end))
    }

    /// Remember the line holding `byte`: most often the next one, whose start is known.
    fn find(&mut self, byte: usize) {
        let rope = self.rope;
        let next = self.line + 1;
        if byte >= self.lines.end && next < rope.len_lines() {
            let end = rope.line_to_byte(next + 1);
            if byte < end {
                return self.remember(next, self.lines.end..end);
            }
        }
        let line = rope.byte_to_line(byte);
        self.remember(line, rope.line_to_byte(line)..rope.line_to_byte(line + 1));
    }

    fn remember(&mut self, line: usize, lines: std::ops::Range<usize>) {
        self.text = self
            .rope
            .get_byte_slice(lines.clone())
            .and_then(|slice| slice.as_str());
        self.line = line;
        self.lines = lines;
    }
}

/// Where a position landed; `clamped` when it lay outside its line or the document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Located {
    /// A char index (from `char_index`) or a byte offset (from `byte_offset`).
    pub index: usize,
    pub clamped: bool,
}

/// The line's length in chars without its line break (`\n`, `\r\n` or `\r`).
fn line_content_chars(line: RopeSlice) -> usize {
    let len = line.len_chars();
    let last = |back: usize| (len >= back).then(|| line.char(len - back));
    match (last(2), last(1)) {
        (Some('\r'), Some('\n')) => len - 2,
        (_, Some('\n' | '\r')) => len - 1,
        _ => len,
    }
}

fn saturate(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "# 😀 日本\r\n1.3\rx\n";

    #[test]
    fn positions_count_in_the_negotiated_unit() {
        let rope = Rope::from_str(TEXT);
        let after_cjk = TEXT.find("\r\n").unwrap();
        assert_eq!(
            Encoding::Utf8.position(&rope, after_cjk),
            Position::new(0, 13)
        );
        assert_eq!(
            Encoding::Utf16.position(&rope, after_cjk),
            Position::new(0, 7)
        );
        assert_eq!(
            Encoding::Utf32.position(&rope, after_cjk),
            Position::new(0, 6)
        );
        // `\r` alone ends a line too.
        let x = TEXT.find('x').unwrap();
        for encoding in [Encoding::Utf8, Encoding::Utf16, Encoding::Utf32] {
            assert_eq!(encoding.position(&rope, x), Position::new(2, 0));
            let back = encoding.byte_offset(&rope, Position::new(2, 0));
            assert_eq!((back.index, back.clamped), (x, false));
        }
    }

    #[test]
    fn round_trips_every_char_boundary() {
        let rope = Rope::from_str(TEXT);
        for (byte, _) in TEXT.char_indices() {
            for encoding in [Encoding::Utf8, Encoding::Utf16, Encoding::Utf32] {
                let position = encoding.position(&rope, byte);
                let back = encoding.byte_offset(&rope, position);
                // Inside a `\r\n` the only position is before it.
                if TEXT.as_bytes()[byte] == b'\n' && TEXT[..byte].ends_with('\r') {
                    assert_eq!(back.index, byte - 1);
                } else {
                    assert_eq!(back.index, byte, "{encoding:?} at {byte}");
                }
            }
        }
    }

    #[test]
    fn ranges_in_one_pass_agree_with_the_rope() {
        let rope = Rope::from_str(TEXT);
        let bounds: Vec<usize> = (0..=TEXT.len() + 2).collect();
        for encoding in [Encoding::Utf8, Encoding::Utf16, Encoding::Utf32] {
            let spans: Vec<Span> = bounds.windows(2).map(|w| Span::new(w[0], w[1])).collect();
            let expected: Vec<Range> = spans.iter().map(|&s| encoding.range(&rope, s)).collect();
            assert_eq!(
                encoding.ranges(&Rope::from_str(TEXT), &spans),
                expected,
                "{encoding:?}"
            );
            let backwards: Vec<Span> = spans.iter().rev().copied().collect();
            let expected: Vec<Range> = expected.into_iter().rev().collect();
            assert_eq!(
                encoding.ranges(&Rope::from_str(TEXT), &backwards),
                expected,
                "{encoding:?}"
            );
        }
    }

    #[test]
    fn bad_positions_clamp_instead_of_panicking() {
        let rope = Rope::from_str(TEXT);
        let line_end = TEXT.find("\r\n").unwrap();
        let past_line = Encoding::Utf16.byte_offset(&rope, Position::new(0, 99));
        assert_eq!((past_line.index, past_line.clamped), (line_end, true));
        let past_doc = Encoding::Utf8.byte_offset(&rope, Position::new(99, 0));
        assert_eq!((past_doc.index, past_doc.clamped), (TEXT.len(), true));
        // Half of the emoji's surrogate pair rounds down to its start.
        let emoji = TEXT.find('😀').unwrap();
        let half = Encoding::Utf16.byte_offset(&rope, Position::new(0, 3));
        assert_eq!(half.index, emoji);
        // The middle of a UTF-8 sequence, too.
        let mid = Encoding::Utf8.byte_offset(&rope, Position::new(0, 4));
        assert_eq!(mid.index, emoji);
        assert_eq!(Encoding::Utf16.position(&rope, 10_000), Position::new(3, 0));
    }

    #[test]
    fn the_cursor_agrees_with_position_at_every_byte_in_any_order() {
        let rope = Rope::from_str(TEXT);
        for encoding in [Encoding::Utf8, Encoding::Utf16, Encoding::Utf32] {
            let mut cursor = encoding.cursor(&rope);
            let forward = 0..=TEXT.len() + 2;
            for byte in forward.clone().chain(forward.rev()) {
                let expected = encoding.position(&rope, byte);
                assert_eq!(cursor.position(byte), expected, "{encoding:?} at {byte}");
            }
        }
    }

    #[test]
    fn negotiation_prefers_the_clients_first_known_encoding() {
        let with = |kinds: Option<Vec<&'static str>>| {
            let mut caps = ClientCapabilities::default();
            if let Some(kinds) = kinds {
                caps.general = Some(tower_lsp_server::lsp_types::GeneralClientCapabilities {
                    position_encodings: Some(
                        kinds.into_iter().map(PositionEncodingKind::new).collect(),
                    ),
                    ..Default::default()
                });
            }
            Encoding::negotiate(&caps)
        };
        assert_eq!(with(None), Encoding::Utf16);
        assert_eq!(with(Some(vec!["utf-8"])), Encoding::Utf8);
        assert_eq!(
            with(Some(vec!["utf-7", "utf-32", "utf-8"])),
            Encoding::Utf32
        );
        assert_eq!(with(Some(vec![])), Encoding::Utf16);
    }
}
