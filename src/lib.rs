//! sudoku-lsp: the command line (`cli`) and the language server (`lsp`) over `sudoku-core`,
//! which reads `.sudoku` files, reasons about each puzzle by constraint propagation and search,
//! rates and draws it.
//!
//! The code follows the data: text → `format` → `grid`, `rules` → `engine` → `logic` → `analysis` (in
//! `sudoku-core`, re-exported here under the same names) → `cli` / `lsp`, with `render`
//! (pictures of puzzles) beside those two faces. ARCHITECTURE.md walks through it.

pub use sudoku_core::{analysis, convert, engine, finding, format, grid, logic, render, rules};

pub mod cli;
pub mod files;
pub mod lsp;
