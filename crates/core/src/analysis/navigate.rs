//! What the editor's navigation asks of one puzzle, in cell indices and sentences (no text
//! positions): which digits fit an empty cell and why the others are out (completion), which
//! peers hold a cell's digit (go to definition), which cells of its units hold or could hold a
//! digit (references), every cell holding a digit (highlights), each row's candidate count
//! (inlay hints), and a puzzle's status in a word (the outline).
//!
//! "Fits" is elimination: a digit fits an empty cell when no placed peer (given or entry)
//! holds it. The pencil marks are the ones written in the file, or where none are written the
//! ones hover shows (elimination, then naked twins), so completion and hover agree.

use super::verdict::{Analysis, Verdict};
use super::wording::{reason_text, shared_unit_names};
use crate::engine::{self, Digits};
use crate::format::{self, every_digit, Edit, Layout, Puzzle};
use crate::grid::{digit_char, Geometry};

/// A digit that fits an empty cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fit {
    pub digit: u8,
    /// Whether it is among the cell's pencil marks (these come first).
    pub marked: bool,
    /// Why a digit that fits is not among the marks: "not in your pencil marks", or the naked
    /// twins that took it out.
    pub unmarked_why: Option<String>,
}

/// The digits that fit an empty cell, and why each other digit is out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellFits {
    /// The pencil marks first, then the other digits that fit, each group ascending.
    pub fits: Vec<Fit>,
    /// One sentence a digit that does not fit, ascending: "3: E5 holds 3 (row E)".
    pub excluded: Vec<String>,
}

/// Which digits fit empty cell `cell` and why the others are out; `None` for a placed cell (a
/// given or an entry), so nothing is offered there.
pub fn fits(puzzle: &Puzzle, cell: usize) -> Option<CellFits> {
    if puzzle.givens.get(cell).copied()? != 0 {
        return None;
    }
    let geometry = &puzzle.geometry();
    let side = geometry.side();
    let mut excluded = Vec::new();
    let mut fitting = Digits::EMPTY;
    for digit in Digits::all(side).iter() {
        match holders(puzzle, cell, digit).first() {
            Some(&peer) => excluded.push(format!(
                "{d}: {} holds {d} ({})",
                geometry.cell_name(peer),
                shared_unit_names(geometry, cell, peer),
                d = digit_char(digit)
            )),
            None => fitting.insert(digit),
        }
    }
    let (marks, why_not) = marks_at(geometry, puzzle, cell);
    let fit = |digit: u8, marked: bool| Fit {
        digit,
        marked,
        unmarked_why: (!marked).then(|| why_not(digit)),
    };
    let mut fits: Vec<Fit> = (fitting & marks).iter().map(|d| fit(d, true)).collect();
    fits.extend((fitting & !marks).iter().map(|d| fit(d, false)));
    Some(CellFits { fits, excluded })
}

/// The cell's pencil marks and, for a digit left out of them, why: the marks written in the
/// file when the cell has some, else elimination and naked twins (hover's pencil marks).
fn marks_at<'a>(
    geometry: &'a Geometry,
    puzzle: &Puzzle,
    cell: usize,
) -> (Digits, Box<dyn Fn(u8) -> String + 'a>) {
    let written = puzzle.marks.as_deref().map(|m| m[cell]);
    match written {
        Some(set) if set != every_digit(geometry.side()) => (
            Digits(set),
            Box::new(|_| "not in your pencil marks".to_string()),
        ),
        _ => {
            let marks = engine::pencil_marks(geometry, &puzzle.givens);
            let here = marks.candidates[cell];
            let why = move |digit: u8| reason_text(geometry, marks.reason(cell, digit));
            (here, Box::new(why))
        }
    }
}

/// The edit that writes `digit` into `cell` for a solver: as an entry (`+7`) when the puzzle
/// already marks entries, since a digit the solver adds is then one of theirs and must not
/// count as a given; else as a plain digit, as *Solve* and *Fill* write it. A line of
/// pencil-mark places has no way to mark an entry, so the digit is placed there.
pub fn place_edit(puzzle: &Puzzle, cell: usize, digit: u8) -> Edit {
    let mut edit = format::digit_edit(puzzle, cell, digit);
    if puzzle.entries.is_some() && puzzle.layout != Layout::MarksLine {
        // A group of marks is padded to its width: the `+` takes one of the padding spaces.
        if edit.text.len() > 1 && edit.text.ends_with(' ') {
            edit.text.pop();
        }
        edit.text.insert(0, '+');
    }
    edit
}

/// The peers of `cell` holding `digit` (givens or entries), ascending: the other side of a
/// conflict on a placed digit, or what rules out a mark of an empty cell.
pub fn holders(puzzle: &Puzzle, cell: usize, digit: u8) -> Vec<usize> {
    let geometry = &puzzle.geometry();
    let Some(peers) = geometry.peers.get(cell) else {
        return Vec::new();
    };
    peers
        .iter()
        .map(|&p| p as usize)
        .filter(|&p| puzzle.givens[p] == digit)
        .collect()
}

/// How a cell stands towards a digit, for references.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// The cell holds the digit (a given or an entry).
    Holds,
    /// The cell is empty and the digit fits there (and is among its marks, when written).
    Could,
}

/// Every cell of `cell`'s units (row, column, box, and the diagonals of a diagonal puzzle),
/// `cell` itself included, that holds `digit` or could, ascending.
pub fn unit_places(puzzle: &Puzzle, cell: usize, digit: u8) -> Vec<(usize, Place)> {
    let geometry = &puzzle.geometry();
    if cell >= geometry.cells() || digit == 0 || usize::from(digit) > geometry.side() {
        return Vec::new();
    }
    let mut cells: Vec<usize> = geometry.units_of[cell]
        .iter()
        .flat_map(|&u| geometry.units[u as usize].cells.iter())
        .map(|&c| c as usize)
        .collect();
    cells.sort_unstable();
    cells.dedup();
    cells
        .into_iter()
        .filter_map(|c| place_of(puzzle, c, digit).map(|place| (c, place)))
        .collect()
}

fn place_of(puzzle: &Puzzle, cell: usize, digit: u8) -> Option<Place> {
    match puzzle.givens[cell] {
        0 => {
            let marked = puzzle
                .marks
                .as_deref()
                .is_none_or(|m| m[cell] & 1 << (digit - 1) != 0);
            (marked && holders(puzzle, cell, digit).is_empty()).then_some(Place::Could)
        }
        d if d == digit => Some(Place::Holds),
        _ => None,
    }
}

/// Every cell of the puzzle holding `digit`, and every cell whose written pencil marks hold it
/// (`Could`), in reading order: what a solver's app lights up on choosing a digit.
pub fn digit_cells(puzzle: &Puzzle, digit: u8) -> Vec<(usize, Place)> {
    if digit == 0 || usize::from(digit) > puzzle.size.side() {
        return Vec::new();
    }
    let full = every_digit(puzzle.size.side());
    let marked = |cell: usize| {
        let set = puzzle.marks.as_deref().map_or(full, |m| m[cell]);
        set != full && set & 1 << (digit - 1) != 0
    };
    (0..puzzle.givens.len())
        .filter_map(|cell| match puzzle.givens[cell] {
            d if d == digit => Some((cell, Place::Holds)),
            0 if marked(cell) => Some((cell, Place::Could)),
            _ => None,
        })
        .collect()
}

/// Each row's candidate count: the sum, over its empty cells, of their candidates by
/// elimination and naked twins (hover's pencil marks).
pub fn row_candidate_counts(puzzle: &Puzzle) -> Vec<u32> {
    let side = puzzle.size.side();
    let candidates = super::marks::fill_marks(puzzle);
    (0..side)
        .map(|row| {
            (row * side..(row + 1) * side)
                .filter(|&c| puzzle.givens[c] == 0)
                .map(|c| candidates[c].count_ones())
                .sum()
        })
        .collect()
}

/// A puzzle's status in a word or two, for the outline: "solved", "unique", "no solution",
/// "several solutions", "broken" (conflicts, a cell or a digit with no place) or "undecided".
pub fn status_word(analysis: &Analysis) -> &'static str {
    match &analysis.verdict {
        Verdict::Unique(_) if analysis.full => "solved",
        Verdict::Unique(_) => "unique",
        Verdict::NoSolution => "no solution",
        Verdict::Several { .. } => "several solutions",
        Verdict::Broken => "broken",
        Verdict::Undecided { .. } => "undecided",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse;

    const EASY: &str = "\
..3.2.6..
9..3.5..1
..18.64..
..81.29..
7.......8
..67.82..
..26.95..
8..2.3..9
..5.1.3..
";

    fn puzzle(text: &str) -> Puzzle {
        let mut document = parse(text);
        assert!(document.problems.is_empty(), "{:?}", document.problems);
        document.puzzles.remove(0)
    }

    #[test]
    fn fits_are_the_digits_no_peer_holds_with_a_reason_for_each_other() {
        let p = puzzle(EASY);
        // A1: row A holds 3, 2, 6; column 1 holds 9, 7, 8; box 1 holds 3, 9, 1.
        let fits = fits(&p, 0).unwrap();
        let digits: Vec<u8> = fits.fits.iter().map(|f| f.digit).collect();
        assert_eq!(digits, vec![4, 5]);
        assert!(fits
            .fits
            .iter()
            .all(|f| f.marked && f.unmarked_why.is_none()));
        assert_eq!(fits.excluded.len(), 7);
        assert_eq!(fits.excluded[0], "1: C3 holds 1 (box 1)");
        assert_eq!(fits.excluded[1], "2: A5 holds 2 (row A)");
        assert_eq!(fits.excluded[2], "3: A3 holds 3 (row A and box 1)");
        // Nothing is offered on a given.
        assert_eq!(super::fits(&p, 2), None);
        assert_eq!(super::fits(&p, 81), None);
    }

    #[test]
    fn written_marks_come_first_and_others_say_they_are_unmarked() {
        // A1's marks are {3, 5}: 4 fits too, after 5; 3 is marked but A3 holds it.
        let mut p = puzzle(EASY);
        let mut marks: Vec<u32> = vec![every_digit(9); 81];
        marks[0] = 0b10100; // {3, 5}
        p.marks = Some(marks.into_boxed_slice());
        let fits = fits(&p, 0).unwrap();
        let shown: Vec<(u8, bool)> = fits.fits.iter().map(|f| (f.digit, f.marked)).collect();
        assert_eq!(shown, vec![(5, true), (4, false)]);
        assert_eq!(
            fits.fits[1].unmarked_why.as_deref(),
            Some("not in your pencil marks")
        );
    }

    #[test]
    fn holders_and_unit_places_follow_the_units() {
        let p = puzzle(&EASY.replacen("..3", "3.3", 1));
        assert_eq!(holders(&p, 0, 3), vec![2]);
        assert_eq!(holders(&p, 2, 3), vec![0]);
        assert_eq!(holders(&p, 1, 7), Vec::<usize>::new());
        let p = puzzle(EASY);
        // 3 at A3: row A, column 3 and box 1. B4 and I7 hold 3 too, outside those units.
        let places = unit_places(&p, 2, 3);
        assert!(places.contains(&(2, Place::Holds)));
        assert!(!places.iter().any(|&(c, _)| c == 12 || c == 78));
        // Every other cell listed is empty with no placed 3 among its peers.
        for &(c, place) in &places {
            if c != 2 {
                assert_eq!(place, Place::Could);
                assert_eq!(p.givens[c], 0);
                assert!(holders(&p, c, 3).len() <= 1); // A3 itself is a peer of each
            }
        }
        assert_eq!(unit_places(&p, 2, 0), vec![]);
        // Every 3 of the grid: A3, B4, H6, I7.
        let threes: Vec<usize> = digit_cells(&p, 3).into_iter().map(|(c, _)| c).collect();
        assert_eq!(threes, vec![2, 12, 68, 78]);
        assert_eq!(digit_cells(&p, 10), vec![]);
        assert_eq!(unit_places(&p, 200, 3), vec![]);
    }

    #[test]
    fn diagonal_puzzles_add_the_diagonals_to_the_units() {
        let text = format!("# variant: diagonal\n{EASY}");
        let classic = puzzle(EASY);
        let diagonal = puzzle(&text);
        // E5 (cell 40) is on both diagonals: A1 and I9 are in its units only in the X variant.
        let cells = |p: &Puzzle| -> Vec<usize> {
            unit_places(p, 40, 4).into_iter().map(|(c, _)| c).collect()
        };
        assert!(!cells(&classic).contains(&0));
        assert!(cells(&diagonal).contains(&0));
    }

    #[test]
    fn entries_are_placed_as_entries_and_row_counts_sum_the_candidates() {
        let p = puzzle(EASY);
        assert_eq!(place_edit(&p, 0, 4).text, "4");
        let with_entry = puzzle(&EASY.replacen("..3", ".+43", 1));
        assert_eq!(place_edit(&with_entry, 0, 5).text, "+5");
        let counts = row_candidate_counts(&p);
        assert_eq!(counts.len(), 9);
        let marks = super::super::fill_marks(&p);
        let row_a: u32 = (0..9)
            .filter(|&c| p.givens[c] == 0)
            .map(|c| marks[c].count_ones())
            .sum();
        assert_eq!(counts[0], row_a);
        assert!(counts.iter().all(|&n| n > 0));
    }
}
