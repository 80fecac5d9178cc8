//! Aligned exclusion: two (or three) cells whose combinations of digits are tried one by one. A
//! combination is out when two of the cells see each other and take the same digit, or when it
//! would take every candidate of a cell that sees them all; a digit no allowed combination gives
//! its cell is eliminated. Found as Sukaku Explainer finds them: pair exclusion (6.2) with
//! bivalue excluders, triple exclusion (7.5) with excluders of two or three candidates.

use std::ops::ControlFlow;

use super::board::Board;
use super::step::{say, Candidate, Difficulty, Step, Technique};
use super::Sink;
use crate::cells::CellSet;
use crate::engine::Digits;

/// Aligned pair (`size` 2) or triple (`size` 3) exclusion.
pub(crate) fn aligned_exclusion<const W: usize>(
    b: &Board<'_, W>,
    size: usize,
    sink: &mut Sink,
) -> ControlFlow<()> {
    aligned_exclusion_near(b, size, None, sink)
}

/// `aligned_exclusion` on a grid reduced from one where it found nothing, `changed` holding the
/// empty cells whose candidates have changed since: only base cells where a base cell or a
/// common excluder is among them are tried. The others found nothing then and find nothing now:
/// their cells are the same, and an excluder gone (solved) only allows more. The first step in
/// Sudoku Explainer's order is the same.
pub(crate) fn aligned_exclusion_near<const W: usize>(
    b: &Board<'_, W>,
    size: usize,
    changed: Option<&CellSet<W>>,
    sink: &mut Sink,
) -> ControlFlow<()> {
    let unchanged = |cells: &[usize], excluders: CellSet<W>| {
        changed
            .is_some_and(|ch| !excluders.intersects(ch) && cells.iter().all(|&c| !ch.contains(c)))
    };
    // The cells down to one candidate, and those with two to `size`, each read once rather than
    // for every peer of every cell.
    let (mut singles, mut small) = (CellSet::<W>::EMPTY, CellSet::<W>::EMPTY);
    for cell in b.empty_cells().iter() {
        match b.candidates(cell).len() {
            1 => singles.insert(cell),
            n if (2..=size as u32).contains(&n) => small.insert(cell),
            _ => {}
        }
    }
    // Base cells: two candidates or more, no peer down to one, and some peer to act as excluder.
    let mut bases: Vec<(usize, CellSet<W>)> = Vec::new();
    for cell in b.empty_cells().iter() {
        if b.candidates(cell).len() < 2 {
            continue;
        }
        let peers = b.peers(cell) & b.empty_cells();
        if peers.intersects(&singles) {
            continue;
        }
        let excluders = peers & small;
        if !excluders.is_empty() {
            bases.push((cell, excluders));
        }
    }
    if bases.len() < size {
        return ControlFlow::Continue(());
    }
    let base_cells: CellSet<W> = bases.iter().map(|(c, _)| *c).collect();
    let mut index_of = vec![usize::MAX; b.geo.cells()];
    for (i, &(c, _)) in bases.iter().enumerate() {
        index_of[c] = i;
    }
    // Pairs in Sukaku Explainer's order: (0,1), (0,2), (1,2), (0,3)…
    for second in 1..bases.len() {
        for first in 0..second {
            let (c0, ex0) = bases[first];
            let (c1, ex1) = bases[second];
            if size == 2 {
                if unchanged(&[c0, c1], ex0 & ex1) {
                    continue;
                }
                if let Some(step) = exclude(b, &[c0, c1], ex0 & ex1) {
                    sink.push(step)?;
                }
                continue;
            }
            // A third cell from the excluders of either that is a base cell itself.
            let twins = ((ex0 | ex1) & base_cells) - CellSet::from_cells([c0, c1]);
            for c2 in twins.iter() {
                let third = index_of[c2];
                if reached_before(&bases, [first, second, third]) {
                    continue; // the same cells and excluders, tried already
                }
                let ex2 = bases[third].1;
                if unchanged(&[c0, c1, c2], ex0 & ex1 & ex2) {
                    continue;
                }
                if let Some(step) = exclude(b, &[c0, c1, c2], ex0 & ex1 & ex2) {
                    sink.push(step)?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// Whether the pairs loop reached these three base cells (`[first, second, third]`, indices into
/// `bases`) from an earlier pair: pairs go by their second cell, then their first, and a pair
/// reaches a third cell among the excluders of either.
fn reached_before<const W: usize>(
    bases: &[(usize, CellSet<W>)],
    [first, second, third]: [usize; 3],
) -> bool {
    let reaches = |x: usize, y: usize, z: usize| (bases[x].1 | bases[y].1).contains(bases[z].0);
    if third > second {
        false // (first, second) is the earliest pair of the three
    } else if third > first {
        reaches(first, third, second) // (first, third) comes before (first, second)
    } else {
        // (third, first) and (third, second) both come before (first, second).
        reaches(third, first, second) || reaches(third, second, first)
    }
}

/// Room for the excluders, the common peers of the cells: a cell of a 25×25 diagonal grid has
/// at most 112 peers, so a fixed array holds them all without allocating.
const MAX_EXCLUDERS: usize = 128;

/// The step of one set of base cells with their common excluders, if it eliminates anything.
fn exclude<const W: usize>(
    b: &Board<'_, W>,
    cells: &[usize],
    excluders: CellSet<W>,
) -> Option<Step> {
    if excluders.len() < 2 {
        return None;
    }
    // Only an excluder whose candidates the cells can all take can rule a combination out.
    let reach = cells
        .iter()
        .fold(Digits::EMPTY, |ds, &c| ds | b.candidates(c));
    let peers_among = cells
        .iter()
        .enumerate()
        .any(|(i, &c)| cells[..i].iter().any(|&o| b.peers(o).contains(c)));
    let allowed = if let [c0, c1] = *cells {
        let pairs = PairExcluders::of(b, excluders, reach);
        if !pairs.any && !peers_among {
            return None; // every combination is allowed
        }
        pair_allowed(b, [c0, c1], peers_among, &pairs)
    } else {
        let mut excluder_digits = [Digits::EMPTY; MAX_EXCLUDERS];
        let mut count = 0;
        for ds in excluders.iter().map(|c| b.candidates(c)) {
            if ds & !reach == Digits::EMPTY && count < MAX_EXCLUDERS {
                excluder_digits[count] = ds;
                count += 1;
            }
        }
        let excluder_digits = &excluder_digits[..count];
        if excluder_digits.is_empty() && !peers_among {
            return None; // every combination is allowed
        }
        Combinations::new(b, cells, excluder_digits).allowed()
    };
    let mut eliminations = Vec::new();
    for (i, &cell) in cells.iter().enumerate() {
        for d in (b.candidates(cell) & !allowed[i]).iter() {
            eliminations.push(Candidate::new(cell, d));
        }
    }
    if eliminations.is_empty() {
        return None;
    }
    Some(exclusion_step(b, cells, excluders, eliminations))
}

/// What the excluders of two cells rule out: two digits {d0, d1} empty exactly the excluders of
/// at most two digits inside them, so what matters of the excluders is, for each digit, the
/// other digits it makes an excluder with, and the excluders of one digit.
struct PairExcluders {
    /// Indexed by digit: the other digit of each two-digit excluder holding it.
    partners: [Digits; 26],
    /// The digits that are an excluder's only candidate.
    singles: Digits,
    /// Whether any excluder can rule a combination out.
    any: bool,
}

impl PairExcluders {
    /// The excluders whose candidates all lie in `reach` (the others rule nothing out).
    fn of<const W: usize>(b: &Board<'_, W>, excluders: CellSet<W>, reach: Digits) -> PairExcluders {
        let mut pairs = PairExcluders {
            partners: [Digits::EMPTY; 26],
            singles: Digits::EMPTY,
            any: false,
        };
        for ds in excluders.iter().map(|c| b.candidates(c)) {
            if ds & !reach != Digits::EMPTY {
                continue;
            }
            pairs.any = true;
            match (ds.first(), ds.len()) {
                (Some(d), 1) => pairs.singles.insert(d),
                (Some(d), 2) => {
                    let e = (ds & !Digits::single(d)).first().unwrap_or(d);
                    pairs.partners[d as usize].insert(e);
                    pairs.partners[e as usize].insert(d);
                }
                _ => {} // three digits or more: two cannot take them all
            }
        }
        pairs
    }

    /// The digits of the second cell that, with `d0` in the first, empty an excluder.
    fn forbidden(&self, d0: u8) -> Digits {
        if self.singles.contains(d0) {
            return !Digits::EMPTY; // d0 alone empties an excluder
        }
        self.partners[d0 as usize] | self.singles
    }
}

/// `Combinations::allowed` for two cells, digit by digit of the first rather than combination by
/// combination: each digit of the first rules out a set of digits of the second worked out at
/// once (`PairExcluders`), and the same digit where the cells see each other.
fn pair_allowed<const W: usize>(
    b: &Board<'_, W>,
    [c0, c1]: [usize; 2],
    sees: bool,
    excluders: &PairExcluders,
) -> [Digits; 3] {
    let second = b.candidates(c1);
    let mut allowed = [Digits::EMPTY; 3];
    for d0 in b.candidates(c0).iter() {
        let mut forbidden = excluders.forbidden(d0);
        if sees {
            forbidden.insert(d0); // the same digit twice in a unit
        }
        let partners = second & !forbidden;
        if !partners.is_empty() {
            allowed[0].insert(d0);
            allowed[1] = allowed[1] | partners;
        }
    }
    allowed
}

/// The combinations of the base cells' candidates: one is allowed when no two cells that see
/// each other take the same digit and no excluder loses every candidate.
struct Combinations<'a> {
    candidates: [Digits; 3],
    /// `sees[i][j]`: cells i and j are peers.
    sees: [[bool; 3]; 3],
    k: usize,
    excluders: &'a [Digits],
    chosen: [u8; 3],
}

impl<'a> Combinations<'a> {
    fn new<const W: usize>(b: &Board<'_, W>, cells: &[usize], excluders: &'a [Digits]) -> Self {
        let mut candidates = [Digits::EMPTY; 3];
        let mut sees = [[false; 3]; 3];
        for (i, &c) in cells.iter().enumerate() {
            candidates[i] = b.candidates(c);
            for (j, &o) in cells.iter().enumerate() {
                sees[i][j] = i != j && b.peers(o).contains(c);
            }
        }
        Combinations {
            candidates,
            sees,
            k: cells.len(),
            excluders,
            chosen: [0; 3],
        }
    }

    /// For each cell, the digits it takes in some allowed combination. Each candidate not yet
    /// seen in one looks for an allowed combination that gives it (usually among the first few
    /// tried), and every digit of the one found is allowed too.
    fn allowed(&mut self) -> [Digits; 3] {
        let mut allowed = [Digits::EMPTY; 3];
        for i in 0..self.k {
            for d in self.candidates[i].iter() {
                if allowed[i].contains(d) {
                    continue;
                }
                self.chosen[i] = d;
                if self.complete(0, i) {
                    for (slot, &digit) in allowed.iter_mut().zip(&self.chosen[..self.k]) {
                        slot.insert(digit);
                    }
                }
            }
        }
        allowed
    }

    /// Chooses digits for cells `j..` (all but `fixed`) until the combination is allowed.
    fn complete(&mut self, j: usize, fixed: usize) -> bool {
        if j == self.k {
            let taken = self.chosen[..self.k]
                .iter()
                .fold(Digits::EMPTY, |ds, &d| ds | Digits::single(d));
            return !self
                .excluders
                .iter()
                .any(|&ex| ex & !taken == Digits::EMPTY);
        }
        if j == fixed {
            return self.clash_free(j) && self.complete(j + 1, fixed);
        }
        for d in self.candidates[j].iter() {
            self.chosen[j] = d;
            if self.clash_free(j) && self.complete(j + 1, fixed) {
                return true;
            }
        }
        false
    }

    /// Whether cell `j`'s digit differs from the digits of the earlier cells it sees (every pair
    /// is checked once, at its later cell, when both digits are chosen).
    fn clash_free(&self, j: usize) -> bool {
        (0..j).all(|i| !(self.sees[i][j] && self.chosen[i] == self.chosen[j]))
    }
}

fn exclusion_step<const W: usize>(
    b: &Board<'_, W>,
    cells: &[usize],
    excluders: CellSet<W>,
    eliminations: Vec<Candidate>,
) -> Step {
    let (technique, difficulty) = if cells.len() == 2 {
        (Technique::AlignedPairExclusion, Difficulty(62))
    } else {
        (Technique::AlignedTripleExclusion, Difficulty(75))
    };
    let text = format!(
        "{technique}: no combination of digits for {} that leaves a candidate in each of {} gives {}",
        say::cells(b.geo, cells.iter().copied()),
        say::cells(b.geo, excluders.iter()),
        say::eliminations(b.geo, &eliminations)
            .replace(" leaves ", " to ")
            .replace(" leave ", " to "),
    );
    let digits = eliminations
        .iter()
        .fold(Digits::EMPTY, |ds, e| ds | Digits::single(e.digit));
    Step {
        technique,
        difficulty,
        placements: Vec::new(),
        eliminations,
        cells: cells
            .iter()
            .chain(excluders.iter().collect::<Vec<_>>().iter())
            .map(|&c| c as u16)
            .collect(),
        units: Vec::new(),
        digits,
        text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{geometry, Size, Variant};
    use crate::logic::fixtures::{assert_sound, at, first, keep, removed, thinned_boards, OnBoard};

    #[test]
    fn an_aligned_pair_exclusion() {
        // A1 {1, 2, 4} and A2 {1, 2} see each other; C1 {1, 2} and B2 {1, 4} see both. Every
        // pair of digits for them but (4, 2) empties C1 or B2.
        let geo = geometry(Size::NINE, Variant::Classic);
        let mut b = Board::<2>::new(geo, &[0; 81]);
        for (name, digits) in [
            ("A1", &[1, 2, 4][..]),
            ("A2", &[1, 2]),
            ("C1", &[1, 2]),
            ("B2", &[1, 4]),
        ] {
            let cell = at(&b, name);
            keep(&mut b, cell, digits);
        }
        let step = first(&b, |b, sink| aligned_exclusion(b, 2, sink)).expect("an exclusion");
        assert_eq!(removed(&b, &step), ["A1-1", "A1-2", "A2-1"]);
        assert_eq!(step.technique, Technique::AlignedPairExclusion);
        assert_eq!(step.difficulty, Difficulty(62));
        assert!(
            step.text
                .starts_with("Aligned pair exclusion: no combination of digits for A1, A2"),
            "{}",
            step.text
        );
    }

    /// Whatever pair or triple exclusion removes on boards thinned at random, every size and
    /// both variants, the solution keeps.
    #[test]
    fn exclusions_keep_the_solution_on_every_size() {
        struct Exclusions(usize);
        impl OnBoard for Exclusions {
            fn board<const W: usize>(&mut self, b: &Board<'_, W>, solution: &[u8], what: &str) {
                for size in [2, 3] {
                    let mut sink = Sink::all();
                    let _ = aligned_exclusion(b, size, &mut sink);
                    assert_sound(&sink.steps, solution, what);
                    self.0 += sink.steps.len();
                }
            }
        }
        let mut found = Exclusions(0);
        thinned_boards(
            0x2f6b_3a1e_9d4c_8b57,
            |side| if side <= 9 { 8 } else { 1 },
            &mut found,
        );
        assert!(found.0 > 0, "no exclusion at all");
    }
}
