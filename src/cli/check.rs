//! `sudoku-lsp check`: every finding of every input, one line each (or JSON), and an exit code
//! that CI can act on: 0 no errors, 1 any error, 2 a usage or I/O problem.
//!
//! Inputs are read in pieces (`read`) and each piece is analysed on every core and printed
//! before the next is read, so memory stays flat however long the input.

use std::io::Write;

use super::inputs::{self, Input};
use super::lines::LineIndex;
use super::one_liners;
use super::progress::Progress;
use super::read::{self, Piece};
use super::report;
use super::style::{self, Paint};
use crate::analysis::{document_findings, Asked, Cache};
use crate::engine::Budget;
use crate::finding::{plural, Code, Counts, Finding, Severity, Span};

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
    /// The most findings printed per input; the others are counted (and said to be there).
    pub max_findings: usize,
    pub max_nodes: u64,
    pub max_file: u64,
    /// The setter's notes (givens, minimality, symmetry, redundant givens), and what the
    /// solution says of entries and marks.
    pub asked: Asked,
}

pub fn run(args: &[String], options: &Options) -> i32 {
    let collected = inputs::collect(args);
    let budget = super::node_budget(options.max_nodes);
    let mut out = Printer::new(options.format, options.max_findings);
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
    } else if out.tally.counts.errors > 0 {
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
    // Unescaped: JSON and SARIF want the name as it is; the text formats escape it.
    let name = input.raw_name();
    let reader = input.open_text()?;
    let (mut puzzles, mut said, mut unread) = (0, 0, 0);
    let mut invalid_reported = false;
    out.file = FileShown::default();
    // The parser keeps no more problems than can be shown: a text where every line is one
    // would otherwise hold a 64-byte finding for every 2-byte line.
    let keep = options.max_findings;
    // Pieces of one-liners alone are searched line by line, unparsed, when nothing more than
    // the findings every document gets is asked.
    let apart = !options.asked.setter && !options.asked.against_solution;
    let each = |piece: Piece| {
        let index = LineIndex::piece(&piece.text, piece.base, piece.first_line);
        if let Some(parser) = &piece.one_liners {
            // Never a byte that was not UTF-8 in a piece of one-liners alone.
            debug_assert!(piece.invalid.is_none());
            let each = |finding: &Finding| {
                said += 1;
                out.finding(&name, &index, finding);
            };
            let count = one_liners::each_finding(&piece, parser, budget, each);
            puzzles += count;
            out.progress.add(count);
            out.flush();
            return;
        }
        let count = piece.document.puzzles.len();
        let unkept = piece.document.unkept;
        unread += piece.document.unread.len();
        let mut found =
            document_findings(piece.document, budget, &mut Cache::one_use(), options.asked);
        puzzles += count;
        if let (Some((byte, at)), false) = (piece.invalid, invalid_reported) {
            invalid_reported = true;
            let place = found.partition_point(|f| f.span.start <= at);
            found.insert(place, not_utf8(byte, at));
        }
        said += found.len() + unkept.total();
        for finding in &found {
            out.finding(&name, &index, finding);
        }
        out.not_kept(unkept);
        out.progress.add(count);
        out.flush();
    };
    // The reader a piece ahead only where the input is large enough to pay for its thread.
    let read = if input.may_exceed(read::LARGE_INPUT) {
        one_liners::start_pool();
        read::pieces_keeping_ahead(reader, options.max_file, keep, apart, each)
    } else {
        read::pieces_keeping(reader, options.max_file, keep, apart, each)
    };
    out.tally.puzzles += puzzles;
    out.tally.unread += unread;
    if puzzles == 0 && said == 0 && read.is_ok() {
        let message =
            "no puzzle found: a puzzle is a block of N rows of N cells, or one line of N² cells";
        let finding = Finding::warning(Code::Syntax, Span::new(0, 0), message);
        out.finding(&name, &LineIndex::new(""), &finding);
    }
    out.end_file(&name);
    read.map_err(|stop| format!("{name}: {}", stop.message()))
}

fn not_utf8(byte: u64, at: usize) -> Finding {
    let message = format!(
        "not valid UTF-8 from byte {byte} on: the file was read with U+FFFD in place of the bad bytes"
    );
    Finding::error(Code::Syntax, Span::new(at, at), message)
}

/// How many puzzles were checked and how many findings of each kind found (shown or not).
#[derive(Default)]
struct Tally {
    puzzles: usize,
    /// Grids not read, each for an error shown (`Document::unread`).
    unread: usize,
    counts: Counts,
    /// Findings past `--max-findings`, not shown.
    not_shown: usize,
}

/// What was shown of the input being checked.
#[derive(Default)]
struct FileShown {
    shown: usize,
    not_shown: usize,
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
    /// The most findings shown per input (`--max-findings`).
    max_findings: usize,
    file: FileShown,
    /// The inputs with findings not shown, and how many (for JSON and SARIF, said at the end).
    truncated: Vec<(String, usize)>,
    /// JSON findings written so far (a comma goes before every one but the first).
    written: usize,
    /// The codes of the SARIF results written: the log's rules.
    rules: std::collections::BTreeSet<&'static str>,
    /// Standard output could not be written: stop.
    broken: bool,
}

impl Printer {
    fn new(format: OutputFormat, max_findings: usize) -> Printer {
        let text = format == OutputFormat::Text;
        let mut printer = Printer {
            format,
            paint: if text { Paint::stdout() } else { Paint::off() },
            progress: Progress::new("puzzles checked", text),
            stdout: std::io::stdout(),
            pending: Vec::new(),
            tally: Tally::default(),
            max_findings,
            file: FileShown::default(),
            truncated: Vec::new(),
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

    /// Whether this format prints findings of this severity (only JSON has the hints).
    fn prints(&self, severity: Severity) -> bool {
        severity != Severity::Hint || self.format == OutputFormat::Json
    }

    /// Findings the parser counted but did not keep: past what can be shown.
    fn not_kept(&mut self, unkept: Counts) {
        self.tally.counts.add_all(unkept);
        let printed = unkept.total()
            - if self.prints(Severity::Hint) {
                0
            } else {
                unkept.hints
            };
        self.file.not_shown += printed;
    }

    fn finding(&mut self, name: &str, index: &LineIndex, finding: &Finding) {
        self.tally.counts.add(finding.severity);
        if !self.prints(finding.severity) {
            return;
        }
        if self.file.shown >= self.max_findings {
            self.file.not_shown += 1;
            return;
        }
        self.file.shown += 1;
        match self.format {
            OutputFormat::Text if finding.severity == Severity::Hint => {}
            OutputFormat::Text => {
                let mut line = String::new();
                report::write_line(&mut line, name, index, finding, self.paint);
                self.write(line.as_bytes());
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

    /// The end of an input: say how many of its findings were not shown, if any.
    fn end_file(&mut self, name: &str) {
        let hidden = std::mem::take(&mut self.file).not_shown;
        if hidden == 0 {
            return;
        }
        self.tally.not_shown += hidden;
        let message = not_shown_message(hidden, self.max_findings);
        if self.format == OutputFormat::Github {
            let line = report::github_notice(name, &message);
            self.write(format!("{line}\n").as_bytes());
        }
        if matches!(self.format, OutputFormat::Json | OutputFormat::Sarif) {
            self.truncated.push((name.to_string(), hidden));
        }
        let shown = style::printable(name);
        self.flush();
        self.progress.suspend(|| eprintln!("{shown}: {message}"));
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
                let truncated: Vec<serde_json::Value> = self
                    .truncated
                    .iter()
                    .map(|(path, n)| serde_json::json!({"path": path, "not_shown": n}))
                    .collect();
                let summary = serde_json::json!({
                    "files": files,
                    "puzzles": t.puzzles,
                    "unread": t.unread,
                    "errors": t.counts.errors,
                    "warnings": t.counts.warnings,
                    "notes": t.counts.notes,
                    "not_shown": t.not_shown,
                });
                let truncated = serde_json::Value::Array(truncated);
                let end = format!("\n],\"truncated\":{truncated},\"summary\":{summary}}}\n");
                self.write(end.as_bytes());
            }
            OutputFormat::Sarif => {
                let notices: Vec<(String, String)> = self
                    .truncated
                    .iter()
                    .map(|(path, n)| (path.clone(), not_shown_message(*n, self.max_findings)))
                    .collect();
                let tail = report::sarif_tail(&self.rules, &notices);
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

/// `checked 3 puzzles in 2 files: 1 error, 0 warnings` (and the grids not read, the notes
/// when there are any, and the findings not shown).
fn summary(files: usize, t: &Tally) -> String {
    let unread = match t.unread {
        0 => String::new(),
        1 => " (1 grid not read: its error says why)".to_owned(),
        n => format!(" ({n} grids not read: their errors say why)"),
    };
    let mut said = format!(
        "checked {} in {}{unread}: {}, {}",
        plural(t.puzzles, "puzzle"),
        plural(files, "file"),
        plural(t.counts.errors, "error"),
        plural(t.counts.warnings, "warning")
    );
    if t.counts.notes > 0 {
        said.push_str(&format!(", {}", plural(t.counts.notes, "note")));
    }
    if t.not_shown > 0 {
        said.push_str(&format!(" ({} not shown)", t.not_shown));
    }
    said
}

/// `12 more findings not shown (--max-findings 1000 per file)`.
fn not_shown_message(hidden: usize, max: usize) -> String {
    let more = if hidden == 1 { "finding" } else { "findings" };
    format!("{hidden} more {more} not shown (--max-findings {max} per file)")
}
