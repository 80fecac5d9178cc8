//! Constraint lines of variant puzzles on the command line: `diagonal` read as the diagonal
//! variant, a broken constraint named at its line, a wrong line at its fault with its puzzle
//! left unchecked, and every command that writes a file keeping every constraint line as it was.

use crate::common;

use common::cli::{bin, run, scratch, write};

/// Norvig's first diagonal-free puzzle under a `diagonal` line, a killer whose givens break its
/// cage (9 + 8 leave nothing for B1 in 15), and a wrong thermometer: each header written with
/// odd spacing and case, which no command may touch.
const FILE: &str = "\
# title: X by a line
  Diagonal   # both diagonals
4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......

# title: a killer
cage 15:  a1 A2 B1
98...............................................................................

thermo: A1 A3
.................................................................................
";

fn rule_lines(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|line| {
            let word = line.trim_start().to_ascii_lowercase();
            [
                "diagonal", "cage", "thermo", "arrow", "white", "black", "x:", "v:", "negative",
            ]
            .iter()
            .any(|k| word.starts_with(k))
        })
        .collect()
}

#[test]
fn check_reads_diagonal_and_names_a_broken_constraint_at_its_line() {
    let dir = scratch("check");
    let path = write(&dir, "variants.sudoku", FILE);
    let name = path.display().to_string();
    let (out, err, code) = run(bin().arg("check").arg(&path));
    assert_eq!(code, 1, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    // The diagonal puzzle is checked as one (with both diagonals it has no solution); the
    // killer's broken cage is named at its line; the thermometer's gap at its cell.
    assert_eq!(lines.len(), 3, "{out}");
    assert!(
        lines[0].starts_with(&format!("{name}:1:1: error: no solution")),
        "{out}"
    );
    assert_eq!(
        lines[1],
        format!("{name}:6:1: error: cage 15 at A1 A2 B1 is broken: its digits so far (A1 9, A2 8) sum to 17, leaving nothing for its 1 empty cell")
    );
    assert_eq!(
        lines[2],
        format!("{name}:9:12: error: A1 and A3 are not next to each other: a line goes from cell to touching cell")
    );
    // The thermometer's puzzle is not read, and the summary says so rather than leave it
    // uncounted.
    assert!(
        err.contains("checked 2 puzzles in 1 file (1 grid not read: its error says why): 3 errors"),
        "{err}"
    );
    let (out, _, _) = run(bin().args(["check", "--format", "json"]).arg(&path));
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value["summary"]["puzzles"], 2, "{out}");
    assert_eq!(value["summary"]["unread"], 1, "{out}");
}

/// A clue outside the grid that no digits can give (a sandwich of 99, an X-sum of 2, ten
/// skyscrapers on a 9×9) is named at its own line with what the clue can be, where it was
/// found only as a cell with no digit left, at the grid; so is a cage of more cells than
/// digits (it was a 'no solution' at the grid).
#[test]
fn an_outside_clue_out_of_reach_is_named_at_its_line() {
    let dir = scratch("clue-reach");
    let empty = ". . . . . . . . .\n".repeat(9);
    let text = format!(
        "sandwich 99: top 3\nx-sum 2: right C\nskyscraper 10: left A\n\
         cage: A1 A2 A3 A4 A5 A6 A7 A8 A9 B9\n{empty}"
    );
    let path = write(&dir, "clues.sudoku", &text);
    let name = path.display().to_string();
    let (out, err, code) = run(bin().arg("check").arg(&path));
    assert_eq!(code, 1, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            format!(
                "{name}:1:1: error: sandwich 99 at A3 B3 C3 D3 E3 F3 G3 H3 I3 is broken: the \
                 digits between the 1 and the 9 sum to 0, 2–33 or 35, never 99"
            ),
            format!(
                "{name}:2:1: error: x-sum 2 at C9 C8 C7 C6 C5 C4 C3 C2 C1 is broken: the first X \
                 digits, X being the first, sum to 1, 3 or 5–45, never 2"
            ),
            format!(
                "{name}:3:1: error: skyscraper 10 at A1 A2 A3 A4 A5 A6 A7 A8 A9 is broken: a row \
                 or column of 9 shows 1–9 skyscrapers, never 10"
            ),
            format!(
                "{name}:4:1: error: cage at A1 A2 A3 A4 A5 A6 A7 A8 A9 B9 is broken: its 10 \
                 cells cannot all differ: a 9×9 grid has 9 digits"
            ),
        ],
        "{out}"
    );
}

/// A constraint line whose word is no constraint is said at the word, with every constraint's
/// name (a near miss says the likely one), and the next puzzle is still checked.
#[test]
fn an_unknown_constraint_is_named_with_the_known_ones() {
    let dir = scratch("unknown-constraint");
    let empty = ". . . . . . . . .\n".repeat(9);
    let solved =
        "123456789456789123789123456214365897365897214897214365531642978642978531978531642";
    let text = format!("star: A1 > A2\n{empty}\narow: E5 > D4\n{empty}\n{solved}\n");
    let path = write(&dir, "unknown.sudoku", &text);
    let name = path.display().to_string();
    let (out, err, code) = run(bin().arg("check").arg(&path));
    assert_eq!(code, 1, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].starts_with(&format!(
            "{name}:1:1: error: unknown constraint 'star': the constraints are antiknight, \
             antiking, nonconsecutive,"
        )),
        "{out}"
    );
    assert!(
        lines[0].contains(", cage, arrow,") && lines[0].contains("thermo"),
        "{out}"
    );
    assert_eq!(
        lines[1],
        format!("{name}:12:1: error: unknown constraint 'arow': did you mean 'arrow'?")
    );
    assert!(
        err.contains(
            "checked 1 puzzle in 1 file (2 grids not read: their errors say why): 2 errors"
        ),
        "{err}"
    );
}

#[test]
fn fmt_solve_and_marks_keep_every_constraint_line_as_it_was() {
    let dir = scratch("keep");
    // A diagonal puzzle that has a solution, so that `solve` writes one.
    let solvable = FILE.replace(
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        "2.............62....1....7...6..8...3...9...7...6..4...4....8....52.............3",
    );
    for (k, args) in [
        &["fmt", "--style", "grid"][..],
        &["fmt", "--style", "compact"],
        &["fmt", "--style", "line"],
        &["solve"],
        &["marks"],
    ]
    .into_iter()
    .enumerate()
    {
        // Each command on its own copy; `fmt` writes it in place, the others to standard output.
        let path = write(&dir, &format!("{k}.sudoku"), &solvable);
        let (out, err, code) = run(bin().args(args).arg(&path));
        assert!(code <= 1, "{args:?}: {err}");
        let written = if out.is_empty() {
            std::fs::read_to_string(&path).unwrap()
        } else {
            out
        };
        assert_eq!(
            rule_lines(&written),
            rule_lines(&solvable),
            "{args:?}:\n{written}"
        );
        assert!(written.contains("# title: a killer"), "{args:?}");
    }
    // `solve` filled in the diagonal puzzle: its solution has both diagonals whole.
    let path = write(&dir, "solve.sudoku", &solvable);
    let (out, _, _) = run(bin().arg("solve").arg(&path));
    let solution: String = out
        .lines()
        .skip_while(|line| {
            !line
                .trim_start()
                .to_ascii_lowercase()
                .starts_with("diagonal")
        })
        .nth(1)
        .unwrap()
        .chars()
        .take(81)
        .collect();
    assert!(!solution.contains('.'), "{out}");
    let digit = |r: usize, c: usize| solution.as_bytes()[r * 9 + c];
    let mut main: Vec<u8> = (0..9).map(|i| digit(i, i)).collect();
    let mut anti: Vec<u8> = (0..9).map(|i| digit(i, 8 - i)).collect();
    main.sort_unstable();
    anti.sort_unstable();
    assert_eq!(main, b"123456789");
    assert_eq!(anti, b"123456789");
}

#[test]
fn a_constraint_at_the_top_of_a_large_collection_applies_to_every_puzzle() {
    // Large enough to be read in pieces, most of them classic one-liners alone, which are
    // solved without being parsed unless the file's header says otherwise. The puzzle's
    // solution starts 4 8: a cage of 12 on A1 A2 keeps it, one of 10 leaves none.
    let easy =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n";
    let dir = scratch("large");
    let puzzles = 20_000;
    let path = write(
        &dir,
        "kept.txt",
        &format!("cage 12: A1 A2\n\n{}", easy.repeat(puzzles)),
    );
    let (out, err, code) = run(bin().arg("check").arg(&path));
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    assert!(
        err.contains(&format!("checked {puzzles} puzzles in 1 file: 0 errors")),
        "{err}"
    );
    let path = write(
        &dir,
        "none.txt",
        &format!("cage 10: A1 A2\n\n{}", easy.repeat(puzzles)),
    );
    let (out, err, code) = run(bin().arg("check").arg(&path));
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(&format!(
            "checked {puzzles} puzzles in 1 file: {puzzles} errors"
        )),
        "{err}"
    );
    // Each says why: the cage cannot hold with what the givens leave A1 and A2.
    assert!(
        out.lines().all(|l| l.contains(
            "error: no solution: cage 10 at A1 A2 cannot hold with the candidates the other \
             rules leave its cells: A1 4 and 5, not 1 (box 1: C3)"
        )),
        "{}",
        &out[..out.len().min(2000)]
    );
}

/// The houses of a 9×9 beyond rows, columns and boxes that `header` names, computed here (not
/// by the library): each a list of (row, column).
fn extra_houses(header: &str) -> Vec<Vec<(usize, usize)>> {
    let mut houses = Vec::new();
    for line in header.lines() {
        match line {
            "diagonal" => {
                houses.push((0..9).map(|i| (i, i)).collect());
                houses.push((0..9).map(|i| (i, 8 - i)).collect());
            }
            "diagonal \\" => houses.push((0..9).map(|i| (i, i)).collect()),
            "diagonal /" => houses.push((0..9).map(|i| (i, 8 - i)).collect()),
            "windoku" => {
                for (top, left) in [(1, 1), (1, 5), (5, 1), (5, 5)] {
                    houses.push((0..9).map(|i| (top + i / 3, left + i % 3)).collect());
                }
            }
            "disjoint" => {
                for place in 0..9 {
                    houses.push(
                        (0..9)
                            .map(|b| (b / 3 * 3 + place / 3, b % 3 * 3 + place % 3))
                            .collect(),
                    );
                }
            }
            _ => panic!("{line}"),
        }
    }
    houses
}

#[test]
fn windoku_disjoint_groups_and_one_diagonal_are_solved_and_checked() {
    let dir = scratch("houses");
    for header in [
        "windoku",
        "disjoint",
        "diagonal \\",
        "diagonal /",
        "windoku\ndisjoint\ndiagonal",
    ] {
        // An empty grid has many solutions: `solve` writes one, which must keep every house.
        let empty = ".".repeat(81);
        let path = write(&dir, "empty.sudoku", &format!("{header}\n{empty}\n"));
        let (out, err, code) = run(bin().arg("solve").arg(&path));
        // Exit 1: several solutions is said, and one of them written.
        assert_eq!(code, 1, "{header}: {err}");
        assert!(err.contains("several solutions"), "{header}: {err}");
        let solution: Vec<u8> = out.lines().last().unwrap().bytes().take(81).collect();
        let digit = |(r, c): (usize, usize)| solution[r * 9 + c];
        let mut houses = extra_houses(header);
        for i in 0..9 {
            houses.push((0..9).map(|k| (i, k)).collect());
            houses.push((0..9).map(|k| (k, i)).collect());
            houses.push(
                (0..9)
                    .map(|k| (i / 3 * 3 + k / 3, i % 3 * 3 + k % 3))
                    .collect(),
            );
        }
        for house in houses {
            let mut digits: Vec<u8> = house.iter().map(|&cell| digit(cell)).collect();
            digits.sort_unstable();
            assert_eq!(digits, b"123456789", "{header}: {house:?} in {out}");
        }
    }
    // Two 5s in B2 and D4: apart in rows, columns and boxes, together in the first window.
    let mut grid = vec![b'.'; 81];
    grid[10] = b'5';
    grid[30] = b'5';
    let grid = String::from_utf8(grid).unwrap();
    let path = write(&dir, "conflict.sudoku", &format!("windoku\n{grid}\n"));
    let (out, _, code) = run(bin().arg("check").arg(&path));
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("5 appears twice in window 1 (at B2): B2 and D4"),
        "{out}"
    );
    // A windoku the logic solves, rated and hinted with its windows among the houses.
    let puzzle =
        ".234.6.8..74...2.69..278.34...81.6.5.65...41.418..73.2...39..6.3.768..41.8.7.59..";
    let path = write(&dir, "windoku.sudoku", &format!("windoku\n{puzzle}\n"));
    let (out, err, code) = run(bin().arg("rate").arg(&path));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("1.2 Easy (Hidden single)"), "{out}");
    let (out, err, code) = run(bin().arg("check").arg(&path));
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
}

/// The editor sees what `check` says: a window's conflict at its cells, a cage's verdict; every
/// request on a constraint line answers; a cage edited out of reach is named at its line.
#[test]
fn the_server_reads_constraint_lines_as_check_does() {
    use common::{full_capabilities, Server};
    use serde_json::json;

    let mut grid = vec!['.'; 81];
    grid[10] = '5';
    grid[30] = '5';
    let grid: String = grid.into_iter().collect();
    let text = format!("windoku\n{grid}\n\ncage 10: A1 A2\n{grid}\n");
    let mut server = Server::spawn();
    server.initialize(full_capabilities());
    let uri = "file:///t/variants.sudoku";
    let diagnostics = server.open_and_check(uri, &text);
    let codes: Vec<(&str, u64, u64)> = diagnostics
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap_or(""),
                d["range"]["start"]["line"].as_u64().unwrap(),
                d["range"]["start"]["character"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        codes,
        [
            ("conflict", 1, 10),
            ("conflict", 1, 30),
            ("several-solutions", 4, 0)
        ],
        "{diagnostics:#?}"
    );
    assert!(diagnostics[0]["message"]
        .as_str()
        .unwrap()
        .contains("window 1 (at B2)"));
    // Requests on and around the constraint lines answer (no error).
    let line =
        |n: u64| json!({"start": {"line": n, "character": 0}, "end": {"line": n, "character": 5}});
    for (method, params) in [
        (
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": {"line": 3, "character": 2}}),
        ),
        (
            "textDocument/semanticTokens/full",
            json!({"textDocument": {"uri": uri}}),
        ),
        (
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": uri}}),
        ),
        (
            "textDocument/foldingRange",
            json!({"textDocument": {"uri": uri}}),
        ),
        (
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri}, "range": line(0), "context": {"diagnostics": []}}),
        ),
        (
            "textDocument/formatting",
            json!({"textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": true}}),
        ),
    ] {
        let response = server.request(method, params);
        assert!(response.get("error").is_none(), "{method}: {response}");
    }
    // The cage's sum edited to 30, out of reach for two cells: the line says so.
    server.change(
        uri,
        2,
        vec![json!({"range": {"start": {"line": 3, "character": 5}, "end": {"line": 3, "character": 7}}, "text": "30"})],
    );
    let diagnostics = server.diagnostics(uri, 2);
    let codes: Vec<&str> = diagnostics
        .iter()
        .map(|d| d["code"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(
        codes,
        ["conflict", "conflict", "broken-constraint"],
        "{diagnostics:#?}"
    );
    assert_eq!(
        diagnostics[2]["range"]["start"]["line"], 3,
        "{diagnostics:#?}"
    );
    assert_eq!(
        diagnostics[2]["message"],
        "cage 30 at A1 A2 is broken: its 2 empty cells can add at most 17, short of 30"
    );
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

/// Every example of `puzzles/variants/` checks clean (one solution, nothing broken) and `solve`
/// writes the solution its `# solution:` line gives, its constraint lines kept.
#[test]
fn every_variant_example_has_one_solution_the_one_it_says() {
    let files = common::shipped_puzzles(&["variants"]);
    assert!(files.len() >= 5, "{files:?}");
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let (out, err, code) = run(bin().arg("check").arg(&path));
        assert_eq!((code, out.as_str()), (0, ""), "{}: {err}", path.display());
        let expected = text
            .lines()
            .find_map(|line| line.strip_prefix("# solution: "))
            .unwrap_or_else(|| panic!("{} has no solution line", path.display()));
        let (out, err, code) = run(bin().arg("solve").arg(&path));
        assert_eq!(code, 0, "{}: {err}", path.display());
        assert_eq!(rule_lines(&out), rule_lines(&text), "{}", path.display());
        let digits: String = out
            .lines()
            .filter(|line| !line.starts_with('#') && !line.contains(':') && !line.contains('-'))
            .flat_map(|line| line.chars().filter(char::is_ascii_digit))
            .collect();
        assert_eq!(digits, expected, "{}:\n{out}", path.display());
    }
}

/// A jigsaw (solved by its regions in `every_variant_example_…`): its grid written without the
/// box separators it does not have, its regions block kept as written, and a wrong block said
/// at its fault.
#[test]
fn a_jigsaw_is_solved_by_its_regions_and_written_without_boxes() {
    let example = common::shipped_puzzles(&["variants"])
        .into_iter()
        .find(|p| p.ends_with("jigsaw.sudoku"))
        .expect("puzzles/variants/jigsaw.sudoku");
    let text = std::fs::read_to_string(example).unwrap();
    let regions: Vec<&str> = text
        .lines()
        .skip_while(|l| *l != "regions:")
        .take(10)
        .collect();
    // The grid rows written with box separators, as a classic grid would be.
    let barred: String = text
        .lines()
        .map(|line| match line.len() {
            17 => format!("{} | {} | {}\n", &line[..5], &line[6..11], &line[12..]),
            _ => format!("{line}\n"),
        })
        .collect();
    assert!(barred.contains(" | "), "{barred}");
    let dir = scratch("jigsaw");
    let path = write(&dir, "jigsaw.sudoku", &barred);
    let (out, err, code) = run(bin().arg("fmt").arg(&path));
    assert_eq!(code, 0, "{out}{err}");
    let formatted = std::fs::read_to_string(&path).unwrap();
    assert!(!formatted.contains('|'), "{formatted}");
    let kept: Vec<&str> = formatted
        .lines()
        .skip_while(|l| *l != "regions:")
        .take(10)
        .collect();
    assert_eq!(kept, regions);
    let (out, _, code) = run(bin().arg("marks").arg(&path));
    assert_eq!(code, 0);
    assert!(!out.contains('|') && !out.contains("-+-"), "{out}");
    // One letter changed: region B gets ten cells, region C eight.
    let wrong = text.replacen("AAABCCCCC", "AAABBCCCC", 1);
    let path = write(&dir, "wrong.sudoku", &wrong);
    let (out, _, code) = run(bin().arg("check").arg(&path));
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(":5:4: error: each region of a 9×9 puzzle has 9 cells, one of each digit: region 'B' has 10, 'C' has 8"),
        "{out}"
    );
}

/// A grid without boxes (5×5, 7×7, 11×11, 13×13) is read with regions of its own, or
/// `regions: none`; without them it is an error at its first row, windoku on it is an error
/// too, and the converters give such a grid from f-puzzles or sigh `regions: none`.
#[test]
fn a_grid_without_boxes_is_read_with_regions_of_its_own() {
    let dir = scratch("boxless");
    let latin = "1234523451345124512351234";
    let file = format!(
        "regions: none\n{latin} a Latin square\n\n\
         # title: no regions\n{}\n\n\
         windoku\nregions: none\n{latin}\n",
        ". . . . . . .\n".repeat(7).trim_end()
    );
    let path = write(&dir, "boxless.sudoku", &file);
    let (out, err, code) = run(bin().arg("check").arg(&path));
    assert_eq!(code, 1, "{out}{err}");
    let shown = path.display();
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            format!(
                "{shown}:5:1: error: a 7×7 grid has no boxes: give its regions in a 'regions:' \
                 block above it (7 rows of 7 letters, a letter a region), or write 'regions: none'"
            ),
            format!(
                "{shown}:15:1: error: a 5×5 grid has no boxes, and windoku's windows are cut \
                 from boxes: drop the line"
            ),
        ]
    );
    assert!(err.contains("checked 1 puzzle"), "{err}");
    // Read as a one-liner (not a row of a 25×25), solved, and written without box lines.
    let one = write(
        &dir,
        "one.sudoku",
        "regions: none\n.2345.3451345.2451.35.234\n",
    );
    let (out, err, code) = run(bin().arg("solve").arg(&one));
    assert_eq!(
        (code, out.as_str()),
        (0, format!("regions: none\n{latin}\n").as_str()),
        "{err}"
    );
    // f-puzzles' default boxes of a prime side are its rows: no boxes.
    let json = format!(
        "{{\"size\": 5, \"grid\": [{}]}}",
        vec![format!("[{}]", ["{}"; 5].join(", ")); 5].join(", ")
    );
    let fpuzzles = write(&dir, "five.json", &json);
    let (out, err, code) = run(bin().arg("import").arg(&fpuzzles));
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, format!("regions: none\n{}", ". . . . .\n".repeat(5)));
    let sigh = write(&dir, "five.iss", ".Shape~5x5\n");
    let (out, err, code) = run(bin().args(["import", "--from", "sigh"]).arg(&sigh));
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, format!("regions: none\n{}", ". . . . .\n".repeat(5)));
    let (_, err, code) = run(bin().args(["new", "--size", "7"]));
    assert_eq!(code, 2);
    assert!(err.contains("a 7×7 grid has no boxes"), "{err}");
}

/// A variant puzzle with no solution says why when its rules' pencil marks show it: the cell no
/// digit fits, each digit's reason named, or the constraint that cannot hold with what the
/// others leave its cells.
#[test]
fn no_solution_names_the_constraints_that_leave_none() {
    let empty_rows = ".........\n".repeat(8);
    let file = format!(
        "cage 3: A1 A2\nthermo: A3 A4 A5\n....3....\n{empty_rows}\n\
         cage 3: A1 A2\ncage 3: A5 A6\n.........\n{empty_rows}\n\
         cage 3: A1 A2\n..1......\n{empty_rows}"
    );
    let dir = scratch("why-none");
    let path = write(&dir, "none.sudoku", &file);
    let (out, err, code) = run(bin().arg("check").arg(&path));
    assert_eq!(code, 1, "{out}{err}");
    let shown = path.display();
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            format!(
                "{shown}:3:3: error: no digit fits in A3: 1 (cage 3 at A1 A2), 2 and 4–9 \
                 (thermo at A3 A4 A5), 3 (row A: A5)"
            ),
            format!(
                "{shown}:13:1: error: no solution: cage 3 at A1 A2 cannot hold with the \
                 candidates the other rules leave its cells: A1 3–9, not 1 and 2 (cage 3 at A5 \
                 A6); A2 3–9, not 1 and 2 (cage 3 at A5 A6)"
            ),
            format!(
                "{shown}:25:1: error: no solution: cage 3 at A1 A2 cannot hold with the \
                 candidates the other rules leave its cells: A1 2–9, not 1 (row A and box 1: \
                 A3); A2 2–9, not 1 (row A and box 1: A3)"
            ),
        ]
    );
}

/// `rate`, `explain` and `hint` on variant puzzles: each example rated on the variant scale
/// (said in the text and in JSON), its steps told with the constraint behind each, and the
/// three hint levels going from where to look to the whole step.
#[test]
fn variant_puzzles_are_rated_explained_and_hinted_on_the_variant_scale() {
    for path in common::shipped_puzzles(&["variants"]) {
        let (out, err, code) = run(bin().arg("rate").arg(&path));
        assert_eq!(code, 0, "{}: {err}", path.display());
        assert!(
            out.contains(", variant scale)"),
            "{}: {out}",
            path.display()
        );
        assert!(!out.contains(">="), "a lower bound: {out}");
    }
    let killer = common::shipped_puzzles(&["variants"])
        .into_iter()
        .find(|p| p.ends_with("killer.sudoku"))
        .expect("the killer example");
    let (out, err, code) = run(bin().args(["rate", "--format", "json"]).arg(&killer));
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).expect(&out);
    assert_eq!(json[0]["scale"], "variant", "{out}");
    assert_eq!(json[0]["complete"], true, "{out}");

    let (out, err, code) = run(bin().arg("explain").arg(&killer));
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].ends_with("Hard (Claiming, variant scale), 134 steps"),
        "{}",
        lines[0]
    );
    assert_eq!(
        lines[1],
        "   1. [2.0] Cage 24 at A1 A2 B1 B2 can hold only 3 4 8 9, 3 5 7 9 or 3 6 7 8: 1 and 2 leave A1, B1, B2"
    );

    let name = killer.display().to_string();
    let hints = [
        "look at cage 24 at A1 A2 B1 B2",
        "look at which digits cage 24 at A1 A2 B1 B2 allows",
        "Cage 24 at A1 A2 B1 B2 can hold only 3 4 8 9, 3 5 7 9 or 3 6 7 8: 1 and 2 leave A1, B1, B2",
    ];
    for (level, hint) in (1..=3).zip(hints) {
        let (out, err, code) = run(bin()
            .args(["hint", "--level", &level.to_string()])
            .arg(&killer));
        assert_eq!(code, 0, "{err}");
        assert_eq!(out, format!("{name}:1:1: hint: {hint}\n"));
    }
}

/// A 4×4 with a thermometer and two solutions (A1 A2 C1 C2 swap 1 and 2).
const TWO_WAYS: &str = "\
# title: two ways
thermo: B1 B2
. . | 3 4
3 4 | 1 2
----+----
. . | 4 3
4 3 | 2 1
";

/// `check --setter` on a puzzle with several solutions says where they differ and the givens
/// any one of which leaves one.
#[test]
fn check_setter_says_where_the_solutions_of_a_variant_differ() {
    let dir = scratch("setter-several");
    let path = write(&dir, "two.sudoku", TWO_WAYS);
    let name = path.display().to_string();
    let (out, err, code) = run(bin().args(["check", "--setter"]).arg(&path));
    // A warning and a note: exit code 0, as without `--setter`.
    assert_eq!(code, 0, "{out}{err}");
    let lines: Vec<&str> = out.lines().take(2).collect();
    assert_eq!(
        lines,
        [
            format!("{name}:1:1: warning: several solutions: A1 can be 1 or 2"),
            format!(
                "{name}:1:1: note: solutions differ in 4 cells (of 2 solutions): A1 {{1 2}}, \
                 A2 {{1 2}}, C1 {{1 2}}, C2 {{1 2}}; any one of these givens leaves one solution: \
                 1 at A1, 2 at A1, 1 at A2, 2 at A2, 1 at C1, 2 at C1, 1 at C2, 2 at C2"
            ),
        ],
        "{out}"
    );
}

/// A variant puzzle whose constraints leave no solution only by search (its rules' pencil marks
/// do not show it): `check` names the smallest set of constraints and givens that cannot hold
/// together, each line as related information. Two V dots on a 4×4: row A's and column 4's
/// other pairs then sum to 5 too, and box 2 would hold two digits twice.
#[test]
fn no_solution_names_the_constraints_that_cannot_hold_together() {
    let text = "# size: 4x4\nblack: C3 D3\nv: C4 D4\nthermo: C1 D1\nv: A1 A2\n. . . .\n. . . .\n. . . .\n. . . .\n";
    let dir = scratch("rule-core");
    let path = write(&dir, "core.sudoku", text);
    let (out, err, code) = run(bin().args(["check", "--format", "json"]).arg(&path));
    assert_eq!(code, 1, "{out}{err}");
    let json: serde_json::Value = serde_json::from_str(&out).expect(&out);
    let finding = &json["findings"][0];
    assert_eq!(finding["code"], "no-solution", "{out}");
    assert_eq!(
        finding["message"],
        "no solution: v dot at C4 D4 and v dot at A1 A2 cannot hold together on an empty grid; \
         without any one of them there is a solution"
    );
    let related: Vec<(u64, &str)> = finding["related"]
        .as_array()
        .expect("related")
        .iter()
        .map(|r| (r["line"].as_u64().unwrap(), r["message"].as_str().unwrap()))
        .collect();
    assert_eq!(
        related,
        [
            (3, "v dot at C4 D4, part of what leaves no solution"),
            (5, "v dot at A1 A2, part of what leaves no solution"),
        ]
    );
}

/// The constraint lines of `text` beside its grids: each puzzle's (cage, dot, thermo) lines.
fn constraint_count(text: &str) -> usize {
    sudoku_lsp::format::parse(text)
        .puzzles
        .iter()
        .map(|p| p.rules.as_ref().map_or(0, |r| r.constraints.len()))
        .sum()
}

/// `new --variant killer` (and kropki, xv, thermo): puzzles whose constraints `check` reads
/// clean (one solution, every constraint kept), rated on the variant scale as `rate` rates
/// them, each remade by its source line; killers mostly without a given.
#[test]
fn new_makes_variant_puzzles_that_check_clean_and_rate_as_they_say() {
    let dir = scratch("new-variants");
    let out = {
        let (out, err, code) = run(bin().args(["new", "--variant", "killer", "--seed", "3"]));
        assert_eq!(code, 0, "{err}");
        out
    };
    assert!(
        out.contains("# source: sudoku-lsp new --seed 3 --variant killer\n"),
        "{out}"
    );
    assert!(out.contains("\ncage "), "{out}");
    assert!(constraint_count(&out) >= 15, "{out}");
    for (genre, size, line) in [
        ("killer", "9", "cage "),
        ("kropki", "6", "negative: white black"),
        ("xv", "9", "negative: x v"),
        ("thermo", "6", "thermo: "),
    ] {
        let args = [
            "new",
            "--variant",
            genre,
            "--size",
            size,
            "--seed",
            "9",
            "--count",
            "2",
        ];
        let (out, err, code) = run(bin().args(args));
        assert_eq!(code, 0, "{genre}: {err}");
        let document = sudoku_lsp::format::parse(&out);
        assert!(
            document.problems.is_empty(),
            "{genre}: {:?}",
            document.problems
        );
        assert_eq!(document.puzzles.len(), 2, "{genre}: {out}");
        assert!(out.contains(line), "{genre}: {out}");
        let path = write(&dir, &format!("{genre}.sudoku"), &out);
        let (checked, err, code) = run(bin().arg("check").arg(&path));
        assert_eq!((checked.as_str(), code), ("", 0), "{genre}: {err}\n{out}");
        // `rate` says what each difficulty line says, on the variant scale.
        let (rated, _, _) = run(bin().arg("rate").arg(&path));
        let said: Vec<String> = out
            .lines()
            .filter_map(|l| l.strip_prefix("# difficulty: Variant "))
            .map(|l| l.split(" (").next().unwrap().to_string())
            .collect();
        let rates: Vec<String> = rated
            .lines()
            .map(|l| {
                assert!(l.ends_with(", variant scale)"), "{genre}: {l}");
                let rating = l.rsplit(": ").next().unwrap();
                rating.split(" (").next().unwrap().to_string()
            })
            .collect();
        assert_eq!(said, rates, "{genre}: {out}\n{rated}");
        // Each source line makes its puzzle again, alone.
        for block in out.split("# title: ").filter(|b| !b.is_empty()) {
            let source = block
                .lines()
                .find_map(|l| l.strip_prefix("# source: sudoku-lsp "))
                .unwrap_or_else(|| panic!("{block}"));
            assert!(source.contains(&format!("--variant {genre}")), "{source}");
            let (again, err, code) = run(bin().args(source.split(' ')));
            assert_eq!(code, 0, "{source}: {err}");
            let body = |text: &str| text.lines().skip(1).collect::<Vec<_>>().join("\n");
            assert_eq!(body(&again), body(block), "{source}");
        }
    }
    for (bad, why) in [
        (
            &["--variant", "sandwich"][..],
            "'sandwich' is not a variant new makes",
        ),
        (&["--variant", "killer", "--size", "16"], "up to 9×9"),
        (
            &["--variant", "killer", "--layout", "line"],
            "--layout block",
        ),
    ] {
        let (out, err, code) = run(bin().arg("new").args(bad));
        assert_eq!((out.as_str(), code), ("", 2), "{bad:?}: {err}");
        assert!(err.contains(why), "{bad:?}: {err}");
    }
}
