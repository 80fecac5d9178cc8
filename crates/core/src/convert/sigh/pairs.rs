//! sigh's custom pair relations read back as the rule they are, when it is one of ours.
//!
//! `.Pair~<key>~cells` holds a relation between each cell and the next, `.PairX~<key>~cells`
//! between every two of the cells (`.Binary` and `.BinaryX` are their older spellings, the key
//! with `-` and `_` swapped). The key is the relation's table: for digits a and b from 1 to
//! N, bit (a - 1) × N + (b - 1) says whether a beside b is allowed, six bits a character of
//! URL-safe base64, low bit first (sigh's `fnToBinaryKey`). The cells come in groups, each
//! after an optional `_name` or an empty argument. A table that is exactly one of ours (a
//! thermometer, a whisper, a dot, a clone, a nabner line…) becomes its lines; any other
//! relation has no line and the item is kept as a comment.

use super::lines::{chain, Grid, Mapped, Problem};

/// URL-safe base64, in the order of its values.
const BASE64: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Which digits may stand beside which: `allows[a - 1][b - 1]`.
type Table = Vec<Vec<bool>>;

/// A relation we have a line for: how each group of cells is written.
enum Ours {
    /// One line along the cells (`thermo: …`), reversed when the relation runs backward.
    Chain(String, bool),
    /// A line for each two cells in a row (`white 3: A1 A2`).
    EachPair(String),
    /// One line of all the cells (`nabner: …`).
    Set(String),
    /// All the cells hold one digit.
    Clone,
}

/// The lines of a `.Pair`, `.PairX`, `.Binary` or `.BinaryX` item, or why it has none.
pub(super) fn map(grid: &Grid, kind: &str, args: &[&str]) -> Result<Mapped, Problem> {
    let (key, items) = args
        .split_first()
        .ok_or(Problem::Bad("it has no relation key".into()))?;
    let legacy = kind.starts_with("Binary");
    let every = kind.ends_with('X');
    let table = decode(key, legacy, grid.side)?;
    let mut lines = Vec::new();
    for group in groups(items) {
        let cells = grid.names(&group)?;
        let ours = match every {
            false => consecutive(&table, grid.side),
            true => every_two(&table, grid.side, cells.len()),
        };
        lines.extend(write(ours.ok_or_else(unknown)?, &cells));
    }
    if lines.is_empty() {
        return Err(Problem::Bad("it names no cell".into()));
    }
    Ok(Mapped::Lines(lines))
}

fn unknown() -> Problem {
    Problem::Unsupported("its relation is none of the rules .sudoku has lines for".into())
}

/// The table a key holds for digits 1 to `n`.
fn decode(key: &str, legacy: bool, n: usize) -> Result<Table, Problem> {
    let mut sixes = Vec::with_capacity(key.len());
    for c in key.chars() {
        let c = match (legacy, c) {
            (true, '-') => '_',
            (true, '_') => '-',
            _ => c,
        };
        let value = BASE64
            .find(c)
            .ok_or_else(|| Problem::Bad(format!("'{c}' in its key is no base64")))?;
        sixes.push(value as u32);
    }
    let bit = |i: usize| sixes.get(i / 6).is_some_and(|six| six >> (i % 6) & 1 == 1);
    Ok((0..n)
        .map(|a| (0..n).map(|b| bit(a * n + b)).collect())
        .collect())
}

/// The groups of cells after the key: a `_name` or an empty argument starts a new one.
fn groups<'a>(items: &[&'a str]) -> Vec<Vec<&'a str>> {
    let mut groups: Vec<Vec<&str>> = vec![Vec::new()];
    for item in items {
        if item.is_empty() || item.starts_with('_') {
            groups.push(Vec::new());
        } else if let Some(group) = groups.last_mut() {
            group.push(item);
        }
    }
    groups.retain(|g| !g.is_empty());
    groups
}

/// The table of `allows` over digits 1 to `n`.
fn table(n: usize, allows: impl Fn(usize, usize) -> bool) -> Table {
    (1..=n)
        .map(|a| (1..=n).map(|b| allows(a, b)).collect())
        .collect()
}

/// Ours for a relation between each cell and the next.
fn consecutive(relation: &Table, n: usize) -> Option<Ours> {
    let is = |allows: &dyn Fn(usize, usize) -> bool| *relation == table(n, allows);
    if is(&|a, b| a < b) {
        return Some(Ours::Chain("thermo".into(), false));
    }
    if is(&|a, b| a > b) {
        return Some(Ours::Chain("thermo".into(), true));
    }
    if is(&|a, b| a <= b) {
        return Some(Ours::Chain("slow-thermo".into(), false));
    }
    if is(&|a, b| a >= b) {
        return Some(Ours::Chain("slow-thermo".into(), true));
    }
    if is(&|a, b| a == b) {
        return Some(Ours::Clone);
    }
    if is(&|a, b| a + b == 10) {
        return Some(Ours::EachPair("x".into()));
    }
    if is(&|a, b| a + b == 5) {
        return Some(Ours::EachPair("v".into()));
    }
    for k in 1..n {
        if is(&|a, b| a.abs_diff(b) >= k) {
            let head = match k == n.div_ceil(2) {
                true => "whisper".to_string(),
                false => format!("whisper {k}"),
            };
            return Some(Ours::Chain(head, false));
        }
        if is(&|a, b| a.abs_diff(b) == k) {
            return Some(Ours::EachPair(dot_head("white", k, 1)));
        }
        if k >= 2 && is(&|a, b| a == k * b || b == k * a) {
            return Some(Ours::EachPair(dot_head("black", k, 2)));
        }
    }
    None
}

/// `white`, or `white 3` when the value is not the dot's own.
fn dot_head(dot: &str, value: usize, default: usize) -> String {
    match value == default {
        true => dot.to_string(),
        false => format!("{dot} {value}"),
    }
}

/// Ours for a relation between every two of `count` cells.
fn every_two(relation: &Table, n: usize, count: usize) -> Option<Ours> {
    let is = |allows: &dyn Fn(usize, usize) -> bool| *relation == table(n, allows);
    if is(&|a, b| a != b) {
        Some(Ours::Set("extra-region".into()))
    } else if is(&|a, b| a.abs_diff(b) >= 2) {
        Some(Ours::Set("nabner".into()))
    } else if is(&|a, b| a != b && a.abs_diff(b) < count) {
        Some(Ours::Set("renban".into()))
    } else if is(&|a, b| a == b) {
        Some(Ours::Clone)
    } else {
        None
    }
}

/// The lines a group of cells (as `A1` names) gets for `ours`.
fn write(ours: Ours, cells: &[String]) -> Vec<String> {
    match ours {
        Ours::Chain(head, reversed) => {
            let mut cells = cells.to_vec();
            if reversed {
                cells.reverse();
            }
            match chain(&head, &cells) {
                Mapped::Lines(lines) => lines,
                Mapped::Flag(_) => Vec::new(),
            }
        }
        Ours::EachPair(head) => cells
            .windows(2)
            .map(|w| format!("{head}: {} {}", w[0], w[1]))
            .collect(),
        Ours::Set(head) => vec![format!("{head}: {}", cells.join(" "))],
        Ours::Clone => vec![format!("clone: {}", cells.join(" = "))],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// sigh's `fnToBinaryKey`, to make keys.
    fn key(n: usize, allows: impl Fn(usize, usize) -> bool) -> String {
        let mut sixes = vec![0u32];
        for i in 0..n * n {
            if sixes.len() <= i / 6 {
                sixes.push(0);
            }
            if allows(i / n + 1, i % n + 1) {
                sixes[i / 6] |= 1 << (i % 6);
            }
        }
        while sixes.last() == Some(&0) {
            sixes.pop();
        }
        sixes
            .iter()
            .map(|&v| BASE64.as_bytes()[v as usize] as char)
            .collect()
    }

    #[test]
    fn a_key_reads_back_as_its_table() {
        let k = key(9, |a, b| a == 3 * b || b == 3 * a);
        let table = decode(&k, false, 9).unwrap();
        assert!(table[2][0] && table[0][2] && table[8][2] && !table[1][0]);
        assert_eq!(
            consecutive(&table, 9).map(|o| write(o, &["A1".into(), "B1".into()])),
            Some(vec!["black 3: A1 B1".to_string()])
        );
    }
}
