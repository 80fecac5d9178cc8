//! Subsets: `k` cells of a unit that hold only `k` digits between them (naked), or `k` digits
//! whose places in a unit are only `k` cells (hidden). Either way those digits fill those cells:
//! a naked set pushes its digits out of the unit's other cells, a hidden set pushes every other
//! digit out of its cells.

use std::ops::ControlFlow;

use super::board::Board;
use super::step::{say, Candidate, Difficulty, Step, Technique};
use super::{combinations, Sink};
use crate::cells::CellSet;
use crate::engine::Digits;

/// Sudoku Explainer's values for naked and hidden pairs, triples and quads.
fn difficulty(size: usize, hidden: bool) -> Difficulty {
    Difficulty(match (size, hidden) {
        (2, false) => 30,
        (3, false) => 36,
        (4, false) => 50,
        (2, true) => 34,
        (3, true) => 40,
        _ => 54,
    })
}

fn technique(size: usize, hidden: bool) -> Technique {
    match (size, hidden) {
        (2, false) => Technique::NakedPair,
        (3, false) => Technique::NakedTriple,
        (4, false) => Technique::NakedQuad,
        (2, true) => Technique::HiddenPair,
        (3, true) => Technique::HiddenTriple,
        _ => Technique::HiddenQuad,
    }
}

/// A subset found in a unit.
pub(crate) struct Subset<const W: usize> {
    pub unit: usize,
    pub cells: CellSet<W>,
    pub digits: Digits,
    pub hidden: bool,
    pub eliminations: Vec<Candidate>,
}

/// Naked sets of `size` cells, units in scan order.
pub(crate) fn naked_sets<const W: usize>(
    b: &Board<'_, W>,
    size: usize,
    mut found: impl FnMut(Subset<W>) -> ControlFlow<()>,
) -> ControlFlow<()> {
    for &unit in b.scan_order() {
        let empty = (b.unit(unit) & b.empty_cells()).len() as usize;
        if empty < 2 * size {
            continue; // Sudoku Explainer's bound: the complementary hidden set is as small
        }
        // On the stack: this runs for every unit at every stuck grid (a unit has at most 25).
        let mut open = [0usize; 25];
        let mut count = 0;
        for c in (b.unit(unit) & b.empty_cells()).iter() {
            if b.candidates(c).len() as usize <= size {
                open[count] = c;
                count += 1;
            }
        }
        combinations(&open[..count], size, |cells| {
            let digits = cells
                .iter()
                .fold(Digits::EMPTY, |ds, &c| ds | b.candidates(c));
            if digits.len() as usize != size {
                return ControlFlow::Continue(());
            }
            let set: CellSet<W> = cells.iter().copied().collect();
            let others = (b.unit(unit) & b.empty_cells()) - set;
            let eliminations = candidates_in(b, others, digits);
            if eliminations.is_empty() {
                return ControlFlow::Continue(());
            }
            found(Subset {
                unit,
                cells: set,
                digits,
                hidden: false,
                eliminations,
            })
        })?;
    }
    ControlFlow::Continue(())
}

/// Hidden sets of `size` digits in units with more than `min_empty` empty cells, units in scan
/// order, digit sets in colexicographic order. Each is handed on whether it eliminates or not;
/// its eliminations are listed only `with_eliminations` (direct hidden sets look past them).
fn hidden_sets_in<const W: usize>(
    b: &Board<'_, W>,
    (size, min_empty): (usize, usize),
    with_eliminations: bool,
    changed: Option<&CellSet<W>>,
    mut found: impl FnMut(Subset<W>) -> ControlFlow<()>,
) -> ControlFlow<()> {
    for &unit in b.scan_order() {
        if ((b.unit(unit) & b.empty_cells()).len() as usize) <= min_empty {
            continue;
        }
        if changed.is_some_and(|ch| !b.unit(unit).intersects(ch)) {
            continue; // see `direct_hidden_near`
        }
        // On the stack: this runs for every unit at every stuck grid (25 digits at most).
        let mut open = [0u8; 25];
        let mut count = 0;
        for d in 1..=b.side() as u8 {
            let n = b.places_in(d, unit).len() as usize;
            if (2..=size).contains(&n) {
                open[count] = d;
                count += 1;
            }
        }
        combinations(&open[..count], size, |digits| {
            let cells = digits
                .iter()
                .fold(CellSet::EMPTY, |cs, &d| cs | b.places_in(d, unit));
            if cells.len() as usize != size {
                return ControlFlow::Continue(());
            }
            let set = digits
                .iter()
                .fold(Digits::EMPTY, |ds, &d| ds | Digits::single(d));
            let others = !set & Digits::all(b.side());
            let eliminations = if with_eliminations {
                candidates_in(b, cells, others)
            } else {
                Vec::new()
            };
            found(Subset {
                unit,
                cells,
                digits: set,
                hidden: true,
                eliminations,
            })
        })?;
    }
    ControlFlow::Continue(())
}

/// Hidden sets of `size` digits that eliminate something (in units with more than `2 * size`
/// empty cells, as Sudoku Explainer looks for them).
pub(crate) fn hidden_sets<const W: usize>(
    b: &Board<'_, W>,
    size: usize,
    mut found: impl FnMut(Subset<W>) -> ControlFlow<()>,
) -> ControlFlow<()> {
    hidden_sets_in(b, (size, 2 * size), true, None, |s| {
        if s.eliminations.is_empty() {
            return ControlFlow::Continue(());
        }
        found(s)
    })
}

/// A hidden pair or triple whose eliminations leave another digit one place in the unit: that
/// hidden single is the step (direct hidden pair 2.0, triple 2.5; nothing else is applied).
pub(crate) fn direct_hidden<const W: usize>(
    b: &Board<'_, W>,
    size: usize,
    sink: &mut Sink,
) -> ControlFlow<()> {
    direct_hidden_near(b, size, None, sink)
}

/// `direct_hidden` on a grid reduced from one where it found nothing, `changed` holding the
/// cells whose candidates have changed since (solved ones included): only units with such a
/// cell are searched. A direct hidden set and the single it leaves are read from one unit's
/// places, and a unit with none of its cells changed has the same places as then.
pub(crate) fn direct_hidden_near<const W: usize>(
    b: &Board<'_, W>,
    size: usize,
    changed: Option<&CellSet<W>>,
    sink: &mut Sink,
) -> ControlFlow<()> {
    hidden_sets_in(b, (size, size), false, changed, |s| {
        for digit in (!s.digits & Digits::all(b.side())).iter() {
            let places = b.places_in(digit, s.unit);
            let Some(cell) = (places - s.cells).only() else {
                continue;
            };
            if places.len() < 2 {
                continue;
            }
            return sink.push(direct_hidden_step(b, &s, digit, cell));
        }
        ControlFlow::Continue(())
    })
}

fn direct_hidden_step<const W: usize>(
    b: &Board<'_, W>,
    s: &Subset<W>,
    digit: u8,
    cell: usize,
) -> Step {
    let size = s.cells.len();
    let (technique, difficulty) = if size == 2 {
        (Technique::DirectHiddenPair, Difficulty(20))
    } else {
        (Technique::DirectHiddenTriple, Difficulty(25))
    };
    let text = format!(
        "{technique}: {} in {} can only go in {}, so the last place of {} there is {}",
        s.digits,
        b.geo.unit_name(s.unit),
        say::cells(b.geo, s.cells.iter()),
        crate::grid::digit_char(digit),
        b.geo.cell_name(cell),
    );
    Step {
        technique,
        difficulty,
        placements: vec![Candidate::new(cell, digit)],
        eliminations: Vec::new(),
        cells: s.cells.iter().map(|c| c as u16).collect(),
        units: vec![s.unit as u16],
        digits: s.digits,
        text,
    }
}

/// Every candidate among `digits` in `cells`, cell by cell.
pub(crate) fn candidates_in<const W: usize>(
    b: &Board<'_, W>,
    cells: CellSet<W>,
    digits: Digits,
) -> Vec<Candidate> {
    let mut out = Vec::new();
    for c in cells.iter() {
        for d in (b.candidates(c) & digits).iter() {
            out.push(Candidate::new(c, d));
        }
    }
    out
}

pub(super) fn naked<const W: usize>(
    b: &Board<'_, W>,
    size: usize,
    sink: &mut Sink,
) -> ControlFlow<()> {
    naked_sets(b, size, |s| sink.push(subset_step(b, s)))
}

pub(super) fn hidden<const W: usize>(
    b: &Board<'_, W>,
    size: usize,
    sink: &mut Sink,
) -> ControlFlow<()> {
    hidden_sets(b, size, |s| sink.push(subset_step(b, s)))
}

pub(crate) fn subset_step<const W: usize>(b: &Board<'_, W>, s: Subset<W>) -> Step {
    let size = s.cells.len() as usize;
    let technique = technique(size, s.hidden);
    let text = format!(
        "{technique} {} in {} ({}): {}",
        s.digits,
        b.geo.unit_name(s.unit),
        say::cells(b.geo, s.cells.iter()),
        say::eliminations(b.geo, &s.eliminations),
    );
    Step {
        technique,
        difficulty: difficulty(size, s.hidden),
        placements: Vec::new(),
        eliminations: s.eliminations,
        cells: s.cells.iter().map(|c| c as u16).collect(),
        units: vec![s.unit as u16],
        digits: s.digits,
        text,
    }
}
