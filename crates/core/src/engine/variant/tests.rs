//! The variant engine against brute force: on 4×4, the solutions it finds under random rules
//! are exactly the grids (of all 288) that the rules' own definitions accept.

use super::{candidates, solve, Deducer};
use crate::engine::{search, Budget};
use crate::finding::Span;
use crate::grid::{geometry, puzzle_geometry, Size, Variant, NO_REGION};
use crate::rules::{Constraint, Dot, Index, Kind, Rules};

fn four() -> Size {
    Size::from_side(4).unwrap()
}

fn all_grids() -> Vec<Vec<u8>> {
    let geo = geometry(four(), Variant::Classic);
    let all = search(geo, &[0; 16], 1000, &Budget::unlimited());
    assert_eq!(all.solutions.len(), 288);
    all.solutions
}

/// The core's own deterministic generator, so failures repeat.
use crate::engine::fast9::XorShift as Rng;

/// A line of `len` cells of a grid of side `n`, each touching the one before (king steps),
/// without repeats.
fn line(rng: &mut Rng, len: usize, n: usize) -> Option<Box<[u16]>> {
    let n = n as i32;
    let mut cells = vec![rng.below((n * n) as usize) as u16];
    while cells.len() < len {
        let last = *cells.last()? as i32;
        let steps: Vec<u16> = (-1..=1)
            .flat_map(|dr| (-1..=1).map(move |dc| (dr, dc)))
            .filter_map(|(dr, dc)| {
                let (r, c) = (last / n + dr, last % n + dc);
                ((0..n).contains(&r) && (0..n).contains(&c)).then_some((r * n + c) as u16)
            })
            .filter(|c| !cells.contains(c))
            .collect();
        if steps.is_empty() {
            return None;
        }
        cells.push(steps[rng.below(steps.len())]);
    }
    Some(cells.into())
}

/// Two orthogonal neighbours on a grid of side `n`.
fn neighbours(rng: &mut Rng, n: usize) -> [u16; 2] {
    let n = n as u16;
    loop {
        let a = rng.below((n * n) as usize) as u16;
        let b = if rng.below(2) == 0 { a + 1 } else { a + n };
        if b < n * n && (b == a + n || a % n != n - 1) {
            return [a, b];
        }
    }
}

/// One random constraint on a grid of side `n` (the values chosen so that some grids keep it
/// and some do not).
fn random_constraint(rng: &mut Rng, n: usize) -> Kind {
    loop {
        let len = 2 + rng.below(3);
        let Some(cells) = line(rng, len, n) else {
            continue;
        };
        return match rng.below(32) {
            0 => Kind::AntiKing,
            1 => Kind::NonConsecutive,
            2 => Kind::Negative {
                kinds: Dot::White.bit() | Dot::Black.bit(),
            },
            3 => Kind::Cage {
                sum: Some((len * 2 + rng.below(len * 2)) as u32),
                cells,
            },
            4 => Kind::Cage { sum: None, cells },
            5 => Kind::Arrow {
                circle: cells[..1].into(),
                shaft: cells[1..].into(),
            },
            6 => Kind::DoubleArrow(line(rng, 3, n).unwrap_or(cells)),
            7 => Kind::LittleKiller {
                sum: (len * 2 + rng.below(4)) as u32,
                cells,
            },
            8 => Kind::Dot {
                dot: Dot::White,
                value: 1 + rng.below(2) as u32,
                cells: neighbours(rng, n),
            },
            9 => Kind::Dot {
                dot: Dot::Black,
                value: 2,
                cells: neighbours(rng, n),
            },
            10 => Kind::Dot {
                dot: Dot::V,
                value: 5,
                cells: neighbours(rng, n),
            },
            11 => Kind::Less([cells[0], cells[1]]),
            12 => Kind::Thermo {
                slow: rng.below(2) == 0,
                cells,
            },
            13 => Kind::Whisper { gap: 2, cells },
            14 => Kind::Renban(cells),
            15 => Kind::Palindrome(cells),
            16 => Kind::Between(line(rng, 3, n).unwrap_or(cells)),
            17 => Kind::Zipper(cells),
            18 => Kind::Parity {
                even: rng.below(2) == 0,
                cells: cells[..1].into(),
            },
            19 => Kind::Extreme {
                maximum: rng.below(2) == 0,
                cells: cells[..1].into(),
            },
            20 => Kind::Sandwich {
                sum: rng.below(n + 2) as u32,
                cells: (0..n as u16).map(|c| c * n as u16).collect(),
            },
            21 => Kind::Skyscraper {
                count: 1 + rng.below(n - 1) as u32,
                cells: (n as u16..2 * n as u16).collect(),
            },
            22 => Kind::Indexer {
                index: Index::Row,
                cells: cells[..1].into(),
            },
            23 => Kind::Lockout {
                gap: 1 + rng.below(n / 2) as u32,
                cells,
            },
            24 => {
                let corner = (rng.below(n - 1) * n + rng.below(n - 1)) as u16;
                let n = n as u16;
                Kind::Quad {
                    digits: (0..1 + rng.below(4))
                        .map(|_| 1 + rng.below(n as usize) as u8)
                        .collect(),
                    cells: [corner, corner + 1, corner + n, corner + n + 1].into(),
                }
            }
            25 => {
                let len = 4 + rng.below(3);
                let Some(cells) = line(rng, len, n) else {
                    continue;
                };
                let cut = 1 + rng.below(cells.len() - 2);
                let second = cut + 1 + rng.below(cells.len() - cut - 1);
                let mut runs = vec![cells[..cut].into(), cells[cut..second].into()];
                if second < cells.len() {
                    runs.push(cells[second..].into());
                }
                Kind::RegionSum(runs.into())
            }
            26 => Kind::XSum {
                sum: (1 + rng.below(n * 2)) as u32,
                cells: (0..n as u16).collect(),
            },
            27 => {
                let Some(cells) = line(rng, 5, n) else {
                    continue;
                };
                Kind::Arrow {
                    circle: cells[..2].into(),
                    shaft: cells[2..].into(),
                }
            }
            28 => Kind::LittleKiller {
                sum: (n + rng.below(n * 2)) as u32,
                cells: (0..n as u16).map(|i| i * (n as u16 + 1)).collect(),
            },
            29 => {
                let len = 2 + rng.below(5);
                Kind::Modular(line(rng, len, n).unwrap_or(cells))
            }
            30 => Kind::Nabner(cells),
            _ => Kind::Entropic(cells),
        };
    }
}

/// One to three random constraints on the 4×4 grid.
fn random_four_rules(rng: &mut Rng) -> Rules {
    Rules {
        constraints: (0..1 + rng.below(3))
            .map(|_| Constraint::new(random_constraint(rng, 4), Span::new(0, 0)))
            .collect(),
        regions: None,
    }
}

#[test]
fn the_engine_finds_exactly_the_grids_the_rules_accept() {
    let grids = all_grids();
    let geo = geometry(four(), Variant::Classic);
    let mut rng = Rng::new(0x5eed_1234_abcd);
    let mut nonempty = 0;
    for round in 0..400 {
        let rules = random_four_rules(&mut rng);
        let keeps = |g: &Vec<u8>| {
            rules.constraints.iter().all(|c| c.satisfied(four(), g))
                && rules.broken_pairs(four(), g).is_empty()
        };
        let mut expected: Vec<Vec<u8>> = grids.iter().filter(|g| keeps(g)).cloned().collect();
        // Some givens from one of the grids, or none.
        let mut givens = vec![0u8; 16];
        if round % 2 == 1 {
            let from = &grids[rng.below(grids.len())];
            for _ in 0..3 {
                let c = rng.below(16);
                givens[c] = from[c];
            }
            expected.retain(|g| givens.iter().zip(g).all(|(&x, &y)| x == 0 || x == y));
        }
        let mut found = solve(geo, &rules, &givens, 1000, &Budget::unlimited()).solutions;
        found.sort();
        expected.sort();
        assert_eq!(
            found, expected,
            "round {round}: {rules:?} with givens {givens:?}"
        );
        nonempty += usize::from(!expected.is_empty());
    }
    assert!(
        nonempty > 100,
        "only {nonempty} rounds had solutions: the test tests little"
    );
}

/// A random full grid of `size`: the first solution under `tries` random givens that have one.
fn random_grid(rng: &mut Rng, size: Size, tries: usize) -> Vec<u8> {
    let geo = geometry(size, Variant::Classic);
    let (cells, side) = (size.cells(), size.side());
    loop {
        let mut givens = vec![0u8; cells];
        for _ in 0..tries {
            givens[rng.below(cells)] = 1 + rng.below(side) as u8;
        }
        if let Some(grid) = search(geo, &givens, 1, &Budget::unlimited())
            .solutions
            .pop()
        {
            return grid;
        }
    }
}

fn six() -> Size {
    Size::from_side(6).unwrap()
}

#[test]
fn on_six_by_six_the_engine_finds_exactly_the_completions_the_rules_accept() {
    // Too many 6×6 grids to list them all (28 million): each round blanks half of a random grid
    // and lists every classic completion of the rest, which the rules then sift.
    let geo = geometry(six(), Variant::Classic);
    let mut rng = Rng::new(0x0606_5eed_2026);
    let (mut sifted, mut nonempty) = (0, 0);
    for round in 0..150 {
        let grid = random_grid(&mut rng, six(), 6);
        let givens: Vec<u8> = grid
            .iter()
            .map(|&d| d * u8::from(rng.below(2) == 0))
            .collect();
        // Every other round, only constraints the grid keeps: most random ones break it.
        let kept_by_grid = round % 2 == 0;
        let mut constraint = || loop {
            let c = Constraint::new(random_constraint(&mut rng, 6), Span::new(0, 0));
            let alone = Rules {
                constraints: vec![c.clone()],
                regions: None,
            };
            let keeps = c.satisfied(six(), &grid) && alone.broken_pairs(six(), &grid).is_empty();
            if keeps || !kept_by_grid {
                return c;
            }
        };
        let count = 1 + (round / 2) % 3;
        let rules = Rules {
            constraints: (0..count).map(|_| constraint()).collect(),
            regions: None,
        };
        let completions = search(geo, &givens, 1_000_000, &Budget::unlimited()).solutions;
        let mut expected: Vec<Vec<u8>> = completions
            .iter()
            .filter(|g| {
                rules.constraints.iter().all(|c| c.satisfied(six(), g))
                    && rules.broken_pairs(six(), g).is_empty()
            })
            .cloned()
            .collect();
        let mut found = solve(geo, &rules, &givens, 1_000_000, &Budget::unlimited()).solutions;
        found.sort();
        expected.sort();
        assert_eq!(
            found, expected,
            "round {round}: {rules:?} with givens {givens:?}"
        );
        sifted += usize::from(expected.len() < completions.len());
        nonempty += usize::from(!expected.is_empty());
    }
    assert!(
        sifted > 50 && nonempty > 70,
        "rules sifted {sifted} rounds, {nonempty} had solutions: the test tests little"
    );
}

#[test]
fn a_killer_cage_pins_its_only_combination() {
    // On a 9×9, a cage of two cells summing to 17 can only hold 8 and 9.
    let geo = geometry(Size::NINE, Variant::Classic);
    let rules = Rules {
        constraints: vec![Constraint::new(
            Kind::Cage {
                sum: Some(17),
                cells: [0, 1].into(),
            },
            Span::new(0, 0),
        )],
        regions: None,
    };
    let outcome = solve(geo, &rules, &[0; 81], 1, &Budget::unlimited());
    let solution = &outcome.solutions[0];
    assert_eq!(solution[0] + solution[1], 17);
    assert!(
        outcome.nodes < 100,
        "{} nodes for one solution",
        outcome.nodes
    );
}

#[test]
fn a_nabner_line_of_five_cells_keeps_only_the_odd_digits() {
    // No two of five digits from 1 to 9 consecutive: 1, 3, 5, 7, 9 is the only way. Cell by
    // cell the line says only that neighbours in value differ by two or more.
    let geo = geometry(Size::NINE, Variant::Classic);
    let cells: Box<[u16]> = [0, 1, 2, 11, 20].into();
    let rules = Rules {
        constraints: vec![Constraint::new(
            Kind::Nabner(cells.clone()),
            Span::new(0, 0),
        )],
        regions: None,
    };
    let marks = candidates(geo, &rules, &[0; 81]).expect("a nabner of five has solutions");
    for &c in cells.iter() {
        assert_eq!(
            marks[c as usize], 0b1_0101_0101,
            "cell {c}: {:b}",
            marks[c as usize]
        );
    }
}

/// Cages covering the whole grid (as a killer's do), each summing to what `grid` holds there:
/// the 45 rule's innies and outies apply. Grown from random cells into random neighbours.
fn cage_cover(rng: &mut Rng, grid: &[u8]) -> Vec<Kind> {
    let mut owner = [usize::MAX; 16];
    let mut cages: Vec<Vec<u16>> = Vec::new();
    for start in 0..16u16 {
        if owner[start as usize] != usize::MAX {
            continue;
        }
        let mut cage = vec![start];
        owner[start as usize] = cages.len();
        let size = 1 + rng.below(3);
        while cage.len() < size {
            let options: Vec<u16> = cage
                .iter()
                .flat_map(|&c| [c + 1, c + 4])
                .filter(|&c| c < 16 && owner[c as usize] == usize::MAX)
                .filter(|&c| !cage.iter().any(|&m| grid[m as usize] == grid[c as usize]))
                .collect();
            if options.is_empty() {
                break;
            }
            let next = options[rng.below(options.len())];
            owner[next as usize] = cages.len();
            cage.push(next);
        }
        cages.push(cage);
    }
    cages
        .into_iter()
        .map(|cells| Kind::Cage {
            sum: Some(cells.iter().map(|&c| grid[c as usize] as u32).sum()),
            cells: cells.into(),
        })
        .collect()
}

#[test]
fn killers_covering_the_grid_keep_every_solution_with_their_region_sums() {
    let grids = all_grids();
    let geo = geometry(four(), Variant::Classic);
    let mut rng = Rng::new(0xca9e_5eed);
    for round in 0..300 {
        let grid = &grids[rng.below(grids.len())];
        let mut kinds = cage_cover(&mut rng, grid);
        // Now and then a cage's sum off by one, so that some killers have no solution.
        if round % 5 == 0 {
            if let Some(Kind::Cage { sum: Some(sum), .. }) = kinds.first_mut() {
                *sum += 1;
            }
        }
        let rules = Rules {
            constraints: kinds
                .into_iter()
                .map(|k| Constraint::new(k, Span::new(0, 0)))
                .collect(),
            regions: None,
        };
        let mut expected: Vec<Vec<u8>> = grids
            .iter()
            .filter(|g| rules.constraints.iter().all(|c| c.satisfied(four(), g)))
            .cloned()
            .collect();
        let mut found = solve(geo, &rules, &[0; 16], 1000, &Budget::unlimited()).solutions;
        found.sort();
        expected.sort();
        assert_eq!(found, expected, "round {round}: {rules:?}");
    }
}

/// A random split of the 4×4 grid into four regions of four cells (not always connected, as
/// f-puzzles allows), each grown from a random cell.
fn random_regions(rng: &mut Rng) -> Vec<u8> {
    let mut cells: Vec<u8> = (0..16).map(|c| c / 4).collect();
    for i in (1..16).rev() {
        cells.swap(i, rng.below(i + 1)); // Fisher–Yates: every split as likely
    }
    cells
}

#[test]
fn jigsaw_regions_replace_the_boxes() {
    // Every Latin square of order 4 (no boxes at all): 576 of them.
    let latin = puzzle_geometry(four(), Variant::Classic, Some(&[NO_REGION; 16]));
    let squares = search(&latin, &[0; 16], 1000, &Budget::unlimited()).solutions;
    assert_eq!(squares.len(), 576);
    let mut rng = Rng::new(0x011a_5a11);
    let mut nonempty = 0;
    for round in 0..400 {
        let regions = random_regions(&mut rng);
        let geo = puzzle_geometry(four(), Variant::Classic, Some(&regions));
        let distinct = |g: &Vec<u8>| {
            (0..4u8).all(|r| {
                let mut seen = 0u16;
                (0..16).filter(|&c| regions[c] == r).all(|c| {
                    let bit = 1 << g[c];
                    let new = seen & bit == 0;
                    seen |= bit;
                    new
                })
            })
        };
        let mut expected: Vec<Vec<u8>> = squares.iter().filter(|g| distinct(g)).cloned().collect();
        let givens: Vec<u8> = match expected.first() {
            Some(g) if round % 2 == 0 => {
                g.iter().map(|&d| d * u8::from(rng.below(4) == 0)).collect()
            }
            _ => vec![0; 16],
        };
        expected.retain(|g| givens.iter().zip(g).all(|(&x, &y)| x == 0 || x == y));
        let rules = Rules::default();
        let mut found = solve(&geo, &rules, &givens, 1000, &Budget::unlimited()).solutions;
        found.sort();
        expected.sort();
        assert_eq!(
            found, expected,
            "round {round}: regions {regions:?}, givens {givens:?}"
        );
        nonempty += usize::from(!expected.is_empty());
    }
    // Most random splits admit no Latin square at all; those rounds check that none is found.
    assert!(nonempty > 20, "only {nonempty} rounds had solutions");
}

/// Regions of a 5×5 (a grid without boxes) under which `square` is a solution: region `r`
/// takes, for each digit `d`, its cell in row `r - shift[d]` (mod 5), so each region holds
/// every digit of `square` once, and random shifts bend the regions every way.
fn regions_fitting(square: &[u8], rng: &mut Rng) -> Vec<u8> {
    let shift: Vec<usize> = (0..=5).map(|_| rng.below(5)).collect();
    (0..25)
        .map(|c| ((c / 5 + 5 - shift[square[c] as usize]) % 5) as u8)
        .collect()
}

#[test]
fn on_five_by_five_jigsaws_the_engine_finds_exactly_the_latin_squares_the_regions_accept() {
    let five = Size::from_side(5).unwrap();
    assert!(!five.has_boxes());
    let latin = puzzle_geometry(five, Variant::Classic, Some(&[NO_REGION; 25]));
    let squares = search(&latin, &[0; 25], 200_000, &Budget::unlimited()).solutions;
    assert_eq!(squares.len(), 161_280); // the Latin squares of order 5
    let mut rng = Rng::new(0x5a5a_0005);
    for round in 0..24 {
        let square = &squares[rng.below(squares.len())];
        let regions = regions_fitting(square, &mut rng);
        let geo = puzzle_geometry(five, Variant::Classic, Some(&regions));
        let fits = |g: &Vec<u8>| {
            (0..5u8).all(|r| {
                let digits = (0..25)
                    .filter(|&c| regions[c] == r)
                    .fold(0u32, |seen, c| seen | 1 << g[c]);
                digits.count_ones() == 5
            })
        };
        let givens: Vec<u8> = square
            .iter()
            .map(|&d| d * u8::from(rng.below(3) == 0))
            .collect();
        let mut expected: Vec<Vec<u8>> = squares
            .iter()
            .filter(|g| fits(g) && givens.iter().zip(g.iter()).all(|(&x, &y)| x == 0 || x == y))
            .cloned()
            .collect();
        let mut found = solve(
            &geo,
            &Rules::default(),
            &givens,
            200_000,
            &Budget::unlimited(),
        )
        .solutions;
        found.sort();
        expected.sort();
        assert!(expected.contains(square));
        assert_eq!(
            found, expected,
            "round {round}: regions {regions:?}, givens {givens:?}"
        );
    }
}

#[test]
fn a_jigsaw_with_one_given_has_two_solutions_found_at_once() {
    // Regions bent from the boxes; H1 = 2. Without locked candidates between the regions and
    // the rows and columns the search wandered past a million nodes here.
    let layout =
        "AAABBCCCCAAABBBBCCAADBBBCCCDADEEFFFFDDDEEEEFFDDDEEEFFFGGGHHHIIIGGGHHIIIIGGGHHHHII";
    let regions: Vec<u8> = layout.bytes().map(|b| b - b'A').collect();
    let geo = puzzle_geometry(Size::NINE, Variant::Classic, Some(&regions));
    let mut givens = [0u8; 81];
    givens[63] = 2;
    let budget = Budget {
        max_nodes: Some(100_000),
        ..Budget::default()
    };
    let outcome = solve(&geo, &Rules::default(), &givens, 2, &budget);
    assert_eq!(outcome.solutions.len(), 2);
    assert!(outcome.nodes < 1_000, "{} nodes", outcome.nodes);
}

#[test]
fn pencil_marks_by_the_rules_keep_every_solution_and_place_nothing() {
    let grids = all_grids();
    let geo = geometry(four(), Variant::Classic);
    let mut rng = Rng::new(0x0a11_ca4d_1da7);
    let (mut narrowed, mut lone) = (0, 0);
    for round in 0..300 {
        let rules = random_four_rules(&mut rng);
        let from = &grids[rng.below(grids.len())];
        let mut givens = vec![0u8; 16];
        for _ in 0..2 {
            let c = rng.below(16);
            givens[c] = from[c];
        }
        let solutions = solve(geo, &rules, &givens, 1000, &Budget::unlimited()).solutions;
        let Some(marks) = super::candidates(geo, &rules, &givens) else {
            assert!(solutions.is_empty(), "round {round}: {rules:?} {givens:?}");
            continue;
        };
        for solution in &solutions {
            for (cell, &d) in solution.iter().enumerate() {
                assert!(
                    marks[cell] >> (d - 1) & 1 == 1,
                    "round {round}: {rules:?} {givens:?}"
                );
            }
        }
        narrowed += usize::from(marks.iter().any(|m| m.count_ones() < 4));
        // A cell left with one mark rules nothing out: a peer may keep that digit.
        let row_mate_keeps =
            |c: usize, m: u16| (0..4).any(|i| c / 4 * 4 + i != c && marks[c / 4 * 4 + i] & m != 0);
        lone += usize::from(
            marks
                .iter()
                .enumerate()
                .any(|(c, &m)| givens[c] == 0 && m.count_ones() == 1 && row_mate_keeps(c, m)),
        );
    }
    assert!(
        narrowed > 100 && lone > 0,
        "narrowed {narrowed}, lone {lone}"
    );
}

#[test]
fn pencil_marks_with_reasons_are_the_marks_and_say_why_each_digit_went() {
    let geo = geometry(four(), Variant::Classic);
    let grids = all_grids();
    let mut rng = Rng::new(0x2ea5_0a5f_00d5);
    let (mut by_peer, mut by_rule, mut broken) = (0, 0, 0);
    for round in 0..300 {
        let rules = random_four_rules(&mut rng);
        let from = &grids[rng.below(grids.len())];
        let mut givens = vec![0u8; 16];
        for _ in 0..3 {
            let c = rng.below(16);
            givens[c] = from[c] % 4 + 1; // not always the grid's: some rounds break
        }
        let noted = super::candidates_with_reasons(geo, &rules, &givens);
        let context = format!("round {round}: {rules:?} {givens:?}");
        match super::candidates(geo, &rules, &givens) {
            Some(marks) => {
                assert_eq!(noted.broken, None, "{context}");
                assert_eq!(noted.masks, marks, "{context}");
            }
            None => {
                broken += 1;
                // Two givens a rule keeps apart (a king's move) holding one digit: the
                // conflict finder names that clash; the marks leave givens alone.
                let model = super::model::Model::new(geo, &rules, false);
                let clash = (0..16).any(|a| {
                    givens[a] != 0
                        && model.peers[a]
                            .iter()
                            .any(|&b| givens[b as usize] == givens[a])
                });
                assert!(
                    noted.broken.is_some()
                        || clash
                        || (0..16).any(|c| givens[c] == 0 && noted.masks[c] == 0),
                    "{context}"
                );
                continue;
            }
        }
        for cell in (0..16).filter(|&c| givens[c] == 0) {
            for d in 1..=4u8 {
                let reason = noted.reason(cell, d);
                let kept = noted.masks[cell] >> (d - 1) & 1 == 1;
                match reason {
                    None => assert!(kept, "{context}: {d} left {cell} for no reason"),
                    Some(super::RuleReason::Peer { given }) => {
                        assert!(!kept && givens[given as usize] == d, "{context}");
                        by_peer += 1;
                    }
                    Some(super::RuleReason::Constraint { index }) => {
                        assert!(
                            !kept && (index as usize) < rules.constraints.len(),
                            "{context}"
                        );
                        by_rule += 1;
                    }
                }
            }
        }
    }
    assert!(
        by_peer > 50 && by_rule > 50 && broken > 5,
        "{by_peer} by peers, {by_rule} by rules, {broken} broken"
    );
}

/// Cells a rule keeps apart for every digit are peers of each other, for the engine and for
/// every "sees" of the explained steps: a thermometer's cells (each above the one before), a
/// whisper's neighbours across a box's corner, an arrow's circle and its shaft, a between line's
/// ends and middle; not a slow thermometer's, which may repeat.
#[test]
fn cells_a_rule_keeps_apart_are_peers() {
    let geo = geometry(Size::NINE, Variant::Classic);
    let constraint = |kind| Constraint::new(kind, Span::new(0, 0));
    // A1 B2 C3 D4 (A1 and D4 share no house), a whisper from C3 to D4, a slow thermo A9 to D6.
    let rules = Rules {
        constraints: vec![
            constraint(Kind::Thermo {
                slow: false,
                cells: [0, 10, 20, 30].into(),
            }),
            constraint(Kind::Whisper {
                gap: 5,
                cells: [20, 30].into(),
            }),
            constraint(Kind::Thermo {
                slow: true,
                cells: [8, 16, 24, 32].into(),
            }),
            // E1's circle, G2 H3 its shaft; a between line C9 D8 E7.
            constraint(Kind::Arrow {
                circle: [36].into(),
                shaft: [55, 65].into(),
            }),
            constraint(Kind::Between([26, 34, 42].into())),
        ],
        regions: None,
    };
    let deducer = Deducer::new(geo, &rules);
    let seen = deducer.geometry(geo);
    let peers = |a: usize, b: u16| seen.peers[a].contains(&b);
    assert!(peers(0, 30) && peers(30, 0), "a thermometer's bulb and tip");
    assert!(peers(20, 30), "a whisper's neighbours");
    assert!(!peers(8, 32), "a slow thermometer's cells may repeat");
    assert!(
        peers(36, 55) && peers(36, 65),
        "an arrow's circle and its shaft"
    );
    assert!(
        peers(26, 42) && peers(26, 34),
        "a between line's ends, and an end and the middle"
    );
    assert!(!peers(0, 31), "no rule joins A1 and D5");
}

#[test]
fn a_long_arrow_is_bounded_by_the_boxes_it_crosses_not_by_its_order() {
    // The shaft crosses eight boxes (8 cells of box 4, 6 of box 7, 5 of box 5, 4 of box 1, 3 of
    // boxes 2 and 8, 2 of box 6, 1 of box 3): distinct digits in each box add up to at least
    // 98, the most a two-digit circle in one row can hold. So the circle is 98 and each box's
    // cells hold its lowest digits, before any search. Grouped in line order (row stretches
    // first) the least total was 20 short, and the puzzle took more than a million nodes
    // (sigh's "Long sums 3").
    let text = "arrow: A8 A9 > A7 A6 A5 B4 B3 B2 B1 C1 D1 D2 E2 E1 F1 F2 G2 G1 H1 H2 H3 G3 G4 F4 \
                F3 E3 E4 E5 F5 G5 G6 F6 F7 F8\n"
        .to_string()
        + &".........\n".repeat(9);
    let document = crate::format::parse(&text);
    let puzzle = &document.puzzles[0];
    let rules = puzzle.rules.as_deref().expect("the arrow");
    let geo = geometry(Size::NINE, Variant::Classic);
    let masks = super::propagated(geo, rules, &puzzle.givens).expect("a solution");
    let cell = |name: &str| (0..81).find(|&c| geo.cell_name(c) == name).unwrap();
    assert_eq!(masks[cell("A8")], 1 << 8, "A8 holds 9");
    assert_eq!(masks[cell("A9")], 1 << 7, "A9 holds 8");
    assert_eq!(
        masks[cell("D3")],
        1 << 8,
        "box 4's one cell off the line holds 9"
    );
    let outcome = solve(geo, rules, &puzzle.givens, 2, &Budget::unlimited());
    assert_eq!(outcome.solutions.len(), 1);
    assert!(outcome.nodes < 1_000, "{} nodes", outcome.nodes);
}

/// The diagonal of a 9×9 from `(row, column)` going `(down, right)` (each ±1) to the edge.
fn diagonal(mut row: i32, mut column: i32, down: i32, right: i32) -> Box<[u16]> {
    let mut cells = Vec::new();
    while (0..9).contains(&row) && (0..9).contains(&column) {
        cells.push((row * 9 + column) as u16);
        row += down;
        column += right;
    }
    cells.into()
}

fn little_killers(lines: &[Box<[u16]>], sum_of: impl Fn(&[u16]) -> u32) -> Rules {
    Rules {
        constraints: lines
            .iter()
            .map(|cells| {
                let kind = Kind::LittleKiller {
                    sum: sum_of(cells),
                    cells: cells.clone(),
                };
                Constraint::new(kind, Span::new(0, 0))
            })
            .collect(),
        regions: None,
    }
}

#[test]
fn parallel_little_killers_are_bounded_together_by_the_boxes_they_fill() {
    // sigh's "Zero solution: Little Killer": eight diagonals of 49. The four going down to the
    // left fill eight cells of boxes 3, 5 and 7 each: together their 196 is within 2 of the most
    // those 32 cells can hold (198), so every part of them is near its most. Alone,
    // each diagonal allows anything from 18 to 72 and nothing follows; the search ran out of a
    // million nodes before the puzzle was found to have no solution.
    let geo = geometry(Size::NINE, Variant::Classic);
    let down_left = [
        diagonal(0, 8, 1, -1),
        diagonal(0, 7, 1, -1),
        diagonal(1, 8, 1, -1),
        diagonal(2, 8, 1, -1),
    ];
    let rules = little_killers(&down_left, |_| 49);
    let masks = super::propagated(geo, &rules, &[0; 81]).expect("no contradiction yet");
    let cell = |name: &str| (0..81).find(|&c| geo.cell_name(c) == name).unwrap();
    // The lines' cells alone in their box (no other of those cells sees them) hold 7, 8 or 9.
    for alone in ["C6", "F3"] {
        assert_eq!(masks[cell(alone)], 0b111 << 6, "{alone}");
    }
    let down_right = [
        diagonal(6, 8, -1, -1),
        diagonal(0, 0, 1, 1),
        diagonal(1, 0, 1, 1),
        diagonal(2, 0, 1, 1),
    ];
    let all: Vec<Box<[u16]>> = down_left.iter().chain(&down_right).cloned().collect();
    let rules = little_killers(&all, |_| 49);
    let outcome = solve(geo, &rules, &[0; 81], 2, &Budget::unlimited());
    assert!(outcome.solutions.is_empty());
    assert!(outcome.nodes < 100_000, "{} nodes", outcome.nodes);
}

#[test]
fn little_killers_bounded_together_keep_every_solution() {
    // Two to four neighbouring parallel diagonals, a random grid relabelled so that the lines
    // hold its highest digits (high sums are what gets merged), half of it given: the engine
    // finds exactly the completions of the givens that keep the rules, listed by the classic
    // search and sifted by the rules.
    let geo = geometry(Size::NINE, Variant::Classic);
    let mut rng = Rng::new(0xd1a9_5eed_2026);
    let mut merged = 0;
    for round in 0..200 {
        let (down, right) = ([1, -1][rng.below(2)], [1, -1][rng.below(2)]);
        let corner_row = if down == 1 { 0 } else { 8 };
        let corner_column = if right == 1 { 0 } else { 8 };
        // Diagonals from the corner's row, then from its column, by how far from the corner.
        let first = rng.below(3) as i32;
        let lines: Vec<Box<[u16]>> = (first..first + 2 + rng.below(3) as i32)
            .map(|k| match k % 2 {
                0 => diagonal(corner_row, corner_column + right * (k / 2), down, right),
                _ => diagonal(corner_row + down * (k / 2 + 1), corner_column, down, right),
            })
            .collect();
        let grid = highest_on(&lines, &random_grid(&mut rng, Size::NINE, 8));
        let rules = little_killers(&lines, |cells| {
            cells.iter().map(|&c| grid[c as usize] as u32).sum()
        });
        let model = super::model::Model::new(geo, &rules, true);
        merged += usize::from(model.origins.len() > lines.len());
        let givens: Vec<u8> = grid
            .iter()
            .map(|&d| d * u8::from(rng.below(2) == 0))
            .collect();
        let completions = search(geo, &givens, 1_000_000, &Budget::unlimited()).solutions;
        assert!(completions.len() < 1_000_000, "every completion listed");
        let mut expected: Vec<Vec<u8>> = completions
            .into_iter()
            .filter(|g| rules.constraints.iter().all(|c| c.satisfied(Size::NINE, g)))
            .collect();
        let mut found = solve(geo, &rules, &givens, 1_000_000, &Budget::unlimited()).solutions;
        found.sort();
        expected.sort();
        assert_eq!(
            found, expected,
            "round {round}: {rules:?} with givens {givens:?}"
        );
    }
    assert!(
        merged > 15,
        "{merged} rounds merged sums: the test tests little"
    );
}

/// `grid` with its digits renamed (still a grid) so that those most often on `lines` are the
/// highest.
fn highest_on(lines: &[Box<[u16]>], grid: &[u8]) -> Vec<u8> {
    let mut count = [0usize; 10];
    for &c in lines.iter().flat_map(|l| l.iter()) {
        count[grid[c as usize] as usize] += 1;
    }
    let mut by_count: Vec<u8> = (1..=9).collect();
    by_count.sort_by_key(|&d| count[d as usize]);
    let mut rename = [0u8; 10];
    for (new, &old) in by_count.iter().enumerate() {
        rename[old as usize] = new as u8 + 1;
    }
    grid.iter().map(|&d| rename[d as usize]).collect()
}
