//! `sudoku-lsp solve`: each input written back with every puzzle filled in, only its empty marks
//! changed. Exit 0 when every puzzle has exactly one solution, 1 otherwise, 2 for usage or I/O.

use std::io::Write;

use super::inputs::{self, Input};
use super::lines::LineIndex;
use super::report;
use crate::analysis::{analyze, Verdict};
use crate::engine::Budget;
use crate::finding::{Code, Finding, Severity};
use crate::format::{apply_edits, fill_edits, parse, Edit};

pub fn run(args: &[String], in_place: bool, max_nodes: u64) -> i32 {
    let paths = match inputs::collect(args) {
        Ok(paths) => paths,
        Err(message) => return super::fail(&message),
    };
    if in_place && paths.iter().any(|p| p.as_os_str() == "-") {
        return super::fail("--in-place cannot write back to standard input");
    }
    let budget = super::node_budget(max_nodes);
    let mut all_unique = true;
    let mut all_written = true;
    let all_read = inputs::each(&paths, |input| {
        let (output, unique) = solve_input(&input, &budget);
        all_unique &= unique;
        if let Err(message) = write_out(&input, &output, in_place, paths.len() > 1) {
            eprintln!("sudoku-lsp: {message}");
            all_written = false;
        }
    });
    if !all_read || !all_written {
        2
    } else if all_unique {
        0
    } else {
        1
    }
}

/// The solved text of one input (its bytes unchanged if they are not UTF-8), and whether every
/// puzzle in it had exactly one solution. Problems go to stderr as check prints them.
fn solve_input(input: &Input, budget: &Budget) -> (Vec<u8>, bool) {
    if let (Some(raw), Some(at)) = (&input.raw, input.invalid_utf8_at) {
        let index = LineIndex::new(&input.text);
        let (line, column) = index.line_column(at);
        eprintln!(
            "{}:{line}:{column}: error: not valid UTF-8: written back unchanged",
            input.name
        );
        return (raw.clone(), false);
    }
    let document = parse(&input.text);
    let index = LineIndex::new(&input.text);
    let mut unique = document
        .problems
        .iter()
        .all(|p| p.severity != Severity::Error);
    for problem in &document.problems {
        eprintln!("{}", report::line(&input.name, &index, problem));
    }
    let mut edits: Vec<Edit> = Vec::new();
    for puzzle in &document.puzzles {
        let analysis = analyze(puzzle.size, puzzle.variant, &puzzle.givens, budget);
        if let Some(solution) = analysis.verdict.solution() {
            edits.extend(fill_edits(puzzle, solution));
        }
        if !matches!(analysis.verdict, Verdict::Unique(_)) {
            unique = false;
            for finding in crate::analysis::findings(puzzle, &analysis) {
                eprintln!(
                    "{}",
                    report::line(&input.name, &index, &with_outcome(finding))
                );
            }
        }
    }
    (apply_edits(&input.text, &edits).into_bytes(), unique)
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

fn write_out(input: &Input, output: &[u8], in_place: bool, several: bool) -> Result<(), String> {
    if in_place {
        let path = input.path.as_ref().expect("stdin refused above");
        if output != input.text.as_bytes() {
            std::fs::write(path, output).map_err(|e| format!("{}: {e}", input.name))?;
        }
        return Ok(());
    }
    let mut stdout = std::io::stdout().lock();
    let result = if several {
        let newline: &[u8] = if output.ends_with(b"\n") || output.is_empty() {
            b""
        } else {
            b"\n"
        };
        writeln!(stdout, "==> {} <==", input.name)
            .and_then(|()| stdout.write_all(output))
            .and_then(|()| stdout.write_all(newline))
    } else {
        stdout.write_all(output)
    };
    result.map_err(|e| format!("cannot write standard output: {e}"))
}
