//! The variant engine: candidates as masks, propagation by the houses (a placed digit leaves
//! its peers; a digit with one place in a house goes there; a digit locked in the cells two
//! houses share leaves the rest of both) and by a propagator per rule (`props`, with the 45
//! rule's innies and outies for killer cages from `innies`, and sums bounded together from
//! `combined`), and depth-first search that tries one digit in one cell at a time, chosen by
//! where contradictions were found so far (`conflicts`), counting solutions up to a limit. Every solution is checked against the
//! rules' own definitions (`rules::Constraint::satisfied`) before it is counted.
//!
//! The classic path (`fast9`, `search`) is untouched: `engine::solve_with_rules` comes here only
//! for a puzzle with rules.

mod combined;
mod conflicts;
mod deduce;
mod innies;
mod lines;
mod model;
mod outside;
mod props;
mod sum;
#[cfg(test)]
mod tests;

use std::collections::VecDeque;

pub use deduce::{Deducer, Impossible, Origin};
pub use props::Equation;

use conflicts::Conflicts;
use model::Model;
use props::{Broken, Change, Mask, Work};

use super::search::{Budget, SearchOutcome};
use crate::grid::Geometry;
use crate::rules::Rules;

/// Up to `limit` solutions of `givens` (0 for empty) under the houses of `geometry` and
/// `rules`, as far as `budget` lets the search go.
pub fn solve(
    geometry: &Geometry,
    rules: &Rules,
    givens: &[u8],
    limit: usize,
    budget: &Budget,
) -> SearchOutcome {
    let model = Model::new(geometry, rules, true);
    let mut run = Run::new(&model, limit, budget, false);
    let (mut masks, mut changed) = start(&model, givens);
    if masks.iter().all(|&m| m != 0) {
        run.node(&mut masks, &mut changed);
    }
    run.outcome
}

/// Each cell's candidates (bit `d - 1` for digit `d`) by the rules themselves, as a solver's
/// pencil marks: the digits a given's peers cannot hold go, then each rule's propagator runs to
/// a fixpoint (a cage's combinations, a thermometer's order, an arrow's sum, a dot's pairs…). A
/// cell left with one candidate is not placed: it rules nothing out of its peers, and no house
/// places a digit with one place left, nor are innies, outies or locked candidates used: that
/// is solving, not filling in marks. `None` when the rules leave some cell no candidate.
pub fn candidates(geometry: &Geometry, rules: &Rules, givens: &[u8]) -> Option<Vec<u16>> {
    let model = Model::new(geometry, rules, false);
    let budget = Budget::unlimited();
    let mut run = Run::new(&model, 1, &budget, true);
    let (mut masks, mut changed) = start(&model, givens);
    for (cell, &digit) in givens.iter().enumerate() {
        if digit != 0 {
            for &peer in model.peers[cell].iter() {
                masks[peer as usize] &= !(1 << (digit - 1));
            }
        }
    }
    if masks.contains(&0) {
        return None;
    }
    run.propagate(&mut masks, &mut changed).ok()?;
    Some(masks)
}

/// Each cell's candidates after full propagation at the root of the search (what `solve`
/// starts its search from): the rules' propagators, placed digits leaving their peers, digits
/// with one place in a house placed, locked candidates and the 45 rule. `None` when
/// propagation alone finds there is no solution.
pub fn propagated(geometry: &Geometry, rules: &Rules, givens: &[u8]) -> Option<Vec<u16>> {
    let model = Model::new(geometry, rules, true);
    let budget = Budget::unlimited();
    let mut run = Run::new(&model, 1, &budget, false);
    let (mut masks, mut changed) = start(&model, givens);
    if masks.contains(&0) {
        return None;
    }
    run.propagate(&mut masks, &mut changed).ok()?;
    Some(masks)
}

/// Why the rules took a digit from a cell's candidates ([`candidates_with_reasons`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleReason {
    /// A given that sees the cell (in a house, or by a rule such as a cage or a knight's move)
    /// holds the digit.
    Peer { given: u16 },
    /// The constraint `rules.constraints[index]`, by itself, leaves the digit no place here.
    Constraint { index: u32 },
}

/// The candidates the rules leave (as [`candidates`]) with why each digit went, and where a
/// constraint found it could not hold.
#[derive(Clone, Debug)]
pub struct RuleMarks {
    /// Each cell's candidates, bit `d - 1` for digit `d`; a cell emptied by the constraint
    /// that broke is 0.
    pub masks: Vec<u16>,
    /// Indexed `cell * side + digit - 1`: why the digit left the cell (`None` while it is a
    /// candidate, and for a given's other digits).
    pub why: Vec<Option<RuleReason>>,
    /// The constraint that could not hold with the candidates left, if one could not: its
    /// index in `rules.constraints`.
    pub broken: Option<u32>,
}

impl RuleMarks {
    /// Why `digit` left `cell`, if it did.
    pub fn reason(&self, cell: usize, digit: u8) -> Option<RuleReason> {
        let side = self.why.len() / self.masks.len().max(1);
        self.why[cell * side + digit as usize - 1]
    }
}

/// [`candidates`] step by step, noting why each digit left each cell: what the rules say of the
/// first candidates (even, odd…), the givens' peers, then each rule's propagator on its own, to
/// a fixpoint. It stops at the first constraint that cannot hold, leaving the cell it would
/// empty (if it found one) with no candidate.
pub fn candidates_with_reasons(geometry: &Geometry, rules: &Rules, givens: &[u8]) -> RuleMarks {
    let model = Model::new(geometry, rules, false);
    let side = model.size.side();
    let mut why = vec![None; givens.len() * side];
    let note = |why: &mut Vec<Option<RuleReason>>, cell: usize, taken: Mask, reason| {
        for d in 0..side {
            if taken >> d & 1 == 1 {
                why[cell * side + d].get_or_insert(reason);
            }
        }
    };
    for &(cell, taken, index) in &model.start_taken {
        if givens[cell as usize] == 0 {
            note(
                &mut why,
                cell as usize,
                taken,
                RuleReason::Constraint { index },
            );
        }
    }
    let (mut masks, mut changed) = start(&model, givens);
    for (cell, &digit) in givens.iter().enumerate().filter(|(_, &d)| d != 0) {
        let bit = 1 << (digit - 1);
        for &peer in model.peers[cell].iter() {
            if givens[peer as usize] == 0 && masks[peer as usize] & bit != 0 {
                masks[peer as usize] &= !bit;
                note(
                    &mut why,
                    peer as usize,
                    bit,
                    RuleReason::Peer { given: cell as u16 },
                );
            }
        }
    }
    // A given its own cell's rules forbid (an odd digit on an even cell) breaks that rule.
    let mut broken = model
        .start_taken
        .iter()
        .find(|&&(cell, taken, _)| {
            let digit = givens[cell as usize];
            digit != 0 && taken >> (digit - 1) & 1 == 1
        })
        .map(|&(_, _, index)| index);
    if broken.is_none() && !masks.contains(&0) {
        let budget = Budget::unlimited();
        let mut run = Run::new(&model, 1, &budget, true);
        let mut by_rule = |cell: usize, taken: Mask, prop: u32| {
            let origin = model.origins[prop as usize];
            note(
                &mut why,
                cell,
                taken,
                RuleReason::Constraint { index: origin },
            );
        };
        if let Err(prop) = run.propagate_noting(&mut masks, &mut changed, &mut by_rule) {
            broken = Some(model.origins[prop as usize]);
        }
    }
    RuleMarks { masks, why, broken }
}

/// The masks a search starts from, with the givens placed, and every cell as news.
fn start(model: &Model, givens: &[u8]) -> (Vec<Mask>, Vec<Change>) {
    let mut masks = model.start.clone();
    // Every cell is news at the start (from no digits at all).
    let changed: Vec<Change> = (0..masks.len() as u16)
        .map(|cell| Change { cell, was: 0 })
        .collect();
    for (cell, &digit) in givens.iter().enumerate() {
        if digit != 0 {
            masks[cell] &= 1 << (digit - 1);
        }
    }
    (masks, changed)
}

/// A mask's lowest and highest digit bits (all bits of an empty mask).
fn lowest_and_highest(mask: Mask) -> Mask {
    if mask == 0 {
        return Mask::MAX;
    }
    (mask & mask.wrapping_neg()) | (1 << (15 - mask.leading_zeros()))
}

struct Run<'m, 'r, 'b> {
    model: &'m Model<'r>,
    limit: usize,
    budget: &'b Budget<'b>,
    /// The propagators waiting to run, and whether each is: kept between nodes (all false and
    /// empty between two propagations), not allocated at each.
    queued: Vec<bool>,
    queue: VecDeque<u32>,
    /// Mask buffers for children, one a level of the search in use at a time: a node copies
    /// its masks into one instead of allocating.
    spare: Vec<Vec<Mask>>,
    /// Where contradictions were found, to choose where to search next.
    conflicts: Conflicts,
    /// Whether the last node's own propagation found a contradiction.
    failed: bool,
    /// Pencil marks, not solving: the rules' propagators alone (`candidates`).
    marks_only: bool,
    /// Per house, whether a cell of it changed since `only_places` (`SINGLES_DUE`) and since
    /// `locked` (`LOCKED_DUE`) last looked at it: a house none of whose cells changed has
    /// nothing new to place or to lock (on The Barbed Cross, 36 houses and 108 overlaps,
    /// looking at every one each time made the whole search 7% slower: 280 against 262 ms).
    /// One byte for both, set by one store for each house of each changed cell. All zero
    /// between two propagations.
    due: Vec<u8>,
    /// What found the last contradiction, whose cells `Conflicts` is told of.
    blame: Option<Blame>,
    outcome: SearchOutcome,
}

/// `Run::due`'s bits: a house has news for `only_places`, for `locked`.
const SINGLES_DUE: u8 = 1;
const LOCKED_DUE: u8 = 2;

/// What found a contradiction. Its cells' scores rise (`Conflicts::blame`): a search that
/// keeps running into one rule goes to that rule's cells first (the weighted degree of
/// constraint solvers). Cells, not only the one tried, because the try that fails is seldom
/// where the trouble is: on The Barbed Cross 29.7 thousand nodes became 16.9, on sigh's
/// little-killer snipes up to 150 times fewer; killers about the same.
#[derive(Clone, Copy)]
enum Blame {
    /// A propagator (`Model::props`) found its rule cannot hold.
    Prop(u32),
    /// A house has a digit with no place left.
    House(u16),
    /// A placed digit emptied a peer.
    Peers(u16, u16),
    /// Locked candidates between two houses emptied a cell.
    Overlap(u16, u16),
}

impl<'m, 'r, 'b> Run<'m, 'r, 'b> {
    fn new(model: &'m Model<'r>, limit: usize, budget: &'b Budget<'b>, marks_only: bool) -> Self {
        Run {
            model,
            limit,
            budget,
            queued: vec![false; model.props.len()],
            queue: VecDeque::new(),
            spare: Vec::new(),
            conflicts: Conflicts::new(model),
            failed: false,
            marks_only,
            due: vec![0; model.houses.len()],
            blame: None,
            outcome: SearchOutcome {
                solutions: Vec::new(),
                stop: None,
                nodes: 0,
            },
        }
    }

    /// Search below `masks`, whose cells in `changed` have news to pass on. False when the
    /// search must end (the limit reached or the budget spent).
    ///
    /// Each step tries one digit in one cell (the choice `Conflicts` makes); when that is
    /// searched through, the digit leaves the cell here, what follows from that is passed on,
    /// and the next choice may be another cell: the search learns where its contradictions
    /// are as it goes, so a cell that keeps failing is settled early.
    fn node(&mut self, masks: &mut [Mask], changed: &mut Vec<Change>) -> bool {
        self.outcome.nodes += 1;
        if let Some(stop) = self.budget.stop(self.outcome.nodes) {
            self.outcome.stop = Some(stop);
            return false;
        }
        self.failed = false;
        if self.propagate(masks, changed).is_err() {
            self.blame_contradiction();
            self.failed = true;
            return true;
        }
        let mut child = self.spare.pop().unwrap_or_default();
        let go_on = loop {
            let Some((cell, bit)) = self.conflicts.choose(masks) else {
                let solution: Vec<u8> =
                    masks.iter().map(|m| m.trailing_zeros() as u8 + 1).collect();
                if self.keeps_every_rule(&solution) {
                    self.outcome.solutions.push(solution);
                }
                break self.outcome.solutions.len() < self.limit;
            };
            child.clear();
            child.extend_from_slice(masks);
            child[cell] = bit;
            // `changed` is empty after a propagation that held; a child's contradiction may
            // leave cells in it.
            changed.clear();
            changed.push(Change {
                cell: cell as u16,
                was: masks[cell],
            });
            if !self.node(&mut child, changed) {
                break false;
            }
            if std::mem::take(&mut self.failed) {
                self.conflicts.failed(cell, bit);
            }
            // Every solution with that digit there is counted: it leaves the cell.
            changed.clear();
            changed.push(Change {
                cell: cell as u16,
                was: masks[cell],
            });
            masks[cell] &= !bit;
            if self.propagate(masks, changed).is_err() {
                self.blame_contradiction();
                break true;
            }
        };
        self.spare.push(child);
        go_on
    }

    /// Tell `Conflicts` the cells of what found the contradiction `propagate` just met.
    fn blame_contradiction(&mut self) {
        let model = self.model;
        let Some(blame) = self.blame.take() else {
            return;
        };
        match blame {
            Blame::Prop(p) => self.conflicts.blame(&model.prop_cells[p as usize]),
            Blame::House(h) => self.conflicts.blame(&model.houses[h as usize]),
            Blame::Peers(a, b) => self.conflicts.blame(&[a, b]),
            Blame::Overlap(h, k) => {
                self.conflicts.blame(&model.houses[h as usize]);
                self.conflicts.blame(&model.houses[k as usize]);
            }
        }
    }

    /// The independent check of a solution.
    fn keeps_every_rule(&self, solution: &[u8]) -> bool {
        let rules = self.model.rules;
        let size = self.model.size;
        rules
            .constraints
            .iter()
            .all(|c| c.satisfied(size, solution))
            && rules.broken_pairs(size, solution).is_empty()
    }

    /// Pass every change on to a fixpoint: placed digits leave their peers, changed cells wake
    /// their propagators, and when all is quiet each house's digits with one place are placed.
    fn propagate(&mut self, masks: &mut [Mask], changed: &mut Vec<Change>) -> Result<(), Broken> {
        self.blame = None;
        let result = self.propagate_queued(masks, changed);
        // A contradiction leaves propagators queued and houses due: none is, for the next node.
        for p in self.queue.drain(..) {
            self.queued[p as usize] = false;
        }
        if result.is_err() {
            self.due.fill(0);
        }
        result
    }

    fn propagate_queued(
        &mut self,
        masks: &mut [Mask],
        changed: &mut Vec<Change>,
    ) -> Result<(), Broken> {
        let model = self.model;
        loop {
            self.pass_on(masks, changed)?;
            if let Some(p) = self.queue.pop_front() {
                let mut work = Work { masks, changed };
                self.queued[p as usize] = false;
                let side = model.size.side() as u32;
                if model.props[p as usize]
                    .run(&mut work, &model.peer_sets, side)
                    .is_err()
                {
                    self.blame = Some(Blame::Prop(p));
                    return Err(Broken);
                }
                continue;
            }
            if self.marks_only
                || !self.only_places(masks, changed)? && !self.locked(masks, changed)?
            {
                return Ok(());
            }
        }
    }

    /// The rules' propagators alone to a fixpoint (as `propagate` for pencil marks), one at a
    /// time, telling `taken` what each took from each cell: (cell, digits, propagator). `Err`
    /// holds the propagator that found its constraint cannot hold.
    fn propagate_noting(
        &mut self,
        masks: &mut [Mask],
        changed: &mut Vec<Change>,
        taken: &mut impl FnMut(usize, Mask, u32),
    ) -> Result<(), u32> {
        let model = self.model;
        let side = model.size.side() as u32;
        let mut result = Ok(());
        while self.pass_on(masks, changed).is_ok() {
            let Some(p) = self.queue.pop_front() else {
                break;
            };
            self.queued[p as usize] = false;
            let ran =
                model.props[p as usize].run(&mut Work { masks, changed }, &model.peer_sets, side);
            for change in changed.iter() {
                let cell = change.cell as usize;
                taken(cell, change.was & !masks[cell], p);
            }
            if ran.is_err() {
                result = Err(p);
                break;
            }
        }
        for p in self.queue.drain(..) {
            self.queued[p as usize] = false;
        }
        result
    }

    /// Tell the peers of each changed cell that now holds one digit, and queue the
    /// propagators watching each changed cell.
    fn pass_on(&mut self, masks: &mut [Mask], changed: &mut Vec<Change>) -> Result<(), Broken> {
        let model = self.model;
        // The fields as locals, slices not vectors: a store to `due` or `queued` (bytes, which
        // may alias anything) would otherwise make the compiler load every field, and each
        // vector's pointer and length, again after it.
        let Run {
            due,
            queued,
            queue,
            blame,
            marks_only,
            ..
        } = self;
        let marks_only = *marks_only;
        let (due, queued) = (&mut due[..], &mut queued[..]);
        while let Some(Change { cell, was }) = changed.pop() {
            let mask = masks[cell as usize];
            if mask == 0 {
                return Err(Broken);
            }
            if !marks_only {
                for &h in model.houses_of[cell as usize].iter() {
                    due[h as usize] = SINGLES_DUE | LOCKED_DUE;
                }
            }
            if mask.is_power_of_two() && !marks_only {
                for &peer in model.peers[cell as usize].iter() {
                    if (Work { masks, changed }).restrict(peer, !mask).is_err() {
                        *blame = Some(Blame::Peers(cell, peer));
                        return Err(Broken);
                    }
                }
            }
            let watchers = &model.watchers[cell as usize];
            // Propagators of bounds alone (listed last) care only for a new lowest or highest.
            let bounds_moved = lowest_and_highest(was) != lowest_and_highest(mask);
            let woken = if bounds_moved {
                &watchers.all[..]
            } else {
                &watchers.all[..watchers.any_change]
            };
            for &p in woken {
                if !std::mem::replace(&mut queued[p as usize], true) {
                    queue.push_back(p);
                }
            }
        }
        Ok(())
    }

    /// Place each digit that has one place left in a house with news; false when there was
    /// none.
    fn only_places(
        &mut self,
        masks: &mut [Mask],
        changed: &mut Vec<Change>,
    ) -> Result<bool, Broken> {
        let model = self.model;
        let all = ((1u32 << model.size.side()) - 1) as Mask;
        for (h, (house, due)) in model.houses.iter().zip(&mut self.due).enumerate() {
            if *due & SINGLES_DUE == 0 {
                continue;
            }
            *due &= !SINGLES_DUE;
            let (mut once, mut twice, mut placed) = (0 as Mask, 0 as Mask, 0 as Mask);
            for &c in house.iter() {
                let m = masks[c as usize];
                twice |= once & m;
                once |= m;
                // `m & (m - 1)` is 0 only for a single digit (or none, caught below).
                placed |= if m & m.wrapping_sub(1) == 0 { m } else { 0 };
            }
            if once != all {
                self.blame = Some(Blame::House(h as u16));
                return Err(Broken);
            }
            let alone = once & !twice & !placed;
            if alone == 0 {
                continue;
            }
            for &c in house.iter() {
                let m = masks[c as usize];
                if m & alone != 0 {
                    Work { masks, changed }.restrict(c, m & alone)?;
                }
            }
        }
        Ok(!changed.is_empty())
    }

    /// Locked candidates: a digit whose places in one of two overlapping houses are all in
    /// the cells they share must be there, so it leaves the other house's other cells. False
    /// when nothing changed. Only overlaps of a house with news are looked at.
    fn locked(&mut self, masks: &mut [Mask], changed: &mut Vec<Change>) -> Result<bool, Broken> {
        let union = |cells: &[u16], masks: &[Mask]| {
            cells
                .iter()
                .fold(0 as Mask, |acc, &c| acc | masks[c as usize])
        };
        let due = &self.due;
        for overlap in self.model.overlaps() {
            if (due[overlap.units[0] as usize] | due[overlap.units[1] as usize]) & LOCKED_DUE == 0 {
                continue;
            }
            let shared = union(&overlap.shared, masks);
            let mut rest = [
                union(&overlap.rest[0], masks),
                union(&overlap.rest[1], masks),
            ];
            for (this, other) in [(0, 1), (1, 0)] {
                // Digits in the shared cells that this house's other cells cannot hold.
                let locked = shared & !rest[this];
                if locked & rest[other] == 0 {
                    continue;
                }
                for &c in overlap.rest[other].iter() {
                    if (Work { masks, changed }).restrict(c, !locked).is_err() {
                        self.blame = Some(Blame::Overlap(overlap.units[0], overlap.units[1]));
                        return Err(Broken);
                    }
                }
                // The digits removed from the other house's rest, without reading it again.
                rest[other] &= !locked;
            }
        }
        // What changed here is passed on next, making its houses due again.
        for d in &mut self.due {
            *d &= !LOCKED_DUE;
        }
        Ok(!changed.is_empty())
    }
}
