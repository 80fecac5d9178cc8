//! Fish: `k` rows in which a digit's places all fall in the same `k` columns (or the other way
//! round). Each of those rows takes the digit once, so the `k` columns are filled by them and the
//! digit leaves every other cell of those columns. Two lines make an X-wing, three a swordfish,
//! four a jellyfish.

use std::ops::ControlFlow;

use super::board::Board;
use super::cells::CellSet;
use super::step::{say, Candidate, Difficulty, Step, Technique};
use super::{combinations, Sink};
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
pub struct Fish<const W: usize> {
    pub digit: u8,
    /// True when the base lines are rows.
    pub rows: bool,
    /// Indices of the base and cover lines (row or column numbers from 0).
    pub base: Vec<usize>,
    pub cover: Vec<usize>,
    pub cells: CellSet<W>,
    pub targets: CellSet<W>,
}

/// Every basic fish of `size` lines, in Sukaku Explainer's order: columns as base first, then
/// rows; base lines in colexicographic order; then digit.
pub fn fishes<const W: usize>(
    b: &Board<W>,
    size: usize,
    mut found: impl FnMut(Fish<W>) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let n = b.side();
    // Sukaku Explainer skips a digit placed so often that fewer than 2·size lines remain open.
    let placed: Vec<usize> = (1..=n as u8)
        .map(|d| b.values().iter().filter(|&&v| v == d).count())
        .collect();
    let lines: Vec<usize> = (0..n).collect();
    for rows in [false, true] {
        // Units 0..n are rows, n..2n columns (see `Geometry::build`).
        let (base_units, cover_units) = if rows { (0, n) } else { (n, 0) };
        combinations(&lines, size, |base| {
            for digit in 1..=n as u8 {
                if placed[digit as usize - 1] + 2 * size > n {
                    continue;
                }
                let mut cells = CellSet::EMPTY;
                for &i in base {
                    let places = b.places_in(digit, base_units + i);
                    if places.len() < 2 {
                        cells = CellSet::EMPTY;
                        break;
                    }
                    cells |= places;
                }
                if cells.is_empty() {
                    continue;
                }
                let cover: Vec<usize> = (0..n)
                    .filter(|&j| cells.intersects(&b.unit(cover_units + j)))
                    .collect();
                if cover.len() != size {
                    continue;
                }
                let covered = cover
                    .iter()
                    .fold(CellSet::EMPTY, |s, &j| s | b.unit(cover_units + j));
                let targets = (b.places(digit) & covered) - cells;
                if targets.is_empty() {
                    continue;
                }
                let base = base.to_vec();
                found(Fish {
                    digit,
                    rows,
                    base,
                    cover,
                    cells,
                    targets,
                })?;
            }
            ControlFlow::Continue(())
        })?;
    }
    ControlFlow::Continue(())
}

pub fn basic_fish<const W: usize>(b: &Board<W>, size: usize, sink: &mut Sink) -> ControlFlow<()> {
    fishes(b, size, |f| sink.push(fish_step(b, size, &f)))
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

fn fish_step<const W: usize>(b: &Board<W>, size: usize, f: &Fish<W>) -> Step {
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

    #[test]
    fn lines_are_named_in_a_list() {
        assert_eq!(line_names(true, &[1, 7]), "rows B and H");
        assert_eq!(line_names(false, &[1, 6, 8]), "columns 2, 7 and 9");
    }
}
