//! Formatting through the language server, driven over stdio as an editor would: the edits a
//! `textDocument/formatting` answer holds, applied to the text, give the library's formatted
//! text, in UTF-16 and UTF-8 with an emoji title and CRLF; only the lines that change are
//! edited; range formatting touches only the puzzle in range; the `formatStyle` setting and the
//! request's whitespace options apply; and a text that changes while it is formatted gets an
//! error, never stale edits.

use crate::common;

use common::{apply_text_edits, capabilities_with_encodings, Enc, Server};
use serde_json::{json, Value};
use sudoku_lsp::format::{self, Options, Style};

/// Two puzzles as setters type them, the first under an emoji title, with CRLF line breaks.
const TEXT: &str = "# Title: 数独 🧩 first\r\n# a comment 😀\r\n4.....8.5\r\n.3.......\r\n...7.....\r\n.2.....6.\r\n....8.4..\r\n....1....\r\n...6.3.7.\r\n5..2.....\r\n1.4......\r\n\r\n# title: second\r\n1234\r\n3412\r\n2143\r\n4321\r\n";

const URI: &str = "file:///format.sudoku";

fn params(uri: &str, options: Value) -> Value {
    json!({"textDocument": {"uri": uri}, "options": options})
}

fn plain_options() -> Value {
    json!({"tabSize": 4, "insertSpaces": true})
}

/// The edits of a formatting answer (asserting it is one).
fn edits(response: &Value) -> Vec<Value> {
    assert!(response.get("error").is_none(), "{response}");
    response["result"].as_array().cloned().unwrap_or_default()
}

#[test]
fn the_server_says_it_formats_documents_and_ranges() {
    let mut server = Server::spawn();
    let result = server.initialize_full();
    assert_eq!(result["capabilities"]["documentFormattingProvider"], true);
    assert_eq!(
        result["capabilities"]["documentRangeFormattingProvider"],
        true
    );
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

#[test]
fn formatting_edits_give_the_formatted_text_in_each_encoding() {
    let expected = format::format(TEXT, &Options::default());
    assert_ne!(expected, TEXT);
    for enc in [Enc::Utf16, Enc::Utf8] {
        let mut server = Server::spawn();
        server.initialize(capabilities_with_encodings(&[enc.name()]));
        server.open_and_check(URI, TEXT);
        let response = server.request("textDocument/formatting", params(URI, plain_options()));
        let edits = edits(&response);
        assert_eq!(apply_text_edits(TEXT, &edits, enc), expected, "{enc:?}");
        // Only what changes: the title's key, and the grid's rows; the comment, the blank line
        // and the second puzzle's title are not touched.
        let lines: Vec<u64> = edits
            .iter()
            .map(|e| e["range"]["start"]["line"].as_u64().unwrap())
            .collect();
        assert!(
            !lines.contains(&1) && !lines.contains(&11) && !lines.contains(&12),
            "{lines:?}"
        );
        assert!(edits
            .iter()
            .all(|e| !e["newText"].as_str().unwrap().contains("comment")));
        // Formatting the formatted text changes nothing.
        server.change(URI, 2, vec![json!({"text": expected})]);
        server.diagnostics(URI, 2);
        let again = server.request("textDocument/formatting", params(URI, plain_options()));
        assert_eq!(again["result"], json!([]), "{enc:?}");
        assert_eq!(server.shutdown_and_exit(), Some(0));
    }
}

#[test]
fn range_formatting_touches_only_the_puzzle_in_range() {
    let mut server = Server::spawn();
    server.initialize_full();
    server.open_and_check(URI, TEXT);
    // A range inside the second puzzle's rows.
    let range = json!({"start": {"line": 14, "character": 1}, "end": {"line": 15, "character": 2}});
    let response = server.request(
        "textDocument/rangeFormatting",
        json!({"textDocument": {"uri": URI}, "range": range, "options": plain_options()}),
    );
    let out = apply_text_edits(TEXT, &edits(&response), Enc::Utf16);
    let second = TEXT.find("# title: second").unwrap();
    assert_eq!(
        &out[..second],
        &TEXT[..second],
        "the first puzzle is untouched"
    );
    assert_eq!(
        &out[second..],
        "# title: second\r\n1 2 | 3 4\r\n3 4 | 1 2\r\n----+----\r\n2 1 | 4 3\r\n4 3 | 2 1\r\n"
    );
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

#[test]
fn the_format_style_setting_and_the_whitespace_options_apply() {
    let mut server = Server::spawn();
    server.request(
        "initialize",
        json!({
            "processId": null,
            "rootUri": null,
            "capabilities": common::full_capabilities(),
            "initializationOptions": {"formatStyle": "line"},
        }),
    );
    server.notify("initialized", json!({}));
    let text = "1 2 | 3 4   \n3 4 | 1 2\n----+----\n2 1 | 4 3\n4 3 | 2 1\n\n\n";
    server.open_and_check(URI, text);
    let options = json!({"tabSize": 2, "insertSpaces": true, "trimTrailingWhitespace": true, "trimFinalNewlines": true});
    let response = server.request("textDocument/formatting", params(URI, options));
    let out = apply_text_edits(text, &edits(&response), Enc::Utf16);
    assert_eq!(out, "1234341221434321\n");
    // The setting changed: compact, and a last line without its break gets one when asked.
    server.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"sudoku": {"formatStyle": "compact"}}}),
    );
    let bare = "1 2 | 3 4\n3 4 | 1 2\n----+----\n2 1 | 4 3\n4 3 | 2 1";
    server.change(URI, 2, vec![json!({"text": bare})]);
    server.diagnostics(URI, 2);
    let options = json!({"tabSize": 2, "insertSpaces": true, "insertFinalNewline": true});
    let response = server.request("textDocument/formatting", params(URI, options));
    let out = apply_text_edits(bare, &edits(&response), Enc::Utf16);
    assert_eq!(
        out,
        format::format(bare, &Options::style(Style::Compact)) + "\n"
    );
    assert_eq!(out, "1234\n3412\n2143\n4321\n");
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

#[test]
fn a_text_that_changes_while_it_is_formatted_gets_an_error_not_stale_edits() {
    let hooks = [("SUDOKU_LSP_TEST_HOOKS", "1")];
    let mut server = Server::spawn_with(&[], &hooks);
    server.initialize_full();
    // The hook makes every query on this text take 600 ms.
    let text = format!(
        "# sudoku-lsp-test:lagging-query\n{}",
        &TEXT.replace("\r\n", "\n")
    );
    server.open(URI, 1, &text);
    let id = server.send_request("textDocument/formatting", params(URI, plain_options()));
    let edit = json!({"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "# moved on\n"});
    server.change(URI, 2, vec![edit]);
    let response = server.response(id);
    assert_eq!(response["error"]["code"], -32801, "{response}");
    // Asked again, the answer is for the new text.
    let moved = format!("# moved on\n{text}");
    let response = server.request("textDocument/formatting", params(URI, plain_options()));
    let out = apply_text_edits(&moved, &edits(&response), Enc::Utf16);
    assert_eq!(out, format::format(&moved, &Options::default()));
    // A document that is not open has nothing to format.
    let response = server.request(
        "textDocument/formatting",
        params("file:///closed.sudoku", plain_options()),
    );
    assert_eq!(response["result"], Value::Null, "{response}");
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

#[test]
fn range_formatting_trims_trailing_whitespace_in_its_puzzles_only_and_leaves_the_file_end() {
    let mut server = Server::spawn();
    server.initialize_full();
    let first = "# title: a\n1 2 | 3 4 # note   \n3 4 | 1 2\n----+----\n2 1 | 4 3\n4 3 | 2 1\n";
    let second = "\n# title: b   \n1 2 | 3 4   \n3 4 | 1 2\n----+----\n2 1 | 4 3\n4 3 | 2 1\n\n\n";
    let text = format!("{first}{second}");
    server.open_and_check(URI, &text);
    let options = json!({"tabSize": 2, "insertSpaces": true, "trimTrailingWhitespace": true,
        "trimFinalNewlines": true, "insertFinalNewline": true});
    let range = json!({"start": {"line": 2, "character": 0}, "end": {"line": 2, "character": 1}});
    let response = server.request(
        "textDocument/rangeFormatting",
        json!({"textDocument": {"uri": URI}, "range": range, "options": options}),
    );
    let out = apply_text_edits(&text, &edits(&response), Enc::Utf16);
    assert_eq!(
        out,
        format!("{}{second}", first.replace("# note   ", "# note"))
    );
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

#[test]
fn formatting_that_changes_many_lines_sends_one_edit() {
    let mut server = Server::spawn();
    server.initialize_full();
    let line =
        "003020600900305001001806400008102900700000008006708200002609500800203009005010300\n";
    let text = format!("# many\n{}", line.repeat(1_500));
    server.open_and_check(URI, &text);
    let response = server.request("textDocument/formatting", params(URI, plain_options()));
    let edits = edits(&response);
    assert_eq!(edits.len(), 1, "1,500 changed lines go as one edit");
    let out = apply_text_edits(&text, &edits, Enc::Utf16);
    assert_eq!(out, format::format(&text, &Options::style(Style::Grid)));
    assert!(out.starts_with("# many\n..3.2.6..9"), "{}", &out[..100]);
    assert_eq!(server.shutdown_and_exit(), Some(0));
}
