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

/// What a malformed message is answered with.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Malformed {
    /// The JSON-RPC error code: `-32700` or `-32600`.
    pub code: i64,
    pub problem: String,
}

/// Start reading `input`; returns the stream of vetted frames to hand to `Server::new`.
pub fn guard(mut input: impl AsyncRead + Unpin + Send + 'static) -> DuplexStream {
    let (server_side, mut feed) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        let mut framer = Framer::default();
        let mut chunk = vec![0u8; 1 << 16];
        loop {
            let read = match input.read(&mut chunk).await {
                Ok(0) | Err(_) => break, // end of input ends the session, as it would unguarded
                Ok(read) => read,
            };
            framer.push(&chunk[..read]);
            while let Some(frame) = framer.next_frame() {
                let body = match frame {
                    Ok(body) => vet(body),
                    Err(problem) => substitute(Value::Null, -32700, problem),
                };
                let header = format!("Content-Length: {}\r\n\r\n", body.len());
                let sent = feed.write_all(header.as_bytes()).await;
                if sent.is_err() || feed.write_all(&body).await.is_err() {
                    return; // the server has stopped reading: it exited
                }
            }
        }
    });
    server_side
}

/// Exactly what tower-lsp-server's codec accepts (its `Message` is private, but this is it).
#[derive(Deserialize)]
#[serde(untagged)]
#[allow(dead_code)] // only deserialized, to test acceptance
enum Wire {
    Response(jsonrpc::Response),
    Request(jsonrpc::Request),
}

/// The body itself if tower-lsp-server can decode it, else the substitute request.
fn vet(body: Vec<u8>) -> Vec<u8> {
    if serde_json::from_slice::<Wire>(&body).is_ok() {
        return body;
    }
    match serde_json::from_slice::<Value>(&body) {
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
        Err(e) => substitute(
            Value::Null,
            -32700,
            format!("the message body is not JSON: {e}"),
        ),
    }
}

fn substitute(id: Value, code: i64, problem: String) -> Vec<u8> {
    let params = serde_json::to_value(Malformed { code, problem }).unwrap_or(Value::Null);
    let request = json!({"jsonrpc": "2.0", "id": id, "method": MALFORMED_METHOD, "params": params});
    request.to_string().into_bytes()
}

/// Splits a byte stream into `Content-Length` framed bodies.
#[derive(Default)]
struct Framer {
    buffer: Vec<u8>,
    /// After a broken frame: discarding bytes until the next `Content-Length`.
    skipping: bool,
}

impl Framer {
    fn push(&mut self, bytes: &[u8]) {
        self.buffer.extend_from_slice(bytes);
    }

    /// The next complete body, an error for a broken frame (after skipping it), or `None`
    /// until more bytes arrive.
    fn next_frame(&mut self) -> Option<Result<Vec<u8>, String>> {
        if self.skipping {
            self.skip_to_marker();
            if self.skipping {
                return None;
            }
        }
        let Some(header_len) = find(&self.buffer, b"\r\n\r\n").map(|at| at + 4) else {
            if self.buffer.len() > MAX_HEADER {
                self.resync(self.buffer.len());
                return Some(Err(format!("no header end within {MAX_HEADER} bytes")));
            }
            return None;
        };
        let length = match content_length(&self.buffer[..header_len]) {
            Ok(length) if length <= MAX_BODY => length,
            Ok(length) => {
                self.resync(header_len);
                return Some(Err(format!(
                    "Content-Length {length} is over the {MAX_BODY} byte limit"
                )));
            }
            Err(problem) => {
                self.resync(header_len);
                return Some(Err(problem));
            }
        };
        if self.buffer.len() < header_len + length {
            return None;
        }
        let body = self.buffer[header_len..header_len + length].to_vec();
        self.buffer.drain(..header_len + length);
        Some(Ok(body))
    }

    /// Drop `skip` bytes, then everything up to the next `Content-Length`, however the rest
    /// of the stream arrives.
    fn resync(&mut self, skip: usize) {
        self.buffer.drain(..skip.min(self.buffer.len()));
        self.skipping = true;
        self.skip_to_marker();
    }

    fn skip_to_marker(&mut self) {
        let marker = b"content-length";
        let found = self
            .buffer
            .windows(marker.len())
            .position(|window| window.eq_ignore_ascii_case(marker));
        match found {
            Some(at) => {
                self.buffer.drain(..at);
                self.skipping = false;
            }
            // Keep a tail that might be the start of the marker.
            None => {
                let keep = self.buffer.len().saturating_sub(marker.len() - 1);
                self.buffer.drain(..keep);
            }
        }
    }
}

/// The `Content-Length` of a header block (name matched case-insensitively, as HTTP does).
fn content_length(header: &[u8]) -> Result<usize, String> {
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

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8]) -> Vec<Result<String, String>> {
        chunked(input, 1)
    }

    /// Frames must not depend on how reads split the stream: feed it `size` bytes at a time.
    fn chunked(input: &[u8], size: usize) -> Vec<Result<String, String>> {
        let mut framer = Framer::default();
        let mut out = Vec::new();
        for chunk in input.chunks(size) {
            framer.push(chunk);
            while let Some(frame) = framer.next_frame() {
                out.push(frame.map(|body| String::from_utf8(body).unwrap()));
            }
        }
        out
    }

    #[test]
    fn frames_split_on_content_length() {
        let input = b"Content-Length: 2\r\n\r\n{}content-length:3\r\nContent-Type: x\r\n\r\n[1]";
        assert_eq!(frames(input), vec![Ok("{}".into()), Ok("[1]".into())]);
    }

    #[test]
    fn broken_headers_are_reported_and_skipped() {
        let input = b"Content-Length: x\r\n\r\n{}junk\r\n\r\ncontent-length: 2\r\n\r\n{}";
        for size in [1, 7, input.len()] {
            let got = chunked(input, size);
            assert_eq!(got.len(), 2, "{got:?}");
            assert!(got[0].as_ref().unwrap_err().contains("not a byte count"));
            assert_eq!(got[1], Ok("{}".into()));
        }
        let got = chunked(&[b'x'; MAX_HEADER + 10], 1000);
        assert_eq!(got.len(), 1);
        assert!(got[0].is_err());
    }

    #[test]
    fn only_decodable_bodies_pass_unchanged() {
        let fine = br#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#.to_vec();
        assert_eq!(vet(fine.clone()), fine);
        let answer = br#"{"jsonrpc":"2.0","id":1,"result":null}"#.to_vec();
        assert_eq!(vet(answer.clone()), answer);
        let substituted =
            |body: &[u8]| -> Value { serde_json::from_slice(&vet(body.to_vec())).unwrap() };
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
