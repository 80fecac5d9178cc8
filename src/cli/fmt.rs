//! `sudoku-lsp fmt`: each input written back in a formatting style (`format::style`), as
//! `ruff format` and `gofmt` do for code: files rewritten in place (only those that change), `-`
//! from standard input to standard output, and `--check` for CI, which changes nothing, names
//! each file that would change and exits 1 if any would.
//!
//! An input is read in pieces as `check` reads it, each formatted on its own (the format's
//! pieces parse as the whole would), so memory stays flat however long the file. A rewrite goes
//! through `in_place`: a temporary file renamed over the original, never a half-written file.

use super::in_place::{HashingReader, Replacement};
use super::inputs::{self, Input};
use super::lines::LineIndex;
use super::read::{self, Chunk, Piece};
use super::spool::Spool;
use super::style::{self, Paint};
use crate::finding::Span;
use crate::format::{apply_edits, format_edits, Edit, Options, Style};

/// The style, as `--style` takes it.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum StyleArg {
    /// Cells spaced, `|` between boxes, border lines between bands (the canonical form).
    Grid,
    /// One row a line, its cells alone: `4.....8.5`.
    Compact,
    /// Every puzzle on one line (a pencil-mark grid as a line of places).
    Line,
}

impl StyleArg {
    pub fn style(self) -> Style {
        match self {
            StyleArg::Grid => Style::Grid,
            StyleArg::Compact => Style::Compact,
            StyleArg::Line => Style::Line,
        }
    }
}

/// What one input came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    Unchanged,
    /// Formatted (or, with `--check`, would be).
    Changed,
    /// Lines that are not UTF-8 (said on stderr): passed through as they were, and a file is
    /// not rewritten.
    NotUtf8,
}

/// How many inputs came to what.
#[derive(Default)]
struct Tally {
    changed: usize,
    unchanged: usize,
    /// Not formatted (or checked): unreadable, not UTF-8, changed meanwhile, not writable.
    failed: usize,
}

pub fn run(args: &[String], check: bool, style: Style, max_file: u64) -> i32 {
    let collected = inputs::collect(args);
    let options = Options::style(style);
    let mut code = if collected.problems > 0 { 2 } else { 0 };
    let mut tally = Tally::default();
    let (stdout, stderr) = (Paint::stdout(), Paint::stderr());
    for input in &collected.inputs {
        let outcome = match (input, check) {
            (_, true) => check_one(input, &options, max_file),
            (Input::Stdin, false) => to_stdout(&options, max_file),
            (Input::File(_), false) => in_place(input, &options, max_file),
        };
        match outcome {
            Ok(Outcome::Changed) => {
                tally.changed += 1;
                if check {
                    println!("{}", stdout.paint(style::PATH, input.name()));
                } else if *input != Input::Stdin {
                    eprintln!("reformatted {}", stderr.paint(style::PATH, input.name()));
                }
            }
            Ok(Outcome::Unchanged) => tally.unchanged += 1,
            Ok(Outcome::NotUtf8) => {
                tally.failed += 1;
                code = code.max(2);
            }
            Err(failed) => {
                tally.failed += 1;
                code = code.max(failed);
            }
        }
    }
    if check {
        eprintln!(
            "{}",
            tally.summary("would be reformatted", "already formatted", "checked")
        );
        if tally.changed > 0 {
            code = code.max(1);
        }
    } else if !only_stdin(&collected.inputs) {
        eprintln!(
            "{}",
            tally.summary("reformatted", "left unchanged", "formatted")
        );
    }
    code
}

impl Tally {
    /// `2 files reformatted, 5 files left unchanged`, and as black and ruff say it, `1 file
    /// could not be formatted` when one failed.
    fn summary(&self, changed: &str, unchanged: &str, done: &str) -> String {
        let files = |n: usize| crate::finding::plural(n, "file");
        let mut summary = format!(
            "{} {changed}, {} {unchanged}",
            files(self.changed),
            files(self.unchanged)
        );
        if self.failed > 0 {
            summary.push_str(&format!(", {} could not be {done}", files(self.failed)));
        }
        summary
    }
}

/// Formatting standard input alone is a filter (Vim's `:%!sudoku-lsp fmt -`, `formatprg`): it
/// says nothing on stderr but errors, as `rustfmt` and `ruff format -` do, because an editor that
/// reads the filter's stderr with its stdout (Vim's `shellredir` is `>%s 2>&1`) would put the
/// summary into the text.
fn only_stdin(inputs: &[Input]) -> bool {
    !inputs.is_empty() && inputs.iter().all(|input| *input == Input::Stdin)
}

/// Read one input, formatting piece by piece, and hand each piece's output to `out`.
fn format_input(
    input: &Input,
    reader: impl std::io::Read,
    options: &Options,
    max_file: u64,
    mut out: impl FnMut(&[u8]),
) -> Result<Outcome, i32> {
    let mut outcome = Outcome::Unchanged;
    let mut bad_utf8 = false;
    let read = read::chunks(reader, max_file, false, |chunk| match chunk {
        Chunk::Piece(piece) => {
            let (bytes, changed) = format_piece(input, &piece, options, &mut bad_utf8);
            if changed {
                outcome = Outcome::Changed;
            }
            out(&bytes);
        }
        // A line too long for a puzzle is free text, kept as it is.
        Chunk::Long(bytes) => out(bytes),
    });
    if let Err(stop) = read {
        let left = match input {
            Input::Stdin => "nothing of it is written",
            Input::File(_) => "the file is left as it was",
        };
        return Err(super::fail(&format!(
            "{}: {}; {left}",
            input.name(),
            stop.message()
        )));
    }
    if bad_utf8 {
        return Ok(Outcome::NotUtf8);
    }
    Ok(outcome)
}

/// One piece formatted, and whether it changed. Lines that are not UTF-8 are passed through as
/// they were, said on stderr once (and the input's outcome is then an error, so a file is not
/// rewritten).
fn format_piece(
    input: &Input,
    piece: &Piece,
    options: &Options,
    said: &mut bool,
) -> (Vec<u8>, bool) {
    if let (Some(raw), Some((_, at))) = (&piece.raw, piece.invalid) {
        if !*said {
            let index = LineIndex::piece(&piece.text, piece.base, piece.first_line);
            let (line, column) = index.line_column(at);
            eprintln!(
                "{}:{line}:{column}: error: not valid UTF-8: those lines are left as they are, and \
                 a file is not rewritten",
                input.name()
            );
            *said = true;
        }
        return (raw.clone(), false);
    }
    let edits = format_edits(&piece.text, piece.base, &piece.document, options);
    if edits.is_empty() {
        return (piece.text.clone().into_bytes(), false);
    }
    let base = piece.base;
    let relative: Vec<Edit> = edits
        .into_iter()
        .map(|edit| Edit {
            span: Span::new(edit.span.start - base, edit.span.end - base),
            text: edit.text,
        })
        .collect();
    (apply_edits(&piece.text, &relative).into_bytes(), true)
}

/// `--check`: read, compare, write nothing.
fn check_one(input: &Input, options: &Options, max_file: u64) -> Result<Outcome, i32> {
    let reader = input.open().map_err(|message| super::fail(&message))?;
    format_input(input, reader, options, max_file, |_| {})
}

/// Standard input formatted onto standard output: the whole text once it is read to its end
/// (lines that are not UTF-8 passed through as they were), or nothing when reading stops early.
fn to_stdout(options: &Options, max_file: u64) -> Result<Outcome, i32> {
    let input = Input::Stdin;
    let reader = input.open().map_err(|message| super::fail(&message))?;
    let mut spool = Spool::new();
    let outcome = format_input(&input, reader, options, max_file, |bytes| {
        spool.write(bytes)
    })?;
    spool
        .send(&mut std::io::stdout().lock())
        .map_err(|message| super::fail(&message))?;
    Ok(outcome)
}

/// One file formatted into itself, through a temporary file renamed over it, only if it changed.
fn in_place(input: &Input, options: &Options, max_file: u64) -> Result<Outcome, i32> {
    let Input::File(path) = input else {
        return Err(super::fail("cannot rewrite standard input in place"));
    };
    let name = input.name();
    let (mut replacement, reader) =
        Replacement::start(path).map_err(|why| super::fail(&format!("{name}: {why}")))?;
    let (reader, read_hash) = HashingReader::new(reader);
    let mut written = Ok(());
    let outcome = format_input(input, reader, options, max_file, |bytes| {
        if written.is_ok() {
            written = replacement.write(bytes);
        }
    })?;
    if let Err(e) = written {
        return Err(super::fail(&format!(
            "{name}: cannot write the new file: {e}; the file is left as it was"
        )));
    }
    if outcome != Outcome::Changed {
        return Ok(outcome); // dropping the replacement removes its temporary file
    }
    replacement.finish(read_hash.get()).map_err(|not| {
        let (why, code) = not.report("formatted", "fmt");
        super::style::say_error(&format!("{name}: {why}"));
        code
    })?;
    Ok(outcome)
}
