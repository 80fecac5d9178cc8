//! Puzzles built for the engine's tests and benchmarks: solved grids of any size and variant,
//! puzzles with one solution (givens removed while the engine says unique), and puzzles with
//! none (a wrong given, or a row whose open cells break the pigeonhole principle).
//!
//! Shared by `tests/integration/engine.rs` and `benches/engine.rs` (through `#[path]`).
#![allow(dead_code)] // each user takes a different part

use sudoku_lsp::engine::{pencil_marks, search, Budget, Digits};
use sudoku_lsp::grid::{char_digit, digit_char, Geometry, Size, Variant};

/// A solved classic grid of any size: a shifted pattern, then digits relabelled and rows and
/// columns shuffled within their bands and stacks, which keeps every unit whole.
pub fn solved_grid(size: Size, seed: u64) -> Vec<u8> {
    let (n, br, bc) = (size.side(), size.box_rows(), size.box_cols());
    let mut rng = seed | 1;
    let mut next = move |bound: usize| {
        // xorshift64: enough randomness to shuffle a grid
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % bound as u64) as usize
    };
    let mut labels: Vec<u8> = (1..=n as u8).collect();
    for i in (1..n).rev() {
        labels.swap(i, next(i + 1));
    }
    let mut rows: Vec<usize> = (0..n).collect();
    for band in 0..n / br {
        for i in (1..br).rev() {
            rows.swap(band * br + i, band * br + next(i + 1));
        }
    }
    let mut cols: Vec<usize> = (0..n).collect();
    for stack in 0..n / bc {
        for i in (1..bc).rev() {
            cols.swap(stack * bc + i, stack * bc + next(i + 1));
        }
    }
    let mut grid = vec![0; n * n];
    for r in 0..n {
        for c in 0..n {
            let (pr, pc) = (rows[r], cols[c]);
            let value = (bc * (pr % br) + pr / br + pc) % n;
            grid[r * n + c] = labels[value];
        }
    }
    grid
}

pub fn puzzle_from(solution: &[u8], keep_percent: u64, seed: u64) -> Vec<u8> {
    let mut rng = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407)
        | 1;
    solution
        .iter()
        .map(|&d| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            if rng % 100 < keep_percent {
                d
            } else {
                0
            }
        })
        .collect()
}

/// xorshift64: enough randomness to pick cells and digits.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % bound as u64) as usize
    }
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// A solved grid of the geometry's size and variant. Classic ones come from `solved_grid`; a
/// diagonal one is the engine's solution of the empty grid with its digits relabelled, which
/// keeps every unit, diagonals included, whole.
pub fn solved(g: &Geometry, seed: u64) -> Vec<u8> {
    if g.variant == Variant::Classic {
        return solved_grid(g.size, seed);
    }
    let empty = vec![0; g.cells()];
    let outcome = search(g, &empty, 1, &Budget::unlimited());
    let mut labels: Vec<u8> = (1..=g.side() as u8).collect();
    Rng::new(seed).shuffle(&mut labels);
    outcome.solutions[0]
        .iter()
        .map(|&d| labels[d as usize - 1])
        .collect()
}

/// Exactly one solution, within `max_nodes`.
pub fn is_unique(g: &Geometry, givens: &[u8], max_nodes: u64) -> bool {
    let budget = Budget {
        max_nodes: Some(max_nodes),
        ..Budget::default()
    };
    let outcome = search(g, givens, 2, &budget);
    outcome.stop.is_none() && outcome.solutions.len() == 1
}

/// A puzzle whose only solution is `solution`: from `keep_percent` of its cells, givens are taken
/// out one by one in random order while the engine still finds one solution within `max_nodes`.
pub fn unique_puzzle(
    g: &Geometry,
    solution: &[u8],
    keep_percent: u64,
    max_nodes: u64,
    seed: u64,
) -> Vec<u8> {
    let mut givens = puzzle_from(solution, keep_percent, seed);
    // Some kept fraction may leave several solutions: fill cells back until it is unique.
    let mut order: Vec<usize> = (0..g.cells()).collect();
    Rng::new(seed).shuffle(&mut order);
    for &cell in &order {
        if is_unique(g, &givens, max_nodes) {
            break;
        }
        givens[cell] = solution[cell];
    }
    for &cell in &order {
        if givens[cell] == 0 {
            continue;
        }
        givens[cell] = 0;
        if !is_unique(g, &givens, max_nodes) {
            givens[cell] = solution[cell];
        }
    }
    givens
}

/// Neither a conflict nor anything pencil marks show: no empty cell, every digit with a place.
pub fn looks_fine(g: &Geometry, givens: &[u8]) -> bool {
    let marks = pencil_marks(g, givens);
    let full = Digits::all(g.side());
    g.units.iter().all(|unit| {
        let mut seen = Digits::EMPTY;
        let mut fits = Digits::EMPTY;
        for &c in unit.cells.iter() {
            let c = c as usize;
            if givens[c] != 0 {
                if seen.contains(givens[c]) {
                    return false;
                }
                seen.insert(givens[c]);
            } else if marks.candidates[c].is_empty() {
                return false;
            } else {
                fits = fits | marks.candidates[c];
            }
        }
        seen | fits == full
    })
}

/// `unique` (one solution, `solution`) with one empty cell given a digit other than its
/// solution's that pencil marks allow: a solution of the result would be a second solution of
/// `unique`, so there is none, though nothing shows at a glance.
pub fn wrong_given(g: &Geometry, unique: &[u8], solution: &[u8], seed: u64) -> Option<Vec<u8>> {
    let marks = pencil_marks(g, unique);
    let mut cells: Vec<usize> = (0..g.cells()).filter(|&c| unique[c] == 0).collect();
    Rng::new(seed).shuffle(&mut cells);
    for cell in cells {
        for digit in marks.candidates[cell].iter() {
            let mut givens = unique.to_vec();
            givens[cell] = digit;
            if digit != solution[cell] && looks_fine(g, &givens) {
                return Some(givens);
            }
        }
    }
    None
}

/// The 25×25: row A is empty, and 13 of its cells can together take only 12 digits
/// (every digit outside those 12 is given in their columns or boxes), so there is no solution;
/// yet no cell is empty and every digit has a place. Also returns the 13 cells.
///
/// From a solved grid, `keep_percent` of the givens outside row A are kept. Of row A's 13
/// cells, `x` is the digit of the first: the other 12 lose it to a true given in their column,
/// and the first to a wrong given `x` in its box (in row B, at a cell whose true digit is among
/// the 12 so that no exclusion is lost). The true `x` of row B and of that column are emptied.
pub fn pigeonhole_row(size: Size, keep_percent: u64, seed: u64) -> Option<(Vec<u8>, Vec<usize>)> {
    let (n, bc) = (size.side(), size.box_cols());
    let grid = solved_grid(size, seed);
    let at = |r: usize, c: usize| grid[r * n + c];
    let column_of = |r: usize, digit: u8| (0..n).find(|&c| at(r, c) == digit);
    let mut rng = Rng::new(seed);
    let first = rng.below(n);
    let x = at(0, first);
    let stack: Vec<usize> = (first / bc * bc..first / bc * bc + bc).collect();
    // The wrong given goes to row B (1), in the first cell's box, at a column `wrong`.
    let wrong = *stack.iter().find(|&&c| c != first)?;
    let y = at(1, wrong);
    let x_in_b = column_of(1, x)?;
    let y_in_a = column_of(0, y)?;
    if x_in_b == y_in_a {
        return None;
    }
    // The 13 cells: the first cell's stack, y's column, then others, never x's column in row B.
    let mut others: Vec<usize> = (0..n)
        .filter(|c| !stack.contains(c) && *c != y_in_a && *c != x_in_b)
        .collect();
    rng.shuffle(&mut others);
    let mut crowded = stack.clone();
    crowded.push(y_in_a);
    crowded.extend(others.into_iter().take(13 - crowded.len()));
    let allowed: Digits =
        crowded
            .iter()
            .map(|&c| at(0, c))
            .filter(|&d| d != x)
            .fold(Digits::EMPTY, |mut s, d| {
                s.insert(d);
                s
            });
    let mut givens = puzzle_from(&grid, keep_percent, seed);
    givens[..n].fill(0);
    for &c in &crowded {
        for r in 1..n {
            if !allowed.contains(at(r, c)) {
                givens[r * n + c] = at(r, c);
            }
        }
    }
    givens[n + wrong] = x;
    givens[n + x_in_b] = 0;
    let x_in_wrong_column = (0..n).find(|&r| at(r, wrong) == x)?;
    givens[x_in_wrong_column * n + wrong] = 0;
    Some((givens, crowded))
}

/// A grid on one line: digits as in `.sudoku` files (`A` for 10…), `.` for an empty cell.
pub fn line_of(grid: &[u8]) -> String {
    grid.iter()
        .map(|&d| if d == 0 { '.' } else { digit_char(d) })
        .collect()
}

/// The grid of a line written by `line_of`.
pub fn grid_of(line: &str) -> Vec<u8> {
    line.chars().map(|c| char_digit(c).unwrap_or(0)).collect()
}
