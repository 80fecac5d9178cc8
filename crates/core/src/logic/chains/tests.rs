use super::hint::length_difficulty;
use super::*;
use crate::grid::{geometry, Size, Variant};
use crate::logic::fixtures::{
    any_solution, assert_sound, givens_of, puzzles_to_walk, shared_puzzles, unique_solution,
};
use crate::logic::{solve_path, Outcome};

/// Walks the whole path and checks every step against the solution.
fn check_path(size: Size, variant: Variant, givens: &[u8]) -> Vec<Technique> {
    let geo = geometry(size, variant);
    let solution = unique_solution(geo, givens).expect("a unique solution");
    let path = solve_path(geo, givens, &Budget::unlimited());
    assert_sound(&path.steps, &solution, "");
    assert_eq!(path.outcome, Outcome::Solved);
    path.steps.iter().map(|s| s.technique).collect()
}

#[allow(dead_code)]
fn first_hint(line: &str, kind: Chaining) -> Option<Step> {
    let geo = geometry(Size::NINE, Variant::Classic);
    let board = Board::<2>::new(geo, &givens_of(line));
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

#[test]
fn paths_through_hard_puzzles_are_sound() {
    let count = if cfg!(debug_assertions) { 6 } else { 300 };
    for line in puzzles_to_walk("top95.txt", count) {
        check_path(Size::NINE, Variant::Classic, &givens_of(&line));
    }
}

#[test]
#[ignore = "slow: a few hundred hard puzzles (run with --release --ignored)"]
fn many_paths_are_sound() {
    let mut puzzles = puzzles_to_walk("top95.txt", 95);
    puzzles.extend(shared_puzzles("top1465.txt", 300).unwrap_or_default());
    puzzles.extend(shared_puzzles("forum_hardest_1106.txt", 20).unwrap_or_default());
    for line in puzzles {
        check_path(Size::NINE, Variant::Classic, &givens_of(&line));
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
        let mut board = Board::<2>::new(geo, &givens_of(line));
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

/// Grids (as 729 pencil marks, Sudoku Explainer's format) whose next step is a chaining
/// technique, with the producer, the difficulty in tenths and the name Sudoku Explainer gives.
const STATES: &[(&str, Chaining, u16, &str)] = &[
    // Forcing Chain, 7.1 (as Sudoku Explainer rates this grid)
    (
        ".....6....2..5.7..1.........2....7.9.2.45...9......7.9...4..7.9..3.............8....45.7....3.5.7....345...........8.1.3.5...91.3..67.9.2.......1...567......567.9........9.23.5.7.........8.123..67..12345....1.3..67..1..4.67..1..4567.....4567..12..........4...........7..123.....9123....891.3....89....5....12...6....23..6..912..5..8.1.3.56..9.23.56..9123.....9......7.....45....1.34....912.4...8..234....912..5..8.1.3.5...9.23.5...9123.....9.....6......45....1.34..7.912.4..78..234..7.91..4..7.........8....4.6..9....5....1.3.....9.2.........34.67.....4.67....34.67....3..........567.9.2.456..9.....67.9.......89.....6789...4.678..2..5....1........12..5.7..1...567...2..56......4.....1.3....8.1.3..678...3..678.........9.2..5....",
        Chaining::Cycles,
        71,
        "Forcing Chain",
    ),
    // Region Forcing Chains, 8.4 (as Sudoku Explainer rates this grid)
    (
        ".....6....2..5.7..1.........2....7.9.2.45...9......7.9...4..7.9..3.............8....4..7....3.5.7....345...........8.1.3.5...91.3..67.9.2.......1...567......567.9........9.23.5.7.........8.123..67....345....1.3..67..1..4.67..1..4567.....4567..12..........4...........7..123.....9123....891.3....89....5....1....6....23..6..912..5..8.1.3.56..9.23.56..9123.....9......7.....45....1.34....912.4...8..234....912..5..8.1.3.5...9.23.5...9123.....9.....6......45....1.34..7.912.4..78..234..7.91..4..7.........8......6..9....5....1.3.....9.2.........34.67.....4.67....34.67....3..........567.9.2.45.........67.9.......89.....6789...4.678..2..5....1........12..5.7..1....67...2..56......4.....1.3....8.1.3..678...3..678.........9.2..5....",
        Chaining::Multiple,
        84,
        "Region Forcing Chains",
    ),
    // Dynamic Cell Forcing Chains, 8.9 (as Sudoku Explainer rates this grid)
    (
        "...4.6.8...3..6.89..3..6..9...456......4.67.....45.7..1.........2.........34..78.....5..........78.1..4.......3......1..4......2............6...........9......78.12.4.6....23..67...23..6..........8.1..4.67..........9..3.5.7....345.7....345.7..1..4.........5....1..4....91..4....9.2.........3....8...3...78......6.....3...7....3.......2...6..9.......8.1..4.6..9...4.67.91.....7...2..5...9...45....12.45..........7...2...6..912.4.6..91..4.6..9....5......3....8...3....89..34...8.1234......2.....891............5.....2......9..3....89.....6......4.......3...78..23...7...2...6.8..23..6.8..23..6.........7.....4...8.1..45.....2..5..8.1...5..8.........9.2.....89...4...........7..12..5...9..3....891...5.....23.5..8.1.3.5..8......6...",
        Chaining::Dynamic,
        89,
        "Dynamic Cell Forcing Chains",
    ),
    // Dynamic Region Forcing Chains, 9.0 (as Sudoku Explainer rates this grid)
    (
        "....5.......4.678.1..4.6.89.2.......1....6..91.....7.9..3......1.....78.1..4..7..1.34.......34.67..1.34.6.......567.........8.1...5.7..12..5.7..........912.45.7..1......89......78..2...........5.7.9..3.........4.....1...5.78.1...5.78......6........6....2345..8...34...8.1.........2.45.....2..5.78.........9..3.5.7...23.5.7...23....891..........3....89....5678..2..56..9.2..5.789.2..567.....4......23.5.7...2.4....9.2.45..........7.....456..9.2.456..9..3......12..56...1...56..........8.......7...2...6.8.1....6.8...3......12..5...912..5..89...4.....1...56.8.1...5....1.34...8.........91.34.6.8....45..8.......7..1...5..8.1...56.8..2.......1.3.5....1234...8..234...8.....5.......4...8.12.4..........6...1.....78.1.3...78.........9",
        Chaining::Dynamic,
        90,
        "Dynamic Region Forcing Chains",
    ),
    // Dynamic Contradiction Forcing Chains, 9.2 (as Sudoku Explainer rates this grid)
    (
        "....5.......4.678.1..4.6.89.2.......1....6..91.....7.9..3......1.....78....4..7..1.34.......34.67..1.34.6.......567.........8.1...5.7..12..5.7..........912.45.7..1......89......78..2...........5.7.9..3.........4.....1...5.78.1...5.78......6........6....2345..8...34...8.1.........2.45.....2....78.........9..3.5.7...23.5.7...23....891..........3....89.....678..2..56..9.2....789.2..567.....4......23.5.7...2.4....9.2.45..........7.....456..9.2.456..9..3......12..56...1...56..........8.......7...2...6.8.1....6.8...3......12..5...912..5..89...4.....1...56.8.1...5....1.34...8.........91.34.6.8....45..8.......7..1...5..8.1...56.8..2.......1.3.5....1234...8..234...8.....5.......4...8.12.4..........6...1.....78.1.3...78.........9",
        Chaining::Dynamic,
        92,
        "Dynamic Contradiction Forcing Chains",
    ),
    // Cell Forcing Chains, 8.3 (as Sudoku Explainer rates this grid)
    (
        "....5.......4.678.1....6.89.2.......1....6..91.....7.9..3............78....4..7..1.34.......34.67..1.34.........567.........8.1.....7...2..5............912.45....1......89......78..2...........5...9..3.........4.....1...5.78.1...5.78......6........6....2345......34.....1.........2.45...........8.........9..3.5.7...2....7....3....891..........3....89.....67...2..56....2....7.9.2..56......4......23.5.....2.4....9.2.45..........7.......6..9...456..9..3......12..56...1...56..........8.......7...2...6.8.1....6.8...3......12......912..5...9...4.........56.8.1...5....1.34.............91.34.6.8....4...8.......7..1...5....1....6.8..2.......1.3.5....12.4......234.........5.......4...8.12............6.........78...3...78.........9",
        Chaining::Multiple,
        83,
        "Cell Forcing Chains",
    ),
    // Nishio Forcing Chains, 7.8 (as Sudoku Explainer rates this grid)
    (
        "...4......2..5.7.9.2..5.7.9.....6...1.......91...5..8...3.......2..5.789.2.....89..3...7..1..........3.5.7.9..345...9.2.........345..8....4..789.....6......4...89.23..6....2..56..9.......8...345...9..34....9......7...2.4....9.2..5...91................9.2...67..123..67.........8.1.34.67..1.34.6.......5.....23.......234.6....23..678....4......23..67....3...7.9....5......3..6....2.....891.........23..6.891.3..6.8.....56.8.1.3.56...1.34....91.34.6..9.2..........4...89..3....89......7......5.....2....78912.4..7.91234..7..1.34..7..1.34..........6....23...789.23....8912...67....3......12...67.912..5.7.........8.....56...12....7.9...4......2......912...678..2...678.12.4.67..1234..7..1.34.67..........912....78..23...78.....5....",
        Chaining::Nishio,
        78,
        "Nishio Forcing Chains",
    ),
    // Bidirectional Cycle, 7.2 (as Sudoku Explainer rates this grid)
    (
        "...4......2......9.2..5.7.......6...1............5..8...3............789.......89..3...7..1..........3.5.7....3.....9.2...........5..8....4..789.....6......4...89..3..6........6..9.......8...34....9..34....9......7...2...........5....1................9......7..1.3..6..........8....4.6...1..4.........5.....2.........34.6....2.....8....4......2...6.........7......5......3.............891.............6.891.3....8.....5....1.3..6...1..4....9...4.6..9.2..........4...8...3....8.......7......5...........8.12....7..12.........34..7..1..4..........6.....3...7.9..3.....91.....7....3..............9....5...........8......6...1.....7.....4......2........2...67...2...6......4.....123........3...7..........91.....78...3...78.....5....",
        Chaining::Cycles,
        72,
        "Bidirectional Cycle",
    ),
    // Bidirectional Y-Cycle, 6.8 (not checked with Sudoku Explainer)
    (
        ".....6....2..5....1.........2....7.....45..........7.9...4..7.9..3.............8....4..7....3...7.....45...........8...3.....91.3..67.9.2.......1...5.7......56..9........9.23.5.7.........8..2...67.....45....1.3..67..1....67..1..45.7.....4.67..1...........4...........7....3.....9.2..............8.....5.........6.....3.....9.2..5..8......6....23.5....1.3.....9......7.....45....1.3.....912.4...8..234....9.2..5..8.........9.23.5....1.3...........6......45....1.3...7..12.4..78..234..7.....4..7.........8.........9....5....1.........2.........3..6......4..7....3..6.....3..........5.7...2.45.........67.........89.....67.9...4..78..2..5....1.........2..5....1.............6......4.......3....8...3...7........78.........9.2..5....",
        Chaining::Cycles,
        68,
        "Bidirectional Y-Cycle",
    ),
    // Turbot Fish, 6.6 (not checked with Sudoku Explainer)
    (
        "........9.2..........4.6.......56.........7....3......1...............8....45......3...78.....5....1................9...4......2.....8......6....23.......23...7....3...78....4.6.........78.....56...1.........2.....8..23...7.9...45.....23...7.9....5..8...3...........6.89.2...........5...9......7.....4.....1....6..91....6.8.1...............89.2....789...4.......3.....9.....6.......5.....23.....9.23...78.....5.7.....4.6....2.4.67.9.......8...3.5...91.........23...7...23..6..9.23..67...2.......1...............89..3...........6......45...........89......7.....45.......4...........78.....5....1.....7...2.....8.........9.23....8.123..6...123..6........6.........789..3......1.....7...2.....8....45.....2.....89...45....12......9",
        Chaining::Cycles,
        66,
        "Turbot Fish",
    ),
    // Forcing X-Chain, 6.8 (not checked with Sudoku Explainer)
    (
        "....5.......4..78...3......12...............912.4..7...2.4...8..2.4.6.8..2.4.6.8......6.8....4...89...4.6.89.23.5......345..8..2345..........7...2.4...891.........2..........4..7891.............6......4..78....4..7....3.5.......4...89..3.5.......4.......3....89.......891.3.......2............6...1.3....8.....5..........7........7..1.........2..5...........8...345......345...9.234....9.2.4.6....234.6.....3....8......6....2..5..........7..1.345....1.345...91234...8912.4...8..234...8.1.3.......23.5..........7.....4.....1.3.5...........8......6...12...............91....6.8..2.45..8....4.6.8.........91...567..12..5.7..12.45..8...3.......2.45..8.........9.2345..8....4.6.8.123.5....1.3.56...123.5....12.45..8.......7...2.45..8.",
        Chaining::Cycles,
        68,
        "Forcing X-Chain",
    ),
];

fn board_of_marks(marks: &str) -> Board<'static, 2> {
    let geo = geometry(Size::NINE, Variant::Classic);
    let m = marks.as_bytes();
    let has = |c: usize, d: u8| m[c * 9 + d as usize - 1] != b'.';
    let mut board = Board::<2>::new(geo, &[0; 81]);
    for c in 0..81 {
        let ds: Vec<u8> = (1..=9).filter(|&d| has(c, d)).collect();
        if let [d] = ds[..] {
            if board.peers(c).iter().all(|p| !has(p, d)) {
                board.place(c, d);
            }
        }
    }
    for c in 0..81 {
        if board.value(c) == 0 {
            for d in 1..=9 {
                if !has(c, d) {
                    board.eliminate(c, d);
                }
            }
        }
    }
    board
}

#[test]
fn each_producer_finds_its_step() {
    for &(marks, kind, tenths, name) in STATES {
        let board = board_of_marks(marks);
        let mut sink = Sink::first();
        let _ = find(&board, kind, &Budget::unlimited(), &mut sink);
        let step = sink.steps.pop().expect("a step");
        assert_eq!(
            (step.difficulty.0, step.technique.name()),
            (tenths, name),
            "{}",
            step.text
        );
    }
}

/// Steps of `kind` on a grid made from a full solution with some cells blanked: there are some,
/// and every one agrees with that solution (a sound deduction holds in every solution).
fn chains_on<const W: usize>(size: Size, variant: Variant, keep: usize, kind: Chaining) {
    let geo = geometry(size, variant);
    let full = any_solution(geo, &vec![0; geo.cells()]).expect("a full grid");
    let givens: Vec<u8> = full
        .iter()
        .enumerate()
        .map(|(i, &d)| if (i * 7919 + 13) % 100 < keep { d } else { 0 })
        .collect();
    let board = Board::<W>::new(geo, &givens);
    let mut sink = Sink::all();
    let _ = find(&board, kind, &Budget::unlimited(), &mut sink);
    assert!(
        !sink.steps.is_empty(),
        "no {kind:?} step on {size:?} {variant:?}"
    );
    assert_sound(&sink.steps, &full, &format!("{size:?} {variant:?}"));
}

#[test]
fn chains_work_on_a_diagonal_grid() {
    let size = Size::NINE;
    chains_on::<2>(size, Variant::Diagonal, 30, Chaining::Cycles);
    chains_on::<2>(size, Variant::Diagonal, 30, Chaining::Dynamic);
}

#[test]
fn chains_work_on_a_16_by_16_grid() {
    let size = Size::ALL.into_iter().find(|s| s.side() == 16).unwrap();
    chains_on::<10>(size, Variant::Classic, 45, Chaining::Cycles);
    chains_on::<10>(size, Variant::Classic, 45, Chaining::Nishio);
}

/// Where only the first step is wanted, the searches skip chains that cannot come first and
/// keep runs for later cells: on every grid along hard paths where chains are needed, the first
/// step of each producer is the one the full search puts first.
#[test]
fn the_first_step_alone_is_the_full_search_first() {
    use crate::logic::next_step;
    let count = if cfg!(debug_assertions) { 4 } else { 20 };
    let geo = geometry(Size::NINE, Variant::Classic);
    let budget = Budget::unlimited();
    let mut compared = 0;
    for line in puzzles_to_walk("top1465.txt", count) {
        let mut board = Board::<2>::new(geo, &givens_of(&line));
        while let Some(step) = next_step(&board) {
            if step.difficulty.0 >= 65 {
                for kind in [Chaining::Cycles, Chaining::Multiple, Chaining::Dynamic] {
                    let mut first = Sink::first();
                    let _ = find(&board, kind, &budget, &mut first);
                    let mut all = Sink::all();
                    let _ = find(&board, kind, &budget, &mut all);
                    let text = |s: &Sink| s.steps.first().map(|s| s.text.clone());
                    assert_eq!(text(&first), text(&all), "{line} {kind:?}");
                    compared += 1;
                }
            }
            board.apply(&step);
        }
    }
    println!("{compared} grids and producers compared");
    assert!(compared > 0, "no grid needed chains");
}

/// The same on boards thinned at random (many chains of every length, many ties): every size up
/// to 16×16, both variants.
#[test]
fn the_first_step_alone_is_the_full_search_first_on_thinned_boards() {
    use crate::logic::fixtures::{thinned_boards, OnBoard};
    struct Compare(usize);
    impl OnBoard for Compare {
        fn board<const W: usize>(&mut self, b: &Board<'_, W>, _: &[u8], what: &str) {
            let budget = Budget::unlimited();
            let dynamic = b.geo.cells() <= 81; // runs are kept on grids up to 9×9
            for kind in [Chaining::Cycles, Chaining::Multiple, Chaining::Dynamic] {
                if kind == Chaining::Dynamic && !dynamic {
                    continue;
                }
                let mut first = Sink::first();
                let _ = find(b, kind, &budget, &mut first);
                let mut all = Sink::all();
                let _ = find(b, kind, &budget, &mut all);
                let text = |s: &Sink| s.steps.first().map(|s| s.text.clone());
                assert_eq!(text(&first), text(&all), "{what} {kind:?}");
                self.0 += usize::from(!all.steps.is_empty());
            }
        }
    }
    let mut compare = Compare(0);
    thinned_boards(
        0x5851_f42d_4c95_7f2d,
        |side| if side <= 9 { 6 } else { 1 },
        &mut compare,
    );
    assert!(compare.0 > 0, "no chain at all");
}

/// Two of the hardest known puzzles, rated as Sudoku Explainer rates them: their hardest steps
/// need nested forcing chains (level 2), whose advanced rules must skip patterns that remove
/// nothing (one such pattern once stopped the nested chains and the rating jumped to 11.4).
#[test]
fn nested_chains_rate_the_hardest_as_sudoku_explainer_does() {
    let cases = [
        (
            "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
            103,
            "Dynamic Region Forcing Chains (+ Forcing Chains)",
        ),
        (
            "1....6.8...7.....66.....15..3.9.........2....7....854.....9.81.8...41..5.1....4..",
            103,
            "Dynamic Contradiction Forcing Chains (+ Forcing Chains)",
        ),
    ];
    let geo = geometry(Size::NINE, Variant::Classic);
    for (line, tenths, name) in cases {
        let path = solve_path(geo, &givens_of(line), &Budget::unlimited());
        assert_eq!(path.outcome, Outcome::Solved, "{line}");
        let hardest = path
            .steps
            .iter()
            .max_by_key(|s| s.difficulty)
            .expect("steps");
        assert_eq!(
            (hardest.difficulty.0, hardest.technique.name()),
            (tenths, name),
            "{line}"
        );
    }
}

/// Static chains say that X-chains gave nothing only when no X-cycle or forcing X-chain exists
/// on the grid (a path then skips them while the digits' places stay the same): checked against
/// every hint, along hard paths and on thinned boards of every size up to 9×9.
#[test]
fn x_chains_said_to_give_nothing_give_nothing() {
    use crate::logic::fixtures::{thinned_boards, OnBoard};
    use crate::logic::next_step;
    struct Check {
        said: usize,
        x_chains: usize,
    }
    impl OnBoard for Check {
        fn board<const W: usize>(&mut self, b: &Board<'_, W>, _: &[u8], what: &str) {
            let budget = Budget::unlimited();
            let mut scope = crate::logic::DigitScope::every();
            let _ = find_in(b, Chaining::Cycles, &budget, &mut scope, &mut Sink::first());
            let mut all = Sink::all();
            let _ = find(b, Chaining::Cycles, &budget, &mut all);
            use Technique::*;
            let x = [
                ForcingXChain,
                BidirectionalXCycle,
                GeneralizedXWing,
                TurbotFishChain,
            ];
            for s in all.steps.iter().filter(|s| x.contains(&s.technique)) {
                let digit = s.digits.first().expect("a digit");
                assert!(!scope.nothing.contains(digit), "{what}: {}", s.text);
                self.x_chains += 1;
            }
            self.said += usize::from(!scope.nothing.is_empty());
        }
    }
    let mut check = Check {
        said: 0,
        x_chains: 0,
    };
    let geo = geometry(Size::NINE, Variant::Classic);
    let count = if cfg!(debug_assertions) { 2 } else { 10 };
    for line in puzzles_to_walk("top1465.txt", count) {
        let mut board = Board::<2>::new(geo, &givens_of(&line));
        while let Some(step) = next_step(&board) {
            if step.difficulty.0 >= 65 {
                check.board(&board, &[], &line);
            }
            board.apply(&step);
        }
    }
    thinned_boards(
        0x9e37_79b9_7f4a_7c15,
        |side| usize::from(side <= 9) * 12,
        &mut check,
    );
    println!(
        "said {} times; {} X-chains checked",
        check.said, check.x_chains
    );
    assert!(check.said > 0 && check.x_chains > 0, "nothing compared");
}
