//! Byte offsets to the `LINE:COLUMN` the command line prints: 1-based, the column counted in
//! characters, lines broken at `\n`, `\r\n` and a lone `\r` (as the parser and LSP count them).

use std::cell::RefCell;

pub struct LineIndex<'t> {
    text: &'t str,
    /// Where `text` starts in the whole input, and the number of its first line (0-based).
    base: usize,
    first_line: usize,
    /// Where the lines start, as far into the text as questions have reached: most pieces of
    /// a collection have no finding to place, and a piece where every line has one shows only
    /// its first (`--max-findings`), so the index never holds more lines than were asked about.
    starts: RefCell<Starts>,
}

/// Offsets in the text where each line starts (after a byte-order mark on the input's first
/// line: it is no column, as the server does not count it either), found up to `scanned`.
/// `u32`, since a piece is at most a few tens of MiB (a larger text's far lines all count as
/// its last).
struct Starts {
    at: Vec<u32>,
    scanned: usize,
}

impl<'t> LineIndex<'t> {
    /// The index of a whole text.
    pub fn new(text: &'t str) -> LineIndex<'t> {
        LineIndex::piece(text, 0, 1)
    }

    /// The index of a piece of an input: `text` found at byte `base`, its first line being line
    /// `first_line` (1-based). Offsets asked about are offsets into the whole input.
    pub fn piece(text: &'t str, base: usize, first_line: usize) -> LineIndex<'t> {
        let bom = if base == 0 && text.starts_with('\u{feff}') {
            '\u{feff}'.len_utf8()
        } else {
            0
        };
        LineIndex {
            text,
            base,
            first_line: first_line.saturating_sub(1),
            starts: RefCell::new(Starts {
                at: vec![bom as u32],
                scanned: bom,
            }),
        }
    }

    /// The 0-based line of `offset` in the text, and where it starts.
    fn line_of(&self, offset: usize) -> (usize, usize) {
        let mut starts = self.starts.borrow_mut();
        let bytes = self.text.as_bytes();
        while starts.scanned < offset {
            let i = starts.scanned;
            starts.scanned += 1;
            let breaks =
                bytes[i] == b'\n' || (bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n'));
            if breaks {
                match u32::try_from(i + 1) {
                    Ok(start) => starts.at.push(start),
                    Err(_) => starts.scanned = usize::MAX,
                }
            }
        }
        let line = starts
            .at
            .partition_point(|&s| s as usize <= offset)
            .saturating_sub(1);
        (line, starts.at[line] as usize)
    }

    /// 1-based line and character column of a byte offset of the input (clamped to the piece).
    pub fn line_column(&self, offset: usize) -> (usize, usize) {
        let offset = offset.saturating_sub(self.base).min(self.text.len());
        let (line, start) = self.line_of(offset);
        let start = start.min(offset);
        let column = self
            .text
            .get(start..offset)
            .map_or(offset - start, |s| s.chars().count());
        (self.first_line + line + 1, column + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::LineIndex;

    #[test]
    fn counts_characters_and_every_line_break() {
        let text = "a\r\nb\rcé😀d\ne";
        let index = LineIndex::new(text);
        assert_eq!(index.line_column(0), (1, 1));
        assert_eq!(index.line_column(3), (2, 1));
        assert_eq!(index.line_column(5), (3, 1));
        let d = text.find('d').unwrap();
        assert_eq!(index.line_column(d), (3, 4));
        assert_eq!(index.line_column(text.len()), (4, 2));
    }

    #[test]
    fn a_byte_order_mark_is_no_column() {
        let index = LineIndex::new("\u{feff}3.3\n");
        assert_eq!(index.line_column(3), (1, 1));
        assert_eq!(index.line_column(5), (1, 3));
        assert_eq!(index.line_column(0), (1, 1));
    }

    #[test]
    fn the_index_holds_the_lines_asked_about_and_no_more() {
        let text = "x\n".repeat(1000);
        let index = LineIndex::new(&text);
        assert_eq!(index.line_column(20), (11, 1));
        assert_eq!(index.starts.borrow().at.len(), 11);
        assert_eq!(index.line_column(3), (2, 2));
        assert_eq!(index.line_column(text.len()), (1001, 1));
    }

    #[test]
    fn a_piece_counts_from_its_first_line_and_offset() {
        let index = LineIndex::piece("ab\ncd", 100, 7);
        assert_eq!(index.line_column(100), (7, 1));
        assert_eq!(index.line_column(104), (8, 2));
    }
}
