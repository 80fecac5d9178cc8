//! sudoku-core: reads `.sudoku` text, reasons about each puzzle by constraint propagation and
//! search, rates it the way Sudoku Explainer does, and draws it. The language server and the
//! command line (the `sudoku-lsp` crate) are two thin faces over this crate; it needs no
//! async runtime, no editor protocol and no terminal, and builds for `wasm32-unknown-unknown`
//! (without its default features: see below).
//!
//! The code follows the data, each module using only those above it in this list:
//!
//! - [`grid`]: the geometry (sizes, variants, units and peers) and the names of cells, `A1`
//!   (top left) to `I9`.
//! - [`finding`]: what a check says about a span of text (severity, message, related places).
//! - [`rules`]: a variant puzzle's constraints beyond its houses (cages, thermometers, dots…),
//!   resolved to cells, and what each one means (the independent checker).
//! - [`format`](mod@format): text → [`format::Document`] (puzzles, metadata, comments, every span kept) and
//!   back, in any layout style, and re-reading only the lines an edit touched.
//! - [`convert`]: other tools' formats (f-puzzles JSON and links, SudokuPad links) to `.sudoku`
//!   text and back, LZ-String payloads read by a bounded decoder of our own.
//! - [`engine`]: candidates, propagation with reasons (elimination, only choice, naked twins)
//!   and depth-first search on the cell with the fewest candidates; [`engine::solve`] picks the
//!   fast 9×9 solver itself; every search asks one [`engine::Budget`] whether to stop.
//! - [`logic`]: the named techniques, one file per family, each finder a pure function from a
//!   candidate grid to steps; the step-by-step solver and the rating.
//! - [`analysis`]: what a puzzle's check finds (verdict, conflicts, minimal unsolvable core),
//!   grades and hints, explanations, generated puzzles.
//! - [`render`]: pictures of a puzzle as SVG, and as PNG with the `png` feature.
//!
//! # Example
//!
//! Read a file's text, check its first puzzle and rate it:
//!
//! ```
//! use sudoku_core::analysis::{analyze, grade, Verdict};
//! use sudoku_core::engine::Budget;
//! use sudoku_core::format::parse;
//!
//! let text = "# title: a gentle one\n\
//!     ..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n";
//! let document = parse(text);
//! let puzzle = &document.puzzles[0];
//! let budget = Budget::unlimited();
//!
//! let analysis = analyze(puzzle.size, puzzle.variant, &puzzle.givens, &budget);
//! let Verdict::Unique(solution) = &analysis.verdict else { panic!("one solution expected") };
//! assert_eq!(&solution[..9], &[4, 8, 3, 9, 2, 1, 6, 5, 7]);
//!
//! let rated = grade(puzzle.size, puzzle.variant, &puzzle.givens, &budget).unwrap();
//! assert!(rated.rating.complete);
//! println!("SE {}", rated.rating.difficulty);
//! ```
//!
//! Every finding names its place in the text, so a face can show it where it belongs:
//!
//! ```
//! use sudoku_core::analysis::{analyze, findings};
//! use sudoku_core::engine::Budget;
//! use sudoku_core::format::parse;
//!
//! let text = format!("33.......\n{}", ".........\n".repeat(8));
//! let document = parse(&text);
//! let puzzle = &document.puzzles[0];
//! let analysis = analyze(puzzle.size, puzzle.variant, &puzzle.givens, &Budget::unlimited());
//! let said = findings(puzzle, &analysis);
//! assert_eq!(said[0].message, "3 appears twice in row A and box 1: A1 and A2");
//! assert_eq!(&text[said[0].span.start..said[0].span.end], "3"); // the cell A1
//! ```
//!
//! # Features
//!
//! - `threads` (default): check the puzzles of a large document on every core (rayon). Without
//!   it they are checked one after another, as a browser's main thread must.
//! - `png` (default): [`render::png`] rasterises a picture with the system's fonts (resvg).
//!
//! `cargo build -p sudoku-core --target wasm32-unknown-unknown --no-default-features` builds
//! the crate for the browser; CI checks that it does.

// What is not reachable from these modules is `pub(crate)`, so the API is exactly what the
// modules re-export; the lint keeps it so.
#![warn(unreachable_pub)]

pub mod analysis;
mod cells;
pub mod convert;
pub mod engine;
pub mod finding;
pub mod format;
pub mod grid;
pub mod logic;
pub mod render;
pub mod rules;
