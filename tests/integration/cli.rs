//! `check` and `solve` run as a user would: the real binary, real files, stdout, stderr, exit codes.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

#[cfg(unix)]
use common::cli::run_in_memory;
#[cfg(unix)]
use common::cli::unprivileged;
use common::cli::{bin, run, run_with_stdin, scratch, write};

const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
const EASY_SOLVED: &str =
    "483921657967345821251876493548132976729564138136798245372689514814253769695417382";

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
        .stderr(Stdio::piped())
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
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("checked 1 puzzle in 1 file"), "{stderr}");
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
        stdout.contains("good.txt") && stdout.contains(": 1 puzzle, "),
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
    assert!(
        stderr.contains("sudoku-lsp: error: ") && stderr.contains("missing.txt: no such file"),
        "{stderr}"
    );
}

/// The shipped diagonal puzzle as one line: unique as a diagonal sudoku, several as a classic.
const DIAGONAL: &str =
    "2.............62....1....7...6..8...3...9...7...6..4...4....8....52.............3";

#[test]
fn bench_reads_the_variant_from_the_metadata() {
    let dir = scratch("bench-variant");
    let file = write(
        &dir,
        "diagonal.txt",
        &format!("# variant: diagonal\n\n{DIAGONAL}\n"),
    );
    let (stdout, stderr, code) = run(bin().arg("bench").arg(&file));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains(": 1 puzzle, ") && stdout.contains("unique 1, several 0"),
        "{stdout}"
    );
    // A `diagonal` constraint line says the same; a windoku is not timed, and said so.
    let file = write(
        &dir,
        "lines.txt",
        &format!("diagonal\n{DIAGONAL}\n\nwindoku\n{DIAGONAL}\n"),
    );
    let (stdout, stderr, code) = run(bin().arg("bench").arg(&file));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains(": 1 puzzle, ")
            && stdout.contains("unique 1, several 0")
            && stdout.contains("1 puzzle of a variant only the general engine solves"),
        "{stdout}"
    );
    let file = write(&dir, "windoku.txt", &format!("windoku\n{DIAGONAL}\n"));
    let (_, stderr, code) = run(bin().arg("bench").arg(&file));
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("no puzzle to time")
            && stderr.contains("1 puzzle of a variant only the general engine solves (windoku, disjoint groups, one diagonal) not timed; 1 other line is not one"),
        "{stderr}"
    );
}

/// The shipped 16×16 written with digits `0`–`F` (each one lower), `.` for empty cells.
fn sixteen_zero_to_f() -> String {
    let ours =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/16x16.sudoku"))
            .unwrap();
    let lower = |c: char| match c {
        '1'..='9' | 'B'..='G' => (c as u8 - 1) as char,
        'A' => '9',
        _ => c,
    };
    ours.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.chars().map(lower).collect::<String>() + "\n")
        .collect()
}

#[test]
fn a_16x16_in_digits_0_to_f_is_said_not_read_as_several_solutions() {
    let dir = scratch("zero-to-f");
    let text = sixteen_zero_to_f();
    assert!(text.contains('0') && !text.contains('G'), "{text}");
    let path = write(&dir, "hex.sudoku", &text);
    let (stdout, stderr, code) = run(bin().arg("check").arg(&path));
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stdout.contains("hex.sudoku:1:1: error: this 16×16 puzzle writes its digits 0–F"),
        "{stdout}"
    );
    assert!(!stdout.contains("solutions"), "{stdout}");
    // As one line too; solving leaves it as it is.
    let line: String = text
        .lines()
        .flat_map(|l| l.chars().filter(|c| !" |-+".contains(*c)))
        .collect();
    assert_eq!(line.len(), 256, "{line}");
    let path = write(&dir, "line.sudoku", &format!("{line}\n"));
    let (stdout, stderr, code) = run(bin().arg("solve").arg(&path));
    assert_eq!((code, stdout), (1, format!("{line}\n")), "{stderr}");
    assert!(stderr.contains("writes its digits 0–F"), "{stderr}");
}

#[test]
fn help_answers_help_about_itself_and_each_command() {
    let (stdout, stderr, code) = run(bin().args(["help", "--help"]));
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("Usage: sudoku-lsp help"), "{stdout}");
    let (stdout, _, code) = run(bin().args(["help", "solve"]));
    assert_eq!(code, 0);
    assert!(stdout.contains("--in-place"), "{stdout}");
    // Named as the program runs it, as `solve --help` names it.
    assert!(stdout.contains("Usage: sudoku-lsp solve "), "{stdout}");
    let (own, _, _) = run(bin().args(["solve", "--help"]));
    assert_eq!(stdout, own);
    let (_, stderr, code) = run(bin().args(["help", "frobnicate"]));
    assert_eq!(code, 2);
    assert!(stderr.contains("no command 'frobnicate'"), "{stderr}");
}

#[test]
fn check_does_not_count_a_byte_order_mark_as_a_column() {
    let dir = scratch("bom");
    let mut grid = EASY.to_string();
    grid.replace_range(0..1, "6");
    let path = write(&dir, "bom.sudoku", &format!("\u{feff}{grid}\n"));
    let (stdout, _, code) = run(bin().arg("check").arg(&path));
    assert!(
        stdout.starts_with(&format!("{}:1:1: error: 6 appears twice", path.display())),
        "{stdout}"
    );
    assert_eq!(code, 1);
}

#[test]
fn the_summary_counts_notes_too() {
    let dir = scratch("notes");
    // Row A emptied and a budget of one node: the search cannot decide.
    let mut grid = EASY.to_string();
    grid.replace_range(0..27, &".".repeat(27));
    let path = write(&dir, "open.sudoku", &format!("{grid}\n"));
    let (stdout, stderr, code) = run(bin().args(["check", "--max-nodes", "1"]).arg(&path));
    assert!(stdout.contains(": note: "), "{stdout}");
    assert!(stderr.contains("0 errors, 0 warnings, 1 note"), "{stderr}");
    assert_eq!(code, 0);
    let (json, _, _) = run(bin()
        .args(["check", "--max-nodes", "1", "--format", "json"])
        .arg(&path));
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["summary"]["notes"], 1);
}

#[test]
fn endless_inputs_stop_at_a_limit_that_is_named() {
    // One endless line: stopped at the line limit (before, it grew until the machine killed it).
    // (`/dev/zero` itself is a binary file, not read at all.)
    let endless = |source: &str, args: &str| {
        let program = env!("CARGO_BIN_EXE_sudoku-lsp");
        let script = format!("{source} | '{program}' check {args} -");
        run(Command::new("bash").args(["-c", &script]))
    };
    let (_, stderr, code) = endless("tr '\\0' x </dev/zero", "");
    assert_eq!(code, 2);
    assert!(
        stderr.contains("-: line 1 is longer than 1 MiB (the limit of one line)"),
        "{stderr}"
    );
    // Endless lines: stopped at the file limit, which can be set.
    let (_, stderr, code) = endless("yes 'x y'", "--max-file-size 2M");
    assert_eq!(code, 2);
    assert!(
        stderr.contains("-: larger than 2 MiB (the limit of one input, see --max-file-size)"),
        "{stderr}"
    );
    let (_, stderr, code) = run(bin().args(["check", "--max-file-size", "lots", "/dev/null"]));
    assert_eq!(code, 2);
    assert!(stderr.contains("'lots' is not a size"), "{stderr}");
}

#[test]
fn a_long_file_is_read_in_pieces_with_every_line_number_right() {
    let dir = scratch("pieces");
    // 30,000 puzzles (2.5 MB, read in several pieces), one with a conflict near the end.
    let mut conflict = EASY.to_string();
    conflict.replace_range(0..1, "6");
    let mut text = String::new();
    for i in 0..30_000 {
        text.push_str(if i == 29_000 { &conflict } else { EASY });
        text.push('\n');
    }
    let path = write(&dir, "long.sudoku", &text);
    let (stdout, stderr, code) = run(bin().arg("check").arg(&path));
    let name = path.display();
    assert_eq!(
        stdout,
        format!(
            "{name}:29001:1: error: 6 appears twice in row A: A1 and A7\n\
             {name}:29001:7: error: 6 appears twice in row A: A7 and A1\n"
        )
    );
    assert!(
        stderr.contains("checked 30000 puzzles in 1 file: 2 errors"),
        "{stderr}"
    );
    assert_eq!(code, 1);
    let (solved, _, code) = run(bin().arg("solve").arg(&path));
    assert_eq!(code, 1);
    let lines: Vec<&str> = solved.lines().collect();
    assert_eq!(lines.len(), 30_000);
    assert_eq!(lines[0], EASY_SOLVED);
    assert_eq!(lines[29_000], conflict);
    assert_eq!(lines[29_999], EASY_SOLVED);
}

#[cfg(unix)]
#[test]
fn folders_are_walked_once_through_links_and_only_for_regular_files() {
    use std::os::unix::fs::symlink;
    let dir = scratch("links");
    write(&dir, "a/one.sudoku", &format!("{EASY}\n"));
    write(&dir, "b/two.sudoku", &format!("{EASY}\n"));
    symlink(".", dir.join("self")).unwrap(); // a loop
    symlink("..", dir.join("a/up")).unwrap(); // a loop from below
    symlink("a", dir.join("also-a")).unwrap(); // the same folder twice
    symlink("b/two.sudoku", dir.join("b-two.sudoku")).unwrap(); // the same file twice
    symlink("nowhere.txt", dir.join("dangling.txt")).unwrap(); // not a puzzle file: ignored
    let fifo = dir.join("pipe.sudoku");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let (stdout, stderr, code) = run(bin().arg("check").arg(&dir));
    assert_eq!((stdout.as_str(), code), ("", 0), "{stderr}");
    assert!(stderr.contains("checked 2 puzzles in 2 files"), "{stderr}");

    // A FIFO named on the command line is read (`check <(generate)`).
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::write(fifo, format!("{EASY}\n")).unwrap())
    };
    let (_, stderr, code) = run(bin().arg("check").arg(&fifo));
    writer.join().unwrap();
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("checked 1 puzzle in 1 file"), "{stderr}");
}

#[cfg(unix)]
#[test]
fn an_unreadable_folder_is_named_and_the_rest_checked() {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("sudoku-lsp-unreadable-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    write(&dir, "a/fine.sudoku", &format!("{EASY}\n"));
    write(&dir, "b/locked/hidden.sudoku", &format!("{EASY}\n"));
    write(&dir, "c/later.sudoku", &format!("{EASY}\n"));
    let locked = dir.join("b/locked");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    for folder in [&dir, &dir.join("a"), &dir.join("b"), &dir.join("c")] {
        std::fs::set_permissions(folder, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    for file in ["a/fine.sudoku", "c/later.sudoku"] {
        std::fs::set_permissions(dir.join(file), std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    let binary =
        std::env::temp_dir().join(format!("sudoku-lsp-unreadable-bin-{}", std::process::id()));
    std::fs::copy(env!("CARGO_BIN_EXE_sudoku-lsp"), &binary).unwrap();
    std::fs::set_permissions(&binary, std::fs::Permissions::from_mode(0o755)).unwrap();
    let Some(mut command) = unprivileged(Command::new(&binary).arg("check").arg(&dir)) else {
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "skipped: an_unreadable_folder_is_named_and_the_rest_checked needs a user that \
             permissions apply to (not root, or root with setpriv)"
        );
        return;
    };
    let (stdout, stderr, code) = run(&mut command);
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_file(&binary);
    assert_eq!(stdout, "");
    assert!(
        stderr.contains(&format!(
            "{}: cannot read: Permission denied",
            locked.display()
        )),
        "{stderr}"
    );
    assert!(stderr.contains("checked 2 puzzles in 2 files"), "{stderr}");
    assert_eq!(code, 2);
}

/// A collection big enough that solving it takes a while: `count` copies of the easy puzzle.
fn big_collection(dir: &Path, count: usize) -> (PathBuf, String, String) {
    let original = format!("{EASY}\n").repeat(count);
    let solved = format!("{EASY_SOLVED}\n").repeat(count);
    (write(dir, "big.sudoku", &original), original, solved)
}

#[cfg(unix)]
#[test]
fn solve_in_place_keeps_the_file_whole_when_the_process_dies_writing() {
    let dir = scratch("in-place-dies");
    let (path, original, _) = big_collection(&dir, 20_000); // 1.6 MB
                                                            // A file size limit of 100 KiB kills the process (SIGXFSZ) partway through its writing:
                                                            // before, that left the file truncated there.
    let script = format!(
        "ulimit -f 100; exec '{}' solve --in-place '{}'",
        env!("CARGO_BIN_EXE_sudoku-lsp"),
        path.display()
    );
    let status = Command::new("bash").args(["-c", &script]).status().unwrap();
    assert!(!status.success());
    assert!(
        std::fs::read_to_string(&path).unwrap() == original,
        "the file changed"
    );
}

#[cfg(unix)]
#[test]
fn solve_in_place_killed_at_any_moment_leaves_the_old_or_the_new_file() {
    let dir = scratch("in-place-killed");
    let (path, original, solved) = big_collection(&dir, 20_000);
    for delay_ms in [0, 5, 20, 50, 100, 200, 400] {
        std::fs::write(&path, &original).unwrap();
        let mut child = bin()
            .args(["solve", "--in-place"])
            .arg(&path)
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        let now = std::fs::read_to_string(&path).unwrap();
        assert!(
            now == original || now == solved,
            "killed after {delay_ms} ms: the file is {} bytes, neither old nor new",
            now.len()
        );
    }
}

#[cfg(unix)]
#[test]
fn solve_in_place_keeps_permissions_and_links() {
    use std::os::unix::fs::{symlink, PermissionsExt};
    let dir = scratch("in-place-mode");
    let path = write(&dir, "easy.sudoku", &format!("{EASY}\n"));
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
    let link = dir.join("link.sudoku");
    symlink("easy.sudoku", &link).unwrap();
    let (_, stderr, code) = run(bin().args(["solve", "--in-place"]).arg(&link));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        format!("{EASY_SOLVED}\n")
    );
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    let leftovers: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(leftovers.len(), 2, "no temporary file left behind");
}

#[test]
fn solve_in_place_does_not_overwrite_a_file_changed_meanwhile() {
    let dir = scratch("in-place-changed");
    let path = write(&dir, "easy.sudoku", &format!("{EASY}\n"));
    let go = dir.join("go");
    let child = bin()
        .args(["solve", "--in-place"])
        .arg(&path)
        .env("SUDOKU_LSP_TEST_PAUSE_BEFORE_REPLACE", &go)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let waiting = dir.join("go.waiting");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !waiting.exists() {
        assert!(std::time::Instant::now() < deadline, "solve never paused");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let edited = format!("# my notes\n{EASY}\n");
    std::fs::write(&path, &edited).unwrap(); // the user saves meanwhile
    std::fs::write(&go, "").unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("the file changed while it was being solved"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), edited);
}

#[test]
fn a_missing_input_is_named_and_the_others_still_checked() {
    let dir = scratch("missing");
    let good = write(&dir, "good.sudoku", &format!("{EASY}\n"));
    let (_, stderr, code) = run(bin().arg("check").arg(dir.join("gone.sudoku")).arg(&good));
    assert_eq!(code, 2);
    assert!(
        stderr.contains("gone.sudoku: no such file or folder"),
        "{stderr}"
    );
    assert!(stderr.contains("checked 1 puzzle in 1 file"), "{stderr}");
}

#[test]
fn json_findings_stream_as_one_valid_document() {
    let dir = scratch("json-stream");
    let text = "# title: x\n".repeat(2000) + &format!("{EASY}\n");
    let path = write(&dir, "titles.sudoku", &text);
    let (stdout, _, code) = run(bin()
        .args(["check", "--format", "json", "--max-findings", "5000"])
        .arg(&path));
    let value: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(value["findings"].as_array().unwrap().len(), 1999);
    assert_eq!(value["summary"]["warnings"], 1999);
    assert_eq!(value["findings"][1998]["line"], 2000);
    assert_eq!(code, 0);
}

#[cfg(unix)]
#[test]
fn memory_stays_far_below_the_input_times_a_hundred() {
    // Each of these took 30 to 90 bytes a byte before (445 MB, 1.2 GB and 165 MB); 150 MB of
    // address space, binary and threads included, is ample now.
    let dir = scratch("memory");
    let blank = write(&dir, "blank.sudoku", &"\n".repeat(5_000_000));
    let titles = write(&dir, "titles.sudoku", &"# title: x\n".repeat(200_000));
    let collection = write(&dir, "many.txt", &format!("{EASY}\n").repeat(30_000));
    let path = |p: &PathBuf| p.display().to_string();
    assert_eq!(run_in_memory(150, &["check", &path(&blank)]).0, 0);
    assert_eq!(
        run_in_memory(150, &["check", "--format", "json", &path(&titles)]).0,
        0
    );
    assert_eq!(run_in_memory(150, &["solve", &path(&collection)]).0, 0);
}

/// `solve -` is a filter too: a line over 1 MiB in the middle passes through and the puzzles on
/// both sides are solved (it stopped there, after writing the text before it); and when reading
/// stops partway, nothing is written.
#[test]
fn solve_writes_the_whole_text_or_nothing() {
    let long = "x".repeat(1_100_000);
    let input = format!("{EASY}\n\n{long}\n{EASY}\n");
    let (out, err, code) = run_with_stdin(bin().args(["solve", "-"]), input.as_bytes());
    assert_eq!(code, 0, "{err}");
    assert!(out == format!("{EASY_SOLVED}\n\n{long}\n{EASY_SOLVED}\n").as_bytes());

    let many = format!("{EASY}\n").repeat(40_000); // 3.3 MB, pieces of 1 MiB
    let (out, err, code) = run_with_stdin(
        bin().args(["solve", "--max-file-size", "2M", "-"]),
        many.as_bytes(),
    );
    assert_eq!((code, out.len()), (2, 0), "{err}");
    assert!(err.contains("nothing of it is written"), "{err}");
}

/// A title that is not UTF-8 is written back as its bytes were, and the grid below it is
/// solved (it was left unsolved with the whole piece).
#[test]
fn solve_fills_the_grid_below_a_line_that_is_not_utf8() {
    let mut input = b"# title: caf\xe9\n".to_vec();
    input.extend(display(EASY).as_bytes());
    let mut solved = b"# title: caf\xe9\n".to_vec();
    solved.extend(display(EASY_SOLVED).as_bytes());
    let (out, err, code) = run_with_stdin(bin().args(["solve", "-"]), &input);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("-:1:13: error: not valid UTF-8"), "{err}");
    assert_eq!(
        String::from_utf8_lossy(&out),
        String::from_utf8_lossy(&solved)
    );
    assert!(out == solved);
    let dir = scratch("not-utf8");
    let path = dir.join("p.sudoku");
    std::fs::write(&path, &input).unwrap();
    let (_, err, code) = run(bin().args(["solve", "--in-place"]).arg(&path));
    assert_eq!(code, 1, "{err}");
    assert!(std::fs::read(&path).unwrap() == solved);
}

/// `bench /dev/zero` read 1 GiB (2 GB of memory, 10 s) before refusing it: binary data (a NUL
/// byte) and a line over 1 MiB are refused as soon as they are read, in little memory.
#[cfg(unix)]
#[test]
fn bench_refuses_binary_and_endless_input_at_once() {
    assert_eq!(run_in_memory(150, &["bench", "/dev/zero"]).0, 2);
    let (_, err, code) = run(bin().args(["bench", "/dev/zero"]));
    assert_eq!(code, 2);
    assert!(
        err.contains("/dev/zero: holds a NUL byte (at byte 0): binary data"),
        "{err}"
    );
    let dir = scratch("bench-long-line");
    let path = write(&dir, "long.txt", &"1".repeat(3 << 20));
    let (_, err, code) = run(bin().arg("bench").arg(&path));
    assert_eq!(code, 2);
    assert!(
        err.contains("long.txt: has a line over 1 MiB (from byte 0)"),
        "{err}"
    );
}

/// The binary's relocations are packed (`DT_RELR`, see `build.rs`) where it is built for a glibc
/// that reads them: as 24-byte `RELA` entries the loader read 750 KB at every start.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn the_binary_packs_its_relocations_where_glibc_reads_them() {
    use std::ffi::{c_char, CStr};
    extern "C" {
        fn gnu_get_libc_version() -> *const c_char;
    }
    // SAFETY: glibc returns a pointer to a static, NUL-terminated version string.
    let version = unsafe { CStr::from_ptr(gnu_get_libc_version()) };
    let version = version.to_str().unwrap().to_string();
    let parts: Vec<u32> = version.split('.').map(|p| p.parse().unwrap_or(0)).collect();
    if (parts[0], parts.get(1).copied().unwrap_or(0)) < (2, 36) {
        common::say_skipped(&format!("glibc {version} does not read packed relocations"));
        return;
    }
    let elf = std::fs::read(env!("CARGO_BIN_EXE_sudoku-lsp")).unwrap();
    let word = |at: usize, len: usize| {
        let mut bytes = [0u8; 8];
        bytes[..len].copy_from_slice(&elf[at..at + len]);
        u64::from_le_bytes(bytes) as usize
    };
    // ELF64, little-endian: the section headers' offset, size and count, and each one's type.
    assert_eq!(
        &elf[..6],
        b"\x7fELF\x02\x01",
        "a 64-bit little-endian ELF file"
    );
    let (table, entry, count) = (word(0x28, 8), word(0x3a, 2), word(0x3c, 2));
    const SHT_RELR: usize = 19;
    let types: Vec<usize> = (0..count).map(|i| word(table + i * entry + 4, 4)).collect();
    assert!(
        types.contains(&SHT_RELR),
        "no packed relocations (section types {types:?})"
    );
}
