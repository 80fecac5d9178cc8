//! sigh's Interactive Sudoku Solver constraint strings to `.sudoku` text.
//!
//! sigh's solver (<https://github.com/sigh/Interactive-Sudoku-Solver>) shares a puzzle as one
//! string, in its links as `?q=…` ([`super::links`] reads those): a run of items
//! `.Type~arg~arg~cell~cell…` (`.Cage~15~R1C1~R1C2`, `.Thermo~R9C4~R8C3`), cells named
//! `R<row>C<col>` from 1 (one character each in base 17, so `RaCg` on a 16×16; `R10C1` is read
//! too), givens and allowed candidates the nameless type (`.~R1C1_5~R2C2_1_3`), the size
//! `.Shape~6x6`, the rules of the whole grid bare (`.AntiKnight`), and composites
//! `.Or`/`.And`/`.Replicate` … `.End`. Whitespace is ignored, as sigh ignores it.
//!
//! Every type our rules can say becomes its constraint line (`lines.rs` holds the table, each
//! type's arguments in sigh's order; `pairs.rs` reads sigh's custom pair relations, often one
//! of ours: a ratio dot, a nabner line); a cell's allowed candidates become `even:` or `odd:`
//! when they are exactly the even or odd digits, else `candidates …:`; `.Jigsaw` with
//! `.NoBoxes` is a `regions:` block, without it its regions are extra houses beside the boxes
//! (as sigh solves it). The text is written in the order the f-puzzles importer writes:
//! kept comments, rules of the whole grid, regions, constraint lines by kind, the grid.
//!
//! Nothing is dropped silently: an item that has no line (a type we lack, a composite, a
//! `Shape` whose digits are not 1 to N, sigh's extra cells) is kept as a `# sigh: .Type~…`
//! comment and named in a warning; an item that is wrong as sigh reads it too (a cell outside
//! the grid, a sum that is no number, an item cut short) is kept the same way and named in an
//! error, with the character it starts at (in a link, of its decoded `q`). The other items are
//! still imported. Only a string
//! that gives no puzzle at all (it does not start with `.`, or its grid is not a size we read)
//! is an error for the whole.

mod items;
mod lines;
mod pairs;
#[cfg(test)]
mod showcase;
#[cfg(test)]
mod tests;

use items::{Entry, Item};
use lines::{Flag, Grid, Mapped, Problem};

use super::fpuzzles::{cell_name, Imported, LINE_KEYS, REGION_SYMBOLS};
use crate::finding::Severity;
use crate::format::rules as syntax;
use crate::grid::{digit_char, Size};

/// The metadata key of a kept item: `# sigh: .SumLine~10~R1C1~R1C2`.
pub const FRAGMENT_KEY: &str = "sigh";

/// How much of an item a message shows (a givens item may run to hundreds of characters).
const SHOWN: usize = 48;

/// The largest grid sigh's solver has (`CellGeometry.MAX_SIZE`).
const MAX_SIDE: usize = 16;

/// Whether a line is a sigh constraint string by its shape (`.Type~…` items), not a grid
/// row or one-line puzzle that happens to start with `.`.
pub fn is_constraint_string(line: &str) -> bool {
    items::is_constraint_string(line)
}

/// Import one line: a constraint string, or a link whose `q=` holds one.
pub fn import_line(line: &str) -> Result<Imported, String> {
    match super::links::query_parameter(line, "q") {
        Some(query) => import(&query),
        None => import(line),
    }
}

/// Import a constraint string: its `.sudoku` text, or why it gives no puzzle at all. sigh also
/// takes other programs' one-line forms (its 16×16 jigsaws come as a jigsaw line, some killers
/// as 81-character killers): those are read as `import` reads them anywhere.
pub fn import(text: &str) -> Result<Imported, String> {
    use super::classic::{self, Format};
    let line = text.trim();
    if let Some(format) = classic::detect(line).filter(|&format| format != Format::Sigh) {
        let mut pieces = classic::import(line, format);
        if pieces.len() == 1 {
            return pieces.remove(0).result;
        }
    }
    let items = items::items(text)?;
    let mut puzzle = Puzzle::new(&items)?;
    for entry in items::entries(items) {
        puzzle.read(entry);
    }
    Ok(puzzle.finish())
}

/// Constraint lines made from one item (or from givens), kept together: when one of them
/// cannot be read, the item is kept whole as a comment.
struct Made {
    at: usize,
    source: String,
    lines: Vec<String>,
}

/// One puzzle being read.
struct Puzzle {
    grid: Grid,
    /// The `.Shape` that set the size (the first), by where it starts.
    shape_at: Option<usize>,
    /// Whether the boxes are off (`.NoBoxes`): a jigsaw then gives the regions.
    no_boxes: bool,
    /// Each cell's allowed digits (bit d - 1 for d), sigh's givens of the cell intersected.
    allowed: Vec<u32>,
    /// Each cell's givens as written, and where: the comment when they leave no digit.
    given_args: Vec<Vec<(usize, String)>>,
    flags: Vec<Flag>,
    /// The `regions:` block, when the puzzle has regions of its own.
    regions: Vec<String>,
    made: Vec<Made>,
    kept: Vec<String>,
    warnings: Vec<String>,
    errors: Vec<String>,
}

impl Puzzle {
    /// A puzzle of the size the first `.Shape` says (9×9 without one).
    fn new(items: &[Item]) -> Result<Puzzle, String> {
        let shape = items.iter().find(|i| i.kind == "Shape");
        let size = match shape {
            Some(item) => shape_size(item)?,
            None => Size::NINE,
        };
        let all = (1u32 << size.side()) - 1;
        let mut puzzle = Puzzle {
            grid: Grid::new(size),
            shape_at: shape.map(|s| s.at),
            // sigh gives a prime side no boxes, as `.NoBoxes` takes them away.
            no_boxes: !size.has_boxes() || items.iter().any(|i| i.kind == "NoBoxes"),
            allowed: vec![all; size.cells()],
            given_args: vec![Vec::new(); size.cells()],
            flags: Vec::new(),
            regions: Vec::new(),
            made: Vec::new(),
            kept: Vec::new(),
            warnings: Vec::new(),
            errors: Vec::new(),
        };
        if let Some(item) = shape {
            if let Err(problem) = shape_digits(item, size) {
                puzzle.keep(item.at, &item.text(), problem);
            }
        }
        Ok(puzzle)
    }

    fn read(&mut self, entry: Entry) {
        match entry {
            Entry::Composite { at, kind, text } => {
                let why =
                    format!("sigh's composite .{kind} … .End has no constraint line in .sudoku");
                self.keep(at, &text, Problem::Unsupported(why));
            }
            Entry::Unmatched { at, text, why } => self.keep(at, &text, Problem::Bad(why)),
            Entry::Item(item) => self.read_item(&item),
        }
    }

    fn read_item(&mut self, item: &Item) {
        if let Err(problem) = self.try_item(item) {
            self.keep(item.at, &item.text(), problem);
        }
    }

    /// Read one item, or say why it cannot be.
    fn try_item(&mut self, item: &Item) -> Result<(), Problem> {
        match item.kind.as_str() {
            _ if item.is_empty() => {}
            "" => self.read_givens(item),
            "Shape" => self.read_shape(item)?,
            "NoBoxes" => {}
            "Jigsaw" => self.read_jigsaw(item)?,
            _ => match lines::map(item, &self.grid)? {
                Mapped::Lines(lines) => self.add(item.at, item.text(), lines),
                Mapped::Flag(flag) => self.flags.push(flag),
            },
        }
        Ok(())
    }

    /// The first `.Shape` set the size; another must say the same (sigh refuses two).
    fn read_shape(&mut self, item: &Item) -> Result<(), Problem> {
        if Some(item.at) == self.shape_at {
            return Ok(());
        }
        match shape_size(item) {
            Ok(size) if size == self.grid.size => Ok(()),
            _ => Err(Problem::Bad(
                "a second .Shape that differs from the first".into(),
            )),
        }
    }

    /// `.~R1C1_5~R2C2_1_3`: each argument a cell and its allowed digits, read one by one (a
    /// wrong one is kept alone, the others still read).
    fn read_givens(&mut self, item: &Item) {
        for arg in &item.args {
            match self.value_id(&arg.text) {
                Ok((cell, digits)) => {
                    self.allowed[cell] &= digits;
                    self.given_args[cell].push((arg.at, arg.text.clone()));
                }
                Err(problem) => self.keep(arg.at, &format!(".~{}", arg.text), problem),
            }
        }
    }

    /// `R1C1_1_3`: the cell's index and its digits as bits.
    fn value_id(&self, text: &str) -> Result<(usize, u32), Problem> {
        let mut parts = text.split('_');
        let (row, col) = self.grid.cell(parts.next().unwrap_or(""))?;
        let mut digits = 0;
        for value in parts {
            digits |= 1 << (self.grid.digit(value)? - 1);
        }
        if digits == 0 {
            return Err(Problem::Bad(
                "it gives no digit for its cell (R1C1_5, R1C1_1_3)".into(),
            ));
        }
        Ok((row * self.grid.side + col, digits))
    }

    /// `.Jigsaw~<a region symbol a cell>`: with `.NoBoxes` the regions in place of the boxes,
    /// without it extra houses beside them (sigh keeps the boxes unless told not to).
    fn read_jigsaw(&mut self, item: &Item) -> Result<(), Problem> {
        // sigh's older strings put the grid's shape before the layout.
        let layout = match item.args.as_slice() {
            [layout] | [_, layout] => &layout.text,
            _ => {
                return Err(Problem::Bad(
                    "a jigsaw is its layout, a symbol a cell".into(),
                ))
            }
        };
        let regions = jigsaw_regions(layout, self.grid.side)?;
        if regions.len() <= 1 {
            return Ok(());
        }
        if self.no_boxes && self.regions.is_empty() {
            self.regions = regions_block(&regions, self.grid.side);
            return Ok(());
        }
        let n = self.grid.side;
        let lines = regions
            .iter()
            .map(|cells| {
                let names: Vec<String> = cells.iter().map(|&c| cell_name(c / n, c % n)).collect();
                format!("extra-region: {}", names.join(" "))
            })
            .collect();
        self.add(item.at, item.text(), lines);
        Ok(())
    }

    /// Lines made from one item, or the item kept when our reader refuses one of them (a
    /// line whose cells do not touch, a pill of four…).
    fn add(&mut self, at: usize, source: String, lines: Vec<String>) {
        for line in &lines {
            if let Some(why) = not_a_rule(line) {
                let why = format!("'{line}' {why}");
                self.keep(at, &source, Problem::Unsupported(why));
                return;
            }
        }
        self.made.push(Made { at, source, lines });
    }

    /// Keep an item as a comment, said as a warning (a rule we cannot say) or an error (an
    /// item wrong in itself).
    fn keep(&mut self, at: usize, text: &str, problem: Problem) {
        self.kept.push(text.to_string());
        let shown = shown(text);
        match problem {
            Problem::Unsupported(why) => self
                .warnings
                .push(format!("kept as a comment: character {at}: {shown}: {why}")),
            Problem::Bad(why) => self.errors.push(format!(
                "character {at}: {shown}: {why} (kept as a comment)"
            )),
        }
    }

    fn finish(mut self) -> Imported {
        let givens = self.resolve_givens();
        self.mind_nonconsecutive_dots();
        let text = loop {
            let (text, origins) = self.compose(&givens);
            let refused = refused_lines(&text, &origins);
            if refused.is_empty() {
                break text;
            }
            self.withdraw(refused);
        };
        Imported {
            text,
            warnings: self.warnings,
            errors: self.errors,
        }
    }

    /// Each cell's allowed digits as a given (one), `even`/`odd` (exactly those), or
    /// `candidates`; the givens by cell.
    fn resolve_givens(&mut self) -> Vec<u8> {
        let side = self.grid.side;
        let all = (1u32 << side) - 1;
        let evens = (0..side).filter(|d| d % 2 == 1).fold(0, |m, d| m | 1 << d);
        let mut givens = vec![0u8; side * side];
        let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
        for (cell, given) in givens.iter_mut().enumerate() {
            let digits = self.allowed[cell];
            let group = match digits {
                _ if digits == all => continue,
                0 => {
                    self.no_digit_left(cell);
                    continue;
                }
                _ if digits.count_ones() == 1 => {
                    *given = digits.trailing_zeros() as u8 + 1;
                    continue;
                }
                _ if digits == evens => "even".to_string(),
                _ if digits == all & !evens => "odd".to_string(),
                _ => format!("candidates {}", digit_word(digits)),
            };
            match groups.iter_mut().find(|(g, _)| *g == group) {
                Some((_, cells)) => cells.push(cell),
                None => groups.push((group, vec![cell])),
            }
        }
        for (head, cells) in groups {
            self.add_given_lines(&head, &cells);
        }
        givens
    }

    /// `even: A1 C3`: the cells' givens are the line's source.
    fn add_given_lines(&mut self, head: &str, cells: &[usize]) {
        let n = self.grid.side;
        let args: Vec<&(usize, String)> = cells.iter().flat_map(|&c| &self.given_args[c]).collect();
        let at = args.iter().map(|(at, _)| *at).min().unwrap_or(1);
        let source = givens_text(args.iter().map(|(_, text)| text.as_str()));
        let names: Vec<String> = cells.iter().map(|&c| cell_name(c / n, c % n)).collect();
        self.add(at, source, vec![format!("{head}: {}", names.join(" "))]);
    }

    /// A cell whose givens have no digit in common (sigh would find no solution).
    fn no_digit_left(&mut self, cell: usize) {
        let args = std::mem::take(&mut self.given_args[cell]);
        let at = args.first().map_or(1, |(at, _)| *at);
        let n = self.grid.side;
        let why = format!(
            "the values given for {} have no digit in common",
            cell_name(cell / n, cell % n)
        );
        let text = givens_text(args.iter().map(|(_, t)| t.as_str()));
        self.keep(at, &text, Problem::Bad(why));
    }

    /// sigh's anti-consecutive rule holds across white dots too, ours does not: say so when
    /// both are there (sigh then finds no solution where a white dot joins two cells).
    fn mind_nonconsecutive_dots(&mut self) {
        let white = self
            .made
            .iter()
            .any(|m| m.lines.iter().any(|l| l.starts_with("white:")));
        if white && self.flags.contains(&Flag::NonConsecutive) {
            self.warnings.push(
                "sigh's AntiConsecutive also holds across white dots; `nonconsecutive` lets a white dot's two cells be consecutive".into(),
            );
        }
    }

    /// The text, and for each of its lines the `made` it comes from (if any).
    fn compose(&self, givens: &[u8]) -> (String, Vec<Option<usize>>) {
        let mut lines: Vec<(String, Option<usize>)> = Vec::new();
        for kept in &self.kept {
            lines.push((format!("# {FRAGMENT_KEY}: {kept}"), None));
        }
        for flag in flag_lines(&self.flags) {
            lines.push((flag, None));
        }
        if self.regions.is_empty() && self.no_boxes {
            lines.push(("regions: none".into(), None));
        }
        lines.extend(self.regions.iter().map(|r| (r.clone(), None)));
        let mut constraint_lines: Vec<(String, Option<usize>)> = self
            .made
            .iter()
            .enumerate()
            .flat_map(|(i, made)| made.lines.iter().map(move |l| (l.clone(), Some(i))))
            .collect();
        constraint_lines.sort_by_key(|(line, _)| rank(line));
        lines.extend(constraint_lines);
        let drawn = match self.no_boxes {
            true => self.grid.size.unboxed(),
            false => self.grid.size,
        };
        let block = crate::format::grid_block(drawn, givens);
        lines.extend(block.lines().map(|row| (row.to_string(), None)));
        let mut text = String::new();
        for (line, _) in &lines {
            text.push_str(line);
            text.push('\n');
        }
        (text, lines.into_iter().map(|(_, origin)| origin).collect())
    }

    /// Take the lines our reader refused in the puzzle (a little killer off the edge…) out,
    /// their items kept as comments.
    fn withdraw(&mut self, mut refused: Vec<(usize, String)>) {
        refused.sort_by_key(|(made, _)| std::cmp::Reverse(*made));
        refused.dedup_by_key(|(i, _)| *i);
        for (index, why) in refused {
            let made = self.made.remove(index);
            self.keep(made.at, &made.source, Problem::Unsupported(why));
        }
    }
}

/// The size `.Shape~9x9` (or `~9x9~1-9`, `~9x9~9~Sudoku`) says, or why it is none we read.
fn shape_size(item: &Item) -> Result<Size, String> {
    let at = item.at;
    let dims = item.args.first().map_or("", |a| a.text.as_str());
    let sides = dims
        .split_once(['x', 'X'])
        .and_then(|(r, c)| Some((r.parse::<usize>().ok()?, c.parse::<usize>().ok()?)));
    match sides {
        Some((rows, cols)) if rows != cols => Err(format!(
            "character {at}: .Shape~{dims}: a grid of {rows} rows and {cols} columns is not square; sudoku-lsp reads square grids"
        )),
        Some((side, _)) if side > MAX_SIDE => Err(format!(
            "character {at}: .Shape~{dims}: sigh's grids are {MAX_SIDE}×{MAX_SIDE} at most"
        )),
        Some((side, _)) => Size::from_side(side).ok_or_else(|| {
            format!(
                "character {at}: .Shape~{dims}: a {side}×{side} grid is not a size sudoku-lsp reads (sizes: {})",
                Size::supported_sides()
            )
        }),
        None => Err(format!(
            "character {at}: {}: its grid is no size (9x9)",
            shown(&item.text())
        )),
    }
}

/// Whether a `.Shape`'s digits and grid type are ours (1 to N, `Sudoku`), or what they are.
fn shape_digits(item: &Item, size: Size) -> Result<(), Problem> {
    let n = size.side();
    let range = item.args.get(1).map_or("", |a| a.text.as_str());
    let kind = item.args.get(2).map_or("", |a| a.text.as_str());
    if !["", &n.to_string(), &format!("1-{n}")].contains(&range) {
        return Err(Problem::Unsupported(format!(
            "its digits are {range}, not 1 to {n}: read as a {n}×{n} grid of 1 to {n}"
        )));
    }
    if !["", "Sudoku"].contains(&kind) {
        return Err(Problem::Unsupported(format!(
            "a {kind} grid (no houses of its own): read as a sudoku"
        )));
    }
    Ok(())
}

/// A jigsaw layout's regions, each its cells, in order of first appearance.
fn jigsaw_regions(layout: &str, n: usize) -> Result<Vec<Vec<usize>>, Problem> {
    let symbols: Vec<char> = layout.chars().collect();
    if symbols.len() != n * n {
        return Err(Problem::Bad(format!(
            "its layout has {} symbols, a {n}×{n} grid {} cells",
            symbols.len(),
            n * n
        )));
    }
    let mut seen: Vec<char> = Vec::new();
    let mut regions: Vec<Vec<usize>> = Vec::new();
    for (cell, symbol) in symbols.into_iter().enumerate() {
        match seen.iter().position(|&s| s == symbol) {
            Some(region) => regions[region].push(cell),
            None => {
                seen.push(symbol);
                regions.push(vec![cell]);
            }
        }
    }
    if regions.len() > 1 && regions.iter().any(|r| r.len() != n) {
        return Err(Problem::Bad(format!(
            "its regions are not all of {n} cells"
        )));
    }
    Ok(regions)
}

/// `regions:` and a row of symbols per row of the grid.
fn regions_block(regions: &[Vec<usize>], n: usize) -> Vec<String> {
    let symbols: Vec<char> = REGION_SYMBOLS.chars().collect();
    let mut of_cell = vec![' '; n * n];
    for (region, cells) in regions.iter().enumerate() {
        for &cell in cells {
            of_cell[cell] = symbols[region];
        }
    }
    let mut block = vec!["regions:".to_string()];
    block.extend(of_cell.chunks(n).map(|row| row.iter().collect::<String>()));
    block
}

/// The rules of the whole grid, in the order the f-puzzles importer writes them.
fn flag_lines(flags: &[Flag]) -> Vec<String> {
    let on = |flag: Flag| flags.contains(&flag);
    let mut lines = Vec::new();
    match (on(Flag::MainDiagonal), on(Flag::AntiDiagonal)) {
        (true, true) => lines.push("diagonal"),
        (true, false) => lines.push("diagonal \\"),
        (false, true) => lines.push("diagonal /"),
        (false, false) => {}
    }
    let words = [
        (Flag::Windoku, "windoku"),
        (Flag::Disjoint, "disjoint"),
        (Flag::AntiKnight, "antiknight"),
        (Flag::AntiKing, "antiking"),
        (Flag::NonConsecutive, "nonconsecutive"),
    ];
    lines.extend(words.iter().filter(|(f, _)| on(*f)).map(|(_, w)| *w));
    let mut lines: Vec<String> = lines.into_iter().map(String::from).collect();
    let mut kinds = Vec::new();
    if on(Flag::StrictKropki) {
        kinds.extend(["white", "black"]);
    }
    if on(Flag::StrictXv) {
        kinds.extend(["x", "v"]);
    }
    if !kinds.is_empty() {
        lines.push(format!("negative: {}", kinds.join(" ")));
    }
    lines
}

/// Where a constraint line goes among the others: by kind, in the f-puzzles importer's order
/// (pencil marks first, X and V dots together as f-puzzles' `xv`, inequalities, which
/// f-puzzles has no key for, after them).
fn rank(line: &str) -> usize {
    let keyword = line.split([' ', ':']).next().unwrap_or("");
    let place = |word: &str| LINE_KEYS.iter().position(|(_, k, _)| *k == word);
    match keyword {
        "candidates" => 0,
        "v" => 2 * place("x").unwrap_or(0) + 2,
        "inequality" => 2 * place("x").unwrap_or(0) + 3,
        _ => place(keyword).map_or(usize::MAX, |p| 2 * p + 2),
    }
}

/// The constraint lines of `text` our reader refuses in its puzzle: each line's `made`, and
/// why.
fn refused_lines(text: &str, origins: &[Option<usize>]) -> Vec<(usize, String)> {
    let document = crate::format::parse(text);
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    document
        .problems
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .filter_map(|finding| {
            let line = line_starts.partition_point(|&s| s <= finding.span.start) - 1;
            let made = origins.get(line).copied().flatten()?;
            let text = text.lines().nth(line).unwrap_or("");
            Some((made, format!("'{text}' is refused: {}", finding.message)))
        })
        .collect()
}

/// Why our reader does not take `line` as a constraint line, if it does not.
fn not_a_rule(line: &str) -> Option<String> {
    match syntax::read(line, 0) {
        Some(Ok(_)) => None,
        Some(Err(finding)) => Some(format!("is no constraint line: {}", finding.message)),
        None => Some("is no constraint line".into()),
    }
}

/// Digits as one word: `137`, `9A` on larger grids.
fn digit_word(digits: u32) -> String {
    (0..32)
        .filter(|d| digits >> d & 1 == 1)
        .map(|d| digit_char(d as u8 + 1))
        .collect()
}

/// Givens as sigh writes them: `.~R1C1_2_4.~R1C1_3`.
fn givens_text<'a>(args: impl Iterator<Item = &'a str>) -> String {
    args.map(|a| format!(".~{a}")).collect()
}

/// An item's text for a message, cut after `SHOWN` characters.
fn shown(text: &str) -> String {
    match text.char_indices().nth(SHOWN) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}
