//! Intersections (locked candidates): when a digit's places in one unit all lie where it crosses
//! another, the digit must be there, so it leaves the rest of the other unit. From a box to a
//! line is *pointing*; from a line (or diagonal) to a box is *claiming*.

use std::ops::ControlFlow;

use super::board::Board;
use super::step::{say, Candidate, Difficulty, Step, Technique};
use super::{DigitScope, Sink};
use crate::cells::CellSet;
use crate::engine::Digits;
use crate::grid::digit_char;

const POINTING: Difficulty = Difficulty(26);
const CLAIMING: Difficulty = Difficulty(28);

/// One locked digit: its places in `from` all lie in `to` too.
pub(crate) struct Lock<const W: usize> {
    pub digit: u8,
    pub from: usize,
    pub to: usize,
    /// The digit's places in `from` (all in `to`).
    pub cells: CellSet<W>,
    /// The digit's places in `to` outside `from`: what the lock eliminates.
    pub targets: CellSet<W>,
}

/// The pairs of unit kinds a lock goes between, in Sukaku Explainer's order: box to column,
/// box to row, column to box, row to box (then the diagonals', which it does not have).
fn kind_pairs<'g, const W: usize>(b: &Board<'g, W>) -> [(&'g [usize], &'g [usize]); 6] {
    let l = b.layout();
    [
        (&l.boxes, &l.columns),
        (&l.boxes, &l.rows),
        (&l.columns, &l.boxes),
        (&l.rows, &l.boxes),
        (&l.boxes, &l.diagonals),
        (&l.diagonals, &l.boxes),
    ]
}

/// Every lock on the board, in Sukaku Explainer's order: kind pair, then digit, then the unit
/// the digit is locked in, then the unit it is locked to.
pub(super) fn locks<const W: usize>(
    b: &Board<'_, W>,
    skip: Digits,
    mut found: impl FnMut(Lock<W>) -> ControlFlow<()>,
) -> ControlFlow<()> {
    for (froms, tos) in kind_pairs(b) {
        let is_to = UnitMask::of(tos);
        for digit in (1..=b.side() as u8).filter(|&d| !skip.contains(d)) {
            for &from in froms {
                let cells = b.places_in(digit, from);
                let Some(first) = cells.first().filter(|_| cells.len() >= 2) else {
                    continue; // none left, or a hidden single
                };
                // A unit holding the places holds the first: only the first's units are tried
                // (in the order of `tos`, which lists units in increasing order, as they are).
                for &to in b.geo.units_of[first].iter() {
                    let to = to as usize;
                    if !is_to.contains(tos, to) || !cells.is_subset(&b.unit(to)) {
                        continue;
                    }
                    let targets = b.places_in(digit, to) - b.unit(from);
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
    ControlFlow::Continue(())
}

/// A list of units as bits (bit `u` for unit `u`), so that the hundreds of membership tests of
/// `locks` are a shift rather than a binary search; grids with more than 128 units (none of the
/// sizes there are) search the list.
struct UnitMask(Option<u128>);

impl UnitMask {
    fn of(units: &[usize]) -> UnitMask {
        let fits = units.iter().all(|&u| u < 128);
        UnitMask(fits.then(|| units.iter().fold(0, |mask, &u| mask | 1u128 << u)))
    }

    /// Whether `unit` is in `units`, the sorted list the mask was made of.
    fn contains(&self, units: &[usize], unit: usize) -> bool {
        match self.0 {
            Some(mask) => unit < 128 && mask >> unit & 1 == 1,
            None => units.binary_search(&unit).is_ok(),
        }
    }
}

/// A lock whose eliminations leave the digit one place in another unit of the locked unit's
/// kind that crosses the target: that hidden single is the step (Sudoku Explainer places it
/// and applies nothing else). Direct pointing 1.7, direct claiming 1.9.
///
/// On the digits of `scope` only (a lock and what it leaves are read from one digit's places);
/// notes in `scope` the digits searched to the end without a step.
pub(crate) fn direct_locking_in<const W: usize>(
    b: &Board<'_, W>,
    scope: &mut DigitScope,
    sink: &mut Sink,
) -> ControlFlow<()> {
    let l = b.layout();
    let mut stepped = Digits::EMPTY;
    let flow = locks(b, scope.skip, |lock| {
        // What the lock removes from any unit is among its targets.
        if lock.targets.is_empty() {
            return ControlFlow::Continue(());
        }
        let kin: &[usize] = if b.is_box(lock.from) {
            &l.boxes
        } else if l.rows.contains(&lock.from) {
            &l.rows
        } else if l.columns.contains(&lock.from) {
            &l.columns
        } else {
            &l.diagonals
        };
        for &other in kin {
            if other == lock.from || !b.unit(other).intersects(&b.unit(lock.to)) {
                continue;
            }
            // What the lock removes from `other`: its places in the target outside the locked
            // unit (two diagonals cross, so `other` may share a cell with the locked unit).
            let places = b.places_in(lock.digit, other);
            let removed = places & (b.unit(lock.to) - b.unit(lock.from));
            let Some(cell) = (places - removed).only() else {
                continue;
            };
            if places.len() < 2 || removed.is_empty() {
                continue;
            }
            stepped.insert(lock.digit);
            sink.push(direct_lock_step(b, &lock, other, cell))?;
        }
        ControlFlow::Continue(())
    });
    scope.nothing = searched_without(b, scope.skip, stepped, flow);
    flow
}

/// The digits a search that skipped `skip` and found steps on `stepped` went through to the end
/// with nothing: none when it stopped early (the digits after the stop were not searched).
fn searched_without<const W: usize>(
    b: &Board<'_, W>,
    skip: Digits,
    stepped: Digits,
    flow: ControlFlow<()>,
) -> Digits {
    match flow {
        ControlFlow::Break(()) => Digits::EMPTY,
        ControlFlow::Continue(()) => Digits::all(b.side()) & !skip & !stepped,
    }
}

fn direct_lock_step<const W: usize>(
    b: &Board<'_, W>,
    lock: &Lock<W>,
    unit: usize,
    cell: usize,
) -> Step {
    let pointing = b.is_box(lock.from);
    let (technique, difficulty) = if pointing {
        (Technique::DirectPointing, Difficulty(17))
    } else {
        (Technique::DirectClaiming, Difficulty(19))
    };
    let removed = b.places_in(lock.digit, unit) & (b.unit(lock.to) - b.unit(lock.from));
    let text = format!(
        "{technique}: {d} in {} is only in {} ({}), so {d} leaves {}, and its last place in {} is {}",
        b.geo.unit_name(lock.from),
        b.geo.unit_name(lock.to),
        say::cells(b.geo, lock.cells.iter()),
        say::cells(b.geo, removed.iter()),
        b.geo.unit_name(unit),
        b.geo.cell_name(cell),
        d = digit_char(lock.digit),
    );
    Step {
        technique,
        difficulty,
        placements: vec![Candidate::new(cell, lock.digit)],
        eliminations: Vec::new(),
        cells: lock.cells.iter().map(|c| c as u16).collect(),
        units: vec![lock.from as u16, lock.to as u16, unit as u16],
        digits: Digits::single(lock.digit),
        text,
    }
}

/// Pointing and claiming, each eliminating from the crossing unit.
/// On the digits of `scope` only; notes in `scope` the digits searched to the end without a step.
pub(crate) fn locked_candidates_in<const W: usize>(
    b: &Board<'_, W>,
    scope: &mut DigitScope,
    sink: &mut Sink,
) -> ControlFlow<()> {
    let mut stepped = Digits::EMPTY;
    let flow = locks(b, scope.skip, |lock| {
        if lock.targets.is_empty() {
            return ControlFlow::Continue(());
        }
        stepped.insert(lock.digit);
        sink.push(lock_step(b, &lock))
    });
    scope.nothing = searched_without(b, scope.skip, stepped, flow);
    flow
}

pub(crate) fn lock_step<const W: usize>(b: &Board<'_, W>, lock: &Lock<W>) -> Step {
    // Rated by where the digit is removed: from a line, pointing; from a box, claiming.
    let pointing = !b.is_box(lock.to);
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
