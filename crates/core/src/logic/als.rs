//! Almost locked sets (HoDoKu's family; Sudoku Explainer names none of these): `k` empty cells
//! of one unit holding `k + 1` digits between them. Take one digit away and the rest is locked.
//!
//! - ALS-XZ: two sets that share a *restricted common* digit `x` — every cell of either holding
//!   `x` sees every cell of the other holding it, so `x` is in one set at most, and the other
//!   is locked. Then any other common digit `z` is in one of them: it leaves every cell that
//!   sees all the sets' cells holding `z`. With two restricted commons (doubly linked) both
//!   sets are locked but for them, and each set's other digits leave the cells seeing all its
//!   cells holding them.
//! - Sue de Coq: cells where two units cross (a line and a box, or a diagonal and a box) holding
//!   two digits more than cells, with a set in the rest of each unit, the two sets sharing no
//!   digit, all of them together as many cells as digits. Each digit then lies in one unit's
//!   part, exactly once, and leaves the rest of that unit.
//!
//! Units of every kind and size; sets are kept to a few cells (`MAX_ALS`), which is what a
//! hint can say.

use std::collections::HashSet;
use std::ops::ControlFlow;

use super::board::Board;
use super::step::{say, Candidate, Difficulty, Step, Technique};
use super::{combinations, Sink};
use crate::cells::CellSet;
use crate::engine::Digits;

/// The largest almost locked set looked for.
const MAX_ALS: usize = 5;

/// An almost locked set and a unit holding it.
#[derive(Clone)]
pub(crate) struct Als<const W: usize> {
    pub cells: CellSet<W>,
    pub digits: Digits,
    pub unit: usize,
    /// For each of its digits: the cells holding it, and the cells seeing all of those.
    by_digit: Vec<(u8, CellSet<W>, CellSet<W>)>,
}

impl<const W: usize> Als<W> {
    fn holding(&self, digit: u8) -> CellSet<W> {
        self.of(digit).0
    }
    /// The cells holding `digit` and the cells (outside them) seeing all of them.
    fn of(&self, digit: u8) -> (CellSet<W>, CellSet<W>) {
        self.by_digit
            .iter()
            .find(|e| e.0 == digit)
            .map_or((CellSet::EMPTY, CellSet::EMPTY), |e| (e.1, e.2))
    }
}

fn union_of<const W: usize>(b: &Board<'_, W>, cells: impl IntoIterator<Item = usize>) -> Digits {
    cells
        .into_iter()
        .fold(Digits::EMPTY, |d, c| d | b.candidates(c))
}

/// Every almost locked set of up to `MAX_ALS` cells, each once (the first unit holding it),
/// units in index order, then smaller sets first.
pub(crate) fn almost_locked_sets<const W: usize>(b: &Board<'_, W>) -> Vec<Als<W>> {
    let mut seen = HashSet::new();
    let mut found = Vec::new();
    for unit in 0..b.unit_count() {
        let open: Vec<usize> = (b.unit(unit) & b.empty_cells()).iter().collect();
        let most = MAX_ALS.min(open.len().saturating_sub(1));
        let mut sets: Vec<(CellSet<W>, Digits)> = Vec::new();
        grow(
            b,
            &open,
            most,
            0,
            CellSet::EMPTY,
            0,
            Digits::EMPTY,
            &mut sets,
        );
        sets.sort_by_key(|(cells, _)| cells.len()); // stable: in the order found within a size
        for (set, digits) in sets {
            if !seen.insert(set) {
                continue;
            }
            let by_digit = digits
                .iter()
                .map(|d| {
                    let holding = set & b.places(d);
                    (d, holding, b.common_peers(holding))
                })
                .collect();
            found.push(Als {
                cells: set,
                digits,
                unit,
                by_digit,
            });
        }
    }
    found
}

/// Extends `cells` (of `size` cells, `digits` between them) with cells of `open` from `from`
/// on, keeping the sets of `size + 1` digits; stops where no larger set could be one.
#[allow(clippy::too_many_arguments)]
fn grow<const W: usize>(
    b: &Board<'_, W>,
    open: &[usize],
    most: usize,
    from: usize,
    cells: CellSet<W>,
    size: usize,
    digits: Digits,
    out: &mut Vec<(CellSet<W>, Digits)>,
) {
    for (i, &c) in open.iter().enumerate().skip(from) {
        let joined = digits | b.candidates(c);
        let k = size + 1;
        // A superset of k' cells needs k' + 1 digits, at least as many as these.
        if joined.len() as usize > most + 1 {
            continue;
        }
        let mut set = cells;
        set.insert(c);
        if joined.len() as usize == k + 1 {
            out.push((set, joined));
        }
        if k < most {
            grow(b, open, most, i + 1, set, k, joined, out);
        }
    }
}

fn describe<const W: usize>(b: &Board<'_, W>, als: &Als<W>) -> String {
    format!(
        "{} {} ({})",
        say::cells(b.geo, als.cells.iter()),
        als.digits,
        b.geo.unit_name(als.unit)
    )
}

/// ALS-XZ, 5.5 (as Sudoku Explainer rates a WXYZ-wing, an ALS-XZ whose one set is a bivalue
/// cell), doubly linked 5.6. Every pair of disjoint sets; the steps sorted by difficulty, then
/// the number of cells, smallest first.
pub(crate) fn als_xz<const W: usize>(b: &Board<'_, W>, sink: &mut Sink) -> ControlFlow<()> {
    let sets = almost_locked_sets(b);
    let mut found = Vec::new();
    for (i, a) in sets.iter().enumerate() {
        for z in &sets[i + 1..] {
            if a.cells.intersects(&z.cells) {
                continue;
            }
            let common = a.digits & z.digits;
            if common.len() < 2 {
                continue;
            }
            let restricted: Vec<u8> = common
                .iter()
                .filter(|&x| z.holding(x).is_subset(&a.of(x).1))
                .collect();
            if restricted.is_empty() {
                continue;
            }
            let both = a.cells | z.cells;
            let mut eliminations: Vec<Candidate> = Vec::new();
            let mut take = |d: u8, seeing: CellSet<W>| {
                let hits = (seeing & b.places(d)) - both;
                for c in hits.iter() {
                    let e = Candidate::new(c, d);
                    if !eliminations.contains(&e) {
                        eliminations.push(e);
                    }
                }
            };
            let doubly = restricted.len() >= 2;
            for d in common.iter() {
                if !doubly && restricted.contains(&d) {
                    continue;
                }
                take(d, a.of(d).1 & z.of(d).1);
            }
            if doubly {
                for set in [a, z] {
                    for d in set.digits.iter().filter(|d| !restricted.contains(d)) {
                        take(d, set.of(d).1);
                    }
                }
            }
            if eliminations.is_empty() {
                continue;
            }
            eliminations.sort_unstable();
            let key = (Difficulty(if doubly { 56 } else { 55 }), both.len());
            found.push((key, i, z, restricted, eliminations));
        }
    }
    // The sentences are written only for the steps the sink takes.
    found.sort_by_key(|f| f.0);
    for ((difficulty, _), i, z, restricted, eliminations) in found {
        let a = &sets[i];
        sink.push(xz_step(b, a, z, &restricted, eliminations, difficulty))?;
    }
    ControlFlow::Continue(())
}

fn xz_step<const W: usize>(
    b: &Board<'_, W>,
    a: &Als<W>,
    z: &Als<W>,
    restricted: &[u8],
    eliminations: Vec<Candidate>,
    difficulty: Difficulty,
) -> Step {
    let common = a.digits & z.digits;
    let x = restricted[0];
    let text = if restricted.len() >= 2 {
        let xs: Digits = restricted.iter().fold(Digits::EMPTY, |mut s, &d| {
            s.insert(d);
            s
        });
        format!(
            "ALS-XZ (doubly linked): {} and {} share the restricted commons {} — all \
             their cells holding each see each other, so both sets are locked: {}",
            describe(b, a),
            describe(b, z),
            say::digits(xs),
            say::eliminations(b.geo, &eliminations)
        )
    } else {
        let zs = common & !Digits::single(x);
        format!(
            "ALS-XZ: {} and {} share the restricted common {} — all their cells holding \
             it see each other, so one set is locked and holds {}: {}",
            describe(b, a),
            describe(b, z),
            crate::grid::digit_char(x),
            say::digits(zs),
            say::eliminations(b.geo, &eliminations)
        )
    };
    let both = a.cells | z.cells;
    Step {
        technique: Technique::AlsXz,
        difficulty,
        placements: Vec::new(),
        eliminations,
        cells: both.iter().map(|c| c as u16).collect(),
        units: vec![a.unit as u16, z.unit as u16],
        digits: a.digits | z.digits,
        text,
    }
}

/// A set of cells in one unit's rest, with its digits and how many cells it adds beyond its
/// digits outside the crossing's.
struct Part<const W: usize> {
    cells: Vec<usize>,
    digits: Digits,
    gain: usize,
}

fn parts<const W: usize>(b: &Board<'_, W>, rest: &[usize], crossing: Digits) -> Vec<Part<W>> {
    let useful: Vec<usize> = rest
        .iter()
        .copied()
        .filter(|&c| !(b.candidates(c) & crossing).is_empty())
        .collect();
    let mut found = Vec::new();
    for k in 1..=3.min(useful.len()) {
        let _ = combinations(&useful, k, |cells| {
            let digits = union_of(b, cells.iter().copied());
            let outside = (digits & !crossing).len() as usize;
            if k > outside {
                found.push(Part {
                    cells: cells.to_vec(),
                    digits,
                    gain: k - outside,
                });
            }
            ControlFlow::Continue(())
        });
    }
    found
}

/// Sue de Coq, 5.0 (as Sudoku Explainer rates a naked quad, the locked set it amounts to).
/// Crossings in the geometry's order (a box and a line, a box and a diagonal), then the cells
/// of the crossing, the first unit's set and the second's, fewest cells first.
// Over 80 lines: four nested choices (crossing, its cells, the first unit's set, the second's)
// whose order is the order steps are found in; each level's filter is a few lines.
pub(crate) fn sue_de_coq<const W: usize>(b: &Board<'_, W>, sink: &mut Sink) -> ControlFlow<()> {
    for overlap in &b.geo.overlaps {
        let [u1, u2] = overlap.units.map(|u| u as usize);
        let shared = b.unit(u1) & b.unit(u2) & b.empty_cells();
        if shared.len() < 2 {
            continue;
        }
        let open: Vec<usize> = shared.iter().collect();
        let rest1: Vec<usize> = ((b.unit(u1) & b.empty_cells()) - shared).iter().collect();
        let rest2: Vec<usize> = ((b.unit(u2) & b.empty_cells()) - shared).iter().collect();
        for k in 2..=open.len() {
            combinations(&open, k, |crossing| {
                let v = union_of(b, crossing.iter().copied());
                let surplus = v.len() as usize - k.min(v.len() as usize);
                if surplus < 2 {
                    return ControlFlow::Continue(());
                }
                let firsts = parts(b, &rest1, v);
                let seconds = parts(b, &rest2, v);
                for p1 in &firsts {
                    for p2 in &seconds {
                        if p1.gain + p2.gain != surplus || !(p1.digits & p2.digits).is_empty() {
                            continue;
                        }
                        let all: CellSet<W> = crossing
                            .iter()
                            .chain(&p1.cells)
                            .chain(&p2.cells)
                            .copied()
                            .collect();
                        if union_of(b, all.iter()).len() != all.len() {
                            continue;
                        }
                        let in1 = (v | p1.digits) & !p2.digits;
                        let in2 = (v | p2.digits) & !p1.digits;
                        let mut eliminations = Vec::new();
                        for (unit, digits) in [(u1, in1), (u2, in2)] {
                            for c in ((b.unit(unit) & b.empty_cells()) - all).iter() {
                                for d in (b.candidates(c) & digits).iter() {
                                    eliminations.push(Candidate::new(c, d));
                                }
                            }
                        }
                        if eliminations.is_empty() {
                            continue;
                        }
                        eliminations.sort_unstable();
                        eliminations.dedup();
                        let text = format!(
                            "Sue de Coq: {} where {} meets {} hold {v}; {} of {} holds {} and \
                             {} of {} holds {}, no digit in both: {} cells with {} digits, so \
                             each digit is in them once: {}",
                            say::cells(b.geo, crossing.iter().copied()),
                            b.geo.unit_name(u1),
                            b.geo.unit_name(u2),
                            say::cells(b.geo, p1.cells.iter().copied()),
                            b.geo.unit_name(u1),
                            p1.digits,
                            say::cells(b.geo, p2.cells.iter().copied()),
                            b.geo.unit_name(u2),
                            p2.digits,
                            all.len(),
                            all.len(),
                            say::eliminations(b.geo, &eliminations)
                        );
                        sink.push(Step {
                            technique: Technique::SueDeCoq,
                            difficulty: Difficulty(50),
                            placements: Vec::new(),
                            eliminations,
                            cells: all.iter().map(|c| c as u16).collect(),
                            units: vec![u1 as u16, u2 as u16],
                            digits: union_of(b, all.iter()),
                            text,
                        })?;
                    }
                }
                ControlFlow::Continue(())
            })?;
        }
    }
    ControlFlow::Continue(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{geometry, Size, Variant};
    use crate::logic::fixtures::{at, first, keep, removed};

    #[test]
    fn an_als_xz() {
        // A1 {1, 2} and A2, E2 {1, 2, 3} (column 2): 2 is restricted (A1 sees A2), so one set
        // is locked and holds 1, which leaves B2 and C2 (they see A1, A2 and E2).
        let geo = geometry(Size::NINE, Variant::Classic);
        let mut b = Board::<2>::new(geo, &[0; 81]);
        let [a1, a2, e2] = ["A1", "A2", "E2"].map(|n| at(&b, n));
        keep(&mut b, a1, &[1, 2]);
        keep(&mut b, a2, &[1, 2, 3]);
        keep(&mut b, e2, &[1, 3]);
        let step = first(&b, als_xz).expect("an ALS-XZ");
        assert_eq!(removed(&b, &step), ["B2-1", "C2-1"]);
        assert_eq!(
            step.text,
            "ALS-XZ: A1 {1, 2} (row A) and A2, E2 {1, 2, 3} (column 2) share the restricted \
             common 2 — all their cells holding it see each other, so one set is locked and \
             holds 1: 1 leaves B2, C2"
        );
        assert_eq!(step.difficulty, Difficulty(55));
    }

    #[test]
    fn an_als_xz_on_a_6x6() {
        let geo = geometry(Size::from_side(6).expect("6×6"), Variant::Classic);
        let mut b = Board::<2>::new(geo, &[0; 36]);
        let [a1, a2, d2] = ["A1", "A2", "D2"].map(|n| at(&b, n));
        keep(&mut b, a1, &[1, 2]);
        keep(&mut b, a2, &[1, 2, 3]);
        keep(&mut b, d2, &[1, 3]);
        let step = first(&b, als_xz).expect("an ALS-XZ");
        assert_eq!(removed(&b, &step), ["B2-1"]);
    }

    #[test]
    fn an_als_xz_along_a_diagonal() {
        // A1 {1, 2} and E5 {1, 2, 3} see each other on the diagonal only; with E9 {1, 3}, 1
        // leaves E1, I9 and A9 (row A, the anti-diagonal through E5, column 9), which see all
        // three.
        for variant in [Variant::Diagonal, Variant::Classic] {
            let geo = geometry(Size::NINE, variant);
            let mut b = Board::<2>::new(geo, &[0; 81]);
            let [a1, e5, e9] = ["A1", "E5", "E9"].map(|n| at(&b, n));
            keep(&mut b, a1, &[1, 2]);
            keep(&mut b, e5, &[1, 2, 3]);
            keep(&mut b, e9, &[1, 3]);
            let found = first(&b, als_xz).map(|s| removed(&b, &s));
            let expected = (variant == Variant::Diagonal).then(|| vec!["A9-1", "E1-1", "I9-1"]);
            assert_eq!(
                found,
                expected.map(|v| v.iter().map(|s| s.to_string()).collect())
            );
        }
    }

    #[test]
    fn a_sue_de_coq() {
        let geo = geometry(Size::NINE, Variant::Classic);
        let mut b = Board::<2>::new(geo, &[0; 81]);
        let [b1, b2, b7, a3] = ["B1", "B2", "B7", "A3"].map(|n| at(&b, n));
        keep(&mut b, b1, &[1, 2, 5]);
        keep(&mut b, b2, &[2, 5, 8]);
        keep(&mut b, b7, &[1, 8]);
        keep(&mut b, a3, &[2, 5]);
        let step = first(&b, sue_de_coq).expect("a Sue de Coq");
        assert_eq!(
            step.text,
            "Sue de Coq: B1, B2 where row B meets box 1 hold {1, 2, 5, 8}; B7 of row B holds \
             {1, 8} and A3 of box 1 holds {2, 5}, no digit in both: 4 cells with 4 digits, so \
             each digit is in them once: 1 and 8 leave B3, B4, B5, B6, B8, B9; 2 and 5 leave \
             A1, A2, B3, C1, C2, C3"
        );
        assert_eq!(step.difficulty, Difficulty(50));
    }

    #[test]
    fn a_sue_de_coq_where_a_diagonal_meets_a_box() {
        // A1 and B2 (the diagonal and box 1) hold {1, 2, 5, 8}; E5 on the diagonal holds
        // {1, 8}, A3 in the box {2, 5}.
        for variant in [Variant::Diagonal, Variant::Classic] {
            let geo = geometry(Size::NINE, variant);
            let mut b = Board::<2>::new(geo, &[0; 81]);
            let [a1, b2, e5, a3] = ["A1", "B2", "E5", "A3"].map(|n| at(&b, n));
            keep(&mut b, a1, &[1, 2, 5]);
            keep(&mut b, b2, &[2, 5, 8]);
            keep(&mut b, e5, &[1, 8]);
            keep(&mut b, a3, &[2, 5]);
            let step = first(&b, sue_de_coq);
            if variant == Variant::Classic {
                assert!(step.is_none(), "{step:?}");
                continue;
            }
            let step = step.expect("a Sue de Coq");
            assert_eq!(step.units, [18, 27]);
            assert!(
                step.text.ends_with(
                    "1 and 8 leave C3, D4, F6, G7, H8, I9; 2 and 5 leave A2, B1, B3, C1, C2, C3"
                ),
                "{}",
                step.text
            );
        }
    }
}
