//! `sudoku-lsp fmt` run as a user would: files rewritten in place in each style, `--check` for
//! CI (names the files, exit 1, changes nothing), standard input to standard output, and the
//! exit codes for problems.

use crate::common;

use std::io::Write;
use std::process::Stdio;

use common::cli::{bin, run, run_with_stdin, scratch, write};

/// A block as setters often type it, with a title, a comment and a row comment.
const LOOSE: &str = "#Title: loose\n# set by hand\n4.....8.5\n.3.......\n...7.....\n.2.....6.\n....8.4..\n....1....\n...6.3.7.\n5..2.....\n1.4......\n";
const GRID: &str = "# title: loose\n# set by hand\n4 . . | . . . | 8 . 5\n. 3 . | . . . | . . .\n. . . | 7 . . | . . .\n------+-------+------\n. 2 . | . . . | . 6 .\n. . . | . 8 . | 4 . .\n. . . | . 1 . | . . .\n------+-------+------\n. . . | 6 . 3 | . 7 .\n5 . . | 2 . . | . . .\n1 . 4 | . . . | . . .\n";
const LINE: &str = "# title: loose\n# set by hand\n4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";

fn read(path: &std::path::Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn check_names_the_files_that_would_change_and_changes_nothing() {
    let dir = scratch("check");
    let loose = write(&dir, "a/loose.sudoku", LOOSE);
    let tidy = write(&dir, "a/tidy.sudoku", GRID);
    write(&dir, "a/notes.txt", LOOSE);
    let (out, err, code) = run(bin().args(["fmt", "--check"]).arg(dir.join("a")));
    assert_eq!(code, 1, "{err}");
    assert_eq!(out, format!("{}\n", loose.display()));
    assert!(
        err.contains("1 file would be reformatted, 1 file already formatted"),
        "{err}"
    );
    assert_eq!((read(&loose), read(&tidy)), (LOOSE.into(), GRID.into()));
    let (out, _, code) = run(bin().args(["fmt", "--check"]).arg(&tidy));
    assert_eq!((code, out.as_str()), (0, ""));
}

#[test]
fn fmt_rewrites_changed_files_in_place_in_each_style() {
    let dir = scratch("in-place");
    let path = write(&dir, "p.sudoku", LOOSE);
    let tidy = write(&dir, "tidy.sudoku", GRID);
    let (out, err, code) = run(bin().arg("fmt").arg(&path).arg(&tidy));
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    assert!(
        err.contains(&format!("reformatted {}", path.display())),
        "{err}"
    );
    assert!(!err.contains("tidy.sudoku"), "{err}");
    assert!(
        err.contains("1 file reformatted, 1 file left unchanged"),
        "{err}"
    );
    assert_eq!(read(&path), GRID);
    let (_, err, code) = run(bin().args(["fmt", "--style", "line"]).arg(&path));
    assert_eq!(code, 0, "{err}");
    assert_eq!(read(&path), LINE);
    let (_, err, code) = run(bin().args(["fmt", "--style", "compact"]).arg(&path));
    assert_eq!(code, 0, "{err}");
    assert_eq!(read(&path), LINE, "a one-line puzzle stays on one line");
    write(&dir, "p.sudoku", GRID);
    let (_, err, code) = run(bin().args(["fmt", "--style", "compact"]).arg(&path));
    assert_eq!(code, 0, "{err}");
    assert_eq!(read(&path), LOOSE.replace("#Title:", "# title:"));
    let (_, _, code) = run(bin()
        .args(["fmt", "--check", "--style", "compact"])
        .arg(&path));
    assert_eq!(code, 0, "formatted is formatted");
}

#[test]
fn crlf_broken_puzzles_and_a_missing_final_newline_are_kept() {
    let dir = scratch("kept");
    let text = "# variant: nope\r\n1234341221434321\r\n\r\n12 34\r\n3412\r\n2143\r\n12\r\n\r\n1234\r\n3412\r\n2143\r\n4321";
    let path = write(&dir, "p.sudoku", text);
    let (_, err, code) = run(bin().arg("fmt").arg(&path));
    assert_eq!(code, 0, "{err}");
    let expected = text.replace(
        "1234\r\n3412\r\n2143\r\n4321",
        "1 2 | 3 4\r\n3 4 | 1 2\r\n----+----\r\n2 1 | 4 3\r\n4 3 | 2 1",
    );
    assert_eq!(read(&path), expected);
}

#[test]
fn standard_input_goes_to_standard_output() {
    let mut child = bin()
        .args(["fmt", "--style", "line", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(LOOSE.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(String::from_utf8(output.stdout).unwrap(), LINE);
    // A filter says nothing but errors: Vim reads `:%!sudoku-lsp fmt -`'s stderr into the text.
    assert_eq!(String::from_utf8(output.stderr).unwrap(), "");
}

#[test]
fn problems_exit_2_and_the_other_files_are_still_formatted() {
    let dir = scratch("problems");
    let path = write(&dir, "p.sudoku", LOOSE);
    let (_, err, code) = run(bin().arg("fmt").arg(dir.join("missing.sudoku")).arg(&path));
    assert_eq!(code, 2);
    assert!(
        err.contains("missing.sudoku: no such file or folder"),
        "{err}"
    );
    assert_eq!(read(&path), GRID);
    let (_, err, code) = run(bin().args(["fmt", "--style", "wide"]).arg(&path));
    assert_eq!(code, 2);
    assert!(
        err.contains("possible values: grid, compact, line"),
        "{err}"
    );
    let bad = dir.join("bad.sudoku");
    std::fs::write(&bad, b"# \xff\n1234\n3412\n2143\n4321\n").unwrap();
    let (_, err, code) = run(bin().arg("fmt").arg(&bad));
    assert_eq!(code, 2);
    assert!(err.contains("not valid UTF-8"), "{err}");
    // Counted, as black and ruff count a file they failed on.
    assert!(
        err.contains("0 files reformatted, 0 files left unchanged, 1 file could not be formatted"),
        "{err}"
    );
    assert_eq!(
        std::fs::read(&bad).unwrap(),
        b"# \xff\n1234\n3412\n2143\n4321\n"
    );
}

#[test]
fn a_file_read_in_pieces_is_formatted_as_a_whole() {
    // Over 2 MB, so it is read and formatted in several pieces (spans offset by each piece's
    // start), with blocks and file metadata the pieces must carry.
    let line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let zeros = line.replace('.', "0");
    let mut text = String::from("# Author: many\n\n");
    for i in 0..30_000 {
        text.push_str(&zeros);
        text.push_str(&format!(" #{i}\n"));
        if i % 10_000 == 5_000 {
            text.push('\n');
            text.push_str(&LOOSE.replace("#Title", "# TITLE"));
            text.push('\n');
        }
    }
    let dir = scratch("pieces");
    let path = write(&dir, "big.sudoku", &text);
    let (_, err, code) = run(bin().arg("fmt").arg(&path));
    assert_eq!(code, 0, "{err}");
    let expected = sudoku_lsp::format::format(&text, &Default::default());
    assert!(read(&path) == expected, "the pieces differ from the whole");
    assert!(
        expected.contains("# author: many\n") && expected.contains(&format!("{line} #29999\n"))
    );
    assert_eq!(expected.matches("------+-------+------").count(), 6);
}

/// A line over 1 MiB (the reader's limit of a line) is no puzzle line: a filter passes it
/// through and formats around it. It used to stop there, having written only the text before
/// it, and exit 2: Vim's `:%!sudoku-lsp fmt -` replaced the buffer with that.
#[test]
fn a_long_line_passes_through_whole_in_a_filter_and_in_place() {
    let long = "x".repeat(1_100_000);
    let input = format!("{LOOSE}\n{long}\n\n{LOOSE}");
    let expected = format!("{GRID}\n{long}\n\n{GRID}");
    let (out, err, code) = run_with_stdin(bin().args(["fmt", "-"]), input.as_bytes());
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(out == expected.as_bytes(), "{} bytes out", out.len());
    let dir = scratch("long-line");
    let path = write(&dir, "p.sudoku", &input);
    let (_, err, code) = run(bin().arg("fmt").arg(&path));
    assert_eq!(code, 0, "{err}");
    assert!(read(&path) == expected);
}

/// Whole or nothing: when reading stops partway (past --max-file-size, after pieces of a MiB
/// were formatted; a long line of binary data), a filter writes nothing at all.
#[test]
fn a_filter_that_stops_reading_writes_nothing() {
    let one_line = LINE.lines().last().unwrap().replace('.', "0");
    let input = format!("{one_line}\n").repeat(40_000); // 3.3 MB
    let (out, err, code) = run_with_stdin(
        bin().args(["fmt", "--max-file-size", "2M", "-"]),
        input.as_bytes(),
    );
    assert_eq!((code, out.len()), (2, 0), "{err}");
    assert!(
        err.contains("larger than 2 MiB") && err.contains("nothing of it is written"),
        "{err}"
    );
    let mut binary = input.into_bytes();
    binary.extend(vec![0; 2 << 20]);
    let (out, err, code) = run_with_stdin(bin().args(["fmt", "-"]), &binary);
    assert_eq!((code, out.len()), (2, 0), "{err}");
    assert!(err.contains("holds a NUL byte: binary data"), "{err}");
}
