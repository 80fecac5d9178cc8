//! What the language server tells a user, driven over stdio as an editor would: every kind of
//! diagnostic with exact ranges in each position encoding (with emoji and CJK in titles and
//! comments, LF and CRLF), hover on cells and metadata, each code action applied to the text,
//! incremental edits, a burst of 1,000 edits, and the cap on a document's diagnostics.

use crate::common;

use std::time::Duration;

use common::{action_edits, apply_text_edits, capabilities_with_encodings, titled, Enc, Server};
use serde_json::{json, Value};
use sudoku_lsp::analysis::{self, CellState};
use sudoku_lsp::format;

const EASY: &str = concat!("# title: 数独 😀 easy\n", common::easy_rows!());

const EASY_SOLVED: &str = concat!("# title: 数独 😀 easy\n", common::easy_solved_rows!());

/// A3 repeats A1's 3 (row A and box 1).
const CONFLICT: &str = concat!("# title: two threes 🎲\n", common::conflict_rows!());

/// A1 sees 1–8 in row A and 9 in column 1.
const IMPOSSIBLE: &str = "\
# 日本語のコメント 😀
.12345678
9........
.........
.........
.........
.........
.........
.........
.........
";

/// Row A misses 1 and 2; column 1 and column 2 both hold a 1, so 1 fits nowhere in row A.
const NO_PLACE: &str = "\
..3456789
.........
.........
1........
.........
.........
.1.......
.........
.........
";

/// EASY with a plausible but wrong 5 in A1: no solution, found only by search.
const NO_SOLUTION: &str = "\
# title: wrong five 🙃
5.3.2.6..
9..3.5..1
..18.64..
..81.29..
7.......8
..67.82..
..26.95..
8..2.3..9
..5.1.3..
";

const SEVERAL: &str = "\
1........
.........
.........
.........
.........
.........
.........
.........
.........
";

/// An unknown key, a typo of `author` (its value in CJK and emoji), a short row and a stray `x`.
const PARSE_ERRORS: &str = "\
# autor: 赤い 😀
# title: bad rows
..3.2.6.
9..3.5..1
..18.x4..
..81.29..
7.......8
..67.82..
..26.95..
8..2.3..9
..5.1.3..
";

/// An unknown variant (with an emoji), a digit too large for a 4×4, a block of 7 rows.
const MORE_ERRORS: &str = "\
# variant: hexagonal 🐝
1.3.
..5.
.2..
4...

..3.2.6..
9..3.5..1
..18.64..
..81.29..
7.......8
..67.82..
..26.95..
";

/// File metadata (before a blank line) over a puzzle with its own title.
const FILE_META: &str = concat!(
    "# author: Ann 😀\n# source: 日本\n\n# title: one\n",
    common::easy_rows!()
);

fn crlf(text: &str) -> String {
    text.replace('\n', "\r\n")
}

/// The byte span of `needle`'s `nth` occurrence (0-based) in `text`.
fn span_of(text: &str, needle: &str, nth: usize) -> (usize, usize) {
    let start = text
        .match_indices(needle)
        .nth(nth)
        .unwrap_or_else(|| panic!("{needle:?} #{nth} in {text:?}"))
        .0;
    (start, start + needle.len())
}

/// The byte span of the whole line `line` (0-based), without its line break.
fn line_span(text: &str, line: usize) -> (usize, usize) {
    let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
    let content = text[start..]
        .split('\n')
        .next()
        .unwrap()
        .trim_end_matches('\r');
    (start, start + content.len())
}

/// The byte span of the cell at `row`, `column` (0-based) of a grid of plain 9-character rows
/// whose first row is line `first_line` of the text.
fn cell_span(text: &str, first_line: usize, row: usize, column: usize) -> (usize, usize) {
    let start = line_span(text, first_line + row).0 + column;
    (start, start + 1)
}

fn range(text: &str, span: (usize, usize), enc: Enc) -> Value {
    enc.range(text, span.0, span.1)
}

fn with_code<'a>(diagnostics: &'a [Value], code: &str) -> Vec<&'a Value> {
    diagnostics.iter().filter(|d| d["code"] == code).collect()
}

fn assert_common(diagnostic: &Value) {
    assert_eq!(diagnostic["source"], "sudoku", "{diagnostic}");
    assert!(diagnostic["message"]
        .as_str()
        .is_some_and(|m| !m.is_empty()));
}

fn server_with(enc: Enc) -> Server {
    let mut server = Server::spawn();
    let result = server.initialize(capabilities_with_encodings(&[enc.name()]));
    assert_eq!(result["capabilities"]["positionEncoding"], enc.name());
    server
}

#[test]
fn every_diagnostic_kind_lands_at_its_exact_range_in_every_encoding() {
    for enc in Enc::ALL {
        for line_end in ["LF", "CRLF"] {
            let text = |t: &str| {
                if line_end == "LF" {
                    t.to_string()
                } else {
                    crlf(t)
                }
            };
            let context = format!("{} {line_end}", enc.name());
            let mut server = server_with(enc);

            let t = text(EASY);
            let uri = "file:///t/easy.sudoku";
            assert_eq!(
                server.open_and_check(uri, &t),
                Vec::<Value>::new(),
                "{context}"
            );

            let t = text(CONFLICT);
            let uri = "file:///t/conflict.sudoku";
            let diagnostics = server.open_and_check(uri, &t);
            let conflicts = with_code(&diagnostics, "conflict");
            assert_eq!(conflicts.len(), 2, "{context}: {diagnostics:#?}");
            let (a1, a3) = (cell_span(&t, 1, 0, 0), cell_span(&t, 1, 0, 2));
            for (diagnostic, here, other) in [(conflicts[0], a1, a3), (conflicts[1], a3, a1)] {
                assert_common(diagnostic);
                assert_eq!(diagnostic["severity"], 1);
                assert_eq!(diagnostic["range"], range(&t, here, enc), "{context}");
                let message = diagnostic["message"].as_str().unwrap();
                assert!(message.contains("row A"), "{message}");
                let related = &diagnostic["relatedInformation"];
                assert_eq!(
                    related.as_array().map(Vec::len),
                    Some(1),
                    "{context}: {diagnostic}"
                );
                assert_eq!(related[0]["location"]["uri"], uri);
                assert_eq!(
                    related[0]["location"]["range"],
                    range(&t, other, enc),
                    "{context}"
                );
            }

            let t = text(IMPOSSIBLE);
            let uri = "file:///t/impossible.sudoku";
            let diagnostics = server.open_and_check(uri, &t);
            let impossible = with_code(&diagnostics, "impossible-cell");
            assert_eq!(impossible.len(), 1, "{context}: {diagnostics:#?}");
            assert_common(impossible[0]);
            assert_eq!(
                impossible[0]["range"],
                range(&t, cell_span(&t, 1, 0, 0), enc),
                "{context}"
            );
            let related: Vec<&Value> = impossible[0]["relatedInformation"]
                .as_array()
                .expect("related peers")
                .iter()
                .map(|r| &r["location"]["range"])
                .collect();
            assert!(
                related.contains(&&range(&t, cell_span(&t, 1, 1, 0), enc)),
                "B1 took the 9"
            );
            assert!(
                related.contains(&&range(&t, cell_span(&t, 1, 0, 1), enc)),
                "A2 took the 1"
            );

            let t = text(NO_PLACE);
            let uri = "file:///t/no-place.sudoku";
            let diagnostics = server.open_and_check(uri, &t);
            let no_place = with_code(&diagnostics, "no-place");
            assert_eq!(no_place.len(), 1, "{context}: {diagnostics:#?}");
            assert_common(no_place[0]);
            assert_eq!(
                no_place[0]["range"],
                range(&t, line_span(&t, 0), enc),
                "row A, {context}"
            );
            assert!(no_place[0]["message"].as_str().unwrap().contains("row A"));

            let t = text(NO_SOLUTION);
            let uri = "file:///t/no-solution.sudoku";
            let diagnostics = server.open_and_check(uri, &t);
            assert_eq!(diagnostics.len(), 1, "{context}: {diagnostics:#?}");
            assert_eq!(diagnostics[0]["code"], "no-solution");
            assert_eq!(diagnostics[0]["severity"], 1);
            // On the title line, whose end depends on the encoding (the emoji).
            assert_eq!(
                diagnostics[0]["range"],
                range(&t, line_span(&t, 0), enc),
                "{context}"
            );

            let t = text(SEVERAL);
            let uri = "file:///t/several.sudoku";
            let diagnostics = server.open_and_check(uri, &t);
            assert_eq!(diagnostics.len(), 1, "{context}: {diagnostics:#?}");
            assert_eq!(diagnostics[0]["code"], "several-solutions");
            assert_eq!(diagnostics[0]["severity"], 2);
            assert_eq!(diagnostics[0]["range"], range(&t, line_span(&t, 0), enc));
            let message = diagnostics[0]["message"].as_str().unwrap();
            assert!(
                message.chars().any(|c| ('A'..='I').contains(&c)),
                "names a cell: {message}"
            );

            let t = text(EASY_SOLVED);
            let uri = "file:///t/solved.sudoku";
            let diagnostics = server.open_and_check(uri, &t);
            assert_eq!(diagnostics.len(), 1, "{context}: {diagnostics:#?}");
            assert_eq!(diagnostics[0]["code"], "solved");
            assert_eq!(diagnostics[0]["severity"], 4);

            let t = text(PARSE_ERRORS);
            let uri = "file:///t/parse.sudoku";
            let diagnostics = server.open_and_check(uri, &t);
            let unknown = with_code(&diagnostics, "unknown-key");
            assert_eq!(unknown.len(), 1, "{context}: {diagnostics:#?}");
            assert_eq!(unknown[0]["severity"], 2);
            assert_eq!(
                unknown[0]["range"],
                range(&t, line_span(&t, 0), enc),
                "{context}"
            );
            let short = with_code(&diagnostics, "row-length");
            assert_eq!(short.len(), 1, "{context}: {diagnostics:#?}");
            assert_eq!(
                short[0]["range"],
                range(&t, line_span(&t, 2), enc),
                "{context}"
            );
            let stray = with_code(&diagnostics, "syntax");
            assert_eq!(stray.len(), 1, "{context}: {diagnostics:#?}");
            assert_eq!(
                stray[0]["range"],
                range(&t, span_of(&t, "x", 0), enc),
                "{context}"
            );
            for diagnostic in &diagnostics {
                assert_common(diagnostic);
            }

            let t = text(MORE_ERRORS);
            let uri = "file:///t/more.sudoku";
            let diagnostics = server.open_and_check(uri, &t);
            let codes: Vec<&str> = diagnostics
                .iter()
                .map(|d| d["code"].as_str().unwrap())
                .collect();
            assert_eq!(
                codes,
                ["bad-metadata", "digit-range", "block-height"],
                "{context}"
            );
            let expected = [
                line_span(&t, 0),
                span_of(&t, "5", 0),
                (line_span(&t, 6).0, line_span(&t, 12).1),
            ];
            for (diagnostic, span) in diagnostics.iter().zip(expected) {
                assert_common(diagnostic);
                assert_eq!(diagnostic["severity"], 1);
                assert_eq!(
                    diagnostic["range"],
                    range(&t, span, enc),
                    "{context}: {diagnostic}"
                );
            }

            assert_eq!(server.shutdown_and_exit(), Some(0));
        }
    }
}

#[test]
fn a_search_out_of_budget_is_undecided() {
    let mut server = Server::spawn_with(&[], &[("SUDOKU_LSP_MAX_NODES", "1")]);
    server.initialize(json!({}));
    let uri = "file:///t/undecided.sudoku";
    let diagnostics = server.open_and_check(uri, SEVERAL);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    assert_eq!(diagnostics[0]["code"], "undecided");
    assert_eq!(diagnostics[0]["severity"], 3);
    assert_eq!(
        diagnostics[0]["range"],
        range(SEVERAL, line_span(SEVERAL, 0), Enc::Utf16)
    );
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

/// The text of a hover, whichever form it came in.
fn hover_text(hover: &Value) -> String {
    let contents = &hover["contents"];
    contents["value"]
        .as_str()
        .or_else(|| contents.as_str())
        .unwrap_or_else(|| panic!("hover contents: {hover}"))
        .to_string()
}

/// The first `{…}` in a text.
fn first_braced(text: &str) -> &str {
    let start = text.find('{').expect("a braced set");
    let end = start + text[start..].find('}').expect("a closing brace");
    &text[start..=end]
}

/// The server publishes at most this many diagnostics per document, plus one saying how many
/// more there are (`MAX_DIAGNOSTICS` in `src/lsp/diagnostics.rs`).
const MAX_DIAGNOSTICS: usize = 2_000;

#[test]
fn a_document_with_thousands_of_problems_publishes_errors_first_and_a_count_of_the_rest() {
    // 5,000 warnings ('title' given twice), then a puzzle with two errors (a conflict).
    let text = format!("{}\n11{}\n", "# title: x\n".repeat(5_001), ".".repeat(79));
    let mut server = Server::spawn();
    server.initialize(json!({}));
    let diagnostics = server.open_and_check("file:///tmp/many.sudoku", &text);
    assert_eq!(diagnostics.len(), MAX_DIAGNOSTICS + 1);
    let severities: Vec<i64> = diagnostics
        .iter()
        .map(|d| d["severity"].as_i64().unwrap())
        .collect();
    assert_eq!(severities[..3], [1, 1, 2], "errors ahead of warnings");
    assert_eq!(diagnostics[0]["range"]["start"]["line"], 5_002);
    let lines = diagnostics[2..MAX_DIAGNOSTICS]
        .iter()
        .map(|d| d["range"]["start"]["line"].as_i64().unwrap());
    assert!(
        lines.eq(1..MAX_DIAGNOSTICS as i64 - 1),
        "warnings in source order"
    );
    let last = &diagnostics[MAX_DIAGNOSTICS];
    assert_eq!(last["code"], "too-many");
    assert_eq!(last["severity"], 3);
    assert_eq!(
        last["range"],
        json!({"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 10}})
    );
    let message = last["message"].as_str().unwrap();
    assert!(
        message.starts_with("3002 more warnings not shown"),
        "{message}"
    );
    assert!(
        message.contains("`sudoku-lsp check` lists them all"),
        "{message}"
    );
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

#[test]
fn hover_explains_cells_and_summarises_puzzles() {
    for enc in Enc::ALL {
        let mut server = server_with(enc);
        let t = crlf(EASY);
        let uri = "file:///t/hover.sudoku";
        server.open_and_check(uri, &t);
        let puzzle = &format::parse(&t).puzzles[0];

        // An empty cell: name, units, pencil marks first, reasons, conclusion.
        let e5 = 4 * 9 + 4;
        let span = cell_span(&t, 1, 4, 4);
        let hover = server.hover(uri, enc.position(&t, span.0));
        let text = hover_text(&hover);
        assert_eq!(hover["contents"]["kind"], "markdown");
        assert_eq!(hover["range"], range(&t, span, enc));
        assert!(text.contains("E5"), "{text}");
        assert!(text.contains("row E") && text.contains("column 5") && text.contains("box 5"));
        let CellState::Empty {
            marks, excluded, ..
        } = analysis::explain_cell(puzzle, e5).state
        else {
            panic!("E5 is empty")
        };
        assert_eq!(first_braced(&text), marks.to_string(), "{text}");
        let (digit, why) = &excluded[0];
        assert!(text.contains(&format!("{digit} — {why}")), "{text}");
        assert!(text.contains("ropagation"), "{text}");

        // A given cell.
        let c3 = cell_span(&t, 1, 2, 2);
        let text = hover_text(&server.hover(uri, enc.position(&t, c3.0)));
        assert!(text.contains("C3") && text.contains("Given: 1"), "{text}");

        // The title line: a summary, with a position after the emoji.
        let title = span_of(&t, "easy", 0);
        let hover = server.hover(uri, enc.position(&t, title.0));
        let text = hover_text(&hover);
        assert!(text.contains("9×9") && text.contains("classic"), "{text}");
        assert!(text.contains("exactly one solution"), "{text}");
        assert!(
            text.contains("32 givens") || text.contains("givens"),
            "{text}"
        );
        assert_eq!(hover["range"], range(&t, line_span(&t, 0), enc));

        // Nothing on a blank spot past the grid.
        let end = enc.position(&t, t.len());
        assert_eq!(server.hover(uri, end), Value::Null);
        assert_eq!(server.shutdown_and_exit(), Some(0));
    }
}

#[test]
fn hover_on_conflicts_file_metadata_and_in_plain_text() {
    let mut server = Server::spawn();
    server.initialize(json!({"textDocument": {"hover": {"contentFormat": ["plaintext"]}}}));
    let uri = "file:///t/conflict.sudoku";
    server.open_and_check(uri, CONFLICT);
    let a1 = cell_span(CONFLICT, 1, 0, 0);
    let hover = server.hover(uri, Enc::Utf16.position(CONFLICT, a1.0));
    assert_eq!(hover["contents"]["kind"], "plaintext");
    let text = hover_text(&hover);
    assert!(text.starts_with("A1 · row A, column 1, box 1"), "{text}");
    assert!(
        text.contains("conflicts with") && text.contains("A3"),
        "{text}"
    );
    assert!(!text.contains("**"), "plain text has no markup: {text}");

    let uri = "file:///t/file-meta.sudoku";
    server.open_and_check(uri, FILE_META);
    let author = span_of(FILE_META, "Ann", 0);
    let hover = server.hover(uri, Enc::Utf16.position(FILE_META, author.0));
    let text = hover_text(&hover);
    assert!(text.contains("Puzzle 1: one"), "{text}");
    assert!(text.contains("9×9 classic"), "{text}");
    assert_eq!(
        hover["range"],
        range(FILE_META, line_span(FILE_META, 0), Enc::Utf16)
    );
    let title = span_of(FILE_META, "one", 0);
    let text = hover_text(&server.hover(uri, Enc::Utf16.position(FILE_META, title.0)));
    assert!(text.contains("exactly one solution"), "{text}");
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

#[test]
fn hover_in_a_collection_of_one_line_puzzles() {
    let easy = EASY.lines().skip(1).collect::<String>();
    let text = format!(
        "{easy}  rated 1 🙂\n{}  rated 2 😐\n",
        easy.replacen("..3", "1.3", 1)
    );
    let mut server = Server::spawn();
    server.initialize(common::full_capabilities());
    let uri = "file:///t/collection.sudoku";
    server.open_and_check(uri, &text);
    let second = line_span(&text, 1);
    // The 41st character of the second line is E5.
    let e5 = (second.0 + 40, second.0 + 41);
    let hover = server.hover(uri, Enc::Utf16.position(&text, e5.0));
    assert!(hover_text(&hover).contains("**E5**"), "{hover}");
    assert_eq!(hover["range"], range(&text, e5, Enc::Utf16));
    // The trailing text summarises its puzzle.
    let rated = span_of(&text, "rated 2", 0);
    let hover = server.hover(uri, Enc::Utf16.position(&text, rated.0 + 3));
    assert!(hover_text(&hover).contains("Puzzle 2"), "{hover}");
    assert_eq!(hover["range"], range(&text, second, Enc::Utf16));
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

/// A document the test mirrors: every edit is sent to the server and applied locally.
struct Doc {
    uri: String,
    text: String,
    version: i64,
    enc: Enc,
}

impl Doc {
    fn open(server: &mut Server, uri: &str, text: &str, enc: Enc) -> Doc {
        server.open(uri, 1, text);
        Doc {
            uri: uri.into(),
            text: text.into(),
            version: 1,
            enc,
        }
    }

    /// Replace the byte span with `new`, as one incremental change; returns the new version.
    fn edit(&mut self, server: &mut Server, span: (usize, usize), new: &str) -> i64 {
        let change = json!({"range": range(&self.text, span, self.enc), "text": new});
        self.text.replace_range(span.0..span.1, new);
        self.version += 1;
        server.change(&self.uri, self.version, vec![change]);
        self.version
    }

    /// Apply a code action's edits as the editor would: one didChange with all of them.
    fn apply(&mut self, server: &mut Server, action: &Value) -> i64 {
        let edits = action_edits(action, &self.uri);
        assert!(
            !edits.is_empty(),
            "the action edits this document: {action}"
        );
        let new_text = apply_text_edits(&self.text, &edits, self.enc);
        // Send back to front so each range still means what it meant.
        let mut sorted = edits.clone();
        sorted.sort_by_key(|e| {
            let start = &e["range"]["start"];
            std::cmp::Reverse((start["line"].as_u64(), start["character"].as_u64()))
        });
        let changes = sorted
            .iter()
            .map(|e| json!({"range": e["range"], "text": e["newText"]}))
            .collect();
        self.text = new_text;
        self.version += 1;
        server.change(&self.uri, self.version, changes);
        self.version
    }

    fn actions_at(&self, server: &mut Server, byte: usize) -> Vec<Value> {
        let at = self.enc.position(&self.text, byte);
        server.code_actions(&self.uri, json!({"start": at, "end": at}))
    }
}

#[test]
fn solve_fills_only_the_empty_marks_with_versioned_edits() {
    for enc in Enc::ALL {
        let mut server = server_with(enc);
        let mut doc = Doc::open(&mut server, "file:///t/solve.sudoku", &crlf(EASY), enc);
        server.diagnostics(&doc.uri, 1);
        let actions = doc.actions_at(&mut server, cell_span(&doc.text, 1, 3, 3).0);
        let solve = titled(&actions, "Solve puzzle").expect("Solve offered");
        assert_eq!(solve["title"], "Solve puzzle");
        let changes = &solve["edit"]["documentChanges"];
        assert_eq!(
            changes[0]["textDocument"]["version"], 1,
            "versioned: {solve}"
        );
        let version = doc.apply(&mut server, solve);
        assert_eq!(doc.text, crlf(EASY_SOLVED));
        let diagnostics = server.diagnostics(&doc.uri, version);
        assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
        assert_eq!(diagnostics[0]["code"], "solved");
        // Nothing left to solve.
        let actions = doc.actions_at(&mut server, cell_span(&doc.text, 1, 0, 0).0);
        assert!(titled(&actions, "Solve").is_none(), "{actions:#?}");
        assert_eq!(server.shutdown_and_exit(), Some(0));
    }
}

/// A client that resolves code actions (VS Code, Neovim) is offered them without their edits,
/// kilobytes it would read at every move of the cursor; resolving the one chosen gives the very
/// edit a client that cannot resolve gets at once, and one offered for an older text is refused
/// as `ContentModified` rather than applied to the new one.
#[test]
fn a_resolving_client_gets_an_actions_edit_when_it_chooses_it() {
    let mut eager = Server::spawn();
    eager.initialize(common::full_capabilities());
    let mut capabilities = common::full_capabilities();
    capabilities["textDocument"]["codeAction"]["resolveSupport"] = json!({"properties": ["edit"]});
    let mut server = Server::spawn();
    let result = server.initialize(capabilities);
    assert_eq!(
        result["capabilities"]["codeActionProvider"]["resolveProvider"],
        true
    );
    let uri = "file:///t/resolve.sudoku";
    let mut doc = Doc::open(&mut server, uri, EASY, Enc::Utf16);
    let eager_doc = Doc::open(&mut eager, uri, EASY, Enc::Utf16);
    let cell = cell_span(&doc.text, 1, 3, 3).0;
    let offered = doc.actions_at(&mut server, cell);
    let at_once = eager_doc.actions_at(&mut eager, cell);
    let titles =
        |actions: &[Value]| -> Vec<Value> { actions.iter().map(|a| a["title"].clone()).collect() };
    assert_eq!(
        titles(&offered),
        titles(&at_once),
        "the same actions either way"
    );
    for (action, eager_action) in offered.iter().zip(&at_once) {
        assert!(
            action.get("edit").is_none(),
            "offered without its edit: {action}"
        );
        if eager_action.get("edit").is_none() {
            assert!(action.get("data").is_none(), "nothing to resolve: {action}");
            continue;
        }
        let resolved = server.request("codeAction/resolve", action.clone());
        assert_eq!(
            resolved["result"]["edit"], eager_action["edit"],
            "{resolved}"
        );
        assert_eq!(resolved["result"]["title"], action["title"]);
    }
    let solve = titled(&offered, "Solve puzzle").expect("Solve offered");
    let resolved = server.request("codeAction/resolve", solve.clone())["result"].clone();
    doc.apply(&mut server, &resolved);
    assert_eq!(doc.text, EASY_SOLVED);
    // Offered for version 1; the text is now version 2.
    let stale = server.request("codeAction/resolve", solve.clone());
    assert_eq!(stale["error"]["code"], -32801, "{stale}");
    let message = stale["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("changed since \"Solve puzzle\" was offered"),
        "{message}"
    );
    assert_eq!(server.shutdown_and_exit(), Some(0));
    assert_eq!(eager.shutdown_and_exit(), Some(0));
}

#[test]
fn solve_uses_plain_changes_for_clients_without_document_changes() {
    let mut server = Server::spawn();
    server.initialize(json!({}));
    let mut doc = Doc::open(&mut server, "file:///t/plain.sudoku", EASY, Enc::Utf16);
    // From the title line too: "anywhere inside a puzzle" includes its header.
    let actions = doc.actions_at(&mut server, span_of(EASY, "easy", 0).0);
    let solve = titled(&actions, "Solve puzzle").expect("Solve offered on the title");
    assert!(solve["edit"]["documentChanges"].is_null(), "{solve}");
    assert!(solve["edit"]["changes"][&doc.uri].is_array(), "{solve}");
    doc.apply(&mut server, solve);
    assert_eq!(doc.text, EASY_SOLVED);
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

#[test]
fn solve_says_several_and_is_disabled_or_absent_without_a_solution() {
    let mut server = Server::spawn();
    server.initialize(common::full_capabilities());
    let mut doc = Doc::open(&mut server, "file:///t/several.sudoku", SEVERAL, Enc::Utf16);
    let actions = doc.actions_at(&mut server, 3);
    let solve = titled(&actions, "Solve puzzle").expect("Solve offered");
    assert_eq!(solve["title"], "Solve puzzle (one of several solutions)");
    doc.apply(&mut server, solve);
    assert!(!doc.text.contains('.'), "{}", doc.text);

    let doc = Doc::open(
        &mut server,
        "file:///t/none.sudoku",
        NO_SOLUTION,
        Enc::Utf16,
    );
    server.diagnostics(&doc.uri, 1);
    let actions = doc.actions_at(&mut server, cell_span(NO_SOLUTION, 1, 4, 4).0);
    let solve = titled(&actions, "Solve puzzle").expect("offered, disabled");
    assert!(
        solve["disabled"]["reason"]
            .as_str()
            .unwrap()
            .contains("no solution"),
        "{solve}"
    );
    assert!(solve["edit"].is_null());
    assert_eq!(server.shutdown_and_exit(), Some(0));

    // A client that cannot show disabled actions is not offered one.
    let mut server = Server::spawn();
    server.initialize(json!({}));
    let doc = Doc::open(
        &mut server,
        "file:///t/none.sudoku",
        NO_SOLUTION,
        Enc::Utf16,
    );
    let actions = doc.actions_at(&mut server, cell_span(NO_SOLUTION, 1, 4, 4).0);
    assert!(titled(&actions, "Solve").is_none(), "{actions:#?}");
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

#[test]
fn fill_one_cell_and_fill_forced_cells() {
    let puzzle = &format::parse(EASY).puzzles[0];
    let single = (0..81)
        .find_map(|cell| match analysis::explain_cell(puzzle, cell).state {
            CellState::Empty { marks, .. } => marks.only().map(|digit| (cell, digit)),
            _ => None,
        })
        .expect("EASY has a cell with one pencil mark");
    let (cell, digit) = single;
    let name = format!("{}{}", (b'A' + (cell / 9) as u8) as char, cell % 9 + 1);

    for enc in [Enc::Utf16, Enc::Utf8] {
        let mut server = server_with(enc);
        let mut doc = Doc::open(&mut server, "file:///t/fill.sudoku", EASY, enc);
        let span = cell_span(EASY, 1, cell / 9, cell % 9);
        let actions = doc.actions_at(&mut server, span.0);
        let fill = titled(&actions, "Fill ").expect("a quick fix");
        assert_eq!(fill["title"], format!("Fill {name} with {digit}"));
        assert_eq!(fill["kind"], "quickfix");
        doc.apply(&mut server, fill);
        let mut expected = EASY.to_string();
        expected.replace_range(span.0..span.1, &digit.to_string());
        assert_eq!(doc.text, expected);

        // Only quick fixes when asked for only those.
        let at = enc.position(&doc.text, cell_span(&doc.text, 1, 0, 0).0);
        let params = json!({
            "textDocument": {"uri": doc.uri},
            "range": {"start": at, "end": at},
            "context": {"diagnostics": [], "only": ["quickfix"]},
        });
        let only = server.request("textDocument/codeAction", params)["result"].clone();
        let only = only.as_array().cloned().unwrap_or_default();
        assert!(only.iter().all(|a| a["kind"] == "quickfix"), "{only:#?}");

        // Fill all forced cells writes exactly what propagation places.
        let current = format::parse(&doc.text).puzzles[0].clone();
        let geometry = sudoku_lsp::grid::geometry(current.size, current.variant);
        let placed = sudoku_lsp::engine::propagate(geometry, &current.givens).placed;
        let actions = doc.actions_at(&mut server, cell_span(&doc.text, 1, 0, 0).0);
        let forced = titled(&actions, "Fill all forced cells").expect("offered");
        let before = doc.text.clone();
        doc.apply(&mut server, forced);
        let mut expected = before;
        for p in &placed {
            let span = cell_span(EASY, 1, p.cell / 9, p.cell % 9);
            expected.replace_range(span.0..span.1, &p.digit.to_string());
        }
        assert_eq!(doc.text, expected);
        assert_eq!(server.shutdown_and_exit(), Some(0));
    }
}

#[test]
fn incremental_edits_after_emoji_and_crlf_keep_positions_exact() {
    for enc in Enc::ALL {
        let mut server = server_with(enc);
        let mut doc = Doc::open(&mut server, "file:///t/edits.sudoku", &crlf(EASY), enc);
        server.diagnostics(&doc.uri, 1);
        // Rename the title after the emoji, then put a second 3 into row A (A1).
        let easy = span_of(&doc.text, "easy", 0);
        doc.edit(&mut server, easy, "très 🧩 facile");
        let a1 = cell_span(&doc.text, 1, 0, 0);
        let version = doc.edit(&mut server, a1, "3");
        let diagnostics = server.diagnostics(&doc.uri, version);
        let conflicts = with_code(&diagnostics, "conflict");
        assert_eq!(conflicts.len(), 2, "{}: {diagnostics:#?}", enc.name());
        assert_eq!(conflicts[0]["range"], range(&doc.text, a1, enc));
        let hover = server.hover(
            &doc.uri,
            enc.position(&doc.text, span_of(&doc.text, "facile", 0).0),
        );
        // The whole title, exactly: an edit placed a unit off would show here.
        let title = "Puzzle 1: 数独 😀 très 🧩 facile (line 2)";
        assert!(hover_text(&hover).contains(title), "{hover}");
        // Insert a comment line with CJK above the grid, then fix A1 through its new position.
        let version = doc.edit(
            &mut server,
            (line_span(&doc.text, 1).0, line_span(&doc.text, 1).0),
            "# 注釈 😀\r\n",
        );
        let diagnostics = server.diagnostics(&doc.uri, version);
        let a1 = cell_span(&doc.text, 2, 0, 0);
        assert_eq!(
            with_code(&diagnostics, "conflict")[0]["range"],
            range(&doc.text, a1, enc)
        );
        let version = doc.edit(&mut server, a1, ".");
        // The text is the opened puzzle again: if its rating finished before the first edit (a
        // loaded machine), its redundant givens are known at once and come with the rest.
        let diagnostics = without_redundant(server.diagnostics(&doc.uri, version));
        assert_eq!(diagnostics, Vec::<Value>::new());
        assert_eq!(server.shutdown_and_exit(), Some(0));
    }
}

#[test]
fn a_burst_of_a_thousand_edits_ends_with_the_final_texts_diagnostics() {
    let mut server = Server::spawn();
    server.initialize(common::full_capabilities());
    let mut doc = Doc::open(
        &mut server,
        "file:///t/burst.sudoku",
        &crlf(EASY),
        Enc::Utf16,
    );
    // Cycle the first row's empty cells through digits and marks, and type into the title.
    let cells = [1, 3, 5, 7, 8];
    let marks = ['4', '.', '3', '8', '_', '9', '1'];
    for i in 0..1000 {
        if i % 7 == 6 {
            let at = span_of(&doc.text, "😀", 0).1;
            let grow = (i / 7) % 3 != 2;
            if grow {
                doc.edit(&mut server, (at, at), "字");
            } else {
                doc.edit(&mut server, (at, at + "字".len()), "");
            }
        } else {
            let cell = cells[i % cells.len()];
            let span = cell_span(&doc.text, 1, 0, cell);
            doc.edit(&mut server, span, &marks[i % marks.len()].to_string());
        }
    }
    assert_eq!(doc.version, 1001);
    let last = server.diagnostics(&doc.uri, 1001);
    // Publishes for this document never go back, and the final one is the last. (A version may
    // be published twice: once checked, again with the redundant givens its rating found, when
    // the rating finishes before the next edit cancels it.)
    server.drain(Duration::from_millis(500));
    let versions: Vec<i64> = server
        .log
        .iter()
        .filter(|m| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == doc.uri
        })
        .map(|m| m["params"]["version"].as_i64().unwrap())
        .collect();
    assert!(versions.windows(2).all(|w| w[0] <= w[1]), "{versions:?}");
    assert_eq!(versions.last(), Some(&1001));
    // The same text opened fresh gets the same diagnostics.
    let fresh_uri = "file:///t/fresh.sudoku";
    let fresh = server.open_and_check(fresh_uri, &doc.text);
    let renamed = serde_json::to_string(&fresh)
        .unwrap()
        .replace(fresh_uri, &doc.uri);
    assert_eq!(serde_json::to_string(&last).unwrap(), renamed);
    assert!(
        !last.is_empty(),
        "the final text has a conflict or two: {}",
        doc.text
    );
    // And the server's text is the client's: the titles (typed after an emoji) agree too.
    let title = |server: &mut Server, uri: &str| {
        let at = Enc::Utf16.position(&doc.text, span_of(&doc.text, "easy", 0).0);
        hover_text(&server.hover(uri, at))
    };
    let burst_title = title(&mut server, &doc.uri);
    assert_eq!(burst_title, title(&mut server, fresh_uri));
    let expected = doc
        .text
        .lines()
        .next()
        .unwrap()
        .trim_start_matches("# title: ")
        .to_string();
    assert!(
        burst_title.contains(&expected),
        "{burst_title} has {expected}"
    );
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

/// Where to edit a document, and what to write there.
type EditAt<'a> = dyn Fn(&Doc) -> ((usize, usize), String) + 'a;

#[test]
fn edits_in_a_collection_give_the_diagnostics_of_a_fresh_open() {
    // Re-reading only the lines around an edit must change nothing a client can see.
    let one = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let mut text = String::from("# author: Ann\n\n");
    for i in 0..300 {
        text.push_str(one);
        text.push_str(if i % 50 == 0 { " # marked\n" } else { "\n" });
        if i == 150 {
            text.push_str("\n# title: block\n");
            text.push_str(EASY.trim_start_matches("# title: 数独 😀 easy\n"));
            text.push('\n');
        }
    }
    // The timing log says how each run read the text.
    let mut server = Server::spawn_with(&[], &[("SUDOKU_LSP_TIMING", "1")]);
    server.initialize(common::full_capabilities());
    let mut doc = Doc::open(&mut server, "file:///t/many.sudoku", &text, Enc::Utf16);
    server.diagnostics(&doc.uri, 1);
    let line_start = |doc: &Doc, line: usize| line_span(&doc.text, line).0;
    let edits: Vec<Box<EditAt<'_>>> = vec![
        // A conflict in a one-liner, a broken line and a conflict in the block below it.
        Box::new(|d| ((line_start(d, 10), line_start(d, 10) + 1), "5".into())),
        Box::new(|d| ((line_start(d, 250) + 3, line_start(d, 250) + 4), "".into())),
        Box::new(|d| {
            let at = d.text.find("# title: block").unwrap();
            let row = line_span(&d.text, d.text[..at].lines().count() + 1);
            ((row.0, row.0 + 1), "9".into())
        }),
        // A new line and a deleted line above them all move their findings; then the undo.
        Box::new(|d| ((line_start(d, 30), line_start(d, 30)), format!("{one}\n"))),
        Box::new(|d| ((line_start(d, 40), line_start(d, 42)), "".into())),
        Box::new(|d| ((line_start(d, 10), line_start(d, 10) + 1), "4".into())),
        // The file's metadata, then the end.
        Box::new(|_| ((2, 5), "th".into())),
        Box::new(|d| ((d.text.len(), d.text.len()), format!("{one}x\n"))),
    ];
    for (i, edit) in edits.iter().enumerate() {
        let (span, new) = edit(&doc);
        let version = doc.edit(&mut server, span, &new);
        let diagnostics = server.diagnostics(&doc.uri, version);
        let fresh_uri = format!("file:///t/fresh{i}.sudoku");
        let fresh = server.open_and_check(&fresh_uri, &doc.text);
        // Redundant givens come with the rating, after the first publish of a fresh open;
        // the edited document keeps those of grids it has rated already.
        let fresh = without_redundant(fresh);
        let renamed = serde_json::to_string(&fresh)
            .unwrap()
            .replace(&fresh_uri, &doc.uri);
        assert_eq!(
            serde_json::to_string(&without_redundant(diagnostics.clone())).unwrap(),
            renamed,
            "after edit {i}"
        );
        if i == 0 {
            assert!(!diagnostics.is_empty(), "the conflict shows");
        }
    }
    // Every edit but the one to the file's metadata re-read part of the text only.
    server.drain(Duration::from_millis(200)); // and the log has caught up
    let log = server.stderr();
    let reread = log
        .lines()
        .filter(|l| l.contains("edited: re-read"))
        .count();
    let whole = log
        .lines()
        .filter(|l| l.contains("edited: read whole"))
        .count();
    assert_eq!((reread, whole), (edits.len() - 1, 1), "{log}");
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

/// The diagnostics without the redundant-given information, which follows the rating.
fn without_redundant(diagnostics: Vec<Value>) -> Vec<Value> {
    diagnostics
        .into_iter()
        .filter(|d| d["code"] != "redundant-given")
        .collect()
}

#[test]
fn fill_all_forced_cells_on_a_variant_puzzle_writes_what_the_rules_force() {
    // The killer example has two givens: the houses alone force nothing more; the cages' sums
    // force every other cell.
    let text = include_str!("../../puzzles/variants/killer.sudoku");
    let solution = text
        .lines()
        .find_map(|l| l.strip_prefix("# solution: "))
        .expect("the example's solution");
    let enc = Enc::Utf16;
    let mut server = server_with(enc);
    let mut doc = Doc::open(&mut server, "file:///t/killer.sudoku", text, enc);
    let first_cell = doc.text.find(". ").expect("an empty cell");
    let actions = doc.actions_at(&mut server, first_cell);
    let forced = titled(&actions, "Fill all forced cells").expect("offered on a killer");
    let puzzle = format::parse(text).puzzles[0].clone();
    let geometry = puzzle.geometry();
    let rules = puzzle.rules.as_deref().expect("cages");
    let masks = sudoku_lsp::engine::variant::propagated(&geometry, rules, &puzzle.givens)
        .expect("no contradiction");
    let empty = |c: &usize| puzzle.givens[*c] == 0;
    let singles = (0..81)
        .filter(empty)
        .filter(|&c| masks[c].count_ones() == 1)
        .count();
    assert!(singles > 0, "the cages force some digit");
    assert_eq!(
        forced["title"],
        format!("Fill all forced cells ({singles})"),
        "{forced:#?}"
    );
    doc.apply(&mut server, forced);
    let after = format::parse(&doc.text).puzzles[0].clone();
    let written = (0..81)
        .filter(empty)
        .filter(|&c| after.givens[c] != 0)
        .count();
    assert_eq!(written, singles);
    for cell in (0..81).filter(|&c| after.givens[c] != 0) {
        let want = solution.as_bytes()[cell] - b'0';
        assert_eq!(after.givens[cell], want, "cell {cell}");
    }
    assert_eq!(server.shutdown_and_exit(), Some(0));
}
