//! Uniqueness: patterns that would allow two solutions if they were left as they are — unique
//! rectangles and loops, and the bivalue universal grave (BUG) — so a puzzle with one solution
//! must break them. Found and rated as Sukaku Explainer does (its lkSudoku variants, on by
//! default): region types in the order box, row, column (then the diagonals).

// Over 800 lines: the family as HoDoKu's UniquenessSolver holds it, unique loops (types 1–4)
// and the bivalue universal grave (BUG+1 to BUG+4), about 500 and 300 lines: two files would
// split one family of Sukaku Explainer's ladder.

use std::ops::ControlFlow;

use super::board::Board;
use super::step::{say, Candidate, Difficulty, Step, Technique};
use super::{combinations, Sink};
use crate::cells::CellSet;
use crate::engine::Digits;

/// A search for loops gives up past this many cells visited: far beyond any 9×9 (whose whole
/// search visits a few thousand), a bound for the large grids where paths multiply.
const MAX_LOOP_NODES: usize = 200_000;

/// A unique loop step found, before sorting.
struct LoopHint {
    kind: u8,
    difficulty: Difficulty,
    /// The loop's cells in loop order.
    cells: Vec<usize>,
    digits: Digits,
    eliminations: Vec<Candidate>,
    /// The cells with extra candidates, and for type 3 the set and its unit.
    extra: Vec<usize>,
    set: Option<(usize, Vec<usize>, Digits, bool)>,
}

impl LoopHint {
    /// Sudoku Explainer's equality: same type, same loop cells (type 3: also same unit, same set).
    fn same_as(&self, other: &LoopHint) -> bool {
        let cells = |h: &LoopHint| {
            let mut c = h.cells.clone();
            c.sort_unstable();
            c
        };
        self.kind == other.kind
            && self.cells.len() == other.cells.len()
            && cells(self) == cells(other)
            && match (&self.set, &other.set) {
                (Some((u, _, d, h)), Some((v, _, e, i))) => u == v && d == e && h == i,
                _ => true,
            }
    }
}

/// Unique rectangles and loops, types 1 to 4 (4.5 and up): every one found, sorted by
/// difficulty then type, as Sukaku Explainer hands them on.
pub(crate) fn unique_loops<const W: usize>(b: &Board<'_, W>, sink: &mut Sink) -> ControlFlow<()> {
    let mut hints: Vec<LoopHint> = Vec::new();
    let mut budget = MAX_LOOP_NODES;
    let unit_masks = unit_masks(b);
    let mut seen: Vec<CellSet<W>> = Vec::new();
    for cell in b.empty_cells().iter() {
        let cands = b.candidates(cell);
        if cands.len() != 2 {
            continue;
        }
        let mut digits = cands.iter();
        let (v1, v2) = (digits.next().unwrap_or(1), digits.next().unwrap_or(1));
        let mut loops = Vec::new();
        let mut search = LoopSearch {
            b,
            v1,
            v2,
            path: Vec::new(),
            on_path: CellSet::EMPTY,
            pair_cells: b.places(v1) & b.places(v2),
            unit_masks: &unit_masks,
            sides: [0; 2],
            found: &mut loops,
            budget: &mut budget,
        };
        search.extend(cell, 2, Digits::EMPTY, None);
        for found in loops {
            if is_valid_loop(b, &found) && first_time(&mut seen, &found) {
                for hint in loop_hints(b, found, v1, v2) {
                    if !hint.eliminations.is_empty() && !hints.iter().any(|h| h.same_as(&hint)) {
                        hints.push(hint);
                    }
                }
            }
        }
    }
    hints.sort_by_key(|h| (h.difficulty, h.kind)); // stable, as Java's sort
    for hint in hints {
        sink.push(loop_step(b, hint))?;
    }
    ControlFlow::Continue(())
}

/// Whether no valid loop on these cells has been found before. The search finds each loop again
/// from each of its bivalue cells, both ways round, and the same cells may close in another order
/// too; what `loop_hints` gives depends on the cells only (its pair is that of any bivalue cell
/// among them, the cells with extra digits count alike in either order), up to `same_as`, so the
/// hints of a loop found again would all be dropped as the same as those already found.
fn first_time<const W: usize>(seen: &mut Vec<CellSet<W>>, cells: &[usize]) -> bool {
    let set: CellSet<W> = cells.iter().copied().collect();
    if seen.contains(&set) {
        return false;
    }
    seen.push(set);
    true
}

/// Each cell's units as bits, for grids of at most 128 units (none for larger ones: their loop
/// searches go without the pruning these allow).
fn unit_masks<const W: usize>(b: &Board<'_, W>) -> Vec<u128> {
    if b.unit_count() > 128 {
        return vec![0; b.geo.cells()];
    }
    (0..b.geo.cells())
        .map(|cell| {
            (0..b.region_types())
                .filter_map(|t| b.region_of(cell, t))
                .fold(0, |mask, u| mask | 1u128 << u)
        })
        .collect()
}

struct LoopSearch<'a, const W: usize> {
    b: &'a Board<'a, W>,
    v1: u8,
    v2: u8,
    path: Vec<usize>,
    on_path: CellSet<W>,
    /// The cells holding both digits: the only ones a loop goes through.
    pair_cells: CellSet<W>,
    unit_masks: &'a [u128],
    /// The units of the path's cells at even places, and at odd places.
    sides: [u128; 2],
    found: &'a mut Vec<Vec<usize>>,
    budget: &'a mut usize,
}

impl<const W: usize> LoopSearch<'_, W> {
    /// Adds `cell` to the path and goes on through every unit of another type than the last
    /// step's, to cells holding both digits; at most two cells with other digits (more only
    /// when they all add the same one digit, for type 2).
    fn extend(&mut self, cell: usize, allowed: i32, extra: Digits, last_type: Option<usize>) {
        if *self.budget == 0 {
            return;
        }
        *self.budget -= 1;
        let side = self.path.len() % 2;
        self.sides[side] |= self.unit_masks[cell];
        self.path.push(cell);
        self.on_path.insert(cell);
        if self.can_close() {
            self.extend_from(cell, allowed, extra, last_type);
        }
        self.on_path.remove(cell);
        self.path.pop();
        self.sides[side] &= !self.unit_masks[cell];
    }

    /// Whether every unit the path visits on one side only has a cell left to visit it on the
    /// other side: one off the path, holding both digits, whose units hold no cell of that side
    /// yet. A valid loop (`is_valid_loop`) visits each of its units from both sides, so where a
    /// unit has no such cell, no path from here makes one.
    fn can_close(&self) -> bool {
        let mut open = self.sides[0] ^ self.sides[1];
        while open != 0 {
            let unit = open.trailing_zeros() as usize;
            open &= open - 1;
            let other = usize::from(self.sides[0] >> unit & 1 == 1);
            let free = (self.b.unit(unit) & self.pair_cells) - self.on_path;
            if !free
                .iter()
                .any(|x| self.unit_masks[x] & self.sides[other] == 0)
            {
                return false;
            }
        }
        true
    }

    /// Whether the closed path can be a valid loop (`is_valid_loop`): with unit masks, the
    /// search never puts two cells of a unit on one side, so the loop is valid exactly when both
    /// sides visit the same units; most closed paths fail this, and are not copied for nothing.
    fn may_be_valid(&self) -> bool {
        let masked = self.unit_masks[self.path[0]] != 0; // every cell has units, when masked
        !masked || self.sides[0] == self.sides[1]
    }

    /// `extend`'s search on from `cell`, the path's last.
    fn extend_from(&mut self, cell: usize, allowed: i32, extra: Digits, last_type: Option<usize>) {
        let pair = Digits::single(self.v1) | Digits::single(self.v2);
        for t in 0..self.b.region_types() {
            if Some(t) == last_type {
                continue;
            }
            let Some(unit) = self.b.region_of(cell, t) else {
                continue;
            };
            // Only cells holding both digits can be on a loop (the start among them); the set
            // runs in the unit's order.
            for next in (self.b.unit(unit) & self.pair_cells).iter() {
                if next == self.path[0] && self.path.len() >= 4 {
                    if self.may_be_valid() {
                        self.found.push(self.path.clone());
                    }
                } else if !self.on_path.contains(next) {
                    let cands = self.b.candidates(next);
                    // A unit that two cells on the same side of the loop share stays shared
                    // however the path goes on: no valid loop (`is_valid_loop`) comes of it.
                    let side = self.path.len() % 2;
                    if self.sides[side] & self.unit_masks[next] != 0 {
                        continue;
                    }
                    let more = (extra | cands) & !pair;
                    if cands.len() == 2 || more.len() == 1 || allowed > 0 {
                        let allowed = allowed - i32::from(cands.len() > 2);
                        self.extend(next, allowed, more, Some(t));
                    }
                }
            }
        }
    }
}

/// Every unit the loop visits is visited by exactly two of its cells, one at an odd and one at
/// an even place: then the two digits could swap around it.
fn is_valid_loop<const W: usize>(b: &Board<'_, W>, cells: &[usize]) -> bool {
    let (mut odd, mut even): (Vec<usize>, Vec<usize>) = (Vec::new(), Vec::new());
    for (i, &cell) in cells.iter().enumerate() {
        let side = if i % 2 == 1 { &mut odd } else { &mut even };
        for t in 0..b.region_types() {
            if let Some(unit) = b.region_of(cell, t) {
                if side.contains(&unit) {
                    return false;
                }
                side.push(unit);
            }
        }
    }
    odd.sort_unstable();
    even.sort_unstable();
    odd == even
}

fn loop_difficulty(len: usize) -> u16 {
    let mut d = 45;
    if len >= 10 {
        d += 3;
    }
    if len >= 8 {
        d += 2;
    } else if len >= 6 {
        d += 1;
    }
    d
}

/// The hints a valid loop on `v1`, `v2` gives, by how many of its cells hold other digits.
fn loop_hints<const W: usize>(
    b: &Board<'_, W>,
    cells: Vec<usize>,
    v1: u8,
    v2: u8,
) -> Vec<LoopHint> {
    let pair = Digits::single(v1) | Digits::single(v2);
    let extra: Vec<usize> = cells
        .iter()
        .copied()
        .filter(|&c| b.candidates(c).len() > 2)
        .collect();
    let base = loop_difficulty(cells.len());
    let hint = |kind: u8, difficulty: u16, eliminations: Vec<Candidate>| LoopHint {
        kind,
        difficulty: Difficulty(difficulty),
        cells: cells.clone(),
        digits: pair,
        eliminations,
        extra: extra.clone(),
        set: None,
    };
    let mut out = Vec::new();
    match extra.len() {
        0 => {}
        1 => {
            // Type 1: the one cell with more digits cannot be either of the pair.
            let c = extra[0];
            let elims = pair.iter().map(|d| Candidate::new(c, d)).collect();
            out.push(hint(1, base, elims));
        }
        2 => {
            let (c1, c2) = (extra[0], extra[1]);
            let others = (b.candidates(c1) | b.candidates(c2)) & !pair;
            if others.len() == 1 {
                out.push(hint(2, base, type2_eliminations(b, &extra, pair)));
            } else if others.len() >= 2 {
                for (unit, set, digits, hidden, elims, size) in type3(b, c1, c2, v1, v2, others) {
                    let mut h = hint(3, base + size as u16 - 1, elims);
                    h.set = Some((unit, set, digits, hidden));
                    out.push(h);
                }
            }
            if let Some(elims) = type4(b, c1, c2, v1, v2) {
                out.push(hint(4, base, elims));
            }
        }
        _ => out.push(hint(2, base, type2_eliminations(b, &extra, pair))),
    }
    out
}

/// Type 2: the cells with more digits all add the same one; one of them holds it, so it leaves
/// every cell that sees them all.
fn type2_eliminations<const W: usize>(
    b: &Board<'_, W>,
    extra: &[usize],
    pair: Digits,
) -> Vec<Candidate> {
    let Some(digit) = (b.candidates(extra[0]) & !pair).first() else {
        return Vec::new();
    };
    let cells: CellSet<W> = extra.iter().copied().collect();
    let seen = b.common_peers(cells) & b.places(digit);
    seen.iter().map(|c| Candidate::new(c, digit)).collect()
}

/// Type 3 sets: the two cells with more digits act as one cell holding those digits, which
/// with other cells of a unit they share forms a naked set (or, with the pair's digits, a hidden
/// one). Each: the unit, the set's other cells, its digits, hidden, eliminations, its size
/// (how much it adds to the difficulty, plus one).
// Over 80 lines: the naked and the hidden sets are one search over the unit's subsets, as
// Sukaku Explainer has it, whose order decides which step comes first.
#[allow(clippy::type_complexity)]
fn type3<const W: usize>(
    b: &Board<'_, W>,
    c1: usize,
    c2: usize,
    v1: u8,
    v2: u8,
    others: Digits,
) -> Vec<(usize, Vec<usize>, Digits, bool, Vec<Candidate>, usize)> {
    let mut out = Vec::new();
    let n = b.side();
    let pair = Digits::single(v1) | Digits::single(v2);
    for degree in 2..=7usize.min(n - 2) {
        for t in 0..b.region_types() {
            let (Some(unit), Some(unit2)) = (b.region_of(c1, t), b.region_of(c2, t)) else {
                continue;
            };
            if unit != unit2 {
                continue;
            }
            let cells = b.unit_cells(unit);
            let empty = (b.unit(unit) & b.empty_cells()).len() as usize;
            let index1 = cells.iter().position(|&c| c as usize == c1).unwrap_or(0);
            let index2 = cells.iter().position(|&c| c as usize == c2).unwrap_or(0);
            if degree * 2 <= empty && degree >= others.len() as usize {
                let positions: Vec<usize> = (0..n).filter(|&i| i != index2).collect();
                let _ = combinations(&positions, degree, |chosen| {
                    if !chosen.contains(&index1) {
                        return ControlFlow::Continue(());
                    }
                    let set_cells: Vec<usize> = chosen
                        .iter()
                        .filter(|&&i| i != index1)
                        .map(|&i| cells[i] as usize)
                        .collect();
                    let mut naked = others & b.candidates(c1) & b.candidates(c2);
                    let mut union = others;
                    for &c in &set_cells {
                        if b.candidates(c).len() <= 1 {
                            return ControlFlow::Continue(());
                        }
                        naked = naked | b.candidates(c);
                        union = union | b.candidates(c);
                    }
                    if naked.len() as usize != degree || union.len() as usize != degree {
                        return ControlFlow::Continue(());
                    }
                    let mut elims = Vec::new();
                    for &c in cells {
                        let c = c as usize;
                        if c == c1 || c == c2 || set_cells.contains(&c) {
                            continue;
                        }
                        for d in (b.candidates(c) & union).iter() {
                            elims.push(Candidate::new(c, d));
                        }
                    }
                    if !elims.is_empty() {
                        out.push((unit, set_cells, union, false, elims, degree));
                    }
                    ControlFlow::Continue(())
                });
            }
            if degree * 2 < empty {
                let rest: Vec<u8> = (1..=n as u8)
                    .filter(|&d| !pair.contains(d) && !others.contains(d))
                    .collect();
                let _ = combinations_or_empty(&rest, degree - 2, |chosen| {
                    let digits = chosen.iter().fold(pair, |ds, &d| ds | Digits::single(d));
                    let mut union = CellSet::<W>::EMPTY;
                    for d in digits.iter() {
                        let places = b.places_in(d, unit) - CellSet::single(c2);
                        if places.is_empty() {
                            return ControlFlow::Continue(());
                        }
                        union |= places;
                    }
                    if union.len() as usize != degree {
                        return ControlFlow::Continue(());
                    }
                    let set_cells: Vec<usize> = union.iter().filter(|&c| c != c1).collect();
                    let mut elims = Vec::new();
                    for &c in &set_cells {
                        for d in (b.candidates(c) & !digits).iter() {
                            elims.push(Candidate::new(c, d));
                        }
                    }
                    if !elims.is_empty() {
                        let size = set_cells.len();
                        out.push((unit, set_cells, digits, true, elims, size));
                    }
                    ControlFlow::Continue(())
                });
            }
        }
    }
    out
}

/// `combinations`, where choosing none visits the empty choice once.
fn combinations_or_empty<T: Copy>(
    items: &[T],
    k: usize,
    mut visit: impl FnMut(&[T]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if k == 0 {
        visit(&[])
    } else {
        combinations(items, k, visit)
    }
}

/// Type 4: in a unit the two cells share, one of the pair has no other place, so both cells hold
/// it between them and the other digit of the pair leaves them.
fn type4<const W: usize>(
    b: &Board<'_, W>,
    c1: usize,
    c2: usize,
    v1: u8,
    v2: u8,
) -> Option<Vec<Candidate>> {
    let (mut lock1, mut lock2) = (false, false);
    for t in 0..b.region_types() {
        let (Some(unit), Some(unit2)) = (b.region_of(c1, t), b.region_of(c2, t)) else {
            continue;
        };
        if unit != unit2 {
            continue;
        }
        let rest = b.unit(unit) - CellSet::from_cells([c1, c2]);
        lock1 |= !b.places(v1).intersects(&rest);
        lock2 |= !b.places(v2).intersects(&rest);
    }
    let removed = if lock1 {
        v2
    } else if lock2 {
        v1
    } else {
        return None;
    };
    Some(
        [c1, c2]
            .iter()
            .filter(|&&c| b.has(c, removed))
            .map(|&c| Candidate::new(c, removed))
            .collect(),
    )
}

fn loop_step<const W: usize>(b: &Board<'_, W>, hint: LoopHint) -> Step {
    let rectangle = hint.cells.len() == 4;
    let technique = if rectangle {
        Technique::UniqueRectangle
    } else {
        Technique::UniqueLoop
    };
    let mut sorted = hint.cells.clone();
    sorted.sort_unstable();
    let why = match (hint.kind, &hint.set) {
        (1, _) => format!(
            "{} must break it",
            say::cells(b.geo, hint.extra.iter().copied())
        ),
        (2, _) => format!(
            "one of {} holds its other digit",
            say::cells(b.geo, hint.extra.iter().copied())
        ),
        (3, Some((unit, set, digits, hidden))) => format!(
            "{} act as one cell that forms a {} set {} with {} in {}",
            say::cells(b.geo, hint.extra.iter().copied()),
            if *hidden { "hidden" } else { "naked" },
            digits,
            say::cells(b.geo, set.iter().copied()),
            b.geo.unit_name(*unit)
        ),
        _ => format!(
            "one of the pair must go in {}",
            say::cells(b.geo, hint.extra.iter().copied())
        ),
    };
    let text = format!(
        "{technique} type {} on {} ({}): the pattern alone would have two solutions, so {why}: {}",
        hint.kind,
        hint.digits,
        say::cells(b.geo, sorted.iter().copied()),
        say::eliminations(b.geo, &hint.eliminations)
    );
    Step {
        technique,
        difficulty: hint.difficulty,
        placements: Vec::new(),
        eliminations: hint.eliminations,
        cells: sorted.iter().map(|&c| c as u16).collect(),
        units: Vec::new(),
        digits: hint.digits,
        text,
    }
}

/// What a BUG search finds: the cells that break the grave and the digits that do it.
struct Grave<const W: usize> {
    cells: Vec<usize>,
    /// For each of `cells`, its digits beyond the grave.
    extra: Vec<Digits>,
    all_extra: Digits,
    /// Cells that see every cell of `cells`.
    common: Option<CellSet<W>>,
}

impl<const W: usize> Grave<W> {
    fn add(&mut self, cell: usize, digit: u8, b: &Board<'_, W>) {
        match self.cells.iter().position(|&c| c == cell) {
            Some(i) => self.extra[i].insert(digit),
            None => {
                self.cells.push(cell);
                self.extra.push(Digits::single(digit));
            }
        }
        self.all_extra.insert(digit);
        let seen = self.common.map_or(b.peers(cell), |c| c & b.peers(cell));
        let mut seen = seen;
        for &c in &self.cells {
            seen.remove(c);
        }
        self.common = Some(seen);
    }
    /// More than one cell and more than one digit with no cell seeing them all: no BUG.
    fn hopeless(&self) -> bool {
        self.cells.len() > 1
            && self.all_extra.len() > 1
            && self.common.is_some_and(|c| c.is_empty())
    }
}

/// BUG types 1 to 4 (5.6 and up): without the extra digits of a few cells, every empty cell
/// would hold two candidates and every digit two places in each unit — a pattern with two
/// solutions — so those extra digits cannot all be false.
pub(super) fn bug<const W: usize>(b: &Board<'_, W>, sink: &mut Sink) -> ControlFlow<()> {
    let Some(grave) = find_grave(b) else {
        return ControlFlow::Continue(());
    };
    if grave.cells.len() == 1 {
        return sink.push(bug1(b, &grave));
    }
    let common = grave.common.unwrap_or_default();
    if grave.all_extra.len() == 1 {
        if let Some(step) = bug2(b, &grave, common) {
            sink.push(step)?;
        }
        if grave.cells.len() == 2 {
            bug4(b, &grave, sink)?;
        }
    } else if !common.is_empty() {
        if grave.cells.len() == 2 {
            bug4(b, &grave, sink)?;
        }
        bug3(b, &grave, common, sink)?;
    }
    ControlFlow::Continue(())
}

/// The bivalue universal grave of the board, if there is one: every unsolved cell bivalue but
/// the few with extra digits, each digit twice in each unit once the extras are taken out.
// Over 80 lines: one pass over the units and cells that builds the grave and gives up at the
// first thing that rules it out, in Sukaku Explainer's order.
fn find_grave<const W: usize>(b: &Board<'_, W>) -> Option<Grave<W>> {
    let mut grave = Grave {
        cells: Vec::new(),
        extra: Vec::new(),
        all_extra: Digits::EMPTY,
        common: None,
    };
    let mut temp = b.clone();
    // lkSudoku's extension: when every irregular place concerns one digit, all its cells with
    // three or more candidates are BUG cells.
    let mut one_digit: Option<(u8, Vec<usize>)> = None;
    let mut several_digits = false;
    for t in 0..b.region_types() {
        for &unit in &b.layout().types[t] {
            for digit in 1..=b.side() as u8 {
                let places = b.places_in(digit, unit);
                if places.is_empty() || places.len() == 2 {
                    continue;
                }
                let wide: Vec<usize> = places
                    .iter()
                    .filter(|&c| b.candidates(c).len() >= 3)
                    .collect();
                match &mut one_digit {
                    None if !several_digits => one_digit = Some((digit, wide.clone())),
                    Some((d, cells)) if *d == digit => {
                        for &c in &wide {
                            if !cells.contains(&c) {
                                cells.push(c);
                            }
                        }
                    }
                    Some(_) => {
                        several_digits = true;
                        one_digit = None;
                    }
                    None => {}
                }
                if wide.len() == 1 {
                    grave.add(wide[0], digit, b);
                    temp.eliminate(wide[0], digit);
                    if grave.hopeless() {
                        return None;
                    }
                }
                if wide.is_empty() {
                    return None;
                }
            }
        }
    }
    if let Some((digit, cells)) = one_digit {
        if cells.len() > grave.cells.len() {
            for c in cells {
                if grave.cells.contains(&c) {
                    continue;
                }
                grave.add(c, digit, b);
                temp.eliminate(c, digit);
                if grave.hopeless() {
                    return None;
                }
            }
        }
    }
    if temp
        .empty_cells()
        .iter()
        .any(|c| temp.candidates(c).len() != 2)
    {
        return None;
    }
    for unit in 0..temp.unit_count() {
        for digit in 1..=temp.side() as u8 {
            let n = temp.places_in(digit, unit).len();
            if n != 0 && n != 2 {
                return None;
            }
        }
    }
    Some(grave)
}

fn bug_step<const W: usize>(
    b: &Board<'_, W>,
    grave: &Grave<W>,
    kind: u8,
    difficulty: u16,
    eliminations: Vec<Candidate>,
    why: String,
) -> Step {
    let text = format!(
        "BUG type {kind}: without {} in {}, every empty cell would have two candidates and every \
         digit two places in each unit, which has two solutions; so {why}: {}",
        say::digits(grave.all_extra),
        say::cells(b.geo, grave.cells.iter().copied()),
        say::eliminations(b.geo, &eliminations)
    );
    Step {
        technique: Technique::Bug,
        difficulty: Difficulty(difficulty),
        placements: Vec::new(),
        eliminations,
        cells: grave.cells.iter().map(|&c| c as u16).collect(),
        units: Vec::new(),
        digits: grave.all_extra,
        text,
    }
}

/// Type 1: one cell breaks the grave, so it holds one of its extra digits.
fn bug1<const W: usize>(b: &Board<'_, W>, grave: &Grave<W>) -> Step {
    let cell = grave.cells[0];
    let elims = (b.candidates(cell) & !grave.all_extra)
        .iter()
        .map(|d| Candidate::new(cell, d))
        .collect();
    let why = format!(
        "{} holds {}",
        b.geo.cell_name(cell),
        say::digits(grave.all_extra)
    );
    bug_step(b, grave, 1, 56, elims, why)
}

/// Type 2: every cell breaking it adds the same digit, so one of them holds it.
fn bug2<const W: usize>(b: &Board<'_, W>, grave: &Grave<W>, common: CellSet<W>) -> Option<Step> {
    let digit = grave.all_extra.first()?;
    let elims: Vec<Candidate> = (common & b.places(digit))
        .iter()
        .map(|c| Candidate::new(c, digit))
        .collect();
    if elims.is_empty() {
        return None;
    }
    let why = format!("one of them holds {}", crate::grid::digit_char(digit));
    Some(bug_step(b, grave, 2, 57, elims, why))
}

/// Type 3: the extra digits act as one cell that forms a naked set with cells of a unit shared
/// by every BUG cell.
fn bug3<const W: usize>(
    b: &Board<'_, W>,
    grave: &Grave<W>,
    common: CellSet<W>,
    sink: &mut Sink,
) -> ControlFlow<()> {
    for degree in 2..=6 {
        for t in 0..b.region_types() {
            let units: Vec<Option<usize>> =
                grave.cells.iter().map(|&c| b.region_of(c, t)).collect();
            let Some(Some(unit)) = units.first().copied() else {
                continue;
            };
            if units.iter().any(|&u| u != Some(unit)) {
                continue;
            }
            let cells: Vec<usize> = (common & b.unit(unit)).iter().collect();
            if cells.len() < degree {
                continue;
            }
            combinations(&cells, degree - 1, |chosen| {
                let mut union = Digits::EMPTY;
                for &c in chosen {
                    if b.candidates(c).len() <= 1 {
                        return ControlFlow::Continue(());
                    }
                    union = union | b.candidates(c);
                }
                if union.len() as usize != degree
                    || (union | grave.all_extra).len() as usize != degree
                {
                    return ControlFlow::Continue(());
                }
                let set = union | grave.all_extra;
                let mut elims = Vec::new();
                for &c in &cells {
                    if chosen.contains(&c) || grave.cells.contains(&c) {
                        continue;
                    }
                    for d in (b.candidates(c) & set).iter() {
                        elims.push(Candidate::new(c, d));
                    }
                }
                if elims.is_empty() {
                    return ControlFlow::Continue(());
                }
                let why = format!(
                    "their extra digits with {} make a naked set {} in {}",
                    say::cells(b.geo, chosen.iter().copied()),
                    set,
                    b.geo.unit_name(unit)
                );
                sink.push(bug_step(b, grave, 3, 57 + degree as u16 - 1, elims, why))
            })?;
        }
    }
    ControlFlow::Continue(())
}

/// Type 4: two BUG cells in one unit share one other digit; one of them holds its extra digit, so
/// that shared digit is locked in them and their other candidates go.
fn bug4<const W: usize>(b: &Board<'_, W>, grave: &Grave<W>, sink: &mut Sink) -> ControlFlow<()> {
    let (c1, c2) = (grave.cells[0], grave.cells[1]);
    let Some(shared) = (b.candidates(c1) & b.candidates(c2) & !grave.all_extra).only() else {
        return ControlFlow::Continue(());
    };
    for t in 0..b.region_types() {
        let (Some(u1), Some(u2)) = (b.region_of(c1, t), b.region_of(c2, t)) else {
            continue;
        };
        if u1 != u2 {
            continue;
        }
        let mut elims = Vec::new();
        for (i, &c) in [c1, c2].iter().enumerate() {
            let keep = grave.extra[i] | Digits::single(shared);
            for d in (b.candidates(c) & !keep).iter() {
                elims.push(Candidate::new(c, d));
            }
        }
        let why = format!(
            "{} is locked in them within {}",
            crate::grid::digit_char(shared),
            b.geo.unit_name(u1)
        );
        sink.push(bug_step(b, grave, 4, 57, elims, why))?;
    }
    ControlFlow::Continue(())
}
