//! A weighted sum, `Σ coeffs[i] × digit(cells[i]) = total`: arrows (a circle's digits weighted by
//! place), pill arrows, double arrows, little killers, region-sum lines and zippers (one run
//! against the next), and the 45 rule's innies and outies.
//!
//! Two layers, as sigh's Sum handler has them:
//! - With three open cells or fewer, every way of filling them is tried: exact.
//! - Otherwise bounds. The cells that share a coefficient and all see one another (an
//!   *exclusion group*: a little killer's cells in one box, a region-sum run) must take
//!   distinct digits, so their least total is not "each at its lowest" but the smallest
//!   distinct digits they can take, which tightens both the total's reach and each cell's.
//!   A rule's sum whose cells can be grouped a second way, across the first groups, is
//!   bounded both ways (two propagators: `regrouped`).

use super::props::{digits, highest, lowest, range, Broken, Mask, Work};

/// The cells of a sum, gathered into exclusion groups.
pub(super) struct Sum {
    /// The cells, each group's together.
    cells: Box<[u16]>,
    /// Each cell's coefficient (one per group).
    coeffs: Box<[i32]>,
    /// Where each group begins in `cells`, and the end last.
    groups: Box<[u16]>,
    total: i32,
}

/// At most this many open cells are filled every way.
const EXACT: usize = 3;

/// The ranges of at most this many groups are kept between a pass's two loops.
const KEPT_RANGES: usize = 32;

impl Sum {
    /// `Σ coeffs[i] × cells[i] = total`, each cell its own group until `group` gathers them;
    /// a cell listed twice counts once with its coefficients added.
    pub(super) fn new(cells: &[u16], coeffs: &[i32], total: i32) -> Sum {
        let mut merged: Vec<(u16, i32)> = Vec::new();
        for (&cell, &coeff) in cells.iter().zip(coeffs) {
            match merged.iter_mut().find(|(c, _)| *c == cell) {
                Some((_, sum)) => *sum += coeff,
                None => merged.push((cell, coeff)),
            }
        }
        merged.retain(|&(_, coeff)| coeff != 0);
        Sum {
            cells: merged.iter().map(|&(c, _)| c).collect(),
            coeffs: merged.iter().map(|&(_, k)| k).collect(),
            groups: (0..=merged.len() as u16).collect(),
            total,
        }
    }

    pub(super) fn cells(&self) -> &[u16] {
        &self.cells
    }

    /// Whether only a new lowest or highest digit of a cell need wake this sum: true when it
    /// has more cells than are filled every way. Its bounds read each cell's lowest and highest
    /// and little else (which digits a group has at all), and the innies and outies of a killer
    /// are long sums that every removal anywhere on them woke, mostly for nothing: with bounds
    /// alone, sigh's showcase 118 → 98 ms (The Barbed Cross 77 → 63), TAREK's killers 293 →
    /// 285 ms, the extreme killers 358 → 290 ms; Mathemagic's killers 30.1 → 30.7 s (10% more
    /// nodes, each 12% cheaper). Once three of its cells are open they are filled every way,
    /// woken again by the next bound to move.
    pub(super) fn bounds_only(&self) -> bool {
        self.cells.len() > EXACT
    }

    /// Each cell with its coefficient, and the total: `Σ coeff × cell = total`.
    pub(super) fn terms(&self) -> (Vec<(i32, u16)>, i32) {
        let terms = self.coeffs.iter().copied().zip(self.cells.iter().copied());
        (terms.collect(), self.total)
    }

    /// Gather the cells into exclusion groups: each cell joins the first group of its
    /// coefficient whose every cell it `differs` from.
    pub(super) fn group(&mut self, differs: impl Fn(u16, u16) -> bool) {
        *self = self.gathered(|i, j| differs(self.cells[i], self.cells[j]));
    }

    /// The same sum in other exclusion groups, each cell kept apart from those of its group
    /// here, or `None` when no two cells could share one. Two ways of grouping bound the sum
    /// where either alone cannot: on a little killer's diagonal through disjoint groups, the
    /// cells in one box must differ, and so must the cells at one place of their boxes (The
    /// Barbed Cross: 16.9 thousand nodes with the boxes alone, 9.9 with both).
    pub(super) fn regrouped(&self, differs: impl Fn(u16, u16) -> bool) -> Option<Sum> {
        if self.cells.len() <= EXACT {
            return None; // filled every way anyway
        }
        let mut group_of = vec![0; self.cells.len()];
        for g in 0..self.groups.len() - 1 {
            group_of[self.group_range(g)].fill(g);
        }
        let other = self
            .gathered(|i, j| group_of[i] != group_of[j] && differs(self.cells[i], self.cells[j]));
        (other.groups.len() < other.cells.len() + 1).then_some(other)
    }

    /// This sum's cells gathered into groups of one coefficient whose cells may all join one
    /// another (by their indices here), the largest group first: a group's least total is that
    /// of distinct digits, so the fewer and larger the groups, the tighter the bounds. (In
    /// line order, a long arrow through four boxes made groups of its rows' stretches, a least
    /// total 20 short of what its boxes force; sigh's "Long sums 3" took a million nodes.)
    fn gathered(&self, may_join: impl Fn(usize, usize) -> bool) -> Sum {
        let n = self.cells.len();
        let joins =
            |i: usize, j: usize| i != j && self.coeffs[i] == self.coeffs[j] && may_join(i, j);
        let mut left: Vec<usize> = (0..n).collect();
        let mut groups: Vec<(i32, Vec<usize>)> = Vec::new();
        while !left.is_empty() {
            // Each cell left seeds a group: the others that join it, those that join the most
            // first, each taken when it joins every cell taken so far.
            let degree = |i: usize| left.iter().filter(|&&j| joins(i, j)).count();
            let mut by_degree = left.clone();
            by_degree.sort_by_key(|&i| std::cmp::Reverse(degree(i)));
            let mut best: Vec<usize> = Vec::new();
            for &seed in &by_degree {
                if degree(seed) < best.len() {
                    // A group grown from `seed` has at most its degree and itself: no larger
                    // group can grow from here on.
                    break;
                }
                let mut group = vec![seed];
                for &j in &by_degree {
                    if group.iter().all(|&m| joins(j, m)) {
                        group.push(j);
                    }
                }
                if group.len() > best.len() {
                    best = group;
                }
            }
            left.retain(|i| !best.contains(i));
            best.sort_unstable();
            groups.push((self.coeffs[best[0]], best));
        }
        let mut starts = vec![0u16];
        let (mut cells, mut coeffs) = (Vec::new(), Vec::new());
        for (coeff, members) in groups {
            coeffs.extend(members.iter().map(|_| coeff));
            cells.extend(members.iter().map(|&i| self.cells[i]));
            starts.push(cells.len() as u16);
        }
        Sum {
            cells: cells.into(),
            coeffs: coeffs.into(),
            groups: starts.into(),
            total: self.total,
        }
    }

    /// How many cells each exclusion group has.
    pub(super) fn group_sizes(&self) -> impl Iterator<Item = usize> + '_ {
        self.groups.windows(2).map(|w| (w[1] - w[0]) as usize)
    }

    fn group_range(&self, g: usize) -> std::ops::Range<usize> {
        self.groups[g] as usize..self.groups[g + 1] as usize
    }

    /// Remove the digits no filling keeping the sum uses.
    pub(super) fn run(&self, work: &mut Work) -> Result<(), Broken> {
        loop {
            let open = self
                .cells
                .iter()
                .filter(|&&c| !work.masks[c as usize].is_power_of_two())
                .count();
            if open <= EXACT {
                return self.exact(work);
            }
            if !self.bounds(work)? {
                return Ok(());
            }
        }
    }

    /// One pass of bounds; true when a cell changed.
    fn bounds(&self, work: &mut Work) -> Result<bool, Broken> {
        let groups = self.groups.len() - 1;
        // The groups' ranges, kept for the second loop when there are few groups (nearly
        // always): this runs at most nodes of a killer's search.
        let mut ranges = [(0i64, 0i64); KEPT_RANGES];
        let (mut least, mut most) = (0i64, 0i64);
        for g in 0..groups {
            let (lo, hi) = self.term_range(g, work.masks)?;
            if let Some(kept) = ranges.get_mut(g) {
                *kept = (lo, hi);
            }
            least += lo;
            most += hi;
        }
        let total = self.total as i64;
        if least > total || most < total {
            return Err(Broken);
        }
        let mut changed = false;
        for g in 0..groups {
            let (lo, hi) = match ranges.get(g) {
                Some(&range) => range,
                None => self.term_range(g, work.masks)?,
            };
            // What the other groups leave this one's term.
            let (floor, ceiling) = (total - (most - hi), total - (least - lo));
            if floor <= lo && hi <= ceiling {
                continue;
            }
            let range = self.group_range(g);
            let coeff = self.coeffs[range.start] as i64;
            // The same in digits: the group's digits sum from `at_least` to `at_most`.
            let (at_least, at_most) = if coeff > 0 {
                (div_ceil(floor, coeff), div_floor(ceiling, coeff))
            } else {
                (div_ceil(ceiling, coeff), div_floor(floor, coeff))
            };
            // `term_range` saw to it that a group has no more cells than there are digits.
            let mut keep = [0 as Mask; 16];
            let keep = &mut keep[..range.len()];
            for (k, &c) in keep.iter_mut().zip(&self.cells[range.clone()]) {
                *k = work.masks[c as usize];
            }
            group_keep(keep, at_least, at_most).ok_or(Broken)?;
            for (&cell, &keep) in self.cells[range].iter().zip(keep.iter()) {
                let before = work.masks[cell as usize];
                work.restrict(cell, keep)?;
                changed |= work.masks[cell as usize] != before;
            }
        }
        Ok(changed)
    }

    /// The least and most of a group's term (its digits' sum times its coefficient).
    fn term_range(&self, g: usize, masks: &[Mask]) -> Result<(i64, i64), Broken> {
        let range = self.group_range(g);
        let coeff = self.coeffs[range.start] as i64;
        let cells = &self.cells[range];
        let (lo, hi) = if cells.len() == 1 {
            let m = masks[cells[0] as usize];
            (lowest(m) as i64, highest(m) as i64)
        } else {
            let mut group = [0 as Mask; 16];
            if cells.len() > group.len() {
                return Err(Broken); // more cells than digits cannot all differ
            }
            for (slot, &c) in group.iter_mut().zip(cells) {
                *slot = masks[c as usize];
            }
            let group = &group[..cells.len()];
            let (low, _) = distinct_low(group).ok_or(Broken)?;
            let (high, _) = distinct_high(group).ok_or(Broken)?;
            (low, high)
        };
        Ok(if coeff > 0 {
            (lo * coeff, hi * coeff)
        } else {
            (hi * coeff, lo * coeff)
        })
    }

    /// Every filling of the open cells tried (three at most): each keeps the digits it uses.
    fn exact(&self, work: &mut Work) -> Result<(), Broken> {
        let mut open = [(0u16, 0i64, 0usize); EXACT];
        let mut count = 0;
        let mut rest = self.total as i64;
        for g in 0..self.groups.len() - 1 {
            for i in self.group_range(g) {
                let (cell, coeff) = (self.cells[i], self.coeffs[i] as i64);
                let m = work.masks[cell as usize];
                if m.is_power_of_two() {
                    rest -= coeff * lowest(m) as i64;
                } else {
                    open[count] = (cell, coeff, g);
                    count += 1;
                }
            }
        }
        let open = &open[..count];
        let mask = |i: usize| work.masks[open[i].0 as usize];
        // The digit of the last open cell that makes up `need`, if it has it.
        let last = |need: i64, coeff: i64, m: Mask| -> Mask {
            if need % coeff != 0 {
                return 0;
            }
            let d = need / coeff;
            if (1..=16).contains(&d) {
                m & 1 << (d - 1)
            } else {
                0
            }
        };
        let mut keep = [0 as Mask; EXACT];
        match open {
            [] => return if rest == 0 { Ok(()) } else { Err(Broken) },
            [(_, c0, _)] => keep[0] = last(rest, *c0, mask(0)),
            [(_, c0, g0), (_, c1, g1)] => {
                for d0 in digits(mask(0)) {
                    let mut d1 = last(rest - c0 * d0 as i64, *c1, mask(1));
                    if g0 == g1 {
                        d1 &= !(1 << (d0 - 1));
                    }
                    if d1 != 0 {
                        keep[0] |= 1 << (d0 - 1);
                        keep[1] |= d1;
                    }
                }
            }
            [(_, c0, g0), (_, c1, g1), (_, c2, g2)] => {
                for d0 in digits(mask(0)) {
                    let bit0 = 1 << (d0 - 1);
                    let mut m1 = mask(1);
                    if g0 == g1 {
                        m1 &= !bit0;
                    }
                    for d1 in digits(m1) {
                        let bit1 = 1 << (d1 - 1);
                        let mut d2 = last(rest - c0 * d0 as i64 - c1 * d1 as i64, *c2, mask(2));
                        if g2 == g0 {
                            d2 &= !bit0;
                        }
                        if g2 == g1 {
                            d2 &= !bit1;
                        }
                        if d2 != 0 {
                            keep[0] |= bit0;
                            keep[1] |= bit1;
                            keep[2] |= d2;
                        }
                    }
                }
            }
            _ => unreachable!("at most {EXACT} open cells"),
        }
        for (i, &(cell, _, _)) in open.iter().enumerate() {
            work.restrict(cell, keep[i])?;
        }
        Ok(())
    }
}

/// Narrow each mask of a group whose digits all differ to what it may keep when they sum to
/// between `at_least` and `at_most`; `None` when they cannot.
///
/// Two bounds, both sound: a cell is at most `at_most` less what the others hold at their
/// lowest (each alone), and no digit of the group can be above the group's largest in its
/// least distinct filling by more than that filling's room below `at_most` (each digit of any
/// filling, sorted, is at least the least filling's digit in that place). And the same
/// upside down.
fn group_keep(masks: &mut [Mask], at_least: i64, at_most: i64) -> Option<()> {
    let plain_low: i64 = masks.iter().map(|&m| lowest(m) as i64).sum();
    let plain_high: i64 = masks.iter().map(|&m| highest(m) as i64).sum();
    let (low, low_top) = distinct_low(masks)?;
    let (high, high_bottom) = distinct_high(masks)?;
    if low > at_most || high < at_least {
        return None;
    }
    let group_ceiling = low_top as i64 + (at_most - low);
    let group_floor = high_bottom as i64 - (high - at_least);
    for m in masks.iter_mut() {
        let ceiling = group_ceiling.min(at_most - (plain_low - lowest(*m) as i64));
        let floor = group_floor.max(at_least - (plain_high - highest(*m) as i64));
        *m &= range(floor, ceiling);
    }
    Some(())
}

/// The least sum of distinct digits, one from each mask, and the largest digit of that
/// filling: the cells taken by rising lowest digit, each given the smallest digit any of them
/// has that is above the last one given and no lower than its own lowest. `None` when they
/// run out of digits.
fn distinct_low(masks: &[Mask]) -> Option<(i64, u32)> {
    let mut lows = [0u32; 16];
    let lows = &mut lows[..masks.len()];
    let mut union = 0 as Mask;
    for (low, &m) in lows.iter_mut().zip(masks) {
        *low = lowest(m);
        union |= m;
    }
    lows.sort_unstable();
    let (mut sum, mut last) = (0i64, 0u32);
    for &low in lows.iter() {
        let from = low.max(last + 1);
        let above = if from > 16 {
            0
        } else {
            union & !((1u32 << (from - 1)) - 1) as Mask
        };
        if above == 0 {
            return None;
        }
        last = lowest(above);
        sum += last as i64;
    }
    Some((sum, last))
}

/// `distinct_low` upside down: the most sum, and the smallest digit of that filling.
fn distinct_high(masks: &[Mask]) -> Option<(i64, u32)> {
    // Reversing a mask's 16 bits turns digit d into 17 - d.
    let mut flipped = [0 as Mask; 16];
    for (f, &m) in flipped.iter_mut().zip(masks) {
        *f = m.reverse_bits();
    }
    let (sum, top) = distinct_low(&flipped[..masks.len()])?;
    Some((17 * masks.len() as i64 - sum, 17 - top))
}

fn div_floor(a: i64, b: i64) -> i64 {
    a.div_euclid(b) - if b < 0 && a.rem_euclid(b) != 0 { 1 } else { 0 }
}

fn div_ceil(a: i64, b: i64) -> i64 {
    -div_floor(-a, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn division_rounds_the_right_way_with_either_sign() {
        for a in -20i64..=20 {
            for b in [-7i64, -3, -1, 1, 2, 5] {
                let exact = a as f64 / b as f64;
                assert_eq!(div_floor(a, b), exact.floor() as i64, "{a}/{b}");
                assert_eq!(div_ceil(a, b), exact.ceil() as i64, "{a}/{b}");
            }
        }
    }

    #[test]
    fn distinct_fillings_are_the_least_and_most_real_ones() {
        // Three cells of 1..9: least 1+2+3, most 7+8+9.
        let all = 0x1ff;
        assert_eq!(distinct_low(&[all, all, all]), Some((6, 3)));
        assert_eq!(distinct_high(&[all, all, all]), Some((24, 7)));
        // {5} and {5,6}: 5 and 6.
        assert_eq!(distinct_low(&[0b1_0000, 0b11_0000]), Some((11, 6)));
        // {5} twice cannot differ.
        assert_eq!(distinct_low(&[0b1_0000, 0b1_0000]), None);
    }

    /// Cells 0..6 as two boxes of three (0-2, 3-5) whose cells at one place differ too.
    fn boxes_and_places(a: u16, b: u16) -> bool {
        a / 3 == b / 3 || a % 3 == b % 3
    }

    fn groups_of(sum: &Sum) -> Vec<Vec<u16>> {
        (0..sum.groups.len() - 1)
            .map(|g| sum.cells[sum.group_range(g)].to_vec())
            .collect()
    }

    #[test]
    fn a_sum_is_grouped_again_across_its_first_groups() {
        let mut sum = Sum::new(&[0, 1, 2, 3, 4, 5], &[1; 6], 21);
        sum.group(boxes_and_places);
        assert_eq!(groups_of(&sum), [vec![0, 1, 2], vec![3, 4, 5]]);
        let other = sum.regrouped(boxes_and_places).expect("a second grouping");
        assert_eq!(groups_of(&other), [vec![0, 3], vec![1, 4], vec![2, 5]]);
        // The same terms and total, only gathered otherwise.
        let sorted = |s: &Sum| {
            let (mut terms, total) = s.terms();
            terms.sort();
            (terms, total)
        };
        assert_eq!(sorted(&other), sorted(&sum));
        // Boxes alone: nothing to group across them.
        let boxes = |a: u16, b: u16| a / 3 == b / 3;
        let mut sum = Sum::new(&[0, 1, 2, 3, 4, 5], &[1; 6], 21);
        sum.group(boxes);
        assert!(sum.regrouped(boxes).is_none());
    }

    #[test]
    fn a_group_keeps_only_digits_some_distinct_filling_uses() {
        // Two differing cells of 1..9 summing to exactly 4: 1 and 3.
        let all = 0x1ff;
        let mut keep = [all, all];
        group_keep(&mut keep, 4, 4).unwrap();
        assert!(keep.iter().all(|&m| m & !0b111 == 0), "{keep:?}");
    }
}
