//! `CellSet`: a set of cells as a bitset of `W` 64-bit words, bit `c` for cell `c`.
//!
//! Two words hold every grid up to 11×11 (the 81 cells of a 9×9 fit in one `u128`'s worth), ten
//! hold a 25×25; the width is a const parameter so the 9×9 loops unroll to two words. Below
//! `grid`, which finds its peers and overlaps with them; `logic` lays its boards out in them.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Sub, SubAssign};

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct CellSet<const W: usize>(pub [u64; W]);

impl<const W: usize> Default for CellSet<W> {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<const W: usize> CellSet<W> {
    pub const EMPTY: Self = CellSet([0; W]);

    pub fn single(cell: usize) -> Self {
        let mut set = Self::EMPTY;
        set.insert(cell);
        set
    }
    pub(crate) fn from_cells(cells: impl IntoIterator<Item = usize>) -> Self {
        let mut set = Self::EMPTY;
        for c in cells {
            set.insert(c);
        }
        set
    }
    pub fn contains(&self, cell: usize) -> bool {
        self.0[cell / 64] >> (cell % 64) & 1 != 0
    }
    pub fn insert(&mut self, cell: usize) {
        self.0[cell / 64] |= 1 << (cell % 64);
    }
    pub fn remove(&mut self, cell: usize) {
        self.0[cell / 64] &= !(1 << (cell % 64));
    }
    pub fn len(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    pub(crate) fn intersects(&self, other: &Self) -> bool {
        self.0.iter().zip(&other.0).any(|(a, b)| a & b != 0)
    }
    /// How many cells the two sets share: `(a & b).len()` without copying either.
    pub(crate) fn shared(&self, other: &Self) -> u32 {
        self.0
            .iter()
            .zip(&other.0)
            .map(|(a, b)| (a & b).count_ones())
            .sum()
    }
    /// Whether every cell of `self` is in `other`.
    pub(crate) fn is_subset(&self, other: &Self) -> bool {
        self.0.iter().zip(&other.0).all(|(a, b)| a & !b == 0)
    }
    /// The lowest cell.
    pub fn first(&self) -> Option<usize> {
        let (i, w) = self.0.iter().enumerate().find(|(_, &w)| w != 0)?;
        Some(i * 64 + w.trailing_zeros() as usize)
    }
    /// The cell if there is exactly one.
    pub fn only(&self) -> Option<usize> {
        (self.len() == 1).then(|| self.first()).flatten()
    }
    /// Cells in ascending order.
    pub fn iter(&self) -> CellIter<W> {
        CellIter {
            words: self.0,
            word: 0,
        }
    }
}

pub struct CellIter<const W: usize> {
    words: [u64; W],
    word: usize,
}

impl<const W: usize> Iterator for CellIter<W> {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        while self.word < W {
            let bits = self.words[self.word];
            if bits != 0 {
                self.words[self.word] = bits & (bits - 1); // drop the lowest set bit
                return Some(self.word * 64 + bits.trailing_zeros() as usize);
            }
            self.word += 1;
        }
        None
    }
}

impl<const W: usize> FromIterator<usize> for CellSet<W> {
    fn from_iter<I: IntoIterator<Item = usize>>(iter: I) -> Self {
        Self::from_cells(iter)
    }
}

macro_rules! word_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign:ident, |$a:ident, $b:ident| $e:expr) => {
        impl<const W: usize> $trait for CellSet<W> {
            type Output = Self;
            fn $method(mut self, rhs: Self) -> Self {
                self.$assign(rhs);
                self
            }
        }
        impl<const W: usize> $assign_trait for CellSet<W> {
            fn $assign(&mut self, rhs: Self) {
                for ($a, $b) in self.0.iter_mut().zip(rhs.0) {
                    *$a = $e;
                }
            }
        }
    };
}

word_op!(BitAnd, bitand, BitAndAssign, bitand_assign, |a, b| *a & b);
word_op!(BitOr, bitor, BitOrAssign, bitor_assign, |a, b| *a | b);
// `a - b`: the cells of `a` not in `b`.
word_op!(Sub, sub, SubAssign, sub_assign, |a, b| *a & !b);

/// The complement over all `64 * W` bits; intersect it with a grid's cells before use.
impl<const W: usize> Not for CellSet<W> {
    type Output = Self;
    fn not(mut self) -> Self {
        for w in self.0.iter_mut() {
            *w = !*w;
        }
        self
    }
}

impl<const W: usize> std::fmt::Debug for CellSet<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_cross_word_boundaries() {
        let set: CellSet<2> = [0, 63, 64, 80].into_iter().collect();
        assert_eq!(set.len(), 4);
        assert_eq!(set.iter().collect::<Vec<_>>(), [0, 63, 64, 80]);
        assert!(set.contains(64) && !set.contains(65));
        let other = CellSet::from_cells([63, 64, 70]);
        assert_eq!((set & other).iter().collect::<Vec<_>>(), [63, 64]);
        assert_eq!((set - other).iter().collect::<Vec<_>>(), [0, 80]);
        assert_eq!(CellSet::<10>::single(624).first(), Some(624));
        assert_eq!(CellSet::<2>::single(7).only(), Some(7));
        assert_eq!(set.only(), None);
    }
}
