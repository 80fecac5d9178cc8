//! Sums combined, as sigh's solver combines them: two sums of digits on cells apart (killer
//! cages, little killers) whose cells see one another a lot are bounded better as one. Alone,
//! a little killer's diagonal of 49 through three boxes allows anything from 18 to 72; four
//! parallel diagonals of 49 together fill eight cells of each of three boxes, so their 196 is
//! within 2 of the most those 32 cells can hold (198), and every cell is pinned near the top.
//!
//! Each sum is scored by how much its exclusion groups leave free beyond its slack
//! (`Σ k(N − k) − slack` over its groups of k cells, the slack being how far the total is from
//! the nearer of the least and most the groups allow). Two sums on disjoint cells, the smaller
//! of six cells or more with six that see the other's, are merged when the merged sum scores
//! more than both, or more than the two together; the best merge first, again and again, each
//! merged sum replacing its two. The merged sums that score above zero are added as sums.

use super::sum::Sum;

/// At least this many cells of the smaller sum must see the other's for a merge.
const RELATED: usize = 6;

/// A merged sum has at most this many houses' worth of cells (grouping a sum's cells costs the
/// cube of their number; the widest merge seen, four diagonals, has 32 cells of a 9×9).
const MOST_HOUSES: usize = 4;

/// A sum of digits, gathered into exclusion groups, with its score.
struct Record {
    /// The cells, sorted: two records with the same cells are one.
    cells: Vec<u16>,
    total: i32,
    sum: Sum,
    score: i64,
    /// Given by the puzzle (not a merge).
    original: bool,
}

/// The merged sums of `sums` (cells, total) worth adding, their cells grouped by `sees`, on a
/// grid of `side` digits.
pub(super) fn sums(side: u32, sums: &[(&[u16], i32)], sees: impl Fn(u16, u16) -> bool) -> Vec<Sum> {
    // Every record so far, `None` once merged into another.
    let mut records: Vec<Option<Record>> = Vec::new();
    for &(cells, total) in sums {
        let mut cells = cells.to_vec();
        cells.sort_unstable();
        cells.dedup();
        if records.iter().flatten().any(|r| r.cells == cells) {
            continue;
        }
        records.extend(record(side, cells, total, true, &sees).map(Some));
    }
    // Each possible merge is scored once, when both its records are there: a merge adds the
    // merges of the new record with each other, not those of every pair again.
    let mut candidates: Vec<(usize, usize, Record)> = Vec::new();
    for i in 0..records.len() {
        for j in i + 1..records.len() {
            candidates.extend(merged(side, &records, i, j, &sees));
        }
    }
    loop {
        candidates.retain(|(i, j, m)| {
            let live = |k: usize| records[k].is_some();
            live(*i) && live(*j) && !records.iter().flatten().any(|r| r.cells == m.cells)
        });
        let best = (0..candidates.len()).max_by(|&a, &b| {
            let key = |k: usize| (candidates[k].2.score, &candidates[k].2.cells);
            key(a).cmp(&key(b))
        });
        let Some(best) = best else { break };
        let (i, j, merged_record) = candidates.swap_remove(best);
        records[i] = None;
        records[j] = None;
        records.push(Some(merged_record));
        let new = records.len() - 1;
        for other in 0..new {
            candidates.extend(merged(side, &records, other, new, &sees));
        }
    }
    records
        .into_iter()
        .flatten()
        .filter(|r| !r.original && r.score > 0)
        .map(|r| r.sum)
        .collect()
}

/// The merge of records `i` and `j` when both are there and it is worth making.
fn merged(
    side: u32,
    records: &[Option<Record>],
    i: usize,
    j: usize,
    sees: &impl Fn(u16, u16) -> bool,
) -> Option<(usize, usize, Record)> {
    let (a, b) = (records[i].as_ref()?, records[j].as_ref()?);
    merge(side, a, b, sees).map(|m| (i, j, m))
}

/// `a` and `b` as one sum, when they are apart, related, and one sum is worth more.
fn merge(side: u32, a: &Record, b: &Record, sees: &impl Fn(u16, u16) -> bool) -> Option<Record> {
    if a.cells.iter().any(|c| b.cells.binary_search(c).is_ok()) {
        return None;
    }
    let (small, big) = if a.cells.len() <= b.cells.len() {
        (a, b)
    } else {
        (b, a)
    };
    let cells = a.cells.len() + b.cells.len();
    if small.cells.len() < RELATED || cells > MOST_HOUSES * side as usize {
        return None;
    }
    let seeing = small
        .cells
        .iter()
        .filter(|&&s| big.cells.iter().any(|&c| sees(s, c)))
        .count();
    if seeing < RELATED {
        return None;
    }
    let mut cells: Vec<u16> = a.cells.iter().chain(&b.cells).copied().collect();
    cells.sort_unstable();
    let merged = record(side, cells, a.total + b.total, false, sees)?;
    let worth = merged.score > a.score.max(b.score) || merged.score > a.score + b.score;
    worth.then_some(merged)
}

/// The record of `cells` summing to `total`; `None` when its groups cannot reach the total
/// (the search finds that out anyway).
fn record(
    side: u32,
    cells: Vec<u16>,
    total: i32,
    original: bool,
    sees: &impl Fn(u16, u16) -> bool,
) -> Option<Record> {
    let mut sum = Sum::new(&cells, &vec![1; cells.len()], total);
    sum.group(sees);
    let n = side as i64;
    let sizes: Vec<i64> = sum.group_sizes().map(|k| k as i64).collect();
    // A group of k distinct digits holds from 1 + … + k to (N − k + 1) + … + N.
    let least: i64 = sizes.iter().map(|k| k * (k + 1) / 2).sum();
    let most: i64 = sizes.iter().map(|k| k * (2 * n - k + 1) / 2).sum();
    let total64 = total as i64;
    if total64 < least || total64 > most {
        return None;
    }
    let slack = (total64 - least).min(most - total64);
    let score = sizes.iter().map(|k| k * (n - k) - slack).sum();
    Some(Record {
        cells,
        total,
        sum,
        score,
        original,
    })
}

#[cfg(test)]
mod tests {
    /// Cells of a 9×9 by row and column from 0.
    fn rc(r: u16, c: u16) -> u16 {
        r * 9 + c
    }

    fn sudoku_sees(a: u16, b: u16) -> bool {
        let (ra, ca, rb, cb) = (a / 9, a % 9, b / 9, b % 9);
        a != b && (ra == rb || ca == cb || (ra / 3 == rb / 3 && ca / 3 == cb / 3))
    }

    /// The diagonal from (r, c) going down and to the left.
    fn down_left(mut r: u16, mut c: u16) -> Vec<u16> {
        let mut cells = vec![rc(r, c)];
        while r < 8 && c > 0 {
            r += 1;
            c -= 1;
            cells.push(rc(r, c));
        }
        cells
    }

    #[test]
    fn parallel_diagonals_of_49_are_merged_into_one_tight_sum() {
        // sigh's "Zero solution: Little Killer": the anti-diagonal and its neighbours.
        let lines = [
            down_left(0, 8),
            down_left(0, 7),
            down_left(1, 8),
            down_left(2, 8),
        ];
        let sums: Vec<(&[u16], i32)> = lines.iter().map(|l| (&l[..], 49)).collect();
        let merged = super::sums(9, &sums, sudoku_sees);
        let all = merged
            .iter()
            .find(|s| s.cells().len() == 32)
            .expect("the four diagonals as one sum");
        let (_, total) = all.terms();
        assert_eq!(total, 196);
    }

    #[test]
    fn merging_stops_at_four_houses_of_cells() {
        // Eleven parallel diagonals of 4 to 9 cells, six a cell on average: unbounded, merges
        // went on to a sum of 38 cells.
        let lines: Vec<Vec<u16>> = (3..=13)
            .map(|d: u16| {
                (0..9)
                    .filter(|&r| d >= r && d - r < 9)
                    .map(|r| rc(r, d - r))
                    .collect()
            })
            .collect();
        let sums: Vec<(&[u16], i32)> = lines.iter().map(|l| (&l[..], 6 * l.len() as i32)).collect();
        let merged = super::sums(9, &sums, sudoku_sees);
        let sizes: Vec<usize> = merged.iter().map(|s| s.cells().len()).collect();
        assert!(!sizes.is_empty());
        assert!(sizes.iter().all(|&n| n <= 36), "{sizes:?}");
    }

    #[test]
    fn small_or_unrelated_sums_are_left_alone() {
        // Two cages of three in one box: too small to merge.
        let a = [rc(0, 0), rc(0, 1), rc(0, 2)];
        let b = [rc(1, 0), rc(1, 1), rc(1, 2)];
        assert!(super::sums(9, &[(&a, 6), (&b, 24)], sudoku_sees).is_empty());
        // Six cells of the first box and six of the last: none sees another.
        let first: Vec<u16> = (0..6).map(|i| rc(i / 3, i % 3)).collect();
        let last: Vec<u16> = (0..6).map(|i| rc(6 + i / 3, 6 + i % 3)).collect();
        assert!(super::sums(9, &[(&first, 21), (&last, 39)], sudoku_sees).is_empty());
    }
}
