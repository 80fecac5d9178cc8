//! Open documents: the one owner of their text, kept as ropes with the client's version.
//!
//! Changes are applied in the order they arrive, each range resolved against the text as the
//! previous change left it (that is what the protocol's incremental sync means). A change with
//! no range replaces the whole text. A range outside the text is clamped to it and reported
//! back as a note for the log, so a confused client costs at worst a wrong character, never a
//! crash; a change for a document we do not have open is refused with a note.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

use ropey::Rope;
use tower_lsp_server::lsp_types::{Range, TextDocumentContentChangeEvent, Uri};

use super::encoding::Encoding;
use crate::finding::Span;
use crate::format::{self, Change};

/// The text of one open document at one version. Cloning a rope is cheap (shared chunks).
#[derive(Clone, Debug)]
pub struct Snapshot {
    pub version: i32,
    /// Unique to this text of this opening of the document: unlike the client's version, it
    /// tells a reopened document (which may start again at version 1) from its earlier life.
    pub generation: u64,
    pub rope: Rope,
    /// When this text arrived (for the timing log: the way from an edit to its diagnostics).
    pub received: std::time::SystemTime,
}

fn next_generation() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

impl Snapshot {
    pub fn text(&self) -> String {
        self.rope.to_string()
    }

    /// The whole lines that `span` touches, and the byte they start at: enough of the text to
    /// rewrite one puzzle without copying the whole document.
    pub fn lines_around(&self, span: Span) -> (String, usize) {
        let len = self.rope.len_bytes();
        let first = self.rope.byte_to_line(span.start.min(len));
        let last = self.rope.byte_to_line(span.end.min(len));
        let start = self.rope.line_to_byte(first);
        let end = self
            .rope
            .line_to_byte((last + 1).min(self.rope.len_lines()));
        (self.rope.byte_slice(start..end).to_string(), start)
    }
}

#[derive(Default)]
pub struct Documents {
    open: HashMap<Uri, Snapshot>,
}

/// The document after a `didChange`, with anything worth logging about how it got there.
pub struct Changed {
    pub snapshot: Snapshot,
    pub notes: Vec<String>,
}

impl Documents {
    /// Open (or reopen, replacing) a document.
    pub fn open(&mut self, uri: Uri, text: &str, version: i32) -> Snapshot {
        let snapshot = Snapshot {
            version,
            generation: next_generation(),
            rope: Rope::from_str(text),
            received: std::time::SystemTime::now(),
        };
        self.open.insert(uri, snapshot.clone());
        snapshot
    }

    /// Apply one `didChange`'s changes in order. `Err` with a note when the document is not open.
    pub fn change(
        &mut self,
        uri: &Uri,
        version: i32,
        changes: &[TextDocumentContentChangeEvent],
        encoding: Encoding,
    ) -> Result<Changed, String> {
        let Some(doc) = self.open.get_mut(uri) else {
            return Err(format!(
                "ignored a change to {} (version {version}): the document is not open",
                uri.as_str()
            ));
        };
        let mut notes = Vec::new();
        for change in changes {
            match change.range {
                None => doc.rope = Rope::from_str(&change.text),
                Some(range) => {
                    if let Some(note) = apply(&mut doc.rope, range, &change.text, encoding) {
                        notes.push(format!("{} (version {version}): {note}", uri.as_str()));
                    }
                }
            }
        }
        doc.version = version;
        doc.generation = next_generation();
        doc.received = std::time::SystemTime::now();
        Ok(Changed {
            snapshot: doc.clone(),
            notes,
        })
    }

    /// Forget a document; false if it was not open.
    pub fn close(&mut self, uri: &Uri) -> bool {
        self.open.remove(uri).is_some()
    }

    pub fn get(&self, uri: &Uri) -> Option<Snapshot> {
        self.open.get(uri).cloned()
    }

    /// The version of an open document.
    pub fn version(&self, uri: &Uri) -> Option<i32> {
        self.open.get(uri).map(|doc| doc.version)
    }

    /// The generation of an open document's current text.
    pub fn generation(&self, uri: &Uri) -> Option<u64> {
        self.open.get(uri).map(|doc| doc.generation)
    }
}

/// Where two texts differ: their longest common prefix and, in what remains, suffix. Compared
/// chunk by chunk; after an edit most chunks are shared, and a 4 MB text compares in well under
/// a millisecond.
pub fn change_between(old: &Rope, new: &Rope) -> Change {
    let prefix = format::shared_bytes(old.chunks(), new.chunks(), false);
    let old_end_chunks = old.chunks_at_byte(old.len_bytes()).0.reversed();
    let new_end_chunks = new.chunks_at_byte(new.len_bytes()).0.reversed();
    let suffix = format::shared_bytes(old_end_chunks, new_end_chunks, true);
    Change::from_shared(old.len_bytes(), new.len_bytes(), prefix, suffix)
}

/// Whole lines of `rope` around `new`'s changed bytes, with `format::WINDOW_MARGIN_LINES` each
/// side, and where they start: what `format::reparse` reads (`format::window` over a string).
pub fn window(rope: &Rope, change: Change) -> (usize, String) {
    let first = rope
        .byte_to_line(change.start)
        .saturating_sub(format::WINDOW_MARGIN_LINES);
    let last = rope.byte_to_line(change.new_end) + 1 + format::WINDOW_MARGIN_LINES;
    let start = rope.line_to_byte(first);
    let end = rope.line_to_byte(last.min(rope.len_lines()));
    (start, rope.byte_slice(start..end).to_string())
}

/// Replace `range` of the rope with `text`; a note when the range had to be repaired.
fn apply(rope: &mut Rope, range: Range, text: &str, encoding: Encoding) -> Option<String> {
    let start = encoding.char_index(rope, range.start);
    let end = encoding.char_index(rope, range.end);
    let mut note = (start.clamped || end.clamped).then(|| {
        format!(
            "edit range {}:{}–{}:{} lies outside the text ({} lines); clamped to it",
            range.start.line,
            range.start.character,
            range.end.line,
            range.end.character,
            rope.len_lines()
        )
    });
    let (mut from, mut to) = (start.index, end.index);
    if from > to {
        std::mem::swap(&mut from, &mut to);
        note.get_or_insert_with(|| "edit range ends before it starts; swapped its ends".into());
    }
    rope.remove(from..to);
    rope.insert(from, text);
    note
}

#[cfg(test)]
mod tests {
    use super::*;
    use tower_lsp_server::lsp_types::Position;

    fn uri() -> Uri {
        "file:///tmp/a.sudoku".parse().unwrap()
    }

    fn edit(l1: u32, c1: u32, l2: u32, c2: u32, text: &str) -> TextDocumentContentChangeEvent {
        TextDocumentContentChangeEvent {
            range: Some(Range::new(Position::new(l1, c1), Position::new(l2, c2))),
            range_length: None,
            text: text.into(),
        }
    }

    #[test]
    fn changes_apply_in_order_against_the_previous_text() {
        let mut docs = Documents::default();
        docs.open(uri(), "# 😀 x\r\n123\r\n", 1);
        // In UTF-16 the emoji is two units, so `x` is at character 5.
        let changes = [
            edit(0, 5, 0, 6, "title"),
            edit(1, 0, 1, 1, "."),
            edit(1, 3, 1, 3, "4"),
        ];
        let changed = docs.change(&uri(), 2, &changes, Encoding::Utf16).unwrap();
        assert_eq!(changed.snapshot.text(), "# 😀 title\r\n.234\r\n");
        assert!(changed.notes.is_empty());
        assert_eq!(docs.version(&uri()), Some(2));
        let whole = TextDocumentContentChangeEvent {
            range: None,
            range_length: None,
            text: "new".into(),
        };
        let changed = docs.change(&uri(), 3, &[whole], Encoding::Utf16).unwrap();
        assert_eq!(changed.snapshot.text(), "new");
    }

    #[test]
    fn the_change_between_large_texts_is_found_across_chunks() {
        let old: String = (0..20_000).map(|i| format!("{i:05}\n")).collect();
        let old_rope = Rope::from_str(&old);
        for (from, to, text) in [
            (0, 0, "x"),
            (50_000, 50_003, ""),
            (old.len() - 1, old.len(), "é\n"),
        ] {
            let mut rope = old_rope.clone();
            rope.remove(rope.byte_to_char(from)..rope.byte_to_char(to));
            rope.insert(rope.byte_to_char(from), text);
            let mut new = old.clone();
            new.replace_range(from..to, text);
            let change = change_between(&old_rope, &rope);
            assert_eq!(&old[..change.start], &new[..change.start]);
            assert_eq!(&old[change.old_end..], &new[change.new_end..]);
            assert!(
                change.start >= from.saturating_sub(1) && change.new_end <= from + text.len() + 1
            );
            let fresh = change_between(&Rope::from_str(&old), &Rope::from_str(&new));
            assert_eq!(change, fresh);
        }
    }

    #[test]
    fn out_of_range_edits_clamp_and_unknown_documents_are_refused() {
        let mut docs = Documents::default();
        docs.open(uri(), "ab\ncd", 1);
        let changed = docs
            .change(&uri(), 2, &[edit(1, 1, 40, 9, "Z")], Encoding::Utf8)
            .unwrap();
        assert_eq!(changed.snapshot.text(), "ab\ncZ");
        assert_eq!(changed.notes.len(), 1);
        let changed = docs
            .change(&uri(), 3, &[edit(0, 2, 0, 0, "-")], Encoding::Utf32)
            .unwrap();
        assert_eq!(changed.snapshot.text(), "-\ncZ");
        assert!(docs.close(&uri()));
        assert!(docs
            .change(&uri(), 4, &[edit(0, 0, 0, 0, "x")], Encoding::Utf8)
            .is_err());
        assert!(!docs.close(&uri()));
    }

    /// A reference model of LSP positions, written for clarity rather than speed: lines end at
    /// `\n`, `\r\n` or `\r`; `character` counts in the encoding's unit.
    fn reference_position(text: &str, byte: usize, encoding: Encoding) -> Position {
        let before = &text[..byte];
        let mut line = 0;
        let mut line_start = 0;
        for (i, c) in before.char_indices() {
            let ends_line = c == '\n' || (c == '\r' && !text[i + 1..].starts_with('\n'));
            if ends_line {
                line += 1;
                line_start = i + 1;
            }
        }
        let prefix = &text[line_start..byte];
        let character = match encoding {
            Encoding::Utf8 => prefix.len(),
            Encoding::Utf16 => prefix.encode_utf16().count(),
            Encoding::Utf32 => prefix.chars().count(),
        };
        Position::new(line as u32, character as u32)
    }

    /// Offsets a position can name: char boundaries, but not between `\r` and `\n`.
    fn positions(text: &str) -> Vec<usize> {
        (0..=text.len())
            .filter(|&i| text.is_char_boundary(i))
            .filter(|&i| !(text[..i].ends_with('\r') && text[i..].starts_with('\n')))
            .collect()
    }

    use proptest::prelude::*;

    fn piece() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            "a", "9", ".", " ", "😀", "日本", "é", "\n", "\r\n", "\r", "#",
        ])
        .prop_map(str::to_string)
    }

    fn text() -> impl Strategy<Value = String> {
        prop::collection::vec(piece(), 0..40).prop_map(|pieces| pieces.concat())
    }

    fn encoding() -> impl Strategy<Value = Encoding> {
        prop::sample::select(vec![Encoding::Utf8, Encoding::Utf16, Encoding::Utf32])
    }

    proptest! {
        #[test]
        fn positions_agree_with_the_reference_model(text in text(), encoding in encoding()) {
            let rope = Rope::from_str(&text);
            for byte in positions(&text) {
                let expected = reference_position(&text, byte, encoding);
                prop_assert_eq!(encoding.position(&rope, byte), expected);
                let back = encoding.byte_offset(&rope, expected);
                prop_assert_eq!((back.index, back.clamped), (byte, false));
            }
        }

        #[test]
        fn the_change_between_two_texts_is_where_they_differ(old in text(), new in text()) {
            let change = change_between(&Rope::from_str(&old), &Rope::from_str(&new));
            prop_assert_eq!(&old[..change.start], &new[..change.start]);
            prop_assert_eq!(&old[change.old_end..], &new[change.new_end..]);
            prop_assert!(change.start <= change.old_end.min(change.new_end));
            let (_, shorter) = (old.len().max(new.len()), old.len().min(new.len()));
            let prefix = old.bytes().zip(new.bytes()).take_while(|(a, b)| a == b).count();
            prop_assert_eq!(change.start, prefix.min(shorter));
        }

        #[test]
        fn incremental_edits_match_plain_string_edits(
            start in text(),
            edits in prop::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>(), text()), 1..8),
            encoding in encoding(),
        ) {
            let mut docs = Documents::default();
            docs.open(uri(), &start, 1);
            let mut model = start.clone();
            for (version, (a, b, new)) in edits.into_iter().enumerate() {
                let offsets = positions(&model);
                let (a, b) = (*a.get(&offsets), *b.get(&offsets));
                let (from, to) = (a.min(b), a.max(b));
                let change = TextDocumentContentChangeEvent {
                    range: Some(Range::new(
                        reference_position(&model, from, encoding),
                        reference_position(&model, to, encoding),
                    )),
                    range_length: None,
                    text: new.clone(),
                };
                model.replace_range(from..to, &new);
                let changed = docs.change(&uri(), version as i32 + 2, &[change], encoding).unwrap();
                prop_assert!(changed.notes.is_empty(), "{:?}", changed.notes);
                prop_assert_eq!(changed.snapshot.text(), model.clone());
            }
        }
    }
}
