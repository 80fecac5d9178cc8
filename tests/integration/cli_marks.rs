//! `sudoku-lsp marks` run as a user would: every puzzle of a file written back with its pencil
//! marks filled in, in the puzzle's own form, to stdout or in place; broken puzzles untouched.

use crate::common;

use common::cli::{bin, run, run_with_stdin, scratch, write};
use sudoku_lsp::engine::pencil_marks;
use sudoku_lsp::format::{self, Layout};
use sudoku_lsp::grid::geometry;

/// The seeds' naked-twins puzzle: filled in, E2 is left with the one mark 3.
const SEEDS: &str =
    "1.4.9..68956.18.34..84.695151.....868..6...1264..8..97781923645495.6.823.6.854179";
/// A hard puzzle, which elimination and naked twins leave with no cell of one mark.
const HARD: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
const BLOCK: &str = "4 . . | . . . | 8 . 5\n. 3 . | . . . | . . .\n. . . | 7 . . | . . .\n------+-------+------\n. 2 . | . . . | . 6 .\n. . . | . 8 . | 4 . .\n. . . | . 1 . | . . .\n------+-------+------\n. . . | 6 . 3 | . 7 .\n5 . . | 2 . . | . . .\n1 . 4 | . . . | . . .\n";

/// Each puzzle of `before` has, in `after`, the marks elimination and naked twins leave, and
/// the layout `want`.
fn check_filled(before: &str, after: &str, want: &[Layout]) {
    let (old, new) = (format::parse(before), format::parse(after));
    assert!(new.problems.is_empty(), "{:?}\n{after}", new.problems);
    assert_eq!(new.puzzles.len(), want.len(), "{after}");
    for ((was, now), &layout) in old.puzzles.iter().zip(&new.puzzles).zip(want) {
        let g = geometry(was.size, was.variant);
        let expected: Vec<u32> = pencil_marks(g, &was.givens)
            .candidates
            .iter()
            .map(|d| d.0)
            .collect();
        assert_eq!(now.layout, layout);
        assert_eq!(now.marks.as_deref(), Some(&expected[..]), "{after}");
    }
}

#[test]
fn marks_fills_in_every_puzzle_in_its_own_form() {
    let dir = scratch("stdout");
    let text = format!("# title: hard\n{HARD} free text\n\n# title: block\n{BLOCK}");
    let path = write(&dir, "two.sudoku", &text);
    let (out, err, code) = run(bin().arg("marks").arg(&path));
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(out.contains(" free text\n"));
    check_filled(&text, &out, &[Layout::MarksLine, Layout::Marks]);
    // Run again on its own output: the marks are filled in afresh from the placed digits.
    let again = write(&dir, "again.sudoku", &out);
    let (twice, _, code) = run(bin().arg("marks").arg(&again));
    assert_eq!(code, 0);
    assert!(format::parse(&twice)
        .puzzles
        .iter()
        .all(|p| p.marks.is_some()));
}

#[test]
fn in_place_rewrites_the_file_and_leaves_broken_puzzles_alone() {
    let dir = scratch("in-place");
    let broken = "12345678x\n";
    let text = format!("{HARD}\n\n{broken}");
    let path = write(&dir, "file.sudoku", &text);
    let (out, err, code) = run(bin().args(["marks", "--in-place"]).arg(&path));
    assert_eq!(out, "");
    assert_eq!(code, 1, "a file with errors: {err}");
    assert!(err.contains("file.sudoku:3:"), "{err}");
    let written = std::fs::read_to_string(&path).unwrap();
    assert!(written.ends_with(&format!("\n\n{broken}")), "{written}");
    let first = format::parse(&written).puzzles.remove(0);
    assert_eq!(first.layout, Layout::MarksLine);
}

/// `marks -` is a filter: a line over 1 MiB in the middle passes through whole and the puzzles
/// on both sides get their marks (it stopped there, after writing the text before it).
#[test]
fn a_long_line_passes_through_and_the_puzzles_around_it_are_marked() {
    let long = "x".repeat(1_100_000);
    let input = format!("{HARD}\n\n{long}\n{BLOCK}");
    let (out, err, code) = run_with_stdin(bin().args(["marks", "-"]), input.as_bytes());
    assert_eq!(code, 0, "{err}");
    let out = String::from_utf8(out).unwrap();
    let (before, after) = out
        .split_once(&format!("\n\n{long}\n"))
        .expect("the long line, whole");
    check_filled(HARD, before, &[Layout::MarksLine]);
    check_filled(BLOCK, after, &[Layout::Marks]);
}

/// The givens of each puzzle of `text` (entries left out), as the verdict reads them.
fn givens_of(text: &str) -> Vec<Vec<u8>> {
    format::parse(text)
        .puzzles
        .iter()
        .map(|p| p.clues().into_owned())
        .collect()
}

#[test]
fn marks_changes_no_given_is_idempotent_and_writes_no_trailing_space() {
    let dir = scratch("easy");
    let easy = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/easy.sudoku"))
        .unwrap();
    let path = write(&dir, "easy.sudoku", &easy);
    let (once, err, code) = run(bin().arg("marks").arg(&path));
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(givens_of(&once), givens_of(&easy), "{once}");
    // Cells left with one mark are written `*7`, which reads back as a mark, not a digit.
    assert!(once.contains(" *"), "{once}");
    assert!(once.lines().all(|l| l == l.trim_end()), "{once:?}");
    let (setter, _, _) = run(bin().args(["check", "--setter"]).arg(&path));
    let filled = write(&dir, "filled.sudoku", &once);
    let (setter_after, _, code) = run(bin().args(["check", "--setter"]).arg(&filled));
    assert_eq!(code, 0, "{setter_after}");
    let first_line = |out: &str| {
        out.lines()
            .next()
            .unwrap_or("")
            .split(": ")
            .skip(1)
            .collect::<Vec<_>>()
            .join(": ")
    };
    assert!(
        first_line(&setter).starts_with("note: 34 givens"),
        "{setter}"
    );
    assert_eq!(first_line(&setter_after), first_line(&setter));
    // And again: the marks of the marks are the marks.
    let (twice, _, code) = run(bin().arg("marks").arg(&filled));
    assert_eq!((code, twice.as_str()), (0, once.as_str()));
    // No mark a placed digit rules out, so no hint about one.
    let (checked, _, _) = run(bin().arg("check").arg(&filled));
    assert!(!checked.contains("cannot go"), "{checked}");
}

#[test]
fn a_one_liner_left_with_a_lone_mark_is_left_with_a_note() {
    let dir = scratch("lone-line");
    let text = format!("{SEEDS} seeds\n{HARD} hard\n");
    let path = write(&dir, "two.sudoku", &text);
    let (out, err, code) = run(bin().arg("marks").arg(&path));
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with(&format!("{SEEDS} seeds\n")), "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.ends_with(
            "two.sudoku:1:1: note: left unchanged: E2 is left with the one mark 3, which a line of \
         pencil marks reads as a placed digit: write the puzzle as a grid block, where it is \
         written *3, to fill in its marks\n"
        ),
        "{err}"
    );
    assert_eq!(format::parse(&out).puzzles[1].layout, Layout::MarksLine);
}

/// A collection (2,000 lines: more than the couple of milliseconds filled on the calling thread,
/// the rest on every core) is still said and written in its order: each line's marks where it
/// was, each note at its line, the notes in line order.
#[test]
fn a_collection_is_filled_and_said_in_its_order() {
    let dir = scratch("collection");
    let lines: Vec<&str> = (0..2000)
        .map(|k| if k % 3 == 0 { SEEDS } else { HARD })
        .collect();
    let path = write(&dir, "many.sudoku", &(lines.join("\n") + "\n"));
    let (out, err, code) = run(bin().arg("marks").arg(&path));
    assert_eq!(code, 0, "{err}");
    let hard_filled = {
        let (one, _, _) = run(bin().arg("marks").arg(write(&dir, "one.sudoku", HARD)));
        one.trim_end().to_string()
    };
    assert_ne!(hard_filled, HARD);
    for (k, line) in out.lines().enumerate() {
        let want = if k % 3 == 0 { SEEDS } else { &hard_filled };
        assert_eq!(line, want, "line {}", k + 1);
    }
    assert_eq!(out.lines().count(), 2000);
    let noted: Vec<usize> = err
        .lines()
        .map(|l| l.split(':').nth(1).and_then(|n| n.parse().ok()).expect(l))
        .collect();
    let want: Vec<usize> = (0..2000).filter(|k| k % 3 == 0).map(|k| k + 1).collect();
    assert_eq!(noted, want, "{err}");
}

#[test]
fn marks_on_a_variant_puzzle_follow_its_constraints_and_keep_its_lines() {
    let dir = scratch("variants");
    for name in ["killer", "thermo", "arrow", "kropki"] {
        let text = std::fs::read_to_string(format!(
            "{}/puzzles/variants/{name}.sudoku",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        let path = write(&dir, &format!("{name}.sudoku"), &text);
        let (once, err, code) = run(bin().arg("marks").arg(&path));
        assert_eq!((code, err.as_str()), (0, ""), "{name}");
        assert_eq!(givens_of(&once), givens_of(&text), "{name}: {once}");
        // Every constraint line and comment is kept as written.
        for line in text
            .lines()
            .filter(|l| !l.contains('|') && !l.contains("---"))
        {
            if line.chars().any(|c| c.is_ascii_alphabetic() || c == '#') {
                assert!(
                    once.lines().any(|l| l == line),
                    "{name}: {line:?} lost\n{once}"
                );
            }
        }
        // The marks keep the solution's digit everywhere, and the constraints take out more
        // than the houses alone do.
        let solution: Vec<u8> = text
            .lines()
            .find_map(|l| l.strip_prefix("# solution: "))
            .expect("shipped variant puzzles say their solution")
            .bytes()
            .map(|b| b - b'0')
            .collect();
        let was = &format::parse(&text).puzzles[0];
        let now = &format::parse(&once).puzzles[0];
        let marks = now.marks.as_deref().expect("marks written");
        for (cell, (&mark, &digit)) in marks.iter().zip(&solution).enumerate() {
            assert!(
                mark >> (digit - 1) & 1 == 1,
                "{name}: cell {cell} lost {digit}"
            );
        }
        let by_houses = pencil_marks(geometry(was.size, was.variant), &was.givens);
        let fewer = marks
            .iter()
            .zip(&by_houses.candidates)
            .filter(|(&m, h)| m.count_ones() < h.0.count_ones())
            .count();
        assert!(
            fewer > 0,
            "{name}: the constraints took nothing out\n{once}"
        );
        // And again: the marks of the marks are the marks.
        let filled = write(&dir, &format!("{name}-filled.sudoku"), &once);
        let (twice, _, code) = run(bin().arg("marks").arg(&filled));
        assert_eq!((code, twice.as_str()), (0, once.as_str()), "{name}");
    }
}
