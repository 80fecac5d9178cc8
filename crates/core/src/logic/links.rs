//! The rules' weak links, as Rangsk's solver keeps them: two candidates that one constraint
//! says cannot both be true ("if A1 were 3, cage 10 at A1 A2 would leave A2 only 7, so A1=3
//! and A2=5 cannot both hold"). The houses give the plain weak links (two digits of a cell, a
//! digit twice in a house); these are the rest, each with the constraint that gives it, so the
//! general techniques (chains, forcing) can run over both and say which rule each link is.
//!
//! A link found on a grid holds on every grid with fewer candidates (a constraint that rules a
//! pair out still does with fewer choices around it), so a grid's links serve its later steps.

use super::board::Board;
use super::constraints::masks_of;
use super::solver::stopped;
use super::step::Candidate;
use crate::engine::variant::Deducer;
use crate::engine::{Budget, Digits};
use crate::rules::Rules;

/// Every candidate's rule links on one grid.
pub(crate) struct RuleLinks {
    side: usize,
    /// For each candidate (index `cell * side + digit - 1`): the candidates a constraint rules
    /// out with it, and that constraint's index in `rules.constraints`, each candidate once.
    partners: Vec<Vec<(Candidate, u32)>>,
    /// Each constraint's label, for the steps' text.
    labels: Vec<String>,
}

impl RuleLinks {
    /// The rule links of `board`'s candidates under `rules`: what each constraint on a
    /// candidate's cell takes from the others were the candidate placed, where the houses do
    /// not already take it (those links are plain). When `budget` stops, the links found so
    /// far: fewer links, fewer steps, none unsound.
    pub(crate) fn of<const W: usize>(
        board: &Board<'_, W>,
        rules: &Rules,
        deducer: &Deducer,
        budget: &Budget,
    ) -> RuleLinks {
        let side = board.side();
        let cells = board.geo.cells();
        let mut links = RuleLinks {
            side,
            partners: vec![Vec::new(); cells * side],
            labels: rules
                .constraints
                .iter()
                .map(|c| c.label(board.geo))
                .collect(),
        };
        let masks = masks_of(board);
        for cell in board.empty_cells().iter() {
            if stopped(budget).is_some() {
                break;
            }
            for digit in board.candidates(cell).iter() {
                let from = Candidate::new(cell, digit);
                for (other, digits, constraint) in deducer.implications(&masks, cell, digit) {
                    for d in Digits(u32::from(digits)).iter() {
                        let to = Candidate::new(other, d);
                        if board.has(other, d) && !plain(board, from, to) {
                            links.add(from, to, constraint);
                        }
                    }
                }
            }
        }
        links
    }

    fn index(&self, c: Candidate) -> usize {
        c.cell as usize * self.side + c.digit as usize - 1
    }

    /// Adds the link both ways (each end's implications may find it, or only one's).
    fn add(&mut self, x: Candidate, y: Candidate, constraint: u32) {
        for (a, b) in [(x, y), (y, x)] {
            let i = self.index(a);
            if !self.partners[i].iter().any(|&(c, _)| c == b) {
                self.partners[i].push((b, constraint));
            }
        }
    }

    /// The candidates a rule links `x` to, and the constraint of each.
    pub(crate) fn partners(&self, x: Candidate) -> &[(Candidate, u32)] {
        &self.partners[self.index(x)]
    }

    /// The constraint that links `x` and `y`, if one does.
    pub(crate) fn between(&self, x: Candidate, y: Candidate) -> Option<u32> {
        self.partners(x)
            .iter()
            .find(|&&(c, _)| c == y)
            .map(|&(_, constraint)| constraint)
    }

    /// A constraint's label: "cage 10 at A1 A2".
    pub(crate) fn label(&self, constraint: u32) -> &str {
        &self.labels[constraint as usize]
    }
}

/// Whether `x` and `y` cannot both be true: the houses say so, or a rule does (when `rules`
/// are given).
pub(crate) fn weak<const W: usize>(
    board: &Board<'_, W>,
    rules: Option<&RuleLinks>,
    x: Candidate,
    y: Candidate,
) -> bool {
    plain(board, x, y) || rules.is_some_and(|r| r.between(x, y).is_some())
}

/// Whether the houses already link `x` and `y`: two digits of one cell, or one digit in two
/// cells that see each other.
pub(crate) fn plain<const W: usize>(board: &Board<'_, W>, x: Candidate, y: Candidate) -> bool {
    x != y
        && ((x.cell == y.cell && x.digit != y.digit)
            || (x.digit == y.digit && board.peers(x.cell as usize).contains(y.cell as usize)))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::format::parse;
    use crate::logic::fixtures::at;

    /// A 9×9 with `lines` above an empty grid: its geometry with the rules' peers, its rules.
    pub(crate) fn empty_with(lines: &str) -> (crate::grid::Geometry, Rules) {
        let text = format!("{lines}\n{}\n", ".".repeat(81));
        let document = parse(&text);
        let puzzle = &document.puzzles[0];
        let rules: Rules = puzzle.rules.as_deref().cloned().expect("rules");
        let geometry = puzzle.geometry();
        let geometry = Deducer::new(&geometry, &rules).geometry(&geometry);
        (geometry, rules)
    }

    #[test]
    fn a_white_dot_links_each_digit_to_the_other_cells_non_neighbours() {
        let (geo, rules) = empty_with("white: A1 A2");
        let deducer = Deducer::new(&geo, &rules);
        let b = Board::<2>::new(&geo, &[0; 81]);
        let links = RuleLinks::of(&b, &rules, &deducer, &Budget::unlimited());
        let [a1, a2, b5] = ["A1", "A2", "B5"].map(|n| at(&b, n));
        let one = Candidate::new(a1, 1);
        // A1=1 leaves A2 only 2: every other digit of A2 is linked, 1 plainly (a row).
        for d in 3..=9 {
            assert_eq!(links.between(one, Candidate::new(a2, d)), Some(0), "{d}");
            assert_eq!(links.between(Candidate::new(a2, d), one), Some(0), "{d}");
        }
        assert_eq!(links.between(one, Candidate::new(a2, 2)), None);
        assert_eq!(
            links.between(one, Candidate::new(a2, 1)),
            None,
            "a plain link"
        );
        assert!(
            links.partners(Candidate::new(b5, 1)).is_empty(),
            "off the dot"
        );
        assert_eq!(links.label(0), "white dot at A1 A2");
    }
}
