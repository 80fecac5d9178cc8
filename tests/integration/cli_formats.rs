//! `sudoku-lsp check --format github` and `--format sarif`, run as a CI job would: workflow
//! commands that annotate each finding's place (escaped as the runner reads them), and a SARIF
//! 2.1.0 log for code scanning with one result per finding of the text format, at the same
//! places, its rules the codes used; the same exit codes as the text format.

use crate::common;

use serde_json::Value;

use common::cli::{bin, run, scratch, write};

/// A conflict (two 5s in row A, A1 and A4) under a comment holding a non-ASCII character before it.
const CONFLICT: &str = "# title: ü\n5..|5..|...\n...|...|...\n...|...|...\n---+---+---\n...|...|...\n...|...|...\n...|...|...\n---+---+---\n...|...|...\n...|...|...\n...|...|..1\n";

#[test]
fn github_annotations_name_each_place_and_escape_what_would_end_them() {
    let dir = scratch("github");
    let path = write(&dir, "a,b: c.sudoku", CONFLICT);
    let (out, err, code) = run(bin().args(["check", "--format", "github"]).arg(&path));
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("2 errors"),
        "the summary stays on stderr: {err}"
    );
    let file = path
        .to_str()
        .unwrap()
        .replace(',', "%2C")
        .replace(':', "%3A");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            format!("::error file={file},line=2,col=1,endLine=2,endColumn=2,title=sudoku-lsp conflict::5 appears twice in row A: A1 and A4"),
            format!("::error file={file},line=2,col=5,endLine=2,endColumn=6,title=sudoku-lsp conflict::5 appears twice in row A: A4 and A1"),
        ]
    );
}

#[test]
fn github_notes_are_notices_and_a_clean_file_prints_nothing() {
    let dir = scratch("github-notes");
    let clean =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
    let path = write(&dir, "clean.sudoku", clean);
    let (out, _, code) = run(bin().args(["check", "--format", "github"]).arg(&path));
    assert_eq!((out.as_str(), code), ("", 0));
    let (out, _, code) = run(bin()
        .args(["check", "--setter", "--format", "github"])
        .arg(&path));
    assert_eq!(code, 0);
    assert!(
        !out.is_empty() && out.lines().all(|l| l.starts_with("::notice file=")),
        "{out}"
    );
}

fn sarif(args: &[&str]) -> (Value, i32) {
    let (out, err, code) = run(bin().args(["check", "--format", "sarif"]).args(args));
    let log = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}\n{err}"));
    (log, code)
}

#[test]
fn a_sarif_result_for_every_finding_of_the_text_format_at_its_place() {
    let (text, _, text_code) = run(bin().args(["check", "puzzles/broken/"]));
    let (log, code) = sarif(&["puzzles/broken/"]);
    assert_eq!(code, text_code);
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    assert_eq!(run["columnKind"], "unicodeCodePoints");
    assert_eq!(run["tool"]["driver"]["name"], "sudoku-lsp");
    let results = run["results"].as_array().unwrap();
    // PATH:LINE:COLUMN: LEVEL: MESSAGE, as the text format says it.
    let as_text: Vec<String> = results
        .iter()
        .map(|r| {
            let place = &r["locations"][0]["physicalLocation"];
            format!(
                "{}:{}:{}: {}: {}",
                place["artifactLocation"]["uri"].as_str().unwrap(),
                place["region"]["startLine"],
                place["region"]["startColumn"],
                r["level"].as_str().unwrap(),
                r["message"]["text"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(as_text, text.lines().collect::<Vec<_>>());
    let rules: Vec<&str> = run["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    for result in results {
        assert!(rules.contains(&result["ruleId"].as_str().unwrap()));
    }
    assert!(
        rules.windows(2).all(|w| w[0] < w[1]),
        "each rule once: {rules:?}"
    );
}

#[test]
fn sarif_places_count_characters_and_encode_paths() {
    let dir = scratch("sarif");
    let path = write(&dir, "with space ü.sudoku", CONFLICT);
    let (log, code) = sarif(&[path.to_str().unwrap()]);
    assert_eq!(code, 1);
    let result = &log["runs"][0]["results"][0];
    let place = &result["locations"][0]["physicalLocation"];
    let uri = place["artifactLocation"]["uri"].as_str().unwrap();
    assert!(uri.starts_with("file:///"), "{uri}");
    assert!(uri.ends_with("/with%20space%20%C3%BC.sudoku"), "{uri}");
    assert_eq!(
        place["region"],
        serde_json::json!({"startLine": 2, "startColumn": 1, "endLine": 2, "endColumn": 2})
    );
    let related = &result["relatedLocations"][0];
    assert_eq!(related["physicalLocation"]["region"]["startColumn"], 5);
    assert!(related["message"]["text"].as_str().unwrap().contains("A4"));
    // Nothing found: an empty run, still a whole log; exit 0.
    let clean = write(
        &dir,
        "clean.sudoku",
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n",
    );
    let (log, code) = sarif(&[clean.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(log["runs"][0]["results"], serde_json::json!([]));
}
