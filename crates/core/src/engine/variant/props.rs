//! The propagators of the variant engine: each takes the candidate masks of its cells and
//! removes the digits its constraint rules out, or says there is no way to keep it.
//!
//! A mask has bit `d - 1` for digit `d` (sides up to 16). `Pair` is exact for any relation of
//! two cells (dots, X/V, whisper neighbours, thermometer steps of a palindrome or clone,
//! non-consecutive neighbours, indexers); `Cage` is exact on the digit sets a killer cage can
//! hold, and on each cell's digits when two or three of its cells are open; `Sum` (in `sum`)
//! bounds a weighted sum and is exact with three open cells or fewer (arrows, pills, little
//! killers, region-sum lines, zippers); `Order` is exact for a
//! thermometer; renban, between, lockout, entropic and modular lines and quadruples are
//! `lines`'; the clues outside the grid (sandwich, X-sum, skyscraper) are `outside`'s.

use super::sum::Sum;
use super::{lines, outside};

/// The candidates of one cell: bit `d - 1` for digit `d`.
pub(super) type Mask = u16;

/// A cell's peers as a set of up to 256 cells, bit `c % 64` of word `c / 64` for cell `c`.
pub(super) type PeerSet = [u64; 4];

/// A cell whose candidates changed, and what they were (0 when everything about it is news).
pub(super) struct Change {
    pub(super) cell: u16,
    pub(super) was: Mask,
}

/// A propagator found its constraint cannot hold.
#[derive(Debug)]
pub(super) struct Broken;

/// The most digits a grid the engine solves has (a 16×16's).
const MOST_DIGITS: usize = 16;

/// `Σ coeff × cell = total` over the cells of the 45 rule's innies and outies (a cage of
/// innies: every coefficient 1, the cells all different).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Equation {
    pub terms: Vec<(i32, u16)>,
    pub total: i32,
    pub distinct: bool,
}

pub(super) enum Prop {
    /// `allowed[d]`: the digits of `b` that go with `a` = `d` (index 0 unused), and the way back.
    Pair {
        a: u16,
        b: u16,
        forward: Box<[Mask; 17]>,
        backward: Box<[Mask; 17]>,
    },
    /// Distinct cells summing to `sum`.
    Cage { cells: Box<[u16]>, sum: u32 },
    /// A weighted sum of digits.
    Sum(Sum),
    /// Increasing along `cells`, strictly unless `step` is 0.
    Order { cells: Box<[u16]>, step: u32 },
    /// A run of consecutive digits in any order, on a grid of `side` digits.
    Renban { cells: Box<[u16]>, side: u32 },
    /// Distinct digits making up one of `sets` (a nabner line's: no two consecutive).
    Sets {
        cells: Box<[u16]>,
        sets: Box<[Mask]>,
    },
    /// The middle of the line strictly between its ends.
    Between { cells: Box<[u16]> },
    /// The ends at least `gap` apart, the middle outside them.
    Lockout { cells: Box<[u16]>, gap: u32 },
    /// Every three cells in a row along `cells` in three different classes (`class_digits`).
    Classes {
        cells: Box<[u16]>,
        class_digits: [Mask; 3],
    },
    /// Each of `digits` (as often as listed) among `cells`.
    Quad {
        cells: Box<[u16]>,
        digits: Box<[u8]>,
    },
    /// A sandwich clue over a row or column from its side: `sets[k]` are the k-digit sets from
    /// 2 to N - 1 summing to the clue.
    Sandwich {
        cells: Box<[u16]>,
        sets: Box<[Box<[Mask]>]>,
        side: u32,
    },
    /// An X-sum clue: `sets[k]` are the k-digit sets summing to it.
    XSum {
        cells: Box<[u16]>,
        sets: Box<[Box<[Mask]>]>,
    },
    /// A skyscraper clue: `count` digits seen.
    Skyscraper {
        cells: Box<[u16]>,
        count: u32,
        side: u32,
    },
}

/// What a propagator works on: the masks, and who is told of a change.
pub(super) struct Work<'a> {
    pub(super) masks: &'a mut [Mask],
    pub(super) changed: &'a mut Vec<Change>,
}

impl Work<'_> {
    /// Keep only `keep` of `cell`'s candidates.
    pub(super) fn restrict(&mut self, cell: u16, keep: Mask) -> Result<(), Broken> {
        let old = self.masks[cell as usize];
        let new = old & keep;
        if new == old {
            return Ok(());
        }
        // An emptied cell is written and listed too, so whoever asks why the constraint
        // broke finds the cell (a search drops the masks of a contradiction anyway).
        self.masks[cell as usize] = new;
        self.changed.push(Change { cell, was: old });
        match new {
            0 => Err(Broken),
            _ => Ok(()),
        }
    }
}

pub(super) fn single(mask: Mask) -> bool {
    mask.is_power_of_two()
}
pub(super) fn lowest(mask: Mask) -> u32 {
    mask.trailing_zeros() + 1
}
pub(super) fn highest(mask: Mask) -> u32 {
    16 - mask.leading_zeros()
}
/// The digits from `lo` to `hi` (empty when `lo > hi`).
pub(super) fn range(lo: i64, hi: i64) -> Mask {
    let (lo, hi) = (lo.max(1), hi.min(16));
    if lo > hi {
        return 0;
    }
    (((1u32 << (hi - lo + 1)) - 1) << (lo - 1)) as Mask
}
/// The digits of `mask`, lowest first.
pub(super) fn digits(mask: Mask) -> impl Iterator<Item = u32> {
    let mut rest = mask;
    std::iter::from_fn(move || {
        if rest == 0 {
            return None;
        }
        let d = rest.trailing_zeros() + 1;
        rest &= rest - 1;
        Some(d)
    })
}

impl Prop {
    /// A pair relation as its two tables.
    pub(super) fn pair(a: u16, b: u16, side: u32, related: impl Fn(u32, u32) -> bool) -> Prop {
        let mut forward = Box::new([0; 17]);
        let mut backward = Box::new([0; 17]);
        for x in 1..=side {
            for y in 1..=side {
                if related(x, y) {
                    forward[x as usize] |= 1 << (y - 1);
                    backward[y as usize] |= 1 << (x - 1);
                }
            }
        }
        Prop::Pair {
            a,
            b,
            forward,
            backward,
        }
    }

    /// A cage of `cells` summing to `sum`.
    pub(super) fn cage(cells: Box<[u16]>, sum: u32) -> Prop {
        Prop::Cage { cells, sum }
    }

    /// What a sum or a cage of the 45 rule says, as an equation; `None` for other kinds.
    pub(super) fn equation(&self) -> Option<Equation> {
        match self {
            Prop::Cage { cells, sum } => Some(Equation {
                terms: cells.iter().map(|&c| (1, c)).collect(),
                total: *sum as i32,
                distinct: true,
            }),
            Prop::Sum(sum) => {
                let (terms, total) = sum.terms();
                Some(Equation {
                    terms,
                    total,
                    distinct: false,
                })
            }
            _ => None,
        }
    }

    /// Whether only a new lowest or highest digit of a cell need wake this propagator: it reads
    /// nothing else of its cells (a thermometer), or too little for other news to pay for waking
    /// it (a long sum, `Sum::bounds_only`).
    pub(super) fn bounds_only(&self) -> bool {
        match self {
            Prop::Order { .. } => true,
            Prop::Sum(sum) => sum.bounds_only(),
            _ => false,
        }
    }

    /// The cells whose change wakes this propagator.
    pub(super) fn watches(&self) -> Vec<u16> {
        match self {
            Prop::Pair { a, b, .. } => vec![*a, *b],
            Prop::Cage { cells, .. }
            | Prop::Order { cells, .. }
            | Prop::Renban { cells, .. }
            | Prop::Sets { cells, .. }
            | Prop::Between { cells }
            | Prop::Lockout { cells, .. }
            | Prop::Quad { cells, .. }
            | Prop::Classes { cells, .. }
            | Prop::Sandwich { cells, .. }
            | Prop::XSum { cells, .. }
            | Prop::Skyscraper { cells, .. } => cells.to_vec(),
            Prop::Sum(sum) => sum.cells().to_vec(),
        }
    }

    pub(super) fn run(&self, work: &mut Work, peers: &[PeerSet], side: u32) -> Result<(), Broken> {
        match self {
            Prop::Pair {
                a,
                b,
                forward,
                backward,
            } => {
                let through = |mask: Mask, table: &[Mask; 17]| {
                    digits(mask).fold(0, |acc, d| acc | table[d as usize])
                };
                let keep_b = through(work.masks[*a as usize], forward);
                work.restrict(*b, keep_b)?;
                let keep_a = through(work.masks[*b as usize], backward);
                work.restrict(*a, keep_a)
            }
            Prop::Cage { cells, sum } => cage(work, cells, *sum, side, peers),
            Prop::Sum(sum) => sum.run(work),
            Prop::Order { cells, step } => order(work, cells, *step),
            Prop::Renban { cells, side } => lines::renban(work, cells, *side, peers),
            Prop::Sets { cells, sets } => {
                lines::one_of_sets(work, cells, sets.iter().copied(), peers)
            }
            Prop::Between { cells } => lines::between(work, cells),
            Prop::Lockout { cells, gap } => lines::lockout(work, cells, *gap),
            Prop::Quad { cells, digits } => lines::quad(work, cells, digits, peers),
            Prop::Classes {
                cells,
                class_digits,
            } => lines::classes(work, cells, class_digits),
            Prop::Sandwich { cells, sets, side } => outside::sandwich(work, cells, sets, *side),
            Prop::XSum { cells, sets } => outside::x_sum(work, cells, sets),
            Prop::Skyscraper { cells, count, side } => {
                outside::skyscraper(work, cells, *count, *side)
            }
        }
    }
}

/// Keep the digits of the combinations that still fit: the open cells take digits the placed
/// ones do not hold, summing to what those leave, each open cell one of its own.
#[inline(never)]
fn cage(
    work: &mut Work,
    cells: &[u16],
    sum: u32,
    side: u32,
    peers: &[PeerSet],
) -> Result<(), Broken> {
    // More cells than digits cannot all differ.
    if cells.len() > MOST_DIGITS {
        return Err(Broken);
    }
    // The open cells' masks on the stack: this runs at nearly every node of a killer's search.
    let mut open = [0 as Mask; MOST_DIGITS];
    let (mut open_count, mut placed, mut placed_count, mut placed_sum) = (0, 0 as Mask, 0, 0);
    let mut union = 0 as Mask;
    for &c in cells {
        let m = work.masks[c as usize];
        if single(m) {
            placed |= m;
            placed_count += 1;
            placed_sum += lowest(m);
        } else {
            open[open_count] = m;
            open_count += 1;
            union |= m;
        }
    }
    if placed.count_ones() != placed_count || placed_sum > sum {
        return Err(Broken); // a digit twice, or over the sum
    }
    let open = &open[..open_count];
    if open.is_empty() {
        return if placed_sum == sum {
            Ok(())
        } else {
            Err(Broken)
        };
    }
    let rest = sum - placed_sum;
    // Two or three open cells: each keeps the digits it takes in some filling of the rest, not
    // every digit of the fillings (with {1, 3, 9} and {7, 9} to make 10, the first cannot be 9;
    // with {1, 2}, {1, 2} and {1, 2, 3} to make 6, the third must be 3). Mathemagic's hardest
    // killers, 45 s → 35 s with two, 31.7 with three; TAREK's 30.3 → 26.6 → 21.4 thousand nodes.
    // With four or more, every filling costs more than the nodes it saves.
    let exact = match *open {
        [a, b] => {
            let (keep_a, keep_b, required) = pairs(a & !placed, b & !placed, rest);
            Some(([keep_a, keep_b, 0], required))
        }
        [a, b, c] => Some(three_open([a & !placed, b & !placed, c & !placed], rest)),
        _ => None,
    };
    let (possible, required) = if let Some((keep, required)) = exact {
        if keep[0] == 0 {
            return Err(Broken); // no filling: the cage breaks, not one of its cells
        }
        let mut k = 0;
        for &cell in cells {
            if !single(work.masks[cell as usize]) {
                work.restrict(cell, keep[k])?;
                k += 1;
            }
        }
        (keep.iter().fold(0, |all, &m| all | m), required)
    } else {
        let (mut possible, mut required) = (0, Mask::MAX);
        for &combo in digit_sets(side as usize).with(open_count, rest) {
            if combo & !union != 0 || combo & placed != 0 || !open.iter().all(|m| m & combo != 0) {
                continue;
            }
            possible |= combo;
            required &= combo;
        }
        if union & !possible != 0 {
            for &cell in cells {
                if !single(work.masks[cell as usize]) {
                    work.restrict(cell, possible)?;
                }
            }
        }
        (possible, required)
    };
    if possible == 0 {
        return Err(Broken);
    }
    // A digit every combination needs goes in the cage.
    place_or_point(work, cells, required, peers)
}

/// Each digit of `required` goes somewhere among `cells`: with one place left there, it goes
/// there; else it leaves every cell outside that sees all its places (as a box's digit confined
/// to a row leaves the rest of the row).
pub(super) fn place_or_point(
    work: &mut Work,
    cells: &[u16],
    required: Mask,
    peers: &[PeerSet],
) -> Result<(), Broken> {
    for d in digits(required) {
        let bit = 1 << (d - 1);
        let mut places = cells
            .iter()
            .copied()
            .filter(|&c| work.masks[c as usize] & bit != 0);
        let Some(first) = places.next() else {
            return Err(Broken);
        };
        // The cells that see every place: the places' peer sets intersected (a cell is not
        // its own peer, so no place is among them).
        let mut seers = peers[first as usize];
        let mut alone = true;
        for p in places {
            alone = false;
            for (word, other) in seers.iter_mut().zip(&peers[p as usize]) {
                *word &= other;
            }
        }
        if alone {
            work.restrict(first, bit)?;
            continue;
        }
        for (w, &word) in seers.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let seer = (w * 64 + bits.trailing_zeros() as usize) as u16;
                bits &= bits - 1;
                work.restrict(seer, !bit)?;
            }
        }
    }
    Ok(())
}

/// The digits three open cells may keep when they differ and sum to `rest`, and the digits
/// every such filling has: each digit of the first cell tried, the other two paired for what
/// it leaves.
fn three_open(m: [Mask; 3], rest: u32) -> ([Mask; 3], Mask) {
    let (mut keep, mut required) = ([0 as Mask; 3], Mask::MAX);
    for d0 in digits(m[0]) {
        let Some(left) = rest.checked_sub(d0) else {
            break; // digits come in rising order
        };
        let bit0 = 1 << (d0 - 1);
        let (from_1, from_2, both) = pairs(m[1] & !bit0, m[2] & !bit0, left);
        if from_1 != 0 {
            keep[0] |= bit0;
            keep[1] |= from_1;
            keep[2] |= from_2;
            required &= bit0 | both;
        }
    }
    (keep, required)
}

/// The pairs of different digits, one of `a` and one of `b`, that sum to `sum`: the digits of
/// `a` and of `b` in some pair, and the digits every pair has (all of `Mask` when there is no
/// pair).
///
/// Without a loop: the digits that make up `sum` with the digits of `b` are `b` mirrored (see
/// [`mirrored`]), so `a`'s digits in a pair are `a` and that mirror, less the digit that would
/// pair with itself; `b`'s are those mirrored back. Two pairs with a digit in common are the
/// same two digits, so when the pairs hold more than two digits no digit is in every one.
fn pairs(a: Mask, b: Mask, sum: u32) -> (Mask, Mask, Mask) {
    // 1 + 2 is the least sum of two different digits, 15 + 16 the most.
    if !(3..=31).contains(&sum) {
        return (0, 0, Mask::MAX);
    }
    let twin = if sum % 2 == 0 { 1 << (sum / 2 - 1) } else { 0 };
    let from_a = a & mirrored(b, sum) & !twin;
    if from_a == 0 {
        return (0, 0, Mask::MAX);
    }
    let from_b = mirrored(from_a, sum);
    let both = from_a | from_b;
    (
        from_a,
        from_b,
        if both.count_ones() == 2 { both } else { 0 },
    )
}

/// The digits that make up `sum` (3 to 31) with a digit of `x`: bit `d - 1` for each `d` with
/// `sum - d` in `x`. Bit `i` of the result is bit `sum - 2 - i` of `x`: the bits reversed in a
/// 32-bit word (bit `j` to `31 - j`), then shifted down by `33 - sum` (to `sum - 2 - j`); those
/// that would land below bit 0 are shifted out, as digits above `sum - 1` make up no pair.
fn mirrored(x: Mask, sum: u32) -> Mask {
    ((x as u32).reverse_bits() >> (33 - sum)) as Mask
}

/// Every set of digits of a grid's side, grouped by how many digits and their sum.
struct DigitSets {
    /// Where the sets of `k` digits summing to `s` begin in `sets`: entry `k × (most + 1) + s`.
    start: Vec<u32>,
    sets: Vec<Mask>,
    most: u32,
}

impl DigitSets {
    fn new(side: u32) -> DigitSets {
        let most = side * (side + 1) / 2;
        let key = |m: u32| (m.count_ones() * (most + 1) + digits(m as Mask).sum::<u32>()) as usize;
        let mut sets: Vec<Mask> = (1u32..1 << side).map(|m| m as Mask).collect();
        sets.sort_by_key(|&m| key(m as u32));
        let keys = (side as usize + 1) * (most as usize + 1);
        let mut start = vec![0u32; keys + 1];
        for &m in &sets {
            start[key(m as u32) + 1] += 1;
        }
        for i in 0..keys {
            start[i + 1] += start[i];
        }
        DigitSets { start, sets, most }
    }

    /// The sets of `k` digits summing to `sum`.
    fn with(&self, k: usize, sum: u32) -> &[Mask] {
        if sum > self.most || k * (self.most as usize + 1) + sum as usize + 1 >= self.start.len() {
            return &[];
        }
        let key = k * (self.most as usize + 1) + sum as usize;
        &self.sets[self.start[key] as usize..self.start[key + 1] as usize]
    }
}

/// The digit sets of a side, worked out once per side in a run.
fn digit_sets(side: usize) -> &'static DigitSets {
    static SETS: [std::sync::OnceLock<DigitSets>; MOST_DIGITS + 1] =
        [const { std::sync::OnceLock::new() }; MOST_DIGITS + 1];
    SETS[side].get_or_init(|| DigitSets::new(side as u32))
}

/// A thermometer: each cell above the lowest digit of the one before, below the highest of the
/// one after.
fn order(work: &mut Work, cells: &[u16], step: u32) -> Result<(), Broken> {
    let mut floor = 0i64;
    for &cell in cells {
        work.restrict(cell, range(floor, 16))?;
        floor = lowest(work.masks[cell as usize]) as i64 + step as i64;
    }
    let mut ceiling = 16i64;
    for &cell in cells.iter().rev() {
        work.restrict(cell, range(1, ceiling))?;
        ceiling = highest(work.masks[cell as usize]) as i64 - step as i64;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mask(digits: &[u32]) -> Mask {
        digits.iter().map(|d| 1 << (d - 1)).fold(0, |a, b| a | b)
    }

    #[test]
    fn two_open_cells_keep_only_the_digits_of_their_own_pairs() {
        // {1, 3, 9} and {7, 9} making 10: 1 + 9 or 3 + 7. The first cannot be 9 (the second has
        // no 1), though 9 is a digit of a pair; no digit is in both pairs.
        let (a, b, required) = pairs(mask(&[1, 3, 9]), mask(&[7, 9]), 10);
        assert_eq!((a, b, required), (mask(&[1, 3]), mask(&[7, 9]), 0));
        // 5 + 5 repeats a digit; 8 + 9 is not 10.
        assert_eq!(pairs(mask(&[5, 8]), mask(&[5, 9]), 10), (0, 0, Mask::MAX));
        // One pair: both its digits are required.
        let (a, b, required) = pairs(mask(&[2, 4]), mask(&[8]), 10);
        assert_eq!((a, b, required), (mask(&[2]), mask(&[8]), mask(&[2, 8])));
    }

    #[test]
    fn pairs_are_what_trying_every_two_digits_finds() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..20_000 {
            let (a, b) = (next() as Mask, next() as Mask);
            let sum = (next() % 36) as u32;
            let (mut from_a, mut from_b, mut required) = (0 as Mask, 0 as Mask, Mask::MAX);
            for x in 1..=16u32 {
                for y in 1..=16u32 {
                    let (bx, by) = (1 << (x - 1), 1 << (y - 1));
                    if x != y && x + y == sum && a & bx != 0 && b & by != 0 {
                        from_a |= bx;
                        from_b |= by;
                        required &= bx | by;
                    }
                }
            }
            assert_eq!(
                pairs(a, b, sum),
                (from_a, from_b, required),
                "{a:#018b} {b:#018b} {sum}"
            );
        }
    }

    #[test]
    fn three_open_cells_keep_only_the_digits_of_their_own_fillings() {
        // {1, 2}, {1, 2} and {1, 2, 3} making 6: only 1 2 3 or 2 1 3. The combination {1, 2, 3}
        // fits every cell, yet the third cannot be 1 or 2 (the first two take both).
        let (keep, required) = three_open([mask(&[1, 2]), mask(&[1, 2]), mask(&[1, 2, 3])], 6);
        assert_eq!(
            (keep, required),
            ([mask(&[1, 2]), mask(&[1, 2]), mask(&[3])], mask(&[1, 2, 3]))
        );
        // {1, 9}, {2, 8} and {3, 7} making 12: only 1 8 3 (1 2 leaves 9, 9 2 leaves 1).
        let (keep, _) = three_open([mask(&[1, 9]), mask(&[2, 8]), mask(&[3, 7])], 12);
        assert_eq!(keep, [mask(&[1]), mask(&[8]), mask(&[3])]);
        // Nothing makes 30.
        let (keep, _) = three_open([mask(&[7, 8]), mask(&[8, 9]), mask(&[9])], 30);
        assert_eq!(keep, [0, 0, 0]);
    }
}
