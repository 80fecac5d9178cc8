//! Fish: `k` rows in which a digit's places all fall in the same `k` columns (or the other way
//! round). Each of those rows takes the digit once, so the `k` columns are filled by them and the
//! digit leaves every other cell of those columns. Two lines make an X-wing, three a swordfish,
//! four a jellyfish.

use std::ops::ControlFlow;

use super::board::Board;
use super::step::{say, Candidate, Difficulty, Step, Technique};
use super::{combinations, DigitScope, Sink};
use crate::cells::CellSet;
use crate::engine::Digits;
use crate::grid::{digit_char, row_letter};

fn technique(size: usize) -> Technique {
    match size {
        2 => Technique::XWing,
        3 => Technique::Swordfish,
        _ => Technique::Jellyfish,
    }
}

/// Sudoku Explainer: X-wing 3.2, swordfish 3.8, jellyfish 5.2.
fn difficulty(size: usize) -> Difficulty {
    Difficulty(match size {
        2 => 32,
        3 => 38,
        _ => 52,
    })
}

/// A basic fish: the digit's places in the `base` lines lie in the `cover` lines.
pub(crate) struct Fish<const W: usize> {
    pub digit: u8,
    /// True when the base lines are rows.
    pub rows: bool,
    /// Indices of the base and cover lines (row or column numbers from 0).
    pub base: Vec<usize>,
    pub cover: Vec<usize>,
    pub cells: CellSet<W>,
    pub targets: CellSet<W>,
}

/// For each digit (but those of `skip`) and base line, the cover lines its places meet, as bits
/// at `(digit - 1) * n + line`: worked out once rather than for every set of base lines. Also,
/// for each digit, the base lines where it has two places or more, as bits: a set of base lines
/// is a fish's only where it has, so most sets are passed over with one test.
fn cover_masks<const W: usize>(b: &Board<'_, W>, rows: bool, skip: Digits) -> (Vec<u64>, Vec<u64>) {
    let n = b.side();
    let base_units = if rows { 0 } else { n };
    let cover_of = |c: usize| {
        if rows {
            b.geo.column_of(c)
        } else {
            b.geo.row_of(c)
        }
    };
    let mut meets = vec![0u64; n * n];
    let mut open = vec![0u64; n];
    for digit in (1..=n as u8).filter(|&d| !skip.contains(d)) {
        for i in 0..n {
            let places = b.places_in(digit, base_units + i);
            meets[(digit as usize - 1) * n + i] =
                places.iter().fold(0, |m, c| m | 1 << cover_of(c));
            if places.len() >= 2 {
                open[digit as usize - 1] |= 1 << i;
            }
        }
    }
    (meets, open)
}

/// Every basic fish of `size` lines, in Sukaku Explainer's order: columns as base first, then
/// rows; base lines in colexicographic order; then digit.
///
/// Searched digit by digit, each over the base lines where it has two places or more (most sets
/// of lines have a line where it has fewer, and are never tried), then handed on in that order:
/// colexicographic order is the order of the base lines' bits as numbers.
pub(crate) fn fishes<const W: usize>(
    b: &Board<'_, W>,
    size: usize,
    skip: Digits,
    mut found: impl FnMut(Fish<W>) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let n = b.side();
    // Sukaku Explainer skips a digit placed so often that fewer than 2·size lines remain open.
    let placed: Vec<usize> = (1..=n as u8)
        .map(|d| b.values().iter().filter(|&&v| v == d).count())
        .collect();
    let mut fish: Vec<(u64, Fish<W>)> = Vec::new();
    for rows in [false, true] {
        let (meets, open) = cover_masks(b, rows, skip);
        for digit in 1..=n as u8 {
            if placed[digit as usize - 1] + 2 * size > n || skip.contains(digit) {
                continue;
            }
            let mut lines = [0usize; 25];
            let mut count = 0;
            let mut bits = open[digit as usize - 1];
            while bits != 0 {
                lines[count] = bits.trailing_zeros() as usize;
                count += 1;
                bits &= bits - 1; // drop the lowest set bit
            }
            let _ = combinations(&lines[..count], size, |base| {
                let met = base
                    .iter()
                    .fold(0u64, |m, &i| m | meets[(digit as usize - 1) * n + i]);
                if met.count_ones() as usize == size {
                    if let Some(f) = fish_on(b, (digit, rows), base, met) {
                        fish.push((base.iter().fold(0u64, |m, &i| m | 1 << i), f));
                    }
                }
                ControlFlow::Continue(())
            });
        }
        // By base lines, then digit (each digit was searched in turn): the order of the search.
        fish.sort_by_key(|(lines, f)| (*lines, f.digit));
        for (_, f) in fish.drain(..) {
            found(f)?;
        }
    }
    ControlFlow::Continue(())
}

/// The fish of `digit` on base lines `base` (rows when `rows`), its places meeting exactly the
/// cover lines `met` (as bits), if it removes anything.
fn fish_on<const W: usize>(
    b: &Board<'_, W>,
    (digit, rows): (u8, bool),
    base: &[usize],
    met: u64,
) -> Option<Fish<W>> {
    let n = b.side();
    // Units 0..n are rows, n..2n columns (see `Geometry::build`).
    let (base_units, cover_units) = if rows { (0, n) } else { (n, 0) };
    let cells = base.iter().fold(CellSet::EMPTY, |s, &i| {
        s | b.places_in(digit, base_units + i)
    });
    let cover: Vec<usize> = (0..n).filter(|&j| met >> j & 1 == 1).collect();
    let covered = cover
        .iter()
        .fold(CellSet::EMPTY, |s, &j| s | b.unit(cover_units + j));
    let targets = (b.places(digit) & covered) - cells;
    if targets.is_empty() {
        return None;
    }
    Some(Fish {
        digit,
        rows,
        base: base.to_vec(),
        cover,
        cells,
        targets,
    })
}

pub(crate) fn basic_fish<const W: usize>(
    b: &Board<'_, W>,
    size: usize,
    scope: &mut DigitScope,
    sink: &mut Sink,
) -> ControlFlow<()> {
    let mut any = false;
    let flow = fishes(b, size, scope.skip, |f| {
        any = true;
        sink.push(fish_step(b, size, &f))
    });
    if !any {
        scope.nothing = Digits::all(b.side());
    }
    flow
}

/// Finned and sashimi fish (HoDoKu's, which Sudoku Explainer does not name): `size` base rows
/// whose places of the digit all lie in `size` cover columns but for some *fins*, all in one
/// box (or the other way round). Either a fin holds the digit, or the body is a basic fish;
/// both ways the digit leaves the cells of the cover lines in the fin's box outside the base
/// lines. The fish is sashimi when some base line has fewer than two places in the covers.
/// Fish keep to rows and columns; the fin's box is a box of any shape.
///
/// Finned X-wing 3.4, swordfish 4.0, jellyfish 5.4, sashimi one tenth more: two tenths above
/// the basic fish, as HoDoKu rates the finned ones above the basic.
///
/// Digits in order, base rows then columns, base lines in colexicographic order, then boxes.
// Over 80 lines: the base lines, the fin's box and the cover lines are one nested search whose
// order HoDoKu fixes (and with it which fish is found first).
pub(crate) fn finned_fish<const W: usize>(
    b: &Board<'_, W>,
    size: usize,
    sink: &mut Sink,
) -> ControlFlow<()> {
    let n = b.side();
    for digit in 1..=n as u8 {
        for rows in [true, false] {
            let (base_units, cover_units) = if rows { (0, n) } else { (n, 0) };
            // The cover lines a set of cells meets, as bits.
            let cover_of = |cell: usize| {
                if rows {
                    b.geo.column_of(cell)
                } else {
                    b.geo.row_of(cell)
                }
            };
            let mask_of = |set: CellSet<W>| set.iter().fold(0u32, |m, c| m | 1 << cover_of(c));
            // A box spans this many cover lines: the most the fins can add but one.
            let span = if rows {
                b.geo.size.box_cols()
            } else {
                b.geo.size.box_rows()
            };
            let lines: Vec<usize> = (0..n)
                .filter(|&i| !b.places_in(digit, base_units + i).is_empty())
                .collect();
            let masks: Vec<u32> = (0..n)
                .map(|i| mask_of(b.places_in(digit, base_units + i)))
                .collect();
            combinations(&lines, size, |base| {
                let hit = base.iter().fold(0u32, |m, &i| m | masks[i]);
                if hit.count_ones() as usize > size + span - 1 {
                    return ControlFlow::Continue(());
                }
                let cells = base.iter().fold(CellSet::EMPTY, |s, &i| {
                    s | b.places_in(digit, base_units + i)
                });
                let base_cells = base
                    .iter()
                    .fold(CellSet::EMPTY, |s, &i| s | b.unit(base_units + i));
                for &bx in &b.layout().boxes {
                    let in_box = cells & b.unit(bx);
                    if in_box.is_empty() {
                        continue;
                    }
                    let outside = cells - b.unit(bx);
                    let lines_of = |set: CellSet<W>| -> Vec<usize> {
                        let mask = mask_of(set);
                        (0..n).filter(|&j| mask >> j & 1 != 0).collect()
                    };
                    let fixed = lines_of(outside);
                    if fixed.len() > size {
                        continue;
                    }
                    let more: Vec<usize> = lines_of(in_box)
                        .into_iter()
                        .filter(|j| !fixed.contains(j))
                        .collect();
                    let mut try_cover = |extra: &[usize]| -> ControlFlow<()> {
                        let mut cover: Vec<usize> = fixed.iter().chain(extra).copied().collect();
                        cover.sort_unstable();
                        let covered = cover
                            .iter()
                            .fold(CellSet::EMPTY, |s, &j| s | b.unit(cover_units + j));
                        let fins = cells - covered;
                        let body = cells & covered;
                        let bodies: Vec<u32> = base
                            .iter()
                            .map(|&i| (body & b.unit(base_units + i)).len())
                            .collect();
                        if fins.is_empty() || bodies.contains(&0) {
                            return ControlFlow::Continue(());
                        }
                        let targets = (b.places(digit) & covered & b.unit(bx)) - base_cells;
                        if targets.is_empty() {
                            return ControlFlow::Continue(());
                        }
                        let sashimi = bodies.iter().any(|&k| k < 2);
                        let fish = Fish {
                            digit,
                            rows,
                            base: base.to_vec(),
                            cover,
                            cells,
                            targets,
                        };
                        sink.push(finned_step(b, size, &fish, fins, bx, sashimi))
                    };
                    let need = size - fixed.len();
                    if need == 0 {
                        try_cover(&[])?;
                    } else {
                        combinations(&more, need, &mut try_cover)?;
                    }
                }
                ControlFlow::Continue(())
            })?;
        }
    }
    ControlFlow::Continue(())
}

fn finned_step<const W: usize>(
    b: &Board<'_, W>,
    size: usize,
    f: &Fish<W>,
    fins: CellSet<W>,
    bx: usize,
    sashimi: bool,
) -> Step {
    let (technique, tenths) = match (size, sashimi) {
        (2, false) => (Technique::FinnedXWing, 34),
        (2, true) => (Technique::SashimiXWing, 35),
        (3, false) => (Technique::FinnedSwordfish, 40),
        (3, true) => (Technique::SashimiSwordfish, 41),
        (_, false) => (Technique::FinnedJellyfish, 54),
        (_, true) => (Technique::SashimiJellyfish, 55),
    };
    let mut step = fish_step(b, size, f);
    let fin_word = if fins.len() == 1 { "fin" } else { "fins" };
    step.text = format!(
        "{technique} on {} in {} ({}), {fin_word} {} in {}: {}",
        digit_char(f.digit),
        line_names(f.rows, &f.base),
        line_names(!f.rows, &f.cover),
        say::cells(b.geo, fins.iter()),
        b.geo.unit_name(bx),
        say::eliminations(b.geo, &step.eliminations),
    );
    step.technique = technique;
    step.difficulty = Difficulty(tenths);
    step.units.push(bx as u16);
    step
}

fn line_names(rows: bool, lines: &[usize]) -> String {
    let names: Vec<String> = lines
        .iter()
        .map(|&i| {
            if rows {
                row_letter(i).to_string()
            } else {
                (i + 1).to_string()
            }
        })
        .collect();
    let kind = if rows { "rows" } else { "columns" };
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{kind} {} and {last}", rest.join(", ")),
        _ => format!("{kind} {}", names.join("")),
    }
}

fn fish_step<const W: usize>(b: &Board<'_, W>, size: usize, f: &Fish<W>) -> Step {
    let technique = technique(size);
    let eliminations: Vec<Candidate> = f
        .targets
        .iter()
        .map(|c| Candidate::new(c, f.digit))
        .collect();
    let text = format!(
        "{technique} on {} in {} ({}): {}",
        digit_char(f.digit),
        line_names(f.rows, &f.base),
        line_names(!f.rows, &f.cover),
        say::eliminations(b.geo, &eliminations),
    );
    let n = b.side();
    let (base_units, cover_units) = if f.rows { (0, n) } else { (n, 0) };
    let units = f
        .base
        .iter()
        .map(|&i| base_units + i)
        .chain(f.cover.iter().map(|&j| cover_units + j))
        .map(|u| u as u16)
        .collect();
    Step {
        technique,
        difficulty: difficulty(size),
        placements: Vec::new(),
        eliminations,
        cells: f.cells.iter().map(|c| c as u16).collect(),
        units,
        digits: Digits::single(f.digit),
        text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::grid::{geometry, Size, Variant};
    use crate::logic::fixtures::{at, only_in, removed};

    fn finned<const W: usize>(b: &Board<'_, W>, size: usize) -> Vec<Step> {
        let mut sink = Sink::all();
        let _ = finned_fish(b, size, &mut sink);
        sink.steps
    }

    /// 5 in row B only at B2, B7, in row H at H2 and `h_places`.
    fn board(h_places: &[&str]) -> Board<'static, 2> {
        let geo = geometry(Size::NINE, Variant::Classic);
        let mut b = Board::<2>::new(geo, &[0; 81]);
        let row_b = ["B2", "B7"].map(|n| at(&b, n));
        let row_h: Vec<usize> = h_places.iter().map(|n| at(&b, n)).collect();
        only_in(&mut b, 5, 1, &row_b);
        only_in(&mut b, 5, 7, &row_h);
        b
    }

    #[test]
    fn a_finned_x_wing() {
        let b = board(&["H2", "H7", "H8"]);
        let steps = finned(&b, 2);
        assert_eq!(steps.len(), 1);
        assert_eq!(removed(&b, &steps[0]), ["G7-5", "I7-5"]);
        assert_eq!(
            steps[0].text,
            "Finned X-wing on 5 in rows B and H (columns 2 and 7), fin H8 in box 9: 5 leaves G7, I7"
        );
        assert_eq!(steps[0].difficulty, Difficulty(34));
    }

    #[test]
    fn a_sashimi_x_wing() {
        let b = board(&["H2", "H8"]);
        let steps = finned(&b, 2);
        let step = steps
            .iter()
            .find(|s| s.technique == Technique::SashimiXWing && s.text.contains("fin H8"))
            .expect("a sashimi X-wing");
        assert_eq!(removed(&b, step), ["G7-5", "I7-5"]);
        assert_eq!(step.difficulty, Difficulty(35));
    }

    #[test]
    fn a_finned_swordfish_on_a_16x16() {
        // Columns 1, 5 and 9 hold 3 only in rows A, D and G, but for a fin at B9, in box 3
        // (rows A–D, columns 9–12), which meets the cover rows A and D.
        let geo = geometry(Size::from_side(16).expect("16×16"), Variant::Classic);
        let mut b = Board::<10>::new(geo, &[0; 256]);
        let col = |c: usize| 16 + c;
        let cells = |b: &Board<'_, 10>, names: &[&str]| -> Vec<usize> {
            names.iter().map(|n| at(b, n)).collect()
        };
        let c1 = cells(&b, &["A1", "D1", "G1"]);
        let c5 = cells(&b, &["A5", "G5"]);
        let c9 = cells(&b, &["A9", "D9", "B9"]);
        only_in(&mut b, 3, col(0), &c1);
        only_in(&mut b, 3, col(4), &c5);
        only_in(&mut b, 3, col(8), &c9);
        let steps = finned(&b, 3);
        let step = steps
            .iter()
            .find(|s| s.technique == Technique::FinnedSwordfish)
            .expect("a finned swordfish");
        assert_eq!(
            removed(&b, step),
            ["A10-3", "A11-3", "A12-3", "D10-3", "D11-3", "D12-3"]
        );
        assert!(step.text.contains("fin B9 in box 3"), "{}", step.text);
    }

    #[test]
    fn lines_are_named_in_a_list() {
        assert_eq!(line_names(true, &[1, 7]), "rows B and H");
        assert_eq!(line_names(false, &[1, 6, 8]), "columns 2, 7 and 9");
    }
}
