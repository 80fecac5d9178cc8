//! The dedicated 9×9 solver against the general engine, which stays the reference: the same
//! number of solutions (up to two) and, when there is one, the same solution.
//!
//! Generated puzzles always; the public collections in `../shared/data` too when present.

use crate::common;

use sudoku_lsp::engine::fast9::{self, Tuning};
use sudoku_lsp::engine::{search, Budget};
use sudoku_lsp::grid::{geometry, Geometry, Size, Variant};

fn compare(g: &Geometry, givens: &[u8; 81], what: &str) {
    compare_paths(g, givens, what, &[Tuning::default()]);
}

/// The solver's paths: cell branching only, triads and band-first branching from the start,
/// each on the baseline instruction set and on the newest this CPU has.
fn every_path() -> Vec<Tuning> {
    let mut paths = Vec::new();
    for strong_from in [0, 99] {
        for baseline in [false, true] {
            paths.push(Tuning {
                strong_from,
                baseline,
            });
        }
    }
    paths
}

/// The fast solver on each of `tunings` against one run of the reference.
fn compare_paths(g: &Geometry, givens: &[u8; 81], what: &str, tunings: &[Tuning]) {
    let reference = search(g, givens, 2, &Budget::unlimited());
    let diagonal = g.variant == Variant::Diagonal;
    for &tuning in tunings {
        let fast = fast9::solve_tuned(givens, diagonal, 2, u64::MAX, None, tuning);
        let what = &format!("{what} ({tuning:?})");
        assert_eq!(
            fast.count,
            reference.solutions.len(),
            "{what}: solution counts differ"
        );
        if fast.count == 1 {
            assert_eq!(
                fast.solutions[0].to_vec(),
                reference.solutions[0],
                "{what}: solutions differ"
            );
        }
        for solution in &fast.solutions[..fast.count] {
            assert_valid(g, givens, solution, what);
        }
    }
}

fn assert_valid(g: &Geometry, givens: &[u8; 81], solution: &[u8; 81], what: &str) {
    for cell in 0..81 {
        assert!(
            givens[cell] == 0 || givens[cell] == solution[cell],
            "{what}: a given changed"
        );
    }
    for unit in &g.units {
        let seen = unit
            .cells
            .iter()
            .fold(0u32, |m, &c| m | 1 << solution[c as usize]);
        assert_eq!(seen, 0b11_1111_1110, "{what}: a unit is not a permutation");
    }
}

#[test]
fn generated_puzzles_agree_classic_and_diagonal() {
    let classic = geometry(Size::NINE, Variant::Classic);
    let diagonal = geometry(Size::NINE, Variant::Diagonal);
    for (i, puzzle) in fast9::generate(1500, 0x5eed).iter().enumerate() {
        compare(classic, puzzle, &format!("generated classic #{i}"));
        // The same givens under the diagonal rule: mostly no solution or several, which both
        // solvers must agree on too.
        compare(diagonal, puzzle, &format!("generated as diagonal #{i}"));
    }
}

#[test]
fn every_solver_path_agrees_on_generated_puzzles() {
    let classic = geometry(Size::NINE, Variant::Classic);
    let diagonal = geometry(Size::NINE, Variant::Diagonal);
    let paths = every_path();
    for (i, puzzle) in fast9::generate(200, 0xba5e).iter().enumerate() {
        // Fewer clues make deeper trees, where the branching rules matter.
        let mut thinner = *puzzle;
        for cell in (i % 5..81).step_by(9) {
            thinner[cell] = 0;
        }
        compare_paths(classic, puzzle, &format!("generated #{i}"), &paths);
        compare_paths(classic, &thinner, &format!("thinned #{i}"), &paths);
        compare_paths(diagonal, puzzle, &format!("as diagonal #{i}"), &paths);
    }
}

#[test]
fn puzzles_with_fewer_clues_agree() {
    let classic = geometry(Size::NINE, Variant::Classic);
    for (i, puzzle) in fast9::generate(300, 7).iter().enumerate() {
        // Drop a few clues so several solutions are common.
        let mut thinner = *puzzle;
        let mut dropped = 0;
        for cell in (i % 7..81).step_by(7) {
            if thinner[cell] != 0 && dropped < 3 {
                thinner[cell] = 0;
                dropped += 1;
            }
        }
        compare(classic, &thinner, &format!("thinned #{i}"));
    }
}

#[test]
fn shared_collections_agree() {
    if common::shared_data().is_none() {
        return;
    }
    let classic = geometry(Size::NINE, Variant::Classic);
    // The general engine is the slow one; a stride through each file keeps this a few seconds.
    for (file, stride) in [
        ("sudoku17.txt", 200),
        ("top1465.txt", 10),
        ("forum_hardest_1106.txt", 5),
        ("serg_multi_solution_10000.txt", 50),
        ("top95.txt", 1),
    ] {
        let Some(text) = common::shared_file(file) else {
            continue;
        };
        let puzzles = text.lines().filter_map(|l| fast9::parse_line(l.as_bytes()));
        for (i, puzzle) in puzzles.enumerate().filter(|(i, _)| i % stride == 0) {
            compare(classic, &puzzle, &format!("{file} #{i}"));
        }
    }
}
