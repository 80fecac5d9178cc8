//! The propagators of the variant engine: each takes the candidate masks of its cells and
//! removes the digits its constraint rules out, or says there is no way to keep it.
//!
//! A mask has bit `d - 1` for digit `d` (sides up to 16). `Pair` is exact for any relation of
//! two cells (dots, X/V, whisper neighbours, thermometer steps of a palindrome or clone,
//! non-consecutive neighbours, indexers); `Cage` is exact on the digit sets a killer cage can
//! hold; `Linear` bounds a sum with any coefficients (arrows, pills, little killers, zippers);
//! `Order` is exact for a thermometer; `Table` tries every filling of a small constraint against
//! its definition (`rules::Constraint::satisfied`) and keeps the digits that take part in one.

use super::outside;
use crate::grid::Size;
use crate::rules::Constraint;

/// The candidates of one cell: bit `d - 1` for digit `d`.
pub(super) type Mask = u16;

/// A cell's peers as a set of up to 256 cells, bit `c % 64` of word `c / 64` for cell `c`.
pub(super) type PeerSet = [u64; 4];

/// A propagator found its constraint cannot hold.
#[derive(Debug)]
pub(super) struct Broken;

/// The most digits a grid the engine solves has (a 16×16's).
const MOST_DIGITS: usize = 16;

/// At most this many fillings are tried by a `Table`; with more it waits for fewer candidates.
const TABLE_FILLINGS: u64 = 4096;

pub(super) enum Prop {
    /// `allowed[d]`: the digits of `b` that go with `a` = `d` (index 0 unused), and the way back.
    Pair {
        a: u16,
        b: u16,
        forward: Box<[Mask; 17]>,
        backward: Box<[Mask; 17]>,
    },
    /// Distinct cells summing to the digit sets in `combos` (each a mask of `cells.len()` digits).
    Cage {
        cells: Box<[u16]>,
        combos: Box<[Mask]>,
    },
    /// `Σ coeffs[i] × digit(cells[i]) = total`.
    Linear {
        cells: Box<[u16]>,
        coeffs: Box<[i32]>,
        total: i32,
    },
    /// Increasing along `cells`, strictly unless `step` is 0.
    Order { cells: Box<[u16]>, step: u32 },
    /// Constraint `constraint` of the rules, over `scope`.
    Table {
        constraint: usize,
        scope: Box<[u16]>,
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

/// What a propagator works on: the masks, the scratch grid tables fill, and who is told of a
/// change.
pub(super) struct Work<'a> {
    pub(super) masks: &'a mut [Mask],
    pub(super) changed: &'a mut Vec<u16>,
}

impl Work<'_> {
    /// Keep only `keep` of `cell`'s candidates.
    pub(super) fn restrict(&mut self, cell: u16, keep: Mask) -> Result<(), Broken> {
        let old = self.masks[cell as usize];
        let new = old & keep;
        if new == old {
            return Ok(());
        }
        if new == 0 {
            return Err(Broken);
        }
        self.masks[cell as usize] = new;
        self.changed.push(cell);
        Ok(())
    }
}

fn single(mask: Mask) -> bool {
    mask.is_power_of_two()
}
fn lowest(mask: Mask) -> u32 {
    mask.trailing_zeros() + 1
}
fn highest(mask: Mask) -> u32 {
    16 - mask.leading_zeros()
}
/// The digits from `lo` to `hi` (empty when `lo > hi`).
fn range(lo: i64, hi: i64) -> Mask {
    let (lo, hi) = (lo.max(1), hi.min(16));
    if lo > hi {
        return 0;
    }
    (((1u32 << (hi - lo + 1)) - 1) << (lo - 1)) as Mask
}
pub(super) fn digits(mask: Mask) -> impl Iterator<Item = u32> {
    (0..16).filter(move |b| mask >> b & 1 == 1).map(|b| b + 1)
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

    /// A cage of `cells` summing to `sum` on a grid of side `side`.
    pub(super) fn cage(cells: Box<[u16]>, sum: u32, side: u32) -> Prop {
        let k = cells.len() as u32;
        let combos = (1u32..1 << side)
            .filter(|m| m.count_ones() == k && digits(*m as Mask).sum::<u32>() == sum)
            .map(|m| m as Mask)
            .collect();
        Prop::Cage { cells, combos }
    }

    /// The cells whose change wakes this propagator.
    pub(super) fn watches(&self) -> Vec<u16> {
        match self {
            Prop::Pair { a, b, .. } => vec![*a, *b],
            Prop::Cage { cells, .. }
            | Prop::Linear { cells, .. }
            | Prop::Order { cells, .. }
            | Prop::Sandwich { cells, .. }
            | Prop::XSum { cells, .. }
            | Prop::Skyscraper { cells, .. } => cells.to_vec(),
            Prop::Table { scope, .. } => scope.to_vec(),
        }
    }

    pub(super) fn run(
        &self,
        work: &mut Work,
        rules: &[Constraint],
        peers: &[PeerSet],
        size: Size,
        scratch: &mut [u8],
    ) -> Result<(), Broken> {
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
            Prop::Cage { cells, combos } => cage(work, cells, combos, peers),
            Prop::Linear {
                cells,
                coeffs,
                total,
            } => linear(work, cells, coeffs, *total),
            Prop::Order { cells, step } => order(work, cells, *step),
            Prop::Table { constraint, scope } => {
                table(work, &rules[*constraint], scope, size, scratch)
            }
            Prop::Sandwich { cells, sets, side } => outside::sandwich(work, cells, sets, *side),
            Prop::XSum { cells, sets } => outside::x_sum(work, cells, sets),
            Prop::Skyscraper { cells, count, side } => {
                outside::skyscraper(work, cells, *count, *side)
            }
        }
    }
}

/// Keep the digits of the combinations that still fit: each cell can take one of its digits,
/// the cells together can take all of them, and the cells already placed are among them.
fn cage(work: &mut Work, cells: &[u16], combos: &[Mask], peers: &[PeerSet]) -> Result<(), Broken> {
    // More cells than digits cannot all differ (and no combination has them).
    if cells.len() > MOST_DIGITS {
        return Err(Broken);
    }
    // The cells' masks on the stack: this runs at nearly every node of a killer's search.
    let mut masks = [0 as Mask; MOST_DIGITS];
    for (mask, &c) in masks.iter_mut().zip(cells) {
        *mask = work.masks[c as usize];
    }
    let masks = &masks[..cells.len()];
    let union = masks.iter().fold(0, |acc, m| acc | m);
    let placed = masks
        .iter()
        .filter(|m| single(**m))
        .fold(0, |acc, m| acc | m);
    let (mut possible, mut required) = (0, Mask::MAX);
    for &combo in combos {
        let fits =
            combo & !union == 0 && combo & placed == placed && masks.iter().all(|m| m & combo != 0);
        if fits {
            possible |= combo;
            required &= combo;
        }
    }
    if possible == 0 {
        return Err(Broken);
    }
    for &cell in cells {
        work.restrict(cell, possible)?;
    }
    // A digit every combination needs goes in the cage: with one place left there, it goes
    // there; else it leaves every cell outside that sees all its places (as a box's digit
    // confined to a row leaves the rest of the row).
    for d in digits(required & !placed) {
        let bit = 1 << (d - 1);
        let mut places = cells
            .iter()
            .copied()
            .filter(|&c| work.masks[c as usize] & bit != 0);
        let Some(first) = places.next() else {
            return Err(Broken);
        };
        // The cells that see every place: the places' peer sets intersected (a cell is not
        // its own peer, so no place is among them, and a cage's cells see each other).
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

/// Bounds of `Σ coeffs[i] × x[i] = total`: each term must lie within what the others leave.
fn linear(work: &mut Work, cells: &[u16], coeffs: &[i32], total: i32) -> Result<(), Broken> {
    loop {
        let term = |i: usize, m: Mask| {
            let (lo, hi) = (
                lowest(m) as i64 * coeffs[i] as i64,
                highest(m) as i64 * coeffs[i] as i64,
            );
            (lo.min(hi), lo.max(hi))
        };
        let terms: Vec<(i64, i64)> = cells
            .iter()
            .enumerate()
            .map(|(i, &c)| term(i, work.masks[c as usize]))
            .collect();
        let (least, most) = terms.iter().fold((0, 0), |(l, m), t| (l + t.0, m + t.1));
        let total = total as i64;
        if least > total || most < total {
            return Err(Broken);
        }
        let mut changed = false;
        for (i, &cell) in cells.iter().enumerate() {
            let (lo, hi) = (total - (most - terms[i].1), total - (least - terms[i].0));
            let c = coeffs[i] as i64;
            let keep = digits(work.masks[cell as usize])
                .filter(|&d| (lo..=hi).contains(&(d as i64 * c)))
                .fold(0, |acc, d| acc | 1 << (d - 1));
            if keep != work.masks[cell as usize] {
                work.restrict(cell, keep)?;
                changed = true;
            }
        }
        if !changed {
            return Ok(());
        }
    }
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

/// Every filling of the scope's candidates (few enough) tried against the definition; the
/// digits no keeping filling uses go.
fn table(
    work: &mut Work,
    constraint: &Constraint,
    scope: &[u16],
    size: Size,
    scratch: &mut [u8],
) -> Result<(), Broken> {
    let masks: Vec<Mask> = scope.iter().map(|&c| work.masks[c as usize]).collect();
    let fillings = masks.iter().try_fold(1u64, |acc, m| {
        acc.checked_mul(m.count_ones() as u64)
            .filter(|&p| p <= TABLE_FILLINGS)
    });
    if fillings.is_none() {
        return Ok(());
    }
    let mut support = vec![0 as Mask; scope.len()];
    fill(constraint, size, scope, &masks, 0, scratch, &mut support);
    for c in scope {
        scratch[*c as usize] = 0;
    }
    for (i, &cell) in scope.iter().enumerate() {
        work.restrict(cell, support[i])?;
    }
    Ok(())
}

fn fill(
    constraint: &Constraint,
    size: Size,
    scope: &[u16],
    masks: &[Mask],
    at: usize,
    scratch: &mut [u8],
    support: &mut [Mask],
) {
    if at == scope.len() {
        if constraint.satisfied(size, scratch) {
            for (i, &cell) in scope.iter().enumerate() {
                support[i] |= 1 << (scratch[cell as usize] - 1);
            }
        }
        return;
    }
    for d in digits(masks[at]) {
        scratch[scope[at] as usize] = d as u8;
        fill(constraint, size, scope, masks, at + 1, scratch, support);
    }
}
