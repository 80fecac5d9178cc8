//! Semantic tokens, driven over stdio as an editor would: each token of a small file (an emoji
//! title, metadata, a comment, a grid block with `|` borders and `---+---` lines, a trailing
//! comment, an entry, a conflict, a pencil-mark grid) decoded and checked in UTF-16 and UTF-8;
//! a range request; a delta after an edit, applied to the previous array; and the refresh the
//! server asks for once conflicts are known.

mod common;

use common::{capabilities_with_encodings, Enc, Server};
use serde_json::{json, Value};

const URI: &str = "file:///t/tokens.sudoku";

/// Two 3s in row A (A1 and A3), a trailing comment on row B, an entry `+7` at I8, then a 4×4
/// pencil-mark grid.
const TEXT: &str = "# title: 😀 tokens\n# author: me\n# a note 日本\n\
3.3|.2.|6..\n\
9..|3.5|..1  # row B\n\
..1|8.6|4..\n\
---+---+---\n\
..8|1.2|9..\n\
7..|...|..8\n\
..6|7.8|2..\n\
---+---+---\n\
..2|6.9|5..\n\
8..|2.3|..9\n\
..5|.1.|3+7.\n\
\n\
# size: 4x4\n\
1  2  | 34 34\n\
34 34 | 1  2\n\
2  1  | 34 34\n\
4  3  | 2  1\n";

fn capabilities(enc: Enc, refresh: bool) -> Value {
    let mut capabilities = capabilities_with_encodings(&[enc.name()]);
    capabilities["workspace"]["semanticTokens"] = json!({"refreshSupport": refresh});
    capabilities
}

/// A server with `TEXT` open and checked; and the legend it announced.
fn open(enc: Enc) -> (Server, Value) {
    let mut server = Server::spawn();
    let init = server.initialize(capabilities(enc, false));
    let provider = &init["capabilities"]["semanticTokensProvider"];
    assert_eq!(provider["range"], true);
    assert_eq!(provider["full"]["delta"], true);
    server.open_and_check(URI, TEXT);
    (server, provider["legend"].clone())
}

fn result(server: &mut Server, method: &str, params: Value) -> Value {
    let response = server.request(method, params);
    assert!(response.get("error").is_none(), "{method}: {response}");
    response["result"].clone()
}

fn full(server: &mut Server) -> Value {
    result(
        server,
        "textDocument/semanticTokens/full",
        json!({"textDocument": {"uri": URI}}),
    )
}

fn numbers(data: &Value) -> Vec<u64> {
    data.as_array()
        .expect("a token array")
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect()
}

/// A token as absolute line, column, length, type and modifiers by name.
type Token = (u64, u64, u64, String, Vec<String>);

fn decode(data: &[u64], legend: &Value) -> Vec<Token> {
    assert_eq!(data.len() % 5, 0);
    let (mut line, mut column) = (0, 0);
    data.chunks(5)
        .map(|t| {
            if t[0] > 0 {
                column = 0;
            }
            line += t[0];
            column += t[1];
            let kind = legend["tokenTypes"][t[3] as usize].as_str().unwrap();
            let modifiers = (0..32)
                .filter(|bit| t[4] & (1 << bit) != 0)
                .map(|bit| legend["tokenModifiers"][bit].as_str().unwrap().to_string())
                .collect();
            (line, column, t[2], kind.to_string(), modifiers)
        })
        .collect()
}

fn tok(line: u64, column: u64, len: u64, kind: &str, modifiers: &[&str]) -> Token {
    let modifiers = modifiers.iter().map(|m| m.to_string()).collect();
    (line, column, len, kind.to_string(), modifiers)
}

fn on_line(tokens: &[Token], line: u64) -> Vec<Token> {
    tokens.iter().filter(|t| t.0 == line).cloned().collect()
}

const GIVEN: &[&str] = &["readonly"];
const CONFLICT: &[&str] = &["readonly", "deprecated"];
const MARKS: &[&str] = &["documentation"];

#[test]
fn every_token_of_a_small_file_has_its_place_type_and_modifiers() {
    for enc in [Enc::Utf16, Enc::Utf8] {
        let (mut server, legend) = open(enc);
        let tokens = decode(&numbers(&full(&mut server)["data"]), &legend);
        let name = enc.name();
        // The title: its key, and its value with the emoji (2 UTF-16 units, 4 bytes).
        let emoji = if enc == Enc::Utf16 { 2 } else { 4 };
        let cjk = if enc == Enc::Utf16 { 2 } else { 6 };
        assert_eq!(
            on_line(&tokens, 0),
            vec![
                tok(0, 2, 5, "property", &[]),
                tok(0, 9, emoji + 7, "string", &[])
            ],
            "{name}"
        );
        assert_eq!(
            on_line(&tokens, 1),
            vec![tok(1, 2, 6, "property", &[]), tok(1, 10, 2, "string", &[])],
            "{name}"
        );
        assert_eq!(
            on_line(&tokens, 2),
            vec![tok(2, 0, 9 + cjk, "comment", &[])],
            "{name}"
        );
        // Row A: the two 3s in conflict, empty cells, givens, borders.
        assert_eq!(
            on_line(&tokens, 3),
            vec![
                tok(3, 0, 1, "number", CONFLICT),
                tok(3, 1, 1, "variable", &[]),
                tok(3, 2, 1, "number", CONFLICT),
                tok(3, 3, 1, "operator", &[]),
                tok(3, 4, 1, "variable", &[]),
                tok(3, 5, 1, "number", GIVEN),
                tok(3, 6, 1, "variable", &[]),
                tok(3, 7, 1, "operator", &[]),
                tok(3, 8, 1, "number", GIVEN),
                tok(3, 9, 1, "variable", &[]),
                tok(3, 10, 1, "variable", &[]),
            ],
            "{name}"
        );
        // Row B ends with a comment.
        let row_b = on_line(&tokens, 4);
        assert_eq!(row_b.len(), 12, "{name}: {row_b:?}");
        assert_eq!(row_b[0], tok(4, 0, 1, "number", GIVEN));
        assert_eq!(row_b[11], tok(4, 13, 7, "comment", &[]));
        // A border line is one operator.
        assert_eq!(on_line(&tokens, 6), vec![tok(6, 0, 11, "operator", &[])]);
        assert_eq!(on_line(&tokens, 10), vec![tok(10, 0, 11, "operator", &[])]);
        // Row I: the entry `+7`, two characters, no readonly.
        let row_i = on_line(&tokens, 13);
        assert_eq!(
            row_i[8..],
            [
                tok(13, 8, 1, "number", GIVEN),
                tok(13, 9, 2, "parameter", &[]),
                tok(13, 11, 1, "variable", &[]),
            ],
            "{name}"
        );
        assert!(on_line(&tokens, 14).is_empty());
        assert_eq!(
            on_line(&tokens, 15),
            vec![tok(15, 2, 4, "property", &[]), tok(15, 8, 3, "string", &[])]
        );
        // The pencil-mark grid: placed digits, a border, groups of marks.
        assert_eq!(
            on_line(&tokens, 16),
            vec![
                tok(16, 0, 1, "number", GIVEN),
                tok(16, 3, 1, "number", GIVEN),
                tok(16, 6, 1, "operator", &[]),
                tok(16, 8, 2, "number", MARKS),
                tok(16, 11, 2, "number", MARKS),
            ],
            "{name}"
        );
        assert_eq!(tokens.last().unwrap().0, 19);
        // Every token lies inside its line.
        let lines: Vec<&str> = TEXT.lines().collect();
        for t in &tokens {
            let line = lines[t.0 as usize];
            let width = match enc {
                Enc::Utf16 => line.encode_utf16().count(),
                _ => line.len(),
            } as u64;
            assert!(t.2 > 0 && t.1 + t.2 <= width, "{name}: {t:?} on {line:?}");
        }
    }
}

#[test]
fn a_range_request_gives_only_the_tokens_in_range() {
    let (mut server, legend) = open(Enc::Utf16);
    let all = decode(&numbers(&full(&mut server)["data"]), &legend);
    let range = json!({"start": {"line": 3, "character": 4}, "end": {"line": 5, "character": 0}});
    let params = json!({"textDocument": {"uri": URI}, "range": range});
    let answer = result(&mut server, "textDocument/semanticTokens/range", params);
    let got = decode(&numbers(&answer["data"]), &legend);
    let wanted: Vec<Token> = all
        .into_iter()
        .filter(|t| (t.0 == 3 && t.1 >= 4) || t.0 == 4)
        .collect();
    assert_eq!(wanted.len(), 7 + 12);
    assert_eq!(got, wanted);
}

#[test]
fn a_delta_after_an_edit_gives_the_new_array() {
    for enc in [Enc::Utf16, Enc::Utf8] {
        let (mut server, _) = open(enc);
        let first = full(&mut server);
        let id = first["resultId"].as_str().expect("a result id").to_string();
        let old = numbers(&first["data"]);
        // A1's 3 becomes 5: no more conflict in row A, and A1 is a 5.
        let range =
            json!({"start": {"line": 3, "character": 0}, "end": {"line": 3, "character": 1}});
        server.change(URI, 2, vec![json!({"range": range, "text": "5"})]);
        server.diagnostics(URI, 2);
        let params = json!({"textDocument": {"uri": URI}, "previousResultId": id});
        let delta = result(
            &mut server,
            "textDocument/semanticTokens/full/delta",
            params,
        );
        let edits = delta["edits"].as_array().expect("edits, not a full array");
        assert!(!edits.is_empty());
        let mut new = old.clone();
        for edit in edits.iter().rev() {
            let start = edit["start"].as_u64().unwrap() as usize;
            let end = start + edit["deleteCount"].as_u64().unwrap() as usize;
            let data = edit.get("data").map(numbers).unwrap_or_default();
            new.splice(start..end, data);
        }
        let fresh = full(&mut server);
        assert_ne!(numbers(&fresh["data"]), old, "{}", enc.name());
        assert_eq!(new, numbers(&fresh["data"]), "{}", enc.name());
        // An unknown previous result: the whole array.
        let params = json!({"textDocument": {"uri": URI}, "previousResultId": "nope"});
        let whole = result(
            &mut server,
            "textDocument/semanticTokens/full/delta",
            params,
        );
        assert_eq!(numbers(&whole["data"]), numbers(&fresh["data"]));
        // The same text again: no edits.
        let id = whole["resultId"].as_str().unwrap();
        let params = json!({"textDocument": {"uri": URI}, "previousResultId": id});
        let same = result(
            &mut server,
            "textDocument/semanticTokens/full/delta",
            params,
        );
        assert_eq!(same["edits"], json!([]));
    }
}

#[test]
fn conflicts_found_ask_for_the_tokens_again_when_the_client_can_be_asked() {
    let mut server = Server::spawn();
    server.initialize(capabilities(Enc::Utf16, true));
    server.open_and_check(URI, TEXT);
    let refresh = server.server_request("workspace/semanticTokens/refresh");
    server.respond(&refresh, Value::Null);
}
