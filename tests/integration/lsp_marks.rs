//! Pencil marks in the language server, driven over stdio as an editor would: the checks on
//! the user's marks (a hint with a quick fix for a mark a placed digit rules out, errors for a
//! cell or a unit left without a mark), and the actions on them (Fill in pencil marks, Remove
//! naked twins, Apply next step), each applied and the result read back cell by cell. The
//! seeds' naked-twins cases are checked against an independent implementation of the rule on
//! strings of digits, the way the seeds wrote it.

use crate::common;

use common::{action_edits, apply_text_edits, titled, Enc, Server};
use serde_json::{json, Value};
use sudoku_lsp::format::{self, marks_grid, DigitSet, Puzzle};
use sudoku_lsp::grid::{geometry, Size, Variant};

/// The seeds' naked-twins puzzle.
const TWINS: &str =
    "1.4.9..68956.18.34..84.695151.....868..6...1264..8..97781923645495.6.823.6.854179";
/// The seeds' diagonal puzzle.
const DIAGONAL: &str =
    "2.............62....1....7...6..8...3...9...7...6..4...4....8....52.............3";

fn givens(line: &str) -> Vec<u8> {
    line.bytes()
        .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
        .collect()
}

/// Each cell's marks as a string of digits, as the seeds keep them ("237").
type Values = Vec<String>;

/// Elimination alone, on strings: every digit no filled peer holds.
fn eliminated(givens: &[u8], variant: Variant) -> Values {
    let g = geometry(Size::NINE, variant);
    (0..81)
        .map(|cell| {
            if givens[cell] != 0 {
                return givens[cell].to_string();
            }
            (1..=9u8)
                .filter(|&d| g.peers[cell].iter().all(|&p| givens[p as usize] != d))
                .map(|d| d.to_string())
                .collect()
        })
        .collect()
}

/// The seeds' naked twins on strings, to a fixpoint: in each unit, two cells with the same two
/// digits take both digits from every other cell of the unit.
fn naked_twins_on_strings(mut values: Values, variant: Variant) -> Values {
    let g = geometry(Size::NINE, variant);
    loop {
        let before = values.clone();
        for unit in &g.units {
            let cells: Vec<usize> = unit.cells.iter().map(|&c| c as usize).collect();
            for (i, &a) in cells.iter().enumerate() {
                for &b in &cells[i + 1..] {
                    if values[a].len() != 2 || values[a] != values[b] {
                        continue;
                    }
                    let twin = values[a].clone();
                    for &other in &cells {
                        if other != a && other != b {
                            values[other].retain(|c| !twin.contains(c));
                        }
                    }
                }
            }
        }
        if values == before {
            return values;
        }
    }
}

fn sets(values: &Values) -> Vec<DigitSet> {
    values
        .iter()
        .map(|v| v.bytes().map(|b| 1 << (b - b'1')).sum())
        .collect()
}

fn only_puzzle(text: &str) -> Puzzle {
    let doc = format::parse(text);
    assert!(doc.problems.is_empty(), "{:?}\n{text}", doc.problems);
    assert_eq!(doc.puzzles.len(), 1, "{text}");
    doc.puzzles.into_iter().next().unwrap()
}

fn actions(server: &mut Server, uri: &str, line: u64, character: u64) -> Vec<Value> {
    let at = json!({"line": line, "character": character});
    server.code_actions(uri, json!({"start": at, "end": at}))
}

fn titles(actions: &[Value]) -> Vec<&str> {
    actions.iter().filter_map(|a| a["title"].as_str()).collect()
}

/// Open `text`, take the action whose title starts with `prefix` at (line, character), apply
/// it as the editor would, and give the new text.
fn apply(server: &mut Server, uri: &str, text: &str, at: (u64, u64), prefix: &str) -> String {
    let offered = actions(server, uri, at.0, at.1);
    let action = titled(&offered, prefix)
        .unwrap_or_else(|| panic!("no '{prefix}…' among {:?}", titles(&offered)));
    apply_text_edits(text, &action_edits(action, uri), Enc::Utf16)
}

fn started() -> Server {
    let mut server = Server::spawn();
    server.initialize_full();
    server
}

/// The seeds' naked-twins cases: a pencil-mark grid after elimination, "Remove naked twins"
/// applied over the protocol, and every cell of the result compared with the seeds' rule on
/// strings.
#[test]
fn remove_naked_twins_gives_the_seeds_grid_cell_by_cell() {
    let mut server = started();
    for (n, (line, variant)) in [(TWINS, Variant::Classic), (DIAGONAL, Variant::Diagonal)]
        .into_iter()
        .enumerate()
    {
        let before = eliminated(&givens(line), variant);
        let expected = naked_twins_on_strings(before.clone(), variant);
        assert_ne!(before, expected, "case {n} is about naked twins");
        let header = if variant == Variant::Diagonal {
            "# variant: diagonal\n"
        } else {
            ""
        };
        let text = format!(
            "{header}{}",
            marks_grid(Size::NINE, &givens(line), &sets(&before), None)
        );
        let uri = format!("file:///twins{n}.sudoku");
        server.open(&uri, 1, &text);
        let row = header.lines().count() as u64;
        let after = apply(&mut server, &uri, &text, (row, 0), "Remove naked twins");
        let read = only_puzzle(&after);
        let marks = read.marks.as_deref().expect("still a pencil-mark grid");
        let g = geometry(Size::NINE, variant);
        for (cell, want) in sets(&expected).iter().enumerate() {
            assert_eq!(
                marks[cell],
                *want,
                "case {n}, {}: got {:b}, the seeds' rule gives {}",
                g.cell_name(cell),
                marks[cell],
                expected[cell]
            );
        }
    }
    server.shutdown_and_exit();
}

#[test]
fn a_ruled_out_mark_is_a_hint_with_a_quick_fix_and_a_cell_without_marks_an_error() {
    let mut server = started();
    let before = eliminated(&givens(TWINS), Variant::Classic);
    let grid = marks_grid(Size::NINE, &givens(TWINS), &sets(&before), None);
    // A2 gets a 1 back, which A1 rules out.
    let text = grid.replacen("1  237", "1  1237", 1);
    let uri = "file:///ruled-out.sudoku";
    server.open(uri, 1, &text);
    let diagnostics = server.diagnostics(uri, 1);
    let hint = diagnostics
        .iter()
        .find(|d| d["code"] == "mark-ruled-out")
        .unwrap_or_else(|| panic!("{diagnostics:#?}"));
    assert_eq!(hint["message"], "1 cannot go in A2: A1 holds 1");
    assert_eq!(hint["severity"], 4);
    assert_eq!(hint["range"]["start"], json!({"line": 0, "character": 3}));
    let hover = server.hover(uri, json!({"line": 0, "character": 4}));
    let shown = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(shown.contains("Your pencil marks: {1, 2, 3, 7}"), "{shown}");
    assert!(shown.contains("Pencil marks: {2, 3, 7}"), "{shown}");
    let fixed = apply(
        &mut server,
        uri,
        &text,
        (0, 4),
        "Remove 1 from A2 (A1 holds 1)",
    );
    assert_eq!(
        only_puzzle(&fixed).marks,
        only_puzzle(&grid).marks,
        "the fix takes the 1 away and nothing else"
    );

    // As a line of places: a cell with no mark left, and 9 marked nowhere in row E.
    let mut marks = sets(&before);
    marks[1] = 0;
    for e in [38, 41] {
        marks[e] &= !(1 << 8);
    }
    let line = format::marks_line(Size::NINE, &marks) + "\n";
    server.open("file:///line.sudoku", 1, &line);
    let diagnostics = server.diagnostics("file:///line.sudoku", 1);
    let errors: Vec<&str> = diagnostics
        .iter()
        .filter(|d| d["code"] == "no-mark")
        .filter_map(|d| d["message"].as_str())
        .collect();
    assert!(
        errors
            .iter()
            .any(|m| m.starts_with("no pencil mark left in A2")),
        "{errors:?}"
    );
    assert!(
        errors
            .iter()
            .any(|m| m.starts_with("no place left for 9 in row E")),
        "{errors:?}"
    );
    server.shutdown_and_exit();
}

/// The seeds' naked-twins puzzle as a grid block of plain rows, with a title.
fn twins_block() -> String {
    let rows: String = (0..9)
        .map(|r| format!("{}\n", &TWINS[r * 9..r * 9 + 9]))
        .collect();
    format!("# title: seeds\n{rows}")
}

#[test]
fn fill_in_pencil_marks_places_nothing_and_writes_what_the_command_line_writes() {
    let mut server = started();
    let text = twins_block();
    let uri = "file:///fill.sudoku";
    server.open(uri, 1, &text);
    let filled = apply(&mut server, uri, &text, (1, 0), "Fill in pencil marks");
    let puzzle = only_puzzle(&filled);
    let expected = naked_twins_on_strings(
        eliminated(&givens(TWINS), Variant::Classic),
        Variant::Classic,
    );
    assert_eq!(puzzle.marks.as_deref(), Some(&sets(&expected)[..]));
    // Nothing is placed: E2, left with only 3 once the twins 79 take 7, is written `*3`.
    assert_eq!(puzzle.givens, givens(TWINS), "{filled}");
    assert!(filled.lines().nth(6).unwrap().contains("*3"), "{filled}");
    assert!(filled.lines().all(|l| l == l.trim_end()), "{filled:?}");

    // `sudoku-lsp marks` writes the same text.
    let dir = common::cli::scratch("lsp-fill");
    let path = common::cli::write(&dir, "fill.sudoku", &text);
    let (out, err, code) = common::cli::run(common::cli::bin().arg("marks").arg(&path));
    assert_eq!((code, err.as_str(), out.as_str()), (0, "", filled.as_str()));

    server.change(uri, 2, vec![json!({"text": filled})]);
    let diagnostics = server.diagnostics(uri, 2);
    assert!(
        diagnostics.iter().all(|d| d["code"] != "mark-ruled-out"),
        "{diagnostics:#?}"
    );
    let offered = actions(&mut server, uri, 1, 0);
    let titles_now = titles(&offered);
    assert!(
        titles_now
            .iter()
            .all(|t| !t.starts_with("Remove every mark") && !t.starts_with("Fill in pencil marks")),
        "filled in again it would change nothing: {titles_now:?}"
    );
    let stepped = apply(&mut server, uri, &filled, (1, 0), "Apply next step: ");
    let next = only_puzzle(&stepped);
    let (before, after) = (puzzle.marks.unwrap(), next.marks.unwrap());
    let g = geometry(Size::NINE, Variant::Classic);
    assert!((0..81).any(|c| before[c] != after[c]));
    for c in 0..81 {
        // A step only takes marks away, and places digits only where it says.
        assert_eq!(after[c] & !before[c], 0, "{}", g.cell_name(c));
        assert!(next.givens[c] == puzzle.givens[c] || after[c].count_ones() == 1);
    }
    server.shutdown_and_exit();
}

/// A one-liner left with a lone mark cannot be filled in on one line (a line of places reads
/// one mark as placed): the editor offers no Fill, and `sudoku-lsp marks` leaves it with a note.
#[test]
fn a_one_liner_left_with_a_lone_mark_is_not_filled_in() {
    let mut server = started();
    let text = format!("{TWINS} from the seeds\n");
    let uri = "file:///line.sudoku";
    server.open(uri, 1, &text);
    let _ = server.diagnostics(uri, 1);
    let offered = actions(&mut server, uri, 0, 0);
    assert!(
        titled(&offered, "Fill in pencil marks").is_none(),
        "{:?}",
        titles(&offered)
    );
    server.shutdown_and_exit();
    let dir = common::cli::scratch("lsp-fill-line");
    let path = common::cli::write(&dir, "line.sudoku", &text);
    let (out, err, code) = common::cli::run(common::cli::bin().arg("marks").arg(&path));
    assert_eq!((code, out.as_str()), (0, text.as_str()));
    assert!(
        err.contains("line.sudoku:1:1: note: left unchanged: E2 is left with the one mark 3"),
        "{err}"
    );
}

/// A block written without marks becomes a pencil-mark grid row by row: a row's comment, the
/// file's CRLF line breaks and the lines around the block stay as they were.
#[test]
fn fill_in_pencil_marks_keeps_row_comments_and_line_breaks() {
    let mut server = started();
    let rows: Vec<String> = (0..9)
        .map(|r| {
            let row = &TWINS[r * 9..r * 9 + 9];
            match r {
                0 => format!("{row}   # the first row"),
                4 => format!("{row} # E"),
                _ => row.to_string(),
            }
        })
        .collect();
    let text = format!("# title: kept\r\n{}\r\n# after\r\n", rows.join("\r\n"));
    let uri = "file:///rows.sudoku";
    server.open(uri, 1, &text);
    let filled = apply(&mut server, uri, &text, (1, 0), "Fill in pencil marks");
    let lines: Vec<&str> = filled.split("\r\n").collect();
    assert!(!filled.replace("\r\n", "").contains('\n'), "{filled:?}");
    assert_eq!(lines[0], "# title: kept");
    assert!(lines[1].ends_with(" # the first row"), "{filled}");
    // Row E comes after the border line drawn under row C.
    assert!(lines[6].ends_with(" # E"), "{filled}");
    assert_eq!(lines[lines.len() - 2..], ["# after", ""]);
    let puzzle = only_puzzle(&filled);
    let expected = naked_twins_on_strings(
        eliminated(&givens(TWINS), Variant::Classic),
        Variant::Classic,
    );
    assert_eq!(puzzle.marks.as_deref(), Some(&sets(&expected)[..]));
    server.shutdown_and_exit();
}

// ---------------------------------------------------------------- entries and settings

/// The easy puzzle with two entries in row A: `+5` at A1 (no clash, but the solution has 4
/// there) and `+3` at A2 (the given 3 at A3 is in the same row and box).
const ENTRIES: &str = concat!(
    "# title: entries\n+5+33.2.6..\n",
    common::easy_rows_b_to_i!()
);

fn codes_of(diagnostics: &[Value]) -> Vec<(String, String)> {
    diagnostics
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap_or("").to_string(),
                d["message"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

/// The diagnostics last published for `uri`, once the server has been quiet for a while.
fn settled_diagnostics(server: &mut Server, uri: &str) -> Vec<(String, String)> {
    server.drain(std::time::Duration::from_millis(700));
    let last = server
        .log
        .iter()
        .rev()
        .find(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri)
        .expect("diagnostics published");
    codes_of(last["params"]["diagnostics"].as_array().unwrap())
}

fn against_solution(found: &[(String, String)]) -> Vec<&str> {
    found
        .iter()
        .filter(|(code, _)| code == "against-solution")
        .map(|(_, m)| m.as_str())
        .collect()
}

#[test]
fn entries_are_checked_apart_from_givens_and_against_the_solution_only_when_asked() {
    let mut server = started();
    let uri = "file:///entries.sudoku";
    server.open(uri, 1, ENTRIES);
    let found = codes_of(&server.diagnostics(uri, 1));
    assert!(
        found.contains(&(
            "conflict".to_string(),
            "3 appears twice in row A and box 1: your entry at A2 and the given at A3".to_string()
        )),
        "{found:?}"
    );
    // The verdict is about the givens: they still have one solution, and nothing says the
    // 5 at A1 is wrong until asked.
    assert!(
        !found.iter().any(|(code, _)| code == "no-solution"),
        "{found:?}"
    );
    assert!(against_solution(&found).is_empty());

    server.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"sudoku": {"checkAgainstSolution": true}}}),
    );
    let found = settled_diagnostics(&mut server, uri);
    assert_eq!(
        against_solution(&found),
        [
            "5 is not the solution's digit at A1",
            "3 is not the solution's digit at A2"
        ],
        "{found:?}"
    );
    server.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"sudoku": {"checkAgainstSolution": false, "colour": "red"}}}),
    );
    let found = settled_diagnostics(&mut server, uri);
    assert!(against_solution(&found).is_empty(), "{found:?}");
    let warned = server.log.iter().any(|m| {
        m["method"] == "window/logMessage"
            && m["params"]["message"]
                .as_str()
                .is_some_and(|t| t.contains("unknown setting 'colour'"))
    });
    assert!(warned, "an unknown setting is named in the log");

    // Hover tells an entry from a given; solving leaves the entries as they are.
    let hover = server.hover(uri, json!({"line": 1, "character": 0}));
    let text = hover["contents"]["value"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(text.contains("Your entry: 5"), "{text} {hover}");
    server.shutdown_and_exit();
}

#[test]
fn settings_given_at_initialize_apply_from_the_first_diagnostics() {
    let mut server = Server::spawn();
    let params = json!({
        "processId": null,
        "rootUri": null,
        "capabilities": common::full_capabilities(),
        "initializationOptions": {"checkAgainstSolution": true, "redundantGivens": false},
    });
    server.request("initialize", params);
    server.notify("initialized", json!({}));
    // Marks that leave out, in the first cell with three or more, the digit the solution
    // puts there.
    const EASY: &str =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    const SOLVED: &str =
        "483921657967345821251876493548132976729564138136798245372689514814253769695417382";
    let mut marks = sets(&eliminated(&givens(EASY), Variant::Classic));
    let cell = (0..81).find(|&c| marks[c].count_ones() >= 3).unwrap();
    marks[cell] &= !(1 << (SOLVED.as_bytes()[cell] - b'1'));
    let name = geometry(Size::NINE, Variant::Classic).cell_name(cell);
    let text = marks_grid(Size::NINE, &givens(EASY), &marks, None);
    let uri = "file:///init.sudoku";
    server.open(uri, 1, &text);
    let found = codes_of(&server.diagnostics(uri, 1));
    assert_eq!(
        against_solution(&found),
        [format!(
            "the pencil marks of {name} leave out the digit the solution puts there"
        )],
        "{found:?}"
    );
    let found = settled_diagnostics(&mut server, uri);
    assert!(
        !found.iter().any(|(code, _)| code == "redundant-given"),
        "redundant givens are off: {found:?}"
    );
    server.shutdown_and_exit();
}

/// VS Code sends the whole `sudoku` section: the extension's own settings (the server's path,
/// the trace, the preview's) come with the server's, and none is warned of as unknown.
#[test]
fn the_vs_code_extensions_own_settings_are_not_unknown_settings() {
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/editors/vscode/package.json");
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(manifest).unwrap()).unwrap();
    let properties = manifest["contributes"]["configuration"]["properties"]
        .as_object()
        .unwrap();
    // The section as VS Code builds it from the dotted names, each at its default.
    let mut section = json!({});
    for (key, spec) in properties {
        let parts: Vec<&str> = key.strip_prefix("sudoku.").unwrap().split('.').collect();
        let (last, path) = parts.split_last().unwrap();
        let mut at = &mut section;
        for part in path {
            at = at
                .as_object_mut()
                .unwrap()
                .entry(part.to_string())
                .or_insert(json!({}));
        }
        at[*last] = spec["default"].clone();
    }
    assert!(section.get("preview").is_some(), "{section}");
    // A key of no one's, named last, tells when the section has been read.
    section["zoom"] = json!(2);
    let mut server = started();
    server.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"sudoku": section}}),
    );
    let unknown = |m: &Value| {
        m["method"] == "window/logMessage"
            && m["params"]["message"]
                .as_str()
                .is_some_and(|t| t.contains("unknown setting"))
    };
    server.wait_for("the warning for 'zoom'", |m| {
        unknown(m) && m["params"]["message"].as_str().unwrap().contains("'zoom'")
    });
    let warned: Vec<&Value> = server.log.iter().filter(|m| unknown(m)).collect();
    assert_eq!(warned.len(), 1, "{warned:?}");
    server.shutdown_and_exit();
}
