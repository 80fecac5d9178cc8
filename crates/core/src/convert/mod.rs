//! Other tools' puzzle formats, to `.sudoku` text and back: f-puzzles JSON and its links,
//! SudokuPad's links (an f-puzzles payload, or SudokuPad's own format, [`sudokupad`]; both
//! LZ-String, [`lzstring`]), and the classic text formats of other Sudoku programs
//! ([`classic`]: `.sdk`, `.sdm`, `.sdx`, Simple Sudoku, HoDoKu, killer and jigsaw lines).

pub mod classic;
pub mod fpuzzles;
pub mod links;
pub mod lzstring;
pub mod sudokupad;
