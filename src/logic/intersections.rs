//! Intersections (locked candidates): when a digit's places in one unit all lie where it crosses
//! another, the digit must be there, so it leaves the rest of the other unit. From a box to a
//! line is *pointing*; from a line (or diagonal) to a box is *claiming*.

use std::ops::ControlFlow;

use super::board::Board;
use super::cells::CellSet;
use super::step::{say, Candidate, Difficulty, Step, Technique};
use super::Sink;
use crate::engine::Digits;
use crate::grid::digit_char;

const POINTING: Difficulty = Difficulty(26);
const CLAIMING: Difficulty = Difficulty(28);

/// One locked digit: its places in `from` all lie in `to` too.
pub struct Lock<const W: usize> {
    pub digit: u8,
    pub from: usize,
    pub to: usize,
    /// The digit's places in `from` (all in `to`).
    pub cells: CellSet<W>,
    /// The digit's places in `to` outside `from`: what the lock eliminates.
    pub targets: CellSet<W>,
}

/// Every lock on the board: boxes to lines first, then lines to boxes, each in scan order.
pub fn locks<const W: usize>(
    b: &Board<W>,
    mut found: impl FnMut(Lock<W>) -> ControlFlow<()>,
) -> ControlFlow<()> {
    for pointing in [true, false] {
        for &from in b.scan_order() {
            if b.is_box(from) != pointing {
                continue;
            }
            for digit in 1..=b.side() as u8 {
                let cells = b.places_in(digit, from);
                if cells.len() < 2 {
                    continue; // none left, or a hidden single
                }
                for overlap in b.geo.overlaps.iter() {
                    let to = match overlap.units {
                        [u, v] if u as usize == from => v as usize,
                        [v, u] if u as usize == from => v as usize,
                        _ => continue,
                    };
                    let targets = b.places_in(digit, to) - b.unit(from);
                    if cells.is_subset(&b.unit(to)) && !targets.is_empty() {
                        found(Lock {
                            digit,
                            from,
                            to,
                            cells,
                            targets,
                        })?;
                    }
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// Pointing and claiming, each eliminating from the crossing unit.
pub fn locked_candidates<const W: usize>(b: &Board<W>, sink: &mut Sink) -> ControlFlow<()> {
    locks(b, |lock| sink.push(lock_step(b, &lock)))
}

pub fn lock_step<const W: usize>(b: &Board<W>, lock: &Lock<W>) -> Step {
    let pointing = b.is_box(lock.from);
    let (technique, difficulty) = if pointing {
        (Technique::Pointing, POINTING)
    } else {
        (Technique::Claiming, CLAIMING)
    };
    let eliminations: Vec<Candidate> = lock
        .targets
        .iter()
        .map(|c| Candidate::new(c, lock.digit))
        .collect();
    let text = format!(
        "{technique}: {} in {} is only in {} ({}), so {}",
        digit_char(lock.digit),
        b.geo.unit_name(lock.from),
        b.geo.unit_name(lock.to),
        say::cells(b.geo, lock.cells.iter()),
        say::eliminations(b.geo, &eliminations),
    );
    Step {
        technique,
        difficulty,
        placements: Vec::new(),
        eliminations,
        cells: lock.cells.iter().map(|c| c as u16).collect(),
        units: vec![lock.from as u16, lock.to as u16],
        digits: Digits::single(lock.digit),
        text,
    }
}
