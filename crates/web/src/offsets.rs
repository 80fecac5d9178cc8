//! Byte offsets (Rust's strings, the core's spans) to UTF-16 code units (JavaScript's strings,
//! CodeMirror's positions) and back.

/// The UTF-16 offset of every character boundary of one text. An ASCII text (nearly every
/// `.sudoku` file) has the same offsets in both and keeps no tables: a text of megabytes is
/// checked again at each keystroke, and building them took longer than the re-check.
pub struct Offsets {
    /// The text's length when it is ASCII (the tables then empty).
    ascii: Option<usize>,
    /// For each byte offset that starts a character (and the end), its UTF-16 offset; other
    /// bytes, inside a character, hold the offset of the character they are in.
    utf16: Vec<u32>,
    /// For each UTF-16 offset, the byte offset of the character it is in (or the end).
    bytes: Vec<u32>,
}

impl Offsets {
    pub fn new(text: &str) -> Offsets {
        if text.is_ascii() {
            return Offsets {
                ascii: Some(text.len()),
                utf16: Vec::new(),
                bytes: Vec::new(),
            };
        }
        let mut utf16 = Vec::with_capacity(text.len() + 1);
        let mut bytes = Vec::with_capacity(text.len() + 1);
        let mut units = 0u32;
        for (at, c) in text.char_indices() {
            utf16.extend(std::iter::repeat_n(units, c.len_utf8()));
            bytes.extend(std::iter::repeat_n(at as u32, c.len_utf16()));
            units += c.len_utf16() as u32;
        }
        utf16.push(units);
        bytes.push(text.len() as u32);
        Offsets {
            ascii: None,
            utf16,
            bytes,
        }
    }

    /// The UTF-16 offset of byte `offset` (the end, past it).
    pub fn utf16(&self, offset: usize) -> u32 {
        if let Some(len) = self.ascii {
            return offset.min(len) as u32;
        }
        self.utf16[offset.min(self.utf16.len() - 1)]
    }

    /// The byte offset of UTF-16 offset `at` (the end, past it).
    pub fn byte(&self, at: u32) -> usize {
        if let Some(len) = self.ascii {
            return (at as usize).min(len);
        }
        self.bytes[(at as usize).min(self.bytes.len() - 1)] as usize
    }
}

#[cfg(test)]
mod tests {
    use super::Offsets;

    #[test]
    fn an_ascii_text_has_the_same_offsets_in_both_and_the_end_past_it() {
        let offsets = Offsets::new("12\n3");
        assert_eq!(
            (0..=4).map(|b| offsets.utf16(b)).collect::<Vec<_>>(),
            [0, 1, 2, 3, 4]
        );
        assert_eq!(
            (0..=4).map(|u| offsets.byte(u)).collect::<Vec<_>>(),
            [0, 1, 2, 3, 4]
        );
        assert_eq!((offsets.utf16(99), offsets.byte(99)), (4, 4));
    }

    #[test]
    fn other_texts_count_each_character_in_its_units() {
        // "é" is two bytes and one unit; "😀" four bytes and two units.
        let offsets = Offsets::new("é😀x");
        assert_eq!(offsets.utf16(2), 1);
        assert_eq!(offsets.utf16(6), 3);
        assert_eq!(offsets.byte(3), 6);
        assert_eq!((offsets.utf16(99), offsets.byte(99)), (4, 7));
    }
}
