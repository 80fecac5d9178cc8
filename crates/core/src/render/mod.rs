//! Pictures of puzzles, for print and the web: what each cell shows (`draw` builds a [`Scene`]
//! from a puzzle and its analysis), the SVG text of a scene (`svg`), and that SVG rasterised to
//! PNG (`png`, with the crate's `png` feature: it needs the system's fonts).
//!
//! No editor or command-line types: the command line's `render` and the server draw through the
//! same functions. What a cell shows is decided here, how it looks in `svg`.

mod constraints;
#[cfg(feature = "png")]
mod png;
mod svg;

#[cfg(feature = "png")]
pub use png::{png, FONT_DIR_VAR};
pub use svg::{svg, GENERATOR};

use crate::analysis::{self, Analysis, Verdict};
use crate::format::{every_digit, DigitSet, Puzzle};
use crate::grid::{Size, Variant};

/// The text chunk every PNG carries: how `render` knows a file it may replace is its own.
pub const SOFTWARE: (&str, &str) = ("Software", "sudoku-lsp render");

/// Why a PNG could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PngError {
    /// No font to draw the digits with: what was looked at and what to do.
    NoFont(String),
    /// The SVG could not be read or drawn (a bug: the SVG is our own).
    Render(String),
}

impl std::fmt::Display for PngError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PngError::NoFont(message) | PngError::Render(message) => f.write_str(message),
        }
    }
}

/// What to draw besides the puzzle as written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Pencil marks computed from the placed digits in empty cells whose marks are not written.
    pub candidates: bool,
    /// The solution's digits in the empty cells, when there is exactly one solution.
    pub solution: bool,
}

/// What one cell shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Content {
    Empty,
    /// A digit of the puzzle.
    Given(u8),
    /// A digit the solver entered (`+7`).
    Entry(u8),
    /// The solution's digit in a cell the puzzle leaves empty (`Options::solution`).
    Solution(u8),
    /// Pencil marks: bit `d - 1` for digit `d`.
    Marks(DigitSet),
}

/// What became of `Options::solution`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolutionDrawn {
    /// Not asked for.
    NotAsked,
    Drawn,
    /// The givens have no solution (or a conflict among them): nothing drawn.
    None,
    /// The givens have several solutions: none drawn, as any one would be a guess.
    Several,
    /// The search ran out of its budget before it knew.
    Undecided,
}

impl SolutionDrawn {
    /// Why no solution was drawn, as said under the title and on the command line.
    pub fn problem(self) -> Option<&'static str> {
        match self {
            SolutionDrawn::NotAsked | SolutionDrawn::Drawn => None,
            SolutionDrawn::None => Some("no solution: none drawn"),
            SolutionDrawn::Several => Some("several solutions: none drawn"),
            SolutionDrawn::Undecided => Some("solution not found within the search budget"),
        }
    }
}

/// Everything a picture shows, cell by cell, row-major.
#[derive(Clone, Debug)]
pub struct Scene {
    pub size: Size,
    pub variant: Variant,
    pub title: Option<String>,
    pub cells: Vec<Content>,
    /// Cells holding a digit that repeats in one of their units (entries included).
    pub conflicts: Vec<bool>,
    /// Entries that are not the solution's digit, where the solution is drawn (it would
    /// otherwise be drawn around them, the same digit twice in a unit).
    pub wrong: Vec<bool>,
    pub solution: SolutionDrawn,
    /// Each cell's region when the puzzle has regions of its own (a jigsaw): heavy lines go
    /// between regions instead of boxes.
    pub regions: Option<Box<[u8]>>,
    /// The puzzle's rules, whose constraints are drawn (cages, thermometers, dots…).
    pub rules: Option<std::sync::Arc<crate::rules::Rules>>,
}

/// The scene of one puzzle; `analysis` is its analysis (about its givens alone, as `check`
/// makes it).
pub fn draw(puzzle: &Puzzle, analysis: &Analysis, options: &Options) -> Scene {
    let n = puzzle.givens.len();
    let mut conflicts = vec![false; n];
    // The analysis looks at the givens alone; an entry that repeats a digit is a conflict too.
    let found = match puzzle.entries {
        Some(_) => analysis::conflicts(&puzzle.geometry(), &puzzle.givens),
        None => analysis.conflicts.clone(),
    };
    for conflict in &found {
        for &cell in &conflict.cells {
            conflicts[cell] = true;
        }
    }
    let full = every_digit(puzzle.size.side());
    let computed = options
        .candidates
        .then(|| analysis::fill_marks(puzzle))
        .filter(|_| puzzle.marks.as_deref().is_none_or(|m| m.contains(&full)));
    let (solution, drawn) = if options.solution {
        match &analysis.verdict {
            Verdict::Unique(solution) => (Some(solution.as_slice()), SolutionDrawn::Drawn),
            Verdict::Several { .. } => (None, SolutionDrawn::Several),
            Verdict::Undecided { .. } => (None, SolutionDrawn::Undecided),
            Verdict::Broken | Verdict::NoSolution => (None, SolutionDrawn::None),
        }
    } else {
        (None, SolutionDrawn::NotAsked)
    };
    let wrong = (0..n)
        .map(|c| solution.is_some_and(|s| puzzle.is_entry(c) && puzzle.givens[c] != s[c]))
        .collect();
    let cells = (0..n)
        .map(|c| {
            let digit = puzzle.givens[c];
            if digit != 0 {
                return if puzzle.is_entry(c) {
                    Content::Entry(digit)
                } else {
                    Content::Given(digit)
                };
            }
            if let Some(solution) = solution {
                return Content::Solution(solution[c]);
            }
            // A cell marked with every digit says nothing yet: it reads as one without marks.
            let written = puzzle.marks.as_deref().map(|m| m[c]).filter(|&m| m != full);
            match written.or_else(|| computed.as_ref().map(|m| m[c])) {
                Some(marks) if marks != 0 => Content::Marks(marks),
                _ => Content::Empty,
            }
        })
        .collect();
    Scene {
        size: puzzle.size,
        variant: puzzle.variant,
        title: puzzle.meta.title.as_ref().map(|t| t.value.clone()),
        cells,
        conflicts,
        wrong,
        solution: drawn,
        regions: puzzle
            .rules
            .as_ref()
            .and_then(|rules| rules.regions.as_ref())
            .map(|regions| regions.of_cell.clone()),
        rules: puzzle.rules.clone(),
    }
}

/// The SVG of one puzzle, analysed here: for callers that hold no analysis (the server).
pub fn puzzle_svg(puzzle: &Puzzle, options: &Options, budget: &crate::engine::Budget) -> String {
    let analysis = analysis::analyze_puzzle(puzzle, budget);
    svg(&draw(puzzle, &analysis, options))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Budget;

    fn scene(text: &str, options: Options) -> Scene {
        let document = crate::format::parse(text);
        let puzzle = &document.puzzles[0];
        let analysis = analysis::analyze(
            puzzle.size,
            puzzle.variant,
            &puzzle.clues(),
            &Budget::unlimited(),
        );
        draw(puzzle, &analysis, &options)
    }

    #[test]
    fn a_jigsaw_is_drawn_with_its_regions_not_boxes() {
        // 4×4: regions A (A1 A2 A3 B1), B (A4 B2 B3 B4), C and D below, as boxes.
        let text = "regions:\nAAAB\nABBB\nCCDD\nCCDD\n1...\n....\n....\n....\n";
        let document = crate::format::parse(text);
        let puzzle = &document.puzzles[0];
        let picture = puzzle_svg(puzzle, &Options::default(), &Budget::unlimited());
        let is_heavy =
            |line: &&str| line.starts_with("<line") && line.contains(r#"stroke-width="3""#);
        let heavy: Vec<&str> = picture.lines().filter(is_heavy).collect();
        // Every heavy line is one cell edge between two regions (no box's line runs the grid's
        // length): A3|A4, B1|B2, C2|C3, D2|D3 upright; A2/B2, A3/B3 and the four between rows
        // B and C across.
        assert!(
            heavy.iter().all(|l| l.contains("stroke-linecap")),
            "{picture}"
        );
        assert_eq!(heavy.len(), 4 + 2 + 4, "{picture}");
        // Cells in no region side by side are not outlined: a grid without boxes is plain, and
        // a region among such cells has its edges alone drawn.
        for (regions, edges) in [
            ("....\n....\n....\n....\n", 0),
            ("AA..\nAA..\n....\n....\n", 4),
        ] {
            let text = format!("regions:\n{regions}1...\n....\n....\n....\n");
            let document = crate::format::parse(&text);
            let picture = puzzle_svg(
                &document.puzzles[0],
                &Options::default(),
                &Budget::unlimited(),
            );
            let heavy = picture.lines().filter(is_heavy).count();
            assert_eq!(heavy, edges, "{regions}: {picture}");
        }
    }

    #[test]
    fn givens_entries_and_the_solution_are_told_apart() {
        let text = "1+234\n3412\n2143\n432.\n";
        let drawn = scene(
            text,
            Options {
                solution: true,
                ..Options::default()
            },
        );
        assert_eq!(drawn.cells[0], Content::Given(1));
        assert_eq!(drawn.cells[1], Content::Entry(2));
        assert_eq!(drawn.cells[15], Content::Solution(1));
    }

    #[test]
    fn with_the_solution_a_wrong_entry_is_marked_and_kept() {
        // A1 should be 4; the entry 5 repeats no digit, so only the solution shows it wrong.
        let text = "+5.3.2.6..\n9..3.5..1\n..18.64..\n..81.29..\n7.......8\n..67.82..\n..26.95..\n8..2.3..9\n..5.1.3..\n";
        let options = Options {
            solution: true,
            ..Options::default()
        };
        let drawn = scene(text, options);
        assert_eq!(drawn.cells[0], Content::Entry(5));
        assert!(drawn.wrong[0] && !drawn.conflicts[0]);
        assert_eq!(drawn.wrong.iter().filter(|&&w| w).count(), 1);
        assert_eq!(drawn.cells[1], Content::Solution(8));
        assert!(
            !scene(text, Options::default()).wrong[0],
            "only beside the solution"
        );
    }

    #[test]
    fn an_entry_that_repeats_a_digit_is_a_conflict() {
        let drawn = scene("1+1..\n....\n....\n....\n", Options::default());
        assert_eq!(&drawn.conflicts[..3], &[true, true, false]);
    }

    #[test]
    fn candidates_fill_only_cells_without_marks() {
        let plain = scene("12..\n....\n....\n....\n", Options::default());
        assert_eq!(plain.cells[2], Content::Empty);
        let marked = scene(
            "12..\n....\n....\n....\n",
            Options {
                candidates: true,
                ..Options::default()
            },
        );
        assert_eq!(marked.cells[2], Content::Marks(0b1100));
    }

    /// Each constraint of a puzzle drawn where its line says: one group per constraint, named by
    /// its kind, listing its cells, every point of it inside the box of those cells (a cell
    /// beyond it for a clue outside the grid or a little killer's sum).
    fn assert_drawn_where_the_text_says(text: &str, what: &str) {
        let document = crate::format::parse(text);
        let puzzle = &document.puzzles[0];
        let picture = puzzle_svg(puzzle, &Options::default(), &Budget::unlimited());
        let groups = constraints::groups(&picture);
        let rules = puzzle.rules.as_deref().expect("rules");
        let geometry = puzzle.geometry();
        let drawn: Vec<&crate::rules::Constraint> = rules
            .constraints
            .iter()
            .filter(|c| !c.is_global())
            .collect();
        let kinds: Vec<&str> = groups.iter().map(|g| g.0.as_str()).collect();
        let names: Vec<String> = drawn.iter().map(|c| c.name()).collect();
        assert_eq!(
            groups.len(),
            drawn.len(),
            "{what}: drawn {kinds:?} for {names:?}"
        );
        // The grid's top left, from the border rectangle.
        let border = picture
            .lines()
            .find(|l| l.contains(r#"class="border""#))
            .expect("a border");
        let number = |name: &str| -> f64 {
            let key = format!(" {name}=\"");
            let start = border.find(&key).unwrap() + key.len();
            border[start..].split('"').next().unwrap().parse().unwrap()
        };
        let (left, top) = (number("x"), number("y"));
        let side = puzzle.size.side();
        for constraint in &drawn {
            let named = constraint.named_cells();
            let names: Vec<String> = named
                .iter()
                .map(|&c| geometry.cell_name(c as usize))
                .collect();
            let kind = constraint.name().replace(' ', "-");
            let kind = kind.trim_end_matches(|c: char| c.is_ascii_digit() || c == '-');
            let (_, cells, points) = groups
                .iter()
                .find(|(k, c, _)| k == kind && *c == names.join(" "))
                .unwrap_or_else(|| panic!("{what}: no {kind} group for {names:?}: {kinds:?}"));
            assert!(!points.is_empty(), "{what}: {kind} {cells} drew nothing");
            let rows = named.iter().map(|&c| (c as usize / side) as f64);
            let cols = named.iter().map(|&c| (c as usize % side) as f64);
            let (r0, r1) = rows.fold((f64::MAX, f64::MIN), |(a, b), r| (a.min(r), b.max(r)));
            let (c0, c1) = cols.fold((f64::MAX, f64::MIN), |(a, b), c| (a.min(c), b.max(c)));
            let beyond = match constraint.kind {
                crate::rules::Kind::LittleKiller { .. }
                | crate::rules::Kind::Sandwich { .. }
                | crate::rules::Kind::XSum { .. }
                | crate::rules::Kind::Skyscraper { .. } => 1.0,
                _ => 0.0,
            };
            let cell = svg::CELL;
            let (x0, x1) = (
                left + (c0 - beyond) * cell,
                left + (c1 + 1.0 + beyond) * cell,
            );
            let (y0, y1) = (top + (r0 - beyond) * cell, top + (r1 + 1.0 + beyond) * cell);
            for &(x, y) in points {
                assert!(
                    (x0 - 1.0..=x1 + 1.0).contains(&x) && (y0 - 1.0..=y1 + 1.0).contains(&y),
                    "{what}: {kind} {cells}: ({x}, {y}) is outside ({x0}, {y0})–({x1}, {y1})"
                );
                // A clue beside a row or column stands in line with it.
                let in_line = (left + c0 * cell - 1.0..=left + (c1 + 1.0) * cell + 1.0)
                    .contains(&x)
                    || (top + r0 * cell - 1.0..=top + (r1 + 1.0) * cell + 1.0).contains(&y);
                let beside = matches!(
                    constraint.kind,
                    crate::rules::Kind::Sandwich { .. }
                        | crate::rules::Kind::XSum { .. }
                        | crate::rules::Kind::Skyscraper { .. }
                );
                assert!(
                    !beside || in_line,
                    "{what}: {kind} {cells}: ({x}, {y}) not in line"
                );
            }
        }
    }

    #[test]
    fn every_shipped_variant_puzzle_is_drawn_with_each_of_its_constraints() {
        let folder =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../puzzles/variants");
        let mut seen = 0;
        for entry in std::fs::read_dir(&folder).expect("puzzles/variants") {
            let path = entry.expect("an entry").path();
            if path.extension().is_some_and(|e| e == "sudoku") {
                let text = std::fs::read_to_string(&path).expect("readable");
                let rules = crate::format::parse(&text).puzzles[0].rules.clone();
                if rules.is_some_and(|r| !r.constraints.is_empty()) {
                    assert_drawn_where_the_text_says(&text, &path.display().to_string());
                    seen += 1;
                }
            }
        }
        assert!(seen >= 5, "{seen} puzzles with constraints");
    }

    #[test]
    fn every_kind_of_constraint_is_drawn_where_its_line_says() {
        // Each keyword's example line, over an empty 9×9 (the constraints need not agree: a
        // picture is drawn whatever the verdict).
        let mut text = String::new();
        for help in crate::format::constraint_keywords() {
            if help.name != "regions" {
                text.push_str(help.example);
                text.push('\n');
            }
        }
        text.push_str(&".........\n".repeat(9));
        assert_drawn_where_the_text_says(&text, "every keyword");
    }
}
