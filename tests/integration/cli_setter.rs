//! The setter's command line, run as a user would: `check --setter` on real files, its lines and
//! exit code, checked against the library's own answers.

use crate::common;

use common::cli::{bin, run, scratch, write};
use sudoku_lsp::analysis;
use sudoku_lsp::engine::{self, fast9, Budget};
use sudoku_lsp::grid::{geometry, Geometry, Size, Variant};

const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

fn digits(line: &str) -> Vec<u8> {
    line.bytes()
        .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
        .collect()
}

fn line_of(grid: &[u8]) -> String {
    grid.iter()
        .map(|&d| if d == 0 { '.' } else { (b'0' + d) as char })
        .collect()
}

#[test]
fn check_setter_names_the_givens_minimality_symmetry_and_each_redundant_given() {
    let nine = geometry(Size::NINE, Variant::Classic);
    let minimal = line_of(&fast9::generate(1, 5)[0]);
    let broken = format!("33{}", &EASY[2..]);
    let dir = scratch("notes");
    let path = write(
        &dir,
        "setter.sudoku",
        &format!("{EASY}\n{minimal}\n{broken}\n"),
    );
    let name = path.display().to_string();

    let (plain, _, code) = run(bin().arg("check").arg(&path));
    assert_eq!(code, 1, "the broken line is an error");
    assert!(!plain.contains("note:"), "no setter notes unasked: {plain}");

    let (out, err, code) = run(bin().args(["check", "--setter"]).arg(&path));
    assert_eq!(code, 1, "notes do not change the exit code: {out}{err}");
    let redundant = analysis::redundant_givens(nine, &digits(EASY), &Budget::unlimited()).unwrap();
    assert!(redundant.len() > 1);
    let mut expected = vec![format!(
        "{name}:1:1: note: 32 givens, not minimal ({} redundant givens), symmetry: mirrors across the middle row and column",
        redundant.len()
    )];
    for &cell in &redundant {
        expected.push(format!(
            "{name}:1:{}: note: {} is not needed: without it the puzzle still has one solution",
            cell + 1,
            nine.cell_name(cell)
        ));
    }
    let count = minimal.bytes().filter(|b| b.is_ascii_digit()).count();
    let symmetry = analysis::symmetry(nine, &digits(&minimal)).name();
    expected.push(format!(
        "{name}:2:1: note: {count} givens, minimal, symmetry: {symmetry}"
    ));
    let lines: Vec<&str> = out.lines().filter(|l| l.contains(": note: ")).collect();
    assert_eq!(lines, expected, "{out}");
    // The broken puzzle gets its error and no setter note.
    assert!(
        out.lines()
            .any(|l| l.starts_with(&format!("{name}:3:1: error: 3 appears twice"))),
        "{out}"
    );
    assert!(!out.contains(&format!("{name}:3:1: note")), "{out}");
    assert!(
        err.contains(&format!("{} notes", redundant.len() + 2)),
        "{err}"
    );

    let (json, _, _) = run(bin()
        .args(["check", "--setter", "--format", "json"])
        .arg(&path));
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let codes: Vec<&str> = value["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["code"].as_str())
        .collect();
    assert_eq!(
        codes.iter().filter(|&&c| c == "givens").count(),
        2,
        "{json}"
    );
    assert_eq!(
        codes.iter().filter(|&&c| c == "redundant-given").count(),
        redundant.len(),
        "{json}"
    );
}

/// What `sudoku-lsp new` with `args` writes, once it has said it succeeded.
fn new_output(args: &[&str]) -> String {
    let (out, err, code) = run(bin().arg("new").args(args));
    assert_eq!(code, 0, "new {args:?}: {err}");
    out
}

/// The puzzles of `new --layout line` with `args`: each one's cells and its trailing comment.
fn new_lines(args: &[&str]) -> Vec<(String, String)> {
    new_output(&[&["--layout", "line"], args].concat())
        .lines()
        .map(|l| {
            let (cells, comment) = l.split_once("  # ").expect("cells, then a comment");
            (cells.to_string(), comment.to_string())
        })
        .collect()
}

/// Whether `givens` has one solution, by the general engine rather than the generator's checks.
fn unique(geo: &Geometry, givens: &[u8]) -> bool {
    let found = engine::search(geo, givens, 2, &Budget::unlimited());
    found.solutions.len() == 1
}

#[test]
fn new_makes_unique_puzzles_that_check_clean_and_rate_as_their_metadata_says() {
    const SEVEN: [&str; 6] = ["--seed", "7", "--count", "4", "--symmetry", "rotational180"];
    let dir = scratch("new");
    let out = new_output(&SEVEN);
    let path = write(&dir, "new.sudoku", &out);
    let document = sudoku_lsp::format::parse(&out);
    assert_eq!(document.puzzles.len(), 4, "{out}");
    assert!(document.problems.is_empty(), "{:?}", document.problems);
    let nine = geometry(Size::NINE, Variant::Classic);
    for (i, puzzle) in document.puzzles.iter().enumerate() {
        assert!(unique(nine, &puzzle.givens), "puzzle {i}: {out}");
        let symmetry = analysis::symmetry(nine, &puzzle.givens);
        assert!(
            matches!(
                symmetry,
                analysis::Symmetry::Rotational180
                    | analysis::Symmetry::Rotational90
                    | analysis::Symmetry::Orthogonal
                    | analysis::Symmetry::BiDiagonal
                    | analysis::Symmetry::Full
            ),
            "puzzle {i}: {symmetry:?}"
        );
        assert!(out.contains(&format!("# {} givens, ", puzzle.givens_count())));
        let number = match i {
            0 => String::new(),
            _ => format!(" --number {}", i + 1),
        };
        assert!(
            out.contains(&format!(
                "# source: sudoku-lsp new --seed 7 --symmetry rotational180{number}\n"
            )),
            "{out}"
        );
    }
    // `check` finds nothing wrong, and `rate` agrees with each puzzle's difficulty line.
    let (checked, _, code) = run(bin().arg("check").arg(&path));
    assert_eq!((checked.as_str(), code), ("", 0));
    let (rated, _, code) = run(bin().arg("rate").arg(&path));
    assert_eq!(code, 0, "{rated}");
    let said: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("# difficulty: SE "))
        .collect();
    let rates: Vec<&str> = rated
        .lines()
        .map(|l| l.rsplit(": ").next().unwrap())
        .collect();
    assert_eq!(said, rates);

    // The same seed gives the same puzzles; another seed others.
    assert_eq!(new_output(&SEVEN), out);
    let other = new_output(&["--seed", "8", "--symmetry", "rotational180"]);
    assert!(!out.starts_with(&other[other.find("# difficulty").unwrap()..]));
}

/// Each puzzle's source line is a command line that makes that very puzzle again, alone: it
/// holds the seed, every option that shaped the puzzle, and the puzzle's number in its run.
#[test]
fn new_source_lines_make_their_puzzle_again() {
    let args = [
        "--symmetry",
        "rotational180",
        "--rating",
        "6.0..7.5",
        "--seed",
        "5",
        "--count",
        "2",
        "--time-limit",
        "30",
    ];
    let out = new_output(&args);
    let blocks: Vec<&str> = out.split("# title: ").filter(|b| !b.is_empty()).collect();
    assert_eq!(blocks.len(), 2, "{out}");
    for block in blocks {
        let source = block
            .lines()
            .find_map(|l| l.strip_prefix("# source: sudoku-lsp "))
            .unwrap_or_else(|| panic!("{block}"));
        assert!(source.contains("--rating 6.0..7.5"), "{source}");
        let again = new_output(&source.split(' ').skip(1).collect::<Vec<_>>());
        let body = |text: &str| text.lines().skip(1).collect::<Vec<_>>().join("\n");
        assert_eq!(body(&again), body(block), "{source}");
    }
    let diagonal = new_output(&[
        "--seed",
        "2",
        "--size",
        "6",
        "--variant",
        "diagonal",
        "--minimal",
    ]);
    assert!(
        diagonal
            .contains("# source: sudoku-lsp new --seed 2 --size 6 --variant diagonal --minimal\n"),
        "{diagonal}"
    );
}

/// A 25×25 comes in seconds (every stage keeps to its time), and what could not be done in
/// them is said plainly: the rating a lower bound after its 2 s, minimality not checked.
#[test]
fn new_25x25_says_what_it_could_not_do() {
    let out = new_output(&["--size", "25", "--seed", "3", "--time-limit", "20"]);
    let document = sudoku_lsp::format::parse(&out);
    assert_eq!(document.puzzles.len(), 1, "{out}");
    let difficulty = out
        .lines()
        .find_map(|l| l.strip_prefix("# difficulty: "))
        .unwrap();
    assert!(!difficulty.contains("SE ≥ 0.0"), "{difficulty}");
    let stopped = difficulty.ends_with("a lower bound: the rating stopped after its 2 s");
    assert!(stopped || !difficulty.contains('≥'), "{difficulty}");
    assert!(
        out.contains("minimality not checked (minutes on a 25×25: ask --minimal)"),
        "{out}"
    );
}

#[test]
fn new_keeps_to_its_options_on_every_size() {
    for (size, variant) in [
        ("4", "classic"),
        ("6", "diagonal"),
        ("12", "classic"),
        ("16", "classic"),
    ] {
        let made = new_lines(&[
            "--seed",
            "3",
            "--size",
            size,
            "--variant",
            variant,
            "--symmetry",
            "vertical",
        ]);
        let [(cells, comment)] = &made[..] else {
            panic!("one puzzle: {made:?}");
        };
        let side: usize = size.parse().unwrap();
        assert_eq!(cells.chars().count(), side * side, "{cells}");
        let geo = geometry(
            Size::from_side(side).unwrap(),
            Variant::parse(variant).unwrap(),
        );
        let givens = sudoku_lsp::format::parse(cells).puzzles[0].givens.clone();
        assert!(unique(geo, &givens), "{size} {variant}: {cells}");
        // Mirrored left to right: each row reads the same backwards, as to which cells are given.
        for row in givens.chunks(side) {
            let places: Vec<bool> = row.iter().map(|&d| d != 0).collect();
            let mirrored: Vec<bool> = places.iter().rev().copied().collect();
            assert_eq!(places, mirrored, "{size}: {cells}");
        }
        assert!(comment.contains("symmetry: "), "{comment}");
    }
}

#[test]
fn new_minimal_and_rating_windows_are_kept_and_an_impossible_window_says_so() {
    let made = new_lines(&[
        "--seed",
        "5",
        "--count",
        "3",
        "--minimal",
        "--symmetry",
        "rotational180",
        "--rating",
        "1.0..3.0",
    ]);
    let nine = geometry(Size::NINE, Variant::Classic);
    for (cells, comment) in made {
        assert_eq!(
            analysis::redundant_givens(nine, &digits(&cells), &Budget::unlimited()),
            Ok(vec![]),
            "{cells}"
        );
        assert!(comment.contains(", minimal, "), "{comment}");
        let rating: f64 = comment
            .strip_prefix("SE ")
            .and_then(|r| r.split(' ').next())
            .and_then(|r| r.parse().ok())
            .unwrap_or_else(|| panic!("{comment}"));
        assert!((1.0..=3.0).contains(&rating), "{comment}");
    }

    let (out, err, code) = run(bin().args([
        "new",
        "--seed",
        "5",
        "--size",
        "4",
        "--rating",
        "11.5..12",
        "--time-limit",
        "0.2",
    ]));
    assert_eq!((out.as_str(), code), ("", 1), "{err}");
    assert!(
        err.contains("puzzle 1: none rated 11.5..12.0 found in 0.2 s")
            && err.contains("--time-limit"),
        "{err}"
    );
    // No time to make any puzzle at all: said so, not "none  found".
    let (out, err, code) = run(bin().args(["new", "--time-limit", "0.000001"]));
    assert_eq!((out.as_str(), code), ("", 1), "{err}");
    assert_eq!(
        err,
        "sudoku-lsp: error: puzzle 1: not made within --time-limit 0.000001 s; raise it\n"
    );

    for bad in [
        &["new", "--size", "11"][..],
        &["new", "--rating", "8..7"],
        &["new", "--symmetry", "spiral"],
        &["new", "--variant", "sandwich"],
        &["new", "--count", "0"],
        &["new", "--time-limit", "-1"],
    ] {
        let (out, err, code) = run(bin().args(bad));
        assert_eq!((out.as_str(), code), ("", 2), "{bad:?}: {err}");
        assert!(!err.is_empty(), "{bad:?}");
    }
}

/// `check --against-solution` says what the unique solution says of a solver's entries and
/// pencil marks (the editor's `checkAgainstSolution`); plain `check` keeps it to itself.
#[test]
fn check_against_solution_names_wrong_entries_and_marks_only_when_asked() {
    // EASY's solution starts 4 8 3: the entry +5 at A1 is wrong, +8 at A2 right. The second
    // puzzle is a pencil-mark line whose A1 leaves out the 4.
    let entries = format!("+5+8{}", &EASY[2..]);
    let mut places: String = digits(EASY)
        .iter()
        .map(|&d| match d {
            0 => "123456789".to_string(),
            d => (1..=9u8)
                .map(|k| if k == d { (b'0' + d) as char } else { '.' })
                .collect(),
        })
        .collect();
    places.replace_range(0..9, "123.56789");
    let dir = scratch("against");
    let path = write(&dir, "solver.sudoku", &format!("{entries}\n\n{places}\n"));
    let name = path.display().to_string();

    let (plain, _, code) = run(bin().arg("check").arg(&path));
    assert_eq!((plain.as_str(), code), ("", 0));
    let (asked, err, code) = run(bin().args(["check", "--against-solution"]).arg(&path));
    assert_eq!(code, 1, "{asked}{err}");
    assert_eq!(
        asked.lines().collect::<Vec<_>>(),
        [
            format!("{name}:1:1: error: 5 is not the solution's digit at A1"),
            format!(
                "{name}:3:1: error: the pencil marks of A1 leave out the digit the solution puts \
                 there"
            ),
        ]
    );
}

/// The digit a cell character stands for: `1`–`9`, then `A` = 10 onwards.
fn cell_value(ch: char) -> Option<usize> {
    match ch {
        '1'..='9' => Some(ch as usize - '0' as usize),
        'A'..='P' => Some(ch as usize - 'A' as usize + 10),
        _ => None,
    }
}

/// Whether `grid` (rows of `side` digits) holds every digit once in each row, column and box of
/// `tall` rows by `side / tall` columns: checked here cell by cell, not by the library.
fn is_solution(grid: &[Vec<usize>], side: usize, tall: usize) -> bool {
    let wide = side / tall;
    let every = |cells: Vec<usize>| {
        let mut seen = cells;
        seen.sort_unstable();
        seen == (1..=side).collect::<Vec<_>>()
    };
    (0..side).all(|i| {
        let (top, left) = (i / tall * tall, i % tall * wide);
        every(grid[i].clone())
            && every(grid.iter().map(|row| row[i]).collect())
            && every(
                (0..side)
                    .map(|k| grid[top + k / wide][left + k % wide])
                    .collect(),
            )
    })
}

#[test]
fn new_check_solve_and_render_take_the_sizes_with_boxes_that_f_puzzles_has() {
    let dir = scratch("sizes");
    // Side, and the box's height (the largest divisor up to the square root, as f-puzzles).
    for (side, tall) in [(8, 2), (10, 2), (14, 2), (15, 3)] {
        let (made, err, code) =
            run(bin().args(["new", "--size", &side.to_string(), "--seed", "1"]));
        assert_eq!(code, 0, "{side}: {err}");
        assert!(made.contains(&format!("# size: {side}x{side}")), "{made}");
        let path = write(&dir, &format!("{side}.sudoku"), &made);

        let (out, err, code) = run(bin().arg("check").arg(&path));
        assert_eq!((code, out.as_str()), (0, ""), "{side}: {err}");
        assert!(
            err.contains("checked 1 puzzle in 1 file: 0 errors, 0 warnings"),
            "{err}"
        );

        let (solved, err, code) = run(bin().arg("solve").arg(&path));
        assert_eq!(code, 0, "{side}: {err}");
        let rows: Vec<Vec<usize>> = solved
            .lines()
            .filter(|line| !line.starts_with('#'))
            .map(|line| line.chars().filter_map(cell_value).collect::<Vec<_>>())
            .filter(|row| !row.is_empty())
            .collect();
        assert_eq!(rows.len(), side, "{solved}");
        assert!(is_solution(&rows, side, tall), "{side}×{side}: {solved}");

        let (_, err, code) = run(bin().arg("render").arg("--out").arg(&dir).arg(&path));
        assert_eq!(code, 0, "{side}: {err}");
        let svg = std::fs::read_to_string(dir.join(format!("{side}.svg"))).unwrap();
        // One digit drawn for each given.
        let givens = made
            .lines()
            .filter(|line| !line.starts_with('#'))
            .flat_map(|line| line.chars().filter_map(cell_value))
            .count();
        assert_eq!(
            svg.matches("class=\"given\"").count(),
            givens,
            "{side}: {svg}"
        );
    }
    // Without `# size:`, the rows' length tells an 8×8; an 8×8 one-liner is its 64 cells.
    let eight = "8.53...1...17...583...7....64..8.......2.....78.6....2...5.7....";
    let rows: Vec<&str> = (0..8).map(|r| &eight[r * 8..r * 8 + 8]).collect();
    let path = write(
        &dir,
        "plain8.sudoku",
        &format!("{}\n\n{eight}\n", rows.join("\n")),
    );
    let (out, err, code) = run(bin().arg("check").arg(&path));
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    assert!(
        err.contains("checked 2 puzzles in 1 file: 0 errors, 0 warnings"),
        "{err}"
    );
}

#[test]
fn check_setter_on_a_variant_puzzle_tries_each_given_under_its_constraints() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/puzzles/variants/thermo.sudoku"
    ))
    .unwrap();
    let nine = geometry(Size::NINE, Variant::Classic);
    let rules: String = text
        .lines()
        .filter(|l| !l.contains('|') && !l.starts_with("---"))
        .map(|l| format!("{l}\n"))
        .collect();
    let givens = sudoku_lsp::format::parse(&text).puzzles[0]
        .clues()
        .into_owned();
    let dir = scratch("variant-notes");
    let path = write(&dir, "thermo.sudoku", &text);
    let (out, err, code) = run(bin().args(["check", "--setter"]).arg(&path));
    assert_eq!(code, 0, "{out}{err}");
    let count = givens.iter().filter(|&&d| d != 0).count();
    assert!(
        out.contains(&format!("note: {count} givens, not minimal")),
        "{out}"
    );
    let redundant: Vec<usize> = (0..81)
        .filter(|&c| out.contains(&format!("note: {} is not needed", nine.cell_name(c))))
        .collect();
    assert!(!redundant.is_empty(), "{out}");
    // Each given named can go and the puzzle, thermometers and all, stays unique; some given
    // not named cannot.
    let without = |cell: usize| {
        let mut grid = givens.clone();
        grid[cell] = 0;
        let path = write(
            &dir,
            "without.sudoku",
            &format!("{rules}{}\n", line_of(&grid)),
        );
        run(bin().arg("check").arg(&path)).0
    };
    for &cell in &redundant {
        let out = without(cell);
        assert!(
            !out.contains("solutions") && !out.contains("error"),
            "without {cell}: {out}"
        );
    }
    let needed = (0..81)
        .find(|&c| givens[c] != 0 && !redundant.contains(&c))
        .expect("a needed given");
    assert!(
        without(needed).contains("several solutions"),
        "without {needed}"
    );
}
