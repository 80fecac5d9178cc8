//! `sudoku-lsp import` and `sudoku-lsp export`: links, payloads and JSON in, `.sudoku` text out
//! and back; every shipped variant file survives export then import byte for byte; damaged
//! inputs are errors naming the input and the place; Rangsk's 40 f-puzzles links (from the
//! shared data, when there) import, read without errors, and keep their solutions.

use serde_json::{json, Value};

use crate::common;
use common::cli::{bin, run, run_with_stdin, scratch, write};
use sudoku_lsp::convert::links::fpuzzles_link;
use sudoku_lsp::finding::Severity;
use sudoku_lsp::format::parse;

/// A 4×4 f-puzzles puzzle with a cage, a given and an entry.
fn tiny() -> Value {
    let mut grid = vec![vec![json!({}); 4]; 4];
    grid[3][3] = json!({"value": 4, "given": true});
    grid[0][2] = json!({"value": 3});
    json!({"size": 4, "title": "Tiny", "grid": grid, "killercage": [{"cells": ["R1C1", "R1C2"], "value": "3"}]})
}

const TINY_TEXT: &str = "\
# title: Tiny
cage 3: A1 A2
. . | +3 .
. . | . .
----+----
. . | . .
. . | . 4
";

fn error_lines(text: &str) -> Vec<String> {
    parse(text)
        .problems
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .map(|f| f.message.to_string())
        .collect()
}

#[test]
fn export_then_import_gives_every_shipped_variant_file_back() {
    for path in common::shipped_puzzles(&["variants"]) {
        let name = path.display().to_string();
        let (link, stderr, code) = run(bin().args(["export", "--to", "fpuzzles", &name]));
        // `negative: white` (every white dot given) and inequality signs are no f-puzzles
        // rules: refused with the lines named, not lost.
        let text = std::fs::read_to_string(&path).unwrap();
        let unsayable: Vec<&str> = text
            .lines()
            .filter(|l| {
                l.starts_with("inequality:") || l.starts_with("negative:") && l.contains("white")
            })
            .collect();
        if !unsayable.is_empty() {
            assert_eq!(code, 2, "{stderr}");
            for line in unsayable {
                assert!(stderr.contains(&format!("'{line}'")), "{line}: {stderr}");
            }
            continue;
        }
        assert_eq!((code, stderr.as_str()), (0, ""), "{name}");
        let (text, stderr, code) = run(bin().args(["import", link.trim()]));
        assert_eq!((code, stderr.as_str()), (0, ""), "{name}");
        assert_eq!(text, std::fs::read_to_string(&path).unwrap(), "{name}");
    }
}

#[test]
fn every_export_target_imports_back() {
    let dir = scratch("targets");
    let file = write(&dir, "tiny.sudoku", TINY_TEXT);
    for target in ["fpuzzles", "sudokupad", "fpuzzles-json"] {
        let (out, stderr, code) = run(bin().args(["export", "--to", target]).arg(&file));
        assert_eq!((code, stderr.as_str()), (0, ""), "{target}");
        if target == "fpuzzles-json" {
            assert_eq!(
                serde_json::from_str::<Value>(&out).unwrap()["killercage"],
                tiny()["killercage"]
            );
        }
        let (text, _, code) = run(bin().args(["import", out.trim()]));
        assert_eq!((code, text.as_str()), (0, TINY_TEXT), "{target}");
    }
}

#[test]
fn a_file_of_links_and_standard_input_import_puzzle_by_puzzle() {
    let dir = scratch("file");
    let link = fpuzzles_link(&tiny());
    let sudokupad = link.replace(
        "https://www.f-puzzles.com/?load=",
        "https://sudokupad.app/fpuzzles",
    );
    let links = write(
        &dir,
        "links.txt",
        &format!("# two puzzles\n{link}\n\n{sudokupad}\n"),
    );
    let (text, stderr, code) = run(bin().arg("import").arg(&links));
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert_eq!(text, format!("{TINY_TEXT}\n{TINY_TEXT}"));
    let (text, _, code) =
        run_with_stdin(bin().args(["import", "-"]), tiny().to_string().as_bytes());
    assert_eq!(
        (code, String::from_utf8(text).unwrap()),
        (0, TINY_TEXT.to_string())
    );
    let json = write(
        &dir,
        "tiny.json",
        &serde_json::to_string_pretty(&tiny()).unwrap(),
    );
    let (text, _, code) = run(bin().arg("import").arg(&json));
    assert_eq!((code, text.as_str()), (0, TINY_TEXT));
}

#[test]
fn damaged_inputs_are_errors_at_their_place_and_the_rest_is_written() {
    let dir = scratch("damaged");
    let link = fpuzzles_link(&tiny());
    let truncated = &link[..link.len() - 30];
    let mut outside = tiny();
    outside["killercage"][0]["cells"][1] = json!("R5C1");
    let file = write(
        &dir,
        "links.txt",
        &format!("{link}\n{truncated}\n{}\n", fpuzzles_link(&outside)),
    );
    let (text, stderr, code) = run(bin()
        .arg("import")
        .arg(&file)
        .arg("https://sudokupad.app/sclABCDEF"));
    assert_eq!(code, 1);
    assert_eq!(text, TINY_TEXT, "the good link is still written");
    let name = file.display();
    let said: Vec<&str> = stderr.lines().collect();
    assert_eq!(said.len(), 3, "{stderr}");
    assert!(
        said[0].starts_with(&format!("{name}:2: error: the link is damaged: ")),
        "{stderr}"
    );
    assert_eq!(
        said[1],
        format!("{name}:3: error: the link's puzzle: killercage[0].cells[1]: \"R5C1\" is outside this 4×4 grid")
    );
    // A SudokuPad link in its own format whose payload is no LZ-String.
    assert!(
        said[2].starts_with("argument 2: error: the link is damaged"),
        "{stderr}"
    );
    let (_, stderr, code) = run(bin().args(["import", "{\"size\": 4, \"grid\": {}}"]));
    assert_eq!(
        (code, stderr.trim()),
        (
            1,
            "argument 1: error: the JSON: grid: expected an array, found an object"
        )
    );
}

#[test]
fn export_refuses_what_f_puzzles_cannot_hold_and_counts_puzzles_from_one() {
    let dir = scratch("export");
    let text = format!(
        "{TINY_TEXT}\n# title: Less\ninequality: A1 < A2\n{}",
        &TINY_TEXT[28..]
    );
    let file = write(&dir, "two.sudoku", &text);
    let (out, stderr, code) = run(bin().args(["export", "--to", "fpuzzles"]).arg(&file));
    assert_eq!(code, 2);
    assert_eq!(out.lines().count(), 1, "the first puzzle is still written");
    assert!(
        stderr
            .contains(":9:1: error: not exported, f-puzzles cannot hold it: 'inequality: A1 < A2'"),
        "{stderr}"
    );
    let (out, _, code) = run(bin()
        .args(["export", "--to", "fpuzzles", "--puzzle", "1"])
        .arg(&file));
    assert_eq!((code, out.lines().count()), (0, 1));
    let (_, stderr, code) = run(bin()
        .args(["export", "--to", "fpuzzles", "--puzzle", "3"])
        .arg(&file));
    assert_eq!(code, 2);
    assert!(
        stderr.contains("has 2 puzzles (counted from 1)"),
        "{stderr}"
    );
}

/// Rangsk's 40 f-puzzles payloads, decoded, with their solutions (the shared data's
/// `variants/rangsk/fpuzzles_decoded.json`), when there.
/// Rangsk's f-puzzles test set, when `SUDOKU_LSP_VARIANT_DATA` names a folder holding
/// `rangsk/fpuzzles_decoded.json` (it is not among `../shared`'s collections, so CI's
/// `SUDOKU_LSP_REQUIRE_SHARED_DATA` does not ask for it).
fn rangsk() -> Option<Vec<Value>> {
    let Some(folder) = std::env::var_os("SUDOKU_LSP_VARIANT_DATA") else {
        eprintln!("skipped: SUDOKU_LSP_VARIANT_DATA names no folder of variant puzzles");
        return None;
    };
    let path = std::path::Path::new(&folder).join("rangsk/fpuzzles_decoded.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "SUDOKU_LSP_VARIANT_DATA: cannot read {}: {e}",
            path.display()
        )
    });
    let all: Value = serde_json::from_str(&text).unwrap();
    Some(all.as_array().unwrap().clone())
}

/// What this build cannot read yet: 7×7 grids (no size without regions).
fn not_yet(puzzle: &Value) -> bool {
    puzzle["size"] == 7
}

#[test]
fn rangsks_links_import_and_keep_their_solutions() {
    let Some(puzzles) = rangsk() else { return };
    let dir = scratch("rangsk");
    let links: Vec<String> = puzzles
        .iter()
        .map(|p| {
            format!(
                "https://www.f-puzzles.com/?load={}",
                p["payload"].as_str().unwrap()
            )
        })
        .collect();
    let file = write(&dir, "links.txt", &links.join("\n"));
    let (text, stderr, code) = run(bin().arg("import").arg(&file));
    let unsupported = puzzles.iter().filter(|p| p["size"] == 7).count();
    assert_eq!(stderr.matches(": error: ").count(), unsupported, "{stderr}");
    assert!(
        !stderr.contains("solution"),
        "every solution keeps its rules: {stderr}"
    );
    assert_eq!(code, if unsupported > 0 { 1 } else { 0 });
    assert_eq!(parse(&text).puzzles.len() + unsupported, puzzles.len());
    assert_eq!(error_lines(&text), Vec::<String>::new());
    export_and_import_again(&dir, &text);
    // Each solution filled in as givens: check finds no broken constraint.
    let solved: Vec<String> = puzzles
        .iter()
        .filter(|p| !not_yet(&p["puzzle"]) && !not_yet(p) && p["solution"].is_string())
        .filter_map(|p| filled(&p["puzzle"], p["solution"].as_str().unwrap()))
        .map(|filled| fpuzzles_link(&filled))
        .collect();
    let file = write(&dir, "solved.txt", &solved.join("\n"));
    let (text, stderr, code) = run(bin().arg("import").arg(&file));
    assert_eq!(code, 0, "{stderr}");
    let imported = write(&dir, "solved.sudoku", &text);
    let (out, stderr, code) = run(bin().arg("check").arg(&imported));
    assert_eq!(code, 0, "{out}{stderr}");
    assert!(!out.contains("error"), "{out}");
}

/// Imported text exported and imported again is the same text, puzzle by puzzle.
fn export_and_import_again(dir: &std::path::Path, text: &str) {
    let file = write(dir, "imported.sudoku", text);
    let (links, _, _) = run(bin().args(["export", "--to", "fpuzzles"]).arg(&file));
    let links = write(dir, "again.txt", &links);
    let (again, stderr, code) = run(bin().arg("import").arg(&links));
    assert_eq!(code, 0, "{stderr}");
    let expected: Vec<&str> = text.split("\n\n").collect();
    assert_eq!(again.split("\n\n").collect::<Vec<_>>(), expected);
}

/// The puzzle with every cell given its solution's digit (digits written one a character, or
/// comma-separated).
fn filled(puzzle: &Value, solution: &str) -> Option<Value> {
    let digits: Vec<u64> = if solution.contains(',') {
        solution
            .split(',')
            .map(|d| d.trim().parse().unwrap())
            .collect()
    } else {
        solution
            .chars()
            .map(|c| c.to_digit(36).unwrap() as u64)
            .collect()
    };
    let mut puzzle = puzzle.clone();
    let side = puzzle["size"].as_u64().unwrap() as usize;
    // A 16×16 solution written as decimals run together cannot be read back.
    if digits.len() != side * side {
        return None;
    }
    for (i, digit) in digits.iter().enumerate() {
        let cell = &mut puzzle["grid"][i / side][i % side];
        cell["value"] = json!(digit);
        cell["given"] = json!(true);
    }
    Some(puzzle)
}

/// A `.sudoku` file imports to itself: import is idempotent on its own format.
#[test]
fn a_sudoku_file_imports_to_itself() {
    for path in common::shipped_puzzles(&["variants"]) {
        let text = std::fs::read_to_string(&path).unwrap();
        let (out, err, code) = run(bin().arg("import").arg(&path));
        assert_eq!((code, err.as_str()), (0, ""), "{}", path.display());
        assert_eq!(out, text, "{}", path.display());
    }
}

/// `puzzles/easy.sudoku`'s puzzle as one line, and its solution.
const EASY: &str =
    "6...5418.31.968..748....63.8....324...74.9.6......69.....8...1.9....1..5...2.589.";

fn one_line_rows(cells: &str) -> String {
    cells
        .as_bytes()
        .chunks(9)
        .map(|row| format!("{}\n", std::str::from_utf8(row).unwrap()))
        .collect()
}

#[test]
fn classic_formats_import_by_extension_shape_or_from_and_say_where_they_are_damaged() {
    let dir = scratch("classic");
    // .sdk by its extension: the header letters with a key become metadata.
    let sdk = write(
        &dir,
        "puzzle.sdk",
        &format!(
            "#DA gentle start\n#ARuud\n#B03-08-2006\n{}",
            one_line_rows(EASY)
        ),
    );
    let (text, stderr, code) = run(bin().arg("import").arg(&sdk));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        text.starts_with("# title: A gentle start\n# author: Ruud\n# #B03-08-2006\n6 . . | . 5 4"),
        "{text}"
    );
    assert!(
        stderr.contains("puzzle.sdk:1: warning: kept as comments") && stderr.contains("#B (date)"),
        "{stderr}"
    );
    assert!(error_lines(&text).is_empty(), "{text}");
    // .sdm: a puzzle a line, each damaged one named by its line, the others written.
    let sdm = write(
        &dir,
        "many.sdm",
        &format!("{}\n{}\n", EASY.replace('.', "0"), &EASY[..80]),
    );
    let (text, stderr, code) = run(bin().arg("import").arg(&sdm));
    assert_eq!(code, 1);
    assert_eq!(text, format!("{EASY}\n"));
    assert!(
        stderr.contains("many.sdm:2: error: an .sdm line has 81 cells, this one 80 (read as sdm)"),
        "{stderr}"
    );
    // A HoDoKu line on standard input, known by its shape; `+` an entry.
    let hodoku = format!(":0000:x:6+7{}:::", &EASY[2..]);
    let (text, stderr, code) = run_with_stdin(bin().args(["import", "-"]), hodoku.as_bytes());
    let text = String::from_utf8(text).unwrap();
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert!(text.starts_with("6 +7 . | . 5 4"), "{text}");
    let short = format!(":0000:x:{}:::", &EASY[1..]);
    let (_, stderr, code) = run_with_stdin(bin().args(["import", "-"]), short.as_bytes());
    assert_eq!(code, 1);
    assert!(
        stderr.contains("-:1: error: the cells field has 81 cells, this one 80 (read as hodoku)"),
        "{stderr}"
    );
    // An 81-character killer as an argument.
    let killer =
        "G<<L<K<L<^G>^>^E^^>^IJ<G^<G^>^^I^<>^HC<C^<B^N^^G^<>^>^^E^<DF<^PG^<>^^J<^^<H<<>^>^";
    let (text, stderr, code) = run(bin().args(["import", killer]));
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert!(text.starts_with("cage 16: A1 A2 A3 B1\n"), "{text}");
    // A collection file opening with `#` comments is known by its first puzzle line.
    let collection = write(
        &dir,
        "killers.txt",
        &format!("# hard killers\n# from a forum\n{killer}\n"),
    );
    let (text, stderr, code) = run(bin().arg("import").arg(&collection));
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert!(text.starts_with("cage 16: A1 A2 A3 B1\n"), "{text}");
    // --from reads a file of another extension in the format named.
    let lines = write(&dir, "lines.txt", &format!("{EASY}\n"));
    let (text, stderr, code) = run(bin().args(["import", "--from", "sdm"]).arg(&lines));
    assert_eq!(
        (code, stderr.as_str(), text.as_str()),
        (0, "", format!("{EASY}\n").as_str())
    );
    let (_, stderr, code) = run(bin().args(["import", "--from", "nope", "x"]));
    assert_eq!(code, 2);
    assert!(
        stderr.contains("[possible values: sdk, sdm, sdx, ss, hodoku"),
        "{stderr}"
    );
}

#[test]
fn export_to_sdk_writes_one_classic_puzzle_that_imports_back() {
    let dir = scratch("sdk");
    let text = "# title: A gentle start\n# author: Ruud\n# source: SudoCue\n# difficulty: easy\n\
                6 . . | . 5 4 | 1 8 .\n3 1 . | 9 6 8 | . . 7\n4 8 . | . . . | 6 3 .\n\
                ------+-------+------\n8 . . | . . 3 | 2 4 .\n. . 7 | 4 . 9 | . 6 .\n\
                . . . | . . 6 | 9 . .\n------+-------+------\n. . . | 8 . . | . 1 .\n\
                9 . . | . . 1 | . . 5\n. . . | 2 . 5 | 8 9 .\n";
    let path = write(&dir, "easy.sudoku", text);
    let (sdk, stderr, code) = run(bin().args(["export", "--to", "sdk"]).arg(&path));
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert!(
        sdk.starts_with("#DA gentle start\n#ARuud\n#SSudoCue\n#Leasy\n6...5418.\n"),
        "{sdk}"
    );
    let back = write(&dir, "easy.sdk", &sdk);
    let (again, stderr, code) = run(bin().arg("import").arg(&back));
    assert_eq!((code, stderr.as_str(), again.as_str()), (0, "", text));
    // Entries are left out with a warning; a variant or several puzzles are refused.
    let entered = write(&dir, "entered.sudoku", &text.replacen("6 . .", "6 +2 .", 1));
    let (sdk, stderr, code) = run(bin().args(["export", "--to", "sdk"]).arg(&entered));
    assert_eq!(code, 0);
    assert!(sdk.contains("\n6...5418.\n"), "{sdk}");
    assert!(
        stderr.contains("warning: not in the .sdk file: the solver's entries"),
        "{stderr}"
    );
    let killer = common::shipped_puzzles(&["variants"])
        .into_iter()
        .find(|p| p.ends_with("killer.sudoku"))
        .unwrap();
    let (_, stderr, code) = run(bin().args(["export", "--to", "sdk"]).arg(&killer));
    assert_eq!(code, 2);
    assert!(
        stderr.contains("not exported: an .sdk file holds a classic puzzle"),
        "{stderr}"
    );
    let two = write(&dir, "two.sudoku", &format!("{EASY}\n{EASY}\n"));
    let (_, stderr, code) = run(bin().args(["export", "--to", "sdk"]).arg(&two));
    assert_eq!(code, 2);
    assert!(stderr.contains("choose one with --puzzle N"), "{stderr}");
}

// Rangsk's test puzzle "Boxes" (by clover!) through SudokuPad's own f-puzzles converter.
const BOXES: &str = "https://sudokupad.app/sclN4SwJgXA5AZgDgVwF5IDYFMwDYCcBDAvLAdmJwEYBmHGABiwCZ0AjWgVjq1tr1tIagAaAMYBnCG1oj0EANqzBipYoC6ghcqVqNmwdt2r1BvUYP6zp3eatqATjPmyptbVPKvBDbeUEv1P939PbQZfEMFA2VCvbSdBSg8AFg82b3i05KDU9VCEnMFMqMFU2KksD2IPAA408qDKoJr8uqKGoprYyjD1Lsiur3VE7tkhyKGB2TZhqcipmPVZLrzFgu0u7JH0wdXtjanlqcKpkoWulq62rqbNlqG2oeuplqm2qY6FrGHPyM+J4mH/pF/hMqsNQZFQfN5J9lp9Cp8Nv9lv9Cv8NqDlqDCqCTtDBC1Pm1Ptd/i1/m1/tdQS1QW1QR01MI8HJgAA3aAAFxAHIwEAABAAhAD2AA90KIoABfQRs6B4BAcgAWQts/OEqCFrPQtgAhFKZeyoLYEBhxHyAMocvAAOzAeFsYD5ogQYCFAGsEHzjaa+Xg4HBUABPAB0fIAOtaIwAREAAc25oj5IGtvr5TNj6D5AFs8IG+dahRyveg4Og8EWbY6swhREXnVm+RyhY3FZnWXhUAhM8mwCAmRzMHyABQgGB8uC2TXgTAASlDEejcYTSZTeD5AHdFdzM8IQLZ1Znq7Xff6y7YnUKs+hN9ruymlZmYEKEOfhOhUKhE87bJOELbk7GLY7nuB6hvqwB/iAACOXYQBygj1hA5A+G+chFBMuRrMEajssh0oQda0GwfBiHkEMqHyKEGyhOc+IqDhSGJPhkEwTIJEIFmSH/BRkx0eoCLaJ85QMeQxDMYRrFwQhHEQAwUg8XMgnBPx6QMXJ4lEWx0mceQoQ8Si2hYvRgi4QwGmSexOl6Q4mx+Js7giWZMoscR0hoaEbShNcFxYR05muQp0wREpdnfPR/laYhDAoTZLxKRSxTaKSSWCJUankBFUlRdZaEBGkEw+MsoR9MFalmWoQossIDAQAAxAAYiI5B1fJHJyEsagwOIZGCKq8HrhAtDBv8iqDcNggDtAlCAJAEiQRmw4HVXVjXCM1tWte1fFdYxvVSQNQ0jWN/yTVAiTTWwEZYItNUNU1LUiG1shCZ13VDH1gj7eNo0HRNMhQGw01YBGxDXctd3rQ9cgwi9O3vZ9h0/SdWDTcQEZVKDt2rfdwiPT4mTbT1cNHYI33jSd5DTQw83TTgGMrWtG28U0BNvXtxOk8df0U1T1oA7TkoqJKQA==";

#[test]
fn a_sudokupad_link_in_its_own_format_imports_its_cages_and_keeps_its_drawings() {
    let (text, stderr, code) = run(bin().args(["import", BOXES]));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        text.starts_with("# title: Boxes\n# author: clover!\n"),
        "{text}"
    );
    assert!(text.contains("\ncage 11: C3 C4 D3\n"), "{text}");
    assert!(error_lines(&text).is_empty(), "{text}");
    assert!(
        stderr.starts_with("argument 1: warning: kept as a comment: overlays (6), whose rule"),
        "{stderr}"
    );
}

/// sigh's link to a puzzle: two givens and a thermometer (as its solver writes one).
const SIGH_LINK: &str =
    "https://sigh.github.io/Interactive-Sudoku-Solver/?q=.~R1C1_5~R1C2_3.Thermo~R9C4~R8C3";

const SIGH_TEXT: &str = "\
thermo: I4 H3
5 3 . | . . . | . . .
. . . | . . . | . . .
. . . | . . . | . . .
------+-------+------
. . . | . . . | . . .
. . . | . . . | . . .
. . . | . . . | . . .
------+-------+------
. . . | . . . | . . .
. . . | . . . | . . .
. . . | . . . | . . .
";

#[test]
fn sigh_links_and_constraint_strings_import_and_what_has_no_line_is_said() {
    // The link, the same link as a browser encodes it, without its scheme, and its string
    // alone (known by its shape).
    let encoded = "https://sigh.github.io/Interactive-Sudoku-Solver/?q=.%7ER1C1_5%7ER1C2_3+.Thermo%7ER9C4%7ER8C3&mode=all";
    let bare = ".~R1C1_5~R1C2_3.Thermo~R9C4~R8C3";
    for input in [SIGH_LINK, encoded, &SIGH_LINK[8..], bare] {
        let (text, stderr, code) = run(bin().args(["import", input]));
        assert_eq!(
            (code, stderr.as_str(), text.as_str()),
            (0, "", SIGH_TEXT),
            "{input}"
        );
    }
    // A rule .sudoku has no line for: a comment, and a warning naming it.
    let (text, stderr, code) = run(bin().args(["import", ".~R1C1_5.SumLine~10~R1C2~R1C3"]));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        text.starts_with("# sigh: .SumLine~10~R1C2~R1C3\n5 . . | "),
        "{text}"
    );
    assert_eq!(
        stderr.trim(),
        "argument 1:1: warning: kept as a comment: character 9: .SumLine~10~R1C2~R1C3: \
         sigh's SumLine has no constraint line in .sudoku"
    );
    assert!(error_lines(&text).is_empty(), "{text}");
    // A damaged item: an error at its character, kept as a comment; the rest is written.
    let (text, stderr, code) = run(bin().args(["import", ".~R1C1_5.Cage~x~R1C2~R1C3"]));
    assert_eq!(code, 1);
    assert!(
        text.starts_with("# sigh: .Cage~x~R1C2~R1C3\n5 . . | "),
        "{text}"
    );
    assert_eq!(
        stderr.trim(),
        "argument 1:1: error: character 9: .Cage~x~R1C2~R1C3: the cage's sum 'x' is no whole \
         number (kept as a comment)"
    );
    // A file of strings, a puzzle a line, by its shape or named by --from.
    let dir = scratch("sigh");
    let strings = format!("{bare}\n.Shape~3x3\n");
    for (file, from) in [("puzzles.txt", None), ("puzzles.iss", Some("sigh"))] {
        let path = write(&dir, file, &strings);
        let mut command = bin();
        command.arg("import");
        if let Some(format) = from {
            command.args(["--from", format]);
        }
        let (text, stderr, code) = run(command.arg(&path));
        assert_eq!((code, text.as_str()), (1, SIGH_TEXT), "{stderr}");
        assert_eq!(
            stderr.trim(),
            format!(
                "{}:2: error: character 1: .Shape~3x3: a 3×3 grid is not a size sudoku-lsp \
                 reads (sizes: 4 to 16 or 25) (read as sigh)",
                path.display()
            )
        );
    }
}
