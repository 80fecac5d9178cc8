//! Lines and clue groups whose meaning is a set of digits rather than a sum: renban (a run of
//! consecutive digits), between lines (the middle strictly between the ends), lockout lines
//! (the ends far apart, the middle outside them), entropic and modular lines (digits of three
//! classes, every three in a row one of each) and quadruples (these digits among four cells).
//! Each is exact on what it reads: a digit stays when some choice of the line's defining values
//! (a renban's run, the ends' pair, the quadruple's places, the class of each third cell) keeps
//! it.

use super::props::{self, digits, Broken, Mask, Work};

/// The digits from `lo` to `hi` (none when `lo > hi`).
fn range(lo: u32, hi: u32) -> Mask {
    props::range(lo.into(), hi.into())
}

/// A renban of `cells` on a grid of `side` digits: the cells take each digit of some run of
/// `len` consecutive digits. A run stays possible when every cell has a digit of it and every
/// digit of it has a cell; each cell keeps its digits of the possible runs, and a digit every
/// possible run holds with one place on the line goes there.
pub(super) fn renban(work: &mut Work, cells: &[u16], side: u32) -> Result<(), Broken> {
    let len = cells.len() as u32;
    if len > side {
        return Err(Broken);
    }
    let union = cells
        .iter()
        .fold(0 as Mask, |acc, &c| acc | work.masks[c as usize]);
    let (mut possible, mut required) = (0 as Mask, Mask::MAX);
    for start in 1..=side - len + 1 {
        let run = range(start, start + len - 1);
        if union & run != run || cells.iter().any(|&c| work.masks[c as usize] & run == 0) {
            continue;
        }
        possible |= run;
        required &= run;
    }
    if possible == 0 {
        return Err(Broken);
    }
    for &c in cells {
        work.restrict(c, possible)?;
    }
    place_alone(work, cells, required)
}

/// Each digit of `required` with one place among `cells` goes there.
fn place_alone(work: &mut Work, cells: &[u16], required: Mask) -> Result<(), Broken> {
    for d in digits(required) {
        let bit = 1 << (d - 1);
        let mut places = cells
            .iter()
            .copied()
            .filter(|&c| work.masks[c as usize] & bit != 0);
        match (places.next(), places.next()) {
            (None, _) => return Err(Broken),
            (Some(only), None) => work.restrict(only, bit)?,
            _ => {}
        }
    }
    Ok(())
}

/// A line whose ends `a` and `b` bound what its middle may hold: for ends `lo` and `hi`
/// (either way round) the middle keeps `middle(lo, hi)`, and the ends need `fits(lo, hi)`.
/// Every pair of end digits is tried: a pair stays when each middle cell keeps a digit.
fn ends_bound_middle(
    work: &mut Work,
    cells: &[u16],
    fits: impl Fn(u32, u32) -> bool,
    middle: impl Fn(u32, u32) -> Mask,
) -> Result<(), Broken> {
    let (a, b) = (cells[0], cells[cells.len() - 1]);
    let inner = &cells[1..cells.len() - 1];
    let (mask_a, mask_b) = (work.masks[a as usize], work.masks[b as usize]);
    let (mut keep_a, mut keep_b, mut keep_middle) = (0 as Mask, 0 as Mask, 0 as Mask);
    for x in digits(mask_a) {
        for y in digits(mask_b) {
            let (lo, hi) = (x.min(y), x.max(y));
            if a == b && x != y || !fits(lo, hi) {
                continue;
            }
            let allowed = middle(lo, hi);
            if inner.iter().all(|&c| work.masks[c as usize] & allowed != 0) {
                keep_a |= 1 << (x - 1);
                keep_b |= 1 << (y - 1);
                keep_middle |= allowed;
            }
        }
    }
    work.restrict(a, keep_a)?;
    work.restrict(b, keep_b)?;
    for &c in inner {
        work.restrict(c, keep_middle)?;
    }
    Ok(())
}

/// A between line: the middle strictly between the ends.
pub(super) fn between(work: &mut Work, cells: &[u16]) -> Result<(), Broken> {
    if cells.len() < 3 {
        return Ok(());
    }
    ends_bound_middle(
        work,
        cells,
        |lo, hi| hi >= lo + 2,
        |lo, hi| range(lo + 1, hi - 1),
    )
}

/// A lockout line: the ends at least `gap` apart, the middle outside them (ends included).
pub(super) fn lockout(work: &mut Work, cells: &[u16], gap: u32) -> Result<(), Broken> {
    if cells.len() < 2 {
        return Ok(());
    }
    ends_bound_middle(
        work,
        cells,
        |lo, hi| hi - lo >= gap,
        |lo, hi| !range(lo, hi),
    )
}

/// A quadruple: each digit of `wanted` (listed as often as it must appear) among `cells`.
/// Each cell's choice is one wanted digit or "another digit"; a cell keeps the choices some
/// way of choosing for every cell that places every wanted digit uses.
pub(super) fn quad(work: &mut Work, cells: &[u16], wanted: &[u8]) -> Result<(), Broken> {
    if wanted.len() > cells.len() {
        return Err(Broken);
    }
    if cells.len() > 4 {
        return Ok(()); // not a quadruple's 2×2
    }
    let mut quad = Quad {
        masks: [0; 4],
        wanted: 0,
        need: [0; 17],
        chosen: [0; 4],
        keep: [0; 4],
        len: cells.len(),
    };
    for &d in wanted {
        quad.need[d as usize] += 1;
        quad.wanted |= 1 << (d - 1);
    }
    for (m, &c) in quad.masks.iter_mut().zip(cells) {
        *m = work.masks[c as usize];
    }
    quad.choose(0, wanted.len());
    for (&c, &k) in cells.iter().zip(&quad.keep) {
        work.restrict(c, k)?;
    }
    Ok(())
}

/// The search of `quad`: each cell's choice in turn, with what is still needed.
struct Quad {
    masks: [Mask; 4],
    wanted: Mask,
    /// How many more of each digit the cells not yet chosen must hold.
    need: [u8; 17],
    chosen: [Mask; 4],
    keep: [Mask; 4],
    len: usize,
}

impl Quad {
    /// Choose for the cells from `at` on, `missing` wanted digits still to place.
    fn choose(&mut self, at: usize, missing: usize) {
        if self.len - at < missing {
            return; // too few cells left for what is needed
        }
        if missing == 0 {
            // Nothing more is needed: the cells left may hold any of their digits.
            for i in 0..self.len {
                self.keep[i] |= if i < at {
                    self.chosen[i]
                } else {
                    self.masks[i]
                };
            }
            return;
        }
        let mask = self.masks[at];
        for d in digits(mask & self.wanted) {
            self.chosen[at] = 1 << (d - 1);
            if self.need[d as usize] > 0 {
                self.need[d as usize] -= 1;
                self.choose(at + 1, missing - 1);
                self.need[d as usize] += 1;
            } else {
                self.choose(at + 1, missing);
            }
        }
        if mask & !self.wanted != 0 {
            self.chosen[at] = mask & !self.wanted;
            self.choose(at + 1, missing);
        }
    }
}

/// An entropic or modular line: every three cells in a row along it hold digits of three
/// different classes (`class_digits[k]`: the digits of class k), and any two cells at most two
/// apart differ in class. Two windows overlapping in two cells hold the same two classes, so
/// the third cells of both share theirs: the cells three apart share a class, and the line's
/// classes are three groups (cells at places 0, 3, 6…; 1, 4, 7…; 2, 5, 8…) taking one class
/// each, all different. Exact on classes: each group keeps the classes some assignment of
/// different classes to the groups gives it, every cell of every group allowing it.
pub(super) fn classes(
    work: &mut Work,
    cells: &[u16],
    class_digits: &[Mask; 3],
) -> Result<(), Broken> {
    let groups = cells.len().min(3);
    // The classes each group may take: a bit for each class every cell of it still has.
    let mut allowed = [0b111u8; 3];
    for (i, &c) in cells.iter().enumerate() {
        let m = work.masks[c as usize];
        let mut has = 0u8;
        for (k, &digits) in class_digits.iter().enumerate() {
            if m & digits != 0 {
                has |= 1 << k;
            }
        }
        allowed[i % 3] &= has;
    }
    // Every way of giving the groups different classes (at most 3 × 2 × 1).
    let mut support = [0u8; 3];
    for a in 0..3 {
        for b in 0..3 {
            for c in 0..3 {
                let classes = [a, b, c];
                let distinct = a != b && (groups < 3 || (a != c && b != c));
                let fits = (0..groups).all(|g| allowed[g] >> classes[g] & 1 == 1);
                if distinct && fits {
                    for g in 0..groups {
                        support[g] |= 1 << classes[g];
                    }
                }
            }
        }
    }
    if groups >= 2 && support[0] == 0 {
        return Err(Broken);
    }
    for (i, &c) in cells.iter().enumerate() {
        let keep = (0..3)
            .filter(|&k| support[i % 3] >> k & 1 == 1)
            .fold(0 as Mask, |acc, k| acc | class_digits[k]);
        if groups >= 2 {
            work.restrict(c, keep)?;
        }
    }
    Ok(())
}
