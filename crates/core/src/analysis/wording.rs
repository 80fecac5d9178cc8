//! The parts of sentences that findings, hovers and the editor's navigation share: why a digit
//! left a cell, the units two cells share, why a search stopped.

use crate::engine::{Reason, Stop};
use crate::grid::{digit_char, Geometry};

/// Why a search stopped short, after "the search …".
pub(super) fn stop_text(stop: Stop) -> &'static str {
    match stop {
        Stop::Nodes => "reached its node budget",
        Stop::Deadline => "ran out of time",
        Stop::Cancelled => "was cancelled",
    }
}

/// Why a digit left a cell, as hover and messages say it: "row E: E2",
/// "naked twins {8, 9} in column 5: B5, H5", "only place for 7 in box 5".
pub fn reason_text(geometry: &Geometry, reason: Option<Reason>) -> String {
    match reason {
        None => "no reason recorded".to_string(),
        Some(Reason::Peer { unit, peer }) => {
            format!(
                "{}: {}",
                geometry.unit_name(unit as usize),
                geometry.cell_name(peer as usize)
            )
        }
        Some(Reason::NakedTwins { unit, pair, digits }) => format!(
            "naked twins {digits} in {}: {}, {}",
            geometry.unit_name(unit as usize),
            geometry.cell_name(pair[0] as usize),
            geometry.cell_name(pair[1] as usize)
        ),
        Some(Reason::OnlyChoice { unit, digit }) => format!(
            "{} goes here, its only place in {}",
            digit_char(digit),
            geometry.unit_name(unit as usize)
        ),
    }
}

/// "row E" or "row E and box 4".
pub(super) fn shared_unit_names(geometry: &Geometry, a: usize, b: usize) -> String {
    let names: Vec<String> = geometry.units_of[a]
        .iter()
        .map(|&u| u as usize)
        .filter(|&u| geometry.units[u].cells.contains(&(b as u16)))
        .map(|u| geometry.unit_name(u))
        .collect();
    join_and(&names)
}

fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Digits as a person lists them: "4", "1 and 2", "1, 3 and 5", "3–9" (runs of three or more
/// as a range).
pub(super) fn digit_list(mask: u16) -> String {
    let digits: Vec<u8> = (1..=16u8).filter(|d| mask >> (d - 1) & 1 == 1).collect();
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < digits.len() {
        let mut j = i;
        while j + 1 < digits.len() && digits[j + 1] == digits[j] + 1 {
            j += 1;
        }
        if j - i >= 2 {
            parts.push(format!(
                "{}–{}",
                digit_char(digits[i]),
                digit_char(digits[j])
            ));
        } else {
            parts.extend(digits[i..=j].iter().map(|&d| digit_char(d).to_string()));
        }
        i = j + 1;
    }
    match parts.split_last() {
        None => "nothing".to_string(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// Items as a sentence lists them: "a", "a and b", "a, b and c".
pub(super) fn and_list<S: AsRef<str>>(items: &[S]) -> String {
    let items: Vec<&str> = items.iter().map(AsRef::as_ref).collect();
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::digit_list;

    #[test]
    fn digits_read_as_a_person_lists_them() {
        assert_eq!(digit_list(0), "nothing");
        assert_eq!(digit_list(0b1000), "4");
        assert_eq!(digit_list(0b11), "1 and 2");
        assert_eq!(digit_list(0b10101), "1, 3 and 5");
        assert_eq!(digit_list(0b1_1111_1100), "3–9");
        assert_eq!(digit_list(0b1_1101_1011), "1, 2, 4, 5 and 7–9");
    }
}
