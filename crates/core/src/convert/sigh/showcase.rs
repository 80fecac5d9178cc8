//! The decisive test of the importer: sigh's own showcase puzzles (`showcase.txt`, taken from
//! sigh's repository under its MIT licence, with their published solutions), each imported
//! through a sigh link as a user would paste it. Every one whose items all map is checked
//! against its published solution by the rules' own definitions (`Constraint::satisfied`, the
//! houses, the rules of the whole grid), and solved by the variant engine, which must find
//! that solution and no other. The puzzles that do not map fully are pinned with the reason,
//! so that one which starts or stops mapping is seen.

use crate::convert::fpuzzles::Imported;
use crate::convert::links;
use crate::engine::{self, Budget};
use crate::format::parse;
use crate::grid::{Geometry, Size};
use crate::rules::Rules;

/// One showcase puzzle: its name, its input as sigh's page loads it, its solution.
struct Showcase {
    name: String,
    input: String,
    solution: String,
}

fn showcase() -> Vec<Showcase> {
    let text = include_str!("showcase.txt");
    let field = |line: Option<&str>, key: &str| -> String {
        let line = line.unwrap_or_else(|| panic!("showcase.txt ends before a '{key}' line"));
        let value = line.strip_prefix(key).and_then(|v| v.strip_prefix(": "));
        value
            .unwrap_or_else(|| panic!("'{line}' is no '{key}:' line"))
            .to_string()
    };
    let mut lines = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    let mut puzzles = Vec::new();
    while let Some(name) = lines.next() {
        puzzles.push(Showcase {
            name: field(Some(name), "name"),
            input: field(lines.next(), "input"),
            solution: field(lines.next(), "solution"),
        });
    }
    puzzles
}

/// How many showcase puzzles there are.
const PUZZLES: usize = 62;

/// The puzzles that do not map fully, in the file's order, and a part of why.
const NOT_MAPPED: [(&str, &str); 24] = [
    ("10 Lines", "sigh's SumLine has no constraint line"),
    (
        "Slingshot sudoku",
        "sigh's ValueIndexing has no constraint line",
    ),
    ("Normal Lunchbox", "sigh's Lunchbox has no constraint line"),
    (
        "Equality cages",
        "sigh's EqualityCage has no constraint line",
    ),
    (
        "6x6: Rellik cages",
        "sigh's RellikCage has no constraint line",
    ),
    ("Neighbor Sums", "sigh's Sum has no constraint line"),
    ("Magic square", "sigh's EqualSum has no constraint line"),
    (
        "Look-and-Say Killer",
        "sigh's LookAndSay has no constraint line",
    ),
    ("Clockwork", "sigh's CountingCircles has no constraint line"),
    (
        "Dutch Flat Mates (Kropki)",
        "sigh's DutchFlatmates has no constraint line",
    ),
    (
        "DSM 2023 Leftover: Full Rank Sudoku",
        "sigh's FullRank has no constraint line",
    ),
    (
        "6x6: Numbered rooms",
        "sigh's NumberedRoom has no constraint line",
    ),
    (
        "Anti-Taxi Sudoku X",
        "sigh's AntiTaxicab has no constraint line",
    ),
    (
        "[New Constraint] Entropy Sudoku",
        "sigh's GlobalEntropy has no constraint line",
    ),
    ("Global mod 3", "sigh's GlobalMod has no constraint line"),
    ("Dutch-pelgänger", "its digits are 0-9, not 1 to 9"),
    (
        "Stretching",
        "sigh's ChaosConstruction has no constraint line",
    ),
    (
        "Let there be chaos",
        "sigh's ChaosConstruction has no constraint line",
    ),
    ("Easy as a Quattroquadri", "its digits are 9, not 1 to 6"),
    (
        "Odd/Even Thermo Sudoku",
        "its relation is none of the rules",
    ),
    ("Regex line", "sigh's Regex has no constraint line"),
    ("Sequence sudoku", "sigh's NFA has no constraint line"),
    (
        "Either/Or",
        "sigh's composite .Or … .End has no constraint line",
    ),
    (
        "Answers on a Postcard",
        "a grid of 6 rows and 9 columns is not square",
    ),
];

/// The puzzles the engine takes long over, each solved in a test of its own so that the
/// others do not wait for it.
const SLOW: [&str; 1] = ["The Barbed Cross"];

/// sigh's link to a puzzle, its text encoded as a browser's `URLSearchParams` writes it.
fn sigh_link(input: &str) -> String {
    let mut link = "https://sigh.github.io/Interactive-Sudoku-Solver/?q=".to_string();
    for byte in input.bytes() {
        match byte {
            b' ' => link.push('+'),
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'*' => {
                link.push(byte as char)
            }
            _ => link.push_str(&format!("%{byte:02X}")),
        }
    }
    link
}

fn imported(puzzle: &Showcase) -> Result<Imported, String> {
    links::import(&sigh_link(&puzzle.input))
}

/// Why a puzzle does not map fully (its import's error, or its warnings and errors), if it
/// does not.
fn not_mapped(puzzle: &Showcase) -> Option<String> {
    match imported(puzzle) {
        Err(error) => Some(error),
        Ok(imported) => {
            let said: Vec<&str> = imported
                .warnings
                .iter()
                .chain(&imported.errors)
                .map(String::as_str)
                .collect();
            (!said.is_empty()).then(|| said.join("\n    "))
        }
    }
}

/// A solution string's digits: `1`–`9`, or sigh's `A`–`P` for 1–16 on grids above 9×9.
fn digits(solution: &str, side: usize) -> Vec<u8> {
    solution
        .bytes()
        .map(|c| match side > 9 {
            true => c - b'A' + 1,
            false => c - b'0',
        })
        .collect()
}

/// Why the imported `text` does not have exactly `solution` as its one solution, if it does.
fn solution_problem(text: &str, solution: &str) -> Option<String> {
    let document = parse(text);
    if let Some(problem) = document.problems.first() {
        return Some(format!("the text does not read: {}", problem.message));
    }
    let puzzle = &document.puzzles[0];
    let geometry = puzzle.geometry();
    let rules = puzzle.rules.as_deref().cloned().unwrap_or_default();
    let solution = digits(solution, puzzle.size.side());
    if let Some(why) = broken_by(&solution, puzzle.size, &geometry, &rules, &puzzle.givens) {
        return Some(format!("the published solution {why}"));
    }
    let budget = Budget {
        max_nodes: Some(5_000_000),
        ..Budget::unlimited()
    };
    let found = engine::variant::solve(&geometry, &rules, &puzzle.givens, 2, &budget);
    match (found.stop, found.solutions.as_slice()) {
        (Some(stop), _) => Some(format!(
            "the engine stopped ({stop:?}) after {} nodes",
            found.nodes
        )),
        (None, [one]) if *one == solution => None,
        (None, []) => Some("the engine finds no solution".into()),
        (None, [one]) => Some(format!("the engine finds another solution: {one:?}")),
        (None, _) => Some("the engine finds two solutions or more".into()),
    }
}

/// What a full grid breaks of a puzzle: a given, a house, a constraint (the rules' own
/// checker), a rule of the whole grid.
fn broken_by(
    grid: &[u8],
    size: Size,
    geometry: &Geometry,
    rules: &Rules,
    givens: &[u8],
) -> Option<String> {
    if let Some(cell) = (0..grid.len()).find(|&c| givens[c] != 0 && givens[c] != grid[c]) {
        return Some(format!("changes the given of {}", geometry.cell_name(cell)));
    }
    for (u, unit) in geometry.units.iter().enumerate() {
        let mut seen = 0u32;
        for &cell in unit.cells.iter() {
            let bit = 1 << grid[cell as usize];
            if seen & bit != 0 {
                return Some(format!("repeats a digit in {}", geometry.unit_name(u)));
            }
            seen |= bit;
        }
    }
    if let Some(broken) = rules.constraints.iter().find(|c| !c.satisfied(size, grid)) {
        return Some(format!("breaks a {}", broken.name()));
    }
    (!rules.broken_pairs(size, grid).is_empty()).then(|| "breaks a rule of the whole grid".into())
}

/// The failure of a fully mapped puzzle, if it fails.
fn failure(puzzle: &Showcase) -> Option<String> {
    let text = imported(puzzle).ok()?.text;
    let why = solution_problem(&text, &puzzle.solution)?;
    Some(format!("{}: {why}\n{text}", puzzle.name))
}

#[test]
fn every_fully_mapped_showcase_puzzle_solves_to_its_published_solution_alone() {
    let puzzles = showcase();
    assert_eq!(puzzles.len(), PUZZLES);
    let mut unmapped = Vec::new();
    let mut failures = Vec::new();
    for puzzle in puzzles.iter().filter(|p| !SLOW.contains(&p.name.as_str())) {
        match not_mapped(puzzle) {
            Some(why) => unmapped.push((puzzle.name.as_str(), why)),
            None => failures.extend(failure(puzzle)),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    let expected = &NOT_MAPPED;
    let names: Vec<&str> = unmapped.iter().map(|(n, _)| *n).collect();
    let expected_names: Vec<&str> = expected.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, expected_names, "{unmapped:#?}");
    for ((name, why), (_, says)) in unmapped.iter().zip(expected) {
        assert!(why.contains(says), "{name}: '{why}' does not say '{says}'");
    }
    let mapped = PUZZLES - unmapped.len();
    eprintln!("{mapped} of {PUZZLES} showcase puzzles map fully and solve to their solution");
}

#[test]
fn the_barbed_cross_solves_to_its_solution_alone() {
    let puzzles = showcase();
    let slow: Vec<&Showcase> = puzzles
        .iter()
        .filter(|p| SLOW.contains(&p.name.as_str()))
        .collect();
    assert_eq!(slow.len(), SLOW.len());
    for puzzle in slow {
        assert_eq!(not_mapped(puzzle), None, "{}", puzzle.name);
        assert_eq!(failure(puzzle), None);
    }
}

/// The explained steps of a fully mapped puzzle that break its published solution (a
/// placement of another digit, an elimination of its own), each as its sentence; and whether
/// the path reached the solution within `budget`.
fn unsound_steps(puzzle: &Showcase, budget: &Budget) -> (Vec<String>, bool) {
    let Ok(imported) = imported(puzzle) else {
        return (Vec::new(), false);
    };
    let document = parse(&imported.text);
    let shown = &document.puzzles[0];
    let geometry = shown.geometry();
    let rules = shown.rules.as_deref().cloned().unwrap_or_default();
    let solution = digits(&puzzle.solution, shown.size.side());
    let path = crate::logic::solve_path_with_rules(&geometry, &rules, &shown.givens, budget);
    let wrong = path
        .steps
        .iter()
        .filter(|step| {
            step.placements
                .iter()
                .any(|c| solution[c.cell as usize] != c.digit)
                || step
                    .eliminations
                    .iter()
                    .any(|c| solution[c.cell as usize] == c.digit)
        })
        .map(|step| format!("{}: {}", puzzle.name, step.text))
        .collect();
    (wrong, path.outcome == crate::logic::Outcome::Solved)
}

/// Every step of the logic solver on every fully mapped showcase puzzle holds in its published
/// solution: the rules' own deductions, the contradictions they reach, and the house
/// techniques on the houses and peers the rules add. Each walk has a second (the hardest take
/// longer to finish, and a debug build is slow): what it found by then is checked.
#[test]
fn every_explained_step_on_the_showcase_holds_in_the_published_solution() {
    let mut wrong = Vec::new();
    let mut solved = 0;
    let mut walked = 0;
    for puzzle in showcase().iter().filter(|p| not_mapped(p).is_none()) {
        let budget = Budget {
            deadline: Some(std::time::Instant::now() + std::time::Duration::from_secs(1)),
            ..Budget::unlimited()
        };
        let (unsound, done) = unsound_steps(puzzle, &budget);
        wrong.extend(unsound);
        solved += usize::from(done);
        walked += 1;
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(walked >= 30, "{walked}");
    eprintln!("{solved} of {walked} showcase puzzles solved by explained steps within a second");
}
