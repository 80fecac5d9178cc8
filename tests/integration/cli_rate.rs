//! `rate`, `explain` and `hint` run as a user would: the real binary, real files, stdout, stderr,
//! exit codes. The puzzles were generated with QQWing and rated by Sukaku Explainer 1.15.10's
//! `serate` (the reference): the ratings below are its.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

const XY_WING: &str =
    "........6.3..58..7.4........2...57...7.243...8...9..43..54..6..4....78.5.9.....3.";
const BUG: &str =
    ".3..4...52...9.1..8....3.7.419.5....5...7...2..7.1..4...2........1.2.7..9....4...";
const UNIQUE_RECTANGLE: &str =
    "5....39..........2...59..349....234...3....27....7.....2.9...5....14...819..2547.";
const DIRECT_HIDDEN_PAIR: &str =
    ".153.....67....2...39.......2..89.65....63..77.8...........5..8.5.12....9.6......";
/// An empty grid: more solutions than anyone counts.
const SEVERAL: &str =
    ".................................................................................";

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sudoku-lsp"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-rate-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(args: &[&str], path: &Path) -> (String, String, i32) {
    let output = bin()
        .args(args)
        .arg(path)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
        output.status.code().unwrap_or(-1),
    )
}

fn file_of(name: &str, puzzles: &[&str]) -> PathBuf {
    let path = scratch(name).join("puzzles.txt");
    std::fs::write(&path, puzzles.join("\n") + "\n").unwrap();
    path
}

#[test]
fn rate_gives_sudoku_explainers_rating_level_and_technique() {
    let path = file_of(
        "rate",
        &[XY_WING, BUG, UNIQUE_RECTANGLE, DIRECT_HIDDEN_PAIR],
    );
    let (stdout, stderr, code) = run(&["rate"], &path);
    assert_eq!(code, 0, "{stderr}");
    let name = path.display();
    let expected = [
        format!("{name}:1:1: 4.2 Hard (XY-wing)"),
        format!("{name}:2:1: 5.6 Diabolical (BUG)"),
        format!("{name}:3:1: 4.5 Hard (Unique rectangle)"),
        format!("{name}:4:1: 2.0 Medium (Direct hidden pair)"),
    ];
    assert_eq!(stdout.lines().collect::<Vec<_>>(), expected);
}

#[test]
fn rate_does_not_rate_a_puzzle_without_one_solution_and_exits_1() {
    let path = file_of("several", &[XY_WING, SEVERAL]);
    let (stdout, _, code) = run(&["rate"], &path);
    assert_eq!(code, 1);
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[0].ends_with("4.2 Hard (XY-wing)"), "{stdout}");
    assert!(
        lines[1].ends_with(": not rated: several solutions"),
        "{stdout}"
    );
    let (json, _, code) = run(&["rate", "--format", "json"], &path);
    assert_eq!(code, 1);
    let value: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value[0]["rating"], 4.2);
    assert_eq!(value[0]["level"], "Hard");
    assert_eq!(value[0]["technique"], "XY-wing");
    assert_eq!(value[0]["line"], 1);
    assert_eq!(value[1]["rating"], Value::Null);
    assert_eq!(value[1]["not_rated"], "several solutions");
}

/// Reads a cell name like `E5` into its index.
fn cell_index(name: &str) -> usize {
    let row = (name.as_bytes()[0] - b'A') as usize;
    let column: usize = name[1..].parse().unwrap();
    row * 9 + column - 1
}

#[test]
fn explain_json_replays_to_the_solution() {
    let path = file_of("explain", &[BUG]);
    let (stdout, stderr, code) = run(&["explain", "--format", "json"], &path);
    assert_eq!(code, 0, "{stderr}");
    let value: Value = serde_json::from_str(&stdout).unwrap();
    let puzzle = &value[0];
    assert_eq!(puzzle["rating"], 5.6);
    let steps = puzzle["steps"].as_array().unwrap();
    // Replay: placements fill the grid; candidates start as the givens allow and lose each
    // elimination, which must never be a digit placed later.
    let mut grid: Vec<u8> = BUG
        .bytes()
        .map(|b| if b == b'.' { 0 } else { b - b'0' })
        .collect();
    let mut eliminated = Vec::new();
    let mut hardest: f64 = 0.0;
    for step in steps {
        hardest = hardest.max(step["rating"].as_f64().unwrap());
        assert!(!step["text"].as_str().unwrap().is_empty());
        assert!(step["technique"].is_string());
        for p in step["placements"].as_array().unwrap() {
            let cell = cell_index(p["cell"].as_str().unwrap());
            assert_eq!(grid[cell], 0, "placed twice: {step}");
            grid[cell] = p["digit"].as_u64().unwrap() as u8;
        }
        for e in step["eliminations"].as_array().unwrap() {
            eliminated.push((
                cell_index(e["cell"].as_str().unwrap()),
                e["digit"].as_u64().unwrap() as u8,
            ));
        }
    }
    assert_eq!(hardest, 5.6);
    assert!(
        grid.iter().all(|&d| d != 0),
        "the replay did not fill the grid"
    );
    for (cell, digit) in eliminated {
        assert_ne!(
            grid[cell], digit,
            "an elimination removed the solution's digit"
        );
    }
    let (text, _, _) = run(&["explain"], &path);
    let mut lines = text.lines();
    assert!(lines.next().unwrap().contains("5.6 Diabolical (BUG), "));
    assert!(text.contains("] BUG type 1:"), "{text}");
}

#[test]
fn hint_gives_three_levels_of_the_next_step() {
    let path = file_of("hint", &[DIRECT_HIDDEN_PAIR]);
    let hint = |level: &str| {
        let (stdout, stderr, code) = run(&["hint", "--level", level], &path);
        assert_eq!(code, 0, "{stderr}");
        stdout
    };
    let (one, two, three) = (hint("1"), hint("2"), hint("3"));
    assert!(one.contains(": hint: look at "), "{one}");
    assert!(two.contains(": hint: look for a "), "{two}");
    assert!(three.len() > two.len(), "{three}");
    // The whole step names the cell it fills, which the first level does not give away.
    let (json, _, _) = run(&["hint", "--format", "json"], &path);
    let value: Value = serde_json::from_str(&json).unwrap();
    let placed = value[0]["hint"]["placements"][0]["cell"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(three.contains(&placed), "{three}");
    let (_, stderr, code) = run(&["hint", "--level", "4"], &path);
    assert_eq!(code, 2);
    assert!(stderr.contains("4"), "{stderr}");
}

#[test]
fn a_solved_grid_needs_no_hint() {
    let solved =
        "483921657967345821251876493548132976729564138136798245372689514814253769695417382";
    let path = file_of("solved", &[solved]);
    let (stdout, _, code) = run(&["hint"], &path);
    assert_eq!(code, 0);
    assert!(stdout.ends_with(": hint: already solved\n"), "{stdout}");
    let (stdout, _, _) = run(&["rate"], &path);
    assert!(
        stdout.ends_with(": 0.0 Easy (already solved)\n"),
        "{stdout}"
    );
}

#[test]
fn a_rating_stopped_before_its_first_step_says_no_step_was_found() {
    // One of the hardest known puzzles: its first step is a nested forcing chain (11.6), far
    // beyond a millisecond.
    let hardest =
        "1.3.....9..71.9....9.....4..1...7..3....2.8.....5...6.....6.5..6..8...2..7...4...";
    let path = file_of("hardest", &[hardest]);
    let (stdout, _, _) = run(&["rate", "--time-limit", "0.001"], &path);
    assert!(
        stdout.ends_with(
            ": >= 0.0 Easy (no step found); a lower bound: the solver ran out of its budget\n"
        ),
        "{stdout}"
    );
}
