//! The wire guard: frames stdin ourselves so that one malformed message cannot end the session.
//!
//! tower-lsp-server reads stdin through tokio-util's `FramedRead`, which (since tokio #3976)
//! ends the stream after the first decoding error: a single bad body would answer one parse
//! error and then stop the server. So we read the `Content-Length` frames here first and pass
//! on only bodies that tower-lsp-server will decode. A body that is not JSON, not UTF-8, or not
//! a JSON-RPC message, and a frame with a broken header, becomes a request to
//! [`MALFORMED_METHOD`] carrying the problem, which the server answers with the JSON-RPC error
//! the client should have had (`-32700` parse error or `-32600` invalid request, with the
//! message's id when it could be read, else `null`). The session then carries on.
//!
//! A wrong `Content-Length` costs only its own frame too: the framer finds the next message's
//! header again, whether the rest of a short body sits in front of it or a long body swallowed
//! it (see [`Framer`]).

use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt, DuplexStream};
use tower_lsp_server::jsonrpc;

/// The internal method a malformed message is turned into.
pub const MALFORMED_METHOD: &str = "$/sudoku-lsp/malformedMessage";

/// Headers longer than this without their blank line are garbage, not a header still arriving.
const MAX_HEADER: usize = 8 * 1024;
/// Bodies longer than this are refused rather than buffered.
const MAX_BODY: usize = 512 * 1024 * 1024;
/// The most buffer the framer keeps between messages: after a large message it lets go of the
/// rest, so opening a 20 MB document does not hold 32 MB here for the rest of the session.
const KEEP_CAPACITY: usize = 1 << 20;

/// What a malformed message is answered with.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Malformed {
    /// The JSON-RPC error code: `-32700` or `-32600`.
    pub code: i64,
    pub problem: String,
}

/// A hidden request, answered only when the test hooks are on (`SUDOKU_LSP_TEST_HOOKS=1`): the
/// server's own text and version of an open document (`null` if it is not open), so a test or
/// the fuzz target can compare it with the client's. Without the hooks it is an unknown method.
pub const DOCUMENT_TEXT_METHOD: &str = "$/sudoku-lsp/documentText";

/// Start reading `input`; returns the stream of vetted frames to hand to `Server::new`, and
/// what the guard reads of this session's `initialize` for the server.
pub fn guard(mut input: impl AsyncRead + Unpin + Send + 'static) -> (DuplexStream, Initialize) {
    let (server_side, mut feed) = tokio::io::duplex(1 << 16);
    let initialize = Initialize::default();
    let mut framer = Framer {
        initialize: initialize.clone(),
        ..Framer::default()
    };
    tokio::spawn(async move {
        let mut chunk = vec![0u8; 1 << 16];
        loop {
            let read = match input.read(&mut chunk).await {
                Ok(0) | Err(_) => break, // end of input ends the session, as it would unguarded
                Ok(read) => read,
            };
            framer.push(&chunk[..read]);
            while let Some(body) = framer.next_message() {
                let header = format!("Content-Length: {}\r\n\r\n", body.len());
                let sent = feed.write_all(header.as_bytes()).await;
                if sent.is_err() || feed.write_all(&body).await.is_err() {
                    return; // the server has stopped reading: it exited
                }
            }
        }
    });
    (server_side, initialize)
}

/// Exactly what tower-lsp-server's codec accepts (its `Message` is private, but this is it).
#[derive(Deserialize)]
#[serde(untagged)]
#[allow(dead_code)] // only deserialized, to test acceptance
enum Wire {
    Response(jsonrpc::Response),
    Request(jsonrpc::Request),
}

/// The body itself if tower-lsp-server can decode it, else the substitute request; and whether
/// the body was JSON at all.
fn vet(body: Vec<u8>, initialize: &Initialize) -> (Vec<u8>, bool) {
    if serde_json::from_slice::<Wire>(&body).is_ok() {
        initialize.note(&body);
        if let Some((id, method)) = unknown_dollar_request(&body) {
            let problem = format!("method not found: {method}");
            return (substitute(id, -32601, problem), true);
        }
        return (body, true);
    }
    let message = match serde_json::from_slice::<Value>(&body) {
        Ok(value) => {
            // JSON, but not a JSON-RPC 2.0 message: answer with its id if it has a usable one.
            let id = match value.get("id") {
                Some(id @ Value::String(_)) => id.clone(),
                Some(id @ Value::Number(n)) if n.is_i64() => id.clone(),
                _ => Value::Null,
            };
            substitute(
                id,
                -32600,
                "not a JSON-RPC 2.0 request, notification or response".into(),
            )
        }
        Err(e) => {
            let problem = format!("the message body is not JSON: {e}");
            return (substitute(Value::Null, -32700, problem), false);
        }
    };
    (message, true)
}

/// What the guard, which sees every message first, reads from its session's `initialize`
/// request for the server: whether the client declared `workspace.diagnostics.refreshSupport`.
///
/// lsp-types 0.97 reads that capability from `workspace.diagnostic`, a name no client sends
/// (the protocol's is `diagnostics`), so the server would never learn it from the parsed
/// capabilities. One per session (the guard and the server of one session share it): the fuzz
/// target runs many sessions in one process, each with its own client.
#[derive(Clone, Debug, Default)]
pub struct Initialize(Arc<OnceLock<bool>>);

impl Initialize {
    /// Whether the client declared `workspace.diagnostics.refreshSupport` (false before its
    /// `initialize`, which the guard reads before the server sees it).
    pub fn diagnostic_refresh(&self) -> bool {
        self.0.get().copied().unwrap_or(false)
    }

    /// Note what [`Initialize::diagnostic_refresh`] answers, if `body` is the `initialize`
    /// request.
    fn note(&self, body: &[u8]) {
        if self.0.get().is_some() || find(body, b"\"initialize\"").is_none() {
            return;
        }
        let Ok(message) = serde_json::from_slice::<Value>(body) else {
            return;
        };
        if message.get("method").and_then(Value::as_str) != Some("initialize") {
            return;
        }
        let declared = message
            .pointer("/params/capabilities/workspace/diagnostics/refreshSupport")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let _ = self.0.set(declared);
    }
}

/// The methods starting with `$/` that this server answers as requests.
const OWN_DOLLAR_METHODS: [&str; 2] = [MALFORMED_METHOD, DOCUMENT_TEXT_METHOD];

/// A request (it has an id) for a `$/` method the server does not have: tower-lsp-server drops
/// the "method not found" answer of every `$/` method, requests included, so the client would
/// wait for ever; we answer it ourselves. Notifications (no id) are left alone, as the protocol
/// asks.
fn unknown_dollar_request(body: &[u8]) -> Option<(Value, String)> {
    // Cheap test first: most messages hold no `"$/` at all.
    find(body, b"\"$/")?;
    #[derive(Deserialize)]
    struct Head {
        id: Option<Value>,
        method: Option<String>,
    }
    let head: Head = serde_json::from_slice(body).ok()?;
    let (id, method) = (head.id?, head.method?);
    let unknown = method.starts_with("$/") && !OWN_DOLLAR_METHODS.contains(&method.as_str());
    unknown.then_some((id, method))
}

fn substitute(id: Value, code: i64, problem: String) -> Vec<u8> {
    let params = serde_json::to_value(Malformed { code, problem }).unwrap_or(Value::Null);
    let request = json!({"jsonrpc": "2.0", "id": id, "method": MALFORMED_METHOD, "params": params});
    request.to_string().into_bytes()
}

/// Splits a byte stream into `Content-Length` framed bodies, and finds the next message again
/// after a broken frame.
///
/// A wrong `Content-Length` desynchronises the stream. Too short, and the rest of the body sits
/// in front of the next header; too long, and the body swallows the start of the next message.
/// Either way the next message starts at a line `Content-Length: <digits>` followed by a header
/// block that parses: a *header start* (see [`header_start`]). No JSON text can hold one (a
/// `Content-Length` in JSON is inside a string, which must close before the line ends, and
/// the line has no `"`), so the framer restarts at a header start found in front of a header
/// that does not parse, or inside a body before its declared end. Either costs only the broken
/// frame: the bytes skipped after a bad frame are its own rest, not a second error.
#[derive(Default)]
struct Framer {
    /// Where the session's `initialize` is noted.
    initialize: Initialize,
    buffer: Vec<u8>,
    /// The last frame was broken (or its body was not JSON): bytes that do not parse as a header
    /// before the next good one are its rest, skipped without another error.
    in_bad_frame: bool,
    /// How far into the awaited body the search for a header start has got (so a large body
    /// arriving in many reads is searched once).
    scanned: usize,
}

/// One step of framing: a body, or a broken frame (whose bytes were skipped).
enum Step {
    Body(Vec<u8>),
    Broken(String),
}

impl Framer {
    fn push(&mut self, bytes: &[u8]) {
        self.buffer.extend_from_slice(bytes);
    }

    /// The next message to hand on (a vetted body, or the substitute for a broken frame), or
    /// `None` until more bytes arrive.
    fn next_message(&mut self) -> Option<Vec<u8>> {
        Some(match self.next_frame()? {
            Ok(body) => {
                let (message, json) = vet(body, &self.initialize);
                // A body that is not JSON may have been cut short: what follows is its rest.
                self.in_bad_frame |= !json;
                message
            }
            Err(problem) => substitute(Value::Null, -32700, problem),
        })
    }

    /// The next complete body, an error for a broken frame (after skipping it), or `None`
    /// until more bytes arrive. Only the first broken frame after a good one is reported.
    fn next_frame(&mut self) -> Option<Result<Vec<u8>, String>> {
        loop {
            match self.step()? {
                Step::Body(body) => return Some(Ok(body)),
                Step::Broken(problem) => {
                    if !std::mem::replace(&mut self.in_bad_frame, true) {
                        return Some(Err(problem));
                    }
                }
            }
        }
    }

    fn step(&mut self) -> Option<Step> {
        let window = &self.buffer[..self.buffer.len().min(MAX_HEADER)];
        let Some(header_len) = find(window, b"\r\n\r\n").map(|at| at + 4) else {
            if self.buffer.len() >= MAX_HEADER {
                return Some(self.skip(format!("no header end within {MAX_HEADER} bytes")));
            }
            return None;
        };
        let length = match content_length(&self.buffer[..header_len]) {
            Ok(length) if length <= MAX_BODY => length,
            Ok(length) => {
                let problem = format!("Content-Length {length} is over the {MAX_BODY} byte limit");
                return Some(self.skip(problem));
            }
            Err(problem) => return Some(self.skip(problem)),
        };
        self.in_bad_frame = false;
        let body_end = header_len + length;
        // A Content-Length too long: the next message's header inside the body ends it there.
        while header_len + self.scanned < body_end.min(self.buffer.len()) {
            let at = header_len + self.scanned;
            let Some(candidate) = self.buffer[at..body_end.min(self.buffer.len())]
                .iter()
                .position(|&byte| byte | 0x20 == b'c')
            else {
                self.scanned = body_end.min(self.buffer.len()) - header_len;
                break;
            };
            let at = at + candidate;
            match header_start(&self.buffer[at..]) {
                Start::No => self.scanned = at + 1 - header_len,
                Start::Maybe => {
                    self.scanned = at - header_len;
                    return None;
                }
                Start::Yes => return Some(Step::Body(self.take_body(header_len, at))),
            }
        }
        if self.buffer.len() < body_end {
            return None;
        }
        Some(Step::Body(self.take_body(header_len, body_end)))
    }

    /// The body from `start` to `end`, with everything before it dropped.
    fn take_body(&mut self, start: usize, end: usize) -> Vec<u8> {
        let body = self.buffer[start..end].to_vec();
        self.buffer.drain(..end);
        if self.buffer.capacity() > KEEP_CAPACITY {
            self.buffer.shrink_to(KEEP_CAPACITY.max(self.buffer.len()));
        }
        self.scanned = 0;
        body
    }

    /// The frame at the front is broken: drop it up to the next (possible) header start.
    fn skip(&mut self, problem: String) -> Step {
        let next = (1..self.buffer.len())
            .find(|&at| !matches!(header_start(&self.buffer[at..]), Start::No))
            .unwrap_or(self.buffer.len());
        self.buffer.drain(..next);
        self.scanned = 0;
        Step::Broken(problem)
    }
}

/// Whether a message can start at the first of some bytes.
#[derive(Debug, PartialEq)]
enum Start {
    No,
    /// The bytes end before it is decided.
    Maybe,
    Yes,
}

/// Whether `bytes` start with a header a message can be read from: a first line that is exactly
/// `Content-Length: <digits>` (spaces and tabs allowed around the colon and after the digits),
/// in a header block that parses and ends within [`MAX_HEADER`] bytes.
fn header_start(bytes: &[u8]) -> Start {
    const NAME: &[u8] = b"content-length";
    let seen = bytes.len().min(NAME.len());
    if !bytes[..seen].eq_ignore_ascii_case(&NAME[..seen]) {
        return Start::No;
    }
    // After the name: blanks, ':', blanks, digits, blanks, "\r\n".
    #[derive(Clone, Copy)]
    enum Line {
        Name,
        Colon,
        Digits,
        Blanks,
        Return,
    }
    let mut line = Line::Name;
    let mut line_end = None;
    for (at, &byte) in bytes.iter().enumerate().take(MAX_HEADER).skip(NAME.len()) {
        line = match (line, byte) {
            (Line::Name | Line::Colon | Line::Blanks, b' ' | b'\t') => line,
            (Line::Digits, b' ' | b'\t') => Line::Blanks,
            (Line::Name, b':') => Line::Colon,
            (Line::Colon | Line::Digits, b'0'..=b'9') => Line::Digits,
            (Line::Digits | Line::Blanks, b'\r') => Line::Return,
            (Line::Return, b'\n') => {
                line_end = Some(at + 1);
                break;
            }
            _ => return Start::No,
        };
    }
    let Some(line_end) = line_end else {
        return if bytes.len() < MAX_HEADER {
            Start::Maybe
        } else {
            Start::No
        };
    };
    let limit = bytes.len().min(MAX_HEADER);
    match find(&bytes[line_end - 2..limit], b"\r\n\r\n") {
        Some(at) if content_length(&bytes[..line_end - 2 + at + 4]).is_ok() => Start::Yes,
        Some(_) => Start::No,
        None if bytes.len() < MAX_HEADER => Start::Maybe,
        None => Start::No,
    }
}

/// The `Content-Length` of a header block (name matched case-insensitively, as HTTP does).
pub(super) fn content_length(header: &[u8]) -> Result<usize, String> {
    let text = std::str::from_utf8(header).map_err(|_| "the header is not UTF-8".to_string())?;
    let mut length = None;
    for line in text.split("\r\n").filter(|line| !line.is_empty()) {
        let Some((name, value)) = line.split_once(':') else {
            return Err(format!("malformed header line {line:?}"));
        };
        if name.trim().eq_ignore_ascii_case("content-length") {
            let value = value.trim();
            length = Some(
                value
                    .parse::<usize>()
                    .map_err(|_| format!("Content-Length {value:?} is not a byte count"))?,
            );
        }
    }
    length.ok_or_else(|| "the header has no Content-Length".to_string())
}

pub(super) fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Frames must not depend on how reads split the stream: feed it `size` bytes at a time.
    /// A body passed on is `Ok`; a substitute is `Err` with its problem.
    fn chunked(input: &[u8], size: usize) -> Vec<Result<String, String>> {
        let mut framer = Framer::default();
        let mut out = Vec::new();
        for chunk in input.chunks(size) {
            framer.push(chunk);
            while let Some(message) = framer.next_message() {
                let value: Value = serde_json::from_slice(&message).unwrap();
                out.push(if value["method"] == MALFORMED_METHOD {
                    Err(value["params"]["problem"].as_str().unwrap().to_string())
                } else {
                    Ok(String::from_utf8(message).unwrap())
                });
            }
        }
        out
    }

    /// Every way of cutting `input` into reads gives `expected`.
    fn every_chunking(input: &[u8], expected: impl Fn(&[Result<String, String>])) {
        for size in 1..=input.len() {
            let got = chunked(input, size);
            expected(&got);
        }
    }

    fn frame(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    const SHUTDOWN: &str = r#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#;
    const HOVER: &str = r#"{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{}}"#;

    #[test]
    fn frames_split_on_content_length() {
        let input = format!(
            "Content-Length: {}\r\n\r\n{SHUTDOWN}content-length:{}\r\nContent-Type: x\r\n\r\n{HOVER}",
            SHUTDOWN.len(),
            HOVER.len()
        );
        every_chunking(input.as_bytes(), |got| {
            assert_eq!(got, [Ok(SHUTDOWN.into()), Ok(HOVER.into())]);
        });
    }

    #[test]
    fn broken_headers_are_reported_and_skipped() {
        let input = format!(
            "Content-Length: x\r\n\r\n{{}}junk\r\n\r\n{}",
            frame(SHUTDOWN)
        );
        every_chunking(input.as_bytes(), |got| {
            assert_eq!(got.len(), 2, "{got:?}");
            assert!(got[0].as_ref().unwrap_err().contains("not a byte count"));
            assert_eq!(got[1], Ok(SHUTDOWN.into()));
        });
        let got = chunked(&[b'x'; MAX_HEADER + 10], 1000);
        assert_eq!(got.len(), 1);
        assert!(got[0].is_err());
    }

    #[test]
    fn a_short_content_length_costs_only_its_frame() {
        // The declared length stops 10 bytes into the body: the rest sits before the next header.
        let short = format!("Content-Length: 10\r\n\r\n{HOVER}{}", frame(SHUTDOWN));
        every_chunking(short.as_bytes(), |got| {
            assert_eq!(got.len(), 2, "{got:?}");
            assert!(got[0].as_ref().unwrap_err().contains("not JSON"), "{got:?}");
            assert_eq!(got[1], Ok(SHUTDOWN.into()));
        });
        // Its rest may hold a blank line and the word Content-Length, and the next frame may be
        // short too.
        let body = "{\"jsonrpc\":\"2.0\",\r\n\r\n\"method\":\"Content-Length: 3\"}";
        let input = format!(
            "Content-Length: 5\r\n\r\n{body}Content-Length: 3\r\n\r\n{HOVER}{}{}",
            frame(SHUTDOWN),
            frame(HOVER)
        );
        every_chunking(input.as_bytes(), |got| {
            assert_eq!(got.len(), 4, "{got:?}");
            assert!(got[0].is_err() && got[1].is_err(), "{got:?}");
            assert_eq!(got[2..], [Ok(SHUTDOWN.into()), Ok(HOVER.into())]);
        });
    }

    #[test]
    fn a_long_content_length_stops_at_the_next_header() {
        // The declared length runs 30 bytes into the next message (into its header or its body).
        for over in [3, 10, 30] {
            let broken = &HOVER[..HOVER.len() - 5];
            let input = format!(
                "Content-Length: {}\r\n\r\n{broken}{}{}",
                broken.len() + over,
                frame(SHUTDOWN),
                frame(HOVER)
            );
            every_chunking(input.as_bytes(), |got| {
                assert_eq!(got.len(), 3, "{over}: {got:?}");
                assert!(got[0].as_ref().unwrap_err().contains("not JSON"));
                assert_eq!(got[1..], [Ok(SHUTDOWN.into()), Ok(HOVER.into())]);
            });
        }
        // A whole message before the next header is served, whatever its length said.
        let input = format!("Content-Length: 500\r\n\r\n{HOVER}{}", frame(SHUTDOWN));
        every_chunking(input.as_bytes(), |got| {
            assert_eq!(got, [Ok(HOVER.into()), Ok(SHUTDOWN.into())]);
        });
    }

    #[test]
    fn content_length_inside_json_is_not_a_header() {
        // In a string (whose quote closes the line) or as a key: the body is one message.
        for body in [
            r#"{"jsonrpc":"2.0","method":"x","params":"Content-Length: 5"}"#,
            "{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":{\"Content-Length\":5\r\n\r\n}}",
            "{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":\"content-length: 1\\r\\n\\r\\n\"}",
        ] {
            let input = format!("{}{}", frame(body), frame(SHUTDOWN));
            every_chunking(input.as_bytes(), |got| {
                assert_eq!(got, [Ok(body.into()), Ok(SHUTDOWN.into())]);
            });
        }
        assert_eq!(header_start(b"Content-Length: 5\r\n\r\n"), Start::Yes);
        assert_eq!(
            header_start(b"content-length:5 \r\nX: y\r\n\r\n"),
            Start::Yes
        );
        assert_eq!(header_start(b"Content-Length: 5\r\nbad\r\n\r\n"), Start::No);
        assert_eq!(header_start(b"Content-Length: 5\""), Start::No);
        assert_eq!(header_start(b"Content-Len"), Start::Maybe);
        assert_eq!(header_start(b"Content-Length: 5\r\n"), Start::Maybe);
    }

    #[test]
    fn only_decodable_bodies_pass_unchanged() {
        let fine = br#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#.to_vec();
        assert_eq!(vet(fine.clone(), &Initialize::default()), (fine, true));
        let answer = br#"{"jsonrpc":"2.0","id":1,"result":null}"#.to_vec();
        assert_eq!(vet(answer.clone(), &Initialize::default()), (answer, true));
        let substituted = |body: &[u8]| -> Value {
            serde_json::from_slice(&vet(body.to_vec(), &Initialize::default()).0).unwrap()
        };
        let truncated = substituted(br#"{"jsonrpc":"2.0","id":1,"method":"#);
        assert_eq!(truncated["method"], MALFORMED_METHOD);
        assert_eq!(truncated["id"], Value::Null);
        assert_eq!(truncated["params"]["code"], -32700);
        let wrong = substituted(br#"{"jsonrpc":"1.0","id":7,"method":"x"}"#);
        assert_eq!(
            (wrong["id"].clone(), wrong["params"]["code"].clone()),
            (json!(7), json!(-32600))
        );
        assert_eq!(substituted(b"\xff\xfe")["params"]["code"], -32700);
    }
}
