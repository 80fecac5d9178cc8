//! Simple colouring (HoDoKu's and SudokuWiki's; Sudoku Explainer reaches the same deductions as
//! X-cycles and forcing X-chains): the *conjugate pairs* of a digit — units where it has exactly
//! two places, one of which holds it — join cells into clusters, and each cluster splits into
//! two colours, one of which holds the digit everywhere and the other nowhere.
//!
//! - Colour trap: a cell outside the cluster that sees both colours cannot hold the digit.
//! - Colour wrap: two cells of one colour that see each other show that colour false; the digit
//!   leaves every cell of it.
//!
//! Every unit makes pairs, diagonals too, at every size.

use std::ops::ControlFlow;

use super::board::Board;
use super::step::{length_steps, say, Candidate, Difficulty, Step, Technique};
use super::Sink;
use crate::cells::CellSet;
use crate::engine::Digits;
use crate::grid::digit_char;

/// 4.5 for a cluster of up to four cells, two tenths more for each of Sudoku Explainer's
/// length thresholds the cluster's cells exceed (6, 8, 12, 16, 24, …), 6.5 at most: the
/// whole cluster is what a person colours.
fn difficulty(cells: usize) -> Difficulty {
    Difficulty((45 + 2 * length_steps(cells)).min(65))
}

/// One cluster of a digit: its two colours.
struct Cluster<const W: usize> {
    colours: [CellSet<W>; 2],
    units: Vec<u16>,
}

fn clusters<const W: usize>(b: &Board<'_, W>, digit: u8) -> Vec<Cluster<W>> {
    let mut links: Vec<(usize, usize, usize)> = Vec::new();
    for unit in 0..b.unit_count() {
        let places = b.places_in(digit, unit);
        if places.len() == 2 {
            let mut it = places.iter();
            if let (Some(x), Some(y)) = (it.next(), it.next()) {
                links.push((x, y, unit));
            }
        }
    }
    let mut done = CellSet::<W>::EMPTY;
    let mut found = Vec::new();
    let starts: Vec<usize> = links.iter().map(|l| l.0).collect();
    for start in starts {
        if done.contains(start) {
            continue;
        }
        let mut colours = [CellSet::single(start), CellSet::EMPTY];
        let mut units = Vec::new();
        let mut queue = vec![(start, 0)];
        done.insert(start);
        while let Some((cell, colour)) = queue.pop() {
            for &(x, y, unit) in &links {
                let other = if x == cell {
                    y
                } else if y == cell {
                    x
                } else {
                    continue;
                };
                if !units.contains(&(unit as u16)) {
                    units.push(unit as u16);
                }
                if !done.contains(other) {
                    done.insert(other);
                    colours[1 - colour].insert(other);
                    queue.push((other, 1 - colour));
                }
            }
        }
        if (colours[0] | colours[1]).len() >= 3 {
            found.push(Cluster { colours, units });
        }
    }
    found
}

/// Colour traps and wraps of every digit, the smallest clusters first (digit order among
/// equals).
pub(crate) fn simple_colouring<const W: usize>(
    b: &Board<'_, W>,
    sink: &mut Sink,
) -> ControlFlow<()> {
    let mut found: Vec<Step> = Vec::new();
    for digit in 1..=b.side() as u8 {
        for cluster in clusters(b, digit) {
            if let Some(step) = wrap(b, digit, &cluster).or_else(|| trap(b, digit, &cluster)) {
                found.push(step);
            }
        }
    }
    found.sort_by_key(|s| (s.difficulty, s.cells.len()));
    for step in found {
        sink.push(step)?;
    }
    ControlFlow::Continue(())
}

fn seen_by<const W: usize>(b: &Board<'_, W>, cells: CellSet<W>) -> CellSet<W> {
    cells.iter().fold(CellSet::EMPTY, |s, c| s | b.peers(c))
}

fn wrap<const W: usize>(b: &Board<'_, W>, digit: u8, cluster: &Cluster<W>) -> Option<Step> {
    let [on, off] = cluster.colours;
    for (false_colour, other) in [(on, off), (off, on)] {
        let clash = false_colour
            .iter()
            .find_map(|c| (b.peers(c) & false_colour).first().map(|d| (c, d)));
        let Some((x, y)) = clash else {
            continue;
        };
        if other.iter().any(|c| !(b.peers(c) & other).is_empty()) {
            return None; // both colours clash: the board is broken
        }
        let eliminations: Vec<Candidate> = false_colour
            .iter()
            .map(|c| Candidate::new(c, digit))
            .collect();
        let text = format!(
            "Simple colouring on {d} (colour wrap): the conjugate pairs of {d} colour {} one way \
             and {} the other; {} and {} share a colour and see each other, so that colour is \
             false: {}",
            say::cells(b.geo, on.iter()),
            say::cells(b.geo, off.iter()),
            b.geo.cell_name(x),
            b.geo.cell_name(y),
            say::eliminations(b.geo, &eliminations),
            d = digit_char(digit),
        );
        return Some(step(cluster, digit, eliminations, text));
    }
    None
}

fn trap<const W: usize>(b: &Board<'_, W>, digit: u8, cluster: &Cluster<W>) -> Option<Step> {
    let [on, off] = cluster.colours;
    let targets = (seen_by(b, on) & seen_by(b, off) & b.places(digit)) - on - off;
    if targets.is_empty() {
        return None;
    }
    let eliminations: Vec<Candidate> = targets.iter().map(|c| Candidate::new(c, digit)).collect();
    let text = format!(
        "Simple colouring on {d} (colour trap): the conjugate pairs of {d} colour {} one way and \
         {} the other, so one colour holds {d}: {}",
        say::cells(b.geo, on.iter()),
        say::cells(b.geo, off.iter()),
        say::eliminations(b.geo, &eliminations),
        d = digit_char(digit),
    );
    Some(step(cluster, digit, eliminations, text))
}

fn step<const W: usize>(
    cluster: &Cluster<W>,
    digit: u8,
    eliminations: Vec<Candidate>,
    text: String,
) -> Step {
    let cells = cluster.colours[0] | cluster.colours[1];
    Step {
        technique: Technique::SimpleColouring,
        difficulty: difficulty(cells.len() as usize),
        placements: Vec::new(),
        eliminations,
        cells: cells.iter().map(|c| c as u16).collect(),
        units: cluster.units.clone(),
        digits: Digits::single(digit),
        text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{geometry, Size, Variant};
    use crate::logic::fixtures::{at, first, only_in, removed};

    #[test]
    fn a_colour_trap() {
        let geo = geometry(Size::NINE, Variant::Classic);
        let mut b = Board::<2>::new(geo, &[0; 81]);
        let c = |b: &Board<'_, 2>, name| at(b, name);
        let (a1, a5, e5, f6) = (c(&b, "A1"), c(&b, "A5"), c(&b, "E5"), c(&b, "F6"));
        only_in(&mut b, 4, 0, &[a1, a5]); // row A
        only_in(&mut b, 4, 9 + 4, &[a5, e5]); // column 5
        only_in(&mut b, 4, 18 + 4, &[e5, f6]); // box 5
        let step = first(&b, simple_colouring).expect("a colour trap");
        assert_eq!(removed(&b, &step), ["F1-4"]);
        assert_eq!(
            step.text,
            "Simple colouring on 4 (colour trap): the conjugate pairs of 4 colour A1, E5 one way \
             and A5, F6 the other, so one colour holds 4: 4 leaves F1"
        );
        assert_eq!(step.difficulty, Difficulty(45));
    }

    #[test]
    fn a_colour_wrap() {
        let geo = geometry(Size::NINE, Variant::Classic);
        let mut b = Board::<2>::new(geo, &[0; 81]);
        let [a1, a5, e5, e2, c2] = ["A1", "A5", "E5", "E2", "C2"].map(|n| at(&b, n));
        only_in(&mut b, 4, 0, &[a1, a5]); // row A
        only_in(&mut b, 4, 9 + 4, &[a5, e5]); // column 5
        only_in(&mut b, 4, 4, &[e5, e2]); // row E
        only_in(&mut b, 4, 9 + 1, &[e2, c2]); // column 2
        let step = first(&b, simple_colouring).expect("a colour wrap");
        assert_eq!(removed(&b, &step), ["A1-4", "C2-4", "E5-4"]);
        assert!(step.text.contains("colour wrap"), "{}", step.text);
        assert_eq!(step.difficulty, Difficulty(47));
    }

    #[test]
    fn a_colour_trap_on_a_6x6_through_a_diagonal() {
        // A1–F6 is a diagonal: 2 only in A1 and F6 there; row A only A1, A4; column 6 only
        // F6, C6. A4 and F6 take one colour, A1 and C6 the other: C4 sees A4 and C6, F1 sees
        // A1 and F6 — and on the classic board there is no pair along the diagonal, so the
        // pairs make two clusters of two cells, which trap nothing a turbot fish would not.
        let diagonal = vec!["C4-2", "F1-2"];
        for (variant, expected) in [(Variant::Diagonal, diagonal), (Variant::Classic, vec![])] {
            let geo = geometry(Size::from_side(6).expect("6×6"), variant);
            let mut b = Board::<2>::new(geo, &[0; 36]);
            let [a1, f6, a4, c6] = ["A1", "F6", "A4", "C6"].map(|n| at(&b, n));
            if variant == Variant::Diagonal {
                only_in(&mut b, 2, 18, &[a1, f6]);
            } else {
                for i in 1..5 {
                    b.eliminate(i * 7, 2);
                }
            }
            only_in(&mut b, 2, 0, &[a1, a4]); // row A
            only_in(&mut b, 2, 6 + 5, &[f6, c6]); // column 6
            let mut sink = Sink::all();
            let _ = simple_colouring(&b, &mut sink);
            let traps: Vec<String> = sink
                .steps
                .iter()
                .filter(|s| s.cells.len() == 4)
                .flat_map(|s| removed(&b, s))
                .collect();
            assert_eq!(traps, expected, "{variant:?}");
        }
    }
}
