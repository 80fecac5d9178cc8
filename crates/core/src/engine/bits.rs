//! `Digits`: a set of digits 1..=25 as a bitset, bit `d - 1` for digit `d`.

use std::fmt;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Digits(pub u32);

impl FromIterator<u8> for Digits {
    fn from_iter<I: IntoIterator<Item = u8>>(digits: I) -> Digits {
        let mut set = Digits::EMPTY;
        for digit in digits {
            set.insert(digit);
        }
        set
    }
}

impl Digits {
    pub const EMPTY: Digits = Digits(0);

    /// Every digit of a grid with `side` cells per unit.
    pub fn all(side: usize) -> Digits {
        Digits((1u32 << side) - 1)
    }
    pub fn single(digit: u8) -> Digits {
        Digits(1 << (digit - 1))
    }
    pub fn contains(self, digit: u8) -> bool {
        self.0 & (1 << (digit - 1)) != 0
    }
    pub fn insert(&mut self, digit: u8) {
        self.0 |= 1 << (digit - 1);
    }
    pub fn remove(&mut self, digit: u8) {
        self.0 &= !(1 << (digit - 1));
    }
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// The digit if exactly one is left.
    pub fn only(self) -> Option<u8> {
        // x & (x - 1) clears the lowest set bit: zero afterwards means one bit was set.
        (self.0 != 0 && self.0 & (self.0 - 1) == 0).then(|| self.0.trailing_zeros() as u8 + 1)
    }
    /// The smallest digit in the set.
    pub fn first(self) -> Option<u8> {
        (self.0 != 0).then(|| self.0.trailing_zeros() as u8 + 1)
    }
    pub fn iter(self) -> impl Iterator<Item = u8> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let digit = bits.trailing_zeros() as u8 + 1;
            bits &= bits - 1; // drop the lowest set bit
            Some(digit)
        })
    }
}

impl std::ops::BitOr for Digits {
    type Output = Digits;
    fn bitor(self, rhs: Digits) -> Digits {
        Digits(self.0 | rhs.0)
    }
}
impl std::ops::BitAnd for Digits {
    type Output = Digits;
    fn bitand(self, rhs: Digits) -> Digits {
        Digits(self.0 & rhs.0)
    }
}
impl std::ops::Not for Digits {
    type Output = Digits;
    fn not(self) -> Digits {
        Digits(!self.0)
    }
}

/// Written the way hover shows pencil marks: `{2, 5, 7}`, with `A`, `B`… above 9.
impl fmt::Display for Digits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        for (i, d) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{}", crate::grid::digit_char(d))?;
        }
        f.write_str("}")
    }
}

impl fmt::Debug for Digits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
