//! One rule at a time, for explained steps: what a single constraint's propagators (or the 45
//! rule's innies and outies together) take from a candidate grid by themselves, run to their
//! own fixpoint, so that the logic solver can name the constraint behind each elimination. And
//! the houses and peers the rules add, for the solver's grid.

use std::cell::RefCell;

use super::model::{Model, COMBINED, DERIVED};
use super::props::{Change, Equation, Mask, Work};
use super::Run;
use crate::engine::Budget;
use crate::grid::Geometry;
use crate::rules::Rules;

/// Where a deduction comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Origin {
    /// The constraint `rules.constraints[index]` by itself.
    Constraint(u32),
    /// The 45 rule: a group of whole houses holds each digit once per house, so the cages
    /// inside it and the cells poking in or out of them sum to what is left (innies and
    /// outies).
    FortyFive,
}

/// The rules of one puzzle, ready to deduce from one constraint at a time.
pub struct Deducer<'r> {
    model: Model<'r>,
    /// The masks a deduction works on and the changes it makes, kept between calls: a trial
    /// of the logic solver asks thousands of times.
    scratch: RefCell<(Vec<Mask>, Vec<Change>)>,
    /// The propagators that took something in the last deduction.
    used: RefCell<Vec<u32>>,
    /// The propagators of each constraint, by index in `rules.constraints`.
    props_of: Vec<Vec<u32>>,
    /// The 45 rule's propagators.
    forty_five: Vec<u32>,
}

/// A constraint that cannot hold with the candidates its cells have: the cell it leaves no
/// digit, when it found one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Impossible {
    pub emptied: Option<usize>,
}

impl<'r> Deducer<'r> {
    pub fn new(geometry: &'r Geometry, rules: &'r Rules) -> Deducer<'r> {
        let model = Model::new(geometry, rules, true);
        let mut props_of = vec![Vec::new(); rules.constraints.len()];
        let mut forty_five = Vec::new();
        for (p, &origin) in model.origins.iter().enumerate() {
            match origin {
                DERIVED => forty_five.push(p as u32),
                COMBINED => {} // the search's alone
                index => props_of[index as usize].push(p as u32),
            }
        }
        Deducer {
            model,
            scratch: RefCell::default(),
            used: RefCell::default(),
            props_of,
            forty_five,
        }
    }

    /// `geometry` with the houses and peers the rules add (extra regions, cage mates, a
    /// knight's or king's move…): [`Geometry::with_rules`].
    pub fn geometry(&self, geometry: &Geometry) -> Geometry {
        let own = geometry.units.len();
        geometry.with_rules(
            &self.model.houses[own.min(self.model.houses.len())..],
            &self.model.peers,
        )
    }

    /// Every origin a step can have: each constraint in order, then the 45 rule when the
    /// rules give it anything to work on.
    pub fn origins(&self) -> impl Iterator<Item = Origin> + '_ {
        let constraints = (0..self.props_of.len() as u32).map(Origin::Constraint);
        let forty_five = (!self.forty_five.is_empty()).then_some(Origin::FortyFive);
        constraints.chain(forty_five)
    }

    /// Whether placing `digit` in `cell` of `masks` breaks a rule once everything is
    /// propagated (the rules' propagators, placed digits leaving their peers, digits with one
    /// place in a house, locked candidates): a quick test before a slower, explained trial.
    /// Nothing the logic solver's trials find escapes it.
    pub fn contradicts(&self, masks: &[u16], cell: usize, digit: u8) -> bool {
        let budget = Budget::unlimited();
        let mut run = Run::new(&self.model, 1, &budget, false);
        let mut masks = masks.to_vec();
        let was = masks[cell];
        masks[cell] = 1 << (digit - 1);
        let mut changed = vec![Change {
            cell: cell as u16,
            was,
        }];
        run.propagate(&mut masks, &mut changed).is_err()
    }

    /// What each constraint on `cell`, by itself, takes from the other cells of `masks` were
    /// `digit` placed there: (cell, digits taken, constraint index), each constraint's in cell
    /// order. These are the rules' weak links from that candidate (the two cannot both be
    /// true); they stay true as candidates go, so the logic solver may keep them for a grid's
    /// later steps. A constraint that cannot hold with the digit there takes every digit of
    /// the cell it empties.
    pub fn implications(&self, masks: &[u16], cell: usize, digit: u8) -> Vec<(usize, u16, u32)> {
        let mut constraints: Vec<u32> = self.model.watchers[cell]
            .all
            .iter()
            .map(|&p| self.model.origins[p as usize])
            .filter(|&o| o != DERIVED && o != COMBINED)
            .collect();
        constraints.sort_unstable();
        constraints.dedup();
        let mut assumed = masks.to_vec();
        assumed[cell] = 1 << (digit - 1);
        let mut out = Vec::new();
        for index in constraints {
            match self.deduce(Origin::Constraint(index), &assumed) {
                Ok(taken) => out.extend(
                    taken
                        .into_iter()
                        .filter(|&(c, _)| c != cell)
                        .map(|(c, digits)| (c, digits, index)),
                ),
                Err(Impossible { emptied: Some(c) }) if c != cell => {
                    out.push((c, masks[c], index));
                }
                Err(_) => {}
            }
        }
        out
    }

    /// The 45 rule's equations behind its last deduction (`deduce(Origin::FortyFive, …)`),
    /// each innie or outie sum that took a digit, in the order they took them.
    pub fn last_equations(&self) -> Vec<Equation> {
        let used = self.used.borrow();
        let props = used.iter().map(|&p| &self.model.props[p as usize]);
        props.filter_map(|p| p.equation()).collect()
    }

    /// What `origin` alone takes from `masks` (each cell's candidates, bit `d - 1` for digit
    /// `d`; a placed cell's digit alone): each cell it changes with the digits it takes, in
    /// cell order. A constraint's own first restrictions (an even cell, listed candidates)
    /// count as its deductions too.
    pub fn deduce(&self, origin: Origin, masks: &[u16]) -> Result<Vec<(usize, u16)>, Impossible> {
        let mut scratch = self.scratch.borrow_mut();
        let (work_masks, changed) = &mut *scratch;
        work_masks.clear();
        work_masks.extend_from_slice(masks);
        changed.clear();
        let props = match origin {
            Origin::Constraint(index) => {
                for &(cell, taken, from) in &self.model.start_taken {
                    if from == index {
                        let mut work = Work {
                            masks: work_masks,
                            changed,
                        };
                        if work.restrict(cell, !taken).is_err() {
                            return Err(Impossible {
                                emptied: Some(cell as usize),
                            });
                        }
                    }
                }
                &self.props_of[index as usize]
            }
            Origin::FortyFive => &self.forty_five,
        };
        let side = self.model.size.side() as u32;
        let mut used = self.used.borrow_mut();
        used.clear();
        // Each propagator in turn until none changes anything: the origin's own fixpoint.
        loop {
            let before = changed.len();
            for &p in props {
                let took = changed.len();
                let mut work = Work {
                    masks: work_masks,
                    changed,
                };
                let outcome =
                    self.model.props[p as usize].run(&mut work, &self.model.peer_sets, side);
                if changed.len() > took && !used.contains(&p) {
                    used.push(p);
                }
                if outcome.is_err() {
                    // The propagator writes the cell it empties, if it empties one.
                    let emptied = (0..masks.len()).find(|&c| work_masks[c] == 0);
                    return Err(Impossible { emptied });
                }
            }
            if changed.len() == before {
                break;
            }
        }
        if changed.is_empty() {
            return Ok(Vec::new());
        }
        let taken = (0..masks.len())
            .filter(|&c| work_masks[c] != masks[c])
            .map(|c| (c, masks[c] & !work_masks[c]))
            .collect();
        Ok(taken)
    }
}
