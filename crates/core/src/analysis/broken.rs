//! Findings for the constraints a puzzle's digits break: each names the constraint, its cells
//! and their digits, at the constraint's line when the line is the puzzle's own (else at the
//! first cell that shows the break, pointing back to the line).

use super::break_words;
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
            let what = if let Some(why) = break_words::why(geometry, puzzle, constraint) {
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
