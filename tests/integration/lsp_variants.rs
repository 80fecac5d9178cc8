//! Variant puzzles in the editor, driven over stdio: hover on an empty cell names the
//! constraint behind each digit it rules out, hover on a constraint line says what it means
//! and what it allows now (a cage's combinations, its cells' candidates), the outline lists
//! each puzzle's constraints and folds their lines, and cells and constraint lines point at
//! each other (definition and references).

use crate::common;

use common::{capabilities_with_encodings, hover_text, Enc, Server};
use serde_json::{json, Value};

const URI: &str = "file:///t/variant.sudoku";

/// A cage, a thermometer and a white dot over an almost empty grid: row A holds a 1 (A5).
const TEXT: &str = "# title: Cage and thermo
cage 10: A1 A2
thermo: C1 C2 C3
white: E5 E6
. . . | . 1 . | . . .
. . . | . . . | . . .
. . . | . . . | . . .
------+-------+------
. . . | . . . | . . .
. . . | . . . | . . .
. . . | . . . | . . .
------+-------+------
. . . | . . . | . . .
. . . | . . . | . . .
. . . | . . . | . . .
";

fn server() -> Server {
    let mut capabilities = capabilities_with_encodings(&[Enc::Utf16.name()]);
    let text = &mut capabilities["textDocument"];
    text["documentSymbol"] = json!({"hierarchicalDocumentSymbolSupport": true});
    text["foldingRange"] = json!({"lineFoldingOnly": true});
    let mut server = Server::spawn();
    server.initialize(capabilities);
    server.open_and_check(URI, TEXT);
    server
}

fn result(server: &mut Server, method: &str, params: Value) -> Value {
    let response = server.request(method, params);
    assert!(response.get("error").is_none(), "{method}: {response}");
    response["result"].clone()
}

fn at(line: u64, character: u64) -> Value {
    json!({"textDocument": {"uri": URI}, "position": {"line": line, "character": character}})
}

/// The (line, first character) of each location or link of a response.
fn places(answer: &Value) -> Vec<(u64, u64)> {
    let mut found: Vec<(u64, u64)> = answer
        .as_array()
        .unwrap_or_else(|| panic!("a list: {answer}"))
        .iter()
        .map(|l| {
            let range = l.get("targetRange").unwrap_or(&l["range"]);
            let start = &range["start"];
            (
                start["line"].as_u64().unwrap(),
                start["character"].as_u64().unwrap(),
            )
        })
        .collect();
    found.sort();
    found
}

#[test]
fn hover_on_an_empty_cell_names_the_constraint_behind_each_digit_it_rules_out() {
    let mut server = server();
    // A1, on the grid's first row (line 4).
    let hover = hover_text(&mut server, URI, 4, 0);
    assert!(
        hover.contains("Pencil marks: {2, 3, 4, 6, 7, 8}"),
        "{hover}"
    );
    assert!(hover.contains("- 1 — row A: A5"), "{hover}");
    assert!(
        hover.contains("- 5 — cage 10 at A1 A2 would need 5 twice"),
        "{hover}"
    );
    assert!(
        hover.contains(
            "- 9 — cage 10 at A1 A2 would leave 1 for A2, which row A already holds (A5)"
        ),
        "{hover}"
    );
    // C1, the thermometer's bulb (line 6): 8 and 9 leave no room for the two cells above it.
    let hover = hover_text(&mut server, URI, 6, 0);
    assert!(
        hover.contains("Pencil marks: {1, 2, 3, 4, 5, 6, 7}"),
        "{hover}"
    );
    assert!(hover.contains("- 8 — thermo at C1 C2 C3"), "{hover}");
}

#[test]
fn hover_on_a_constraint_line_says_what_it_means_and_what_it_allows_now() {
    let mut server = server();
    let cage = hover_text(&mut server, URI, 1, 2);
    assert!(
        cage.starts_with("**cage 10 at A1 A2** · Its 2 digits differ and sum to 10."),
        "{cage}"
    );
    assert!(
        cage.contains("Combinations: 1 9 · 2 8 · 3 7 · 4 6"),
        "{cage}"
    );
    // Neither cell can hold the 1 that row A already has: 1 9 is gone.
    assert!(
        cage.contains("With the candidates now: 2 8 · 3 7 · 4 6"),
        "{cage}"
    );
    assert!(
        cage.contains("- A1 2–4 and 6–8\n- A2 2–4 and 6–8"),
        "{cage}"
    );

    let thermo = hover_text(&mut server, URI, 2, 0);
    assert!(
        thermo.contains("The digits increase from the bulb (C1) to C3."),
        "{thermo}"
    );
    assert!(thermo.contains("- C1 1–7\n- C2 2–8\n- C3 3–9"), "{thermo}");

    let dot = hover_text(&mut server, URI, 3, 9);
    assert!(dot.contains("E5 and E6 hold consecutive digits."), "{dot}");

    // The puzzle's summary says what kind of puzzle it is.
    let title = hover_text(&mut server, URI, 0, 4);
    assert!(
        title.contains("9×9 sudoku with 1 cage, 1 thermo and 1 white dot"),
        "{title}"
    );
}

#[test]
fn the_outline_lists_each_constraint_and_folds_the_constraint_lines() {
    let mut server = server();
    let symbols = result(
        &mut server,
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": URI}}),
    );
    let puzzle = &symbols[0];
    assert!(
        puzzle["detail"]
            .as_str()
            .unwrap()
            .starts_with("9×9 sudoku with 1 cage, 1 thermo and 1 white dot"),
        "{puzzle}"
    );
    let children: Vec<(String, String, u64)> = puzzle["children"]
        .as_array()
        .unwrap()
        .iter()
        .take(4)
        .map(|c| {
            (
                c["name"].as_str().unwrap().to_string(),
                c["detail"].as_str().unwrap_or_default().to_string(),
                c["range"]["start"]["line"].as_u64().unwrap(),
            )
        })
        .collect();
    let expected = [
        ("cage 10", "A1 A2", 1),
        ("thermo", "C1 C2 C3", 2),
        ("white dot", "E5 E6", 3),
        ("row A", "", 4),
    ];
    let expected: Vec<(String, String, u64)> = expected
        .iter()
        .map(|&(n, d, l)| (n.to_string(), d.to_string(), l))
        .collect();
    assert_eq!(children, expected);

    let folds = result(
        &mut server,
        "textDocument/foldingRange",
        json!({"textDocument": {"uri": URI}}),
    );
    let spans: Vec<(u64, u64)> = folds
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["startLine"].as_u64().unwrap(),
                f["endLine"].as_u64().unwrap(),
            )
        })
        .collect();
    assert!(
        spans.contains(&(1, 3)),
        "the three constraint lines fold: {spans:?}"
    );
    assert!(spans.contains(&(0, 14)), "the puzzle folds: {spans:?}");
}

#[test]
fn cells_and_constraint_lines_point_at_each_other() {
    let mut server = server();
    // From C2 in the thermometer's line (line 2, "thermo: C1 C2 C3") to the grid's C2.
    let definition = result(&mut server, "textDocument/definition", at(2, 12));
    assert_eq!(places(&definition), [(6, 2)]);
    // From the grid's A2 (empty, line 4) to the cage line naming it.
    let definition = result(&mut server, "textDocument/definition", at(4, 2));
    assert_eq!(places(&definition), [(1, 12)]);
    // The thermometer's line: its three cells in the grid.
    let mut params = at(2, 2);
    params["context"] = json!({"includeDeclaration": false});
    let references = result(&mut server, "textDocument/references", params);
    assert_eq!(places(&references), [(6, 0), (6, 2), (6, 4)]);
    // A1 named in the cage's line: that mention, and the grid cell with the declaration.
    let mut params = at(1, 10);
    params["context"] = json!({"includeDeclaration": true});
    let references = result(&mut server, "textDocument/references", params);
    assert_eq!(places(&references), [(1, 9), (4, 0)]);
}

/// The labels and details of a completion answer.
fn completion(server: &mut Server, uri: &str, line: u64, character: u64) -> Vec<(String, String)> {
    let params =
        json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}});
    let answer = result(server, "textDocument/completion", params);
    let items = answer.get("items").unwrap_or(&answer);
    items
        .as_array()
        .map(|items| {
            items
                .iter()
                .map(|i| {
                    let detail = i["detail"].as_str().unwrap_or_default().to_string();
                    (i["label"].as_str().unwrap().to_string(), detail)
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn completion_offers_constraint_names_the_next_cells_and_a_cage_s_sums() {
    let mut server = server();
    // "th" on a line of its own: the keywords, each with an example.
    let uri = "file:///t/word.sudoku";
    server.open(uri, 1, "th\n");
    let names = completion(&mut server, uri, 0, 2);
    assert!(
        names.contains(&("thermo".into(), "thermo: A1 B2 C3".into())),
        "{names:?}"
    );
    assert!(names.iter().any(|(n, _)| n == "cage"), "{names:?}");

    let uri = "file:///t/typing.sudoku";
    let rows = TEXT.split_once("white: E5 E6\n").unwrap().1;
    let text = format!("# title: Typing\n\nthermo: A1 \ncage : A1 A2 A3\nwhite: E5 \n{rows}");
    server.open(uri, 1, &text);
    // After "thermo: A1 ": the cells touching A1, diagonally too, A1 itself not again.
    let cells: Vec<String> = completion(&mut server, uri, 2, 11)
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    assert_eq!(cells, ["A2", "B1", "B2"]);
    // After "white: E5 ": its other half, side by side.
    let cells: Vec<String> = completion(&mut server, uri, 4, 10)
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    assert_eq!(cells, ["D5", "E4", "E6", "F5"]);
    // Between "cage " and its ":", three cells after it: the sums 6 to 24.
    let sums = completion(&mut server, uri, 3, 5);
    assert_eq!(sums.len(), 19, "{sums:?}");
    assert_eq!(sums[0], ("6".into(), "1 combination: 1 2 3".into()));
    assert_eq!(sums[1], ("7".into(), "1 combination: 1 2 4".into()));
    assert_eq!(sums[9], ("15".into(), "8 combinations".into()));
    // In a grid, an empty cell gets its digits, not constraint words; a grid left unread (its
    // constraint lines are being typed) gets nothing.
    let digits = completion(&mut server, URI, 4, 0);
    assert!(!digits.is_empty());
    assert!(
        digits
            .iter()
            .all(|(n, _)| n.len() == 1 && n.as_bytes()[0].is_ascii_digit()),
        "{digits:?}"
    );
    assert_eq!(completion(&mut server, uri, 5, 0), []);
}

/// The semantic tokens of `uri`, decoded: (line, start, length, type name).
fn tokens_of(server: &mut Server, uri: &str) -> Vec<(u64, u64, u64, String)> {
    let answer = result(
        server,
        "textDocument/semanticTokens/full",
        json!({"textDocument": {"uri": uri}}),
    );
    let legend = server_legend();
    let data: Vec<u64> = answer["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    // Decode to (line, start, length, type name).
    let (mut line, mut start) = (0, 0);
    let mut tokens = Vec::new();
    for t in data.chunks(5) {
        if t[0] > 0 {
            start = 0;
        }
        line += t[0];
        start += t[1];
        tokens.push((line, start, t[2], legend[t[3] as usize].clone()));
    }
    tokens
}

#[test]
fn constraint_lines_are_coloured_by_meaning() {
    let mut server = server();
    let tokens = tokens_of(&mut server, URI);
    let on = |wanted: u64| -> Vec<(u64, u64, String)> {
        tokens
            .iter()
            .filter(|t| t.0 == wanted)
            .map(|t| (t.1, t.2, t.3.clone()))
            .collect()
    };
    let expect = |items: &[(u64, u64, &str)]| -> Vec<(u64, u64, String)> {
        items
            .iter()
            .map(|&(s, l, k)| (s, l, k.to_string()))
            .collect()
    };
    // "cage 10: A1 A2"
    assert_eq!(
        on(1),
        expect(&[
            (0, 4, "keyword"),
            (5, 2, "number"),
            (9, 2, "variable"),
            (12, 2, "variable")
        ])
    );
    // "white: E5 E6"
    assert_eq!(
        on(3),
        expect(&[(0, 5, "keyword"), (7, 2, "variable"), (10, 2, "variable")])
    );
}

#[test]
fn a_regions_block_is_coloured_row_by_row() {
    let mut server = server();
    let uri = "file:///t/jigsaw.sudoku";
    let text = include_str!("../../puzzles/variants/jigsaw.sudoku");
    server.open_and_check(uri, text);
    let tokens = tokens_of(&mut server, uri);
    let on = |wanted: u64| -> Vec<(u64, u64, String)> {
        let on_line = tokens.iter().filter(|t| t.0 == wanted);
        on_line.map(|t| (t.1, t.2, t.3.clone())).collect()
    };
    // "regions:" (line 3), then its nine rows, then the grid's first row.
    assert_eq!(on(3), [(0, 7, "keyword".to_string())]);
    for row in 4..13 {
        assert_eq!(on(row), [(0, 9, "enumMember".to_string())], "line {row}");
    }
    assert!(on(13).iter().all(|t| t.2 == "variable" || t.2 == "number"));
}

/// The token types of the server's legend, by index.
fn server_legend() -> Vec<String> {
    let mut server = Server::spawn();
    let init = server.initialize(capabilities_with_encodings(&[Enc::Utf16.name()]));
    let types = &init["capabilities"]["semanticTokensProvider"]["legend"]["tokenTypes"];
    types
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect()
}

/// The actions at a position of a document, by title.
fn action_titled(server: &mut Server, uri: &str, line: u64, title: &str) -> Option<Value> {
    let position = json!({"line": line, "character": 0});
    let actions = server.code_actions(uri, json!({"start": position, "end": position}));
    actions.into_iter().find(|a| a["title"] == title)
}

#[test]
fn a_puzzle_opens_in_sudokupad_and_gives_its_f_puzzles_link_which_reads_back_the_same() {
    let mut capabilities = capabilities_with_encodings(&[Enc::Utf16.name()]);
    capabilities["window"]["showDocument"] = json!({"support": true});
    let mut server = Server::spawn();
    server.initialize(capabilities);
    server.open_and_check(URI, TEXT);

    // Copy f-puzzles link: the link is the command's result, and shown in a message.
    let copy = action_titled(&mut server, URI, 4, "Copy f-puzzles link").expect("the action");
    let command = &copy["command"];
    let id = server.send_request(
        "workspace/executeCommand",
        json!({"command": command["command"], "arguments": command["arguments"]}),
    );
    let link = server.response(id)["result"]
        .as_str()
        .unwrap_or_else(|| panic!("a link"))
        .to_string();
    assert!(
        link.starts_with("https://www.f-puzzles.com/?load="),
        "{link}"
    );
    let shown = server.wait_for("the link in a message", |m| {
        m["method"] == "window/showMessage"
    });
    assert!(
        shown["params"]["message"]
            .as_str()
            .unwrap()
            .ends_with(&link),
        "{shown}"
    );
    // Read back, the link holds the same puzzle: its constraints and its given.
    let imported = sudoku_lsp::convert::links::import(&link).expect("the link reads");
    let again = &sudoku_lsp::format::parse(&imported.text).puzzles[0];
    let original = &sudoku_lsp::format::parse(TEXT).puzzles[0];
    assert_eq!(again.givens, original.givens);
    let kinds = |p: &sudoku_lsp::format::Puzzle| -> Vec<_> {
        let rules = p.rules.as_deref().unwrap();
        let mut kinds: Vec<_> = rules.constraints.iter().map(|c| c.kind.clone()).collect();
        kinds.sort_by_key(|k| format!("{k:?}"));
        kinds
    };
    assert_eq!(kinds(again), kinds(original), "{}", imported.text);

    // Open in SudokuPad: the client is asked to open the SudokuPad link in the browser.
    let open = action_titled(&mut server, URI, 4, "Open in SudokuPad").expect("the action");
    let command = &open["command"];
    let id = server.send_request(
        "workspace/executeCommand",
        json!({"command": command["command"], "arguments": command["arguments"]}),
    );
    let request = server.server_request("window/showDocument");
    let opened = request["params"]["uri"].as_str().unwrap().to_string();
    assert!(
        opened.starts_with("https://sudokupad.app/fpuzzles"),
        "{request}"
    );
    assert_eq!(request["params"]["external"], true);
    server.respond(&request, json!({"success": true}));
    assert_eq!(server.response(id)["result"], json!(opened));
}

#[test]
fn a_line_holding_a_link_converts_to_the_puzzle_it_holds() {
    let original = &sudoku_lsp::format::parse(TEXT).puzzles[0];
    let exported =
        sudoku_lsp::convert::fpuzzles::export(TEXT, &sudoku_lsp::format::parse(TEXT), original);
    let link = sudoku_lsp::convert::links::sudokupad_link(&exported.json);
    let text = format!("# my puzzles\n{link}\n");
    let mut server = Server::spawn();
    server.initialize(capabilities_with_encodings(&[Enc::Utf16.name()]));
    let uri = "file:///t/links.sudoku";
    server.open(uri, 1, &text);
    let convert = action_titled(&mut server, uri, 1, "Convert link to .sudoku")
        .unwrap_or_else(|| panic!("no action on {link}"));
    let edited = common::apply_text_edits(&text, &common::action_edits(&convert, uri), Enc::Utf16);
    assert!(edited.starts_with("# my puzzles\n"), "{edited}");
    let document = sudoku_lsp::format::parse(&edited);
    assert_eq!(document.problems, [], "{edited}");
    let [puzzle] = &document.puzzles[..] else {
        panic!("one puzzle: {edited}");
    };
    assert_eq!(puzzle.givens, original.givens);
    assert_eq!(
        puzzle.rules.as_deref().unwrap().constraints.len(),
        3,
        "{edited}"
    );
    // A line that is no puzzle's link gets no such action (or a disabled one).
    server.open("file:///t/other.sudoku", 1, "https://example.com/nothing\n");
    let other = action_titled(
        &mut server,
        "file:///t/other.sudoku",
        0,
        "Convert link to .sudoku",
    );
    assert!(
        other.as_ref().is_none_or(|a| a.get("disabled").is_some()),
        "{other:?}"
    );
}

#[test]
fn a_broken_cage_is_said_at_its_line_and_at_each_cell_that_breaks_it() {
    let mut server = Server::spawn();
    server.initialize(capabilities_with_encodings(&[Enc::Utf16.name()]));
    let uri = "file:///t/broken.sudoku";
    // A 4×4: the cage A1 A2 holds 4 and 3, not 6; the cage C1 D2 holds 1 twice... apart.
    let text = "cage 6: A1 A2\ncage 3: C1 D2\n43..\n....\n1...\n.1..\n";
    let diagnostics = server.open_and_check(uri, text);
    let at = |line: u64, character: u64| {
        diagnostics
            .iter()
            .find(|d| {
                d["range"]["start"]["line"] == line && d["range"]["start"]["character"] == character
            })
            .unwrap_or_else(|| panic!("none at {line}:{character}: {diagnostics:#?}"))
    };
    let line = at(0, 0);
    assert_eq!(
        line["message"],
        "cage 6 at A1 A2 is broken: its digits (A1 4, A2 3) sum to 7, not 6"
    );
    assert_eq!(line["relatedInformation"].as_array().unwrap().len(), 2);
    for (character, digit) in [(0, 4), (1, 3)] {
        let cell = at(2, character);
        assert_eq!(cell["severity"], 1, "{cell}");
        let name = if character == 0 { "A1" } else { "A2" };
        assert_eq!(
            cell["message"],
            format!(
                "{name} holds {digit} — cage 6 at A1 A2 is broken: its digits (A1 4, A2 3) sum to \
                 7, not 6"
            )
        );
        let back = &cell["relatedInformation"][0]["location"]["range"]["start"];
        assert_eq!(
            (back["line"].as_u64(), back["character"].as_u64()),
            (Some(0), Some(0))
        );
    }
    let twice = at(1, 0);
    assert_eq!(
        twice["message"],
        "cage 3 at C1 D2 is broken: it holds 1 twice (C1 and D2)"
    );
}

/// The variant solver in the editor: the rating in the lens and the puzzle's hover, on the
/// variant scale; hover on an empty cell the next step touches says it, and *Apply next step*
/// writes the first placement, naming the rules' steps before it.
#[test]
fn a_killer_is_rated_and_its_next_step_is_in_the_hover_and_the_apply_action() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/variants/killer.sudoku");
    let text = std::fs::read_to_string(path).expect("the killer example");
    let line = text
        .lines()
        .position(|l| l.starts_with(". 3 ."))
        .expect("the grid's first row") as u64;
    let uri = "file:///t/killer.sudoku";
    let mut server = Server::spawn();
    let mut capabilities = capabilities_with_encodings(&[Enc::Utf16.name()]);
    capabilities["workspace"]["codeLens"] = json!({"refreshSupport": true});
    server.initialize(capabilities);
    server.open_and_check(uri, &text);
    // The rating arrives after the diagnostics (the server asks for lenses again): on the
    // variant scale, in the lens and the puzzle's hover.
    let refresh = server.server_request("workspace/codeLens/refresh");
    server.respond(&refresh, Value::Null);
    let lenses = server.request(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": uri}}),
    );
    let titles: Vec<&str> = lenses["result"]
        .as_array()
        .expect("lenses")
        .iter()
        .filter_map(|l| l["command"]["title"].as_str())
        .collect();
    assert!(
        titles.contains(&"Variant 2.8 · Hard · unique · 2 givens"),
        "{titles:?}"
    );
    let summary = hover_text(&mut server, uri, 1, 3);
    assert!(
        summary.contains("- Rating: Variant 2.8 · Hard"),
        "{summary}"
    );
    assert!(
        summary.contains("- Hardest technique: Claiming"),
        "{summary}"
    );
    assert!(
        summary.contains("- Minimal: every given is needed"),
        "{summary}"
    );
    let hover = hover_text(&mut server, uri, line, 0);
    assert!(
        hover.contains("Next step: Cage 24 at A1 A2 B1 B2 can hold only 3 4 8 9, 3 5 7 9 or 3 6 7 8: 1 and 2 leave A1, B1, B2"),
        "{hover}"
    );
    let range =
        json!({"start": {"line": line, "character": 0}, "end": {"line": line, "character": 0}});
    let titles: Vec<String> = server
        .code_actions(uri, range)
        .iter()
        .map(|a| a["title"].as_str().unwrap_or_default().to_string())
        .collect();
    assert!(
        titles.iter().any(|t| t
            == "Apply next step (after 5 steps that only eliminate: Cage combinations): Naked single: A9 can only be 9"),
        "{titles:#?}"
    );
}

/// The `trueCandidates` inlay hints: after each empty cell of a puzzle with several solutions,
/// the digits some solution puts there; none on a puzzle with one.
#[test]
fn true_candidate_inlay_hints_show_where_the_solutions_differ() {
    let text =
        "# title: two ways\nthermo: B1 B2\n. . | 3 4\n3 4 | 1 2\n----+----\n. . | 4 3\n4 3 | 2 1\n";
    let mut server = Server::spawn();
    let params = json!({
        "processId": null,
        "capabilities": capabilities_with_encodings(&[Enc::Utf16.name()]),
        "initializationOptions": {"sudoku": {"inlayHints": "trueCandidates"}},
    });
    server.request("initialize", params);
    server.notify("initialized", json!({}));
    server.open_and_check(URI, text);
    let range = json!({"start": {"line": 0, "character": 0}, "end": {"line": 7, "character": 0}});
    let answer = result(
        &mut server,
        "textDocument/inlayHint",
        json!({"textDocument": {"uri": URI}, "range": range}),
    );
    let hints: Vec<(u64, u64, String)> = answer
        .as_array()
        .expect("hints")
        .iter()
        .map(|h| {
            let at = &h["position"];
            let label = h["label"].as_str().unwrap_or_default().to_string();
            (
                at["line"].as_u64().unwrap(),
                at["character"].as_u64().unwrap(),
                label,
            )
        })
        .collect();
    let two = "{1 2}".to_string();
    assert_eq!(
        hints,
        [
            (2, 1, two.clone()),
            (2, 3, two.clone()),
            (5, 1, two.clone()),
            (5, 3, two)
        ]
    );

    // Solved one way (A1 given), nothing: the hints would write the answer.
    let unique = text.replacen(". . | 3 4", "1 . | 3 4", 1);
    server.change(URI, 2, vec![json!({"text": unique})]);
    server.diagnostics(URI, 2);
    let answer = result(
        &mut server,
        "textDocument/inlayHint",
        json!({"textDocument": {"uri": URI}, "range": range}),
    );
    assert_eq!(answer.as_array().map_or(0, Vec::len), 0, "{answer}");
}

/// On a variant grid the solver has moved on (an entry: the rating's lead is about the givens),
/// the next step is worked out in the background, not while the cursor waits: *Apply next step*
/// comes within a few requests, and the steps it names end with a placement; then the hover on a
/// cell the step touches says the step `sudoku-lsp hint` gives.
#[test]
fn the_next_step_of_a_variant_grid_with_entries_comes_from_the_background() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/variants/kropki.sudoku");
    let example = std::fs::read_to_string(path).expect("the kropki example");
    // Its solution puts 1 in A1: written as an entry.
    let first_row = example.find("\n. . . |").expect("the grid") + 1;
    let text = format!("{}+1{}", &example[..first_row], &example[first_row + 1..]);
    let line = text[..first_row].lines().count() as u64;
    let uri = "file:///t/kropki.sudoku";
    let mut server = Server::spawn();
    server.initialize(capabilities_with_encodings(&[Enc::Utf16.name()]));
    let diagnostics = server.open_and_check(uri, &text);
    assert!(
        diagnostics.iter().all(|d| d["severity"] != 1),
        "{diagnostics:#?}"
    );
    let range =
        json!({"start": {"line": line, "character": 4}, "end": {"line": line, "character": 4}});
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let title = loop {
        let found = server
            .code_actions(uri, range.clone())
            .iter()
            .filter_map(|a| a["title"].as_str().map(str::to_string))
            .find(|t| t.starts_with("Apply next step"));
        if let Some(title) = found {
            break title;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no next step within a minute"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert!(title.contains(" can only "), "{title}");
    // The hover on a cell the next step touches says it, as `sudoku-lsp hint` does.
    let dir = common::cli::scratch("variant-entry");
    let file = common::cli::write(&dir, "kropki.sudoku", &text);
    let (hinted, err, _) = common::cli::run(common::cli::bin().arg("hint").arg(&file));
    let step = hinted
        .trim_end()
        .split_once(": hint: ")
        .unwrap_or_else(|| panic!("{hinted}{err}"))
        .1;
    let puzzle = &sudoku_lsp::format::parse(&text).puzzles[0];
    let said = (0..81).filter(|&c| puzzle.givens[c] == 0).any(|cell| {
        let byte = puzzle.cell_spans.get(cell).unwrap().start;
        let at = Enc::Utf16.position(&text, byte);
        let line = at["line"].as_u64().unwrap();
        let character = at["character"].as_u64().unwrap();
        hover_text(&mut server, uri, line, character).contains(&format!("Next step: {step}"))
    });
    assert!(said, "no hover says the next step: {step}");
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

/// A keystroke's findings do not wait for a slow verdict: the edit's first diagnostics come
/// from a first look, without the verdict (not "undecided" either, in the lens or a hover), and
/// the verdict follows for the same version.
#[test]
fn a_slow_verdict_follows_the_first_diagnostics_of_an_edit() {
    let mut server = Server::spawn();
    server.initialize(capabilities_with_encodings(&[Enc::Utf16.name()]));
    let uri = "file:///t/barbed.sudoku";
    let text = format!("# author: Ann\n\n{}", common::SLOW_VERDICT);
    assert_eq!(server.open_and_check(uri, &text), Vec::<Value>::new());
    // A1 = 7 (the solution has 3): no solution, which only the whole search shows.
    let range = json!({"start": {"line": 12, "character": 0}, "end": {"line": 12, "character": 1}});
    server.change(uri, 2, vec![json!({"range": range, "text": "7"})]);
    let first = server.diagnostics(uri, 2);
    assert_eq!(
        first,
        Vec::<Value>::new(),
        "the first look says nothing yet"
    );
    // Meanwhile the lens and the title's hover say the verdict is coming, not that it is
    // undecided (the first look's search was cut; the whole run's is going).
    let lenses = server.request(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": uri}}),
    );
    let lens = lenses["result"][0]["command"]["title"]
        .as_str()
        .unwrap_or_default();
    assert!(
        lens.starts_with("checking…") || lens.starts_with("no solution"),
        "{lenses}"
    );
    // The title's hover and the file's metadata's, which summarizes each puzzle.
    for line in [2, 0] {
        let hover = common::hover_text(&mut server, uri, line, 3);
        assert!(!hover.contains("undecided"), "{hover}");
    }
    let then = server.diagnostics(uri, 2);
    let messages: Vec<&str> = then.iter().filter_map(|d| d["message"].as_str()).collect();
    assert!(
        messages.iter().any(|m| m.starts_with("no solution")),
        "{messages:?}"
    );
}
