//! The sentence of a chaining step: the chains as `E5=7 → E1≠7 → E1=3 → …`, and what follows.

use super::super::board::Board;
use super::super::step::{say as words, Candidate, Technique};
use super::hint::{Hint, Kind};
use crate::grid::digit_char;

fn potential<const W: usize>(b: &Board<'_, W>, pot: u32) -> String {
    let n = b.side();
    let cell = pot as usize / 2 / n;
    let digit = (pot as usize / 2 % n) as u8 + 1;
    let sign = if pot & 1 == 1 { "=" } else { "≠" };
    format!("{}{sign}{}", b.geo.cell_name(cell), digit_char(digit))
}

fn chain<const W: usize>(b: &Board<'_, W>, path: &[u32]) -> String {
    let nodes: Vec<String> = path.iter().map(|&p| potential(b, p)).collect();
    nodes.join(" → ")
}

pub(super) fn say<const W: usize>(
    b: &Board<'_, W>,
    hint: &Hint,
    technique: Technique,
    placements: &[Candidate],
    eliminations: &[Candidate],
) -> String {
    let result = match placements.first() {
        Some(p) => format!(
            "{} is {}",
            b.geo.cell_name(p.cell as usize),
            digit_char(p.digit)
        ),
        None => words::eliminations(b.geo, eliminations),
    };
    let n = b.side();
    let source_cell = hint.source as usize / 2 / n;
    let source_digit = (hint.source as usize / 2 % n) as u8 + 1;
    let paths: Vec<String> = hint.paths.iter().map(|p| chain(b, p)).collect();
    match hint.kind {
        Kind::Cycle { .. } => format!("{technique}: {}, a loop, so {result}", paths[0]),
        Kind::Forcing { .. } => format!(
            "{technique}: {}, the assumption contradicts itself, so {result}",
            paths[0]
        ),
        Kind::Binary { absurd: true } => format!(
            "{technique}: {} and {}, a contradiction, so {result}",
            paths[0],
            paths.get(1).map_or("", String::as_str)
        ),
        Kind::Binary { absurd: false } => format!(
            "{technique}: {}; and {}: both ways, {result}",
            paths[0],
            paths.get(1).map_or("", String::as_str)
        ),
        Kind::Cell => format!(
            "{technique}: whichever digit {} holds ({}), {result}",
            b.geo.cell_name(source_cell),
            paths.join("; ")
        ),
        Kind::Region { unit } => format!(
            "{technique}: wherever {} goes in {} ({}), {result}",
            digit_char(source_digit),
            b.geo.unit_name(unit as usize),
            paths.join("; ")
        ),
    }
}
