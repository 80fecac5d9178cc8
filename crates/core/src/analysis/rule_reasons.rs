//! Why a variant puzzle has no solution, when the rules' own pencil marks show it: a cell no
//! digit fits (each digit's reason named: the given that sees it, or the constraint that rules
//! it out), a digit with no place in a house, or a constraint that cannot hold with the
//! candidates the others leave. The variant engine notes each reason as it fills in the marks
//! ([`engine::variant::candidates_with_reasons`]); this module puts them into words.

use super::explain::CellState;
use super::findings::unit_span;
use super::wording::{digit_list, shared_unit_names};
use crate::engine::variant::{self, RuleMarks, RuleReason};
use crate::engine::Digits;
use crate::finding::{Code, Finding, Related, Span};
use crate::format::Puzzle;
use crate::grid::{digit_char, Geometry};
use crate::rules::cage_combinations;
use crate::rules::{Constraint, Kind, Rules};

/// The findings that say why `puzzle` (which has rules and no solution) has none, when its
/// rules' pencil marks show it; empty when they do not (the search alone found it).
pub(super) fn no_solution_findings(
    geometry: &Geometry,
    puzzle: &Puzzle,
    rules: &Rules,
) -> Vec<Finding> {
    let givens = puzzle.clues();
    let marks = variant::candidates_with_reasons(geometry, rules, &givens);
    let words = Words {
        geometry,
        rules,
        puzzle,
        givens: &givens,
        marks: &marks,
    };
    let mut found: Vec<Finding> = (0..givens.len())
        .filter(|&c| givens[c] == 0 && marks.masks[c] == 0)
        .map(|c| words.empty_cell(c))
        .collect();
    if found.is_empty() {
        found.extend(marks.broken.map(|index| words.broken(index as usize)));
    }
    if found.is_empty() {
        found.extend(words.no_places(&givens));
    }
    found
}

/// An empty cell of a puzzle with rules, as hover shows it: the rules' pencil marks (the
/// givens and the solver's entries seen, each constraint's own propagator run), why each other
/// digit is out, naming the given or the constraint, and what full propagation concludes
/// (`propagated`'s masks, `None` for a contradiction).
pub(super) fn explain_empty(
    geometry: &Geometry,
    puzzle: &Puzzle,
    rules: &Rules,
    cell: usize,
    propagated: Option<&[u16]>,
) -> CellState {
    let givens = &puzzle.givens;
    let marks = variant::candidates_with_reasons(geometry, rules, givens);
    let words = Words {
        geometry,
        rules,
        puzzle,
        givens,
        marks: &marks,
    };
    let here = marks.masks[cell];
    let excluded = (1..=geometry.side() as u8)
        .filter(|d| here >> (d - 1) & 1 == 0)
        .map(|d| (d, words.digit_out(cell, d)))
        .collect();
    let conclusion = match propagated {
        None => "propagation finds no solution".to_string(),
        Some(after) => match Digits(u32::from(after[cell])) {
            left if left.len() == 1 => format!(
                "propagation places {}",
                digit_char(left.iter().next().unwrap_or(0))
            ),
            left => format!("propagation leaves {left}"),
        },
    };
    CellState::Empty {
        marks: Digits(u32::from(here)),
        excluded,
        conclusion,
    }
}

struct Words<'a> {
    geometry: &'a Geometry,
    rules: &'a Rules,
    puzzle: &'a Puzzle,
    /// The digits the marks were filled in from (the givens, and the solver's entries too for
    /// hover).
    givens: &'a [u8],
    marks: &'a RuleMarks,
}

impl Words<'_> {
    /// "no digit fits in A5: 1 and 2 (cage 3 at A1 A2), 3–9 (cage 3 at A5 A6)".
    fn empty_cell(&self, cell: usize) -> Finding {
        let name = self.geometry.cell_name(cell);
        let message = format!(
            "no digit fits in {name}: {}",
            self.why_not(cell, self.all_digits())
        );
        Finding::error(Code::ImpossibleCell, self.puzzle.cell_span(cell), message)
            .with_related(self.related(&[cell], self.all_digits()))
    }

    /// A constraint that cannot hold with the candidates its cells have left.
    fn broken(&self, index: usize) -> Finding {
        let constraint = &self.rules.constraints[index];
        let left: Vec<String> = constraint
            .named_cells()
            .iter()
            .map(|&c| self.left_in(c as usize))
            .collect();
        let message = format!(
            "no solution: {} cannot hold with the candidates the other rules leave its cells: {}",
            self.label(constraint),
            left.join("; ")
        );
        let at = self.line_or_anchor(constraint);
        let cells: Vec<usize> = constraint
            .named_cells()
            .iter()
            .map(|&c| c as usize)
            .collect();
        Finding::error(Code::NoSolution, at, message)
            .with_related(self.related(&cells, self.all_digits()))
    }

    /// "A1 3–9, not 1 and 2 (cage 3 at A5 A6)": a cell's candidates and why the others went.
    fn left_in(&self, cell: usize) -> String {
        let (name, mask) = (self.geometry.cell_name(cell), self.marks.masks[cell]);
        let gone = self.all_digits() & !mask;
        match (self.givens[cell], gone) {
            (0, 0) => format!("{name} {}", digit_list(mask)),
            (0, _) => format!(
                "{name} {}, not {}",
                digit_list(mask),
                self.why_not(cell, gone)
            ),
            (d, _) => format!("{name} given {}", digit_char(d)),
        }
    }

    /// "5 has no place in row A: A1 (…), A2 (…)", for each digit some house has no place for.
    fn no_places(&self, givens: &[u8]) -> Vec<Finding> {
        let side = self.geometry.side();
        let mut found = Vec::new();
        for (u, unit) in self.geometry.units.iter().enumerate() {
            let (mut present, mut fits) = (0u16, 0u16);
            for &c in unit.cells.iter() {
                match givens[c as usize] {
                    0 => fits |= self.marks.masks[c as usize],
                    d => present |= 1 << (d - 1),
                }
            }
            let missing = ((1u32 << side) - 1) as u16 & !present & !fits;
            for d in (1..=side as u8).filter(|d| missing >> (d - 1) & 1 == 1) {
                let empties: Vec<usize> = unit
                    .cells
                    .iter()
                    .map(|&c| c as usize)
                    .filter(|&c| givens[c] == 0)
                    .collect();
                let why: Vec<String> = empties
                    .iter()
                    .map(|&c| format!("{} ({})", self.geometry.cell_name(c), self.reason(c, d)))
                    .collect();
                let message = format!(
                    "{} has no place in {}: {}",
                    digit_char(d),
                    self.geometry.unit_name(u),
                    why.join(", ")
                );
                let span = unit_span(self.puzzle, &unit.cells, &empties);
                found.push(
                    Finding::error(Code::NoPlace, span, message)
                        .with_related(self.related(&empties, 1 << (d - 1))),
                );
            }
        }
        found
    }

    fn all_digits(&self) -> u16 {
        ((1u32 << self.geometry.side()) - 1) as u16
    }

    /// The digits of `digits` gone from `cell`, grouped by reason: "1 and 2 (cage 3 at A1
    /// A2), 4 (row A: A3)".
    fn why_not(&self, cell: usize, digits: u16) -> String {
        let mut groups: Vec<(Option<RuleReason>, u16)> = Vec::new();
        for d in (1..=self.geometry.side() as u8).filter(|d| digits >> (d - 1) & 1 == 1) {
            let reason = self.marks.reason(cell, d);
            match groups.iter_mut().find(|(r, _)| *r == reason) {
                Some((_, mask)) => *mask |= 1 << (d - 1),
                None => groups.push((reason, 1 << (d - 1))),
            }
        }
        let parts: Vec<String> = groups
            .iter()
            .map(|&(reason, mask)| {
                format!("{} ({})", digit_list(mask), self.reason_words(cell, reason))
            })
            .collect();
        parts.join(", ")
    }

    /// Why `digit` is not among `cell`'s candidates, in words: "row A: A5", "cage 10 at A1 A2
    /// would leave 1 for A2, which row A already holds (A5)".
    fn digit_out(&self, cell: usize, digit: u8) -> String {
        let reason = self.marks.reason(cell, digit);
        let label = self.reason_words(cell, reason);
        let Some(RuleReason::Constraint { index }) = reason else {
            return label;
        };
        match self.rules.constraints.get(index as usize).map(|c| &c.kind) {
            Some(Kind::Cage { sum, cells }) if !cells.contains(&(cell as u16)) => {
                match self.cage_must_hold(digit, *sum, cells) {
                    true => format!(
                        "{label} must hold {} in cells {} sees",
                        digit_char(digit),
                        self.geometry.cell_name(cell)
                    ),
                    false => label,
                }
            }
            Some(Kind::Cage {
                sum: Some(sum),
                cells,
            }) => match self.cage_remainder(cell, digit, *sum, cells) {
                Some(rest) => format!("{label} {rest}"),
                None => label,
            },
            _ => label,
        }
    }

    /// Why a cage's sum rules `digit` out of `cell`, when its other cells' candidates show it:
    /// "would leave 1 for A2, which row A already holds (A5)", "would need 5 twice", "would
    /// leave 12 for A2 B1, which no different digits among their candidates make".
    fn cage_remainder(&self, cell: usize, digit: u8, sum: u32, cells: &[u16]) -> Option<String> {
        let others = cells.iter().map(|&c| c as usize).filter(|&c| c != cell);
        // The cage's other givens are part of what the digit must add up with.
        let (held, open): (Vec<usize>, Vec<usize>) = others.partition(|&c| self.givens[c] != 0);
        let d = u32::from(digit);
        let total: u32 = d + held.iter().map(|&c| u32::from(self.givens[c])).sum::<u32>();
        let with_givens = match held.len() {
            0 => String::new(),
            _ => {
                let named: Vec<String> = held
                    .iter()
                    .map(|&c| {
                        let name = self.geometry.cell_name(c);
                        format!("{name} holds {}", digit_char(self.givens[c]))
                    })
                    .collect();
                format!(" ({})", named.join(", "))
            }
        };
        if open.is_empty() || total >= sum {
            return (total != sum).then(|| format!("would sum to {total}, not {sum}{with_givens}"));
        }
        let rest = sum - total;
        let names: Vec<String> = open.iter().map(|&c| self.geometry.cell_name(c)).collect();
        if let [other] = open[..] {
            if rest > self.geometry.side() as u32 {
                let name = &names[0];
                return Some(format!(
                    "would leave {rest} for {name}, more than a digit{with_givens}"
                ));
            }
            let needed = rest as u8;
            if needed == digit || held.iter().any(|&c| self.givens[c] == needed) {
                return Some(format!(
                    "would need {} twice{with_givens}",
                    digit_char(needed)
                ));
            }
            return (self.marks.masks[other] >> (needed - 1) & 1 == 0).then(|| {
                format!(
                    "would leave {} for {}, which {}{with_givens}",
                    digit_char(needed),
                    names[0],
                    self.not_there(other, needed)
                )
            });
        }
        let used = held
            .iter()
            .fold(1u16 << (digit - 1), |m, &c| m | 1 << (self.givens[c] - 1));
        let options: Vec<u16> = open.iter().map(|&c| self.options(c) & !used).collect();
        let side = self.geometry.side();
        cage_combinations(side, Some(rest), &options)
            .is_empty()
            .then(|| {
                format!(
                    "would leave {rest} for {}, which their candidates cannot make with \
                     different digits{with_givens}",
                    names.join(" ")
                )
            })
    }

    /// Whether every combination the cage's cells' candidates allow holds `digit`.
    fn cage_must_hold(&self, digit: u8, sum: Option<u32>, cells: &[u16]) -> bool {
        let options: Vec<u16> = cells.iter().map(|&c| self.options(c as usize)).collect();
        let combinations = cage_combinations(self.geometry.side(), sum, &options);
        !combinations.is_empty() && combinations.iter().all(|set| set >> (digit - 1) & 1 == 1)
    }

    /// A cell's candidates, or its digit alone when it holds one.
    fn options(&self, cell: usize) -> u16 {
        match self.givens[cell] {
            0 => self.marks.masks[cell],
            held => 1 << (held - 1),
        }
    }

    /// Why `digit` cannot go in `cell`, as a clause: "row A already holds (A5)", "thermo at A1
    /// A2 A3 rules out".
    fn not_there(&self, cell: usize, digit: u8) -> String {
        match self.marks.reason(cell, digit) {
            Some(RuleReason::Peer { given }) => {
                let given = given as usize;
                format!(
                    "{} already holds ({})",
                    self.seen_by(cell, given),
                    self.geometry.cell_name(given)
                )
            }
            reason => format!("{} rules out", self.reason_words(cell, reason)),
        }
    }

    fn reason(&self, cell: usize, digit: u8) -> String {
        self.reason_words(cell, self.marks.reason(cell, digit))
    }

    fn reason_words(&self, cell: usize, reason: Option<RuleReason>) -> String {
        match reason {
            None => "no reason recorded".to_string(),
            Some(RuleReason::Constraint { index }) => {
                match self.rules.constraints.get(index as usize) {
                    Some(constraint) => self.label(constraint),
                    None => "the 45 rule on the cages".to_string(),
                }
            }
            Some(RuleReason::Peer { given }) => {
                let given = given as usize;
                format!(
                    "{}: {}",
                    self.seen_by(cell, given),
                    self.geometry.cell_name(given)
                )
            }
        }
    }

    /// "cage 3 at A1 A2", or a rule of the whole grid by its name ("anti-knight").
    fn label(&self, constraint: &Constraint) -> String {
        let cells = constraint.named_cells();
        if cells.is_empty() {
            return constraint.name();
        }
        let names: Vec<String> = cells
            .iter()
            .map(|&c| self.geometry.cell_name(c as usize))
            .collect();
        format!("{} at {}", constraint.name(), names.join(" "))
    }

    /// Why two cells see each other: the houses they share, else the rule that says they
    /// differ (a cage, an extra region, a renban line, a knight's or king's move).
    fn seen_by(&self, a: usize, b: usize) -> String {
        let houses = shared_unit_names(self.geometry, a, b);
        if !houses.is_empty() {
            return houses;
        }
        let n = self.geometry.side() as i32;
        let (dr, dc) = (
            (a as i32 / n - b as i32 / n).abs(),
            (a as i32 % n - b as i32 % n).abs(),
        );
        let rule = self.rules.constraints.iter().find(|c| match &c.kind {
            Kind::Cage { cells, .. } | Kind::ExtraRegion(cells) | Kind::Renban(cells) => {
                cells.contains(&(a as u16)) && cells.contains(&(b as u16))
            }
            Kind::AntiKnight => (dr, dc) == (1, 2) || (dr, dc) == (2, 1),
            Kind::AntiKing => dr.max(dc) == 1,
            _ => false,
        });
        match rule {
            Some(constraint) => self.label(constraint),
            None => "a rule".to_string(),
        }
    }

    /// The constraint's line when the puzzle's header holds it, else where whole-puzzle
    /// findings go.
    fn line_or_anchor(&self, constraint: &Constraint) -> Span {
        match self
            .puzzle
            .header
            .is_some_and(|h| h.covers(constraint.line))
        {
            true => constraint.line,
            false => self.puzzle.anchor(),
        }
    }

    /// For `cells`, the givens and constraint lines that took `digits` from them, one related
    /// location each.
    fn related(&self, cells: &[usize], digits: u16) -> Vec<Related> {
        let mut related: Vec<Related> = Vec::new();
        let mut add = |span: Span, message: String| {
            if !related.iter().any(|r| r.span == span) {
                related.push(Related::new(span, message));
            }
        };
        for &cell in cells {
            for d in (1..=self.geometry.side() as u8).filter(|d| digits >> (d - 1) & 1 == 1) {
                match self.marks.reason(cell, d) {
                    Some(RuleReason::Peer { given }) => {
                        let given = given as usize;
                        let name = self.geometry.cell_name(given);
                        add(
                            self.puzzle.cell_span(given),
                            format!("{name} holds {}", digit_char(d)),
                        );
                    }
                    Some(RuleReason::Constraint { index }) => {
                        if let Some(constraint) = self.rules.constraints.get(index as usize) {
                            let own = self
                                .puzzle
                                .header
                                .is_some_and(|h| h.covers(constraint.line));
                            if own {
                                add(constraint.line, format!("the {} line", constraint.name()));
                            }
                        }
                    }
                    None => {}
                }
            }
        }
        related
    }
}
