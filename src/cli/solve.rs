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

use std::io::Write;

use super::in_place::{HashingReader, NotReplaced, Replacement};
use super::inputs::{self, Input};
use super::lines::LineIndex;
use super::read::{self, Piece};
use super::report;
use crate::analysis::{self, findings, Cache, Verdict};
use crate::engine::Budget;
use crate::finding::{Code, Finding, Severity};
use crate::format::{apply_edits, fill_bytes, Edit};

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
    for input in &collected.inputs {
        let outcome = if in_place {
            solve_in_place(input, &budget, max_file, job)
        } else {
            solve_to_stdout(input, &budget, max_file, several, job)
        };
        code = code.max(outcome);
    }
    code
}

/// Solve one input onto standard output (after a `==> NAME <==` line when there are several);
/// its exit code.
fn solve_to_stdout(input: &Input, budget: &Budget, max_file: u64, several: bool, job: Job) -> i32 {
    let reader = match input.open() {
        Ok(reader) => reader,
        Err(message) => return super::fail(&message),
    };
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    if several && writeln!(stdout, "==> {} <==", input.name()).is_err() {
        return super::fail("cannot write standard output");
    }
    let mut solving = Solving::new(input.name(), budget, job);
    let mut ends_with_newline = true;
    let mut written = Ok(());
    let read = read::pieces(reader, max_file, |piece| {
        let output = solving.piece(piece);
        if let Some(&last) = output.last() {
            ends_with_newline = last == b'\n';
        }
        if written.is_ok() {
            written = stdout.write_all(&output);
        }
    });
    if several && !ends_with_newline && written.is_ok() {
        written = stdout.write_all(b"\n");
    }
    if written.and_then(|()| stdout.flush()).is_err() {
        return super::fail("cannot write standard output");
    }
    match read {
        Ok(()) => solving.exit_code(),
        Err(stop) => super::fail(&format!("{}: {}", input.name(), stop.message())),
    }
}

/// Solve one file into itself, through a temporary file renamed over it; its exit code.
fn solve_in_place(input: &Input, budget: &Budget, max_file: u64, job: Job) -> i32 {
    let Input::File(path) = input else {
        return super::fail("--in-place cannot write back to standard input");
    };
    let name = input.name();
    let opened = input.open().and_then(|reader| {
        let replacement = Replacement::start(path).map_err(|e| format!("{name}: {e}"))?;
        Ok((reader, replacement))
    });
    let (reader, mut replacement) = match opened {
        Ok(opened) => opened,
        Err(message) => return super::fail(&message),
    };
    let (reader, read_hash) = HashingReader::new(reader);
    let mut solving = Solving::new(name.clone(), budget, job);
    let mut written = Ok(());
    let read = read::pieces(reader, max_file, |piece| {
        let output = solving.piece(piece);
        if written.is_ok() {
            written = replacement.write(&output);
        }
    });
    if let Err(stop) = read {
        return super::fail(&format!(
            "{name}: {}; the file is left as it was",
            stop.message()
        ));
    }
    if let Err(e) = written {
        return super::fail(&format!("{name}: cannot write the new file: {e}"));
    }
    if !solving.changed {
        return solving.exit_code(); // nothing filled in: the file stays untouched
    }
    match replacement.finish(read_hash.get()) {
        Ok(()) => solving.exit_code(),
        Err(NotReplaced::Changed) => {
            eprintln!(
                "sudoku-lsp: {name}: the file changed while it was being solved; left as it is now, \
                 not overwritten (run solve again)"
            );
            1
        }
        Err(NotReplaced::Io(e)) => super::fail(&format!(
            "{name}: cannot replace the file: {e}; it is left as it was"
        )),
    }
}

/// One input being solved, piece by piece.
struct Solving<'b> {
    name: String,
    budget: &'b Budget<'b>,
    /// Whether every puzzle so far had exactly one solution (and nothing was unreadable).
    all_unique: bool,
    /// Whether any empty mark was filled in.
    changed: bool,
    job: Job,
}

impl<'b> Solving<'b> {
    fn new(name: String, budget: &'b Budget<'b>, job: Job) -> Solving<'b> {
        Solving {
            name,
            budget,
            job,
            all_unique: true,
            changed: false,
        }
    }

    fn exit_code(&self) -> i32 {
        if self.all_unique {
            0
        } else {
            1
        }
    }

    /// The solved text of one piece (its bytes unchanged if they are not UTF-8). Problems go
    /// to stderr as check prints them.
    fn piece(&mut self, piece: Piece) -> Vec<u8> {
        let index = LineIndex::piece(&piece.text, piece.base, piece.first_line);
        if let (Some(raw), Some((_, at))) = (&piece.raw, piece.invalid) {
            let (line, column) = index.line_column(at);
            eprintln!(
                "{}:{line}:{column}: error: not valid UTF-8: these lines are written back unchanged",
                self.name
            );
            self.all_unique = false;
            return raw.clone();
        }
        let document = &piece.document;
        for problem in &document.problems {
            self.all_unique &= problem.severity != Severity::Error;
            eprintln!("{}", report::line(&self.name, &index, problem));
        }
        if self.job == Job::Marks {
            return self.marks(&piece, &index);
        }
        let analyses = Cache::default().analyze_all(&document.puzzles, self.budget);
        let mut solved = piece.text.clone().into_bytes();
        for (puzzle, analysis) in document.puzzles.iter().zip(&analyses) {
            if let Some(solution) = analysis.verdict.solution() {
                self.changed |= fill_bytes(&mut solved, piece.base, puzzle, solution) > 0;
            }
            if !matches!(analysis.verdict, Verdict::Unique(_)) {
                self.all_unique = false;
                for finding in findings(puzzle, analysis) {
                    let line = report::line(&self.name, &index, &with_outcome(finding));
                    eprintln!("{line}");
                }
            }
        }
        solved
    }
}

impl Solving<'_> {
    /// The piece with every puzzle's pencil marks filled in afresh (those already solved left
    /// alone).
    fn marks(&mut self, piece: &Piece, index: &LineIndex) -> Vec<u8> {
        let edits: Vec<Edit> = piece
            .document
            .puzzles
            .iter()
            .filter(|puzzle| puzzle.givens.contains(&0))
            .filter(|puzzle| match analysis::marks_unwritable(puzzle) {
                None => true,
                Some(why) => {
                    let note = Finding::new(
                        Severity::Info,
                        Code::Syntax,
                        puzzle.first_row,
                        format!("left unchanged: {why}"),
                    );
                    eprintln!("{}", report::line(&self.name, index, &note));
                    false
                }
            })
            .flat_map(|puzzle| analysis::marks_edits(puzzle, &analysis::fill_marks(puzzle)))
            .map(|edit| Edit {
                span: crate::finding::Span::new(
                    edit.span.start - piece.base,
                    edit.span.end - piece.base,
                ),
                text: edit.text,
            })
            .collect();
        let text = apply_edits(&piece.text, &edits);
        self.changed |= text != piece.text;
        text.into_bytes()
    }
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
