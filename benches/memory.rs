//! `cargo bench --bench memory`: what the language server holds in memory. Drives the real
//! release binary over stdio and, for each input, opens it as a document, waits for its
//! diagnostics, closes it, waits for them to be cleared, and prints the server's resident memory
//! at the start, with the document open, at its peak (`VmHWM`), and after the close.
//!
//! The inputs are the ones that once made it use gigabytes: 100,000 and 1,000,000 lines of
//! `# title: x` (each line after the first is a "given twice" warning with related information,
//! and each one a metadata-with-no-puzzle warning), 20 MB of blank lines, and a collection of
//! one-line puzzles (`../shared/data/sudoku17.txt` when present, else generated ones). Each input
//! gets a server of its own, so each peak is that input's. `sudoku-lsp check` on the same text
//! gives the analysis's own share: what the server needs on top is the LSP's.
//! Linux only (it reads `/proc`).

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::{Duration, Instant};

use common::Server;
use serde_json::json;
use sudoku_lsp::engine::fast9;

/// An input: its name, and how to make its text.
type Input = (&'static str, fn() -> String);

fn main() {
    let inputs: [Input; 4] = [
        ("100,000 title lines", || "# title: x\n".repeat(100_000)),
        ("1,000,000 title lines", || "# title: x\n".repeat(1_000_000)),
        ("20 MB of blank lines", || "\n".repeat(20_000_000)),
        ("one-line puzzles", collection_text),
    ];
    println!(
        "{:<24} {:>8} {:>11} {:>8} {:>8} {:>8} {:>8} {:>11}",
        "input", "MB", "diagnostics", "seconds", "start", "open", "peak", "after close"
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
    server.close(uri);
    server.wait_for("the diagnostics cleared", |m| {
        m["method"] == "textDocument/publishDiagnostics" && m["params"]["diagnostics"] == json!([])
    });
    // The memory is given back on the blocking pool, just after the clearing is sent.
    std::thread::sleep(Duration::from_millis(500));
    let closed = memory_mb(pid, "VmRSS");
    let peak = memory_mb(pid, "VmHWM");
    println!(
        "{name:<24} {:>8.1} {published:>11} {seconds:>8.1} {start:>8.1} {open:>8.1} {peak:>8.1} {closed:>11.1}",
        text.len() as f64 / 1e6
    );
    server.shutdown_and_exit();
}

/// A process's memory in MB (see `common::memory_kb`).
fn memory_mb(pid: u32, field: &str) -> f64 {
    common::memory_kb(pid, field) as f64 / 1024.0
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
