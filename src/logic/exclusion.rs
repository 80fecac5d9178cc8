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
                let Some(&(_, ex2)) = bases.iter().find(|(c, _)| *c == c2) else {
                    continue;
                };
                if let Some(step) = exclude(b, &[c0, c1, c2], ex0 & ex1 & ex2) {
                    sink.push(step)?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// The step of one set of base cells with their common excluders, if it eliminates anything.
fn exclude<const W: usize>(b: &Board<W>, cells: &[usize], excluders: CellSet<W>) -> Option<Step> {
    if excluders.len() < 2 {
        return None;
    }
    let excluder_digits: Vec<Digits> = excluders.iter().map(|c| b.candidates(c)).collect();
    let mut allowed = vec![Digits::EMPTY; cells.len()];
    let mut chosen = vec![0u8; cells.len()];
    try_all(b, cells, &excluder_digits, 0, &mut chosen, &mut allowed);
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

/// Every combination of the cells' candidates; the digits each cell takes in an allowed one
/// go into `allowed`.
fn try_all<const W: usize>(
    b: &Board<W>,
    cells: &[usize],
    excluders: &[Digits],
    i: usize,
    chosen: &mut Vec<u8>,
    allowed: &mut [Digits],
) {
    if i == cells.len() {
        let taken = chosen
            .iter()
            .fold(Digits::EMPTY, |ds, &d| ds | Digits::single(d));
        // An excluder left with no candidate rules the combination out.
        if excluders.iter().any(|&ex| ex & !taken == Digits::EMPTY) {
            return;
        }
        for (slot, &d) in allowed.iter_mut().zip(chosen.iter()) {
            slot.insert(d);
        }
        return;
    }
    for d in b.candidates(cells[i]).iter() {
        // Two cells that see each other cannot take the same digit.
        if (0..i).any(|j| chosen[j] == d && b.peers(cells[j]).contains(cells[i])) {
            continue;
        }
        chosen[i] = d;
        try_all(b, cells, excluders, i + 1, chosen, allowed);
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
