use super::super::analyze::find_conflicts;
use super::super::solutions::{verdict, DEFAULT_MAX_NODES};
use super::*;
use crate::grid::{geometry, Size, Variant};

fn grid(line: &str) -> Vec<u8> {
    line.bytes()
        .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
        .collect()
}

fn nine() -> &'static Geometry {
    geometry(Size::NINE, Variant::Classic)
}

/// A minimal unique puzzle whose givens mirror across the middle row and column.
const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

#[test]
fn a_check_past_its_deadline_starts_no_search() {
    // A search reads the clock every 64 nodes, and the checks of a large grid are mostly
    // searches of a node or two: without a look before each, a passed deadline went
    // unseen (`new --size 25` spent 44 s of nodes past a 20 s limit).
    let g = geometry(Size::from_side(16).unwrap(), Variant::Classic);
    let solution: Vec<u8> = (0..256)
        .map(|c| ((c / 16 * 4 + c / 64 + c % 16) % 16 + 1) as u8)
        .collect();
    assert!(matches!(
        verdict(g, &solution, &Budget::unlimited()),
        Verdict::Unique(_)
    ));
    // A third of the cells taken away: their other digits need searches to rule out.
    let removed: Vec<usize> = (0..256).filter(|c| c % 3 == 0).collect();
    let mut givens = solution.clone();
    removed.iter().for_each(|&c| givens[c] = 0);
    let past = Budget {
        deadline: Some(Instant::now()),
        ..Budget::default()
    };
    let (unique, spent) = unique_without(g, &givens, &solution, &removed, &past, 100_000);
    assert_eq!((unique, spent), (Err(Stop::Deadline), 0));
    let unlimited = Budget::unlimited();
    let (unique, spent) = unique_without(g, &givens, &solution, &removed, &unlimited, 100_000);
    assert!(unique.is_ok() && spent > 0, "{unique:?} {spent}");
}

#[test]
fn symmetry_names_the_largest_group_of_the_givens_places() {
    let g = nine();
    assert_eq!(symmetry(g, &grid(EASY)), Symmetry::Orthogonal);
    let mut one = vec![0u8; 81];
    one[40] = 5; // the centre alone: every transformation keeps it
    assert_eq!(symmetry(g, &one), Symmetry::Full);
    one[0] = 1; // A1 and the centre: only the main diagonal's mirror keeps both
    assert_eq!(symmetry(g, &one), Symmetry::Diagonal);
    one[8] = 1; // A1, A9: the mirror across the middle column
    assert_eq!(symmetry(g, &one), Symmetry::Vertical);
    one[72] = 1;
    one[80] = 1; // the four corners: every transformation
    assert_eq!(symmetry(g, &one), Symmetry::Full);
    one[1] = 2; // A2 alone: no transformation but the identity keeps it
    assert_eq!(symmetry(g, &one), Symmetry::None);
    one[9] = 2; // with B1, its image across the main diagonal
    assert_eq!(symmetry(g, &one), Symmetry::Diagonal);
    let mut line = vec![0u8; 81];
    for c in 0..9 {
        line[4 * 9 + c] = 1; // the middle row: both mirrors along the axes
    }
    assert_eq!(symmetry(g, &line), Symmetry::Orthogonal);
    let mut cross = vec![0u8; 81];
    for i in 0..9 {
        cross[i * 9 + i] = 1;
        cross[i * 9 + 8 - i] = 1;
    }
    assert_eq!(symmetry(g, &cross), Symmetry::Full);
    let mut pinwheel = vec![0u8; 81];
    for (r, c) in [(0, 1), (1, 8), (8, 7), (7, 0)] {
        pinwheel[r * 9 + c] = 1; // a quarter turn maps each to the next, no mirror does
    }
    assert_eq!(symmetry(g, &pinwheel), Symmetry::Rotational90);
    let mut x = vec![0u8; 81];
    for (r, c) in [(0, 1), (1, 0), (8, 7), (7, 8)] {
        x[r * 9 + c] = 1; // both diagonal mirrors, no quarter turn
    }
    assert_eq!(symmetry(g, &x), Symmetry::BiDiagonal);
    let mut top = vec![0u8; 81];
    top[1] = 1;
    top[73] = 1; // A2 and I2: the mirror across the middle row
    assert_eq!(symmetry(g, &top), Symmetry::Horizontal);
    let mut anti = vec![0u8; 81];
    anti[0] = 1;
    anti[80] = 1;
    anti[1] = 1;
    anti[71] = 1; // A1, I9, A2, H9: the anti-diagonal's mirror only
    assert_eq!(symmetry(g, &anti), Symmetry::AntiDiagonal);
    anti[71] = 0;
    anti[79] = 1; // A2 and I8: the half turn only
    assert_eq!(symmetry(g, &anti), Symmetry::Rotational180);
}

#[test]
fn redundant_givens_are_those_whose_removal_keeps_one_solution() {
    let budget = Budget::unlimited();
    for diagonal in [false, true] {
        let variant = if diagonal {
            Variant::Diagonal
        } else {
            Variant::Classic
        };
        let g = geometry(Size::NINE, variant);
        let mut rng = engine::fast9::XorShift::new(7);
        let solution = engine::fast9::random_solution(&mut rng, diagonal);
        let minimal = engine::fast9::minimal_puzzle(&mut rng, &solution, diagonal);
        assert_eq!(redundant_givens(g, &minimal, &budget), Ok(vec![]));
        // Three more givens from the solution: each is redundant, and maybe others become so.
        let mut more = minimal.to_vec();
        let empties: Vec<usize> = (0..81).filter(|&c| minimal[c] == 0).take(3).collect();
        for &c in &empties {
            more[c] = solution[c];
        }
        let redundant = redundant_givens(g, &more, &budget).expect("within budget");
        for c in (0..81).filter(|&c| more[c] != 0) {
            let mut less = more.clone();
            less[c] = 0;
            // The general engine, not the 9×9 solver `redundant_givens` uses, decides.
            let unique = engine::search(g, &less, 2, &budget).solutions.len() == 1;
            assert_eq!(redundant.contains(&c), unique, "cell {c}");
        }
        assert!(empties.iter().all(|c| redundant.contains(c)));
    }
}

#[test]
fn the_no_solution_core_has_no_solution_and_needs_every_given() {
    let g = nine();
    let budget = Budget::unlimited();
    // The easy puzzle with a wrong digit that breaks no unit directly.
    let mut givens = grid(EASY);
    let Verdict::Unique(solution) = verdict(g, &givens, &budget) else {
        panic!("unique")
    };
    let empty = (0..81).find(|&c| givens[c] == 0).expect("an empty cell");
    let wrong = (1..=9)
        .filter(|&d| d != solution[empty])
        .find(|&d| {
            let mut g2 = givens.clone();
            g2[empty] = d;
            find_conflicts(g, &g2).is_empty() && verdict(g, &g2, &budget) == Verdict::NoSolution
        })
        .expect("a digit that fits locally and leaves no solution");
    givens[empty] = wrong;
    let core = no_solution_core(g, &givens, &budget);
    assert!(core.cells.contains(&empty), "{core:?}");
    assert!(core.cells.len() < givens.iter().filter(|&&d| d != 0).count());
    assert_minimal_core(g, &givens, &core);
}

/// `core` is marked minimal, its givens leave no solution, and without any one of them
/// there is one (decided by the general engine, not the searches the core was built with).
fn assert_minimal_core(g: &Geometry, givens: &[u8], core: &Core) {
    let budget = Budget::unlimited();
    assert!(core.minimal(), "{core:?}");
    let solvable = |cells: &[usize]| {
        let mut only = vec![0u8; givens.len()];
        for &c in cells {
            only[c] = givens[c];
        }
        !engine::search(g, &only, 1, &budget).solutions.is_empty()
    };
    assert!(!solvable(&core.cells), "{core:?} has a solution");
    for i in 0..core.cells.len() {
        let mut fewer = core.cells.clone();
        fewer.remove(i);
        assert!(solvable(&fewer), "{core:?} without {}", core.cells[i]);
    }
}

/// A sudoku17 puzzle with a wrong 6 at A1: dropping givens in order, one try asks the 9×9
/// solver to refute 13 givens, 175,000 nodes, where the 8 of the core take it 3.
const COSTLY_CORE: &str =
    "6......23.1..4....5........1.....4.....2...8....8.3.......5.16..4....7....3......";

#[test]
fn a_core_whose_proof_is_costly_in_one_order_is_still_minimal() {
    let g = nine();
    let givens = grid(COSTLY_CORE);
    let budget = Budget {
        max_nodes: Some(DEFAULT_MAX_NODES),
        ..Budget::default()
    };
    let core = no_solution_core(g, &givens, &budget);
    assert!(core.cells.contains(&0), "{core:?}");
    assert_minimal_core(g, &givens, &core);
}

#[test]
fn a_core_cut_short_by_the_budget_still_has_no_solution() {
    let g = nine();
    let givens = grid(COSTLY_CORE);
    for max_nodes in [1, 50, 300, 2_000] {
        let budget = Budget {
            max_nodes: Some(max_nodes),
            ..Budget::default()
        };
        let core = no_solution_core(g, &givens, &budget);
        let mut only = vec![0u8; 81];
        for &c in &core.cells {
            only[c] = givens[c];
        }
        let found = engine::search(g, &only, 1, &Budget::unlimited()).solutions;
        assert!(found.is_empty(), "{max_nodes} nodes: {core:?}");
        if core.minimal() {
            assert_minimal_core(g, &givens, &core);
        }
    }
}

#[test]
fn a_core_the_deadline_cut_says_so_and_leaves_its_analysis_unfinished() {
    // A first look's deadline cuts the shrinking: another run may finish it, so the analysis
    // is not final (a cache keeps it not, the editor's whole run says it); a node budget's cut
    // is the same on every run, and final.
    let g = nine();
    let givens = grid(COSTLY_CORE);
    let passed = Budget {
        deadline: Some(std::time::Instant::now()),
        ..Budget::default()
    };
    let core = no_solution_core(g, &givens, &passed);
    assert_eq!(core.cut, Some(Stop::Deadline));
    let analysis = |core: Core| super::super::Analysis {
        size: Size::NINE,
        variant: Variant::Classic,
        conflicts: Vec::new(),
        impossible: Vec::new(),
        no_place: Vec::new(),
        verdict: Verdict::NoSolution,
        core: Some(core),
        full: false,
        broken: Vec::new(),
        has_rules: false,
    };
    assert!(!analysis(core).is_final());
    let nodes = Budget {
        max_nodes: Some(1),
        ..Budget::default()
    };
    let core = no_solution_core(g, &givens, &nodes);
    assert_eq!(core.cut, Some(Stop::Nodes));
    assert!(analysis(core).is_final());
}

#[test]
fn a_wrong_given_on_other_sizes_is_in_a_core_with_no_solution() {
    let budget = Budget {
        max_nodes: Some(DEFAULT_MAX_NODES),
        ..Budget::default()
    };
    for (side, variant) in [
        (4, Variant::Classic),
        (6, Variant::Diagonal),
        (16, Variant::Classic),
    ] {
        let g = geometry(Size::from_side(side).unwrap(), variant);
        let empty = vec![0u8; side * side];
        let solution = engine::search(g, &empty, 1, &budget).solutions.remove(0);
        let mut givens: Vec<u8> = (0..side * side)
            .map(|c| if c % 3 != 0 { solution[c] } else { 0 })
            .collect();
        // A dense grid keeps each trial search short; a small budget skips the rest.
        let trial = Budget {
            max_nodes: Some(2_000),
            ..Budget::default()
        };
        let wrong = (0..side * side)
            .filter(|&c| givens[c] == 0)
            .flat_map(|c| (1..=side as u8).map(move |d| (c, d)))
            .find(|&(c, d)| {
                let mut tried = givens.clone();
                tried[c] = d;
                find_conflicts(g, &tried).is_empty()
                    && verdict(g, &tried, &trial) == Verdict::NoSolution
            });
        let (cell, digit) = wrong.expect("a digit that fits locally and leaves no solution");
        givens[cell] = digit;
        let core = no_solution_core(g, &givens, &budget);
        let what = format!("{side}×{side}: {core:?}");
        // The givens other than the wrong one agree with a solution: it must be in the core.
        assert!(core.cells.contains(&cell), "{what}");
        let only = |cells: &[usize]| -> Vec<u8> {
            let mut only = vec![0u8; side * side];
            for &c in cells {
                only[c] = givens[c];
            }
            only
        };
        assert_eq!(
            verdict(g, &only(&core.cells), &budget),
            Verdict::NoSolution,
            "{what}"
        );
        if core.minimal() {
            for i in 0..core.cells.len() {
                let mut fewer = core.cells.clone();
                fewer.remove(i);
                assert!(
                    verdict(g, &only(&fewer), &budget).solution().is_some(),
                    "{what}"
                );
            }
        }
    }
}

/// A 4×4 with a cage and a thermometer: a few dozen solutions, fewer than the houses alone.
const CAGE_AND_THERMO: &str = "cage 4: A1 A2\nthermo: C1 C2 C3\n....\n....\n....\n....\n";

/// The givens of `EASY` whose removal leaves a few dozen solutions.
const FEW_SOLUTIONS_WITHOUT: [usize; 4] = [2, 4, 6, 9];

#[test]
fn true_candidates_are_the_digits_of_every_solution_and_no_other() {
    let g = nine();
    let budget = Budget::unlimited();
    let mut givens = grid(EASY);
    // Drop givens until the puzzle has a few dozen solutions.
    for cell in FEW_SOLUTIONS_WITHOUT {
        givens[cell] = 0;
    }
    let all = engine::search(g, &givens, 100_000, &budget).solutions;
    assert!(all.len() >= 2 && all.len() < 100_000, "{}", all.len());
    let spread = true_candidates(g, None, &givens, &budget);
    assert!(spread.complete);
    for cell in 0..81 {
        let mut expected = Digits::EMPTY;
        for s in &all {
            expected.insert(s[cell]);
        }
        assert_eq!(spread.digits[cell], expected, "cell {cell}");
        let one = true_candidates_at(g, None, &givens, cell, &budget);
        assert_eq!(one, (expected, true), "cell {cell} alone");
    }
    let extra = best_extra_given(g, None, &givens, &budget).expect("several solutions");
    let held = all.iter().filter(|s| s[extra.cell] == extra.digit).count();
    let fewest = (0..81)
        .filter(|&c| givens[c] == 0)
        .flat_map(|c| (1..=9).map(move |d| (c, d)))
        .map(|(c, d)| all.iter().filter(|s| s[c] == d).count())
        .filter(|&k| k > 0)
        .min();
    assert_eq!(Some(held), fewest);
    if all.len() < SAMPLE {
        assert!(extra.complete);
        assert_eq!(extra.left, held);
        assert_eq!(extra.sample, all.len());
    }
    assert_eq!(extra.unique_after, Some(held == 1));
}

#[test]
fn under_variant_rules_true_candidates_and_the_extra_given_count_the_rules() {
    let document = crate::format::parse(CAGE_AND_THERMO);
    let puzzle = &document.puzzles[0];
    let (geo, rules) = (&puzzle.geometry(), puzzle.rules.as_deref());
    let budget = Budget::unlimited();
    let givens = vec![0u8; 16];
    let all = engine::variant::solve(geo, rules.unwrap(), &givens, 1000, &budget).solutions;
    assert!(all.len() >= 2 && all.len() < 288, "{}", all.len());
    let spread = true_candidates(geo, rules, &givens, &budget);
    assert!(spread.complete);
    for cell in 0..16 {
        let mut expected = Digits::EMPTY;
        for s in &all {
            expected.insert(s[cell]);
        }
        assert_eq!(spread.digits[cell], expected, "cell {cell}");
    }
    // A1 and A2 hold 1 and 3; C1 < C2 < C3 leaves C1 at most 2: the rules count.
    assert!(spread.digits[0].iter().all(|d| d == 1 || d == 3));
    assert!(spread.digits[8].iter().all(|d| d <= 2));
    let extra = best_extra_given(geo, rules, &givens, &budget).expect("several solutions");
    let held = all.iter().filter(|s| s[extra.cell] == extra.digit).count();
    assert_eq!(
        (extra.left, extra.sample, extra.complete),
        (held, all.len(), true)
    );
    assert_eq!(extra.unique_after, Some(held == 1));
}

#[test]
fn true_candidate_counts_are_each_digits_solutions_up_to_the_cap() {
    // The 4×4 cage and thermometer above (a few dozen solutions), and a 9×9 with a few.
    let document = crate::format::parse(CAGE_AND_THERMO);
    let puzzle = &document.puzzles[0];
    let (four, rules) = (&puzzle.geometry(), puzzle.rules.as_deref());
    let mut nine_givens = grid(EASY);
    for cell in FEW_SOLUTIONS_WITHOUT {
        nine_givens[cell] = 0;
    }
    let budget = Budget::unlimited();
    let cases: [(&Geometry, Option<&Rules>, Vec<u8>); 2] =
        [(four, rules, vec![0; 16]), (nine(), None, nine_givens)];
    for (geo, rules, givens) in cases {
        let all = match rules {
            Some(rules) => engine::variant::solve(geo, rules, &givens, 100_000, &budget),
            None => engine::search(geo, &givens, 100_000, &budget),
        }
        .solutions;
        assert!(all.len() > 3, "{}", all.len());
        let side = geo.side();
        // A cap below the counts (one search a candidate) and one above them (one search).
        for cap in [3, 100_000] {
            let counts = true_candidate_counts(geo, rules, &givens, cap, &budget);
            assert!(counts.complete);
            for cell in 0..givens.len() {
                for digit in 1..=side as u8 {
                    let held = all.iter().filter(|s| s[cell] == digit).count() as u32;
                    assert_eq!(
                        counts.count(cell, digit),
                        held.min(cap),
                        "{side}×{side}, cap {cap}, cell {cell}, digit {digit}"
                    );
                }
            }
        }
    }
}
