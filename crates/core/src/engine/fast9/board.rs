//! The board of the fast 9×9 solver: one 81-bit candidate board per digit, and propagation.
//!
//! Each digit owns three `u32` words, one per band (rows A–C, D–F, G–I); bit `9 * r + c` of a
//! band word is row `r` of the band, column `c`. A digit's board keeps the cells where the digit
//! is already placed, so "each row, column and box holds the digit exactly once" stays true of
//! the board at every step and is the rule propagation works with (see `tables.rs`). A cell is
//! placed when it is the only cell of its row on its digit's board; it then leaves every other
//! digit's board and the `unsolved` mask.

use super::tables::{
    ANTI_DIAGONAL, BAND, BAND_KEEP, MAIN_DIAGONAL, PEERS, PEERS_DIAGONAL, ROW_OCCUPANCY,
};

/// The three rows of a band, one mask each.
const ROW_MASKS: [u32; 3] = [0x1ff, 0x1ff << 9, 0x1ff << 18];

/// Multiplying a 9-bit column set by this copies it into all three rows of a band word
/// (`1 + 2^9 + 2^18`: three shifted copies that never overlap).
pub(crate) const SPREAD_ROWS: u32 = 0x40201;

/// The two other bands of each band.
const OTHER_BANDS: [(usize, usize); 3] = [(1, 2), (0, 2), (0, 1)];

/// Digits per band of `Board::cand`.
pub(crate) const LANES: usize = 9;

/// The search state: small, `Copy`, no heap; 128 bytes, the size up to which a copy stays a
/// few vector moves (a larger board made each guess call `memcpy`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub(super) struct Board {
    /// Per band, per digit: cells where the digit may be (or is) placed. Band-major, so the
    /// nine digits of a band sit side by side and a placed cell leaves all of them in a few
    /// vector operations (`clear_cells`).
    pub cand: [[u32; LANES]; 3],
    /// Per band: cells not placed yet.
    pub unsolved: [u32; 3],
    /// Bit `9 * b + d`: digit `d`'s word of band `b` changed since it was last propagated.
    dirty: u32,
    /// Bit `d`: digit `d`'s board changed since the stack rule last looked at it.
    stale: u32,
}

/// Per digit, where its minirows and minicolumns may be, as the last propagation step saw them:
/// the input of the triad rule and of the branch choice.
///
/// `minirows[d]`: bit `3 * m + b` is minirow `m` (`3 * row + box`) of band `b`; the three bands
/// interleave so that one word holds all 27 minirows. `minicolumns[d]`: bit `9 * b + c` is the
/// three cells of column `c` in band `b`.
#[derive(Default)]
pub(crate) struct Triads {
    pub minirows: [u32; 9],
    pub minicolumns: [u32; 9],
}

/// A contradiction: this branch has no solution.
#[derive(Debug)]
pub(crate) struct Dead;

/// Every digit, as `stale` bits.
const ALL_DIGITS: u32 = 0x1ff;

/// The `dirty` bit of `digit`'s word in `band`.
#[inline(always)]
fn dirty_bit(band: usize, digit: usize) -> u32 {
    1 << (9 * band + digit)
}

impl Board {
    /// The board of `givens` (0 = empty, 1..=9), or `Dead` when two equal givens share a unit.
    #[inline(always)]
    pub(super) fn new(givens: &[u8; 81], diagonal: bool) -> Result<Board, Dead> {
        let peers = if diagonal { &PEERS_DIAGONAL } else { &PEERS };
        // Per band and digit: the digit's givens, and the cells that see one of them. Only
        // ORs while reading the givens (no load that waits on the previous given's store); the
        // conflict check and the candidates come after, in one pass.
        let mut mine = [[0u32; LANES]; 3];
        let mut seen = [[0u32; LANES]; 3];
        let mut unsolved = [BAND; 3];
        for (band, cells) in givens.chunks_exact(27).enumerate() {
            // Which cells hold a given, without a branch per cell (whether a cell is given is
            // a coin toss for the predictor); then one step per given.
            let given_cells = cells
                .iter()
                .enumerate()
                .fold(0u32, |mask, (offset, &given)| {
                    mask | u32::from(given != 0) << offset
                });
            unsolved[band] &= !given_cells;
            let mut left = given_cells;
            while left != 0 {
                let offset = left.trailing_zeros() as usize;
                left &= left - 1; // clear the lowest set bit
                let digit = usize::from(cells[offset] - 1);
                if digit >= 9 {
                    return Err(Dead);
                }
                mine[band][digit] |= 1 << offset;
                for (seen, peer) in seen.iter_mut().zip(&peers[27 * band + offset]) {
                    seen[digit] |= peer;
                }
            }
        }
        let mut cand = [[0u32; LANES]; 3];
        let mut conflict = 0;
        for band in 0..3 {
            for digit in 0..9 {
                let (mine, seen) = (mine[band][digit], seen[band][digit]);
                // A given that sees an equal given.
                conflict |= mine & seen;
                // Keep the unsolved cells no equal given sees, and the digit's own givens.
                cand[band][digit] = (unsolved[band] & !seen) | mine;
            }
        }
        if conflict != 0 {
            return Err(Dead);
        }
        // Only the words the band rule would change need a first look: most do not, and one
        // vectorised pass over all 27 is cheaper than 27 scalar no-op steps. Every digit is
        // stale (the stack rule has seen none).
        let mut dirty = 0;
        for (band, words) in cand.iter().enumerate() {
            dirty |= band_rule_would_change(words, unsolved[band]) << (9 * band);
        }
        Ok(Board {
            cand,
            unsolved,
            dirty,
            stale: ALL_DIGITS,
        })
    }

    #[inline(always)]
    pub(crate) fn unsolved_cells(&self) -> u32 {
        self.unsolved.iter().map(|w| w.count_ones()).sum()
    }

    /// Per band, the unsolved cells with exactly two candidates, counted afresh, one cell at a
    /// time: what `propagate` keeps up to date band by band (checked against this in debug
    /// builds).
    pub(crate) fn bivalue_cells(&self) -> [u32; 3] {
        let mut bivalue = [0; 3];
        for (band, bivalue) in bivalue.iter_mut().enumerate() {
            for cell in 0..27 {
                let candidates = self.cand[band].iter().filter(|&&w| w >> cell & 1 != 0);
                let two = candidates.count() == 2 && self.unsolved[band] >> cell & 1 != 0;
                *bivalue |= u32::from(two) << cell;
            }
        }
        bivalue
    }

    #[inline(always)]
    pub(super) fn is_solved(&self) -> bool {
        self.unsolved == [0; 3]
    }

    /// The filled grid, digits 1..=9 (meaningful once `is_solved`).
    ///
    /// On a solved board each row of a digit's band word holds exactly one cell, so each word
    /// is three `trailing_zeros`, a fixed count the loops unroll (a loop over each word's set
    /// bits ended unpredictably).
    pub(super) fn grid(&self) -> [u8; 81] {
        let mut grid = [0u8; 81];
        for (band, words) in self.cand.iter().enumerate() {
            for (digit, &word) in words.iter().enumerate() {
                for row in 0..3 {
                    // Bit 8 set in advance caps the column at 8 (in the grid) should the row be
                    // empty, on a board that is not solved.
                    let column = ((word >> (9 * row)) | 0x100).trailing_zeros() as usize;
                    grid[27 * band + 9 * row + column] = digit as u8 + 1;
                }
            }
        }
        grid
    }

    /// Narrow `digit`'s three band words with `keep`.
    #[inline(always)]
    pub(crate) fn restrict(&mut self, digit: usize, keep: [u32; 3]) {
        for (band, keep) in keep.into_iter().enumerate() {
            self.narrow(band, digit, keep);
        }
    }

    /// Propagate to a fixpoint, cheapest rules first: the band rule on every changed band word
    /// (placing the single cells of rows), then naked singles, then the stack rule (and the
    /// diagonals) over all digits, then with `TRIADS` the triad rule (which fills `seen`); back
    /// to the start whenever something changed; a board solved by the band rule stops there.
    /// Keeps `bivalue` (per band, the cells left with two candidates: where the search
    /// branches) up to date: bands no word of which changed keep the value they came with, the
    /// parent node's (not meaningful once solved).
    #[inline(always)]
    pub(super) fn propagate<const DIAGONAL: bool, const TRIADS: bool, const V3: bool>(
        &mut self,
        seen: &mut Triads,
        bivalue: &mut [u32; 3],
    ) -> Result<(), Dead> {
        // Naked singles only look again at bands where some word changed (all of them on a
        // new board, whose first step marks only some words).
        let mut touched = if self.stale == ALL_DIGITS { 0b111 } else { 0 };
        loop {
            while self.dirty != 0 {
                let index = self.dirty.trailing_zeros() as usize;
                self.dirty &= self.dirty - 1; // clear the lowest set bit
                let (band, digit) = (index / 9, index % 9);
                self.stale |= 1 << digit;
                touched |= 1 << band;
                self.update_band::<DIAGONAL, V3>(band, digit)?;
            }
            // Every cell placed and every change seen by the band rule: a valid grid (a clash
            // in a column or diagonal would have emptied a row above). The other rules could
            // only confirm it.
            if self.is_solved() {
                return Ok(());
            }
            let found = self.naked_singles(touched, bivalue)?;
            touched = 0;
            if found {
                continue;
            }
            if self.stack_rule::<DIAGONAL>()? {
                continue;
            }
            if !TRIADS || !self.triad_rule(seen)? {
                return Ok(());
            }
        }
    }

    /// Narrow `digit`'s word in `band` with `keep`, marking it for propagation when it changed
    /// (branch-free: whether it changes is unpredictable).
    #[inline(always)]
    fn narrow(&mut self, band: usize, digit: usize, keep: u32) {
        let word = &mut self.cand[band][digit];
        let after = *word & keep;
        self.dirty |= u32::from(after != *word) << (9 * band + digit);
        *word = after;
    }

    /// The band rule on one digit's band word, then the cells alone in their row are placed:
    /// they leave the other digits, their column in the other bands (and their diagonal).
    #[inline(always)]
    fn update_band<const DIAGONAL: bool, const V3: bool>(
        &mut self,
        band: usize,
        digit: usize,
    ) -> Result<(), Dead> {
        let x = self.cand[band][digit];
        // Which minirows hold the digit → the cells the permutation rule keeps (0: none fits).
        let word = x & BAND_KEEP[minirow_pattern::<V3>(x)];
        // A third of the calls change nothing. Their "nothing to place" is known from `x` alone,
        // before the table loads above land, so the branch on it (a coin toss) resolves early;
        // whether the band rule removed cells (a fifth of the calls) is the likelier to predict.
        let unchanged_singles = row_singles(x) & self.unsolved[band];
        let placed = if word == x {
            if unchanged_singles == 0 {
                return Ok(());
            }
            unchanged_singles
        } else {
            if word == 0 {
                return Err(Dead);
            }
            let placed = row_singles(word) & self.unsolved[band];
            if placed == 0 {
                self.cand[band][digit] = word;
                return Ok(());
            }
            placed
        };
        self.unsolved[band] &= !placed;
        // The placed cells leave every digit's word of the band at once; this digit gets its
        // word back (and needs no new look: the band rule is idempotent). Its word is stored
        // only after the vector loads of `clear_cells`: a narrow store just before a wide load
        // of the same bytes cannot be forwarded and stalls the load.
        let changed = clear_cells::<V3>(&mut self.cand[band], placed);
        self.dirty |= changed << (9 * band);
        self.cand[band][digit] = word;
        self.dirty &= !dirty_bit(band, digit);
        // Fold the three rows onto the 9 column bits, then copy them back into every row.
        let columns = ((placed | placed >> 9 | placed >> 18) & 0x1ff) * SPREAD_ROWS;
        let (b1, b2) = OTHER_BANDS[band];
        self.narrow(b1, digit, !columns);
        self.narrow(b2, digit, !columns);
        if DIAGONAL {
            // Within a band the diagonal cells share a box, which the band rule covers; the
            // other bands lose the diagonal through a placed diagonal cell.
            for diagonal in [MAIN_DIAGONAL, ANTI_DIAGONAL] {
                if placed & diagonal[band] != 0 {
                    self.narrow(b1, digit, !diagonal[b1]);
                    self.narrow(b2, digit, !diagonal[b2]);
                }
            }
        }
        Ok(())
    }

    /// Triads: each minirow (three cells of a row inside a box) holds exactly three digits, and
    /// so does each minicolumn. A minirow where only three digits fit holds those three, which
    /// then leave the rest of its row and box; a minirow that three digits must use holds no
    /// other digit. The same for minicolumns. `Ok(true)` when a board changed; `seen` gets
    /// the minirows and minicolumns it looked at.
    #[inline(always)]
    fn triad_rule(&mut self, seen: &mut Triads) -> Result<bool, Dead> {
        for digit in 0..9 {
            let c = self.digit_words(digit);
            // A minirow's three cells fold onto its first; the bands interleave (see `Triads`).
            seen.minirows[digit] =
                fold_minirows(c[0]) | fold_minirows(c[1]) << 1 | fold_minirows(c[2]) << 2;
            seen.minicolumns[digit] = fold_columns(c);
        }
        if let Some(keep) = triad_keep::<MINIROWS>(&seen.minirows)? {
            for (digit, (&keep, &was)) in keep.iter().zip(&seen.minirows).enumerate() {
                let lost = was & !keep;
                for band in 0..3 {
                    // Minirow bits sit at 9r + 3k (after the shift); times 7 covers its cells.
                    let cells = ((lost >> band) & 0o111_111_111) * 7;
                    self.narrow(band, digit, !cells);
                }
            }
        }
        if let Some(keep) = triad_keep::<MINICOLUMNS>(&seen.minicolumns)? {
            for (digit, (&keep, &was)) in keep.iter().zip(&seen.minicolumns).enumerate() {
                let lost = was & !keep;
                for band in 0..3 {
                    let cells = ((lost >> (9 * band)) & 0x1ff) * SPREAD_ROWS;
                    self.narrow(band, digit, !cells);
                }
            }
        }
        Ok(self.dirty != 0)
    }

    /// One digit's three band words.
    #[inline(always)]
    fn digit_words(&self, digit: usize) -> [u32; 3] {
        [
            self.cand[0][digit],
            self.cand[1][digit],
            self.cand[2][digit],
        ]
    }

    /// The stack rule (and with `DIAGONAL` the diagonal rule) on every digit; `Ok(true)` when a
    /// board changed.
    #[inline(always)]
    fn stack_rule<const DIAGONAL: bool>(&mut self) -> Result<bool, Dead> {
        let mut stale = self.stale;
        if stale == 0 {
            return Ok(false);
        }
        self.stale = 0;
        // All nine digits at once, in straight-line arithmetic the compiler turns into vector
        // code (eight digits per AVX2 vector): cheaper than one digit at a time for the stale
        // ones only. A digit that is not stale is at the rule's fixpoint and loses nothing.
        let mut folded = [0u32; LANES];
        for (digit, folded) in folded.iter_mut().enumerate() {
            *folded = fold_columns(self.digit_words(digit));
        }
        let mut lost = 0u32;
        for (digit, &folded) in folded.iter().enumerate() {
            lost |= u32::from(folded & !stack_keep(folded) != 0) << digit;
        }
        while lost != 0 {
            let digit = lost.trailing_zeros() as usize;
            lost &= lost - 1; // clear the lowest set bit
            let keep_columns = stack_keep(folded[digit]);
            for band in 0..3 {
                let keep = ((keep_columns >> (9 * band)) & 0x1ff) * SPREAD_ROWS;
                self.narrow(band, digit, keep);
            }
        }
        if DIAGONAL {
            while stale != 0 {
                let digit = stale.trailing_zeros() as usize;
                stale &= stale - 1; // clear the lowest set bit
                for diagonal in [MAIN_DIAGONAL, ANTI_DIAGONAL] {
                    self.diagonal_rule(digit, diagonal)?;
                }
            }
        }
        Ok(self.dirty != 0)
    }

    /// A diagonal holds each digit once: no cell left is a contradiction, and the one cell left
    /// is placed (its row shrinks to it).
    #[inline(always)]
    fn diagonal_rule(&mut self, digit: usize, diagonal: [u32; 3]) -> Result<(), Dead> {
        let c = self.digit_words(digit);
        let on = [c[0] & diagonal[0], c[1] & diagonal[1], c[2] & diagonal[2]];
        match on.iter().map(|w| w.count_ones()).sum::<u32>() {
            0 => Err(Dead),
            1 => {
                for (band, &bit) in on.iter().enumerate() {
                    if bit != 0 && self.unsolved[band] & bit != 0 {
                        let row = ROW_MASKS[(bit.trailing_zeros() / 9) as usize];
                        self.narrow(band, digit, !(row & !bit));
                    }
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// Place every cell with one candidate left in the `touched` bands (a bit per band), and
    /// note their cells with two candidates in `bivalue`. `Ok(true)` when some were placed.
    #[inline(always)]
    fn naked_singles(&mut self, touched: u32, bivalue: &mut [u32; 3]) -> Result<bool, Dead> {
        let mut found = false;
        for (band, bivalue) in bivalue.iter_mut().enumerate() {
            if touched & (1 << band) == 0 {
                continue;
            }
            let words = &mut self.cand[band];
            // Bit-sliced counting over the nine digits, one cell per bit: `one` = at least one
            // candidate, `two` = at least two, `three` = at least three.
            let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
            for &word in &words[..9] {
                three |= two & word;
                two |= one & word;
                one |= word;
            }
            let unsolved = self.unsolved[band];
            *bivalue = unsolved & two & !three;
            if unsolved & !one != 0 {
                return Err(Dead);
            }
            let singles = unsolved & !two;
            if singles == 0 {
                continue;
            }
            found = true;
            for (digit, word) in words[..9].iter_mut().enumerate() {
                let cells = singles & *word;
                if cells == 0 {
                    continue;
                }
                for row in ROW_MASKS {
                    let mine = cells & row;
                    if mine == 0 {
                        continue;
                    }
                    // Two cells of one row that can only hold this digit: contradiction.
                    if mine & (mine - 1) != 0 {
                        return Err(Dead);
                    }
                    *word &= !(row & !mine);
                }
                self.dirty |= dirty_bit(band, digit);
            }
        }
        Ok(found)
    }
}

/// How the triads of a `Triads` word group, by the stride of their lines. Each triad sits in
/// two units of three triads: its line (row for a minirow; box for a minicolumn), whose members
/// are `STRIDE` bits apart, and its cross unit (box for a minirow; column for a minicolumn),
/// whose members are 9 bits apart in both layouts.
const MINIROWS: u32 = 3;
const MINICOLUMNS: u32 = 1;

/// The first member of every line: bits 9i + 0..3 for minirows, 9i + 0, 3, 6 for minicolumns.
const fn line_firsts(stride: u32) -> u32 {
    if stride == MINIROWS {
        0o007_007_007
    } else {
        0o111_111_111
    }
}

/// All 27 triads.
const ALL_TRIADS: u32 = (1 << 27) - 1;

/// The triad rule on the nine digits' words: the words that survive, or `None` when nothing
/// changes. Wants the band and stack rules at their fixpoint: then a digit must use a triad
/// exactly when the triad is alone in its line for that digit.
#[inline(always)]
fn triad_keep<const STRIDE: u32>(words: &[u32; 9]) -> Result<Option<[u32; 9]>, Dead> {
    let s = STRIDE;
    let firsts = const { line_firsts(STRIDE) };
    // Bit-sliced counting over the digits, one triad per bit: how many digits may sit in each
    // triad (`one` ≥ 1 … `four` ≥ 4), and how many must.
    let (mut one, mut two, mut three, mut four) = (0u32, 0u32, 0u32, 0u32);
    let (mut must1, mut must2, mut must3, mut must4) = (0u32, 0u32, 0u32, 0u32);
    let mut must = [0u32; 9];
    for (must, &w) in must.iter_mut().zip(words) {
        // The three members of each line, each brought to the line's first bit.
        let (a, b, c) = (w & firsts, (w >> s) & firsts, (w >> (2 * s)) & firsts);
        // Exactly one of three: an odd count that is not three.
        let alone = (a ^ b ^ c) & !(a & b & c);
        let m = (a & alone) | (b & alone) << s | (c & alone) << (2 * s);
        *must = m;
        four |= three & w;
        three |= two & w;
        two |= one & w;
        one |= w;
        must4 |= must3 & m;
        must3 |= must2 & m;
        must2 |= must1 & m;
        must1 |= m;
    }
    if three != ALL_TRIADS || must4 != 0 {
        return Err(Dead);
    }
    // Exactly three may, not all three must yet (settled triads would fire every time).
    let naked = !four & !must3 & ALL_TRIADS;
    let hidden = must3 & four;
    if naked == 0 && hidden == 0 {
        return Ok(None);
    }
    // A plain loop, not `array::from_fn`: that one is a generic function which, left out of
    // line, would be compiled for the baseline instruction set (and called) from the v3 search.
    let mut keep = [0u32; 9];
    for ((keep, &w), &must) in keep.iter_mut().zip(words).zip(&must) {
        let forced = w & naked;
        // The triads sharing a line or a cross unit with a forced one.
        let line = (forced | forced >> s | forced >> (2 * s)) & firsts;
        let cross = (forced | forced >> 9 | forced >> 18) & 0x1ff;
        let units = (line * (1 | 1 << s | 1 << (2 * s))) | (cross * SPREAD_ROWS);
        *keep = w & !(units & !forced) & !(hidden & !must);
    }
    Ok(Some(keep))
}

/// A band word's minirow pattern, the index of `BAND_KEEP`: bit `3r + k` when minirow (row `r`,
/// box `k`) holds a cell.
///
/// `V3`: the caller runs on a CPU with x86-64-v3 (BMI2, AVX2), which only the search compiled
/// for it (`Fast9::run_v3`, after its runtime check) asserts; then one `pext` gathers the
/// folded minirow bits. Otherwise three row lookups.
#[inline(always)]
fn minirow_pattern<const V3: bool>(x: u32) -> usize {
    #[cfg(target_arch = "x86_64")]
    if V3 {
        use std::arch::x86_64::_pext_u32;
        // SAFETY: `V3` is true only where the CPU has BMI2 (see above). `pext` packs the bits
        // of the first argument at the mask's bits (9r + 3k) into bits 3r + k.
        let pattern = unsafe { _pext_u32(fold_minirows(x), 0o111_111_111) };
        // A no-op (nine mask bits, nine result bits) that spares a bounds check.
        return pattern as usize & 0x1ff;
    }
    // (The `& 0x1ff` on the top row is a no-op on a 27-bit word; it spares a bounds check.)
    ROW_OCCUPANCY[(x & 0x1ff) as usize] as usize
        | (ROW_OCCUPANCY[((x >> 9) & 0x1ff) as usize] as usize) << 3
        | (ROW_OCCUPANCY[((x >> 18) & 0x1ff) as usize] as usize) << 6
}

/// Remove `cells` from all the words of a band; gives the digits (bit `d`) whose word held one
/// of them. `V3` as in `minirow_pattern` (then digits 0–7 are one AVX2 vector).
#[inline(always)]
fn clear_cells<const V3: bool>(words: &mut [u32; LANES], cells: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if V3 {
        use std::arch::x86_64::{
            __m256i, _mm256_and_si256, _mm256_andnot_si256, _mm256_castsi256_ps,
            _mm256_cmpeq_epi32, _mm256_loadu_si256, _mm256_movemask_ps, _mm256_set1_epi32,
            _mm256_setzero_si256, _mm256_storeu_si256,
        };
        let mut changed = u32::from(words[8] & cells != 0) << 8;
        words[8] &= !cells;
        // SAFETY: `V3` is true only where the CPU has AVX2 (see `minirow_pattern`); the
        // access covers words 0..8 of the nine, and unaligned loads and stores need no
        // alignment.
        unsafe {
            let ptr = words.as_mut_ptr().cast::<__m256i>();
            let mask = _mm256_set1_epi32(cells as i32);
            let v = _mm256_loadu_si256(ptr);
            _mm256_storeu_si256(ptr, _mm256_andnot_si256(mask, v));
            // As in the SSE2 version below, eight lanes at once.
            let kept = _mm256_cmpeq_epi32(_mm256_and_si256(v, mask), _mm256_setzero_si256());
            changed |= !_mm256_movemask_ps(_mm256_castsi256_ps(kept)) as u32 & 0xff;
        }
        return changed;
    }
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        use std::arch::x86_64::{
            __m128i, _mm_and_si128, _mm_andnot_si128, _mm_castsi128_ps, _mm_cmpeq_epi32,
            _mm_loadu_si128, _mm_movemask_ps, _mm_set1_epi32, _mm_setzero_si128, _mm_storeu_si128,
        };
        // Four digits per 128-bit vector: digits 0–3 and 4–7; digit 8 on its own. (Overlapping
        // vectors 4–7 and 5–8 would save an instruction but make the next call's load of 4–7
        // wait for two older stores it cannot be forwarded from.) SSE2 is part of the x86_64
        // baseline, hence no runtime check.
        const STARTS: [usize; 2] = [0, 4];
        let mut changed = u32::from(words[8] & cells != 0) << 8;
        words[8] &= !cells;
        let base = words.as_mut_ptr();
        // SAFETY: SSE2 is enabled (checked by the `cfg`); each access covers words
        // `start..start + 4` with `start <= 4`, inside the nine, and unaligned loads and
        // stores need no alignment.
        unsafe {
            let mask = _mm_set1_epi32(cells as i32);
            for start in STARTS {
                let ptr = base.add(start).cast::<__m128i>();
                let v = _mm_loadu_si128(ptr);
                _mm_storeu_si128(ptr, _mm_andnot_si128(mask, v));
                // Lanes where `v & cells` is zero compare all-ones; movemask gathers each
                // lane's top bit into 4 bits, so `!` of it marks the lanes that lost a cell.
                let kept = _mm_cmpeq_epi32(_mm_and_si128(v, mask), _mm_setzero_si128());
                let lost = !_mm_movemask_ps(_mm_castsi128_ps(kept)) as u32 & 0xf;
                changed |= lost << start;
            }
        }
        changed
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        let mut changed = 0;
        for (digit, word) in words.iter_mut().enumerate() {
            changed |= u32::from(*word & cells != 0) << digit;
            *word &= !cells;
        }
        changed
    }
}

/// A band word's minirows, folded in place: bit `9r + 3k` is set when minirow (row `r`, box
/// `k`) holds a cell (the layout of `Triads::minirows` before the bands interleave).
#[inline(always)]
pub(crate) fn fold_minirows(x: u32) -> u32 {
    (x | x >> 1 | x >> 2) & 0o111_111_111
}

/// Folded minirows (bits `9r + 3k`) packed into the tables' 9-bit pattern, bit `3r + k`.
/// Arithmetic, no table: times 21 = 1 + 4 + 16 adds copies shifted by 0, 2 and 4, so bit
/// `9r + 3k` shifted by `4 - 2k` lands at `9r + 4 + k`; no two partial products share a bit
/// (up to bit 28), so no carry disturbs them. Then rows 1 and 2 come down next to row 0.
#[inline(always)]
pub(crate) fn pack_minirows(folded: u32) -> u32 {
    pack_groups((folded.wrapping_mul(21) >> 4) & 0o7_007_007)
}

/// A digit's columns band by band: each band word's three rows folded onto its 9 column bits,
/// band `i` at bits `9i..9i + 9` (the layout of `Triads::minicolumns`).
#[inline(always)]
pub(crate) fn fold_columns(words: [u32; 3]) -> u32 {
    let fold = |x: u32| (x | x >> 9 | x >> 18) & 0x1ff;
    fold(words[0]) | fold(words[1]) << 9 | fold(words[2]) << 18
}

/// The permutation rule (see `tables::FITTINGS`) on the three stacks of a digit's
/// folded columns at once (bit `9 * band + column`): the minicolumns that some fitting
/// permutation uses. In arithmetic rather than `STACK_KEEP` lookups, so that nine digits
/// vectorise.
#[inline(always)]
pub(crate) fn stack_keep(folded: u32) -> u32 {
    // A band's three columns of a stack are bits 1 apart.
    permutation_keep::<1>(folded)
}

/// The band rule's minirows (bits `9r + 3k`, folded) that some fitting permutation uses, in
/// arithmetic: see `stack_keep` and `band_rule_would_change`.
#[inline(always)]
pub(crate) fn minirow_keep(folded: u32) -> u32 {
    // A row's three minirows are bits 3 apart.
    permutation_keep::<3>(folded)
}

/// The permutation rule on three 3 × 3 matrices side by side: matrix row `i` is bits `9i..`,
/// and each matrix's three columns are `STRIDE` bits apart inside a group of `3 * STRIDE` bits
/// (a stack of folded columns: stride 1; a row of folded minirows: stride 3). Entry `(i, j)`
/// survives when set and the other two rows can take the other two columns, one way round or
/// the other: `M[i+1][j+1] & M[i+2][j+2] | M[i+1][j+2] & M[i+2][j+1]`, indices modulo 3. Each
/// term is the word rotated: rows by 9-bit steps, columns within their group.
#[inline(always)]
fn permutation_keep<const STRIDE: u32>(folded: u32) -> u32 {
    let s = STRIDE;
    // Bits of column 0, 1 and 2 of every group (wider than the set bits need, which is harmless).
    let column = |j: u32| {
        let one = ((1u32 << s) - 1) << (j * s); // one column of one group
        (0..27 / (3 * s)).fold(0, |mask, group| mask | one << (group * 3 * s))
    };
    let (c0, c1, c2) = (column(0), column(1), column(2));
    // Bit (i, j) of `down1` holds (i + 1, j); of `down2`, (i + 2, j).
    let down1 = (folded >> 9 | folded << 18) & BAND;
    let down2 = (folded >> 18 | folded << 9) & BAND;
    // Bit j of each group takes column j + 1 (`right1`) or j + 2 (`right2`), mod 3.
    let right1 = |g: u32| (g >> s) & (c0 | c1) | (g << (2 * s)) & c2;
    let right2 = |g: u32| (g << s) & (c1 | c2) | (g >> (2 * s)) & c0;
    folded & (right1(down1) & right2(down2) | right2(down1) & right1(down2))
}

/// A stack's 9-bit pattern (bit `3 * band + column of the stack`, as the tables want) read
/// from folded columns: band `i`'s columns `3s..3s + 3` sit at bits `9i..9i + 3` after the
/// shift.
#[inline(always)]
pub(crate) fn stack_pattern(columns: u32, stack: usize) -> u32 {
    pack_groups((columns >> (3 * stack)) & 0o7_007_007)
}

/// Three 3-bit groups at bits 0, 9 and 18 packed at 0, 3 and 6.
#[inline(always)]
fn pack_groups(spaced: u32) -> u32 {
    (spaced | spaced >> 6 | spaced >> 12) & 0x1ff
}

/// Which of a band's nine words (bit per digit) `Board::update_band` would change or place a
/// cell from, in arithmetic the compiler vectorises over the digits: the band rule without its
/// tables (`minirow_keep`; `tables::BAND_KEEP` is the reference).
#[inline(always)]
fn band_rule_would_change(words: &[u32; LANES], unsolved: u32) -> u32 {
    // Eight digits as one vector (the ninth alone): the steps are written lane by lane over
    // fixed arrays, the shape the vectoriser recognises.
    // (A plain loop, not `array::map`, for the reason given in `triad_keep`.)
    let mut change = [0u32; 8];
    for (change, &x) in change.iter_mut().zip(words) {
        *change = u32::from(word_would_change(x, unsolved));
    }
    let mut mask = u32::from(word_would_change(words[8], unsolved)) << 8;
    for (digit, change) in change.into_iter().enumerate() {
        mask |= change << digit;
    }
    mask
}

/// Whether the band rule would change `x` or place one of its cells (see
/// `band_rule_would_change`); branch-free.
#[inline(always)]
fn word_would_change(x: u32, unsolved: u32) -> bool {
    let keep = minirow_keep(fold_minirows(x));
    let word = x & (keep | keep << 1 | keep << 2);
    word != x || row_singles(word) & unsolved != 0
}

/// The cells that are alone in their row of a band word (each row has at least one cell).
/// Branch-free, so that it also vectorises in `band_rule_would_change`.
#[inline(always)]
fn row_singles(word: u32) -> u32 {
    let mut singles = 0;
    for row in ROW_MASKS {
        let x = word & row;
        // All ones when x has at most one bit: x & (x - 1) clears its lowest bit.
        let alone = 0u32.wrapping_sub(u32::from(x & x.wrapping_sub(1) == 0));
        singles |= x & alone;
    }
    singles
}
