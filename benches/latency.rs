//! `cargo bench --bench latency`: the editor's view of speed. Drives the real release binary over
//! stdio, as an editor would, and prints p50/p99 of: opening a 49,151-puzzle collection until its
//! diagnostics arrive, a one-character edit in it until the new diagnostics arrive, hover in it,
//! and the same edit and hover on a single 9×9 puzzle; the server's memory after opening the
//! collection, after the edits and hovers, and at its peak; and the server's own time for each
//! diagnostics run after an edit (from the log it writes with `SUDOKU_LSP_TIMING=1`); and the
//! document symbols (the outline) of `sudoku17.txt`, client side and the server's work alone,
//! skipped (said on stderr) without the shared data.
//!
//! `cargo bench --bench latency -- symbols` runs the outline part alone.
//!
//! The collection is `../shared/data/sudoku17.txt` when present, else puzzles the solver
//! generates (relabelled to make 49,151 different grids). Times are taken on the client side,
//! so they include the pipe and JSON both ways: the server's own share is smaller.
//!
//! Formatting is timed on `sudoku17.txt` itself (skipped, saying so, without it): the whole
//! document in the grid style, as it is (already formatted: no edits) and with `0` for its
//! empty cells (every line changes: 49,151 edits).
//!
//! Semantic tokens are timed on `sudoku17.txt` too (skipped, saying so, without it): the whole
//! document (`full`: until its frame is in and until it is parsed into `lsp_types`, by a client
//! of its own that keeps nothing, as an editor's), a screenful of 60 lines in its middle (`range`), and `full/delta` from the
//! previous result after a one-character edit, half right after it (the server waits for the
//! edit's analysis) and half once its diagnostics are in, each client side and, from the timing
//! log, the server's own work (building the tokens, not turning them into JSON and sending them).
//!
//! Workspace diagnostics are timed over 1,000 closed files of 49 puzzles each (the collection
//! cut up, in a temporary folder): a new server's first `workspace/diagnostic`, and one that
//! names every file's result id (nothing changed: each file costs a `stat`).
//!
//! Variant puzzles are timed one document each: every 9×9 of `puzzles/variants/` and of sigh's
//! showcase that maps fully onto `.sudoku` lines. On each, a one-character edit (a digit of the
//! solution written into an empty cell, then taken out) until its diagnostics arrive; hover on
//! empty cells and on constraint lines; completion at the end of a constraint line; the next
//! step (the code actions at an empty cell, *Apply next step* among them); and the picture
//! (`sudoku.render`). p50/p99 over all of them; with `LATENCY_EACH=1`, each puzzle's slowest.
//!
//! `cargo bench --bench latency -- formatting` (or `collection`, `small`, `symbols`, `tokens`,
//! `workspace`, `variants`) runs only that part.

#[path = "../tests/integration/common/mod.rs"]
mod common;
#[path = "common/showcase.rs"]
mod showcase;

use std::time::{Duration, Instant};

use common::Server;
use serde_json::{json, Value};
use sudoku_lsp::engine::fast9;
use sudoku_lsp::lsp::MAX_SYMBOLS;

const COLLECTION: usize = 49_151;
const EDITS: usize = 200;
/// Formatting requests timed on each text.
const FORMATS: usize = 20;

fn main() {
    // Words after `--` choose parts; cargo adds `--bench`, which chooses nothing.
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let wanted = |part: &str| only.is_empty() || only.iter().any(|o| o == part);
    if wanted("collection") {
        let collection = collection_text();
        println!(
            "collection: {} puzzles, {} bytes",
            collection.lines().count(),
            collection.len()
        );
        large_file(&collection);
    }
    if wanted("small") {
        small_file();
    }
    if wanted("formatting") {
        formatting();
    }
    if wanted("symbols") {
        outline();
    }
    if wanted("workspace") {
        workspace();
    }
    if wanted("tokens") {
        semantic_tokens();
    }
    if wanted("variants") {
        variant_puzzles();
    }
}

/// Samples of each kind taken on each variant puzzle.
const VARIANT_SAMPLES: usize = 6;

/// The 9×9 variant puzzles the editor is timed on: `puzzles/variants/` and sigh's showcase,
/// each a text of its own.
fn variant_texts() -> Vec<String> {
    let mut texts = Vec::new();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/variants");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    paths.sort();
    for path in paths {
        texts.extend(std::fs::read_to_string(path).ok());
    }
    let showcase = std::fs::read_to_string(showcase::SHOWCASE).unwrap_or_default();
    texts.extend(showcase::showcase_as_sudoku(&showcase).0);
    texts.retain(|text| {
        let document = sudoku_lsp::format::parse(text);
        matches!(&document.puzzles[..], [p] if p.size.side() == 9 && p.rules.is_some())
    });
    texts
}

/// The editor on variant 9×9 puzzles: edit → diagnostics, hover, completion, the next step and
/// the picture, p50/p99 over every puzzle.
fn variant_puzzles() {
    let texts = variant_texts();
    println!("variants: {} puzzles, one document each", texts.len());
    let mut server = spawn();
    // As VS Code and Neovim do: actions come without their edits, resolved when chosen.
    let mut capabilities = common::full_capabilities();
    capabilities["textDocument"]["codeAction"]["resolveSupport"] = json!({"properties": ["edit"]});
    server.initialize(capabilities);
    let names = [
        "edit → diagnostics",
        "hover on an empty cell",
        "hover on a constraint line",
        "completion on a constraint line",
        "next step (code actions at a cell)",
        "picture (sudoku.render)",
        "next step chosen (its edit resolved)",
    ];
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); names.len()];
    for (i, text) in texts.iter().enumerate() {
        let uri = format!("file:///bench/variant{i}.sudoku");
        server.open(&uri, 1, text);
        server.diagnostics(&uri, 1);
        for (kind, took) in time_variant(&mut server, &uri, text) {
            if std::env::var_os("LATENCY_EACH").is_some() {
                let slowest = took.iter().max().copied().unwrap_or_default();
                let title = text.lines().next().unwrap_or_default();
                println!("  {title}: {}: slowest {slowest:.2?}", names[kind]);
            }
            times[kind].extend(took);
        }
        server.close(&uri);
    }
    for (name, took) in names.iter().zip(&mut times) {
        report(&format!("variant 9×9: {name}"), took);
    }
    // The server's own share of each request, from its timing log: the rest of the figures
    // above is the way between the processes and the server's threads on a busy machine.
    for what in [
        "hover",
        "completion",
        "code action",
        "code action resolve",
        "render command",
    ] {
        let line = format!("{what} answered in");
        let mut own = server_side_times(&server, &line, "answered in ");
        report(
            &format!("variant 9×9: {what}, the server's own time"),
            &mut own,
        );
    }
    server.shutdown_and_exit();
}

/// The samples of each kind (in `variant_puzzles`' order) on one open variant puzzle.
fn time_variant(server: &mut Server, uri: &str, text: &str) -> Vec<(usize, Vec<Duration>)> {
    let document = sudoku_lsp::format::parse(text);
    let puzzle = &document.puzzles[0];
    let rules = puzzle.rules.as_deref().expect("a variant puzzle");
    let geometry = rules.geometry(puzzle.size, puzzle.variant);
    let found = sudoku_lsp::engine::variant::solve(
        &geometry,
        rules,
        &puzzle.givens,
        1,
        &sudoku_lsp::engine::Budget::unlimited(),
    );
    let solution = found.solutions.first().cloned().unwrap_or_default();
    let empty: Vec<usize> = (0..81).filter(|&c| puzzle.givens[c] == 0).collect();
    let at = |byte: usize| common::Enc::Utf16.position(text, byte);
    let cell_at = |k: usize| {
        let cell = empty[(k * 37) % empty.len()];
        (cell, puzzle.cell_spans.get(cell).expect("a cell's span"))
    };
    let mut times: Vec<(usize, Vec<Duration>)> = (0..7).map(|k| (k, Vec::new())).collect();
    let mut version = 1;
    for k in 0..VARIANT_SAMPLES * 2 {
        let (cell, span) = cell_at(k / 2);
        let digit = solution.get(cell).copied().unwrap_or(1);
        let new_text = if k % 2 == 0 {
            digit.to_string()
        } else {
            text[span.start..span.end].to_string()
        };
        let range = json!({"start": at(span.start), "end": at(span.end)});
        version += 1;
        let start = Instant::now();
        server.change(
            uri,
            version,
            vec![json!({"range": range, "text": new_text})],
        );
        server.diagnostics(uri, version);
        times[0].1.push(start.elapsed());
    }
    let constraint_lines: Vec<(usize, usize)> = text
        .lines()
        .scan(0, |offset, line| {
            let start = *offset;
            *offset += line.len() + 1;
            Some((start, line.len()))
        })
        .filter(|&(start, _)| {
            let line = &text[start..];
            line.contains(": ") && !line.starts_with('#')
        })
        .collect();
    for k in 0..VARIANT_SAMPLES {
        let (_, span) = cell_at(k);
        let start = Instant::now();
        let hover = server.hover(uri, at(span.start));
        times[1].1.push(start.elapsed());
        assert!(!hover.is_null(), "no hover on an empty cell of {uri}");
        if let Some(&(line, len)) = constraint_lines.get(k % constraint_lines.len().max(1)) {
            let start = Instant::now();
            server.hover(uri, at(line));
            times[2].1.push(start.elapsed());
            let params = json!({"textDocument": {"uri": uri}, "position": at(line + len)});
            let start = Instant::now();
            server.request("textDocument/completion", params);
            times[3].1.push(start.elapsed());
        }
        let start = Instant::now();
        let actions =
            server.code_actions(uri, json!({"start": at(span.start), "end": at(span.start)}));
        times[4].1.push(start.elapsed());
        if let Some(next) = common::titled(&actions, "Apply next step") {
            let start = Instant::now();
            let resolved = server.request("codeAction/resolve", next.clone());
            times[6].1.push(start.elapsed());
            assert!(resolved["result"]["edit"].is_object(), "{resolved}");
        }
        let params = json!({"command": "sudoku.render", "arguments": [{"uri": uri, "position": at(span.start)}]});
        let start = Instant::now();
        let picture = server.request("workspace/executeCommand", params);
        times[5].1.push(start.elapsed());
        assert!(
            picture.get("error").is_none(),
            "no picture of {uri}: {picture}"
        );
    }
    times
}

/// Workspace files, and puzzles in each, for the workspace diagnostics part.
const WORKSPACE_FILES: usize = 1_000;
const PUZZLES_PER_FILE: usize = 49;

/// Workspace diagnostics over 1,000 closed files of 49 puzzles each (the collection, cut up):
/// the first pull of a new server, and a pull that names every result id (nothing changed).
fn workspace() {
    let collection = collection_text();
    let lines: Vec<&str> = collection.lines().collect();
    let dir = tempfile::Builder::new()
        .prefix("workspace")
        .tempdir()
        .expect("a temporary folder");
    for (n, chunk) in lines
        .chunks(PUZZLES_PER_FILE)
        .take(WORKSPACE_FILES)
        .enumerate()
    {
        let folder = dir.path().join(format!("set{}", n / 100));
        std::fs::create_dir_all(&folder).expect("a folder");
        let text = chunk.join("\n") + "\n";
        std::fs::write(folder.join(format!("p{n}.sudoku")), text).expect("a file");
    }
    let label = format!("workspace of {WORKSPACE_FILES} files × {PUZZLES_PER_FILE} puzzles");
    let (mut first, mut again) = (Vec::new(), Vec::new());
    for _ in 0..5 {
        let mut server = spawn();
        let mut capabilities = common::full_capabilities();
        capabilities["textDocument"]["diagnostic"] = json!({});
        let params = json!({
            "processId": null,
            "capabilities": capabilities,
            "workspaceFolders": [{"uri": format!("file://{}", dir.path().display()), "name": "w"}],
        });
        server.request("initialize", params);
        server.notify("initialized", json!({}));
        let start = Instant::now();
        let response = server.request("workspace/diagnostic", json!({"previousResultIds": []}));
        first.push(start.elapsed());
        let items = response["result"]["items"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        assert_eq!(items.len(), WORKSPACE_FILES, "{response}");
        let ids: Vec<Value> = items
            .iter()
            .map(|item| json!({"uri": item["uri"], "value": item["resultId"]}))
            .collect();
        let start = Instant::now();
        server.request("workspace/diagnostic", json!({"previousResultIds": ids}));
        again.push(start.elapsed());
        server.shutdown_and_exit();
    }
    report(&format!("{label}: first workspace diagnostics"), &mut first);
    report(&format!("{label}: again, nothing changed"), &mut again);
}

/// Formatting `sudoku17.txt` in the grid style: as it is, then with `0` for empty cells.
const SUDOKU17_URI: &str = "file:///bench/sudoku17.sudoku";

/// A server initialized with `capabilities`, `sudoku17.txt` open in it at [`SUDOKU17_URI`] and
/// its diagnostics in, and the text; `None` (said on stderr, for `what`) without the shared data.
fn sudoku17_server(what: &str, capabilities: Value) -> Option<(Server, String)> {
    let Some(text) = common::sudoku17_text() else {
        common::say_skipped(&format!("{what} on sudoku17.txt: no ../shared/data"));
        return None;
    };
    let mut server = spawn();
    server.initialize(capabilities);
    server.open(SUDOKU17_URI, 1, &text);
    server.diagnostics(SUDOKU17_URI, 1);
    Some((server, text))
}

fn formatting() {
    let Some((mut server, text)) = sudoku17_server("formatting", common::full_capabilities())
    else {
        return;
    };
    let uri = SUDOKU17_URI;
    let zeros = text.replace('.', "0");
    for (version, label, body) in [(1, "as it is", &text), (2, "0 for empty cells", &zeros)] {
        if version > 1 {
            server.change(uri, version, vec![json!({"text": body})]);
            server.diagnostics(uri, version);
        }
        let mut times = Vec::new();
        let mut edits = 0;
        let skip = server_side_times(&server, "formatting answered", "answered in ").len();
        for _ in 0..FORMATS {
            let params = json!({"textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": true}});
            let start = Instant::now();
            let response = server.request("textDocument/formatting", params);
            times.push(start.elapsed());
            edits = response["result"].as_array().map_or(0, |e| e.len());
        }
        report(
            &format!("sudoku17.txt, {label}: formatting ({edits} edits)"),
            &mut times,
        );
        let mut own = server_side_times(&server, "formatting answered", "answered in ");
        report(
            &format!("sudoku17.txt, {label}: formatting, the server's work alone"),
            &mut own[skip..],
        );
    }
    server.shutdown_and_exit();
}

fn large_file(text: &str) {
    let uri = "file:///bench/collection.sudoku";
    let mut opens = Vec::new();
    let mut server_opens = Vec::new();
    let mut memory = (0, 0, 0);
    for round in 0..3 {
        let mut server = spawn();
        server.initialize(common::full_capabilities());
        let start = Instant::now();
        server.open(uri, 1, text);
        server.diagnostics(uri, 1);
        opens.push(start.elapsed());
        server_opens.extend(server_side_times(&server, "opened:", "checked in "));
        if round == 0 {
            let after_open = common::memory_kb(server.pid(), "VmRSS");
            edits_and_hovers(&mut server, uri, text, "collection");
            let after_edits = common::memory_kb(server.pid(), "VmRSS");
            memory = (
                after_open,
                after_edits,
                common::memory_kb(server.pid(), "VmHWM"),
            );
        }
        server.shutdown_and_exit();
    }
    // The same edits with the timing log off: what writing it costs.
    let mut server = Server::spawn();
    server.initialize(common::full_capabilities());
    server.open(uri, 1, text);
    server.diagnostics(uri, 1);
    let (mut quiet, _) = timed_edits(&mut server, uri, text, 1);
    report(
        "collection: one-character edit → diagnostics, no timing log",
        &mut quiet,
    );
    server.shutdown_and_exit();
    report("collection: open → all diagnostics", &mut opens);
    report(
        "collection: open, the server's parse and analysis alone",
        &mut server_opens,
    );
    let mb = |kb: u64| kb as f64 / 1024.0;
    println!(
        "collection: server memory {:.1} MB after open, {:.1} MB after the edits and hovers, \
         {:.1} MB at its peak",
        mb(memory.0),
        mb(memory.1),
        mb(memory.2)
    );
}

/// The release server, logging each diagnostics run's own time to stderr.
fn spawn() -> Server {
    Server::spawn_with(&[], &[("SUDOKU_LSP_TIMING", "1")])
}

/// The server's own times from its timing log: of the lines containing `kind`, the figure
/// after `took` (in ms).
fn server_side_times(server: &Server, kind: &str, took: &str) -> Vec<Duration> {
    // The log is read from the server's stderr by a thread of its own: let it catch up.
    std::thread::sleep(Duration::from_millis(100));
    server_side_times_in(&server.stderr(), kind, took)
}

/// The same, from a timing log's text.
fn server_side_times_in(log: &str, kind: &str, took: &str) -> Vec<Duration> {
    log.lines()
        .filter(|l| l.starts_with("sudoku-lsp timing:") && l.contains(kind))
        .filter_map(|l| l.rsplit(took).next()?.split(" ms").next()?.parse().ok())
        .map(|ms: f64| Duration::from_secs_f64(ms / 1000.0))
        .collect()
}

/// The CPU its thread spent on each piece of work of the timing log's lines containing `kind`
/// (the figure before `ms of CPU`): the work alone, whatever the machine's load made it wait.
fn server_cpu_in(log: &str, kind: &str) -> Vec<Duration> {
    log.lines()
        .filter(|l| l.starts_with("sudoku-lsp timing:") && l.contains(kind))
        .filter_map(|l| {
            let before = l.split(" ms of CPU").next()?;
            before.rsplit(['(', ' ']).next()?.parse().ok()
        })
        .map(|ms: f64| Duration::from_secs_f64(ms / 1000.0))
        .collect()
}

fn small_file() {
    let uri = "file:///bench/one.sudoku";
    let text = "# title: one\n4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
    let mut server = spawn();
    server.initialize(common::full_capabilities());
    server.open(uri, 1, text);
    server.diagnostics(uri, 1);
    edits_and_hovers(&mut server, uri, text, "9×9 file");
    server.shutdown_and_exit();
}

/// Alternately empty and restore a given of a puzzle spread through the file, waiting for each
/// version's diagnostics; then hover on cells. With the server's timing log, where each edit's
/// time went.
fn edits_and_hovers(server: &mut Server, uri: &str, text: &str, label: &str) {
    let (mut edits, moments) = timed_edits(server, uri, text, 1);
    report(
        &format!("{label}: one-character edit → diagnostics"),
        &mut edits,
    );
    report(
        &format!("{label}: one-character edit, the server's diagnostics run alone"),
        &mut server_side_times(server, "edited:", "checked in "),
    );
    report(
        &format!("{label}: one-character edit, the run's CPU"),
        &mut server_cpu_in(&server.stderr(), "edited:"),
    );
    report_ways(label, &server.stderr(), &moments);
    let puzzle_lines = puzzle_lines(text);
    let mut hovers = Vec::new();
    for i in 0..EDITS {
        let line = puzzle_lines[(i * 104_729) % puzzle_lines.len()];
        let start = Instant::now();
        let hover: Value = server.hover(uri, json!({"line": line, "character": i % 81}));
        hovers.push(start.elapsed());
        assert!(!hover.is_null(), "hover answered nothing on line {line}");
    }
    report(&format!("{label}: hover"), &mut hovers);
    report(
        &format!("{label}: hover, the server's work alone"),
        &mut server_side_times(server, "hover answered", "answered in "),
    );
}

/// The lines of `text` that are one-line puzzles.
fn puzzle_lines(text: &str) -> Vec<usize> {
    let lines: Vec<&str> = text.lines().collect();
    (0..lines.len())
        .filter(|&l| fast9::parse_line(lines[l].as_bytes()).is_some())
        .collect()
}

/// A version's moments on the client's side, by the wall clock (Unix nanoseconds): when its
/// edit was sent and when its diagnostics were in.
type Moments = Vec<(i64, u128, u128)>;

fn unix_ns() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos())
}

/// [`EDITS`] one-character edits, alternately emptying and restoring a given of a puzzle spread
/// through the file, each waited for until its diagnostics are in; the document is at
/// `version`. Their times, and each version's moments.
fn timed_edits(
    server: &mut Server,
    uri: &str,
    text: &str,
    mut version: i64,
) -> (Vec<Duration>, Moments) {
    let lines: Vec<&str> = text.lines().collect();
    let puzzle_lines = puzzle_lines(text);
    let (mut edits, mut moments) = (Vec::new(), Vec::new());
    for i in 0..EDITS {
        let line = puzzle_lines[(i / 2 * 7919) % puzzle_lines.len()];
        let column = lines[line]
            .bytes()
            .position(|b| b.is_ascii_digit() && b != b'0')
            .unwrap_or(0);
        let original = &lines[line][column..column + 1];
        let new_text = if i % 2 == 0 { "." } else { original };
        version += 1;
        let range = json!({"start": {"line": line, "character": column}, "end": {"line": line, "character": column + 1}});
        let (start, sent) = (Instant::now(), unix_ns());
        server.change(
            uri,
            version,
            vec![json!({"range": range, "text": new_text})],
        );
        server.diagnostics(uri, version);
        edits.push(start.elapsed());
        moments.push((version, sent, unix_ns()));
    }
    (edits, moments)
}

/// Where the edits' time went, from the server's timing log (`way of version …` and `publish
/// of version … written`) and the client's moments, all by the wall clock: from the client's
/// send to the server's `didChange` (the pipe, the frame read, tower-lsp-server's dispatch),
/// then each step of the run, then the writer, then the client's receipt (the pipe, its reader
/// thread's JSON parse). p50 and p99 of each.
fn report_ways(label: &str, log: &str, moments: &Moments) {
    let number = |line: &str, after: &str| -> Option<f64> {
        let rest = &line[line.find(after)? + after.len()..];
        let end = rest.find(|c: char| !(c.is_ascii_digit() || c == '.'))?;
        rest[..end].parse().ok()
    };
    let mut ways = std::collections::HashMap::new();
    let mut written = std::collections::HashMap::new();
    for line in log.lines() {
        if let Some(rest) = line.strip_prefix("sudoku-lsp timing: way of version ") {
            let version: i64 = rest[..rest.find(':').unwrap_or(0)].parse().unwrap_or(-1);
            let stages = [
                "received at ",
                "on a thread at ",
                "checked at ",
                "built at ",
                "back at ",
                "through the gate at ",
                "queued at ",
            ]
            .map(|after| number(line, after).unwrap_or(f64::NAN));
            ways.insert(version, stages);
        } else if let Some(rest) = line.strip_prefix("sudoku-lsp timing: publish of version ") {
            let version: i64 = rest[..rest.find(' ').unwrap_or(0)].parse().unwrap_or(-1);
            written.insert(version, number(line, "written at ").unwrap_or(f64::NAN));
        }
    }
    let names = [
        "client → didChange (pipe, frame read, dispatch)",
        "didChange → on a blocking thread",
        "the last run's result taken over, and the check",
        "diagnostics built",
        "back to the async side",
        "the publish gate",
        "delivered (queued to the writer)",
        "the writer (queued → written to stdout)",
        "stdout → the client's test harness has it",
    ];
    let mut parts: Vec<Vec<Duration>> = vec![Vec::new(); names.len()];
    for &(version, sent, got) in moments {
        let (Some(way), Some(&out)) = (ways.get(&version), written.get(&version)) else {
            continue;
        };
        let received = way[0];
        let ms = [
            (received - sent as f64) / 1e6,
            way[1],
            way[2] - way[1],
            way[3] - way[2],
            way[4] - way[3],
            way[5] - way[4],
            way[6] - way[5],
            (out - received) / 1e6 - way[6],
            (got as f64 - out) / 1e6,
        ];
        for (part, ms) in parts.iter_mut().zip(ms) {
            part.push(Duration::from_secs_f64(ms.max(0.0) / 1e3));
        }
    }
    for (name, part) in names.iter().zip(&mut parts) {
        report(&format!("{label}: edit → diagnostics, {name}"), part);
    }
}

fn report(what: &str, times: &mut [Duration]) {
    if times.is_empty() {
        println!("{what}: no samples");
        return;
    }
    times.sort();
    let at = |p: f64| times[((times.len() as f64 * p).ceil() as usize).clamp(1, times.len()) - 1];
    println!(
        "{what}: p50 {:.2} ms, p99 {:.2} ms ({} samples)",
        at(0.50).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        times.len()
    );
}

/// A memory figure of the process from `/proc/PID/status`, in kB: `VmRSS` (resident now) or
/// `VmHWM` (the most it has been).
fn collection_text() -> String {
    if let Some(text) = common::sudoku17_text() {
        return text;
    }
    println!("(no ../shared/data/sudoku17.txt: using generated puzzles)");
    let seeds = fast9::generate(1000, 17);
    let mut out = String::with_capacity(COLLECTION * 82);
    for i in 0..COLLECTION {
        // Relabel the digits of a generated puzzle: a different grid of the same difficulty.
        let shift = (i / seeds.len()) as u8;
        for &d in &seeds[i % seeds.len()] {
            out.push(if d == 0 {
                '.'
            } else {
                (b'0' + (d - 1 + shift) % 9 + 1) as char
            });
        }
        out.push('\n');
    }
    out
}

/// Document symbols of the real 49,151-puzzle file, once its diagnostics are in (a puzzle's
/// status comes from them): the editor's outline, breadcrumbs and "go to symbol". The first
/// `MAX_SYMBOLS` puzzles are listed, the rest as one symbol.
fn outline() {
    let mut capabilities = common::full_capabilities();
    capabilities["textDocument"]["documentSymbol"] =
        json!({"hierarchicalDocumentSymbolSupport": true});
    let Some((mut server, text)) = sudoku17_server("document symbols", capabilities) else {
        return;
    };
    let uri = SUDOKU17_URI;
    let mut times = Vec::new();
    for _ in 0..20 {
        let start = Instant::now();
        let response = server.request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": uri}}),
        );
        times.push(start.elapsed());
        let count = response["result"].as_array().map_or(0, Vec::len);
        // One a puzzle up to the bound, then one for the rest.
        let puzzles = text.lines().count();
        let expected = puzzles.min(MAX_SYMBOLS) + usize::from(puzzles > MAX_SYMBOLS);
        assert_eq!(count, expected, "symbols");
    }
    report("sudoku17.txt: document symbols", &mut times);
    report(
        "sudoku17.txt: document symbols, the server's work alone",
        &mut server_side_times(&server, "document symbols answered", "answered in "),
    );
    server.shutdown_and_exit();
}

/// Full requests timed on `sudoku17.txt`, and range requests.
const FULL_TOKENS: usize = 10;
/// Edits each followed by a delta request.
const TOKEN_EDITS: usize = 100;

/// `textDocument/semanticTokens/full` of `text`, timed by a client as lean as an editor's: the
/// shared test client parses every message into a `serde_json::Value` and keeps a copy in its
/// log, which for 7 million numbers costs seconds, so this one reads the frame and parses it
/// into `lsp_types::SemanticTokens`, as a Rust client (Helix) does. Until the frame is in, and
/// until it is parsed.
fn full_tokens(uri: &str, text: &str) {
    let mut client = BareClient::spawn();
    client.request(
        "initialize",
        json!({"processId": null, "capabilities": common::full_capabilities()}),
    );
    client.notify("initialized", json!({}));
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "sudoku", "version": 1, "text": text}}),
    );
    while !client
        .read()
        .starts_with(br#"{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics""#)
    {}
    let (mut arrived, mut parsed) = (Vec::new(), Vec::new());
    let mut count = 0;
    for _ in 0..FULL_TOKENS {
        let start = Instant::now();
        let body = client.request(
            "textDocument/semanticTokens/full",
            json!({"textDocument": {"uri": uri}}),
        );
        arrived.push(start.elapsed());
        let response: TokensResponse = serde_json::from_slice(&body).expect("semantic tokens");
        parsed.push(start.elapsed());
        count = response.result.data.len();
    }
    report(
        &format!("sudoku17.txt: semantic tokens, full ({count} tokens), until the frame is in"),
        &mut arrived,
    );
    report(
        "sudoku17.txt: semantic tokens, full, until parsed into lsp-types",
        &mut parsed,
    );
    let log = client.stderr();
    report(
        "sudoku17.txt: semantic tokens, full, the server's work alone",
        &mut server_side_times_in(&log, "semantic tokens answered", "answered in "),
    );
    report(
        "sudoku17.txt: semantic tokens, full, the server's work alone, its CPU",
        &mut server_cpu_in(&log, "semantic tokens answered"),
    );
}

#[derive(serde::Deserialize)]
struct TokensResponse {
    result: tower_lsp_server::lsp_types::SemanticTokens,
}

/// A client that keeps nothing: frames in and out as bytes.
struct BareClient {
    child: std::process::Child,
    input: std::process::ChildStdin,
    output: std::io::BufReader<std::process::ChildStdout>,
    /// The server's stderr (its timing log), in a file: a pipe nobody reads would fill.
    log: tempfile::NamedTempFile,
    next_id: i64,
}

impl BareClient {
    fn spawn() -> BareClient {
        use std::process::{Command, Stdio};
        let log = tempfile::NamedTempFile::new().expect("a temporary file");
        let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku-lsp"))
            .env("SUDOKU_LSP_TIMING", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(log.reopen().expect("the log file")))
            .spawn()
            .expect("the server starts");
        let input = child.stdin.take().unwrap();
        let output = std::io::BufReader::new(child.stdout.take().unwrap());
        BareClient {
            child,
            input,
            output,
            log,
            next_id: 1,
        }
    }

    fn send(&mut self, message: Value) {
        use std::io::Write;
        let body = message.to_string();
        write!(self.input, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.input.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Send a request; its response's body (messages before it are skipped).
    fn request(&mut self, method: &str, params: Value) -> Vec<u8> {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let tail = format!(",\"id\":{id}}}");
        loop {
            let body = self.read();
            if body.ends_with(tail.as_bytes()) && !body.starts_with(br#"{"jsonrpc":"2.0","method""#)
            {
                return body;
            }
        }
    }

    /// The next frame's body.
    fn read(&mut self) -> Vec<u8> {
        use std::io::{BufRead, Read};
        let mut length = 0;
        loop {
            let mut line = String::new();
            assert!(
                self.output.read_line(&mut line).unwrap() > 0,
                "the server hung up"
            );
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(value) = line.strip_prefix("Content-Length: ") {
                length = value.parse().unwrap();
            }
        }
        let mut body = vec![0; length];
        self.output.read_exact(&mut body).unwrap();
        body
    }

    /// Everything the server wrote to stderr, once it has exited.
    fn stderr(mut self) -> String {
        drop(self.input);
        let _ = self.child.kill();
        let _ = self.child.wait();
        std::fs::read_to_string(self.log.path()).unwrap_or_default()
    }
}

/// Semantic tokens of `sudoku17.txt`: the whole document, a 60-line screenful in its middle, and
/// a delta after each of a run of one-character edits spread through the file.
fn semantic_tokens() {
    // The whole array first, by its own server: no other server rating in the background.
    if let Some(text) = common::sudoku17_text() {
        full_tokens(SUDOKU17_URI, &text);
    }
    let Some((mut server, text)) = sudoku17_server("semantic tokens", common::full_capabilities())
    else {
        return;
    };
    let uri = SUDOKU17_URI;
    let doc = json!({"uri": uri});
    let response = server.request(
        "textDocument/semanticTokens/full",
        json!({"textDocument": doc}),
    );
    let mut result_id = response["result"]["resultId"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let lines: Vec<&str> = text.lines().collect();
    let middle = lines.len() / 2;
    let range = json!({"start": {"line": middle, "character": 0}, "end": {"line": middle + 60, "character": 0}});
    let mut times = Vec::new();
    for _ in 0..FULL_TOKENS * 10 {
        let start = Instant::now();
        let response = server.request(
            "textDocument/semanticTokens/range",
            json!({"textDocument": doc, "range": range}),
        );
        times.push(start.elapsed());
        assert!(response["result"]["data"]
            .as_array()
            .is_some_and(|d| !d.is_empty()));
    }
    report(
        "sudoku17.txt: semantic tokens, range of 60 lines",
        &mut times,
    );
    report(
        "sudoku17.txt: semantic tokens, range, the server's work alone",
        &mut server_side_times(&server, "semantic tokens (range) answered", "answered in "),
    );
    // Half the deltas are asked for right after the edit, as an editor does (they wait for the
    // edit's analysis), half once its diagnostics are in (the tokens' own cost).
    let (mut right_away, mut settled) = (Vec::new(), Vec::new());
    let mut version = 1;
    for i in 0..TOKEN_EDITS {
        // Alternately empty and restore the first given of a line spread through the file.
        let line = (i / 2 * 7919) % lines.len();
        let column = lines[line]
            .bytes()
            .position(|b| b.is_ascii_digit() && b != b'0')
            .unwrap_or(0);
        let new_text = if i % 2 == 0 {
            "."
        } else {
            &lines[line][column..column + 1]
        };
        version += 1;
        let range = json!({"start": {"line": line, "character": column}, "end": {"line": line, "character": column + 1}});
        server.change(
            uri,
            version,
            vec![json!({"range": range, "text": new_text})],
        );
        if i % 2 == 1 {
            server.diagnostics(uri, version);
        }
        let start = Instant::now();
        let response = server.request(
            "textDocument/semanticTokens/full/delta",
            json!({"textDocument": doc, "previousResultId": result_id}),
        );
        let times = if i % 2 == 0 {
            &mut right_away
        } else {
            &mut settled
        };
        times.push(start.elapsed());
        let result = &response["result"];
        assert!(
            result["edits"].is_array(),
            "a delta, not {}",
            &result.to_string()[..200.min(result.to_string().len())]
        );
        result_id = result["resultId"].as_str().unwrap_or_default().to_string();
        if i % 2 == 0 {
            server.diagnostics(uri, version);
        }
    }
    report(
        "sudoku17.txt: semantic tokens, delta right after a one-character edit",
        &mut right_away,
    );
    report(
        "sudoku17.txt: semantic tokens, delta after the edit's diagnostics",
        &mut settled,
    );
    report(
        "sudoku17.txt: semantic tokens, delta, the server's work alone",
        &mut server_side_times(&server, "semantic tokens (delta) answered", "answered in "),
    );
    server.shutdown_and_exit();
}
