//! A variant puzzle's rules beyond its houses: killer cages, thermometers, arrows, dots, lines,
//! outside clues and the global rules (anti-knight, non-consecutive…), each resolved to cell
//! indices (row-major from 0, as in [`crate::grid`]) and kept with the span of the line that
//! says it, so that every finding about a constraint can point at its line.
//!
//! The text of a constraint line is read in `format` (its syntax, with a span for every part);
//! here is what it means. [`Constraint::satisfied`] is the definition of each constraint, written
//! as plain loops over the digits of its cells and shared with no propagator of the engine: it
//! is the independent checker that diagnostics and tests trust. [`Constraint::broken`] asks it of
//! a grid with empty cells (is there no way to fill them that keeps the constraint?), and
//! [`Rules::broken_pairs`] answers for the rules of the whole grid (anti-knight and the like),
//! whose cells are pairs.
//!
//! ```
//! use sudoku_core::finding::Span;
//! use sudoku_core::grid::Size;
//! use sudoku_core::rules::{Constraint, Kind};
//!
//! // A cage of two cells summing to 3 on a 4×4: A1 and A2 (cells 0 and 1).
//! let four = Size::from_side(4).unwrap();
//! let cage = Constraint::new(Kind::Cage { sum: Some(3), cells: vec![0, 1].into() }, Span::new(0, 0));
//! let mut grid = vec![0u8; 16];
//! grid[0] = 3; // 3 leaves nothing for A2: the cage is broken already
//! assert!(cage.broken(four, &grid));
//! grid[0] = 1;
//! grid[1] = 2;
//! assert!(cage.satisfied(four, &grid));
//! ```

mod combinations;
mod satisfied;
#[cfg(test)]
mod tests;

use crate::finding::Span;
use crate::grid::{puzzle_geometry, Geometry, PuzzleGeometry, Size, Variant};

pub use combinations::cage_combinations;
pub(crate) use satisfied::pairs as satisfied_pairs;
pub use satisfied::{indexed_cells, orthogonal_neighbours};

/// Cell indices, in the order the constraint line names them.
pub type Cells = Box<[u16]>;

/// The kinds of dot, for `negative:` (which kinds are all given).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dot {
    /// Two digits differing by the dot's value (1 unless written).
    White,
    /// One digit the dot's value times the other (2 unless written).
    Black,
    /// Two digits summing to 10.
    X,
    /// Two digits summing to 5.
    V,
}

impl Dot {
    pub const ALL: [Dot; 4] = [Dot::White, Dot::Black, Dot::X, Dot::V];

    /// Whether digits `a` and `b` satisfy a dot of this kind with `value` (white: the
    /// difference, black: the ratio; ignored for X and V).
    pub fn holds(self, value: u32, a: u8, b: u8) -> bool {
        let (a, b) = (a as u32, b as u32);
        match self {
            Dot::White => a.abs_diff(b) == value,
            Dot::Black => a * value == b || b * value == a,
            Dot::X => a + b == 10,
            Dot::V => a + b == 5,
        }
    }

    /// The value a dot of this kind has when the line writes none.
    pub fn default_value(self) -> u32 {
        match self {
            Dot::White => 1,
            Dot::Black => 2,
            Dot::X => 10,
            Dot::V => 5,
        }
    }

    /// The bit of this kind in a set of kinds.
    pub fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// What an indexer cell indexes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Index {
    /// A cell in row r, column c holding v: row v of column c holds r + 1.
    Row,
    /// … column v of row r holds c + 1.
    Column,
    /// A cell in place p of box b holding v: place v of box b holds p + 1.
    Box,
}

/// What a constraint says, about which cells.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Cells a knight's move apart differ.
    AntiKnight,
    /// Cells a king's move apart differ.
    AntiKing,
    /// Orthogonal neighbours are not consecutive, except across a white dot of difference 1.
    NonConsecutive,
    /// The kinds of dot in this set (`Dot::bit`) are all given: neighbours with no dot of a
    /// listed kind satisfy none of the listed relations.
    Negative { kinds: u8 },
    /// The cells differ (with N cells: a house).
    ExtraRegion(Cells),
    /// The cells differ, and sum to `sum` when there is one.
    Cage { sum: Option<u32>, cells: Cells },
    /// The shaft sums to the circle, read as a number when it is a pill (first cell leading).
    Arrow { circle: Cells, shaft: Cells },
    /// The two ends sum to the cells between them.
    DoubleArrow(Cells),
    /// The diagonal's cells (from the clue, to the edge) sum to `sum`; digits may repeat.
    LittleKiller { sum: u32, cells: Cells },
    /// Each maximal run of the line inside one region sums the same: the runs, in order.
    RegionSum(Box<[Cells]>),
    /// Cells equally far from the line's centre sum the same (the centre cell, if any).
    Zipper(Cells),
    /// The digits between the 1 and the N of the row or column (clue side first) sum to `sum`.
    Sandwich { sum: u32, cells: Cells },
    /// The first X digits from the clue sum to `sum`, X being the first digit.
    XSum { sum: u32, cells: Cells },
    /// `count` digits are seen from the clue: each one higher than every digit before it.
    Skyscraper { count: u32, cells: Cells },
    /// Two orthogonal neighbours satisfy the dot (`Dot::holds`).
    Dot {
        dot: Dot,
        value: u32,
        cells: [u16; 2],
    },
    /// The first cell is less than the second.
    Less([u16; 2]),
    /// Increasing from the bulb (strictly, unless `slow`).
    Thermo { slow: bool, cells: Cells },
    /// Neighbours on the line differ by at least `gap`.
    Whisper { gap: u32, cells: Cells },
    /// The digits differ and make a run of consecutive digits.
    Renban(Cells),
    /// The line reads the same both ways.
    Palindrome(Cells),
    /// Every cell between the ends is strictly between the ends' digits.
    Between(Cells),
    /// The ends differ by at least `gap`; no cell between is between them or equal to one.
    Lockout { gap: u32, cells: Cells },
    /// Every three cells in a row along the line hold one low, one middle and one high digit.
    Entropic(Cells),
    /// Every three cells in a row along the line hold one digit of each residue mod 3.
    Modular(Cells),
    /// The digits differ and no two are consecutive.
    Nabner(Cells),
    /// Each cell is even (or odd).
    Parity { even: bool, cells: Cells },
    /// Each cell is less (more, for a maximum) than each orthogonal neighbour not listed in the
    /// same constraint.
    Extreme { maximum: bool, cells: Cells },
    /// Each cell holds one of these digits (bit d - 1 for digit d).
    Candidates { digits: u16, cells: Cells },
    /// The 2×2 block holds these digits (a repeated digit that many times).
    Quad { digits: Box<[u8]>, cells: Cells },
    /// Cells in the same place of each group hold the same digit.
    Clone(Box<[Cells]>),
    /// Each cell indexes its row, column or box (`Index`).
    Indexer { index: Index, cells: Cells },
}

/// One constraint and the line that says it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Constraint {
    pub kind: Kind,
    /// The constraint line (without its comment), where findings about it go.
    pub line: Span,
}

/// The constraints of one puzzle, in the order of their lines, and its regions when they are
/// its own.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rules {
    pub constraints: Vec<Constraint>,
    pub regions: Option<Regions>,
}

/// A puzzle's own regions (`regions:` and its rows, or `regions: none`), in place of the boxes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Regions {
    /// Each cell's region, from 0, or [`crate::grid::NO_REGION`] (every cell, for `none`).
    pub of_cell: Box<[u8]>,
    /// The `regions:` line.
    pub line: Span,
    /// Its rows of symbols, one a line below it (none for `regions: none`).
    pub rows: Vec<Span>,
}

impl Rules {
    /// The geometry of a puzzle of `size` and `variant` under these rules: its own regions in
    /// place of the boxes when it has them.
    pub fn geometry(&self, size: Size, variant: Variant) -> PuzzleGeometry {
        let regions = self.regions.as_ref().map(|r| &r.of_cell[..]);
        puzzle_geometry(size, variant, regions)
    }
}

impl Constraint {
    pub fn new(kind: Kind, line: Span) -> Constraint {
        Constraint { kind, line }
    }

    /// The cells the constraint's line names, in its order (each group of a clone or run of a
    /// region-sum line in turn); empty for a rule of the whole grid.
    pub fn named_cells(&self) -> Vec<u16> {
        match &self.kind {
            Kind::AntiKnight | Kind::AntiKing | Kind::NonConsecutive | Kind::Negative { .. } => {
                Vec::new()
            }
            Kind::Arrow { circle, shaft } => circle.iter().chain(shaft.iter()).copied().collect(),
            Kind::RegionSum(runs) | Kind::Clone(runs) => runs.iter().flatten().copied().collect(),
            Kind::Dot { cells, .. } | Kind::Less(cells) => cells.to_vec(),
            Kind::ExtraRegion(cells)
            | Kind::Cage { cells, .. }
            | Kind::DoubleArrow(cells)
            | Kind::LittleKiller { cells, .. }
            | Kind::Zipper(cells)
            | Kind::Sandwich { cells, .. }
            | Kind::XSum { cells, .. }
            | Kind::Skyscraper { cells, .. }
            | Kind::Thermo { cells, .. }
            | Kind::Whisper { cells, .. }
            | Kind::Renban(cells)
            | Kind::Palindrome(cells)
            | Kind::Between(cells)
            | Kind::Lockout { cells, .. }
            | Kind::Entropic(cells)
            | Kind::Modular(cells)
            | Kind::Nabner(cells)
            | Kind::Parity { cells, .. }
            | Kind::Extreme { cells, .. }
            | Kind::Candidates { cells, .. }
            | Kind::Quad { cells, .. }
            | Kind::Indexer { cells, .. } => cells.to_vec(),
        }
    }

    /// Every cell whose digit the constraint's definition reads (`satisfied`): its named cells,
    /// and for a minimum or maximum their neighbours, for an indexer the row, column or box it
    /// indexes. Each once, in order of first use; empty for a rule of the whole grid.
    pub fn scope(&self, size: Size) -> Vec<u16> {
        let mut scope = self.named_cells();
        match &self.kind {
            Kind::Extreme { cells, .. } => {
                for &cell in cells.iter() {
                    scope.extend(orthogonal_neighbours(size, cell));
                }
            }
            Kind::Indexer { index, cells } => {
                for &cell in cells.iter() {
                    scope.extend(indexed_cells(size, *index, cell));
                }
            }
            _ => {}
        }
        let mut seen = vec![false; size.cells()];
        scope.retain(|&c| !std::mem::replace(&mut seen[c as usize], true));
        scope
    }

    /// Whether the rule is about the whole grid (`antiknight`, `negative: …`).
    pub fn is_global(&self) -> bool {
        matches!(
            self.kind,
            Kind::AntiKnight | Kind::AntiKing | Kind::NonConsecutive | Kind::Negative { .. }
        )
    }

    /// Whether the constraint's cells must all differ (besides whatever else it says).
    pub fn distinct(&self) -> bool {
        matches!(
            self.kind,
            Kind::ExtraRegion(_) | Kind::Cage { .. } | Kind::Renban(_) | Kind::Nabner(_)
        )
    }

    /// The name a summary lists it by: as [`Constraint::name`], but a `negative:` line says what
    /// it means, "every white and black dot given".
    pub fn listed_name(&self) -> String {
        let Kind::Negative { kinds } = &self.kind else {
            return self.name();
        };
        let words: Vec<&str> = Dot::ALL
            .iter()
            .filter(|d| kinds & d.bit() != 0)
            .map(|d| match d {
                Dot::White => "white",
                Dot::Black => "black",
                Dot::X => "X",
                Dot::V => "V",
            })
            .collect();
        let words = match words.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => words.concat(),
        };
        format!("every {words} dot given")
    }

    /// "cage 10 at B1 B2": its name and the cells its line names, or a rule of the whole grid
    /// by what its summary lists ("anti-knight", "every white and black dot given").
    pub fn label(&self, geometry: &Geometry) -> String {
        let cells = self.named_cells();
        if cells.is_empty() {
            return self.listed_name();
        }
        let names: Vec<String> = cells
            .iter()
            .map(|&c| geometry.cell_name(c as usize))
            .collect();
        format!("{} at {}", self.name(), names.join(" "))
    }

    /// A short name for messages: `cage 15`, `thermo`, `white dot`.
    pub fn name(&self) -> String {
        match &self.kind {
            Kind::AntiKnight => "anti-knight".into(),
            Kind::AntiKing => "anti-king".into(),
            Kind::NonConsecutive => "non-consecutive".into(),
            Kind::Negative { .. } => "negative".into(),
            Kind::ExtraRegion(_) => "extra region".into(),
            Kind::Cage { sum: Some(sum), .. } => format!("cage {sum}"),
            Kind::Cage { sum: None, .. } => "cage".into(),
            Kind::Arrow { .. } => "arrow".into(),
            Kind::DoubleArrow(_) => "double arrow".into(),
            Kind::LittleKiller { sum, .. } => format!("little killer {sum}"),
            Kind::RegionSum(_) => "region-sum line".into(),
            Kind::Zipper(_) => "zipper line".into(),
            Kind::Sandwich { sum, .. } => format!("sandwich {sum}"),
            Kind::XSum { sum, .. } => format!("x-sum {sum}"),
            Kind::Skyscraper { count, .. } => format!("skyscraper {count}"),
            Kind::Dot { dot, value, .. } => {
                let kind = match dot {
                    Dot::White => "white",
                    Dot::Black => "black",
                    Dot::X => "x",
                    Dot::V => "v",
                };
                if matches!(dot, Dot::White | Dot::Black) && *value != dot.default_value() {
                    format!("{kind} dot {value}")
                } else {
                    format!("{kind} dot")
                }
            }
            Kind::Less(_) => "inequality".into(),
            Kind::Thermo { slow: false, .. } => "thermo".into(),
            Kind::Thermo { slow: true, .. } => "slow thermo".into(),
            Kind::Whisper { .. } => "whisper line".into(),
            Kind::Renban(_) => "renban line".into(),
            Kind::Palindrome(_) => "palindrome".into(),
            Kind::Between(_) => "between line".into(),
            Kind::Lockout { .. } => "lockout line".into(),
            Kind::Entropic(_) => "entropic line".into(),
            Kind::Modular(_) => "modular line".into(),
            Kind::Nabner(_) => "nabner line".into(),
            Kind::Parity { even: true, .. } => "even cell".into(),
            Kind::Parity { even: false, .. } => "odd cell".into(),
            Kind::Extreme { maximum: false, .. } => "minimum".into(),
            Kind::Extreme { maximum: true, .. } => "maximum".into(),
            Kind::Candidates { .. } => "candidates".into(),
            Kind::Quad { .. } => "quad".into(),
            Kind::Clone(_) => "clone".into(),
            Kind::Indexer {
                index: Index::Row, ..
            } => "row indexer".into(),
            Kind::Indexer {
                index: Index::Column,
                ..
            } => "column indexer".into(),
            Kind::Indexer {
                index: Index::Box, ..
            } => "box indexer".into(),
        }
    }
}

impl Rules {
    pub fn is_empty(&self) -> bool {
        self.constraints.is_empty() && self.regions.is_none()
    }
}
