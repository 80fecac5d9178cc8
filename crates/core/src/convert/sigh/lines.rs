//! One sigh constraint item to `.sudoku` constraint lines: the table of types, each with its
//! arguments in sigh's order (`js/sudoku_constraint.js`) and the line our format writes for it.
//! What a type means in sigh and what our line means are the same rule, or the item is not
//! mapped: a `Problem` says why, and the item is kept as a comment.

use super::items::Item;
use crate::convert::fpuzzles::cell_name;
use crate::grid::{digit_char, geometry, row_letter, Size, UnitKind, Variant};

/// Why an item has no line: a rule `.sudoku` cannot say (kept as a comment, a warning), or
/// an item that is wrong as sigh reads it too (kept as a comment, an error).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Problem {
    Unsupported(String),
    Bad(String),
}

use Problem::{Bad, Unsupported};

/// A rule of the whole grid an item turns on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Flag {
    MainDiagonal,
    AntiDiagonal,
    Windoku,
    Disjoint,
    AntiKnight,
    AntiKing,
    NonConsecutive,
    StrictKropki,
    StrictXv,
}

/// What an item becomes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Mapped {
    Lines(Vec<String>),
    Flag(Flag),
}

/// sigh's types that have no line in `.sudoku` (the others are read here, in `pairs`, or by
/// the importer: `Shape`, `Jigsaw`, `NoBoxes` and givens): an item of one of these is kept as
/// a comment saying so, an item of a type sigh does not know either says that.
const UNSUPPORTED_TYPES: [&str; 34] = [
    "Container",
    "SumLine",
    "Regex",
    "NFA",
    "ChaosConstruction",
    "ChaosArrow",
    "ChaosCount",
    "RegionSize",
    "RegionSameValues",
    "Doppelganger",
    "AntiTaxicab",
    "GlobalEntropy",
    "GlobalMod",
    "FullRankTies",
    "DutchFlatmates",
    "ValueIndexing",
    "RellikCage",
    "EqualityCage",
    "Sum",
    "Lunchbox",
    "HiddenSkyscraper",
    "NumberedRoom",
    "FullRank",
    "ContainAtLeast",
    "ContainExact",
    "LookAndSay",
    "ConnectedValues",
    "EqualSum",
    "CountingCircles",
    "CountDistinct",
    "SearchPriority",
    "Var",
    "Shape",
    "End",
];

/// The grid an item is read on: its size, and cell names checked against it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Grid {
    pub size: Size,
    pub side: usize,
}

impl Grid {
    pub(super) fn new(size: Size) -> Grid {
        Grid {
            size,
            side: size.side(),
        }
    }

    /// A cell id's row and column from 0, or why it names no cell of this grid.
    pub(super) fn cell(&self, id: &str) -> Result<(usize, usize), Problem> {
        let n = self.side;
        match parse_cell_id(id) {
            Some((r, c)) if (1..=n).contains(&r) && (1..=n).contains(&c) => Ok((r - 1, c - 1)),
            Some(_) => Err(Bad(format!("{id} is outside this {n}×{n} grid"))),
            None if is_extra_cell(id) => Err(Unsupported(format!(
                "{id} is one of sigh's extra cells, outside the grid"
            ))),
            None if id.is_empty() => Err(Bad("an empty cell id (two ~ in a row)".into())),
            None => Err(Bad(format!("'{id}' is no cell (R1C1)"))),
        }
    }

    /// The cells of a line or set, in order, as `A1` names: at least one.
    pub(super) fn names(&self, ids: &[&str]) -> Result<Vec<String>, Problem> {
        if ids.is_empty() {
            return Err(Bad("it names no cell".into()));
        }
        ids.iter()
            .map(|id| self.cell(id).map(|(r, c)| cell_name(r, c)))
            .collect()
    }

    /// The cells of a set, in order, as rows and columns from 0: at least one.
    fn positions(&self, ids: &[&str]) -> Result<Vec<(usize, usize)>, Problem> {
        if ids.is_empty() {
            return Err(Bad("it names no cell".into()));
        }
        ids.iter().map(|id| self.cell(id)).collect()
    }

    /// A digit of this grid written in decimal (`12`), as sigh writes values.
    pub(super) fn digit(&self, text: &str) -> Result<u8, Problem> {
        match number(text) {
            Some(d) if (1..=self.side as i64).contains(&d) => Ok(d as u8),
            _ => Err(Bad(format!(
                "'{text}' is no digit of a {0}×{0} grid (1 to {0})",
                self.side
            ))),
        }
    }

    /// `R3` or `C3` (sigh's names of a row or column) as our side words: the clue reading
    /// forward (`left A`, `top 3`) and backward (`right A`, `bottom 3`).
    fn row_or_column(&self, id: &str) -> Result<(String, String), Problem> {
        let no = || Bad(format!("'{id}' is no row (R1) or column (C1)"));
        let mut chars = id.chars();
        let axis = chars.next().ok_or_else(no)?.to_ascii_uppercase();
        let index = index_part(chars.as_str())
            .filter(|i| (1..=self.side).contains(i))
            .ok_or_else(no)?;
        match axis {
            'R' => {
                let row = row_letter(index - 1);
                Ok((format!("left {row}"), format!("right {row}")))
            }
            'C' => Ok((format!("top {index}"), format!("bottom {index}"))),
            _ => Err(no()),
        }
    }
}

/// `R3C7` as (3, 7): a row and a column each one character of sigh's base 17 (`1`–`9`,
/// `a`–`g` for 10–16, either case) or a decimal number (`R10C1`, as people write it).
pub(super) fn parse_cell_id(id: &str) -> Option<(usize, usize)> {
    let rest = id.strip_prefix(['R', 'r'])?;
    // The row is never empty, and may itself be `c` (row 12): the column's `C` comes after.
    let first = rest.chars().next()?;
    let split = first.len_utf8() + rest[first.len_utf8()..].find(['C', 'c'])?;
    Some((index_part(&rest[..split])?, index_part(&rest[split + 1..])?))
}

/// A row or column index: one base-17 character, or a decimal number.
fn index_part(text: &str) -> Option<usize> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => c.to_digit(17).map(|d| d as usize),
        _ if text.len() <= 3 && text.bytes().all(|b| b.is_ascii_digit()) => text.parse().ok(),
        _ => None,
    }
}

/// sigh's extra cells, which its `Var` and chaos constructions add beside the grid (`VA1`,
/// `CC10`): capitals, then letters and digits, and not a grid cell's id cut short (`R1`).
fn is_extra_cell(id: &str) -> bool {
    let grid_cell_cut_short = id
        .strip_prefix(['R', 'r'])
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_alphanumeric()));
    id.starts_with(|c: char| c.is_ascii_uppercase())
        && id.chars().all(|c| c.is_ascii_alphanumeric())
        && !grid_cell_cut_short
}

/// A whole number as sigh writes one (`15`, `-1`, `+3`).
pub(super) fn number(text: &str) -> Option<i64> {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || digits.len() > 9 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let value: i64 = digits.parse().ok()?;
    Some(if text.starts_with('-') { -value } else { value })
}

/// A sum or count that must be a whole number from 0.
fn whole(text: &str, what: &str) -> Result<u32, Problem> {
    number(text)
        .filter(|n| *n >= 0)
        .map(|n| n as u32)
        .ok_or_else(|| Bad(format!("{what} '{text}' is no whole number")))
}

/// The lines (or the flag) of one item on `grid`, or why it has none.
pub(super) fn map(item: &Item, grid: &Grid) -> Result<Mapped, Problem> {
    let args = item.arg_texts();
    let lines = |keyword: &str| grid.names(&args).map(|cells| line(keyword, &cells));
    match item.kind.as_str() {
        "Thermo" => grid.names(&args).map(|cells| chain("thermo", &cells)),
        "Renban" => lines("renban"),
        "Palindrome" => lines("palindrome"),
        "Between" => lines("between"),
        "Zipper" => lines("zipper"),
        "RegionSumLine" => lines("region-sum"),
        "DoubleArrow" => lines("double-arrow"),
        "AllDifferent" => lines("extra-region"),
        "Whisper" => whisper(grid, &args),
        "Modular" => modular(grid, &args),
        "Entropic" => entropic(grid, &args),
        "Lockout" => lockout(grid, &args),
        "Cage" => cage(grid, &args),
        "Arrow" => arrow(grid, &args),
        "PillArrow" => pill_arrow(grid, &args),
        "LittleKiller" => little_killer(grid, &args),
        "Sandwich" => sandwich(grid, &args),
        "XSum" => clues_at_both_ends(grid, "x-sum", &args),
        "Skyscraper" => clues_at_both_ends(grid, "skyscraper", &args),
        "WhiteDot" => dots(grid, "white", &args),
        "BlackDot" => dots(grid, "black", &args),
        "X" => dots(grid, "x", &args),
        "V" => dots(grid, "v", &args),
        "GreaterThan" => greater_than(grid, &args),
        "Quad" => quad(grid, &args),
        "Indexing" => indexing(grid, &args),
        "SameValues" => same_values(grid, &args),
        "Pair" | "PairX" | "Binary" | "BinaryX" => super::pairs::map(grid, &item.kind, &args),
        "Diagonal" => diagonal(&args),
        "Windoku" => Ok(windoku(grid)),
        "DisjointSets" => Ok(disjoint_sets(grid)),
        "AntiKnight" => Ok(Mapped::Flag(Flag::AntiKnight)),
        "AntiKing" => Ok(Mapped::Flag(Flag::AntiKing)),
        "AntiConsecutive" => Ok(Mapped::Flag(Flag::NonConsecutive)),
        "StrictKropki" => Ok(Mapped::Flag(Flag::StrictKropki)),
        "StrictXV" => Ok(Mapped::Flag(Flag::StrictXv)),
        kind if UNSUPPORTED_TYPES.contains(&kind) => Err(Unsupported(format!(
            "sigh's {kind} has no constraint line in .sudoku"
        ))),
        kind => Err(Unsupported(format!(
            "'{kind}' is no constraint type sigh knows"
        ))),
    }
}

fn line(head: &str, cells: &[String]) -> Mapped {
    Mapped::Lines(vec![format!("{head}: {}", cells.join(" "))])
}

/// `.Whisper~5~cells` (German whispers may leave the difference out: 5). Our default is
/// ⌈N/2⌉, so another difference is written.
fn whisper(grid: &Grid, args: &[&str]) -> Result<Mapped, Problem> {
    let (gap, cells) = match args.first().and_then(|a| number(a)) {
        Some(gap) if gap >= 1 => (gap, &args[1..]),
        Some(gap) => return Err(Bad(format!("a whisper's difference of {gap}"))),
        None => (5, args),
    };
    let cells = grid.names(cells)?;
    if gap == grid.side.div_ceil(2) as i64 {
        Ok(chain("whisper", &cells))
    } else {
        Ok(chain(&format!("whisper {gap}"), &cells))
    }
}

/// A line whose rule holds between each cell and the next (a thermometer, a whisper): where
/// it comes back to a cell it has passed (sigh allows that, our lines do not), it is cut
/// into lines that each name a cell once, each starting where the one before ends, so that
/// every step of the line is in one of them.
pub(super) fn chain(head: &str, cells: &[String]) -> Mapped {
    let mut pieces: Vec<Vec<String>> = vec![Vec::new()];
    for cell in cells {
        let piece = pieces.last_mut().expect("one piece at least");
        if piece.contains(cell) {
            let last = piece.last().cloned().expect("a piece with a cell");
            pieces.push(vec![last, cell.clone()]);
        } else {
            piece.push(cell.clone());
        }
    }
    Mapped::Lines(
        pieces
            .iter()
            .map(|piece| format!("{head}: {}", piece.join(" ")))
            .collect(),
    )
}

/// `.Modular~3~cells`: ours are the lines of mod 3.
fn modular(grid: &Grid, args: &[&str]) -> Result<Mapped, Problem> {
    let (modulus, cells) = args.split_first().ok_or(Bad("it has no modulus".into()))?;
    match number(modulus) {
        Some(3) => Ok(line("modular", &grid.names(cells)?)),
        Some(m) if m >= 1 => Err(Unsupported(format!(
            "a modular line of mod {m}: .sudoku's modular lines are mod 3"
        ))),
        _ => Err(Bad(format!("the modulus '{modulus}' is no number from 1"))),
    }
}

/// `.Entropic~cells`: sigh's low, middle and high digits are 1–3, 4–6, 7–9, on 9×9 grids only.
fn entropic(grid: &Grid, args: &[&str]) -> Result<Mapped, Problem> {
    if grid.side != 9 {
        return Err(Unsupported(
            "sigh's entropic lines need the digits 1 to 9".into(),
        ));
    }
    Ok(line("entropic", &grid.names(args)?))
}

/// `.Lockout~4~cells`: the ends differ by at least 4.
fn lockout(grid: &Grid, args: &[&str]) -> Result<Mapped, Problem> {
    let (gap, cells) = args.split_first().ok_or(Bad("it names no cell".into()))?;
    let gap = whole(gap, "the lockout's least difference")?;
    Ok(line(&format!("lockout {gap}"), &grid.names(cells)?))
}

/// `.Cage~15~cells`; a sum left empty or 0 is a cage without a sum.
fn cage(grid: &Grid, args: &[&str]) -> Result<Mapped, Problem> {
    let (sum, cells) = args.split_first().ok_or(Bad("it names no cell".into()))?;
    let cells = grid.names(cells)?;
    match sum.is_empty() {
        true => Ok(line("cage", &cells)),
        false => match whole(sum, "the cage's sum")? {
            0 => Ok(line("cage", &cells)),
            sum => Ok(line(&format!("cage {sum}"), &cells)),
        },
    }
}

/// `.Arrow~circle~shaft…`.
fn arrow(grid: &Grid, args: &[&str]) -> Result<Mapped, Problem> {
    let cells = grid.names(args)?;
    let (circle, shaft) = cells.split_at(1);
    Ok(Mapped::Lines(vec![format!(
        "arrow: {} > {}",
        circle[0],
        shaft.join(" ")
    )]))
}

/// `.PillArrow~2~pill…~shaft…`: the pill's cells read in reading order, each one step right,
/// down or down-right of the one before (sigh refuses any other pill).
fn pill_arrow(grid: &Grid, args: &[&str]) -> Result<Mapped, Problem> {
    let (size, cells) = args.split_first().ok_or(Bad("it names no cell".into()))?;
    let size = match number(size) {
        Some(size @ (2 | 3)) => size as usize,
        _ => return Err(Bad(format!("its pill size '{size}' is neither 2 nor 3"))),
    };
    let cells = grid.positions(cells)?;
    if cells.len() <= size {
        return Err(Bad(format!(
            "it has {} cells, not more than its pill of {size}",
            cells.len()
        )));
    }
    let mut pill = cells[..size].to_vec();
    pill.sort();
    let readable = pill.windows(2).all(|w| {
        matches!(
            (w[1].0 - w[0].0, w[1].1 as i64 - w[0].1 as i64),
            (0, 1) | (1, 0) | (1, 1)
        )
    });
    if !readable {
        return Err(Bad(
            "its pill's cells are not side by side in reading order".into(),
        ));
    }
    let names = |cells: &[(usize, usize)]| -> Vec<String> {
        cells.iter().map(|&(r, c)| cell_name(r, c)).collect()
    };
    Ok(Mapped::Lines(vec![format!(
        "arrow: {} > {}",
        names(&pill).join(" "),
        names(&cells[size..]).join(" ")
    )]))
}

/// `.LittleKiller~17~R1C3`: the clue's diagonal starts at that cell, and which edge it is on
/// says the way it runs (sigh's `LittleKiller.cellMap`: the left edge down-right, the right
/// edge up-left, the top down-left, the bottom up-right; each corner's long diagonal once).
fn little_killer(grid: &Grid, args: &[&str]) -> Result<Mapped, Problem> {
    let [sum, start] = args else {
        return Err(Bad("a little killer is its sum and its first cell".into()));
    };
    let sum = whole(sum, "the little killer's sum")?;
    let (row, col) = grid.cell(start)?;
    let way = diagonal_way(row, col, grid.side).ok_or_else(|| {
        Bad(format!(
            "{start} starts none of sigh's little killer diagonals (they start at the edge)"
        ))
    })?;
    Ok(Mapped::Lines(vec![format!(
        "little-killer {sum}: {} {way}",
        cell_name(row, col)
    )]))
}

/// The way a little killer's diagonal runs from its first cell, as sigh lays them out.
pub(super) fn diagonal_way(row: usize, col: usize, n: usize) -> Option<&'static str> {
    let inner = |i: usize| (1..n - 1).contains(&i);
    if col == 0 && row < n - 1 {
        Some("down-right")
    } else if col == n - 1 && inner(row) {
        Some("up-left")
    } else if row == 0 && col >= 1 {
        Some("down-left")
    } else if row == n - 1 && inner(col) {
        Some("up-right")
    } else {
        None
    }
}

/// `.Sandwich~12~C3`: the clue at the top of column 3 (or left of a row).
fn sandwich(grid: &Grid, args: &[&str]) -> Result<Mapped, Problem> {
    let [sum, place] = args else {
        return Err(Bad("a sandwich is its sum and its row or column".into()));
    };
    let sum = whole(sum, "the sandwich's sum")?;
    let (forward, _) = grid.row_or_column(place)?;
    Ok(Mapped::Lines(vec![format!("sandwich {sum}: {forward}")]))
}

/// `.XSum~R3~15~20`: the row or column, then the clue read forward (from the left or top) and
/// the one read backward, either left empty.
fn clues_at_both_ends(grid: &Grid, keyword: &str, args: &[&str]) -> Result<Mapped, Problem> {
    let (place, values) = args
        .split_first()
        .ok_or(Bad("it names no row or column".into()))?;
    if values.len() > 2 {
        return Err(Bad(
            "a row or column has two ends, so at most two clues".into()
        ));
    }
    let (forward, backward) = grid.row_or_column(place)?;
    let mut lines = Vec::new();
    for (value, side) in values.iter().zip([forward, backward]) {
        if value.is_empty() {
            continue;
        }
        match whole(value, "the clue")? {
            0 => return Err(Bad("a clue of 0 (sigh refuses it)".into())),
            value => lines.push(format!("{keyword} {value}: {side}")),
        }
    }
    if lines.is_empty() {
        return Err(Bad("it gives no clue".into()));
    }
    Ok(Mapped::Lines(lines))
}

/// The side-by-side pairs among a dot item's cells, each once, as sigh pairs them
/// (`_adjacentCellPairs`): each cell with the later ones next to it.
fn side_by_side(grid: &Grid, args: &[&str]) -> Result<Vec<[(usize, usize); 2]>, Problem> {
    let cells = grid.positions(args)?;
    let mut pairs = Vec::new();
    for (i, &a) in cells.iter().enumerate() {
        for &b in &cells[i + 1..] {
            if a.0.abs_diff(b.0) + a.1.abs_diff(b.1) == 1 && !pairs.contains(&[a, b]) {
                pairs.push([a, b]);
            }
        }
    }
    if pairs.is_empty() {
        return Err(Bad("no two of its cells are side by side".into()));
    }
    Ok(pairs)
}

/// `.WhiteDot~R1C1~R1C2` (or more cells: a dot between each side-by-side pair).
fn dots(grid: &Grid, keyword: &str, args: &[&str]) -> Result<Mapped, Problem> {
    let lines = side_by_side(grid, args)?
        .into_iter()
        .map(|[a, b]| format!("{keyword}: {} {}", cell_name(a.0, a.1), cell_name(b.0, b.1)))
        .collect();
    Ok(Mapped::Lines(lines))
}

/// `.GreaterThan~R1C1~R1C2`: each cell is greater than the later cells beside it.
fn greater_than(grid: &Grid, args: &[&str]) -> Result<Mapped, Problem> {
    let lines = side_by_side(grid, args)?
        .into_iter()
        .map(|[big, small]| {
            format!(
                "inequality: {} < {}",
                cell_name(small.0, small.1),
                cell_name(big.0, big.1)
            )
        })
        .collect();
    Ok(Mapped::Lines(lines))
}

/// `.Quad~R1C1~1~4~6~7`: the 2×2 block from that cell holds those digits.
fn quad(grid: &Grid, args: &[&str]) -> Result<Mapped, Problem> {
    let (corner, values) = args.split_first().ok_or(Bad("it names no cell".into()))?;
    let (r, c) = grid.cell(corner)?;
    if r + 1 >= grid.side || c + 1 >= grid.side {
        return Err(Bad(format!("no 2×2 block starts at {corner}")));
    }
    let digits = values
        .iter()
        .map(|v| grid.digit(v).map(digit_char))
        .collect::<Result<String, _>>()?;
    let cells = [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)];
    let names: Vec<String> = cells.iter().map(|&(r, c)| cell_name(r, c)).collect();
    Ok(line(&format!("quad {digits}"), &names))
}

/// `.Indexing~C~cells` (column indexing: the cell in column c holding v says column v of its
/// row holds c) or `.Indexing~R~cells`.
fn indexing(grid: &Grid, args: &[&str]) -> Result<Mapped, Problem> {
    let (kind, cells) = args.split_first().ok_or(Bad("it names no cell".into()))?;
    let keyword = match *kind {
        "C" => "column-index",
        "R" => "row-index",
        _ => return Err(Bad(format!("'{kind}' is neither C nor R indexing"))),
    };
    Ok(line(keyword, &grid.names(cells)?))
}

/// `.SameValues~3~cells`: the cells cut into that many sets holding the same digits. Sets of
/// one cell each are cells holding one digit, a clone; larger sets may hold theirs in any
/// order, which a clone does not allow.
fn same_values(grid: &Grid, args: &[&str]) -> Result<Mapped, Problem> {
    let (sets, cells) = args.split_first().ok_or(Bad("it names no cell".into()))?;
    let sets = whole(sets, "the number of sets")? as usize;
    let cells = grid.names(cells)?;
    if sets == 0 || cells.len() % sets != 0 {
        return Err(Bad(format!(
            "{} cells do not make {sets} sets of one size",
            cells.len()
        )));
    }
    if sets != cells.len() {
        return Err(Unsupported(
            "its sets may hold their digits in any order; a clone keeps them in place".into(),
        ));
    }
    Ok(Mapped::Lines(vec![format!("clone: {}", cells.join(" = "))]))
}

/// `.Diagonal~1` is the one from the bottom left corner (╱), `.Diagonal~-1` the one from A1.
fn diagonal(args: &[&str]) -> Result<Mapped, Problem> {
    match args.first().and_then(|a| number(a)) {
        Some(1) => Ok(Mapped::Flag(Flag::AntiDiagonal)),
        Some(-1) => Ok(Mapped::Flag(Flag::MainDiagonal)),
        _ => Err(Bad(format!(
            "'{}' is no diagonal: 1 (╱) or -1 (╲)",
            args.join("~")
        ))),
    }
}

/// sigh's windoku windows (`Windoku.regions`): a box's shape, from one cell in, one cell
/// apart, each ending before the last row or column. `windoku` when ours are the same cells,
/// else the windows as extra regions.
fn windoku(grid: &Grid) -> Mapped {
    let (n, height, width) = (grid.side, grid.size.box_rows(), grid.size.box_cols());
    let starts = |len: usize| (1..n).step_by(len + 1).filter(move |s| s + len < n);
    let mut windows = Vec::new();
    for left in starts(width) {
        for top in starts(height) {
            windows.push(
                (0..n)
                    .map(|k| (top + k % height) * n + left + k / height)
                    .collect(),
            );
        }
    }
    houses_or_regions(grid, windows, Variant::WINDOKU, Flag::Windoku)
}

/// sigh's disjoint sets (`disjointSetRegions`): the cells in the same place of every box.
fn disjoint_sets(grid: &Grid) -> Mapped {
    let (n, height, width) = (grid.side, grid.size.box_rows(), grid.size.box_cols());
    let sets = (0..n)
        .map(|place| {
            (0..n)
                .map(|b| {
                    let (top, left) = (b / (n / width) * height, b % (n / width) * width);
                    (top + place / width) * n + left + place % width
                })
                .collect()
        })
        .collect();
    houses_or_regions(grid, sets, Variant::DISJOINT, Flag::Disjoint)
}

/// The flag when our `variant`'s extra houses are sigh's `houses` (in any order), else the
/// houses as extra regions.
fn houses_or_regions(grid: &Grid, houses: Vec<Vec<usize>>, variant: Variant, flag: Flag) -> Mapped {
    let sorted = |mut sets: Vec<Vec<usize>>| {
        sets.iter_mut().for_each(|s| s.sort());
        sets.sort();
        sets
    };
    let ours: Vec<Vec<usize>> = geometry(grid.size, variant)
        .units
        .iter()
        .filter(|u| matches!(u.kind, UnitKind::Window(_) | UnitKind::Disjoint(_)))
        .map(|u| u.cells.iter().map(|&c| c as usize).collect())
        .collect();
    let houses = sorted(houses);
    if sorted(ours) == houses {
        return Mapped::Flag(flag);
    }
    let n = grid.side;
    let name = |c: &usize| cell_name(c / n, c % n);
    let lines = houses
        .iter()
        .map(|h| {
            format!(
                "extra-region: {}",
                h.iter().map(name).collect::<Vec<_>>().join(" ")
            )
        })
        .collect();
    Mapped::Lines(lines)
}
