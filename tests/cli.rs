//! `check` and `solve` run as a user would: the real binary, real files, stdout, stderr, exit codes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
const EASY_SOLVED: &str =
    "483921657967345821251876493548132976729564138136798245372689514814253769695417382";

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sudoku-lsp"))
}

/// A fresh folder for one test, under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(&path, text).unwrap();
    path
}

fn run(cmd: &mut Command) -> (String, String, i32) {
    let Output {
        stdout,
        stderr,
        status,
    } = cmd.stdin(Stdio::null()).output().unwrap();
    (
        String::from_utf8(stdout).unwrap(),
        String::from_utf8(stderr).unwrap(),
        status.code().unwrap_or(-1),
    )
}

/// The easy puzzle as a 9-row block in the display style.
fn display(line: &str) -> String {
    let mut out = String::new();
    for (r, row) in line.as_bytes().chunks(9).enumerate() {
        if r == 3 || r == 6 {
            out.push_str("------+-------+------\n");
        }
        let cells: Vec<String> = row.iter().map(|&b| (b as char).to_string()).collect();
        out.push_str(&format!(
            "{} | {} | {}\n",
            cells[0..3].join(" "),
            cells[3..6].join(" "),
            cells[6..9].join(" ")
        ));
    }
    out
}

#[test]
fn check_sound_puzzle_prints_nothing_and_exits_0() {
    let dir = scratch("sound");
    let path = write(
        &dir,
        "easy.sudoku",
        &format!("# title: Easy\n{}", display(EASY)),
    );
    let (stdout, stderr, code) = run(bin().arg("check").arg(&path));
    assert_eq!(stdout, "");
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("checked 1 puzzle in 1 file: 0 errors, 0 warnings"),
        "{stderr}"
    );
}

#[test]
fn check_reports_a_conflict_at_both_cells() {
    let dir = scratch("conflict");
    let mut grid = EASY.to_string();
    grid.replace_range(0..1, "6"); // A1 = 6, and A7 is already 6
    let path = write(&dir, "bad.sudoku", &format!("{grid}\n"));
    let (stdout, _, code) = run(bin().arg("check").arg(&path));
    let name = path.display();
    assert_eq!(
        stdout,
        format!(
            "{name}:1:1: error: 6 appears twice in row A: A1 and A7\n\
             {name}:1:7: error: 6 appears twice in row A: A7 and A1\n"
        )
    );
    assert_eq!(code, 1);
}

#[test]
fn check_columns_count_characters() {
    let dir = scratch("columns");
    // The stray emoji is the 7th character of its line, though the 7th..10th bytes.
    let mut text = display(EASY);
    text.insert_str(0, "# title: 😀 smile\n");
    let text = text.replacen(". . 3 | . 2 . | 6 . .", ". . 3 😀 . 2 . | 6 . .", 1);
    let path = write(&dir, "emoji.sudoku", &text);
    let (stdout, _, code) = run(bin().arg("check").arg(&path));
    assert!(
        stdout.starts_with(&format!("{}:2:7: error: ", path.display())),
        "{stdout}"
    );
    assert_eq!(code, 1);
}

#[test]
fn check_several_solutions_is_a_warning() {
    let dir = scratch("several");
    let mut grid = EASY.to_string();
    // Empty a whole row's givens: now more than one way to fill it.
    grid.replace_range(0..27, &".".repeat(27));
    let path = write(&dir, "several.sudoku", &format!("{grid}\n"));
    let (stdout, _, code) = run(bin().arg("check").arg(&path));
    assert!(
        stdout.contains(":1:1: warning: several solutions: "),
        "{stdout}"
    );
    assert_eq!(code, 0);
}

#[test]
fn check_json_for_machines() {
    let dir = scratch("json");
    let mut grid = EASY.to_string();
    grid.replace_range(0..1, "6");
    let path = write(&dir, "bad.sudoku", &format!("{grid}\n"));
    let (stdout, _, code) = run(bin().args(["check", "--format", "json"]).arg(&path));
    let value: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let first = &value["findings"][0];
    assert_eq!(first["line"], 1);
    assert_eq!(first["column"], 1);
    assert_eq!(first["end_column"], 2);
    assert_eq!(first["severity"], "error");
    assert_eq!(first["code"], "conflict");
    assert_eq!(first["related"][0]["column"], 7);
    assert_eq!(value["summary"]["errors"], 2);
    assert_eq!(value["summary"]["puzzles"], 1);
    assert_eq!(code, 1);
}

#[test]
fn check_walks_folders_for_sudoku_files_and_reads_stdin() {
    let dir = scratch("walk");
    write(&dir, "a.sudoku", &format!("{EASY}\n"));
    write(
        &dir,
        "deeper/b.sudoku",
        &format!("{}\n", EASY.replacen('.', "3", 1)),
    );
    write(&dir, "notes.txt", "not a puzzle: x x x");
    let (stdout, stderr, code) = run(bin().arg("check").arg(&dir));
    assert!(
        stdout.contains("deeper/b.sudoku:1:1: error: 3 appears twice"),
        "{stdout}"
    );
    assert!(!stdout.contains("notes.txt"));
    assert!(stderr.contains("checked 2 puzzles in 2 files"), "{stderr}");
    assert_eq!(code, 1);

    let mut child = bin()
        .args(["check", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(format!("{EASY}\n").as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn usage_and_io_problems_exit_2() {
    let (_, stderr, code) = run(bin().args(["check", "/nonexistent/file.sudoku"]));
    assert_eq!(code, 2);
    assert!(
        stderr.contains("/nonexistent/file.sudoku: no such file"),
        "{stderr}"
    );
    let (_, _, code) = run(bin().args(["check", "--format", "yaml", "x"]));
    assert_eq!(code, 2);
    let (_, _, code) = run(bin().args(["frobnicate"]));
    assert_eq!(code, 2);
}

#[test]
fn solve_fills_only_empty_marks_keeping_layout() {
    let dir = scratch("solve");
    let text = format!("# title: Easy\n# a comment 😀\r\n{}\n", display(EASY));
    let path = write(&dir, "easy.sudoku", &text);
    let (stdout, stderr, code) = run(bin().arg("solve").arg(&path));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stdout,
        format!(
            "# title: Easy\n# a comment 😀\r\n{}\n",
            display(EASY_SOLVED)
        )
    );
}

#[test]
fn solve_a_collection_line_by_line_keeping_trailing_text() {
    let dir = scratch("collection");
    let text = format!("{EASY}  rated 1.2 easy\n{EASY}\n");
    let path = write(&dir, "many.sudoku", &text);
    let (stdout, _, code) = run(bin().arg("solve").arg(&path));
    assert_eq!(
        stdout,
        format!("{EASY_SOLVED}  rated 1.2 easy\n{EASY_SOLVED}\n")
    );
    assert_eq!(code, 0);
}

#[test]
fn solve_leaves_unsolvable_puzzles_unchanged_and_says_so() {
    let dir = scratch("unsolvable");
    let mut grid = EASY.to_string();
    grid.replace_range(0..1, "6");
    let text = format!("{grid}\n{EASY}\n");
    let path = write(&dir, "mixed.sudoku", &text);
    let (stdout, stderr, code) = run(bin().arg("solve").arg(&path));
    assert_eq!(stdout, format!("{grid}\n{EASY_SOLVED}\n"));
    assert!(
        stderr.contains(":1:1: error: 6 appears twice in row A"),
        "{stderr}"
    );
    assert!(stderr.contains("(left unchanged)"), "{stderr}");
    assert_eq!(code, 1);
}

#[test]
fn solve_in_place_writes_the_file() {
    let dir = scratch("in-place");
    let path = write(&dir, "easy.sudoku", &format!("{EASY}\n"));
    let (stdout, _, code) = run(bin().args(["solve", "--in-place"]).arg(&path));
    assert_eq!((stdout.as_str(), code), ("", 0));
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        format!("{EASY_SOLVED}\n")
    );
}

#[test]
fn shipped_puzzles_check_as_their_comments_say() {
    let puzzles = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles");
    let (stdout, _, code) = run(bin().arg("check").arg(&puzzles));
    assert_eq!(code, 1, "the broken examples make check fail");
    for line in stdout.lines() {
        assert!(
            line.contains("/broken/"),
            "only the broken examples have findings: {line}"
        );
    }
    let (stdout, stderr, code) = run(bin().arg("check").arg(puzzles.join("broken")));
    assert_eq!(code, 1, "{stderr}");
    for code in [
        "conflict",
        "impossible-cell",
        "no-solution",
        "several-solutions",
        "row-length",
        "block-height",
    ] {
        let (json, _, _) = run(bin()
            .args(["check", "--format", "json"])
            .arg(puzzles.join("broken")));
        assert!(
            json.contains(&format!("\"code\":\"{code}\"")),
            "no {code} among the broken examples:\n{stdout}"
        );
    }
}

#[test]
fn bench_times_a_file_of_one_line_puzzles_with_their_verdicts() {
    let dir = scratch("bench-file");
    // The easy puzzle, the same with row A emptied (several solutions), a comment, a blank line
    // and a CRLF line end.
    let mut several = EASY.to_string();
    several.replace_range(0..9, ".........");
    let file = write(
        &dir,
        "set.txt",
        &format!("# two puzzles\n{EASY}\n\n{several}\r\n"),
    );
    let (stdout, stderr, code) = run(bin().arg("bench").arg(&file));
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("set.txt (best of "), "{stdout}");
    assert!(
        stdout.contains("2 puzzles") && stdout.contains("unique 1, several 1, none 0"),
        "{stdout}"
    );
    assert!(
        stdout.contains("µs/puzzle") && stdout.contains("puzzles/s"),
        "{stdout}"
    );
}

#[test]
fn bench_names_each_file_it_cannot_time_and_times_the_others() {
    let dir = scratch("bench-problems");
    let good = write(&dir, "good.txt", &format!("{EASY}\n"));
    let grid = write(&dir, "grid.sudoku", &display(EASY));
    // A folder: an I/O problem (exit 2), with a hint; the good file is still timed.
    let (stdout, stderr, code) = run(bin().arg("bench").arg(&dir).arg(&good));
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("is a folder: bench times files of one-line puzzles"),
        "{stderr}"
    );
    assert!(
        stdout.contains("good.txt") && stdout.contains("1 puzzles"),
        "{stdout}"
    );
    // A file with no one-line puzzle (a 9-row grid): exit 1, saying what bench reads.
    let (_, stderr, code) = run(bin().arg("bench").arg(&grid));
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("grid.sudoku: no puzzle to time")
            && stderr.contains("none of its 11 lines"),
        "{stderr}"
    );
    // A missing file: exit 2, named.
    let missing = dir.join("missing.txt");
    let (_, stderr, code) = run(bin().arg("bench").arg(&missing));
    assert_eq!(code, 2);
    assert!(stderr.contains("missing.txt: cannot read"), "{stderr}");
}
