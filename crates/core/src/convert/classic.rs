//! The classic text formats other Sudoku programs write, to `.sudoku` text: SudoCue's and
//! SadMan's `.sdk` (a grid under `#A`-style header lines or a `[Puzzle]` section), `.sdm` (a
//! puzzle a line), SudoCue's `.sdx` (a solver's progress: givens, `u` entries, candidates),
//! Simple Sudoku's `.ss` grids (givens, then the solver's values, then pencil marks), HoDoKu's
//! library lines (`:0000:x:<cells>:<deleted candidates>::`), SudoCue's killer lines
//! (`3x3:d:k:` and 81 numbers, `sum × 256 + cage`), the 81-character killer notation (a sum
//! character in one cell of each cage, arrows in the others), jigsaw layouts (81 cells then
//! 81 region symbols on one line; janko.at's `R C` header, clue rows and region rows), and
//! sigh's constraint strings (`.Cage~15~R1C1~R1C2.Thermo~…`, a puzzle a line; read by
//! [`super::sigh`]).
//!
//! [`detect`] names the format of a text that says by its shape which one it is; a file's
//! extension ([`Format::from_extension`]) or the user (`--from`) names the others, whose text
//! could as well be `.sudoku` already. [`import`] writes each puzzle. Killers and jigsaws go
//! through f-puzzles JSON and its canonical writer, so their text is the one an f-puzzles link
//! of the same puzzle gives; grids with entries or candidates are written as the `.sudoku`
//! format writes them (`+7` an entry, a pencil-mark grid for candidates). What a format holds
//! that the text cannot (SadMan's other sections, a HoDoKu technique test's fields, `.sdk`
//! header lines with no metadata key) is kept as a comment and named in a warning.

use serde_json::{json, Map, Value};

use super::fpuzzles::{self, Imported};
use crate::format::{
    every_digit, grid_block_with_entries, grid_line, marks_grid, DigitSet, Puzzle,
};
use crate::grid::{Size, Variant};

/// A classic format, by the name `--from` takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Sdk,
    Sdm,
    Sdx,
    SimpleSudoku,
    HoDoKu,
    SudoCueKiller,
    ShortKiller,
    JigsawLine,
    Janko,
    Sigh,
}

/// Each format's name, as `--from` takes it and messages say it.
pub const FORMATS: [(&str, Format); 10] = [
    ("sdk", Format::Sdk),
    ("sdm", Format::Sdm),
    ("sdx", Format::Sdx),
    ("ss", Format::SimpleSudoku),
    ("hodoku", Format::HoDoKu),
    ("sudocue-killer", Format::SudoCueKiller),
    ("short-killer", Format::ShortKiller),
    ("jigsaw-line", Format::JigsawLine),
    ("janko", Format::Janko),
    ("sigh", Format::Sigh),
];

impl Format {
    pub fn name(self) -> &'static str {
        FORMATS
            .iter()
            .find(|(_, f)| *f == self)
            .map_or("", |(n, _)| n)
    }

    pub fn from_name(name: &str) -> Option<Format> {
        let name = name.to_ascii_lowercase();
        FORMATS.iter().find(|(n, _)| *n == name).map(|(_, f)| *f)
    }

    /// The format a file's extension names (`sdk`, `sdm`, `sdx`, `ss`), any case.
    pub fn from_extension(extension: &str) -> Option<Format> {
        match extension.to_ascii_lowercase().as_str() {
            "sdk" => Some(Format::Sdk),
            "sdm" => Some(Format::Sdm),
            "sdx" => Some(Format::Sdx),
            "ss" => Some(Format::SimpleSudoku),
            _ => None,
        }
    }

    /// Whether each line of the input is a puzzle of its own (else the whole input is one).
    fn by_line(self) -> bool {
        matches!(
            self,
            Format::Sdm
                | Format::HoDoKu
                | Format::SudoCueKiller
                | Format::ShortKiller
                | Format::JigsawLine
                | Format::Sigh
        )
    }
}

/// One puzzle of an input, or why its line is none: `line` is 1-based, and an error's message
/// names the character (`character 17: …`) where it can.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    pub line: usize,
    pub result: Result<Imported, String>,
}

/// The format a text is in when its shape says so: a sigh constraint string, a HoDoKu library
/// line, a SudoCue killer line, an 81-character killer, a jigsaw line (162 characters on a 9×9), a
/// janko.at layout, a grid under `.sdk` header lines or SadMan's `[Puzzle]`, or `.sdx`
/// progress rows. Anything else
/// (`.sudoku` text, links, plain grids and one-liners, which read as `.sudoku` already) is
/// `None`.
///
/// The formats of one puzzle a line are known by their first line that is no `#` comment (a
/// collection often opens with a few); `.sdk` header lines, which start with `#`, by the first.
pub fn detect(text: &str) -> Option<Format> {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next()?;
    let first_puzzle = std::iter::once(first)
        .chain(lines)
        .find(|l| !l.starts_with('#'))
        .unwrap_or(first);
    if super::sigh::is_constraint_string(first_puzzle) {
        Some(Format::Sigh)
    } else if is_hodoku_line(first_puzzle) {
        Some(Format::HoDoKu)
    } else if is_sudocue_killer(first_puzzle) {
        Some(Format::SudoCueKiller)
    } else if is_short_killer(first_puzzle) {
        Some(Format::ShortKiller)
    } else if is_jigsaw_line(first_puzzle) {
        Some(Format::JigsawLine)
    } else if is_janko_header(first) {
        Some(Format::Janko)
    } else if is_sdk_header(first) || first.eq_ignore_ascii_case("[puzzle]") {
        Some(Format::Sdk)
    } else if is_sdx(text) {
        Some(Format::Sdx)
    } else {
        None
    }
}

fn is_hodoku_line(line: &str) -> bool {
    let fields: Vec<&str> = line.split(':').collect();
    fields.len() >= 5
        && fields[0].is_empty()
        && !fields[1].is_empty()
        && fields[1]
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-')
}

fn is_sudocue_killer(line: &str) -> bool {
    let mut fields = line.split(':');
    let shape = fields.next().unwrap_or("");
    let _diagonals = fields.next();
    box_shape(shape).is_some() && fields.next() == Some("k")
}

/// `3x3` (a box's rows and columns), the side its grid has.
fn box_shape(shape: &str) -> Option<(usize, usize)> {
    let (rows, columns) = shape.split_once('x')?;
    Some((rows.parse().ok()?, columns.parse().ok()?))
}

fn is_short_killer(line: &str) -> bool {
    line.chars().count() == 81
        && line.chars().any(|c| matches!(c, '<' | '>' | '^' | 'v'))
        && line
            .chars()
            .all(|c| short_sum(c).is_some() || pointer(c).is_some())
}

/// Whether `line` is a jigsaw on one line (see [`jigsaw_line`]), of any side 4 to 16.
fn is_jigsaw_line(line: &str) -> bool {
    jigsaw_parts(line).is_some_and(|(side, cells, regions)| {
        jigsaw_cells(cells, side).is_ok() && regions.chars().all(|c| c.is_ascii_alphanumeric())
    })
}

/// A jigsaw line's side, cells and regions: side² characters each, together or with a space
/// between (as sigh writes them).
fn jigsaw_parts(line: &str) -> Option<(usize, &str, &str)> {
    let line = line.trim();
    let (cells, regions) = match line.split_once(char::is_whitespace) {
        Some((cells, regions)) => (cells, regions.trim_start()),
        None => line.split_at_checked(line.len() / 2)?,
    };
    let side = (4..=16).find(|side| side * side == cells.len())?;
    let fits = line.is_ascii() && regions.len() == cells.len() && Size::from_side(side).is_some();
    fits.then_some((side, cells, regions))
}

/// A jigsaw line's cells: `.` or `0` empty, digits 1-9, and above 9 either letters from `A`
/// for 10 on (`1`-`9` then `A`-`G` on a 16×16) or, in a line with no digit 1-9 at all, letters
/// from `A` for 1 on (sigh's 16×16 jigsaws: `A`-`P`).
fn jigsaw_cells(text: &str, side: usize) -> Result<Vec<u8>, String> {
    let letters_from_one = side > 9 && !text.bytes().any(|b| matches!(b, b'1'..=b'9'));
    let digit = |c: char| -> Option<u8> {
        let value = match c {
            '.' | '0' => 0,
            '1'..='9' if !letters_from_one => c as u8 - b'0',
            'A'..='Z' | 'a'..='z' if side > 9 => {
                let from_a = c.to_ascii_uppercase() as u8 - b'A';
                if letters_from_one {
                    from_a + 1
                } else {
                    from_a + 10
                }
            }
            _ => return None,
        };
        (value as usize <= side).then_some(value)
    };
    text.chars()
        .enumerate()
        .map(|(i, c)| {
            digit(c).ok_or_else(|| {
                format!(
                    "character {}: {c:?} is no cell of a {side}×{side} jigsaw line",
                    i + 1
                )
            })
        })
        .collect()
}

fn is_janko_header(line: &str) -> bool {
    let numbers: Vec<&str> = line.split_whitespace().collect();
    numbers.len() == 2 && numbers.iter().all(|n| n.parse::<usize>().is_ok())
}

/// `#A…`, `#D…`: a header line of SudoCue's `.sdk` (author, description, comment, date,
/// source, level, URL).
fn is_sdk_header(line: &str) -> bool {
    let mut chars = line.chars();
    chars.next() == Some('#') && chars.next().is_some_and(|c| "ADCBSLU".contains(c))
}

/// Nine rows of nine groups, each `u` and a digit or one or more digits, with at least one
/// entry or candidate list (rows of lone digits are a grid `.sudoku` reads as it is).
fn is_sdx(text: &str) -> bool {
    let rows: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    rows.len() == 9
        && rows.iter().all(|row| {
            let groups: Vec<&str> = row.split_whitespace().collect();
            groups.len() == 9 && groups.iter().all(|g| sdx_group(g).is_some())
        })
        && text
            .split_whitespace()
            .any(|g| g.starts_with('u') || g.len() > 1)
}

/// Every puzzle of a text in `format`.
pub fn import(text: &str, format: Format) -> Vec<Piece> {
    if !format.by_line() {
        let line = text
            .lines()
            .position(|l| !l.trim().is_empty())
            .map_or(1, |i| i + 1);
        let result = match format {
            Format::Sdk => sdk(text),
            Format::Sdx => sdx(text),
            Format::SimpleSudoku => simple_sudoku(text),
            _ => janko(text),
        };
        return vec![Piece { line, result }];
    }
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, line)| {
            let line_text = line.trim();
            let result = match format {
                Format::Sdm => sdm(line_text),
                Format::HoDoKu => hodoku(line_text),
                Format::SudoCueKiller => sudocue_killer(line_text),
                Format::ShortKiller => short_killer(line_text),
                Format::Sigh => super::sigh::import_line(line_text),
                _ => jigsaw_line(line_text),
            };
            Piece {
                line: i + 1,
                result,
            }
        })
        .collect()
}

/// A 9×9 grid as read: givens, entries (the solver's digits) and candidates, by cell.
struct Grid {
    givens: Vec<u8>,
    entries: Vec<u8>,
    marks: Option<Vec<DigitSet>>,
}

impl Grid {
    fn empty() -> Grid {
        Grid {
            givens: vec![0; 81],
            entries: vec![0; 81],
            marks: None,
        }
    }

    /// The grid as `.sudoku` text: a pencil-mark grid when it has candidates, else the
    /// canonical grid block with entries written `+7`.
    fn text(&self) -> String {
        let placed: Vec<u8> = (0..81)
            .map(|c| self.givens[c].max(self.entries[c]))
            .collect();
        let is_entry: Vec<bool> = self.entries.iter().map(|&d| d != 0).collect();
        if let Some(marks) = &self.marks {
            let marks: Vec<DigitSet> = (0..81)
                .map(|c| match placed[c] {
                    0 => marks[c],
                    d => 1 << (d - 1),
                })
                .collect();
            return marks_grid(Size::NINE, &placed, &marks, Some(&is_entry));
        }
        grid_block_with_entries(Size::NINE, &placed, Some(&is_entry))
    }
}

/// The candidates a cell keeps with only the placed digits of its peers ruled out.
fn basic_marks(placed: &[u8]) -> Vec<DigitSet> {
    (0..81)
        .map(|cell| {
            let (r, c) = (cell / 9, cell % 9);
            let mut set = every_digit(9);
            for (other, &digit) in placed.iter().enumerate() {
                let (r2, c2) = (other / 9, other % 9);
                let peer = r == r2 || c == c2 || (r / 3 == r2 / 3 && c / 3 == c2 / 3);
                if peer && other != cell && digit != 0 {
                    set &= !(1 << (digit - 1));
                }
            }
            set
        })
        .collect()
}

fn imported(text: String, warnings: Vec<String>) -> Result<Imported, String> {
    Ok(Imported {
        text,
        warnings,
        errors: Vec::new(),
    })
}

/// The digit of a cell character: `1`–`9`, or 0 for `.` and `0`.
fn cell_digit(c: char) -> Option<u8> {
    match c {
        '.' | '0' => Some(0),
        '1'..='9' => Some(c as u8 - b'0'),
        _ => None,
    }
}

/// An `.sdm` line: 81 cells, `0` or `.` empty.
fn sdm(line: &str) -> Result<Imported, String> {
    let cells = cells_of(line, "an .sdm line")?;
    imported(format!("{}\n", grid_line(&cells)), vec![])
}

/// Exactly 81 cell characters.
fn cells_of(text: &str, what: &str) -> Result<Vec<u8>, String> {
    let mut cells = Vec::with_capacity(81);
    for (i, c) in text.chars().enumerate() {
        let digit = cell_digit(c).ok_or_else(|| {
            format!(
                "character {}: {c:?} is no cell of {what} (1-9, or 0 or . for an empty cell)",
                i + 1
            )
        })?;
        cells.push(digit);
    }
    if cells.len() != 81 {
        return Err(format!("{what} has 81 cells, this one {}", cells.len()));
    }
    Ok(cells)
}

/// SudoCue's `.sdk`: header lines `#A` author, `#D` description, `#C` comment, `#B` date,
/// `#S` source, `#L` level, `#U` URL, then nine rows; or SadMan's sections, the puzzle under
/// `[Puzzle]` (the others kept as comments).
fn sdk(text: &str) -> Result<Imported, String> {
    let mut meta: [Option<String>; 4] = Default::default();
    let mut kept = Vec::new();
    let mut kinds: Vec<String> = Vec::new();
    let mut rows: Vec<(usize, &str)> = Vec::new();
    let mut section: Option<String> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if line.starts_with('[') && line.ends_with(']') {
            section = Some(line[1..line.len() - 1].to_string());
            continue;
        }
        let in_puzzle = section
            .as_deref()
            .is_none_or(|s| s.eq_ignore_ascii_case("puzzle"));
        if !in_puzzle || rows.len() == 9 {
            let what = match &section {
                Some(name) if !in_puzzle => format!("the [{name}] section"),
                _ => "lines past the grid".to_string(),
            };
            if !kinds.contains(&what) {
                kinds.push(what);
            }
            kept.push(format!("# {raw}"));
            continue;
        }
        if let Some(header) = line.strip_prefix('#') {
            let mut chars = header.chars();
            let key = chars.next();
            let value = chars.as_str().trim().to_string();
            match SDK_KEYS.iter().position(|(letter, _)| Some(*letter) == key) {
                Some(i) if meta[i].is_none() => meta[i] = Some(value),
                _ => {
                    let what = match key {
                        Some('C') => "#C (comment)".to_string(),
                        Some('B') => "#B (date)".to_string(),
                        Some('U') => "#U (URL)".to_string(),
                        _ => format!("#{}", key.map(String::from).unwrap_or_default()),
                    };
                    kinds.push(what);
                    kept.push(format!("# {raw}"));
                }
            }
            continue;
        }
        rows.push((i + 1, line));
    }
    if rows.len() < 9 {
        return Err(format!(
            "an .sdk puzzle has nine rows of nine cells, this one {}",
            rows.len()
        ));
    }
    let mut grid = Grid::empty();
    for (r, (line, row)) in rows.iter().enumerate() {
        let cells: Vec<char> = row
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '|')
            .collect();
        if cells.len() != 9 {
            return Err(format!(
                "line {line}: a row has nine cells, this one {}",
                cells.len()
            ));
        }
        for (c, &ch) in cells.iter().enumerate() {
            grid.givens[r * 9 + c] = cell_digit(ch).ok_or_else(|| {
                format!("line {line}: {ch:?} is no cell (1-9, or 0 or . for an empty cell)")
            })?;
        }
    }
    let mut warnings = Vec::new();
    if !kinds.is_empty() {
        warnings.push(format!(
            "kept as comments, with no metadata key to hold them: {}",
            kinds.join(", ")
        ));
    }
    let mut text = String::new();
    for ((_, key), value) in SDK_KEYS.iter().zip(&meta) {
        if let Some(value) = value {
            text.push_str(&format!("# {key}: {value}\n"));
        }
    }
    for line in &kept {
        text.push_str(line);
        text.push('\n');
    }
    text.push_str(&grid.text());
    imported(text, warnings)
}

/// The `.sdk` header letters that have a metadata key, in the order both are written: `#D`,
/// SudoCue's description, is the puzzle's title.
const SDK_KEYS: [(char, &str); 4] = [
    ('D', "title"),
    ('A', "author"),
    ('S', "source"),
    ('L', "difficulty"),
];

/// A classic 9×9 puzzle as an `.sdk` file: `#D` title, `#A` author, `#S` source and `#L`
/// difficulty, then its givens in nine rows; and what was left out (entries, pencil marks).
/// A puzzle of another size or with rules beyond the classic ones has no `.sdk`: the error says
/// why.
pub fn export_sdk(puzzle: &Puzzle) -> Result<(String, Vec<String>), String> {
    if puzzle.size != Size::NINE {
        let side = puzzle.size.side();
        return Err(format!(
            "an .sdk file holds a 9×9 puzzle, this one is {side}×{side}"
        ));
    }
    if puzzle.variant != Variant::Classic || puzzle.rules.is_some() {
        return Err(
            "an .sdk file holds a classic puzzle: this one has rules beyond the rows, columns \
             and boxes (a variant, constraint lines or regions)"
                .to_string(),
        );
    }
    let mut text = String::new();
    let values = [
        &puzzle.meta.title,
        &puzzle.meta.author,
        &puzzle.meta.source,
        &puzzle.meta.difficulty,
    ];
    for ((letter, _), entry) in SDK_KEYS.iter().zip(values) {
        if let Some(entry) = entry {
            text.push_str(&format!("#{letter}{}\n", entry.value));
        }
    }
    let clues = puzzle.clues();
    for row in clues.chunks(9) {
        text.push_str(&grid_line(row));
        text.push('\n');
    }
    let mut left_out = Vec::new();
    if puzzle.entries.is_some() {
        left_out.push("the solver's entries (an .sdk file holds the givens only)".to_string());
    }
    if puzzle.marks.is_some() {
        left_out.push("the pencil marks (an .sdk file holds the givens only)".to_string());
    }
    Ok((text, left_out))
}

/// One `.sdx` group: a given digit, `u` and an entry, or the candidates of an empty cell.
enum SdxGroup {
    Given(u8),
    Entry(u8),
    Candidates(DigitSet),
}

fn sdx_group(group: &str) -> Option<SdxGroup> {
    if let Some(entry) = group.strip_prefix('u') {
        return match entry.as_bytes() {
            [d @ b'1'..=b'9'] => Some(SdxGroup::Entry(d - b'0')),
            _ => None,
        };
    }
    if group.is_empty() || !group.bytes().all(|b| (b'1'..=b'9').contains(&b)) {
        return None;
    }
    if group.len() == 1 {
        return Some(SdxGroup::Given(group.as_bytes()[0] - b'0'));
    }
    Some(SdxGroup::Candidates(
        group.bytes().fold(0, |set, b| set | 1 << (b - b'1')),
    ))
}

/// SudoCue's `.sdx`: nine rows of nine groups (`6 9 2 8 u1 7 3 59 4`).
fn sdx(text: &str) -> Result<Imported, String> {
    let rows: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| (i + 1, l))
        .collect();
    if rows.len() != 9 {
        return Err(format!(
            "an .sdx puzzle has nine rows, this one {}",
            rows.len()
        ));
    }
    let mut grid = Grid::empty();
    let mut marks = vec![0; 81];
    for (r, (line, row)) in rows.iter().enumerate() {
        let groups: Vec<&str> = row.split_whitespace().collect();
        if groups.len() != 9 {
            return Err(format!(
                "line {line}: a row has nine groups, this one {}",
                groups.len()
            ));
        }
        for (c, group) in groups.iter().enumerate() {
            let cell = r * 9 + c;
            match sdx_group(group) {
                Some(SdxGroup::Given(d)) => grid.givens[cell] = d,
                Some(SdxGroup::Entry(d)) => grid.entries[cell] = d,
                Some(SdxGroup::Candidates(set)) => marks[cell] = set,
                None => {
                    return Err(format!(
                        "line {line}: group {} {group:?} is no .sdx cell (a given digit, u and \
                         a digit, or an empty cell's candidates)",
                        c + 1
                    ))
                }
            }
        }
    }
    if marks.iter().any(|&m| m != 0) {
        grid.marks = Some(marks);
    }
    imported(grid.text(), vec![])
}

/// Simple Sudoku's `.ss`: up to three grids (`*-----------*` borders, `|8..|4..|...|` rows):
/// the givens, the givens with the solver's values, the pencil marks.
fn simple_sudoku(text: &str) -> Result<Imported, String> {
    let mut grids: Vec<Vec<(usize, Vec<&str>)>> = vec![vec![]];
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty()
            || line.starts_with('*')
            || line.starts_with("|-")
            || line.starts_with('-')
        {
            if line.starts_with('*') && grids.last().is_some_and(|g| g.len() == 9) {
                grids.push(vec![]);
            }
            continue;
        }
        let current = grids.last_mut().expect("one grid at least");
        if current.len() == 9 {
            grids.push(vec![]);
        }
        let row = line.trim_matches('|');
        let groups: Vec<&str> = row
            .split(|c: char| c == '|' || c.is_whitespace())
            .filter(|g| !g.is_empty())
            .collect();
        grids.last_mut().expect("a grid").push((i + 1, groups));
    }
    grids.retain(|g| !g.is_empty());
    if grids.is_empty() || grids.len() > 3 {
        return Err(format!(
            "a Simple Sudoku file holds one to three grids (givens, values, pencil marks), this one {}",
            grids.len()
        ));
    }
    let mut grid = Grid::empty();
    for (n, rows) in grids.iter().enumerate() {
        if rows.len() != 9 {
            return Err(format!(
                "line {}: a grid has nine rows, this one {}",
                rows[0].0,
                rows.len()
            ));
        }
        let is_marks = rows.iter().all(|(_, groups)| groups.len() == 9)
            && rows.iter().any(|(_, g)| g.iter().any(|g| g.len() > 1));
        for (r, (line, groups)) in rows.iter().enumerate() {
            let cells: Vec<char> = groups.concat().chars().collect();
            if is_marks {
                let marks = grid.marks.get_or_insert_with(|| vec![0; 81]);
                for (c, group) in groups.iter().enumerate() {
                    let set = group
                        .chars()
                        .try_fold(0u32, |set, ch| match cell_digit(ch) {
                            Some(d) if d > 0 => Some(set | 1 << (d - 1)),
                            _ => None,
                        });
                    marks[r * 9 + c] = set.ok_or_else(|| {
                        format!("line {line}: {group:?} is no group of pencil marks")
                    })?;
                }
                continue;
            }
            if cells.len() != 9 {
                return Err(format!(
                    "line {line}: a row has nine cells, this one {}",
                    cells.len()
                ));
            }
            for (c, &ch) in cells.iter().enumerate() {
                let digit = cell_digit(ch).ok_or_else(|| {
                    format!("line {line}: {ch:?} is no cell (1-9, or . for an empty cell)")
                })?;
                let cell = r * 9 + c;
                match n {
                    0 => grid.givens[cell] = digit,
                    _ if grid.givens[cell] == 0 => grid.entries[cell] = digit,
                    _ => {}
                }
            }
        }
    }
    if let Some(marks) = &mut grid.marks {
        // A pencil-mark grid writes placed cells as their digit: keep only the empty cells'.
        for (c, mark) in marks.iter_mut().enumerate() {
            if grid.givens[c] != 0 || grid.entries[c] != 0 {
                *mark = 0;
            }
        }
    }
    imported(grid.text(), vec![])
}

/// A HoDoKu library line: `:<technique>:<candidates>:<cells>:<deleted>:<eliminations>:
/// <placements>:<extra>`, `+` before an entry; a whole puzzle is `:0000:x:<cells>:::`.
fn hodoku(line: &str) -> Result<Imported, String> {
    let fields: Vec<&str> = line.split(':').collect();
    if fields.len() < 5 || !fields[0].is_empty() {
        return Err("a HoDoKu library line reads :technique:candidates:cells:deleted:…".into());
    }
    let mut grid = Grid::empty();
    let mut cell = 0;
    let mut entry = false;
    let offset = fields[1].len() + fields[2].len() + 3;
    for (i, c) in fields[3].chars().enumerate() {
        if c == '+' {
            entry = true;
            continue;
        }
        let digit = cell_digit(c).filter(|_| cell < 81).ok_or_else(|| {
            format!(
                "character {}: {c:?} is no cell here (81 cells: 1-9, . or 0, + before an entry)",
                offset + i + 1
            )
        })?;
        if entry && digit != 0 {
            grid.entries[cell] = digit;
        } else {
            grid.givens[cell] = digit;
        }
        entry = false;
        cell += 1;
    }
    if cell != 81 {
        return Err(format!("the cells field has 81 cells, this one {cell}"));
    }
    let deleted = candidates_field(fields[4]).map_err(|e| format!("deleted candidates: {e}"))?;
    if !deleted.is_empty() {
        let placed: Vec<u8> = (0..81)
            .map(|c| grid.givens[c].max(grid.entries[c]))
            .collect();
        let mut marks = basic_marks(&placed);
        for (digit, cell) in deleted {
            marks[cell] &= !(1 << (digit - 1));
        }
        grid.marks = Some(marks);
    }
    let mut text = String::new();
    let mut warnings = Vec::new();
    let test = fields[1] != "0000" || fields[5..].iter().any(|f| !f.is_empty());
    if test {
        let named = [
            ("candidates", 2),
            ("eliminations", 5),
            ("placements", 6),
            ("extra", 7),
        ];
        let mut comment = format!("# hodoku: technique {}", fields[1]);
        for (name, i) in named {
            if let Some(field) = fields.get(i).filter(|f| !f.is_empty()) {
                comment.push_str(&format!(", {name} {field}"));
            }
        }
        text.push_str(&comment);
        text.push('\n');
        warnings.push(
            "a HoDoKu technique test: its technique, eliminations and placements are kept as a \
             comment"
                .to_string(),
        );
    }
    text.push_str(&grid.text());
    imported(text, warnings)
}

/// HoDoKu's candidate list: `<digit><row><column>` triples separated by blanks.
fn candidates_field(field: &str) -> Result<Vec<(u8, usize)>, String> {
    field
        .split_whitespace()
        .map(|triple| match triple.as_bytes() {
            [d @ b'1'..=b'9', r @ b'1'..=b'9', c @ b'1'..=b'9'] => {
                Ok((d - b'0', (r - b'1') as usize * 9 + (c - b'1') as usize))
            }
            _ => Err(format!("{triple:?} is no <digit><row><column> triple")),
        })
        .collect()
}

/// An empty f-puzzles puzzle of `side`, for the killer and jigsaw formats to fill.
fn fpuzzles_puzzle(side: usize) -> Map<String, Value> {
    let row = Value::Array(vec![json!({}); side]);
    let mut puzzle = Map::new();
    puzzle.insert("size".into(), json!(side));
    puzzle.insert("grid".into(), Value::Array(vec![row; side]));
    puzzle
}

fn set_given(puzzle: &mut Map<String, Value>, side: usize, cell: usize, digit: u8) {
    let cell = &mut puzzle["grid"][cell / side][cell % side];
    cell["value"] = json!(digit);
    cell["given"] = json!(true);
}

fn cell_name(side: usize, cell: usize) -> String {
    format!("R{}C{}", cell / side + 1, cell % side + 1)
}

/// Cages by id, in order of first cell, as f-puzzles `killercage` entries.
fn cages(side: usize, cage_of: &[Option<(usize, Option<u32>)>]) -> Vec<Value> {
    let mut order: Vec<usize> = Vec::new();
    for (id, _) in cage_of.iter().flatten() {
        if !order.contains(id) {
            order.push(*id);
        }
    }
    order
        .iter()
        .map(|&id| {
            let cells: Vec<String> = (0..cage_of.len())
                .filter(|&c| cage_of[c].is_some_and(|(i, _)| i == id))
                .map(|c| cell_name(side, c))
                .collect();
            let sum = cage_of
                .iter()
                .flatten()
                .find(|(i, _)| *i == id)
                .and_then(|(_, s)| *s);
            match sum {
                Some(sum) => json!({"cells": cells, "value": sum.to_string()}),
                None => json!({"cells": cells}),
            }
        })
        .collect()
}

fn through_fpuzzles(puzzle: Map<String, Value>) -> Result<Imported, String> {
    fpuzzles::import(&Value::Object(puzzle)).map_err(|e| e.to_string())
}

/// SudoCue's killer line: `3x3:d:k:` then 81 numbers `sum × 256 + cage` (`d` for both
/// diagonals; a cell of sum 0 is in no cage).
fn sudocue_killer(line: &str) -> Result<Imported, String> {
    let fields: Vec<&str> = line.split(':').collect();
    let shape = box_shape(fields[0]).filter(|_| fields.len() > 3 && fields[2] == "k");
    let (rows, columns) = shape.ok_or("a SudoCue killer line starts 3x3:d:k: (or 3x3::k:)")?;
    let side = rows * columns;
    if Size::from_side(side).is_none_or(|s| s.box_rows() != rows || s.box_cols() != columns) {
        return Err(format!("{} boxes make no grid sudoku-lsp knows", fields[0]));
    }
    let numbers: Vec<&str> = fields[3..]
        .iter()
        .copied()
        .filter(|f| !f.is_empty())
        .collect();
    if numbers.len() != side * side {
        return Err(format!(
            "a {side}×{side} killer line has {} cell numbers, this one {}",
            side * side,
            numbers.len()
        ));
    }
    let mut cage_of = Vec::with_capacity(numbers.len());
    for (i, number) in numbers.iter().enumerate() {
        let value: u32 = number
            .parse()
            .map_err(|_| format!("cell {}: {number:?} is no number (sum × 256 + cage)", i + 1))?;
        let (sum, id) = (value / 256, value % 256);
        cage_of.push((sum > 0).then_some((id as usize, Some(sum))));
    }
    for (c, cage) in cage_of.iter().enumerate() {
        if let Some((id, sum)) = cage {
            let first = cage_of.iter().flatten().find(|(i, _)| i == id);
            if first.is_some_and(|(_, s)| s != sum) {
                return Err(format!("cell {}: cage {id} has two sums", c + 1));
            }
        }
    }
    let mut puzzle = fpuzzles_puzzle(side);
    puzzle.insert("killercage".into(), Value::Array(cages(side, &cage_of)));
    if fields[1].contains('d') {
        puzzle.insert("diagonal+".into(), json!(true));
        puzzle.insert("diagonal-".into(), json!(true));
    }
    through_fpuzzles(puzzle)
}

/// The sum a character of the 81-character killer notation gives its cage: `0`–`9`, `A`–`Z`
/// 10–35, `a`–`j` 36–45.
fn short_sum(c: char) -> Option<u32> {
    match c {
        '0'..='9' => Some(c as u32 - '0' as u32),
        'A'..='Z' => Some(c as u32 - 'A' as u32 + 10),
        'a'..='j' => Some(c as u32 - 'a' as u32 + 36),
        _ => None,
    }
}

/// The neighbour (row and column steps) a pointer of the 81-character killer notation names.
fn pointer(c: char) -> Option<(isize, isize)> {
    match c {
        '<' => Some((0, -1)),
        '>' => Some((0, 1)),
        '^' => Some((-1, 0)),
        'v' => Some((1, 0)),
        '`' => Some((-1, -1)),
        '\'' => Some((-1, 1)),
        ',' => Some((1, -1)),
        '.' => Some((1, 1)),
        _ => None,
    }
}

/// The 81-character killer notation: one cell of each cage holds its sum, each other cell
/// points to a neighbour in its cage, the pointers leading to the sum.
fn short_killer(line: &str) -> Result<Imported, String> {
    let chars: Vec<char> = line.chars().collect();
    if chars.len() != 81 {
        return Err(format!(
            "an 81-character killer has 81 characters, this one {}",
            chars.len()
        ));
    }
    let mut cage_of = vec![None; 81];
    for (start, cage) in cage_of.iter_mut().enumerate() {
        let mut cell = start;
        for _ in 0..=81 {
            let c = chars[cell];
            if let Some(sum) = short_sum(c) {
                *cage = Some((cell, (sum > 0).then_some(sum)));
                break;
            }
            let (dr, dc) = pointer(c).ok_or_else(|| {
                format!(
                    "character {}: {c:?} is neither a sum nor a pointer (< > ^ v ` ' , .)",
                    cell + 1
                )
            })?;
            let (r, col) = ((cell / 9) as isize + dr, (cell % 9) as isize + dc);
            if !(0..9).contains(&r) || !(0..9).contains(&col) {
                return Err(format!(
                    "character {}: {c:?} points out of the grid",
                    cell + 1
                ));
            }
            cell = (r * 9 + col) as usize;
        }
        if cage.is_none() {
            return Err(format!(
                "character {}: its pointers go round in a loop",
                start + 1
            ));
        }
    }
    let mut puzzle = fpuzzles_puzzle(9);
    puzzle.insert("killercage".into(), Value::Array(cages(9, &cage_of)));
    through_fpuzzles(puzzle)
}

/// Regions by symbol, in order of first appearance, as f-puzzles `region` indices.
fn set_regions(puzzle: &mut Map<String, Value>, side: usize, symbols: &[String]) {
    let mut order: Vec<&String> = Vec::new();
    for (cell, symbol) in symbols.iter().enumerate() {
        let index = order.iter().position(|s| *s == symbol).unwrap_or_else(|| {
            order.push(symbol);
            order.len() - 1
        });
        puzzle["grid"][cell / side][cell % side]["region"] = json!(index);
    }
}

/// A jigsaw on one line: side² cells row by row (see [`jigsaw_cells`]), then side² region
/// symbols, perhaps after a space; 162 characters for a 9×9, 512 for a 16×16.
fn jigsaw_line(line: &str) -> Result<Imported, String> {
    let Some((side, cells, regions)) = jigsaw_parts(line) else {
        return Err(format!(
            "a jigsaw line has side² cells then side² region symbols (162 characters for a 9×9), this one {} characters",
            line.chars().count()
        ));
    };
    let cells = jigsaw_cells(cells, side)?;
    let mut puzzle = fpuzzles_puzzle(side);
    let symbols: Vec<String> = regions.chars().map(String::from).collect();
    set_regions(&mut puzzle, side, &symbols);
    for (cell, &digit) in cells.iter().enumerate() {
        if digit != 0 {
            set_given(&mut puzzle, side, cell, digit);
        }
    }
    through_fpuzzles(puzzle)
}

/// janko.at's layout: `R C`, R rows of clues (`-` empty), R rows of region symbols.
fn janko(text: &str) -> Result<Imported, String> {
    let lines: Vec<(usize, Vec<&str>)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| (i + 1, l.split_whitespace().collect()))
        .collect();
    let (header_line, header) = lines.first().ok_or("empty")?;
    let (rows, columns): (usize, usize) = match header.as_slice() {
        [r, c] => (
            r.parse()
                .map_err(|_| format!("line {header_line}: {r:?} is no row count"))?,
            c.parse()
                .map_err(|_| format!("line {header_line}: {c:?} is no column count"))?,
        ),
        _ => {
            return Err(format!(
                "line {header_line}: a janko layout starts with its rows and columns, `9 9`"
            ))
        }
    };
    if rows != columns || Size::from_side(rows).is_none() {
        return Err(format!(
            "line {header_line}: {rows}×{columns} is no grid sudoku-lsp knows"
        ));
    }
    let side = rows;
    if lines.len() != 1 + 2 * side {
        return Err(format!(
            "a {side}×{side} janko layout has {side} rows of clues and {side} of regions under its header, this one {} rows",
            lines.len() - 1
        ));
    }
    let mut puzzle = fpuzzles_puzzle(side);
    let mut symbols = Vec::with_capacity(side * side);
    for (line, tokens) in &lines[1 + side..] {
        if tokens.len() != side {
            return Err(format!(
                "line {line}: a row of regions has {side} symbols, this one {}",
                tokens.len()
            ));
        }
        symbols.extend(tokens.iter().map(|t| t.to_string()));
    }
    set_regions(&mut puzzle, side, &symbols);
    for (r, (line, tokens)) in lines[1..=side].iter().enumerate() {
        if tokens.len() != side {
            return Err(format!(
                "line {line}: a row of clues has {side} cells, this one {}",
                tokens.len()
            ));
        }
        for (c, token) in tokens.iter().enumerate() {
            if *token == "-" || *token == "." || *token == "0" {
                continue;
            }
            let digit: u8 = token
                .parse()
                .ok()
                .filter(|&d| d >= 1 && d as usize <= side)
                .ok_or_else(|| {
                    format!("line {line}: {token:?} is no clue (1-{side}, or - for an empty cell)")
                })?;
            set_given(&mut puzzle, side, r * side + c, digit);
        }
    }
    through_fpuzzles(puzzle)
}

#[cfg(test)]
mod tests;
