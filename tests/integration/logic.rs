//! The human-style solver: every step sound (placements are the solution's digits, no
//! elimination removes one) on the shared collections and on generated puzzles of every size and
//! both variants; singles and subsets on units other than the classic 9×9's.

use crate::common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use proptest::prelude::*;
use sudoku_lsp::analysis::{analyze, Verdict};
use sudoku_lsp::engine::{fast9, Budget};
use sudoku_lsp::grid::{geometry, Size, Variant};
use sudoku_lsp::logic::{self, Outcome, Path};

/// Walks the path of `givens` and checks every step against the unique solution; the path.
fn check_sound(size: Size, variant: Variant, givens: &[u8], seconds: u64) -> Path {
    let Verdict::Unique(solution) = analyze(size, variant, givens, &Budget::unlimited()).verdict
    else {
        panic!("not a unique puzzle: {givens:?}");
    };
    let geo = geometry(size, variant);
    let budget = Budget {
        deadline: Some(Instant::now() + Duration::from_secs(seconds)),
        ..Budget::default()
    };
    let path = logic::solve_path(geo, givens, &budget);
    for (i, step) in path.steps.iter().enumerate() {
        for p in &step.placements {
            assert_eq!(
                solution[p.cell as usize],
                p.digit,
                "step {} places a wrong digit: {}\n{givens:?}",
                i + 1,
                step.text
            );
        }
        for e in &step.eliminations {
            assert_ne!(
                solution[e.cell as usize],
                e.digit,
                "step {} eliminates the solution's digit {} from {}: {}\n{givens:?}",
                i + 1,
                e.digit,
                geo.cell_name(e.cell as usize),
                step.text
            );
        }
        assert!(step.is_productive(), "step {} changes nothing", i + 1);
    }
    assert_ne!(path.outcome, Outcome::Broken, "a unique puzzle broke");
    if path.outcome == Outcome::Solved {
        assert_eq!(path.values, solution, "solved to another grid");
    }
    path
}

fn digits_of(line: &str) -> Vec<u8> {
    line.bytes()
        .take(81)
        .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
        .collect()
}

/// Every `step`th puzzle of a shared collection, at most `limit`.
fn sample(file: &str, step: usize, limit: usize) -> Option<Vec<Vec<u8>>> {
    let text = common::shared_file(file)?;
    let lines = text
        .lines()
        .filter(|l| l.len() >= 81 && !l.starts_with('#'));
    Some(lines.step_by(step).take(limit).map(digits_of).collect())
}

/// Every puzzle of the 17-clue collection and of Norvig's, every other one of top1465, and a
/// few of the two hardest collections (whose paths take seconds each): thousands of puzzles,
/// each step checked, on every core.
#[test]
fn every_step_is_sound_on_the_shared_collections() {
    for (file, step) in [
        ("sudoku17.txt", 1),
        ("top1465.txt", 2),
        ("top95.txt", 1),
        ("norvig_hardest.txt", 1),
        ("forum_hardest_1106.txt", 94),
        ("forum_hardest_1905_11plus.txt", 12192),
    ] {
        let Some(puzzles) = sample(file, step, usize::MAX) else {
            continue;
        };
        let started = Instant::now();
        let next = AtomicUsize::new(0);
        let solved = AtomicUsize::new(0);
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| {
                    while let Some(givens) = puzzles.get(next.fetch_add(1, Ordering::Relaxed)) {
                        let path = check_sound(Size::NINE, Variant::Classic, givens, 10);
                        if path.outcome == Outcome::Solved {
                            solved.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                });
            }
        });
        eprintln!(
            "{file}: {} puzzles sound, {} solved to the end, in {:.1} s",
            puzzles.len(),
            solved.load(Ordering::Relaxed),
            started.elapsed().as_secs_f64()
        );
    }
}

/// A random grid of `size`: the pattern solution `(r·bc + r/br + c) mod n`, its digits, rows and
/// columns shuffled within their bands and stacks, then cells emptied while the puzzle stays
/// unique.
fn generated(size: Size, seed: u64) -> Vec<u8> {
    let mut rng = fast9::XorShift::new(seed);
    let (n, br, bc) = (size.side(), size.box_rows(), size.box_cols());
    let mut digits: Vec<u8> = (1..=n as u8).collect();
    rng.shuffle(&mut digits);
    let mut rows: Vec<usize> = (0..n).collect();
    for band in rows.chunks_mut(br) {
        rng.shuffle(band);
    }
    let mut columns: Vec<usize> = (0..n).collect();
    for stack in columns.chunks_mut(bc) {
        rng.shuffle(stack);
    }
    let mut grid: Vec<u8> = (0..n * n)
        .map(|i| {
            let (r, c) = (rows[i / n], columns[i % n]);
            digits[(r * bc + r / br + c) % n]
        })
        .collect();
    let geo = geometry(size, Variant::Classic);
    let mut order: Vec<usize> = (0..n * n).collect();
    rng.shuffle(&mut order);
    // Emptying every cell would take long on the large grids: try two thirds of them at most,
    // a third on 25×25, where a sparse grid's uniqueness check is a long search.
    let tries = if n > 16 { n * n / 3 } else { n * n * 2 / 3 };
    for &cell in order.iter().take(tries) {
        let digit = grid[cell];
        grid[cell] = 0;
        let budget = Budget {
            max_nodes: Some(2_000),
            ..Budget::default()
        };
        let outcome = sudoku_lsp::engine::search(geo, &grid, 2, &budget);
        if outcome.solutions.len() != 1 || outcome.stop.is_some() {
            grid[cell] = digit;
        }
    }
    grid
}

#[test]
fn every_size_solves_soundly() {
    for size in Size::ALL {
        for seed in 1..=3 {
            let started = Instant::now();
            let givens = generated(size, seed);
            let made = started.elapsed();
            let path = check_sound(size, Variant::Classic, &givens, 20);
            eprintln!(
                "{} seed {seed}: made in {made:?}, {} steps in {:?}",
                size.label(),
                path.steps.len(),
                started.elapsed() - made
            );
            assert!(
                !path.steps.is_empty(),
                "{} seed {seed}: no step",
                size.label()
            );
        }
    }
}

#[test]
fn diagonal_puzzles_solve_soundly_and_use_the_diagonals() {
    let mut rng = fast9::XorShift::new(7);
    let mut used_diagonal = false;
    for _ in 0..20 {
        let solution = fast9::random_solution(&mut rng, true);
        let puzzle = fast9::minimal_puzzle(&mut rng, &solution, true);
        let path = check_sound(Size::NINE, Variant::Diagonal, &puzzle, 20);
        used_diagonal |= path.steps.iter().any(|s| s.text.contains("diagonal"));
    }
    assert!(
        used_diagonal,
        "no step of 20 diagonal puzzles named a diagonal"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Generated minimal puzzles, classic and diagonal: every step sound.
    #[test]
    fn generated_puzzles_are_solved_soundly(seed in any::<u64>(), diagonal in any::<bool>()) {
        let mut rng = fast9::XorShift::new(seed);
        let solution = fast9::random_solution(&mut rng, diagonal);
        let puzzle = fast9::minimal_puzzle(&mut rng, &solution, diagonal);
        let variant = if diagonal { Variant::Diagonal } else { Variant::Classic };
        check_sound(Size::NINE, variant, &puzzle, 20);
    }
}
