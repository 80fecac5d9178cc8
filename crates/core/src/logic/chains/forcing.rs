//! Producers 27–36: Nishio, multiple (cell and region) and dynamic forcing chains.
//!
//! For each cell (two candidates or more in the dynamic modes, three or more for static multiple
//! chains), each candidate is assumed on, then off, and everything that follows is propagated.
//! A contradiction disproves the assumption; what both assumptions imply holds (double forcing);
//! what every candidate of a cell, or every place of a digit in a unit, implies holds (cell and
//! region forcing).

use super::cache::{Cache, Footprint, Reuse};
use super::cycles::{self, tracked};
use super::hint::{Cand, Hint, Kind};
use super::potential::{Cause, Ctx, Run, StaticLinks, NONE};

pub(super) fn hints<const W: usize>(ctx: &mut Ctx<W>) -> Vec<Hint> {
    run(ctx, None, None)
}

/// Finds the hints on `ctx.src` and records, cell by cell, what each search read (static
/// multiple chains only: dynamic ones read grids of their own).
pub(super) fn build_cache<const W: usize>(ctx: &mut Ctx<W>) -> Cache<W> {
    let mut cache = Cache::with_starts(ctx.src.geo.cells());
    ctx.track = Some(Footprint::new(ctx.n));
    run(ctx, None, Some(&mut cache));
    ctx.track = None;
    cache
}

/// The hints on `ctx.src`, a reduction of `ctx.rule_src` (on which `cache` was built).
pub(super) fn hints_using<const W: usize>(ctx: &mut Ctx<W>, cache: &Cache<W>) -> Vec<Hint> {
    let (gone_cells, gone_units) = cycles::gone(ctx);
    run(ctx, Some((cache, (&gone_cells, &gone_units))), None)
}

fn run<const W: usize>(
    ctx: &mut Ctx<W>,
    reuse: Option<Reuse<W>>,
    mut record: Option<&mut Cache<W>>,
) -> Vec<Hint> {
    let mut result = Vec::new();
    // A 9×9's runs fit in memory many times over; a reading search must see what it reads.
    let keep_runs = ctx.src.geo.cells() <= 81 && ctx.track.is_none();
    // Static chains see the grid as it is: its links are worked out once.
    if !ctx.mode.dynamic {
        ctx.links = Some(StaticLinks::new(ctx));
    }
    if keep_runs {
        let starts = ctx.src.geo.cells() * ctx.n;
        ctx.on_runs = Some((0..starts).map(|_| None).collect());
    }
    for cell in 0..ctx.src.geo.cells() {
        if ctx.src.value(cell) != 0 {
            continue;
        }
        let card = ctx.src.candidates(cell).len();
        if card > 2 || (card > 1 && ctx.mode.dynamic) {
            let record = record.as_deref_mut();
            tracked(
                ctx,
                cell,
                cell,
                reuse,
                record,
                &mut result,
                |ctx, result| {
                    let mark = ctx.mark();
                    for_cell(ctx, cell, result);
                    if !keep_runs {
                        ctx.truncate(mark);
                    }
                },
            );
            if ctx.stopped {
                break;
            }
        }
    }
    ctx.on_runs = None;
    ctx.links = None;
    result
}

/// The run from "`cell` holds `digit`" and the contradiction it met, if any: kept from an
/// earlier region chain when there is one (the same start on the same grid runs the same way),
/// else followed now.
fn run_from<const W: usize>(ctx: &mut Ctx<W>, cell: usize, digit: u8) -> (Run, Option<(u32, u32)>) {
    let index = cell * ctx.n + digit as usize - 1;
    if let Some(kept) = ctx.on_runs.as_mut().and_then(|runs| runs[index].take()) {
        return kept;
    }
    let on = ctx.pot(cell, digit, true);
    let mut run = Run::with_room();
    run.on.push(ctx.add_node(on, Cause::Start, &[], NONE));
    let absurd = ctx.do_chaining(&mut run);
    (run, absurd)
}

/// Keeps a run for the searches still to come (when runs are kept).
fn keep_run<const W: usize>(
    ctx: &mut Ctx<W>,
    cell: usize,
    digit: u8,
    kept: (Run, Option<(u32, u32)>),
) {
    let index = cell * ctx.n + digit as usize - 1;
    if let Some(runs) = ctx.on_runs.as_mut() {
        runs[index] = Some(kept);
    }
}

fn on_result<const W: usize>(ctx: &Ctx<W>, pot: u32) -> (Vec<Cand>, Option<Cand>) {
    let (c, d) = (ctx.cell(pot), ctx.digit(pot));
    let removable = ctx
        .src
        .candidates(c)
        .iter()
        .filter(|&v| v != d)
        .map(|v| (c as u16, v))
        .collect();
    (removable, Some((c as u16, d)))
}

/// The hint whose result is `pot` (on: the digit goes there; off: it leaves), if it removes
/// anything.
fn result_hint<const W: usize>(
    ctx: &mut Ctx<W>,
    kind: Kind,
    targets: &[u32],
    source: u32,
    pot: u32,
) -> Option<Hint> {
    if ctx.track.is_some() {
        ctx.read(ctx.cell(pot), ctx.digit(pot), true);
    }
    let (removable, placement) = if Ctx::<W>::is_on(pot) {
        on_result(ctx, pot)
    } else {
        (vec![(ctx.cell(pot) as u16, ctx.digit(pot))], None)
    };
    if removable.is_empty() {
        return None;
    }
    Some(ctx.make_hint(kind, targets, source, removable, placement))
}

fn for_cell<const W: usize>(ctx: &mut Ctx<W>, cell: usize, result: &mut Vec<Hint>) {
    let mode = ctx.mode;
    let cands = ctx.src.candidates(cell);
    let card = cands.len();
    let mut value_runs: Vec<Run> = Vec::new();
    for v in cands.iter() {
        let on = ctx.pot(cell, v, true);
        let (on_run, absurd) = run_from(ctx, cell, v);
        let mut off_run = Run::with_room();
        off_run
            .off
            .push(ctx.add_node(on ^ 1, Cause::Start, &[], NONE));
        let double = card >= 3 && !mode.nishio && mode.dynamic;
        let contradiction = mode.dynamic || mode.nishio;
        if contradiction {
            if let Some((a, b)) = absurd {
                let kind = Kind::Binary { absurd: true };
                result.extend(result_hint(ctx, kind, &[a, b], on, on ^ 1));
            }
        }
        let absurd = ctx.do_chaining(&mut off_run);
        if contradiction {
            if let Some((a, b)) = absurd {
                let kind = Kind::Binary { absurd: true };
                result.extend(result_hint(ctx, kind, &[a, b], on ^ 1, on));
            }
        }
        if ctx.stopped {
            return;
        }
        if double {
            ctx.load(&off_run);
            let mut pairs = Vec::new();
            for &p in on_run.on.iter().chain(&on_run.off) {
                let q = ctx.map2[ctx.pot_of(p) as usize];
                if q != NONE {
                    pairs.push((p, q));
                }
            }
            ctx.unload(&off_run);
            for (p, q) in pairs {
                let pot = ctx.pot_of(p);
                let kind = Kind::Binary { absurd: false };
                result.extend(result_hint(ctx, kind, &[p, q], on, pot));
            }
        }
        if !mode.nishio {
            regions(ctx, cell, v, &on_run, result);
            if ctx.stopped {
                return;
            }
        }
        value_runs.push(on_run);
    }
    if !mode.nishio && (card == 2 || (mode.multiple && card > 2)) {
        let (first, others) = value_runs.split_first().expect("two candidates or more");
        let others: Vec<&Run> = others.iter().collect();
        let versions = intersect(ctx, first, &others);
        for row in versions.chunks(value_runs.len()) {
            let pot = ctx.pot_of(row[0]);
            let source = ctx.pot(cell, cands.first().unwrap_or(1), true);
            result.extend(result_hint(ctx, Kind::Cell, row, source, pot));
        }
    }
}

/// The potentials found by `first` and by every run of `others` (ons first, in `first`'s order),
/// each with its node in every run: one row of `1 + others.len()` nodes each, in one flat vector
/// (hundreds of rows are tried and most go at the first other run).
fn intersect<const W: usize>(ctx: &mut Ctx<W>, first: &Run, others: &[&Run]) -> Vec<u32> {
    let stride = 1 + others.len();
    let mut rows = vec![NONE; (first.on.len() + first.off.len()) * stride];
    for (row, &x) in rows
        .chunks_mut(stride)
        .zip(first.on.iter().chain(&first.off))
    {
        row[0] = x;
    }
    for (column, run) in others.iter().enumerate() {
        ctx.load(run);
        let mut kept = 0;
        for r in 0..rows.len() / stride {
            let q = ctx.map2[ctx.nodes[rows[r * stride] as usize].pot as usize];
            if q != NONE {
                rows.copy_within(r * stride..(r + 1) * stride, kept * stride);
                rows[kept * stride + 1 + column] = q;
                kept += 1;
            }
        }
        rows.truncate(kept * stride);
        ctx.unload(run);
        if rows.is_empty() {
            break;
        }
    }
    rows
}

/// Region forcing chains for `digit` in each unit of `cell` where `cell` is its first place.
fn regions<const W: usize>(
    ctx: &mut Ctx<W>,
    cell: usize,
    digit: u8,
    on_run: &Run,
    result: &mut Vec<Hint>,
) {
    if ctx.track.is_some() {
        ctx.read(cell, digit, false);
    }
    for &unit in ctx.units_of(cell) {
        let places = ctx.src.places_in(digit, unit as usize);
        let k = places.len();
        if !(k == 2 || (ctx.mode.multiple && k > 2)) || places.first() != Some(cell) {
            continue;
        }
        let mut runs = Vec::new();
        for pos in places.iter().skip(1) {
            runs.push(run_from(ctx, pos, digit));
        }
        if ctx.stopped {
            return;
        }
        // The intersection, starting from this cell's run.
        let others: Vec<&Run> = runs.iter().map(|(run, _)| run).collect();
        let rows = intersect(ctx, on_run, &others);
        let stride = 1 + others.len();
        for (pos, kept) in places.iter().skip(1).zip(runs) {
            keep_run(ctx, pos, digit, kept);
        }
        let source = ctx.pot(cell, digit, true);
        for row in rows.chunks(stride) {
            let pot = ctx.pot_of(row[0]);
            result.extend(result_hint(ctx, Kind::Region { unit }, row, source, pot));
        }
    }
}
