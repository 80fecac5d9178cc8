//! The server, in-process over in-memory pipes, fed a random session: initialize (with a random
//! position encoding), opens, edits at random positions (mostly valid, some past the line end,
//! past the last line, or inside a surrogate pair or a UTF-8 sequence), hovers, code actions,
//! navigation requests (outline, completion, definition, references, highlights, inlay hints,
//! semantic tokens: full, range, and deltas from result ids the server may or may not keep),
//! malformed frames, bad requests, closes and reopens, then shutdown and exit.
//!
//! It must not panic (libFuzzer aborts on any panic, even one the server catches; an `internal`
//! diagnostic fails too), answer every request, finish within a bound, hold the same text as the
//! client's model of it (applied with this file's own reading of LSP positions, compared through
//! the hidden `$/sudoku-lsp/documentText` request), and publish for each document's last
//! version exactly the diagnostics `analysis::check_text` gives for the client's text.
//!
//! Malformed frames are standalone garbage (never a damaged copy of a real message), built so
//! the framer resynchronises on the next real header: so the expected outcome stays defined.
#![no_main]

use std::collections::{BTreeMap, HashMap};
use std::sync::Once;
use std::time::Duration;

use arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};
use sudoku_lsp::analysis::check_text;
use sudoku_lsp::engine::Budget;
use sudoku_lsp_fuzz::{lsp_lines, piece, position, resolve, text, Units};
use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream};
use tokio::sync::mpsc;
use tokio::time::{timeout, Instant};

/// The node budget the server is started with (and `check_text` is given).
const MAX_NODES: u64 = 500;
/// How long a whole session may take before it counts as a hang.
const SESSION: Duration = Duration::from_secs(30);
/// Each document's URI; a few, so closes, reopens and edits to unopened ones happen.
const URIS: [&str; 3] = [
    "file:///fuzz/a.sudoku",
    "file:///fuzz/b%20c.sudoku",
    "untitled:Untitled-1",
];

/// One thing the client does.
enum Step {
    Open(usize, String),
    Change(usize, Vec<Edit>),
    Hover(usize, Pos),
    CodeAction(usize, Pos, Pos, bool),
    /// One of the navigation requests (outline, completion, definition, references,
    /// highlights, inlay hints, semantic tokens), at a position or over a range.
    Navigate(usize, Pos, Pos, u8),
    Close(usize),
    /// Raw bytes the framer must survive (with or without an answer).
    Garbage(Vec<u8>),
    /// A well-framed request that must be answered (with an error or a result) by its id.
    BadRequest(String, Value),
    /// A notification the server must ignore without harm.
    BadNotification(String, Value),
}

enum Edit {
    Whole(String),
    Range(Pos, Pos, String),
}

/// A position, resolved against the client's text when the step is sent.
#[derive(Clone, Copy)]
enum Pos {
    /// A character boundary of the text, chosen by index (the usual case).
    Boundary(u16),
    /// A line's end plus some: past the line's end.
    PastLineEnd(u16, u8),
    /// Past the last line.
    PastLastLine(u8, u8),
    /// Inside a multi-unit character (half a surrogate pair, the middle of a UTF-8 sequence),
    /// if the text has one; the `u16` picks which.
    Inside(u16),
    /// Any numbers at all.
    Raw(u32, u32),
}

struct Session {
    encodings: Vec<&'static str>,
    steps: Vec<Step>,
    ending: Ending,
}

enum Ending {
    /// shutdown, then exit: the server must stop with a clean exit.
    Exit,
    /// shutdown, then the input just closes.
    Close,
    /// shutdown, then a frame that never completes, then the input closes.
    Truncated(Vec<u8>),
}

fn arbitrary_pos(u: &mut Unstructured) -> Result<Pos> {
    Ok(match u.int_in_range(0u8..=15)? {
        0..=10 => Pos::Boundary(u.arbitrary()?),
        11 => Pos::PastLineEnd(u.arbitrary()?, u.int_in_range(1..=3)?),
        12 => Pos::PastLastLine(u.int_in_range(0..=2)?, u.arbitrary()?),
        13 | 14 => Pos::Inside(u.arbitrary()?),
        _ => Pos::Raw(u.arbitrary()?, u.arbitrary()?),
    })
}

/// Bytes with no `content-length` in them (any case): what the framer skips to resynchronise.
fn no_marker(mut bytes: Vec<u8>) -> Vec<u8> {
    let marker = b"content-length";
    while let Some(at) = bytes
        .windows(marker.len())
        .position(|w| w.eq_ignore_ascii_case(marker))
    {
        bytes[at] = b'_';
    }
    bytes
}

fn frame(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

/// Bytes that start with `~`: never JSON, so never a message that does something.
fn not_json(u: &mut Unstructured) -> Result<Vec<u8>> {
    let mut body = vec![b'~'];
    let n = u.int_in_range(0..=40)?;
    for _ in 0..n {
        body.push(u.arbitrary()?);
    }
    Ok(body)
}

fn garbage(u: &mut Unstructured) -> Result<Vec<u8>> {
    Ok(match u.int_in_range(0u8..=6)? {
        // A header block that is not one (no Content-Length, bad lines, not UTF-8).
        0 => {
            let mut bytes = no_marker(not_json(u)?);
            bytes.extend_from_slice(b"\r\n\r\n");
            bytes
        }
        // A Content-Length that is no byte count, or far too large, and a body to skip.
        1 => {
            let value = [
                "x",
                "-1",
                "1e3",
                "",
                "99999999999999999999",
                "600000000",
                " 2 2",
            ][u.choose_index(7)?];
            let mut bytes = format!("Content-Length: {value}\r\nX: y\r\n\r\n").into_bytes();
            bytes.extend(no_marker(not_json(u)?));
            bytes
        }
        // A body that is not JSON.
        2 => frame(&not_json(u)?),
        // JSON, but not a JSON-RPC message the server takes.
        3 => {
            let bodies = [
                r#"{}"#,
                r#"[]"#,
                r#"[{"jsonrpc":"2.0","method":"initialized"}]"#,
                r#"{"jsonrpc":"1.0","id":91,"method":"textDocument/hover"}"#,
                r#"{"jsonrpc":"2.0","id":{"x":1},"method":"shutdown"}"#,
                r#"{"jsonrpc":"2.0","method":7}"#,
                r#"null"#,
                r#""text""#,
                r#"{"jsonrpc":"2.0","id":92}"#,
            ];
            frame(bodies[u.choose_index(bodies.len())?].as_bytes())
        }
        // A Content-Length shorter than the body: the rest reads as a broken header.
        4 => {
            let body = not_json(u)?;
            let mut rest = no_marker(not_json(u)?);
            rest.extend_from_slice(b"\r\n\r\n");
            let mut bytes = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
            bytes.extend(body);
            bytes.extend(rest);
            bytes
        }
        // A body that is not UTF-8.
        5 => frame(b"{\"jsonrpc\":\"2.0\",\"id\":93,\"method\":\"\xff\xfe\"}"),
        // A header with other fields, in another case, then a non-JSON body.
        _ => {
            let body = not_json(u)?;
            let mut bytes = format!(
                "content-type: application/vscode-jsonrpc; charset=utf-8\r\nCONTENT-LENGTH:{}\r\n\r\n",
                body.len()
            )
            .into_bytes();
            bytes.extend(body);
            bytes
        }
    })
}

fn bad_request(u: &mut Unstructured) -> Result<Step> {
    let uri = URIS[u.choose_index(URIS.len())?];
    let (method, params) = match u.int_in_range(0u8..=5)? {
        // Not `$/…`: tower-lsp-server 0.22 never answers an unknown `$/` request (it drops the
        // MethodNotFound error for any `$/` method, requests included), a known deviation.
        0 => ("sudoku-lsp/nonsense", json!({})),
        1 => ("textDocument/hover", json!({"textDocument": {"uri": uri}})),
        2 => (
            "textDocument/hover",
            json!({"textDocument": {"uri": "not a uri"}, "position": {"line": 0, "character": 0}}),
        ),
        3 => (
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri}, "range": "everywhere"}),
        ),
        4 => (
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": {"line": -1, "character": 0}}),
        ),
        _ => (
            "textDocument/completion",
            json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}),
        ),
    };
    Ok(Step::BadRequest(method.into(), params))
}

fn bad_notification(u: &mut Unstructured) -> Result<Step> {
    let uri = URIS[u.choose_index(URIS.len())?];
    let (method, params) = match u.int_in_range(0u8..=3)? {
        0 => ("$/cancelRequest", json!({"id": 4242})),
        1 => (
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri}}),
        ),
        2 => (
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri}, "contentChanges": 3}),
        ),
        _ => ("$/unknownNotification", json!(null)),
    };
    Ok(Step::BadNotification(method.into(), params))
}

fn session(u: &mut Unstructured) -> Result<Session> {
    let offers: [&[&'static str]; 6] = [
        &[],
        &["utf-8"],
        &["utf-16"],
        &["utf-32"],
        &["x-unknown", "utf-8", "utf-16"],
        &["utf-32", "utf-8"],
    ];
    let encodings = offers[u.choose_index(offers.len())?].to_vec();
    let mut steps = Vec::new();
    // Most sessions start with an open, so edits have something to work on.
    if u.ratio(3, 4)? {
        steps.push(Step::Open(0, text(u, 20)?));
    }
    let n = u.int_in_range(0..=24)?;
    for _ in 0..n {
        let doc = if u.ratio(4, 5)? {
            0
        } else {
            u.choose_index(URIS.len())?
        };
        let step = match u.int_in_range(0u8..=19)? {
            0 | 1 => Step::Open(doc, text(u, 20)?),
            2..=9 => {
                let mut edits = Vec::new();
                for _ in 0..u.int_in_range(1..=3)? {
                    let inserted = match u.int_in_range(0u8..=4)? {
                        0 => String::new(),
                        1..=3 => piece(u)?,
                        _ => text(u, 4)?,
                    };
                    edits.push(if u.ratio(1, 20)? {
                        Edit::Whole(inserted)
                    } else {
                        Edit::Range(arbitrary_pos(u)?, arbitrary_pos(u)?, inserted)
                    });
                }
                Step::Change(doc, edits)
            }
            10 => Step::Hover(doc, arbitrary_pos(u)?),
            11 => Step::Navigate(doc, arbitrary_pos(u)?, arbitrary_pos(u)?, u.arbitrary()?),
            12 | 13 => Step::CodeAction(doc, arbitrary_pos(u)?, arbitrary_pos(u)?, u.arbitrary()?),
            14 => Step::Close(doc),
            15 | 16 => Step::Garbage(garbage(u)?),
            17 => bad_request(u)?,
            18 => bad_notification(u)?,
            _ => Step::Open(
                doc,
                sudoku_lsp_fuzz::FILES[u.choose_index(sudoku_lsp_fuzz::FILES.len())?].into(),
            ),
        };
        steps.push(step);
    }
    let ending = match u.int_in_range(0u8..=9)? {
        0 => Ending::Close,
        1 => {
            let mut bytes = b"Content-Length: 40\r\n\r\n{\"jsonrpc\"".to_vec();
            if u.arbitrary()? {
                bytes.truncate(u.int_in_range(1..=bytes.len())?);
            }
            Ending::Truncated(bytes)
        }
        _ => Ending::Exit,
    };
    Ok(Session {
        encodings,
        steps,
        ending,
    })
}

/// The byte offset a `Pos` stands for in `text`, and the LSP position sent for it.
fn locate(text: &str, pos: Pos, units: Units) -> (u32, u32) {
    let boundaries = || (0..=text.len()).filter(|&i| text.is_char_boundary(i));
    match pos {
        Pos::Boundary(i) => {
            // Not between `\r` and `\n`: no position names that.
            let all: Vec<usize> = boundaries()
                .filter(|&i| !(text[..i].ends_with('\r') && text[i..].starts_with('\n')))
                .collect();
            position(text, all[i as usize % all.len()], units)
        }
        Pos::PastLineEnd(line, extra) => {
            let lines = lsp_lines(text);
            let (start, end) = lines[line as usize % lines.len()];
            let (l, _) = position(text, start, units);
            let (_, c) = position(text, end, units);
            (l, c + extra as u32)
        }
        Pos::PastLastLine(more, character) => {
            (lsp_lines(text).len() as u32 + more as u32, character as u32)
        }
        Pos::Inside(i) => {
            let wide: Vec<usize> = text
                .char_indices()
                .filter(|&(_, c)| Units::of(c, units) > 1)
                .map(|(at, _)| at)
                .collect();
            if wide.is_empty() {
                return position(text, 0, units);
            }
            let (l, c) = position(text, wide[i as usize % wide.len()], units);
            (l, c + 1)
        }
        Pos::Raw(l, c) => (l % 64, c % 256),
    }
}

/// A navigation request on `uri` (or a pull of diagnostics): which one `which` picks; at `a`, or
/// over `a` to `b`.
fn navigation_request(uri: &str, a: (u32, u32), b: (u32, u32), which: u8) -> (&'static str, Value) {
    let document = json!({"uri": uri});
    let at = json!({"textDocument": document, "position": lsp_position(a)});
    let range = json!({"start": lsp_position(a), "end": lsp_position(b)});
    match which % 13 {
        0 => (
            "textDocument/documentSymbol",
            json!({"textDocument": document}),
        ),
        1 => (
            "textDocument/foldingRange",
            json!({"textDocument": document}),
        ),
        2 => (
            "textDocument/selectionRange",
            json!({"textDocument": document, "positions": [lsp_position(a), lsp_position(b)]}),
        ),
        3 => ("textDocument/completion", at),
        4 => ("textDocument/definition", at),
        6 => ("textDocument/documentHighlight", at),
        5 => {
            let mut params = at;
            params["context"] = json!({"includeDeclaration": which & 8 != 0});
            ("textDocument/references", params)
        }
        // Any order: a client may send a range backwards.
        7 => (
            "textDocument/inlayHint",
            json!({"textDocument": document, "range": range}),
        ),
        8 => (
            "textDocument/semanticTokens/full",
            json!({"textDocument": document}),
        ),
        9 => (
            "textDocument/semanticTokens/range",
            json!({"textDocument": document, "range": range}),
        ),
        11 => (
            "textDocument/diagnostic",
            json!({"textDocument": document, "previousResultId": (which & 1 == 0).then_some("1")}),
        ),
        12 => ("workspace/diagnostic", json!({"previousResultIds": []})),
        _ => {
            // Result ids count up from 1: a small number is often one the server keeps (a
            // delta from it), sometimes one it forgot (the whole array).
            let previous = (which / 13 % 6).to_string();
            (
                "textDocument/semanticTokens/full/delta",
                json!({"textDocument": document, "previousResultId": previous}),
            )
        }
    }
}

fn lsp_position((line, character): (u32, u32)) -> Value {
    json!({"line": line, "character": character})
}

fn units_of(name: &str) -> Units {
    match name {
        "utf-8" => Units::Utf8,
        "utf-32" => Units::Utf32,
        _ => Units::Utf16,
    }
}

/// What the client knows of one document.
#[derive(Default)]
struct Model {
    open: Option<(i32, String)>,
    ever_opened: bool,
}

struct Client {
    to_server: DuplexStream,
    from_server: mpsc::UnboundedReceiver<Value>,
    next_id: i64,
    /// Requests sent, not yet answered: id → (method, whether an error is acceptable).
    pending: HashMap<i64, (String, bool)>,
    answers: HashMap<i64, Value>,
    /// Everything the server published, per URI, in order.
    published: HashMap<String, Vec<Value>>,
    deadline: Instant,
}

impl Client {
    async fn send(&mut self, body: &Value) {
        let bytes = frame(body.to_string().as_bytes());
        self.send_raw(&bytes).await;
    }

    async fn send_raw(&mut self, bytes: &[u8]) {
        match timeout(self.left(), self.to_server.write_all(bytes)).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => panic!("the server stopped reading: {e}"),
            Err(_) => panic!("hang: the server stopped reading for {SESSION:?}"),
        }
    }

    fn left(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }

    async fn request(&mut self, method: &str, params: Value, error_ok: bool) -> i64 {
        self.next_id += 1;
        let id = self.next_id;
        self.pending.insert(id, (method.to_string(), error_ok));
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        id
    }

    async fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}))
            .await;
    }

    /// Take one message from the server (or fail on a hang).
    async fn receive(&mut self) -> Option<Value> {
        match timeout(self.left(), self.from_server.recv()).await {
            Ok(message) => {
                if let Some(m) = &message {
                    self.take(m.clone());
                }
                message
            }
            Err(_) => panic!(
                "hang: nothing from the server for {SESSION:?}; waiting on {:?}",
                self.pending
            ),
        }
    }

    fn take(&mut self, message: Value) {
        if message.get("method").and_then(Value::as_str) == Some("textDocument/publishDiagnostics")
        {
            let params = &message["params"];
            for d in params["diagnostics"].as_array().into_iter().flatten() {
                assert_ne!(d["code"], "internal", "a caught panic: {d}");
            }
            let uri = params["uri"].as_str().unwrap_or_default().to_string();
            self.published.entry(uri).or_default().push(params.clone());
            return;
        }
        if message.get("method").and_then(Value::as_str) == Some("window/logMessage") {
            // Errors are logged only for caught panics and failed tasks.
            let text = message["params"]["message"].as_str().unwrap_or_default();
            assert_ne!(
                message["params"]["type"], 1,
                "the server logged an error: {text}"
            );
            return;
        }
        if message.get("method").is_some() {
            // A request from the server would need an answer; this server sends none.
            assert!(message.get("id").is_none(), "unexpected request {message}");
            return;
        }
        match message.get("id").and_then(Value::as_i64) {
            // The ids that garbage frames carry: answered with an error, or not at all.
            Some(90..=99) => assert!(message.get("error").is_some(), "{message}"),
            Some(id) => {
                let Some((method, error_ok)) = self.pending.remove(&id) else {
                    panic!("an answer to no request of ours: {message}");
                };
                assert!(
                    error_ok || message.get("result").is_some(),
                    "{method} failed: {message}"
                );
                self.answers.insert(id, message);
            }
            // Malformed frames are answered with a null id.
            None => assert!(message.get("error").is_some(), "{message}"),
        }
    }

    /// Read until request `id` is answered.
    async fn answer(&mut self, id: i64) -> Value {
        while !self.answers.contains_key(&id) {
            if self.receive().await.is_none() {
                panic!("the server closed its output before answering request {id}");
            }
        }
        self.answers.remove(&id).unwrap()
    }
}

/// Read frames from the server's output into a channel until it closes.
async fn read_frames(mut from: DuplexStream, to: mpsc::UnboundedSender<Value>) {
    let mut buffer = Vec::new();
    let mut chunk = vec![0u8; 1 << 16];
    loop {
        while let Some(end) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            let header = std::str::from_utf8(&buffer[..end]).expect("a UTF-8 header");
            let length: usize = header
                .split("\r\n")
                .find_map(|l| l.strip_prefix("Content-Length: "))
                .expect("a Content-Length")
                .parse()
                .expect("a byte count");
            if buffer.len() < end + 4 + length {
                break;
            }
            let body: Value = serde_json::from_slice(&buffer[end + 4..end + 4 + length])
                .expect("the server writes JSON");
            buffer.drain(..end + 4 + length);
            let _ = to.send(body);
        }
        match from.read(&mut chunk).await {
            Ok(0) | Err(_) => return,
            Ok(n) => buffer.extend_from_slice(&chunk[..n]),
        }
    }
}

/// The diagnostics `check_text` gives for `text`, as the server should publish them.
fn expected_diagnostics(uri: &str, text: &str, units: Units) -> Vec<Value> {
    let budget = Budget {
        max_nodes: Some(MAX_NODES),
        deadline: None,
        cancel: None,
    };
    let range = |span: sudoku_lsp::finding::Span| {
        json!({
            "start": lsp_position(position(text, span.start, units)),
            "end": lsp_position(position(text, span.end, units)),
        })
    };
    check_text(text, &budget)
        .findings
        .iter()
        .map(|f| {
            let related: Vec<Value> = f
                .related
                .iter()
                .map(|r| json!({"location": {"uri": uri, "range": range(r.span)}, "message": r.message}))
                .collect();
            json!({
                "range": range(f.span),
                "severity": f.severity as u8 + 1,
                "code": f.code.as_str(),
                "source": "sudoku",
                "message": f.message,
                "related": related,
            })
        })
        .collect()
}

/// What the server publishes of `all`, past its cap: errors first, then warnings, then the
/// rest, each in source order, and one `too-many` diagnostic (compared by its code alone).
fn capped(all: Vec<Value>) -> Vec<Value> {
    if all.len() <= sudoku_lsp::lsp::MAX_DIAGNOSTICS {
        return all;
    }
    let rank = |d: &Value| d["severity"].as_u64().unwrap_or(4).min(3);
    let mut shown = all;
    shown.sort_by_key(rank); // stable: source order within each severity
    shown.truncate(sudoku_lsp::lsp::MAX_DIAGNOSTICS);
    shown.push(json!({"code": sudoku_lsp::lsp::TOO_MANY}));
    shown
}

/// A published diagnostic in the shape of `expected_diagnostics` (the `too-many` one by its
/// code alone: its message is the server's own count).
fn normalized(d: &Value) -> Value {
    if d["code"] == sudoku_lsp::lsp::TOO_MANY {
        return json!({"code": sudoku_lsp::lsp::TOO_MANY});
    }
    normalized_in_full(d)
}

/// A published diagnostic in the shape of `expected_diagnostics`.
fn normalized_in_full(d: &Value) -> Value {
    let related = d
        .get("relatedInformation")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    json!({
        "range": d["range"],
        "severity": d["severity"],
        "code": d["code"],
        "source": d["source"],
        "message": d["message"],
        "related": related,
    })
}

fn did_change(uri: &str, version: i32, changes: Vec<Value>) -> Value {
    json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": changes})
}

async fn drive(session: Session) {
    let (to_server, server_in) = tokio::io::duplex(1 << 16);
    let (server_out, from_server) = tokio::io::duplex(1 << 16);
    let server = tokio::spawn(sudoku_lsp::lsp::serve_io(server_in, server_out));
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(read_frames(from_server, tx));
    let mut client = Client {
        to_server,
        from_server: rx,
        next_id: 1000,
        pending: HashMap::new(),
        answers: HashMap::new(),
        published: HashMap::new(),
        deadline: Instant::now() + SESSION,
    };

    let mut capabilities = if session.encodings.is_empty() {
        json!({})
    } else {
        json!({"general": {"positionEncodings": session.encodings}})
    };
    // Both shapes of the outline and of definitions, and every inlay mode, in turn.
    let turn = session.steps.len();
    if turn % 2 == 0 {
        capabilities["textDocument"] = json!({
            "documentSymbol": {"hierarchicalDocumentSymbolSupport": true},
            "definition": {"linkSupport": true},
            "foldingRange": {"lineFoldingOnly": true},
        });
    }
    let inlay = ["off", "candidates", "rowCounts"][turn % 3];
    let params =
        json!({"capabilities": capabilities, "initializationOptions": {"inlayHints": inlay}});
    let id = client.request("initialize", params, false).await;
    let init = client.answer(id).await;
    let negotiated = init["result"]["capabilities"]["positionEncoding"]
        .as_str()
        .unwrap_or("utf-16")
        .to_string();
    let expected = session
        .encodings
        .iter()
        .find(|e| matches!(**e, "utf-8" | "utf-16" | "utf-32"))
        .copied()
        .unwrap_or("utf-16");
    assert_eq!(negotiated, expected, "negotiated encoding");
    let units = units_of(&negotiated);
    client.notify("initialized", json!({})).await;

    let mut models: BTreeMap<usize, Model> = BTreeMap::new();
    let mut version = 0;
    for step in session.steps {
        match step {
            Step::Open(doc, text) => {
                // The server's test hooks act on marker text: never send it.
                if text.contains("sudoku-lsp-test") {
                    continue;
                }
                version += 1;
                let model = models.entry(doc).or_default();
                model.open = Some((version, text.clone()));
                model.ever_opened = true;
                let item = json!({"uri": URIS[doc], "languageId": "sudoku", "version": version, "text": text});
                client
                    .notify("textDocument/didOpen", json!({"textDocument": item}))
                    .await;
            }
            Step::Change(doc, edits) => {
                version += 1;
                let model = models.entry(doc).or_default();
                // The client's own copy (or an empty one for a document it has not opened: the
                // server must ignore those changes, and then the copy is dropped).
                let mut text = model
                    .open
                    .as_ref()
                    .map(|(_, t)| t.clone())
                    .unwrap_or_default();
                let mut changes = Vec::new();
                for edit in edits {
                    match edit {
                        Edit::Whole(new) => {
                            text = new.clone();
                            changes.push(json!({"text": new}));
                        }
                        Edit::Range(a, b, new) => {
                            let (start, end) = (locate(&text, a, units), locate(&text, b, units));
                            let from = resolve(&text, start.0, start.1, units);
                            let to = resolve(&text, end.0, end.1, units);
                            text.replace_range(from.min(to)..from.max(to), &new);
                            changes.push(json!({
                                "range": {"start": lsp_position(start), "end": lsp_position(end)},
                                "text": new,
                            }));
                        }
                    }
                }
                // The server's test hooks act on marker text: never send it.
                if text.contains("sudoku-lsp-test") {
                    version -= 1;
                    continue;
                }
                if let Some(open) = &mut model.open {
                    *open = (version, text);
                }
                client
                    .notify(
                        "textDocument/didChange",
                        did_change(URIS[doc], version, changes),
                    )
                    .await;
            }
            Step::Hover(doc, pos) => {
                let text = models
                    .get(&doc)
                    .and_then(|m| m.open.as_ref())
                    .map(|o| o.1.as_str());
                let at = locate(text.unwrap_or(""), pos, units);
                let params =
                    json!({"textDocument": {"uri": URIS[doc]}, "position": lsp_position(at)});
                client.request("textDocument/hover", params, false).await;
            }
            Step::CodeAction(doc, a, b, only) => {
                let text = models
                    .get(&doc)
                    .and_then(|m| m.open.as_ref())
                    .map(|o| o.1.as_str());
                let text = text.unwrap_or("");
                let (a, b) = (locate(text, a, units), locate(text, b, units));
                let (start, end) = (a.min(b), a.max(b));
                let mut context = json!({"diagnostics": []});
                if only {
                    context["only"] = json!(["quickfix"]);
                }
                let params = json!({
                    "textDocument": {"uri": URIS[doc]},
                    "range": {"start": lsp_position(start), "end": lsp_position(end)},
                    "context": context,
                });
                client
                    .request("textDocument/codeAction", params, false)
                    .await;
            }
            Step::Navigate(doc, a, b, which) => {
                let text = models
                    .get(&doc)
                    .and_then(|m| m.open.as_ref())
                    .map(|o| o.1.as_str());
                let text = text.unwrap_or("");
                let (a, b) = (locate(text, a, units), locate(text, b, units));
                let (method, params) = navigation_request(URIS[doc], a, b, which);
                client.request(method, params, false).await;
            }
            Step::Close(doc) => {
                models.entry(doc).or_default().open = None;
                client
                    .notify(
                        "textDocument/didClose",
                        json!({"textDocument": {"uri": URIS[doc]}}),
                    )
                    .await;
            }
            Step::Garbage(bytes) => client.send_raw(&bytes).await,
            Step::BadRequest(method, params) => {
                client.request(&method, params, true).await;
            }
            Step::BadNotification(method, params) => client.notify(&method, params).await,
        }
    }

    // The server's text of every document against the client's.
    for (&doc, model) in &models {
        let id = client
            .request(
                "$/sudoku-lsp/documentText",
                json!({"uri": URIS[doc]}),
                false,
            )
            .await;
        let answer = client.answer(id).await;
        let server_side = &answer["result"];
        match &model.open {
            Some((version, text)) => {
                assert_eq!(
                    server_side["text"].as_str(),
                    Some(text.as_str()),
                    "the texts differ"
                );
                assert_eq!(server_side["version"], json!(version));
            }
            None => assert!(server_side.is_null(), "{} should be closed", URIS[doc]),
        }
    }
    // Every request answered.
    let ids: Vec<i64> = client.pending.keys().copied().collect();
    for id in ids {
        client.answer(id).await;
    }
    // The diagnostics of each document's last version (or none after a close).
    for (&doc, model) in &models {
        let uri = URIS[doc];
        let done = |client: &Client| {
            let last = client.published.get(uri).and_then(|p| p.last());
            match (&model.open, last) {
                (Some((version, _)), Some(last)) => last["version"] == json!(version),
                (None, Some(last)) => {
                    last["diagnostics"] == json!([])
                        && last.get("version").is_none_or(Value::is_null)
                }
                (None, None) => !model.ever_opened,
                (Some(_), None) => false,
            }
        };
        while !done(&client) {
            if client.receive().await.is_none() {
                panic!("the server closed its output before publishing for {uri}");
            }
        }
        if let Some((version, text)) = &model.open {
            let published = client.published[uri].last().unwrap();
            // Redundant givens come with the rating, after the first publish, so whether they
            // are there yet depends on timing; `check` leaves them out (they are `--setter`'s).
            let got: Vec<Value> = published["diagnostics"]
                .as_array()
                .expect("diagnostics")
                .iter()
                .filter(|d| d["code"] != "redundant-given")
                .map(normalized)
                .collect();
            let want = capped(expected_diagnostics(uri, text, units));
            assert!(
                got == want,
                "diagnostics of version {version} differ from check's\ntext: {text:?}\ngot:  {}\nwant: {}",
                serde_json::to_string_pretty(&got).unwrap(),
                serde_json::to_string_pretty(&want).unwrap()
            );
        }
    }

    let id = client.request("shutdown", json!(null), false).await;
    client.answer(id).await;
    let clean_exit = match session.ending {
        Ending::Exit => {
            client.notify("exit", json!(null)).await;
            true
        }
        Ending::Close => false,
        Ending::Truncated(bytes) => {
            client.send_raw(&bytes).await;
            false
        }
    };
    let left = client.left();
    drop(client.to_server); // end of input, in case exit did not end it
    match timeout(left, server).await {
        // shutdown came first, so the exit code is clean either way
        Ok(Ok(shut_down)) => assert!(
            shut_down,
            "the server did not see shutdown (exit: {clean_exit})"
        ),
        Ok(Err(e)) => panic!("the server task failed: {e}"),
        Err(_) => panic!("hang: the server did not stop after shutdown"),
    }
}

fuzz_target!(|data: &[u8]| {
    static SETUP: Once = Once::new();
    SETUP.call_once(|| {
        // Read once by the server: a small search budget, and the hidden documentText request.
        std::env::set_var("SUDOKU_LSP_MAX_NODES", MAX_NODES.to_string());
        std::env::set_var("SUDOKU_LSP_TEST_HOOKS", "1");
        // No first look: its publication may be followed by the whole run's (or not, when
        // nothing changes), and the oracle compares one publication per version with `check`'s
        // (under the sanitizer a 16×16's verdict takes longer than the first look's 5 ms).
        std::env::set_var("SUDOKU_LSP_FIRST_LOOK_MS", "0");
    });
    let Ok(session) = session(&mut Unstructured::new(data)) else {
        return;
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .max_blocking_threads(4)
        .build()
        .expect("a runtime");
    runtime.block_on(drive(session));
    // Analysis threads still spinning on a cancelled search must not hold the next input up.
    runtime.shutdown_background();
});
