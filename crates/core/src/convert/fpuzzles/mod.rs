//! f-puzzles JSON ↔ `.sudoku` text, field by field as `puzzles/README.md` ("Importing and
//! exporting") tells users.
//!
//! [`import`] writes one puzzle's text in a canonical order: metadata (`# title:`, `# author:`,
//! `# rules:` a paragraph a line, `# solution:`), the kept fragments (`# fpuzzles: {…}`), the
//! rules of the whole grid, a `regions:` block when the regions are not the boxes, the
//! constraint lines grouped by kind in the order of `LINE_KEYS` (each group in the JSON's
//! order), then the grid. Whatever the text cannot hold (colours, cosmetic drawings, unknown
//! keys, a cage whose value is no number) is kept as a `# fpuzzles:` comment holding the
//! minimal JSON fragment, and named in a warning; [`export`] merges those fragments back, so a
//! file in this canonical form survives export then import byte for byte.

mod export;
mod import;
#[cfg(test)]
mod tests;

pub use export::{export, for_sudokupad, Exported};
pub use import::{import, import_json};

use std::fmt;

/// The metadata key of a kept fragment: `# fpuzzles: {"text":[…]}`.
pub const FRAGMENT_KEY: &str = "fpuzzles";

/// An imported puzzle: its `.sudoku` text, what was kept as a comment or dropped
/// (`warnings`), and the parts of the input that were damaged (`errors`: each kept as a
/// comment, the rest of the puzzle still imported).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Imported {
    pub text: String,
    pub warnings: Vec<String>,
    pub errors: Vec<String>,
}

/// Why a JSON text is no f-puzzles puzzle: where (a JSON path, `killercage[3].cells[1]`;
/// empty for the whole) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportError {
    pub path: String,
    pub message: String,
}

impl ImportError {
    pub(crate) fn at(path: impl Into<String>, message: impl Into<String>) -> ImportError {
        ImportError {
            path: path.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for ImportError {}

/// How an f-puzzles constraint key's entries are shaped, and the keyword each becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// `{cells}`: the keyword and the cells.
    Cells,
    /// `{cells, value?}`: a killer cage.
    Cage,
    /// `{cells, lines}`: an arrow (its circle or pill, and lines from it).
    Arrow,
    /// `{lines}`: one constraint line per line.
    Lines,
    /// `{lines, value?}`: whispers (the value a gap, ⌈N/2⌉ unless given).
    Whispers,
    /// `{lines, value}`: lockout (the value its gap).
    Lockout,
    /// `{cells: [a, b], value?}`: a white or black dot (the value unless the default).
    Dot,
    /// `{cells: [a, b], value: "X" | "V"}`.
    Xv,
    /// `{cell, value, direction}` outside the grid.
    LittleKiller,
    /// `{cell, value}` outside the grid: a sandwich, X-sum or skyscraper clue.
    Outside,
    /// `{cell}`: every entry of the key one line, listing the cells.
    Single,
    /// `{cells, values}`.
    Quad,
    /// `{cells, cloneCells}`.
    Clone,
}

/// The constraint keys, in the order import writes their lines, with our keyword for each.
pub(crate) const LINE_KEYS: [(&str, &str, Shape); 32] = [
    ("extraregion", "extra-region", Shape::Cells),
    ("killercage", "cage", Shape::Cage),
    ("arrow", "arrow", Shape::Arrow),
    ("doublearrow", "double-arrow", Shape::Lines),
    ("littlekillersum", "little-killer", Shape::LittleKiller),
    ("regionsumline", "region-sum", Shape::Lines),
    ("zipperline", "zipper", Shape::Lines),
    ("sandwichsum", "sandwich", Shape::Outside),
    ("xsum", "x-sum", Shape::Outside),
    ("skyscraper", "skyscraper", Shape::Outside),
    ("difference", "white", Shape::Dot),
    ("ratio", "black", Shape::Dot),
    ("xv", "x", Shape::Xv),
    ("thermometer", "thermo", Shape::Lines),
    ("slowthermometer", "slow-thermo", Shape::Lines),
    ("whispers", "whisper", Shape::Whispers),
    ("renban", "renban", Shape::Lines),
    ("palindrome", "palindrome", Shape::Lines),
    ("betweenline", "between", Shape::Lines),
    ("lockout", "lockout", Shape::Lockout),
    ("entropicline", "entropic", Shape::Lines),
    ("modularline", "modular", Shape::Lines),
    ("nabner", "nabner", Shape::Lines),
    ("even", "even", Shape::Single),
    ("odd", "odd", Shape::Single),
    ("minimum", "minimum", Shape::Single),
    ("maximum", "maximum", Shape::Single),
    ("quadruple", "quad", Shape::Quad),
    ("clone", "clone", Shape::Clone),
    ("rowindexer", "row-index", Shape::Cells),
    ("columnindexer", "column-index", Shape::Cells),
    ("boxindexer", "box-index", Shape::Cells),
];

/// The rules of the whole grid f-puzzles writes as `"key": true`, and ours.
pub(crate) const FLAG_KEYS: [(&str, &str); 6] = [
    ("diagonal-", "diagonal \\"),
    ("diagonal+", "diagonal /"),
    ("disjointgroups", "disjoint"),
    ("antiknight", "antiknight"),
    ("antiking", "antiking"),
    ("nonconsecutive", "nonconsecutive"),
];

/// The cosmetic keys: drawings that obey no rule (copies of constraints that Rangsk's userscript
/// adds are dropped, the others kept).
pub(crate) const COSMETIC_KEYS: [&str; 5] = ["line", "circle", "rectangle", "text", "cage"];

/// How a drawing copy of a constraint looks: a line of a colour and width (a share of a
/// cell), a cage outline of a colour round every cell of the key, or a symbol and the clue's
/// value at an outside cell.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Drawing {
    Line(&'static str, f64),
    Cage(&'static str),
    Outside(&'static str),
}

/// The keys f-puzzles and SudokuPad do not draw (Rangsk's additions to f-puzzles), each with the
/// `fromConstraint` name and look of the drawing copy export adds beside it, as Rangsk's
/// userscript does, so that a link opens with the constraint drawn (a solver that knows the key
/// drops the copy on import, as sudoku-lsp does). Colours and widths are the userscript's where
/// it draws the constraint.
pub(crate) const DRAWN_COPIES: [(&str, &str, Drawing); 14] = [
    ("renban", "Renban", Drawing::Line("#F067F0", 0.4)),
    ("whispers", "Whispers", Drawing::Line("#67F067", 0.3)),
    (
        "entropicline",
        "Entropic Line",
        Drawing::Line("#FFCCAA", 0.25),
    ),
    (
        "modularline",
        "Modular Line",
        Drawing::Line("#C0A0FF", 0.25),
    ),
    (
        "regionsumline",
        "Region Sum Line",
        Drawing::Line("#2ECBFF", 0.25),
    ),
    ("nabner", "Nabner", Drawing::Line("#E8E800", 0.3)),
    ("zipperline", "Zipper Line", Drawing::Line("#9BBFEF", 0.25)),
    ("doublearrow", "Double Arrow", Drawing::Line("#A0A0A0", 0.1)),
    (
        "slowthermometer",
        "Slow Thermometer",
        Drawing::Line("#C8C8C8", 0.5),
    ),
    ("rowindexer", "Row Indexer", Drawing::Cage("#7CC77C")),
    ("columnindexer", "Column Indexer", Drawing::Cage("#C77C7C")),
    ("boxindexer", "Box Indexer", Drawing::Cage("#7C7CC7")),
    ("xsum", "X Sum", Drawing::Outside("\u{25EF}")),
    ("skyscraper", "Skyscraper", Drawing::Outside("\u{25AF}")),
];

/// The keys f-puzzles draws and SudokuPad reads without drawing, each with the `fromConstraint`
/// name of the drawing a SudokuPad link adds beside it ([`for_sudokupad`]): a line, and a
/// diamond at each end.
pub(crate) const SUDOKUPAD_COPIES: [(&str, &str, &str); 1] = [("lockout", "Lockout", "#5A9BE6")];

/// The way a little killer's diagonal runs, as f-puzzles writes it, our word, and its step.
pub(crate) const DIRECTIONS: [(&str, &str, (i64, i64)); 4] = [
    ("UL", "up-left", (-1, -1)),
    ("UR", "up-right", (-1, 1)),
    ("DL", "down-left", (1, -1)),
    ("DR", "down-right", (1, 1)),
];

/// `A1` for row 0, column 0 (rows `A`…`Y`, columns from 1).
pub(crate) fn cell_name(row: usize, col: usize) -> String {
    format!("{}{}", (b'A' + row as u8) as char, col + 1)
}

/// `R1C1` for row 0, column 0; rows and columns outside the grid (-1, N) are f-puzzles' 0
/// and N + 1.
pub(crate) fn rc(row: i64, col: i64) -> String {
    format!("R{}C{}", row + 1, col + 1)
}

/// The symbols of a `regions:` block, in the order import gives them to regions.
pub(crate) const REGION_SYMBOLS: &str =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
