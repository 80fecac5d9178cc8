//! Other tools' puzzle formats, to `.sudoku` text and back: f-puzzles JSON and its links, and
//! SudokuPad's links that carry an f-puzzles payload. Their payloads are LZ-String
//! ([`lzstring`]).

pub mod fpuzzles;
pub mod links;
pub mod lzstring;
