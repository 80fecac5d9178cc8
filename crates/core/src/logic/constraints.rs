//! The rules' own deductions on a variant puzzle: what one constraint, by itself, rules out of
//! its cells (a cage's combinations, a thermometer's order, an arrow's sum, a dot's pairs, a
//! line's digits, an outside clue), and what the 45 rule's innies and outies rule out. The
//! variant engine's propagators do the work, one constraint at a time
//! ([`Deducer::deduce`]); this file says it as a person would.

use std::ops::ControlFlow;

use super::board::Board;
use super::step::{say, Candidate, RuleFamily, Step, Technique};
use super::Sink;
use crate::engine::variant::{Deducer, Impossible, Origin};
use crate::engine::Digits;
use crate::rules::{cage_combinations, Constraint, Kind, Rules};

/// The family a constraint's deductions are named and rated by.
pub(crate) fn family(kind: &Kind) -> RuleFamily {
    match kind {
        Kind::Cage { .. } => RuleFamily::Cage,
        Kind::Arrow { .. } | Kind::DoubleArrow(_) => RuleFamily::Arrow,
        Kind::Thermo { .. } | Kind::Less(_) => RuleFamily::Order,
        Kind::Dot { .. } | Kind::Negative { .. } | Kind::NonConsecutive => RuleFamily::Dot,
        Kind::LittleKiller { .. }
        | Kind::Sandwich { .. }
        | Kind::XSum { .. }
        | Kind::Skyscraper { .. } => RuleFamily::Outside,
        Kind::Parity { .. } | Kind::Candidates { .. } | Kind::Extreme { .. } => RuleFamily::Cell,
        _ => RuleFamily::Line,
    }
}

/// The constraint (or the 45 rule) that cannot hold with the candidates left, and the cell it
/// leaves no digit when it found one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Broke(pub Origin, pub Option<usize>);

/// The steps the constraints (and the 45 rule) of `rules` give on `board`, each constraint's
/// eliminations to its own fixpoint in one step, for the origins `wanted` accepts, in the
/// rules' order. `Err` names a constraint that cannot hold with the candidates left.
pub(crate) fn constraint_steps<const W: usize>(
    board: &Board<'_, W>,
    rules: &Rules,
    deducer: &Deducer,
    wanted: impl Fn(Option<RuleFamily>) -> bool,
    sink: &mut Sink,
) -> Result<ControlFlow<()>, Broke> {
    let masks = masks_of(board);
    for origin in deducer.origins() {
        let constraint = match origin {
            Origin::Constraint(index) => Some(&rules.constraints[index as usize]),
            Origin::FortyFive => None,
        };
        if !wanted(constraint.map(|c| family(&c.kind))) {
            continue;
        }
        let taken = deducer
            .deduce(origin, &masks)
            .map_err(|Impossible { emptied }| Broke(origin, emptied))?;
        // Only empty cells' candidates count: a placed cell's digit is never "taken".
        let eliminations: Vec<Candidate> = taken
            .iter()
            .filter(|&&(cell, _)| board.value(cell) == 0)
            .flat_map(|&(cell, digits)| {
                Digits(u32::from(digits))
                    .iter()
                    .filter(move |&d| board.has(cell, d))
                    .map(move |d| Candidate::new(cell, d))
            })
            .collect();
        if eliminations.is_empty() {
            continue;
        }
        let step = match constraint {
            Some(constraint) => constraint_step(board, constraint, &masks, eliminations),
            None => forty_five_step(board, eliminations),
        };
        if sink.push(step).is_break() {
            return Ok(ControlFlow::Break(()));
        }
    }
    Ok(ControlFlow::Continue(()))
}

/// Each cell's candidates as the engine reads them: a placed cell's digit alone.
pub(crate) fn masks_of<const W: usize>(board: &Board<'_, W>) -> Vec<u16> {
    (0..board.geo.cells())
        .map(|cell| match board.value(cell) {
            0 => board.candidates(cell).0 as u16,
            digit => 1 << (digit - 1),
        })
        .collect()
}

/// A constraint's step: "Cage 10 at B1 B2 can hold only 2 8, 3 7 or 4 6 now: 5 and 9 leave
/// B1, B2".
fn constraint_step<const W: usize>(
    board: &Board<'_, W>,
    constraint: &Constraint,
    masks: &[u16],
    eliminations: Vec<Candidate>,
) -> Step {
    let family = family(&constraint.kind);
    let label = constraint.label(board.geo);
    let why = match &constraint.kind {
        Kind::Cage {
            sum: Some(sum),
            cells,
        } => {
            let left: Vec<u16> = cells
                .iter()
                .map(|&c| {
                    let gone = eliminations
                        .iter()
                        .filter(|e| e.cell == c)
                        .fold(0u16, |acc, e| acc | 1 << (e.digit - 1));
                    masks[c as usize] & !gone
                })
                .collect();
            let combos = cage_combinations(board.side(), Some(*sum), &left);
            let combos: Vec<String> = combos.into_iter().map(spaced).collect();
            format!("can hold only {}", or_list(&combos))
        }
        _ => "allows no other digits there".to_string(),
    };
    let cells = constraint.named_cells();
    // Digits it takes outside its own cells are digits it must hold, leaving the cells that
    // see every place it has for them.
    let (inside, outside): (Vec<Candidate>, Vec<Candidate>) = eliminations
        .iter()
        .partition(|e| cells.is_empty() || cells.contains(&e.cell));
    let mut said = Vec::new();
    if !inside.is_empty() {
        said.push(eliminated(board, &inside));
    }
    if !outside.is_empty() {
        said.push(format!(
            "what it must hold leaves the cells that see all its places for it: {}",
            eliminated(board, &outside)
        ));
    }
    Step {
        technique: Technique::Rule(family),
        difficulty: family.difficulty(),
        placements: Vec::new(),
        digits: eliminations.iter().map(|e| e.digit).collect(),
        text: format!("{} {why}: {}", capitalised(&label), said.join("; ")),
        eliminations,
        cells,
        units: Vec::new(),
    }
}

/// The 45 rule's step.
fn forty_five_step<const W: usize>(board: &Board<'_, W>, eliminations: Vec<Candidate>) -> Step {
    let mut cells: Vec<u16> = eliminations.iter().map(|e| e.cell).collect();
    cells.dedup();
    Step {
        technique: Technique::FortyFiveRule,
        difficulty: Technique::FortyFiveRule.variant_difficulty(),
        placements: Vec::new(),
        digits: eliminations.iter().map(|e| e.digit).collect(),
        text: format!(
            "45 rule: whole houses sum to 45 each, so the cells poking in or out of the cages \
             inside them make up the rest: {}",
            eliminated(board, &eliminations)
        ),
        eliminations,
        cells,
        units: Vec::new(),
    }
}

/// "5 and 9 leave B1, B2; 1 leaves B3": cells grouped by the digits they lose.
fn eliminated<const W: usize>(board: &Board<'_, W>, eliminations: &[Candidate]) -> String {
    let mut by_cell: Vec<(u16, Digits)> = Vec::new();
    for e in eliminations {
        match by_cell.iter_mut().find(|(c, _)| *c == e.cell) {
            Some((_, digits)) => digits.insert(e.digit),
            None => by_cell.push((e.cell, [e.digit].into_iter().collect())),
        }
    }
    let mut groups: Vec<(Digits, Vec<usize>)> = Vec::new();
    for (cell, digits) in by_cell {
        match groups.iter_mut().find(|(d, _)| *d == digits) {
            Some((_, cells)) => cells.push(cell as usize),
            None => groups.push((digits, vec![cell as usize])),
        }
    }
    let parts: Vec<String> = groups
        .into_iter()
        .map(|(digits, cells)| {
            let verb = if digits.len() == 1 { "leaves" } else { "leave" };
            format!(
                "{} {verb} {}",
                say::digits(digits),
                say::cells(board.geo, cells)
            )
        })
        .collect();
    parts.join("; ")
}

/// "Cage 10 at B1 B2"
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A combination as solvers write it: "1 5 9".
fn spaced(set: u16) -> String {
    let digits: Vec<String> = Digits(u32::from(set))
        .iter()
        .map(|d| crate::grid::digit_char(d).to_string())
        .collect();
    digits.join(" ")
}

/// "2 8, 3 7 or 4 6"
fn or_list(items: &[String]) -> String {
    match items.split_last() {
        None => "nothing".to_string(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}
