use super::*;

fn four() -> Size {
    Size::from_side(4).unwrap()
}
fn nine() -> Size {
    Size::NINE
}
fn constraint(kind: Kind) -> Constraint {
    Constraint::new(kind, Span::new(0, 0))
}
fn cells(list: &[u16]) -> Cells {
    list.into()
}
/// A 9×9 grid with `digits` at `cells` and the rest empty.
fn grid(size: Size, placed: &[(u16, u8)]) -> Vec<u8> {
    let mut g = vec![0; size.cells()];
    for &(c, d) in placed {
        g[c as usize] = d;
    }
    g
}

#[test]
fn a_cage_breaks_on_a_repeat_or_a_sum_out_of_reach() {
    let cage = constraint(Kind::Cage {
        sum: Some(10),
        cells: cells(&[0, 1, 2]),
    });
    assert!(!cage.broken(nine(), &grid(nine(), &[(0, 1)])));
    assert!(cage.broken(nine(), &grid(nine(), &[(0, 1), (1, 1)])));
    // 9 + 8 leaves nothing for the third cell.
    assert!(cage.broken(nine(), &grid(nine(), &[(0, 9), (1, 8)])));
    // 1 + 2 needs 7, which is free.
    assert!(!cage.broken(nine(), &grid(nine(), &[(0, 1), (1, 2)])));
    assert!(cage.satisfied(nine(), &grid(nine(), &[(0, 1), (1, 2), (2, 7)])));
    assert!(!cage.satisfied(nine(), &grid(nine(), &[(0, 1), (1, 2), (2, 6)])));
}

#[test]
fn a_thermometer_needs_order_and_room() {
    let thermo = constraint(Kind::Thermo {
        slow: false,
        cells: cells(&[0, 1, 2]),
    });
    assert!(
        thermo.broken(nine(), &grid(nine(), &[(0, 5), (2, 6)])),
        "no digit between 5 and 6"
    );
    assert!(!thermo.broken(nine(), &grid(nine(), &[(0, 5), (2, 7)])));
    assert!(
        thermo.broken(nine(), &grid(nine(), &[(1, 9)])),
        "nothing above 9 for the tip"
    );
    assert!(
        thermo.broken(nine(), &grid(nine(), &[(1, 1)])),
        "nothing below 1 for the bulb"
    );
    let slow = constraint(Kind::Thermo {
        slow: true,
        cells: cells(&[0, 1, 2]),
    });
    assert!(!slow.broken(nine(), &grid(nine(), &[(0, 5), (2, 5)])));
    assert!(slow.broken(nine(), &grid(nine(), &[(0, 6), (2, 5)])));
}

#[test]
fn an_arrow_reads_its_pill_as_a_number() {
    let arrow = constraint(Kind::Arrow {
        circle: cells(&[0, 1]),
        shaft: cells(&[9, 10, 11]),
    });
    let full = grid(nine(), &[(0, 1), (1, 2), (9, 3), (10, 4), (11, 5)]);
    assert!(arrow.satisfied(nine(), &full), "12 = 3 + 4 + 5");
    let wrong = grid(nine(), &[(0, 1), (1, 3), (9, 3), (10, 4), (11, 5)]);
    assert!(!arrow.satisfied(nine(), &wrong));
    // A one-cell circle of 2 with a shaft of three cells: at least 3.
    let small = constraint(Kind::Arrow {
        circle: cells(&[0]),
        shaft: cells(&[9, 10, 11]),
    });
    assert!(small.broken(nine(), &grid(nine(), &[(0, 2)])));
}

#[test]
fn dots_lines_and_cells_mean_what_the_reference_says() {
    let g = |placed: &[(u16, u8)]| grid(nine(), placed);
    let sat = |kind: Kind, placed: &[(u16, u8)]| constraint(kind).satisfied(nine(), &g(placed));
    assert!(sat(
        Kind::Dot {
            dot: Dot::White,
            value: 1,
            cells: [0, 1]
        },
        &[(0, 4), (1, 3)]
    ));
    assert!(!sat(
        Kind::Dot {
            dot: Dot::White,
            value: 1,
            cells: [0, 1]
        },
        &[(0, 4), (1, 2)]
    ));
    assert!(sat(
        Kind::Dot {
            dot: Dot::Black,
            value: 2,
            cells: [0, 1]
        },
        &[(0, 3), (1, 6)]
    ));
    assert!(sat(
        Kind::Dot {
            dot: Dot::X,
            value: 10,
            cells: [0, 1]
        },
        &[(0, 3), (1, 7)]
    ));
    assert!(sat(
        Kind::Dot {
            dot: Dot::V,
            value: 5,
            cells: [0, 1]
        },
        &[(0, 3), (1, 2)]
    ));
    assert!(sat(
        Kind::Whisper {
            gap: 5,
            cells: cells(&[0, 1, 2])
        },
        &[(0, 1), (1, 6), (2, 1)]
    ));
    assert!(!sat(
        Kind::Whisper {
            gap: 5,
            cells: cells(&[0, 1])
        },
        &[(0, 4), (1, 8)]
    ));
    assert!(sat(
        Kind::Renban(cells(&[0, 1, 2])),
        &[(0, 5), (1, 3), (2, 4)]
    ));
    assert!(!sat(
        Kind::Renban(cells(&[0, 1, 2])),
        &[(0, 5), (1, 3), (2, 6)]
    ));
    assert!(sat(
        Kind::Palindrome(cells(&[0, 1, 2])),
        &[(0, 5), (1, 3), (2, 5)]
    ));
    assert!(sat(
        Kind::Between(cells(&[0, 1, 2])),
        &[(0, 2), (1, 5), (2, 8)]
    ));
    assert!(!sat(
        Kind::Between(cells(&[0, 1, 2])),
        &[(0, 2), (1, 8), (2, 8)]
    ));
    let lockout = Kind::Lockout {
        gap: 4,
        cells: cells(&[0, 1, 2]),
    };
    assert!(sat(lockout.clone(), &[(0, 3), (1, 9), (2, 7)]));
    assert!(!sat(lockout, &[(0, 3), (1, 5), (2, 7)]));
    assert!(sat(
        Kind::Entropic(cells(&[0, 1, 2, 3])),
        &[(0, 1), (1, 5), (2, 9), (3, 2)]
    ));
    assert!(!sat(
        Kind::Entropic(cells(&[0, 1, 2])),
        &[(0, 1), (1, 5), (2, 3)]
    ));
    assert!(sat(
        Kind::Modular(cells(&[0, 1, 2])),
        &[(0, 1), (1, 5), (2, 9)]
    ));
    assert!(!sat(
        Kind::Nabner(cells(&[0, 1, 2])),
        &[(0, 1), (1, 5), (2, 6)]
    ));
    assert!(sat(
        Kind::Zipper(cells(&[0, 1, 2, 3, 4])),
        &[(0, 1), (1, 2), (2, 5), (3, 3), (4, 4)]
    ));
    assert!(sat(
        Kind::DoubleArrow(cells(&[0, 1, 2, 3])),
        &[(0, 3), (1, 2), (2, 4), (3, 3)]
    ));
    let quad = Kind::Quad {
        digits: vec![1, 1, 5].into(),
        cells: cells(&[0, 1, 9, 10]),
    };
    assert!(sat(quad.clone(), &[(0, 1), (1, 5), (9, 2), (10, 1)]));
    assert!(!sat(quad, &[(0, 1), (1, 5), (9, 2), (10, 3)]));
    let clone = Kind::Clone(vec![cells(&[0, 1]), cells(&[30, 31])].into());
    assert!(sat(clone, &[(0, 1), (1, 5), (30, 1), (31, 5)]));
}

#[test]
fn outside_clues_count_from_their_side() {
    let row: Vec<u16> = (0..9).collect();
    let digits = [
        (0, 3),
        (1, 1),
        (2, 4),
        (3, 5),
        (4, 9),
        (5, 2),
        (6, 6),
        (7, 7),
        (8, 8),
    ];
    let g = grid(nine(), &digits);
    let sat = |kind: Kind| constraint(kind).satisfied(nine(), &g);
    assert!(
        sat(Kind::Sandwich {
            sum: 9,
            cells: row.clone().into()
        }),
        "4 + 5 between 1 and 9"
    );
    assert!(
        sat(Kind::XSum {
            sum: 8,
            cells: row.clone().into()
        }),
        "3 + 1 + 4"
    );
    assert!(
        sat(Kind::Skyscraper {
            count: 4,
            cells: row.clone().into()
        }),
        "3, 4, 5, 9"
    );
    let backwards: Vec<u16> = row.iter().rev().copied().collect();
    assert!(
        sat(Kind::Skyscraper {
            count: 2,
            cells: backwards.into()
        }),
        "8, 9"
    );
}

#[test]
fn indexers_and_extremes_read_beyond_their_cells() {
    // A row indexer in B1 (row 2) holding 3 says C1 holds 2.
    let indexer = constraint(Kind::Indexer {
        index: Index::Row,
        cells: cells(&[9]),
    });
    assert_eq!(indexer.scope(nine()).len(), 9);
    let mut g: Vec<u8> = (0..81).map(|c| (c / 9 + 1) as u8).collect();
    g[9] = 3;
    g[18] = 2;
    assert!(indexer.satisfied(nine(), &g));
    g[18] = 4;
    assert!(!indexer.satisfied(nine(), &g));
    // A minimum in B2 with neighbours 5, 6, 7, 8.
    let minimum = constraint(Kind::Extreme {
        maximum: false,
        cells: cells(&[10]),
    });
    let g = grid(nine(), &[(10, 4), (1, 5), (19, 6), (9, 7), (11, 8)]);
    assert!(minimum.satisfied(nine(), &g));
    assert!(minimum.broken(nine(), &grid(nine(), &[(10, 6), (1, 5)])));
}

#[test]
fn rules_of_the_whole_grid_name_the_pairs_that_break_them() {
    let rules = Rules {
        constraints: vec![
            constraint(Kind::AntiKnight),
            constraint(Kind::NonConsecutive),
            constraint(Kind::Dot {
                dot: Dot::White,
                value: 1,
                cells: [3, 4],
            }),
        ],
        regions: None,
    };
    // A1 and B3 a knight apart; A4 and A5 consecutive across a white dot; A7, A8 not.
    let g = grid(nine(), &[(0, 5), (11, 5), (3, 1), (4, 2), (6, 7), (7, 8)]);
    assert_eq!(rules.broken_pairs(nine(), &g), vec![(0, 0, 11), (1, 6, 7)]);
    let negative = Rules {
        constraints: vec![
            constraint(Kind::Negative {
                kinds: Dot::X.bit() | Dot::V.bit(),
            }),
            constraint(Kind::Dot {
                dot: Dot::X,
                value: 10,
                cells: [0, 1],
            }),
        ],
        regions: None,
    };
    let g = grid(four(), &[(0, 1), (1, 4), (2, 2), (3, 3)]);
    assert_eq!(
        negative.broken_pairs(four(), &g),
        vec![(0, 2, 3)],
        "2 + 3 = 5 with no V"
    );
}

/// Every ordering of a line's digits, on three sides: the values some ordering gives a clue
/// are exactly its `clue_reach`, and a clue is broken on an empty grid exactly when no
/// ordering gives its value.
#[test]
fn an_outside_clue_reaches_exactly_what_some_line_of_digits_gives() {
    for side in [4, 6, 9] {
        let size = Size::from_side(side).unwrap();
        let line: Cells = (0..side as u16).collect::<Vec<_>>().into();
        let kinds = [
            Kind::Sandwich {
                sum: 0,
                cells: line.clone(),
            },
            Kind::XSum {
                sum: 0,
                cells: line.clone(),
            },
            Kind::Skyscraper {
                count: 0,
                cells: line.clone(),
            },
        ];
        for kind in kinds {
            let clue = constraint(kind);
            let reach = clue.clue_reach(size).unwrap();
            let mut reached = std::collections::BTreeSet::new();
            let mut digits: Vec<u8> = (1..=side as u8).collect();
            permutations(&mut digits, 0, &mut |row| {
                let mut g = vec![0u8; size.cells()];
                g[..side].copy_from_slice(row);
                for value in 0..=side as u32 * side as u32 {
                    let c = constraint(with_value(&clue.kind, value));
                    if c.satisfied(size, &g) {
                        reached.insert(value);
                    }
                }
            });
            let in_reach: std::collections::BTreeSet<u32> =
                reach.iter().flat_map(|r| r.clone()).collect();
            assert_eq!(reached, in_reach, "side {side}, {:?}", clue.kind);
            for value in 0..=side as u32 * side as u32 {
                let c = constraint(with_value(&clue.kind, value));
                let empty = vec![0u8; size.cells()];
                assert_eq!(c.broken(size, &empty), !reached.contains(&value), "{value}");
            }
        }
    }
}

fn with_value(kind: &Kind, value: u32) -> Kind {
    match kind {
        Kind::Sandwich { cells, .. } => Kind::Sandwich {
            sum: value,
            cells: cells.clone(),
        },
        Kind::XSum { cells, .. } => Kind::XSum {
            sum: value,
            cells: cells.clone(),
        },
        Kind::Skyscraper { cells, .. } => Kind::Skyscraper {
            count: value,
            cells: cells.clone(),
        },
        _ => unreachable!(),
    }
}

/// Call `each` with every ordering of `digits[at..]` after `digits[..at]`.
fn permutations(digits: &mut [u8], at: usize, each: &mut impl FnMut(&[u8])) {
    if at == digits.len() {
        return each(digits);
    }
    for i in at..digits.len() {
        digits.swap(at, i);
        permutations(digits, at + 1, each);
        digits.swap(at, i);
    }
}

/// More cells than digits cannot all differ: a cage, extra region, renban or nabner line of
/// N + 1 cells is broken before any digit is placed; of N cells it is not.
#[test]
fn more_cells_than_digits_cannot_differ() {
    let empty = grid(nine(), &[]);
    let ten = cells(&[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    let nine_cells = cells(&[0, 1, 2, 3, 4, 5, 6, 7, 8]);
    for (kind, of_nine) in [
        (
            Kind::Cage {
                sum: None,
                cells: ten.clone(),
            },
            Kind::Cage {
                sum: None,
                cells: nine_cells.clone(),
            },
        ),
        (
            Kind::ExtraRegion(ten.clone()),
            Kind::ExtraRegion(nine_cells.clone()),
        ),
        (Kind::Renban(ten.clone()), Kind::Renban(nine_cells.clone())),
    ] {
        assert!(constraint(kind.clone()).broken(nine(), &empty), "{kind:?}");
        assert!(
            !constraint(of_nine.clone()).broken(nine(), &empty),
            "{of_nine:?}"
        );
    }
}
