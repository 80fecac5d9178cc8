//! What one cell's character means: its digit, or the finding that says why it is none; and
//! the candidate sets of pencil marks. Both readers of cells (`parse`, `marks`) share these.

use super::lines;
use crate::finding::{Code, Finding, Span};
use crate::grid::{digit_char, Size};

/// The digits of a candidate set: bit `d - 1` for digit `d`.
pub type DigitSet = u32;

/// Every digit of a puzzle of side `side`.
pub fn every_digit(side: usize) -> DigitSet {
    (1 << side) - 1
}

/// The value of cell character `ch` at `span` in a puzzle of `size`: 0 for an empty mark, the
/// digit, or `None` (with the finding pushed) for a letter in a small puzzle or a digit above
/// the size. A character that is no cell at all is `None` with no finding: its stray token
/// says so.
pub(super) fn cell_digit(
    ch: char,
    span: Span,
    size: Size,
    problems: &mut Vec<Finding>,
) -> Option<u8> {
    match lines::cell_value(ch) {
        Some(0) => Some(0),
        Some(_) if ch.is_ascii_alphabetic() && size.side() <= 9 => {
            problems.push(stray_finding(ch.encode_utf8(&mut [0; 4]), span, Some(size)));
            None
        }
        Some(d) if d as usize > size.side() => {
            problems.push(Finding::error(
                Code::DigitRange,
                span,
                format!(
                    "digit {ch} is above this {} puzzle's largest digit {}",
                    size.label(),
                    digit_char(size.side() as u8)
                ),
            ));
            None
        }
        Some(d) => Some(d),
        None => None,
    }
}

/// What a cell may be, for messages: "a digit 1–9 or an empty mark . 0 _".
fn cell_rule(size: Option<Size>) -> String {
    let digits = match size {
        Some(s) if s.side() <= 9 => format!("1–{}", s.side()),
        Some(s) => format!("1–9 or A–{}", digit_char(s.side() as u8)),
        None => "1–9 (then A, B, … above 9×9)".to_string(),
    };
    format!("a cell is a digit {digits} or an empty mark . 0 _")
}

/// The error for text where a cell was expected: what it is, and what a cell may be.
pub(super) fn stray_finding(stray: &str, span: Span, size: Option<Size>) -> Finding {
    Finding::error(
        Code::Syntax,
        span,
        format!("unexpected '{}': {}", shorten(stray), cell_rule(size)),
    )
}

/// At most 20 characters of `s`, escaped so control characters show.
fn shorten(s: &str) -> String {
    let mut out: String = s.chars().take(20).flat_map(char::escape_debug).collect();
    if s.chars().nth(20).is_some() {
        out.push('…');
    }
    out
}
