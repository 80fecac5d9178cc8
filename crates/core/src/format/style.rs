//! Formatting: a document written back in one of three styles, as the fewest whole-line edits,
//! each checked by reading the result back.
//!
//! The styles differ only in how a grid block is laid out: `grid` is the display style of the
//! canonical form (`4 . . | . . . | 8 . 5`, border lines between bands), `compact` writes each
//! row as its cells alone (`4.....8.5`), `line` writes the whole puzzle on one line (a pencil-mark
//! grid as a line of places). One-line puzzles stay on one line in every style, so a collection is
//! never blown up into grids. In every style metadata is written `# key: value`, empty cells `.`,
//! and comments, free text, blank lines, line breaks and the lines of broken puzzles are kept.
//!
//! What a style cannot hold is kept as the grid style writes it, never lost: a block with a
//! comment on a row, and a pencil-mark grid with entries (`+7`) or lone marks (`*7`), which a
//! line of places cannot write, stay blocks in the `line` style; a pencil-mark grid stays an
//! aligned grid in the `compact` style (its groups need the columns).
//!
//! The reader is lenient and reads some lines by what surrounds them (sixteen cells may be a
//! 4×4 puzzle or a row of a 16×16), so every result is read back before it is handed out: a
//! puzzle that would read differently (other cells, entries, marks or metadata, or other
//! problems around it) is written in a plainer shape (grid, then as it was) and the whole is
//! checked again. Formatting never changes what the file means.

// Over 800 lines: 260 of them are unit tests; the rest is one algorithm (plan the shapes,
// write, read back, make the suspects plainer) whose steps share `Source`, `Plans` and `Shape`.

use super::digits::DigitSet;
use super::document::Document;
use super::lines::{lines, lines_at, CellLine, Kind, Line};
use super::meta::key_value;
use super::metadata::{Entry, Metadata};
use super::parse::{parse, parse_keeping, parse_region};
use super::puzzle::{Layout, Puzzle};
use super::write::{border_text, cell_char, marks_line, row_text, Edit, MarksGrid};
use crate::finding::Span;

/// How grid blocks are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Style {
    /// The display style: cells spaced, ` | ` between boxes, border lines between bands.
    #[default]
    Grid,
    /// One row a line, its cells alone: `4.....8.5`.
    Compact,
    /// The whole puzzle on one line: `4.....8.5.3....…` (N² cells, or N³ places with marks).
    Line,
}

impl Style {
    pub const ALL: [Style; 3] = [Style::Grid, Style::Compact, Style::Line];

    pub fn name(self) -> &'static str {
        match self {
            Style::Grid => "grid",
            Style::Compact => "compact",
            Style::Line => "line",
        }
    }

    /// `grid`, `compact` or `line` (any case).
    pub fn from_name(name: &str) -> Option<Style> {
        Style::ALL
            .into_iter()
            .find(|style| style.name().eq_ignore_ascii_case(name.trim()))
    }
}

/// What formatting does besides the style: the editor's whitespace options (all off by default,
/// so a file's last line keeps or lacks its line break as it had it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub style: Style,
    /// Remove whitespace at the end of every line.
    pub trim_trailing_whitespace: bool,
    /// End the last line with a line break (the file's first one, else `\n`).
    pub insert_final_newline: bool,
    /// Remove empty lines at the end of the file.
    pub trim_final_newlines: bool,
}

impl Options {
    pub fn style(style: Style) -> Options {
        Options {
            style,
            ..Options::default()
        }
    }
}

/// `text` formatted: parsed, formatted, checked.
pub fn format(text: &str, options: &Options) -> String {
    let doc = parse(text);
    apply(
        Source { text, base: 0 },
        &format_edits(text, 0, &doc, options),
    )
}

/// The edits that format `text`, parsed as `doc`: whole lines replaced, only lines that change,
/// in order, none overlapping. `text` is the whole file (`base` 0) or a piece of it found at
/// byte `base` (as the command line reads long files, parsed by `Pieces`); spans are offsets
/// into the file either way. Read back, the result holds the same puzzles with the same problems.
pub fn format_edits(text: &str, base: usize, doc: &Document, options: &Options) -> Vec<Edit> {
    let src = Source { text, base };
    let lines = lines_at(text, base);
    let whole = Whole(options);
    checked_edits(src, &lines, doc, options.style, &whole)
}

/// The edits that format the puzzles of `doc` that overlap `range` (a puzzle's own metadata
/// lines count as part of it), nothing else: what an editor's range formatting asks for.
/// Of the whitespace options only `trim_trailing_whitespace` applies (to those puzzles' lines):
/// the others are about the end of the file, which a range does not own.
pub fn format_range_edits(text: &str, doc: &Document, options: &Options, range: Span) -> Vec<Edit> {
    format_range_edits_at(text, 0, doc, options, range)
}

/// `format_range_edits` of a piece of a file: `text` found at byte `base` (as `format_edits`
/// takes it), parsed as `doc`; `range` and the edits' spans are offsets into the file.
pub fn format_range_edits_at(
    text: &str,
    base: usize,
    doc: &Document,
    options: &Options,
    range: Span,
) -> Vec<Edit> {
    let src = Source { text, base };
    let lines = lines_at(text, base);
    let selected: Vec<bool> = doc
        .puzzles
        .iter()
        .map(|p| {
            let start = p.header.map_or(p.span.start, |h| h.start.min(p.span.start));
            range.start <= p.span.end && start <= range.end
        })
        .collect();
    let options = Options {
        insert_final_newline: false,
        trim_final_newlines: false,
        ..*options
    };
    checked_edits(src, &lines, doc, options.style, &Only(&selected, options))
}

/// The canonical form of a document: every block in the grid style, metadata as `# key: value`,
/// comments, blank lines and broken puzzles as they are (see `puzzles/README.md`). Not read
/// back: the parser's property tests hold it to reading the same.
pub fn canonical(text: &str, doc: &Document) -> String {
    let src = Source { text, base: 0 };
    let lines = lines(text);
    let shapes = vec![Shape::Grid; doc.puzzles.len()];
    let plans = plan(src, &lines, doc, &shapes);
    let mut out = String::with_capacity(text.len() + text.len() / 2);
    out.push_str(&text[..lines.first().map_or(text.len(), |l| l.start)]);
    for (line, plan) in lines.iter().zip(&plans.plan) {
        out.push_str(&plan.output(src, line));
    }
    out
}

// ---------------------------------------------------------------- what is written

/// The text being formatted: a whole file, or a piece of one starting at byte `base`, which
/// every span and line offset counts from.
#[derive(Clone, Copy)]
struct Source<'a> {
    text: &'a str,
    base: usize,
}

impl<'a> Source<'a> {
    fn get(&self, from: usize, to: usize) -> &'a str {
        &self.text[from - self.base..to - self.base]
    }

    fn content(&self, line: &Line) -> &'a str {
        self.get(line.start, line.end)
    }

    fn line_break(&self, line: &Line) -> &'a str {
        self.get(line.end, line.next)
    }
}

/// What one puzzle becomes: the style's shape, or a plainer one where that would not read back
/// the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    Line,
    Compact,
    Grid,
    /// Left exactly as it is.
    Keep,
}

impl Shape {
    /// The next plainer shape, if there is one.
    fn plainer(self) -> Option<Shape> {
        match self {
            Shape::Line | Shape::Compact => Some(Shape::Grid),
            Shape::Grid => Some(Shape::Keep),
            Shape::Keep => None,
        }
    }
}

/// What formatting does with one source line.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Plan {
    Keep,
    Drop,
    /// New content; the line break stays.
    Replace(String),
}

impl Plan {
    /// The line as written: its content and line break, or nothing.
    fn output<'a>(&'a self, src: Source<'a>, line: &Line) -> std::borrow::Cow<'a, str> {
        match self {
            Plan::Keep => src.get(line.start, line.next).into(),
            Plan::Drop => "".into(),
            Plan::Replace(s) => format!("{s}{}", src.line_break(line)).into(),
        }
    }
}

/// Each line's plan and the puzzle it belongs to (`None`: a metadata or other line).
struct Plans {
    plan: Vec<Plan>,
    owner: Vec<Option<usize>>,
}

/// Which edits a formatting hands out.
/// The edits that write the block `puzzle` as a pencil-mark grid of `marks` (`entries`: which
/// lone digits are entries, written `+7`), line by line in `text`, the source from byte `base`
/// holding at least the block's lines: each row rewritten with its comment and line break kept,
/// border lines drawn to the new widths, every other line left as it is. What filling in pencil
/// marks writes, which would lose a row's comment if it replaced the block whole. `None` when
/// the block's rows are not one a line inside `text`.
pub fn marks_block_edits(
    text: &str,
    base: usize,
    puzzle: &Puzzle,
    marks: &[DigitSet],
    entries: Option<&[bool]>,
) -> Option<Vec<Edit>> {
    if puzzle.layout != Layout::Block || marks.len() != puzzle.size.cells() {
        return None;
    }
    let src = Source { text, base };
    let lines = lines_at(text, base);
    let rows = row_lines(src, &lines, puzzle)?;
    let mut plans = Plans {
        plan: vec![Plan::Keep; lines.len()],
        owner: vec![None; lines.len()],
    };
    let grid = MarksGrid::new(puzzle.drawn_size(), &puzzle.givens, marks, entries, false);
    let mut at = At {
        src,
        lines: &lines,
        plans: &mut plans,
        index: 0,
    };
    at.block(puzzle, &rows, |r, _| grid.row(r), Some(grid.border()));
    Some(edits(src, &lines, &plans, &Everything))
}

trait Scope {
    /// Whether edits to lines of this owner are wanted.
    fn wants(&self, owner: Option<usize>) -> bool;
    /// The whitespace options, for whole-document formatting.
    fn options(&self) -> Option<&Options>;
}

/// The whole document, with the editor's whitespace options.
struct Whole<'o>(&'o Options);

impl Scope for Whole<'_> {
    fn wants(&self, _: Option<usize>) -> bool {
        true
    }
    fn options(&self) -> Option<&Options> {
        Some(self.0)
    }
}

/// Every line, and no whitespace options: edits of one puzzle's own plans.
struct Everything;

impl Scope for Everything {
    fn wants(&self, _: Option<usize>) -> bool {
        true
    }
    fn options(&self) -> Option<&Options> {
        None
    }
}

/// Only the lines of the selected puzzles, with the whitespace options a range takes.
struct Only<'s>(&'s [bool], Options);

impl Scope for Only<'_> {
    fn wants(&self, owner: Option<usize>) -> bool {
        owner.is_some_and(|i| self.0.get(i).copied().unwrap_or(false))
    }
    fn options(&self) -> Option<&Options> {
        Some(&self.1)
    }
}

/// Each line's plan for puzzles written in `shapes` (one per puzzle of `doc`).
fn plan(src: Source, lines: &[Line], doc: &Document, shapes: &[Shape]) -> Plans {
    let mut plans = Plans {
        plan: lines
            .iter()
            .map(|line| match line.kind {
                Kind::Comment => match key_value(src.content(line)) {
                    Some(kv) => Plan::Replace(metadata_line(kv.key, kv.value)),
                    None => Plan::Keep,
                },
                _ => Plan::Keep,
            })
            .collect(),
        owner: vec![None; lines.len()],
    };
    for (index, (puzzle, &shape)) in doc.puzzles.iter().zip(shapes).enumerate() {
        // A puzzle's own metadata lines go with it (range formatting takes them along).
        if let Some(header) = puzzle.header {
            let first = lines.partition_point(|l| l.end < header.start);
            let last = lines.partition_point(|l| l.start <= header.end);
            for owner in plans.owner.get_mut(first..last).into_iter().flatten() {
                *owner = Some(index);
            }
        }
        if shape == Shape::Keep {
            continue;
        }
        if let Some(rows) = row_lines(src, lines, puzzle) {
            let mut at = At {
                src,
                lines,
                plans: &mut plans,
                index,
            };
            at.puzzle(puzzle, &rows, shape);
        }
    }
    plans
}

fn metadata_line(key: &str, value: &str) -> String {
    let key = key.to_ascii_lowercase();
    if value.is_empty() {
        format!("# {key}:")
    } else {
        format!("# {key}: {value}")
    }
}

/// The index of each row's line (one line for a one-line puzzle), if the puzzle's spans fit
/// the source and its lines.
fn row_lines(src: Source, lines: &[Line], puzzle: &Puzzle) -> Option<Vec<usize>> {
    let cells = puzzle.size.cells();
    if puzzle.givens.len() != cells || puzzle.cell_spans.len() != cells {
        return None;
    }
    let line_of = |offset: usize| {
        let i = lines.partition_point(|l| l.next <= offset);
        (i < lines.len() && offset < lines[i].end).then_some(i)
    };
    let per_line = match puzzle.layout {
        Layout::Line | Layout::MarksLine => cells,
        Layout::Block | Layout::Marks => puzzle.size.side(),
    };
    let mut rows = Vec::with_capacity(cells / per_line);
    let end = src.base + src.text.len();
    for row in (0..cells).step_by(per_line) {
        let (first_cell, last_cell) = (puzzle.cell_span(row), puzzle.cell_span(row + per_line - 1));
        // Inside the source, ending inside the line on a character boundary (the text after
        // the cells is sliced): a document that does not match the text is left alone.
        if first_cell.start < src.base || last_cell.end > end {
            return None;
        }
        let first = line_of(first_cell.start)?;
        let last = line_of(last_cell.start)?;
        let fits =
            last_cell.end <= lines[last].end && src.text.is_char_boundary(last_cell.end - src.base);
        if first != last || !fits || rows.last().is_some_and(|&r| r >= first) {
            return None;
        }
        rows.push(first);
    }
    Some(rows)
}

/// Planning the lines of one puzzle.
struct At<'a, 'p> {
    src: Source<'a>,
    lines: &'a [Line],
    plans: &'p mut Plans,
    index: usize,
}

impl At<'_, '_> {
    fn set(&mut self, line: usize, plan: Plan) {
        // A line that comes out as it was is no change (most lines of a tidy collection).
        let same = matches!(&plan, Plan::Replace(s) if s == self.src.content(&self.lines[line]));
        self.plans.plan[line] = if same { Plan::Keep } else { plan };
        self.plans.owner[line] = Some(self.index);
    }

    fn puzzle(&mut self, puzzle: &Puzzle, rows: &[usize], shape: Shape) {
        let size = puzzle.drawn_size();
        let n = size.side();
        let entries = puzzle.entries.as_deref();
        let row_entries = |r: usize| entries.map(|e| &e[r * n..(r + 1) * n]);
        match (puzzle.layout, &puzzle.marks, shape) {
            (Layout::Line, _, _) => self.one_line(puzzle, rows[0], one_line_cells(puzzle)),
            (Layout::MarksLine, Some(marks), _) => {
                self.one_line(puzzle, rows[0], marks_line(size, marks))
            }
            (Layout::Block, _, Shape::Line) => self.block_as_line(rows, one_line_cells(puzzle)),
            (Layout::Block, _, Shape::Compact) => {
                let cells = |r: usize, row: &[u8]| compact_row(row, row_entries(r));
                self.block(puzzle, rows, cells, None)
            }
            (Layout::Block, _, _) => {
                let cells = |r: usize, row: &[u8]| row_text(size, row, row_entries(r));
                self.block(puzzle, rows, cells, Some(border_text(size)))
            }
            (Layout::Marks, Some(marks), Shape::Line) => {
                self.block_as_line(rows, marks_line(size, marks))
            }
            (Layout::Marks, Some(marks), _) => {
                let grid = MarksGrid::new(size, &puzzle.givens, marks, entries, true);
                let border = grid.border();
                self.block(puzzle, rows, |r, _| grid.row(r), Some(border))
            }
            (Layout::Marks | Layout::MarksLine, None, _) => {}
        }
    }

    /// A one-line puzzle: its cells as `cells`, its trailing text kept.
    fn one_line(&mut self, puzzle: &Puzzle, row: usize, mut cells: String) {
        let line = self.lines[row];
        let cells_end = puzzle.cell_span(puzzle.cell_spans.len() - 1).end;
        cells.push_str(self.src.get(cells_end, line.end));
        self.set(row, Plan::Replace(cells));
    }

    /// The lines of a block from the border lines right above its first row to those right
    /// below its last: the formatted block draws its own borders, where it has any.
    fn block_lines(&self, rows: &[usize]) -> (usize, usize) {
        let plain = |i: usize| is_plain_border(self.src, &self.lines[i]);
        let mut top = rows[0];
        while top > 0 && plain(top - 1) {
            top -= 1;
        }
        let mut bottom = rows[rows.len() - 1];
        while bottom + 1 < self.lines.len() && plain(bottom + 1) {
            bottom += 1;
        }
        (top, bottom)
    }

    fn drop_borders(&mut self, rows: &[usize]) {
        let (top, bottom) = self.block_lines(rows);
        for i in top..=bottom {
            if is_plain_border(self.src, &self.lines[i]) {
                self.set(i, Plan::Drop);
            }
        }
    }

    /// A block, row by row, with `border` between bands when given; row comments kept.
    fn block(
        &mut self,
        puzzle: &Puzzle,
        rows: &[usize],
        row_text: impl Fn(usize, &[u8]) -> String,
        border: Option<String>,
    ) {
        let size = puzzle.drawn_size();
        let n = size.side();
        self.drop_borders(rows);
        for (r, &i) in rows.iter().enumerate() {
            let line = self.lines[i];
            let mut s = row_text(r, &puzzle.givens[r * n..(r + 1) * n]);
            if let Some(hash) = row_comment(&line) {
                s.push(' ');
                s.push_str(self.src.get(hash, line.end));
            }
            if let Some(border) = &border {
                if (r + 1) % size.box_rows() == 0 && r + 1 < n {
                    s.push_str(self.src.line_break(&line));
                    s.push_str(border);
                }
            }
            self.set(i, Plan::Replace(s));
        }
    }

    /// A block on one line: `text` on its first row's line, its other rows and borders gone.
    fn block_as_line(&mut self, rows: &[usize], text: String) {
        self.drop_borders(rows);
        for &i in &rows[1..] {
            self.set(i, Plan::Drop);
        }
        self.set(rows[0], Plan::Replace(text));
    }
}

/// The `#` of a comment at the end of a row line.
fn row_comment(line: &Line) -> Option<usize> {
    match line.kind {
        Kind::Cells(CellLine {
            comment: Some(hash),
            ..
        }) => Some(hash),
        _ => None,
    }
}

/// A border line without a comment (one with a comment is kept where it is).
fn is_plain_border(src: Source, line: &Line) -> bool {
    line.kind == Kind::Border && !src.content(line).contains('#')
}

/// A puzzle's cells on one line, `.` for an empty cell, an entry with its `+`.
fn one_line_cells(puzzle: &Puzzle) -> String {
    match &puzzle.entries {
        // Byte by byte: a collection has tens of thousands of these.
        None => {
            let bytes: Vec<u8> = puzzle.givens.iter().map(|&d| cell_char(d) as u8).collect();
            String::from_utf8(bytes).unwrap_or_default() // cell characters are ASCII
        }
        Some(entries) => compact_row(&puzzle.givens, Some(entries)),
    }
}

/// `4.....8.5`, an entry with its `+`.
fn compact_row(row: &[u8], entries: Option<&[bool]>) -> String {
    let mut s = String::with_capacity(row.len() + 4);
    for (c, &d) in row.iter().enumerate() {
        if entries.is_some_and(|e| e[c]) {
            s.push('+');
        }
        s.push(cell_char(d));
    }
    s
}

/// The shape `style` gives a puzzle before anything is read back: the style's own, except
/// where it cannot hold the puzzle (see the module comment).
fn first_shape(src: Source, lines: &[Line], puzzle: &Puzzle, style: Style) -> Shape {
    match style {
        Style::Grid => Shape::Grid,
        Style::Compact => Shape::Compact,
        Style::Line => {
            let block = matches!(puzzle.layout, Layout::Block | Layout::Marks);
            let row_comments = || {
                row_lines(src, lines, puzzle)
                    .is_some_and(|rows| rows.iter().any(|&i| row_comment(&lines[i]).is_some()))
            };
            let unmarkable = puzzle.layout == Layout::Marks
                && (puzzle.entries.is_some() || puzzle.has_lone_marks());
            if block && (unmarkable || row_comments()) {
                Shape::Grid
            } else {
                Shape::Line
            }
        }
    }
}

// ---------------------------------------------------------------- the editor's options

/// Apply the whitespace options to the plans.
fn whitespace(src: Source, lines: &[Line], plans: &mut Plans, options: &Options) {
    let content = |plan: &Plan, line: &Line| -> Option<String> {
        match plan {
            Plan::Keep => Some(src.content(line).to_string()),
            Plan::Drop => None,
            Plan::Replace(s) => Some(s.clone()),
        }
    };
    if options.trim_trailing_whitespace {
        for (plan, line) in plans.plan.iter_mut().zip(lines) {
            if let Some(text) = content(plan, line) {
                if text.trim_end().len() < text.len() {
                    *plan = Plan::Replace(text.trim_end().to_string());
                }
            }
        }
    }
    // The last line still written.
    let last = |plans: &Plans| {
        (0..lines.len())
            .rev()
            .find(|&i| plans.plan[i] != Plan::Drop)
    };
    if options.trim_final_newlines {
        while let Some(i) = last(plans) {
            let empty = content(&plans.plan[i], &lines[i]).is_some_and(|t| t.is_empty());
            if i == 0 || !empty {
                break;
            }
            plans.plan[i] = Plan::Drop;
        }
    }
    if options.insert_final_newline {
        if let Some(i) = last(plans) {
            let line = &lines[i];
            if line.next == line.end {
                let br = lines
                    .iter()
                    .map(|l| src.line_break(l))
                    .find(|b| !b.is_empty())
                    .unwrap_or("\n");
                let text = content(&plans.plan[i], line).unwrap_or_default();
                plans.plan[i] = Plan::Replace(format!("{text}{br}"));
            }
        }
    }
}

// ---------------------------------------------------------------- edits

/// The edits the plans make, only of lines `scope` wants: each run of changed lines of one
/// owner, less the lines at either end that come out as they were.
fn edits(src: Source, lines: &[Line], plans: &Plans, scope: &dyn Scope) -> Vec<Edit> {
    let changed = |i: usize| plans.plan[i] != Plan::Keep && scope.wants(plans.owner[i]);
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if !changed(i) {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        while j < lines.len() && changed(j) && plans.owner[j] == plans.owner[i] {
            j += 1;
        }
        if let (true, Plan::Replace(text)) = (j == i + 1, &plans.plan[i]) {
            // One line's content: the edit is that (the common case, made cheap).
            if text != src.content(&lines[i]) {
                out.push(Edit {
                    span: lines[i].span(),
                    text: text.clone(),
                });
            }
            i = j;
            continue;
        }
        let old = src.get(lines[i].start, lines[j - 1].next);
        let new: String = (i..j)
            .map(|k| plans.plan[k].output(src, &lines[k]))
            .collect();
        out.extend(smallest_edit(lines[i].start, old, &new));
        i = j;
    }
    out
}

/// The edit that turns `old` (found at byte `at`) into `new`, without the whole lines they
/// share at the start and at the end; `None` when they are the same.
fn smallest_edit(at: usize, old: &str, new: &str) -> Option<Edit> {
    if old == new {
        return None;
    }
    let (old_lines, new_lines) = (split_lines(old), split_lines(new));
    let (head, tail) = common_ends(&old_lines, &new_lines);
    let bytes = |lines: &[&str]| lines.iter().map(|l| l.len()).sum::<usize>();
    let (old_head, new_head) = (bytes(&old_lines[..head]), bytes(&new_lines[..head]));
    let mut old_end = old.len() - bytes(&old_lines[old_lines.len() - tail..]);
    let mut new_end = new.len() - bytes(&new_lines[new_lines.len() - tail..]);
    // A line break both end with stays out of the edit too: it replaces lines' content only.
    if let Some(br) = ["\r\n", "\n", "\r"]
        .into_iter()
        .find(|br| old[old_head..old_end].ends_with(br) && new[new_head..new_end].ends_with(br))
    {
        (old_end, new_end) = (old_end - br.len(), new_end - br.len());
    }
    Some(Edit {
        span: Span::new(at + old_head, at + old_end),
        text: new[new_head..new_end].to_string(),
    })
}

/// How many items `old` and `new` share at their start, and then at their end (never counting
/// an item twice): what lies between is all an edit from one to the other has to replace.
pub fn common_ends<T: PartialEq>(old: &[T], new: &[T]) -> (usize, usize) {
    let head = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let room = old.len().min(new.len()) - head;
    let tail = old
        .iter()
        .rev()
        .zip(new.iter().rev())
        .take(room)
        .take_while(|(a, b)| a == b)
        .count();
    (head, tail)
}

/// Lines with their line breaks (`\n`, `\r\n` or a lone `\r`).
fn split_lines(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let ends = b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n'));
        if ends {
            out.push(&text[start..=i]);
            start = i + 1;
        }
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// The source with `edits` (in order, not overlapping) applied.
fn apply(src: Source, edits: &[Edit]) -> String {
    let mut out = String::with_capacity(src.text.len() + src.text.len() / 4);
    let mut at = src.base;
    for edit in edits {
        out.push_str(src.get(at, edit.span.start));
        out.push_str(&edit.text);
        at = edit.span.end;
    }
    out.push_str(src.get(at, src.base + src.text.len()));
    out
}

// ---------------------------------------------------------------- reading back

/// How many times one puzzle after another is made plainer before every puzzle is.
const LOCAL_TRIES: usize = 8;

/// The edits for `style` that read back as `doc` reads: the style's shapes, made plainer puzzle
/// by puzzle where the result reads differently, then all at once; at worst no edits.
fn checked_edits(
    src: Source,
    lines: &[Line],
    doc: &Document,
    style: Style,
    scope: &dyn Scope,
) -> Vec<Edit> {
    let mut shapes: Vec<Shape> = doc
        .puzzles
        .iter()
        .map(|p| first_shape(src, lines, p, style))
        .collect();
    for _ in 0..LOCAL_TRIES {
        match try_shapes(src, lines, doc, &shapes, scope) {
            Ok(edits) => return edits,
            Err(suspects) => {
                if !make_plainer(&mut shapes, suspects) {
                    break;
                }
            }
        }
    }
    for shape in [Shape::Grid, Shape::Keep] {
        shapes.iter_mut().for_each(|s| *s = shape);
        if let Ok(edits) = try_shapes(src, lines, doc, &shapes, scope) {
            return edits;
        }
    }
    Vec::new()
}

/// The edits of these shapes if the result reads as `doc`, else the puzzles to suspect.
fn try_shapes(
    src: Source,
    lines: &[Line],
    doc: &Document,
    shapes: &[Shape],
    scope: &dyn Scope,
) -> Result<Vec<Edit>, std::ops::Range<usize>> {
    let mut plans = plan(src, lines, doc, shapes);
    if let Some(options) = scope.options() {
        whitespace(src, lines, &mut plans, options);
    }
    let edits = edits(src, lines, &plans, scope);
    if edits.is_empty() {
        return Ok(edits);
    }
    let out = apply(src, &edits);
    // A document that kept only some of its problems is compared with the result read the
    // same way: reading back millions of problems would cost what the cap saved.
    let again = if let (0, Some(keep)) = (src.base, doc.kept) {
        parse_keeping(&out, keep)
    } else if src.base == 0 {
        parse(&out)
    } else {
        parse_region(&out, src.base, doc.file_scope.clone())
    };
    match first_difference(doc, &again) {
        None => Ok(edits),
        Some(suspects) => Err(suspects),
    }
}

/// Make the suspects plainer: the first that can be; false when none can.
fn make_plainer(shapes: &mut [Shape], suspects: std::ops::Range<usize>) -> bool {
    let len = shapes.len();
    let widened = suspects.start.saturating_sub(1)..(suspects.end + 1).min(len);
    for range in [suspects.start.min(len)..suspects.end.min(len), widened] {
        for i in range {
            if let Some(plainer) = shapes[i].plainer() {
                shapes[i] = plainer;
                return true;
            }
        }
    }
    false
}

/// Where `new` first reads differently from `old`: the puzzles to suspect, `None` when every
/// puzzle has the same cells, entries, marks and metadata and the problems are the same kinds
/// in the same order.
fn first_difference(old: &Document, new: &Document) -> Option<std::ops::Range<usize>> {
    let shared = old.puzzles.len().min(new.puzzles.len());
    if let Some(i) = (0..shared).find(|&i| !same_puzzle(&old.puzzles[i], &new.puzzles[i])) {
        return Some(i..i + 1);
    }
    if old.puzzles.len() != new.puzzles.len() {
        let i = shared.min(old.puzzles.len().saturating_sub(1));
        return Some(i..i + 1);
    }
    let kinds = |doc: &Document, k: usize| doc.problems.get(k).map(|f| (f.code, f.severity));
    let most = old.problems.len().max(new.problems.len());
    let k = (0..most).find(|&k| kinds(old, k) != kinds(new, k))?;
    // The puzzles on either side of the problem that differs.
    let (doc, problem) = match old.problems.get(k) {
        Some(problem) => (old, problem),
        None => (new, &new.problems[k]),
    };
    let after = doc
        .puzzles
        .partition_point(|p| p.span.start <= problem.span.start);
    Some(after.saturating_sub(1)..after + 1)
}

fn same_puzzle(a: &Puzzle, b: &Puzzle) -> bool {
    a.size == b.size
        && a.variant == b.variant
        && a.givens == b.givens
        && a.entries == b.entries
        && a.marks == b.marks
        && same_metadata(&a.meta, &b.meta)
}

fn same_metadata(a: &Metadata, b: &Metadata) -> bool {
    fn value(e: &Option<Entry>) -> Option<&str> {
        e.as_ref().map(|e| e.value.as_str())
    }
    a.fields()
        .iter()
        .zip(b.fields())
        .all(|(x, y)| value(x) == value(y))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse;

    fn canon(text: &str) -> String {
        canonical(text, &parse(text))
    }

    #[test]
    fn block_in_display_style() {
        let text = "#Title :  Plain rows\n\
                    4.....8.5\n.3.......\n...7.....\n.2.....6.\n....8.4..\n....1....\n...6.3.7.\n5..2.....\n1.4......\n";
        let expected = "# title: Plain rows\n\
                        4 . . | . . . | 8 . 5\n\
                        . 3 . | . . . | . . .\n\
                        . . . | 7 . . | . . .\n\
                        ------+-------+------\n\
                        . 2 . | . . . | . 6 .\n\
                        . . . | . 8 . | 4 . .\n\
                        . . . | . 1 . | . . .\n\
                        ------+-------+------\n\
                        . . . | 6 . 3 | . 7 .\n\
                        5 . . | 2 . . | . . .\n\
                        1 . 4 | . . . | . . .\n";
        assert_eq!(canon(text), expected);
        assert_eq!(canon(expected), expected);
    }

    #[test]
    fn small_sizes_and_frames() {
        let text = "+-----+-----+\r\n|1 . |. 4|\r\n|. . |. .|\r\n+-----+-----+\r\n|. . |. .|\r\n|4 . |. 1|\r\n+-----+-----+\r\n\r\n";
        let expected = "1 . | . 4\r\n. . | . .\r\n----+----\r\n. . | . .\r\n4 . | . 1\r\n\r\n";
        assert_eq!(canon(text), expected);
    }

    #[test]
    fn one_liners_keep_their_trailing_text_and_comments_stay() {
        let text = "# a collection\n\n0000123400000000 easy\n1234000000000000\t# hard\n";
        let expected = "# a collection\n\n....1234........ easy\n1234............\t# hard\n";
        assert_eq!(canon(text), expected);
    }

    #[test]
    fn broken_puzzles_stay_verbatim_and_row_comments_stay() {
        let text = "12 34 # first\n3412\n2143\n4321\n\n123\n";
        let expected = "1 2 | 3 4 # first\n3 4 | 1 2\n----+----\n2 1 | 4 3\n4 3 | 2 1\n\n123\n";
        assert_eq!(canon(text), expected);
    }

    use crate::format::apply_edits;

    fn example(name: &str) -> String {
        // The shipped puzzles live at the workspace's top, two folders above this crate.
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../puzzles")
            .join(name);
        std::fs::read_to_string(path).unwrap()
    }

    fn styled(text: &str, style: Style) -> String {
        format(text, &Options::style(style))
    }

    /// Formatting in `style` reads back the same and changes nothing the second time.
    fn settled(text: &str, style: Style) -> String {
        let once = styled(text, style);
        let (before, after) = (parse(text), parse(&once));
        assert!(
            first_difference(&before, &after).is_none(),
            "{style:?}: {once}"
        );
        assert_eq!(styled(&once, style), once, "{style:?} twice");
        once
    }

    #[test]
    fn each_style_on_a_grid_block() {
        let text = example("easy.sudoku");
        let head = text.find("6 . .").unwrap();
        let compact = settled(&text, Style::Compact);
        assert_eq!(
            &compact[..head],
            &text[..head],
            "comments and metadata as they were"
        );
        assert_eq!(
            &compact[head..],
            "6...5418.\n31.968..7\n48....63.\n8....324.\n..74.9.6.\n.....69..\n...8...1.\n9....1..5\n...2.589.\n"
        );
        let line = settled(&text, Style::Line);
        assert_eq!(
            &line[head..],
            "6...5418.31.968..748....63.8....324...74.9.6......69.....8...1.9....1..5...2.589.\n"
        );
        let grid = settled(&text, Style::Grid);
        assert_eq!(grid, canon(&text));
        // From grid or compact to any style; a line stays a line (one-liners are never
        // spread into grids: a collection would become thousands of blocks).
        for from in [&compact, &grid] {
            for style in Style::ALL {
                assert_eq!(styled(from, style), settled(&text, style));
            }
        }
        for style in Style::ALL {
            assert_eq!(styled(&line, style), line);
        }
    }

    #[test]
    fn one_liners_stay_on_one_line_in_every_style() {
        let text = example("collection.sudoku");
        for style in Style::ALL {
            assert_eq!(settled(&text, style), canon(&text), "{style:?}");
        }
    }

    #[test]
    fn pencil_marks_become_a_line_of_places_and_back_to_an_aligned_grid() {
        let text = example("marks.sudoku");
        let doc = parse(&text);
        let line = settled(&text, Style::Line);
        let places = doc.puzzles[1].first_row;
        let place_text = &text[places.start..places.end];
        assert_eq!(line.matches(place_text).count(), 2, "{line}");
        // Compact cannot hold the groups without their columns: the aligned grid.
        assert_eq!(settled(&text, Style::Compact), canon(&text));
        assert_eq!(
            settled(&line, Style::Grid),
            line,
            "lines of places stay lines"
        );
    }

    #[test]
    fn what_a_line_cannot_hold_stays_a_block() {
        // An entry in a pencil-mark grid, and a comment on a row.
        let marks = "+1 23 | 34 4\n3 4 | 12 12\n. . | . .\n. . | . 1234\n";
        assert_eq!(settled(marks, Style::Line), canon(marks));
        let commented = "12 34 # first\n3412\n2143\n4321\n";
        assert_eq!(settled(commented, Style::Line), canon(commented));
        // Entries in a plain block are fine on one line.
        let entries = "1+2 34\n3412\n2143\n4321\n";
        assert_eq!(settled(entries, Style::Line), "1+234341221434321\n");
    }

    #[test]
    fn line_breaks_and_a_missing_last_one_are_kept() {
        let text = example("4x4.sudoku");
        for style in Style::ALL {
            let out = settled(&text, style);
            assert_eq!(
                out.matches("\r\n").count(),
                out.matches('\n').count(),
                "{style:?}"
            );
        }
        let bare = "1234\r3412\r2143\r4321";
        assert_eq!(settled(bare, Style::Compact), bare);
        assert_eq!(
            settled(bare, Style::Grid),
            "1 2 | 3 4\r3 4 | 1 2\r----+----\r2 1 | 4 3\r4 3 | 2 1"
        );
    }

    #[test]
    fn a_16x16_whose_rows_would_read_as_4x4_puzzles_stays_a_grid() {
        let text = example("16x16.sudoku");
        let doc = parse(&text);
        let mut small = doc.puzzles[0].givens.clone();
        small.iter_mut().filter(|d| **d > 4).for_each(|d| *d = 0);
        let grid = crate::format::grid_block(doc.puzzles[0].size, &small);
        // Sixteen cells of digits up to 4 are a 4×4 one-liner: compact cannot say 16×16.
        assert_eq!(settled(&grid, Style::Compact), grid);
        assert!(!settled(&text, Style::Compact).contains(" | "));
    }

    #[test]
    fn edits_touch_only_the_lines_that_change() {
        let text = example("easy.sudoku");
        let canonical_text = canon(&text);
        let doc = parse(&canonical_text);
        assert!(format_edits(&canonical_text, 0, &doc, &Options::default()).is_empty());
        let row = canonical_text.find(". . 7 | 4").unwrap();
        let mut one = canonical_text.clone();
        one.replace_range(row..row + 9, ". . 7 |4 ");
        let edits = format_edits(&one, 0, &parse(&one), &Options::default());
        assert_eq!(edits.len(), 1, "{edits:?}");
        assert_eq!(edits[0].text, ". . 7 | 4 . 9 | . 6 .");
        assert_eq!(apply_edits(&one, &edits), canonical_text);
    }

    #[test]
    fn formatted_text_gets_no_edits_in_any_style() {
        for name in [
            "easy.sudoku",
            "marks.sudoku",
            "collection.sudoku",
            "4x4.sudoku",
        ] {
            for style in Style::ALL {
                let once = styled(&example(name), style);
                let edits = format_edits(&once, 0, &parse(&once), &Options::style(style));
                assert_eq!(edits, vec![], "{name} {style:?}");
            }
        }
    }

    #[test]
    fn range_formatting_takes_the_puzzles_in_range() {
        let text = "# title: a\n1234\n3412\n2143\n4321\n\n# Title: b\n1234\n3412\n2143\n4321\n";
        let doc = parse(text);
        let second = doc.puzzles[1].span;
        let edits = format_range_edits(
            text,
            &doc,
            &Options::style(Style::Grid),
            Span::new(second.start, second.start),
        );
        let out = apply_edits(text, &edits);
        assert!(out.starts_with("# title: a\n1234\n"), "{out}");
        assert!(
            out.ends_with("# title: b\n1 2 | 3 4\n3 4 | 1 2\n----+----\n2 1 | 4 3\n4 3 | 2 1\n"),
            "{out}"
        );
    }

    #[test]
    fn the_editors_whitespace_options() {
        let text = "# a comment   \n1234\n3412\n2143\n4321 \n\n\n";
        let options = Options {
            style: Style::Compact,
            trim_trailing_whitespace: true,
            insert_final_newline: true,
            trim_final_newlines: true,
        };
        assert_eq!(
            format(text, &options),
            "# a comment\n1234\n3412\n2143\n4321\n"
        );
        let options = Options {
            trim_final_newlines: false,
            ..options
        };
        assert_eq!(
            format("1234\r\n3412\r\n2143\r\n4321", &options),
            "1234\r\n3412\r\n2143\r\n4321\r\n"
        );
    }

    #[test]
    fn style_names() {
        for style in Style::ALL {
            assert_eq!(Style::from_name(style.name()), Some(style));
        }
        assert_eq!(Style::from_name(" Compact "), Some(Style::Compact));
        assert_eq!(Style::from_name("wide"), None);
    }
}
