//! What a hostile (or unlucky) user can throw at the language server, driven over stdio: a
//! `.sudoku` path that is a FIFO (a pull answers at once with a diagnostic that says so, never a
//! reader blocked for good), long commands (requests keep being answered while they run, and a
//! cancelled one stops and frees its core), and documents of millions of problems or over the
//! size limit (memory in proportion, one clear diagnostic over the limit, formatting that holds).

use crate::common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::Server;
use serde_json::{json, Value};

const EASY: &str = concat!("# title: easy\n", common::easy_rows!());

fn file_uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// A client that pulls diagnostics, with `folder` as its workspace folder.
fn pulling_server(folder: &Path) -> Server {
    let mut capabilities = common::full_capabilities();
    capabilities["textDocument"]["diagnostic"] = json!({"dynamicRegistration": false});
    capabilities["workspace"]["diagnostics"] = json!({"refreshSupport": true});
    let mut server = Server::spawn();
    let params = json!({
        "processId": null,
        "rootUri": null,
        "capabilities": capabilities,
        "workspaceFolders": [{"uri": file_uri(folder), "name": "puzzles"}],
    });
    server.request("initialize", params);
    server.notify("initialized", json!({}));
    server
}

/// Make a FIFO at `path`.
#[cfg(unix)]
fn mkfifo(path: &Path) {
    use std::os::unix::ffi::OsStrExt;
    let name = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: a valid, NUL-terminated path; mkfifo only creates a file.
    let made = unsafe { libc::mkfifo(name.as_ptr(), 0o600) };
    assert_eq!(made, 0, "mkfifo {}", path.display());
}

/// The response to request `id`, or a panic if none comes within `TIMEOUT` (a hung server).
fn answered(server: &mut Server, id: i64, what: &str) -> Value {
    server
        .try_wait_for(common::TIMEOUT, &|m| {
            m["id"] == json!(id) && m.get("method").is_none()
        })
        .unwrap_or_else(|| panic!("{what}: no answer within {:?}", common::TIMEOUT))
}

#[cfg(unix)]
#[test]
fn a_pull_of_a_fifo_answers_at_once_saying_it_is_no_file() {
    let dir = tempfile::Builder::new().prefix("fifo").tempdir().unwrap();
    let fifo = dir.path().join("pipe.sudoku");
    mkfifo(&fifo);
    let mut server = pulling_server(dir.path());
    // A document pull of a closed file reads it from disk: a FIFO with no writer would block
    // that read for good.
    let id = server.send_request(
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": file_uri(&fifo)}}),
    );
    let response = answered(&mut server, id, "a pull of a FIFO");
    let items = response["result"]["items"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(items.len(), 1, "{response}");
    assert_eq!(items[0]["code"], "not-checked", "{response}");
    let message = items[0]["message"].as_str().unwrap();
    assert!(message.contains("not a regular file"), "{message}");
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

#[cfg(unix)]
#[test]
fn a_workspace_pull_while_files_flip_to_fifos_always_answers() {
    let dir = tempfile::Builder::new().prefix("flip").tempdir().unwrap();
    let root = dir.path().to_path_buf();
    let names: Vec<String> = (0..20).map(|i| format!("p{i:02}.sudoku")).collect();
    for name in &names {
        std::fs::write(root.join(name), EASY).unwrap();
    }
    // Each path is swapped, by a rename (atomic), between a regular file and a FIFO, over and
    // over: the walk finds a regular file that may be a FIFO by the time it is read.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flipper = {
        let (stop, root, names) = (stop.clone(), root.clone(), names.clone());
        std::thread::spawn(move || {
            let mut round = 0u64;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                for name in &names {
                    let spare = root.join(format!(".{name}.{round}"));
                    if round % 2 == 0 {
                        mkfifo(&spare);
                    } else {
                        std::fs::write(&spare, EASY).unwrap();
                    }
                    std::fs::rename(&spare, root.join(name)).unwrap();
                }
                round += 1;
                std::thread::sleep(Duration::from_millis(1));
            }
        })
    };
    let mut server = pulling_server(&root);
    for pull in 0..30 {
        let id = server.send_request("workspace/diagnostic", json!({"previousResultIds": []}));
        let response = answered(&mut server, id, &format!("workspace pull {pull}"));
        let items = response["result"]["items"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        for item in &items {
            for diagnostic in item["items"].as_array().into_iter().flatten() {
                if diagnostic["code"] == "not-checked" {
                    let message = diagnostic["message"].as_str().unwrap();
                    assert!(message.contains("not a regular file"), "{message}");
                }
            }
        }
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    flipper.join().unwrap();
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

/// The CPU time the process has used so far (user and system), from `/proc/PID/stat`.
fn cpu_time(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command's `)`: state is the 3rd field, utime and stime the 14th and 15th.
    let rest = &stat[stat.rfind(')').map_or(0, |at| at + 2)..];
    let fields: Vec<u64> = rest
        .split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|f| f.parse().ok())
        .collect();
    // SAFETY: sysconf only reads a constant of the system.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    Duration::from_millis(fields.iter().sum::<u64>() * 1000 / ticks)
}

/// How much CPU time the process uses over `span`.
fn cpu_over(pid: u32, span: Duration) -> Duration {
    let before = cpu_time(pid);
    std::thread::sleep(span);
    cpu_time(pid).saturating_sub(before)
}

fn new_puzzle(server: &mut Server, uri: &str, extra: Value) -> i64 {
    let mut argument = json!({"uri": uri, "position": {"line": 0, "character": 0}});
    for (key, value) in extra.as_object().unwrap() {
        argument[key] = value.clone();
    }
    server.send_request(
        "workspace/executeCommand",
        json!({"command": "sudoku.newPuzzle", "arguments": [argument]}),
    )
}

#[cfg(target_os = "linux")]
#[test]
fn long_commands_leave_requests_answered_and_stop_when_cancelled() {
    let mut server = Server::spawn();
    server.initialize_full();
    let uri = "file:///t/long.sudoku";
    server.open_and_check(uri, EASY);
    // Four 25×25 puzzles rated 11 or more: none comes within the command's 20 seconds.
    let long: Vec<i64> = (0..4)
        .map(|seed| {
            let asked = json!({"size": 25, "rating": "11..", "seed": seed});
            new_puzzle(&mut server, uri, asked)
        })
        .collect();
    // Meanwhile hover, an edit's diagnostics and code lenses are answered, before any of them.
    let hover = server.hover(uri, json!({"line": 1, "character": 1}));
    assert!(
        hover["contents"]["value"]
            .as_str()
            .is_some_and(|v| v.contains("A2")),
        "{hover}"
    );
    let a2 = json!({"start": {"line": 1, "character": 1}, "end": {"line": 1, "character": 2}});
    server.change(uri, 2, vec![json!({"range": a2, "text": "3"})]);
    let diagnostics = server.diagnostics(uri, 2);
    assert!(
        diagnostics.iter().any(|d| d["code"] == "conflict"),
        "{diagnostics:#?}"
    );
    let lenses = server.request(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": uri}}),
    );
    assert!(lenses["result"].is_array(), "{lenses}");
    let early: Vec<&Value> = server
        .log
        .iter()
        .filter(|m| long.iter().any(|&id| m["id"] == json!(id)) && m.get("method").is_none())
        .collect();
    assert!(
        early.is_empty(),
        "a long command answered first: {early:#?}"
    );

    // Cancelled, each answers RequestCancelled, and the work stops: the server's CPU time
    // stops growing as it grew while the generator ran.
    let busy = cpu_over(server.pid(), Duration::from_secs(1));
    for &id in &long {
        server.notify("$/cancelRequest", json!({"id": id}));
    }
    for &id in &long {
        let response = answered(&mut server, id, "a cancelled command");
        assert_eq!(response["error"]["code"], -32800, "{response}");
    }
    std::thread::sleep(Duration::from_millis(300));
    let idle = cpu_over(server.pid(), Duration::from_secs(1));
    assert!(
        idle * 4 < busy,
        "the server used {idle:?} of CPU in the second after the cancels, {busy:?} before"
    );
    // And a new command runs at once: the long ones no longer hold its place.
    let quick = new_puzzle(&mut server, uri, json!({"seed": 7}));
    let started = Instant::now();
    let request = server.server_request("workspace/applyEdit");
    server.respond(&request, json!({"applied": true}));
    let response = answered(&mut server, quick, "a 9×9 new puzzle");
    assert!(response.get("error").is_none(), "{response}");
    assert!(started.elapsed() < common::TIMEOUT);
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

/// A server whose settings are `settings`.
fn server_with(settings: Value) -> Server {
    let mut server = Server::spawn();
    let params = json!({"processId": null, "rootUri": null,
                        "capabilities": common::full_capabilities(),
                        "initializationOptions": settings});
    server.request("initialize", params);
    server.notify("initialized", json!({}));
    server
}

#[test]
fn a_document_over_the_size_limit_gets_one_diagnostic_and_no_analysis() {
    let mut server = server_with(json!({"maxDocumentMB": 1}));
    let uri = "file:///t/large.sudoku";
    // 2 MB of lines that are each an error.
    let text = "x\n".repeat(1 << 20);
    let diagnostics = server.open_and_check(uri, &text);
    assert_eq!(
        diagnostics.len(),
        1,
        "{:#?}",
        &diagnostics[..3.min(diagnostics.len())]
    );
    let only = &diagnostics[0];
    assert_eq!(only["code"], "too-large", "{only}");
    assert_eq!(only["range"]["start"], json!({"line": 0, "character": 0}));
    let message = only["message"].as_str().unwrap();
    for part in [
        "too large to check",
        "2.0 MB",
        "1 MB",
        "maxDocumentMB",
        "sudoku-lsp check",
    ] {
        assert!(message.contains(part), "{part}: {message}");
    }
    // No analysis, and no formatting: a request says why.
    let hover = server.hover(uri, json!({"line": 0, "character": 0}));
    assert!(hover.is_null(), "{hover}");
    let formatted = server.request("textDocument/formatting", format_params(uri));
    let why = formatted["error"]["message"]
        .as_str()
        .unwrap_or_else(|| panic!("{formatted}"));
    assert!(why.contains("too large"), "{why}");
    // Cut down below the limit, it is checked again.
    server.change(uri, 2, vec![json!({"text": EASY})]);
    assert_eq!(server.diagnostics(uri, 2), Vec::<Value>::new());
    // The limit is a setting: raised, the large text is checked.
    server.change(uri, 3, vec![json!({"text": text})]);
    assert_eq!(server.diagnostics(uri, 3).len(), 1);
    server.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"sudoku": {"maxDocumentMB": 4}}}),
    );
    let diagnostics = server.diagnostics(uri, 3);
    assert_eq!(
        diagnostics.len(),
        2001,
        "capped at 2,000 and one saying how many more"
    );
    let more = diagnostics.last().unwrap()["message"].as_str().unwrap();
    assert!(more.starts_with("1046576 more errors not shown"), "{more}");
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

/// The server's peak resident memory so far, in MB (0 where `/proc` cannot be read).
fn peak_mb(server: &Server) -> u64 {
    common::memory_kb(server.pid(), "VmHWM") / 1024
}

#[cfg(target_os = "linux")]
#[test]
fn a_document_of_millions_of_problems_costs_memory_in_proportion() {
    let mut server = server_with(json!({}));
    let uri = "file:///t/errors.sudoku";
    // 8 MB, 4 million lines, each an error: the server once kept every finding twice (64 bytes
    // each) and peaked near 80 times the text.
    let text = "x\n".repeat(4 << 20);
    server.open(uri, 1, &text);
    let diagnostics = server.diagnostics(uri, 1);
    assert_eq!(diagnostics.len(), 2001);
    let more = diagnostics.last().unwrap()["message"].as_str().unwrap();
    assert!(more.starts_with("4192304 more errors not shown"), "{more}");
    let opened = peak_mb(&server);
    // Formatting held a table of every line (150 bytes each) and read the result back whole:
    // with no place to cut such a text into pieces, it is refused, saying why.
    let formatted = server.request("textDocument/formatting", format_params(uri));
    let why = formatted["error"]["message"]
        .as_str()
        .unwrap_or_else(|| panic!("{formatted}"));
    assert!(why.contains("formats at most 500000 lines"), "{why}");
    assert!(why.contains("lines 1 to 500001"), "{why}");
    let refused = peak_mb(&server);
    // 12 MB that can be cut (a blank line every thousand lines, after a first puzzle) is
    // formatted a piece at a time: its metadata line rewritten, in bounded memory.
    let puzzle =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let pieces = format!("{}\n", "x\n".repeat(999)).repeat(6000);
    let text = format!("#TITLE:  x\n\n{puzzle}\n{pieces}");
    server.change(uri, 2, vec![json!({"text": text})]);
    assert_eq!(server.diagnostics(uri, 2).len(), 2001);
    let formatted = server.request("textDocument/formatting", format_params(uri));
    let edits = formatted["result"]
        .as_array()
        .unwrap_or_else(|| panic!("{formatted}"));
    assert_eq!(edits.len(), 1, "{formatted}");
    let new_text = edits[0]["newText"].as_str().unwrap();
    assert!(new_text.starts_with("# title: x"), "{formatted}");
    let formatting = peak_mb(&server);
    // Text, rope and a copy: about 40 MB. A generous bound, far under the gigabytes it was.
    assert!(opened < 250, "opening 8 MB of errors peaked at {opened} MB");
    assert!(
        refused < 250,
        "refusing to format them peaked at {refused} MB"
    );
    assert!(
        formatting < 300,
        "formatting 12 MB in pieces peaked at {formatting} MB"
    );
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

fn format_params(uri: &str) -> Value {
    json!({"textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": true}})
}
