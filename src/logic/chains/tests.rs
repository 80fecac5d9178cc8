use super::*;
use crate::analysis::analyze;
use crate::grid::{geometry, Size, Variant};
use crate::logic::{solve_path, Outcome};

fn givens(line: &str) -> Vec<u8> {
    line.bytes()
        .take(81)
        .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
        .collect()
}

fn solution(size: Size, variant: Variant, givens: &[u8]) -> Vec<u8> {
    analyze(size, variant, givens, &Budget::unlimited())
        .verdict
        .solution()
        .expect("a solution")
        .to_vec()
}

/// Walks the whole path and checks every step against the solution.
fn check_path(size: Size, variant: Variant, givens: &[u8]) -> Vec<Technique> {
    let geo = geometry(size, variant);
    let solution = solution(size, variant, givens);
    let path = solve_path(geo, givens, &Budget::unlimited());
    for step in &path.steps {
        for p in &step.placements {
            assert_eq!(solution[p.cell as usize], p.digit, "{}", step.text);
        }
        for e in &step.eliminations {
            assert_ne!(solution[e.cell as usize], e.digit, "{}", step.text);
        }
    }
    assert_eq!(path.outcome, Outcome::Solved);
    path.steps.iter().map(|s| s.technique).collect()
}

#[allow(dead_code)]
fn first_hint(line: &str, kind: Chaining) -> Option<Step> {
    let geo = geometry(Size::NINE, Variant::Classic);
    let board = Board::<2>::new(geo, &givens(line));
    let mut sink = Sink::first();
    let _ = find(&board, kind, &Budget::unlimited(), &mut sink);
    sink.steps.pop()
}

#[test]
fn length_increments_follow_the_thresholds() {
    let tenth = |c| tenths(6.5 + length_difficulty(c)).0;
    assert_eq!(tenth(4), 65);
    assert_eq!(tenth(6), 65);
    assert_eq!(tenth(7), 66);
    assert_eq!(tenth(10), 67);
    assert_eq!(tenth(11), 68);
    assert_eq!(tenth(14), 68);
    assert_eq!(tenth(15), 69);
    assert_eq!(tenth(18), 69);
    assert_eq!(tenth(19), 70);
}

fn hard_puzzles(file: &str, take: usize) -> Vec<String> {
    let path = format!("/work/shared/data/{file}");
    match std::fs::read_to_string(&path) {
        Ok(text) => text
            .lines()
            .filter(|l| l.len() >= 81)
            .take(take)
            .map(str::to_string)
            .collect(),
        Err(_) => {
            eprintln!("skipped: {path} is missing");
            Vec::new()
        }
    }
}

#[test]
fn paths_through_hard_puzzles_are_sound() {
    let count = if cfg!(debug_assertions) { 6 } else { 300 };
    for line in hard_puzzles("top95.txt", count) {
        check_path(Size::NINE, Variant::Classic, &givens(&line));
    }
}

#[test]
#[ignore = "slow: a few hundred hard puzzles (run with --release --ignored)"]
fn many_paths_are_sound() {
    let mut puzzles = hard_puzzles("top95.txt", 95);
    puzzles.extend(hard_puzzles("top1465.txt", 300));
    puzzles.extend(hard_puzzles("forum_hardest_1106.txt", 100));
    for line in puzzles {
        check_path(Size::NINE, Variant::Classic, &givens(&line));
    }
}

/// Writes, for each chaining step on the paths of the puzzles in `$CHAIN_DUMP_IN`, the grid before
/// it as 729 pencil marks (for Sudoku Explainer's rater) with our step, to `$CHAIN_DUMP_OUT`.
#[test]
#[ignore = "a tool: compares single steps with Sudoku Explainer"]
fn dump_chain_states() {
    use crate::logic::next_step;
    let (Ok(input), Ok(output)) = (
        std::env::var("CHAIN_DUMP_IN"),
        std::env::var("CHAIN_DUMP_OUT"),
    ) else {
        return;
    };
    let geo = geometry(Size::NINE, Variant::Classic);
    let mut out = String::new();
    for line in std::fs::read_to_string(input).unwrap().lines() {
        if line.len() < 81 {
            continue;
        }
        let mut board = Board::<2>::new(geo, &givens(line));
        while !board.is_solved() {
            let Some(step) = next_step(&board) else { break };
            if step.difficulty.0 >= 65 {
                let mut marks = String::new();
                for cell in 0..81 {
                    for d in 1..=9u8 {
                        let on = board.value(cell) == d || board.has(cell, d);
                        marks.push(if on { (b'0' + d) as char } else { '.' });
                    }
                }
                out.push_str(&format!("{marks} {} {}\n", step.difficulty, step.technique));
            }
            board.apply(&step);
        }
    }
    std::fs::write(output, out).unwrap();
}
