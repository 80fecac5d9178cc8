//! f-puzzles JSON → `.sudoku` text.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::{
    cell_name, ImportError, Imported, Shape, COSMETIC_KEYS, DIRECTIONS, DRAWN_COPIES, FLAG_KEYS,
    FRAGMENT_KEY, LINE_KEYS, REGION_SYMBOLS, SUDOKUPAD_COPIES,
};
use crate::format::rules as syntax;
use crate::grid::{digit_char, geometry, Size, UnitKind, Variant};

/// The top-level keys read here (the constraint keys of `LINE_KEYS` and `FLAG_KEYS` too).
const READ_KEYS: [&str; 7] = [
    "size", "title", "author", "ruleset", "solution", "grid", "negative",
];

/// The keys of a grid cell read here; the others are kept.
const CELL_KEYS: [&str; 4] = ["value", "given", "region", "givenPencilMarks"];

/// Read an f-puzzles JSON text.
pub fn import_json(json: &str) -> Result<Imported, ImportError> {
    let value: Value = serde_json::from_str(json).map_err(|e| {
        ImportError::at(
            "",
            format!("not JSON (line {}, column {}): {e}", e.line(), e.column()),
        )
    })?;
    import(&value)
}

/// Write an f-puzzles puzzle as `.sudoku` text.
pub fn import(json: &Value) -> Result<Imported, ImportError> {
    let object = json.as_object().ok_or_else(|| {
        ImportError::at(
            "",
            format!(
                "an f-puzzles puzzle is a JSON object with size and grid, not {}",
                kind_of(json)
            ),
        )
    })?;
    let mut reader = Reader::new(object)?;
    reader.read_all()?;
    Ok(reader.finish())
}

/// One puzzle being read: its size, and the text's parts as they are made.
struct Reader<'a> {
    object: &'a Map<String, Value>,
    size: Size,
    side: usize,
    meta: Vec<String>,
    flags: Vec<String>,
    regions: Vec<String>,
    lines: Vec<String>,
    givens: Vec<u8>,
    entries: Vec<bool>,
    /// Kept fragments: a top-level key and its value (entries of an array key gathered).
    kept: BTreeMap<String, Value>,
    /// Kept properties of grid cells, by `R1C1` name.
    kept_cells: Map<String, Value>,
    warnings: Vec<String>,
    /// Cosmetic copies of constraints (Rangsk's userscript's), dropped.
    dropped_copies: usize,
}

impl<'a> Reader<'a> {
    fn new(object: &'a Map<String, Value>) -> Result<Reader<'a>, ImportError> {
        let size_value = object
            .get("size")
            .ok_or_else(|| ImportError::at("size", "missing: an f-puzzles puzzle has a size"))?;
        let side = size_value
            .as_u64()
            .ok_or_else(|| ImportError::at("size", format!("{size_value} is no grid size")))?;
        let size = usize::try_from(side)
            .ok()
            .and_then(Size::from_side)
            .ok_or_else(|| {
                ImportError::at(
                    "size",
                    format!(
                        "a {side}×{side} grid is not a size sudoku-lsp reads (sizes: {})",
                        Size::supported_sides()
                    ),
                )
            })?;
        let side = size.side();
        Ok(Reader {
            object,
            size,
            side,
            meta: Vec::new(),
            flags: Vec::new(),
            regions: Vec::new(),
            lines: Vec::new(),
            givens: vec![0; size.cells()],
            entries: vec![false; size.cells()],
            kept: BTreeMap::new(),
            kept_cells: Map::new(),
            warnings: Vec::new(),
            dropped_copies: 0,
        })
    }

    fn read_all(&mut self) -> Result<(), ImportError> {
        self.read_metadata()?;
        self.read_flags()?;
        self.read_grid()?;
        for (key, keyword, shape) in super::LINE_KEYS {
            if let Some(value) = self.object.get(key) {
                self.read_entries(key, keyword, shape, value)?;
            }
        }
        self.windoku();
        self.read_others();
        Ok(())
    }

    /// Title, author, rules and solution: the JSON's keys, or SudokuPad's cosmetic cages
    /// whose value is `title: …` (its older way of writing them).
    fn read_metadata(&mut self) -> Result<(), ImportError> {
        for key in ["title", "author"] {
            let text = match self.object.get(key) {
                Some(value) => one_line(string_at(value, key)?),
                None => self
                    .cage_metadata(key)
                    .map(|v| one_line(&v))
                    .unwrap_or_default(),
            };
            if !text.is_empty() {
                self.meta.push(format!("# {key}: {text}"));
            }
        }
        let rules = match self.object.get("ruleset") {
            Some(value) => string_at(value, "ruleset")?.to_string(),
            None => self.cage_metadata("rules").unwrap_or_default(),
        };
        for paragraph in paragraphs(&rules) {
            self.meta.push(format!("# rules: {paragraph}"));
        }
        let solution = match self.object.get("solution") {
            Some(value) => Some(value.clone()),
            None => self.cage_metadata("solution").map(Value::String),
        };
        if let Some(value) = solution {
            match self.solution(&value) {
                Some(digits) => self.meta.push(format!("# solution: {digits}")),
                None => self.keep_key("solution", value, "its solution is no grid of digits"),
            }
        }
        Ok(())
    }

    /// The value of SudokuPad's metadata cages for `key` (`{"value": "rules: …"}`), several
    /// joined as paragraphs.
    fn cage_metadata(&self, key: &str) -> Option<String> {
        let cages = self.object.get("cage")?.as_array()?;
        let values: Vec<&str> = cages
            .iter()
            .filter_map(|cage| metadata_cage(cage))
            .filter(|(k, _)| *k == key)
            .map(|(_, value)| value)
            .collect();
        (!values.is_empty()).then(|| values.join("\n\n"))
    }

    /// The solution's digits, from an array of numbers or a string (comma-separated when a
    /// digit has two places); `None` when it is no full grid.
    fn solution(&self, value: &Value) -> Option<String> {
        let numbers: Vec<u64> = match value {
            Value::Array(items) => items.iter().map(Value::as_u64).collect::<Option<_>>()?,
            Value::String(text) if text.contains(',') => text
                .split(',')
                .map(|t| t.trim().parse().ok())
                .collect::<Option<_>>()?,
            Value::String(text) => text
                .chars()
                .map(|c| c.to_digit(10).map(u64::from))
                .collect::<Option<_>>()?,
            _ => return None,
        };
        let fits = |&d: &u64| (1..=self.side as u64).contains(&d);
        (numbers.len() == self.size.cells() && numbers.iter().all(fits))
            .then(|| numbers.iter().map(|&d| digit_char(d as u8)).collect())
    }

    fn read_flags(&mut self) -> Result<(), ImportError> {
        let on = |key: &str| self.object.get(key).and_then(Value::as_bool) == Some(true);
        let (main, anti) = (on("diagonal-"), on("diagonal+"));
        for (key, line) in FLAG_KEYS {
            let line = match key {
                "diagonal-" if main && anti => "diagonal",
                "diagonal+" if main && anti => continue,
                _ => line,
            };
            match self.object.get(key) {
                Some(Value::Bool(true)) => self.flags.push(line.to_string()),
                Some(Value::Bool(false)) | Some(Value::Null) | None => {}
                Some(other) => {
                    return Err(ImportError::at(
                        key,
                        format!("expected true or false, found {}", kind_of(other)),
                    ))
                }
            }
        }
        if let Some(value) = self.object.get("negative") {
            self.read_negative(value)?;
        }
        Ok(())
    }

    /// `negative: ["ratio", "xv"]`: which dots are all given.
    fn read_negative(&mut self, value: &Value) -> Result<(), ImportError> {
        let items = array_at(value, "negative")?;
        let mut kinds = Vec::new();
        let mut unknown = Vec::new();
        for (i, item) in items.iter().enumerate() {
            match string_at(item, &format!("negative[{i}]"))? {
                "ratio" => kinds.push("black"),
                "xv" => kinds.extend(["x", "v"]),
                _ => unknown.push(item.clone()),
            }
        }
        if !kinds.is_empty() {
            self.flags.push(format!("negative: {}", kinds.join(" ")));
        }
        if !unknown.is_empty() {
            self.keep_key(
                "negative",
                Value::Array(unknown),
                "a negative constraint sudoku-lsp does not know",
            );
        }
        Ok(())
    }

    fn read_grid(&mut self) -> Result<(), ImportError> {
        let grid = self
            .object
            .get("grid")
            .ok_or_else(|| ImportError::at("grid", "missing: an f-puzzles puzzle has a grid"))?;
        let rows = array_at(grid, "grid")?;
        if rows.len() != self.side {
            return Err(ImportError::at(
                "grid",
                format!(
                    "{} rows, a {}×{} grid has {}",
                    rows.len(),
                    self.side,
                    self.side,
                    self.side
                ),
            ));
        }
        let mut regions = Vec::with_capacity(self.size.cells());
        let mut candidates: Vec<(String, Vec<String>)> = Vec::new();
        for (r, row) in rows.iter().enumerate() {
            let path = format!("grid[{r}]");
            let cells = array_at(row, &path)?;
            if cells.len() != self.side {
                return Err(ImportError::at(
                    path,
                    format!(
                        "{} cells, a row of this grid has {}",
                        cells.len(),
                        self.side
                    ),
                ));
            }
            for (c, cell) in cells.iter().enumerate() {
                let path = format!("grid[{r}][{c}]");
                let cell = object_at(cell, &path)?;
                regions.push(self.read_cell(r, c, cell, &path, &mut candidates)?);
            }
        }
        for (digits, cells) in candidates {
            self.lines
                .push(format!("candidates {digits}: {}", cells.join(" ")));
        }
        self.read_regions(&regions)
    }

    /// One grid cell: its digit, kept properties, given pencil marks; its region (`None` for
    /// none, the default box's index when it says nothing).
    fn read_cell(
        &mut self,
        r: usize,
        c: usize,
        cell: &Map<String, Value>,
        path: &str,
        candidates: &mut Vec<(String, Vec<String>)>,
    ) -> Result<Option<i64>, ImportError> {
        let index = r * self.side + c;
        if let Some(value) = cell.get("value").filter(|v| !v.is_null()) {
            let digit = self.digit(value, || format!("{path}.value"))?;
            self.givens[index] = digit as u8;
            self.entries[index] = cell.get("given").and_then(Value::as_bool) != Some(true);
        }
        if let Some(marks) = cell.get("givenPencilMarks").filter(|v| !v.is_null()) {
            let digits = self.digits(marks, &format!("{path}.givenPencilMarks"))?;
            if !digits.is_empty() {
                let name = cell_name(r, c);
                match candidates.iter_mut().find(|(d, _)| *d == digits) {
                    Some((_, cells)) => cells.push(name),
                    None => candidates.push((digits, vec![name])),
                }
            }
        }
        let kept: Map<String, Value> = cell
            .iter()
            .filter(|(k, v)| !CELL_KEYS.contains(&k.as_str()) && !is_empty(v))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if !kept.is_empty() {
            self.kept_cells
                .insert(super::rc(r as i64, c as i64), Value::Object(kept));
        }
        let default = self.default_box(r, c) as i64;
        match cell.get("region") {
            None => Ok(Some(default)),
            Some(Value::Null) => Ok(None),
            Some(value) => value.as_i64().map(Some).ok_or_else(|| {
                ImportError::at(
                    format!("{path}.region"),
                    format!("{value} is no region number"),
                )
            }),
        }
    }

    /// A number that is a digit of this grid, or the error at `path`.
    fn digit(&self, value: &Value, path: impl FnOnce() -> String) -> Result<u64, ImportError> {
        let side = self.side;
        value
            .as_u64()
            .filter(|d| (1..=side as u64).contains(d))
            .ok_or_else(|| {
                ImportError::at(
                    path(),
                    format!("{value} is no digit of a {side}×{side} grid"),
                )
            })
    }

    /// The digits of an array of numbers as one word (`137`), each once, in the order given.
    fn digits(&self, value: &Value, path: &str) -> Result<String, ImportError> {
        let items = array_at(value, path)?;
        let mut seen = 0u64;
        let mut word = String::new();
        for (i, item) in items.iter().enumerate() {
            let digit = self.digit(item, || format!("{path}[{i}]"))?;
            if seen & (1 << digit) == 0 {
                seen |= 1 << digit;
                word.push(digit_char(digit as u8));
            }
        }
        Ok(word)
    }

    /// The index f-puzzles gives a cell's box when the cell says no region.
    fn default_box(&self, r: usize, c: usize) -> usize {
        let (rows, cols) = (self.size.box_rows(), self.size.box_cols());
        (r / rows) * (self.side / cols) + c / cols
    }

    /// A `regions:` block when the regions are not the boxes: a symbol a region, in order of
    /// first appearance, `.` for a cell in none.
    fn read_regions(&mut self, regions: &[Option<i64>]) -> Result<(), ImportError> {
        let boxes = (0..self.size.cells())
            .all(|i| regions[i] == Some(self.default_box(i / self.side, i % self.side) as i64));
        if boxes && self.size.has_boxes() {
            return Ok(());
        }
        // A prime side's default boxes are its rows (one row tall): no boxes at all, as when
        // every cell is in no region.
        if boxes || regions.iter().all(Option::is_none) {
            self.regions.push("regions: none".to_string());
            return Ok(());
        }
        let mut order: Vec<i64> = Vec::new();
        let mut rows = Vec::with_capacity(self.side);
        for row in regions.chunks(self.side) {
            let mut text = String::with_capacity(self.side);
            for region in row {
                let Some(region) = region else {
                    text.push('.');
                    continue;
                };
                let at = order.iter().position(|r| r == region).unwrap_or_else(|| {
                    order.push(*region);
                    order.len() - 1
                });
                let symbol = REGION_SYMBOLS.chars().nth(at).ok_or_else(|| {
                    ImportError::at(
                        "grid",
                        format!("more than {} regions", REGION_SYMBOLS.len()),
                    )
                })?;
                text.push(symbol);
            }
            rows.push(text);
        }
        self.regions.push("regions:".to_string());
        self.regions.extend(rows);
        Ok(())
    }

    /// Every entry of one constraint key: a line each (or one line for the key), or kept.
    fn read_entries(
        &mut self,
        key: &str,
        keyword: &str,
        shape: Shape,
        value: &Value,
    ) -> Result<(), ImportError> {
        let items = array_at(value, key)?;
        if shape == Shape::Single {
            return self.read_singles(key, keyword, items);
        }
        let mut previous_clone: Option<(Vec<String>, usize)> = None;
        for (i, item) in items.iter().enumerate() {
            let path = format!("{key}[{i}]");
            let entry = object_at(item, &path)?;
            let made = match shape {
                Shape::Clone => {
                    self.read_clone(entry, &path, &mut previous_clone)?;
                    continue;
                }
                _ => self.entry_lines(keyword, shape, entry, &path)?,
            };
            match made {
                Ok(lines) => self.add_lines(key, item, &path, lines),
                Err(why) => self.keep_entry(key, item, &format!("{path}: {why}")),
            }
        }
        Ok(())
    }

    /// Add lines made from one entry, unless one is no constraint line our parser reads: then
    /// the entry is kept whole.
    fn add_lines(&mut self, key: &str, item: &Value, path: &str, lines: Vec<String>) {
        for line in &lines {
            if let Some(why) = not_a_rule(line) {
                self.keep_entry(key, item, &format!("{path}: '{line}' {why}"));
                return;
            }
        }
        self.lines.extend(lines);
    }

    /// The lines of one entry, or why it cannot be written (a value that is no number, …).
    fn entry_lines(
        &self,
        keyword: &str,
        shape: Shape,
        entry: &Map<String, Value>,
        path: &str,
    ) -> Result<Made, ImportError> {
        match shape {
            Shape::Arrow => return self.arrow_lines(entry, path).map(Ok),
            Shape::LittleKiller => return Ok(self.little_killer(entry, path)?.map(|l| vec![l])),
            Shape::Outside => return Ok(self.outside(keyword, entry, path)?.map(|l| vec![l])),
            Shape::Single | Shape::Clone => return Ok(Ok(Vec::new())),
            _ => {}
        }
        let head = match self.head(keyword, shape, entry, path)? {
            Ok(head) => head,
            Err(why) => return Ok(Err(why)),
        };
        let bodies = match shape {
            Shape::Lines | Shape::Whispers | Shape::Lockout => self.lines_of(entry, path)?,
            _ => vec![self.cells(entry, "cells", path)?],
        };
        let line = |cells: &Vec<String>| format!("{head}: {}", cells.join(" "));
        Ok(Ok(bodies.iter().map(line).collect()))
    }

    /// What goes before a line's `:`: the keyword, and its value unless it is the default.
    fn head(
        &self,
        keyword: &str,
        shape: Shape,
        entry: &Map<String, Value>,
        path: &str,
    ) -> Result<Result<String, String>, ImportError> {
        let value = entry.get("value").filter(|v| !is_empty(v));
        let default = match shape {
            Shape::Whispers => Some(self.side.div_ceil(2) as u64),
            Shape::Dot if keyword == "white" => Some(1),
            Shape::Dot => Some(2),
            _ => None,
        };
        Ok(match (shape, value.map(number)) {
            (Shape::Quad, _) => return self.quad_head(entry, path),
            (Shape::Xv, _) => xv_head(value),
            (Shape::Cells | Shape::Lines, _) => Ok(keyword.into()),
            (Shape::Lockout, None) => Err("a lockout line without a number gap".into()),
            (_, None) => Ok(keyword.into()),
            (_, Some(None)) => Err(format!("its value {} is no number", show(value))),
            (_, Some(n)) if n == default => Ok(keyword.into()),
            (_, Some(Some(n))) => Ok(format!("{keyword} {n}")),
        })
    }

    /// `quad 1259`, from the entry's `values`.
    fn quad_head(
        &self,
        entry: &Map<String, Value>,
        path: &str,
    ) -> Result<Result<String, String>, ImportError> {
        let path = format!("{path}.values");
        let values = entry
            .get("values")
            .ok_or_else(|| ImportError::at(&path, "missing"))?;
        let mut digits = String::new();
        for (i, item) in array_at(values, &path)?.iter().enumerate() {
            let digit = item
                .as_u64()
                .filter(|d| (1..=self.side as u64).contains(d))
                .ok_or_else(|| {
                    ImportError::at(
                        format!("{path}[{i}]"),
                        format!("{item} is no digit of this grid"),
                    )
                })?;
            digits.push(digit_char(digit as u8));
        }
        if digits.is_empty() {
            return Ok(Err("a quadruple without digits".into()));
        }
        Ok(Ok(format!("quad {digits}")))
    }

    /// One `arrow:` line per line of the entry: the circle (a pill's cells in reading order),
    /// then the line without its first cell (the one on the circle).
    fn arrow_lines(
        &self,
        entry: &Map<String, Value>,
        path: &str,
    ) -> Result<Vec<String>, ImportError> {
        let mut circle = self.positions(entry, "cells", path)?;
        circle.sort();
        let circle: Vec<String> = circle.iter().map(|&(r, c)| cell_name(r, c)).collect();
        let mut out = Vec::new();
        for shaft in self.lines_of(entry, path)? {
            let shaft = shaft.get(1..).unwrap_or_default();
            out.push(format!("arrow: {} > {}", circle.join(" "), shaft.join(" ")));
        }
        Ok(out)
    }

    /// `little-killer 17: A3 down-left`: the diagonal's first cell is the clue's neighbour in
    /// its direction.
    fn little_killer(
        &self,
        entry: &Map<String, Value>,
        path: &str,
    ) -> Result<Result<String, String>, ImportError> {
        let Some(sum) = entry.get("value").filter(|v| !is_empty(v)) else {
            return Ok(Err(
                "a little killer clue without a value (it constrains nothing)".into(),
            ));
        };
        let Some(sum) = number(sum) else {
            return Ok(Err(format!("the little killer's value {sum} is no number")));
        };
        let (row, col) = self.outside_cell(entry, path)?;
        let direction = entry
            .get("direction")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let Some(&(_, word, (dr, dc))) = DIRECTIONS
            .iter()
            .find(|(d, _, _)| d.eq_ignore_ascii_case(direction))
        else {
            return Err(ImportError::at(
                format!("{path}.direction"),
                format!("{direction:?} is not UL, UR, DL or DR"),
            ));
        };
        let (first_row, first_col) = (row + dr, col + dc);
        let n = self.side as i64;
        if !(0..n).contains(&first_row) || !(0..n).contains(&first_col) {
            return Ok(Err("its diagonal does not enter the grid".into()));
        }
        Ok(Ok(format!(
            "little-killer {sum}: {} {word}",
            cell_name(first_row as usize, first_col as usize)
        )))
    }

    /// `sandwich 12: top 3`: the clue's side and its row or column.
    fn outside(
        &self,
        keyword: &str,
        entry: &Map<String, Value>,
        path: &str,
    ) -> Result<Result<String, String>, ImportError> {
        let Some(value) = entry.get("value").filter(|v| !is_empty(v)).and_then(number) else {
            return Ok(Err("an outside clue without a number".into()));
        };
        let (row, col) = self.outside_cell(entry, path)?;
        let n = self.side as i64;
        let place = match (row, col) {
            (-1, c) if (0..n).contains(&c) => format!("top {}", c + 1),
            (r, -1) if (0..n).contains(&r) => format!("left {}", (b'A' + r as u8) as char),
            (r, c) if r == n && (0..n).contains(&c) => format!("bottom {}", c + 1),
            (r, c) if c == n && (0..n).contains(&r) => {
                format!("right {}", (b'A' + r as u8) as char)
            }
            _ => return Ok(Err("the clue is not beside a row or column".into())),
        };
        Ok(Ok(format!("{keyword} {value}: {place}")))
    }

    /// The `cell` of an outside clue, from -1 to N (f-puzzles' 0 to N + 1).
    fn outside_cell(
        &self,
        entry: &Map<String, Value>,
        path: &str,
    ) -> Result<(i64, i64), ImportError> {
        let path = format!("{path}.cell");
        let value = entry
            .get("cell")
            .ok_or_else(|| ImportError::at(&path, "missing"))?;
        let text = string_at(value, &path)?;
        let (row, col) = parse_rc(text)
            .ok_or_else(|| ImportError::at(&path, format!("{text:?} is no cell (R1C1)")))?;
        let n = self.side as i64;
        if row > n + 1 || col > n + 1 {
            return Err(ImportError::at(
                &path,
                format!("{text:?} is outside this {n}×{n} grid and its clues"),
            ));
        }
        Ok((row - 1, col - 1))
    }

    /// `odd: A1 C3`: every entry of the key on one line.
    fn read_singles(
        &mut self,
        key: &str,
        keyword: &str,
        items: &[Value],
    ) -> Result<(), ImportError> {
        let mut names = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let path = format!("{key}[{i}]");
            let entry = object_at(item, &path)?;
            let value = entry
                .get("cell")
                .ok_or_else(|| ImportError::at(format!("{path}.cell"), "missing"))?;
            let (r, c) = self.inside(value, &format!("{path}.cell"))?;
            names.push(cell_name(r, c));
        }
        if !names.is_empty() {
            let line = format!("{keyword}: {}", names.join(" "));
            self.add_lines(key, &Value::Array(items.to_vec()), key, vec![line]);
        }
        Ok(())
    }

    /// `clone: A1 A2 = F5 F6`; entries in a row that share their `cells` make one line.
    fn read_clone(
        &mut self,
        entry: &Map<String, Value>,
        path: &str,
        previous: &mut Option<(Vec<String>, usize)>,
    ) -> Result<(), ImportError> {
        let cells = self.cells(entry, "cells", path)?;
        let clones = self.cells(entry, "cloneCells", path)?;
        if let Some((first, at)) = previous.as_ref() {
            if *first == cells && *at + 1 == self.lines.len() {
                let line = format!("{} = {}", self.lines[*at], clones.join(" "));
                if not_a_rule(&line).is_none() {
                    self.lines[*at] = line;
                    return Ok(());
                }
            }
        }
        let line = format!("clone: {} = {}", cells.join(" "), clones.join(" "));
        if let Some(why) = not_a_rule(&line) {
            let item = Value::Object(entry.clone());
            self.keep_entry("clone", &item, &format!("{path}: '{line}' {why}"));
            *previous = None;
            return Ok(());
        }
        self.lines.push(line);
        *previous = Some((cells, self.lines.len() - 1));
        Ok(())
    }

    /// The cells named by `entry[field]`, inside the grid, as `A1` names.
    fn cells(
        &self,
        entry: &Map<String, Value>,
        field: &str,
        path: &str,
    ) -> Result<Vec<String>, ImportError> {
        Ok(self
            .positions(entry, field, path)?
            .into_iter()
            .map(|(r, c)| cell_name(r, c))
            .collect())
    }

    fn positions(
        &self,
        entry: &Map<String, Value>,
        field: &str,
        path: &str,
    ) -> Result<Vec<(usize, usize)>, ImportError> {
        let path = format!("{path}.{field}");
        let value = entry
            .get(field)
            .ok_or_else(|| ImportError::at(&path, "missing"))?;
        array_at(value, &path)?
            .iter()
            .enumerate()
            .map(|(i, cell)| self.inside(cell, &format!("{path}[{i}]")))
            .collect()
    }

    /// Each line of `entry.lines`, as `A1` names.
    fn lines_of(
        &self,
        entry: &Map<String, Value>,
        path: &str,
    ) -> Result<Vec<Vec<String>>, ImportError> {
        let path = format!("{path}.lines");
        let value = entry
            .get("lines")
            .ok_or_else(|| ImportError::at(&path, "missing"))?;
        let mut out = Vec::new();
        for (i, line) in array_at(value, &path)?.iter().enumerate() {
            let path = format!("{path}[{i}]");
            let cells = array_at(line, &path)?
                .iter()
                .enumerate()
                .map(|(j, cell)| {
                    self.inside(cell, &format!("{path}[{j}]"))
                        .map(|(r, c)| cell_name(r, c))
                })
                .collect::<Result<Vec<_>, _>>()?;
            out.push(cells);
        }
        Ok(out)
    }

    /// A cell reference that must be inside the grid: its row and column from 0.
    fn inside(&self, value: &Value, path: &str) -> Result<(usize, usize), ImportError> {
        let text = string_at(value, path)?;
        let (row, col) = parse_rc(text)
            .ok_or_else(|| ImportError::at(path, format!("{text:?} is no cell (R1C1)")))?;
        let n = self.side as i64;
        if !(1..=n).contains(&row) || !(1..=n).contains(&col) {
            return Err(ImportError::at(
                path,
                format!("{text:?} is outside this {n}×{n} grid"),
            ));
        }
        Ok((row as usize - 1, col as usize - 1))
    }

    /// Four extra regions that are windoku's windows are `windoku`.
    fn windoku(&mut self) {
        let geometry = geometry(self.size, Variant::WINDOKU);
        let windows: Vec<String> = geometry
            .units
            .iter()
            .filter(|u| matches!(u.kind, UnitKind::Window(_)))
            .map(|u| {
                let names: Vec<String> = u
                    .cells
                    .iter()
                    .map(|&i| cell_name(i as usize / self.side, i as usize % self.side))
                    .collect();
                format!("extra-region: {}", names.join(" "))
            })
            .collect();
        if windows.is_empty() || !windows.iter().all(|w| self.lines.contains(w)) {
            return;
        }
        self.lines.retain(|line| !windows.contains(line));
        let at = self
            .flags
            .iter()
            .position(|f| {
                f == "disjoint"
                    || f.starts_with("anti")
                    || f.starts_with("non")
                    || f.starts_with("negative")
            })
            .unwrap_or(self.flags.len());
        self.flags.insert(at, "windoku".into());
    }

    /// Every key not read above: cosmetic drawings (copies of constraints dropped) and keys
    /// sudoku-lsp does not know, kept.
    fn read_others(&mut self) {
        let known = |key: &str| {
            READ_KEYS.contains(&key)
                || FLAG_KEYS.iter().any(|(k, _)| *k == key)
                || LINE_KEYS.iter().any(|(k, _, _)| *k == key)
        };
        for (key, value) in self.object {
            if known(key) || is_empty(value) {
                continue;
            }
            if COSMETIC_KEYS.contains(&key.as_str()) {
                self.read_cosmetic(key, value);
            } else {
                self.keep_key(
                    key,
                    value.clone(),
                    &format!("'{key}' is not a rule sudoku-lsp checks"),
                );
            }
        }
    }

    /// A cosmetic key's entries: copies of a constraint dropped, the other drawings kept.
    fn read_cosmetic(&mut self, key: &str, value: &Value) {
        let Some(items) = value.as_array() else {
            self.keep_key(
                key,
                value.clone(),
                &format!("'{key}' is a drawing, not a rule"),
            );
            return;
        };
        // SudokuPad's metadata cages were read as metadata.
        let items = items
            .iter()
            .filter(|item| key != "cage" || metadata_cage(item).is_none());
        let (copies, drawings): (Vec<&Value>, Vec<&Value>) = items.partition(|item| {
            item.get("fromConstraint").is_some() || item.get("isNewConstraint").is_some()
        });
        // Copies of constraints the puzzle has and export draws again go unsaid; a copy of
        // anything else (or of the userscript's first versions) is worth a word.
        let object = self.object;
        let redrawn = |item: &&Value| {
            let name = item.get("fromConstraint").and_then(Value::as_str);
            let drawn = DRAWN_COPIES.iter().map(|&(key, n, _)| (key, n));
            let for_sudokupad = SUDOKUPAD_COPIES.iter().map(|&(key, n, _)| (key, n));
            drawn
                .chain(for_sudokupad)
                .any(|(key, n)| Some(n) == name && object.get(key).is_some_and(|v| !is_empty(v)))
        };
        self.dropped_copies += copies.iter().filter(|c| !redrawn(c)).count();
        if !drawings.is_empty() {
            let count = drawings.len();
            let kept = Value::Array(drawings.into_iter().cloned().collect());
            let plural = if count == 1 { "" } else { "s" };
            self.keep_key(
                key,
                kept,
                &format!("{count} '{key}' drawing{plural}, not a rule sudoku-lsp checks"),
            );
        }
    }

    /// Keep one entry of an array key as a fragment.
    fn keep_entry(&mut self, key: &str, item: &Value, why: &str) {
        self.warnings.push(format!("kept as a comment: {why}"));
        let slot = self
            .kept
            .entry(key.to_string())
            .or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(items) = slot {
            match item {
                Value::Array(all) => items.extend(all.iter().cloned()),
                _ => items.push(item.clone()),
            }
        }
    }

    /// Keep a whole key's value as a fragment.
    fn keep_key(&mut self, key: &str, value: Value, why: &str) {
        self.warnings.push(format!("kept as a comment: {why}"));
        self.kept.insert(key.to_string(), value);
    }

    fn finish(mut self) -> Imported {
        if !self.kept_cells.is_empty() {
            let count = self.kept_cells.len();
            self.warnings.push(format!(
                "kept as a comment: colours, corner and centre marks of {count} cell{}",
                if count == 1 { "" } else { "s" }
            ));
            let cells = std::mem::take(&mut self.kept_cells);
            self.kept.insert("grid".into(), Value::Object(cells));
        }
        if self.dropped_copies > 0 {
            self.warnings.push(format!(
                "{} drawing copies of constraints (Rangsk's userscript) not kept: export writes the constraints again",
                self.dropped_copies
            ));
        }
        let mut text = String::new();
        for line in self.meta.iter() {
            text.push_str(line);
            text.push('\n');
        }
        for (key, value) in &self.kept {
            let mut fragment = Map::new();
            fragment.insert(key.clone(), value.clone());
            text.push_str(&format!("# {FRAGMENT_KEY}: {}\n", Value::Object(fragment)));
        }
        for line in self.flags.iter().chain(&self.regions).chain(&self.lines) {
            text.push_str(line);
            text.push('\n');
        }
        // A jigsaw's grid is written without the box separators it does not have.
        let drawn = match self.regions.is_empty() {
            true => self.size,
            false => self.size.unboxed(),
        };
        text.push_str(&grid_text(drawn, &self.givens, &self.entries));
        if let Some(why) = solution_problem(&text) {
            self.warnings.push(format!("the puzzle's solution {why}"));
        }
        Imported {
            text,
            warnings: self.warnings,
            errors: Vec::new(),
        }
    }
}

/// What is wrong with the `# solution:` of an imported puzzle, if anything: a given it
/// changes, a house where a digit repeats, a constraint it breaks (by the rules' own checker).
fn solution_problem(text: &str) -> Option<String> {
    let digits = text
        .lines()
        .find_map(|line| line.strip_prefix("# solution: "))?;
    let document = crate::format::parse(text);
    let puzzle = document.puzzles.first()?;
    let solution: Vec<u8> = digits.chars().filter_map(crate::grid::char_digit).collect();
    if solution.len() != puzzle.givens.len() {
        return None;
    }
    if let Some(cell) =
        (0..solution.len()).find(|&c| puzzle.is_given(c) && puzzle.givens[c] != solution[c])
    {
        return Some(format!(
            "changes the given of {}",
            cell_name(cell / puzzle.size.side(), cell % puzzle.size.side())
        ));
    }
    let geometry = geometry(puzzle.size, puzzle.variant);
    let repeats = |unit: &crate::grid::Unit| {
        let mut seen = 0u32;
        unit.cells.iter().any(|&c| {
            let bit = 1u32 << solution[c as usize];
            let repeated = seen & bit != 0;
            seen |= bit;
            repeated
        })
    };
    if let Some(unit) = geometry.units.iter().position(repeats) {
        return Some(format!("repeats a digit in {}", geometry.unit_name(unit)));
    }
    let rules = puzzle.rules.as_deref()?;
    if let Some(broken) = rules
        .constraints
        .iter()
        .find(|c| !c.satisfied(puzzle.size, &solution))
    {
        return Some(format!("breaks a {}", broken.name()));
    }
    (!rules.broken_pairs(puzzle.size, &solution).is_empty())
        .then(|| "breaks a rule of the whole grid".to_string())
}

/// A cosmetic cage that holds SudokuPad metadata: its key and value (`title: Blitz`).
fn metadata_cage(cage: &Value) -> Option<(&'static str, &str)> {
    let value = cage.get("value")?.as_str()?;
    let (key, rest) = value.split_once(':')?;
    let key = ["title", "author", "rules", "solution"]
        .into_iter()
        .find(|k| k.eq_ignore_ascii_case(key.trim()))?;
    Some((key, rest.trim()))
}

/// One entry's lines, or why they cannot be written (the entry is then kept as a comment).
type Made = Result<Vec<String>, String>;

/// `x` or `v`, from an XV clue's value.
fn xv_head(value: Option<&Value>) -> Result<String, String> {
    match value
        .and_then(Value::as_str)
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("x") => Ok("x".into()),
        Some("v") => Ok("v".into()),
        _ => Err(format!(
            "an XV clue whose value {} is neither X nor V",
            show(value)
        )),
    }
}

/// A value as JSON, for messages (nothing when there is none).
fn show(value: Option<&Value>) -> String {
    value.map_or_else(|| "(none)".to_string(), Value::to_string)
}

/// The grid block, entries marked `+`.
fn grid_text(size: Size, givens: &[u8], entries: &[bool]) -> String {
    let block = crate::format::grid_block(size, givens);
    if !entries.iter().any(|&e| e) {
        return block;
    }
    // Put a `+` before each entry's digit: cells are the block's non-separator characters.
    let mut out = String::with_capacity(block.len() + 16);
    let mut cell = 0;
    for line in block.lines() {
        if !line.contains(['-']) {
            for ch in line.chars() {
                if ch != ' ' && ch != '|' {
                    if entries.get(cell) == Some(&true) {
                        out.push('+');
                    }
                    cell += 1;
                }
                out.push(ch);
            }
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// Why our parser does not read `line` as a constraint line, if it does not.
fn not_a_rule(line: &str) -> Option<String> {
    match syntax::read(line, 0) {
        Some(Ok(_)) => None,
        Some(Err(finding)) => Some(format!("is no constraint line: {}", finding.message)),
        None => Some("is no constraint line".into()),
    }
}

/// `R10C2` as (10, 2); any case; `None` when it is no such name.
pub(crate) fn parse_rc(text: &str) -> Option<(i64, i64)> {
    let upper = text.trim().to_ascii_uppercase();
    let rest = upper.strip_prefix('R')?;
    let (row, col) = rest.split_once('C')?;
    let digits = |s: &str| !s.is_empty() && s.len() <= 4 && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(row) || !digits(col) {
        return None;
    }
    Some((row.parse().ok()?, col.parse().ok()?))
}

/// A whole number written as a number or a string (`"15"`).
fn number(value: &Value) -> Option<u64> {
    match value {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => {
            let s = s.trim();
            (!s.is_empty() && s.len() <= 9 && s.bytes().all(|b| b.is_ascii_digit()))
                .then(|| s.parse().ok())
                .flatten()
        }
        _ => None,
    }
}

/// Whether a value says nothing (null, false, empty): such keys are left out of fragments.
fn is_empty(value: &Value) -> bool {
    match value {
        Value::Null | Value::Bool(false) => true,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        _ => false,
    }
}

/// Free text on one line: line breaks as blanks, runs of blanks as one.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The paragraphs of a ruleset (split at blank lines), each on one line.
fn paragraphs(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for line in text.lines() {
        if line.trim().is_empty() {
            if !current.is_empty() {
                out.push(one_line(&std::mem::take(&mut current)));
            }
        } else {
            current.push(' ');
            current.push_str(line);
        }
    }
    if !current.trim().is_empty() {
        out.push(one_line(&current));
    }
    out
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn string_at<'v>(value: &'v Value, path: &str) -> Result<&'v str, ImportError> {
    value.as_str().ok_or_else(|| {
        ImportError::at(path, format!("expected a string, found {}", kind_of(value)))
    })
}

fn array_at<'v>(value: &'v Value, path: &str) -> Result<&'v [Value], ImportError> {
    value.as_array().map(Vec::as_slice).ok_or_else(|| {
        ImportError::at(path, format!("expected an array, found {}", kind_of(value)))
    })
}

fn object_at<'v>(value: &'v Value, path: &str) -> Result<&'v Map<String, Value>, ImportError> {
    value.as_object().ok_or_else(|| {
        ImportError::at(
            path,
            format!("expected an object, found {}", kind_of(value)),
        )
    })
}
