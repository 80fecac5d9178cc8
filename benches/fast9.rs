//! Criterion benchmarks of the dedicated 9×9 solver: generated minimal puzzles (always), the
//! empty grid, and a sample of the shared hard sets when `../shared/data` (or
//! `SUDOKU_SHARED_DATA`) is present. Whole-file figures: `cargo bench --bench fast9_files`.

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sudoku_lsp::engine::fast9;

fn solve_all(puzzles: &[[u8; 81]], diagonal: bool) -> usize {
    puzzles
        .iter()
        .map(|p| fast9::solve(black_box(p), diagonal, 2, u64::MAX, None).count)
        .sum()
}

fn shared_sample(name: &str, step: usize) -> Option<Vec<[u8; 81]>> {
    let dir = std::env::var_os("SUDOKU_SHARED_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"));
    let text = std::fs::read_to_string(dir.join(name)).ok()?;
    Some(
        text.lines()
            .filter_map(|l| fast9::parse_line(l.as_bytes()))
            .step_by(step)
            .collect(),
    )
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("fast9");
    let generated = fast9::generate(200, 42);
    group.throughput(Throughput::Elements(generated.len() as u64));
    group.bench_function("generated_200_limit2", |b| {
        b.iter(|| solve_all(&generated, false))
    });
    group.throughput(Throughput::Elements(1));
    group.bench_function("empty_grid_limit2", |b| {
        b.iter(|| solve_all(&[[0; 81]], false))
    });
    group.bench_function("empty_diagonal_grid_limit2", |b| {
        b.iter(|| solve_all(&[[0; 81]], true))
    });
    for (name, step) in [("top1465.txt", 10), ("forum_hardest_1106.txt", 5)] {
        match shared_sample(name, step) {
            Some(sample) => {
                group.throughput(Throughput::Elements(sample.len() as u64));
                group.bench_function(format!("{name}_every_{step}th"), |b| {
                    b.iter(|| solve_all(&sample, false))
                });
            }
            None => eprintln!("skipped {name}: no shared data"),
        }
    }
    group.finish();
}

criterion_group!(fast9_benches, benches);
criterion_main!(fast9_benches);
