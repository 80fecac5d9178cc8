//! Chains: Sudoku Explainer's chaining producers — bidirectional cycles and forcing X- and
//! XY-chains (6.5+), Nishio (7.5+), multiple (8.0+), dynamic (8.5+), dynamic with other
//! techniques as implications (9.0+) and nested chains (9.5+).
//!
//! Every producer collects all its hints on the grid, sorts them (difficulty, complexity, kind,
//! then the order found) and the first one is the step. `potential` holds the engine (potentials,
//! implications, propagation), `cycles` the static single chains, `forcing` the multiple,
//! dynamic and Nishio searches, `advanced` the extra implications of the (+) and nested levels.
//! What they find is a `hint` (with Sudoku Explainer's order), made from a chain by
//! `make_hint`; `cache` keeps what a static search found, for nested producers to reuse.

mod advanced;
mod cache;
mod cycles;
mod forcing;
mod hint;
mod make_hint;
mod potential;
mod reach;
mod text;

use std::ops::ControlFlow;

use super::board::Board;
use super::step::{Candidate, Step, Technique};
use super::{DigitScope, Sink};
use crate::engine::Budget;
use hint::{sort, tenths, Cand, Hint, Kind, Mode};
use potential::Ctx;

/// Which chaining producer: Sudoku Explainer's producers 25 and 27–36.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Chaining {
    /// Bidirectional X-, Y- and XY-cycles, forcing X-chains and forcing chains (25).
    Cycles,
    /// Single-digit dynamic contradictions (27).
    Nishio,
    /// Static cell and region forcing chains (28).
    Multiple,
    /// Dynamic contradiction, double, cell and region forcing chains (29).
    Dynamic,
    /// Dynamic chains that also use pointing/claiming, hidden and naked pairs and X-wings (30).
    DynamicPlus,
    /// Dynamic chains of a level (2: with forcing chains, 3: with multiple chains, 4: with
    /// dynamic chains of level `nesting`) (31–36).
    Nested(u8, u8),
}

impl Chaining {
    fn mode(self) -> Mode {
        let (multiple, dynamic, nishio, level, nesting) = match self {
            Chaining::Cycles => (false, false, false, 0, 0),
            Chaining::Nishio => (false, true, true, 0, 0),
            Chaining::Multiple => (true, false, false, 0, 0),
            Chaining::Dynamic => (true, true, false, 0, 0),
            Chaining::DynamicPlus => (true, true, false, 1, 0),
            Chaining::Nested(level, nesting) => (true, true, false, level, nesting),
        };
        Mode {
            multiple,
            dynamic,
            nishio,
            level,
            nesting,
        }
    }
}

/// All the hints of a producer on `b`, in Sudoku Explainer's order; `None` when the budget ran
/// out.
fn hints<const W: usize>(
    b: &Board<'_, W>,
    kind: Chaining,
    budget: &Budget,
    first_only: bool,
    scope: &mut DigitScope,
) -> Option<Vec<Hint>> {
    let mut ctx = Ctx::new(b, None, kind.mode(), budget);
    ctx.first_only = first_only;
    if kind == Chaining::Cycles {
        ctx.x_scope = Some(*scope);
    }
    let hints = collect(&mut ctx);
    if let Some(x_scope) = ctx.x_scope {
        scope.nothing = x_scope.nothing;
    }
    (!ctx.stopped).then_some(hints)
}

/// Runs the producer of `ctx.mode` and sorts what it finds.
fn collect<const W: usize>(ctx: &mut Ctx<W>) -> Vec<Hint> {
    let mut hints = if ctx.mode.multiple || ctx.mode.dynamic {
        forcing::hints(ctx)
    } else {
        cycles::hints(ctx)
    };
    sort(&mut hints);
    hints
}

/// Pushes the producer's steps, in Sudoku Explainer's order (the first is the one it applies);
/// breaks when the sink has enough or the budget ran out.
pub fn find<const W: usize>(
    b: &Board<'_, W>,
    kind: Chaining,
    budget: &Budget,
    sink: &mut Sink,
) -> ControlFlow<()> {
    find_in(b, kind, budget, &mut DigitScope::every(), sink)
}

/// `find`, where the X-chains of static chains skip the digits of `scope`, each known to give
/// none on its places (X-cycles and forcing X-chains read only their digit's places); notes in
/// `scope` whether the X-chains found none at all.
pub(crate) fn find_in<const W: usize>(
    b: &Board<'_, W>,
    kind: Chaining,
    budget: &Budget,
    scope: &mut DigitScope,
    sink: &mut Sink,
) -> ControlFlow<()> {
    let Some(hints) = hints(b, kind, budget, sink.wants_one(), scope) else {
        return ControlFlow::Break(());
    };
    let mut seen: Vec<(Option<Cand>, &[Cand])> = Vec::new();
    for hint in &hints {
        let id = (hint.placement, hint.removable.as_slice());
        if seen.contains(&id) {
            continue; // the same deduction by a longer way
        }
        seen.push(id);
        sink.push(step(b, hint))?;
    }
    ControlFlow::Continue(())
}

/// The technique of a hint, named as Sudoku Explainer names it.
pub(crate) fn technique(hint: &Hint) -> Technique {
    use Technique::*;
    let level = hint.mode.level;
    match hint.kind {
        Kind::Cycle { x, y, cells } => match (x, y) {
            (true, true) => BidirectionalCycle,
            (false, true) => BidirectionalYCycle,
            _ if cells == 4 => GeneralizedXWing,
            _ => BidirectionalXCycle,
        },
        Kind::Forcing { x: true, y: true } => ForcingXyChain,
        Kind::Forcing { .. } if hint.flat == 6 => TurbotFishChain,
        Kind::Forcing { .. } => ForcingXChain,
        _ if hint.mode.nishio => NishioForcingChains,
        Kind::Cell if !hint.mode.dynamic => CellForcingChains,
        Kind::Region { .. } if !hint.mode.dynamic => RegionForcingChains,
        Kind::Binary { absurd: true } => DynamicContradiction(level),
        Kind::Binary { absurd: false } => DynamicDouble(level),
        Kind::Cell => DynamicCell(level),
        Kind::Region { .. } => DynamicRegion(level),
    }
}

fn step<const W: usize>(b: &Board<'_, W>, hint: &Hint) -> Step {
    let technique = technique(hint);
    let placements: Vec<Candidate> = hint
        .placement
        .iter()
        .map(|&(c, d)| Candidate::new(c as usize, d))
        .collect();
    let eliminations: Vec<Candidate> = hint
        .removable
        .iter()
        .map(|&(c, d)| Candidate::new(c as usize, d))
        .collect();
    let mut cells: Vec<u16> = Vec::new();
    let mut digits = crate::engine::Digits::EMPTY;
    let n = b.side();
    for path in &hint.paths {
        for &pot in path {
            let cell = (pot as usize / 2 / n) as u16;
            if !cells.contains(&cell) {
                cells.push(cell);
            }
            digits.insert((pot as usize / 2 % n) as u8 + 1);
        }
    }
    let units = match hint.kind {
        Kind::Region { unit } => vec![unit],
        _ => Vec::new(),
    };
    let text = text::say(b, hint, technique, &placements, &eliminations);
    Step {
        technique,
        difficulty: tenths(hint.difficulty),
        placements,
        eliminations,
        cells,
        units,
        digits,
        text,
    }
}

#[cfg(test)]
mod tests;
