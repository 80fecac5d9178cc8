//! `sudoku-lsp export --to fpuzzles|sudokupad|fpuzzles-json|sdk PATH [--puzzle N]`: each puzzle
//! of a `.sudoku` file as an f-puzzles link, a SudokuPad link or f-puzzles JSON, one a line; or
//! one classic 9×9 puzzle as SudoCue's `.sdk` file (a file holds one: `--puzzle N` picks it).
//!
//! A puzzle with a constraint f-puzzles cannot hold (an inequality, `negative: white`) is not
//! written: an error names the line and what would be lost (exit 2), as a lossy link would
//! mislead whoever solves it. Puzzles the file's errors leave unread are not written either
//! (exit 1; `sudoku-lsp check` says why).

use std::io::Write;

use super::import::{read_text, say};
use super::inputs::Input;
use super::lines::LineIndex;
use super::style;
use crate::convert::{classic, fpuzzles, links};
use crate::finding::Severity;
use crate::format::{parse, Puzzle};

/// What `--to` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Target {
    /// `https://www.f-puzzles.com/?load=…`
    Fpuzzles,
    /// `https://sudokupad.app/fpuzzles…` (SudokuPad converts the f-puzzles puzzle itself).
    Sudokupad,
    /// The f-puzzles JSON itself, one object a line.
    FpuzzlesJson,
    /// SudoCue's `.sdk` file of one classic 9×9 puzzle: `#D` title, `#A` author, `#S` source,
    /// `#L` difficulty, then the givens in nine rows.
    Sdk,
}

pub fn run(path: &str, target: Target, only: Option<usize>) -> i32 {
    let input = if path == "-" {
        Input::Stdin
    } else {
        Input::File(path.into())
    };
    let text = match read_text(&input) {
        Ok(text) => text,
        Err(message) => {
            style::say_error(&message);
            return 2;
        }
    };
    let name = input.name();
    let document = parse(&text);
    let index = LineIndex::new(&text);
    let mut code = 0;
    let errors = document
        .problems
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    if errors > 0 {
        let plural = if errors == 1 { "" } else { "s" };
        say(&name, Severity::Error, &format!(
            "{errors} error{plural}: puzzles they leave unread are not exported (`sudoku-lsp check {name}` says where)"
        ));
        code = 1;
    }
    let chosen: Vec<&Puzzle> = match only {
        Some(n) if n == 0 || n > document.puzzles.len() => {
            style::say_error(&format!(
                "--puzzle {n}: {name} has {} puzzle{} (counted from 1)",
                document.puzzles.len(),
                if document.puzzles.len() == 1 { "" } else { "s" }
            ));
            return 2;
        }
        Some(n) => vec![&document.puzzles[n - 1]],
        None => document.puzzles.iter().collect(),
    };
    if chosen.is_empty() {
        say(&name, Severity::Error, "no puzzle to export");
        return code.max(1);
    }
    let mut out = std::io::stdout().lock();
    if target == Target::Sdk {
        return code.max(sdk(&name, &index, &chosen, &mut out));
    }
    for puzzle in chosen {
        let exported = fpuzzles::export(&text, &document, puzzle);
        if !exported.lost.is_empty() {
            let (line, column) = index.line_column(puzzle.anchor().start);
            let place = format!("{name}:{line}:{column}");
            for lost in &exported.lost {
                say(
                    &place,
                    Severity::Error,
                    &format!("not exported, f-puzzles cannot hold it: {lost}"),
                );
            }
            code = 2;
            continue;
        }
        let written = match target {
            Target::Fpuzzles => links::fpuzzles_link(&exported.json),
            Target::Sudokupad => links::sudokupad_link(&exported.json),
            // `Sdk` is written by `sdk` before this loop.
            Target::FpuzzlesJson | Target::Sdk => exported.json.to_string(),
        };
        let _ = writeln!(out, "{written}");
    }
    let _ = out.flush();
    code
}

/// The one puzzle chosen as an `.sdk` file; an error for several, or for a puzzle `.sdk` cannot
/// hold (exit 2).
fn sdk(name: &str, index: &LineIndex, chosen: &[&Puzzle], out: &mut impl Write) -> i32 {
    if chosen.len() > 1 {
        say(
            name,
            Severity::Error,
            &format!(
                "an .sdk file holds one puzzle and {name} has {}: choose one with --puzzle N",
                chosen.len()
            ),
        );
        return 2;
    }
    let puzzle = chosen[0];
    let (line, column) = index.line_column(puzzle.anchor().start);
    let place = format!("{name}:{line}:{column}");
    match classic::export_sdk(puzzle) {
        Ok((text, left_out)) => {
            for what in left_out {
                say(
                    &place,
                    Severity::Warning,
                    &format!("not in the .sdk file: {what}"),
                );
            }
            let _ = out.write_all(text.as_bytes());
            let _ = out.flush();
            0
        }
        Err(message) => {
            say(&place, Severity::Error, &format!("not exported: {message}"));
            2
        }
    }
}
