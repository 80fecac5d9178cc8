//! The dedicated 9×9 solver against the shared puzzle sets (when present) and against a plain
//! reference backtracker on generated puzzles (always).

use crate::common;

use std::sync::atomic::AtomicBool;

use sudoku_lsp::engine::fast9::{self, Fast9Outcome, Fast9Stop};

const MAX_NODES: u64 = 10_000_000;

/// A valid solved grid to start generated tests from.
const SOLVED: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

const DIAGONAL_PUZZLE: &str =
    "2.............62....1....7...6..8...3...9...7...6..4...4....8....52.............3";

fn grid(text: &str) -> [u8; 81] {
    fast9::parse_line(text.as_bytes()).expect("test grid parses")
}

fn solve(givens: &[u8; 81], diagonal: bool, limit: usize) -> Fast9Outcome {
    fast9::solve(givens, diagonal, limit, MAX_NODES, None)
}

// ---------------------------------------------------------------------------------------------
// Checks

/// The 27 (or 29) units as cell lists.
fn units(diagonal: bool) -> Vec<Vec<usize>> {
    let mut units = Vec::new();
    for i in 0..9 {
        units.push((0..9).map(|j| 9 * i + j).collect());
        units.push((0..9).map(|j| 9 * j + i).collect());
        let (r, c) = (3 * (i / 3), 3 * (i % 3));
        units.push((0..9).map(|j| 9 * (r + j / 3) + c + j % 3).collect());
    }
    if diagonal {
        units.push((0..9).map(|i| 10 * i).collect());
        units.push((0..9).map(|i| 9 * i + 8 - i).collect());
    }
    units
}

fn assert_valid_solution(solution: &[u8; 81], givens: &[u8; 81], diagonal: bool) {
    for unit in units(diagonal) {
        let mut seen = 0u16;
        for &cell in &unit {
            let d = solution[cell];
            assert!((1..=9).contains(&d), "digit {d} out of range");
            seen |= 1 << d;
        }
        assert_eq!(
            seen, 0x3fe,
            "unit {unit:?} is not a permutation in {solution:?}"
        );
    }
    for (cell, (&g, &s)) in givens.iter().zip(solution).enumerate() {
        assert!(g == 0 || g == s, "given at {cell} changed");
    }
}

// ---------------------------------------------------------------------------------------------
// A plain reference: backtracking on the cell with fewest candidates, counting up to `limit`.

fn reference(givens: &[u8; 81], diagonal: bool, limit: usize) -> Vec<[u8; 81]> {
    let units = units(diagonal);
    let mut cell_units = vec![Vec::new(); 81];
    for (u, unit) in units.iter().enumerate() {
        for &cell in unit {
            cell_units[cell].push(u);
        }
    }
    let mut used = vec![0u16; units.len()];
    for (cell, &d) in givens.iter().enumerate() {
        if d != 0 {
            if d > 9 {
                return Vec::new();
            }
            for &u in &cell_units[cell] {
                if used[u] & (1 << d) != 0 {
                    return Vec::new();
                }
                used[u] |= 1 << d;
            }
        }
    }
    let mut grid = *givens;
    let mut found = Vec::new();
    backtrack(&mut grid, &cell_units, &mut used, limit, &mut found);
    found
}

fn backtrack(
    grid: &mut [u8; 81],
    cell_units: &[Vec<usize>],
    used: &mut [u16],
    limit: usize,
    found: &mut Vec<[u8; 81]>,
) {
    let mut best: Option<(usize, u16)> = None;
    for cell in 0..81 {
        if grid[cell] != 0 {
            continue;
        }
        let taken = cell_units[cell].iter().fold(0, |m, &u| m | used[u]);
        let free = !taken & 0x3fe;
        if best.is_none_or(|(_, f)| free.count_ones() < f.count_ones()) {
            best = Some((cell, free));
        }
    }
    let Some((cell, free)) = best else {
        found.push(*grid);
        return;
    };
    for d in 1..=9u8 {
        if free & (1 << d) == 0 {
            continue;
        }
        grid[cell] = d;
        for &u in &cell_units[cell] {
            used[u] |= 1 << d;
        }
        backtrack(grid, cell_units, used, limit, found);
        for &u in &cell_units[cell] {
            used[u] &= !(1 << d);
        }
        grid[cell] = 0;
        if found.len() >= limit {
            return;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Generated puzzles (no data needed)

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// Rows (or columns) in a random order that keeps bands (stacks) together.
fn band_order(rng: &mut Rng) -> Vec<usize> {
    let mut bands = [0, 1, 2];
    rng.shuffle(&mut bands);
    let mut out = Vec::new();
    for b in bands {
        let mut rows = [0, 1, 2];
        rng.shuffle(&mut rows);
        out.extend(rows.iter().map(|r| 3 * b + r));
    }
    out
}

/// A random grid equivalent to `SOLVED`: digits relabelled, rows within bands, bands, columns
/// within stacks and stacks permuted, maybe transposed.
fn random_solution(rng: &mut Rng) -> [u8; 81] {
    let base = grid(SOLVED);
    let mut digits: Vec<u8> = (1..=9).collect();
    rng.shuffle(&mut digits);
    let rows = band_order(rng);
    let columns = band_order(rng);
    let transpose = rng.below(2) == 1;
    let mut out = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            let (sr, sc) = if transpose {
                (columns[c], rows[r])
            } else {
                (rows[r], columns[c])
            };
            out[9 * r + c] = digits[usize::from(base[9 * sr + sc]) - 1];
        }
    }
    out
}

fn blank(rng: &mut Rng, solution: &[u8; 81], keep: usize) -> [u8; 81] {
    let mut cells: Vec<usize> = (0..81).collect();
    rng.shuffle(&mut cells);
    let mut puzzle = [0u8; 81];
    for &cell in &cells[..keep] {
        puzzle[cell] = solution[cell];
    }
    puzzle
}

fn assert_same_as_reference(givens: &[u8; 81], diagonal: bool) {
    let expected = reference(givens, diagonal, 2);
    let got = solve(givens, diagonal, 2);
    assert_eq!(got.stop, None);
    assert_eq!(got.count, expected.len(), "count differs for {givens:?}");
    for solution in &got.solutions[..got.count] {
        assert_valid_solution(solution, givens, diagonal);
    }
    if got.count == 2 {
        assert_ne!(got.solutions[0], got.solutions[1]);
    }
    if expected.len() == 1 {
        assert_eq!(got.solutions[0], expected[0]);
    }
}

#[test]
fn generated_classic_puzzles_match_the_reference() {
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    for round in 0..300 {
        let solution = random_solution(&mut rng);
        let keep = 17 + round % 40;
        let puzzle = blank(&mut rng, &solution, keep);
        assert_same_as_reference(&puzzle, false);
        let got = solve(&puzzle, false, 1);
        assert_eq!(
            got.count, 1,
            "a blanked solution keeps at least one solution"
        );
    }
}

/// `puzzle` with one given changed to another digit that no peer given holds: usually no
/// solution is left, found without a direct conflict. The reference stays quick because the
/// puzzle keeps many givens.
fn with_a_wrong_given(rng: &mut Rng, puzzle: &mut [u8; 81], diagonal: bool) {
    let units = units(diagonal);
    let givens: Vec<usize> = (0..81).filter(|&c| puzzle[c] != 0).collect();
    let cell = givens[rng.below(givens.len())];
    let seen = units
        .iter()
        .filter(|u| u.contains(&cell))
        .flatten()
        .fold(0u16, |m, &c| m | 1 << puzzle[c]);
    let free: Vec<u8> = (1..=9).filter(|&d| seen & (1 << d) == 0).collect();
    if !free.is_empty() {
        puzzle[cell] = free[rng.below(free.len())];
    }
}

#[test]
fn puzzles_with_a_wrong_given_match_the_reference() {
    let mut rng = Rng(0x0dd_ba11_0000_0007);
    let mut counts = [0usize; 3];
    for round in 0..300 {
        let solution = random_solution(&mut rng);
        let mut puzzle = blank(&mut rng, &solution, 26 + round % 20);
        with_a_wrong_given(&mut rng, &mut puzzle, false);
        assert_same_as_reference(&puzzle, false);
        counts[solve(&puzzle, false, 2).count] += 1;
    }
    assert!(counts[0] > 0, "no-solution verdict exercised: {counts:?}");
}

#[test]
fn generated_diagonal_puzzles_match_the_reference() {
    let mut rng = Rng(0xd1a6_0000_0000_0042);
    let mut counts = [0usize; 3];
    for round in 0..200 {
        let mut puzzle = [0u8; 81];
        for _ in 0..(8 + round % 12) {
            puzzle[rng.below(81)] = rng.below(9) as u8 + 1;
        }
        let first = solve(&puzzle, true, 1);
        if first.count == 0 {
            continue; // the reference would take long to prove that
        }
        // Blank a diagonal solution down to a puzzle with one or several solutions, and
        // sometimes spoil a given to get none.
        puzzle = blank(&mut rng, &first.solutions[0], 18 + round % 30);
        if round % 3 == 0 {
            puzzle = blank(&mut rng, &first.solutions[0], 30 + round % 15);
            with_a_wrong_given(&mut rng, &mut puzzle, true);
        }
        assert_same_as_reference(&puzzle, true);
        counts[solve(&puzzle, true, 2).count] += 1;
    }
    assert!(
        counts.iter().all(|&n| n > 0),
        "every verdict exercised: {counts:?}"
    );
}

#[test]
fn the_generator_makes_unique_puzzles() {
    for puzzle in fast9::generate(20, 7) {
        assert_eq!(reference(&puzzle, false, 2).len(), 1);
        assert_same_as_reference(&puzzle, false);
    }
}

#[test]
fn the_empty_grid_has_several_solutions() {
    for diagonal in [false, true] {
        let got = solve(&[0; 81], diagonal, 2);
        assert_eq!((got.count, got.stop), (2, None));
        for solution in &got.solutions {
            assert_valid_solution(solution, &[0; 81], diagonal);
        }
        assert_ne!(got.solutions[0], got.solutions[1]);
        assert_eq!(solve(&[0; 81], diagonal, 1).count, 1);
    }
}

#[test]
fn a_solved_grid_is_its_own_unique_solution() {
    let solved = grid(SOLVED);
    let got = solve(&solved, false, 2);
    assert_eq!(got.count, 1);
    assert_eq!(got.solutions[0], solved);
}

#[test]
fn direct_conflicts_give_no_solution() {
    let cases: [(usize, usize, bool); 5] = [
        (0, 8, false),  // row A
        (0, 72, false), // column 1
        (0, 20, false), // box 1
        (0, 80, true),  // main diagonal
        (8, 72, true),  // anti-diagonal
    ];
    for (a, b, diagonal) in cases {
        let mut puzzle = [0u8; 81];
        puzzle[a] = 5;
        puzzle[b] = 5;
        let got = solve(&puzzle, diagonal, 2);
        assert_eq!((got.count, got.stop), (0, None), "cells {a} and {b}");
    }
    // The same digit twice on a diagonal is fine in classic sudoku.
    let mut puzzle = [0u8; 81];
    puzzle[0] = 5;
    puzzle[80] = 5;
    assert_eq!(solve(&puzzle, false, 2).count, 2);
}

#[test]
fn out_of_range_givens_give_no_solution() {
    let mut puzzle = [0u8; 81];
    puzzle[3] = 10;
    assert_eq!(solve(&puzzle, false, 2).count, 0);
}

#[test]
fn the_diagonal_puzzle_has_one_solution_on_both_diagonals() {
    let givens = grid(DIAGONAL_PUZZLE);
    let got = solve(&givens, true, 2);
    assert_eq!((got.count, got.stop), (1, None));
    assert_valid_solution(&got.solutions[0], &givens, true);
    let expected = reference(&givens, true, 2);
    assert_eq!(expected.len(), 1);
    assert_eq!(expected[0], got.solutions[0]);
}

#[test]
fn the_node_budget_and_the_cancel_flag_stop_the_search() {
    let got = fast9::solve(&[0; 81], false, 2, 1, None);
    assert_eq!((got.count, got.stop), (0, Some(Fast9Stop::Nodes)));
    let cancel = AtomicBool::new(true);
    let got = fast9::solve(&[0; 81], false, 2, MAX_NODES, Some(&cancel));
    assert_eq!((got.count, got.stop), (0, Some(Fast9Stop::Cancelled)));
    let go = AtomicBool::new(false);
    assert_eq!(
        fast9::solve(&[0; 81], false, 2, MAX_NODES, Some(&go)).count,
        2
    );
}

#[test]
fn parse_line_reads_81_cells() {
    let line = format!("{}rest ignored", DIAGONAL_PUZZLE.replace('.', "0"));
    assert_eq!(
        fast9::parse_line(line.as_bytes()),
        Some(grid(DIAGONAL_PUZZLE))
    );
    let underscores = DIAGONAL_PUZZLE.replace('.', "_");
    assert_eq!(
        fast9::parse_line(underscores.as_bytes()),
        Some(grid(DIAGONAL_PUZZLE))
    );
    assert_eq!(fast9::parse_line(&DIAGONAL_PUZZLE.as_bytes()[..80]), None);
    let bad = DIAGONAL_PUZZLE.replacen('.', "x", 1);
    assert_eq!(fast9::parse_line(bad.as_bytes()), None);
    assert_eq!(fast9::parse_line(b""), None);
}

// ---------------------------------------------------------------------------------------------
// Shared sets (skipped with a message when the data directory is missing)

/// Puzzle lines of a set, every 10th in debug builds (slow there: test a sample).
fn puzzles(name: &str) -> Option<Vec<[u8; 81]>> {
    puzzles_sampled(name, 10)
}

/// Puzzle lines of a set, every `debug_step`-th in debug builds.
fn puzzles_sampled(name: &str, debug_step: usize) -> Option<Vec<[u8; 81]>> {
    let text = common::shared_file(name)?;
    let step = if cfg!(debug_assertions) {
        debug_step
    } else {
        1
    };
    let all: Vec<[u8; 81]> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| fast9::parse_line(l.as_bytes()).expect("puzzle line parses"))
        .collect();
    Some(all.into_iter().step_by(step).collect())
}

fn assert_all_unique(name: &str, debug_step: usize) {
    let Some(set) = puzzles_sampled(name, debug_step) else {
        return;
    };
    for (i, givens) in set.iter().enumerate() {
        let got = solve(givens, false, 2);
        assert_eq!(
            (got.count, got.stop),
            (1, None),
            "{name} puzzle #{i} (sampled)"
        );
        assert_valid_solution(&got.solutions[0], givens, false);
    }
}

#[test]
fn sudoku17_solves_uniquely_to_the_listed_solutions() {
    let (Some(set), Some(solutions)) = (puzzles("sudoku17.txt"), puzzles("sudoku17.solutions.txt"))
    else {
        return;
    };
    assert_eq!(set.len(), solutions.len());
    for (i, (givens, expected)) in set.iter().zip(&solutions).enumerate() {
        let got = solve(givens, false, 2);
        assert_eq!((got.count, got.stop), (1, None), "sudoku17 #{i} (sampled)");
        assert_eq!(&got.solutions[0], expected, "sudoku17 #{i} (sampled)");
    }
}

#[test]
fn serg_multi_solution_puzzles_have_several() {
    let Some(set) = puzzles("serg_multi_solution_10000.txt") else {
        return;
    };
    for (i, givens) in set.iter().enumerate() {
        let got = solve(givens, false, 2);
        assert_eq!((got.count, got.stop), (2, None), "serg #{i} (sampled)");
        assert_ne!(got.solutions[0], got.solutions[1]);
        for solution in &got.solutions {
            assert_valid_solution(solution, givens, false);
        }
    }
}

#[test]
fn top95_top1465_and_norvig_are_unique() {
    assert_all_unique("top95.txt", 1);
    assert_all_unique("top1465.txt", 10);
    assert_all_unique("norvig_hardest.txt", 1);
}

#[test]
fn forum_hardest_1106_is_unique() {
    assert_all_unique("forum_hardest_1106.txt", 10);
}

#[test]
fn forum_hardest_1905_is_unique() {
    assert_all_unique("forum_hardest_1905_11plus.txt", 100);
}
