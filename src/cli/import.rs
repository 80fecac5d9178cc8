//! `sudoku-lsp import [--from FORMAT] [LINK|FILE|-]...`: f-puzzles, SudokuPad and sigh links,
//! bare payloads, f-puzzles JSON, sigh's constraint strings and the classic formats of other
//! programs (`convert::classic`) to `.sudoku` text on standard output, puzzles separated by a
//! blank line.
//!
//! An argument that looks like a link or JSON, or that names no file and is a line of a
//! classic format (a sigh constraint string is one), is one input; any other is a file (or
//! `-`, standard input) in a classic format (named by `--from`, the file's extension or its
//! shape), or holding one JSON object, or links one a line (blank lines and `#` comments
//! skipped), or `.sudoku` text already, written as it is. What an import keeps as a comment is
//! a warning on stderr; an input that cannot be imported is an error naming it (`PATH:LINE:`
//! or `argument N:`), and the others are still written; a part of an input that is damaged
//! (a sigh item with a cell outside the grid) is an error too, kept as a comment, and the rest
//! of its puzzle is written. Exit status: 0, 1 when an input was damaged, 2 when a file could
//! not be read.

use std::io::{Read, Write};

use super::inputs::Input;
use super::style::{self, Paint};
use crate::convert::classic::{self, Format};
use crate::convert::fpuzzles::Imported;
use crate::convert::links;
use crate::finding::Severity;

/// The most of one file read: links and JSON of puzzles are kilobytes, a `.sudoku` file to
/// export may be a large collection.
const MAX_INPUT: u64 = 256 << 20;

/// What went wrong over the run: the exit status's inputs.
#[derive(Default)]
struct Tally {
    imported: usize,
    damaged: usize,
    unreadable: usize,
}

pub fn run(args: &[String], from: Option<Format>) -> i32 {
    let mut tally = Tally::default();
    let mut out = std::io::stdout().lock();
    for (i, arg) in args.iter().enumerate() {
        let name = format!("argument {}", i + 1);
        if is_inline(arg) && from.is_none() {
            import_one(&name, arg, &mut out, &mut tally);
            continue;
        }
        let no_file = arg != "-" && !std::path::Path::new(arg).exists();
        if let Some(format) = from.or_else(|| classic::detect(arg)).filter(|_| no_file) {
            import_classic(&name, arg, format, &mut out, &mut tally);
            continue;
        }
        let input = if arg == "-" {
            Input::Stdin
        } else {
            Input::File(arg.into())
        };
        let format = from.or_else(|| {
            let extension = std::path::Path::new(arg).extension()?;
            Format::from_extension(extension.to_str()?)
        });
        match read_text(&input) {
            Ok(text) => match format.or_else(|| classic::detect(&text)) {
                Some(format) => import_classic(&input.name(), &text, format, &mut out, &mut tally),
                None => import_text(&input.name(), &text, &mut out, &mut tally),
            },
            Err(message) => {
                style::say_error(&message);
                tally.unreadable += 1;
            }
        }
    }
    let _ = out.flush();
    if tally.unreadable > 0 {
        2
    } else if tally.damaged > 0 {
        1
    } else {
        0
    }
}

/// Whether an argument is a link, payload or JSON rather than a file's name.
fn is_inline(arg: &str) -> bool {
    let arg = arg.trim();
    let lower = arg.to_ascii_lowercase();
    arg.starts_with('{')
        || arg.contains("://")
        || ["f-puzzles.com", "sudokupad.app", "sigh.github.io"]
            .iter()
            .any(|host| lower.contains(host))
}

/// An input's whole text (up to `MAX_INPUT` bytes), or why it cannot be read.
pub(super) fn read_text(input: &Input) -> Result<String, String> {
    let mut bytes = Vec::new();
    input
        .open_text()?
        .take(MAX_INPUT)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{}: cannot read: {e}", input.name()))?;
    String::from_utf8(bytes).map_err(|_| format!("{}: not UTF-8 text", input.name()))
}

/// A file's text: one JSON object, one link a line, or `.sudoku` text already (written as it
/// is: importing a `.sudoku` file gives it back).
fn import_text(name: &str, text: &str, out: &mut impl Write, tally: &mut Tally) {
    if is_sudoku_text(text) {
        let gap = if tally.imported > 0 { "\n" } else { "" };
        let _ = write!(out, "{gap}{text}");
        tally.imported += 1;
        return;
    }
    if text.trim_start().starts_with('{') {
        let start = text.len() - text.trim_start().len();
        let line = text[..start].matches('\n').count() + 1;
        import_one(&format!("{name}:{line}"), text, out, tally);
        return;
    }
    let mut any = false;
    for (index, line) in text.lines().enumerate() {
        if links::is_puzzle_line(line) {
            any = true;
            import_one(&format!("{name}:{}", index + 1), line, out, tally);
        }
    }
    if !any {
        say(name, Severity::Error, "no link or JSON in it");
        tally.damaged += 1;
    }
}

/// Whether a file is `.sudoku` text rather than links: it holds puzzles and no link.
fn is_sudoku_text(text: &str) -> bool {
    !text.trim_start().starts_with('{')
        && !text.lines().any(is_inline)
        && !crate::format::parse(text).puzzles.is_empty()
}

/// Import one link or JSON, writing its text (after a blank line, past the first puzzle).
fn import_one(name: &str, input: &str, out: &mut impl Write, tally: &mut Tally) {
    write_imported(name, links::import(input), out, tally);
}

/// Import every puzzle of a text in a classic format, each named by its line.
fn import_classic(name: &str, text: &str, format: Format, out: &mut impl Write, tally: &mut Tally) {
    let pieces = classic::import(text, format);
    if pieces.is_empty() {
        say(
            name,
            Severity::Error,
            &format!("no puzzle in it (read as {})", format.name()),
        );
        tally.damaged += 1;
    }
    for piece in pieces {
        let at = format!("{name}:{}", piece.line);
        let result = piece
            .result
            .map_err(|e| format!("{e} (read as {})", format.name()));
        write_imported(&at, result, out, tally);
    }
}

/// An imported puzzle's warnings and errors (its damaged parts, kept as comments) on stderr
/// and its text on stdout (after a blank line, past the first puzzle), or its error.
fn write_imported(
    name: &str,
    result: Result<Imported, String>,
    out: &mut impl Write,
    tally: &mut Tally,
) {
    match result {
        Ok(imported) => {
            for warning in &imported.warnings {
                say(name, Severity::Warning, warning);
            }
            for error in &imported.errors {
                say(name, Severity::Error, error);
            }
            if !imported.errors.is_empty() {
                tally.damaged += 1;
            }
            let gap = if tally.imported > 0 { "\n" } else { "" };
            let _ = write!(out, "{gap}{}", imported.text);
            tally.imported += 1;
        }
        Err(message) => {
            say(name, Severity::Error, &message);
            tally.damaged += 1;
        }
    }
}

/// `NAME: severity: MESSAGE` on stderr, as `check` prints its findings.
pub(super) fn say(name: &str, severity: Severity, message: &str) {
    let paint = Paint::stderr();
    eprintln!(
        "{}: {}: {}",
        paint.paint(style::PATH, style::printable(name)),
        paint.paint(style::severity(severity), severity.name()),
        style::printable(message)
    );
}
