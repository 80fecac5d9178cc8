//! A puzzle of a `.sudoku` text → f-puzzles JSON.

use serde_json::{json, Map, Value};

use super::{
    rc, Drawing, DIRECTIONS, DRAWN_COPIES, FLAG_KEYS, FRAGMENT_KEY, LINE_KEYS, SUDOKUPAD_COPIES,
};
use crate::format::meta::key_value_form;
use crate::format::rules::{
    self as syntax, Body, Direction, Dot, Keyword, Rule, Side, Value as Param,
};
use crate::format::{Document, Puzzle};
use crate::grid::char_digit;

/// A puzzle as f-puzzles JSON, and what the JSON could not hold (empty when nothing is lost).
#[derive(Clone, Debug, PartialEq)]
pub struct Exported {
    pub json: Value,
    /// What f-puzzles cannot hold, one sentence each (`inequality: A1 < A2`, …).
    pub lost: Vec<String>,
}

/// `json` (f-puzzles JSON) as a SudokuPad link carries it: with a drawing of each constraint
/// f-puzzles draws and SudokuPad reads without drawing (a lockout line, and a diamond at each
/// of its ends), so that the puzzle opens with it drawn. Import drops the drawings
/// again when the puzzle has the constraint.
pub fn for_sudokupad(json: &Value) -> Value {
    let mut out = json.clone();
    for (key, name, colour) in SUDOKUPAD_COPIES {
        let Some(Value::Array(entries)) = json.get(key) else {
            continue;
        };
        for lines in entries.iter().filter_map(|e| e["lines"].as_array()) {
            for line in lines.iter().filter_map(Value::as_array) {
                let line_copy = json!({
                    "lines": [line], "outlineC": colour, "width": 0.3, "fromConstraint": name,
                });
                push(&mut out, "line", line_copy);
                let ends = [line.first(), line.last()];
                for end in ends.into_iter().flatten() {
                    let diamond = json!({
                        "cells": [end], "baseC": "#FFFFFF", "outlineC": colour,
                        "width": 0.5, "height": 0.5, "angle": 45, "fromConstraint": name,
                    });
                    push(&mut out, "rectangle", diamond);
                }
            }
        }
    }
    out
}

/// `entry` added to the list under `key` of a JSON object.
fn push(json: &mut Value, key: &str, entry: Value) {
    let Value::Object(object) = json else {
        return;
    };
    if let Value::Array(items) = object.entry(key).or_insert_with(|| json!([])) {
        items.push(entry);
    }
}

/// The f-puzzles JSON of `puzzle`, one of `document`'s, read from `text`: its givens and
/// entries, its metadata, every constraint line that applies to it, and the `# fpuzzles:`
/// fragments of its header merged back.
pub fn export(text: &str, document: &Document, puzzle: &Puzzle) -> Exported {
    let mut writer = Writer::new(puzzle);
    writer.variant();
    writer.regions();
    for span in &document.file_scope.lines {
        writer.line(
            text.get(span.start..span.end).unwrap_or(""),
            span.start,
            false,
        );
    }
    if let Some(header) = puzzle.header {
        let mut start = header.start;
        for line in text
            .get(header.start..header.end)
            .unwrap_or("")
            .split_inclusive('\n')
        {
            writer.line(line.trim_end_matches(['\n', '\r']), start, true);
            start += line.len();
        }
    }
    writer.finish()
}

struct Writer<'p> {
    puzzle: &'p Puzzle,
    side: usize,
    json: Map<String, Value>,
    grid: Vec<Map<String, Value>>,
    rules_text: Vec<String>,
    fragments: Vec<Map<String, Value>>,
    lost: Vec<String>,
}

impl<'p> Writer<'p> {
    fn new(puzzle: &'p Puzzle) -> Writer<'p> {
        let side = puzzle.size.side();
        let mut json = Map::new();
        json.insert("size".into(), json!(side));
        for (key, entry) in [
            ("title", &puzzle.meta.title),
            ("author", &puzzle.meta.author),
        ] {
            if let Some(entry) = entry {
                json.insert(key.into(), json!(entry.value));
            }
        }
        let grid = (0..puzzle.size.cells())
            .map(|i| {
                let mut cell = Map::new();
                if puzzle.givens[i] != 0 {
                    cell.insert("value".into(), json!(puzzle.givens[i]));
                    if puzzle.is_given(i) {
                        cell.insert("given".into(), json!(true));
                    }
                }
                cell
            })
            .collect();
        Writer {
            puzzle,
            side,
            json,
            grid,
            rules_text: Vec::new(),
            fragments: Vec::new(),
            lost: Vec::new(),
        }
    }

    /// The houses of the puzzle's variant: diagonals, windoku's windows, disjoint groups.
    fn variant(&mut self) {
        let variant = self.puzzle.variant;
        if variant.has_main_diagonal() {
            self.json.insert("diagonal-".into(), json!(true));
        }
        if variant.has_anti_diagonal() {
            self.json.insert("diagonal+".into(), json!(true));
        }
        if variant.has_disjoint_groups() {
            self.json.insert("disjointgroups".into(), json!(true));
        }
        if variant.has_windows() {
            let geometry = crate::grid::geometry(self.puzzle.size, crate::grid::Variant::WINDOKU);
            for unit in geometry
                .units
                .iter()
                .filter(|u| matches!(u.kind, crate::grid::UnitKind::Window(_)))
            {
                let cells: Vec<String> =
                    unit.cells.iter().map(|&i| self.rc_of(i as usize)).collect();
                self.push("extraregion", json!({ "cells": cells }));
            }
        }
    }

    /// A jigsaw's regions, as each cell's `region` (from 0; `null` for a cell in none).
    fn regions(&mut self) {
        let Some(regions) = self.puzzle.rules.as_ref().and_then(|r| r.regions.as_ref()) else {
            return;
        };
        for (cell, &region) in self.grid.iter_mut().zip(regions.of_cell.iter()) {
            let value = match region {
                crate::grid::NO_REGION => Value::Null,
                region => json!(region),
            };
            cell.insert("region".into(), value);
        }
    }

    /// One header line: a constraint line, or (in the puzzle's own header) `# rules:`,
    /// `# solution:` or `# fpuzzles:`.
    fn line(&mut self, line: &str, start: usize, own: bool) {
        if let Some(Ok(rule)) = syntax::read(line, start) {
            self.rule(&rule, line);
            return;
        }
        if !own {
            return;
        }
        let Some(kv) = key_value_form(line) else {
            return;
        };
        match kv.key.to_ascii_lowercase().as_str() {
            "rules" => self.rules_text.push(kv.value.to_string()),
            "solution" => self.solution(kv.value),
            key if key == FRAGMENT_KEY => match serde_json::from_str::<Value>(kv.value) {
                Ok(Value::Object(fragment)) => self.fragments.push(fragment),
                _ => self
                    .lost
                    .push(format!("'{}': its fragment is no JSON object", line.trim())),
            },
            _ => {}
        }
    }

    fn solution(&mut self, digits: &str) {
        let digits: Option<Vec<u8>> = digits.chars().map(char_digit).collect();
        match digits {
            Some(digits) if digits.len() == self.puzzle.size.cells() => {
                self.json.insert("solution".into(), json!(digits));
            }
            _ => self.lost.push(format!(
                "'# solution: {}' is no full grid",
                digits.map_or(0, |d| d.len())
            )),
        }
    }

    fn rule(&mut self, rule: &Rule, line: &str) {
        let number = match &rule.value {
            Some(Param::Number(n, _)) => Some(*n),
            _ => None,
        };
        match (&rule.keyword, &rule.body) {
            // The variant's houses are written from the puzzle's variant, its regions from
            // the puzzle's rules.
            (Keyword::Diagonal | Keyword::Windoku | Keyword::Disjoint | Keyword::Regions, _) => {}
            (Keyword::AntiKnight | Keyword::AntiKing | Keyword::NonConsecutive, _) => {
                let key = FLAG_KEYS
                    .iter()
                    .find(|(_, ours)| *ours == rule.keyword.name())
                    .map_or("", |(k, _)| k);
                self.json.insert(key.into(), json!(true));
            }
            (Keyword::Negative, Body::Kinds(kinds)) => self.negative(kinds, line),
            (_, Body::Cells(cells)) => {
                self.cells_rule(rule.keyword, number, &rule.value, cells, line)
            }
            (Keyword::Arrow, Body::Arrow { circle, shaft }) => self.arrow(circle, shaft),
            (Keyword::Clone, Body::Clone(groups)) => self.clone_pairs(groups),
            (Keyword::LittleKiller, Body::Diagonal(first, way, _)) => {
                self.little_killer(*first, *way, number.unwrap_or(0))
            }
            (_, Body::Outside(side, index, _)) => {
                self.outside(rule.keyword, *side, *index, number.unwrap_or(0))
            }
            _ => self.lost.push(format!(
                "'{}': f-puzzles has no such constraint",
                line.trim()
            )),
        }
    }

    /// An arrow: its circle (or pill), and one line from the circle cell that touches the
    /// shaft, as Rangsk's writer draws it.
    fn arrow(&mut self, circle: &[syntax::CellRef], shaft: &[syntax::CellRef]) {
        let circle: Vec<(u8, u8)> = circle.iter().map(|c| (c.row, c.col)).collect();
        let start = nearest(&circle, shaft.first().map(|c| (c.row, c.col)));
        let mut path = vec![cell_rc(start.0, start.1)];
        path.extend(shaft.iter().map(|c| cell_rc(c.row, c.col)));
        let circle: Vec<String> = circle.iter().map(|&(r, c)| cell_rc(r, c)).collect();
        self.push("arrow", json!({ "cells": circle, "lines": [path] }));
    }

    /// A clone of several groups: the first group paired with each other one.
    fn clone_pairs(&mut self, groups: &[Vec<syntax::CellRef>]) {
        let names =
            |g: &[syntax::CellRef]| g.iter().map(|c| cell_rc(c.row, c.col)).collect::<Vec<_>>();
        if let Some((first, rest)) = groups.split_first() {
            for group in rest {
                let entry = json!({ "cells": names(first), "cloneCells": names(group) });
                self.push("clone", entry);
            }
        }
    }

    /// A little killer: its clue is the cell before the diagonal's first, outside the grid.
    fn little_killer(&mut self, first: syntax::CellRef, way: Direction, sum: u32) {
        let word = match way {
            Direction::UpLeft => "up-left",
            Direction::UpRight => "up-right",
            Direction::DownLeft => "down-left",
            Direction::DownRight => "down-right",
        };
        if let Some(&(code, _, (dr, dc))) = DIRECTIONS.iter().find(|(_, w, _)| *w == word) {
            let cell = rc(first.row as i64 - dr, first.col as i64 - dc);
            let entry = json!({ "cell": cell, "direction": code, "value": sum.to_string() });
            self.push("littlekillersum", entry);
        }
    }

    /// A sandwich, X-sum or skyscraper clue, in row or column 0 or N + 1.
    fn outside(&mut self, keyword: Keyword, side: Side, index: u8, value: u32) {
        let (n, i) = (self.side as i64, index as i64);
        let cell = match side {
            Side::Top => rc(-1, i),
            Side::Bottom => rc(n, i),
            Side::Left => rc(i, -1),
            Side::Right => rc(i, n),
        };
        let entry = json!({ "cell": cell, "value": value.to_string() });
        self.push(key_of(keyword.name()), entry);
    }

    /// `negative:` kinds: black is f-puzzles' `ratio`, x and v together its `xv`.
    fn negative(&mut self, kinds: &[(Dot, crate::finding::Span)], line: &str) {
        let has = |dot: Dot| kinds.iter().any(|(k, _)| *k == dot);
        let mut negative = Vec::new();
        if has(Dot::Black) {
            negative.push("ratio");
        }
        if has(Dot::X) && has(Dot::V) {
            negative.push("xv");
        }
        if has(Dot::White) || has(Dot::X) != has(Dot::V) {
            self.lost.push(format!(
                "'{}': f-puzzles can say only that all black dots, or all X and V together, are given",
                line.trim()
            ));
        }
        if !negative.is_empty() {
            self.json.insert("negative".into(), json!(negative));
        }
    }

    /// A constraint whose body is a list of cells.
    fn cells_rule(
        &mut self,
        keyword: Keyword,
        number: Option<u32>,
        value: &Option<Param>,
        cells: &[syntax::CellRef],
        line: &str,
    ) {
        let names: Vec<String> = cells.iter().map(|c| cell_rc(c.row, c.col)).collect();
        match keyword {
            Keyword::X | Keyword::V => {
                let letter = if keyword == Keyword::X { "X" } else { "V" };
                self.push("xv", json!({ "cells": names, "value": letter }));
            }
            Keyword::Even | Keyword::Odd | Keyword::Minimum | Keyword::Maximum => {
                for name in names {
                    self.push(key_of(keyword.name()), json!({ "cell": name }));
                }
            }
            Keyword::Candidates => self.given_marks(digits_of(value), cells),
            _ => match self.cells_entry(keyword, number, value, names) {
                Some(entry) => self.push(key_of(keyword.name()), entry),
                None => self.lost.push(format!(
                    "'{}': f-puzzles has no such constraint",
                    line.trim()
                )),
            },
        }
    }

    /// The entry of a constraint on a list of cells (`None` when f-puzzles has no key for it).
    fn cells_entry(
        &self,
        keyword: Keyword,
        number: Option<u32>,
        value: &Option<Param>,
        names: Vec<String>,
    ) -> Option<Value> {
        // f-puzzles leaves a dot's default value out, and writes a whisper's always.
        let value_unless = |default: Option<u32>| match number.filter(|&n| Some(n) != default) {
            Some(n) => json!({ "cells": names, "value": n.to_string() }),
            None => json!({ "cells": names }),
        };
        Some(match keyword {
            Keyword::ExtraRegion | Keyword::RowIndex | Keyword::ColumnIndex | Keyword::BoxIndex => {
                json!({ "cells": names })
            }
            Keyword::Cage => value_unless(None),
            Keyword::White => value_unless(Some(1)),
            Keyword::Black => value_unless(Some(2)),
            Keyword::Whisper => {
                let gap = number.unwrap_or(self.side.div_ceil(2) as u32);
                json!({ "lines": [names], "value": gap.to_string() })
            }
            Keyword::Lockout => {
                json!({ "lines": [names], "value": number.unwrap_or(0).to_string() })
            }
            Keyword::Quad => json!({ "cells": names, "values": digits_of(value) }),
            _ if !key_of(keyword.name()).is_empty() => json!({ "lines": [names] }),
            _ => return None,
        })
    }

    /// `candidates 137: A1 B2`: each cell's given pencil marks.
    fn given_marks(&mut self, digits: Vec<u8>, cells: &[syntax::CellRef]) {
        for cell in cells {
            let index = cell.row as usize * self.side + cell.col as usize;
            if let Some(grid_cell) = self.grid.get_mut(index) {
                grid_cell.insert("givenPencilMarks".into(), json!(digits));
            }
        }
    }

    fn push(&mut self, key: &str, entry: Value) {
        let slot = self
            .json
            .entry(key.to_string())
            .or_insert_with(|| json!([]));
        if let Value::Array(items) = slot {
            items.push(entry);
        }
    }

    fn rc_of(&self, index: usize) -> String {
        rc((index / self.side) as i64, (index % self.side) as i64)
    }

    /// A drawing copy of every constraint f-puzzles and SudokuPad do not draw
    /// ([`DRAWN_COPIES`]): lines along its lines, a cage round an indexer's cells, the symbol
    /// and value at an outside clue.
    fn drawn_copies(&mut self) {
        for (key, name, look) in DRAWN_COPIES {
            let Some(Value::Array(entries)) = self.json.get(key).cloned() else {
                continue;
            };
            match look {
                Drawing::Line(colour, width) => {
                    for entry in &entries {
                        let copy = json!({
                            "lines": entry["lines"], "outlineC": colour, "width": width,
                            "fromConstraint": name,
                        });
                        self.push("line", copy);
                    }
                }
                Drawing::Cage(colour) => {
                    let cells: Vec<Value> = entries
                        .iter()
                        .flat_map(|e| e["cells"].as_array().cloned().unwrap_or_default())
                        .collect();
                    let copy = json!({
                        "cells": cells, "outlineC": colour, "fontC": "#000000",
                        "fromConstraint": name,
                    });
                    self.push("cage", copy);
                }
                Drawing::Outside(symbol) => {
                    for entry in &entries {
                        for (value, size) in [(json!(symbol), 1.2), (entry["value"].clone(), 0.7)] {
                            let copy = json!({
                                "cells": [entry["cell"]], "value": value, "fontC": "#000000",
                                "size": size, "fromConstraint": name,
                            });
                            self.push("text", copy);
                        }
                    }
                }
            }
        }
    }

    fn finish(mut self) -> Exported {
        self.drawn_copies();
        if !self.rules_text.is_empty() {
            self.json
                .insert("ruleset".into(), json!(self.rules_text.join("\n\n")));
        }
        for fragment in std::mem::take(&mut self.fragments) {
            for (key, value) in fragment {
                self.merge(key, value);
            }
        }
        let rows: Vec<Value> = self
            .grid
            .chunks(self.side)
            .map(|row| Value::Array(row.iter().cloned().map(Value::Object).collect()))
            .collect();
        self.json.insert("grid".into(), Value::Array(rows));
        Exported {
            json: Value::Object(self.json),
            lost: self.lost,
        }
    }

    /// Merge one kept fragment back: a key's entries after the ones written, grid cells'
    /// properties into their cells, any other value as it was.
    fn merge(&mut self, key: String, value: Value) {
        match (key.as_str(), value) {
            ("grid", Value::Object(cells)) => {
                for (name, properties) in cells {
                    self.merge_cell(&name, properties);
                }
            }
            (_, Value::Array(entries)) => {
                let slot = self.json.entry(key).or_insert_with(|| json!([]));
                match slot {
                    Value::Array(items) => items.extend(entries),
                    other => *other = Value::Array(entries),
                }
            }
            (_, value) => {
                self.json.insert(key, value);
            }
        }
    }

    fn merge_cell(&mut self, name: &str, properties: Value) {
        let Some((row, col)) = super::import::parse_rc(name) else {
            self.lost.push(format!("a kept cell '{name}' is no cell"));
            return;
        };
        let index = (row - 1) * self.side as i64 + (col - 1);
        let cell = usize::try_from(index)
            .ok()
            .filter(|_| (1..=self.side as i64).contains(&col));
        match (cell.and_then(|i| self.grid.get_mut(i)), properties) {
            (Some(cell), Value::Object(properties)) => cell.extend(properties),
            _ => self
                .lost
                .push(format!("a kept cell '{name}' is outside the grid")),
        }
    }
}

fn cell_rc(row: u8, col: u8) -> String {
    rc(row as i64, col as i64)
}

/// The circle cell an arrow's line leaves from: the one touching the shaft's first cell (the
/// first circle cell when none does).
fn nearest(circle: &[(u8, u8)], shaft_start: Option<(u8, u8)>) -> (u8, u8) {
    let touches = |&&(r, c): &&(u8, u8)| {
        shaft_start.is_some_and(|(sr, sc)| r.abs_diff(sr) <= 1 && c.abs_diff(sc) <= 1)
    };
    circle
        .iter()
        .find(touches)
        .or(circle.first())
        .copied()
        .unwrap_or((0, 0))
}

/// The digits of a value (`quad 1259`, `candidates 137`).
fn digits_of(value: &Option<Param>) -> Vec<u8> {
    match value {
        Some(Param::Digits(digits, _)) => digits.clone(),
        _ => Vec::new(),
    }
}

/// The f-puzzles key of one of our keywords (`cage` → `killercage`); empty when none.
fn key_of(keyword: &str) -> &'static str {
    LINE_KEYS
        .iter()
        .find(|(_, ours, _)| *ours == keyword)
        .map_or("", |(key, _, _)| key)
}
