//! Reading `.sudoku` text: lines, comments and metadata, grid blocks and one-line puzzles.
//!
//! The lines are sorted (`lines`) as this module reads them, left to right: it gathers comment
//! groups (which become file metadata, a puzzle's header, or a warning) and reads each run of
//! cell lines as a grid block or a one-line puzzle. Each line is looked at a bounded number of
//! times, so parsing is linear in the text; and only the lines looked ahead at are held (at most
//! a block's rows and one more, border lines not counted since they are not kept), so the
//! parser's own memory does not grow with the text: a document is its puzzles and findings.

// Over 800 lines: 680 of them are the reader's unit tests, beside the code they pin down; the
// reader itself is one pass (`Parser`) whose steps share its lookahead and scopes.

use std::collections::VecDeque;
use std::sync::Arc;

use super::cells::CellSpans;
use super::digits::{cell_digit, stray_finding, DigitSet};
use super::document::Document;
use super::lines::{self, CellLine, Kind, Line, Lines, Token};
use super::marks::MarkCells;
use super::meta::{self, Scope, Setting};
use super::metadata::Metadata;
use super::puzzle::{Entries, Layout, Puzzle};
use super::{constraints, rules};
use crate::finding::{plural, Code, Counts, Finding, Span};
use crate::grid::{Size, Variant};
use crate::rules::Rules;

/// Parse a whole `.sudoku` text. Never panics; everything that does not fit becomes a finding.
pub fn parse(text: &str) -> Document {
    Parser::new(text, 0, Scope::default(), false).run()
}

/// Parse a whole text as `parse` does, keeping only the first `keep` problems of each severity
/// (in source order) and counting the rest in `unkept`: a text where every line is a problem
/// then costs memory for its puzzles, not for millions of findings (64 bytes each) no one reads.
/// The first `keep` problems of the whole text are among those kept, whatever their severities
/// (what the command line prints); the language server shows errors first.
pub fn parse_keeping(text: &str, keep: usize) -> Document {
    let mut parser = Parser::new(text, 0, Scope::default(), false);
    parser.keep = keep;
    let mut doc = parser.run();
    doc.kept = Some(keep);
    doc
}

/// The document `parse_region_keeping` gives for `line`, a classic one-line puzzle read on its
/// own (`stream::LineEnd::OneLiner`: 81 plain cells and a line break, under file metadata
/// `file` that reads every puzzle, with no header of its own) at byte `base` of the text, past
/// its start: built directly, without the scan of every character the parser makes. The
/// command line builds one for every line of a collection that has something to say, and the
/// parse was a quarter of `check`'s instructions over one where every puzzle has several
/// solutions.
pub(crate) fn one_liner_document(line: &str, base: usize, file: &Scope) -> Document {
    const CELLS: usize = 81;
    let row = Span::new(base, base + CELLS);
    let givens = line.as_bytes()[..CELLS].iter();
    let puzzle = Puzzle {
        size: Size::NINE,
        variant: file.puzzle_variant(),
        givens: givens.map(|&b| lines::cell_byte_value(b)).collect(),
        entries: None,
        marks: None,
        cell_spans: CellSpans::run(base, CELLS),
        span: row,
        first_row: row,
        meta: Arc::new(file.meta.clone()),
        header: None,
        layout: Layout::Line,
        rules: None,
    };
    Document {
        puzzles: vec![puzzle],
        file_meta: file.meta.clone(),
        file_scope: file.clone(),
        ..Document::default()
    }
}

/// Keep only the first `keep` problems of each severity of `doc` (sorted into source order
/// first, if need be), counting the others in its `unkept`.
pub fn keep_problems(doc: &mut Document, keep: usize) {
    doc.kept = Some(doc.kept.map_or(keep, |kept| kept.min(keep)));
    keep_first_of_each_severity(&mut doc.problems, &mut doc.unkept, keep);
}

/// Sort `problems` into source order if need be, keep the first `keep` of each severity and
/// count the others in `unkept`.
fn keep_first_of_each_severity(problems: &mut Vec<Finding>, unkept: &mut Counts, keep: usize) {
    if !problems.is_sorted_by_key(|f| f.span.start) {
        problems.sort_by_key(|f| f.span.start); // stable, as the last sort is
    }
    let mut seen = [0usize; 4];
    problems.retain(|finding| {
        let slot = finding.severity as usize;
        seen[slot] += 1;
        if seen[slot] > keep {
            unkept.add(finding.severity);
        }
        seen[slot] <= keep
    });
}

/// Parse `text`, whole lines found at byte `base` of a document, as that document's parse would
/// read them if it arrived there with `file` as the file's metadata, no comment group pending,
/// and a grid already seen. Spans are offsets into the document.
pub(crate) fn parse_region(text: &str, base: usize, file: Scope) -> Document {
    parse_region_keeping(text, base, file, usize::MAX)
}

/// `parse_region`, keeping only the first `keep` problems of each severity in source order.
pub(crate) fn parse_region_keeping(text: &str, base: usize, file: Scope, keep: usize) -> Document {
    let mut parser = Parser::new(text, base, file, true);
    parser.keep = keep;
    parser.run()
}

/// Problems held beyond the number kept before they are cut back to it: each cut sorts what is
/// held, so cutting at twice the number (and no fewer than this) keeps the cost linear.
const KEEP_SLACK: usize = 1024;

/// How far to look for a row with a usable length when the first row of a block has none.
const MAX_SIZE_LOOKAHEAD: usize = 25;

/// Consecutive whole-line comments, and the metadata among them.
struct Group {
    /// From the first comment line's start to the last one's end.
    span: Span,
    scope: Scope,
}

/// The line being read and those looked ahead at, border lines left out. Everywhere the parser
/// meets a border line it reads on as if the line were not there (outside a block it changes
/// nothing, inside one it is skipped), so leaving borders out changes no reading, and keeps
/// every look-ahead as short as the cell lines it counts (a million border lines in a block
/// would otherwise all be held at once).
struct Ahead<'a> {
    lines: Lines<'a>,
    held: VecDeque<Line>,
    /// The most lines held at once (for the tests).
    most_held: usize,
}

impl<'a> Ahead<'a> {
    fn new(text: &'a str, base: usize) -> Ahead<'a> {
        Ahead {
            lines: Lines::new(text, base),
            held: VecDeque::new(),
            most_held: 0,
        }
    }

    /// The `k`th line from the one being read (`0`), if the text goes that far.
    fn get(&mut self, k: usize) -> Option<Line> {
        while self.held.len() <= k {
            let line = self.lines.find(|l| l.kind != Kind::Border)?;
            self.held.push_back(line);
            self.most_held = self.most_held.max(self.held.len());
        }
        Some(self.held[k])
    }

    /// The kind of the `k`th line, if any.
    fn kind(&mut self, k: usize) -> Option<Kind> {
        self.get(k).map(|l| l.kind)
    }

    /// Move on past the line being read, and give it.
    fn next(&mut self) -> Option<Line> {
        self.get(0)?;
        self.held.pop_front()
    }
}

struct Parser<'a> {
    /// The text being read, found at byte `base` of the document (0 unless re-reading a region).
    text: &'a str,
    base: usize,
    ahead: Ahead<'a>,
    doc: Document,
    /// Metadata applying to every puzzle.
    file: Scope,
    /// The comment group being gathered, not yet followed by a blank line or a puzzle.
    group: Option<Group>,
    /// Whether any cell line has been met (a puzzle, well-formed or not).
    seen_grid: bool,
    /// The file's metadata as the puzzles without their own share it.
    shared_meta: Option<Arc<Metadata>>,
    /// How many problems of each severity to keep (the first in source order); the others are
    /// counted. `usize::MAX`: all.
    keep: usize,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str, base: usize, file: Scope, seen_grid: bool) -> Parser<'a> {
        Parser {
            text,
            base,
            ahead: Ahead::new(text, base),
            doc: Document::default(),
            file,
            group: None,
            seen_grid,
            shared_meta: None,
            keep: usize::MAX,
        }
    }

    /// The document's text from `start` to `end` (offsets into the document).
    fn source(&self, start: usize, end: usize) -> &'a str {
        &self.text[start - self.base..end - self.base]
    }

    fn run(mut self) -> Document {
        self.read_lines();
        self.finish()
    }

    /// Read every line, gathering puzzles and findings.
    fn read_lines(&mut self) {
        while let Some(line) = self.ahead.get(0) {
            match line.kind {
                Kind::Blank => self.close_group(),
                Kind::Comment => self.comment(line),
                Kind::Rule => {
                    self.rule_line(line); // reads on past a `regions:` block's rows
                    self.cut_problems();
                    continue;
                }
                // Borders outside a block (a top frame, say) change nothing (and `Ahead` leaves
                // them out anyway).
                Kind::Border => {}
                // A line that is no row (prose, say) is one finding; it ends any block like a
                // comment would, and leaves comment groups as they are.
                Kind::Junk(row) => {
                    let content = self.source(line.start, line.end);
                    self.doc.problems.push(not_a_row(&line, row, content));
                }
                Kind::Cells(_) => {
                    let header = self.group.take();
                    self.puzzle(header); // reads on past the puzzle's lines
                    self.seen_grid = true;
                    self.cut_problems();
                    continue;
                }
            }
            self.ahead.next();
            self.cut_problems();
        }
    }

    /// Past twice the problems to keep (of all four severities), keep the first ones of each
    /// severity in source order and count the others: the ones cut can never be among the
    /// first, since as many of theirs come before each.
    fn cut_problems(&mut self) {
        let problems = &mut self.doc.problems;
        if problems.len() < self.keep.saturating_mul(8).max(KEEP_SLACK) {
            return;
        }
        keep_first_of_each_severity(problems, &mut self.doc.unkept, self.keep);
    }

    /// `merge_late`, past the problems to keep: of the late spans (in source order, all of one
    /// severity) only the first `keep` can be among the first problems; the others are counted.
    fn merge_late_kept(&mut self, spans: &[Span], make: impl Fn(Span) -> Finding) {
        let kept = spans.len().min(self.keep);
        for &span in &spans[kept..] {
            self.doc.unkept.add(make(span).severity);
        }
        merge_late(&mut self.doc.problems, &spans[..kept], make);
        self.cut_problems();
    }

    /// What only the end of the text tells, and the document.
    fn finish(mut self) -> Document {
        self.close_group();
        if !self.seen_grid {
            let lines = std::mem::take(&mut self.file.lines);
            self.merge_late_kept(&lines, |span| meta::applies_to_no_puzzle(span, false));
            self.file.lines = lines;
        }
        self.doc.file_meta = self.file.meta.clone();
        // Moved, not cloned: its `lines` has one span per metadata line of the file.
        self.doc.file_scope = std::mem::take(&mut self.file);
        // Findings are pushed as their lines are read, and the late ones merged in where they
        // go, so they are in source order; the sort is a safety net (checked first: sorting
        // needs room for half the findings again).
        if !self.doc.problems.is_sorted_by_key(|f| f.span.start) {
            self.doc.problems.sort_by_key(|f| f.span.start);
        }
        if self.keep != usize::MAX {
            keep_first_of_each_severity(&mut self.doc.problems, &mut self.doc.unkept, self.keep);
        }
        // Vectors grow by doubling: give back the unused half (a large one is moved by the
        // system's page tables, not copied).
        self.doc.puzzles.shrink_to_fit();
        self.doc.problems.shrink_to_fit();
        self.doc
    }

    fn comment(&mut self, line: Line) {
        let content = self.source(line.start, line.end);
        let group = header_line(&mut self.group, line);
        if let Some(kv) = meta::key_value(content) {
            group.scope.add(kv, line.span(), &mut self.doc.problems);
        }
    }

    /// A constraint line: part of the header of the puzzle below, as metadata is. A `regions:`
    /// line takes the rows below it along.
    fn rule_line(&mut self, line: Line) {
        let content = self.source(line.start, line.end);
        header_line(&mut self.group, line);
        self.ahead.next();
        let Some(mut read) = rules::read(content, line.start) else {
            return;
        };
        if let Ok(rules::Rule {
            body: rules::Body::Regions { none: false, rows },
            ..
        }) = &mut read
        {
            *rows = self.region_rows();
        }
        if let Some(group) = self.group.as_mut() {
            group
                .scope
                .add_rule(read, line.span(), &mut self.doc.problems);
        }
    }

    /// The rows of a `regions:` block, part of the header (never a grid): as many lines as
    /// the first one has symbols, up to a blank, comment or constraint line.
    fn region_rows(&mut self) -> Vec<rules::RegionRow> {
        let mut rows = Vec::new();
        while let Some(line) = self.ahead.get(0) {
            if !matches!(line.kind, Kind::Cells(_) | Kind::Junk(_)) {
                break;
            }
            let row = region_row(self.source(line.start, line.end), line.start);
            // As many rows as the first has symbols (never more than the largest grid has).
            let wanted = rows
                .first()
                .map_or(MAX_REGION_ROWS, |first: &rules::RegionRow| {
                    first.symbols.len().min(MAX_REGION_ROWS)
                });
            if rows.len() >= wanted {
                break;
            }
            if let Some(group) = self.group.as_mut() {
                group.span.end = line.end;
            }
            rows.push(row);
            self.ahead.next();
        }
        rows
    }

    /// A comment group followed by a blank line or the end: file metadata before the first
    /// puzzle, else metadata that applies to nothing.
    fn close_group(&mut self) {
        let Some(group) = self.group.take() else {
            return;
        };
        if self.seen_grid {
            self.merge_late_kept(&group.scope.lines, |span| {
                meta::applies_to_no_puzzle(span, true)
            });
        } else {
            let mut file = group.scope.over(&self.file);
            file.lines = std::mem::take(&mut self.file.lines);
            file.lines.extend(group.scope.lines);
            self.file = file;
        }
    }

    /// Read the puzzle starting at the line being read, and move on past its lines: into the
    /// document's puzzles, or, when an error (already reported) keeps it from being read, into
    /// its unread grids.
    fn puzzle(&mut self, header: Option<Group>) {
        let grid_start = self.ahead.get(0).map_or(0, |line| line.start);
        match self.read_puzzle(header) {
            Some(puzzle) => self.doc.puzzles.push(puzzle),
            None => self.doc.unread.push(grid_start),
        }
    }

    /// The puzzle starting at the line being read, or `None` once an error says why it cannot
    /// be read.
    fn read_puzzle(&mut self, header: Option<Group>) -> Option<Puzzle> {
        let scope = match &header {
            Some(group) => group.scope.over(&self.file),
            None => Scope::default().over(&self.file),
        };
        let header = header.map(|g| g.span);
        let first = self.cell_line(0);
        let declared = scope.size.valid();
        let one_line_size = one_line_size(first.run);
        let is_one_liner = match (declared, one_line_size) {
            (Some(size), Some(line_size)) => size == line_size,
            (Some(_), None) | (None, None) => false,
            // 16 cells: a 4×4 one-liner or a row of a 16×16 block; 25 a 5×5's or a 25×25's.
            (None, Some(_)) if first.run == 16 => !self.block_has_digit_above(16, 4),
            (None, Some(_)) if first.run == 25 => !self.block_has_digit_above(25, 5),
            // 64 cells: an 8×8 one-liner or a 4×4 line of pencil-mark places (4 a cell); a
            // digit above 4 can only be the 8×8's.
            (None, Some(_)) if marks_line_size(first.run).is_some() => first.max_digit > 4,
            (None, Some(_)) => true,
        };
        let marks_line = marks_line_size(first.run).filter(|&s| declared.is_none_or(|d| d == s));
        let cells = if is_one_liner {
            let size = one_line_size.unwrap_or(Size::NINE);
            self.ahead
                .next()
                .and_then(|line| self.one_liner(line, size))
        } else if let Some(size) = marks_line {
            self.ahead
                .next()
                .and_then(|line| self.marks_line(line, size))
        } else if let Some(size) = self.marks_grid_size(declared) {
            self.marks_block(size)
        } else {
            self.block(declared)
        };
        let Built {
            size,
            layout,
            givens,
            entries,
            marks,
            cell_spans,
            span,
            first_row,
        } = cells?;
        if scope.variant == Setting::Invalid || scope.size == Setting::Invalid {
            return None; // the metadata error says why this puzzle is not read
        }
        // Read (and report) the constraint lines that parsed even when one did not, so that
        // every bad line is named at once.
        let rules = self.puzzle_rules(&scope.rules, size);
        if scope.unsolved {
            return None; // the constraint line's error says why this puzzle is not read
        }
        // `None`: a constraint line that does not fit this grid says why.
        let rules = rules?;
        let variant = scope.puzzle_variant();
        if let Some(missing) = boxless_problem(size, variant, rules.as_deref(), first_row) {
            self.doc.problems.push(missing);
            return None;
        }
        let meta = self.share_meta(scope.meta);
        Some(Puzzle {
            size,
            variant,
            givens,
            entries,
            marks,
            cell_spans,
            span,
            first_row,
            meta,
            header,
            layout,
            rules,
        })
    }

    /// The rules of a puzzle of `size` under these constraint lines (`None` inside when there
    /// is none), or `None` when a line does not fit the grid: its error is reported, once for
    /// all the puzzles a file's line applies to.
    fn puzzle_rules(&mut self, lines: &[rules::Rule], size: Size) -> Option<Option<Arc<Rules>>> {
        if lines.is_empty() {
            return Some(None);
        }
        let mut rules = Rules::default();
        // Every line is read, so each line that does not fit is reported, not just the first.
        let mut all_fit = true;
        // Regions first: a region-sum line's runs are cut by them. A later block wins.
        for line in lines {
            if let Some(regions) = constraints::regions(line, size) {
                match self.fits(regions) {
                    Some(regions) => rules.regions = Some(regions),
                    None => all_fit = false,
                }
            }
        }
        if !all_fit {
            // Without the regions, lines they cut would be read wrongly and said to be wrong.
            return None;
        }
        let of_cell = rules.regions.as_ref().map(|r| &r.of_cell[..]);
        let mut constraints = Vec::new();
        for line in lines {
            if let Some(constraint) = constraints::resolve(line, size, of_cell) {
                match self.fits(constraint) {
                    Some(constraint) => constraints.push(constraint),
                    None => all_fit = false,
                }
            }
        }
        if !all_fit {
            return None;
        }
        rules.constraints = constraints;
        Some((!rules.is_empty()).then(|| Arc::new(rules)))
    }

    /// What a constraint line says on this grid, or `None` when it does not fit: its error is
    /// reported, once for all the puzzles a file's line applies to.
    fn fits<T>(&mut self, read: Result<T, Finding>) -> Option<T> {
        match read {
            Ok(read) => Some(read),
            Err(error) => {
                let known = self.doc.problems.iter().rev().take(64).any(|p| *p == error);
                if !known {
                    self.doc.problems.push(error);
                }
                None
            }
        }
    }

    /// A puzzle's metadata: the shared copy of the file's when it has none of its own.
    fn share_meta(&mut self, meta: Metadata) -> Arc<Metadata> {
        if meta != self.file.meta {
            return Arc::new(meta);
        }
        match &self.shared_meta {
            Some(shared) if **shared == meta => shared.clone(),
            _ => self.shared_meta.insert(Arc::new(meta)).clone(),
        }
    }

    /// The scan of the `k`th line ahead, a cell line.
    fn cell_line(&mut self, k: usize) -> CellLine {
        match self.ahead.kind(k) {
            Some(Kind::Cells(c)) => c,
            _ => unreachable_cell_line(),
        }
    }

    /// Whether the `side`-cell lines starting at the line being read (up to `side` of them,
    /// borders between allowed) hold a digit above `limit`.
    fn block_has_digit_above(&mut self, side: usize, limit: u8) -> bool {
        for k in 0..side {
            match self.ahead.kind(k) {
                Some(Kind::Cells(c)) if c.width() == side => {
                    if c.max_digit > limit {
                        return true;
                    }
                }
                _ => break,
            }
        }
        false
    }

    /// Read the one-line puzzle on `line`.
    fn one_liner(&mut self, line: Line, size: Size) -> Option<Built> {
        let Kind::Cells(c) = line.kind else {
            return None;
        };
        // Cell characters are ASCII, one byte each.
        let run_start = c.run_start;
        let run = self.source(run_start, c.run_end).as_bytes();
        let first_row = Span::new(run_start, c.run_end);
        // The common case, a well-formed line, in one tight pass; otherwise cell by cell, to
        // report each bad character.
        let n = size.side();
        let letters_allowed = n > 9;
        let givens: Vec<u8> = run.iter().map(|&b| lines::cell_byte_value(b)).collect();
        if n == 16 {
            let mut notation = Notation::default();
            run.iter().for_each(|&b| notation.see(b as char));
            if notation.zero_to_f() {
                self.doc.problems.push(zero_to_f(first_row));
                return None;
            }
        }
        let fits = givens.iter().all(|&d| d as usize <= n) && !run.contains(&b'+');
        if fits && (letters_allowed || !run.iter().any(u8::is_ascii_alphabetic)) {
            let spans = CellSpans::run(run_start, run.len());
            return Some(Built::plain(
                size,
                Layout::Line,
                givens,
                spans,
                line.span(),
                first_row,
            ));
        }
        let mut cells = Cells::new(size.cells());
        let text = self.source(run_start, c.run_end);
        for token in lines::RowTokens::new(text, run_start) {
            if let Token::Cell(ch, span) = token {
                cells.push(ch, span, size, &mut self.doc.problems);
            }
        }
        let (givens, entries, spans) = cells.finish()?;
        let mut built = Built::plain(size, Layout::Line, givens, spans, line.span(), first_row);
        built.entries = entries;
        Some(built)
    }

    /// Read the line of pencil marks (N places a cell) on `line`.
    fn marks_line(&mut self, line: Line, size: Size) -> Option<Built> {
        let Kind::Cells(c) = line.kind else {
            return None;
        };
        let run_start = c.run_start;
        let run = self.source(run_start, c.run_end).as_bytes();
        let mut cells = MarkCells::new(size);
        cells.line(run, run_start, &mut self.doc.problems);
        let (givens, _, marks, cell_spans) = cells.finish()?;
        Some(Built {
            size,
            layout: Layout::MarksLine,
            givens,
            entries: None,
            marks: Some(marks),
            cell_spans,
            span: line.span(),
            first_row: Span::new(run_start, c.run_end),
        })
    }

    /// The size of the pencil-mark grid starting at the line being read, if it is one: its
    /// first row has N groups (N a side), and one of its first N rows has N groups of digits
    /// or lone empty marks, one of several digits or a lone mark (`*7`). (Rows of single
    /// characters read the same either way; a group such as `1679` says these are marks.)
    fn marks_grid_size(&mut self, declared: Option<Size>) -> Option<Size> {
        let first = self.cell_line(0);
        let size = Size::from_side(first.groups)?;
        let n = size.side();
        if first.max_digit as usize > n || declared.is_some_and(|d| d != size) {
            return None;
        }
        let rows = self.marks_block_rows(n);
        (0..rows)
            .filter_map(|k| match self.ahead.kind(k) {
                Some(Kind::Cells(c)) => Some(c),
                _ => None,
            })
            .any(|c| c.marks_ok && c.groups == n && (c.slots > c.groups || c.lone_marks > 0))
            .then_some(size)
    }

    /// How many row lines the pencil-mark grid of side `n` starting at the line being read
    /// has: up to `n` cell lines, stopping at a blank line, a comment, or a line that starts
    /// with a one-line puzzle. (A 16×16 grid's row may start with a group of all 16 digits: a
    /// 16-cell run ends the grid only if the line does not have the grid's `n` groups.)
    fn marks_block_rows(&mut self, n: usize) -> usize {
        let ends = |c: CellLine| match one_line_size(c.run) {
            // A group of every digit of a 16×16 or 25×25 is as long as a 4×4's or 5×5's line.
            Some(_) if c.run == 16 || c.run == n => c.groups != n,
            Some(_) => true,
            None => marks_line_size(c.run).is_some(),
        };
        let mut rows = 1;
        while rows < n {
            match self.ahead.kind(rows) {
                Some(Kind::Cells(c)) if !ends(c) => rows += 1,
                _ => break,
            }
        }
        rows
    }

    /// Read the pencil-mark grid of `size` starting at the line being read.
    fn marks_block(&mut self, size: Size) -> Option<Built> {
        let n = size.side();
        let rows = self.marks_block_rows(n);
        let first = self.ahead.get(0)?;
        let last = self.ahead.get(rows - 1)?;
        let span = Span::new(first.start, last.end);
        let mut cells = MarkCells::new(size);
        if rows < n {
            cells.broken = true;
            self.doc.problems.push(block_height(rows, size, span));
        }
        for (line, row) in self.take_rows(rows) {
            let content = self.source(line.start, line.end);
            let groups = cells.row(content, line.start, &mut self.doc.problems);
            if row.strays == 0 && groups != n {
                cells.broken = true;
                self.doc.problems.push(Finding::error(
                    Code::RowLength,
                    row_span(&line, row, content),
                    format!(
                        "row has {}, expected {n} (in a pencil-mark grid each cell is one group \
                         of digits, groups separated by spaces or |)",
                        plural(groups, "cell")
                    ),
                ));
            }
        }
        let (givens, entries, marks, cell_spans) = cells.finish()?;
        Some(Built {
            size,
            layout: Layout::Marks,
            givens,
            entries,
            marks: Some(marks),
            cell_spans,
            span,
            first_row: first.span(),
        })
    }

    /// Read the grid block starting at the line being read, and move on past it; gives the
    /// puzzle if it is whole.
    fn block(&mut self, declared: Option<Size>) -> Option<Built> {
        let Some(size) = declared.or_else(|| self.infer_size()) else {
            self.unsized_block();
            return None;
        };
        let n = size.side();
        let rows = self.block_rows(n);
        let first = self.ahead.get(0)?;
        let last = self.ahead.get(rows - 1)?;
        let mut cells = Cells::new(size.cells());
        let span = Span::new(first.start, last.end);
        // The whole block's finding first: it starts where the first row's findings start.
        if rows < n {
            cells.broken = true;
            self.doc.problems.push(block_height(rows, size, span));
        }
        let mut notation = Notation::default();
        for (line, row) in self.take_rows(rows) {
            let content = self.source(line.start, line.end);
            for token in lines::RowTokens::new(content, line.start) {
                if let Token::Cell(ch, _) = token {
                    notation.see(ch);
                }
                match token {
                    Token::Cell(_, span) if content.as_bytes()[span.start - line.start] == b'*' => {
                        cells.lone_mark(span, &mut self.doc.problems)
                    }
                    Token::Cell(ch, span) => cells.push(ch, span, size, &mut self.doc.problems),
                    Token::Stray(span) => {
                        cells.broken = true;
                        let stray = self.source(span.start, span.end);
                        self.doc
                            .problems
                            .push(stray_finding(stray, span, Some(size)));
                    }
                    Token::Comment(_) => {}
                }
            }
            if row.strays == 0 && row.slots != n {
                cells.broken = true;
                self.doc.problems.push(Finding::error(
                    Code::RowLength,
                    row_span(&line, row, content),
                    format!("row has {}, expected {n}", plural(row.slots, "cell")),
                ));
            }
        }
        if n == 16 && !cells.broken && notation.zero_to_f() {
            self.doc.problems.push(zero_to_f(span));
            return None;
        }
        let (givens, entries, spans) = cells.finish()?;
        let mut built = Built::plain(size, Layout::Block, givens, spans, span, first.span());
        built.entries = entries;
        Some(built)
    }

    /// Move on past a block's `rows` row lines, and give each with its scan (at most a block's
    /// side: 25 lines).
    fn take_rows(&mut self, rows: usize) -> Vec<(Line, CellLine)> {
        let mut taken = Vec::with_capacity(rows);
        for _ in 0..rows {
            let Some(line) = self.ahead.next() else {
                break;
            };
            if let Kind::Cells(row) = line.kind {
                taken.push((line, row));
            }
        }
        taken
    }

    /// The size of a block from its rows' lengths: the length most of its first three rows
    /// have that is a supported size (the first row's on a tie), so a 9×9 whose first row lost
    /// a digit is not read as an 8×8; failing that, the first row within reach whose length is a
    /// supported size.
    fn infer_size(&mut self) -> Option<Size> {
        let (mut sizes, mut found) = ([Size::NINE; 3], 0);
        for seen in 0..MAX_SIZE_LOOKAHEAD {
            match self.ahead.kind(seen) {
                Some(Kind::Cells(c)) if seen == 0 || !ends_block(c, None) => {
                    if let Some(size) = Size::from_side(c.slots) {
                        sizes[found] = size;
                        found += 1;
                    }
                    if seen >= 2 && found > 0 {
                        break;
                    }
                }
                _ => break,
            }
        }
        let sizes = &sizes[..found];
        let votes = |size: &Size| sizes.iter().filter(|s| *s == size).count();
        // max_by_key keeps the last of equals: go through them backwards so the first wins.
        sizes.iter().rev().max_by_key(|s| votes(s)).copied()
    }

    /// How many row lines the block of side `n` starting at the line being read has: up to
    /// `n` cell lines (borders between skipped), stopping at a blank line, a comment, or a line
    /// that can only be a one-line puzzle.
    fn block_rows(&mut self, n: usize) -> usize {
        let mut rows = 1;
        while rows < n {
            match self.ahead.kind(rows) {
                Some(Kind::Cells(c)) if !ends_block(c, Some(n)) => rows += 1,
                _ => break,
            }
        }
        rows
    }

    /// Read and report a block whose size could not be told from any row: every cell line up
    /// to a blank line, a comment or a line that can only be a one-line puzzle. Read a row at a
    /// time, since there may be any number of them.
    fn unsized_block(&mut self) {
        let mut reported_length = false;
        let mut first = true;
        while let Some(line) = self.ahead.get(0) {
            let Kind::Cells(row) = line.kind else {
                break;
            };
            if !first && ends_block(row, None) {
                break;
            }
            first = false;
            self.ahead.next();
            self.cut_problems();
            let content = self.source(line.start, line.end);
            for token in lines::RowTokens::new(content, line.start) {
                if let Token::Stray(span) = token {
                    let stray = self.source(span.start, span.end);
                    self.doc.problems.push(stray_finding(stray, span, None));
                }
            }
            if row.strays == 0 && !reported_length {
                reported_length = true;
                self.doc.problems.push(Finding::error(
                    Code::RowLength,
                    row_span(&line, row, content),
                    format!(
                        "row has {}, but a grid row has {} cells (and a one-line puzzle {})",
                        plural(row.slots, "cell"),
                        Size::supported_sides(),
                        Size::one_line_lengths(),
                    ),
                ));
            }
        }
    }
}

/// Why a puzzle on a grid without boxes (5×5, 7×7, 11×11, 13×13) cannot be read, if it
/// cannot: it needs regions of its own, and windoku's windows and disjoint groups, which are
/// cut from boxes, mean nothing there. Said at the grid's first row.
fn boxless_problem(
    size: Size,
    variant: Variant,
    rules: Option<&Rules>,
    first_row: Span,
) -> Option<Finding> {
    if size.has_boxes() {
        return None;
    }
    let grid = size.a_label();
    let message = if variant.has_windows() || variant.has_disjoint_groups() {
        let houses = match variant.has_windows() {
            true => "windoku's windows",
            false => "disjoint groups",
        };
        format!("{grid} grid has no boxes, and {houses} are cut from boxes: drop the line")
    } else if rules.is_none_or(|r| r.regions.is_none()) {
        format!(
            "{grid} grid has no boxes: give its regions in a 'regions:' block above it \
             ({} rows of {} letters, a letter a region), or write 'regions: none'",
            size.side(),
            size.side()
        )
    } else {
        return None;
    };
    Some(Finding::error(Code::BadMetadata, first_row, message))
}

/// The comment group `line` joins (or starts).
/// The most rows a `regions:` block takes: the side of the largest grid.
const MAX_REGION_ROWS: usize = 25;

/// A row of a `regions:` block (`text` starts at byte `base`): its symbols up to a `#`.
fn region_row(text: &str, base: usize) -> rules::RegionRow {
    let text = text.split('#').next().unwrap_or("");
    let symbols: Vec<(char, Span)> = text
        .char_indices()
        .filter(|(_, c)| !c.is_whitespace())
        .map(|(at, c)| (c, Span::new(base + at, base + at + c.len_utf8())))
        .collect();
    let span = match (symbols.first(), symbols.last()) {
        (Some(first), Some(last)) => Span::new(first.1.start, last.1.end),
        _ => Span::new(base, base),
    };
    rules::RegionRow { symbols, span }
}

fn header_line(group: &mut Option<Group>, line: Line) -> &mut Group {
    let group = group.get_or_insert(Group {
        span: line.span(),
        scope: Scope::default(),
    });
    group.span.end = line.end;
    group
}

/// Add a finding made by `make` for each of `spans` (in source order) to `problems` (in source
/// order), each after those already there that start where it does (as a stable sort would put
/// it), in place. The warnings about metadata that applies to no puzzle are known only when a
/// group ends, after the findings of its lines: sorting them in would need room for half of all
/// the findings again (a million lines of metadata are two million findings).
fn merge_late(problems: &mut Vec<Finding>, spans: &[Span], make: impl Fn(Span) -> Finding) {
    let (mut old, mut late) = (problems.len(), spans.len());
    // Room at the end, filled with a placeholder that allocates nothing, then filled from the
    // back: each slot takes the later of the last old finding and the last new one.
    problems.resize_with(old + late, || {
        Finding::warning(Code::BadMetadata, Span::default(), "")
    });
    for slot in (0..problems.len()).rev() {
        if late == 0 {
            break; // the old findings left are where they were
        }
        if old > 0 && problems[old - 1].span.start > spans[late - 1].start {
            problems.swap(old - 1, slot);
            old -= 1;
        } else {
            problems[slot] = make(spans[late - 1]);
            late -= 1;
        }
    }
}

/// A whole puzzle's parts: size, layout, givens, cell spans, span, first row.
/// A puzzle's cells as read, before its metadata joins them.
struct Built {
    size: Size,
    layout: Layout,
    givens: Vec<u8>,
    entries: Entries,
    marks: Option<Box<[DigitSet]>>,
    cell_spans: CellSpans,
    span: Span,
    first_row: Span,
}

impl Built {
    /// A puzzle of givens and empty cells, no pencil marks.
    fn plain(
        size: Size,
        layout: Layout,
        givens: Vec<u8>,
        cell_spans: CellSpans,
        span: Span,
        first_row: Span,
    ) -> Built {
        Built {
            size,
            layout,
            givens,
            entries: None,
            marks: None,
            cell_spans,
            span,
            first_row,
        }
    }
}

/// Which cell characters a 16×16 puzzle uses, to tell the common notation with digits `0`–`F`
/// (`.` for an empty cell) from ours, `1`–`9` then `A`–`G` (`0`, `.` or `_` for an empty cell).
#[derive(Default)]
struct Notation {
    zero: bool,
    other_empty: bool,
    g: bool,
}

impl Notation {
    fn see(&mut self, ch: char) {
        match ch {
            '0' => self.zero = true,
            '.' | '_' => self.other_empty = true,
            'G' | 'g' => self.g = true,
            _ => {}
        }
    }

    /// Digits `0`–`F`: a `0` beside other empty marks, and no `G` (16 in our digits).
    fn zero_to_f(&self) -> bool {
        self.zero && self.other_empty && !self.g
    }
}

/// A 16×16 written with digits `0`–`F`: read as ours, each digit would be one too low and
/// every `0` an empty cell, so the puzzle is not read.
fn zero_to_f(span: Span) -> Finding {
    Finding::error(
        Code::Syntax,
        span,
        "this 16×16 puzzle writes its digits 0–F (it has 0s, no G, and . for empty cells); \
         sudoku-lsp reads 1–9 then A–G, with 0 for an empty cell: write each digit one higher \
         (0 as 1, 9 as A, F as G), for instance with tr 0-9A-F 1-9A-G on its rows",
    )
}

/// A block that ended after `rows` rows, fewer than its size has.
fn block_height(rows: usize, size: Size, span: Span) -> Finding {
    let n = size.side();
    Finding::error(
        Code::BlockHeight,
        span,
        format!(
            "puzzle has {}, expected {n} (a {} puzzle has {n} rows of {n} cells)",
            plural(rows, "row"),
            size.label()
        ),
    )
}

/// The size whose line of pencil marks (N places for each of N² cells) has `cells` characters.
fn marks_line_size(cells: usize) -> Option<Size> {
    Size::ALL
        .iter()
        .copied()
        .find(|s| cells > 0 && s.cells() * s.side() == cells)
}

#[cold]
fn unreachable_cell_line() -> CellLine {
    // Only called on lines classified as cells; an empty line is the harmless answer.
    CellLine::default()
}

/// The size of a one-line puzzle with `cells` cells (16, 36, 81, 144, 256 or 625).
pub(crate) fn one_line_size(cells: usize) -> Option<Size> {
    Size::ALL.into_iter().find(|s| s.cells() == cells)
}

/// A line whose width is a one-line puzzle's cell count ends a block: when it is not the
/// block's side (a 16-cell line ends a 9×9 block), or, the side unknown, when it is no row
/// length at all. So does a line of pencil-mark places (N³ wide, never a side): filling in a
/// one-liner's marks must not hand it to a broken block above. Widths do not depend on
/// spacing, so the canonical form, which respaces rows, keeps every block's end where it was.
fn ends_block(c: CellLine, side: Option<usize>) -> bool {
    let width = c.width();
    let line = one_line_size(width).is_some() || marks_line_size(width).is_some();
    line && match side {
        Some(n) => n != width,
        None => Size::from_side(width).is_none(),
    }
}

/// The cells of a puzzle as they are read, and whether anything was wrong.
struct Cells {
    givens: Vec<u8>,
    /// Each cell's span: one ASCII byte, or two for an entry (`+7`).
    spans: Vec<Span>,
    broken: bool,
}

impl Cells {
    fn new(capacity: usize) -> Cells {
        Cells {
            givens: Vec::with_capacity(capacity),
            spans: Vec::with_capacity(capacity),
            broken: false,
        }
    }

    fn push(&mut self, ch: char, span: Span, size: Size, problems: &mut Vec<Finding>) {
        let digit = cell_digit(ch, span, size, problems).unwrap_or_else(|| {
            self.broken = true;
            0
        });
        self.givens.push(digit);
        self.spans.push(span);
    }

    /// A lone pencil mark (`*7`) in a grid without pencil marks: an error, as the grid has no
    /// other marks it could belong with.
    fn lone_mark(&mut self, span: Span, problems: &mut Vec<Finding>) {
        self.broken = true;
        self.givens.push(0);
        self.spans.push(span);
        problems.push(Finding::error(
            Code::Syntax,
            span,
            "a * marks an empty cell's only pencil mark (*7), in a pencil-mark grid whose rows \
             have one group of digits a cell; here write the digit alone to place it, or . for \
             an empty cell",
        ));
    }

    /// The digits, which of them are entries (`None` when none is), and the spans.
    fn finish(self) -> Option<(Vec<u8>, Entries, CellSpans)> {
        if self.broken {
            return None;
        }
        let entries = self
            .spans
            .iter()
            .any(|s| s.len() > 1)
            .then(|| self.spans.iter().map(|s| s.len() > 1).collect());
        Some((self.givens, entries, CellSpans::from_spans(&self.spans)))
    }
}

/// A line with too much that is not a cell to be a row with typos.
fn not_a_row(line: &Line, row: CellLine, content: &str) -> Finding {
    Finding::error(
        Code::Syntax,
        row_span(line, row, content),
        "this line is not a grid row: expected cells such as 4 8 3 | 9 2 1 | 6 5 7, a one-line \
         puzzle, a constraint line such as 'cage 15: A1 A2 B1' above the grid, a comment \
         starting with #, or a blank line",
    )
}

/// A row's span for findings: the line (whose `content` is given) without leading/trailing
/// whitespace and comment.
fn row_span(line: &Line, row: CellLine, content: &str) -> Span {
    let end = row.comment.unwrap_or(line.end);
    let content = &content[..end - line.start];
    let start = line.start + (content.len() - content.trim_start().len());
    let end = line.start + content.trim_end().len();
    Span::new(start, end.max(start))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::Counts;
    use crate::grid::{digit_char, Variant};

    const DIAGONAL: &str =
        "2.............62....1....7...6..8...3...9...7...6..4...4....8....52.............3";

    fn codes(doc: &Document) -> Vec<(Code, &str)> {
        doc.problems.iter().map(|f| (f.code, &*f.message)).collect()
    }

    fn at(text: &str, span: Span) -> &str {
        &text[span.start..span.end]
    }

    fn givens(line: &str) -> Vec<u8> {
        line.chars()
            .map(|c| crate::grid::char_digit(c).unwrap_or(0))
            .collect()
    }

    #[test]
    fn display_style_block_with_spans() {
        let text = "# title: easy\n\
                    4 . . |. . . |8 . 5\n\
                    . 3 . |. . . |. . .\n\
                    . . . |7 . . |. . .\n\
                    ------+------+------\n\
                    . 2 . |. . . |. 6 .\n\
                    . . . |. 8 . |4 . .\n\
                    . . . |. 1 . |. . .\n\
                    ------+------+------\n\
                    . . . |6 . 3 |. 7 .\n\
                    5 . . |2 . . |. . .\n\
                    1 . 4 |. . . |. . .\n";
        let doc = parse(text);
        assert_eq!(codes(&doc), vec![]);
        assert_eq!(doc.puzzles.len(), 1);
        let p = &doc.puzzles[0];
        assert_eq!(p.size, Size::NINE);
        assert_eq!(p.layout, Layout::Block);
        assert_eq!(p.givens[..9], [4, 0, 0, 0, 0, 0, 8, 0, 5]);
        assert_eq!(p.givens_count(), 17);
        assert_eq!(p.cell_spans.len(), 81);
        assert!(p.cell_spans.iter().all(|s| s.len() == 1));
        assert_eq!(at(text, p.cell_span(80)), ".");
        assert_eq!(at(text, p.cell_span(72)), "1");
        assert_eq!(at(text, p.first_row), "4 . . |. . . |8 . 5");
        assert!(at(text, p.span).starts_with("4 . ."));
        assert!(at(text, p.span).ends_with("1 . 4 |. . . |. . ."));
        assert_eq!(p.meta.title.as_ref().unwrap().value, "easy");
        assert_eq!(p.header, Some(Span::new(0, 13)));
        assert_eq!(p.anchor(), Span::new(0, 13));
    }

    #[test]
    fn one_liner_with_trailing_text_and_metadata() {
        let text = format!("# variant: diagonal\n{DIAGONAL}  rated 3.4 # seeds\n");
        let doc = parse(&text);
        assert_eq!(codes(&doc), vec![]);
        let p = &doc.puzzles[0];
        assert_eq!(p.layout, Layout::Line);
        assert_eq!(p.variant, Variant::Diagonal);
        assert_eq!(p.givens, givens(DIAGONAL));
        assert_eq!(at(&text, p.first_row), DIAGONAL);
        assert_eq!(p.anchor(), p.first_row);
    }

    #[test]
    fn errors_have_their_own_spans_and_say_what_was_expected() {
        let text = "123456789\n12345678\n1234x6789\n";
        let doc = parse(text);
        let found: Vec<_> = doc
            .problems
            .iter()
            .map(|f| (f.code, at(text, f.span), &*f.message))
            .collect();
        assert_eq!(
            found,
            vec![
                (
                    Code::BlockHeight,
                    "123456789\n12345678\n1234x6789",
                    "puzzle has 3 rows, expected 9 (a 9×9 puzzle has 9 rows of 9 cells)"
                ),
                (Code::RowLength, "12345678", "row has 8 cells, expected 9"),
                (
                    Code::Syntax,
                    "x",
                    "unexpected 'x': a cell is a digit 1–9 or an empty mark . 0 _"
                ),
            ]
        );
        assert!(doc.puzzles.is_empty());
    }

    /// Nine rows of a full, valid classic grid, in the plain style.
    const SOLVED: [&str; 9] = [
        "483921657",
        "967345821",
        "251876493",
        "548132976",
        "729564138",
        "136798245",
        "372689514",
        "814253769",
        "695417382",
    ];

    fn plain_block() -> String {
        SOLVED.join("\n") + "\n"
    }

    fn problems(text: &str) -> Vec<(Code, &str)> {
        parse(text)
            .problems
            .iter()
            .map(|f| (f.code, at(text, f.span)))
            .collect()
    }

    #[test]
    fn a_diagonal_line_makes_the_puzzles_it_heads_diagonal() {
        // Above one puzzle: that puzzle.
        let text = format!("diagonal\n{DIAGONAL}\n\n{DIAGONAL}\n");
        let doc = parse(&text);
        assert_eq!(codes(&doc), vec![]);
        let variants: Vec<Variant> = doc.puzzles.iter().map(|p| p.variant).collect();
        assert_eq!(variants, [Variant::Diagonal, Variant::Classic]);
        // At the top of the file, then a blank line: every puzzle; a header's own
        // `# variant: classic` wins.
        let text = format!("diagonal\n\n{DIAGONAL}\n\n# variant: classic\n{DIAGONAL}\n");
        let doc = parse(&text);
        assert_eq!(codes(&doc), vec![]);
        let variants: Vec<Variant> = doc.puzzles.iter().map(|p| p.variant).collect();
        assert_eq!(variants, [Variant::Diagonal, Variant::Classic]);
        // A rule line ends a block as a comment does: the rows after it are another puzzle.
        let text = format!(
            "{}diagonal\n{}",
            SOLVED[..4].join("\n") + "\n",
            plain_block()
        );
        let doc = parse(&text);
        let short = SOLVED[..4].join("\n");
        assert_eq!(problems(&text), vec![(Code::BlockHeight, short.as_str())]);
        assert_eq!(doc.puzzles.len(), 1);
        assert_eq!(doc.puzzles[0].variant, Variant::Diagonal);
    }

    #[test]
    fn windoku_disjoint_and_one_diagonal_add_their_houses() {
        let text = format!(
            "windoku\n\ndiagonal \\\n{DIAGONAL}\n\ndisjoint\ndiagonal /\n# variant: diagonal\n{DIAGONAL}\n"
        );
        let doc = parse(&text);
        assert_eq!(codes(&doc), vec![]);
        let variants: Vec<Variant> = doc.puzzles.iter().map(|p| p.variant).collect();
        assert_eq!(
            variants,
            [
                Variant::WINDOKU.with(Variant::MAIN_DIAGONAL),
                Variant::WINDOKU
                    .with(Variant::DISJOINT)
                    .with(Variant::Diagonal)
            ]
        );
    }

    #[test]
    fn a_regions_block_is_the_header_of_the_grid_below_not_a_grid() {
        let regions = "AAABBBCCC\nAAABBBCCC\nAAABBBCCC\nDDDEEEFFF\nDDDEEEFFF\nDDDEEEFFF\n\
                       GGGHHHIII\nGGGHHHIII\nGGGHHHIII\n";
        let text = format!("regions:\n{regions}{DIAGONAL}\n\n{DIAGONAL}\n");
        let doc = parse(&text);
        assert_eq!(problems(&text), vec![]);
        // The grid below the block is its puzzle, with the regions; the next one is classic.
        assert_eq!(doc.puzzles.len(), 2);
        assert_eq!(doc.puzzles[0].span.start, text.find(DIAGONAL).unwrap());
        let own = doc.puzzles[0]
            .rules
            .as_ref()
            .and_then(|r| r.regions.as_ref());
        let own = own.expect("the first puzzle has regions of its own");
        assert_eq!(&own.of_cell[..12], &[0, 0, 0, 1, 1, 1, 2, 2, 2, 0, 0, 0]);
        assert_eq!(own.of_cell[80], 8);
        assert!(doc.puzzles[0].geometry().own_regions);
        assert!(doc.puzzles[1].rules.is_none());
    }

    #[test]
    fn a_wrong_regions_block_is_said_where_and_its_puzzle_is_not_read() {
        let jigsaw = |rows: &str| format!("regions:\n{rows}{DIAGONAL}\n");
        let good = "AAABBBCCC\nAAABBBCCC\nAAABBBCCC\nDDDEEEFFF\nDDDEEEFFF\nDDDEEEFFF\n\
                    GGGHHHIII\nGGGHHHIII\nGGGHHHIII\n";
        // A region of 10 cells and one of 8: said at the first one's first cell.
        let text = jigsaw(&good.replacen("AAABBBCCC", "AAABBBCCB", 1));
        let problems_of = problems(&text);
        assert_eq!(problems_of.len(), 1);
        assert_eq!(problems_of[0].0, Code::BadMetadata);
        assert!(parse(&text).puzzles.is_empty());
        let message = &parse(&text).problems[0].message;
        assert!(
            message.ends_with("region 'B' has 10, 'C' has 8"),
            "{message}"
        );
        // A symbol that names no region.
        let text = jigsaw(&good.replacen("AAABBBCCC", "AAA?BBCCC", 1));
        assert_eq!(problems(&text), vec![(Code::BadMetadata, "?")]);
        // Rows of another size than the grid's: as many rows as the first has symbols (4) are
        // the block, and the grid below is 9×9.
        let text = format!("regions:\nAABB\nAABB\nCCDD\nCCDD\n{DIAGONAL}\n");
        assert_eq!(problems(&text), vec![(Code::BadMetadata, "CCDD")]);
        assert!(parse(&text).puzzles.is_empty());
    }

    #[test]
    fn regions_none_takes_the_boxes_away() {
        let text = format!("regions: none\n{DIAGONAL}\n");
        let doc = parse(&text);
        assert_eq!(problems(&text), vec![]);
        let geometry = doc.puzzles[0].geometry();
        assert!(geometry.own_regions);
        // Rows and columns: no boxes.
        assert_eq!(geometry.units.len(), 18);
    }

    #[test]
    fn constraint_lines_give_their_puzzles_rules_and_a_wrong_one_keeps_its_puzzle_unread() {
        let text =
            format!("cage 15: A1 A2 B1\n{DIAGONAL}\n\nthermo: A1 A3\n{DIAGONAL}\n\n{DIAGONAL}\n");
        let doc = parse(&text);
        // The thermometer's cells do not touch: its puzzle is not read.
        assert_eq!(problems(&text), vec![(Code::Syntax, "A3")]);
        assert_eq!(doc.puzzles.len(), 2);
        let rules = doc.puzzles[0]
            .rules
            .as_ref()
            .expect("the cage's puzzle has rules");
        assert_eq!(rules.constraints.len(), 1);
        assert_eq!(rules.constraints[0].name(), "cage 15");
        assert_eq!(rules.constraints[0].named_cells(), vec![0, 1, 9]);
        assert_eq!(
            &text[rules.constraints[0].line.start..rules.constraints[0].line.end],
            "cage 15: A1 A2 B1"
        );
        assert!(
            doc.puzzles[1].rules.is_none(),
            "the third puzzle has no constraint line"
        );
        // At the top of the file: every puzzle has the rule.
        let text = format!("antiknight\n\n{DIAGONAL}\n\n{DIAGONAL}\n");
        assert!(parse(&text).puzzles.iter().all(|p| p.rules.is_some()));
        // A cell outside the grid is said once, at the cell, and no puzzle under it is read.
        let text = format!("cage 10: A1 J1\n\n{DIAGONAL}\n\n{DIAGONAL}\n");
        assert_eq!(problems(&text), vec![(Code::BadMetadata, "J1")]);
        assert!(parse(&text).puzzles.is_empty());
        // Every bad line is said at once: one that does not parse, and others that parse but
        // do not fit the grid, before and after it.
        let text =
            format!("whisper 0: A1 A2\nthermo: A1 C3\ncage 10: A1 J1\nfrobnicate\n{DIAGONAL}\n");
        let said = problems(&text);
        assert_eq!(said.len(), 4, "{said:?}");
        for (code, at) in [
            (Code::BadMetadata, "0"),
            (Code::Syntax, "C3"),
            (Code::BadMetadata, "J1"),
        ] {
            assert!(said.contains(&(code, at)), "{at} not said: {said:?}");
        }
        assert!(parse(&text).puzzles.is_empty());
        // Metadata without its `#` is said so, and the puzzle below still reads.
        let text = format!("Title: Hard one\n{DIAGONAL}\n");
        let doc = parse(&text);
        assert_eq!(problems(&text), vec![(Code::BadMetadata, "Title")]);
        assert_eq!(doc.puzzles.len(), 1);
        // A constraint line that heads no puzzle is said so, as metadata is.
        let text = format!("{DIAGONAL}\n\ndiagonal\n");
        assert_eq!(problems(&text), vec![(Code::BadMetadata, "diagonal")]);
    }

    #[test]
    fn a_16x16_in_digits_0_to_f_is_an_error_but_ours_with_0_for_empty_is_read() {
        let row = |r: usize| -> String {
            (0..16)
                .map(|c| match (r * 4 + r / 4 + c) % 16 {
                    _ if (r + c) % 3 == 0 => ".".to_string(),
                    k => format!("{k:X}"),
                })
                .collect()
        };
        let hex: String = (0..16).map(|r| row(r) + "\n").collect();
        assert!(hex.contains('0') && hex.contains('.'));
        let doc = parse(&hex);
        assert!(doc.puzzles.is_empty());
        assert_eq!(doc.problems.len(), 1, "{:?}", doc.problems);
        assert!(doc.problems[0].message.contains("writes its digits 0–F"));
        // The same with 0 for every empty cell, and no 0 digit: our notation, read.
        let ours = hex.replace('0', "G").replace('.', "0");
        let doc = parse(&ours);
        assert!(doc.problems.is_empty(), "{:?}", doc.problems);
        assert_eq!(doc.puzzles[0].size.side(), 16);
    }

    #[test]
    fn every_line_break_style_keeps_byte_spans() {
        for br in ["\n", "\r\n", "\r"] {
            let text = format!("# title: t{br}{}{br}", SOLVED.join(br));
            let doc = parse(&text);
            assert_eq!(codes(&doc), vec![], "{br:?}");
            let p = &doc.puzzles[0];
            let first = 10 + br.len();
            assert_eq!(p.cell_span(0), Span::new(first, first + 1));
            assert_eq!(p.cell_span(9).start, first + 9 + br.len());
            assert_eq!(p.cell_span(80).end, text.len() - br.len());
            assert_eq!(at(&text, p.first_row), SOLVED[0]);
            assert_eq!(p.meta.title.as_ref().unwrap().span, Span::new(0, 10));
            assert_eq!(at(&text, p.span), SOLVED.join(br));
        }
    }

    #[test]
    fn spans_are_bytes_after_multibyte_text() {
        let text = format!("# title: 数独 🧩\n# ünïcödé ✓\n{}", plain_block());
        let doc = parse(&text);
        assert_eq!(codes(&doc), vec![]);
        let p = &doc.puzzles[0];
        let title = p.meta.title.as_ref().unwrap();
        assert_eq!(title.value, "数独 🧩");
        assert_eq!(at(&text, title.span), "# title: 数独 🧩");
        let first = text.find("483").unwrap();
        assert_eq!(p.cell_span(0), Span::new(first, first + 1));
        let header = at(&text, p.header.unwrap());
        assert_eq!(header, "# title: 数独 🧩\n# ünïcödé ✓");
    }

    #[test]
    fn stray_multibyte_characters_are_reported_whole() {
        let text = "4 8 3 | 9 2 1 | 6 5 🧩\n";
        assert!(problems(text).contains(&(Code::Syntax, "🧩")));
        let text = "4 8 3 | 9 2 1 | 6 5 ７\n"; // a full-width digit
        assert!(problems(text).contains(&(Code::Syntax, "７")));
    }

    #[test]
    fn file_metadata_applies_to_every_puzzle_and_headers_override_it() {
        let text = format!(
            "# author: Ann\n# variant: x\n# difficulty: hard\n\n# A note that is not metadata.\n\n\
             # title: First\n# difficulty: easy\n{}\n# title: Second\n{DIAGONAL}\n{DIAGONAL}\n",
            plain_block()
        );
        let doc = parse(&text);
        assert_eq!(codes(&doc), vec![]);
        assert_eq!(doc.file_meta.author.as_ref().unwrap().value, "Ann");
        assert_eq!(doc.file_meta.title, None);
        assert_eq!(doc.puzzles.len(), 3);
        let value = |e: &Option<crate::format::Entry>| e.as_ref().map(|e| e.value.clone());
        let [a, b, c] = &doc.puzzles[..] else {
            panic!()
        };
        assert_eq!(value(&a.meta.title).as_deref(), Some("First"));
        assert_eq!(value(&a.meta.difficulty).as_deref(), Some("easy"));
        assert_eq!(value(&a.meta.author).as_deref(), Some("Ann"));
        assert_eq!(a.variant, Variant::Diagonal);
        assert_eq!(at(&text, a.header.unwrap()).lines().count(), 2);
        assert_eq!(value(&b.meta.title).as_deref(), Some("Second"));
        assert_eq!(value(&b.meta.difficulty).as_deref(), Some("hard"));
        assert_eq!(b.layout, Layout::Line);
        assert_eq!(b.anchor(), b.meta.title.as_ref().unwrap().span);
        assert_eq!(c.meta.title, None);
        assert_eq!(c.header, None);
        assert_eq!(c.anchor(), c.first_row);
        assert_eq!(c.variant, Variant::Diagonal);
    }

    #[test]
    fn a_puzzle_can_set_the_variant_back_to_classic() {
        let text = format!("# variant: diagonal\n\n{DIAGONAL}\n# variant: classic\n{DIAGONAL}\n");
        let doc = parse(&text);
        let variants: Vec<_> = doc.puzzles.iter().map(|p| p.variant).collect();
        assert_eq!(variants, vec![Variant::Diagonal, Variant::Classic]);
    }

    #[test]
    fn a_key_given_twice_in_one_place_is_a_warning() {
        let text = format!("# title: One\n# Title: Two\n{DIAGONAL}\n");
        let doc = parse(&text);
        assert_eq!(problems(&text), vec![(Code::BadMetadata, "# Title: Two")]);
        assert_eq!(doc.problems[0].related[0].span, Span::new(0, 12));
        assert_eq!(doc.puzzles[0].meta.title.as_ref().unwrap().value, "Two");
        // Overriding the file's value is no repeat.
        let text = format!("# title: File\n\n# title: Mine\n{DIAGONAL}\n");
        assert_eq!(problems(&text), vec![]);
    }

    #[test]
    fn puzzle_metadata_without_a_blank_line_is_not_the_files() {
        let text = format!("# title: Only\n# variant: diagonal\n{}", plain_block());
        let doc = parse(&text);
        assert_eq!(doc.file_meta, Default::default());
        assert_eq!(doc.puzzles[0].variant, Variant::Diagonal);
    }

    #[test]
    fn metadata_that_applies_to_no_puzzle_is_a_warning() {
        let text = format!(
            "{}# title: lost\n# a plain comment\n\n{DIAGONAL}\n# title: end\n",
            plain_block()
        );
        let doc = parse(&text);
        assert_eq!(
            problems(&text),
            vec![
                (Code::BadMetadata, "# title: lost"),
                (Code::BadMetadata, "# title: end")
            ]
        );
        assert!(doc
            .problems
            .iter()
            .all(|f| f.severity == crate::finding::Severity::Warning));
        assert!(doc.problems[0].message.contains("directly above a puzzle"));
        assert_eq!(doc.puzzles.len(), 2);
        assert_eq!(doc.puzzles[1].meta.title, None);
        // A file with metadata but no puzzle.
        assert_eq!(
            problems("# title: nothing yet\n\n"),
            vec![(Code::BadMetadata, "# title: nothing yet")]
        );
    }

    #[test]
    fn unknown_keys_warn_and_unknown_variants_or_sizes_are_errors() {
        let text = format!(
            "# Note: hello\n# Titel: hello\n# variant: jigsaw\n{}\n# size: 17\n{}",
            plain_block(),
            plain_block()
        );
        let doc = parse(&text);
        assert_eq!(
            problems(&text),
            vec![
                (Code::UnknownKey, "# Titel: hello"),
                (Code::BadMetadata, "# variant: jigsaw"),
                (Code::BadMetadata, "# size: 17"),
            ]
        );
        let [unknown, variant, size] = &doc.problems[..] else {
            panic!()
        };
        assert_eq!(unknown.severity, crate::finding::Severity::Warning);
        assert!(unknown
            .message
            .starts_with("unknown metadata key 'Titel': did you mean 'title'?"));
        assert_eq!(variant.severity, crate::finding::Severity::Error);
        assert!(variant.message.starts_with("unknown variant 'jigsaw'"));
        assert_eq!(
            size.message,
            "unsupported size '17': a size is 4 to 16 or 25 (written 9, 9x9 or 9×9)"
        );
        // Puzzles whose rules are unknown are not read.
        assert!(doc.puzzles.is_empty());
    }

    /// An 8×8 (2×4 boxes) as `new --size 8 --seed 1` made it.
    const EIGHT: &str = "8.53...1...17...583...7....64..8.......2.....78.6....2...5.7....";

    #[test]
    fn sixty_four_cells_are_an_8x8_one_liner_when_a_digit_is_above_4() {
        let doc = parse(&format!("{EIGHT}\n"));
        assert_eq!(codes(&doc), vec![]);
        let p = &doc.puzzles[0];
        assert_eq!(
            (p.size.side(), p.size.box_cols(), p.layout),
            (8, 4, Layout::Line)
        );
        assert_eq!(p.givens.iter().filter(|&&d| d > 0).count(), 20);

        // A 4×4's line of places: four places a cell, digits 1–4 only.
        let places = "1...".repeat(16);
        let doc = parse(&format!("{places}\n"));
        assert_eq!(codes(&doc), vec![]);
        let p = &doc.puzzles[0];
        assert_eq!((p.size.side(), p.layout), (4, Layout::MarksLine));

        // `size` decides, whatever the digits.
        let doc = parse(&format!("# size: 8\n{places}\n"));
        assert_eq!(codes(&doc), vec![]);
        let p = &doc.puzzles[0];
        assert_eq!((p.size.side(), p.layout), (8, Layout::Line));
    }

    #[test]
    fn a_block_takes_the_length_most_of_its_first_rows_have() {
        // A 9×9 whose first row lost a digit is a 9×9 with a short first row.
        let mut rows = SOLVED.to_vec();
        rows[0] = "48392165";
        let doc = parse(&rows.join("\n"));
        assert_eq!(
            problems(&rows.join("\n")),
            vec![(Code::RowLength, "48392165")]
        );
        assert!(doc.puzzles.is_empty() || doc.puzzles[0].size.side() == 9);
        // An 8×8 whose second row has a ninth cell is an 8×8 with a long second row.
        let mut eight: Vec<String> = EIGHT
            .as_bytes()
            .chunks(8)
            .map(|row| String::from_utf8(row.to_vec()).unwrap())
            .collect();
        eight[1].push('.');
        let text = eight.join("\n");
        assert_eq!(problems(&text), vec![(Code::RowLength, "...17...."),]);
        // Three rows of three lengths: the first row's.
        let text = "12345678\n123456789\n1234567890\n";
        assert!(problems(text).iter().all(|(_, at)| *at != "12345678"));
    }

    #[test]
    fn sixteen_cells_are_a_4x4_one_liner_unless_a_digit_says_16x16() {
        let fours = "1..4.4..........\n.2..3...........\n";
        let doc = parse(fours);
        assert_eq!(codes(&doc), vec![]);
        assert_eq!(doc.puzzles.len(), 2);
        assert!(doc
            .puzzles
            .iter()
            .all(|p| p.size.side() == 4 && p.layout == Layout::Line));

        let rows: Vec<String> = (0..16)
            .map(|r| {
                (0..16)
                    .map(|c| digit_char(((r * 4 + r / 4 + c) % 16 + 1) as u8))
                    .collect()
            })
            .collect();
        let sixteen = rows.join("\n");
        let doc = parse(&sixteen);
        assert_eq!(codes(&doc), vec![]);
        assert_eq!(doc.puzzles.len(), 1);
        assert_eq!(doc.puzzles[0].size.side(), 16);
        assert_eq!(doc.puzzles[0].layout, Layout::Block);

        // `size` decides, whatever the digits.
        let doc = parse(&format!("# size: 4\n{}", "1..4.4..........\n"));
        assert_eq!(doc.puzzles[0].size.side(), 4);
        // A 9×9 one-liner right after 4×4 ones does not make them rows of a 16×16.
        let mixed = format!("1..4.4..........\n{DIAGONAL}\n");
        let doc = parse(&mixed);
        assert_eq!(codes(&doc), vec![]);
        let sides: Vec<_> = doc.puzzles.iter().map(|p| p.size.side()).collect();
        assert_eq!(sides, vec![4, 9]);
        let low: String = (0..16).map(|_| "1...............\n").collect();
        let doc = parse(&format!("# size: 16x16\n{low}"));
        assert_eq!(doc.puzzles.len(), 1);
        assert_eq!(doc.puzzles[0].size.side(), 16);
        let doc = parse(&low);
        assert_eq!(doc.puzzles.len(), 16);
    }

    /// The most lines the parser holds at once while reading `text`.
    fn most_held(text: &str) -> usize {
        let mut parser = Parser::new(text, 0, Scope::default(), false);
        parser.read_lines();
        parser.ahead.most_held
    }

    #[test]
    fn the_parser_holds_a_few_lines_whatever_the_text() {
        let many = |line: &str| line.repeat(10_000);
        assert_eq!(most_held(&many("\n")), 1);
        assert_eq!(most_held(&many("# title: x\n")), 1);
        assert_eq!(most_held(&many("this is not a row\n")), 1);
        assert_eq!(most_held(&many(&format!("{DIAGONAL}\n"))), 1);
        // Border lines are never held, even between the rows of a block.
        let block = format!(
            "{}\n{}{}",
            SOLVED[0],
            many("---+---+---\n"),
            SOLVED[1..].join("\n")
        );
        assert_eq!(parse(&block).puzzles.len(), 1);
        // Its rows; a block whose size no row tells is read a row at a time.
        assert_eq!(most_held(&block), 9);
        assert!(most_held(&many("1 2 3 4 5 6 7\n")) <= MAX_SIZE_LOOKAHEAD + 1);
        assert!(most_held(&many("1 2 3 4\n")) <= 5);
    }

    #[test]
    fn a_parse_keeping_a_few_problems_keeps_the_first_of_each_severity_and_counts_the_rest() {
        // Junk lines, repeated metadata (warnings merged in late, when the group ends), broken
        // rows of blocks and good puzzles, several times over.
        let unit = format!(
            "x\n# title: a\n# title: b\n# title: c\n\n1234\n{}\n\n{}\n",
            SOLVED[0],
            SOLVED.join("\n")
        );
        let text = unit.repeat(400);
        let whole = parse(&text);
        assert!(whole.problems.len() > 3000);
        for keep in [0, 1, 7, 1000, 5000] {
            let kept = parse_keeping(&text, keep);
            let (mut first, mut rest, mut seen) = (Vec::new(), Counts::default(), [0; 4]);
            for f in &whole.problems {
                seen[f.severity as usize] += 1;
                if seen[f.severity as usize] <= keep {
                    first.push(f.clone());
                } else {
                    rest.add(f.severity);
                }
            }
            assert_eq!(kept.problems, first, "keeping {keep}");
            assert_eq!(kept.unkept, rest, "keeping {keep}");
            // The first `keep` of the whole text, whatever their severities, are all kept.
            let overall = &whole.problems[..keep.min(whole.problems.len())];
            assert_eq!(&kept.problems[..overall.len()], overall, "keeping {keep}");
            assert_eq!(kept.puzzles.len(), whole.puzzles.len());
        }
        assert_eq!(whole.unkept, Counts::default());
    }

    #[test]
    fn late_findings_are_merged_in_source_order() {
        let at = |start| Finding::error(Code::Syntax, Span::new(start, start + 1), "old");
        let mut problems = vec![at(1), at(5), at(5), at(9)];
        let spans = [Span::new(0, 1), Span::new(5, 6), Span::new(7, 8)];
        merge_late(&mut problems, &spans, |span| {
            Finding::warning(Code::BadMetadata, span, "new")
        });
        let got: Vec<_> = problems
            .iter()
            .map(|f| (f.span.start, &*f.message))
            .collect();
        let expected = [
            (0, "new"),
            (1, "old"),
            (5, "old"),
            (5, "old"),
            (5, "new"),
            (7, "new"),
            (9, "old"),
        ];
        assert_eq!(got, expected);
    }

    #[test]
    fn repeated_metadata_holds_no_text_per_finding() {
        use std::borrow::Cow;
        // A million of these lines were 6 GB in `check --format json`: each line is a "given
        // twice" warning, and (no puzzle follows) an "applies to no puzzle" one.
        let doc = parse(&"# title: x\n".repeat(1000));
        assert_eq!(doc.problems.len(), 1999);
        assert!(doc
            .problems
            .windows(2)
            .all(|w| w[0].span.start <= w[1].span.start));
        for f in &doc.problems {
            assert!(matches!(f.message, Cow::Borrowed(_)), "{}", f.message);
            assert!(f
                .related
                .iter()
                .all(|r| matches!(r.message, Cow::Borrowed(_))));
        }
        assert_eq!(doc.problems.capacity(), doc.problems.len());
    }

    #[test]
    fn a_capped_parse_keeps_the_first_problems_of_each_severity_and_counts_the_rest() {
        // Junk lines (errors), repeated titles (warnings, and notes at the end: no puzzle
        // follows some of them), then puzzles with problems of their own.
        let text = format!(
            "{}{}\n{}\n# title: a\n{}\n12\n",
            "x\n".repeat(700),
            "# title: t\n".repeat(900),
            "y y y y\n".repeat(300),
            "3.3.2.6..\n".repeat(9),
        );
        let full = parse(&text);
        for keep in [0, 1, 64, 500, 5000] {
            let capped = parse_keeping(&text, keep);
            let mut expected = Vec::new();
            let mut omitted = [0usize; 4];
            let mut seen = [0usize; 4];
            for finding in &full.problems {
                let slot = finding.severity as usize;
                seen[slot] += 1;
                if seen[slot] <= keep {
                    expected.push((finding.span, finding.code, finding.severity));
                } else {
                    omitted[slot] += 1;
                }
            }
            let kept: Vec<_> = capped
                .problems
                .iter()
                .map(|f| (f.span, f.code, f.severity))
                .collect();
            assert_eq!(kept, expected, "keep {keep}");
            assert_eq!(capped.unkept.by_severity(), omitted, "keep {keep}");
            assert_eq!(capped.puzzles.len(), full.puzzles.len());
        }
        assert_eq!(full.unkept.by_severity(), [0; 4]);
    }

    #[test]
    fn a_header_is_one_span_however_long() {
        let text = format!(
            "{}# title: last\n{DIAGONAL}\n",
            "# a comment\n".repeat(1000)
        );
        let doc = parse(&text);
        let p = &doc.puzzles[0];
        assert_eq!(p.header, Some(Span::new(0, text.find("\n2.").unwrap())));
        assert_eq!(at(&text, p.anchor()), "# title: last");
    }

    #[test]
    fn back_to_back_grids_are_two_puzzles() {
        let text = plain_block() + &plain_block();
        let doc = parse(&text);
        assert_eq!(codes(&doc), vec![]);
        assert_eq!(doc.puzzles.len(), 2);
        assert_eq!(doc.puzzles[1].first_row.start, 90);
    }

    #[test]
    fn an_error_in_one_puzzle_does_not_stop_the_next() {
        let mut broken: Vec<&str> = SOLVED.to_vec();
        broken[4] = "7295x4138";
        let text = format!("{}\n\n{}\n{DIAGONAL}\n", broken.join("\n"), plain_block());
        let doc = parse(&text);
        assert_eq!(problems(&text), vec![(Code::Syntax, "x")]);
        assert_eq!(doc.puzzles.len(), 2);
        assert_eq!(doc.puzzles[0].givens[0], 4);
    }

    #[test]
    fn lenient_styles_all_read_the_same_grid() {
        let plain = "4.....8.5\n.3.......\n...7.....\n.2.....6.\n....8.4..\n....1....\n...6.3.7.\n5..2.....\n1.4......\n";
        let ss = "4..|...|8.5\n.3.|...|...\n...|7..|...\n---+---+---\n.2.|...|.6.\n....|8.4..\n...|.1.|...\n---+---+---\n...|6.3|.7.\n5..|2..|...\n1.4|...|...\n";
        let display = "+-------+-------+-------+\n| 4 0 0 | 0 0 0 | 8 0 5 |\n| 0 3 0 | 0 0 0 | 0 0 0 |\n\
                       | 0 0 0 | 7 0 0 | 0 0 0 |\n|=======+=======+=======|\n| _ 2 _ | _ _ _ | _ 6 _ |\n\
                       | . . . | . 8 . | 4 . . |\n|\t. . . | . 1 . | . . .\t|\n*-------*-------*-------*\n\
                       | . . . | 6 . 3 | . 7 . |\n| 5 . . | 2 . . | . . . |\n| 1 . 4 | . . . | . . . |\n+-------+-------+-------+\n";
        let one = plain.replace('\n', "");
        let expected = parse(plain).puzzles[0].givens.clone();
        for text in [ss, display, &one] {
            let doc = parse(text);
            assert_eq!(codes(&doc), vec![], "{text}");
            assert_eq!(doc.puzzles.len(), 1);
            assert_eq!(doc.puzzles[0].givens, expected);
        }
    }

    #[test]
    fn every_size_reads() {
        for size in Size::ALL {
            let n = size.side();
            // A grid without boxes needs regions: its rows are its boxes here.
            let regions = match size.has_boxes() {
                true => "",
                false => "regions: none\n",
            };
            let rows: Vec<String> = (0..n)
                .map(|r| {
                    let (br, bc) = (size.box_rows(), size.box_cols());
                    (0..n)
                        .map(|c| {
                            // A valid pattern: shift by box width per row, by one per band.
                            let d = (bc * (r % br) + r / br + c) % n + 1;
                            digit_char(d as u8).to_ascii_lowercase().to_string()
                        })
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect();
            let doc = parse(&format!("{regions}{}", rows.join("\n")));
            assert_eq!(codes(&doc), vec![], "{n}");
            assert_eq!(doc.puzzles[0].size, size);
            assert_eq!(doc.puzzles[0].givens_count(), n * n);
            assert!(doc.puzzles[0]
                .givens
                .iter()
                .all(|&d| (1..=n as u8).contains(&d)));
        }
    }

    #[test]
    fn unsupported_row_length_and_junk() {
        let text = "12345671234567123\n12345671234567123\n";
        let doc = parse(text);
        assert_eq!(problems(text), vec![(Code::RowLength, "12345671234567123")]);
        assert!(doc.problems[0]
            .message
            .starts_with("row has 17 cells, but a grid row has 4 to 16 or 25 cells"));
        // A first row with a typo takes its size from the next row.
        let mut rows = SOLVED.to_vec();
        rows[0] = "48392165";
        assert_eq!(
            problems(&rows.join("\n")),
            vec![(Code::RowLength, "48392165")]
        );
        // A line of prose without `#` is one finding, not one per word.
        let text = "This is a note, said Sam.\n";
        assert_eq!(
            problems(text),
            vec![(Code::Syntax, "This is a note, said Sam.")]
        );
    }

    #[test]
    fn a_title_without_its_hash_is_one_error_and_the_grid_below_still_reads() {
        for title in [
            "Puzzle one",
            "hello world",
            "Solution: see below",
            "x y z w",
        ] {
            let text = format!("{title}\n{}", plain_block());
            let doc = parse(&text);
            assert_eq!(problems(&text), vec![(Code::Syntax, title)], "{title}");
            assert!(doc.problems[0]
                .message
                .starts_with("this line is not a grid row"));
            assert_eq!(doc.puzzles.len(), 1, "{title}");
        }
        // Letters of a large grid are not words.
        let text = "1 2 3 4 5 6 7 8 9 ABC DEFG\n"; // a 16×16 row, alone
        assert_eq!(
            problems(text),
            vec![(Code::BlockHeight, "1 2 3 4 5 6 7 8 9 ABC DEFG")]
        );
    }

    #[test]
    fn letters_and_digits_out_of_range() {
        let mut rows = SOLVED.to_vec();
        rows[2] = "2518a6493";
        let text = rows.join("\n");
        let doc = parse(&text);
        assert_eq!(problems(&text), vec![(Code::Syntax, "a")]);
        assert_eq!(
            doc.problems[0].message,
            "unexpected 'a': a cell is a digit 1–9 or an empty mark . 0 _"
        );
        let text = "1 2 . 4\n. . . .\n. . . .\n. . . 5\n";
        assert_eq!(
            parse(text).problems[0].message,
            "digit 5 is above this 4×4 puzzle's largest digit 4"
        );
    }

    #[test]
    fn a_comment_inside_a_block_ends_it() {
        let mut text = SOLVED[..4].join("\n");
        text.push_str("\n# oops\n");
        text.push_str(&SOLVED[4..].join("\n"));
        let doc = parse(&text);
        let heights: Vec<_> = doc
            .problems
            .iter()
            .map(|f| (f.code, f.message.clone()))
            .collect();
        assert_eq!(heights.len(), 2);
        assert!(heights[0].1.starts_with("puzzle has 4 rows, expected 9"));
        assert!(heights[1].1.starts_with("puzzle has 5 rows, expected 9"));
        assert!(doc.puzzles.is_empty());
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let text = format!("\u{feff}{}", plain_block());
        let doc = parse(&text);
        assert_eq!(codes(&doc), vec![]);
        assert_eq!(doc.puzzles[0].cell_span(0), Span::new(3, 4));
    }

    #[test]
    fn trailing_comments_on_rows_are_ignored() {
        let mut rows: Vec<String> = SOLVED.iter().map(|r| r.to_string()).collect();
        rows[0].push_str("  # row A: the top # again");
        let doc = parse(&rows.join("\n"));
        assert_eq!(codes(&doc), vec![]);
        assert_eq!(doc.puzzles[0].meta, Default::default());
    }

    #[test]
    fn digit_above_size() {
        let text = "1 2 3 | 4 5 6\n. . . | . . .\n. . . | . . .\n. . . | . . .\n. . . | . . .\n. . 7 | . . .\n";
        let doc = parse(text);
        assert_eq!(doc.problems.len(), 1);
        let f = &doc.problems[0];
        assert_eq!((f.code, at(text, f.span)), (Code::DigitRange, "7"));
        assert_eq!(
            f.message,
            "digit 7 is above this 6×6 puzzle's largest digit 6"
        );
    }
}
