//! `check` and `solve` over collections of one-line puzzles: a piece made of classic one-liners
//! alone is solved line by line without being parsed, and only the lines with something to
//! say are parsed and analysed. What a user sees must be exactly what the parse of every
//! piece gives (`SUDOKU_LSP_PARSE_ALL=1` forces that path): the same findings in the same
//! order with the same texts in every format, the same solved text, the same exit code.

use crate::common;

use std::path::Path;

use common::cli::{bin, scratch, write};

/// Set to parse every piece (the command line's own switch, for this comparison).
const PARSE_ALL: &str = "SUDOKU_LSP_PARSE_ALL";

/// Run the binary with `args`, once as it is and once parsing every piece; both runs' stdout,
/// stderr and exit code must be the same. Returns the first run's stdout.
fn same_either_way(args: &[&str], path: &Path) -> Vec<u8> {
    let run = |parse_all: bool| {
        let mut command = bin();
        command.args(args).arg(path);
        if parse_all {
            command.env(PARSE_ALL, "1");
        } else {
            command.env_remove(PARSE_ALL);
        }
        command.output().unwrap()
    };
    let (apart, parsed) = (run(false), run(true));
    let shown = |bytes: &[u8]| {
        String::from_utf8_lossy(bytes)
            .chars()
            .take(2000)
            .collect::<String>()
    };
    assert_eq!(
        apart.status.code(),
        parsed.status.code(),
        "{args:?} {}",
        path.display()
    );
    assert!(
        apart.stderr == parsed.stderr,
        "{args:?} {}: stderr differs\none-liners apart:\n{}\nevery piece parsed:\n{}",
        path.display(),
        shown(&apart.stderr),
        shown(&parsed.stderr)
    );
    if apart.stdout != parsed.stdout {
        let first = apart
            .stdout
            .iter()
            .zip(&parsed.stdout)
            .position(|(a, b)| a != b)
            .unwrap_or(apart.stdout.len().min(parsed.stdout.len()));
        let from = first.saturating_sub(200);
        panic!(
            "{args:?} {}: stdout differs from byte {first}\none-liners apart:\n{}\nevery piece parsed:\n{}",
            path.display(),
            shown(&apart.stdout[from..]),
            shown(&parsed.stdout[from..])
        );
    }
    apart.stdout
}

/// Every way of running `check` and `solve` over a file that the comparison covers.
fn every_path_the_same(path: &Path) {
    for format in ["text", "json", "github", "sarif"] {
        same_either_way(&["check", "--format", format], path);
    }
    same_either_way(
        &["check", "--format", "json", "--max-findings", "1000000"],
        path,
    );
    same_either_way(&["check", "--max-findings", "3"], path);
    same_either_way(&["solve"], path);
    same_either_way(&["solve", "--color", "always"], path);
}

const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
const SOLVED: &str =
    "483921657967345821251876493548132976729564138136798245372689514814253769695417382";
const NO_SOLUTION: &str =
    "...........91..7235..8.2..1...........2.49...9.6....842...1..4.....37..61..48.27.";
const IMPOSSIBLE_CELL: &str =
    "..8...1.476193.8..5...8...2.....9....2..6...3...3.7.2191.....4..3.8...15..6....3.";
const HARD: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

/// A collection of well over a megabyte (several pieces): one-liners of every kind (sound,
/// `0` and `_` for empty cells, a conflict, several solutions, no solution, an impossible cell,
/// a solved grid, `\r\n` and lone `\r` line breaks) and, in the middle, lines that are no
/// plain one-liner (a short row, prose, free text after the cells, a comment, a blank line),
/// so that some pieces are one-liners alone and others are not.
fn collection(head: &str) -> String {
    let conflict = EASY.replacen("..3", "3.3", 1);
    let several = EASY.replacen("..3", "...", 1);
    let zeros = EASY.replace('.', "0");
    let underscores = EASY.replace('.', "_");
    let mut text = head.to_string();
    for i in 0..24_000 {
        let line = match i % 20 {
            3 => conflict.as_str(),
            7 => several.as_str(),
            9 => SOLVED,
            11 => zeros.as_str(),
            13 => underscores.as_str(),
            15 => HARD,
            17 if i % 1000 == 17 => NO_SOLUTION,
            19 => IMPOSSIBLE_CELL,
            _ => EASY,
        };
        text.push_str(line);
        text.push_str(match i % 7 {
            5 => "\r\n",
            6 if i % 1000 < 500 => "\r",
            _ => "\n",
        });
        if (15_000..15_040).contains(&i) {
            let other = match i % 8 {
                0 => "1.3\n".to_string(),
                1 => "not a row at all\n".to_string(),
                2 => format!("{EASY}  rated 1.2\n"),
                3 => "# a comment\n".to_string(),
                4 => "\n".to_string(),
                5 => format!("{EASY}x\n"),
                _ => String::new(),
            };
            text.push_str(&other);
        }
    }
    text
}

#[test]
fn one_liners_apart_read_as_every_piece_parsed_in_every_format() {
    let dir = scratch("hand-made");
    for (name, head) in [
        ("plain.txt", ""),
        ("diagonal.txt", "# variant: diagonal\n\n"),
        ("sized.txt", "# size: 9\n# title: many\n\n"),
        ("bad-size.txt", "# size: 7\n\n"),
        // A header right above the first puzzle (its title) and a collection's comment lines:
        // the first piece is cut after that puzzle, the one-liners after it read apart.
        ("titled.txt", "# title: the first\n# author: A. Setter\n"),
        ("commented.txt", "# from http://example.com/collection\n#\n"),
    ] {
        let path = write(&dir, name, &collection(head));
        every_path_the_same(&path);
    }
    // Titled puzzles and runs of one-liners in turn: each run of 64 or more read apart.
    let several = EASY.replacen("..3", "...", 1);
    let mut text = String::new();
    for round in 0..6 {
        for k in 0..(round * 40) {
            text.push_str(&format!("# title: puzzle {round}.{k}\n{EASY}\n"));
        }
        for k in 0..(round * 30 + 10) {
            text.push_str(if k % 5 == 0 { &several } else { EASY });
            text.push('\n');
        }
    }
    let path = write(&dir, "alternating.txt", &text);
    every_path_the_same(&path);
    // A search cut short (undecided) is something to say too.
    let path = write(&dir, "short.txt", &collection(""));
    same_either_way(&["check", "--max-nodes", "2"], &path);
    same_either_way(&["solve", "--max-nodes", "2"], &path);
}

#[test]
fn one_liners_apart_read_as_every_piece_parsed_over_the_shipped_puzzles() {
    let files = common::shipped_puzzles(&["", "broken"]);
    assert!(files.len() >= 10, "{files:?}");
    for path in files {
        every_path_the_same(&path);
    }
}

#[test]
fn one_liners_apart_read_as_every_piece_parsed_over_the_shared_collections() {
    let Some(data) = common::shared_data() else {
        return;
    };
    let mut files: Vec<_> = std::fs::read_dir(&data)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert!(files.len() >= 5, "{files:?}");
    for path in files {
        same_either_way(&["check"], &path);
        same_either_way(&["check", "--format", "json"], &path);
        let solved = same_either_way(&["solve"], &path);
        assert!(!solved.is_empty());
    }
}

#[test]
fn solve_says_the_problems_of_a_piece_in_source_order() {
    let dir = scratch("source-order");
    let conflict = EASY.replacen("..3", "3.3", 1);
    let path = write(
        &dir,
        "order.txt",
        &format!("{conflict}\nnot a row at all\n{conflict}\n1.3\n"),
    );
    let output = bin().arg("solve").arg(&path).output().unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    let prefix = format!("{}:", path.display());
    let lines: Vec<usize> = stderr
        .lines()
        .filter_map(|line| line.strip_prefix(&prefix)?.split(':').next()?.parse().ok())
        .collect();
    assert!(lines.is_sorted(), "{stderr}");
    assert_eq!(lines.first(), Some(&1), "{stderr}");
    assert!([2, 3, 4].iter().all(|n| lines.contains(n)), "{stderr}");
}
