//! The constraint-line reader: every keyword read and written back, spans, what is not a rule,
//! and the errors of the lines that are wrong.

use super::*;
use crate::grid::Size;

/// One line of each keyword, in the form `write` gives back.
const CANONICAL: [&str; 50] = [
    "antiknight",
    "antiking",
    "nonconsecutive",
    "negative: white black",
    "negative: x v",
    "diagonal",
    "diagonal \\",
    "diagonal /",
    "disjoint",
    "windoku",
    "regions:",
    "regions: none",
    "extra-region: B2 B3 C2 C3",
    "cage 15: A1 A2 B1",
    "cage: A1 A2 B1",
    "arrow: E5 > D4 C3",
    "arrow: E5 E6 > D4 C3 B3",
    "double-arrow: A1 A2 A3 A4",
    "little-killer 17: A3 down-left",
    "region-sum: A1 B1 C1 D2",
    "zipper: A1 A2 A3 A4 A5",
    "sandwich 12: top 3",
    "x-sum 15: left A",
    "skyscraper 4: bottom 7",
    "white: A1 A2",
    "white 3: A1 B1",
    "black: A1 A2",
    "black 3: A1 A2",
    "x: A1 A2",
    "v: A1 A2",
    "inequality: A1 < A2",
    "thermo: A1 B2 C3",
    "slow-thermo: A1 B2 C3",
    "whisper: A1 A2 A3",
    "whisper 4: A1 A2 A3",
    "renban: A1 A2 A3",
    "palindrome: A1 A2 A3",
    "between: A1 B2 C3 D4",
    "lockout 4: A1 B2 C3 D4",
    "entropic: A1 A2 A3",
    "modular: A1 A2 A3",
    "nabner: A1 A2 A3",
    "even: A1 C3",
    "odd: A1 C3",
    "minimum: A1",
    "maximum: E5 P16",
    "candidates 137: A1 B2",
    "quad 1259: A4 A5 B4 B5",
    "clone: A1 A2 = F5 F6 = H8 H9",
    "row-index: A1 B1 C1",
];

fn rule(line: &str) -> Rule {
    match read(line, 0) {
        Some(Ok(rule)) => rule,
        other => panic!("{line}: {other:?}"),
    }
}

/// The error a line gives, and the text its span covers.
fn error(line: &str) -> (String, &str) {
    match read(line, 0) {
        Some(Err(finding)) => (
            finding.message.to_string(),
            &line[finding.span.start..finding.span.end],
        ),
        other => panic!("{line}: {other:?}"),
    }
}

#[test]
fn every_keyword_is_read_and_written_back_as_it_was() {
    for line in CANONICAL {
        assert_eq!(write(&rule(line)), line);
    }
    let named: Vec<&str> = CANONICAL
        .iter()
        .map(|line| line.split([' ', ':']).next().unwrap())
        .collect();
    for spec in &SPECS {
        assert!(
            named.contains(&spec.name) || ["column-index", "box-index"].contains(&spec.name),
            "{} has no line here",
            spec.name
        );
    }
}

#[test]
fn case_blanks_and_comments_are_read_leniently_and_written_canonically() {
    let read_back = |line: &str| write(&rule(line));
    assert_eq!(
        read_back("  CAGE   15 :a1  a2\tb1   # the top one"),
        "cage 15: A1 A2 B1"
    );
    assert_eq!(read_back("AntiKnight  # and kings"), "antiknight");
    assert_eq!(read_back("arrow:E5>D4"), "arrow: E5 > D4");
    assert_eq!(read_back("clone:A1=B1"), "clone: A1 = B1");
}

#[test]
fn each_part_has_its_span() {
    let line = "  cage 15: A1 A2 B10";
    let rule = match read(line, 100) {
        Some(Ok(rule)) => rule,
        other => panic!("{other:?}"),
    };
    let at = |span: Span| &line[span.start - 100..span.end - 100];
    assert_eq!(at(rule.keyword_span), "cage");
    assert_eq!(at(rule.span), "cage 15: A1 A2 B10");
    let Some(Value::Number(15, value)) = rule.value else {
        panic!("{:?}", rule.value)
    };
    assert_eq!(at(value), "15");
    let Body::Cells(cells) = rule.body else {
        panic!()
    };
    let names: Vec<&str> = cells.iter().map(|c| at(c.span)).collect();
    assert_eq!(names, ["A1", "A2", "B10"]);
    assert_eq!((cells[2].row, cells[2].col), (1, 9));
}

#[test]
fn rows_comments_and_prose_are_not_rules() {
    for line in [
        "",
        "4 8 3 | 9 2 1 | 6 5 7",
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        "------+-------+------",
        "# thermo: A1 B2 C3",
        "# title: Hard one",
        "antiknight puzzles are fun",
        "diagonal sudoku",
        "Puzzle one",
        "x",
    ] {
        assert!(read(line, 0).is_none(), "{line}");
    }
}

/// No row of any size that starts with a keyword's letters reads as a rule: a row holds no
/// `:`, and a flag is a whole line.
#[test]
fn no_grid_row_reads_as_a_rule() {
    for size in Size::ALL {
        let n = size.side();
        for spec in &SPECS {
            let letters: String = spec
                .name
                .chars()
                .filter(char::is_ascii_alphabetic)
                .collect();
            let fits = letters
                .chars()
                .all(|c| char_digit(c.to_ascii_uppercase()).is_some_and(|d| d as usize <= n));
            if !fits || letters.len() > n {
                continue;
            }
            for upper in [false, true] {
                let start = if upper {
                    letters.to_ascii_uppercase()
                } else {
                    letters.clone()
                };
                let tail: String = (0..n - start.len())
                    .map(|i| digit_char((i % n) as u8 + 1))
                    .collect();
                for row in [format!("{start}{tail}"), {
                    let cells: Vec<String> =
                        format!("{start}{tail}").chars().map(String::from).collect();
                    cells.join(" ")
                }] {
                    assert!(read(&row, 0).is_none(), "{}×{n}: {row}", n);
                }
                if start.len() == n {
                    // The whole row is the word: only a flag could match, and no flag is a row.
                    assert!(
                        !matches!(read(&start, 0), Some(Ok(_))) || spec.shape != Shape::Flag,
                        "{start}"
                    );
                }
            }
        }
    }
}

#[test]
fn near_misses_say_what_to_write() {
    let (message, at) = error("cgae 15: A1 A2");
    assert!(
        message.starts_with("unknown constraint 'cgae': did you mean 'cage'?"),
        "{message}"
    );
    assert_eq!(at, "cgae");
    let (message, _) = error("killercage 15: A1 A2");
    assert_eq!(
        message,
        "'killercage' is another tool's name for this constraint: write 'cage'"
    );
    let (message, _) = error("Title: Hard one");
    assert_eq!(message, "metadata is a comment: write '# title: …'");
    let (message, at) = error("antiknight: A1 B3");
    assert!(message.contains("written alone on its line"), "{message}");
    assert_eq!(at, ":");
}

/// A word no constraint is named like, before cells: every constraint's name is listed. Before
/// prose it is no constraint line (a row's error says what a line can be).
#[test]
fn an_unknown_constraint_before_cells_lists_the_known_ones() {
    for line in [
        "star: A1 > A2",
        "sudoku 12: A1 B2 C3",
        "tile: A1 A2 = B1 B2",
    ] {
        let (message, at) = error(line);
        let word = line.split([' ', ':']).next().unwrap();
        assert!(
            message.starts_with(&format!(
                "unknown constraint '{word}': the constraints are "
            )),
            "{message}"
        );
        for spec in &SPECS {
            assert!(message.contains(spec.name), "{}: {message}", spec.name);
        }
        assert_eq!(at, word);
    }
    for prose in [
        "Solution: see below",
        "Note: A1 is the key",
        "Answer: 42",
        "Tip: é1 ü",
    ] {
        assert!(read(prose, 0).is_none(), "{prose}");
    }
}

#[test]
fn wrong_lines_point_at_the_part_at_fault() {
    for (line, says, at) in [
        ("cage 15: A1 A2 A1", "A1 is in this cage twice", "A1"),
        (
            "cage fifteen: A1 A2",
            "'fifteen' is not a number",
            "fifteen",
        ),
        ("cage 15 16: A1 A2", "one value goes before the ':'", "16"),
        ("cage15: A1 A2", "a value goes after a blank", "cage15"),
        ("cage 15: A1, A2", "cells are separated by blanks", "A1,"),
        ("cage 15: A0 A2", "'A0' is not a cell", "A0"),
        ("cage 15:", "'cage' needs at least 1 cell", ":"),
        ("thermo 3: A1 A2", "'thermo' takes no value", "3"),
        (
            "thermo: A1 A3",
            "A1 and A3 are not next to each other",
            "A3",
        ),
        (
            "white: A1 B2",
            "a white dot joins two side-by-side cells; A1 and B2 are not",
            "B2",
        ),
        ("x: A1 A2 A3", "'x' takes exactly 2 cells, not 3", "A3"),
        ("quad 1259: A4 A5 B4 C5", "2×2 block", "C5"),
        (
            "quad: A4 A5 B4 B5",
            "'quad' needs its digits before the ':'",
            "quad",
        ),
        (
            "quad 12x: A4 A5 B4 B5",
            "'12x' is not a set of digits",
            "12x",
        ),
        ("arrow: E5 D4 C3", "its circle, '>', then its shaft", "C3"),
        (
            "arrow: E5 > C3",
            "C3 does not touch the arrow's circle",
            "C3",
        ),
        ("arrow: E5 E6 E7 E8 > D4", "a pill of two or three", ">"),
        ("arrow: E5 >", "needs its shaft's cells", ">"),
        ("clone: A1 A2 = F5", "as many cells each: 2 then 1", "F5"),
        ("clone: A1 A2", "two groups of cells or more", "A2"),
        ("clone: A1 = A1", "A1 is in this clone twice", "A1"),
        (
            "inequality: A2 > A1",
            "write the smaller cell first: 'inequality: A1 < A2'",
            ">",
        ),
        ("little-killer 17: A3 down", "'down' is not a way", "down"),
        (
            "little-killer: A3 down-left",
            "'little-killer' needs its value",
            "little-killer",
        ),
        ("sandwich 12: top C", "'C' is not a column number", "C"),
        ("sandwich 12: left 3", "'3' is not a row letter", "3"),
        (
            "sandwich 12: middle 3",
            "'sandwich' is a side and a row or column",
            "middle",
        ),
        (
            "negative: white grey",
            "'grey' is not a kind of dot",
            "grey",
        ),
        ("negative:", "names the kinds of dot", ":"),
        ("regions: A B", "write 'regions:' alone", "A"),
    ] {
        let (message, span) = error(line);
        assert!(message.contains(says), "{line}: {message}");
        assert_eq!(span, at, "{line}: {message}");
    }
}

#[test]
fn no_flag_is_shorter_than_the_shortest_flag() {
    let flags = SPECS.iter().filter(|s| s.shape == Shape::Flag);
    assert_eq!(flags.map(|s| s.name.len()).min(), Some(SHORTEST_FLAG));
}

#[test]
fn the_keywords_and_other_names_do_not_overlap() {
    for (other, ours) in OTHER_NAMES {
        assert!(SPECS.iter().all(|s| s.name != other), "{other}");
        assert!(SPECS.iter().any(|s| s.name == ours), "{ours}");
    }
    for (i, spec) in SPECS.iter().enumerate() {
        assert!(SPECS[..i]
            .iter()
            .all(|s| s.name != spec.name && s.keyword != spec.keyword));
        assert_eq!(spec.keyword.name(), spec.name);
    }
}

/// Every keyword an editor offers comes with an example line that reads as that keyword, its
/// cells where the line names some (`regions:` opens a block, read by the parser).
#[test]
fn every_keyword_s_example_line_reads_as_that_keyword() {
    let all = super::keywords();
    assert_eq!(all.len(), SPECS_LEN);
    for help in all.iter().filter(|h| h.name != "regions") {
        let parts = super::parts(help.example, 0)
            .unwrap_or_else(|| panic!("{}: {}", help.name, help.example));
        assert_eq!(
            &help.example[parts.keyword.start..parts.keyword.end],
            help.name
        );
        assert!(parts.value.is_none() || help.value, "{}", help.example);
        let names_cells = help.cells != super::CellsShape::None;
        assert_eq!(!parts.cells.is_empty(), names_cells, "{}", help.example);
        assert_eq!(help.flag, !help.example.contains(':'), "{}", help.example);
    }
}

const SPECS_LEN: usize = 43;
