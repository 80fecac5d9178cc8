//! Other tools' puzzle formats, to `.sudoku` text and back: f-puzzles JSON and its links,
//! SudokuPad's links (an f-puzzles payload, or SudokuPad's own format, [`sudokupad`]; both
//! LZ-String, [`lzstring`]), the classic text formats of other Sudoku programs ([`classic`]:
//! `.sdk`, `.sdm`, `.sdx`, Simple Sudoku, HoDoKu, killer and jigsaw lines), and sigh's
//! Interactive Sudoku Solver constraint strings and links ([`sigh`]).

pub mod classic;
pub mod fpuzzles;
pub mod links;
pub mod lzstring;
pub mod sigh;
pub mod sudokupad;
