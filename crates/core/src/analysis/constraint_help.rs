//! What hover says about one constraint line: what the constraint means, in a sentence, and
//! what it allows now — a cage's digit combinations (the "killer combinations" solvers look up),
//! all of them and those its cells' candidates still allow, and each of its cells' candidates
//! under the rules (a thermometer's or an arrow's ranges, a line's digits).

use super::wording::{and_list, digit_list};
use crate::engine::variant;
use crate::format::Puzzle;
use crate::grid::{digit_char, Geometry};
use crate::rules::{cage_combinations, Dot, Index, Kind};

/// A constraint explained, for hover.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConstraintHelp {
    /// "cage 15 at A1 A2 B1", or a whole-grid rule's name ("anti-knight").
    pub heading: String,
    /// What it says: "Its 3 digits differ and sum to 15."
    pub meaning: String,
    /// A cage's combinations: every set of different digits of its size with its sum, and
    /// those its cells' candidates still allow ("1 5 9", …); empty for other constraints.
    pub combinations: Vec<String>,
    pub allowed: Vec<String>,
    /// Each named cell with its candidates under the rules ("A1 1–4") or its digit ("A2 = 7");
    /// empty for a rule of the whole grid.
    pub cells: Vec<String>,
}

/// The constraint `index` of `puzzle`'s rules explained; `None` when there is no such
/// constraint.
pub fn explain_constraint(puzzle: &Puzzle, index: usize) -> Option<ConstraintHelp> {
    let rules = puzzle.rules.as_deref()?;
    let constraint = rules.constraints.get(index)?;
    let geometry = &puzzle.geometry();
    let named: Vec<usize> = constraint
        .named_cells()
        .iter()
        .map(|&c| c as usize)
        .collect();
    let names: Vec<String> = named.iter().map(|&c| geometry.cell_name(c)).collect();
    let heading = match names.is_empty() {
        true => constraint.name(),
        false => format!("{} at {}", constraint.name(), names.join(" ")),
    };
    // The rules' pencil marks, as `marks` fills them in (`None`: some cell has none left).
    let masks = variant::candidates(geometry, rules, &puzzle.givens);
    let cells = named
        .iter()
        .map(|&c| match (puzzle.givens[c], &masks) {
            (0, Some(masks)) => format!("{} {}", geometry.cell_name(c), digit_list(masks[c])),
            (0, None) => format!("{} (no candidate left)", geometry.cell_name(c)),
            (d, _) => format!("{} = {}", geometry.cell_name(c), digit_char(d)),
        })
        .collect();
    let (mut combinations, mut allowed) = (Vec::new(), Vec::new());
    if let Kind::Cage { sum, cells: cage } = &constraint.kind {
        let side = geometry.side();
        let any = vec![full(side); cage.len()];
        combinations = cage_combinations(side, *sum, &any)
            .into_iter()
            .map(spaced_digits)
            .collect();
        if let Some(masks) = &masks {
            let now: Vec<u16> = cage
                .iter()
                .map(|&c| match puzzle.givens[c as usize] {
                    0 => masks[c as usize],
                    d => 1 << (d - 1),
                })
                .collect();
            allowed = cage_combinations(side, *sum, &now)
                .into_iter()
                .map(spaced_digits)
                .collect();
        }
    }
    Some(ConstraintHelp {
        heading,
        meaning: meaning(&constraint.kind, geometry, &names),
        combinations,
        allowed,
        cells,
    })
}

fn full(side: usize) -> u16 {
    ((1u32 << side) - 1) as u16
}

/// A combination as solvers write it: "1 5 9".
pub fn spaced_digits(set: u16) -> String {
    let digits: Vec<String> = (1..=16u8)
        .filter(|d| set >> (d - 1) & 1 == 1)
        .map(|d| digit_char(d).to_string())
        .collect();
    digits.join(" ")
}

/// What a constraint says, in a sentence, with its cells' names (`names`, as `named_cells`).
fn meaning(kind: &Kind, geometry: &Geometry, names: &[String]) -> String {
    let n = names.len();
    let side = geometry.side();
    let first = names.first().map(String::as_str).unwrap_or("");
    let last = names.last().map(String::as_str).unwrap_or("");
    match kind {
        Kind::AntiKnight => "Cells a knight's move apart hold different digits.".into(),
        Kind::AntiKing => {
            "Cells a king's move apart (touching, diagonally too) hold different digits.".into()
        }
        Kind::NonConsecutive => {
            "Orthogonal neighbours never hold consecutive digits (unless a white dot joins them)."
                .into()
        }
        Kind::Negative { kinds } => {
            let listed: Vec<&str> = Dot::ALL
                .iter()
                .filter(|d| kinds & d.bit() != 0)
                .map(|d| match d {
                    Dot::White => "white (consecutive)",
                    Dot::Black => "black (one double the other)",
                    Dot::X => "X (sum 10)",
                    Dot::V => "V (sum 5)",
                })
                .collect();
            format!(
                "Every {} dot is given: orthogonal neighbours without one do not hold such a pair.",
                and_list(&listed)
            )
        }
        Kind::ExtraRegion(_) => format!("Its {n} cells hold different digits, as a house's do."),
        Kind::Cage { sum: Some(sum), .. } if n == 1 => format!("Its one cell holds {sum}."),
        Kind::Cage { sum: Some(sum), .. } => {
            format!("Its {n} digits differ and sum to {sum}.")
        }
        Kind::Cage { sum: None, .. } => format!("Its {n} digits differ."),
        Kind::Arrow { circle, .. } => {
            let shaft_names = names[circle.len()..].join(" ");
            if circle.len() == 1 {
                format!("The digits on the shaft ({shaft_names}) sum to the circle's ({first}).")
            } else {
                let pill = names[..circle.len()].join(" ");
                format!(
                    "The digits on the shaft ({shaft_names}) sum to the number the pill ({pill}) \
                     reads, {first} leading."
                )
            }
        }
        Kind::DoubleArrow(_) => {
            format!("The two ends ({first} and {last}) sum to the digits between them.")
        }
        Kind::LittleKiller { sum, .. } => format!(
            "The {n} digits on the diagonal from {first} to {last} sum to {sum}; they may repeat."
        ),
        Kind::RegionSum(_) => "Each run of the line inside one region sums the same.".into(),
        Kind::Zipper(_) => {
            "Cells equally far from the line's middle sum the same: the middle cell's digit when \
             the line has one."
                .into()
        }
        Kind::Sandwich { sum, .. } => format!(
            "From {first}: the digits between the 1 and the {} sum to {sum}.",
            digit_char(side as u8)
        ),
        Kind::XSum { sum, .. } => format!(
            "From {first}: the first X digits sum to {sum}, X being the first digit ({first}'s)."
        ),
        Kind::Skyscraper { count, .. } => format!(
            "From {first}: {count} digits are seen, a digit being seen when it is higher than \
             every digit before it."
        ),
        Kind::Dot { dot, value, .. } => match (dot, value) {
            (Dot::White, 1) => format!("{first} and {last} hold consecutive digits."),
            (Dot::White, v) => format!("{first} and {last} differ by {v}."),
            (Dot::Black, 2) => format!("One of {first} and {last} is double the other."),
            (Dot::Black, v) => format!("One of {first} and {last} is {v} times the other."),
            (Dot::X, _) => format!("{first} and {last} sum to 10."),
            (Dot::V, _) => format!("{first} and {last} sum to 5."),
        },
        Kind::Less(_) => format!("{first} is less than {last}."),
        Kind::Thermo { slow: false, .. } => {
            format!("The digits increase from the bulb ({first}) to {last}.")
        }
        Kind::Thermo { slow: true, .. } => format!(
            "The digits never decrease from the bulb ({first}) to {last}: each is the same as the \
             one before or higher."
        ),
        Kind::Whisper { gap, .. } => {
            format!("Neighbours on the line differ by at least {gap}.")
        }
        Kind::Renban(_) => {
            format!("Its {n} digits differ and make a run of consecutive digits, in any order.")
        }
        Kind::Palindrome(_) => "The line reads the same from either end.".into(),
        Kind::Between(_) => format!(
            "Every cell between the ends holds a digit strictly between {first}'s and {last}'s."
        ),
        Kind::Lockout { gap, .. } => format!(
            "The ends ({first} and {last}) differ by at least {gap}, and no cell between them \
             holds a digit from one end's to the other's, ends included."
        ),
        Kind::Entropic(_) => {
            let third = side / 3;
            format!(
                "Every three cells in a row along the line hold one low (1–{third}), one middle \
                 ({}–{}) and one high ({}–{}) digit.",
                third + 1,
                2 * third,
                2 * third + 1,
                side
            )
        }
        Kind::Modular(_) => "Every three cells in a row along the line hold digits with \
                             different remainders when divided by 3."
            .into(),
        Kind::Nabner(_) => "Its digits differ and no two are consecutive.".into(),
        Kind::Parity { even: true, .. } => each(n, "holds an even digit"),
        Kind::Parity { even: false, .. } => each(n, "holds an odd digit"),
        Kind::Extreme { maximum: false, .. } => each(
            n,
            "is lower than each orthogonal neighbour the line does not list",
        ),
        Kind::Extreme { maximum: true, .. } => each(
            n,
            "is higher than each orthogonal neighbour the line does not list",
        ),
        Kind::Candidates { digits, .. } => {
            each(n, &format!("holds one of {}", digit_list(*digits)))
        }
        Kind::Quad { digits, .. } => {
            let listed: Vec<String> = digits.iter().map(|&d| digit_char(d).to_string()).collect();
            format!(
                "The 2×2 block holds {} among its digits.",
                listed.join(", ")
            )
        }
        Kind::Clone(_) => "Cells in the same place of each group hold the same digit.".into(),
        Kind::Indexer { index, .. } => {
            let (what, place) = match index {
                Index::Row => ("row", "column"),
                Index::Column => ("column", "row"),
                Index::Box => ("place", "box"),
            };
            each(
                n,
                &format!(
                    "names a {what}: a digit d there says {what} d of its {place} holds the \
                     cell's own {what} number"
                ),
            )
        }
    }
}

/// "This cell holds …" or "Each of these 3 cells holds …".
fn each(n: usize, what: &str) -> String {
    match n {
        1 => format!("This cell {what}."),
        _ => format!("Each of these {n} cells {what}."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listed(sets: Vec<u16>) -> Vec<String> {
        sets.into_iter().map(spaced_digits).collect()
    }

    #[test]
    fn a_cage_of_three_summing_to_fifteen_has_the_eight_combinations_solvers_know() {
        let any = vec![0x1ff; 3];
        assert_eq!(
            listed(cage_combinations(9, Some(15), &any)),
            ["1 5 9", "1 6 8", "2 4 9", "2 5 8", "2 6 7", "3 4 8", "3 5 7", "4 5 6"]
        );
    }

    #[test]
    fn candidates_keep_only_the_combinations_their_cells_can_hold() {
        // One cell can only be 9, the other only 1 or 2: 10 is 9 + 1 alone.
        let options = [1 << 8, 0b11];
        assert_eq!(listed(cage_combinations(9, Some(10), &options)), ["1 9"]);
        // Two cells that can only hold 1 cannot both.
        assert!(cage_combinations(9, None, &[1, 1]).is_empty());
    }
}
