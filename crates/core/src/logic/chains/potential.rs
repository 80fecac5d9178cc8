//! Potentials and their implications: the engine every chaining producer shares.
//!
//! A potential is a candidate assumed true ("on") or false ("off"), indexed densely as
//! `(cell * side + digit - 1) * 2 + on`. Each time a rule derives a potential it becomes a `Node`
//! in an arena, with the indices of the nodes it follows from (its parents; the first is the one a
//! chain is drawn through), so a chain is the graph of parents from its last node. Sets of nodes
//! found by one propagation are kept in `Run`s (insertion order, which is the breadth-first
//! order: every pending "on" before the next "off").

use super::super::board::Board;
use super::cache::{Cache, Footprint};
use super::hint::{length_difficulty, Hint, Mode};
use crate::cells::CellSet;
use crate::engine::Budget;
use crate::grid::Geometry;

pub(super) const NONE: u32 = u32::MAX;

/// Room for the nodes of a typical chain, so that the vectors walking one rarely grow.
const CHAIN_ROOM: usize = 32;

/// The cell and digit of each candidate index of a geometry.
fn decode(geo: &Geometry) -> &[u32] {
    &geo.candidate_codes
}

/// The cell of a one-cell set (without counting bits: no popcount in the baseline target).
fn only<const W: usize>(set: &CellSet<W>) -> Option<usize> {
    let mut found = None;
    for (i, &w) in set.0.iter().enumerate() {
        if w != 0 {
            if found.is_some() || w & (w - 1) != 0 {
                return None;
            }
            found = Some(i * 64 + w.trailing_zeros() as usize);
        }
    }
    found
}

/// Each cell's units in Sudoku Explainer's order (box, row, column, diagonals).
fn cell_units(geo: &Geometry) -> &[Box<[u16]>] {
    &geo.units_of_ranked
}

/// Why a node holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Cause {
    /// The assumption a search starts from.
    Start,
    /// The cell's other digit (bivalue) or, for an off, the cell holds another digit.
    Cell,
    /// The digit's only other place in this unit, or, for an off, the digit is placed in it.
    House(u16),
    /// Another technique applied to the reduced grid (dynamic chains (+) and nested chains).
    Advanced,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    pub pot: u32,
    /// Start of the parents in `Ctx::parents`, and how many.
    pub first: u32,
    pub count: u32,
    pub cause: Cause,
    /// Index into `Ctx::nested` of the nested chain this node comes from, or `NONE`.
    pub nested: u32,
}

/// A nested chaining hint an advanced node follows from: its complexity, and its identity (two
/// equal nested chains count once).
#[derive(Clone, Copy, Debug)]
pub(super) struct Nested {
    pub complexity: u32,
    pub key: u64,
}

/// Every potential's implications on a grid that stays as it is (static chains), worked out
/// once: the hundreds of searches of a static producer then read them instead of scanning
/// units. For potential `p`, `entries[ranges[p]..]` holds first what the cell gives (`Cause::Cell`),
/// up to `ranges[p][1]`, then what the units give, up to `ranges[p][2]`.
pub(super) struct StaticLinks {
    ranges: Vec<[u32; 3]>,
    entries: Vec<(u32, Cause)>,
}

impl StaticLinks {
    pub(super) fn new<const W: usize>(ctx: &mut Ctx<W>) -> StaticLinks {
        let pots = ctx.src.geo.cells() * ctx.n * 2;
        let mut links = StaticLinks {
            ranges: vec![[0; 3]; pots],
            entries: Vec::new(),
        };
        let track = ctx.track.take(); // building reads everything; searches record what they use
        let mut out = Vec::new();
        for cell in 0..ctx.src.geo.cells() {
            if ctx.work.value(cell) != 0 {
                continue;
            }
            for digit in ctx.work.candidates(cell).iter() {
                for on in [false, true] {
                    let pot = ctx.pot(cell, digit, on);
                    let start = links.entries.len() as u32;
                    // Everything; the cell's part comes first.
                    out.clear();
                    ctx.implied(pot, true, true, &mut out);
                    let cell_part = out.iter().take_while(|(_, c)| *c == Cause::Cell).count();
                    let mid = start + cell_part as u32;
                    links.entries.extend_from_slice(&out);
                    links.ranges[pot as usize] = [start, mid, links.entries.len() as u32];
                }
            }
        }
        ctx.track = track;
        links
    }

    /// How many implications there are, of every potential.
    pub(super) fn count(&self) -> usize {
        self.entries.len()
    }

    /// What follows from `pot`: with `y` the cell's part, then the units' part (for an off, only
    /// with `x`), as `Ctx::implied` gives them.
    pub(crate) fn implied(&self, pot: u32, y: bool, x: bool) -> &[(u32, Cause)] {
        let [start, mid, end] = self.ranges[pot as usize];
        let from = if y { start } else { mid };
        let to = if x || pot & 1 == 1 { end } else { mid };
        &self.entries[from as usize..to.max(from) as usize]
    }
}

/// The nodes that one propagation found on and off, in the order found.
#[derive(Default)]
pub(super) struct Run {
    pub on: Vec<u32>,
    pub off: Vec<u32>,
}

impl Run {
    /// Room for what a typical propagation finds, so that the thousands of runs of a forcing
    /// chain search do not grow (and copy) their vectors a few times each.
    const ROOM: usize = 64;

    pub(crate) fn with_room() -> Run {
        Run {
            on: Vec::with_capacity(Self::ROOM),
            off: Vec::with_capacity(Self::ROOM),
        }
    }
}

/// Everything one producer call works with.
pub(super) struct Ctx<'a, const W: usize> {
    /// The grid the producer looks at.
    pub src: &'a Board<'a, W>,
    /// For a nested producer: the grid of the chain it is nested in (to find its rule parents).
    pub rule_src: Option<&'a Board<'a, W>>,
    /// A copy of `src` that dynamic propagation reduces and then restores.
    pub work: Board<'a, W>,
    pub n: usize,
    pub mode: Mode,
    /// Each cell's units in Sudoku Explainer's order: box, row, column, diagonals.
    pub cell_units: &'a [Box<[u16]>],
    /// `cell << 8 | digit` of each candidate index `cell * side + digit - 1` (no division).
    decode: &'a [u32],
    pub nodes: Vec<Node>,
    pub parents: Vec<u32>,
    pub nested: Vec<Nested>,
    /// Scratch maps from potential to node (`NONE` when absent), kept all-`NONE` between uses.
    pub map: Vec<u32>,
    pub map2: Vec<u32>,
    visited: Vec<u64>,
    removed: Vec<(u32, u8)>,
    scratch: Vec<u32>,
    out: Vec<(u32, Cause)>,
    /// A run to reuse, so that the hundreds of searches of a producer do not allocate their own.
    pub spare: Run,
    /// The implications of every potential, for a static producer's propagation (`do_chaining`).
    pub links: Option<StaticLinks>,
    /// Runs from "cell holds digit" (at `cell * side + digit - 1`) that a region chain followed
    /// before the cell's own search, kept for it (see `forcing::run_from`).
    #[allow(clippy::type_complexity)]
    pub on_runs: Option<Vec<Option<(Run, Option<(u32, u32)>)>>>,
    /// When set, what the search reads is recorded here.
    pub track: Option<Footprint<W>>,
    /// The static chains on `src`, start by start, for nested producers on reduced grids.
    pub cycle_cache: Option<Box<Cache<W>>>,
    /// The same for static multiple chains.
    pub multiple_cache: Option<Box<Cache<W>>>,
    /// Deadline and cancel flag; no node count (chains count calls, not search nodes).
    budget: Budget<'a>,
    calls: u32,
    pub stopped: bool,
    /// When only the producer's first hint in Sudoku Explainer's order is wanted: the first in
    /// that order found so far; nothing that sorts after it needs to be searched.
    pub best: Best,
    pub first_only: bool,
    /// For static chains on a path: the digits whose X-chains are known to give nothing, and
    /// once searched, whether the X-chains gave nothing on any digit.
    pub x_scope: Option<crate::logic::DigitScope>,
}

/// Where a hint comes in Sudoku Explainer's order (difficulty, complexity, sort key), for
/// pruning a search of which only the first hint counts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Best {
    pub difficulty: f64,
    pub complexity: u32,
    pub sort_key: u8,
}

impl Best {
    /// Nothing found yet: everything comes before it.
    pub(crate) const NONE: Best = Best::below(f64::INFINITY);

    /// Every hint of at most `difficulty` comes before it.
    pub(super) const fn below(difficulty: f64) -> Best {
        Best {
            difficulty,
            complexity: u32::MAX,
            sort_key: u8::MAX,
        }
    }

    /// Whether `self` sorts strictly before `other`.
    pub(super) fn before(&self, other: &Best) -> bool {
        let by_difficulty = self.difficulty.partial_cmp(&other.difficulty);
        by_difficulty
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(self.complexity.cmp(&other.complexity))
            .then(self.sort_key.cmp(&other.sort_key))
            .is_lt()
    }
}

impl<'a, const W: usize> Ctx<'a, W> {
    pub(super) fn new(
        src: &'a Board<'a, W>,
        rule_src: Option<&'a Board<'a, W>>,
        mode: Mode,
        budget: &Budget<'a>,
    ) -> Ctx<'a, W> {
        let n = src.side();
        let cells = src.geo.cells();
        debug_assert_eq!(cell_units(src.geo).len(), cells);
        let cell_units = cell_units(src.geo);
        let decode = decode(src.geo);
        let pots = cells * n * 2;
        let budget = Budget {
            max_nodes: None,
            ..*budget
        };
        let stopped = budget.stop(0).is_some();
        Ctx {
            src,
            rule_src,
            work: src.clone(),
            n,
            mode,
            cell_units,
            decode,
            nodes: Vec::new(),
            parents: Vec::new(),
            nested: Vec::new(),
            map: vec![NONE; pots],
            map2: vec![NONE; pots],
            visited: vec![0; pots.div_ceil(64)],
            removed: Vec::new(),
            scratch: Vec::new(),
            out: Vec::new(),
            spare: Run::default(),
            links: None,
            on_runs: None,
            track: None,
            cycle_cache: None,
            multiple_cache: None,
            budget,
            calls: 0,
            stopped,
            best: Best::NONE,
            first_only: false,
            x_scope: None,
        }
    }

    /// Notes the hints found, when only the first one counts.
    pub(super) fn found(&mut self, hints: &[Hint]) {
        if self.first_only {
            for h in hints {
                let found = Best {
                    difficulty: h.difficulty,
                    complexity: h.complexity,
                    sort_key: h.sort_key,
                };
                if found.before(&self.best) {
                    self.best = found;
                }
            }
        }
    }

    /// Whether every hint of sort key `sort_key` whose chain is at least `length` nodes long, on
    /// a base difficulty of at least `base`, sorts after one already found, or with it (found
    /// later, it comes after), so cannot be the first. Difficulty grows with both, and so does its
    /// floating-point sum, and complexity is the chain's length, so the bound is exact.
    pub(super) fn beyond(&self, base: f64, length: u32, sort_key: u8) -> bool {
        let least = Best {
            difficulty: base + length_difficulty(length),
            complexity: length,
            sort_key,
        };
        !least.before(&self.best)
    }

    /// The budget this context checks.
    pub(super) fn budget(&self) -> Budget<'a> {
        self.budget
    }

    /// A child context for a nested producer looking at `grid` (the reduced grid of a chain).
    pub(super) fn child<'b>(&'b self, grid: &'b Board<'b, W>, mode: Mode) -> Ctx<'b, W>
    where
        'a: 'b,
    {
        let mut ctx = Ctx::new(grid, Some(self.src), mode, &self.budget);
        ctx.calls = self.calls;
        ctx
    }

    /// Records reading `cell`'s candidates (with `cells`) and `digit`'s places in its units.
    pub(super) fn read(&mut self, cell: usize, digit: u8, cells: bool) {
        let units = self.units_of(cell);
        if let Some(t) = &mut self.track {
            if cells {
                t.cells.insert(cell);
            }
            for &u in units {
                t.units[digit as usize - 1] |= 1u128 << u;
            }
        }
    }

    /// The units of `cell`, box first.
    pub(super) fn units_of(&self, cell: usize) -> &'a [u16] {
        &self.cell_units[cell]
    }

    // Potential indices.
    pub(crate) fn pot(&self, cell: usize, digit: u8, on: bool) -> u32 {
        ((cell * self.n + digit as usize - 1) * 2 + on as usize) as u32
    }
    pub(super) fn cell(&self, pot: u32) -> usize {
        (self.decode[pot as usize >> 1] >> 8) as usize
    }
    pub(super) fn digit(&self, pot: u32) -> u8 {
        self.decode[pot as usize >> 1] as u8
    }
    pub(super) fn is_on(pot: u32) -> bool {
        pot & 1 == 1
    }
    pub(crate) fn pot_of(&self, node: u32) -> u32 {
        self.nodes[node as usize].pot
    }
    pub(crate) fn parents_of(&self, node: u32) -> &[u32] {
        let n = &self.nodes[node as usize];
        &self.parents[n.first as usize..(n.first + n.count) as usize]
    }
    pub(crate) fn first_parent(&self, node: u32) -> Option<u32> {
        self.parents_of(node).first().copied()
    }

    pub(crate) fn add_node(&mut self, pot: u32, cause: Cause, parents: &[u32], nested: u32) -> u32 {
        let first = self.parents.len() as u32;
        self.parents.extend_from_slice(parents);
        self.nodes.push(Node {
            pot,
            first,
            count: parents.len() as u32,
            cause,
            nested,
        });
        (self.nodes.len() - 1) as u32
    }

    /// Drops every node from `mark` on (nodes of a finished cell's searches).
    pub(super) fn truncate(&mut self, mark: (usize, usize)) {
        self.nodes.truncate(mark.0);
        self.parents.truncate(mark.1);
    }
    pub(super) fn mark(&self) -> (usize, usize) {
        (self.nodes.len(), self.parents.len())
    }

    /// Checks the budget now and then; true when the search must stop.
    pub(super) fn tick(&mut self) -> bool {
        self.calls = self.calls.wrapping_add(1);
        if !self.stopped && self.calls % 16 == 0 {
            self.stopped = self.budget.stop(0).is_some();
        }
        self.stopped
    }

    /// Records that the search looks at node `p`'s cell (with `y`) and units; its potential.
    pub(crate) fn note_read(&mut self, p: u32, y: bool) -> u32 {
        let pot = self.pot_of(p);
        if self.track.is_some() {
            self.read(self.cell(pot), self.digit(pot), y);
        }
        pot
    }

    /// What follows from `pot` on `work` (`on_implies`, `off_implies`).
    fn implied(&self, pot: u32, y: bool, x: bool, out: &mut Vec<(u32, Cause)>) {
        if Self::is_on(pot) {
            self.on_implies(pot, y, out);
        } else {
            self.off_implies(pot, y, x, out);
        }
    }

    /// What follows from `pot` being on: the cell's other digits (with `y`), and the digit's other
    /// places in the cell's units (box, row, column, diagonals, each cell once).
    fn on_implies(&self, pot: u32, y: bool, out: &mut Vec<(u32, Cause)>) {
        let (cell, digit) = (self.cell(pot), self.digit(pot));
        if y {
            for v in self.work.candidates(cell).iter() {
                if v != digit {
                    out.push((self.pot(cell, v, false), Cause::Cell));
                }
            }
        }
        let mut seen = CellSet::<W>::single(cell);
        let units = self.units_of(cell);
        let all = self.work.places(digit);
        for &u in units {
            let places = (all & self.work.unit(u as usize)) - seen;
            seen |= self.work.unit(u as usize);
            for c in places.iter() {
                out.push((self.pot(c, digit, false), Cause::House(u)));
            }
        }
    }

    /// What follows from `pot` being off: the cell's other digit if it is bivalue (with `y`), and the
    /// digit's only other place in each unit of the cell (with `x`). In a reduced grid, the
    /// eliminations that made it so are parents too ("hidden parents").
    fn off_implies(&self, pot: u32, y: bool, x: bool, out: &mut Vec<(u32, Cause)>) {
        let (cell, digit) = (self.cell(pot), self.digit(pot));
        let start = out.len();
        if y {
            let cands = self.work.candidates(cell);
            let rest = cands.0 & cands.0.wrapping_sub(1);
            if rest != 0 && rest & (rest - 1) == 0 {
                let other = cands.iter().find(|&v| v != digit).unwrap_or(digit);
                out.push((self.pot(cell, other, true), Cause::Cell));
            }
        }
        if x {
            let units = self.units_of(cell);
            let places = self.work.places(digit);
            for &u in units {
                let mut others = places & self.work.unit(u as usize);
                others.remove(cell);
                let Some(other) = only(&others) else {
                    continue;
                };
                let q = self.pot(other, digit, true);
                if out[start..].iter().any(|&(o, _)| o == q) {
                    continue; // the first rule that gives it wins
                }
                out.push((q, Cause::House(u)));
            }
        }
    }

    /// The node of an implication of `p`. In a reduced grid, an "on" also follows from the
    /// eliminations that made it so ("hidden parents"); call before `p` leaves the grid.
    #[inline]
    pub(crate) fn node_for(&mut self, p: u32, pot: u32, cause: Cause) -> u32 {
        if !(self.mode.dynamic && Ctx::<W>::is_on(pot)) {
            // Static chains (most calls): inlined, without the hidden parents' setting up.
            return self.add_node(pot, cause, &[p], NONE);
        }
        self.node_with_hidden_parents(p, pot, cause)
    }

    /// `node_for` of an "on" in a dynamic search.
    #[inline(never)]
    fn node_with_hidden_parents(&mut self, p: u32, pot: u32, cause: Cause) -> u32 {
        let (cell, digit) = (self.cell(pot), self.digit(pot));
        let mut parents = std::mem::take(&mut self.scratch);
        parents.clear();
        parents.push(p);
        match cause {
            Cause::Cell => {
                let gone = self.src.candidates(cell) & !self.work.candidates(cell);
                for v in gone.iter() {
                    let h = self.map[self.pot(cell, v, false) as usize];
                    if h != NONE {
                        parents.push(h);
                    }
                }
            }
            Cause::House(u) => {
                let gone =
                    self.src.places_in(digit, u as usize) - self.work.places_in(digit, u as usize);
                for c in gone.iter() {
                    let h = self.map[self.pot(c, digit, false) as usize];
                    if h != NONE {
                        parents.push(h);
                    }
                }
            }
            _ => {}
        }
        let node = self.add_node(pot, cause, &parents, NONE);
        self.scratch = parents;
        node
    }

    /// Completes `run` with everything its potentials imply, ons first; in dynamic mode each off
    /// is taken out of the working grid as it is processed. Returns the first contradiction (the
    /// on node and the off node of one candidate), if any. The working grid is restored.
    // Over 80 lines: the propagation loop of every producer, its hottest code; the on and off
    // halves are alike but differ in which end of a contradiction they are and in the dynamic
    // removal, and both share the queue positions and the links taken out of `self`.
    pub(crate) fn do_chaining(&mut self, run: &mut Run) -> Option<(u32, u32)> {
        if self.tick() {
            return None;
        }
        for &x in run.on.iter().chain(&run.off) {
            let pot = self.pot_of(x);
            self.map[pot as usize] = x;
        }
        let y = !self.mode.nishio;
        let mut out = std::mem::take(&mut self.out);
        let links = self.links.take();
        let (mut ion, mut ioff) = (0, 0);
        let result = 'outer: loop {
            if ion < run.on.len() {
                let p = run.on[ion];
                ion += 1;
                let pot = self.note_read(p, y);
                let implied = match &links {
                    Some(links) => links.implied(pot, y, true),
                    None => {
                        out.clear();
                        self.implied(pot, y, true, &mut out);
                        &out
                    }
                };
                for &(qp, cause) in implied {
                    let conj = self.map[(qp ^ 1) as usize];
                    if conj != NONE {
                        let q = self.node_for(p, qp, cause);
                        break 'outer Some((conj, q));
                    }
                    if self.map[qp as usize] == NONE {
                        let q = self.node_for(p, qp, cause);
                        self.map[qp as usize] = q;
                        run.off.push(q);
                    }
                }
                continue;
            }
            if ioff < run.off.len() {
                let p = run.off[ioff];
                ioff += 1;
                let pot = self.note_read(p, y);
                let implied = match &links {
                    Some(links) => links.implied(pot, y, true),
                    None => {
                        out.clear();
                        self.implied(pot, y, true, &mut out);
                        &out
                    }
                };
                for &(qp, cause) in implied {
                    let conj = self.map[(qp ^ 1) as usize];
                    if conj != NONE {
                        let q = self.node_for(p, qp, cause);
                        break 'outer Some((q, conj));
                    }
                    if self.map[qp as usize] == NONE {
                        let q = self.node_for(p, qp, cause);
                        self.map[qp as usize] = q;
                        run.on.push(q);
                    }
                }
                // Only now does the off leave the grid (its implications saw it there).
                if self.mode.dynamic {
                    let pot = self.pot_of(p);
                    let (cell, digit) = (self.cell(pot), self.digit(pot));
                    if self.work.value(cell) == 0 && self.work.eliminate(cell, digit) {
                        self.removed.push((cell as u32, digit));
                    }
                }
                continue;
            }
            if self.mode.level > 0 && !self.stopped && self.advanced(run) {
                continue;
            }
            break None;
        };
        for &x in run.on.iter().chain(&run.off) {
            let pot = self.pot_of(x);
            self.map[pot as usize] = NONE;
        }
        while let Some((cell, digit)) = self.removed.pop() {
            self.work.restore(cell as usize, digit);
        }
        self.out = out;
        self.links = links;
        result
    }

    /// Fills `map2` with a run's nodes (call `unload` after).
    pub(super) fn load(&mut self, run: &Run) {
        for &x in run.on.iter().chain(&run.off) {
            let pot = self.nodes[x as usize].pot;
            self.map2[pot as usize] = x;
        }
    }
    pub(crate) fn unload(&mut self, run: &Run) {
        for &x in run.on.iter().chain(&run.off) {
            let pot = self.nodes[x as usize].pot;
            self.map2[pot as usize] = NONE;
        }
    }

    /// The number of distinct potentials `node` follows from, itself included, and the nested
    /// chains met on the way (appended to `nested` when new).
    pub(crate) fn ancestors(&mut self, node: u32, nested: &mut Vec<u32>) -> u32 {
        // Room for a typical chain's nodes: this runs for every hint found.
        let mut stack = Vec::with_capacity(CHAIN_ROOM);
        stack.push(node);
        let mut touched = Vec::with_capacity(CHAIN_ROOM);
        let mut count = 0;
        while let Some(x) = stack.pop() {
            let pot = self.nodes[x as usize].pot as usize;
            if self.visited[pot / 64] >> (pot % 64) & 1 != 0 {
                continue;
            }
            self.visited[pot / 64] |= 1 << (pot % 64);
            touched.push(pot);
            count += 1;
            let nest = self.nodes[x as usize].nested;
            if nest != NONE {
                let key = self.nested[nest as usize].key;
                if !nested.iter().any(|&k| self.nested[k as usize].key == key) {
                    nested.push(nest);
                }
            }
            stack.extend_from_slice(self.parents_of(x));
        }
        for pot in touched {
            self.visited[pot / 64] = 0;
        }
        count
    }

    /// Every node `target` follows from, breadth first, each potential once (Sudoku Explainer's
    /// `getChain` order).
    pub(super) fn chain(&mut self, target: u32) -> Vec<u32> {
        let mut result = Vec::new();
        let mut todo = vec![target];
        while !todo.is_empty() {
            let mut next = Vec::new();
            for &x in &todo {
                let pot = self.nodes[x as usize].pot as usize;
                if self.visited[pot / 64] >> (pot % 64) & 1 != 0 {
                    continue;
                }
                self.visited[pot / 64] |= 1 << (pot % 64);
                result.push(x);
                next.extend_from_slice(self.parents_of(x));
            }
            todo = next;
        }
        for &x in &result {
            let pot = self.nodes[x as usize].pot as usize;
            self.visited[pot / 64] = 0;
        }
        result
    }

    /// The potentials from the start of the chain to `node`, through first parents.
    pub(super) fn path(&self, node: u32) -> Vec<u32> {
        let mut path = Vec::with_capacity(CHAIN_ROOM);
        path.push(self.pot_of(node));
        let mut x = node;
        let mut guard = 0;
        while let Some(p) = self.first_parent(x) {
            path.push(self.pot_of(p));
            x = p;
            guard += 1;
            if guard > self.map.len() {
                break;
            }
        }
        path.reverse();
        path
    }

    /// Whether `pot` is on the first-parent chain above `node`.
    pub(crate) fn is_parent(&self, node: u32, pot: u32) -> bool {
        let mut x = node;
        while let Some(p) = self.first_parent(x) {
            if self.pot_of(p) == pot {
                return true;
            }
            x = p;
        }
        false
    }
}

impl<const W: usize> Ctx<'_, W> {
    pub(super) fn calls(&self) -> u32 {
        self.calls
    }
    pub(crate) fn set_calls(&mut self, calls: u32) {
        self.calls = calls;
    }
}
