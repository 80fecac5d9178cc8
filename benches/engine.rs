//! Criterion benchmarks of the general engine, the one every size and variant goes through and
//! the one hover and diagnostics ask for reasons: pencil marks and propagation with their
//! reasons on a 9×9, and a solution of the empty 16×16 and 25×25 grids (issue: well under a
//! second each). Then the verdict of large puzzles (up to two solutions, as `check` asks): with
//! one solution, with none through a wrong given, and the 25×25 whose row has 13 open cells
//! that can take only 12 digits (issue: decided in milliseconds, not by spending the budget).

#[path = "../tests/integration/grids/mod.rs"]
mod grids;

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use sudoku_lsp::engine::{pencil_marks, propagate, search, Budget};
use sudoku_lsp::grid::{geometry, Size, Variant};

/// The large puzzles with one solution of `tests/integration/engine.rs`: side, variant, grid.
const LARGE: &str = include_str!("../tests/integration/grids/large.txt");

const HARD: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

fn givens(line: &str) -> Vec<u8> {
    line.bytes()
        .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
        .collect()
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("engine");
    let nine = geometry(Size::NINE, Variant::Classic);
    let hard = givens(HARD);
    group.bench_function("pencil_marks_9x9", |b| {
        b.iter(|| pencil_marks(nine, black_box(&hard)))
    });
    group.bench_function("propagate_9x9", |b| {
        b.iter(|| propagate(nine, black_box(&hard)))
    });
    group.bench_function("search_9x9_hard_limit2", |b| {
        b.iter(|| search(nine, black_box(&hard), 2, &Budget::unlimited()))
    });
    for side in [16, 25] {
        let size = Size::from_side(side).expect("supported");
        let empty = vec![0; size.cells()];
        for variant in [Variant::Classic, Variant::Diagonal] {
            let g = geometry(size, variant);
            let name = format!("search_empty_{side}x{side}_{}", variant.name());
            group.bench_function(name, |b| {
                b.iter(|| search(g, black_box(&empty), 1, &Budget::unlimited()))
            });
        }
    }
    large_verdicts(&mut group);
    group.finish();
}

/// Up to two solutions of each large puzzle with one, of the same with a wrong given, and of the
/// issue's pigeonhole row.
fn large_verdicts(group: &mut criterion::BenchmarkGroup<criterion::measurement::WallTime>) {
    for line in LARGE.lines() {
        let mut fields = line.split_whitespace();
        let (Some(side), Some(variant), Some(grid)) = (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        let size = side.parse().ok().and_then(Size::from_side).expect("a size");
        let variant = Variant::parse(variant).expect("a variant");
        let g = geometry(size, variant);
        let unique = grids::grid_of(grid);
        let solution = search(g, &unique, 1, &Budget::unlimited()).solutions[0].clone();
        let broken = grids::wrong_given(g, &unique, &solution, 1).expect("a wrong given");
        let name = format!("{side}x{side}_{}", variant.name());
        for (what, givens) in [("unique", &unique), ("no_solution", &broken)] {
            group.bench_function(format!("verdict_{name}_{what}"), |b| {
                b.iter(|| search(g, black_box(givens), 2, &Budget::unlimited()))
            });
        }
    }
    let size = Size::from_side(25).expect("supported");
    let g = geometry(size, Variant::Classic);
    let (pigeonhole, _) = (1..)
        .filter_map(|seed| grids::pigeonhole_row(size, 20, seed))
        .find(|(givens, _)| grids::looks_fine(g, givens))
        .expect("a pigeonhole row");
    group.bench_function("verdict_25x25_pigeonhole_row", |b| {
        b.iter(|| search(g, black_box(&pigeonhole), 2, &Budget::unlimited()))
    });
}

criterion_group! {
    name = engine;
    config = Criterion::default().sample_size(20);
    targets = benches
}
criterion_main!(engine);
