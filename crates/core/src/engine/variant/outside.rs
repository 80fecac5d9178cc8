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

/// The digits of `sets` that the cells can take: each cell one of a set's digits, the cells
/// together all of them. `None` when no set fits.
fn fitting(masks: &[Mask], sets: &[Mask]) -> Option<Mask> {
    let union = masks.iter().fold(0, |acc, m| acc | m);
    let possible = sets
        .iter()
        .filter(|&&set| set & !union == 0 && masks.iter().all(|m| m & set != 0))
        .fold(0, |acc, set| acc | set);
    (possible != 0 || (masks.is_empty() && sets.contains(&0))).then_some(possible)
}

/// The digits between the 1 and the N sum to the clue: `sets[k]` are the k-digit sets from 2 to
/// N - 1 summing to it.
pub(super) fn sandwich(
    work: &mut Work,
    cells: &[u16],
    sets: &[Box<[Mask]>],
    side: u32,
) -> Result<(), Broken> {
    let masks: Vec<Mask> = cells.iter().map(|&c| work.masks[c as usize]).collect();
    let ends = bit(1) | bit(side);
    let mut support = vec![0 as Mask; cells.len()];
    for i in 0..cells.len() {
        for j in 0..cells.len() {
            let (a, b) = (1, side);
            for (at_i, at_j) in [(a, b), (b, a)] {
                if i == j || masks[i] & bit(at_i) == 0 || masks[j] & bit(at_j) == 0 {
                    continue;
                }
                let (l, r) = (i.min(j), i.max(j));
                let others_fit = (0..cells.len())
                    .filter(|&c| c != i && c != j)
                    .all(|c| masks[c] & !ends != 0);
                if !others_fit {
                    continue;
                }
                let inside: Vec<Mask> = masks[l + 1..r].iter().map(|m| m & !ends).collect();
                let Some(possible) = fitting(&inside, &sets[r - l - 1]) else {
                    continue;
                };
                support[i] |= bit(at_i);
                support[j] |= bit(at_j);
                for c in l + 1..r {
                    support[c] |= masks[c] & possible;
                }
                for c in (0..l).chain(r + 1..cells.len()) {
                    support[c] |= masks[c] & !ends;
                }
            }
        }
    }
    keep(work, cells, &support)
}

/// The first X digits sum to the clue, X being the first: `sets[k]` are the k-digit sets
/// summing to it.
pub(super) fn x_sum(work: &mut Work, cells: &[u16], sets: &[Box<[Mask]>]) -> Result<(), Broken> {
    let masks: Vec<Mask> = cells.iter().map(|&c| work.masks[c as usize]).collect();
    let mut support = vec![0 as Mask; cells.len()];
    for x in digits(masks[0]) {
        let x = x as usize;
        if x > cells.len() {
            continue;
        }
        let with_x: Vec<Mask> = sets[x]
            .iter()
            .copied()
            .filter(|s| s & bit(x as u32) != 0)
            .collect();
        let rest: Vec<Mask> = with_x.iter().map(|s| s & !bit(x as u32)).collect();
        let inside: Vec<Mask> = masks[1..x].iter().map(|m| m & !bit(x as u32)).collect();
        let Some(possible) = fitting(&inside, &rest) else {
            continue;
        };
        support[0] |= bit(x as u32);
        for c in 1..x {
            support[c] |= masks[c] & possible;
        }
        for c in x..cells.len() {
            support[c] |= masks[c];
        }
    }
    keep(work, cells, &support)
}

/// `count` digits are higher than all before them: a walk over (highest so far, seen so far)
/// forward from the clue and back from the end, keeping each digit that lies on a walk ending
/// at the count.
pub(super) fn skyscraper(
    work: &mut Work,
    cells: &[u16],
    count: u32,
    side: u32,
) -> Result<(), Broken> {
    let n = side as usize;
    let states = (n + 1) * (n + 1);
    let state = |high: usize, seen: usize| high * (n + 1) + seen;
    let step = |s: usize, d: usize| {
        let (high, seen) = (s / (n + 1), s % (n + 1));
        if d > high {
            (seen < n).then(|| state(d, seen + 1))
        } else {
            Some(state(high, seen))
        }
    };
    let masks: Vec<Mask> = cells.iter().map(|&c| work.masks[c as usize]).collect();
    let len = cells.len();
    // forward[i]: states reachable before cell i.
    let mut forward = vec![vec![false; states]; len + 1];
    forward[0][state(0, 0)] = true;
    for i in 0..len {
        for s in 0..states {
            if forward[i][s] {
                for d in digits(masks[i]) {
                    if let Some(t) = step(s, d as usize) {
                        forward[i + 1][t] = true;
                    }
                }
            }
        }
    }
    // back[i]: states before cell i from which the end is reached with `count` seen.
    let mut back = vec![vec![false; states]; len + 1];
    for high in 0..=n {
        if count as usize <= n {
            back[len][state(high, count as usize)] = true;
        }
    }
    for i in (0..len).rev() {
        for s in 0..states {
            back[i][s] =
                digits(masks[i]).any(|d| step(s, d as usize).is_some_and(|t| back[i + 1][t]));
        }
    }
    let mut support = vec![0 as Mask; len];
    for i in 0..len {
        for s in (0..states).filter(|&s| forward[i][s]) {
            for d in digits(masks[i]) {
                if step(s, d as usize).is_some_and(|t| back[i + 1][t]) {
                    support[i] |= bit(d);
                }
            }
        }
    }
    keep(work, cells, &support)
}

fn keep(work: &mut Work, cells: &[u16], support: &[Mask]) -> Result<(), Broken> {
    for (&cell, &keep) in cells.iter().zip(support) {
        work.restrict(cell, keep)?;
    }
    Ok(())
}
