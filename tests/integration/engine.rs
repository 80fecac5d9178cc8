//! The engine against worked examples and the properties every propagation and search must keep.

use crate::grids;

use grids::{puzzle_from, solved_grid};
use proptest::prelude::*;
use sudoku_lsp::analysis::{analyze, Verdict, DEFAULT_MAX_NODES};
use sudoku_lsp::engine::{pencil_marks, propagate, search, Budget, Digits};
use sudoku_lsp::grid::{geometry, Geometry, Size, Variant};

fn digits_of(line: &str) -> Vec<u8> {
    line.bytes()
        .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
        .collect()
}

fn candidates_text(candidates: &[Digits]) -> String {
    candidates
        .iter()
        .map(|c| c.iter().map(|d| (b'0' + d) as char).collect::<String>())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The seeds' naked-twins grid: elimination then naked twins, checked against an independent
/// dictionary-of-strings implementation of the same two rules.
#[test]
fn naked_twins_worked_example() {
    let g = geometry(Size::NINE, Variant::Classic);
    let givens = digits_of(
        "1.4.9..68956.18.34..84.695151.....868..6...1264..8..97781923645495.6.823.6.854179",
    );
    let marks = pencil_marks(g, &givens);
    assert_eq!(
        candidates_text(&marks.candidates),
        "1 237 4 2357 9 257 27 6 8 9 5 6 27 1 8 27 3 4 23 237 8 4 37 6 9 5 1 5 1 79 237 347 279 34 8 6 \
         8 3 79 6 347 579 345 1 2 6 4 23 1235 8 125 35 9 7 7 8 1 9 2 3 6 4 5 4 9 5 17 6 17 8 2 3 \
         23 6 23 8 5 4 1 7 9"
    );
}

#[test]
fn pencil_marks_say_why() {
    use sudoku_lsp::engine::Reason;
    let g = geometry(Size::NINE, Variant::Classic);
    let givens = digits_of(
        "1.4.9..68956.18.34..84.695151.....868..6...1264..8..97781923645495.6.823.6.854179",
    );
    let marks = pencil_marks(g, &givens);
    // A2 loses 1 to A1 in row A.
    assert_eq!(marks.reason(1, 1), Some(Reason::Peer { unit: 0, peer: 0 }));
    // Every digit an empty cell lost has a reason, and only those.
    for (cell, &given) in givens.iter().enumerate() {
        for d in 1..=9 {
            if given == 0 {
                assert_eq!(
                    marks.candidates[cell].contains(d),
                    marks.reason(cell, d).is_none()
                );
            }
        }
    }
    let twins = (0..81 * 9)
        .filter(|&i| matches!(marks.why[i], Some(Reason::NakedTwins { .. })))
        .count();
    assert!(twins > 0, "the example is about naked twins");
}

#[test]
fn diagonal_puzzle_has_its_unique_solution() {
    let g = geometry(Size::NINE, Variant::Diagonal);
    let givens = digits_of(
        "2.............62....1....7...6..8...3...9...7...6..4...4....8....52.............3",
    );
    let outcome = search(g, &givens, 2, &Budget::unlimited());
    assert_eq!(outcome.stop, None);
    assert_eq!(outcome.solutions.len(), 1);
    assert_eq!(
        outcome.solutions[0],
        digits_of(
            "267945381853716249491823576576438192384192657129657438642379815935281764718564923"
        )
    );
    assert_valid(g, &givens, &outcome.solutions[0]);
}

#[test]
fn classic_search_counts_several() {
    let g = geometry(Size::NINE, Variant::Classic);
    // The diagonal puzzle read as classic has more than one solution.
    let givens = digits_of(
        "2.............62....1....7...6..8...3...9...7...6..4...4....8....52.............3",
    );
    let outcome = search(g, &givens, 2, &Budget::unlimited());
    assert_eq!(outcome.solutions.len(), 2);
    assert_ne!(outcome.solutions[0], outcome.solutions[1]);
}

#[test]
fn propagation_alone_solves_an_easy_puzzle() {
    let g = geometry(Size::NINE, Variant::Classic);
    let givens = digits_of(
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
    );
    let result = propagate(g, &givens);
    assert_eq!(result.contradiction, None);
    let solved: Vec<u8> = result
        .marks
        .candidates
        .iter()
        .map(|c| c.only().unwrap_or(0))
        .collect();
    assert_eq!(
        solved,
        digits_of(
            "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
        )
    );
    assert_eq!(
        result.placed.len(),
        givens.iter().filter(|&&d| d == 0).count()
    );
}

#[test]
fn budget_stops_the_search() {
    let g = geometry(Size::NINE, Variant::Classic);
    let outcome = search(
        g,
        &[0; 81],
        2,
        &Budget {
            max_nodes: Some(1),
            ..Budget::default()
        },
    );
    assert_eq!(outcome.stop, Some(sudoku_lsp::engine::Stop::Nodes));
    let cancel = std::sync::atomic::AtomicBool::new(true);
    let outcome = search(
        g,
        &[0; 81],
        2,
        &Budget {
            cancel: Some(&cancel),
            ..Budget::default()
        },
    );
    assert_eq!(outcome.stop, Some(sudoku_lsp::engine::Stop::Cancelled));
    assert!(outcome.solutions.is_empty());
}

#[test]
fn empty_grids_of_every_size_and_variant_get_a_solution() {
    for size in Size::ALL {
        for variant in [Variant::Classic, Variant::Diagonal] {
            let g = geometry(size, variant);
            let givens = vec![0; size.cells()];
            let outcome = search(
                g,
                &givens,
                1,
                &Budget {
                    max_nodes: Some(100_000),
                    ..Budget::default()
                },
            );
            assert_eq!(
                outcome.solutions.len(),
                1,
                "{size:?} {variant:?}: {:?}",
                outcome.stop
            );
            assert_valid(g, &givens, &outcome.solutions[0]);
        }
    }
}

#[test]
fn a_direct_conflict_has_no_solution() {
    let g = geometry(Size::NINE, Variant::Classic);
    let mut givens = vec![0; 81];
    givens[0] = 5;
    givens[8] = 5;
    let outcome = search(g, &givens, 2, &Budget::unlimited());
    assert!(outcome.solutions.is_empty());
    assert_eq!(outcome.stop, None);
}

/// Every unit holds every digit once, and the givens are kept.
fn assert_valid(g: &Geometry, givens: &[u8], solution: &[u8]) {
    for (cell, &d) in givens.iter().enumerate() {
        assert!(
            d == 0 || solution[cell] == d,
            "given {d} at {} changed",
            g.cell_name(cell)
        );
    }
    for u in 0..g.units.len() {
        let mut seen = Digits::EMPTY;
        for &c in g.units[u].cells.iter() {
            seen.insert(solution[c as usize]);
        }
        assert_eq!(
            seen,
            Digits::all(g.side()),
            "{} is not a permutation",
            g.unit_name(u)
        );
    }
}

fn small_size() -> impl Strategy<Value = Size> {
    prop::sample::select(vec![Size::ALL[0], Size::ALL[1], Size::ALL[2], Size::ALL[3]])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Every solution satisfies every unit and keeps the givens.
    #[test]
    fn solutions_are_valid(size in small_size(), seed in any::<u64>(), keep in 20u64..80) {
        let g = geometry(size, Variant::Classic);
        let givens = puzzle_from(&solved_grid(size, seed), keep, seed);
        let outcome = search(g, &givens, 2, &Budget { max_nodes: Some(50_000), ..Budget::default() });
        prop_assert!(!outcome.solutions.is_empty() || outcome.stop.is_some());
        for solution in &outcome.solutions {
            assert_valid(g, &givens, solution);
        }
    }

    /// Propagation and pencil marks never remove a digit of a solution: every rule is sound.
    #[test]
    fn propagation_keeps_the_solution(size in small_size(), seed in any::<u64>(), keep in 20u64..80) {
        let g = geometry(size, Variant::Classic);
        let solution = solved_grid(size, seed);
        let givens = puzzle_from(&solution, keep, seed);
        let result = propagate(g, &givens);
        prop_assert_eq!(result.contradiction, None);
        let marks = pencil_marks(g, &givens);
        for (cell, &digit) in solution.iter().enumerate() {
            prop_assert!(result.marks.candidates[cell].contains(digit));
            prop_assert!(marks.candidates[cell].contains(digit));
        }
        for placement in &result.placed {
            prop_assert_eq!(placement.digit, solution[placement.cell]);
        }
    }

    /// With a unique solution, search finds exactly it.
    #[test]
    fn unique_solution_is_the_source(seed in any::<u64>()) {
        let g = geometry(Size::NINE, Variant::Classic);
        let solution = solved_grid(Size::NINE, seed);
        let givens = puzzle_from(&solution, 60, seed);
        let outcome = search(g, &givens, 2, &Budget::unlimited());
        prop_assert!(!outcome.solutions.is_empty());
        if outcome.solutions.len() == 1 {
            prop_assert_eq!(&outcome.solutions[0], &solution);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The search's reasoning (subsets, box-line, digit branching) never loses a solution:
    /// a puzzle cut from a solved grid, of any size up to 16×16 and either variant, has one.
    #[test]
    fn search_keeps_the_solution(
        side in prop::sample::select(vec![4usize, 6, 9, 12, 16]),
        diagonal in any::<bool>(),
        seed in any::<u64>(),
        keep in 25u64..70,
    ) {
        let variant = if diagonal { Variant::Diagonal } else { Variant::Classic };
        let g = geometry(Size::from_side(side).expect("supported"), variant);
        let solution = grids::solved(g, seed);
        let givens = puzzle_from(&solution, keep, seed);
        let outcome = search(g, &givens, 2, &Budget { max_nodes: Some(2_000), ..Budget::default() });
        prop_assert!(!outcome.solutions.is_empty() || outcome.stop.is_some());
        for found in &outcome.solutions {
            assert_valid(g, &givens, found);
        }
        if outcome.solutions.len() == 1 && outcome.stop.is_none() {
            prop_assert_eq!(&outcome.solutions[0], &solution);
        }
    }
}

/// The 25×25: row A's 13 cells that can take only 12 digits. Before the search learnt
/// subsets it spent its whole million-node budget on such a grid and said nothing.
#[test]
fn a_row_of_13_cells_with_12_digits_is_decided_at_once() {
    let g = geometry(Size::from_side(25).expect("supported"), Variant::Classic);
    let mut checked = 0;
    for seed in 1..40 {
        let Some((givens, crowded)) = grids::pigeonhole_row(g.size, 20, seed) else {
            continue;
        };
        if !grids::looks_fine(g, &givens) {
            continue;
        }
        let marks = pencil_marks(g, &givens);
        let union = crowded
            .iter()
            .fold(Digits::EMPTY, |u, &c| u | marks.candidates[c]);
        assert_eq!((crowded.len(), union.len()), (13, 12), "seed {seed}");
        let outcome = search(g, &givens, 2, &default_budget());
        assert!(outcome.solutions.is_empty(), "seed {seed}");
        assert_eq!(outcome.stop, None, "seed {seed}");
        assert!(outcome.nodes < 100, "seed {seed}: {} nodes", outcome.nodes);
        let analysis = analyze(g.size, g.variant, &givens, &default_budget());
        assert_eq!(analysis.verdict, Verdict::NoSolution, "seed {seed}");
        checked += 1;
        if checked == 3 {
            return;
        }
    }
    panic!("only {checked} pigeonhole puzzles built");
}

/// The 16×16 and 25×25 puzzles of `tests/integration/grids/large.txt`, each with one solution, and
/// the same with a wrong given (no solution, though pencil marks show nothing): each verdict comes in
/// under a thousand nodes, a thousandth of the budget.
#[test]
fn large_puzzles_are_decided_well_within_the_budget() {
    let large = include_str!("grids/large.txt");
    let mut checked = 0;
    for line in large.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [side, variant, grid] = fields[..] else {
            continue;
        };
        let size = side.parse().ok().and_then(Size::from_side).expect("a size");
        let variant = Variant::parse(variant).expect("a variant");
        let g = geometry(size, variant);
        let what = format!("{side}×{side} {}", variant.name());
        let unique = grids::grid_of(grid);

        let outcome = search(g, &unique, 2, &default_budget());
        assert_eq!((outcome.solutions.len(), outcome.stop), (1, None), "{what}");
        assert!(
            outcome.nodes < LARGE_NODES,
            "{what}: {} nodes",
            outcome.nodes
        );
        let solution = outcome.solutions[0].clone();
        assert_valid(g, &unique, &solution);
        let analysis = analyze(size, variant, &unique, &default_budget());
        assert_eq!(
            analysis.verdict,
            Verdict::Unique(solution.clone()),
            "{what}"
        );

        let broken = grids::wrong_given(g, &unique, &solution, 1).expect("a wrong given");
        let outcome = search(g, &broken, 2, &default_budget());
        assert_eq!((outcome.solutions.len(), outcome.stop), (0, None), "{what}");
        assert!(
            outcome.nodes < LARGE_NODES,
            "{what}: {} nodes",
            outcome.nodes
        );
        let analysis = analyze(size, variant, &broken, &default_budget());
        assert_eq!(
            analysis.verdict,
            Verdict::NoSolution,
            "{what} with a wrong given"
        );
        checked += 1;
    }
    assert_eq!(checked, 4, "16×16 and 25×25, classic and diagonal");
}

/// Far fewer nodes than `DEFAULT_MAX_NODES`: the large puzzles' verdicts must not depend on it.
const LARGE_NODES: u64 = 1_000;

/// What the command line and the editor give one puzzle.
fn default_budget() -> Budget<'static> {
    Budget {
        max_nodes: Some(DEFAULT_MAX_NODES),
        ..Budget::default()
    }
}

/// Writes `tests/integration/grids/large.txt`, the large puzzles with one solution the tests below
/// use: `cargo test --release --test integration engine::write_large_puzzles -- --ignored >
/// tests/integration/grids/large.txt` (then drop cargo's lines).
#[test]
#[ignore]
fn write_large_puzzles() {
    for side in [16, 25] {
        let size = Size::from_side(side).expect("supported");
        for variant in [Variant::Classic, Variant::Diagonal] {
            let g = geometry(size, variant);
            let seed = side as u64 + u64::from(variant == Variant::Diagonal);
            let solution = grids::solved(g, seed);
            let unique = grids::unique_puzzle(g, &solution, 50, 300, seed);
            println!("{side} {} {}", variant.name(), grids::line_of(&unique));
        }
    }
}
