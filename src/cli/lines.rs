//! Byte offsets to the `LINE:COLUMN` the command line prints: 1-based, the column counted in
//! characters, lines broken at `\n`, `\r\n` and a lone `\r` (as the parser and LSP count them).

pub struct LineIndex<'t> {
    text: &'t str,
    /// Byte offset where each line starts.
    starts: Vec<usize>,
}

impl<'t> LineIndex<'t> {
    pub fn new(text: &'t str) -> LineIndex<'t> {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        for (i, &b) in bytes.iter().enumerate() {
            let breaks = b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n'));
            if breaks {
                starts.push(i + 1);
            }
        }
        LineIndex { text, starts }
    }

    /// 1-based line and character column of a byte offset (clamped to the text).
    pub fn line_column(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let column = self
            .text
            .get(start..offset)
            .map_or(offset - start, |s| s.chars().count());
        (line + 1, column + 1)
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
}
