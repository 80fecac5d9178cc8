//! Forcing by weak links (Rangsk's cell and unit forcing): a candidate weakly linked to every
//! candidate of another cell, or to every place of a digit in a house, is false — were it
//! true, that cell would have no digit left, that house no place for the digit. With the
//! houses' links alone this is locked candidates; the rules' links ([`RuleLinks`]) make it a
//! step of its own, often the one a variant solver sees first ("if A1 were 5, B3 would have no
//! digit: not 2 by cage 10 at A1 B3, not 7 by thermo at A1 B2 B3, not 5 as it sees A1").

use std::ops::ControlFlow;

use super::board::Board;
use super::links::{plain, weak, RuleLinks};
use super::solver::stopped;
use super::step::{Candidate, Step, Technique};
use super::Sink;
use crate::engine::{Budget, Digits};
use crate::grid::digit_char;

/// Every candidate that some cell's or house's weak links force out, at least one of those
/// links a rule's; each candidate once, the cells before the houses.
pub(crate) fn rule_forcing<const W: usize>(
    b: &Board<'_, W>,
    rules: &RuleLinks,
    budget: &Budget,
    sink: &mut Sink,
) -> ControlFlow<()> {
    for x in b.empty_cells().iter() {
        if stopped(budget).is_some() {
            break;
        }
        for digit in b.candidates(x).iter() {
            let from = Candidate::new(x, digit);
            if rules.partners(from).is_empty() {
                continue;
            }
            if let Some(step) =
                emptied_cell(b, rules, from).or_else(|| emptied_house(b, rules, from))
            {
                sink.push(step)?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// How `from` rules out `to`, if it does: "by cage 10 at A1 A2", "as it sees A1", "as A1
/// holds 5".
fn link_reason<const W: usize>(
    b: &Board<'_, W>,
    rules: &RuleLinks,
    from: Candidate,
    to: Candidate,
) -> Option<String> {
    let at = b.geo.cell_name(from.cell as usize);
    if plain(b, from, to) {
        return Some(match from.cell == to.cell {
            true => format!("as {at} holds {}", digit_char(from.digit)),
            false => format!("as it sees {at}"),
        });
    }
    rules
        .between(from, to)
        .map(|c| format!("by {}", rules.label(c)))
}

/// A cell other than `from`'s whose every candidate `from` rules out, a rule doing part of it.
fn emptied_cell<const W: usize>(
    b: &Board<'_, W>,
    rules: &RuleLinks,
    from: Candidate,
) -> Option<Step> {
    let mut cells: Vec<usize> = rules
        .partners(from)
        .iter()
        .map(|&(c, _)| c.cell as usize)
        .filter(|&c| c != from.cell as usize && b.value(c) == 0)
        .collect();
    cells.sort_unstable();
    cells.dedup();
    for cell in cells {
        let linked = |d| weak(b, Some(rules), from, Candidate::new(cell, d));
        if !b.candidates(cell).iter().all(linked) {
            continue;
        }
        let reasons: Option<Vec<(String, String)>> = b
            .candidates(cell)
            .iter()
            .map(|d| {
                link_reason(b, rules, from, Candidate::new(cell, d))
                    .map(|why| (digit_char(d).to_string(), why))
            })
            .collect();
        if let Some(reasons) = reasons {
            let reasons = grouped(&reasons, " or ");
            let what = format!("{} would have no digit left", b.geo.cell_name(cell));
            return Some(step(b, from, vec![cell as u16], &what, &reasons));
        }
    }
    None
}

/// A house with no place left for a digit were `from` true, a rule doing part of it.
fn emptied_house<const W: usize>(
    b: &Board<'_, W>,
    rules: &RuleLinks,
    from: Candidate,
) -> Option<Step> {
    let mut tried: Vec<(usize, u8)> = Vec::new();
    for &(to, _) in rules.partners(from) {
        for &unit in b.geo.units_of[to.cell as usize].iter() {
            let unit = unit as usize;
            if tried.contains(&(unit, to.digit)) || b.unit_has_value(unit, to.digit) {
                continue;
            }
            tried.push((unit, to.digit));
            let places = b.places_in(to.digit, unit);
            if places.is_empty() || places.contains(from.cell as usize) {
                continue; // `from` itself may be where the digit goes
            }
            let linked = |cell| weak(b, Some(rules), from, Candidate::new(cell, to.digit));
            if !places.iter().all(linked) {
                continue;
            }
            let reasons: Option<Vec<(String, String)>> = places
                .iter()
                .map(|cell| {
                    link_reason(b, rules, from, Candidate::new(cell, to.digit))
                        .map(|why| (b.geo.cell_name(cell), why))
                })
                .collect();
            if let Some(reasons) = reasons {
                let reasons = grouped(&reasons, " nor ");
                let what = format!(
                    "{} would have no place for {}",
                    b.geo.unit_name(unit),
                    digit_char(to.digit)
                );
                let cells = places.iter().map(|c| c as u16).collect();
                return Some(step(b, from, cells, &what, &reasons));
            }
        }
    }
    None
}

/// "not 6, 7 or 8 by whisper line at …", one phrase for each reason, in the order each first
/// comes.
fn grouped(reasons: &[(String, String)], or: &str) -> Vec<String> {
    let mut whys: Vec<&str> = Vec::new();
    for (_, why) in reasons {
        if !whys.contains(&why.as_str()) {
            whys.push(why);
        }
    }
    whys.into_iter()
        .map(|why| {
            let what: Vec<&str> = reasons
                .iter()
                .filter(|(_, w)| w == why)
                .map(|(what, _)| what.as_str())
                .collect();
            let what = match what.split_last() {
                Some((last, rest)) if !rest.is_empty() => format!("{}{or}{last}", rest.join(", ")),
                _ => what.concat(),
            };
            format!("not {what} {why}")
        })
        .collect()
}

fn step<const W: usize>(
    b: &Board<'_, W>,
    from: Candidate,
    mut cells: Vec<u16>,
    what: &str,
    reasons: &[String],
) -> Step {
    let (at, d) = (b.geo.cell_name(from.cell as usize), digit_char(from.digit));
    cells.insert(0, from.cell);
    Step {
        technique: Technique::RuleForcing,
        difficulty: Technique::RuleForcing.variant_difficulty(),
        placements: Vec::new(),
        eliminations: vec![from],
        cells,
        units: Vec::new(),
        digits: Digits::single(from.digit),
        text: format!(
            "If {at} were {d}, {what} ({}), so {d} leaves {at}",
            reasons.join(", ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::variant::Deducer;
    use crate::logic::fixtures::{at, keep, only_in};
    use crate::logic::links::tests::empty_with;

    /// Every forcing step on an empty 9×9 with `lines`, its candidates first narrowed by
    /// `narrow` (given the board and a cell's index by name), and A1's index.
    fn forcing(
        lines: &str,
        narrow: impl Fn(&mut Board<'_, 2>, &dyn Fn(&str) -> usize),
    ) -> (Vec<Step>, usize) {
        let (geo, rules) = empty_with(lines);
        let deducer = Deducer::new(&geo, &rules);
        let mut b = Board::<2>::new(&geo, &[0; 81]);
        let cells: Vec<String> = (0..81).map(|c| geo.cell_name(c)).collect();
        let named = |name: &str| cells.iter().position(|n| n == name).expect("a cell");
        narrow(&mut b, &named);
        let links = RuleLinks::of(&b, &rules, &deducer, &Budget::unlimited());
        let mut sink = Sink::all();
        let _ = rule_forcing(&b, &links, &Budget::unlimited(), &mut sink);
        (sink.steps, at(&b, "A1"))
    }

    /// The step that takes `digit` out of `cell`.
    fn taking(steps: &[Step], cell: usize, digit: u8) -> Option<&Step> {
        steps
            .iter()
            .find(|s| s.eliminations == [Candidate::new(cell, digit)])
    }

    #[test]
    fn a_digit_that_would_empty_a_cell_goes() {
        let (steps, a1) = forcing("white: A1 A2", |b, named| keep(b, named("A2"), &[3, 7]));
        let five = taking(&steps, a1, 5).expect("5 leaves A1");
        assert_eq!(
            five.text,
            "If A1 were 5, A2 would have no digit left (not 3 or 7 by white dot at A1 A2), so 5 \
             leaves A1"
        );
        assert_eq!(five.technique, Technique::RuleForcing);
        // An even digit has 3 or 7 beside it; an odd one neither (3 itself sees A2's 3).
        let gone: Vec<u8> = steps.iter().map(|s| s.eliminations[0].digit).collect();
        assert_eq!(gone, [1, 3, 5, 7, 9]);
        assert!(steps[1]
            .text
            .contains("not 3 as it sees A1, not 7 by white dot"));
    }

    #[test]
    fn a_digit_that_would_leave_a_house_no_place_goes() {
        // Two thermometers from A1 (king steps): A1=5 leaves B1 and B2 above 5, and 4 has only
        // those two places in row B.
        let (steps, a1) = forcing("thermo: A1 B1\nthermo: A1 B2", |b, named| {
            only_in(b, 4, 1, &[named("B1"), named("B2")])
        });
        let five = taking(&steps, a1, 5).expect("5 leaves A1");
        assert_eq!(
            five.text,
            "If A1 were 5, row B would have no place for 4 (not B1 by thermo at A1 B1, not B2 \
             by thermo at A1 B2), so 5 leaves A1"
        );
        // 4 itself is the claiming's business (B1 and B2 see A1): no rule link, no step.
        assert!(taking(&steps, a1, 4).is_none());
    }
}
