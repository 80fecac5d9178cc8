//! `sudoku-lsp new`: puzzles from the generator, written in the `.sudoku` format with what is
//! known of each (its rating, givens, minimality, symmetry, and the seed that makes it again).
//!
//! Each puzzle has its own random stream, derived from the run's seed and its number, so the
//! puzzles are made on every core and still come out the same for the same seed.

use std::io::Write;
use std::time::{Duration, Instant};

use crate::analysis::{self, Generated, Request, Symmetry};
use crate::engine::fast9::XorShift;
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
    pub symmetry: SymmetryArg,
    pub rating: Option<(Difficulty, Difficulty)>,
    pub count: usize,
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
        symmetry: options.symmetry.symmetry(),
        rating: options.rating,
        minimal: options.minimal,
        rating_time: Request::default_rating_time(options.size),
    };
    let mut stdout = std::io::BufWriter::new(std::io::stdout());
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut missing = 0;
    let mut number = 0;
    while number < options.count {
        // A round of puzzles on every core, written in order before the next round starts.
        let round: Vec<usize> = (number..options.count.min(number + threads)).collect();
        let made = make_round(&request, seed, &round, options.time_limit);
        for (&n, outcome) in round.iter().zip(made) {
            let text = match outcome {
                Ok(puzzle) => describe(&puzzle, options, seed, n),
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

/// The puzzles numbered `round`, one thread each.
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
                    let mut rng = XorShift::new(puzzle_seed(seed, n));
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

/// The seed of puzzle `n` of a run: the run's seed and the number mixed (SplitMix64's
/// finaliser), so neighbouring seeds and numbers give unrelated streams.
fn puzzle_seed(seed: u64, n: usize) -> u64 {
    let mut z = seed ^ (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn out_of_time(options: &Options, n: usize, tried: u64) -> String {
    let mut asked = Vec::new();
    if let Some((lo, hi)) = options.rating {
        asked.push(format!("rated {lo}..{hi}"));
    }
    if options.minimal {
        asked.push("minimal".to_string());
    }
    format!(
        "puzzle {}: none {} found in {} s ({} made); widen --rating, or raise --time-limit",
        n + 1,
        asked.join(" and "),
        options.time_limit.as_secs_f64(),
        crate::finding::plural(tried as usize, "puzzle")
    )
}

/// One puzzle as text: metadata lines and the grid, or one line.
fn describe(puzzle: &Generated, options: &Options, seed: u64, n: usize) -> String {
    let source = format!("sudoku-lsp new --seed {seed}, puzzle {}", n + 1);
    match options.layout {
        Layout::Line => analysis::line_text(puzzle, &source),
        Layout::Block => {
            let title = format!("Puzzle {}", n + 1);
            analysis::block_text(puzzle, options.size, options.variant, &title, &source)
        }
    }
}

/// A rating window as `--rating` takes it.
pub fn parse_rating(text: &str) -> Result<(Difficulty, Difficulty), String> {
    analysis::parse_window(text)
}

/// A size as `--size` takes it: `9`, `16`, `9x9`.
pub fn parse_size(text: &str) -> Result<Size, String> {
    crate::format::parse_size(text).ok_or_else(|| {
        format!(
            "'{text}' is not a size this tool reads: 4, 6, 9, 12, 16 or 25 (or 9x9 and the like)"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn puzzle_seeds_differ_for_neighbours() {
        let seeds: std::collections::HashSet<u64> = (0..4)
            .flat_map(|s| (0..4).map(move |n| puzzle_seed(s, n)))
            .collect();
        assert_eq!(seeds.len(), 16);
    }
}
