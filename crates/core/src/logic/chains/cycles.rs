//! Producer 25: bidirectional cycles (X, Y and XY) and forcing X- and XY-chains, on the grid as
//! it is (static implications: nothing is taken out while a chain is followed).
//!
//! Three passes over every candidate of every cell with two or more: digit links only (X), cell
//! links only (Y, from bivalue cells), both. A cycle is a chain that comes back to its start
//! after four links or more; a forcing chain is an assumption that implies its own opposite.

use super::cache::{Cache, Footprint, Reuse};
use super::hint::{sort_key, Hint, Kind};
use super::potential::{Best, Cause, Ctx, StaticLinks, NONE};
use super::reach::Starts;
use crate::cells::CellSet;
use crate::engine::Digits;

/// Searches start `index` (at `cell`) with `search`: reuses what `reuse` found there if the
/// search read nothing that went, and records what it reads and finds into `record`.
pub(super) fn tracked<const W: usize>(
    ctx: &mut Ctx<W>,
    cell: usize,
    index: usize,
    reuse: Option<Reuse<W>>,
    record: Option<&mut Cache<W>>,
    result: &mut Vec<Hint>,
    search: impl FnOnce(&mut Ctx<W>, &mut Vec<Hint>),
) {
    if let Some((cache, gone)) = reuse {
        if let Some(hints) = cache.reusable(index, gone) {
            result.extend_from_slice(hints);
            return;
        }
    }
    if let Some(t) = &mut ctx.track {
        t.clear();
        t.cells.insert(cell);
    }
    let before = result.len();
    search(ctx, result);
    if let (Some(cache), false) = (record, ctx.stopped) {
        let footprint = ctx.track.clone().expect("tracking");
        cache.record(index, &result[before..], footprint);
    }
}

pub(super) fn hints<const W: usize>(ctx: &mut Ctx<W>) -> Vec<Hint> {
    let links = StaticLinks::new(ctx);
    if !ctx.first_only {
        return run(ctx, &links, &mut PassStarts::default(), ALL, None, None);
    }
    // Short chains first: if one is found this cheap way, every hint as easy or easier is among
    // what this found (nothing easier is cut off), so the first is the same.
    ctx.best = Best::below(EASY);
    // The starts of each pass serve both searches.
    let mut starts = PassStarts::default();
    let found = run(ctx, &links, &mut starts, ALL, None, None);
    if ctx.stopped || found.iter().any(|h| h.difficulty <= EASY) {
        return found;
    }
    ctx.best = Best::NONE;
    run(ctx, &links, &mut starts, ALL, None, None)
}

/// The passes of `run`: digit links only (X), cell links only (Y), both (XY).
const PASSES: [(bool, bool); 3] = [(false, true), (true, false), (true, true)];
const ALL: std::ops::Range<usize> = 0..3;

/// The difficulty below which a first search looks (an X-cycle or forcing X-chain of up to 10
/// nodes): most puzzles that need this producer have such a chain, and it is found at a
/// fraction of the cost of following every chain to its end.
const EASY: f64 = 6.7;

/// Finds the hints on `ctx.src` and records, start by start, what each search read.
pub(super) fn build_cache<const W: usize>(ctx: &mut Ctx<W>) -> Cache<W> {
    let mut cache = Cache::with_starts(3 * ctx.src.geo.cells() * ctx.n);
    ctx.track = Some(Footprint::new(ctx.n));
    let links = StaticLinks::new(ctx);
    run(
        ctx,
        &links,
        &mut PassStarts::default(),
        ALL,
        None,
        Some(&mut cache),
    );
    ctx.track = None;
    cache
}

/// The hints on `ctx.src`, a reduction of `ctx.rule_src` (on which `cache` was built): a start
/// whose search read none of the candidates that went finds what it found there.
pub(super) fn hints_using<const W: usize>(ctx: &mut Ctx<W>, cache: &Cache<W>) -> Vec<Hint> {
    let (gone_cells, gone_units) = gone(ctx);
    let links = StaticLinks::new(ctx);
    run(
        ctx,
        &links,
        &mut PassStarts::default(),
        ALL,
        Some((cache, (&gone_cells, &gone_units))),
        None,
    )
}

/// The cells that lost candidates from `ctx.rule_src` to `ctx.src`, and for each digit the units
/// where it lost places.
pub(super) fn gone<const W: usize>(ctx: &Ctx<W>) -> (CellSet<W>, Vec<u128>) {
    let outer = ctx.rule_src.expect("a nested producer");
    let mut gone_cells = CellSet::<W>::EMPTY;
    let mut gone_units = vec![0u128; ctx.n];
    for d in 1..=ctx.n as u8 {
        let gone = outer.places(d) - ctx.src.places(d);
        gone_cells |= gone;
        for c in gone.iter() {
            for &u in ctx.units_of(c) {
                gone_units[d as usize - 1] |= 1u128 << u;
            }
        }
    }
    (gone_cells, gone_units)
}

/// The starts of each pass that can give a chain, once worked out (see `reach`).
type PassStarts = [Option<Starts>; 3];

fn run<const W: usize>(
    ctx: &mut Ctx<W>,
    links: &StaticLinks,
    starts: &mut PassStarts,
    passes: std::ops::Range<usize>,
    reuse: Option<Reuse<W>>,
    mut record: Option<&mut Cache<W>>,
) -> Vec<Hint> {
    let mut result = Vec::new();
    let cells = ctx.src.geo.cells();
    for pass in passes {
        let (y, x) = PASSES[pass];
        if ctx.beyond(base(y, x), 0, sort_key(x, y)) {
            continue; // XY chains start at 7.0: an easier hint is already found
        }
        // X-chains read only their digit's places: a digit known to give none is skipped.
        let skip = match ctx.x_scope {
            Some(scope) if (y, x) == (false, true) => scope.skip,
            _ => Digits::EMPTY,
        };
        let unbounded = ctx.best.difficulty == f64::INFINITY;
        // Only from starts that can give a chain; not while recording what searches read: a
        // start skipped here reads nothing, yet on a reduced grid (with links a removal adds) it
        // may find a chain.
        if ctx.track.is_none() && starts[pass].is_none() {
            starts[pass] = Some(super::reach::starts(ctx, links, y, x));
        }
        let starts = starts[pass].as_ref().filter(|_| ctx.track.is_none());
        for cell in 0..cells {
            let cands = ctx.src.candidates(cell);
            if ctx.src.value(cell) != 0 || cands.len() < 2 {
                continue;
            }
            for digit in (cands & !skip).iter() {
                if ctx.tick() {
                    return result;
                }
                let index = (pass * cells + cell) * ctx.n + digit as usize - 1;
                let record = record.as_deref_mut();
                let before = result.len();
                tracked(
                    ctx,
                    cell,
                    index,
                    reuse,
                    record,
                    &mut result,
                    |ctx, result| unary(ctx, links, (cell, digit), (y, x), starts, result),
                );
                ctx.found(&result[before..]);
            }
        }
        if let (Some(scope), 0) = (&mut ctx.x_scope, pass) {
            // Searched to the end and nothing found: no digit has an X-chain.
            if unbounded && result.is_empty() && !ctx.stopped {
                scope.nothing = Digits::all(ctx.n);
            }
        }
    }
    result
}

/// The cycles through (`cell`, `digit`) on, and with `x` (digit links) the forcing chains from it
/// on and off; only where `starts` (when known) says a chain can be.
fn unary<const W: usize>(
    ctx: &mut Ctx<W>,
    links: &StaticLinks,
    (cell, digit): (usize, u8),
    (y, x): (bool, bool),
    starts: Option<&Starts>,
    result: &mut Vec<Hint>,
) {
    if !x && ctx.src.candidates(cell).len() > 2 {
        return; // Y-cycles start from bivalue cells
    }
    let mark = ctx.mark();
    let on = ctx.pot(cell, digit, true);
    let source = ctx.add_node(on, Cause::Start, &[], NONE);
    let component = starts.map(|s| (s.component.as_slice(), s.component[on as usize]));
    let cycles = match component {
        Some((_, NONE)) => Vec::new(), // on no cycle
        _ => do_cycles(ctx, links, source, (y, x), component),
    };
    let mut chains = Vec::new();
    if x {
        let forcing = |pot: u32| starts.is_none_or(|s| s.may_force(pot));
        if forcing(on) {
            forcing_chains(ctx, links, source, (y, starts), &mut chains);
        }
        if forcing(on ^ 1) {
            let off = ctx.add_node(on ^ 1, Cause::Start, &[], NONE);
            forcing_chains(ctx, links, off, (y, starts), &mut chains);
        }
    }
    for dst in cycles {
        if let Some(hint) = cycle_hint(ctx, dst, on, y, x) {
            result.push(hint);
        }
    }
    for target in chains {
        let pot = ctx.pot_of(target);
        let (c, d) = (ctx.cell(pot), ctx.digit(pot));
        ctx.read(c, d, true);
        let (removable, placement) = if Ctx::<W>::is_on(pot) {
            let others = ctx.src.candidates(c).iter().filter(|&v| v != d);
            let removable = others.map(|v| (c as u16, v)).collect();
            (removable, Some((c as u16, d)))
        } else {
            (vec![(c as u16, d)], None)
        };
        result.push(ctx.make_hint(Kind::Forcing { x, y }, &[target], on, removable, placement));
    }
    ctx.truncate(mark);
}

/// The lowest base difficulty of a pass's hints: cycles 6.5 (X or Y), XY chains and cycles 7.0.
fn base(y: bool, x: bool) -> f64 {
    if y && x {
        7.0
    } else {
        6.5
    }
}

/// Breadth first from `source` (on), alternating layers; an "off" is followed again each time it
/// is reached unless it is already on the way, an "on" once. Returns the nodes where the chain
/// comes back to `source`. With `component` (each potential's strongly connected component, and
/// the source's), links that leave the source's component are not followed: nothing beyond them
/// leads back, and leaving them out changes neither the order nor the chains of the rest.
fn do_cycles<const W: usize>(
    ctx: &mut Ctx<W>,
    links: &StaticLinks,
    source: u32,
    (y, x): (bool, bool),
    component: Option<(&[u32], u32)>,
) -> Vec<u32> {
    let outside = |pot: u32| component.is_some_and(|(of, c)| of[pot as usize] != c);
    let source_pot = ctx.pot_of(source);
    let mut run = std::mem::take(&mut ctx.spare);
    run.on.push(source);
    ctx.map[source_pot as usize] = source;
    let mut cycles = Vec::new();
    let (mut ion, mut ioff) = (0, 0);
    let mut length = 0;
    while ion < run.on.len() || ioff < run.off.len() {
        length += 1;
        // A node of layer `length` ends a chain of `length` nodes or more.
        if ctx.beyond(base(y, x), length, sort_key(x, y)) {
            break;
        }
        while ion < run.on.len() {
            let p = run.on[ion];
            ion += 1;
            let pot = ctx.note_read(p, y);
            for &(qp, cause) in links.implied(pot, y, true) {
                if !outside(qp) && !ctx.is_parent(p, qp) {
                    let q = ctx.node_for(p, qp, cause);
                    run.off.push(q);
                }
            }
        }
        length += 1;
        if ctx.beyond(base(y, x), length, sort_key(x, y)) {
            break;
        }
        while ioff < run.off.len() {
            let p = run.off[ioff];
            ioff += 1;
            let pot = ctx.note_read(p, y);
            for &(qp, cause) in links.implied(pot, y, x) {
                if outside(qp) {
                    continue;
                }
                let mut q = NONE;
                if length >= 4 && qp == source_pot {
                    q = ctx.node_for(p, qp, cause);
                    cycles.push(q);
                }
                if ctx.map[qp as usize] == NONE {
                    if q == NONE {
                        q = ctx.node_for(p, qp, cause);
                    }
                    ctx.map[qp as usize] = q;
                    run.on.push(q);
                }
            }
        }
    }
    for &x in &run.on {
        let pot = ctx.pot_of(x);
        ctx.map[pot as usize] = NONE;
    }
    run.on.clear();
    run.off.clear();
    ctx.spare = run;
    cycles
}

/// Breadth first from `source`, each potential once; collects the nodes that contradict it (the
/// source implies its opposite). With `starts` (what each potential leads to), a potential that
/// does not lead to the opposite is not followed: nothing beyond it does either, so every chain
/// to the opposite runs through potentials that are followed, found in the same order with the
/// same parents.
fn forcing_chains<const W: usize>(
    ctx: &mut Ctx<W>,
    links: &StaticLinks,
    source: u32,
    (y, starts): (bool, Option<&Starts>),
    chains: &mut Vec<u32>,
) {
    let source_pot = ctx.pot_of(source);
    let leads = |pot: u32| starts.is_none_or(|s| s.may_lead(pot, source_pot ^ 1));
    let mut run = std::mem::take(&mut ctx.spare);
    if Ctx::<W>::is_on(source_pot) {
        run.on.push(source);
    } else {
        run.off.push(source);
    }
    ctx.map[source_pot as usize] = source;
    let (mut ion, mut ioff) = (0, 0);
    let mut round = 0;
    while ion < run.on.len() || ioff < run.off.len() {
        // Round k adds nodes that end chains of 2k - 1 nodes or more (2k from an "on" source);
        // forcing chains start at 6.6 (X) or 7.0 (XY).
        round += 1;
        let (base, key) = if y {
            (7.0, sort_key(true, true))
        } else {
            (6.6, sort_key(true, false))
        };
        if ctx.beyond(base, 2 * round - 1, key) {
            break;
        }
        while ion < run.on.len() {
            let p = run.on[ion];
            ion += 1;
            let pot = ctx.note_read(p, y);
            for &(qp, cause) in links.implied(pot, y, true) {
                if leads(qp) {
                    reach(ctx, p, qp, cause, source_pot, chains, &mut run.off);
                }
            }
        }
        while ioff < run.off.len() {
            let p = run.off[ioff];
            ioff += 1;
            let pot = ctx.note_read(p, y);
            for &(qp, cause) in links.implied(pot, y, true) {
                if leads(qp) {
                    reach(ctx, p, qp, cause, source_pot, chains, &mut run.on);
                }
            }
        }
    }
    for &x in run.on.iter().chain(&run.off) {
        let pot = ctx.pot_of(x);
        ctx.map[pot as usize] = NONE;
    }
    run.on.clear();
    run.off.clear();
    ctx.spare = run;
}

/// Follows `p` to its consequence `qp`: the opposite of the source is a forcing chain (each one
/// once), and a potential reached for the first time is queued in `next`.
fn reach<const W: usize>(
    ctx: &mut Ctx<W>,
    p: u32,
    qp: u32,
    cause: Cause,
    source_pot: u32,
    chains: &mut Vec<u32>,
    next: &mut Vec<u32>,
) {
    let mut q = NONE;
    if qp ^ 1 == source_pot && !chains.iter().any(|&c| ctx.pot_of(c) == qp) {
        q = ctx.node_for(p, qp, cause);
        chains.push(q);
    }
    if ctx.map[qp as usize] == NONE {
        if q == NONE {
            q = ctx.node_for(p, qp, cause);
        }
        ctx.map[qp as usize] = q;
        next.push(q);
    }
}

/// The eliminations of a cycle: candidates outside it that see an "on" and an "off" of their
/// digit along it.
fn cycle_hint<const W: usize>(
    ctx: &mut Ctx<W>,
    dst: u32,
    source_pot: u32,
    y: bool,
    x: bool,
) -> Option<Hint> {
    let mut path = Vec::new();
    let mut node = dst;
    while let Some(parent) = ctx.first_parent(node) {
        path.push(node);
        node = parent;
    }
    let mut cells = CellSet::<W>::EMPTY;
    let mut digits = Digits::EMPTY;
    for &p in &path {
        let pot = ctx.pot_of(p);
        let (cell, digit) = (ctx.cell(pot), ctx.digit(pot));
        cells.insert(cell);
        digits.insert(digit);
        if ctx.track.is_some() {
            ctx.read(cell, digit, false);
        }
    }
    // Digit by digit (a cycle has few), with no table of every digit's sets.
    let mut removable = Vec::new();
    for digit in digits.iter() {
        let (mut forw, mut back) = (CellSet::<W>::EMPTY, CellSet::<W>::EMPTY);
        for &p in &path {
            let pot = ctx.pot_of(p);
            let cell = ctx.cell(pot);
            if ctx.digit(pot) != digit {
                continue;
            }
            let seen = (ctx.src.peers(cell) & ctx.src.places(digit)) - cells;
            if Ctx::<W>::is_on(pot) {
                forw |= seen;
            } else {
                back |= seen;
            }
        }
        removable.extend((forw & back).iter().map(|c| (c as u16, digit)));
    }
    if removable.is_empty() {
        return None;
    }
    removable.sort_unstable();
    let kind = Kind::Cycle {
        x,
        y,
        cells: cells.len(),
    };
    Some(ctx.make_hint(kind, &[dst], source_pot, removable, None))
}
