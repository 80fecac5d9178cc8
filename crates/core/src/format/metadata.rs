//! The metadata of a file or a puzzle: the known `# key: value` entries and where each is.
//! Reading and checking the lines is `meta`'s.

use crate::finding::Span;

/// One `# key: value` entry: its value and the span of its whole line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub value: String,
    pub span: Span,
}

/// The known metadata keys. `variant` and `size` are applied to the puzzle itself.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Metadata {
    pub title: Option<Entry>,
    pub author: Option<Entry>,
    pub source: Option<Entry>,
    pub difficulty: Option<Entry>,
    pub variant: Option<Entry>,
    pub size: Option<Entry>,
}

impl Metadata {
    /// Every key's slot, in the order the keys are documented.
    pub fn fields(&self) -> [&Option<Entry>; 6] {
        [
            &self.title,
            &self.author,
            &self.source,
            &self.difficulty,
            &self.variant,
            &self.size,
        ]
    }

    /// The same slots, to change in place.
    pub(crate) fn fields_mut(&mut self) -> [&mut Option<Entry>; 6] {
        [
            &mut self.title,
            &mut self.author,
            &mut self.source,
            &mut self.difficulty,
            &mut self.variant,
            &mut self.size,
        ]
    }

    /// The entries present.
    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.fields().into_iter().flatten()
    }
}
