//! `cargo bench --bench variants -- [PATH]...`: the variant engine on whole puzzle files, as
//! sigh's Interactive Sudoku Solver's `tools/perf/benchmark_puzzles.js` measures its own:
//! counting to two solutions (proving a unique one unique), one thread, each puzzle timed
//! until a tenth of a second has passed (at most 20 times, at least 3) and its fastest run
//! kept. Prints each puzzle's time and nodes, then the sum, the median and the slowest.
//!
//! A path is a `.sudoku` file, a `.txt` file of 81-character killers (one a line, `#`
//! comments), as `benches/data/tarek_killers.txt`, sigh's TAREK_ALL set, or a file of
//! `name:` / `input:` / `solution:` lines, as sigh's showcase puzzles in
//! `crates/core/src/convert/sigh/showcase.txt`, whose inputs (sigh constraint strings) are
//! imported and timed when they map fully onto `.sudoku` lines (the rest are skipped, and
//! counted); with no path, the killers, the showcase and `puzzles/variants/`. Arguments
//! starting with `--` (cargo passes `--bench`) are ignored. `benches/side_by_side.sh` runs
//! this and sigh's benchmark one after the other.

#[path = "common/showcase.rs"]
mod showcase;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use sudoku_lsp::convert::classic::{self, Format};
use sudoku_lsp::engine::{variant, Budget};
use sudoku_lsp::format::parse;

/// How long each puzzle is timed for, and how often at most and at least.
const TIME_EACH: Duration = Duration::from_millis(100);
const MOST_RUNS: usize = 20;
const LEAST_RUNS: usize = 3;

fn main() {
    let mut paths: Vec<PathBuf> = std::env::args_os()
        .skip(1)
        .filter(|a| !a.to_string_lossy().starts_with("--"))
        .map(Into::into)
        .collect();
    if paths.is_empty() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        paths.push(root.join("benches/data/tarek_killers.txt"));
        paths.push(showcase::SHOWCASE.into());
        paths.push(root.join("puzzles/variants"));
    }
    let mut failed = false;
    for path in &paths {
        if let Err(message) = bench_path(path) {
            eprintln!("variants: {}: {message}", path.display());
            failed = true;
        }
    }
    std::process::exit(i32::from(failed));
}

/// Every puzzle of a file, or of each `.sudoku` file of a folder.
fn bench_path(path: &Path) -> Result<(), String> {
    let mut files: Vec<PathBuf> = if path.is_dir() {
        std::fs::read_dir(path)
            .map_err(|e| e.to_string())?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "sudoku"))
            .collect()
    } else {
        vec![path.to_path_buf()]
    };
    files.sort();
    let mut times = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).map_err(|e| e.to_string())?;
        let text = match file.extension().is_some_and(|x| x == "txt") {
            true if text.lines().any(|l| l.starts_with("input: ")) => showcase_as_sudoku(&text),
            true => killers_as_sudoku(&text)?,
            false => text,
        };
        times.extend(bench_text(&file.display().to_string(), &text)?);
    }
    summarise(&path.display().to_string(), &mut times);
    Ok(())
}

/// 81-character killers, one a line, as `.sudoku` text.
fn killers_as_sudoku(text: &str) -> Result<String, String> {
    let lines: String = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| format!("{l}\n"))
        .collect();
    let mut out = String::new();
    for piece in classic::import(&lines, Format::ShortKiller) {
        let imported = piece
            .result
            .map_err(|e| format!("line {}: {e}", piece.line))?;
        out.push_str(&imported.text);
        out.push('\n');
    }
    Ok(out)
}

/// The showcase's puzzles that map fully onto `.sudoku` lines, as one text; says on stderr how
/// many were left out.
fn showcase_as_sudoku(text: &str) -> String {
    let (puzzles, left_out) = showcase::showcase_as_sudoku(text);
    eprintln!(
        "variants: {left_out} showcase puzzles do not map fully onto .sudoku lines: left out"
    );
    puzzles.concat()
}

/// Each puzzle's fastest run.
fn bench_text(name: &str, text: &str) -> Result<Vec<Duration>, String> {
    let document = parse(text);
    let mut times = Vec::new();
    for (index, puzzle) in document.puzzles.iter().enumerate() {
        let Some(rules) = &puzzle.rules else {
            continue; // a classic puzzle: `bench` times those
        };
        let geometry = rules.geometry(puzzle.size, puzzle.variant);
        let (mut best, mut runs, started) = (Duration::MAX, 0, Instant::now());
        let mut outcome = None;
        while runs < LEAST_RUNS || (runs < MOST_RUNS && started.elapsed() < TIME_EACH) {
            let t = Instant::now();
            let found = variant::solve(&geometry, rules, &puzzle.givens, 2, &Budget::unlimited());
            best = best.min(t.elapsed());
            runs += 1;
            outcome = Some(found);
        }
        let outcome = outcome.ok_or("no run")?;
        let verdict = match outcome.solutions.len() {
            0 => "none",
            1 => "unique",
            _ => "several",
        };
        let title = puzzle
            .meta
            .title
            .as_ref()
            .map(|t| format!(" ({})", t.value))
            .unwrap_or_default();
        println!(
            "{name} #{}{title}: {:.2} ms, {verdict}, {} nodes",
            index + 1,
            best.as_secs_f64() * 1e3,
            outcome.nodes
        );
        times.push(best);
    }
    Ok(times)
}

fn summarise(name: &str, times: &mut [Duration]) {
    if times.is_empty() {
        println!("{name}: no variant puzzles");
        return;
    }
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let total: Duration = times.iter().sum();
    println!(
        "{name}: {} puzzles, {:.1} ms in all, median {:.2} ms, slowest {:.1} ms",
        times.len(),
        ms(total),
        ms(times[times.len() / 2]),
        ms(times[times.len() - 1])
    );
}
