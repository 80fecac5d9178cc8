//! Semantic tokens, driven over stdio as an editor would: each token of a small file (an emoji
//! title, metadata, a comment, a grid block with `|` borders and `---+---` lines, a trailing
//! comment, an entry, a conflict, a pencil-mark grid) decoded and checked in UTF-16 and UTF-8;
//! a range request; a delta after an edit, applied to the previous array, and chains of deltas
//! over edits that change digits, add and remove lines, break and mend a block, in LF and CRLF
//! texts, each applied to the client's array and compared with the whole new array; and the
//! refresh the server asks for once conflicts are known, only of a client that said it can be
//! asked.

use crate::common;

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
                // Neighbouring cells of one kind are one token.
                tok(3, 9, 2, "variable", &[]),
            ],
            "{name}"
        );
        // Row B ends with a comment.
        let row_b = on_line(&tokens, 4);
        assert_eq!(row_b.len(), 10, "{name}: {row_b:?}");
        assert_eq!(row_b[0], tok(4, 0, 1, "number", GIVEN));
        assert_eq!(row_b[1], tok(4, 1, 2, "variable", &[]));
        assert_eq!(row_b[9], tok(4, 13, 7, "comment", &[]));
        // A border line is one operator.
        assert_eq!(on_line(&tokens, 6), vec![tok(6, 0, 11, "operator", &[])]);
        assert_eq!(on_line(&tokens, 10), vec![tok(10, 0, 11, "operator", &[])]);
        // Row I: the entry `+7`, two characters, no readonly.
        let row_i = on_line(&tokens, 13);
        assert_eq!(
            row_i[7..],
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

/// A collection's one-line puzzles: runs of cells of one kind are one token, and conflicting
/// digits are marked as in a block.
#[test]
fn one_line_puzzles_have_a_token_per_run_of_cells_of_one_kind() {
    let mut server = Server::spawn();
    let init = server.initialize(capabilities(Enc::Utf16, false));
    let legend = init["capabilities"]["semanticTokensProvider"]["legend"].clone();
    let conflict = format!("33..7{}\n", ".".repeat(76));
    let plain =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
    server.open_and_check(URI, &format!("{conflict}{plain}"));
    let tokens = decode(&numbers(&full(&mut server)["data"]), &legend);
    assert_eq!(
        on_line(&tokens, 0),
        vec![
            tok(0, 0, 2, "number", CONFLICT),
            tok(0, 2, 2, "variable", &[]),
            tok(0, 4, 1, "number", GIVEN),
            tok(0, 5, 76, "variable", &[]),
        ]
    );
    let line_1 = on_line(&tokens, 1);
    assert_eq!(
        line_1[..3],
        [
            tok(1, 0, 1, "number", GIVEN),
            tok(1, 1, 5, "variable", &[]),
            tok(1, 6, 1, "number", GIVEN),
        ]
    );
    // Every cell is covered, once.
    assert_eq!(line_1.iter().map(|t| t.2).sum::<u64>(), 81);
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
    assert_eq!(wanted.len(), 6 + 10);
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
        let new = applied(&old, edits);
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

/// `old` with a delta's edits applied, as a client does: each against the old array, so the
/// last first.
fn applied(old: &[u64], edits: &[Value]) -> Vec<u64> {
    let mut new = old.to_vec();
    let mut previous_start = usize::MAX;
    for edit in edits.iter().rev() {
        let start = edit["start"].as_u64().unwrap() as usize;
        let end = start + edit["deleteCount"].as_u64().unwrap() as usize;
        assert!(end <= previous_start, "edits in order, apart: {edits:?}");
        let data = edit.get("data").map(numbers).unwrap_or_default();
        new.splice(start..end, data);
        previous_start = start;
    }
    new
}

/// Every token of the server's current text, through a range over all of it (which leaves the
/// kept result, the base of the next delta, alone).
fn everything(server: &mut Server, uri: &str) -> Vec<u64> {
    let range =
        json!({"start": {"line": 0, "character": 0}, "end": {"line": 100000, "character": 0}});
    let params = json!({"textDocument": {"uri": uri}, "range": range});
    numbers(&result(server, "textDocument/semanticTokens/range", params)["data"])
}

/// One edit: a range of lines and characters, and its new text.
type Edit = ((u64, u64), (u64, u64), &'static str);

/// Open `text`, take its tokens, then make each edit in turn and ask for a delta from the last
/// result (half the time before the edit's diagnostics arrive): applied to the client's array,
/// each must give the whole array of the new text. Returns the sizes of the edits' data.
fn chain_of_deltas(text: &str, edits: &[Edit], enc: Enc) -> Vec<usize> {
    let uri = "file:///t/chain.sudoku";
    let mut server = Server::spawn();
    server.initialize(capabilities(enc, false));
    server.open_and_check(uri, text);
    let params = json!({"textDocument": {"uri": uri}});
    let first = result(&mut server, "textDocument/semanticTokens/full", params);
    let mut id = first["resultId"].as_str().unwrap().to_string();
    let mut client = numbers(&first["data"]);
    let mut sizes = Vec::new();
    for (i, &((l0, c0), (l1, c1), new_text)) in edits.iter().enumerate() {
        let version = i as i64 + 2;
        let range =
            json!({"start": {"line": l0, "character": c0}, "end": {"line": l1, "character": c1}});
        server.change(
            uri,
            version,
            vec![json!({"range": range, "text": new_text})],
        );
        if i % 2 == 0 {
            server.diagnostics(uri, version);
        }
        let params = json!({"textDocument": {"uri": uri}, "previousResultId": id});
        let delta = result(
            &mut server,
            "textDocument/semanticTokens/full/delta",
            params,
        );
        let edits = delta["edits"].as_array().expect("edits, not a whole array");
        sizes.push(edits.iter().map(|e| numbers(&e["data"]).len()).sum());
        client = applied(&client, edits);
        id = delta["resultId"].as_str().expect("a result id").to_string();
        if i % 2 == 1 {
            server.diagnostics(uri, version);
        }
        assert_eq!(
            client,
            everything(&mut server, uri),
            "{} after edit {i}",
            enc.name()
        );
    }
    sizes
}

/// A file of block puzzles and one-liners with comments and metadata between them.
const MIXED: &str = "# title: mixed\n# author: me\n\n\
# title: first\n\
3.3|.2.|6..\n9..|3.5|..1  # row B\n..1|8.6|4..\n---+---+---\n..8|1.2|9..\n7..|...|..8\n\
..6|7.8|2..\n---+---+---\n..2|6.9|5..\n8..|2.3|..9\n..5|.1.|3+7.\n\
\n\
# foo: bar\n\
4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n\
52...6.........7.13...........4..8..6......5...........418.........3..2...87.....\n\
# a comment\n\
6.....8.3.4.7.................5.4.7.3..2.....1.6.......2.....5.....8.6......1....\n";

const MIXED_EDITS: &[Edit] = &[
    // A1's 3 becomes 5: row A's conflict goes, on one line of a block.
    ((4, 0), (4, 1), "5"),
    // And back: the conflict returns.
    ((4, 0), (4, 1), "3"),
    // A line in the middle of the block: it breaks.
    ((7, 0), (7, 0), "# oops\n"),
    // Gone again: mended.
    ((7, 0), (8, 0), ""),
    // A digit of a one-liner.
    ((18, 0), (18, 1), "."),
    // A new one-liner between two, and a blank line.
    (
        (19, 0),
        (19, 0),
        "1................................................................................\n\n",
    ),
    // Two lines and a half gone, across puzzles.
    ((17, 3), (20, 0), ""),
    // The unknown key renamed, then the file's title edited (the file's metadata).
    ((16, 2), (16, 5), "bar"),
    ((0, 9), (0, 14), "MIXED"),
    // The last line's line break gone, then text after it.
    ((19, 81), (20, 0), ""),
    ((19, 81), (19, 81), "  free text\n# end"),
];

#[test]
fn chains_of_deltas_give_the_new_array_in_lf_and_crlf() {
    for enc in [Enc::Utf16, Enc::Utf8] {
        chain_of_deltas(MIXED, MIXED_EDITS, enc);
    }
    let crlf = MIXED.replace('\n', "\r\n");
    let crlf_edits: Vec<Edit> = MIXED_EDITS
        .iter()
        .map(|&(a, b, t)| (a, b, &*Box::leak(t.replace('\n', "\r\n").into_boxed_str())))
        .collect();
    chain_of_deltas(&crlf, &crlf_edits, Enc::Utf16);
    // A `\r` before a `\n` (one line break still), then alone in a line (two), then gone.
    let returns: &[Edit] = &[
        ((4, 11), (4, 11), "\r"),
        ((4, 11), (5, 0), "\n"),
        ((5, 9), (5, 9), "\r"),
        ((5, 9), (6, 0), ""),
    ];
    chain_of_deltas(MIXED, returns, Enc::Utf16);
}

#[test]
fn a_delta_in_a_collection_sends_only_the_lines_it_changed() {
    let line =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
    let text = line.repeat(40);
    let sizes = chain_of_deltas(
        &text,
        &[
            ((20, 0), (20, 1), "."),
            ((20, 0), (20, 1), "4"),
            ((39, 2), (39, 3), "7"),
        ],
        Enc::Utf16,
    );
    // One line's 81 cells and the next line's first token, five numbers each, at most.
    assert!(sizes.iter().all(|&n| n <= 82 * 5), "{sizes:?}");
}

#[test]
fn no_refresh_is_asked_of_a_client_that_cannot_be_asked() {
    let mut server = Server::spawn();
    server.initialize(capabilities(Enc::Utf16, false));
    server.open_and_check(URI, TEXT);
    full(&mut server);
    server.drain(std::time::Duration::from_millis(300));
    assert!(
        !server
            .log
            .iter()
            .any(|m| m["method"] == "workspace/semanticTokens/refresh"),
        "no refresh without refreshSupport"
    );
}

#[test]
fn conflicts_found_ask_for_the_tokens_again_when_the_client_can_be_asked() {
    let mut server = Server::spawn();
    server.initialize(capabilities(Enc::Utf16, true));
    server.open_and_check(URI, TEXT);
    let refresh = server.server_request("workspace/semanticTokens/refresh");
    server.respond(&refresh, Value::Null);
}
