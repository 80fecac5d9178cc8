//! Why a constraint is broken, in the words setters use: a cage's digit twice or a total that is
//! not its sum, a thermometer's digit not above the one before it, a dot's two digits that do
//! not make it, a palindrome's mirrored cells that differ… Each says the cells and digits that
//! break it; a break none of these shows gets the generic wording (`broken`).

use crate::format::Puzzle;
use crate::grid::{digit_char, Geometry, Size};
use crate::rules::{Constraint, Dot, Kind};

/// Why `constraint` is broken by the puzzle's digits, if a rule of these shows it.
pub(super) fn why(geometry: &Geometry, puzzle: &Puzzle, constraint: &Constraint) -> Option<String> {
    let words = Words { geometry, puzzle };
    if constraint.more_cells_than_digits(puzzle.size) {
        let side = puzzle.size.side();
        return Some(format!(
            "its {} cells cannot all differ: a {side}×{side} grid has {side} digits",
            constraint.named_cells().len()
        ));
    }
    if constraint.more_cells_than_spread_digits(puzzle.size) {
        let side = puzzle.size.side();
        return Some(format!(
            "its {} cells need digits no two of them consecutive, and a {side}×{side} grid's \
             digits have at most {} such",
            constraint.named_cells().len(),
            side.div_ceil(2)
        ));
    }
    match &constraint.kind {
        Kind::Cage {
            sum: Some(sum),
            cells,
        } => cage_break(geometry, puzzle, *sum, cells),
        Kind::Cage { sum: None, cells } | Kind::ExtraRegion(cells) => words.twice(cells),
        Kind::Renban(cells) => words.twice(cells).or_else(|| words.renban(cells)),
        Kind::Thermo { slow, cells } => words.thermo(*slow, cells),
        Kind::Dot { dot, value, cells } => words.dot(*dot, *value, cells),
        Kind::Whisper { gap, cells } => words.whisper(*gap, cells),
        Kind::Palindrome(cells) => words.palindrome(cells),
        Kind::Between(cells) => words.between(cells),
        Kind::Arrow { circle, shaft } => words.arrow(circle, shaft),
        Kind::LittleKiller { sum, cells } => words.little_killer(*sum, cells),
        Kind::Parity { even, cells } => words.parity(*even, cells),
        Kind::Sandwich { sum: value, .. }
        | Kind::XSum { sum: value, .. }
        | Kind::Skyscraper { count: value, .. } => out_of_reach(constraint, puzzle.size, *value),
        _ => None,
    }
}

/// The puzzle's cells and digits, named.
struct Words<'a> {
    geometry: &'a Geometry,
    puzzle: &'a Puzzle,
}

impl Words<'_> {
    /// The digit in `cell`, 0 if empty.
    fn digit(&self, cell: u16) -> u32 {
        u32::from(self.puzzle.givens[cell as usize])
    }

    fn name(&self, cell: u16) -> String {
        self.geometry.cell_name(cell as usize)
    }

    /// "A1 3": a cell and its digit.
    fn held(&self, cell: u16) -> String {
        format!("{} {}", self.name(cell), self.shown(self.digit(cell)))
    }

    fn shown(&self, digit: u32) -> char {
        digit_char(digit as u8)
    }

    /// The cells of `cells` holding a digit, in order, with their place along the line.
    fn placed(&self, cells: &[u16]) -> Vec<(usize, u16)> {
        let placed = cells.iter().copied().enumerate();
        placed.filter(|&(_, c)| self.digit(c) != 0).collect()
    }

    /// "it holds 4 twice (A1 and B2)".
    fn twice(&self, cells: &[u16]) -> Option<String> {
        let placed = self.placed(cells);
        placed.iter().enumerate().find_map(|(i, &(_, a))| {
            let &(_, b) = placed[i + 1..]
                .iter()
                .find(|&&(_, b)| self.digit(b) == self.digit(a))?;
            Some(format!(
                "it holds {} twice ({} and {})",
                self.shown(self.digit(a)),
                self.name(a),
                self.name(b)
            ))
        })
    }

    /// Its lowest and highest digits, too far apart for a run as long as the line.
    fn renban(&self, cells: &[u16]) -> Option<String> {
        let digits: Vec<u32> = self
            .placed(cells)
            .iter()
            .map(|&(_, c)| self.digit(c))
            .collect();
        let (lo, hi) = (*digits.iter().min()?, *digits.iter().max()?);
        (hi - lo + 1 > cells.len() as u32).then(|| {
            format!(
                "{} and {} are too far apart for a run of {} consecutive digits",
                self.shown(lo),
                self.shown(hi),
                cells.len()
            )
        })
    }

    /// Two placed digits out of order, or too close for the cells between them to rise (the
    /// bulb is the first cell).
    fn thermo(&self, slow: bool, cells: &[u16]) -> Option<String> {
        let placed = self.placed(cells);
        let step = u32::from(!slow);
        let out_of_order = placed.windows(2).find_map(|w| {
            let ((i, a), (j, b)) = (w[0], w[1]);
            let (x, y) = (self.digit(a), self.digit(b));
            if slow && y < x || !slow && y <= x {
                let than = if slow { "less than" } else { "not more than" };
                return Some(format!(
                    "{} holds {}, {than} the {} of {}, nearer the bulb",
                    self.name(b),
                    self.shown(y),
                    self.shown(x),
                    self.name(a)
                ));
            }
            let between = j - i - 1;
            (!slow && y - x <= between as u32).then(|| {
                format!(
                    "{} and {} leave no room for the {} between them to rise",
                    self.held(a),
                    self.held(b),
                    cells_counted(between)
                )
            })
        });
        out_of_order.or_else(|| {
            let last = cells.len() - 1;
            placed.iter().find_map(|&(i, c)| {
                let d = self.digit(c);
                if d < 1 + step * i as u32 {
                    return Some(format!(
                        "{} is too low for the {} from the bulb to rise to it",
                        self.held(c),
                        cells_counted(i)
                    ));
                }
                (d + step * (last - i) as u32 > self.geometry.side() as u32).then(|| {
                    format!(
                        "{} is too high for the {} after it to rise from it",
                        self.held(c),
                        cells_counted(last - i)
                    )
                })
            })
        })
    }

    /// Both digits of a dot, which do not make it.
    fn dot(&self, dot: Dot, value: u32, cells: &[u16]) -> Option<String> {
        let (a, b) = (cells[0], cells[1]);
        let (x, y) = (self.digit(a), self.digit(b));
        if x == 0 || y == 0 || dot.holds(value, x as u8, y as u8) {
            return None;
        }
        let pair = format!("{} and {}", self.held(a), self.held(b));
        Some(match dot {
            Dot::White => format!("{pair} differ by {}, not {value}", x.abs_diff(y)),
            Dot::Black if value == 2 => format!("{pair}: neither is double the other"),
            Dot::Black => format!("{pair}: neither is {value} times the other"),
            Dot::X | Dot::V => format!("{pair} sum to {}, not {value}", x + y),
        })
    }

    /// Two neighbours on the line closer than the gap.
    fn whisper(&self, gap: u32, cells: &[u16]) -> Option<String> {
        cells.windows(2).find_map(|w| {
            let (x, y) = (self.digit(w[0]), self.digit(w[1]));
            (x != 0 && y != 0 && x.abs_diff(y) < gap).then(|| {
                format!(
                    "{} and {}, neighbours on the line, differ by {}, less than {gap}",
                    self.held(w[0]),
                    self.held(w[1]),
                    x.abs_diff(y)
                )
            })
        })
    }

    /// A cell and its mirror holding different digits.
    fn palindrome(&self, cells: &[u16]) -> Option<String> {
        let half = cells.iter().zip(cells.iter().rev()).take(cells.len() / 2);
        half.into_iter().find_map(|(&a, &b)| {
            let (x, y) = (self.digit(a), self.digit(b));
            (x != 0 && y != 0 && x != y).then(|| {
                format!(
                    "{} holds {} but {}, its mirror, holds {}",
                    self.name(a),
                    self.shown(x),
                    self.name(b),
                    self.shown(y)
                )
            })
        })
    }

    /// A digit on the line not strictly between the two ends'.
    fn between(&self, cells: &[u16]) -> Option<String> {
        let (first, last) = (cells[0], cells[cells.len() - 1]);
        let (a, b) = (self.digit(first), self.digit(last));
        if a == 0 || b == 0 {
            return None;
        }
        let (lo, hi) = (a.min(b), a.max(b));
        let inner = &cells[1..cells.len() - 1];
        if let Some(&c) = inner
            .iter()
            .find(|&&c| self.digit(c) != 0 && !(lo < self.digit(c) && self.digit(c) < hi))
        {
            return Some(format!(
                "{} is not between the ends' {} and {}",
                self.held(c),
                self.shown(a),
                self.shown(b)
            ));
        }
        (!inner.is_empty() && hi - lo < 2).then(|| {
            format!(
                "its ends {} and {} leave no digit between them",
                self.held(first),
                self.held(last)
            )
        })
    }

    /// A filled arrow whose shaft does not add up to its circle.
    fn arrow(&self, circle: &[u16], shaft: &[u16]) -> Option<String> {
        let all = circle.iter().chain(shaft);
        if all.clone().any(|&c| self.digit(c) == 0) {
            return None;
        }
        let number = circle.iter().fold(0, |n, &c| n * 10 + self.digit(c));
        let total: u32 = shaft.iter().map(|&c| self.digit(c)).sum();
        (number != total).then(|| format!("its shaft sums to {total}, not the circle's {number}"))
    }

    /// A diagonal's digits over its sum, or not making it once full.
    fn little_killer(&self, sum: u32, cells: &[u16]) -> Option<String> {
        let placed = self.placed(cells);
        let total: u32 = placed.iter().map(|&(_, c)| self.digit(c)).sum();
        let empty = cells.len() - placed.len();
        if empty == 0 {
            return (total != sum).then(|| format!("its digits sum to {total}, not {sum}"));
        }
        // Digits may repeat along a diagonal: each empty cell adds at least 1.
        (total + empty as u32 > sum).then(|| {
            let empty = cells_counted(empty);
            format!(
                "its digits so far sum to {total}, too much for {sum} with {empty} still to fill"
            )
        })
    }

    /// A cell holding a digit of the other parity.
    fn parity(&self, even: bool, cells: &[u16]) -> Option<String> {
        let odd = cells
            .iter()
            .find(|&&c| self.digit(c) != 0 && (self.digit(c) % 2 == 0) != even)?;
        let wanted = if even { "even" } else { "odd" };
        let (name, digit) = (self.name(*odd), self.shown(self.digit(*odd)));
        Some(format!("{name} holds {digit}, which is not {wanted}"))
    }
}

/// A clue outside the grid whose value no digits give: what the clue can be instead ("the
/// digits between the 1 and the 9 sum to 0, 2–33 or 35, never 99").
fn out_of_reach(constraint: &Constraint, size: Size, value: u32) -> Option<String> {
    let reach = constraint.unreachable_clue(size)?;
    let ranges: Vec<String> = reach
        .iter()
        .map(|r| match r.end() - r.start() {
            0 => r.start().to_string(),
            _ => format!("{}–{}", r.start(), r.end()),
        })
        .collect();
    let ranges = match ranges.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => return None,
    };
    let n = size.side();
    Some(match constraint.kind {
        Kind::Sandwich { .. } => format!(
            "the digits between the 1 and the {} sum to {ranges}, never {value}",
            digit_char(n as u8)
        ),
        Kind::XSum { .. } => {
            format!("the first X digits, X being the first, sum to {ranges}, never {value}")
        }
        _ => format!("a row or column of {n} shows {ranges} skyscrapers, never {value}"),
    })
}

/// "1 cell", "3 cells".
fn cells_counted(n: usize) -> String {
    format!("{n} {}", if n == 1 { "cell" } else { "cells" })
}

/// Why a cage with a sum is broken, in the words setters use: a digit twice, a total that is
/// not its sum, already over it, or out of reach of its empty cells. `None` for a break these
/// do not show.
fn cage_break(geometry: &Geometry, puzzle: &Puzzle, sum: u32, cage: &[u16]) -> Option<String> {
    let digit = |c: usize| puzzle.givens[c];
    let placed: Vec<usize> = cage
        .iter()
        .map(|&c| c as usize)
        .filter(|&c| digit(c) != 0)
        .collect();
    for (i, &a) in placed.iter().enumerate() {
        if let Some(&b) = placed[i + 1..].iter().find(|&&b| digit(b) == digit(a)) {
            return Some(format!(
                "it holds {} twice ({} and {})",
                digit_char(digit(a)),
                geometry.cell_name(a),
                geometry.cell_name(b)
            ));
        }
    }
    let listed: Vec<String> = placed
        .iter()
        .map(|&c| format!("{} {}", geometry.cell_name(c), digit_char(digit(c))))
        .collect();
    let listed = listed.join(", ");
    let total: u32 = placed.iter().map(|&c| u32::from(digit(c))).sum();
    let empty = cage.len() - placed.len();
    if empty == 0 {
        return (total != sum).then(|| format!("its digits ({listed}) sum to {total}, not {sum}"));
    }
    let cells_word = if empty == 1 { "cell" } else { "cells" };
    if total >= sum {
        return Some(format!(
            "its digits so far ({listed}) sum to {total}, leaving nothing for its {empty} empty \
             {cells_word}"
        ));
    }
    // The most and the least its empty cells can add: the largest and smallest digits unused.
    let used: Vec<u8> = placed.iter().map(|&c| digit(c)).collect();
    let free: Vec<u32> = (1..=geometry.side() as u8)
        .filter(|d| !used.contains(d))
        .map(u32::from)
        .collect();
    let most: u32 = free.iter().rev().take(empty).sum();
    let least: u32 = free.iter().take(empty).sum();
    let with = match placed.is_empty() {
        true => String::new(),
        false => format!("with {listed} "),
    };
    if total + most < sum {
        return Some(format!(
            "{with}its {empty} empty {cells_word} can add at most {most}, short of {}",
            sum - total
        ));
    }
    if total + least > sum {
        return Some(format!(
            "{with}its {empty} empty {cells_word} add at least {least}, over {}",
            sum - total
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use crate::analysis::check_text;
    use crate::engine::Budget;
    use crate::finding::Code;

    /// The message of the broken-constraint finding of a 4×4 under `line`.
    fn broken(line: &str, rows: &str) -> String {
        let text = format!("{line}\n{rows}");
        let checked = check_text(&text, &Budget::unlimited());
        let finding = checked
            .findings
            .iter()
            .find(|f| f.code == Code::BrokenConstraint);
        let finding = finding.unwrap_or_else(|| panic!("{line}: {:?}", checked.findings));
        finding.message.to_string()
    }

    const ROWS: &str = "3124\n..3.\n....\n....\n";

    #[test]
    fn each_line_says_which_digits_break_it() {
        let said = [
            (
                "thermo: A1 A2 A3",
                "A2 holds 1, not more than the 3 of A1, nearer the bulb",
            ),
            (
                "thermo: A4 B4",
                "A4 4 is too high for the 1 cell after it to rise from it",
            ),
            (
                "slow-thermo: A1 A2",
                "A2 holds 1, less than the 3 of A1, nearer the bulb",
            ),
            ("white: A1 A2", "A1 3 and A2 1 differ by 2, not 1"),
            ("black: A1 A2", "A1 3 and A2 1: neither is double the other"),
            ("x: A1 A2", "A1 3 and A2 1 sum to 4, not 10"),
            ("between: A1 A2 A3", "A2 1 is not between the ends' 3 and 2"),
            (
                "palindrome: A1 A2 A3 A4",
                "A1 holds 3 but A4, its mirror, holds 4",
            ),
            ("even: A1", "A1 holds 3, which is not even"),
            (
                "renban: A2 B3",
                "1 and 3 are too far apart for a run of 2 consecutive digits",
            ),
            (
                "little-killer 5: A1 down-right",
                "its digits so far sum to 3, too much for 5 with 3 cells still to fill",
            ),
        ];
        for (line, words) in said {
            let message = broken(line, ROWS);
            let wanted = format!("is broken: {words}");
            assert!(message.ends_with(&wanted), "{line}: {message}");
        }
    }

    #[test]
    fn a_full_arrow_and_a_cage_without_a_sum_say_their_sum_and_repeat() {
        let arrow = broken("arrow: A1 > B1 B2", "4...\n21..\n....\n....\n");
        assert!(
            arrow.ends_with("its shaft sums to 3, not the circle's 4"),
            "{arrow}"
        );
        let cage = broken("cage: A1 B3", ROWS);
        assert!(cage.ends_with("it holds 3 twice (A1 and B3)"), "{cage}");
    }

    #[test]
    fn a_nabner_line_longer_than_its_spread_digits_says_so() {
        // On a 4×4, at most two digits are two apart (1 and 3, 1 and 4, 2 and 4).
        let nabner = broken("nabner: C1 C2 C3", ROWS);
        assert!(
            nabner.ends_with(
                "its 3 cells need digits no two of them consecutive, and a 4×4 grid's digits \
                 have at most 2 such"
            ),
            "{nabner}"
        );
    }
}
