//! The rules' own deductions on a variant puzzle: what one constraint, by itself, rules out of
//! its cells (a cage's combinations, a thermometer's order, an arrow's sum, a dot's pairs, a
//! line's digits, an outside clue), and what the 45 rule's innies and outies rule out. The
//! variant engine's propagators do the work, one constraint at a time
//! ([`Deducer::deduce`]); this file says it as a person would.

use std::ops::ControlFlow;

use super::board::Board;
use super::step::{say, Candidate, RuleFamily, Step, Technique};
use super::Sink;
use crate::engine::variant::{Deducer, Equation, Impossible, Origin};
use crate::engine::Digits;
use crate::grid::digit_char;
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
            None => forty_five_step(board, &deducer.last_equations(), eliminations),
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
    // The digits of the combinations still possible (a cage's): one of them leaving a cell left
    // because no filling puts it there, which the sentence says.
    let mut held = 0u16;
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
            held = combos.iter().fold(0, |all, &combo| all | combo);
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
    // Within the cells, digits of no combination, and digits of one that no filling of the
    // cells puts there ({1, 2}, {1, 2} and {1, 2, 3} making 6: 1 and 2 leave the third cell).
    let (unplaceable, unheld): (Vec<Candidate>, Vec<Candidate>) =
        inside.iter().partition(|e| held & 1 << (e.digit - 1) != 0);
    let mut said = Vec::new();
    if !unheld.is_empty() {
        said.push(eliminated(board, &unheld));
    }
    if !unplaceable.is_empty() {
        said.push(format!(
            "no filling of the cage puts {}",
            placed_nowhere(board, &unplaceable)
        ));
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
fn forty_five_step<const W: usize>(
    board: &Board<'_, W>,
    equations: &[Equation],
    eliminations: Vec<Candidate>,
) -> Step {
    let mut cells: Vec<u16> = eliminations.iter().map(|e| e.cell).collect();
    cells.dedup();
    let side = board.side();
    let house = side * (side + 1) / 2;
    let said: Vec<String> = equations.iter().map(|e| equation(board, e)).collect();
    let so = match said.is_empty() {
        true => "the cells poking in or out of the cages inside them make up the rest".to_string(),
        false => format!(
            "the cells poking in or out of the cages inside them make up the rest: {}",
            said.join("; ")
        ),
    };
    Step {
        technique: Technique::FortyFiveRule,
        difficulty: Technique::FortyFiveRule.variant_difficulty(),
        placements: Vec::new(),
        digits: eliminations.iter().map(|e| e.digit).collect(),
        text: format!(
            "45 rule: whole houses sum to {house} each, so {so}; {}",
            eliminated(board, &eliminations)
        ),
        eliminations,
        cells,
        units: Vec::new(),
    }
}

/// "D2 + E2 = 13", "D2 = F3 + 4", "A1 A2 A3 hold 6 different digits summing to 13": an innie
/// or outie equation with every term on the side where it adds.
fn equation<const W: usize>(board: &Board<'_, W>, e: &Equation) -> String {
    let name = |c: u16| board.geo.cell_name(c as usize);
    if e.distinct && e.terms.len() > 1 {
        let cells: Vec<String> = e.terms.iter().map(|&(_, c)| name(c)).collect();
        return format!("{} sum to {} with no digit twice", cells.join(" "), e.total);
    }
    // Innies alone come as `−Σ = −total`: said the way round a person says it.
    let flip = if e.terms.iter().all(|t| t.0 < 0) {
        -1
    } else {
        1
    };
    let terms: Vec<(i32, u16)> = e.terms.iter().map(|&(k, c)| (k * flip, c)).collect();
    let total = e.total * flip;
    let term = |k: i32, c: u16| match k.abs() {
        1 => name(c),
        k => format!("{k}×{}", name(c)),
    };
    let side = |positive: bool| -> Vec<String> {
        let on_side = terms.iter().filter(|t| (t.0 > 0) == positive);
        on_side.map(|&(k, c)| term(k, c)).collect()
    };
    let (mut left, mut right) = (side(true), side(false));
    match total {
        t if t > 0 => right.push(t.to_string()),
        t if t < 0 => left.push((-t).to_string()),
        _ if right.is_empty() => right.push("0".to_string()),
        _ => {}
    }
    if left.is_empty() {
        left.push("0".to_string());
    }
    format!("{} = {}", left.join(" + "), right.join(" + "))
}

/// "5 and 9 leave B1, B2; 1 leaves B3": cells grouped by the digits they lose.
fn eliminated<const W: usize>(board: &Board<'_, W>, eliminations: &[Candidate]) -> String {
    let parts: Vec<String> = grouped_by_digits(eliminations)
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

/// The cells of `eliminations` with the digits each loses, cells that lose the same digits
/// together, in the order they first come.
fn grouped_by_digits(eliminations: &[Candidate]) -> Vec<(Digits, Vec<usize>)> {
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
    groups
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

/// "7 in B5 or B6", "6 in C4 or 5 in D4": digits and the cells they cannot be in, cells with
/// the same digits together.
fn placed_nowhere<const W: usize>(board: &Board<'_, W>, eliminations: &[Candidate]) -> String {
    let parts: Vec<String> = grouped_by_digits(eliminations)
        .into_iter()
        .map(|(digits, cells)| {
            let digits: Vec<String> = digits.iter().map(|d| digit_char(d).to_string()).collect();
            let cells: Vec<String> = cells.into_iter().map(|c| board.geo.cell_name(c)).collect();
            format!("{} in {}", or_list(&digits), or_list(&cells))
        })
        .collect();
    or_list(&parts)
}

/// "2 8, 3 7 or 4 6"
fn or_list(items: &[String]) -> String {
    match items.split_last() {
        None => "nothing".to_string(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse;

    /// The constraint steps of the first puzzle of `text` from the families `wanted` takes
    /// (`None`: the 45 rule).
    fn steps_of(text: &str, wanted: impl Fn(Option<RuleFamily>) -> bool) -> Vec<Step> {
        let document = parse(text);
        let puzzle = &document.puzzles[0];
        let rules = puzzle.rules.as_deref().expect("rules");
        let geometry = puzzle.geometry();
        let deducer = Deducer::new(&geometry, rules);
        let geo = deducer.geometry(&geometry);
        let board = Board::<2>::new(&geo, &puzzle.givens);
        let mut sink = Sink::all();
        let _ = constraint_steps(&board, rules, &deducer, wanted, &mut sink);
        sink.steps
    }

    #[test]
    fn the_45_rule_says_its_equation() {
        // Row A's cages leave A9 over: 45 − (10 + 20 + 12) = 3.
        let text = format!(
            "cage 10: A1 A2\ncage 20: A3 A4 A5\ncage 12: A6 A7 A8\n{}\n",
            ".".repeat(81)
        );
        let steps = steps_of(&text, |f| f.is_none());
        let step = steps.first().expect("a 45 rule step");
        assert_eq!(step.technique, Technique::FortyFiveRule);
        assert!(step.text.contains(" A9 = 3;"), "{}", step.text);
        let a9: Vec<u8> = step
            .eliminations
            .iter()
            .filter(|e| e.cell == 8)
            .map(|e| e.digit)
            .collect();
        assert_eq!(a9, [1, 2, 4, 5, 6, 7, 8, 9]);
    }

    #[test]
    fn a_cage_says_which_digits_of_its_combinations_no_filling_puts_in_a_cell() {
        // 9 at E1 keeps 9 out of A1, so A2 cannot be 1; 1 9 stays a combination (9 in A2).
        let mut grid = ".".repeat(81);
        grid.replace_range(36..37, "9");
        let text = format!("cage 10: A1 A2\n{grid}\n");
        let steps = steps_of(&text, |_| true);
        let step = steps
            .iter()
            .find(|s| s.text.starts_with("Cage 10"))
            .expect("the cage's step");
        assert_eq!(
            step.text,
            "Cage 10 at A1 A2 can hold only 1 9, 2 8, 3 7 or 4 6: 5 leaves A1, A2; \
             no filling of the cage puts 1 in A2"
        );
    }

    #[test]
    fn an_equation_puts_each_term_where_it_adds() {
        let geo = crate::grid::geometry(crate::grid::Size::NINE, crate::grid::Variant::Classic);
        let board = Board::<2>::new(geo, &[0; 81]);
        let said = |terms: &[(i32, u16)], total: i32, distinct: bool| {
            let e = Equation {
                terms: terms.to_vec(),
                total,
                distinct,
            };
            equation(&board, &e)
        };
        assert_eq!(
            said(&[(1, 0), (1, 1), (-1, 9)], 4, false),
            "A1 + A2 = B1 + 4"
        );
        assert_eq!(said(&[(1, 0), (-1, 9)], -2, false), "A1 + 2 = B1");
        assert_eq!(said(&[(-1, 0), (-1, 1)], -13, false), "A1 + A2 = 13");
        assert_eq!(said(&[(2, 0), (-1, 9)], 0, false), "2×A1 = B1");
        assert_eq!(
            said(&[(1, 0), (1, 1)], 13, true),
            "A1 A2 sum to 13 with no digit twice"
        );
    }
}
