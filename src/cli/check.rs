//! `sudoku-lsp check`: every finding of every input, one line each (or JSON), and an exit code
//! that CI can act on: 0 no errors, 1 any error, 2 a usage or I/O problem.
//!
//! Inputs are read in pieces (`read`) and each piece is analysed on every core and printed
//! before the next is read, so memory stays flat however long the input.

use std::io::Write;

use super::inputs::{self, Input};
use super::lines::LineIndex;
use super::progress::Progress;
use super::read;
use super::report;
use super::style::{self, Paint};
use crate::analysis::{document_findings, Asked, Cache};
use crate::engine::Budget;
use crate::finding::{plural, Code, Finding, Severity, Span};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    Text,
    Json,
    /// GitHub Actions workflow commands: annotations on the files of a pull request.
    Github,
    /// SARIF 2.1.0, for code scanning (`github/codeql-action/upload-sarif`).
    Sarif,
}

/// What `check` was asked.
pub struct Options {
    pub format: OutputFormat,
    pub max_nodes: u64,
    pub max_file: u64,
    /// The setter's notes (givens, minimality, symmetry, redundant givens), and what the
    /// solution says of entries and marks.
    pub asked: Asked,
}

pub fn run(args: &[String], options: &Options) -> i32 {
    let collected = inputs::collect(args);
    let budget = super::node_budget(options.max_nodes);
    let mut out = Printer::new(options.format);
    let mut unreadable = collected.problems;
    for input in &collected.inputs {
        if let Err(message) = check_input(input, &budget, options, &mut out) {
            out.progress.suspend(|| style::say_error(&message));
            unreadable += 1;
        }
        if out.broken {
            return 2; // stdout was closed (`check … | head`): nobody is reading any more
        }
    }
    out.finish(collected.inputs.len());
    if unreadable > 0 || out.broken {
        2
    } else if out.tally.errors > 0 {
        1
    } else {
        0
    }
}

/// Check one input piece by piece; an error says why reading stopped, naming the input.
fn check_input(
    input: &Input,
    budget: &Budget,
    options: &Options,
    out: &mut Printer,
) -> Result<(), String> {
    let name = input.name();
    let reader = input.open()?;
    let (mut puzzles, mut said) = (0, 0);
    let mut invalid_reported = false;
    let read = read::pieces(reader, options.max_file, |piece| {
        let index = LineIndex::piece(&piece.text, piece.base, piece.first_line);
        let count = piece.document.puzzles.len();
        puzzles += count;
        let mut found =
            document_findings(piece.document, budget, &mut Cache::default(), options.asked);
        if let (Some((byte, at)), false) = (piece.invalid, invalid_reported) {
            invalid_reported = true;
            let place = found.partition_point(|f| f.span.start <= at);
            found.insert(place, not_utf8(byte, at));
        }
        said += found.len();
        for finding in &found {
            out.finding(&name, &index, finding);
        }
        out.progress.add(count);
        out.flush();
    });
    out.tally.puzzles += puzzles;
    if puzzles == 0 && said == 0 && read.is_ok() {
        let message =
            "no puzzle found: a puzzle is a block of N rows of N cells, or one line of N² cells";
        let finding = Finding::warning(Code::Syntax, Span::new(0, 0), message);
        out.finding(&name, &LineIndex::new(""), &finding);
    }
    read.map_err(|stop| format!("{name}: {}", stop.message()))
}

fn not_utf8(byte: u64, at: usize) -> Finding {
    let message = format!(
        "not valid UTF-8 from byte {byte} on: the file was read with U+FFFD in place of the bad bytes"
    );
    Finding::error(Code::Syntax, Span::new(at, at), message)
}

/// How many of each kind of finding were printed.
#[derive(Default)]
struct Tally {
    puzzles: usize,
    errors: usize,
    warnings: usize,
    notes: usize,
}

/// The most output held before it is written out.
const PENDING_MAX: usize = 64 << 10;

/// Prints findings as they come: quickfix lines, or one JSON document written as it goes. A
/// piece's output is written at once at its end, with the progress line out of the way.
struct Printer {
    format: OutputFormat,
    /// Colour for the text lines on stdout (off in machine formats).
    paint: Paint,
    progress: Progress,
    stdout: std::io::Stdout,
    /// What is written but not yet out: the current piece's lines.
    pending: Vec<u8>,
    tally: Tally,
    /// JSON findings written so far (a comma goes before every one but the first).
    written: usize,
    /// The codes of the SARIF results written: the log's rules.
    rules: std::collections::BTreeSet<&'static str>,
    /// Standard output could not be written: stop.
    broken: bool,
}

impl Printer {
    fn new(format: OutputFormat) -> Printer {
        let text = format == OutputFormat::Text;
        let mut printer = Printer {
            format,
            paint: if text { Paint::stdout() } else { Paint::off() },
            progress: Progress::new("puzzles checked", text),
            stdout: std::io::stdout(),
            pending: Vec::new(),
            tally: Tally::default(),
            written: 0,
            rules: Default::default(),
            broken: false,
        };
        match format {
            OutputFormat::Json => printer.write(b"{\"findings\":["),
            OutputFormat::Sarif => printer.write(report::SARIF_HEAD.as_bytes()),
            OutputFormat::Text | OutputFormat::Github => {}
        }
        printer
    }

    fn finding(&mut self, name: &str, index: &LineIndex, finding: &Finding) {
        match finding.severity {
            Severity::Error => self.tally.errors += 1,
            Severity::Warning => self.tally.warnings += 1,
            Severity::Info => self.tally.notes += 1,
            Severity::Hint => {}
        }
        match self.format {
            OutputFormat::Text if finding.severity == Severity::Hint => {}
            OutputFormat::Text => {
                let line = report::line(name, index, finding, self.paint);
                self.write(format!("{line}\n").as_bytes());
            }
            OutputFormat::Json => {
                let value = report::json(name, index, finding);
                self.write_item(&value);
            }
            OutputFormat::Github => {
                if let Some(line) = report::github(name, index, finding) {
                    self.write(format!("{line}\n").as_bytes());
                }
            }
            OutputFormat::Sarif => {
                if let Some(result) = report::sarif_result(name, index, finding) {
                    self.rules.insert(finding.code.as_str());
                    self.write_item(&result);
                }
            }
        }
    }

    /// One more item of a JSON array being written, a comma before all but the first.
    fn write_item(&mut self, value: &serde_json::Value) {
        let comma = if self.written > 0 { "," } else { "" };
        self.write(format!("{comma}\n{value}").as_bytes());
        self.written += 1;
    }

    /// Close the JSON document, or say the summary on stderr; flush.
    fn finish(&mut self, files: usize) {
        self.flush();
        self.progress.finish();
        let t = &self.tally;
        match self.format {
            OutputFormat::Json => {
                let summary = serde_json::json!({
                    "files": files,
                    "puzzles": t.puzzles,
                    "errors": t.errors,
                    "warnings": t.warnings,
                    "notes": t.notes,
                });
                let end = format!("\n],\"summary\":{summary}}}\n");
                self.write(end.as_bytes());
            }
            OutputFormat::Sarif => {
                let tail = report::sarif_tail(&self.rules);
                self.write(tail.as_bytes());
                eprintln!("{}", summary(files, &self.tally));
            }
            OutputFormat::Text | OutputFormat::Github => eprintln!("{}", summary(files, t)),
        }
        self.flush();
    }

    fn write(&mut self, bytes: &[u8]) {
        if !self.broken {
            self.pending.extend_from_slice(bytes);
        }
        // A piece can have far more findings than text (a line of metadata each): memory stays
        // flat.
        if self.pending.len() >= PENDING_MAX {
            self.flush();
        }
    }

    /// Write out what is pending, with the progress line out of the way.
    fn flush(&mut self) {
        let Printer {
            progress,
            stdout,
            pending,
            broken,
            ..
        } = self;
        if *broken {
            return;
        }
        let written = progress.suspend(|| {
            let mut stdout = stdout.lock();
            stdout.write_all(pending).and_then(|()| stdout.flush())
        });
        pending.clear();
        *broken = written.is_err();
    }
}

/// `checked 3 puzzles in 2 files: 1 error, 0 warnings` (and the notes, when there are any).
fn summary(files: usize, t: &Tally) -> String {
    let mut said = format!(
        "checked {} in {}: {}, {}",
        plural(t.puzzles, "puzzle"),
        plural(files, "file"),
        plural(t.errors, "error"),
        plural(t.warnings, "warning")
    );
    if t.notes > 0 {
        said.push_str(&format!(", {}", plural(t.notes, "note")));
    }
    said
}
