//! Wings: a pivot cell and pincer cells whose candidates force a digit into one of the pincers
//! (XY-wing, XYZ-wing), and their larger kin built from an almost locked set and a bivalue cell
//! (WXYZ-wing, VWXYZ-wing), as Sukaku Explainer rates them; and HoDoKu's W-wing, two equal
//! bivalue cells joined by a strong link, which Sukaku Explainer does not name.
//!
//! Cells "see" each other through their peers, so on a diagonal board the diagonals count too.

use std::cmp::Reverse;
use std::ops::ControlFlow;

use super::board::Board;
use super::step::{say, Candidate, Difficulty, Step, Technique};
use super::Sink;
use crate::cells::CellSet;
use crate::engine::Digits;
use crate::grid::digit_char;

/// XY-wing (`with_z` false, 4.2) or XYZ-wing (true, 4.4).
///
/// Sukaku Explainer's scan: pivots in cell order (two candidates, or three for XYZ), then the
/// first pincer among the pivot's bivalue peers in cell order (sharing one digit with the
/// pivot), then the second; the first pair that eliminates is the step.
pub(crate) fn xy_wings<const W: usize>(
    b: &Board<'_, W>,
    with_z: bool,
    sink: &mut Sink,
) -> ControlFlow<()> {
    let (size, common, technique, difficulty) = if with_z {
        (3, 1, Technique::XyzWing, Difficulty(44))
    } else {
        (2, 0, Technique::XyWing, Difficulty(42))
    };
    for pivot in b.empty_cells().iter() {
        let xy = b.candidates(pivot);
        if xy.len() != size {
            continue;
        }
        let pincers: Vec<usize> = (b.peers(pivot) & b.empty_cells())
            .iter()
            .filter(|&c| b.candidates(c).len() == 2)
            .collect();
        for &xz in &pincers {
            let xz_digits = b.candidates(xz);
            if (xy & !xz_digits).len() != 1 {
                continue;
            }
            for &yz in &pincers {
                let yz_digits = b.candidates(yz);
                if (xy | xz_digits | yz_digits).len() != 3
                    || (xy & xz_digits & yz_digits).len() != common
                {
                    continue;
                }
                let Some(z) = (xz_digits & yz_digits).first() else {
                    continue;
                };
                let mut pattern = CellSet::from_cells([xz, yz]);
                if with_z {
                    pattern.insert(pivot);
                }
                let seen = b.common_peers(pattern) - CellSet::single(pivot);
                let targets = seen & b.places(z);
                if targets.is_empty() {
                    continue;
                }
                let eliminations: Vec<Candidate> =
                    targets.iter().map(|c| Candidate::new(c, z)).collect();
                let name = |c: usize| format!("{} {}", b.geo.cell_name(c), b.candidates(c));
                let text = format!(
                    "{technique}: pivot {}, pincers {} and {}: {}",
                    name(pivot),
                    name(xz),
                    name(yz),
                    say::eliminations(b.geo, &eliminations)
                );
                let units = [xz, yz]
                    .iter()
                    .filter_map(|&c| b.geo.shared_unit(pivot, c))
                    .map(|u| u as u16)
                    .collect();
                sink.push(Step {
                    technique,
                    difficulty,
                    placements: Vec::new(),
                    eliminations,
                    cells: vec![pivot as u16, xz as u16, yz as u16],
                    units,
                    digits: xy | xz_digits | yz_digits,
                    text,
                })?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// W-wing (4.4, as Sudoku Explainer rates an XYZ-wing; HoDoKu's name): two cells that do not
/// see each other hold the same pair {x, y}, and a unit where `y` has only two places, one seen
/// by each cell. Were both cells `y`, neither place could be: so one of them is `x`, and `x`
/// leaves every cell that sees both. Any unit makes the link, a diagonal too.
///
/// Cells in index order, then the linking digit, then units in index order; one step for each
/// pair and digit (the first unit).
pub(crate) fn w_wings<const W: usize>(b: &Board<'_, W>, sink: &mut Sink) -> ControlFlow<()> {
    let bivalue: Vec<usize> = b
        .empty_cells()
        .iter()
        .filter(|&c| b.candidates(c).len() == 2)
        .collect();
    for (i, &p) in bivalue.iter().enumerate() {
        let pair = b.candidates(p);
        for &q in &bivalue[i + 1..] {
            if b.candidates(q) != pair || b.peers(p).contains(q) {
                continue;
            }
            for y in pair.iter() {
                let Some(x) = (pair & !Digits::single(y)).first() else {
                    continue;
                };
                let targets = b.common_peers(CellSet::from_cells([p, q])) & b.places(x);
                if targets.is_empty() {
                    continue;
                }
                let link = (0..b.unit_count()).find_map(|unit| {
                    let places = b.places_in(y, unit);
                    if places.len() != 2 || places.contains(p) || places.contains(q) {
                        return None;
                    }
                    let mut it = places.iter();
                    let (a, c) = (it.next()?, it.next()?);
                    let sees = |from: usize, to: usize| b.peers(from).contains(to);
                    if sees(p, a) && sees(q, c) {
                        Some((unit, a, c))
                    } else if sees(p, c) && sees(q, a) {
                        Some((unit, c, a))
                    } else {
                        None
                    }
                });
                let Some((unit, a, c)) = link else {
                    continue;
                };
                let eliminations: Vec<Candidate> =
                    targets.iter().map(|t| Candidate::new(t, x)).collect();
                let text = format!(
                    "W-wing: {} and {} hold {pair} and are joined by a strong link on {} in {} \
                     ({}), so one of them is {}: {}",
                    b.geo.cell_name(p),
                    b.geo.cell_name(q),
                    digit_char(y),
                    b.geo.unit_name(unit),
                    say::cells(b.geo, [a, c]),
                    digit_char(x),
                    say::eliminations(b.geo, &eliminations)
                );
                sink.push(Step {
                    technique: Technique::WWing,
                    difficulty: Difficulty(44),
                    placements: Vec::new(),
                    eliminations,
                    cells: vec![p as u16, q as u16, a as u16, c as u16],
                    units: vec![unit as u16],
                    digits: pair,
                    text,
                })?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// WXYZ-wing (5.5–5.6): an almost locked set of three cells and a bivalue cell.
pub(crate) fn wxyz_wings<const W: usize>(b: &Board<'_, W>, sink: &mut Sink) -> ControlFlow<()> {
    als_wings(b, 3, None, sink)
}

/// VWXYZ-wing (6.2–6.4): an almost locked set of four cells and a bivalue cell.
pub(crate) fn vwxyz_wings<const W: usize>(b: &Board<'_, W>, sink: &mut Sink) -> ControlFlow<()> {
    als_wings(b, 4, None, sink)
}

/// `wxyz_wings` (`k` 3) or `vwxyz_wings` (`k` 4) on a grid reduced from one where they found
/// nothing, `changed` holding the empty cells whose candidates have changed since: a set of
/// unchanged cells is tried only with a changed bivalue cell. The same set with the same
/// bivalue cell eliminated nothing then, and the cells it would eliminate from have only lost
/// candidates since; what is found comes in the same order.
pub(crate) fn als_wings_near<const W: usize>(
    b: &Board<'_, W>,
    k: usize,
    changed: &CellSet<W>,
    sink: &mut Sink,
) -> ControlFlow<()> {
    als_wings(b, k, Some(changed), sink)
}

/// One wing found, with Sukaku Explainer's sort keys.
struct Found {
    difficulty: Difficulty,
    count: usize,
    suffix: String,
    step: Step,
}

/// Sukaku Explainer's WXYZ- and VWXYZ-wings: `k` mutually seeing cells (each with two candidates
/// or more, the first with at most `k + 1`) holding `k + 1` digits between them — an almost
/// locked set — and a bivalue cell outside it seeing one of them, whose two digits are both in
/// the set. A digit of the bivalue cell is *restricted* when every cell of the set holding it
/// sees the bivalue cell. With one restricted digit, the other leaves every cell that sees the
/// bivalue cell and all the set's cells holding it (ALS-XZ); with both restricted (doubly
/// linked), each other digit of the set leaves the cells seeing all the set's cells holding it,
/// and each of the two leaves the cells seeing the bivalue cell and the set's cells holding it.
///
/// Every wing is collected (cells in index order: the set's cells each a forward peer of the
/// ones before, then the bivalue cell among the set's peers), then sorted stably by difficulty,
/// eliminations (most first) and the name's suffix (descending), and pushed in that order.
fn als_wings<const W: usize>(
    b: &Board<'_, W>,
    k: usize,
    changed: Option<&CellSet<W>>,
    sink: &mut Sink,
) -> ControlFlow<()> {
    let mut found = Vec::new();
    let mut cells = Vec::with_capacity(k);
    // The cells a set's bivalue cell can be, worked out once rather than for every set.
    let bivalue: CellSet<W> = b
        .empty_cells()
        .iter()
        .filter(|&c| b.candidates(c).len() == 2)
        .collect();
    let near = changed.and_then(|ch| must_touch(b, ch, bivalue));
    for pivot in b.empty_cells().iter() {
        let n = b.candidates(pivot).len() as usize;
        if n < 2 || n > k + 1 || near.is_some_and(|near| !near.around.contains(pivot)) {
            continue;
        }
        cells.push(pivot);
        let union = b.candidates(pivot);
        extend_set(
            b,
            (k, bivalue, changed, near),
            &mut cells,
            union,
            &mut found,
        );
        cells.pop();
    }
    found.sort_by(|x, y| {
        (x.difficulty, Reverse(x.count), Reverse(&x.suffix)).cmp(&(
            y.difficulty,
            Reverse(y.count),
            Reverse(&y.suffix),
        ))
    });
    for f in found {
        sink.push(f.step)?;
    }
    ControlFlow::Continue(())
}

/// With no changed bivalue cell, a wing must hold a changed cell in its set (see
/// `als_wings_near`); the set's cells, all peers of each other, then lie among the changed cells
/// and their peers.
#[derive(Clone, Copy)]
struct MustTouch<const W: usize> {
    changed: CellSet<W>,
    around: CellSet<W>,
}

fn must_touch<const W: usize>(
    b: &Board<'_, W>,
    changed: &CellSet<W>,
    bivalue: CellSet<W>,
) -> Option<MustTouch<W>> {
    if bivalue.intersects(changed) {
        return None;
    }
    let mut around = *changed;
    for c in changed.iter() {
        around |= b.peers(c);
    }
    Some(MustTouch {
        changed: *changed,
        around,
    })
}

/// The grid's bivalue cells, the cells that changed (see `als_wings_near`), and what follows
/// for the set when no bivalue cell changed.
type Scope<'c, const W: usize> = (
    usize,
    CellSet<W>,
    Option<&'c CellSet<W>>,
    Option<MustTouch<W>>,
);

/// Grows the set in `cells` to `k` cells.
fn extend_set<const W: usize>(
    b: &Board<'_, W>,
    (k, bivalue, changed, near): Scope<W>,
    cells: &mut Vec<usize>,
    union: Digits,
    found: &mut Vec<Found>,
) {
    if cells.len() == k {
        let unchanged = changed.filter(|ch| cells.iter().all(|&c| !ch.contains(c)));
        let bivalue = unchanged.map_or(bivalue, |ch| bivalue & *ch);
        if !bivalue.is_empty() {
            bivalue_cells(b, cells, union, bivalue, found);
        }
        return;
    }
    let last = *cells.last().expect("a pivot");
    let mut next = b.empty_cells();
    for &c in cells.iter() {
        next &= b.peers(c);
    }
    let last_one = cells.len() + 1 == k;
    if let Some(near) = near {
        if !cells.iter().any(|&c| near.changed.contains(c)) {
            next &= if last_one { near.changed } else { near.around };
        }
    }
    for c in next.iter().filter(|&c| c > last) {
        let digits = b.candidates(c);
        let joined = (union | digits).len() as usize;
        let fits = if last_one {
            joined == k + 1
        } else {
            joined < k + 2
        };
        if digits.len() < 2 || !fits {
            continue;
        }
        cells.push(c);
        extend_set(b, (k, bivalue, changed, near), cells, union | digits, found);
        cells.pop();
    }
}

/// The WXYZ- and VWXYZ-wings of one almost locked set `als` (three or four cells holding
/// `union`): each bivalue cell around it that closes a wing, its eliminations, rating and step.
// Over 80 lines: Sukaku Explainer's test for one candidate wing, kept in its order (restricted
// digits, then eliminations by kind, then rating and wording): its closures share the set, the
// bivalue cell and its two digits, which split functions would pass around by the handful.
fn bivalue_cells<const W: usize>(
    b: &Board<'_, W>,
    als: &[usize],
    union: Digits,
    bivalue: CellSet<W>,
    found: &mut Vec<Found>,
) {
    let als_set: CellSet<W> = als.iter().copied().collect();
    let mut around = CellSet::EMPTY;
    for &c in als {
        around |= b.peers(c);
    }
    around = (around - als_set) & bivalue;
    for yz in around.iter() {
        let pair = b.candidates(yz);
        if pair.len() != 2 || (pair & union).len() != 2 {
            continue;
        }
        let mut it = pair.iter();
        let (x, z) = (it.next().unwrap_or(0), it.next().unwrap_or(0));
        let holding =
            |d: u8| -> CellSet<W> { als.iter().filter(|&&c| b.has(c, d)).copied().collect() };
        let restricted = |d: u8| holding(d).is_subset(&b.peers(yz));
        // Cells seeing every cell of `group` (and the bivalue cell when `with_yz`).
        let seeing = |group: CellSet<W>, with_yz: bool| -> CellSet<W> {
            let mut s = b.common_peers(group);
            if with_yz {
                s &= b.peers(yz);
            }
            s - als_set - CellSet::single(yz)
        };
        let mut eliminations = Vec::new();
        let take = |d: u8, cells: CellSet<W>, into: &mut Vec<Candidate>| -> bool {
            let hits = cells & b.places(d);
            into.extend(hits.iter().map(|c| Candidate::new(c, d)));
            !hits.is_empty()
        };
        let (rx, rz) = (restricted(x), restricted(z));
        let double = match (rx, rz) {
            (true, false) => {
                take(z, seeing(holding(z), true), &mut eliminations);
                false
            }
            (false, true) => {
                take(x, seeing(holding(x), true), &mut eliminations);
                false
            }
            (true, true) => {
                let mut weak = false;
                for w in (union & !pair).iter() {
                    weak |= take(w, seeing(holding(w), false), &mut eliminations);
                }
                let strong_x = take(x, seeing(holding(x), true), &mut eliminations);
                let strong_z = take(z, seeing(holding(z), true), &mut eliminations);
                weak || (strong_z && strong_x)
            }
            (false, false) => continue,
        };
        if eliminations.is_empty() {
            continue;
        }
        eliminations.sort_unstable();
        let largest = als
            .iter()
            .map(|&c| b.candidates(c).len())
            .max()
            .unwrap_or(0) as i32;
        let total: u32 = als.iter().map(|&c| b.candidates(c).len()).sum();
        let (technique, difficulty) = if als.len() == 3 {
            let tenths = 55 + (1 - (3 - largest).abs());
            (Technique::WxyzWing, Difficulty(tenths as u16))
        } else {
            let tenths = 62 + (2 - (3 - largest).abs());
            (Technique::VwxyzWing, Difficulty(tenths as u16))
        };
        let suffix = format!("{}{largest}{total}", if double { 2 } else { 1 });
        let restricted_text = match (rx, double) {
            (_, true) => format!("doubly linked on {} and {}", digit_char(x), digit_char(z)),
            (true, false) => format!("restricted common {}", digit_char(x)),
            (false, false) => format!("restricted common {}", digit_char(z)),
        };
        let set_text: Vec<String> = als
            .iter()
            .map(|&c| format!("{} {}", b.geo.cell_name(c), b.candidates(c)))
            .collect();
        let text = format!(
            "{technique}: cells {} hold {} digits {union}, with bivalue {} {pair}, {restricted_text}: {}",
            set_text.join(", "),
            union.len(),
            b.geo.cell_name(yz),
            say::eliminations(b.geo, &eliminations),
        );
        let count = eliminations.len();
        let mut pattern: Vec<u16> = als.iter().map(|&c| c as u16).collect();
        pattern.push(yz as u16);
        found.push(Found {
            difficulty,
            count,
            suffix,
            step: Step {
                technique,
                difficulty,
                placements: Vec::new(),
                eliminations,
                cells: pattern,
                units: Vec::new(),
                digits: union,
                text,
            },
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{geometry, Size, Variant};
    use crate::logic::fixtures::{first, keep, removed};
    use crate::logic::single_digit::se_cases::text_of;

    #[test]
    fn wings_are_told_in_words() {
        assert_eq!(
            text_of(92),
            "XY-wing: pivot F7 {4, 7}, pincers E8 {3, 7} and F3 {3, 4}: 3 leaves F8"
        );
        assert_eq!(
            text_of(96),
            "XYZ-wing: pivot A8 {3, 4, 6}, pincers A9 {4, 6} and D8 {3, 6}: 6 leaves B8"
        );
        assert_eq!(
            text_of(77),
            "WXYZ-wing: cells G2 {1, 2}, H3 {1, 5}, I3 {3, 5} hold 4 digits {1, 2, 3, 5}, with \
             bivalue G5 {2, 3}, restricted common 2: 3 leaves G1"
        );
        assert_eq!(
            text_of(66),
            "VWXYZ-wing: cells A2 {4, 7}, E2 {2, 6}, F2 {1, 4}, H2 {1, 6} hold 5 digits \
             {1, 2, 4, 6, 7}, with bivalue E7 {2, 7}, restricted common 2: 7 leaves A7"
        );
    }

    #[test]
    fn a_w_wing() {
        use crate::logic::fixtures::{at, only_in};
        let geo = geometry(Size::NINE, Variant::Classic);
        let mut b = Board::<2>::new(geo, &[0; 81]);
        let [a5, e1, c1, c5] = ["A5", "E1", "C1", "C5"].map(|n| at(&b, n));
        keep(&mut b, a5, &[3, 9]);
        keep(&mut b, e1, &[3, 9]);
        only_in(&mut b, 9, 2, &[c1, c5]); // row C
        let step = first(&b, w_wings).expect("a W-wing");
        assert_eq!(removed(&b, &step), ["A1-3", "E5-3"]);
        assert_eq!(
            step.text,
            "W-wing: A5 and E1 hold {3, 9} and are joined by a strong link on 9 in row C \
             (C5, C1), so one of them is 3: 3 leaves A1, E5"
        );
        assert_eq!(step.difficulty, Difficulty(44));
    }

    #[test]
    fn a_w_wing_linked_along_a_diagonal() {
        use crate::logic::fixtures::{at, only_in};
        // A2 and H9 hold {1, 2}; on the diagonal, 2 is only in B2 (seen by A2) and H8 (seen by
        // H9). The classic board has no such link.
        for (variant, expected) in [
            (Variant::Diagonal, vec!["A9-1", "H2-1"]),
            (Variant::Classic, vec![]),
        ] {
            let geo = geometry(Size::NINE, variant);
            let mut b = Board::<2>::new(geo, &[0; 81]);
            let [a2, h9, b2, h8] = ["A2", "H9", "B2", "H8"].map(|n| at(&b, n));
            keep(&mut b, a2, &[1, 2]);
            keep(&mut b, h9, &[1, 2]);
            for i in 0..9 {
                if ![b2, h8].contains(&(i * 10)) {
                    b.eliminate(i * 10, 2);
                }
            }
            if variant == Variant::Diagonal {
                only_in(&mut b, 2, 27, &[b2, h8]);
            }
            let found = first(&b, w_wings)
                .map(|s| removed(&b, &s))
                .unwrap_or_default();
            assert_eq!(found, expected, "{variant:?}");
        }
    }

    #[test]
    fn a_w_wing_on_a_6x6_through_a_box() {
        use crate::logic::fixtures::{at, only_in};
        // 6×6, boxes of 2×3. A1 and D6 hold {4, 5}; in box 2 (A4–B6), 5 is only in A4 (seen by
        // A1) and B6 (seen by D6): 4 leaves A6 and D1.
        let geo = geometry(Size::from_side(6).expect("6×6"), Variant::Classic);
        let mut b = Board::<2>::new(geo, &[0; 36]);
        let [a1, d6, a4, b6] = ["A1", "D6", "A4", "B6"].map(|n| at(&b, n));
        keep(&mut b, a1, &[4, 5]);
        keep(&mut b, d6, &[4, 5]);
        only_in(&mut b, 5, 12 + 1, &[a4, b6]);
        let step = first(&b, w_wings).expect("a W-wing");
        assert_eq!(removed(&b, &step), ["A6-4", "D1-4"]);
    }

    #[test]
    fn an_xy_wing_through_a_diagonal() {
        // Pivot A1 {1, 2}, pincers I9 {2, 3} (on the diagonal) and A5 {1, 3}: A9, E5 and I5 see
        // both pincers and lose 3 — on a diagonal board only.
        let xy = |b: &Board<'_, 2>, sink: &mut Sink| xy_wings(b, false, sink);
        for (variant, expected) in [
            (Variant::Diagonal, vec!["A9-3", "E5-3", "I5-3"]),
            (Variant::Classic, vec![]),
        ] {
            let geo = geometry(Size::NINE, variant);
            let mut b = Board::<2>::new(geo, &[0; 81]);
            keep(&mut b, 0, &[1, 2]);
            keep(&mut b, 80, &[2, 3]);
            keep(&mut b, 4, &[1, 3]);
            let found = first(&b, xy).map(|s| removed(&b, &s)).unwrap_or_default();
            assert_eq!(found, expected, "{variant:?}");
        }
    }

    #[test]
    fn an_xyz_wing_on_a_6x6() {
        let geo = geometry(Size::from_side(6).expect("6×6"), Variant::Classic);
        let mut b = Board::<2>::new(geo, &[0; 36]);
        // Pivot B2 {1, 2, 4}, pincers A1 {1, 4} (box) and B5 {2, 4} (row): 4 leaves the cells
        // seeing all three, the rest of row B in the pivot's box: B1, B3.
        keep(&mut b, 7, &[1, 2, 4]);
        keep(&mut b, 0, &[1, 4]);
        keep(&mut b, 10, &[2, 4]);
        let xyz = |b: &Board<'_, 2>, sink: &mut Sink| xy_wings(b, true, sink);
        let step = first(&b, xyz).expect("an XYZ-wing");
        assert_eq!(removed(&b, &step), ["B1-4", "B3-4"]);
        assert_eq!(step.difficulty, Difficulty(44));
    }

    #[test]
    fn a_wxyz_wing_on_a_16x16() {
        let geo = geometry(Size::from_side(16).expect("16×16"), Variant::Classic);
        let mut b = Board::<10>::new(geo, &[0; 256]);
        // A1 {1, 2}, A2 {2, 3}, A3 {3, 4} hold 1–4; bivalue E1 {1, 4} sees A1 only, so 1 is
        // restricted and 4 leaves the cells seeing E1 and A3: B1, C1, D1 (A3's box, E1's
        // column) and E3–H3 (E1's box, A3's column).
        keep(&mut b, 0, &[1, 2]);
        keep(&mut b, 1, &[2, 3]);
        keep(&mut b, 2, &[3, 4]);
        keep(&mut b, 64, &[1, 4]);
        let step = first(&b, wxyz_wings).expect("a WXYZ-wing");
        let expected = ["B1-4", "C1-4", "D1-4", "E3-4", "F3-4", "G3-4", "H3-4"];
        assert_eq!(removed(&b, &step), expected);
        assert_eq!(step.difficulty, Difficulty(55));
    }
}

#[cfg(test)]
mod random_boards {
    use super::*;
    use crate::logic::fixtures::{assert_sound, thinned_boards, OnBoard};
    use crate::logic::single_digit::{strong_links, turbot_fish};

    /// Counts the steps of the wing and strong-link finders, each checked against the solution.
    struct Wings(usize);

    impl OnBoard for Wings {
        fn board<const W: usize>(&mut self, b: &Board<'_, W>, solution: &[u8], what: &str) {
            let mut sink = Sink::all();
            let _ = xy_wings(b, false, &mut sink);
            let _ = xy_wings(b, true, &mut sink);
            let _ = wxyz_wings(b, &mut sink);
            let _ = vwxyz_wings(b, &mut sink);
            let _ = turbot_fish(b, &mut sink);
            let _ = strong_links(b, 3, &mut sink);
            assert_sound(&sink.steps, solution, what);
            self.0 += sink.steps.len();
        }
    }

    /// Boards cut from a solved grid, with random wrong candidates removed: whatever a finder
    /// removes, the solution's digit must stay. Every size and both variants.
    #[test]
    fn eliminations_keep_the_solution_on_every_size() {
        let mut wings = Wings(0);
        let boards = |side| match side {
            16 => 1,
            12 => 3,
            _ => 10,
        };
        thinned_boards(0x9e37_79b9_7f4a_7c15, boards, &mut wings);
        assert!(wings.0 > 0, "no pattern at all");
    }
}
