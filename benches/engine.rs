//! Criterion benchmarks of the general engine, the one every size and variant goes through and
//! the one hover and diagnostics ask for reasons: pencil marks and propagation with their
//! reasons on a 9×9, and a solution of the empty 16×16 and 25×25 grids (issue: well under a
//! second each).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use sudoku_lsp::engine::{pencil_marks, propagate, search, Budget};
use sudoku_lsp::grid::{geometry, Size, Variant};

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
    group.finish();
}

criterion_group! {
    name = engine;
    config = Criterion::default().sample_size(20);
    targets = benches
}
criterion_main!(engine);
