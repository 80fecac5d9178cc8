//! The board of the fast 9×9 solver: one 81-bit candidate board per digit, and propagation.
//!
//! Each digit owns three `u32` words, one per band (rows A–C, D–F, G–I); bit `9 * r + c` of a
//! band word is row `r` of the band, column `c`. A digit's board keeps the cells where the digit
//! is already placed, so "each row, column and box holds the digit exactly once" stays true of
//! the board at every step and is the rule propagation works with (see `tables.rs`). A cell is
//! placed when it is the only cell of its row on its digit's board; it then leaves every other
//! digit's board and the `unsolved` mask.

use super::tables::{
    ANTI_DIAGONAL, BAND, BAND_KEEP, MAIN_DIAGONAL, PEERS, PEERS_DIAGONAL, ROW_OCCUPANCY, STACK_KEEP,
};

/// The three rows of a band, one mask each.
const ROW_MASKS: [u32; 3] = [0x1ff, 0x1ff << 9, 0x1ff << 18];

/// Multiplying a 9-bit column set by this copies it into all three rows of a band word
/// (`1 + 2^9 + 2^18`: three shifted copies that never overlap).
const SPREAD_ROWS: u32 = 0x40201;

/// The search state: small, `Copy`, no heap.
#[derive(Clone, Copy, Debug)]
pub struct Board {
    /// Per digit, per band: cells where the digit may be (or is) placed.
    pub cand: [[u32; 3]; 9],
    /// Per band: cells not placed yet.
    pub unsolved: [u32; 3],
    /// Bit `d`: digit `d`'s board changed since it was last propagated.
    dirty: u32,
}

/// A contradiction: this branch has no solution.
#[derive(Debug)]
pub struct Dead;

impl Board {
    /// The board of `givens` (0 = empty, 1..=9), or `Dead` when two equal givens share a unit.
    pub fn new(givens: &[u8; 81], diagonal: bool) -> Result<Board, Dead> {
        let mut board = Board {
            cand: [[BAND; 3]; 9],
            unsolved: [BAND; 3],
            dirty: 0x1ff,
        };
        let peers = if diagonal { &PEERS_DIAGONAL } else { &PEERS };
        for (cell, &given) in givens.iter().enumerate() {
            if given == 0 {
                continue;
            }
            if given > 9 {
                return Err(Dead);
            }
            let digit = usize::from(given - 1);
            let (band, bit) = (cell / 27, 1u32 << (cell % 27));
            // The cell left this digit's board only if an equal given is a peer.
            if board.cand[digit][band] & bit == 0 {
                return Err(Dead);
            }
            for (word, peer) in board.cand[digit].iter_mut().zip(&peers[cell]) {
                *word &= !peer;
            }
            for (other, words) in board.cand.iter_mut().enumerate() {
                if other != digit {
                    words[band] &= !bit;
                }
            }
            board.unsolved[band] &= !bit;
        }
        Ok(board)
    }

    pub fn is_solved(&self) -> bool {
        self.unsolved == [0; 3]
    }

    /// The filled grid, digits 1..=9 (meaningful once `is_solved`).
    pub fn grid(&self) -> [u8; 81] {
        let mut grid = [0u8; 81];
        for (digit, words) in self.cand.iter().enumerate() {
            for (band, &word) in words.iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    grid[27 * band + bits.trailing_zeros() as usize] = digit as u8 + 1;
                    bits &= bits - 1; // clear the lowest set bit
                }
            }
        }
        grid
    }

    /// Place `digit` at the cell `bit` of `band`: the rest of its row leaves the digit's board,
    /// so the row holds one cell and the next propagation places it.
    pub fn place(&mut self, digit: usize, band: usize, bit: u32) {
        let row = ROW_MASKS[(bit.trailing_zeros() / 9) as usize];
        self.cand[digit][band] &= !(row & !bit);
        self.dirty |= 1 << digit;
    }

    /// Remove `digit` from the cell `bit` of `band`.
    pub fn remove(&mut self, digit: usize, band: usize, bit: u32) {
        self.cand[digit][band] &= !bit;
        self.dirty |= 1 << digit;
    }

    /// Propagate to a fixpoint: the permutation rule on every band and stack of every changed
    /// digit, placing the single cells of rows, then naked singles.
    pub fn propagate<const DIAGONAL: bool>(&mut self) -> Result<(), Dead> {
        loop {
            while self.dirty != 0 {
                let digit = self.dirty.trailing_zeros() as usize;
                self.dirty &= self.dirty - 1;
                self.update_digit::<DIAGONAL>(digit)?;
            }
            if !self.naked_singles()? {
                return Ok(());
            }
        }
    }

    /// One digit to its own fixpoint, then its newly placed cells leave the other digits.
    fn update_digit<const DIAGONAL: bool>(&mut self, digit: usize) -> Result<(), Dead> {
        let mut c = self.cand[digit];
        loop {
            let before = c;
            // Bands: the row occupancy of each minirow → the cells the permutation rule keeps.
            for word in c.iter_mut() {
                let x = *word;
                let pattern = ROW_OCCUPANCY[(x & 0x1ff) as usize] as usize
                    | (ROW_OCCUPANCY[((x >> 9) & 0x1ff) as usize] as usize) << 3
                    | (ROW_OCCUPANCY[(x >> 18) as usize] as usize) << 6;
                *word = x & BAND_KEEP[pattern];
            }
            // Stacks: fold each band's three rows into its 9 column bits, then read stack `s`
            // as band i's columns 3s..3s+2 (bits 9i+3s.. of `folded` after the shift).
            let fold = |x: u32| (x | x >> 9 | x >> 18) & 0x1ff;
            let folded = fold(c[0]) | fold(c[1]) << 9 | fold(c[2]) << 18;
            let mut keep_columns = 0;
            for stack in 0..3 {
                // Three 3-bit groups at 0, 9, 18 → packed at 0, 3, 6 (the 9-bit pattern).
                let g = (folded >> (3 * stack)) & 0o7_007_007;
                let pattern = (g | g >> 6 | g >> 12) & 0x1ff;
                keep_columns |= STACK_KEEP[pattern as usize] << (3 * stack);
            }
            for (band, word) in c.iter_mut().enumerate() {
                *word &= ((keep_columns >> (9 * band)) & 0x1ff) * SPREAD_ROWS;
            }
            if DIAGONAL {
                diagonal_rule(&mut c, MAIN_DIAGONAL)?;
                diagonal_rule(&mut c, ANTI_DIAGONAL)?;
            }
            // An empty row, column or box left some row empty: the band rule then gave 0.
            if c[0] == 0 || c[1] == 0 || c[2] == 0 {
                return Err(Dead);
            }
            if c == before {
                break;
            }
        }
        self.cand[digit] = c;
        for (band, &word) in c.iter().enumerate() {
            let placed = row_singles(word) & self.unsolved[band];
            if placed == 0 {
                continue;
            }
            self.unsolved[band] &= !placed;
            for other in 0..9 {
                let word = &mut self.cand[other][band];
                if other != digit && *word & placed != 0 {
                    *word &= !placed;
                    self.dirty |= 1 << other;
                }
            }
        }
        Ok(())
    }

    /// Place every cell with one candidate left. `Ok(false)` when there was none.
    fn naked_singles(&mut self) -> Result<bool, Dead> {
        let mut found = false;
        for band in 0..3 {
            // Bit-sliced counting over the nine digits: `one` = at least one candidate,
            // `two` = at least two.
            let (mut one, mut two) = (0u32, 0u32);
            for words in &self.cand {
                two |= one & words[band];
                one |= words[band];
            }
            let unsolved = self.unsolved[band];
            if unsolved & !one != 0 {
                return Err(Dead);
            }
            let singles = unsolved & !two;
            if singles == 0 {
                continue;
            }
            found = true;
            for digit in 0..9 {
                let cells = singles & self.cand[digit][band];
                if cells == 0 {
                    continue;
                }
                let mut word = self.cand[digit][band];
                for row in ROW_MASKS {
                    let mine = cells & row;
                    if mine == 0 {
                        continue;
                    }
                    // Two cells of one row that can only hold this digit: contradiction.
                    if mine & (mine - 1) != 0 {
                        return Err(Dead);
                    }
                    word &= !(row & !mine);
                }
                self.cand[digit][band] = word;
                self.dirty |= 1 << digit;
            }
        }
        Ok(found)
    }

    /// Per band: `one` (≥ 1 candidate) and `two` (≥ 2) and `three` (≥ 3), unsolved cells only.
    pub fn counts(&self, band: usize) -> (u32, u32, u32) {
        let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
        for words in &self.cand {
            let w = words[band] & self.unsolved[band];
            three |= two & w;
            two |= one & w;
            one |= w;
        }
        (one, two, three)
    }
}

/// The cells that are alone in their row of a band word (each row has at least one cell).
#[inline]
fn row_singles(word: u32) -> u32 {
    let mut singles = 0;
    for row in ROW_MASKS {
        let x = word & row;
        // x & (x - 1) clears the lowest bit: zero exactly when x has at most one bit.
        if x & x.wrapping_sub(1) == 0 {
            singles |= x;
        }
    }
    singles
}

/// A diagonal holds each digit once: no cell left is a contradiction, one cell left is placed
/// (its row shrinks to it), and a placed cell on the diagonal clears the rest of it.
fn diagonal_rule(c: &mut [u32; 3], diagonal: [u32; 3]) -> Result<(), Dead> {
    let on = [c[0] & diagonal[0], c[1] & diagonal[1], c[2] & diagonal[2]];
    let count: u32 = on.iter().map(|w| w.count_ones()).sum();
    match count {
        0 => Err(Dead),
        1 => {
            for band in 0..3 {
                if on[band] != 0 {
                    let row = ROW_MASKS[(on[band].trailing_zeros() / 9) as usize];
                    c[band] &= !(row & !on[band]);
                }
            }
            Ok(())
        }
        _ => {
            let placed = [
                row_singles(c[0]) & on[0],
                row_singles(c[1]) & on[1],
                row_singles(c[2]) & on[2],
            ];
            let n: u32 = placed.iter().map(|w| w.count_ones()).sum();
            match n {
                0 => Ok(()),
                1 => {
                    for band in 0..3 {
                        c[band] &= !diagonal[band] | placed[band];
                    }
                    Ok(())
                }
                _ => Err(Dead),
            }
        }
    }
}
