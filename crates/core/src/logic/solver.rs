//! The path of simplest steps, and the rating it gives.
//!
//! At each point the solver takes the first step of the lowest rung that has one, applies it,
//! and goes on until the grid is full, no rung finds anything (stuck), or the budget runs out.
//! The rating is the hardest step on that path, as Sudoku Explainer computes it.

use std::fmt;

use super::board::Board;
use super::ladder::LADDER;
use super::step::{Difficulty, Step, Technique};
use super::{DigitScope, Sink};
use crate::cells::CellSet;
use crate::engine::Digits;
use crate::engine::{Budget, Stop};
use crate::grid::Geometry;

/// How a path ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Solved,
    /// No technique the solver knows applies.
    Stuck,
    /// The grid cannot be completed (a cell or a digit has no place left).
    Broken,
    Stopped(Stop),
}

/// The steps from the puzzle to where the solver stopped.
#[derive(Clone, Debug)]
pub struct Path {
    pub steps: Vec<Step>,
    pub outcome: Outcome,
    /// The digits when it stopped (0 for empty).
    pub values: Vec<u8>,
}

/// The simplest step on `board`, if any.
pub fn next_step<const W: usize>(board: &Board<'_, W>) -> Option<Step> {
    next_step_within(board, &Budget::unlimited())
}

/// The simplest step on `board`, if any is found before the budget runs out.
pub fn next_step_within<const W: usize>(board: &Board<'_, W>, budget: &Budget) -> Option<Step> {
    for rung in LADDER {
        let mut sink = Sink::first();
        let _ = rung.find(board, budget, &mut sink);
        if let Some(step) = sink.steps.pop() {
            return Some(step);
        }
    }
    None
}

/// What the per-digit rungs found nothing for on a path, digit by digit, with the digit's places
/// then. Places only shrink along a path, so while a digit's places are the same the rung gives
/// nothing for it again, and skipping it changes neither what is found nor its order.
///
/// Likewise for the rungs that go by cells (`Rung::by_cells`): each cell's candidates on the last
/// grid where the rung found nothing. A hard puzzle's path tries them on grid after grid that
/// differ in two or three cells, and patterns of unchanged cells still give nothing.
struct Memo<const W: usize> {
    /// For each rung of the ladder and each digit.
    nothing: Vec<Vec<Option<CellSet<W>>>>,
    /// For each rung of the ladder, each cell's candidates where it last found nothing.
    empty_handed: Vec<Option<Vec<Digits>>>,
}

impl<const W: usize> Memo<W> {
    fn new(side: usize) -> Self {
        Memo {
            nothing: vec![vec![None; side]; LADDER.len()],
            empty_handed: vec![None; LADDER.len()],
        }
    }

    /// The cells whose candidates changed since rung `rung` last found nothing, if it has (those
    /// solved since included: they have none now).
    fn changed(&self, rung: usize, board: &Board<'_, W>) -> Option<CellSet<W>> {
        let then = self.empty_handed[rung].as_ref()?;
        let cells = 0..board.geo.cells();
        Some(cells.filter(|&c| then[c] != board.candidates(c)).collect())
    }

    /// Notes that rung `rung` found nothing on `board`, unless a cell there is down to one
    /// candidate: aligned exclusion passes over the cells that see such a cell, so it did not try
    /// every pattern there. (On a path it never is: naked singles come first.)
    fn remember_empty_handed(&mut self, rung: usize, board: &Board<'_, W>) {
        let empty = board.empty_cells();
        if empty.iter().any(|c| board.candidates(c).len() <= 1) {
            return;
        }
        let cells = 0..board.geo.cells();
        self.empty_handed[rung] = Some(cells.map(|c| board.candidates(c)).collect());
    }

    /// The digits rung `rung` is known to give nothing for on `board`.
    fn known(&self, rung: usize, board: &Board<'_, W>) -> Digits {
        let mut known = Digits::EMPTY;
        for (i, places) in self.nothing[rung].iter().enumerate() {
            let digit = i as u8 + 1;
            if *places == Some(board.places(digit)) {
                known.insert(digit);
            }
        }
        known
    }

    fn remember(&mut self, rung: usize, board: &Board<'_, W>, nothing: Digits) {
        for digit in nothing.iter() {
            self.nothing[rung][digit as usize - 1] = Some(board.places(digit));
        }
    }
}

/// `next_step_within` on a path, with what the earlier steps' searches found nothing for.
fn next_step_on_path<const W: usize>(
    board: &Board<'_, W>,
    budget: &Budget,
    memo: &mut Memo<W>,
) -> Option<Step> {
    for (i, rung) in LADDER.iter().enumerate() {
        let mut sink = Sink::first();
        if rung.by_cells() {
            let _ = match memo.changed(i, board) {
                Some(changed) => rung.find_near(board, budget, &changed, &mut sink),
                None => rung.find(board, budget, &mut sink),
            };
            if sink.steps.is_empty() && stopped(budget).is_none() {
                memo.remember_empty_handed(i, board);
            }
        } else if !rung.per_digit() {
            let _ = rung.find(board, budget, &mut sink);
        } else {
            let mut scope = DigitScope {
                skip: memo.known(i, board),
                nothing: Digits::EMPTY,
            };
            let _ = rung.find_in(board, budget, &mut scope, &mut sink);
            if stopped(budget).is_none() {
                memo.remember(i, board, scope.nothing);
            }
        }
        if let Some(step) = sink.steps.pop() {
            return Some(step);
        }
    }
    None
}

/// Walks the path of simplest steps from `givens` (0 for empty).
pub fn solve_path(geo: &'static Geometry, givens: &[u8], budget: &Budget) -> Path {
    if geo.cells() <= 128 {
        walk(Board::<2>::new(geo, givens), budget)
    } else {
        walk(Board::<10>::new(geo, givens), budget)
    }
}

fn walk<const W: usize>(mut board: Board<'_, W>, budget: &Budget) -> Path {
    let mut steps = Vec::new();
    let mut memo = Memo::new(board.side());
    let outcome = loop {
        if board.is_solved() {
            break Outcome::Solved;
        }
        if board.is_broken() {
            break Outcome::Broken;
        }
        if let Some(stop) = stopped(budget) {
            break Outcome::Stopped(stop);
        }
        let Some(step) = next_step_on_path(&board, budget, &mut memo) else {
            if let Some(stop) = stopped(budget) {
                break Outcome::Stopped(stop);
            }
            break Outcome::Stuck;
        };
        board.apply(&step);
        steps.push(step);
    };
    Path {
        steps,
        outcome,
        values: board.values().to_vec(),
    }
}

/// Why `budget` says stop now (cancelled, or past its deadline), if it does: the solver counts
/// no nodes, so it asks the budget with none spent.
pub fn stopped(budget: &Budget) -> Option<Stop> {
    budget.stop(0)
}

/// The community's names for bands of the scale.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Easy,
    Medium,
    Hard,
    Diabolical,
    Fiendish,
    Extreme,
}

impl Level {
    /// Easy below 1.5, Medium below 2.5, Hard below 5.0, Diabolical below 7.0, Fiendish below
    /// 9.0, Extreme from 9.0.
    pub fn of(difficulty: Difficulty) -> Level {
        match difficulty.0 {
            0..=14 => Level::Easy,
            15..=24 => Level::Medium,
            25..=49 => Level::Hard,
            50..=69 => Level::Diabolical,
            70..=89 => Level::Fiendish,
            _ => Level::Extreme,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "Easy",
            Level::Medium => "Medium",
            Level::Hard => "Hard",
            Level::Diabolical => "Diabolical",
            Level::Fiendish => "Fiendish",
            Level::Extreme => "Extreme",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A puzzle's rating: the hardest step of its path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rating {
    pub difficulty: Difficulty,
    /// The first step of that difficulty (none for a grid already full).
    pub hardest: Option<Technique>,
    pub level: Level,
    /// False when the path did not reach the solution: the rating is then a lower bound.
    pub complete: bool,
}

/// The rating of a path.
pub fn rate(path: &Path) -> Rating {
    let mut difficulty = Difficulty::default();
    let mut hardest = None;
    for step in &path.steps {
        if step.difficulty > difficulty {
            difficulty = step.difficulty;
            hardest = Some(step.technique);
        }
    }
    Rating {
        difficulty,
        hardest,
        level: Level::of(difficulty),
        complete: path.outcome == Outcome::Solved,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{geometry, Size, Variant};
    use crate::logic::fixtures::{
        givens_of, puzzles_to_walk, shared_puzzles, thinned_boards, OnBoard,
    };
    use crate::logic::next_step;

    /// The steps found afresh at each point, without what earlier searches found nothing for.
    fn fresh_path<const W: usize>(mut board: Board<'_, W>) -> Vec<String> {
        let mut texts = Vec::new();
        while let Some(step) = next_step(&board) {
            board.apply(&step);
            texts.push(step.text);
        }
        texts
    }

    fn remembered_path<const W: usize>(board: Board<'_, W>) -> Vec<String> {
        let path = walk(board, &Budget::unlimited());
        path.steps.into_iter().map(|s| s.text).collect()
    }

    /// A path remembers, per digit, where fish, turbot fish, strong links and X-chains found
    /// nothing, and skips those digits while their places stay the same: it must take every
    /// step that finding each step afresh takes. The puzzle here needs turbot fish, strong links
    /// and forcing chains again and again (Sudoku Explainer rates it 7.2).
    #[test]
    fn remembering_what_found_nothing_changes_no_step() {
        let geo = geometry(Size::NINE, Variant::Classic);
        let mut lines = vec![
            "89.4..2.66..9..............3..5.8.1.28...94....5...8..53.6...8..2.8.13..1....46.9"
                .to_string(),
        ];
        let count = if cfg!(debug_assertions) { 3 } else { 30 };
        lines.extend(shared_puzzles("top1465.txt", count).unwrap_or_default());
        for line in &lines {
            let board = Board::<2>::new(geo, &givens_of(line));
            assert_eq!(remembered_path(board.clone()), fresh_path(board), "{line}");
        }

        struct Compare(usize);
        impl OnBoard for Compare {
            fn board<const W: usize>(&mut self, b: &Board<'_, W>, _: &[u8], what: &str) {
                let (remembered, fresh) = (remembered_path(b.clone()), fresh_path(b.clone()));
                assert_eq!(remembered, fresh, "{what}");
                self.0 += fresh.len();
            }
        }
        let mut compare = Compare(0);
        thinned_boards(
            0x2545_f491_4f6c_dd1d,
            |side| usize::from(side <= 9) * 8,
            &mut compare,
        );
        assert!(compare.0 > 0, "no step at all");
    }

    /// Every step of the rungs that go by cells, searched only near what changed since they last
    /// found nothing, along the path: all of them, in the same order, as a full search finds.
    fn compare_near_on_path<const W: usize>(mut board: Board<'_, W>, what: &str) -> usize {
        let mut memo = Memo::new(board.side());
        let mut compared = 0;
        while let Some(step) = next_step(&board) {
            for (i, rung) in LADDER.iter().enumerate().filter(|(_, r)| r.by_cells()) {
                let texts = |sink: Sink| sink.steps.into_iter().map(|s| s.text).collect::<Vec<_>>();
                let mut full = Sink::all();
                let _ = rung.find(&board, &Budget::unlimited(), &mut full);
                let full = texts(full);
                if let Some(changed) = memo.changed(i, &board) {
                    let mut near = Sink::all();
                    let _ = rung.find_near(&board, &Budget::unlimited(), &changed, &mut near);
                    assert_eq!(texts(near), full, "{rung:?} on {what}");
                    compared += 1;
                }
                if full.is_empty() {
                    memo.remember_empty_handed(i, &board);
                }
            }
            board.apply(&step);
        }
        compared
    }

    #[test]
    fn searching_near_what_changed_finds_what_a_full_search_finds() {
        let geo = geometry(Size::NINE, Variant::Classic);
        let count = if cfg!(debug_assertions) { 4 } else { 40 };
        let mut compared = 0;
        for line in puzzles_to_walk("top1465.txt", count) {
            compared += compare_near_on_path(Board::<2>::new(geo, &givens_of(&line)), &line);
        }
        struct Compare(usize);
        impl OnBoard for Compare {
            fn board<const W: usize>(&mut self, b: &Board<'_, W>, _: &[u8], what: &str) {
                self.0 += compare_near_on_path(b.clone(), what);
            }
        }
        let mut compare = Compare(compared);
        thinned_boards(
            0x51f1_5eed_2025_1124,
            |side| usize::from(side <= 9) * 6,
            &mut compare,
        );
        assert!(compare.0 > 0, "nothing compared");
    }
}
