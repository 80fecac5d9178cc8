//! `cargo bench --bench memory`: what the language server holds in memory. Drives the real
//! release binary over stdio and, for each input, opens it as a document, waits for its
//! diagnostics, asks for its formatting, closes it, waits for the diagnostics to be cleared, and
//! prints the server's resident memory at the start, with the document open, at its peak
//! (`VmHWM`) once open, at its peak once formatted, and after the close.
//!
//! The inputs are the ones that once made it use gigabytes: 100,000 and 1,000,000 lines of
//! `# title: x` (each line after the first is a "given twice" warning with related information,
//! and each one a metadata-with-no-puzzle warning), 16 MB of lines that are each an error (`x`;
//! 1.2 GB to open, 3.9 GB to format 32 MB of them), the same with a blank line every thousand
//! lines after a first puzzle (formatted in pieces), 20 MB of blank lines (over the 16 MB
//! `maxDocumentMB`: one diagnostic), and a collection of one-line puzzles
//! (`../shared/data/sudoku17.txt` when present, else generated ones). Each input gets a server
//! of its own, so each peak is that input's. `sudoku-lsp check` on the same text gives the
//! analysis's own share: what the server needs on top is the LSP's.
//! Linux only (it reads `/proc`).

#[path = "../tests/integration/common/mod.rs"]
mod common;

use std::time::{Duration, Instant};

use common::Server;
use serde_json::{json, Value};
use sudoku_lsp::engine::fast9;

/// An input: its name, and how to make its text.
type Input = (&'static str, fn() -> String);

fn main() {
    let inputs: [Input; 6] = [
        ("100,000 title lines", || "# title: x\n".repeat(100_000)),
        ("1,000,000 title lines", || "# title: x\n".repeat(1_000_000)),
        ("16 MB of error lines", || "x\n".repeat(8_000_000)),
        ("16 MB, blank every 1,000", error_pieces),
        ("20 MB of blank lines", || "\n".repeat(20_000_000)),
        ("one-line puzzles", collection_text),
    ];
    println!(
        "{:<26} {:>6} {:>11} {:>7} {:>6} {:>6} {:>6} {:>12} {:>11}",
        "input",
        "MB",
        "diagnostics",
        "seconds",
        "start",
        "open",
        "peak",
        "format: peak",
        "after close"
    );
    for (name, make) in inputs {
        measure(name, &make());
    }
}

fn measure(name: &str, text: &str) {
    let uri = "file:///bench/memory.sudoku";
    let mut server = Server::spawn();
    server.initialize(json!({}));
    let pid = server.pid();
    let start = memory_mb(pid, "VmRSS");
    let started = Instant::now();
    server.open(uri, 1, text);
    let published = server.diagnostics(uri, 1).len();
    let seconds = started.elapsed().as_secs_f64();
    let open = memory_mb(pid, "VmRSS");
    let peak = memory_mb(pid, "VmHWM");
    let params =
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": true}});
    let formatted = server.request("textDocument/formatting", params);
    let how = match (&formatted["result"], &formatted["error"]["message"]) {
        (Value::Array(edits), _) => format!("{} edits", edits.len()),
        (_, Value::String(why)) => format!("refused: {}", &why[..why.len().min(60)]),
        _ => "nothing".to_string(),
    };
    let format_peak = memory_mb(pid, "VmHWM");
    server.close(uri);
    server.wait_for("the diagnostics cleared", |m| {
        m["method"] == "textDocument/publishDiagnostics" && m["params"]["diagnostics"] == json!([])
    });
    // The memory is given back on the blocking pool, just after the clearing is sent.
    std::thread::sleep(Duration::from_millis(500));
    let closed = memory_mb(pid, "VmRSS");
    println!(
        "{name:<26} {:>6.1} {published:>11} {seconds:>7.1} {start:>6.1} {open:>6.1} {peak:>6.1} {format_peak:>12.1} {closed:>11.1}   formatting: {how}",
        text.len() as f64 / 1e6
    );
    server.shutdown_and_exit();
}

/// A process's memory in MB (see `common::memory_kb`).
fn memory_mb(pid: u32, field: &str) -> f64 {
    common::memory_kb(pid, field) as f64 / 1024.0
}

/// 16 MB of error lines that formatting can cut: a first puzzle, then a blank line after every
/// thousand `x` lines.
fn error_pieces() -> String {
    let puzzle =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let block = format!("{}\n", "x\n".repeat(999));
    format!("{puzzle}\n{}", block.repeat(8_000))
}

fn collection_text() -> String {
    if let Some(text) = common::sudoku17_text() {
        return text;
    }
    fast9::generate(10_000, 17)
        .iter()
        .map(|grid| {
            let mut line: String = grid
                .iter()
                .map(|&d| if d == 0 { '.' } else { (b'0' + d) as char })
                .collect();
            line.push('\n');
            line
        })
        .collect()
}
