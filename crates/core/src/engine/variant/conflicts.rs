//! Where to search next: the cell whose tries have most often ended in a contradiction, for
//! its number of candidates (a history heuristic, as sigh's Interactive Sudoku Solver and
//! SAT solvers' activity scores choose). A contradiction found right after a digit was tried
//! in a cell adds one to the cell's score and one to the digit's; every contradiction adds one
//! to each cell of the rule or house that found it (`blame`: the weighted degree of constraint
//! solvers); every so often all scores halve, so recent trouble counts most. Before any
//! contradiction, a cell's score is how much constrains it (its houses' cells, a small cage
//! more than a large one), so the search starts where propagation has most to work with.

use super::model::Model;
use super::props::{Mask, Prop};

/// Scores halve after this many contradictions.
const DECAY_EVERY: u32 = 1 << 14;

pub(super) struct Conflicts {
    scores: Vec<u32>,
    /// Contradictions per digit (bit `d - 1`), halved twice as fast as the cells'.
    digit_scores: [u32; 16],
    /// The digit most often in trouble lately, when it stands out, and the weight it adds to
    /// a cell holding it (a fifth of its score); `None` until worked out again.
    trouble: Option<(Mask, f32)>,
    countdown: u32,
    side: u32,
}

impl Conflicts {
    pub(super) fn new(model: &Model) -> Conflicts {
        let side = model.size.side() as u32;
        let mut scores = vec![0u32; model.size.cells()];
        for house in &model.houses {
            for &c in house.iter() {
                scores[c as usize] += house.len() as u32;
            }
        }
        for (prop, cells) in model.props.iter().zip(&model.prop_cells) {
            let weight = match prop {
                // Smaller cages first, every cage ahead of most other rules.
                Prop::Cage { .. } => (2 * side).saturating_sub(cells.len() as u32).max(side),
                _ => cells.len() as u32,
            };
            for &c in cells.iter() {
                scores[c as usize] += weight;
            }
        }
        Conflicts {
            scores,
            digit_scores: [0; 16],
            trouble: None,
            countdown: DECAY_EVERY,
            side,
        }
    }

    /// The open cell to try next and the digit to try in it (its first), or `None` when
    /// every cell holds one digit.
    pub(super) fn choose(&mut self, masks: &[Mask]) -> Option<(usize, Mask)> {
        let cell = self.choose_cell(masks)?;
        Some((cell, masks[cell] & masks[cell].wrapping_neg()))
    }

    fn choose_cell(&mut self, masks: &[Mask]) -> Option<usize> {
        let (digit, bonus) = self.trouble();
        let (mut best, mut best_score) = (None, -1.0f32);
        for (cell, &mask) in masks.iter().enumerate() {
            let count = mask.count_ones();
            if count < 2 {
                continue;
            }
            let mut score = self.scores[cell] as f32;
            if mask & digit != 0 {
                score += bonus;
            }
            let score = score / count as f32;
            if score > best_score {
                (best, best_score) = (Some(cell), score);
            }
        }
        if best_score == 0.0 {
            // No scores at all: the fewest candidates.
            return (0..masks.len())
                .filter(|&c| masks[c].count_ones() > 1)
                .min_by_key(|&c| masks[c].count_ones());
        }
        best
    }

    /// Trying `digit` (a one-bit mask) in `cell` led straight to a contradiction.
    pub(super) fn failed(&mut self, cell: usize, digit: Mask) {
        self.scores[cell] += 1;
        self.digit_scores[digit.trailing_zeros() as usize] += 1;
        self.trouble = None;
        self.countdown -= 1;
        if self.countdown == 0 {
            self.countdown = DECAY_EVERY;
            for s in &mut self.scores {
                *s >>= 1;
            }
            for s in &mut self.digit_scores {
                *s >>= 2;
            }
        }
    }

    /// A contradiction was found by a rule or house over `cells`.
    pub(super) fn blame(&mut self, cells: &[u16]) {
        for &c in cells {
            self.scores[c as usize] += 1;
        }
    }

    /// The digit with the most contradictions, if it has clearly more than the others
    /// (half again the fewest, and at least one a digit of the grid).
    fn trouble(&mut self) -> (Mask, f32) {
        if let Some(known) = self.trouble {
            return known;
        }
        let scores = &self.digit_scores[..self.side as usize];
        let (mut max, mut digit, mut min) = (0, 0 as Mask, u32::MAX);
        for (d, &s) in scores.iter().enumerate() {
            if s > max {
                (max, digit) = (s, 1 << d);
            }
            if s != 0 && s < min {
                min = s;
            }
        }
        let known = if max < self.side || 2 * max <= 3 * min {
            (0, 0.0)
        } else {
            (digit, max as f32 * 0.2)
        };
        self.trouble = Some(known);
        known
    }
}
