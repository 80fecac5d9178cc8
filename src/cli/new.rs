//! `sudoku-lsp new`: puzzles from the generator, written in the `.sudoku` format with what is
//! known of each (its rating, givens, minimality, symmetry, and the seed that makes it again).
//!
//! Each puzzle has its own random stream, derived from the run's seed and its number, so the
//! puzzles are made on every core and still come out the same for the same seed.

use std::io::Write;
use std::time::{Duration, Instant};

use crate::analysis::{self, Generated, Genre, Request, Symmetry};
use crate::grid::{Size, Variant};
use crate::logic::Difficulty;

/// The symmetries `--symmetry` names, as Sudoku Explainer's generator offers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SymmetryArg {
    None,
    /// A half turn (180°).
    Rotational180,
    /// A quarter turn (90°, and so 180°).
    Rotational90,
    /// The mirror across the middle row.
    Horizontal,
    /// The mirror across the middle column.
    Vertical,
    /// The mirror across the main diagonal (A1 to I9).
    Diagonal,
    /// The mirror across the anti-diagonal.
    AntiDiagonal,
    /// Both mirrors across the middle row and column.
    Orthogonal,
    /// Both mirrors across the diagonals.
    BiDiagonal,
    /// Every rotation and mirror.
    Full,
}

impl SymmetryArg {
    fn symmetry(self) -> Symmetry {
        match self {
            SymmetryArg::None => Symmetry::None,
            SymmetryArg::Rotational180 => Symmetry::Rotational180,
            SymmetryArg::Rotational90 => Symmetry::Rotational90,
            SymmetryArg::Horizontal => Symmetry::Horizontal,
            SymmetryArg::Vertical => Symmetry::Vertical,
            SymmetryArg::Diagonal => Symmetry::Diagonal,
            SymmetryArg::AntiDiagonal => Symmetry::AntiDiagonal,
            SymmetryArg::Orthogonal => Symmetry::Orthogonal,
            SymmetryArg::BiDiagonal => Symmetry::BiDiagonal,
            SymmetryArg::Full => Symmetry::Full,
        }
    }
}

/// How each puzzle is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Layout {
    /// A block of rows in the display style, with metadata lines above it.
    Block,
    /// One line of cells, with what is known of it after a `#`.
    Line,
}

/// What `new` was asked.
pub struct Options {
    pub size: Size,
    pub variant: Variant,
    /// The constraints of a variant puzzle (`--variant killer`…).
    pub genre: Option<Genre>,
    pub symmetry: SymmetryArg,
    pub rating: Option<(Difficulty, Difficulty)>,
    pub count: usize,
    /// The number of the first puzzle (from 1): puzzle N of a run with the same seed.
    pub number: usize,
    pub minimal: bool,
    pub seed: Option<u64>,
    pub time_limit: Duration,
    pub layout: Layout,
}

pub fn run(options: &Options) -> i32 {
    let seed = options.seed.unwrap_or_else(analysis::clock_seed);
    let request = Request {
        size: options.size,
        variant: options.variant,
        genre: options.genre,
        symmetry: options.symmetry.symmetry(),
        rating: options.rating,
        minimal: options.minimal,
        rating_time: Request::default_rating_time(options.size),
    };
    let mut stdout = std::io::BufWriter::new(std::io::stdout());
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut missing = 0;
    let end = options.number.saturating_add(options.count);
    let mut number = options.number;
    while number < end {
        // A round of puzzles on every core, written in order before the next round starts.
        let round: Vec<usize> = (number..end.min(number + threads)).collect();
        let made = make_round(&request, seed, &round, options.time_limit);
        for (&n, outcome) in round.iter().zip(made) {
            let text = match outcome {
                Ok(puzzle) => describe(&puzzle, &request, options.layout, seed, n),
                Err(analysis::Failure::OutOfTime { tried }) => {
                    missing += 1;
                    super::style::say_error(&out_of_time(options, n, tried));
                    continue;
                }
            };
            if stdout.write_all(text.as_bytes()).is_err() {
                return 2; // nobody is reading any more
            }
        }
        number += round.len();
    }
    if stdout.flush().is_err() {
        return 2;
    }
    i32::from(missing > 0)
}

/// The puzzles numbered `round` (from 1), one thread each.
fn make_round(
    request: &Request,
    seed: u64,
    round: &[usize],
    limit: Duration,
) -> Vec<Result<Generated, analysis::Failure>> {
    std::thread::scope(|scope| {
        let workers: Vec<_> = round
            .iter()
            .map(|&n| {
                scope.spawn(move || {
                    let mut rng = analysis::puzzle_rng(seed, n);
                    analysis::generate(request, &mut rng, Instant::now() + limit)
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| {
                w.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    })
}

/// Why puzzle `n` is missing: "puzzle 3: none rated 6.0..7.5 found in 5 s (1,204 made); …",
/// or, asked for nothing particular, that no puzzle at all was made in the time.
fn out_of_time(options: &Options, n: usize, tried: u64) -> String {
    let mut asked = Vec::new();
    if let Some((lo, hi)) = options.rating {
        asked.push(format!("rated {lo}..{hi}"));
    }
    if options.minimal {
        asked.push("minimal".to_string());
    }
    let seconds = options.time_limit.as_secs_f64();
    if asked.is_empty() {
        return format!("puzzle {n}: not made within --time-limit {seconds} s; raise it");
    }
    format!(
        "puzzle {n}: none {} found in {seconds} s ({} made); widen --rating, or raise --time-limit",
        asked.join(" and "),
        crate::finding::plural(tried as usize, "puzzle")
    )
}

/// Puzzle `n` (from 1) as text: metadata lines and the grid, or one line, its source the
/// command line that makes it again.
fn describe(puzzle: &Generated, request: &Request, layout: Layout, seed: u64, n: usize) -> String {
    let source = request.command_line(seed, n);
    match layout {
        Layout::Line => analysis::line_text(puzzle, &source),
        Layout::Block => {
            let title = format!("Puzzle {n}");
            analysis::block_text(puzzle, request.size, request.variant, &title, &source)
        }
    }
}

/// A rating window as `--rating` takes it.
pub fn parse_rating(text: &str) -> Result<(Difficulty, Difficulty), String> {
    analysis::parse_window(text)
}

/// A size as `--size` takes it: `9`, `16`, `9x9`.
pub fn parse_size(text: &str) -> Result<Size, String> {
    let size = crate::format::parse_size(text).ok_or_else(|| {
        format!(
            "'{text}' is not a size this tool reads: {} (or 9x9 and the like)",
            Size::supported_sides()
        )
    })?;
    if !size.has_boxes() {
        return Err(format!(
            "{} grid has no boxes, and new makes puzzles on grids with boxes: {}",
            size.a_label(),
            Size::boxed_sides()
        ));
    }
    Ok(size)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn puzzle_streams_differ_for_neighbours() {
        let firsts: std::collections::HashSet<u64> = (0..4)
            .flat_map(|s| (1..=4).map(move |n| analysis::puzzle_rng(s, n).next()))
            .collect();
        assert_eq!(firsts.len(), 16);
    }
}
