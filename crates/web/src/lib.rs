//! sudoku-web: what the browser playground (`web/`) asks of sudoku-lsp's core, compiled to
//! `wasm32-unknown-unknown` and called through wasm-bindgen: from a Web Worker, which checks
//! every text and answers everything else, and on the page's own thread for the first text and
//! a [`Playground::quick`] look at each keystroke's short text.
//!
//! A [`Playground`] holds one text, parsed and checked, as the language server's session holds
//! a document: [`Playground::update`] takes each new text and answers its diagnostics; the
//! other questions (hover, the picture, the panel's verdict, rating and steps, solve, the
//! links) are about the text it holds and a cursor in it. Offsets, in and out, count UTF-16
//! code units, as JavaScript's strings do (and CodeMirror's positions); answers are JSON or
//! plain strings, so the page needs no generated types.
//!
//! The words are the editor's: findings from `analysis`, hovers from `analysis::prose`, the
//! picture from `render`.
//!
//! ```
//! use sudoku_web::Playground;
//!
//! let mut playground = Playground::new();
//! let text = format!("33.......\n{}", ".........\n".repeat(8));
//! let diagnostics: serde_json::Value = serde_json::from_str(&playground.update(text)).unwrap();
//! assert_eq!(diagnostics[0]["severity"], "error");
//! assert!(playground.hover(0).unwrap().contains("conflicts with"));
//! ```

mod offsets;

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{json, Value};
use sudoku_core::analysis::{self, completion, prose, tokens, Analysis, Cache, Verdict};
use sudoku_core::convert::{fpuzzles, links};
use sudoku_core::engine::Budget;
use sudoku_core::finding::{Finding, Severity};
use sudoku_core::format::{self, Document, Edit, Puzzle};
use sudoku_core::render;
use sudoku_core::{grid, logic};
use wasm_bindgen::prelude::*;

use offsets::Offsets;

/// Added to a token's meaning (see [`Playground::tokens`]) for a digit in conflict.
pub const CONFLICT: u32 = 1 << 8;

/// How long a text's check may search for each puzzle's verdict: a keystroke's squiggles should
/// not wait on a puzzle whose solutions take seconds to count (it says "undecided" instead).
const CHECK_MS: u64 = 300;

/// The longest a text's settling check may search (see [`Playground::settle`]).
const SETTLE_MS: u64 = 30_000;

/// How long the panel's rating and steps, a hint and the next step may take.
const RATING_MS: u64 = 3000;

/// At most this many steps that only eliminate before the next step that places a digit.
const MAX_LEAD: usize = 200;

/// One text, parsed and checked: the playground's document.
#[wasm_bindgen]
pub struct Playground {
    text: String,
    offsets: Offsets,
    document: Document,
    analyses: Vec<Arc<Analysis>>,
    /// The puzzles a re-check after an edit must look at again (`analysis::Checked::noted`).
    noted: Vec<usize>,
    /// The analyses by grid: a keystroke in one puzzle checks that one again, not the others.
    cache: Cache,
    /// The panel's rating and steps by grid: a cursor moving about a puzzle rates it once.
    ratings: HashMap<RatingKey, Rating>,
}

/// What a rating depends on: the grid, its entries and its rules.
type RatingKey = (
    sudoku_core::grid::Size,
    sudoku_core::grid::Variant,
    Option<Arc<sudoku_core::rules::Rules>>,
    Vec<u8>,
    format::Entries,
);

/// The panel's rating line and steps of one grid.
#[derive(Clone)]
struct Rating {
    line: String,
    steps: Vec<String>,
}

/// At most this many ratings are kept; past it, the oldest go (all at once: a page's texts hold
/// a few puzzles, not hundreds).
const RATINGS_KEPT: usize = 256;

impl Default for Playground {
    fn default() -> Playground {
        Playground::new()
    }
}

#[wasm_bindgen]
impl Playground {
    /// An empty playground.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Playground {
        Playground {
            text: String::new(),
            offsets: Offsets::new(""),
            document: Document::default(),
            analyses: Vec::new(),
            noted: Vec::new(),
            cache: Cache::default(),
            ratings: HashMap::new(),
        }
    }

    /// Take `text` as the document and check it: its findings as a JSON array of
    /// `{from, to, severity, code, message, related: [{from, to, message}]}`, severity one of
    /// `error`, `warning`, `info`, `hint` (CodeMirror's lint names).
    pub fn update(&mut self, text: String) -> String {
        self.update_within(text, &within(CHECK_MS))
    }

    /// [`Playground::update`] with the language server's limits for a whole run (a million
    /// search nodes; a deadline only of [`SETTLE_MS`]): for a text whose check left verdicts
    /// undecided, in a worker of its own that the page stops when the text changes.
    pub fn settle(&mut self, text: String) -> String {
        let budget = Budget {
            max_nodes: Some(analysis::DEFAULT_MAX_NODES),
            ..within(SETTLE_MS)
        };
        self.update_within(text, &budget)
    }

    /// [`Playground::update`] within `ms` milliseconds, for a quick look on the page's own
    /// thread: the diagnostics only when every puzzle's verdict was decided in that time (an
    /// "undecided" would flicker in and out), else nothing.
    pub fn quick(&mut self, text: String, ms: u32) -> Option<String> {
        let diagnostics = self.update_within(text, &within(ms as u64));
        self.analyses
            .iter()
            .all(|a| a.is_final())
            .then_some(diagnostics)
    }

    /// What hover shows at `at` (Markdown): a cell's candidates and why each other digit is out,
    /// a constraint's combinations, or a puzzle's summary on its title.
    pub fn hover(&self, at: u32) -> Option<String> {
        let offset = self.offsets.byte(at);
        let (index, puzzle) = self.document.puzzle_at(offset)?;
        let style = prose::Style::Markdown;
        if let Some(cell) = puzzle.span.touches(offset).then(|| puzzle.cell_at(offset)) {
            let cell = cell?;
            return Some(prose::cell(&analysis::explain_cell(puzzle, cell), style));
        }
        let rules = puzzle.rules.as_deref();
        let constraint =
            rules.and_then(|r| r.constraints.iter().position(|c| c.line.touches(offset)));
        if let Some(help) = constraint.and_then(|i| analysis::explain_constraint(puzzle, i)) {
            return Some(prose::constraint(&help, style));
        }
        let lines = self.summary_lines(index, puzzle);
        Some(prose::summary(&heading(index, puzzle), &lines, style))
    }

    /// Highlighting by meaning for the lines that meet `from..to`: a flat array of
    /// `from, to, meaning` triples in text order (the core's `analysis::tokens::Meaning` by its
    /// index: 0 given, 1 entry, 2 pencil marks, 3 empty cell, 4 border, 5 metadata key, 6 its
    /// value, 7 comment, 8 constraint keyword, 9 its number, 10 a cell it names, 11 a word of
    /// it), plus [`CONFLICT`] for a digit in conflict.
    pub fn tokens(&self, from: u32, to: u32) -> Vec<u32> {
        let (from, to) = (self.offsets.byte(from), self.offsets.byte(to));
        let analyses = |index: usize| self.analyses.get(index).map(|a| &**a);
        let found = tokens::between(&self.text, &self.document, from, to, analyses);
        let mut out = Vec::with_capacity(found.len() * 3);
        for t in found {
            let conflict = if t.conflict { CONFLICT } else { 0 };
            out.push(self.offsets.utf16(t.span.start));
            out.push(self.offsets.utf16(t.span.end));
            out.push(meaning_index(t.meaning) | conflict);
        }
        out
    }

    /// What may be typed at `at`, as JSON `{from, to, items}` or `null`: `from..to` is the text
    /// typed so far that the items replace (the face filters by it), each item
    /// `{label, kind, detail, info, preselect, edit: {from, to, insert}}`, kind one of `digit`,
    /// `keyword`, `sum`, `cell`, in the order to show them.
    pub fn complete(&self, at: u32) -> String {
        let offset = self.offsets.byte(at);
        let start = self.text[..offset].rfind('\n').map_or(0, |i| i + 1);
        let end = self.text[offset..]
            .find('\n')
            .map_or(self.text.len(), |i| offset + i);
        let line = self.text[start..end].trim_end_matches('\r');
        let Some(mut items) = completion::items(&self.document, start, line, offset) else {
            return Value::Null.to_string();
        };
        items.sort_by(|a, b| a.sort.cmp(&b.sort));
        let typed_from = items
            .iter()
            .map(|i| i.edit.span.start)
            .min()
            .unwrap_or(offset);
        let items: Vec<Value> = items.iter().map(|item| self.item_json(item)).collect();
        json!({"from": self.offsets.utf16(typed_from.min(offset)), "to": at, "items": items})
            .to_string()
    }

    /// The SVG picture of the puzzle at `at` (the first one when the cursor is on none), with
    /// its constraints, as `sudoku-lsp render` draws it.
    pub fn picture(&self, at: u32) -> Option<String> {
        let (index, puzzle) = self.puzzle_near(at)?;
        let analysis = self.analyses.get(index)?;
        let options = render::Options::default();
        Some(render::svg(&render::draw(puzzle, analysis, &options)))
    }

    /// The panel beside the picture, as JSON: `{title, lines, steps}` for the puzzle at `at`
    /// (the first when the cursor is on none): its kind, givens and verdict, its rating, and
    /// the explained path a person would take (each step's sentence); `null` without puzzles.
    pub fn panel(&mut self, at: u32) -> String {
        let Some((index, puzzle)) = self.puzzle_near(at) else {
            return Value::Null.to_string();
        };
        let mut lines = self.summary_lines(index, puzzle);
        let title = heading(index, puzzle);
        let mut steps = Vec::new();
        if matches!(self.analyses[index].verdict, Verdict::Unique(_)) {
            let key: RatingKey = (
                puzzle.size,
                puzzle.variant,
                puzzle.rules.clone(),
                puzzle.givens.clone(),
                puzzle.entries.clone(),
            );
            let rating = match self.ratings.get(&key) {
                Some(known) => known.clone(),
                None => {
                    let rating = rate(puzzle);
                    if self.ratings.len() >= RATINGS_KEPT {
                        self.ratings.clear();
                    }
                    self.ratings.insert(key, rating.clone());
                    rating
                }
            };
            lines.push(rating.line);
            steps = rating.steps;
        }
        json!({"title": title, "lines": lines, "steps": steps}).to_string()
    }

    /// The edits that write the solution into the puzzle at `at` (the first when the cursor is
    /// on none), as JSON `[{from, to, insert}]`; `null` when it has no one solution.
    pub fn solve(&self, at: u32) -> String {
        let solved = self.puzzle_near(at).and_then(|(index, puzzle)| {
            match &self.analyses.get(index)?.verdict {
                Verdict::Unique(solution) => Some(format::fill_edits(puzzle, solution)),
                _ => None,
            }
        });
        let Some(edits) = solved else {
            return Value::Null.to_string();
        };
        self.edits_json(&edits).to_string()
    }

    /// The next step from where the solver is, on the puzzle at `at` (the first when the cursor
    /// is on none), as JSON `{title, edits}`: the editor's *Apply next step*. On a grid with
    /// pencil marks, the simplest step on them, its eliminations written into the marks; on one
    /// without, the steps up to the first that places a digit, whose placements are written.
    /// `{error}` says why there is none.
    pub fn next_step(&self, at: u32) -> String {
        let answer = self
            .puzzle_near(at)
            .ok_or_else(|| "no puzzle".to_string())
            .and_then(|(index, puzzle)| self.next_step_of(index, puzzle));
        match answer {
            Ok((title, edits)) => json!({"title": title, "edits": self.edits_json(&edits)}),
            Err(error) => json!({"error": error}),
        }
        .to_string()
    }

    /// The hint at `level` (1: where to look, 2: which technique, 3: the whole step) for the
    /// puzzle at `at` (the first when the cursor is on none), from where the solver is; an error
    /// says why there is none.
    pub fn hint(&self, at: u32, level: u8) -> Result<String, JsError> {
        self.hint_or_why(at, level)
            .map_err(|why| JsError::new(&why))
    }

    /// The edits that write every empty cell's pencil marks (the candidates the placed digits
    /// and, on a variant puzzle, its rules leave), as JSON `[{from, to, insert}]`; an error says
    /// why they cannot be written.
    pub fn fill_marks(&self, at: u32) -> Result<String, JsError> {
        self.fill_marks_or_why(at).map_err(|why| JsError::new(&why))
    }

    /// The text as the page's address holds it (`#text=…`): LZ-String's URI-safe form, which
    /// the page reads back with `LZString.decompressFromEncodedURIComponent`.
    pub fn address(&self) -> String {
        lz_str::compress_to_encoded_uri_component(self.text.as_str())
    }

    /// The text in its canonical form (`sudoku-lsp fmt`).
    pub fn format(&self) -> String {
        format::canonical(&self.text, &self.document)
    }

    /// The f-puzzles (`to` = `"fpuzzles"`) or SudokuPad (`"sudokupad"`) link of the puzzle at
    /// `at` (the first when the cursor is on none); an error says why there is none.
    pub fn link(&self, at: u32, to: &str) -> Result<String, JsError> {
        self.link_or_why(at, to).map_err(|why| JsError::new(&why))
    }
}

/// The `.sudoku` text of an f-puzzles or SudokuPad link (or f-puzzles JSON), what was kept as
/// comments named at its top; an error says what is wrong with the link.
#[wasm_bindgen(js_name = importLink)]
pub fn import_link(link: &str) -> Result<String, JsError> {
    import_link_or_why(link).map_err(|why| JsError::new(&why))
}

/// [`import_link`], its error a plain string.
pub fn import_link_or_why(link: &str) -> Result<String, String> {
    let imported = links::import(link)?;
    if let Some(first) = imported.errors.first() {
        return Err(first.clone());
    }
    let notes: String = imported
        .warnings
        .iter()
        .map(|w| format!("# note: {w}\n"))
        .collect();
    Ok(format!("{notes}{}", imported.text))
}

impl Playground {
    /// Check `text` within `budget` and hold it: its diagnostics as JSON.
    fn update_within(&mut self, text: String, budget: &Budget) -> String {
        let checked = self
            .recheck(&text, budget)
            .unwrap_or_else(|| analysis::check_text_with(&text, budget, &mut self.cache));
        self.offsets = Offsets::new(&text);
        self.text = text;
        let diagnostics: Vec<Value> = checked
            .findings
            .iter()
            .map(|f| self.diagnostic(f))
            .collect();
        self.document = checked.document;
        self.analyses = checked.analyses;
        self.noted = checked.noted;
        Value::Array(diagnostics).to_string()
    }

    /// The check of `text` from the last one, as the language server makes it after an edit:
    /// the lines around where the texts differ read again, the puzzles there analysed, the
    /// rest kept (a keystroke in a collection of thousands re-reads a few lines, not all of
    /// them). `None` when the text must be read whole (no point to resume reading near the
    /// change, or nothing checked before).
    fn recheck(&mut self, text: &str, budget: &Budget) -> Option<analysis::Checked> {
        if self.document.puzzles.is_empty() {
            return None;
        }
        let change = format::Change::between(&self.text, text);
        let (start, window) = format::window(text, change);
        let mut document = std::mem::take(&mut self.document);
        let Some(splice) = format::reparse(&mut document, window, start, text.len(), change) else {
            self.document = document;
            return None;
        };
        let earlier = std::mem::take(&mut self.analyses);
        Some(analysis::recheck(
            document,
            earlier,
            &self.noted,
            splice,
            budget,
            &mut self.cache,
        ))
    }

    /// [`Playground::hint`], its error a plain string (JavaScript's errors exist only in the
    /// browser).
    pub fn hint_or_why(&self, at: u32, level: u8) -> Result<String, String> {
        let (index, puzzle) = self.puzzle_near(at).ok_or("no puzzle")?;
        self.unique(index)?;
        let step = analysis::next_step(puzzle, &within(RATING_MS)).ok_or_else(|| {
            let solved = !puzzle.givens.contains(&0);
            let why = match solved {
                true => "no hint: the puzzle is solved",
                false => "no hint: no step found in time, or none the solver knows",
            };
            why.to_string()
        })?;
        Ok(step.hint(&puzzle.geometry(), level.clamp(1, 3)))
    }

    /// [`Playground::fill_marks`], its error a plain string (JavaScript's errors exist only in the
    /// browser).
    pub fn fill_marks_or_why(&self, at: u32) -> Result<String, String> {
        let (_, puzzle) = self.puzzle_near(at).ok_or("no puzzle")?;
        let filled = analysis::fill_marks(puzzle);
        if let Some(why) = analysis::marks_unwritable(puzzle, &filled) {
            return Err(why);
        }
        let edits = analysis::marks_edits(puzzle, &filled, &self.text, 0);
        Ok(self.edits_json(&edits).to_string())
    }

    /// [`Playground::link`], its error a plain string (JavaScript's errors exist only in the
    /// browser).
    pub fn link_or_why(&self, at: u32, to: &str) -> Result<String, String> {
        let (_, puzzle) = self.puzzle_near(at).ok_or("no puzzle")?;
        let exported = fpuzzles::export(&self.text, &self.document, puzzle);
        if !exported.lost.is_empty() {
            let lost = exported.lost.join("; ");
            return Err(format!("f-puzzles cannot hold {lost}, so no link is made"));
        }
        match to {
            "fpuzzles" => Ok(links::fpuzzles_link(&exported.json)),
            "sudokupad" => Ok(links::sudokupad_link(&exported.json)),
            _ => Err(format!("no link to {to}: fpuzzles or sudokupad")),
        }
    }

    fn diagnostic(&self, finding: &Finding) -> Value {
        let severity = match finding.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
            Severity::Hint => "hint",
        };
        let related: Vec<Value> = finding
            .related
            .iter()
            .map(|r| json!({"from": self.offsets.utf16(r.span.start), "to": self.offsets.utf16(r.span.end), "message": &*r.message}))
            .collect();
        json!({
            "from": self.offsets.utf16(finding.span.start),
            "to": self.offsets.utf16(finding.span.end),
            "severity": severity,
            "code": finding.code.as_str(),
            "message": &*finding.message,
            "related": related,
        })
    }

    fn item_json(&self, item: &completion::Item) -> Value {
        let kind = match item.kind {
            completion::Kind::Digit => "digit",
            completion::Kind::Keyword => "keyword",
            completion::Kind::Sum => "sum",
            completion::Kind::Cell => "cell",
        };
        json!({
            "label": item.label,
            "kind": kind,
            "detail": item.detail,
            "info": item.documentation,
            "preselect": item.preselect,
            "edit": self.edit_json(&item.edit),
        })
    }

    fn edits_json(&self, edits: &[Edit]) -> Value {
        Value::Array(edits.iter().map(|e| self.edit_json(e)).collect())
    }

    /// `{from, to, insert}`, in UTF-16 units.
    fn edit_json(&self, edit: &Edit) -> Value {
        let from = self.offsets.utf16(edit.span.start);
        let to = self.offsets.utf16(edit.span.end);
        json!({"from": from, "to": to, "insert": edit.text})
    }

    /// Whether the puzzle has one solution, else why it gets no hint.
    fn unique(&self, index: usize) -> Result<(), String> {
        match self.analyses.get(index).map(|a| &a.verdict) {
            Some(Verdict::Unique(_)) => Ok(()),
            _ => Err("no hint: the puzzle does not have exactly one solution".into()),
        }
    }

    /// The title and edits of the next step (see [`Playground::next_step`]).
    fn next_step_of(&self, index: usize, puzzle: &Puzzle) -> Result<(String, Vec<Edit>), String> {
        if !matches!(
            self.analyses.get(index).map(|a| &a.verdict),
            Some(Verdict::Unique(_))
        ) {
            return Err("no next step: the puzzle does not have exactly one solution".into());
        }
        let budget = within(RATING_MS);
        let none = || "no next step: none found in time, or none the solver knows".to_string();
        if let Some(marks) = puzzle.marks.as_deref() {
            let step = analysis::next_step(puzzle, &budget).ok_or_else(none)?;
            let mut after = marks.to_vec();
            for e in &step.eliminations {
                after[e.cell as usize] &= !(1 << (e.digit - 1));
            }
            // A placement is written as a placed digit, the other changes as marks.
            for p in &step.placements {
                after[p.cell as usize] = marks[p.cell as usize];
            }
            let mut edits = analysis::marks_edits(puzzle, &after, &self.text, 0);
            let placed = step.placements.iter();
            edits.extend(placed.map(|p| analysis::place_edit(puzzle, p.cell as usize, p.digit)));
            edits.sort_by_key(|e| e.span.start);
            return Ok((format!("Apply next step: {}", step.text), edits));
        }
        let lead = match puzzle.rules.as_deref() {
            Some(rules) => {
                let geometry = rules.geometry(puzzle.size, puzzle.variant);
                logic::lead_with_rules(&geometry, rules, &puzzle.givens, MAX_LEAD, &budget, &budget)
            }
            None => {
                let geometry = grid::geometry(puzzle.size, puzzle.variant);
                logic::lead(geometry, &puzzle.givens, MAX_LEAD, &budget, &budget)
            }
        };
        let title = prose::next_step_title(&lead).ok_or_else(none)?;
        let step = lead.last().ok_or_else(none)?;
        let mut edits: Vec<Edit> = step
            .placements
            .iter()
            .filter(|p| puzzle.givens[p.cell as usize] == 0)
            .map(|p| format::digit_edit(puzzle, p.cell as usize, p.digit))
            .collect();
        edits.sort_by_key(|e| e.span.start);
        Ok((title, edits))
    }

    /// The puzzle the cursor is on, else the first.
    fn puzzle_near(&self, at: u32) -> Option<(usize, &Puzzle)> {
        let offset = self.offsets.byte(at);
        let first = self.document.puzzles.first().map(|p| (0, p));
        self.document.puzzle_at(offset).or(first)
    }

    fn summary_lines(&self, index: usize, puzzle: &Puzzle) -> Vec<String> {
        let status = match self.analyses.get(index) {
            Some(analysis) => analysis::status_text(&puzzle.geometry(), analysis),
            None => "not checked".to_string(),
        };
        analysis::summarize(puzzle, status)
    }
}

/// The rating line and the steps of a puzzle with one solution.
fn rate(puzzle: &Puzzle) -> Rating {
    match analysis::grade_puzzle(puzzle, &within(RATING_MS)) {
        Ok(rated) => Rating {
            line: rating_line(&rated),
            steps: rated.path.steps.iter().map(|s| s.text.clone()).collect(),
        },
        Err(not) => Rating {
            line: format!("Not rated: {}", not.0),
            steps: Vec::new(),
        },
    }
}

/// "Puzzle 2: Easy one", or "Puzzle 2" without a title.
fn heading(index: usize, puzzle: &Puzzle) -> String {
    match &puzzle.meta.title {
        Some(title) => format!("Puzzle {}: {}", index + 1, title.value),
        None => format!("Puzzle {}", index + 1),
    }
}

/// "Rating: SE 7.2 · Fiendish (hardest: Forcing chain)".
fn rating_line(rated: &analysis::Rated) -> String {
    let variant = matches!(rated.scale, analysis::Scale::Variant);
    let rating = &rated.rating;
    let hardest = rating
        .hardest
        .map(|t| format!(" (hardest: {t})"))
        .unwrap_or_default();
    let words = prose::rating(rating, variant, !rating.complete);
    format!("Rating: {words}{hardest}")
}

/// A meaning's number in [`Playground::tokens`]'s array (the page's `MEANINGS` lists the same).
fn meaning_index(meaning: tokens::Meaning) -> u32 {
    use tokens::Meaning::*;
    match meaning {
        Given => 0,
        Entry => 1,
        Marks => 2,
        Empty => 3,
        Border => 4,
        Key => 5,
        Value => 6,
        Comment => 7,
        Keyword => 8,
        Number => 9,
        Cell => 10,
        Word => 11,
    }
}

/// A budget that ends `ms` milliseconds from now (by the page's clock in the browser).
fn within(ms: u64) -> Budget<'static> {
    Budget {
        deadline: Some(web_time::Instant::now() + std::time::Duration::from_millis(ms)),
        ..Budget::default()
    }
}

#[cfg(test)]
mod tests;
