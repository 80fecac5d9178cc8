//! Lines and clue groups whose meaning is a set of digits rather than a sum: renban (a run of
//! consecutive digits), nabner (no two digits consecutive), between lines (the middle strictly
//! between the ends), lockout lines (the ends far apart, the middle outside them), entropic and
//! modular lines (digits of three classes, every three in a row one of each) and quadruples
//! (these digits among four cells).
//! Each is exact on what it reads: a digit stays when some choice of the line's defining values
//! (a renban's run, the ends' pair, the quadruple's places, the class of each third cell) keeps
//! it — but for the renban and nabner, whose sets are checked cell by cell, not by a full
//! matching. A digit a renban, nabner or quadruple needs leaves the cells that see all its
//! places, as a cage's does.

use super::props::{self, digits, single, Broken, Mask, PeerSet, Work};

/// The digits from `lo` to `hi` (none when `lo > hi`).
fn range(lo: u32, hi: u32) -> Mask {
    props::range(lo.into(), hi.into())
}

/// A renban of `cells` on a grid of `side` digits: the cells take each digit of some run of
/// `len` consecutive digits (`one_of_sets` with the runs).
pub(super) fn renban(
    work: &mut Work,
    cells: &[u16],
    side: u32,
    peers: &[PeerSet],
) -> Result<(), Broken> {
    let len = cells.len() as u32;
    if len > side {
        return Err(Broken);
    }
    let runs = (1..=side - len + 1).map(|start| range(start, start + len - 1));
    one_of_sets(work, cells, runs, peers)
}

/// Cells that take distinct digits making up one of `sets` (each of as many digits as there
/// are cells): a renban's runs, a nabner line's digits no two of them consecutive. Each set is
/// tried with each cell taking each of its digits there: the digit stays when every other cell
/// still has another digit of the set, and those cells together still have all the set's other
/// digits. A digit every possible set holds goes on the line: with one place there, there, else
/// it leaves every cell that sees all its places.
pub(super) fn one_of_sets(
    work: &mut Work,
    cells: &[u16],
    sets: impl Iterator<Item = Mask>,
    peers: &[PeerSet],
) -> Result<(), Broken> {
    let union = cells
        .iter()
        .fold(0 as Mask, |acc, &c| acc | work.masks[c as usize]);
    let (mut keep, mut required) = ([0 as Mask; 16], Mask::MAX);
    for set in sets {
        if union & set != set {
            continue;
        }
        let mut on_set = [0 as Mask; 16];
        for (has, &c) in on_set.iter_mut().zip(cells) {
            *has = work.masks[c as usize] & set;
        }
        if let Some(fits) = run_fits(&on_set[..cells.len()], set) {
            for (k, f) in keep.iter_mut().zip(&fits) {
                *k |= f;
            }
            required &= set;
        }
    }
    if required == Mask::MAX {
        return Err(Broken); // no set fits
    }
    for (&c, &k) in cells.iter().zip(&keep) {
        work.restrict(c, k)?;
    }
    props::place_or_point(work, cells, required, peers)
}

/// The digits each cell may take when the line is `run` and cell i has `on_run[i]` of it, or
/// `None` when some cell has none. Cell i's digit d fits when no other cell has d alone and the
/// other cells have every digit of the run but d. (Not a full matching, but it sees a cell
/// that two others' lone digits, or a digit only it holds, decide.)
fn run_fits(on_run: &[Mask], run: Mask) -> Option<[Mask; 16]> {
    let lone = |m: Mask| if single(m) { m } else { 0 };
    // The union, and the lone digits, of the cells after i (suffixes), then of those before.
    let n = on_run.len();
    let (mut after, mut after_lone) = ([0 as Mask; 17], [0 as Mask; 17]);
    for i in (0..n).rev() {
        after[i] = after[i + 1] | on_run[i];
        after_lone[i] = after_lone[i + 1] | lone(on_run[i]);
    }
    let (mut before, mut before_lone) = (0 as Mask, 0 as Mask);
    let mut fits = [0 as Mask; 16];
    for i in 0..n {
        let others = before | after[i + 1];
        let taken = before_lone | after_lone[i + 1];
        let missing = run & !others;
        fits[i] = match missing {
            0 => on_run[i] & !taken,
            m if single(m) => on_run[i] & !taken & m,
            _ => 0,
        };
        if fits[i] == 0 {
            return None;
        }
        before |= on_run[i];
        before_lone |= lone(on_run[i]);
    }
    Some(fits)
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
/// way of choosing for every cell that places every wanted digit uses. A wanted digit with one
/// place left goes there; with more, it leaves every cell that sees all its places.
pub(super) fn quad(
    work: &mut Work,
    cells: &[u16],
    wanted: &[u8],
    peers: &[PeerSet],
) -> Result<(), Broken> {
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
    props::place_or_point(work, cells, quad.wanted, peers)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn mask(digits: &[u32]) -> Mask {
        digits.iter().fold(0, |acc, d| acc | 1 << (d - 1))
    }

    /// Runs `renban` on cells 0..`line` of `masks`, with `peers` as given.
    fn run_renban(masks: &mut [Mask], line: u16, peers: &[PeerSet]) -> Result<(), Broken> {
        let mut changed = Vec::new();
        let mut work = Work {
            masks,
            changed: &mut changed,
        };
        let cells: Vec<u16> = (0..line).collect();
        renban(&mut work, &cells, 9, peers)
    }

    #[test]
    fn a_digit_every_run_holds_leaves_the_cells_that_see_all_its_places() {
        // Six cells in 1–9 run from 1–6 to 4–9: each holds 4, 5 and 6. Cell 6 sees the whole
        // line and loses them; cell 7 sees only cell 0 and keeps them.
        let mut masks = [mask(&[1, 2, 3, 4, 5, 6, 7, 8, 9]); 8];
        // Peer sets both ways: the line's cells see each other and cell 6; cell 0 sees cell 7.
        let mut peers = [[0u64; 4]; 8];
        for (c, seen) in peers.iter_mut().enumerate().take(6) {
            seen[0] = 0b111_1111 & !(1 << c);
        }
        peers[6][0] = 0b11_1111;
        peers[0][0] |= 1 << 7;
        peers[7][0] = 0b1;
        run_renban(&mut masks, 6, &peers).unwrap();
        assert_eq!(masks[6], mask(&[1, 2, 3, 7, 8, 9]));
        assert_eq!(masks[7], mask(&[1, 2, 3, 4, 5, 6, 7, 8, 9]));
        assert_eq!(masks[0], mask(&[1, 2, 3, 4, 5, 6, 7, 8, 9]));
    }

    #[test]
    fn a_renban_digit_needs_a_different_near_digit_in_every_other_cell() {
        // On a line of four, 3 in the first cell needs the second to hold a digit from 1 to 6
        // other than 3: {3, 8} has none, so the first is 7; the same way the second is 8.
        // Every run from 1–4 to 6–9 finds a digit in each cell, so runs alone keep both.
        let all = mask(&[1, 2, 3, 4, 5, 6, 7, 8, 9]);
        let mut masks = [mask(&[3, 7]), mask(&[3, 8]), all, all];
        run_renban(&mut masks, 4, &[[0u64; 4]; 4]).unwrap();
        assert_eq!(masks[0], mask(&[7]));
        assert_eq!(masks[1], mask(&[8]));
    }

    #[test]
    fn a_quadruples_digit_leaves_the_cells_that_see_all_its_places() {
        // 5 is wanted in cells 0–3 and only cells 0 and 1 may hold it: cell 4 sees both and
        // loses 5; cell 5 sees only cell 0 and keeps it.
        let all = mask(&[1, 2, 3, 4, 5, 6, 7, 8, 9]);
        let no_five = all & !mask(&[5]);
        let mut masks = [all, all, no_five, no_five, all, all];
        let mut peers = [[0u64; 4]; 6];
        for (a, b) in [(0, 4), (1, 4), (0, 5)] {
            peers[a][0] |= 1 << b;
            peers[b][0] |= 1 << a;
        }
        let mut changed = Vec::new();
        let mut work = Work {
            masks: &mut masks,
            changed: &mut changed,
        };
        quad(&mut work, &[0, 1, 2, 3], &[5], &peers).unwrap();
        assert_eq!(masks[4], no_five);
        assert_eq!(masks[5], all);
    }

    #[test]
    fn a_run_fits_a_cell_digit_when_the_others_can_take_the_rest() {
        // The line is 4–6: the first cell must take 6, the only 6, leaving 4 and 5 to the
        // others.
        let fits = run_fits(
            &[mask(&[4, 6]), mask(&[4, 5]), mask(&[4, 5])],
            mask(&[4, 5, 6]),
        );
        assert_eq!(
            fits.unwrap()[..3],
            [mask(&[6]), mask(&[4, 5]), mask(&[4, 5])]
        );
        // Two cells with only 2 of the run 1–3 cannot both take it.
        let fits = run_fits(&[mask(&[1, 3]), mask(&[2]), mask(&[2])], mask(&[1, 2, 3]));
        assert_eq!(fits, None);
        // Only the first cell has 1, so it takes 1; with no 4 in the last, it would need both.
        let on_run = [
            mask(&[1, 4]),
            mask(&[2, 3]),
            mask(&[2, 3]),
            mask(&[2, 3, 4]),
        ];
        let fits = run_fits(&on_run, mask(&[1, 2, 3, 4]));
        assert_eq!(fits.unwrap()[0], mask(&[1]));
        let on_run = [mask(&[1, 4]), mask(&[2, 3]), mask(&[2, 3]), mask(&[2, 3])];
        assert_eq!(run_fits(&on_run, mask(&[1, 2, 3, 4])), None);
    }
}
