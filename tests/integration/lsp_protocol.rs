//! The language server's protocol behaviour, driven over stdio as an editor would: initialize
//! and encoding negotiation, shutdown and exit codes, malformed input, unknown methods and
//! documents, out-of-range edits, close, contained panics, and answers during a long analysis.

use crate::common;

use std::time::Duration;

use common::{capabilities_with_encodings, Server};
use serde_json::{json, Value};

const URI: &str = "file:///tmp/protocol.sudoku";

const EASY: &str = concat!("# title: easy\n", common::easy_rows!());

#[test]
fn initialize_negotiates_the_position_encoding() {
    let cases: [(Option<&[&str]>, &str); 5] = [
        (None, "utf-16"),
        (Some(&["utf-8"]), "utf-8"),
        (Some(&["utf-32", "utf-16"]), "utf-32"),
        (Some(&["utf-7", "utf-16", "utf-8"]), "utf-16"),
        (Some(&[]), "utf-16"),
    ];
    for (offered, expected) in cases {
        let mut server = Server::spawn();
        let capabilities = match offered {
            None => json!({}),
            Some(encodings) => capabilities_with_encodings(encodings),
        };
        let result = server.initialize(capabilities);
        let caps = &result["capabilities"];
        assert_eq!(caps["positionEncoding"], expected, "offered {offered:?}");
        assert_eq!(caps["textDocumentSync"]["change"], 2, "incremental sync");
        assert_eq!(caps["textDocumentSync"]["openClose"], true);
        assert_eq!(caps["hoverProvider"], true);
        assert!(caps["codeActionProvider"].is_object());
        assert_eq!(result["serverInfo"]["name"], "sudoku-lsp");
        assert_eq!(server.shutdown_and_exit(), Some(0));
    }
}

#[test]
fn the_stdio_flag_serves_too() {
    let mut server = Server::spawn_with(&["--stdio"], &[]);
    server.initialize(json!({}));
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

#[test]
fn exit_codes_follow_the_spec() {
    // exit without shutdown: 1
    let mut server = Server::spawn();
    server.initialize(json!({}));
    server.notify("exit", Value::Null);
    assert_eq!(server.wait_exit(), Some(1));

    // stdin closed without exit: the session ends, 1 without shutdown
    let mut server = Server::spawn();
    server.initialize(json!({}));
    server.close_stdin();
    assert_eq!(server.wait_exit(), Some(1));

    // after shutdown, requests are refused but exit still gives 0
    let mut server = Server::spawn();
    server.initialize(json!({}));
    let response = server.request("shutdown", Value::Null);
    assert_eq!(response["result"], Value::Null);
    let refused = server.request("textDocument/hover", hover_params(URI, 0, 0));
    assert_eq!(refused["error"]["code"], -32600, "{refused}");
    server.notify("exit", Value::Null);
    assert_eq!(server.wait_exit(), Some(0));
}

#[test]
fn requests_before_initialize_are_refused() {
    let mut server = Server::spawn();
    let response = server.request("textDocument/hover", hover_params(URI, 0, 0));
    assert_eq!(response["error"]["code"], -32002, "{response}");
    server.initialize(json!({}));
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

#[test]
fn malformed_messages_are_answered_and_the_server_lives_on() {
    let mut server = Server::spawn();
    server.initialize(json!({}));

    // A body that is not JSON.
    let body = r#"{"jsonrpc":"2.0","id":5,"method":"textDocument/hover","params":"#;
    server.send_raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    let error = server.wait_for("a parse error", |m| m["error"]["code"] == -32700);
    assert_eq!(error["id"], Value::Null);

    // JSON, but not a JSON-RPC message: invalid request, answered with its id.
    server.send(&json!({"jsonrpc": "1.0", "id": 77, "method": "initialize"}));
    let error = server.wait_for("an invalid request error", |m| m["id"] == 77);
    assert_eq!(error["error"]["code"], -32600, "{error}");

    // A header without a usable Content-Length, and bytes that are not UTF-8.
    server.send_raw(b"Content-Length: lots\r\n\r\n{}");
    server.wait_for("a header error", |m| m["error"]["code"] == -32700);
    server.send_raw(b"Content-Length: 2\r\n\r\n\xff\xfe");
    server.wait_for("a UTF-8 error", |m| m["error"]["code"] == -32700);

    // Still serving.
    let response = server.request("textDocument/hover", hover_params(URI, 0, 0));
    assert_eq!(response["result"], Value::Null, "{response}");
    assert!(server.is_running());
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

#[test]
fn a_wrong_content_length_costs_only_its_own_frame() {
    let mut server = Server::spawn();
    server.initialize(json!({}));
    let hover = |id: i64| {
        let message = json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/hover",
            "params": hover_params(URI, 0, 0)});
        message.to_string()
    };
    let frame = |length: usize, body: &str| format!("Content-Length: {length}\r\n\r\n{body}");

    // Too short: the rest of its body comes before the next header. Sent in one write, so
    // the next message is already there when the framer meets the rest.
    let (first, second) = (hover(41), hover(42));
    let short = frame(20, &first) + &frame(second.len(), &second);
    server.send_raw(short.as_bytes());
    let error = server.wait_for("the short frame's error", |m| m["error"]["code"] == -32700);
    assert_eq!(error["id"], Value::Null, "{error}");
    let answer = server.response(42);
    assert_eq!(answer["result"], Value::Null, "{answer}");

    // Too long: its body runs into the next message, which is still served.
    let (first, second) = (hover(43), hover(44));
    let long = frame(first.len() + 30, &first[..first.len() - 1]) + &frame(second.len(), &second);
    server.send_raw(long.as_bytes());
    server.wait_for("the long frame's error", |m| m["error"]["code"] == -32700);
    let answer = server.response(44);
    assert_eq!(answer["result"], Value::Null, "{answer}");

    // Exactly one error each, and the session goes on.
    let response = server.request("textDocument/hover", hover_params(URI, 0, 0));
    assert_eq!(response["result"], Value::Null, "{response}");
    let errors = server.log.iter().filter(|m| m["error"]["code"] == -32700);
    assert_eq!(errors.count(), 2, "{:#?}", server.log);
    assert!(server.is_running());
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

#[test]
fn unknown_methods_get_method_not_found() {
    let mut server = Server::spawn();
    server.initialize(json!({}));
    let response = server.request("sudoku/frobnicate", json!({"x": 1}));
    assert_eq!(response["error"]["code"], -32601, "{response}");
    server.notify("sudoku/unknownNotification", json!({}));
    server.notify("$/unknownOptional", json!({}));
    let response = server.request("textDocument/hover", Value::String("bad params".into()));
    assert_eq!(response["error"]["code"], -32602, "{response}");
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

#[test]
fn unknown_documents_and_out_of_range_edits_are_logged_not_fatal() {
    let mut server = Server::spawn();
    server.initialize(json!({}));
    let other = "file:///tmp/never-opened.sudoku";
    server.change(
        other,
        2,
        vec![json!({"range": range(0, 0, 0, 0), "text": "x"})],
    );
    let log = server.wait_for("a log about the unknown document", is_log_about(other));
    assert_eq!(log["params"]["type"], 2, "a warning: {log}");
    server.close(other);
    server.wait_for("a log about closing it", is_log_about(other));

    server.open(URI, 1, "12\n34\n");
    server.change(
        URI,
        2,
        vec![json!({"range": range(7, 3, 99, 1), "text": "5"})],
    );
    server.wait_for("a log about the clamped edit", |m| {
        is_log_about(URI)(m) && m["params"]["message"].as_str().unwrap().contains("clamped")
    });
    // A range whose end comes before its start, and a position past the end of its line.
    server.change(
        URI,
        3,
        vec![json!({"range": range(1, 1, 0, 1), "text": "-"})],
    );
    server.change(
        URI,
        4,
        vec![json!({"range": range(0, 40, 0, 41), "text": "!"})],
    );
    server.diagnostics(URI, 4);
    let response = server.request("textDocument/hover", hover_params(URI, 0, 0));
    assert!(response.get("error").is_none(), "{response}");
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

#[test]
fn close_clears_the_diagnostics() {
    let mut server = Server::spawn();
    server.initialize(json!({}));
    server.open(URI, 1, "1..\n");
    server.diagnostics(URI, 1);
    server.close(URI);
    let cleared = server.wait_for("the empty diagnostics after close", |m| {
        m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == URI
    });
    assert_eq!(cleared["params"]["diagnostics"], json!([]));
    // Reopening works like a first open.
    server.open(URI, 1, "1..\n");
    server.diagnostics(URI, 1);
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

#[test]
fn a_panicking_analysis_costs_one_diagnostic_not_the_server() {
    let hooks = [("SUDOKU_LSP_TEST_HOOKS", "1")];
    let mut server = Server::spawn_with(&[], &hooks);
    server.initialize(json!({}));
    let text = format!("# sudoku-lsp-test:panic\n{EASY}");
    let diagnostics = server.open_and_check(URI, &text);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    assert_eq!(diagnostics[0]["code"], "internal");
    assert_eq!(diagnostics[0]["severity"], 1);
    assert_eq!(diagnostics[0]["source"], "sudoku");
    assert_eq!(
        diagnostics[0]["range"]["start"],
        json!({"line": 0, "character": 0})
    );
    server.wait_for("the panic in the log", |m| {
        m["method"] == "window/logMessage"
            && m["params"]["message"]
                .as_str()
                .unwrap()
                .contains("panicked")
    });
    // Hover and code actions on it fail softly (logged), the server keeps serving.
    let response = server.request("textDocument/hover", hover_params(URI, 2, 2));
    assert_eq!(response["result"], Value::Null, "{response}");
    let params = json!({"textDocument": {"uri": URI}, "range": range(2, 2, 2, 2), "context": {"diagnostics": []}});
    let response = server.request("textDocument/codeAction", params);
    assert_eq!(response["result"], Value::Null, "{response}");
    // Other documents are analysed as usual, and the broken one recovers once edited.
    server.open("file:///tmp/fine.sudoku", 1, EASY);
    let fine = server.diagnostics("file:///tmp/fine.sudoku", 1);
    assert!(fine.iter().all(|d| d["code"] != "internal"), "{fine:#?}");
    server.change(URI, 2, vec![json!({"text": EASY})]);
    let recovered = server.diagnostics(URI, 2);
    assert!(
        recovered.iter().all(|d| d["code"] != "internal"),
        "{recovered:#?}"
    );
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

#[test]
fn hover_is_answered_while_a_long_analysis_runs_and_newer_text_cancels_it() {
    let hooks = [("SUDOKU_LSP_TEST_HOOKS", "1")];
    let mut server = Server::spawn_with(&[], &hooks);
    server.initialize(json!({}));
    let slow = format!("# sudoku-lsp-test:slow\n{EASY}");
    server.open(URI, 1, &slow);
    // The diagnostics run spins until cancelled; hover still answers, more than once.
    for _ in 0..3 {
        let response = server.request("textDocument/hover", hover_params(URI, 2, 2));
        assert!(response.get("error").is_none(), "{response}");
    }
    let params = json!({"textDocument": {"uri": URI}, "range": range(2, 2, 2, 2), "context": {"diagnostics": []}});
    let response = server.request("textDocument/codeAction", params);
    assert!(response.get("error").is_none(), "{response}");
    // A new version cancels the spinning run; only the new version's diagnostics arrive.
    server.change(URI, 2, vec![json!({"text": EASY})]);
    server.diagnostics(URI, 2);
    server.drain(Duration::from_millis(300));
    let published_v1 = server
        .log
        .iter()
        .any(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["version"] == 1);
    assert!(
        !published_v1,
        "diagnostics for the superseded version were published"
    );
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

#[test]
fn answers_about_a_text_that_changed_meanwhile_are_dropped() {
    let hooks = [("SUDOKU_LSP_TEST_HOOKS", "1")];
    let mut server = Server::spawn_with(&[], &hooks);
    server.initialize(common::full_capabilities());
    let text = format!("# sudoku-lsp-test:lagging-query\n{EASY}");
    server.open(URI, 1, &text);
    server.diagnostics(URI, 1);
    // While the code action is being computed (it lags 600 ms), the user types.
    let params = json!({"textDocument": {"uri": URI}, "range": range(2, 2, 2, 2), "context": {"diagnostics": []}});
    let id = server.send_request("textDocument/codeAction", params);
    let hover = server.send_request("textDocument/hover", hover_params(URI, 2, 2));
    server.change(
        URI,
        2,
        vec![json!({"range": range(2, 0, 2, 1), "text": "4"})],
    );
    // Edits computed for version 1 would be refused (or worse, misapplied): none are sent.
    assert_eq!(server.response(id)["result"], Value::Null);
    assert_eq!(server.response(hover)["result"], Value::Null);
    // Asked again, the answers are about version 2.
    let params = json!({"textDocument": {"uri": URI}, "range": range(2, 2, 2, 2), "context": {"diagnostics": []}});
    let actions = server.request("textDocument/codeAction", params)["result"].clone();
    let solve = actions
        .as_array()
        .and_then(|a| a.iter().find(|a| a["title"] == "Solve puzzle"))
        .unwrap_or_else(|| panic!("{actions}"));
    assert_eq!(
        solve["edit"]["documentChanges"][0]["textDocument"]["version"],
        2
    );
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

#[test]
fn a_cancelled_request_is_answered_as_cancelled_and_the_server_goes_on() {
    let hooks = [("SUDOKU_LSP_TEST_HOOKS", "1")];
    let mut server = Server::spawn_with(&[], &hooks);
    server.initialize(json!({}));
    let text = format!("# sudoku-lsp-test:lagging-query\n{EASY}");
    server.open(URI, 1, &text);
    let id = server.send_request("textDocument/hover", hover_params(URI, 2, 2));
    server.notify("$/cancelRequest", json!({"id": id}));
    assert_eq!(server.response(id)["error"]["code"], -32800);
    // The work it started finishes on its own; the next request is answered normally.
    let response = server.request("textDocument/hover", hover_params(URI, 2, 2));
    assert!(response["result"]["contents"].is_object(), "{response}");
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

#[test]
fn exit_is_prompt_even_while_an_analysis_spins() {
    let hooks = [("SUDOKU_LSP_TEST_HOOKS", "1")];
    let mut server = Server::spawn_with(&[], &hooks);
    server.initialize(json!({}));
    server.open(URI, 1, &format!("# sudoku-lsp-test:slow\n{EASY}"));
    server.notify("exit", Value::Null);
    assert_eq!(server.wait_exit(), Some(1));
}

fn range(l1: u32, c1: u32, l2: u32, c2: u32) -> Value {
    json!({"start": {"line": l1, "character": c1}, "end": {"line": l2, "character": c2}})
}

fn hover_params(uri: &str, line: u32, character: u32) -> Value {
    json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}})
}

fn is_log_about(uri: &str) -> impl Fn(&Value) -> bool + '_ {
    move |m| {
        m["method"] == "window/logMessage"
            && m["params"]["message"]
                .as_str()
                .is_some_and(|s| s.contains(uri))
    }
}

#[test]
fn an_unknown_dollar_request_is_answered_method_not_found() {
    // tower-lsp-server drops the answer to every unknown `$/` method, requests included: the
    // client would wait for ever (found by the server fuzz target).
    let mut server = Server::spawn();
    server.initialize(json!({}));
    let unknown = server.send_request("$/sudoku-lsp/nonsense", json!({}));
    let answer = server.response(unknown);
    assert_eq!(answer["error"]["code"], -32601, "{answer}");
    let plain = server.send_request("sudoku-lsp/nonsense", json!({}));
    assert_eq!(server.response(plain)["error"]["code"], -32601);
    // A `$/` notification (no id) gets no answer, as the protocol asks; the session goes on.
    server.notify("$/sudoku-lsp/ping", json!({}));
    server.notify("$/cancelRequest", json!({"id": 99}));
    let after = server.request("shutdown", Value::Null);
    assert_eq!(after["result"], Value::Null, "{after}");
}
