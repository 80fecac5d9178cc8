//! What the fuzz targets share: puzzle-like text made from fuzz bytes, the invariants of any
//! parse, and a client-side model of LSP positions written independently of the server's.

use arbitrary::{Result, Unstructured};
use sudoku_lsp::format::Document;
use sudoku_lsp::grid::digit_char;

/// The example files, whole: seeds for texts and pieces of them.
pub const FILES: &[&str] = &[
    include_str!("../../puzzles/easy.sudoku"),
    include_str!("../../puzzles/hard.sudoku"),
    include_str!("../../puzzles/diagonal.sudoku"),
    include_str!("../../puzzles/4x4.sudoku"),
    include_str!("../../puzzles/6x6.sudoku"),
    include_str!("../../puzzles/12x12.sudoku"),
    include_str!("../../puzzles/16x16.sudoku"),
    include_str!("../../puzzles/collection.sudoku"),
    include_str!("../../puzzles/broken/conflict.sudoku"),
    include_str!("../../puzzles/broken/impossible-cell.sudoku"),
    include_str!("../../puzzles/broken/no-solution.sudoku"),
    include_str!("../../puzzles/broken/parse-errors.sudoku"),
    include_str!("../../puzzles/broken/several-solutions.sudoku"),
];

/// Short pieces that mean something to the parser, or to positions.
const PIECES: &[&str] = &[
    "\n",
    "\n",
    "\n",
    "\r\n",
    "\r",
    "\n\n",
    " ",
    " ",
    "\t",
    ".",
    ".",
    ".",
    "0",
    "_",
    "1",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "A",
    "G",
    "P",
    "x",
    "|",
    "| ",
    "-",
    "+",
    "---+---+---\n",
    "------+------\n",
    "#",
    "# ",
    ": ",
    "# title: t\n",
    "# author: a\n",
    "# difficulty: hard\n",
    "# size: 4\n",
    "# size: 6\n",
    "# size: 16x16\n",
    "# size: 25\n",
    "# variant: diagonal\n",
    "# variant: classic\n",
    "# rating: 5\n",
    "// note\n",
    "é",
    "😀",
    "日本",
    "\u{feff}",
    "\u{0}",
    "..3.2.6..\n",
    "9..3.5..1\n",
    "..18.64..\n",
    "..81.29..\n",
    "7.......8\n",
    "..67.82..\n",
    "..26.95..\n",
    "8..2.3..9\n",
    "..5.1.3..\n",
    "483921657\n",
    "3.3.2.6..\n",
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n",
    "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....\n",
    "1..4.4..........\n",
    "12..\n..34\n",
    "1.3.|..2.\n",
    "1 2 3 4 5 6 7 8 9\n",
];

/// A line of a file, chosen by `index`.
fn file_line(index: usize) -> &'static str {
    let lines: usize = FILES.iter().map(|f| f.split_inclusive('\n').count()).sum();
    let mut i = index % lines;
    for file in FILES {
        for line in file.split_inclusive('\n') {
            if i == 0 {
                return line;
            }
            i -= 1;
        }
    }
    unreachable!()
}

/// A short run of any characters.
fn raw(u: &mut Unstructured) -> Result<String> {
    let n = u.int_in_range(1..=6)?;
    (0..n).map(|_| u.arbitrary::<char>()).collect()
}

/// One piece of puzzle-like text.
pub fn piece(u: &mut Unstructured) -> Result<String> {
    Ok(match u.int_in_range(0u8..=19)? {
        0..=11 => PIECES[u.choose_index(PIECES.len())?].to_string(),
        12..=16 => file_line(u.arbitrary::<u16>()? as usize).to_string(),
        17 => FILES[u.choose_index(FILES.len())?].to_string(),
        18 => {
            // A one-line puzzle of a random width (81 usually), digits and empties.
            let side = [4, 6, 9, 9, 9, 12, 16][u.choose_index(7)?];
            let mut line: String = (0..side * side)
                .map(|_| {
                    let d = u.int_in_range(0..=side as u8 + 1).unwrap_or(0);
                    if d == 0 || d as usize > side {
                        '.'
                    } else {
                        digit_char(d)
                    }
                })
                .collect();
            line.push('\n');
            line
        }
        _ => raw(u)?,
    })
}

/// Puzzle-like text of up to `max` pieces.
pub fn text(u: &mut Unstructured, max: usize) -> Result<String> {
    let n = u.int_in_range(0..=max)?;
    let mut out = String::new();
    for _ in 0..n {
        out.push_str(&piece(u)?);
    }
    Ok(out)
}

/// What must hold for any parse of any text: the parser's contract, the one list the tests
/// check too (`sudoku_lsp::format::check_invariants`).
pub fn check_invariants(text: &str, doc: &Document) {
    if let Err(broken) = sudoku_lsp::format::check_invariants(text, doc) {
        panic!("{broken}, in {text:?}");
    }
}

/// The unit a position's `character` counts in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Units {
    Utf8,
    Utf16,
    Utf32,
}

impl Units {
    pub fn of(c: char, units: Units) -> usize {
        match units {
            Units::Utf8 => c.len_utf8(),
            Units::Utf16 => c.len_utf16(),
            Units::Utf32 => 1,
        }
    }
}

/// The lines of `text` as LSP sees them: `(start, content_end)` byte offsets, lines ending at
/// `\n`, `\r\n` or a lone `\r`; always at least one (possibly empty) line.
pub fn lsp_lines(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut lines = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\n' => {
                lines.push((start, i));
                start = i + 1;
            }
            b'\r' if b.get(i + 1) == Some(&b'\n') => {
                lines.push((start, i));
                i += 1;
                start = i + 1;
            }
            b'\r' => {
                lines.push((start, i));
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    lines.push((start, b.len()));
    lines
}

/// The byte offset an LSP position names, per the spec and the clamping the server documents:
/// a line past the last means the end of the text, a character past its line's end means the
/// line's end, a character inside a multi-unit character means that character's start.
pub fn resolve(text: &str, line: u32, character: u32, units: Units) -> usize {
    let lines = lsp_lines(text);
    let Some(&(start, end)) = lines.get(line as usize) else {
        return text.len();
    };
    let mut counted = 0;
    for (i, c) in text[start..end].char_indices() {
        let next = counted + Units::of(c, units);
        if next > character as usize {
            return start + i;
        }
        counted = next;
    }
    end
}

/// The LSP position of a byte offset (a char boundary of `text`).
pub fn position(text: &str, byte: usize, units: Units) -> (u32, u32) {
    let lines = lsp_lines(text);
    // The last line starting at or before `byte` (a byte between `\r` and `\n` is on the line
    // the `\r` ends).
    let line = lines.partition_point(|&(start, _)| start <= byte) - 1;
    let start = lines[line].0;
    let character: usize = text[start..byte].chars().map(|c| Units::of(c, units)).sum();
    (line as u32, character as u32)
}
