//! Navigation, driven over stdio as an editor would: document symbols, folding and selection
//! ranges, completion in empty cells, go to definition, references and highlights on digits,
//! and inlay hints, each at exact ranges in UTF-16 and UTF-8, with emoji and CJK in titles and comments,
//! LF and CRLF; a collection of one-liners; a diagonal puzzle; the inlay setting off by default
//! and turned on both ways; and answers for a text that moved on.

use crate::common;

use common::{capabilities_with_encodings, Enc, Server};
use serde_json::{json, Value};

const URI: &str = "file:///t/nav.sudoku";

/// Rows A to I of the easy puzzle, one to a line.
const EASY_ROWS: [&str; 9] = [
    "..3.2.6..",
    "9..3.5..1",
    "..18.64..",
    "..81.29..",
    "7.......8",
    "..67.82..",
    "..26.95..",
    "8..2.3..9",
    "..5.1.3..",
];

/// Two comment lines (a note, not metadata), a titled grid, an untitled grid, and two
/// one-liners, the second with two 3s in row A.
fn outline_text() -> String {
    let grid = EASY_ROWS.join("\n");
    let line = EASY_ROWS.concat();
    let broken = format!("3{}", &line[1..]);
    format!(
        "# 日本 notes 😀\n# a second note\n\n# title: 数独 😀 nav\n{grid}\n\n{grid}\n\n{line}\n{broken}\n"
    )
}

fn titled_text() -> String {
    format!("# title: 数独 😀 nav\n{}\n", EASY_ROWS.join("\n"))
}

fn crlf(text: &str) -> String {
    text.replace('\n', "\r\n")
}

/// The byte span of line `line` (0-based), without its line break.
fn line_span(text: &str, line: usize) -> (usize, usize) {
    let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
    let content = text[start..].split('\n').next().unwrap();
    (start, start + content.trim_end_matches('\r').len())
}

/// The range of `chars` bytes from column `column` of line `line` (an ASCII stretch).
fn at(text: &str, enc: Enc, line: usize, column: usize, len: usize) -> Value {
    let start = line_span(text, line).0 + column;
    enc.range(text, start, start + len)
}

/// From the start of line `first` to the end of line `last`'s content.
fn lines(text: &str, enc: Enc, first: usize, last: usize) -> Value {
    enc.range(text, line_span(text, first).0, line_span(text, last).1)
}

fn capabilities(enc: Enc) -> Value {
    let mut capabilities = capabilities_with_encodings(&[enc.name()]);
    let text = &mut capabilities["textDocument"];
    text["documentSymbol"] = json!({"hierarchicalDocumentSymbolSupport": true});
    text["foldingRange"] = json!({"lineFoldingOnly": true});
    text["definition"] = json!({"linkSupport": true});
    capabilities["workspace"]["inlayHint"] = json!({"refreshSupport": true});
    capabilities
}

fn server(capabilities: Value) -> Server {
    let mut server = Server::spawn();
    server.initialize(capabilities);
    server
}

fn doc() -> Value {
    json!({"uri": URI})
}

fn pos(line: usize, character: usize) -> Value {
    json!({"line": line, "character": character})
}

fn result(server: &mut Server, method: &str, params: Value) -> Value {
    let response = server.request(method, params);
    assert!(response.get("error").is_none(), "{method}: {response}");
    response["result"].clone()
}

fn symbols(server: &mut Server) -> Value {
    result(
        server,
        "textDocument/documentSymbol",
        json!({"textDocument": doc()}),
    )
}

#[test]
fn each_puzzle_is_a_symbol_with_its_title_status_and_exact_ranges() {
    for enc in [Enc::Utf16, Enc::Utf8] {
        for text in [outline_text(), crlf(&outline_text())] {
            let mut server = server(capabilities(enc));
            server.open_and_check(URI, &text);
            let symbols = symbols(&mut server);
            let symbols = symbols.as_array().expect("a list of symbols");
            let summary: Vec<(&str, &str)> = symbols
                .iter()
                .map(|s| (s["name"].as_str().unwrap(), s["detail"].as_str().unwrap()))
                .collect();
            assert_eq!(
                summary,
                vec![
                    ("数独 😀 nav", "9×9 classic · unique"),
                    ("Puzzle 2", "9×9 classic · unique"),
                    ("Puzzle 3", "9×9 classic · unique"),
                    ("Puzzle 4", "9×9 classic · broken"),
                ],
                "{}",
                enc.name()
            );
            // The titled grid: from its title to its last row, selected at the title.
            assert_eq!(symbols[0]["range"], lines(&text, enc, 3, 12));
            assert_eq!(symbols[0]["selectionRange"], lines(&text, enc, 3, 3));
            assert_eq!(symbols[0]["kind"], 19); // Object
            let rows = symbols[0]["children"].as_array().expect("rows");
            assert_eq!(rows.len(), 9);
            assert_eq!(rows[4]["name"], "row E");
            assert_eq!(rows[4]["range"], at(&text, enc, 8, 0, 9));
            // The untitled grid is selected at its first row.
            assert_eq!(symbols[1]["range"], lines(&text, enc, 14, 22));
            assert_eq!(symbols[1]["selectionRange"], at(&text, enc, 14, 0, 9));
            // One-liners: their cells, no children.
            for (symbol, line) in [(&symbols[2], 24), (&symbols[3], 25)] {
                assert_eq!(symbol["selectionRange"], at(&text, enc, line, 0, 81));
                assert!(symbol["range"]["start"] == json!({"line": line, "character": 0}));
                assert!(
                    symbol.get("children").is_none_or(Value::is_null),
                    "{symbol}"
                );
            }
            server.shutdown_and_exit();
        }
    }
}

#[test]
fn clients_without_a_tree_get_a_flat_list_of_puzzles() {
    let mut server = server(capabilities_with_encodings(&["utf-16"]));
    let text = outline_text();
    server.open_and_check(URI, &text);
    let symbols = symbols(&mut server);
    let symbols = symbols.as_array().unwrap();
    assert_eq!(symbols.len(), 4);
    assert_eq!(symbols[0]["name"], "数独 😀 nav (9×9 classic · unique)");
    assert_eq!(symbols[0]["location"]["uri"], URI);
    assert_eq!(
        symbols[0]["location"]["range"],
        lines(&text, Enc::Utf16, 3, 12)
    );
    assert!(symbols[0].get("children").is_none());
}

#[test]
fn a_symbol_says_not_yet_checked_while_its_analysis_runs() {
    let mut server = Server::spawn_with(&[], &[("SUDOKU_LSP_TEST_HOOKS", "1")]);
    server.initialize(capabilities(Enc::Utf16));
    // The marker makes the diagnostics run spin: the outline must not wait for it.
    server.open(
        URI,
        1,
        &format!("# sudoku-lsp-test:slow\n\n{}", titled_text()),
    );
    let symbols = symbols(&mut server);
    assert_eq!(symbols[0]["name"], "数独 😀 nav");
    assert_eq!(symbols[0]["detail"], "9×9 classic · not yet checked");
}

#[test]
fn a_collection_of_one_liners_is_a_flat_outline_of_its_first_2000_puzzles_and_folds_nothing() {
    let mut server = server(capabilities(Enc::Utf16));
    let text: String = (0..2010)
        .map(|i| format!("{} #{i} 😀\n", EASY_ROWS.concat()))
        .collect();
    server.open_and_check(URI, &text);
    let symbols = symbols(&mut server);
    let symbols = symbols.as_array().unwrap();
    assert_eq!(symbols.len(), 2001);
    assert_eq!(symbols[1999]["name"], "Puzzle 2000");
    assert_eq!(
        symbols[1999]["selectionRange"],
        at(&text, Enc::Utf16, 1999, 0, 81)
    );
    assert!(symbols.iter().all(|s| s.get("children").is_none()));
    // The puzzles past the bound share one symbol, from the first of them to the last.
    let rest = &symbols[2000];
    assert_eq!(rest["name"], "10 more puzzles");
    assert_eq!(
        rest["detail"],
        "puzzles 2001 to 2010, not listed: the outline lists the first 2000"
    );
    assert_eq!(rest["range"]["start"], pos(2000, 0));
    assert_eq!(rest["range"]["end"]["line"], 2009);
    assert_eq!(rest["selectionRange"], at(&text, Enc::Utf16, 2000, 0, 81));
    let folds = result(
        &mut server,
        "textDocument/foldingRange",
        json!({"textDocument": doc()}),
    );
    assert_eq!(folds, json!([]));
}

#[test]
fn folding_ranges_cover_each_grid_and_each_run_of_comments() {
    for line_end in ["LF", "CRLF"] {
        let text = match line_end {
            "LF" => outline_text(),
            _ => crlf(&outline_text()),
        };
        // Whole lines for a client that folds only those.
        let mut server = server(capabilities(Enc::Utf16));
        server.open_and_check(URI, &text);
        let folds = result(
            &mut server,
            "textDocument/foldingRange",
            json!({"textDocument": doc()}),
        );
        assert_eq!(
            folds,
            json!([
                {"startLine": 0, "endLine": 1, "kind": "comment"},
                {"startLine": 3, "endLine": 12, "kind": "region"},
                {"startLine": 14, "endLine": 22, "kind": "region"},
            ]),
            "{line_end}"
        );
        // Others get where each first and last line ends, in their encoding.
        let mut capabilities = capabilities(Enc::Utf16);
        capabilities["textDocument"]["foldingRange"] = json!({"rangeLimit": 2});
        let mut server = self::server(capabilities);
        server.open_and_check(URI, &text);
        let folds = result(
            &mut server,
            "textDocument/foldingRange",
            json!({"textDocument": doc()}),
        );
        let title_end = lines(&text, Enc::Utf16, 3, 3)["end"]["character"].clone();
        assert_eq!(title_end, 18); // "# title: 数独 😀 nav" in UTF-16 units
        assert_eq!(folds.as_array().unwrap().len(), 2, "rangeLimit: {folds}");
        assert_eq!(folds[1]["startCharacter"], title_end);
        assert_eq!(folds[1]["endCharacter"], 9);
        assert_eq!(folds[0]["startCharacter"], 13); // "# 日本 notes 😀"
    }
}

/// The ranges of a selection range, innermost first.
fn chain(selection: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    let mut at = selection;
    while at.is_object() {
        out.push(at["range"].clone());
        at = &at["parent"];
    }
    out
}

#[test]
fn selection_grows_from_cell_to_row_to_grid_to_puzzle_to_document() {
    for enc in [Enc::Utf16, Enc::Utf8] {
        let text = crlf(&outline_text());
        let mut server = server(capabilities(enc));
        server.open_and_check(URI, &text);
        // E5 of the titled grid (line 8), the middle of a one-liner, and a comment line.
        let positions = json!([pos(8, 4), pos(24, 40), pos(1, 3)]);
        let params = json!({"textDocument": doc(), "positions": positions});
        let answer = result(&mut server, "textDocument/selectionRange", params);
        let document = enc.range(&text, 0, text.len());
        assert_eq!(
            chain(&answer[0]),
            vec![
                at(&text, enc, 8, 4, 1),
                at(&text, enc, 8, 0, 9),
                lines(&text, enc, 4, 12),
                lines(&text, enc, 3, 12),
                document.clone(),
            ],
            "{}",
            enc.name()
        );
        // In a one-liner, row E is the fifth nine of its cells.
        let one_liner = chain(&answer[1]);
        assert_eq!(one_liner[0], at(&text, enc, 24, 40, 1));
        assert_eq!(one_liner[1], at(&text, enc, 24, 36, 9));
        assert_eq!(one_liner.last(), Some(&document));
        assert_eq!(chain(&answer[2]), vec![lines(&text, enc, 1, 1), document]);
    }
}

fn completion(server: &mut Server, line: usize, character: usize) -> Value {
    let params = json!({"textDocument": doc(), "position": pos(line, character)});
    result(server, "textDocument/completion", params)
}

fn labels(items: &Value) -> Vec<&str> {
    let items = items.as_array().expect("completion items");
    let mut items: Vec<&Value> = items.iter().collect();
    items.sort_by_key(|i| i["sortText"].as_str().unwrap().to_string());
    items.iter().map(|i| i["label"].as_str().unwrap()).collect()
}

#[test]
fn completion_offers_the_digits_that_fit_an_empty_cell_with_why_the_others_are_out() {
    for enc in [Enc::Utf16, Enc::Utf8] {
        let text = crlf(&titled_text());
        let mut server = server(capabilities(enc));
        server.open_and_check(URI, &text);
        // A1 (line 1), asked before and after its `.`: row A holds 2, 3, 6, column 1 holds
        // 7, 8, 9, box 1 holds 1, 3, 9: 4 and 5 fit.
        for character in [0, 1] {
            let items = completion(&mut server, 1, character);
            assert_eq!(labels(&items), vec!["4", "5"], "{}", enc.name());
            let four = &items[0];
            assert_eq!(four["textEdit"]["range"], at(&text, enc, 1, 0, 1));
            assert_eq!(four["textEdit"]["newText"], "4");
            assert_eq!(four["filterText"], ".4");
            assert_eq!(four["detail"], "pencil mark · fits A1");
            let why = four["documentation"].as_str().unwrap();
            assert!(
                why.starts_with("Out of A1:\n1: C3 holds 1 (box 1)\n"),
                "{why}"
            );
            assert!(why.contains("\n3: A3 holds 3 (row A and box 1)\n"), "{why}");
            assert!(why.ends_with("9: B1 holds 9 (column 1 and box 1)"), "{why}");
        }
        // B2: 2, 4, 6, 7 and 8 fit, but naked twins leave 4 and 7 out of its pencil marks
        // (as hover shows them): the marks come first, the others say why they are not marks.
        let items = completion(&mut server, 2, 1);
        assert_eq!(labels(&items), vec!["2", "6", "8", "4", "7"]);
        let seven = items
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["label"] == "7")
            .unwrap();
        let detail = seven["detail"].as_str().unwrap();
        assert!(
            detail.starts_with("fits B2 · not a pencil mark: naked twins {"),
            "{detail}"
        );
        // Nothing on a given (B1, line 2), nor on a title line.
        assert_eq!(completion(&mut server, 2, 0), Value::Null);
        assert_eq!(completion(&mut server, 0, 12), Value::Null);
    }
}

#[test]
fn completion_offers_nothing_where_no_digit_fits() {
    let mut server = server(capabilities(Enc::Utf16));
    // A1 sees 1–8 in row A and 9 in column 1.
    let text = format!(".12345678\n9........\n{}", ".........\n".repeat(7));
    server.open_and_check(URI, &text);
    assert_eq!(completion(&mut server, 0, 0), Value::Null);
    // B2 is open to several digits.
    assert!(completion(&mut server, 1, 1).is_array());
}

#[test]
fn completion_writes_an_entry_where_the_puzzle_marks_entries() {
    let mut server = server(capabilities(Enc::Utf16));
    // A2 holds the solver's entry 4: A1 is left with 5 alone, written `+5`.
    let text = format!(
        "# title: entries ✍️\n.+43.2.6..\n{}\n",
        EASY_ROWS[1..].join("\n")
    );
    server.open_and_check(URI, &text);
    let items = completion(&mut server, 1, 0);
    assert_eq!(labels(&items), vec!["5"]);
    assert_eq!(items[0]["textEdit"]["newText"], "+5");
    assert_eq!(items[0]["preselect"], true);
    let why = items[0]["documentation"].as_str().unwrap();
    assert!(why.contains("4: A2 holds 4 (row A and box 1)"), "{why}");
}

/// A 4×4 grid of pencil marks: A3 is marked `134` though A1 holds 1.
const MARKS: &str = "# title: marks 🎯\n1 2 134 34\n34 34 1 2\n2 1 34 34\n34 34 2 1\n";

#[test]
fn in_a_grid_of_pencil_marks_completion_replaces_the_group_and_marks_come_first() {
    for enc in [Enc::Utf16, Enc::Utf8] {
        let mut server = server(capabilities(enc));
        server.open_and_check(URI, MARKS);
        let items = completion(&mut server, 1, 7); // just after A3's `134`
        assert_eq!(labels(&items), vec!["3", "4"]);
        let three = items
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["label"] == "3")
            .unwrap();
        assert_eq!(three["textEdit"]["range"], at(MARKS, enc, 1, 4, 3));
        assert_eq!(three["textEdit"]["newText"], "3  "); // padded: the columns stay
        assert_eq!(three["filterText"], "1343");
    }
}

fn definition(server: &mut Server, line: usize, character: usize) -> Value {
    let params = json!({"textDocument": doc(), "position": pos(line, character)});
    result(server, "textDocument/definition", params)
}

fn references(server: &mut Server, line: usize, character: usize, include: bool) -> Vec<Value> {
    let params = json!({
        "textDocument": doc(),
        "position": pos(line, character),
        "context": {"includeDeclaration": include},
    });
    let answer = result(server, "textDocument/references", params);
    let locations = answer.as_array().cloned().unwrap_or_default();
    assert!(locations.iter().all(|l| l["uri"] == URI));
    locations.iter().map(|l| l["range"].clone()).collect()
}

#[test]
fn definition_on_a_conflicting_digit_goes_to_the_other_one() {
    for enc in [Enc::Utf16, Enc::Utf8] {
        // A1 repeats A3's 3; the title has emoji before the grid, CRLF line ends.
        let text = crlf(&titled_text().replacen("..3", "3.3", 1));
        let mut server = server(capabilities(enc));
        server.open_and_check(URI, &text);
        let links = definition(&mut server, 1, 0);
        assert_eq!(
            links,
            json!([{
                "originSelectionRange": at(&text, enc, 1, 0, 1),
                "targetUri": URI,
                "targetRange": at(&text, enc, 1, 2, 1),
                "targetSelectionRange": at(&text, enc, 1, 2, 1),
            }])
        );
        // A given without a clash, and an empty cell, have none.
        assert_eq!(definition(&mut server, 1, 4), Value::Null);
        assert_eq!(definition(&mut server, 1, 1), Value::Null);
        // Without link support: plain locations.
        let mut plain = self::server(capabilities_with_encodings(&[enc.name()]));
        plain.open_and_check(URI, &text);
        assert_eq!(
            definition(&mut plain, 1, 2),
            json!([{"uri": URI, "range": at(&text, enc, 1, 0, 1)}])
        );
    }
}

#[test]
fn on_a_pencil_mark_definition_finds_what_rules_it_out_and_references_its_places() {
    let mut server = server(capabilities(Enc::Utf16));
    server.open_and_check(URI, MARKS);
    // The `1` of A3's `134`: A1 holds 1 (and B3, after it).
    assert_eq!(
        definition(&mut server, 1, 4)[0]["targetRange"],
        at(MARKS, Enc::Utf16, 1, 0, 1)
    );
    // The `3` of A3's `134`: the 3s marked in row A, column 3 and box 2, each at its mark.
    let places = references(&mut server, 1, 5, true);
    assert_eq!(
        places,
        vec![
            at(MARKS, Enc::Utf16, 1, 5, 1), // A3
            at(MARKS, Enc::Utf16, 1, 8, 1), // A4
            at(MARKS, Enc::Utf16, 3, 4, 1), // C3
        ]
    );
    assert_eq!(references(&mut server, 1, 5, false).len(), 2);
    // The `1` is ruled out: A1 holds it, nothing could.
    assert_eq!(
        references(&mut server, 1, 4, true),
        vec![
            at(MARKS, Enc::Utf16, 1, 0, 1),
            at(MARKS, Enc::Utf16, 2, 6, 1)
        ] // A1, B3
    );
}

/// The cells of `cell`'s units on a 9×9, diagonals included when asked, computed here
/// independently of the server: for references, those holding `digit` or where it could go.
fn expected_places(rows: &[&str], cell: usize, digit: u8, diagonal: bool) -> Vec<usize> {
    let givens: Vec<u8> = rows
        .concat()
        .bytes()
        .map(|b| if b == b'.' { 0 } else { b - b'0' })
        .collect();
    let units_of = |c: usize| {
        let (r, k) = (c / 9, c % 9);
        let mut units: Vec<Vec<usize>> = vec![
            (0..9).map(|i| r * 9 + i).collect(),
            (0..9).map(|i| i * 9 + k).collect(),
            (0..9)
                .map(|i| (r / 3 * 3 + i / 3) * 9 + k / 3 * 3 + i % 3)
                .collect(),
        ];
        if diagonal && r == k {
            units.push((0..9).map(|i| i * 10).collect());
        }
        if diagonal && r + k == 8 {
            units.push((0..9).map(|i| i * 9 + 8 - i).collect());
        }
        units
    };
    let seen_by_peer = |c: usize| units_of(c).iter().flatten().any(|&p| givens[p] == digit);
    let mut cells: Vec<usize> = units_of(cell).into_iter().flatten().collect();
    cells.sort();
    cells.dedup();
    cells
        .into_iter()
        .filter(|&c| givens[c] == digit || givens[c] == 0 && !seen_by_peer(c))
        .collect()
}

#[test]
fn references_of_a_digit_follow_its_units_and_the_diagonals_of_a_diagonal_puzzle() {
    for (variant, diagonal) in [("classic", false), ("diagonal", true)] {
        let text = format!("# variant: {variant}\n{}\n", EASY_ROWS.join("\n"));
        let mut server = server(capabilities(Enc::Utf8));
        server.open_and_check(URI, &text);
        // The 1 of C3 (line 3): on the main diagonal, like D4's 1.
        let got = references(&mut server, 3, 2, true);
        let want: Vec<Value> = expected_places(&EASY_ROWS, 20, 1, diagonal)
            .into_iter()
            .map(|c| at(&text, Enc::Utf8, 1 + c / 9, c % 9, 1))
            .collect();
        assert_eq!(got, want, "{variant}");
        let d4 = at(&text, Enc::Utf8, 4, 3, 1);
        assert_eq!(got.contains(&d4), diagonal, "{variant}");
        // Without the declaration, C3 itself is left out.
        let c3 = at(&text, Enc::Utf8, 3, 2, 1);
        assert!(got.contains(&c3));
        assert!(!references(&mut server, 3, 2, false).contains(&c3));
        // An empty cell names no digit.
        assert_eq!(references(&mut server, 1, 0, true), Vec::<Value>::new());
    }
}

fn highlights(server: &mut Server, line: usize, character: usize) -> Value {
    let params = json!({"textDocument": doc(), "position": pos(line, character)});
    result(server, "textDocument/documentHighlight", params)
}

#[test]
fn a_digit_lights_up_every_cell_holding_it_and_every_mark_of_it() {
    for enc in [Enc::Utf16, Enc::Utf8] {
        let text = crlf(&titled_text());
        let mut server = server(capabilities(enc));
        server.open_and_check(URI, &text);
        // The 3 of A3 (line 1): the 3s of A3, B4, H6 and I7.
        let write = |line: usize, column: usize| json!({"range": at(&text, enc, line, column, 1), "kind": 3});
        assert_eq!(
            highlights(&mut server, 1, 2),
            json!([write(1, 2), write(2, 3), write(8, 5), write(9, 6)]),
            "{}",
            enc.name()
        );
        assert_eq!(highlights(&mut server, 1, 0), Value::Null); // an empty cell
    }
    // In a grid of pencil marks, the marks of the digit too, each at its mark.
    let mut server = server(capabilities(Enc::Utf16));
    server.open_and_check(URI, MARKS);
    let lit = highlights(&mut server, 2, 0); // the 3 of B1's `34`
    let ranges: Vec<(Value, Value)> = lit
        .as_array()
        .unwrap()
        .iter()
        .map(|h| (h["range"].clone(), h["kind"].clone()))
        .collect();
    let mark = |line: usize, column: usize| (at(MARKS, Enc::Utf16, line, column, 1), json!(1));
    assert_eq!(
        ranges,
        vec![
            mark(1, 5), // A3's 134
            mark(1, 8), // A4
            mark(2, 0), // B1
            mark(2, 3), // B2
            mark(3, 4), // C3
            mark(3, 7), // C4
            mark(4, 0), // D1
            mark(4, 3), // D2
        ]
    );
}

fn inlay_hints(server: &mut Server, range: Value) -> Vec<Value> {
    let params = json!({"textDocument": doc(), "range": range});
    let answer = result(server, "textDocument/inlayHint", params);
    answer.as_array().cloned().unwrap_or_default()
}

fn whole(text: &str) -> Value {
    Enc::Utf16.range(text, 0, text.len())
}

#[test]
fn inlay_hints_are_off_by_default_and_on_through_initialization_options() {
    let text = crlf(&titled_text());
    let mut server = server(capabilities(Enc::Utf16));
    server.open_and_check(URI, &text);
    assert_eq!(inlay_hints(&mut server, whole(&text)), Vec::<Value>::new());

    let mut server = Server::spawn();
    let params = json!({
        "processId": null,
        "capabilities": capabilities(Enc::Utf16),
        "initializationOptions": {"sudoku": {"inlayHints": "candidates"}},
    });
    server.request("initialize", params);
    server.notify("initialized", json!({}));
    server.open_and_check(URI, &text);
    let hints = inlay_hints(&mut server, whole(&text));
    let empty = EASY_ROWS.concat().bytes().filter(|&b| b == b'.').count();
    assert_eq!(hints.len(), empty);
    // A1's candidates right after it; each hint in its cell's line, after an empty cell.
    assert_eq!(hints[0]["position"], pos(1, 1));
    assert_eq!(hints[0]["label"], "{4 5}");
    for hint in &hints {
        let line = hint["position"]["line"].as_u64().unwrap() as usize;
        let column = hint["position"]["character"].as_u64().unwrap() as usize;
        assert_eq!(&EASY_ROWS[line - 1][column - 1..column], ".", "{hint}");
    }
    // Only the hints in the range asked for: row B's line.
    let row_b = inlay_hints(&mut server, lines(&text, Enc::Utf16, 2, 2));
    assert_eq!(row_b.len(), EASY_ROWS[1].matches('.').count());
    assert!(row_b.iter().all(|h| h["position"]["line"] == 2));
}

#[test]
fn changing_the_inlay_setting_asks_the_client_to_refresh_and_row_counts_follow() {
    let text = titled_text();
    let mut server = server(capabilities(Enc::Utf16));
    server.open_and_check(URI, &text);
    let settings = |mode: &str| json!({"settings": {"sudoku": {"inlayHints": mode}}});
    server.notify("workspace/didChangeConfiguration", settings("candidates"));
    let refresh = server.server_request("workspace/inlayHint/refresh");
    server.respond(&refresh, Value::Null);
    let candidates = inlay_hints(&mut server, whole(&text));
    server.notify("workspace/didChangeConfiguration", settings("rowCounts"));
    let refresh = server.server_request("workspace/inlayHint/refresh");
    server.respond(&refresh, Value::Null);
    let counts = inlay_hints(&mut server, whole(&text));
    assert_eq!(counts.len(), 9);
    for (row, hint) in counts.iter().enumerate() {
        // At the end of the row's line, the number of candidates its cells' hints show.
        assert_eq!(hint["position"], pos(row + 1, 9));
        let shown: usize = candidates
            .iter()
            .filter(|h| h["position"]["line"] == row + 1)
            .map(|h| h["label"].as_str().unwrap().split(' ').count())
            .sum();
        assert_eq!(hint["label"], format!("{shown} candidates"), "row {row}");
    }
    // One-liners get none.
    let line = format!("{}\n", EASY_ROWS.concat());
    server.change(URI, 2, vec![json!({"text": line})]);
    server.diagnostics(URI, 2);
    assert_eq!(inlay_hints(&mut server, whole(&line)), Vec::<Value>::new());
}

#[test]
fn answers_for_a_text_that_moved_on_are_dropped() {
    let mut server = Server::spawn_with(&[], &[("SUDOKU_LSP_TEST_HOOKS", "1")]);
    server.initialize(capabilities(Enc::Utf16));
    // Every query on this text lags 600 ms: the edit lands while they are worked out.
    let text = format!("# sudoku-lsp-test:lagging-query\n\n{}", titled_text());
    server.open(URI, 1, &text);
    server.diagnostics(URI, 1);
    let asked = [
        server.send_request(
            "textDocument/documentSymbol",
            json!({"textDocument": doc()}),
        ),
        server.send_request(
            "textDocument/completion",
            json!({"textDocument": doc(), "position": pos(3, 0)}),
        ),
        server.send_request(
            "textDocument/references",
            json!({"textDocument": doc(), "position": pos(3, 2), "context": {"includeDeclaration": true}}),
        ),
    ];
    let renamed = text.replace("数独 😀 nav", "renamed");
    server.change(URI, 2, vec![json!({"text": renamed})]);
    for id in asked {
        assert_eq!(server.response(id)["result"], Value::Null, "request {id}");
    }
    // Asked again, the answer is about version 2.
    assert_eq!(symbols(&mut server)[0]["name"], "renamed");
}
