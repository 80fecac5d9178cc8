//! Helpers the finders' tests share: pencil marks set by hand on an empty board, a finder's first
//! step, and random boards of every size whose every step can be checked against a solution.
//!
//! Solutions come from `engine::search`, so the logic layer's tests stay below `analysis`.

use super::{Board, Sink, Step};
use crate::engine::{search, Budget};
use crate::grid::{geometry, Geometry, Size, Variant};
use std::ops::ControlFlow;

/// Leaves `cell` exactly `digits`.
pub(crate) fn keep<const W: usize>(b: &mut Board<'_, W>, cell: usize, digits: &[u8]) {
    for d in b.candidates(cell).iter() {
        if !digits.contains(&d) {
            b.eliminate(cell, d);
        }
    }
}

/// Leaves `digit` in `unit` only in `cells`.
pub(crate) fn only_in<const W: usize>(
    b: &mut Board<'_, W>,
    digit: u8,
    unit: usize,
    cells: &[usize],
) {
    for c in b.unit(unit).iter() {
        if !cells.contains(&c) {
            b.eliminate(c, digit);
        }
    }
}

/// The cell by name, `A1` top left.
pub(crate) fn at<const W: usize>(b: &Board<'_, W>, name: &str) -> usize {
    (0..b.geo.cells())
        .find(|&c| b.geo.cell_name(c) == name)
        .expect("a cell of the grid")
}

/// "E5-3" for each elimination, in the step's order.
pub(crate) fn removed<const W: usize>(b: &Board<'_, W>, step: &Step) -> Vec<String> {
    step.eliminations
        .iter()
        .map(|e| format!("{}-{}", b.geo.cell_name(e.cell as usize), e.digit))
        .collect()
}

/// The cells the step's eliminations leave, by name, in the step's order.
pub(crate) fn cells_removed<const W: usize>(b: &Board<'_, W>, step: &Step) -> Vec<String> {
    step.eliminations
        .iter()
        .map(|e| b.geo.cell_name(e.cell as usize))
        .collect()
}

/// The first step `find` gives on `b`, if any.
pub(crate) fn first<const W: usize>(
    b: &Board<'_, W>,
    find: fn(&Board<'_, W>, &mut Sink) -> ControlFlow<()>,
) -> Option<Step> {
    let mut sink = Sink::first();
    let _ = find(b, &mut sink);
    sink.steps.pop()
}

/// The givens of a one-line 9×9 puzzle (its first 81 characters; anything but a digit is empty).
pub(crate) fn givens_of(line: &str) -> Vec<u8> {
    line.bytes()
        .take(81)
        .map(|c| if c.is_ascii_digit() { c - b'0' } else { 0 })
        .collect()
}

/// The puzzle's solution if it has exactly one.
pub(crate) fn unique_solution(geo: &Geometry, givens: &[u8]) -> Option<Vec<u8>> {
    let mut found = search(geo, givens, 2, &Budget::unlimited()).solutions;
    (found.len() == 1).then(|| found.remove(0))
}

/// The first solution the search finds, if any (an empty grid's is a full grid to cut puzzles
/// from).
pub(crate) fn any_solution(geo: &Geometry, givens: &[u8]) -> Option<Vec<u8>> {
    search(geo, givens, 1, &Budget::unlimited()).solutions.pop()
}

/// What a test does with each board `thinned_boards` makes.
pub(crate) trait OnBoard {
    fn board<const W: usize>(&mut self, b: &Board<'_, W>, solution: &[u8], what: &str);
}

/// Boards cut from a solved grid of every size up to 16×16, classic and diagonal: about a third
/// of the solution's digits as givens, then more than half of every empty cell's wrong
/// candidates struck off, so patterns abound and every step can be checked against the solution.
/// `boards(side)` says how many of each size; each size's time is printed.
pub(crate) fn thinned_boards(
    mut seed: u64,
    boards: impl Fn(usize) -> usize,
    on: &mut impl OnBoard,
) {
    // xorshift64: reproducible without a dependency.
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for size in Size::ALL
        .into_iter()
        .filter(|s| s.side() <= 16 && s.has_boxes())
    {
        for variant in [Variant::Classic, Variant::Diagonal] {
            let geo = geometry(size, variant);
            let empty = vec![0; geo.cells()];
            let Some(solution) = any_solution(geo, &empty) else {
                continue;
            };
            let what = format!("{} {variant:?}", size.label());
            let start = std::time::Instant::now();
            for _ in 0..boards(size.side()) {
                let givens: Vec<u8> = solution
                    .iter()
                    .map(|&d| if next() % 100 < 35 { d } else { 0 })
                    .collect();
                if geo.cells() <= 128 {
                    let mut b = Board::<2>::new(geo, &givens);
                    thin(&mut b, &solution, &mut next);
                    on.board(&b, &solution, &what);
                } else {
                    let mut b = Board::<10>::new(geo, &givens);
                    thin(&mut b, &solution, &mut next);
                    on.board(&b, &solution, &what);
                }
            }
            println!("{what}: {:?}", start.elapsed());
        }
    }
}

/// Strikes off each wrong candidate of each empty cell with a chance of 55%.
fn thin<const W: usize>(b: &mut Board<'_, W>, solution: &[u8], next: &mut impl FnMut() -> u64) {
    for cell in b.empty_cells().iter() {
        for d in b.candidates(cell).iter() {
            if d != solution[cell] && next() % 100 < 55 {
                b.eliminate(cell, d);
            }
        }
    }
}

/// Asserts that every placement of `steps` is the solution's digit and no elimination removes it.
pub(crate) fn assert_sound(steps: &[Step], solution: &[u8], what: &str) {
    for step in steps {
        for p in &step.placements {
            assert_eq!(solution[p.cell as usize], p.digit, "{what}: {}", step.text);
        }
        for e in &step.eliminations {
            assert_ne!(solution[e.cell as usize], e.digit, "{what}: {}", step.text);
        }
    }
}

/// The first `take` puzzle lines of the shared collection `file` (in `../shared/data` beside
/// the repository, three folders above this crate, or where `SUDOKU_SHARED_DATA` points), or `None` where it is missing: the
/// test then says `skipped: …` on the real stderr (a pass swallows the harness's prints) and
/// passes, unless `SUDOKU_LSP_REQUIRE_SHARED_DATA` is set (as CI sets it): then it fails.
pub(crate) fn shared_puzzles(file: &str, take: usize) -> Option<Vec<String>> {
    let folder = std::env::var_os("SUDOKU_SHARED_DATA").map_or_else(
        || format!("{}/../../../shared/data", env!("CARGO_MANIFEST_DIR")).into(),
        std::path::PathBuf::from,
    );
    let path = folder.join(file);
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(
            text.lines()
                .filter(|l| l.len() >= 81 && !l.starts_with('#'))
                .take(take)
                .map(str::to_string)
                .collect(),
        ),
        Err(e) => {
            let why = format!("cannot read {}: {e}", path.display());
            let required = "SUDOKU_LSP_REQUIRE_SHARED_DATA";
            assert!(
                std::env::var_os(required).is_none(),
                "{why}, and {required} is set"
            );
            use std::io::Write;
            let _ = writeln!(std::io::stderr(), "skipped: {why}");
            None
        }
    }
}

/// The one-line 9×9 puzzles shipped in `puzzles/collection.sudoku` (twenty, rated 1.2 to 7.1,
/// one of them needing forcing chains): what tests that walk many paths walk where the shared
/// collections are missing, so they never pass having compared nothing.
pub(crate) fn shipped_puzzles() -> Vec<&'static str> {
    include_str!("../../../../puzzles/collection.sudoku")
        .lines()
        .filter(|l| l.len() >= 81 && !l.starts_with('#'))
        .collect()
}

/// The shared collection's first `take` puzzles, or the shipped ones where it is missing (said
/// on stderr, as [`shared_puzzles`] says it).
pub(crate) fn puzzles_to_walk(file: &str, take: usize) -> Vec<String> {
    shared_puzzles(file, take).unwrap_or_else(|| {
        use std::io::Write;
        let _ = writeln!(std::io::stderr(), "  (walking the shipped puzzles instead)");
        shipped_puzzles().into_iter().map(str::to_string).collect()
    })
}
