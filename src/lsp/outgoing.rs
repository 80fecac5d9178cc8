//! The outgoing wire: lets a handler send a large JSON array as bytes it wrote itself.
//!
//! tower-lsp-server turns every result into a `serde_json::Value` before it writes it. For the
//! semantic tokens of a 49,151-puzzle collection that is 7 million numbers, each a 32-byte
//! `Value`, built and then written out again: seconds, where the tokens themselves take a tenth
//! of one. So a handler with such an array writes it as JSON itself, [`Stash::put`]s the bytes
//! under its result's `resultId`, and answers with an empty `data` array; [`Outgoing`], between
//! tower-lsp-server and stdout, recognizes that answer's frame and puts the bytes in place of
//! the empty array (the frame's `Content-Length` made to match).
//!
//! Only small frames whose result is `{"data": [], "resultId": <stashed>}` are touched; every
//! other frame passes through as it came. A stash nobody collects (its request was cancelled
//! after the handler finished) is dropped once [`KEPT`] newer ones have come.

use std::collections::VecDeque;
use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{ready, Context, Poll};

use serde_json::Value;
use tokio::io::AsyncWrite;

use super::transport::{content_length, find};

/// The most stashed arrays kept waiting for their frame.
const KEPT: usize = 4;
/// Frames longer than this are not a result with an empty array: they pass unread.
const SMALL: usize = 4 * 1024;
/// Written frames held while the client is not reading before the server is made to wait.
const HIGH_WATER: usize = 1 << 20;
/// The most buffer kept between frames: after a large frame it is let go.
const KEEP_CAPACITY: usize = 1 << 20;
/// The empty array a stashed result carries, as serde_json writes it. Inside a JSON string
/// every quote is escaped, so unescaped this can only be a `data` member.
const EMPTY_DATA: &[u8] = b"\"data\":[]";

/// Arrays written by handlers, waiting for their result's frame, by result id.
#[derive(Clone, Default)]
pub struct Stash(Arc<Mutex<Waiting>>);

/// Result ids and their arrays' JSON, oldest first.
type Waiting = VecDeque<(String, Vec<u8>)>;

impl Stash {
    /// Send `data` (a JSON array) as the `data` of the result whose `resultId` is `result_id`:
    /// the handler answers with `data: []` and the same id.
    pub fn put(&self, result_id: String, data: Vec<u8>) {
        let mut stash = self.lock();
        if stash.len() >= KEPT {
            stash.pop_front();
        }
        stash.push_back((result_id, data));
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Waiting> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queue the frame of `body` on `out` with its stashed array in place, when it is a result
    /// waiting for one; false (nothing queued) otherwise. The array goes as it is, not copied:
    /// it is the bulk of the frame (14 MB for a large collection's tokens).
    fn fill(&self, body: &[u8], out: &mut VecDeque<Vec<u8>>) -> bool {
        self.take_for(body).is_some_and(|(open, data)| {
            let length = body.len() + data.len() - 2;
            let mut head = format!("Content-Length: {length}\r\n\r\n").into_bytes();
            head.extend_from_slice(&body[..open]);
            out.push_back(head);
            out.push_back(data);
            out.push_back(body[open + 2..].to_vec());
            true
        })
    }

    /// The stashed array `body` waits for, taken out, and where its empty `[]` starts.
    fn take_for(&self, body: &[u8]) -> Option<(usize, Vec<u8>)> {
        if body.len() > SMALL {
            return None;
        }
        let at = find(body, EMPTY_DATA)?;
        let mut stash = self.lock();
        if stash.is_empty() {
            return None;
        }
        let value: Value = serde_json::from_slice(body).ok()?;
        let result = value.get("result")?;
        let id = result.get("resultId")?.as_str()?;
        if result
            .get("data")?
            .as_array()
            .is_none_or(|data| !data.is_empty())
        {
            return None;
        }
        let index = stash.iter().position(|(key, _)| key == id)?;
        let (_, data) = stash.remove(index)?;
        Some((at + EMPTY_DATA.len() - 2, data))
    }
}

/// The writer tower-lsp-server writes its frames to: fills stashed results in, writes the rest
/// through unchanged.
pub struct Outgoing<W> {
    inner: W,
    stash: Stash,
    /// Bytes of a frame not yet whole.
    partial: Vec<u8>,
    /// Whole frames, ready for `inner`, in pieces (a stashed array is one), and how many bytes
    /// of the first piece it has taken.
    ready: VecDeque<Vec<u8>>,
    sent: usize,
    /// Set when a header could not be read (never, from tower-lsp-server): from then on,
    /// every byte passes through as it is.
    raw: bool,
}

impl<W: AsyncWrite + Unpin> Outgoing<W> {
    pub fn new(inner: W, stash: Stash) -> Outgoing<W> {
        Outgoing {
            inner,
            stash,
            partial: Vec::new(),
            ready: VecDeque::new(),
            sent: 0,
            raw: false,
        }
    }

    /// Move every whole frame from `partial` to `ready`, filled in where it waits for a stash.
    fn take_frames(&mut self) {
        let mut taken = 0;
        while !self.raw {
            let rest = &self.partial[taken..];
            let Some(header_end) = find(rest, b"\r\n\r\n").map(|at| at + 4) else {
                break;
            };
            let Ok(length) = content_length(&rest[..header_end]) else {
                self.raw = true;
                break;
            };
            let Some(frame_end) = header_end.checked_add(length).filter(|&e| e <= rest.len())
            else {
                break;
            };
            let body = &rest[header_end..frame_end];
            log_publish(body);
            if self.stash.fill(body, &mut self.ready) {
                taken += frame_end;
                continue;
            }
            if taken == 0 && frame_end == self.partial.len() && frame_end > KEEP_CAPACITY {
                // A large frame written at once: moved on, not copied.
                self.ready.push_back(std::mem::take(&mut self.partial));
                return;
            }
            let frame = self.partial[taken..taken + frame_end].to_vec();
            self.ready.push_back(frame);
            taken += frame_end;
        }
        if self.raw && taken < self.partial.len() {
            let rest = self.partial[taken..].to_vec();
            self.ready.push_back(rest);
            taken = self.partial.len();
        }
        self.partial.drain(..taken);
        if self.partial.is_empty() && self.partial.capacity() > KEEP_CAPACITY {
            self.partial = Vec::new();
        }
    }

    /// How many bytes wait for `inner`.
    fn waiting(&self) -> usize {
        self.ready.iter().map(Vec::len).sum::<usize>() - self.sent
    }

    /// Write `ready` to `inner` until it is all taken.
    fn poll_drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while let Some(front) = self.ready.front() {
            if self.sent == front.len() {
                self.ready.pop_front();
                self.sent = 0;
                continue;
            }
            let wrote = ready!(Pin::new(&mut self.inner).poll_write(cx, &front[self.sent..]))?;
            if wrote == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.sent += wrote;
        }
        Poll::Ready(Ok(()))
    }
}

impl<W: AsyncWrite + Unpin> AsyncWrite for Outgoing<W> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        // A client that does not read holds the server back, rather than the heap growing.
        if this.waiting() >= HIGH_WATER {
            ready!(this.poll_drain(cx))?;
        }
        this.partial.extend_from_slice(buf);
        this.take_frames();
        // Write what is whole now; what `inner` cannot take yet waits for the next write or
        // the flush tower-lsp-server makes after every message.
        if let Poll::Ready(Err(e)) = this.poll_drain(cx) {
            return Poll::Ready(Err(e));
        }
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        this.take_frames();
        ready!(this.poll_drain(cx))?;
        Pin::new(&mut this.inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        // Whatever is left, whole or not, goes out before the end.
        let left = std::mem::take(&mut this.partial);
        this.ready.push_back(left);
        ready!(this.poll_drain(cx))?;
        Pin::new(&mut this.inner).poll_shutdown(cx)
    }
}

/// With the timing log on, when a publish of diagnostics is written (it goes to `inner` right
/// after): the end of an edit's way (see `diagnostics_run`'s `Way`), by the wall clock.
fn log_publish(body: &[u8]) {
    const PUBLISH: &[u8] = b"\"method\":\"textDocument/publishDiagnostics\"";
    if !super::jobs::timing() || find(body, PUBLISH).is_none() {
        return;
    }
    let version = find(body, b"\"version\":").map(|at| {
        let digits = &body[at + 10..];
        let end = digits
            .iter()
            .position(|b| !b.is_ascii_digit())
            .unwrap_or(digits.len());
        String::from_utf8_lossy(&digits[..end]).into_owned()
    });
    let now = super::jobs::unix_ns(std::time::SystemTime::now());
    super::jobs::log_timing(|| {
        format!(
            "publish of version {} written at {now} ns",
            version.as_deref().unwrap_or("none")
        )
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncWriteExt;

    fn frame(body: &str) -> Vec<u8> {
        format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
    }

    /// Write `frames` through an `Outgoing` in chunks of `size` bytes; what comes out.
    fn through(stash: &Stash, frames: &[u8], size: usize) -> Vec<u8> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        runtime.block_on(async {
            let mut out = Outgoing::new(Vec::new(), stash.clone());
            for chunk in frames.chunks(size) {
                out.write_all(chunk).await.unwrap();
            }
            out.flush().await.unwrap();
            out.inner
        })
    }

    #[test]
    fn a_stashed_array_takes_the_place_of_its_results_empty_data() {
        let tokens = r#"{"jsonrpc":"2.0","result":{"data":[],"resultId":"7"},"id":3}"#;
        let other = r#"{"jsonrpc":"2.0","result":{"data":[],"resultId":"8"},"id":4}"#;
        let note =
            r#"{"jsonrpc":"2.0","method":"window/logMessage","params":{"message":"\"data\":[]"}}"#;
        let input = [frame(note), frame(tokens), frame(other)].concat();
        for size in [1, 2, 7, 64, input.len()] {
            let stash = Stash::default();
            stash.put("7".into(), b"[1,2,3,4,5]".to_vec());
            let got = through(&stash, &input, size);
            let filled = r#"{"jsonrpc":"2.0","result":{"data":[1,2,3,4,5],"resultId":"7"},"id":3}"#;
            let expected = [frame(note), frame(filled), frame(other)].concat();
            assert_eq!(
                String::from_utf8(got).unwrap(),
                String::from_utf8(expected).unwrap()
            );
            // Taken once: the same id again passes unchanged.
            assert_eq!(through(&stash, &frame(tokens), size), frame(tokens));
        }
    }

    #[test]
    fn frames_pass_unchanged_when_nothing_is_stashed_or_they_are_not_results() {
        let stash = Stash::default();
        stash.put("1".into(), b"[9]".to_vec());
        let frames = [
            frame(r#"{"jsonrpc":"2.0","result":{"items":[],"resultId":"1"},"id":1}"#),
            frame(r#"{"jsonrpc":"2.0","result":{"data":[0],"resultId":"1"},"id":2}"#),
            frame(&format!(
                r#"{{"jsonrpc":"2.0","result":"{}","id":3}}"#,
                "x".repeat(SMALL)
            )),
            frame(r#"{"jsonrpc":"2.0","error":{"code":-1,"message":"\"data\":[]"},"id":4}"#),
        ]
        .concat();
        assert_eq!(through(&stash, &frames, 5), frames);
        assert_eq!(stash.lock().len(), 1);
    }

    #[test]
    fn only_the_newest_stashes_are_kept() {
        let stash = Stash::default();
        for id in 0..KEPT + 2 {
            stash.put(id.to_string(), b"[1]".to_vec());
        }
        let ids: Vec<String> = stash.lock().iter().map(|(id, _)| id.clone()).collect();
        assert_eq!(ids, ["2", "3", "4", "5"]);
    }
}
