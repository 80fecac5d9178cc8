//! sudoku-lsp: reads `.sudoku` files, reasons about each puzzle by constraint propagation and
//! search, and says so on the command line (`cli`) and in editors (`lsp`).
//!
//! The code follows the data: text → `format` → `grid` → `engine` → `logic` → `analysis` → `cli` /
//! `lsp`, with `render` (pictures of puzzles) beside those two faces.

pub mod analysis;
pub mod cli;
pub mod engine;
pub mod files;
pub mod finding;
pub mod format;
pub mod grid;
pub mod logic;
pub mod lsp;
pub mod render;
