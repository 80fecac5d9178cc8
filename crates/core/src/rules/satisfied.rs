//! What each constraint means, as plain loops over a grid's digits: the independent checker.
//! Nothing here is shared with the engine's propagators, so a solution the engine finds can be
//! trusted only once these accept it.

use super::{Constraint, Dot, Index, Kind, Rules};
use crate::grid::Size;

/// At most this many ways to fill a constraint's empty cells are tried when asking whether
/// any keeps it (a 9-cell sandwich row with five empty cells is 59,049).
const COMPLETIONS: u64 = 100_000;

impl Constraint {
    /// Whether the digits of `grid` (row-major, every cell of the scope filled) keep the
    /// constraint. A rule of the whole grid is `Rules::broken_pairs`'s, and holds here.
    pub fn satisfied(&self, size: Size, grid: &[u8]) -> bool {
        let n = size.side() as u32;
        let at = |cells: &[u16]| CellDigits::read(grid, cells);
        match &self.kind {
            Kind::AntiKnight | Kind::AntiKing | Kind::NonConsecutive | Kind::Negative { .. } => {
                true
            }
            Kind::ExtraRegion(cells) | Kind::Cage { sum: None, cells } => distinct(&at(cells)),
            Kind::Cage {
                sum: Some(sum),
                cells,
            } => {
                let digits = at(cells);
                distinct(&digits) && digits.iter().sum::<u32>() == *sum
            }
            Kind::Arrow { circle, shaft } => number(&at(circle)) == at(shaft).iter().sum::<u32>(),
            Kind::DoubleArrow(cells) => {
                let d = at(cells);
                let ends = d[0] + d[d.len() - 1];
                ends == d[1..d.len() - 1].iter().sum::<u32>()
            }
            Kind::LittleKiller { sum, cells } => at(cells).iter().sum::<u32>() == *sum,
            Kind::RegionSum(runs) => {
                let sums: Vec<u32> = runs.iter().map(|run| at(run).iter().sum()).collect();
                sums.windows(2).all(|w| w[0] == w[1])
            }
            Kind::Zipper(cells) => zipper(&at(cells)),
            Kind::Sandwich { sum, cells } => sandwich(&at(cells), n) == Some(*sum),
            Kind::XSum { sum, cells } => {
                let d = at(cells);
                let x = d[0] as usize;
                x <= d.len() && d[..x].iter().sum::<u32>() == *sum
            }
            Kind::Skyscraper { count, cells } => seen(&at(cells)) == *count,
            Kind::Dot { dot, value, cells } => {
                dot.holds(*value, grid[cells[0] as usize], grid[cells[1] as usize])
            }
            Kind::Less([a, b]) => grid[*a as usize] < grid[*b as usize],
            Kind::Thermo { slow, cells } => {
                at(cells)
                    .windows(2)
                    .all(|w| if *slow { w[0] <= w[1] } else { w[0] < w[1] })
            }
            Kind::Whisper { gap, cells } => {
                at(cells).windows(2).all(|w| w[0].abs_diff(w[1]) >= *gap)
            }
            Kind::Renban(cells) => {
                let d = at(cells);
                let (lo, hi) = (d.iter().min(), d.iter().max());
                distinct(&d)
                    && hi
                        .zip(lo)
                        .is_some_and(|(hi, lo)| hi - lo + 1 == d.len() as u32)
            }
            Kind::Palindrome(cells) => {
                let d = at(cells);
                d.iter().eq(d.iter().rev())
            }
            Kind::Between(cells) => {
                let d = at(cells);
                let (a, b) = (d[0], d[d.len() - 1]);
                let (lo, hi) = (a.min(b), a.max(b));
                d[1..d.len() - 1].iter().all(|&x| lo < x && x < hi)
            }
            Kind::Lockout { gap, cells } => {
                let d = at(cells);
                let (a, b) = (d[0], d[d.len() - 1]);
                let (lo, hi) = (a.min(b), a.max(b));
                hi - lo >= *gap && d[1..d.len() - 1].iter().all(|&x| x < lo || x > hi)
            }
            Kind::Entropic(cells) => near_differ(&at(cells), |d| (d - 1) * 3 / n),
            Kind::Modular(cells) => near_differ(&at(cells), |d| d % 3),
            Kind::Nabner(cells) => {
                let d = at(cells);
                d.iter()
                    .enumerate()
                    .all(|(i, a)| d[i + 1..].iter().all(|b| a.abs_diff(*b) >= 2))
            }
            Kind::Parity { even, cells } => at(cells).iter().all(|d| (d % 2 == 0) == *even),
            Kind::Extreme { maximum, cells } => cells.iter().all(|&cell| {
                let d = grid[cell as usize];
                orthogonal_neighbours(size, cell)
                    .filter(|other| !cells.contains(other))
                    .all(|other| {
                        let o = grid[other as usize];
                        if *maximum {
                            d > o
                        } else {
                            d < o
                        }
                    })
            }),
            Kind::Candidates { digits, cells } => {
                at(cells).iter().all(|&d| digits >> (d - 1) & 1 == 1)
            }
            Kind::Quad { digits, cells } => {
                let d = at(cells);
                digits.iter().all(|&q| {
                    let wanted = digits.iter().filter(|&&x| x == q).count();
                    d.iter().filter(|&&x| x == q as u32).count() >= wanted
                })
            }
            Kind::Clone(groups) => {
                let first = at(&groups[0]);
                groups[1..].iter().all(|g| *at(g) == *first)
            }
            Kind::Indexer { index, cells } => cells.iter().all(|&cell| {
                let v = grid[cell as usize] as usize;
                let line = indexed_cells(size, *index, cell).collect::<Vec<_>>();
                let own = line.iter().position(|&c| c == cell).unwrap_or(0);
                grid[line[v - 1] as usize] as usize == own + 1
            }),
        }
    }

    /// Whether no way of filling the empty cells (0) of the constraint's scope keeps it: a sure
    /// break, never a guess. Quick bounds decide for sums and thermometers; other constraints
    /// with empty cells are tried every way when there are few enough ways, and otherwise are
    /// taken to hold until more is filled.
    pub fn broken(&self, size: Size, grid: &[u8]) -> bool {
        self.broken_within(size, grid, &mut { COMPLETIONS })
    }

    /// `broken`, trying at most `allowance` fillings (what it tries is taken off): a puzzle with
    /// a thousand constraint lines shares one allowance among them, so that its check stays
    /// quick however its lines are written.
    pub fn broken_within(&self, size: Size, grid: &[u8], allowance: &mut u64) -> bool {
        let scope = self.scope(size);
        let empty: Vec<u16> = scope
            .iter()
            .copied()
            .filter(|&c| grid[c as usize] == 0)
            .collect();
        // Whatever the grid holds: checked once here, not at every partial filling below.
        if self.more_cells_than_digits(size)
            || self.more_cells_than_spread_digits(size)
            || self.unreachable_clue(size).is_some()
        {
            return true;
        }
        if empty.is_empty() {
            return !self.satisfied(size, grid);
        }
        if self.broken_by_bounds(size, grid) {
            return true;
        }
        let n = size.side() as u64;
        let Some(ways) = n
            .checked_pow(empty.len() as u32)
            .filter(|&w| w <= *allowance)
        else {
            return false;
        };
        *allowance -= ways;
        let mut scratch = grid.to_vec();
        !any_completion(self, size, &mut scratch, &empty)
    }

    /// Breaks the filled cells alone show, whatever fills the rest: a repeated digit where the
    /// cells differ, a cage's sum out of reach, a thermometer out of order or without room.
    fn broken_by_bounds(&self, size: Size, grid: &[u8]) -> bool {
        let n = size.side() as u32;
        let filled = |cells: &[u16]| -> Vec<u32> {
            cells
                .iter()
                .map(|&c| grid[c as usize] as u32)
                .filter(|&d| d != 0)
                .collect()
        };
        match &self.kind {
            Kind::ExtraRegion(cells) | Kind::Renban(cells) | Kind::Nabner(cells) => {
                !distinct(&filled(cells))
            }
            Kind::Cage { sum, cells } => {
                let digits = filled(cells);
                if !distinct(&digits) {
                    return true;
                }
                let Some(sum) = *sum else { return false };
                let free: Vec<u32> = (1..=n).filter(|d| !digits.contains(d)).collect();
                let k = cells.len() - digits.len();
                let have: u32 = digits.iter().sum();
                let least: u32 = free.iter().take(k).sum();
                let most: u32 = free.iter().rev().take(k).sum();
                have + least > sum || have + most < sum
            }
            Kind::Thermo { slow, cells } => {
                let step = if *slow { 0 } else { 1 };
                let placed: Vec<(u32, u32)> = cells
                    .iter()
                    .enumerate()
                    .filter(|(_, &c)| grid[c as usize] != 0)
                    .map(|(i, &c)| (i as u32, grid[c as usize] as u32))
                    .collect();
                let last = cells.len() as u32 - 1;
                let no_room = placed
                    .iter()
                    .any(|&(i, d)| d < 1 + step * i || d + step * (last - i) > n);
                let out_of_order = placed
                    .windows(2)
                    .any(|w| w[1].1 < w[0].1 + step * (w[1].0 - w[0].0));
                no_room || out_of_order
            }
            _ => false,
        }
    }
}

impl Constraint {
    /// The values a clue outside the grid can take on a grid of `size`, whatever its digits, as
    /// ranges; `None` for other constraints. A clue outside them can never hold: a sandwich
    /// between the 1 and the N sums to 0, 2 to T - 2, or T (T the sum of the digits between:
    /// nothing makes 1, and T - 1 would leave out a 1 the sum never had); an X-sum is X and any
    /// X - 1 other digits (their totals counted once per side); a skyscraper clue counts 1 to N.
    pub fn clue_reach(&self, size: Size) -> Option<Vec<std::ops::RangeInclusive<u32>>> {
        let n = size.side() as u32;
        match self.kind {
            Kind::Sandwich { .. } => {
                let most = n * (n + 1) / 2 - 1 - n;
                Some(vec![0..=0, 2..=most - 2, most..=most])
            }
            Kind::XSum { .. } => Some(x_sum_reach(n).to_vec()),
            Kind::Skyscraper { .. } => Some(vec![1..=n]),
            _ => None,
        }
    }

    /// The reach of a clue outside the grid ([`Constraint::clue_reach`]) when its own value is
    /// not in it: no digits can give the clue.
    pub fn unreachable_clue(&self, size: Size) -> Option<Vec<std::ops::RangeInclusive<u32>>> {
        let value = match self.kind {
            Kind::Sandwich { sum, .. } | Kind::XSum { sum, .. } => sum,
            Kind::Skyscraper { count, .. } => count,
            _ => return None,
        };
        self.clue_reach(size)
            .filter(|reach| !reach.iter().any(|r| r.contains(&value)))
    }

    /// Whether the constraint's cells must all differ and are more than the grid's digits.
    pub fn more_cells_than_digits(&self, size: Size) -> bool {
        self.distinct() && self.named_cells().len() > size.side()
    }

    /// Whether the constraint is a nabner line longer than the most digits no two of them
    /// consecutive the grid has (⌈N/2⌉: 1, 3, 5, 7, 9 on a 9×9).
    pub fn more_cells_than_spread_digits(&self, size: Size) -> bool {
        matches!(&self.kind, Kind::Nabner(cells) if cells.len() > size.side().div_ceil(2))
    }
}

/// The totals an X-sum can have on a side of `n`: X and any X - 1 other digits, each X's
/// totals found by counting subsets (which sums `k` of the other digits make), merged into
/// ranges. Worked out once per side: every check of an X-sum's line asks.
fn x_sum_reach(n: u32) -> std::borrow::Cow<'static, [std::ops::RangeInclusive<u32>]> {
    static REACH: [std::sync::OnceLock<Vec<std::ops::RangeInclusive<u32>>>; 17] =
        [const { std::sync::OnceLock::new() }; 17];
    match REACH.get(n as usize) {
        Some(once) => once.get_or_init(|| x_sums(n)).as_slice().into(),
        None => x_sums(n).into(), // a side the variant rules do not take
    }
}

/// [`x_sum_reach`], worked out.
fn x_sums(n: u32) -> Vec<std::ops::RangeInclusive<u32>> {
    let most = (n * (n + 1) / 2) as usize;
    let mut reached = vec![false; most + 1];
    for x in 1..=n {
        // made[k][s]: some k of the other digits sum to s.
        let mut made = vec![vec![false; most + 1]; n as usize];
        made[0][0] = true;
        for d in (1..=n).filter(|&d| d != x) {
            for k in (0..n as usize - 1).rev() {
                for s in (0..=most - d as usize).rev() {
                    if made[k][s] {
                        made[k + 1][s + d as usize] = true;
                    }
                }
            }
        }
        for (s, &made) in made[x as usize - 1].iter().enumerate() {
            if made {
                reached[s + x as usize] = true;
            }
        }
    }
    let mut ranges: Vec<std::ops::RangeInclusive<u32>> = Vec::new();
    for s in (0..=most as u32).filter(|&s| reached[s as usize]) {
        match ranges.last_mut() {
            Some(last) if *last.end() + 1 == s => *last = *last.start()..=s,
            _ => ranges.push(s..=s),
        }
    }
    ranges
}

/// Whether some filling of `empty` (in `grid`, which is restored) keeps the constraint. A
/// partial filling its bounds already break is not filled further: a five-cell cage with a high
/// sum is otherwise tried tens of thousands of ways before the first that fits.
fn any_completion(constraint: &Constraint, size: Size, grid: &mut [u8], empty: &[u16]) -> bool {
    let Some((&cell, rest)) = empty.split_first() else {
        return constraint.satisfied(size, grid);
    };
    for digit in 1..=size.side() as u8 {
        grid[cell as usize] = digit;
        if constraint.broken_by_bounds(size, grid) {
            continue;
        }
        if any_completion(constraint, size, grid, rest) {
            grid[cell as usize] = 0;
            return true;
        }
    }
    grid[cell as usize] = 0;
    false
}

impl Rules {
    /// The pairs of filled cells that break a rule of the whole grid: (the constraint's index,
    /// the two cells). Anti-king names diagonal neighbours only: orthogonal ones share a row or
    /// column, whose repeat is found anyway.
    pub fn broken_pairs(&self, size: Size, grid: &[u8]) -> Vec<(usize, u16, u16)> {
        let mut broken = Vec::new();
        for (index, constraint) in self.constraints.iter().enumerate() {
            let moves: &[(i32, i32)] = match constraint.kind {
                Kind::AntiKnight => &[(1, 2), (2, 1), (1, -2), (2, -1)],
                Kind::AntiKing => &[(1, 1), (1, -1)],
                Kind::NonConsecutive | Kind::Negative { .. } => &[(0, 1), (1, 0)],
                _ => continue,
            };
            for (a, b) in pairs(size, moves) {
                let (x, y) = (grid[a as usize], grid[b as usize]);
                if x != 0 && y != 0 && !self.pair_keeps(index, a, b, x, y) {
                    broken.push((index, a, b));
                }
            }
        }
        broken
    }

    /// Whether digits `x` in `a` and `y` in `b` keep global rule `index`.
    fn pair_keeps(&self, index: usize, a: u16, b: u16, x: u8, y: u8) -> bool {
        match self.constraints[index].kind {
            Kind::AntiKnight | Kind::AntiKing => x != y,
            Kind::NonConsecutive => {
                x.abs_diff(y) != 1
                    || self.dot_between(a, b, |dot, value| dot == Dot::White && value == 1)
            }
            Kind::Negative { kinds } => {
                let listed = |dot: Dot| kinds & dot.bit() != 0;
                self.dot_between(a, b, |dot, _| listed(dot))
                    || Dot::ALL
                        .into_iter()
                        .filter(|&dot| listed(dot))
                        .all(|dot| !dot.holds(dot.default_value(), x, y))
            }
            _ => true,
        }
    }

    /// Whether a dot that `wanted` accepts stands between `a` and `b`.
    pub fn dot_between(&self, a: u16, b: u16, wanted: impl Fn(Dot, u32) -> bool) -> bool {
        self.constraints.iter().any(|c| match c.kind {
            Kind::Dot { dot, value, cells } => {
                (cells == [a, b] || cells == [b, a]) && wanted(dot, value)
            }
            _ => false,
        })
    }
}

/// Every pair of cells `(a, b)` with `b` one of `moves` (row, column steps) from `a`.
pub(crate) fn pairs(size: Size, moves: &[(i32, i32)]) -> impl Iterator<Item = (u16, u16)> + '_ {
    let n = size.side() as i32;
    (0..n * n).flat_map(move |a| {
        let (r, c) = (a / n, a % n);
        moves.iter().filter_map(move |&(dr, dc)| {
            let (r2, c2) = (r + dr, c + dc);
            ((0..n).contains(&r2) && (0..n).contains(&c2))
                .then_some((a as u16, (r2 * n + c2) as u16))
        })
    })
}

/// The cells beside `cell` (up, down, left, right) inside the grid.
pub fn orthogonal_neighbours(size: Size, cell: u16) -> impl Iterator<Item = u16> {
    let n = size.side() as i32;
    let (r, c) = (cell as i32 / n, cell as i32 % n);
    [(-1, 0), (1, 0), (0, -1), (0, 1)]
        .into_iter()
        .filter_map(move |(dr, dc)| {
            let (r2, c2) = (r + dr, c + dc);
            ((0..n).contains(&r2) && (0..n).contains(&c2)).then_some((r2 * n + c2) as u16)
        })
}

/// The cells an indexer cell indexes, in order: its column (a row indexer: row 1 first), its
/// row (a column indexer) or its box in reading order (a box indexer).
pub fn indexed_cells(size: Size, index: Index, cell: u16) -> impl Iterator<Item = u16> {
    let n = size.side();
    let (r, c) = (cell as usize / n, cell as usize % n);
    let (br, bc) = (size.box_rows(), size.box_cols());
    let (top, left) = (r / br * br, c / bc * bc);
    (0..n).map(move |i| {
        let (row, col) = match index {
            Index::Row => (i, c),
            Index::Column => (r, i),
            Index::Box => (top + i / bc, left + i % bc),
        };
        (row * n + col) as u16
    })
}

/// The digits of some cells, in their order: on the stack when there are few. A constraint is
/// checked once for each filling `any_completion` tries, and allocating a list each time was
/// most of that (5 ms of an arrow puzzle's analysis, the editor's first look among it).
struct CellDigits {
    inline: [u32; INLINE_DIGITS],
    len: usize,
    more: Vec<u32>,
}

/// How many digits [`CellDigits`] keeps on the stack: a house of a 16×16.
const INLINE_DIGITS: usize = 16;

impl CellDigits {
    fn read(grid: &[u8], cells: &[u16]) -> CellDigits {
        let mut digits = CellDigits {
            inline: [0; INLINE_DIGITS],
            len: cells.len(),
            more: Vec::new(),
        };
        if cells.len() <= INLINE_DIGITS {
            for (slot, &c) in digits.inline.iter_mut().zip(cells) {
                *slot = grid[c as usize] as u32;
            }
        } else {
            digits.more = cells.iter().map(|&c| grid[c as usize] as u32).collect();
        }
        digits
    }
}

impl std::ops::Deref for CellDigits {
    type Target = [u32];

    fn deref(&self) -> &[u32] {
        if self.len <= INLINE_DIGITS {
            &self.inline[..self.len]
        } else {
            &self.more
        }
    }
}

fn distinct(digits: &[u32]) -> bool {
    let mut seen = 0u64;
    digits.iter().all(|&d| {
        let new = seen & 1 << d == 0;
        seen |= 1 << d;
        new
    })
}

/// Digits read as a decimal number, the first leading.
fn number(digits: &[u32]) -> u32 {
    digits.iter().fold(0, |acc, &d| acc * 10 + d)
}

/// A zipper: pairs equally far from the centre sum alike, and to the centre cell if any.
fn zipper(d: &[u32]) -> bool {
    let len = d.len();
    let mut sums = (0..len / 2).map(|i| d[i] + d[len - 1 - i]);
    let first = if len % 2 == 1 {
        Some(d[len / 2])
    } else {
        sums.next()
    };
    sums.all(|s| Some(s) == first)
}

/// The sum of the digits between the 1 and the N, if both are there.
fn sandwich(d: &[u32], n: u32) -> Option<u32> {
    let one = d.iter().position(|&x| x == 1)?;
    let top = d.iter().position(|&x| x == n)?;
    let (a, b) = (one.min(top), one.max(top));
    Some(d[a + 1..b].iter().sum())
}

/// How many digits are higher than every digit before them.
fn seen(d: &[u32]) -> u32 {
    let mut highest = 0;
    d.iter()
        .filter(|&&x| {
            let new = x > highest;
            highest = highest.max(x);
            new
        })
        .count() as u32
}

/// Cells at most two apart along the line fall in different classes.
fn near_differ(d: &[u32], class: impl Fn(u32) -> u32) -> bool {
    (0..d.len()).all(|i| (i + 1..d.len().min(i + 3)).all(|j| class(d[i]) != class(d[j])))
}
