//! Byte offsets (Rust's strings, the core's spans) to UTF-16 code units (JavaScript's strings,
//! CodeMirror's positions) and back.

/// The UTF-16 offset of every character boundary of one text.
pub struct Offsets {
    /// For each byte offset that starts a character (and the end), its UTF-16 offset; other
    /// bytes, inside a character, hold the offset of the character they are in.
    utf16: Vec<u32>,
    /// For each UTF-16 offset, the byte offset of the character it is in (or the end).
    bytes: Vec<u32>,
}

impl Offsets {
    pub fn new(text: &str) -> Offsets {
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
        Offsets { utf16, bytes }
    }

    /// The UTF-16 offset of byte `offset` (the end, past it).
    pub fn utf16(&self, offset: usize) -> u32 {
        self.utf16[offset.min(self.utf16.len() - 1)]
    }

    /// The byte offset of UTF-16 offset `at` (the end, past it).
    pub fn byte(&self, at: u32) -> usize {
        self.bytes[(at as usize).min(self.bytes.len() - 1)] as usize
    }
}
