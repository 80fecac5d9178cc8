//! `sudoku-lsp solve`: each input written back with every puzzle filled in, only its empty marks
//! changed. Exit 0 when every puzzle has exactly one solution, 1 otherwise (or when a file
//! changed while it was being solved in place), 2 for usage or I/O.
//!
//! `sudoku-lsp marks` goes the same way with a different job: every puzzle written back with
//! its pencil marks filled in (elimination, then naked twins; nothing placed). Exit 0 unless a
//! file has errors.
//!
//! Like `check`, an input is read in pieces, each analysed on every core and written out before
//! the next is read. `--in-place` writes to a temporary file beside the original and renames it
//! over it at the end (`in_place`), so the file is never left half written.

use super::in_place::{HashingReader, Replacement};
use super::inputs::{self, Input};
use super::lines::LineIndex;
use super::one_liners::{self, Line, Parsed};
use super::progress::Progress;
use super::read::{self, Chunk, Piece};
use super::report;
use super::spool::Spool;
use super::style::{self, Paint};
use crate::analysis::{self, findings, Analysis, Cache, Verdict};
use crate::engine::Budget;
use crate::finding::{Code, Finding, Severity};
use crate::format::{fill_bytes, fill_edits, PartParser, Puzzle};

/// What is written into each puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Job {
    /// Its solution.
    Solve,
    /// Its pencil marks, afresh from the placed digits.
    Marks,
}

pub fn run(args: &[String], in_place: bool, max_nodes: u64, max_file: u64, job: Job) -> i32 {
    let collected = inputs::collect(args);
    if in_place && collected.inputs.contains(&Input::Stdin) {
        return super::fail("--in-place cannot write back to standard input");
    }
    let budget = super::node_budget(max_nodes);
    let several = collected.inputs.len() > 1;
    let mut code = if collected.problems > 0 { 2 } else { 0 };
    let progress = Progress::new(
        match job {
            Job::Solve => "puzzles solved",
            Job::Marks => "puzzles marked",
        },
        true,
    );
    let run = Run {
        budget: &budget,
        max_file,
        job,
        progress: &progress,
    };
    for input in &collected.inputs {
        let outcome = if in_place {
            solve_in_place(input, &run)
        } else {
            solve_to_stdout(input, &run, several)
        };
        code = code.max(outcome);
    }
    progress.finish();
    code
}

/// What every input of one run shares.
struct Run<'r> {
    budget: &'r Budget<'r>,
    max_file: u64,
    job: Job,
    progress: &'r Progress,
}

impl Run<'_> {
    /// A usage or I/O problem, said with the progress line out of the way; exit status 2.
    fn fail(&self, message: &str) -> i32 {
        self.progress.suspend(|| super::fail(message))
    }
}

/// Solve one input onto standard output (after a `==> NAME <==` line when there are several);
/// its exit code. The output is held until the input is read to its end: written whole, or not
/// at all when reading stops early.
fn solve_to_stdout(input: &Input, run: &Run, several: bool) -> i32 {
    let reader = match input.open() {
        Ok(reader) => reader,
        Err(message) => return run.fail(&message),
    };
    let paint = Paint::stdout();
    let mut spool = Spool::new();
    if several {
        let name = paint.paint(style::PATH, input.name());
        spool.write(format!("==> {name} <==\n").as_bytes());
    }
    let mut solving = Solving::new(input.name(), run, paint);
    let mut ends_with_newline = true;
    if run.job == Job::Solve && input.may_exceed(read::LARGE_INPUT) {
        one_liners::start_pool();
    }
    let read = read::chunks(reader, run.max_file, run.job == Job::Solve, |chunk| {
        let output = solving.chunk(chunk);
        if let Some(&last) = output.last() {
            ends_with_newline = last == b'\n';
        }
        spool.write(&output);
    });
    if let Err(stop) = read {
        return run.fail(&format!(
            "{}: {}; nothing of it is written",
            input.name(),
            stop.message()
        ));
    }
    if several && !ends_with_newline {
        spool.write(b"\n");
    }
    let sent = run
        .progress
        .suspend(|| spool.send(&mut std::io::stdout().lock()));
    match sent {
        Ok(()) => solving.exit_code(),
        Err(message) => run.fail(&message),
    }
}

/// Solve one file into itself, through a temporary file renamed over it; its exit code.
fn solve_in_place(input: &Input, run: &Run) -> i32 {
    let Input::File(path) = input else {
        return run.fail("--in-place cannot write back to standard input");
    };
    let name = input.name();
    let (mut replacement, reader) = match Replacement::start(path) {
        Ok(opened) => opened,
        Err(why) => return run.fail(&format!("{name}: {why}")),
    };
    let (reader, read_hash) = HashingReader::new(reader);
    // Never colour what goes into a file.
    let mut solving = Solving::new(name.clone(), run, Paint::off());
    let mut written = Ok(());
    let read = read::chunks(reader, run.max_file, run.job == Job::Solve, |chunk| {
        let output = solving.chunk(chunk);
        if written.is_ok() {
            written = replacement.write(&output);
        }
    });
    if let Err(stop) = read {
        return run.fail(&format!(
            "{name}: {}; the file is left as it was",
            stop.message()
        ));
    }
    if let Err(e) = written {
        return run.fail(&format!("{name}: cannot write the new file: {e}"));
    }
    if !solving.changed {
        return solving.exit_code(); // nothing filled in: the file stays untouched
    }
    match replacement.finish(read_hash.get()) {
        Ok(()) => solving.exit_code(),
        Err(not) => {
            let (doing, command) = match run.job {
                Job::Solve => ("solved", "solve"),
                Job::Marks => ("marked", "marks"),
            };
            let (why, code) = not.report(doing, command);
            run.progress
                .suspend(|| style::say_error(&format!("{name}: {why}")));
            code
        }
    }
}

/// A line of a piece of one-liners solved, on the thread that searched it: what `Solving`
/// does for a puzzle, save writing into the piece's text (a collection where every puzzle has
/// several solutions has a message for each, and making them one after another on the reading
/// thread was a third of `solve`'s instructions).
struct SolvedLine {
    /// Where the line starts in the piece's text.
    at: usize,
    /// The digits to fill its empty marks with (one of several solutions, if so).
    solution: Option<[u8; 81]>,
    /// What is said of it on stderr, a line each.
    said: String,
    /// Whether it has exactly one solution and no problem.
    unique: bool,
}

/// How lines about one piece are said on stderr: what `Solving` and `SolvedLine` share.
#[derive(Clone, Copy)]
struct Said<'a> {
    name: &'a str,
    index: &'a LineIndex<'a>,
    paint: Paint,
}

impl Said<'_> {
    /// Say the parser's `problem` into `said`; whether it leaves the puzzles all unique (it is
    /// no error).
    fn problem(self, said: &mut String, problem: &Finding) -> bool {
        self.line(said, problem);
        problem.severity != Severity::Error
    }

    /// Say into `said` what a puzzle without exactly one solution comes to; whether it has one.
    fn outcome(self, said: &mut String, puzzle: &Puzzle, analysis: &Analysis) -> bool {
        if matches!(analysis.verdict, Verdict::Unique(_)) {
            return true;
        }
        for finding in findings(puzzle, analysis) {
            self.line(said, &with_outcome(finding));
        }
        false
    }

    fn line(self, said: &mut String, finding: &Finding) {
        report::write_line(said, self.name, self.index, finding, self.paint);
    }
}

impl SolvedLine {
    /// The `k`th line of `piece` (0-based), searched.
    fn new(line: Line, piece: &Piece, k: usize, name: &str, paint: Paint) -> SolvedLine {
        let (at, parsed) = match line {
            Line::Unique { at, solution, .. } => {
                let (said, unique) = (String::new(), true);
                let solution = Some(solution);
                return SolvedLine {
                    at,
                    solution,
                    said,
                    unique,
                };
            }
            Line::Parsed { at, parsed } => (at, parsed),
        };
        let Parsed { document, analyses } = *parsed;
        // The piece's index is one thread's (it learns line starts as it is asked): the line's own.
        let index = LineIndex::piece(&piece.text[at..], piece.base + at, piece.first_line + k);
        let index = &index;
        let mut line = SolvedLine {
            at,
            solution: None,
            said: String::new(),
            unique: true,
        };
        let said = Said { name, index, paint };
        for problem in &document.problems {
            line.unique &= said.problem(&mut line.said, problem);
        }
        // A one-liner's document holds its one puzzle, the line's 81 cells.
        for (puzzle, analysis) in document.puzzles.iter().zip(&analyses) {
            line.solution = analysis.verdict.solution().and_then(|s| s.try_into().ok());
            line.unique &= said.outcome(&mut line.said, puzzle, analysis);
        }
        line
    }
}

/// One input being solved, piece by piece.
struct Solving<'b> {
    name: String,
    run: &'b Run<'b>,
    /// Colour for the solved text (off when it goes into a file).
    paint: Paint,
    /// Colour for the problems said on stderr.
    said: Paint,
    /// Whether every puzzle so far had exactly one solution (and nothing was unreadable).
    all_unique: bool,
    /// Whether any empty mark was filled in.
    changed: bool,
    /// Lines said about the piece being solved, not yet written (`flush_said`).
    said_lines: String,
}

impl<'b> Solving<'b> {
    fn new(name: String, run: &'b Run<'b>, paint: Paint) -> Solving<'b> {
        Solving {
            name,
            run,
            paint,
            said: Paint::stderr(),
            all_unique: true,
            changed: false,
            said_lines: String::new(),
        }
    }

    fn exit_code(&self) -> i32 {
        if self.all_unique {
            0
        } else {
            1
        }
    }

    /// Say a line on stderr, with the progress line out of the way.
    fn say(&mut self, line: &str) {
        self.said_lines.push_str(line);
        self.said_lines.push('\n');
    }

    /// Write what was said since the last time on stderr, at once (with the progress line out
    /// of the way): a collection where every puzzle has several solutions says a line for
    /// each, and a write for each line was a tenth of `solve`'s time.
    fn flush_said(&mut self) {
        if self.said_lines.is_empty() {
            return;
        }
        let lines = std::mem::take(&mut self.said_lines);
        self.run.progress.suspend(|| {
            let _ = std::io::Write::write_all(&mut std::io::stderr().lock(), lines.as_bytes());
        });
    }

    /// What one part of the input comes to: a piece solved, a line too long for a puzzle as it
    /// was.
    fn chunk(&mut self, chunk: Chunk) -> Vec<u8> {
        match chunk {
            Chunk::Piece(piece) => {
                let puzzles = match piece.one_liners {
                    Some(_) => piece.lines,
                    None => piece.document.puzzles.len(),
                };
                let output = self.piece(*piece);
                self.flush_said();
                self.run.progress.add(puzzles);
                output
            }
            Chunk::Long(bytes) => bytes.to_vec(),
        }
    }

    /// The solved text of one piece. Problems go to stderr as check prints them. Lines that
    /// are not UTF-8 are written back as they were, the puzzles on the other lines solved.
    fn piece(&mut self, piece: Piece) -> Vec<u8> {
        let index = LineIndex::piece(&piece.text, piece.base, piece.first_line);
        let document = &piece.document;
        // In source order, as `check` says them: the parser's problems (and the first byte that
        // was not UTF-8) before each puzzle first, so that where a piece ends changes nothing
        // in what is said.
        let mut problems = document.problems.as_slice();
        let mut invalid = piece.invalid.map(|(_, at)| at);
        if self.run.job == Job::Marks {
            self.say_before(usize::MAX, &mut problems, &mut invalid, &index);
            return self.marks(&piece, &index);
        }
        let mut solved = piece.text.clone().into_bytes();
        if let Some(parser) = &piece.one_liners {
            self.one_liners(&piece, parser, &mut solved);
            return self.painted(&piece, solved);
        }
        let analyses = Cache::one_use().analyze_all(&document.puzzles, self.run.budget);
        let mut fills = Vec::new();
        for (puzzle, analysis) in document.puzzles.iter().zip(&analyses) {
            self.say_before(puzzle.span.start, &mut problems, &mut invalid, &index);
            if piece.raw.is_some() {
                if let Some(solution) = analysis.verdict.solution() {
                    fills.extend(fill_edits(puzzle, solution));
                }
            }
            let bytes = piece.raw.is_none().then_some(&mut solved);
            self.puzzle(puzzle, analysis, &index, bytes, piece.base);
        }
        self.say_before(usize::MAX, &mut problems, &mut invalid, &index);
        if piece.raw.is_some() {
            let (edited, left_out) = piece.edited(&fills);
            self.changed |= fills.len() > left_out;
            solved = edited;
        }
        self.painted(&piece, solved)
    }

    /// Say on stderr, in source order, what comes before byte `end` of the piece among the
    /// parser's `problems` and the first byte that was not UTF-8, `invalid` (after the problems
    /// at that very byte, as `check` says it); both are left with what comes later.
    fn say_before(
        &mut self,
        end: usize,
        problems: &mut &[Finding],
        invalid: &mut Option<usize>,
        index: &LineIndex,
    ) {
        loop {
            let problem = problems.first().filter(|p| p.span.start < end);
            match (problem, *invalid) {
                (Some(problem), Some(at)) if problem.span.start <= at => {
                    self.problem(problem, index)
                }
                (_, Some(at)) if at < end => {
                    self.not_utf8(at, index);
                    *invalid = None;
                    continue;
                }
                (Some(problem), _) => self.problem(problem, index),
                _ => return,
            }
            *problems = &problems[1..];
        }
    }

    fn problem(&mut self, problem: &Finding, index: &LineIndex) {
        let said = Said {
            name: &self.name,
            index,
            paint: self.said,
        };
        self.all_unique &= said.problem(&mut self.said_lines, problem);
    }

    fn not_utf8(&mut self, at: usize, index: &LineIndex) {
        let (line, column) = index.line_column(at);
        let error = self.said.paint(style::severity(Severity::Error), "error");
        self.say(&format!(
            "{}: {error}: not valid UTF-8: the lines that are not are written back unchanged",
            self.said.place(&self.name, line, column),
        ));
        self.all_unique = false;
    }

    /// One puzzle's solution written into `solved` (the piece's bytes, from byte `base` of
    /// the input; `None` where the caller writes it), and what it says when it has no single
    /// solution.
    fn puzzle(
        &mut self,
        puzzle: &Puzzle,
        analysis: &Analysis,
        index: &LineIndex,
        solved: Option<&mut Vec<u8>>,
        base: usize,
    ) {
        if let (Some(solution), Some(solved)) = (analysis.verdict.solution(), solved) {
            self.changed |= fill_bytes(solved, base, puzzle, solution) > 0;
        }
        let said = Said {
            name: &self.name,
            index,
            paint: self.said,
        };
        self.all_unique &= said.outcome(&mut self.said_lines, puzzle, analysis);
    }

    /// A piece of one-liners alone (`Piece::one_liners`) solved into `solved`, its bytes: each
    /// line searched as it is, and only those without one solution parsed, as `piece` solves
    /// the piece's parse.
    fn one_liners(&mut self, piece: &Piece, parser: &PartParser, solved: &mut [u8]) {
        let (name, paint) = (self.name.as_str(), self.said);
        let budget = self.run.budget;
        let lines = one_liners::search(piece, parser, budget, |k, line| {
            SolvedLine::new(line, piece, k, name, paint)
        });
        for line in lines {
            if let Some(solution) = line.solution {
                // Each empty cell gets its digit: what `fill_bytes` writes on such a line.
                let cells = &mut solved[line.at..line.at + 81];
                for (cell, digit) in cells.iter_mut().zip(solution) {
                    if matches!(cell, b'.' | b'0' | b'_') {
                        *cell = b'0' + digit;
                        self.changed = true;
                    }
                }
            }
            self.all_unique &= line.unique;
            self.said_lines.push_str(&line.said);
        }
    }

    /// The solved bytes of `piece` as written out: with the filled digits coloured when the
    /// output is.
    fn painted(&self, piece: &Piece, solved: Vec<u8>) -> Vec<u8> {
        let read = piece.raw.as_deref().unwrap_or(piece.text.as_bytes());
        if self.paint.is_on() {
            return filled_painted(read, &solved);
        }
        solved
    }
}

impl Solving<'_> {
    /// The piece with every puzzle's pencil marks filled in afresh (those already solved left
    /// alone).
    fn marks(&mut self, piece: &Piece, index: &LineIndex) -> Vec<u8> {
        // Each puzzle's marks and edits, on every core once a piece is more than a couple of
        // milliseconds' work (a collection's thousands of puzzles), then said and applied in
        // source order.
        let fill = |puzzle: &Puzzle| {
            if !puzzle.givens.contains(&0) {
                return None;
            }
            let marks = analysis::fill_marks(puzzle);
            Some(match analysis::marks_unwritable(puzzle, &marks) {
                Some(why) => Err(why),
                None => Ok(analysis::marks_edits(
                    puzzle,
                    &marks,
                    &piece.text,
                    piece.base,
                )),
            })
        };
        let puzzles = &piece.document.puzzles;
        let filled = one_liners::map_in_order(puzzles, fill);
        let mut edits = Vec::new();
        for (puzzle, filled) in puzzles.iter().zip(filled) {
            match filled {
                None => {}
                Some(Ok(more)) => edits.extend(more),
                Some(Err(why)) => {
                    let note = Finding::new(
                        Severity::Info,
                        Code::Syntax,
                        puzzle.first_row,
                        format!("left unchanged: {why}"),
                    );
                    report::write_line(&mut self.said_lines, &self.name, index, &note, self.said);
                }
            }
        }
        let (text, _) = piece.edited(&edits);
        self.changed |= text != piece.raw.as_deref().unwrap_or(piece.text.as_bytes());
        text
    }
}

/// The solved text with each filled-in digit coloured apart from the givens: a filled cell is as
/// long as its empty mark was, so the bytes that differ from the text as read are the filled ones.
fn filled_painted(read: &[u8], solved: &[u8]) -> Vec<u8> {
    if read.len() != solved.len() {
        return solved.to_vec();
    }
    let (on, off) = (
        style::FILLED.render().to_string(),
        style::FILLED.render_reset().to_string(),
    );
    let mut out = Vec::with_capacity(solved.len() + solved.len() / 4);
    let mut inside = false;
    for (&was, &now) in read.iter().zip(solved) {
        let filled = was != now && now.is_ascii();
        if filled != inside {
            out.extend_from_slice(if filled {
                on.as_bytes()
            } else {
                off.as_bytes()
            });
            inside = filled;
        }
        out.push(now);
    }
    if inside {
        out.extend_from_slice(off.as_bytes());
    }
    out
}

/// Say what `solve` did about a finding: filled in one of several, or left unchanged.
fn with_outcome(mut finding: Finding) -> Finding {
    match finding.code {
        Code::SeveralSolutions => finding
            .message
            .to_mut()
            .push_str(" (filled in with one of them)"),
        Code::Solved => {}
        _ if finding.severity <= Severity::Warning || finding.code == Code::Undecided => {
            finding.message.to_mut().push_str(" (left unchanged)")
        }
        _ => {}
    }
    finding
}
