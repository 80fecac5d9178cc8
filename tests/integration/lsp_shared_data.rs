//! The two faces agree: the language server's diagnostics for the public collections in
//! `../shared/data` (and for copies with errors planted in them) are exactly what
//! `sudoku-lsp check --format json` reports, position for position (in UTF-32, LSP's character
//! count is the CLI's column minus one). Skipped with a message when the data is absent.

use crate::common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::{capabilities_with_encodings, Server};
use serde_json::{json, Value};

/// The CLI's findings for a text, as comparable tuples.
fn cli_findings(text: &str) -> Vec<Value> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku-lsp"))
        .args(["check", "--format", "json", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run check");
    let mut stdin = child.stdin.take().unwrap();
    let input = text.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("check output");
    writer.join().unwrap().expect("write to check");
    let report: Value = serde_json::from_slice(&output.stdout).expect("check prints JSON");
    let severity = |s: &Value| match s.as_str().unwrap() {
        "error" => 1,
        "warning" => 2,
        "note" | "info" => 3,
        _ => 4,
    };
    let at = |line: &Value, column: &Value| json!({"line": line.as_u64().unwrap() - 1, "character": column.as_u64().unwrap() - 1});
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let related: Vec<Value> = f["related"]
                .as_array()
                .map(|r| {
                    r.iter()
                        .map(|r| json!([at(&r["line"], &r["column"]), r["message"]]))
                        .collect()
                })
                .unwrap_or_default();
            json!({
                "code": f["code"],
                "severity": severity(&f["severity"]),
                "message": f["message"],
                "start": at(&f["line"], &f["column"]),
                "end": at(&f["end_line"], &f["end_column"]),
                "related": related,
            })
        })
        .collect()
}

/// The server's diagnostics in the same shape.
fn lsp_findings(diagnostics: &[Value]) -> Vec<Value> {
    diagnostics
        .iter()
        .map(|d| {
            let related: Vec<Value> = d["relatedInformation"]
                .as_array()
                .map(|r| {
                    r.iter()
                        .map(|r| json!([r["location"]["range"]["start"], r["message"]]))
                        .collect()
                })
                .unwrap_or_default();
            json!({
                "code": d["code"],
                "severity": d["severity"],
                "message": d["message"],
                "start": d["range"]["start"],
                "end": d["range"]["end"],
                "related": related,
            })
        })
        .collect()
}

/// Plant errors: a stray character, a short line, a repeated digit, every few puzzles.
fn with_errors(text: &str) -> String {
    let mut out = String::new();
    for (i, line) in text.lines().enumerate() {
        let mut line = line.to_string();
        let is_puzzle = line.len() >= 81 && !line.starts_with('#');
        match i % 23 {
            3 if is_puzzle => line.replace_range(10..11, "x"),
            7 if is_puzzle => line.replace_range(40..41, ""),
            11 if is_puzzle => {
                if let Some(digit) = line[1..9].chars().find(char::is_ascii_digit) {
                    line.replace_range(0..1, &digit.to_string());
                }
            }
            _ => {}
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[test]
fn the_server_and_check_agree_on_the_shared_collections() {
    if common::shared_data().is_none() {
        return;
    }
    let mut server = Server::spawn();
    server.initialize(capabilities_with_encodings(&["utf-32"]));
    // Debug builds are slow: a slice of the large files is plenty to compare the faces.
    for (file, lines) in [
        ("norvig_hardest.txt", usize::MAX),
        ("forum_hardest_1106.txt", usize::MAX),
        ("serg_multi_solution_10000.txt", 400),
        ("sudoku17.txt", 400),
    ] {
        let Some(text) = common::shared_file(file) else {
            continue;
        };
        let text: String = text.lines().take(lines).flat_map(|l| [l, "\n"]).collect();
        for (variant, text) in [("as is", text.clone()), ("with errors", with_errors(&text))] {
            let uri = format!("file:///shared/{file}/{}", variant.replace(' ', "-"));
            let diagnostics = server.open_and_check(&uri, &text);
            let expected = cli_findings(&text);
            let got = lsp_findings(&diagnostics);
            assert_eq!(got.len(), expected.len(), "{file} {variant}: counts differ");
            for (got, expected) in got.iter().zip(&expected) {
                assert_eq!(got, expected, "{file} {variant}");
            }
            if variant == "with errors" {
                assert!(
                    got.iter().any(|f| f["code"] == "syntax"),
                    "{file}: errors were planted"
                );
            }
            server.close(&uri);
        }
    }
    assert_eq!(server.shutdown_and_exit(), Some(0));
}
