//! Where a puzzle's cells are in the source, compactly.
//!
//! A cell is mostly one ASCII byte, so its start offset says all. A one-line puzzle's cells are
//! side by side, so its start and count say all (16 bytes however many cells, where a span per
//! cell took 16 bytes each: 64 MB for a 49,151-puzzle collection). A block's cells are stored as
//! `u32` offsets from its first cell, so moving a whole puzzle (an edit above it) changes one
//! number. Only a cell of pencil marks is longer than a byte, and those puzzles keep each span.

use crate::finding::Span;

/// The source span of each cell's character, row-major.
#[derive(Clone, Debug)]
pub struct CellSpans {
    repr: Repr,
}

#[derive(Clone, Debug)]
enum Repr {
    /// Cells side by side from `start`.
    Run { start: usize, len: usize },
    /// Each cell's offset from `base` (the first cell's start).
    Offsets { base: usize, offsets: Box<[u32]> },
    /// Each cell's start, for a block so spread out that `u32` offsets would not do.
    Starts(Box<[usize]>),
    /// `len` cells of `width` bytes side by side from `start`: a line of pencil-mark places.
    Strided {
        start: usize,
        len: usize,
        width: usize,
    },
    /// Each cell's whole span, for cells of several characters (a group of pencil marks).
    Spans(Box<[Span]>),
}

impl CellSpans {
    /// `len` cells side by side from byte `start`.
    pub fn run(start: usize, len: usize) -> CellSpans {
        CellSpans {
            repr: Repr::Run { start, len },
        }
    }

    /// The cells starting at `starts`, in order (each one byte long).
    pub(crate) fn from_starts(starts: &[usize]) -> CellSpans {
        let Some(&base) = starts.first() else {
            return CellSpans::run(0, 0);
        };
        if starts.iter().enumerate().all(|(k, &s)| s == base + k) {
            return CellSpans::run(base, starts.len());
        }
        let offsets: Option<Box<[u32]>> = starts
            .iter()
            .map(|&s| s.checked_sub(base).and_then(|d| u32::try_from(d).ok()))
            .collect();
        let repr = match offsets {
            Some(offsets) => Repr::Offsets { base, offsets },
            None => Repr::Starts(starts.into()),
        };
        CellSpans { repr }
    }

    /// The cells at `spans`, in order, each of one or more bytes.
    pub(crate) fn from_spans(spans: &[Span]) -> CellSpans {
        if spans.iter().all(|s| s.len() == 1) {
            let starts: Vec<usize> = spans.iter().map(|s| s.start).collect();
            return CellSpans::from_starts(&starts);
        }
        // 16 bytes for a collection line of places, rather than 16 a cell.
        let (start, width) = (spans[0].start, spans[0].len());
        let strided = spans
            .iter()
            .enumerate()
            .all(|(k, s)| s.start == start + k * width && s.len() == width);
        if strided {
            let len = spans.len();
            return CellSpans {
                repr: Repr::Strided { start, len, width },
            };
        }
        CellSpans {
            repr: Repr::Spans(spans.into()),
        }
    }

    pub fn len(&self) -> usize {
        match &self.repr {
            Repr::Run { len, .. } => *len,
            Repr::Offsets { offsets, .. } => offsets.len(),
            Repr::Starts(starts) => starts.len(),
            Repr::Strided { len, .. } => *len,
            Repr::Spans(spans) => spans.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The span of cell `i`, if there is such a cell.
    pub fn get(&self, i: usize) -> Option<Span> {
        let start = match &self.repr {
            Repr::Run { start, len } => (i < *len).then(|| start + i)?,
            Repr::Offsets { base, offsets } => base + *offsets.get(i)? as usize,
            Repr::Starts(starts) => *starts.get(i)?,
            Repr::Strided { start, len, width } => {
                return (i < *len).then(|| Span::new(start + i * width, start + (i + 1) * width));
            }
            Repr::Spans(spans) => return spans.get(i).copied(),
        };
        Some(Span::new(start, start + 1))
    }

    /// The span of cell `i`. Panics if there is no such cell, like indexing a slice.
    /// The bytes of the cells when they are one byte each, side by side (a one-line puzzle).
    pub fn as_run(&self) -> Option<Span> {
        match self.repr {
            Repr::Run { start, len } => Some(Span::new(start, start + len)),
            _ => None,
        }
    }

    pub fn span(&self, i: usize) -> Span {
        match self.get(i) {
            Some(span) => span,
            None => panic!("cell {i} of a puzzle with {} cells", self.len()),
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = Span> + '_ {
        (0..self.len()).map(|i| self.span(i))
    }

    /// The cell whose character contains, or else ends at, byte `offset`.
    pub fn cell_at(&self, offset: usize) -> Option<usize> {
        if let Repr::Run { start, len } = self.repr {
            // Side by side, a cell ending at `offset` is the next one's start: prefer that one.
            return match offset.checked_sub(start) {
                Some(k) if k < len => Some(k),
                Some(k) if k == len && len > 0 => Some(len - 1),
                _ => None,
            };
        }
        self.iter()
            .position(|s| s.contains(offset))
            .or_else(|| self.iter().position(|s| s.touches(offset)))
    }

    /// Move every cell by `delta` bytes (the text before them grew or shrank by that much).
    pub(crate) fn shift(&mut self, delta: isize) {
        let by = |at: &mut usize| *at = at.wrapping_add_signed(delta);
        match &mut self.repr {
            Repr::Run { start, .. } => by(start),
            Repr::Offsets { base, .. } => by(base),
            Repr::Starts(starts) => starts.iter_mut().for_each(by),
            Repr::Strided { start, .. } => by(start),
            Repr::Spans(spans) => spans.iter_mut().for_each(|s| {
                by(&mut s.start);
                by(&mut s.end);
            }),
        }
    }
}

/// Equal when every cell is at the same place, however stored.
impl PartialEq for CellSpans {
    fn eq(&self, other: &CellSpans) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for CellSpans {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_gives_the_same_spans() {
        let side_by_side = CellSpans::from_starts(&[5, 6, 7]);
        assert!(matches!(side_by_side.repr, Repr::Run { start: 5, len: 3 }));
        assert_eq!(side_by_side, CellSpans::run(5, 3));
        let spread = CellSpans::from_starts(&[5, 7, 20]);
        assert!(matches!(spread.repr, Repr::Offsets { base: 5, .. }));
        let spans: Vec<Span> = spread.iter().collect();
        assert_eq!(spans, [Span::new(5, 6), Span::new(7, 8), Span::new(20, 21)]);
        assert_eq!(spread.get(3), None);
        let far = CellSpans::from_starts(&[1, usize::MAX - 1]);
        assert!(matches!(far.repr, Repr::Starts(_)));
        assert_eq!(far.span(1), Span::new(usize::MAX - 1, usize::MAX));
    }

    #[test]
    fn cells_of_several_bytes_keep_their_spans() {
        let places = [Span::new(10, 19), Span::new(19, 28), Span::new(28, 37)];
        let strided = CellSpans::from_spans(&places);
        assert!(matches!(strided.repr, Repr::Strided { width: 9, .. }));
        assert_eq!(strided.iter().collect::<Vec<_>>(), places);
        assert_eq!(strided.cell_at(20), Some(1));
        let groups = [Span::new(0, 3), Span::new(4, 5), Span::new(8, 12)];
        let mut spread = CellSpans::from_spans(&groups);
        assert!(matches!(spread.repr, Repr::Spans(_)));
        assert_eq!(spread.cell_at(9), Some(2));
        spread.shift(5);
        assert_eq!(spread.span(2), Span::new(13, 17));
        let ones = CellSpans::from_spans(&[Span::new(4, 5), Span::new(5, 6)]);
        assert!(matches!(ones.repr, Repr::Run { start: 4, len: 2 }));
    }

    #[test]
    fn the_cell_at_an_offset_prefers_the_one_containing_it() {
        let run = CellSpans::run(10, 4);
        let spread = CellSpans::from_starts(&[10, 11, 12, 14]);
        assert_eq!(run.cell_at(9), None);
        assert_eq!(run.cell_at(11), Some(1));
        assert_eq!(run.cell_at(14), Some(3));
        assert_eq!(run.cell_at(15), None);
        assert_eq!(spread.cell_at(11), Some(1));
        assert_eq!(spread.cell_at(13), Some(2));
        assert_eq!(spread.cell_at(15), Some(3));
    }

    #[test]
    fn shifting_moves_every_cell() {
        for mut cells in [
            CellSpans::run(10, 3),
            CellSpans::from_starts(&[10, 12, 30]),
            CellSpans::from_starts(&[10, usize::MAX - 1]),
        ] {
            let before: Vec<Span> = cells.iter().collect();
            cells.shift(-4);
            cells.shift(2);
            let after: Vec<usize> = cells.iter().map(|s| s.start + 2).collect();
            let expected: Vec<usize> = before.iter().map(|s| s.start).collect();
            assert_eq!(after, expected);
        }
    }
}
