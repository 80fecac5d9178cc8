//! Constant tables of the fast 9×9 solver, all computed at compile time.
//!
//! Layout reminder (see `board.rs`): a digit's candidates are three `u32` words, one per band
//! (rows A–C, D–F, G–I). Inside a band word, bit `9 * r + c` is row `r` of the band (0..3) and
//! column `c` (0..9), so a whole band fits in 27 bits and cell index `27 * band + bit` is the
//! row-major cell index 0..81.

/// All 27 cells of a band.
pub(crate) const BAND: u32 = (1 << 27) - 1;

/// Which minirows (three cells of one row inside one box) of a band row hold at least one bit:
/// indexed by the row's 9 bits, gives 3 bits, bit `k` for box `k` of the band (the reference
/// for `board::minirows`).
pub(crate) static ROW_OCCUPANCY: [u8; 512] = row_occupancy();

/// The "permutation" rule shared by bands and stacks, as 9-bit patterns.
///
/// Take a band and one digit. Each of its 3 rows holds the digit exactly once, and so does each
/// of its 3 boxes, so the digit's three cells in the band sit in minirows `(row i, box π(i))` for
/// some permutation `π` of {0, 1, 2}. Given which minirows may still hold the digit (bit `3i + k`
/// for row `i`, box `k`), the minirows that survive are exactly those used by at least one of the
/// six permutations that fit inside the pattern; none survive when no permutation fits (a
/// contradiction). This one rule covers pointing and claiming (box–line interaction) and the
/// hidden singles of rows and boxes inside the band.
///
/// A stack works the same way with columns in place of rows: each column of the stack holds the
/// digit once, and so does each of its three boxes (one per band), so bit `3i + j` (band `i`,
/// column `j` of the stack) follows the very same rule.
///
/// Indexed by the pattern: the permutations that fit in it (see `Fitting`).
pub(crate) static FITTINGS: [Fitting; 512] = fittings();

/// `FITTINGS`' surviving minirows spread over the cells of a band: for a minirow pattern, the
/// 27-bit mask of the cells still allowed (0 on contradiction).
pub(crate) static BAND_KEEP: [u32; 512] = band_keep();

/// `FITTINGS`' survivors for a stack, spread to the layout of a "column word": bits `9 * band +
/// column-in-stack` (shift left by `3 * stack` to place it). 0 on contradiction. The reference
/// for `board::stack_keep`, which computes it for all three stacks at once.
#[cfg(test)]
static STACK_KEEP: [u32; 512] = stack_keep();

/// The peers of each cell (same row, column or box; not the cell itself), per band.
pub(super) static PEERS: [[u32; 3]; 81] = peers(false);

/// `PEERS` with bands 0 and 1 in one `u64` (band 1 from bit 32): two popcounts count a cell's
/// unsolved peers where three would.
pub(super) static PEERS_PACKED: [(u64, u32); 81] = peers_packed();

/// The same with the two diagonals added, for diagonal sudoku.
pub(super) static PEERS_DIAGONAL: [[u32; 3]; 81] = peers(true);

/// Cells of the main diagonal (A1–I9), per band.
pub(super) const MAIN_DIAGONAL: [u32; 3] = diagonal_mask(false);

/// Cells of the anti-diagonal (A9–I1), per band.
pub(super) const ANTI_DIAGONAL: [u32; 3] = diagonal_mask(true);

/// Bit of the cell at `row`, `column` (0..9) inside its band word.
const fn bit(row: usize, column: usize) -> u32 {
    1 << (9 * (row % 3) + column)
}

const fn row_occupancy() -> [u8; 512] {
    let mut table = [0u8; 512];
    let mut bits = 0;
    while bits < 512 {
        let mut k = 0;
        while k < 3 {
            if bits & (7 << (3 * k)) != 0 {
                table[bits] |= 1 << k;
            }
            k += 1;
        }
        bits += 1;
    }
    table
}

const PERMUTATIONS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// The permutations that fit in a minirow pattern (see `FITTINGS`).
#[derive(Clone, Copy)]
pub(super) struct Fitting {
    /// The minirows they use between them: those that survive (0 when none fits).
    pub union: u16,
    /// How many there are: the digit's live configurations in the band (1 when settled, 0 on
    /// contradiction).
    pub count: u8,
    /// The minirows all of them use: the digit must sit in each (0 when none fits).
    pub common: u16,
}

const fn fitting(pattern: usize) -> Fitting {
    let mut fit = Fitting {
        union: 0,
        count: 0,
        common: 0x1ff,
    };
    let mut p = 0;
    while p < 6 {
        let perm = PERMUTATIONS[p];
        let used = (1 << perm[0]) | (1 << (3 + perm[1])) | (1 << (6 + perm[2]));
        if pattern & used == used {
            fit.union |= used as u16;
            fit.count += 1;
            fit.common &= used as u16;
        }
        p += 1;
    }
    if fit.count == 0 {
        fit.common = 0;
    }
    fit
}

const fn fittings() -> [Fitting; 512] {
    let mut table = [fitting(0); 512];
    let mut pattern = 1;
    while pattern < 512 {
        table[pattern] = fitting(pattern);
        pattern += 1;
    }
    table
}

const fn band_keep() -> [u32; 512] {
    let fits = fittings();
    let mut table = [0u32; 512];
    let mut pattern = 0;
    while pattern < 512 {
        let mut minirow = 0;
        while minirow < 9 {
            if fits[pattern].union & (1 << minirow) != 0 {
                // Minirow 3i + k is row i, box k: bits 9i + 3k .. 9i + 3k + 2.
                table[pattern] |= 7 << (9 * (minirow / 3) + 3 * (minirow % 3));
            }
            minirow += 1;
        }
        pattern += 1;
    }
    table
}

#[cfg(test)]
const fn stack_keep() -> [u32; 512] {
    let fits = fittings();
    let mut table = [0u32; 512];
    let mut pattern = 0;
    while pattern < 512 {
        let k = fits[pattern].union as u32;
        // Band i's three column bits go from 3i..3i+2 to 9i..9i+2.
        table[pattern] = (k & 7) | ((k & 0o70) << 6) | ((k & 0o700) << 12);
        pattern += 1;
    }
    table
}

const fn peers_packed() -> [(u64, u32); 81] {
    let peers = peers(false);
    let mut table = [(0u64, 0u32); 81];
    let mut cell = 0;
    while cell < 81 {
        let [a, b, c] = peers[cell];
        table[cell] = (a as u64 | (b as u64) << 32, c);
        cell += 1;
    }
    table
}

const fn diagonal_mask(anti: bool) -> [u32; 3] {
    let mut mask = [0u32; 3];
    let mut row = 0;
    while row < 9 {
        let column = if anti { 8 - row } else { row };
        mask[row / 3] |= bit(row, column);
        row += 1;
    }
    mask
}

const fn peers(diagonal: bool) -> [[u32; 3]; 81] {
    let mut table = [[0u32; 3]; 81];
    let mut cell = 0;
    while cell < 81 {
        let (row, column) = (cell / 9, cell % 9);
        let mut other = 0;
        while other < 81 {
            let (r, c) = (other / 9, other % 9);
            let same_box = row / 3 == r / 3 && column / 3 == c / 3;
            let mut peer = r == row || c == column || same_box;
            if diagonal {
                peer = peer || (row == column && r == c) || (row + column == 8 && r + c == 8);
            }
            if peer && other != cell {
                table[cell][r / 3] |= bit(r, c);
            }
            other += 1;
        }
        cell += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_band_keeps_everything() {
        assert_eq!(FITTINGS[511].union, 511);
        assert_eq!(BAND_KEEP[511], BAND);
    }

    #[test]
    fn configurations_and_shared_minirows() {
        // Everything open: all six permutations, no minirow shared by all.
        assert_eq!((FITTINGS[511].count, FITTINGS[511].common), (6, 0));
        // The diagonal minirows (row i, box i) alone: one permutation, all of it needed.
        assert_eq!((FITTINGS[0o421].count, FITTINGS[0o421].common), (1, 0o421));
        // Row 0 settled in box 0, rows 1 and 2 open in boxes 1 and 2: two permutations.
        assert_eq!((FITTINGS[0o661].count, FITTINGS[0o661].common), (2, 0o001));
        // Nothing fits.
        assert_eq!((FITTINGS[0o770].count, FITTINGS[0o770].common), (0, 0));
    }

    #[test]
    fn a_row_without_minirows_is_a_contradiction() {
        assert_eq!(FITTINGS[0o770].union, 0);
    }

    #[test]
    fn a_forced_box_drops_the_other_rows() {
        // Row 0 only in box 0: rows 1 and 2 lose box 0.
        assert_eq!(FITTINGS[0o771].union, 0o661);
    }

    #[test]
    fn packed_minirows_match_the_row_table() {
        use super::super::board::{fold_minirows, pack_minirows};
        let table = |x: u32| {
            (0..3).fold(0, |acc, row| {
                acc | u32::from(ROW_OCCUPANCY[((x >> (9 * row)) & 0x1ff) as usize]) << (3 * row)
            })
        };
        for row in 0..3 {
            for bits in 0..512u32 {
                let x = bits << (9 * row);
                assert_eq!(pack_minirows(fold_minirows(x)), table(x), "{x:#o}");
            }
        }
        // Every combination of three row values from a spread of 64 each.
        let sample: Vec<u32> = (0..512).step_by(8).chain([511, 0o707, 0o070]).collect();
        for &a in &sample {
            for &b in &sample {
                for &c in &sample {
                    let x = a | b << 9 | c << 18;
                    assert_eq!(pack_minirows(fold_minirows(x)), table(x), "{x:#o}");
                }
            }
        }
    }

    #[test]
    fn stack_keep_matches_the_table_in_every_stack() {
        use super::super::board::stack_keep;
        // A stack's 9-bit pattern (bit 3 × band + column) placed in the folded-columns layout.
        let place = |pattern: u32, stack: u32| {
            (0..3).fold(0, |acc, band| {
                acc | ((pattern >> (3 * band)) & 7) << (9 * band + 3 * stack)
            })
        };
        let expected = |pattern: u32, stack: u32| STACK_KEEP[pattern as usize] << (3 * stack);
        // Every pattern in each stack, beside a spread of patterns in the other two (so that no
        // bit leaks between stacks or bands).
        let sample: Vec<u32> = (0..512).step_by(37).chain([0, 511, 0o421, 0o770]).collect();
        for stack in 0..3 {
            let (s1, s2) = ((stack + 1) % 3, (stack + 2) % 3);
            for pattern in 0..512 {
                for &a in &sample {
                    for &b in &sample {
                        let folded = place(pattern, stack) | place(a, s1) | place(b, s2);
                        let want = expected(pattern, stack) | expected(a, s1) | expected(b, s2);
                        assert_eq!(stack_keep(folded), want, "{folded:#o}");
                    }
                }
            }
        }
    }

    #[test]
    fn minirow_keep_matches_the_band_table() {
        use super::super::board::{fold_minirows, minirow_keep};
        // A 9-bit minirow pattern (bit 3 × row + box) as the full minirows of a band word.
        let cells = |pattern: u32| {
            (0..9).fold(0, |acc, i| {
                acc | if pattern >> i & 1 != 0 {
                    7 << (9 * (i / 3) + 3 * (i % 3))
                } else {
                    0
                }
            })
        };
        for pattern in 0..512 {
            let keep = minirow_keep(fold_minirows(cells(pattern)));
            assert_eq!(keep * 7, BAND_KEEP[pattern as usize], "{pattern:#o}");
        }
    }

    #[test]
    fn peers_count() {
        assert!(PEERS
            .iter()
            .all(|p| p.iter().map(|w| w.count_ones()).sum::<u32>() == 20));
        let centre: u32 = PEERS_DIAGONAL[40].iter().map(|w| w.count_ones()).sum();
        assert_eq!(centre, 20 + 8 + 8 - 4 /* box cells already counted */);
    }
}
