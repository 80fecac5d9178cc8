//! Propagators for the clues outside the grid, each over a whole row or column read from the
//! clue's side (a house, so its digits differ): sandwich, X-sum and skyscraper. Each keeps the
//! digits that take part in some way of keeping the clue, the ways enumerated where the clue
//! pins them (the places of 1 and N, the first digit) and the digit sets from tables.

use super::props::{digits, Broken, Mask, Work};

fn bit(d: u32) -> Mask {
    1 << (d - 1)
}

/// Every set of `k` digits (as masks, for each `k` from 0 to `side`) summing to `sum`, taken
/// from `allowed`.
pub(super) fn sets_summing_to(sum: u32, allowed: Mask, side: u32) -> Box<[Box<[Mask]>]> {
    let mut by_size = vec![Vec::new(); side as usize + 1];
    for m in 0u32..1 << side {
        let m = m as Mask;
        if m & !allowed == 0 && digits(m).sum::<u32>() == sum {
            by_size[m.count_ones() as usize].push(m);
        }
    }
    by_size.into_iter().map(Vec::into_boxed_slice).collect()
}

/// The digits between the 1 and the N sum to the clue: `sets[k]` are the k-digit sets from 2 to
/// N - 1 summing to it. Every placing of the 1 and the N is tried (each pair of cells once,
/// both ways round), and for it every set the cells between can take; the line is a row or a
/// column, so the cells outside take the digits the set leaves (as sigh's sandwich does: with
/// {2, 3, 4} between, no 2, 3 or 4 outside). On the stack: this runs at nearly every node of a
/// sandwich puzzle.
pub(super) fn sandwich(
    work: &mut Work,
    cells: &[u16],
    sets: &[Box<[Mask]>],
    side: u32,
) -> Result<(), Broken> {
    let len = cells.len();
    let masks = line_masks(work, cells)?;
    let masks = &masks[..len];
    let ends = bit(1) | bit(side);
    // The cells that can hold nothing but the 1 or the N: any placing must put an end there.
    let mut end_only = 0u32;
    for (c, m) in masks.iter().enumerate() {
        if m & !ends == 0 {
            end_only |= 1 << c;
        }
    }
    let mut support = [0 as Mask; MOST];
    for l in 0..len {
        for r in l + 1..len {
            if end_only & !(1 << l | 1 << r) != 0 {
                continue; // another cell would need an end too
            }
            let may_end = |c: usize, d: u32| masks[c] & bit(d) != 0;
            if !(may_end(l, 1) && may_end(r, side) || may_end(l, side) && may_end(r, 1)) {
                continue; // no 1 and N here
            }
            let inside = &masks[l + 1..r];
            let inner_union = inside.iter().fold(0, |acc, m| acc | m) & !ends;
            let outer_count = len - (r - l + 1);
            let outside = || masks[..l].iter().chain(&masks[r + 1..]);
            let outer_union = outside().fold(0, |acc, m| acc | m) & !ends;
            let (mut inner_keep, mut outer_keep, mut fits) = (0 as Mask, 0 as Mask, false);
            for &set in sets[r - l - 1].iter() {
                if set & !inner_union != 0 || !inside.iter().all(|m| m & set != 0) {
                    continue;
                }
                // The cells outside take the digits the set leaves, one each.
                let outer = outer_union & !set;
                if (outer.count_ones() as usize) < outer_count || outside().any(|m| m & outer == 0)
                {
                    continue;
                }
                inner_keep |= set;
                outer_keep |= outer;
                fits = true;
            }
            if !fits {
                continue;
            }
            for (at_l, at_r) in [(1, side), (side, 1)] {
                if masks[l] & bit(at_l) == 0 || masks[r] & bit(at_r) == 0 {
                    continue;
                }
                support[l] |= bit(at_l);
                support[r] |= bit(at_r);
                for c in l + 1..r {
                    support[c] |= masks[c] & inner_keep;
                }
                for c in (0..l).chain(r + 1..len) {
                    support[c] |= masks[c] & outer_keep;
                }
            }
        }
    }
    keep(work, cells, &support[..len])
}

/// The first X digits sum to the clue, X being the first: `sets[k]` are the k-digit sets
/// summing to it. On the stack, as the sandwich's.
pub(super) fn x_sum(work: &mut Work, cells: &[u16], sets: &[Box<[Mask]>]) -> Result<(), Broken> {
    let len = cells.len();
    let masks = line_masks(work, cells)?;
    let mut support = [0 as Mask; MOST];
    for x in digits(masks[0]) {
        let (x, x_bit) = (x as usize, bit(x));
        if x > len {
            continue;
        }
        // The digits of the sets holding X that the cells after the first can take.
        let inside = &masks[1..x];
        let union = inside.iter().fold(0, |acc, m| acc | m) & !x_bit;
        let mut possible = 0;
        for &set in sets[x].iter().filter(|&&set| set & x_bit != 0) {
            let rest = set & !x_bit;
            if rest & !union == 0 && inside.iter().all(|m| m & rest != 0) {
                possible |= rest;
            }
        }
        if possible == 0 && x > 1 {
            continue; // no set fits
        }
        if x == 1 && !sets[1].contains(&x_bit) {
            continue; // the clue is not 1
        }
        support[0] |= x_bit;
        for c in 1..x {
            support[c] |= masks[c] & possible;
        }
        for c in x..len {
            support[c] |= masks[c];
        }
    }
    keep(work, cells, &support[..len])
}

/// `count` digits are higher than all before them: a walk over (highest so far, seen so far)
/// forward from the clue and back from the end, keeping each digit that lies on a walk ending
/// at the count. The line's digits differ (a row or a column), so a hidden digit is below the
/// highest, never equal to it, and the last highest is at least the line's length. The states
/// of one highest digit are a bit set of how many were seen (bit `s`: `s` seen), so a step is a
/// few shifts and ORs, on the stack: this runs at every node of a skyscraper puzzle (a table of
/// states, allocated each run, made sigh's "Skyscaper 2-3" 5 s).
pub(super) fn skyscraper(
    work: &mut Work,
    cells: &[u16],
    count: u32,
    side: u32,
) -> Result<(), Broken> {
    let (n, len) = (side as usize, cells.len());
    if n > MOST || count as usize > n {
        return Err(Broken);
    }
    let masks = line_masks(work, cells)?;
    // Every count seen, from 0 to n.
    let counts = (1u32 << (n + 1)) - 1;
    // forward[i][h]: before cell i, with h the highest so far (0 before the first), the counts
    // seen that some filling of the cells before reaches.
    let mut forward = [[0u32; MOST + 1]; MOST + 1];
    forward[0][0] = 1;
    for i in 0..len {
        let (now, next) = forward.split_at_mut(i + 1);
        let (now, next) = (&now[i], &mut next[0]);
        let mut below = 0u32; // the counts of every highest below d
        for h in 0..=n {
            if h > 0 && masks[i] & bit(h as u32) != 0 {
                next[h] |= (below << 1) & counts; // d = h is seen: a new highest
            }
            below |= now[h];
            if h > 1 && (masks[i] & ((1 << (h - 1)) - 1)) != 0 {
                next[h] |= now[h]; // a digit below the highest is hidden (none equals it)
            }
        }
    }
    // back[h]: after cell i, the counts seen so far from which the rest reaches `count`. At
    // the end the highest is at least the line's length, its digits being distinct (a row's
    // is N, and always seen): a walk ending lower is no filling (sigh's terminal heights).
    let mut back = [0u32; MOST + 1];
    for high in back.iter_mut().skip(len) {
        *high = 1 << count;
    }
    let mut support = [0 as Mask; MOST];
    for i in (0..len).rev() {
        let mut before = [0u32; MOST + 1];
        // Seen cell i with digit d > h: from (h, s) to (d, s + 1), fine when back[d] holds s + 1.
        let mut above = 0u32; // the counts, less one, that some d above h in the mask finishes
        for h in (0..=n).rev() {
            if h < n && masks[i] & bit(h as u32 + 1) != 0 {
                above |= back[h + 1] >> 1;
            }
            before[h] |= above;
            if h > 1 && masks[i] & ((1 << (h - 1)) - 1) != 0 {
                before[h] |= back[h]; // hidden below h: (h, s) stays
            }
        }
        // Which digits of cell i lie on a walk: hidden below a highest h reached and finished,
        // or seen above a highest whose counts finish as the new highest.
        let mut below = 0u32; // the forward counts of every highest below d
        let mut finishes_hidden = false;
        let mut hidden_from = [false; MOST + 2]; // [h]: some highest ≥ h finishes
        for h in (1..=n).rev() {
            finishes_hidden |= forward[i][h] & back[h] != 0;
            hidden_from[h] = finishes_hidden;
        }
        for d in 1..=n {
            below |= forward[i][d - 1];
            if masks[i] & bit(d as u32) == 0 {
                continue;
            }
            let seen = (below << 1) & back[d] != 0;
            let hidden = hidden_from[d + 1]; // d below the highest: hidden
            if seen || hidden {
                support[i] |= bit(d as u32);
            }
        }
        back = before;
    }
    keep(work, cells, &support[..len])
}

/// The most cells of a line, and of digits: a row of a 16×16.
const MOST: usize = 16;

/// A line's candidates copied onto the stack (its propagators run at nearly every node);
/// `Err` for a line longer than any row.
fn line_masks(work: &Work, cells: &[u16]) -> Result<[Mask; MOST], Broken> {
    if cells.len() > MOST {
        return Err(Broken);
    }
    let mut masks = [0 as Mask; MOST];
    for (m, &c) in masks.iter_mut().zip(cells) {
        *m = work.masks[c as usize];
    }
    Ok(masks)
}

fn keep(work: &mut Work, cells: &[u16], support: &[Mask]) -> Result<(), Broken> {
    for (&cell, &keep) in cells.iter().zip(support) {
        work.restrict(cell, keep)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::fast9::XorShift;

    /// Every ordering of the digits 1 to `n`.
    fn orderings(n: u32) -> Vec<Vec<u32>> {
        if n == 0 {
            return vec![Vec::new()];
        }
        let mut all = Vec::new();
        for shorter in orderings(n - 1) {
            for at in 0..=shorter.len() {
                let mut longer = shorter.clone();
                longer.insert(at, n);
                all.push(longer);
            }
        }
        all
    }

    /// On random candidates for a row of `n` cells, `propagate` keeps every digit of every
    /// ordering that fits the candidates and that `holds` accepts, and holds when one does.
    fn keeps_every_row(
        n: u32,
        holds: impl Fn(&[u32]) -> bool,
        propagate: impl Fn(&mut Work, &[u16]) -> Result<(), Broken>,
    ) -> usize {
        let mut rng = XorShift::new(0x9e37_79b9_7f4a_7c15 ^ n as u64);
        let rows: Vec<Vec<u32>> = orderings(n).into_iter().filter(|r| holds(r)).collect();
        let cells: Vec<u16> = (0..n as u16).collect();
        let mut fitting_rounds = 0;
        for _ in 0..3_000 {
            let masks: Vec<Mask> = (0..n)
                .map(|_| (rng.next() | rng.next()) as Mask & ((1 << n) - 1))
                .collect();
            let mut wanted = vec![0 as Mask; n as usize];
            for row in &rows {
                if row.iter().zip(&masks).all(|(&d, &m)| m & bit(d) != 0) {
                    for (w, &d) in wanted.iter_mut().zip(row) {
                        *w |= bit(d);
                    }
                }
            }
            let mut kept = masks.clone();
            let mut changed = Vec::new();
            let held = propagate(
                &mut Work {
                    masks: &mut kept,
                    changed: &mut changed,
                },
                &cells,
            );
            if wanted[0] != 0 {
                fitting_rounds += 1;
                assert!(held.is_ok(), "{masks:?}: a row fits, yet it broke");
                for (k, w) in kept.iter().zip(&wanted) {
                    assert_eq!(k & w, *w, "{masks:?}: kept {kept:?}, rows need {wanted:?}");
                }
            }
        }
        fitting_rounds
    }

    #[test]
    fn outside_clues_keep_every_row_that_keeps_them() {
        for n in [4u32, 5, 6] {
            for count in 1..=n {
                let seen = |row: &[u32]| {
                    let mut high = 0;
                    let mut seen = 0;
                    for &d in row {
                        if d > high {
                            (high, seen) = (d, seen + 1);
                        }
                    }
                    seen
                };
                let fits = keeps_every_row(
                    n,
                    |row| seen(row) == count as usize,
                    |work, cells| skyscraper(work, cells, count, n),
                );
                assert!(
                    fits > 100,
                    "skyscraper {count} on {n}: {fits} rounds with a row"
                );
            }
            for sum in 0..=n * (n + 1) / 2 {
                let between = |row: &[u32]| {
                    let at = |d| row.iter().position(|&x| x == d).unwrap();
                    let (a, b) = (at(1).min(at(n)), at(1).max(at(n)));
                    row[a + 1..b].iter().sum::<u32>()
                };
                let inner = ((1 << n) - 1) & !(bit(1) | bit(n));
                let sets = sets_summing_to(sum, inner, n);
                keeps_every_row(
                    n,
                    |row| between(row) == sum,
                    |work, cells| sandwich(work, cells, &sets, n),
                );
                let first = |row: &[u32]| row[..row[0] as usize].iter().sum::<u32>();
                let sets = sets_summing_to(sum, (1 << n) - 1, n);
                keeps_every_row(
                    n,
                    |row| first(row) == sum,
                    |work, cells| x_sum(work, cells, &sets),
                );
            }
        }
    }
}
