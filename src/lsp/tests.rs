//! What the integration tests cannot see from one server process per session: several sessions
//! in one process (as the fuzz target runs them, over in-memory pipes), and the layering of this
//! module's files (see the table in `mod.rs`).

use std::collections::BTreeMap;

use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream};

/// Write one framed message.
async fn send(to: &mut DuplexStream, message: Value) {
    let body = message.to_string();
    let frame = format!("Content-Length: {}\r\n\r\n{body}", body.len());
    to.write_all(frame.as_bytes())
        .await
        .expect("the server reads");
}

/// Read framed messages until the answer to request `id`.
async fn answer(from: &mut DuplexStream, id: i64) -> Value {
    let mut buffer = Vec::new();
    loop {
        let header_end = loop {
            if let Some(at) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
                break at + 4;
            }
            let mut chunk = [0u8; 4096];
            let read = from.read(&mut chunk).await.expect("the server writes");
            assert!(read > 0, "the session ended before answering request {id}");
            buffer.extend_from_slice(&chunk[..read]);
        };
        let header = String::from_utf8_lossy(&buffer[..header_end]).to_string();
        let length: usize = header
            .lines()
            .find_map(|line| line.strip_prefix("Content-Length: "))
            .and_then(|n| n.trim().parse().ok())
            .expect("a Content-Length header");
        while buffer.len() < header_end + length {
            let mut chunk = [0u8; 4096];
            let read = from.read(&mut chunk).await.expect("the server writes");
            assert!(read > 0, "the session ended inside a message");
            buffer.extend_from_slice(&chunk[..read]);
        }
        let body: Value =
            serde_json::from_slice(&buffer[header_end..header_end + length]).expect("a JSON body");
        buffer.drain(..header_end + length);
        if body["id"] == json!(id) && body.get("method").is_none() {
            return body;
        }
    }
}

/// Initialize a session of its own in this process with `capabilities`; whether the server
/// offers pull diagnostics (it does exactly when the client pulls and can be asked to pull
/// again).
async fn offers_pull(capabilities: Value) -> bool {
    let (mut to_server, server_in) = tokio::io::duplex(1 << 16);
    let (server_out, mut from_server) = tokio::io::duplex(1 << 16);
    let server = tokio::spawn(super::serve_io(server_in, server_out));
    let params = json!({"processId": null, "rootUri": null, "capabilities": capabilities});
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params});
    send(&mut to_server, initialize).await;
    let answer = answer(&mut from_server, 1).await;
    drop(to_server); // the end of input ends the session
    let _ = server.await;
    !answer["result"]["capabilities"]["diagnosticProvider"].is_null()
}

fn pulling(refresh: bool) -> Value {
    json!({
        "textDocument": {"diagnostic": {}},
        "workspace": {"diagnostics": {"refreshSupport": refresh}},
    })
}

/// Each session acts on its own client's capabilities: a client that can be asked to pull
/// again pulls, one that cannot gets diagnostics pushed, whichever came first in the process.
#[test]
fn client_capabilities_are_per_session() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        assert!(offers_pull(pulling(true)).await, "the first session pulls");
        assert!(!offers_pull(pulling(false)).await, "the second cannot");
        assert!(offers_pull(pulling(true)).await, "the third pulls");
    });
    runtime.shutdown_background();
}

/// The files of this module (but `mod.rs` and this one) and their source without its tests.
fn sources() -> BTreeMap<String, String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lsp");
    let mut files = BTreeMap::new();
    for entry in std::fs::read_dir(dir).expect("src/lsp") {
        let path = entry.expect("an entry").path();
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        if path.extension().is_some_and(|e| e == "rs") && !["mod", "tests"].contains(&name) {
            let text = std::fs::read_to_string(&path).expect("a source file");
            // A file's tests come last; their `super` is the file itself.
            let code = text.split("#[cfg(test)]").next().unwrap_or_default();
            files.insert(name.to_string(), code.to_string());
        }
    }
    files
}

/// The first path segment of each item of a `use` list (`a::B, c::{D, E}, f` gives a, c, f).
fn list_heads(list: &str) -> Vec<String> {
    let (mut heads, mut depth, mut item) = (Vec::new(), 0, String::new());
    for c in list.chars().chain([',']) {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                let head = item.trim().split("::").next().unwrap_or_default().trim();
                heads.push(head.to_string());
                item.clear();
                continue;
            }
            _ => {}
        }
        item.push(c);
    }
    heads
}

/// The files of this module that `code` names: after `super::` or `crate::lsp::`, alone or in
/// a braced list.
fn uses(code: &str, files: &BTreeMap<String, String>) -> Vec<String> {
    let mut named = Vec::new();
    for prefix in ["super::", "crate::lsp::"] {
        for (at, _) in code.match_indices(prefix) {
            let rest = &code[at + prefix.len()..];
            if let Some(list) = rest.strip_prefix('{') {
                let mut depth = 1;
                let end = list.char_indices().find_map(|(at, c)| {
                    match c {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        _ => {}
                    }
                    (depth == 0).then_some(at)
                });
                let end = end.unwrap_or(list.len());
                named.extend(list_heads(&list[..end]));
            } else {
                let end = rest
                    .find(|c: char| !c.is_alphanumeric() && c != '_')
                    .unwrap_or(rest.len());
                named.push(rest[..end].to_string());
            }
        }
    }
    named.retain(|name| files.contains_key(name));
    named.sort();
    named.dedup();
    named
}

/// The layering table of `mod.rs`'s overview, in its order: each file and the files it may use.
fn layering() -> Vec<(String, Vec<String>)> {
    let overview = include_str!("mod.rs");
    overview
        .lines()
        .filter_map(|line| line.strip_prefix("//! | `"))
        .filter_map(|row| {
            let (file, rest) = row.split_once('`')?;
            let allowed = rest
                .trim_start_matches([' ', '|'])
                .trim_end_matches([' ', '|']);
            let allowed = allowed
                .split(',')
                .map(|name| name.trim().trim_matches('`').to_string())
                .filter(|name| !name.is_empty() && name != "—")
                .collect();
            Some((file.to_string(), allowed))
        })
        .collect()
}

/// Every file of `src/lsp` uses only the files its row of the table in `mod.rs` names, and
/// those only from rows above it: no import goes up a layer and none goes round a circle.
#[test]
fn files_use_only_the_layers_below_them() {
    let files = sources();
    let table = layering();
    let mut problems = Vec::new();
    for (row, (file, allowed)) in table.iter().enumerate() {
        let above: Vec<&String> = table[..row].iter().map(|(name, _)| name).collect();
        for name in allowed {
            if !above.contains(&name) {
                problems.push(format!(
                    "{file} may use {name}, which is not in a row above it"
                ));
            }
        }
        let Some(code) = files.get(file) else {
            problems.push(format!("{file} is in the table but not in src/lsp"));
            continue;
        };
        for used in uses(code, &files) {
            if &used != file && !allowed.contains(&used) {
                problems.push(format!("{file} uses {used}, which its row does not allow"));
            }
        }
    }
    for file in files.keys() {
        if !table.iter().any(|(name, _)| name == file) {
            problems.push(format!("{file} is not in the table of mod.rs"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Files stay small enough to read: under 800 lines each.
#[test]
fn files_are_under_800_lines() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lsp");
    for entry in std::fs::read_dir(dir).expect("src/lsp") {
        let path = entry.expect("an entry").path();
        let lines = std::fs::read_to_string(&path)
            .expect("a file")
            .lines()
            .count();
        assert!(lines < 800, "{} has {lines} lines", path.display());
    }
}
