//! `sudoku-lsp check`: every finding of every input, one line each (or JSON), and an exit code
//! that CI can act on: 0 no errors, 1 any error, 2 a usage or I/O problem.

use serde_json::json;

use super::inputs::{self, Input};
use super::lines::LineIndex;
use super::report;
use crate::analysis::check_text;
use crate::engine::Budget;
use crate::finding::{Code, Finding, Severity, Span};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    Text,
    Json,
}

pub fn run(args: &[String], format: OutputFormat, max_nodes: u64) -> i32 {
    let paths = match inputs::collect(args) {
        Ok(paths) => paths,
        Err(message) => return super::fail(&message),
    };
    let budget = super::node_budget(max_nodes);
    let (mut errors, mut warnings, mut puzzles) = (0, 0, 0);
    let mut all_json = Vec::new();
    let all_read = inputs::each(&paths, |input| {
        let (found, count) = findings_of(&input, &budget);
        puzzles += count;
        let index = LineIndex::new(&input.text);
        for finding in &found {
            match finding.severity {
                Severity::Error => errors += 1,
                Severity::Warning => warnings += 1,
                _ => {}
            }
            match format {
                OutputFormat::Text if finding.severity != Severity::Hint => {
                    println!("{}", report::line(&input.name, &index, finding))
                }
                OutputFormat::Text => {}
                OutputFormat::Json => all_json.push(report::json(&input.name, &index, finding)),
            }
        }
    });
    match format {
        OutputFormat::Json => println!(
            "{}",
            json!({
                "findings": all_json,
                "summary": { "files": paths.len(), "puzzles": puzzles, "errors": errors, "warnings": warnings },
            })
        ),
        OutputFormat::Text => eprintln!("{}", summary(paths.len(), puzzles, errors, warnings)),
    }
    if !all_read {
        2
    } else if errors > 0 {
        1
    } else {
        0
    }
}

/// Every finding of one input in source order, and how many puzzles it holds.
fn findings_of(input: &Input, budget: &Budget) -> (Vec<Finding>, usize) {
    let checked = check_text(&input.text, budget);
    let mut found = checked.findings;
    if let Some(at) = input.invalid_utf8_at {
        let span = Span::new(at, at);
        let message = format!("not valid UTF-8 from byte {at} on: the file was read with U+FFFD in place of the bad bytes");
        found.insert(0, Finding::error(Code::Syntax, span, message));
    }
    let count = checked.document.puzzles.len();
    if count == 0 && found.is_empty() {
        let message =
            "no puzzle found: a puzzle is a block of N rows of N cells, or one line of N² cells";
        found.push(Finding::warning(Code::Syntax, Span::new(0, 0), message));
    }
    (found, count)
}

fn summary(files: usize, puzzles: usize, errors: usize, warnings: usize) -> String {
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    format!(
        "checked {} in {}: {}, {}",
        plural(puzzles, "puzzle"),
        plural(files, "file"),
        plural(errors, "error"),
        plural(warnings, "warning")
    )
}
