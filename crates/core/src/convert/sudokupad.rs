//! SudokuPad's own puzzle format (`scl`, also `ctc` in its links) to `.sudoku` text.
//!
//! A payload is LZ-String base64 of the puzzle's JSON, written either plainly or "zipped" by
//! SudokuPad's PuzzleZipper: empty arrays left out, keys shortened (`ce` cells, `ca` cages,
//! `v` value …), `{}` array items left empty (`[,,]`), `t`/`f` for true and false, colours
//! without their `#` (`#0` and `#F` for black and white), and single quotes for double
//! ([`unzip`] reads it back, tolerant of JavaScript's spellings).
//!
//! What the puzzle says as data becomes the file's: the givens (`cells[r][c].value`), the
//! regions when they are not the boxes, killer cages (`unique` with a `sum` or `value`), extra
//! regions (`style: "extraregion"`), the `global` rules (`antiknight`, `antiking`,
//! `nonconsecutive`, `disjoint`, `antiratio`, `antixv`), and the title, author, rules and
//! solution (a `metadata` object, or cages whose value is `title: …`). Everything else — lines,
//! arrows, overlays and underlays, whose rule a SudokuPad puzzle does not say (it is in the
//! rules' prose), and keys sudoku-lsp does not know — is kept as a `# sudokupad: {…}` comment
//! holding its JSON and named in a warning. The puzzle then goes through f-puzzles JSON and its
//! canonical writer.

use serde_json::{json, Map, Value};

use super::fpuzzles::{self, Imported};
use super::lzstring;
use crate::grid::Size;

/// The metadata key of a kept SudokuPad fragment: `# sudokupad: {"lines":[…]}`.
pub const FRAGMENT_KEY: &str = "sudokupad";

/// The most a zipped puzzle nests (arrays in objects in arrays …): SudokuPad's go four or five
/// deep; a hostile payload must not exhaust the stack.
const MAX_DEPTH: usize = 64;

/// Import an `scl`/`ctc` payload (what follows the prefix in a SudokuPad link).
pub fn import_payload(payload: &str) -> Result<Imported, String> {
    let text = lzstring::decompress_from_base64(payload)
        .map_err(|e| format!("the link is damaged: {e}"))?;
    let puzzle = read_puzzle(&text)?;
    if !puzzle.is_object() {
        return Err("the link is damaged: its payload does not decompress to a puzzle".into());
    }
    import_puzzle(&puzzle).map_err(|e| format!("the link's puzzle: {e}"))
}

/// A decompressed payload's puzzle: JSON, or PuzzleZipper's zipped form of it.
pub fn read_puzzle(text: &str) -> Result<Value, String> {
    if let Ok(value) = serde_json::from_str::<Value>(text) {
        return Ok(value);
    }
    unzip(text)
}

/// PuzzleZipper's zipped JSON read back as JSON, or where and why it cannot be.
pub fn unzip(text: &str) -> Result<Value, String> {
    let mut reader = Unzipper {
        chars: text.chars().collect(),
        at: 0,
    };
    let value = reader.value(0)?;
    reader.skip_space();
    if reader.at < reader.chars.len() {
        return Err(reader.error("more after the puzzle's end"));
    }
    Ok(value)
}

/// Zipped keys and their full names (PuzzleZipper's table).
const KEYS: [(&str, &str); 24] = [
    ("c", "color"),
    ("ca", "cages"),
    ("ct", "center"),
    ("c1", "borderColor"),
    ("c2", "backgroundColor"),
    ("ce", "cells"),
    ("cs", "cellSize"),
    ("a", "arrows"),
    ("o", "overlays"),
    ("u", "underlays"),
    ("w", "width"),
    ("h", "height"),
    ("v", "value"),
    ("vd", "videos"),
    ("l", "lines"),
    ("r", "rounded"),
    ("re", "regions"),
    ("fs", "fontSize"),
    ("th", "thickness"),
    ("hl", "headLength"),
    ("wp", "wayPoints"),
    ("t", "title"),
    ("te", "text"),
    ("d", "duration"),
];

struct Unzipper {
    chars: Vec<char>,
    at: usize,
}

impl Unzipper {
    fn error(&self, what: &str) -> String {
        format!(
            "the puzzle cannot be read: character {}: {what}",
            self.at + 1
        )
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.at += 1;
        }
    }

    fn expect(&mut self, wanted: char) -> Result<(), String> {
        self.skip_space();
        if self.peek() == Some(wanted) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error(&format!("expected {wanted:?}")))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, String> {
        if depth > MAX_DEPTH {
            return Err(self.error("nested too deeply"));
        }
        self.skip_space();
        match self.peek() {
            Some('{') => self.object(depth),
            Some('[') => self.array(depth),
            Some('\'' | '"') => Ok(Value::String(self.string()?)),
            Some(_) => self.bare(),
            None => Err(self.error("the text ends where a value should be")),
        }
    }

    fn object(&mut self, depth: usize) -> Result<Value, String> {
        self.expect('{')?;
        let mut object = Map::new();
        loop {
            self.skip_space();
            if self.peek() == Some('}') {
                self.at += 1;
                return Ok(Value::Object(object));
            }
            let key = match self.peek() {
                Some('\'' | '"') => self.string()?,
                _ => self.word(),
            };
            if key.is_empty() {
                return Err(self.error("expected a key"));
            }
            self.expect(':')?;
            let value = self.value(depth + 1)?;
            let key = KEYS
                .iter()
                .find(|(short, _)| *short == key)
                .map_or(key, |(_, long)| long.to_string());
            object.insert(key, value);
            self.skip_space();
            match self.peek() {
                Some(',') => self.at += 1,
                Some('}') => {}
                _ => return Err(self.error("expected ',' or '}'")),
            }
        }
    }

    /// An array; an empty slot (`[,,]`) was an empty object.
    fn array(&mut self, depth: usize) -> Result<Value, String> {
        self.expect('[')?;
        let mut items = Vec::new();
        self.skip_space();
        if self.peek() == Some(']') {
            self.at += 1;
            return Ok(Value::Array(items));
        }
        loop {
            self.skip_space();
            match self.peek() {
                Some(',' | ']') => items.push(json!({})),
                _ => items.push(self.value(depth + 1)?),
            }
            self.skip_space();
            match self.peek() {
                Some(',') => self.at += 1,
                Some(']') => {
                    self.at += 1;
                    return Ok(Value::Array(items));
                }
                _ => return Err(self.error("expected ',' or ']'")),
            }
        }
    }

    /// A quoted string (single quotes, as zipped, or double), with JSON's escapes.
    fn string(&mut self) -> Result<String, String> {
        let quote = self.peek().unwrap_or('\'');
        self.at += 1;
        let mut out = String::new();
        loop {
            let Some(c) = self.peek() else {
                return Err(self.error("a string is not closed"));
            };
            self.at += 1;
            if c == quote {
                return Ok(out);
            }
            if c != '\\' {
                out.push(c);
                continue;
            }
            let Some(escaped) = self.peek() else {
                return Err(self.error("a string is not closed"));
            };
            self.at += 1;
            match escaped {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'r' => out.push('\r'),
                'b' => out.push('\u{8}'),
                'f' => out.push('\u{c}'),
                'u' => {
                    let hex: String = self.chars.iter().skip(self.at).take(4).collect();
                    let code = u32::from_str_radix(&hex, 16)
                        .map_err(|_| self.error("\\u without four hex digits"))?;
                    self.at += 4;
                    out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
                }
                other => out.push(other),
            }
        }
    }

    /// A key or bare value: up to the next delimiter.
    fn word(&mut self) -> String {
        let start = self.at;
        while self
            .peek()
            .is_some_and(|c| !c.is_whitespace() && !matches!(c, ',' | ':' | ']' | '}' | '[' | '{'))
        {
            self.at += 1;
        }
        self.chars[start..self.at].iter().collect()
    }

    /// `t`, `f`, `null`, a number, a zipped colour (`#0`, `#F`, `CFCFCF`), or a bare word.
    fn bare(&mut self) -> Result<Value, String> {
        let word = self.word();
        if word.is_empty() {
            return Err(self.error("expected a value"));
        }
        Ok(match word.as_str() {
            "t" | "true" => Value::Bool(true),
            "f" | "false" => Value::Bool(false),
            "null" | "undefined" => Value::Null,
            "#0" => json!("#000000"),
            "#F" => json!("#FFFFFF"),
            _ => {
                if let Ok(n) = word.parse::<i64>() {
                    json!(n)
                } else if let Some(n) = word
                    .parse::<f64>()
                    .ok()
                    .and_then(serde_json::Number::from_f64)
                {
                    Value::Number(n)
                } else if word.len() == 6 && word.chars().all(|c| c.is_ascii_hexdigit()) {
                    json!(format!("#{word}"))
                } else {
                    Value::String(word)
                }
            }
        })
    }
}

/// The `global` rules SudokuPad writes, and the f-puzzles keys that say them.
const GLOBALS: [(&str, &str); 4] = [
    ("antiknight", "antiknight"),
    ("antiking", "antiking"),
    ("nonconsecutive", "nonconsecutive"),
    ("disjoint", "disjointgroups"),
];

/// The keys a puzzle has that say nothing to keep (its id on SudokuPad, its cell size).
const DROPPED: [&str; 2] = ["id", "cellSize"];

/// What an import builds: the f-puzzles puzzle and what is kept beside it.
struct Converted {
    fpuzzles: Map<String, Value>,
    kept: Map<String, Value>,
    warnings: Vec<String>,
}

impl Converted {
    fn keep(&mut self, key: &str, item: Value) {
        match self.kept.get_mut(key) {
            Some(Value::Array(items)) => items.push(item),
            _ => {
                self.kept.insert(key.to_string(), json!([item]));
            }
        }
    }
}

/// A SudokuPad puzzle's JSON as `.sudoku` text.
pub fn import_puzzle(puzzle: &Value) -> Result<Imported, String> {
    let object = puzzle
        .as_object()
        .ok_or("expected a JSON object with the puzzle's cells")?;
    let rows = object
        .get("cells")
        .and_then(Value::as_array)
        .ok_or("cells: missing (a SudokuPad puzzle has a grid of cells)")?;
    let side = rows.len();
    if rows
        .iter()
        .any(|row| row.as_array().is_none_or(|r| r.len() != side))
    {
        return Err(format!(
            "cells: a grid of {side} rows that is not {side}×{side}: sudoku-lsp reads square grids"
        ));
    }
    if Size::from_side(side).is_none() {
        return Err(format!(
            "cells: {side}×{side} is no grid size sudoku-lsp knows"
        ));
    }
    let mut converted = Converted {
        fpuzzles: Map::new(),
        kept: Map::new(),
        warnings: Vec::new(),
    };
    converted.fpuzzles.insert("size".into(), json!(side));
    grid(rows, side, &mut converted)?;
    for (key, value) in object {
        match key.as_str() {
            "cells" => {}
            "regions" => regions(value, side, &mut converted)?,
            "cages" => cages(value, side, &mut converted)?,
            "metadata" => metadata(value, &mut converted),
            "global" => globals(value, &mut converted),
            _ if DROPPED.contains(&key.as_str()) => {}
            _ => {
                converted.kept.insert(key.clone(), value.clone());
            }
        }
    }
    write(converted)
}

fn cell_name(side: usize, at: &Value, path: &str) -> Result<String, String> {
    let pair = at.as_array().filter(|p| p.len() == 2);
    let numbers = pair.and_then(|p| Some((p[0].as_u64()? as usize, p[1].as_u64()? as usize)));
    match numbers {
        Some((r, c)) if r < side && c < side => Ok(format!("R{}C{}", r + 1, c + 1)),
        _ => Err(format!("{path}: {at} is no cell of the {side}×{side} grid")),
    }
}

fn cell_names(side: usize, cells: &Value, path: &str) -> Result<Vec<String>, String> {
    let cells = cells
        .as_array()
        .ok_or_else(|| format!("{path}: expected a list of cells"))?;
    cells
        .iter()
        .enumerate()
        .map(|(i, at)| cell_name(side, at, &format!("{path}[{i}]")))
        .collect()
}

/// The givens; pencil marks and other marks of the cells are left out, said once.
fn grid(rows: &[Value], side: usize, converted: &mut Converted) -> Result<(), String> {
    let mut grid = Vec::with_capacity(side);
    let mut marks = false;
    for (r, row) in rows.iter().enumerate() {
        let mut out = Vec::with_capacity(side);
        for (c, cell) in row.as_array().into_iter().flatten().enumerate() {
            let mut fp = Map::new();
            if let Some(value) = cell.get("value").filter(|v| !v.is_null()) {
                let digit = match value {
                    Value::Number(n) => n.as_u64(),
                    Value::String(s) => s.trim().parse().ok(),
                    _ => None,
                }
                .filter(|&d| d >= 1 && d as usize <= side)
                .ok_or_else(|| format!("cells[{r}][{c}].value: {value} is no digit of the grid"))?;
                fp.insert("value".into(), json!(digit));
                fp.insert("given".into(), json!(true));
            }
            marks |= cell
                .as_object()
                .is_some_and(|o| o.keys().any(|k| k != "value" && k != "given"));
            out.push(Value::Object(fp));
        }
        grid.push(Value::Array(out));
    }
    if marks {
        converted
            .warnings
            .push("left out: the cells' pencil marks and other marks".to_string());
    }
    converted.fpuzzles.insert("grid".into(), Value::Array(grid));
    Ok(())
}

/// The regions, written to the cells when they are not the boxes.
fn regions(value: &Value, side: usize, converted: &mut Converted) -> Result<(), String> {
    let size = Size::from_side(side).expect("a known size");
    let regions = value
        .as_array()
        .ok_or("regions: expected a list of regions")?;
    let mut region_of: Vec<Option<usize>> = vec![None; side * side];
    for (i, region) in regions.iter().enumerate() {
        for (j, at) in region.as_array().into_iter().flatten().enumerate() {
            let name = cell_name(side, at, &format!("regions[{i}][{j}]"))?;
            let (r, c) = (
                at[0].as_u64().unwrap_or(0) as usize,
                at[1].as_u64().unwrap_or(0) as usize,
            );
            if region_of[r * side + c].replace(i).is_some() {
                return Err(format!("regions[{i}][{j}]: {name} is in two regions"));
            }
        }
    }
    let box_of = |cell: usize| {
        let (r, c) = (cell / side, cell % side);
        (r / size.box_rows()) * (side / size.box_cols()) + c / size.box_cols()
    };
    // The boxes, in whatever order: each region's cells share one box and fill it.
    let boxes = size.box_rows() * size.box_cols() == side
        && regions.len() == side
        && (0..side * side).all(|a| {
            (0..side * side).all(|b| (region_of[a] == region_of[b]) == (box_of(a) == box_of(b)))
        });
    if boxes {
        return Ok(());
    }
    let grid = converted.fpuzzles["grid"]
        .as_array_mut()
        .expect("the grid is written first");
    for (cell, region) in region_of.iter().enumerate() {
        grid[cell / side][cell % side]["region"] = json!(region);
    }
    Ok(())
}

/// Killer cages, extra regions and metadata cages; other cages are kept.
fn cages(value: &Value, side: usize, converted: &mut Converted) -> Result<(), String> {
    let cages = value.as_array().ok_or("cages: expected a list of cages")?;
    for (i, cage) in cages.iter().enumerate() {
        let path = format!("cages[{i}]");
        let cells = match cage.get("cells") {
            Some(cells) => cell_names(side, cells, &format!("{path}.cells"))?,
            None => vec![],
        };
        let text = cage.get("value").and_then(Value::as_str).unwrap_or("");
        if cells.is_empty() {
            if let Some((key, rest)) = text.split_once(": ") {
                let key = match key {
                    "title" => Some("title"),
                    "author" => Some("author"),
                    "rules" => Some("ruleset"),
                    "solution" => Some("solution"),
                    _ => None,
                };
                if let Some(key) = key {
                    converted.fpuzzles.insert(key.into(), json!(rest));
                    continue;
                }
            }
        }
        let unique = cage.get("unique").and_then(Value::as_bool) == Some(true);
        let style = cage.get("style").and_then(Value::as_str).unwrap_or("");
        let sum = cage
            .get("sum")
            .or_else(|| cage.get("value"))
            .and_then(|v| match v {
                Value::Number(n) => n.as_u64(),
                Value::String(s) => s.trim().parse().ok(),
                _ => None,
            });
        let entry = match sum {
            Some(sum) => json!({"cells": cells, "value": sum.to_string()}),
            None => json!({"cells": cells}),
        };
        let key = if unique && !cells.is_empty() {
            "killercage"
        } else if style == "extraregion" && !cells.is_empty() {
            "extraregion"
        } else {
            converted.keep("cages", cage.clone());
            continue;
        };
        match converted.fpuzzles.get_mut(key) {
            Some(Value::Array(items)) => items.push(entry),
            _ => {
                converted.fpuzzles.insert(key.into(), json!([entry]));
            }
        }
    }
    Ok(())
}

/// The `metadata` object: title, author, rules and solution; its other keys are kept.
fn metadata(value: &Value, converted: &mut Converted) {
    let Some(object) = value.as_object() else {
        converted.kept.insert("metadata".into(), value.clone());
        return;
    };
    let mut rest = Map::new();
    for (key, value) in object {
        let fp = match key.as_str() {
            "title" => "title",
            "author" => "author",
            "rules" => "ruleset",
            "solution" => "solution",
            _ => {
                rest.insert(key.clone(), value.clone());
                continue;
            }
        };
        match value.as_str() {
            Some(text) => {
                converted.fpuzzles.insert(fp.into(), json!(text));
            }
            None => {
                rest.insert(key.clone(), value.clone());
            }
        }
    }
    if !rest.is_empty() {
        converted
            .kept
            .insert("metadata".into(), Value::Object(rest));
    }
}

/// The rules of the whole grid; unknown ones are kept.
fn globals(value: &Value, converted: &mut Converted) {
    let mut negative = Vec::new();
    for rule in value.as_array().into_iter().flatten() {
        let name = rule.as_str().unwrap_or("");
        if let Some((_, key)) = GLOBALS.iter().find(|(n, _)| *n == name) {
            converted.fpuzzles.insert((*key).into(), json!(true));
        } else if name == "antiratio" {
            negative.push("ratio");
        } else if name == "antixv" {
            negative.push("xv");
        } else {
            converted.keep("global", rule.clone());
        }
    }
    if !negative.is_empty() {
        converted
            .fpuzzles
            .insert("negative".into(), json!(negative));
    }
}

/// The f-puzzles puzzle through its writer, with the kept fragments as comments above the
/// puzzle's first line of rules or grid.
fn write(converted: Converted) -> Result<Imported, String> {
    let Converted {
        fpuzzles,
        kept,
        mut warnings,
    } = converted;
    let mut imported = fpuzzles::import(&Value::Object(fpuzzles)).map_err(|e| e.to_string())?;
    if kept.is_empty() {
        imported.warnings.splice(0..0, warnings);
        return Ok(imported);
    }
    let mut comments = String::new();
    for (key, value) in &kept {
        let count = value.as_array().map_or(1, Vec::len);
        warnings.push(format!(
            "kept as a comment: {key} ({count}){}",
            if matches!(
                key.as_str(),
                "lines" | "arrows" | "overlays" | "underlays" | "cages"
            ) {
                ", whose rule a SudokuPad puzzle does not say (its rules tell it in words)"
            } else {
                ""
            }
        ));
        comments.push_str(&format!("# {FRAGMENT_KEY}: {}\n", json!({ key: value })));
    }
    let text = &imported.text;
    let at = text
        .lines()
        .take_while(|line| line.starts_with('#'))
        .map(|line| line.len() + 1)
        .sum::<usize>()
        .min(text.len());
    imported.text = format!("{}{comments}{}", &text[..at], &text[at..]);
    warnings.append(&mut imported.warnings);
    imported.warnings = warnings;
    Ok(imported)
}

#[cfg(test)]
mod tests;
