//! Where the fast 9×9 solver branches: a binary split of one digit's candidates.
//!
//! Two ways to pick it. On hard grids, band-first (an idea of tdoku's): the band or stack whose
//! digits have the fewest minirow (minicolumn) places left (see `unit_score`), and in it a
//! digit with two configurations; "the digit in this minirow" or not settles the digit in three
//! boxes on both sides, and with the triad rule the search trees of the hardest sets shrink by a
//! quarter against cell branching. On easy grids, where the triad rule costs more than it saves, the
//! bivalue cell with the most unsolved peers.

use super::board::{pack_minirows, stack_pattern, Board, Triads, SPREAD_ROWS};
use super::tables::{FITTINGS, PEERS_PACKED};

/// A binary branch on one digit: its three band words narrowed by `inside` on one side, by
/// `outside` on the other. The two sides split the digit's candidates, and `inside` always
/// removes at least one of them (so a path of branches is at most 729 long).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Branch {
    pub digit: usize,
    pub inside: [u32; 3],
    pub outside: [u32; 3],
}

/// The nine minirows of band 0 in a `Triads::minirows` word (bits `9r + 3k`; shift by the band).
const BAND_TRIADS: u32 = 0o111_111_111;

/// The nine minicolumns of stack 0 in a `Triads::minicolumns` word (shift by 3 × the stack).
const STACK_TRIADS: u32 = 0o7_007_007;

/// A settled band or stack: each digit in one triad per line, 9 × 3.
const SETTLED: u32 = 27;

/// How good a unit (band or stack) is to branch in, lower is better; `u32::MAX` when settled.
/// Its (digit, triad) places, plus 5 for each digit not settled there (one with more than three
/// places, so at least two configurations): few places among few open digits. Against the
/// places alone (close to tdoku's "fewest configurations") this cuts nodes by 0.4% on
/// forum_hardest_1905 and by 10% on forum_hardest_1106; weights 4 and 6 do about as well.
#[inline(always)]
fn unit_score(words: &[u32; 9], unit: u32) -> u32 {
    let mut places = 0;
    let mut unsettled = 0;
    for &word in words {
        let n = (word & unit).count_ones();
        places += n;
        unsettled += u32::from(n > 3);
    }
    if places > SETTLED {
        places + 5 * unsettled
    } else {
        u32::MAX
    }
}

/// Band-first branching on what the triad rule last saw; `None` when every band and stack is
/// settled (then propagation has placed every cell).
#[inline(always)]
pub(crate) fn by_configuration(seen: &Triads) -> Option<Branch> {
    // The unit with the lowest score that is not settled.
    let mut best = (u32::MAX, false, 0);
    for index in 0..3 {
        let score = unit_score(&seen.minirows, BAND_TRIADS << index);
        if score < best.0 {
            best = (score, false, index);
        }
    }
    for index in 0..3 {
        let score = unit_score(&seen.minicolumns, STACK_TRIADS << (3 * index));
        if score < best.0 {
            best = (score, true, index);
        }
    }
    let (score, stack, index) = best;
    if score == u32::MAX {
        return None;
    }
    // Each digit's 9-bit pattern in the unit (bit 3 × line + cross, as the tables want).
    let pattern = |digit: usize| -> u32 {
        if stack {
            stack_pattern(seen.minicolumns[digit], index)
        } else {
            pack_minirows((seen.minirows[digit] >> index) & BAND_TRIADS)
        }
    };
    // The lowest digit with two configurations, else the one with the fewest.
    let mut pick = (u8::MAX, 0, 0);
    for digit in 0..9 {
        let p = pattern(digit);
        let configurations = FITTINGS[p as usize].count;
        if configurations >= 2 && configurations < pick.0 {
            pick = (configurations, digit, p);
            if configurations == 2 {
                break;
            }
        }
    }
    let (_, digit, p) = pick;
    // A triad the digit may use but need not: in it or not splits the configurations.
    let optional = p & !u32::from(FITTINGS[p as usize].common);
    let triad = optional.trailing_zeros();
    let (line, cross) = (triad / 3, triad % 3);
    let mut inside = [u32::MAX; 3];
    let mut outside = [u32::MAX; 3];
    if stack {
        // Minicolumn: band `line`, column `cross` of the stack. Inside, the digit leaves the
        // rest of the box and the column's cells in the other bands.
        let column = (1 << (3 * index as u32 + cross)) * SPREAD_ROWS;
        let boxx = (7 << (3 * index)) * SPREAD_ROWS;
        for (band, keep) in inside.iter_mut().enumerate() {
            *keep = if band == line as usize {
                !(boxx & !column)
            } else {
                !column
            };
        }
        outside[line as usize] = !column;
    } else {
        // Minirow: row `line` of the band, box `cross`. Inside, the digit leaves the rest of
        // the row and of the box.
        let cells = 7 << (9 * line + 3 * cross);
        let row = 0x1ff << (9 * line);
        let boxx = (7 << (3 * cross)) * SPREAD_ROWS;
        inside[index] = !((row | boxx) & !cells);
        outside[index] = !cells;
    }
    Some(Branch {
        digit,
        inside,
        outside,
    })
}

/// Cell branching: among the first cells with two candidates (`bivalue`, per band), the one
/// with the most unsolved peers (its two branches each settle many cells); with none, a cell
/// with the fewest candidates. Its lowest digit there, or not.
#[inline(always)]
pub(crate) fn by_cell(board: &Board, bivalue: [u32; 3]) -> Branch {
    let unsolved = board.unsolved;
    let (unsolved01, unsolved2) = (
        u64::from(unsolved[0]) | u64::from(unsolved[1]) << 32,
        unsolved[2],
    );
    // The best as one key, score above, `255 - cell` below (the first cell wins a tie):
    // `max` compiles to a conditional move, where an `if` mispredicted half the time.
    let mut best = 0u32;
    // Only the first few: scoring every bivalue cell of an open grid cost 8% of the
    // several-solutions set, and looking at the first eight leaves node counts unchanged
    // on every shared set (four would add 1–4%).
    let mut budget = BIVALUE_CELLS_SCORED;
    for (band, &cells) in bivalue.iter().enumerate() {
        let mut cells = cells;
        while cells != 0 && budget > 0 {
            budget -= 1;
            let cell = 27 * band as u32 + cells.trailing_zeros();
            cells &= cells - 1; // clear the lowest set bit
            let (peers01, peers2) = PEERS_PACKED[cell as usize];
            let score = (peers01 & unsolved01).count_ones() + (peers2 & unsolved2).count_ones() + 1;
            best = best.max(score << 8 | (255 - cell));
        }
    }
    let (band, bit) = if best == 0 {
        fewest_candidates(board)
    } else {
        let cell = 255 - (best & 0xff);
        ((cell / 27) as usize, 1 << (cell % 27))
    };
    // The cell's lowest candidate, from a mask of all nine (a loop stopping at the first one
    // ended unpredictably); the cell has one (`min` only keeps the index in range regardless).
    let position = bit.trailing_zeros();
    let mut candidates = 0u32;
    for (digit, &word) in board.cand[band].iter().enumerate() {
        candidates |= (word >> position & 1) << digit;
    }
    let digit = (candidates.trailing_zeros() as usize).min(8);
    // Inside, the digit leaves the rest of the cell's row (the next propagation places it).
    let row = 0x1ff << (9 * (position / 9));
    let mut inside = [u32::MAX; 3];
    let mut outside = [u32::MAX; 3];
    inside[band] = !(row & !bit);
    outside[band] = !bit;
    Branch {
        digit,
        inside,
        outside,
    }
}

/// How many bivalue cells `by_cell` scores, in cell order.
const BIVALUE_CELLS_SCORED: u32 = 8;

/// An unsolved cell with the fewest candidates, as `(band, bit)`.
fn fewest_candidates(board: &Board) -> (usize, u32) {
    let mut best = (10, (0, 0));
    for band in 0..3 {
        let mut cells = board.unsolved[band];
        while cells != 0 {
            let bit = cells & cells.wrapping_neg();
            cells &= cells - 1;
            let n = board.cand[band].iter().filter(|&&w| w & bit != 0).count();
            if n < best.0 {
                best = (n, (band, bit));
            }
        }
    }
    best.1
}
