//! Findings for the constraints a puzzle's digits break: each names the constraint, its cells
//! and their digits, at the constraint's line when the line is the puzzle's own (else at the
//! first cell that shows the break, pointing back to the line).

use super::verdict::BrokenRule;
use crate::finding::{Code, Finding, Related, Span};
use crate::format::Puzzle;
use crate::grid::{digit_char, Geometry};
use crate::rules::{Constraint, Kind};

/// One finding per broken constraint of `puzzle`.
pub(super) fn broken_findings(
    geometry: &Geometry,
    puzzle: &Puzzle,
    broken: &[BrokenRule],
) -> Vec<Finding> {
    let Some(rules) = &puzzle.rules else {
        return Vec::new();
    };
    broken
        .iter()
        .map(|b| finding(geometry, puzzle, &rules.constraints[b.constraint], &b.cells))
        .collect()
}

fn finding(
    geometry: &Geometry,
    puzzle: &Puzzle,
    constraint: &Constraint,
    cells: &[usize],
) -> Finding {
    let name = |c: usize| geometry.cell_name(c);
    let digit = |c: usize| puzzle.givens[c];
    let message = match (&constraint.kind, cells) {
        (Kind::AntiKnight | Kind::AntiKing, &[a, b]) => {
            let apart = if constraint.kind == Kind::AntiKnight {
                "knight"
            } else {
                "king"
            };
            format!(
                "{} is in both {} and {}, a {apart}'s move apart: {} says they differ",
                digit_char(digit(a)),
                name(a),
                name(b),
                constraint.name()
            )
        }
        (Kind::NonConsecutive, &[a, b]) => format!(
            "{} and {} hold {} and {}, consecutive, with no white dot between them: \
             non-consecutive says neighbours are not",
            name(a),
            name(b),
            digit_char(digit(a)),
            digit_char(digit(b))
        ),
        (Kind::Negative { .. }, &[a, b]) => format!(
            "{} and {} hold {} and {}, which a dot would join, but no such dot is drawn between \
             them and this line says every one is",
            name(a),
            name(b),
            digit_char(digit(a)),
            digit_char(digit(b))
        ),
        _ => {
            let placed: Vec<String> = cells
                .iter()
                .filter(|&&c| digit(c) != 0)
                .map(|&c| format!("{} {}", name(c), digit_char(digit(c))))
                .collect();
            let empty = cells.iter().filter(|&&c| digit(c) == 0).count();
            let whole: Vec<String> = cells.iter().map(|&c| name(c)).collect();
            let what = if let Some(why) = cage_break(geometry, puzzle, constraint) {
                why
            } else if empty == 0 {
                format!("its digits ({}) do not keep it", placed.join(", "))
            } else if placed.is_empty() {
                "no digits can keep it".to_string()
            } else {
                format!(
                    "with {} no digits for its {empty} empty {} can keep it",
                    placed.join(", "),
                    if empty == 1 { "cell" } else { "cells" }
                )
            };
            format!(
                "{} at {} is broken: {what}",
                constraint.name(),
                whole.join(" ")
            )
        }
    };
    let own_line = puzzle.header.is_some_and(|h| h.covers(constraint.line));
    let first_placed = cells.iter().copied().find(|&c| digit(c) != 0);
    let at: Span = match first_placed {
        Some(cell) if !own_line => puzzle.cell_span(cell),
        _ if own_line => constraint.line,
        _ => puzzle.anchor(),
    };
    let mut related: Vec<Related> = cells
        .iter()
        .filter(|&&c| digit(c) != 0 && puzzle.cell_span(c) != at)
        .map(|&c| {
            Related::new(
                puzzle.cell_span(c),
                format!("{} holds {}", name(c), digit_char(digit(c))),
            )
        })
        .collect();
    if at != constraint.line {
        related.insert(
            0,
            Related::new(constraint.line, format!("the {} line", constraint.name())),
        );
    }
    Finding::error(Code::BrokenConstraint, at, message).with_related(related)
}

/// Why a cage with a sum is broken, in the words setters use: a digit twice, a total that is
/// not its sum, already over it, or out of reach of its empty cells. `None` for any other
/// constraint, or a break these do not show (the generic wording says it then).
fn cage_break(geometry: &Geometry, puzzle: &Puzzle, constraint: &Constraint) -> Option<String> {
    let Kind::Cage {
        sum: Some(sum),
        cells: cage,
    } = &constraint.kind
    else {
        return None;
    };
    let digit = |c: usize| puzzle.givens[c];
    let placed: Vec<usize> = cage
        .iter()
        .map(|&c| c as usize)
        .filter(|&c| digit(c) != 0)
        .collect();
    for (i, &a) in placed.iter().enumerate() {
        if let Some(&b) = placed[i + 1..].iter().find(|&&b| digit(b) == digit(a)) {
            return Some(format!(
                "it holds {} twice ({} and {})",
                digit_char(digit(a)),
                geometry.cell_name(a),
                geometry.cell_name(b)
            ));
        }
    }
    let listed: Vec<String> = placed
        .iter()
        .map(|&c| format!("{} {}", geometry.cell_name(c), digit_char(digit(c))))
        .collect();
    let listed = listed.join(", ");
    let total: u32 = placed.iter().map(|&c| u32::from(digit(c))).sum();
    let empty = cage.len() - placed.len();
    if empty == 0 {
        return (total != *sum).then(|| format!("its digits ({listed}) sum to {total}, not {sum}"));
    }
    let cells_word = if empty == 1 { "cell" } else { "cells" };
    if total >= *sum {
        return Some(format!(
            "its digits so far ({listed}) sum to {total}, leaving nothing for its {empty} empty \
             {cells_word}"
        ));
    }
    // The most and the least its empty cells can add: the largest and smallest digits unused.
    let used: Vec<u8> = placed.iter().map(|&c| digit(c)).collect();
    let free: Vec<u32> = (1..=geometry.side() as u8)
        .filter(|d| !used.contains(d))
        .map(u32::from)
        .collect();
    let most: u32 = free.iter().rev().take(empty).sum();
    let least: u32 = free.iter().take(empty).sum();
    let with = match placed.is_empty() {
        true => String::new(),
        false => format!("with {listed} "),
    };
    if total + most < *sum {
        return Some(format!(
            "{with}its {empty} empty {cells_word} can add at most {most}, short of {}",
            sum - total
        ));
    }
    if total + least > *sum {
        return Some(format!(
            "{with}its {empty} empty {cells_word} add at least {least}, over {}",
            sum - total
        ));
    }
    None
}
