//! Aligned exclusion: two (or three) cells whose combinations of digits are tried one by one. A
//! combination is out when two of the cells see each other and take the same digit, or when it
//! would take every candidate of a cell that sees them all; a digit no allowed combination gives
//! its cell is eliminated. Found as Sukaku Explainer finds them: pair exclusion (6.2) with
//! bivalue excluders, triple exclusion (7.5) with excluders of two or three candidates.

use std::ops::ControlFlow;

use super::board::Board;
use super::cells::CellSet;
use super::step::{say, Candidate, Difficulty, Step, Technique};
use super::Sink;
use crate::engine::Digits;

/// Aligned pair (`size` 2) or triple (`size` 3) exclusion.
pub fn aligned_exclusion<const W: usize>(
    b: &Board<W>,
    size: usize,
    sink: &mut Sink,
) -> ControlFlow<()> {
    // Base cells: two candidates or more, no peer down to one, and some peer to act as excluder.
    let mut bases: Vec<(usize, CellSet<W>)> = Vec::new();
    for cell in b.empty_cells().iter() {
        if b.candidates(cell).len() < 2 {
            continue;
        }
        let peers = b.peers(cell) & b.empty_cells();
        if peers.iter().any(|p| b.candidates(p).len() == 1) {
            continue;
        }
        let excluders: CellSet<W> = peers
            .iter()
            .filter(|&p| (2..=size as u32).contains(&b.candidates(p).len()))
            .collect();
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
fn exclude<const W: usize>(b: &Board<W>, cells: &[usize], excluders: CellSet<W>) -> Option<Step> {
    if excluders.len() < 2 {
        return None;
    }
    // Only an excluder whose candidates the cells can all take can rule a combination out.
    let reach = cells
        .iter()
        .fold(Digits::EMPTY, |ds, &c| ds | b.candidates(c));
    let mut excluder_digits = [Digits::EMPTY; MAX_EXCLUDERS];
    let mut count = 0;
    for ds in excluders.iter().map(|c| b.candidates(c)) {
        if ds & !reach == Digits::EMPTY && count < MAX_EXCLUDERS {
            excluder_digits[count] = ds;
            count += 1;
        }
    }
    let excluder_digits = &excluder_digits[..count];
    let peers_among = cells
        .iter()
        .enumerate()
        .any(|(i, &c)| cells[..i].iter().any(|&o| b.peers(o).contains(c)));
    if excluder_digits.is_empty() && !peers_among {
        return None; // every combination is allowed
    }
    let mut allowed = [Digits::EMPTY; 3];
    let mut chosen = [0u8; 3];
    let k = cells.len();
    let mut search = Combinations {
        b,
        cells,
        excluders: excluder_digits,
        chosen: &mut chosen[..k],
        allowed: &mut allowed[..k],
        missing: cells.iter().map(|&c| b.candidates(c).len()).sum(),
    };
    search.try_all(0);
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

/// The combinations of the base cells' candidates being tried.
struct Combinations<'a, const W: usize> {
    b: &'a Board<W>,
    cells: &'a [usize],
    excluders: &'a [Digits],
    chosen: &'a mut [u8],
    /// For each cell, the digits it takes in some allowed combination.
    allowed: &'a mut [Digits],
    /// How many candidates of the cells no allowed combination has given yet: at 0 nothing can
    /// be eliminated, and the search stops.
    missing: u32,
}

impl<const W: usize> Combinations<'_, W> {
    /// Every combination from cell `i` on; false once every candidate is allowed.
    fn try_all(&mut self, i: usize) -> bool {
        if i == self.cells.len() {
            let taken = self
                .chosen
                .iter()
                .fold(Digits::EMPTY, |ds, &d| ds | Digits::single(d));
            // An excluder left with no candidate rules the combination out.
            if self
                .excluders
                .iter()
                .any(|&ex| ex & !taken == Digits::EMPTY)
            {
                return true;
            }
            for (slot, &d) in self.allowed.iter_mut().zip(self.chosen.iter()) {
                if !slot.contains(d) {
                    slot.insert(d);
                    self.missing -= 1;
                }
            }
            return self.missing > 0;
        }
        let cell = self.cells[i];
        for d in self.b.candidates(cell).iter() {
            // Two cells that see each other cannot take the same digit.
            let clash =
                (0..i).any(|j| self.chosen[j] == d && self.b.peers(self.cells[j]).contains(cell));
            if clash {
                continue;
            }
            self.chosen[i] = d;
            if !self.try_all(i + 1) {
                return false;
            }
        }
        true
    }
}

fn exclusion_step<const W: usize>(
    b: &Board<W>,
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
