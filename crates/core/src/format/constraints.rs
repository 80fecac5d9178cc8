//! From a constraint line as read (`rules::Rule`: words, cell names and their spans) to what it
//! means on one puzzle's grid (`crate::rules::Constraint`: cell indices). Here the size is
//! known, so here the checks that need it are made: cells inside the grid, a little killer's
//! diagonal starting at the edge, a row or column an outside clue can stand by, digits a
//! candidates or quad line can hold.

use super::rules::{Body, CellRef, Direction, Keyword, RegionRow, Rule, Side, Value};
use crate::finding::{Code, Finding, Span};
use crate::grid::{digit_char, Size, NO_REGION};
use crate::rules::{Cells, Constraint, Dot, Index, Kind, Regions};

/// The largest side the variant engine solves (a cell's candidates are 16 bits).
const MAX_SIDE: u32 = 16;

/// The constraint `rule` states on a grid of `size`, or the error that says why it cannot.
/// `None` for the lines the geometry takes (diagonals, windoku, disjoint).
/// `regions` are the puzzle's own regions (each cell's), when it has them.
pub(crate) fn resolve(
    rule: &Rule,
    size: Size,
    regions: Option<&[u8]>,
) -> Option<Result<Constraint, Finding>> {
    let kind = match kind_of(rule, size, regions) {
        Ok(Some(kind)) => kind,
        Ok(None) => return None,
        Err(error) => return Some(Err(error)),
    };
    Some(Ok(Constraint::new(kind, rule.span)))
}

fn kind_of(rule: &Rule, size: Size, regions: Option<&[u8]>) -> Result<Option<Kind>, Finding> {
    let n = size.side() as u32;
    let number = |default: Option<u32>| match &rule.value {
        Some(Value::Number(value, _)) => Some(*value),
        _ => default,
    };
    let cells = || all_cells(&rule.body, size);
    let pair = || -> Result<[u16; 2], Finding> {
        let cells = cells()?;
        Ok([cells[0], cells[1]])
    };
    let kind = match rule.keyword {
        Keyword::Diagonal | Keyword::Disjoint | Keyword::Windoku | Keyword::Regions => {
            return Ok(None)
        }
        _ if n > MAX_SIDE => {
            return Err(Finding::error(
                Code::BadMetadata,
                rule.keyword_span,
                format!(
                    "'{}' is solved on grids up to {MAX_SIDE}×{MAX_SIDE}; this puzzle is {n}×{n}",
                    rule.keyword.name()
                ),
            ))
        }
        Keyword::BoxIndex if !size.has_boxes() => {
            return Err(Finding::error(
                Code::BadMetadata,
                rule.keyword_span,
                format!(
                    "'box-index' points into a cell's box, and {} grid has no boxes",
                    size.a_label()
                ),
            ))
        }
        Keyword::AntiKnight => Kind::AntiKnight,
        Keyword::AntiKing => Kind::AntiKing,
        Keyword::NonConsecutive => Kind::NonConsecutive,
        Keyword::Negative => match &rule.body {
            Body::Kinds(kinds) => Kind::Negative {
                kinds: kinds.iter().fold(0, |acc, (kind, _)| acc | kind.bit()),
            },
            _ => return Ok(None),
        },
        Keyword::ExtraRegion => Kind::ExtraRegion(cells()?),
        Keyword::Cage => Kind::Cage {
            sum: number(None),
            cells: cells()?,
        },
        Keyword::Arrow => match &rule.body {
            Body::Arrow { circle, shaft } => Kind::Arrow {
                circle: indices(circle, size)?,
                shaft: indices(shaft, size)?,
            },
            _ => return Ok(None),
        },
        Keyword::DoubleArrow => Kind::DoubleArrow(cells()?),
        Keyword::LittleKiller => Kind::LittleKiller {
            sum: number(Some(0)).unwrap_or(0),
            cells: diagonal(&rule.body, size)?,
        },
        Keyword::RegionSum => Kind::RegionSum(runs_by_region(&cells()?, size, regions)),
        Keyword::Zipper => Kind::Zipper(cells()?),
        Keyword::Sandwich => Kind::Sandwich {
            sum: number(Some(0)).unwrap_or(0),
            cells: outside(&rule.body, size)?,
        },
        Keyword::XSum => Kind::XSum {
            sum: number(Some(0)).unwrap_or(0),
            cells: outside(&rule.body, size)?,
        },
        Keyword::Skyscraper => Kind::Skyscraper {
            count: number(Some(0)).unwrap_or(0),
            cells: outside(&rule.body, size)?,
        },
        Keyword::White | Keyword::Black | Keyword::X | Keyword::V => {
            let dot = match rule.keyword {
                Keyword::White => Dot::White,
                Keyword::Black => Dot::Black,
                Keyword::X => Dot::X,
                _ => Dot::V,
            };
            let value = number(Some(dot.default_value())).unwrap_or(1);
            // Side-by-side cells differ: no difference of 0, no ratio below 2.
            let least = match dot {
                Dot::White => Some((1, "a white dot's difference is 1 or more")),
                Dot::Black => Some((2, "a black dot's ratio is 2 or more")),
                Dot::X | Dot::V => None,
            };
            if let Some((_, what)) = least.filter(|&(least, _)| value < least) {
                return Err(Finding::error(
                    Code::BadMetadata,
                    value_span(rule),
                    format!("{what}: the two cells beside it hold different digits"),
                ));
            }
            Kind::Dot {
                dot,
                value,
                cells: pair()?,
            }
        }
        Keyword::Inequality => match &rule.body {
            Body::Less(a, b) => Kind::Less([index(a, size)?, index(b, size)?]),
            _ => return Ok(None),
        },
        Keyword::Thermo | Keyword::SlowThermo => Kind::Thermo {
            slow: rule.keyword == Keyword::SlowThermo,
            cells: cells()?,
        },
        Keyword::Whisper => match number(Some(n.div_ceil(2))).unwrap_or(1) {
            0 => {
                return Err(Finding::error(
                    Code::BadMetadata,
                    value_span(rule),
                    "a whisper's least difference is 1 or more: 0 asks nothing of the line",
                ))
            }
            gap => Kind::Whisper {
                gap,
                cells: cells()?,
            },
        },
        Keyword::Renban => Kind::Renban(cells()?),
        Keyword::Palindrome => Kind::Palindrome(cells()?),
        Keyword::Between => Kind::Between(cells()?),
        Keyword::Lockout => Kind::Lockout {
            gap: number(Some(0)).unwrap_or(0),
            cells: cells()?,
        },
        Keyword::Entropic => Kind::Entropic(cells()?),
        Keyword::Modular => Kind::Modular(cells()?),
        Keyword::Nabner => Kind::Nabner(cells()?),
        Keyword::Even | Keyword::Odd => Kind::Parity {
            even: rule.keyword == Keyword::Even,
            cells: cells()?,
        },
        Keyword::Minimum | Keyword::Maximum => Kind::Extreme {
            maximum: rule.keyword == Keyword::Maximum,
            cells: cells()?,
        },
        Keyword::Candidates => Kind::Candidates {
            digits: digits_of(rule, size)?
                .iter()
                .fold(0, |acc, d| acc | 1 << (d - 1)),
            cells: cells()?,
        },
        Keyword::Quad => Kind::Quad {
            digits: digits_of(rule, size)?.into(),
            cells: cells()?,
        },
        Keyword::Clone => match &rule.body {
            Body::Clone(groups) => Kind::Clone(
                groups
                    .iter()
                    .map(|g| indices(g, size))
                    .collect::<Result<Vec<_>, _>>()?
                    .into(),
            ),
            _ => return Ok(None),
        },
        Keyword::RowIndex | Keyword::ColumnIndex | Keyword::BoxIndex => Kind::Indexer {
            index: match rule.keyword {
                Keyword::RowIndex => Index::Row,
                Keyword::ColumnIndex => Index::Column,
                _ => Index::Box,
            },
            cells: cells()?,
        },
    };
    Ok(Some(kind))
}

/// Where a rule's number is written (its keyword when it has none).
fn value_span(rule: &Rule) -> Span {
    match &rule.value {
        Some(Value::Number(_, span)) => *span,
        _ => rule.keyword_span,
    }
}

/// A cell's index, or the error that it lies outside the grid.
fn index(cell: &CellRef, size: Size) -> Result<u16, Finding> {
    let n = size.side();
    if (cell.row as usize) < n && (cell.col as usize) < n {
        return Ok((cell.row as usize * n + cell.col as usize) as u16);
    }
    Err(Finding::error(
        Code::BadMetadata,
        cell.span,
        format!(
            "this cell is outside the puzzle's {n}×{n} grid (rows A to {}, columns 1 to {n})",
            (b'A' + n as u8 - 1) as char
        ),
    ))
}

fn indices(cells: &[CellRef], size: Size) -> Result<Cells, Finding> {
    cells.iter().map(|c| index(c, size)).collect()
}

fn all_cells(body: &Body, size: Size) -> Result<Cells, Finding> {
    match body {
        Body::Cells(cells) => indices(cells, size),
        _ => Ok(Cells::default()),
    }
}

/// A little killer's cells: from its first cell to the edge, the way it points. The first
/// cell must be at the edge the clue stands by (the cell before it, the other way, is outside).
fn diagonal(body: &Body, size: Size) -> Result<Cells, Finding> {
    let Body::Diagonal(start, direction, _) = body else {
        return Ok(Cells::default());
    };
    let first = index(start, size)?;
    let n = size.side() as i32;
    let (dr, dc) = match direction {
        Direction::UpLeft => (-1, -1),
        Direction::UpRight => (-1, 1),
        Direction::DownLeft => (1, -1),
        Direction::DownRight => (1, 1),
    };
    let inside = |r: i32, c: i32| (0..n).contains(&r) && (0..n).contains(&c);
    let (r, c) = (start.row as i32, start.col as i32);
    if inside(r - dr, c - dc) {
        return Err(Finding::error(
            Code::BadMetadata,
            start.span,
            "a little killer's diagonal starts at the edge of the grid, at the cell beside its \
             clue: the cell before this one, the other way, is still inside",
        ));
    }
    let mut cells = vec![first];
    let (mut r, mut c) = (r + dr, c + dc);
    while inside(r, c) {
        cells.push((r * n + c) as u16);
        r += dr;
        c += dc;
    }
    Ok(cells.into())
}

/// An outside clue's row or column, read from the clue's side.
fn outside(body: &Body, size: Size) -> Result<Cells, Finding> {
    let Body::Outside(side, line, span) = body else {
        return Ok(Cells::default());
    };
    let n = size.side();
    let line = *line as usize;
    if line >= n {
        let what = match side {
            Side::Left | Side::Right => format!("row {}", (b'A' + line as u8) as char),
            Side::Top | Side::Bottom => format!("column {}", line + 1),
        };
        return Err(Finding::error(
            Code::BadMetadata,
            *span,
            format!("{what} is outside the puzzle's {n}×{n} grid"),
        ));
    }
    let cells: Vec<u16> = (0..n)
        .map(|i| match side {
            Side::Left => line * n + i,
            Side::Right => line * n + (n - 1 - i),
            Side::Top => i * n + line,
            Side::Bottom => (n - 1 - i) * n + line,
        } as u16)
        .collect();
    Ok(cells.into())
}

/// A region-sum line cut where it passes from one box (or region of the puzzle's own) to
/// another.
fn runs_by_region(cells: &[u16], size: Size, regions: Option<&[u8]>) -> Box<[Cells]> {
    let n = size.side();
    let box_of = |c: u16| match regions {
        Some(regions) => (regions[c as usize] as usize, 0),
        None => {
            let (r, col) = (c as usize / n, c as usize % n);
            (r / size.box_rows(), col / size.box_cols())
        }
    };
    let mut runs: Vec<Vec<u16>> = Vec::new();
    for &cell in cells {
        match runs.last_mut() {
            Some(run) if box_of(run[0]) == box_of(cell) => run.push(cell),
            _ => runs.push(vec![cell]),
        }
    }
    runs.into_iter().map(Vec::into_boxed_slice).collect()
}

/// The regions a `regions:` line and its rows give a grid of `size` (`None` for any other
/// line): N rows of N symbols, each symbol N cells (`.` for a cell in no region), or the error
/// at the row or symbol at fault.
pub(crate) fn regions(rule: &Rule, size: Size) -> Option<Result<Regions, Finding>> {
    let Body::Regions { none, rows } = &rule.body else {
        return None;
    };
    let n = size.side();
    if n > MAX_SIDE as usize {
        let message = format!("regions of a puzzle's own are solved on grids up to {MAX_SIDE}×{MAX_SIDE}; this puzzle is {n}×{n}");
        return Some(Err(Finding::error(
            Code::BadMetadata,
            rule.keyword_span,
            message,
        )));
    }
    let of_cell = if *none {
        Ok(vec![NO_REGION; n * n])
    } else {
        region_cells(rule, rows, n)
    };
    Some(of_cell.map(|of_cell| Regions {
        of_cell: of_cell.into(),
        line: rule.span,
        rows: rows.iter().map(|row| row.span).collect(),
    }))
}

/// Each cell's region from the rows of a `regions:` block, numbered in the order symbols come.
fn region_cells(rule: &Rule, rows: &[RegionRow], n: usize) -> Result<Vec<u8>, Finding> {
    let error = |span: Span, message: String| Err(Finding::error(Code::BadMetadata, span, message));
    if rows.len() != n {
        let at = rows.last().map_or(rule.span, |row| row.span);
        let said = match rows.len() {
            0 => "no rows".to_string(),
            1 => "1 row".to_string(),
            k => format!("{k} rows"),
        };
        return error(
            at,
            format!(
                "'regions:' has {said} below it; this {n}×{n} puzzle needs {n} rows of {n} symbols, \
                 one a cell (a letter or digit naming its region, '.' for none)"
            ),
        );
    }
    let mut symbols: Vec<char> = Vec::new();
    let mut of_cell = Vec::with_capacity(n * n);
    for row in rows {
        if row.symbols.len() != n {
            let count = row.symbols.len();
            return error(
                row.span,
                format!("this row of 'regions:' has {count} symbols; the puzzle is {n}×{n}"),
            );
        }
        for &(symbol, span) in &row.symbols {
            if symbol == '.' {
                of_cell.push(NO_REGION);
                continue;
            }
            if !symbol.is_ascii_alphanumeric() {
                return error(
                    span,
                    format!("'{symbol}' cannot name a region: use a letter or a digit ('.' for a cell in none)"),
                );
            }
            let index = match symbols.iter().position(|&s| s == symbol) {
                Some(index) => index,
                None => {
                    symbols.push(symbol);
                    symbols.len() - 1
                }
            };
            of_cell.push(index as u8);
        }
    }
    let wrong: Vec<(char, usize)> = symbols
        .iter()
        .enumerate()
        .map(|(index, &symbol)| {
            (
                symbol,
                of_cell.iter().filter(|&&r| r as usize == index).count(),
            )
        })
        .filter(|&(_, count)| count != n)
        .collect();
    if let Some(&(symbol, _)) = wrong.first() {
        let first = rows
            .iter()
            .flat_map(|row| &row.symbols)
            .find(|(s, _)| *s == symbol);
        let at = first.map_or(rule.span, |&(_, span)| span);
        let counts: Vec<String> = wrong
            .iter()
            .map(|(symbol, count)| format!("'{symbol}' has {count}"))
            .collect();
        return error(
            at,
            format!(
                "each region of a {n}×{n} puzzle has {n} cells, one of each digit: region {}",
                counts.join(", ")
            ),
        );
    }
    Ok(of_cell)
}

/// The digits of a candidates or quad line, each one the grid can hold.
fn digits_of(rule: &Rule, size: Size) -> Result<Vec<u8>, Finding> {
    let Some(Value::Digits(digits, span)) = &rule.value else {
        return Ok(Vec::new());
    };
    if let Some(&big) = digits.iter().find(|&&d| d as usize > size.side()) {
        return Err(Finding::error(
            Code::DigitRange,
            *span,
            format!(
                "{} is larger than this {n}×{n} puzzle's digits (1 to {})",
                digit_char(big),
                digit_char(size.side() as u8),
                n = size.side()
            ),
        ));
    }
    Ok(digits.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nine() -> Size {
        Size::NINE
    }

    /// The constraint of one line on a 9×9, or its error's message.
    fn resolved(line: &str, size: Size) -> Result<Kind, String> {
        let rule = super::super::rules::read(line, 0)
            .expect("a constraint line")
            .map_err(|e| e.message.to_string())?;
        match resolve(&rule, size, None) {
            Some(Ok(constraint)) => Ok(constraint.kind),
            Some(Err(error)) => Err(error.message.to_string()),
            None => Err("no constraint".into()),
        }
    }

    #[test]
    fn a_little_killer_runs_from_the_edge_to_the_far_edge() {
        let Ok(Kind::LittleKiller { sum, cells }) =
            resolved("little-killer 17: A3 down-left", nine())
        else {
            panic!()
        };
        assert_eq!((sum, &cells[..]), (17, &[2, 10, 18][..]), "A3 B2 C1");
        let Ok(Kind::LittleKiller { cells, .. }) = resolved("little-killer 9: I5 up-right", nine())
        else {
            panic!()
        };
        assert_eq!(&cells[..], &[76, 68, 60, 52, 44], "I5 H6 G7 F8 E9");
        let error = resolved("little-killer 9: C3 down-left", nine()).unwrap_err();
        assert!(error.contains("starts at the edge"), "{error}");
    }

    /// Side-by-side cells differ: a white dot of 0 or a black dot of 0 or 1 can never hold,
    /// and says so at its value.
    #[test]
    fn a_dot_that_side_by_side_cells_cannot_keep_is_an_error() {
        for (line, said) in [
            ("white 0: A1 A2", "a white dot's difference is 1 or more"),
            ("black 1: A1 A2", "a black dot's ratio is 2 or more"),
            ("black 0: A1 A2", "a black dot's ratio is 2 or more"),
            (
                "whisper 0: A1 A2",
                "a whisper's least difference is 1 or more",
            ),
        ] {
            let error = resolved(line, nine()).unwrap_err();
            assert!(error.starts_with(said), "{line}: {error}");
        }
        for line in [
            "white: A1 A2",
            "white 8: A1 A2",
            "black: A1 A2",
            "black 3: A1 A2",
        ] {
            assert!(resolved(line, nine()).is_ok(), "{line}");
        }
    }

    #[test]
    fn outside_clues_read_their_row_or_column_from_their_side() {
        let cells = |line: &str| match resolved(line, nine()) {
            Ok(
                Kind::Sandwich { cells, .. }
                | Kind::XSum { cells, .. }
                | Kind::Skyscraper { cells, .. },
            ) => cells.to_vec(),
            other => panic!("{other:?}"),
        };
        assert_eq!(
            cells("sandwich 12: top 3"),
            (0..9).map(|r| r * 9 + 2).collect::<Vec<u16>>()
        );
        assert_eq!(
            cells("x-sum 15: right B"),
            (9..18).rev().collect::<Vec<u16>>()
        );
        assert_eq!(cells("skyscraper 4: bottom 1")[0], 72);
    }

    #[test]
    fn cells_and_digits_outside_the_grid_are_errors_at_them() {
        let four = Size::from_side(4).unwrap();
        let error = resolved("cage 5: A1 A5", four).unwrap_err();
        assert!(error.contains("outside the puzzle's 4×4 grid"), "{error}");
        let error = resolved("candidates 59: A1", four).unwrap_err();
        assert!(
            error.contains("5 is larger than this 4×4 puzzle's digits"),
            "{error}"
        );
        let error = resolved("sandwich 3: left E", four).unwrap_err();
        assert!(error.contains("row E is outside"), "{error}");
        let twenty_five = Size::from_side(25).unwrap();
        let error = resolved("cage 5: A1 A2", twenty_five).unwrap_err();
        assert!(error.contains("up to 16×16"), "{error}");
        let seven = Size::from_side(7).unwrap();
        let error = resolved("box-index: A1", seven).unwrap_err();
        assert!(error.contains("a 7×7 grid has no boxes"), "{error}");
        assert!(resolved("row-index: A1", seven).is_ok());
    }

    #[test]
    fn defaults_and_region_sum_runs() {
        assert!(matches!(
            resolved("whisper: A1 A2", nine()),
            Ok(Kind::Whisper { gap: 5, .. })
        ));
        assert!(matches!(
            resolved("black: A1 A2", nine()),
            Ok(Kind::Dot {
                dot: Dot::Black,
                value: 2,
                ..
            })
        ));
        let Ok(Kind::RegionSum(runs)) = resolved("region-sum: A2 A3 A4 B4 C3", nine()) else {
            panic!()
        };
        let runs: Vec<Vec<u16>> = runs.iter().map(|r| r.to_vec()).collect();
        assert_eq!(runs, vec![vec![1, 2], vec![3, 12], vec![20]]);
    }
}
