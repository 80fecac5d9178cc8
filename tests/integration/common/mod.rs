//! A small LSP client for the tests: runs the real `sudoku-lsp` binary, speaks `Content-Length`
//! framed JSON-RPC over its stdin/stdout, and never waits forever: every wait has a deadline,
//! so a server that hangs fails the test instead of hanging it.
#![allow(dead_code, unused_macros, unused_imports)] // each test file uses a different part

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

pub mod cli;

/// The rows of the easy puzzle the LSP tests open (it has one solution), as a literal for
/// `concat!`: each test file puts its own title above them (emoji and CJK where it tests
/// position encodings).
macro_rules! easy_rows {
    () => {
        concat!("..3.2.6..\n", $crate::common::easy_rows_b_to_i!())
    };
}
pub(crate) use easy_rows;

/// The easy puzzle's rows with a second 3 in row A, at A1 (A3 holds the first): a conflict in
/// row A and box 1.
macro_rules! conflict_rows {
    () => {
        concat!("3.3.2.6..\n", $crate::common::easy_rows_b_to_i!())
    };
}
pub(crate) use conflict_rows;

/// Rows B to I of the easy puzzle.
macro_rules! easy_rows_b_to_i {
    () => {
        "9..3.5..1\n..18.64..\n..81.29..\n7.......8\n..67.82..\n..26.95..\n8..2.3..9\n..5.1.3..\n"
    };
}
pub(crate) use easy_rows_b_to_i;

/// The rows of the easy puzzle's solution, as `easy_rows!`.
macro_rules! easy_solved_rows {
    () => {
        "483921657\n967345821\n251876493\n548132976\n729564138\n136798245\n372689514\n814253769\n695417382\n"
    };
}
pub(crate) use easy_solved_rows;

/// A process's memory in kB from `/proc/PID/status`: `VmRSS` (now) or `VmHWM` (the most it has
/// been); 0 where that cannot be read (not Linux).
pub fn memory_kb(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// The text of `sudoku17.txt` from the shared data, if it is there.
pub fn sudoku17_text() -> Option<String> {
    shared_file("sudoku17.txt")
}

/// Say on the real stderr that a test is skipped, and why: `eprintln!` in a passing test is
/// captured by the test harness and never shown, so CI would show a skip as a plain pass.
/// The `.sudoku` files shipped in each of `folders` under `puzzles/` (`""` for `puzzles/`
/// itself), sorted.
pub fn shipped_puzzles(folders: &[&str]) -> Vec<std::path::PathBuf> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles");
    let mut files: Vec<_> = folders
        .iter()
        .flat_map(|folder| std::fs::read_dir(root.join(folder)).unwrap())
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "sudoku"))
        .collect();
    files.sort();
    files
}

pub fn say_skipped(why: &str) {
    let _ = writeln!(std::io::stderr(), "skipped: {why}");
}

/// Set (as CI sets it) to make a test that finds no shared data fail instead of skipping.
pub const REQUIRE_SHARED_DATA: &str = "SUDOKU_LSP_REQUIRE_SHARED_DATA";

/// A test cannot have the shared data: it is skipped, saying why, or fails where
/// [`REQUIRE_SHARED_DATA`] is set.
fn shared_data_missing(why: &str) {
    assert!(
        std::env::var_os(REQUIRE_SHARED_DATA).is_none(),
        "{why}, and {REQUIRE_SHARED_DATA} is set"
    );
    say_skipped(why);
}

/// `../shared/data` beside the repository, or where `SUDOKU_SHARED_DATA` points; `None`, with
/// a "skipped" line on stderr, when it is missing (tests that read it still pass without it,
/// unless [`REQUIRE_SHARED_DATA`] is set).
pub fn shared_data() -> Option<std::path::PathBuf> {
    let dir = std::env::var_os("SUDOKU_SHARED_DATA")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data")
        });
    if dir.is_dir() {
        Some(dir)
    } else {
        shared_data_missing(&format!(
            "no shared data at {} (set SUDOKU_SHARED_DATA to point at the collections)",
            dir.display()
        ));
        None
    }
}

/// The whole text of one shared collection, or `None` as for [`shared_data`] (a collection
/// missing from the folder counts as missing data).
pub fn shared_file(name: &str) -> Option<String> {
    let path = shared_data()?.join(name);
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(e) => {
            shared_data_missing(&format!("cannot read {}: {e}", path.display()));
            None
        }
    }
}

/// The Barbed Cross (little killers over disjoint groups, no givens): its verdict takes a
/// search of some ten thousand nodes. The page's test (web/test/playground.mjs) reads the
/// same file.
pub const SLOW_VERDICT: &str = include_str!("../../data/barbed-cross.sudoku");

/// How long any single wait may take before the test fails as a hang: debug builds on a busy
/// machine are slow (the diagnostics of lsp_limits' 4-million-line document take 16-18 s on an
/// idle one, and timed out at 30 under a loaded CI run). Only a failing test waits this long.
pub const TIMEOUT: Duration = Duration::from_secs(60);

pub struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    incoming: Receiver<Value>,
    /// Messages received but not yet asked for, in arrival order.
    unread: VecDeque<Value>,
    /// Every message received, in arrival order (for ordering checks).
    pub log: Vec<Value>,
    stderr: Arc<Mutex<String>>,
    next_id: i64,
}

impl Server {
    pub fn spawn() -> Server {
        Server::spawn_with(&[], &[])
    }

    /// Start the binary with extra arguments and environment variables.
    pub fn spawn_with(args: &[&str], env: &[(&str, &str)]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku-lsp"))
            .args(args)
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start sudoku-lsp");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, incoming) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(message) = read_frame(&mut reader) {
                if tx.send(message).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut err_pipe = child.stderr.take().expect("stderr");
        let sink = stderr.clone();
        std::thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            while let Ok(n @ 1..) = err_pipe.read(&mut buffer) {
                sink.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buffer[..n]));
            }
        });
        Server {
            stdin: child.stdin.take(),
            child,
            incoming,
            unread: VecDeque::new(),
            log: Vec::new(),
            stderr,
            next_id: 1,
        }
    }

    /// The server's process id (for reading its memory use).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// `initialize` with these client capabilities, then `initialized`; returns the result.
    pub fn initialize(&mut self, capabilities: Value) -> Value {
        let params = json!({"processId": null, "rootUri": null, "capabilities": capabilities});
        let response = self.request("initialize", params);
        self.notify("initialized", json!({}));
        response["result"].clone()
    }

    /// A client that supports everything we use: UTF-16 default, Markdown, versioned edits.
    pub fn initialize_full(&mut self) -> Value {
        self.initialize(full_capabilities())
    }

    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to server");
        stdin.flush().expect("flush");
    }

    pub fn send(&mut self, message: &Value) {
        let body = message.to_string();
        let frame = format!("Content-Length: {}\r\n\r\n{body}", body.len());
        self.send_raw(frame.as_bytes());
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Send a request without waiting; returns its id.
    pub fn send_request(&mut self, method: &str, params: Value) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    /// Send a request and wait for its response (the whole message: `result` or `error`).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send_request(method, params);
        self.response(id)
    }

    pub fn response(&mut self, id: i64) -> Value {
        self.wait_for(&format!("the response to request {id}"), |m| {
            m["id"] == json!(id) && m.get("method").is_none()
        })
    }

    /// The first unread message matching `wanted`, waiting for it up to `TIMEOUT`.
    pub fn wait_for(&mut self, what: &str, wanted: impl Fn(&Value) -> bool) -> Value {
        self.try_wait_for(TIMEOUT, &wanted).unwrap_or_else(|| {
            panic!(
                "timed out waiting for {what}; unread: {:#?}\nserver stderr:\n{}",
                self.unread,
                self.stderr()
            )
        })
    }

    pub fn try_wait_for(
        &mut self,
        timeout: Duration,
        wanted: &dyn Fn(&Value) -> bool,
    ) -> Option<Value> {
        if let Some(at) = self.unread.iter().position(wanted) {
            return self.unread.remove(at);
        }
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.checked_duration_since(Instant::now())?;
            match self.incoming.recv_timeout(left) {
                Ok(message) => {
                    self.log.push(message.clone());
                    if wanted(&message) {
                        return Some(message);
                    }
                    self.unread.push_back(message);
                }
                Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => {
                    return None
                }
            }
        }
    }

    /// Receive until nothing has arrived for `quiet`; everything received is in `log`.
    pub fn drain(&mut self, quiet: Duration) {
        while let Ok(message) = self.incoming.recv_timeout(quiet) {
            self.log.push(message.clone());
            self.unread.push_back(message);
        }
    }

    /// The `publishDiagnostics` for `uri` at `version` (the params: uri, version, diagnostics).
    pub fn diagnostics(&mut self, uri: &str, version: i64) -> Vec<Value> {
        let message = self.wait_for(&format!("diagnostics for {uri} version {version}"), |m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri
                && m["params"]["version"] == json!(version)
        });
        message["params"]["diagnostics"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    }

    pub fn open(&mut self, uri: &str, version: i64, text: &str) {
        let document =
            json!({"uri": uri, "languageId": "sudoku", "version": version, "text": text});
        self.notify("textDocument/didOpen", json!({"textDocument": document}));
    }

    /// Open and wait for the first diagnostics.
    pub fn open_and_check(&mut self, uri: &str, text: &str) -> Vec<Value> {
        self.open(uri, 1, text);
        self.diagnostics(uri, 1)
    }

    /// One `didChange` with a list of `{range?, text}` changes.
    pub fn change(&mut self, uri: &str, version: i64, changes: Vec<Value>) {
        let params = json!({
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": changes,
        });
        self.notify("textDocument/didChange", params);
    }

    pub fn close(&mut self, uri: &str) {
        self.notify(
            "textDocument/didClose",
            json!({"textDocument": {"uri": uri}}),
        );
    }

    /// Answer a request the server sent (`workspace/applyEdit`, `window/workDoneProgress/create`…).
    pub fn respond(&mut self, request: &Value, result: Value) {
        self.send(&json!({"jsonrpc": "2.0", "id": request["id"], "result": result}));
    }

    /// Wait for the server's request of `method` (optionally one matching `also`).
    pub fn server_request(&mut self, method: &str) -> Value {
        self.wait_for(&format!("a {method} request from the server"), |m| {
            m["method"] == method && m.get("id").is_some()
        })
    }

    pub fn hover(&mut self, uri: &str, position: Value) -> Value {
        let params = json!({"textDocument": {"uri": uri}, "position": position});
        self.request("textDocument/hover", params)["result"].clone()
    }

    pub fn code_actions(&mut self, uri: &str, range: Value) -> Vec<Value> {
        let params = json!({
            "textDocument": {"uri": uri},
            "range": range,
            "context": {"diagnostics": []},
        });
        let response = self.request("textDocument/codeAction", params);
        assert!(
            response.get("error").is_none(),
            "code action failed: {response}"
        );
        response["result"].as_array().cloned().unwrap_or_default()
    }

    /// `shutdown`, then `exit`; returns the exit code.
    pub fn shutdown_and_exit(mut self) -> Option<i32> {
        let response = self.request("shutdown", Value::Null);
        assert!(
            response.get("error").is_none(),
            "shutdown failed: {response}"
        );
        self.notify("exit", Value::Null);
        self.wait_exit()
    }

    /// Wait for the process to end (without closing its stdin); its exit code.
    pub fn wait_exit(&mut self) -> Option<i32> {
        let deadline = Instant::now() + TIMEOUT;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("the server did not exit within {TIMEOUT:?}");
    }

    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    pub fn is_running(&mut self) -> bool {
        self.child.try_wait().expect("wait").is_none()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Read one `Content-Length` frame; `None` at the end of the stream.
fn read_frame(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse::<usize>().ok();
            }
        }
    }
    let mut body = vec![0u8; length?];
    reader.read_exact(&mut body).ok()?;
    Some(serde_json::from_slice(&body).expect("the server sent JSON"))
}

pub fn full_capabilities() -> Value {
    json!({
        "textDocument": {
            "hover": {"contentFormat": ["markdown", "plaintext"]},
            "codeAction": {
                "disabledSupport": true,
                "codeActionLiteralSupport": {"codeActionKind": {"valueSet": ["quickfix", "refactor"]}},
            },
            "publishDiagnostics": {"relatedInformation": true, "versionSupport": true},
        },
        "workspace": {"workspaceEdit": {"documentChanges": true}},
    })
}

/// The first action whose title starts with `prefix`.
pub fn titled<'a>(actions: &'a [Value], prefix: &str) -> Option<&'a Value> {
    actions
        .iter()
        .find(|a| a["title"].as_str().is_some_and(|t| t.starts_with(prefix)))
}

/// Capabilities offering these position encodings (and otherwise `full_capabilities`).
pub fn capabilities_with_encodings(encodings: &[&str]) -> Value {
    let mut capabilities = full_capabilities();
    capabilities["general"] = json!({"positionEncodings": encodings});
    capabilities
}

/// Position encodings as the tests compute them, independently of the server's code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Enc {
    Utf8,
    Utf16,
    Utf32,
}

impl Enc {
    pub const ALL: [Enc; 3] = [Enc::Utf8, Enc::Utf16, Enc::Utf32];

    pub fn name(self) -> &'static str {
        match self {
            Enc::Utf8 => "utf-8",
            Enc::Utf16 => "utf-16",
            Enc::Utf32 => "utf-32",
        }
    }

    /// The LSP position of a byte offset in `text` (lines end at `\n`, `\r\n` or `\r`).
    pub fn position(self, text: &str, byte: usize) -> Value {
        let bytes = text.as_bytes();
        let (mut line, mut line_start) = (0, 0);
        for i in 0..byte {
            // `\r` alone ends a line; in `\r\n` the `\n` does.
            let ends_line = match bytes[i] {
                b'\n' => true,
                b'\r' => bytes.get(i + 1) != Some(&b'\n'),
                _ => false,
            };
            if ends_line {
                line += 1;
                line_start = i + 1;
            }
        }
        let prefix = &text[line_start..byte];
        let character = match self {
            Enc::Utf8 => prefix.len(),
            Enc::Utf16 => prefix.encode_utf16().count(),
            Enc::Utf32 => prefix.chars().count(),
        };
        json!({"line": line, "character": character})
    }

    pub fn range(self, text: &str, start: usize, end: usize) -> Value {
        json!({"start": self.position(text, start), "end": self.position(text, end)})
    }
}

/// Apply LSP `TextEdit`s (in the given encoding) to a text, as an editor would.
pub fn apply_text_edits(text: &str, edits: &[Value], enc: Enc) -> String {
    let mut spans: Vec<(usize, usize, String)> = edits
        .iter()
        .map(|edit| {
            let start = offset_of(text, &edit["range"]["start"], enc);
            let end = offset_of(text, &edit["range"]["end"], enc);
            (
                start,
                end,
                edit["newText"].as_str().expect("newText").to_string(),
            )
        })
        .collect();
    spans.sort_by_key(|s| std::cmp::Reverse(s.0));
    let mut out = text.to_string();
    for (start, end, new) in spans {
        out.replace_range(start..end, &new);
    }
    out
}

/// The byte offset of an LSP position (must be exact: tests only use valid positions).
pub fn offset_of(text: &str, position: &Value, enc: Enc) -> usize {
    let line = position["line"].as_u64().unwrap() as usize;
    let character = position["character"].as_u64().unwrap() as usize;
    let mut start = 0;
    for _ in 0..line {
        let rest = &text[start..];
        let end = rest.find(['\n', '\r']).expect("line exists");
        start += end
            + if rest[end..].starts_with("\r\n") {
                2
            } else {
                1
            };
    }
    let mut units = 0;
    for (i, c) in text[start..].char_indices() {
        if units == character {
            return start + i;
        }
        units += match enc {
            Enc::Utf8 => c.len_utf8(),
            Enc::Utf16 => c.len_utf16(),
            Enc::Utf32 => 1,
        };
    }
    assert_eq!(units, character, "position past the end of the text");
    text.len()
}

/// The text of the hover at (`line`, `character`), empty when there is none: what most hover
/// checks compare.
pub fn hover_text(server: &mut Server, uri: &str, line: u64, character: u64) -> String {
    let hover = server.hover(uri, json!({"line": line, "character": character}));
    hover["contents"]["value"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// The edits of a code action for `uri`, whichever form the workspace edit took.
pub fn action_edits(action: &Value, uri: &str) -> Vec<Value> {
    let edit = &action["edit"];
    if let Some(changes) = edit["documentChanges"].as_array() {
        changes
            .iter()
            .filter(|c| c["textDocument"]["uri"] == uri)
            .flat_map(|c| c["edits"].as_array().cloned().unwrap_or_default())
            .collect()
    } else {
        edit["changes"][uri].as_array().cloned().unwrap_or_default()
    }
}
