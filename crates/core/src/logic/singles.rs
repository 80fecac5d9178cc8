//! Singles: a unit with one empty cell left (full house), a digit with one place left in a unit
//! (hidden single), a cell with one candidate left (naked single).

use std::ops::ControlFlow;

use super::board::Board;
use super::step::{Candidate, Difficulty, Step, Technique};
use super::Sink;
use crate::engine::Digits;

/// Sudoku Explainer's values: the last cell of a unit 1.0, a hidden single in a box 1.2, in a
/// row or column (or diagonal) 1.5, a naked single 2.3.
const FULL_HOUSE: Difficulty = Difficulty(10);
const HIDDEN_IN_BOX: Difficulty = Difficulty(12);
const HIDDEN_IN_LINE: Difficulty = Difficulty(15);
const NAKED: Difficulty = Difficulty(23);

/// Units with one empty cell left, boxes first.
pub(crate) fn full_houses<const W: usize>(b: &Board<'_, W>, sink: &mut Sink) -> ControlFlow<()> {
    for &unit in b.scan_order() {
        let Some(cell) = (b.unit(unit) & b.empty_cells()).only() else {
            continue;
        };
        let Some(digit) = b.candidates(cell).only() else {
            continue; // a broken board: the last cell has no candidate, or several
        };
        let text = format!(
            "Full house: {} is the last empty cell of {}, so it takes {}",
            b.geo.cell_name(cell),
            b.geo.unit_name(unit),
            crate::grid::digit_char(digit)
        );
        sink.push(single(
            Technique::FullHouse,
            FULL_HOUSE,
            cell,
            digit,
            unit,
            text,
        ))?;
    }
    ControlFlow::Continue(())
}

/// Digits with one place left in a unit (which is not the unit's last empty cell), boxes first.
pub(crate) fn hidden_singles<const W: usize>(b: &Board<'_, W>, sink: &mut Sink) -> ControlFlow<()> {
    for &unit in b.scan_order() {
        if (b.unit(unit) & b.empty_cells()).len() == 1 {
            continue; // a full house, said more simply
        }
        for digit in 1..=b.side() as u8 {
            let Some(cell) = b.places_in(digit, unit).only() else {
                continue;
            };
            let difficulty = if b.is_box(unit) {
                HIDDEN_IN_BOX
            } else {
                HIDDEN_IN_LINE
            };
            let text = format!(
                "Hidden single: {} in {} can only go in {}",
                crate::grid::digit_char(digit),
                b.geo.unit_name(unit),
                b.geo.cell_name(cell)
            );
            let step = single(Technique::HiddenSingle, difficulty, cell, digit, unit, text);
            sink.push(step)?;
        }
    }
    ControlFlow::Continue(())
}

/// Cells with one candidate left, in reading order.
pub(crate) fn naked_singles<const W: usize>(b: &Board<'_, W>, sink: &mut Sink) -> ControlFlow<()> {
    for cell in b.empty_cells().iter() {
        let Some(digit) = b.candidates(cell).only() else {
            continue;
        };
        let text = format!(
            "Naked single: {} can only be {}",
            b.geo.cell_name(cell),
            crate::grid::digit_char(digit)
        );
        let mut step = single(Technique::NakedSingle, NAKED, cell, digit, 0, text);
        step.units.clear();
        sink.push(step)?;
    }
    ControlFlow::Continue(())
}

fn single(
    technique: Technique,
    difficulty: Difficulty,
    cell: usize,
    digit: u8,
    unit: usize,
    text: String,
) -> Step {
    Step {
        technique,
        difficulty,
        placements: vec![Candidate::new(cell, digit)],
        eliminations: Vec::new(),
        cells: vec![cell as u16],
        units: vec![unit as u16],
        digits: Digits::single(digit),
        text,
    }
}
