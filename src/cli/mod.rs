//! The command line: `check`, `solve`, `marks`, `fmt`, the graders and the generator, `import` and
//! `export` (f-puzzles and SudokuPad), and with no
//! subcommand (or `--stdio`) the language server.

pub mod bench;
mod check;
mod docs;
mod export;
mod fmt;
mod import;
mod in_place;
mod inputs;
mod lines;
mod new;
mod one_liners;
mod progress;
mod rate;
mod read;
mod render;
mod report;
mod solve;
mod spool;
mod style;

use std::io::IsTerminal;

use clap::{CommandFactory, Parser, Subcommand};

pub use lines::LineIndex;

use crate::analysis::DEFAULT_MAX_NODES;
use crate::convert::classic;

#[derive(Parser, Debug)]
#[command(
    name = "sudoku-lsp",
    version,
    disable_help_subcommand = true,
    about = "Language server and checker for .sudoku puzzle files",
    long_about = "Language server and checker for .sudoku puzzle files.\n\n\
                  With no subcommand (or with --stdio) it serves the Language Server Protocol on \
                  standard input and output, for editors."
)]
struct Args {
    /// Serve the Language Server Protocol on stdin/stdout (the default with no subcommand).
    #[arg(long)]
    stdio: bool,
    /// Colour: `auto` on a terminal unless NO_COLOR is set, `always`, or `never`.
    #[arg(
        long,
        global = true,
        value_enum,
        value_name = "WHEN",
        default_value = "auto"
    )]
    color: style::ColorArg,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Report every problem: PATH:LINE:COLUMN: error|warning: MESSAGE.
    ///
    /// Exit status: 0 when no errors, 1 when any error, 2 for a usage or I/O problem.
    /// Folders are walked for *.sudoku files; `-` reads standard input.
    Check {
        /// Files, folders, or `-` for standard input.
        #[arg(value_name = "PATH")]
        paths: Vec<String>,
        /// `text` for editors' quickfix lists, `json` for machines, `github` for annotations in
        /// GitHub Actions, `sarif` for code scanning.
        #[arg(long, value_enum, default_value = "text")]
        format: check::OutputFormat,
        /// The most findings printed per file, in every format; the others are counted in the
        /// summary and said to be there (0: the counts alone).
        #[arg(long, value_name = "N", default_value_t = 1000)]
        max_findings: usize,
        /// Search nodes allowed per puzzle before it is reported undecided.
        #[arg(long, default_value_t = DEFAULT_MAX_NODES)]
        max_nodes: u64,
        /// Stop reading an input past this size (bytes, or with K, M, G: 500M, 2G).
        #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = parse_byte_size)]
        max_file_size: u64,
        /// Also what a setter asks of each unique puzzle, as notes: its givens, minimal or not,
        /// their symmetry, and each given it does not need (redundant-given).
        #[arg(long)]
        setter: bool,
        /// Seconds --setter may spend on each puzzle (trying each given); past it, the puzzle's
        /// note says its minimality was not decided.
        #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
        time_limit: f64,
        /// Also say which of the solver's entries (+7) and pencil marks the puzzle's unique
        /// solution contradicts, as errors (against-solution). It gives the solution away, as
        /// the editor setting checkAgainstSolution does.
        #[arg(long)]
        against_solution: bool,
    },
    /// Write each input back with every puzzle filled in; only empty marks change.
    ///
    /// Exit status: 0 when every puzzle has exactly one solution, 1 otherwise, 2 for a usage or
    /// I/O problem. Puzzles with no solution are written unchanged and reported on stderr.
    Solve {
        /// Files, folders, or `-` for standard input.
        #[arg(value_name = "PATH")]
        paths: Vec<String>,
        /// Write the solutions into the files instead of standard output.
        #[arg(short = 'i', long)]
        in_place: bool,
        /// Search nodes allowed per puzzle before it is left unsolved.
        #[arg(long, default_value_t = DEFAULT_MAX_NODES)]
        max_nodes: u64,
        /// Stop reading an input past this size (bytes, or with K, M, G: 500M, 2G).
        #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = parse_byte_size)]
        max_file_size: u64,
    },
    /// Write each input back with every puzzle's pencil marks filled in: the digits no placed
    /// peer holds, then naked twins, nothing placed.
    ///
    /// A grid block becomes a pencil-mark grid, a one-line puzzle a line of N³ places, and a
    /// puzzle already written with marks gets them afresh in its own form. Exit status: 0, or 1
    /// when an input has errors (its broken puzzles are written unchanged), 2 for a usage or I/O
    /// problem.
    Marks {
        /// Files, folders, or `-` for standard input.
        #[arg(value_name = "PATH")]
        paths: Vec<String>,
        /// Write the marks into the files instead of standard output.
        #[arg(short = 'i', long)]
        in_place: bool,
        /// Stop reading an input past this size (bytes, or with K, M, G: 500M, 2G).
        #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = parse_byte_size)]
        max_file_size: u64,
    },
    /// Format files in a layout style, keeping every puzzle's cells, comments and free text.
    ///
    /// Grid blocks are written in the --style chosen; one-line puzzles stay on one line (with
    /// `.` for empty cells), metadata is written `# key: value`, and comments, free text, blank
    /// lines, line endings and broken puzzles are kept as they are. A style that cannot hold a
    /// puzzle (a comment on a row, entries or lone marks in a pencil-mark grid on one line)
    /// leaves it in the grid style. Files are rewritten in place, only those that change (`-`: standard input to
    /// standard output). Folders are walked for *.sudoku files.
    ///
    /// Exit status: 0; with --check, 1 when a file would change; 2 for a usage or I/O problem.
    Fmt {
        /// Files, folders, or `-` for standard input.
        #[arg(value_name = "PATH")]
        paths: Vec<String>,
        /// Change nothing: print each file that would change (for CI) and exit 1 if any would.
        #[arg(long)]
        check: bool,
        /// How grid blocks are written.
        #[arg(long, value_enum, default_value = "grid")]
        style: fmt::StyleArg,
        /// Stop reading an input past this size (bytes, or with K, M, G: 500M, 2G).
        #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = parse_byte_size)]
        max_file_size: u64,
    },
    /// Rate each puzzle on Sudoku Explainer's scale: PATH:LINE:COLUMN: 7.2 Fiendish (TECHNIQUE).
    ///
    /// The rating is the hardest step on the path that always takes the simplest step
    /// available. Puzzles without exactly one solution are not rated. Exit status: 0 when every
    /// puzzle was rated, 1 when any was not (or a file has errors), 2 for a usage or I/O problem.
    Rate {
        #[arg(value_name = "PATH")]
        paths: Vec<String>,
        #[command(flatten)]
        grading: Grading,
    },
    /// Print each puzzle's whole solve path, step by step, with its rating.
    ///
    /// With --format json, an array with one object per puzzle: {"path", "line", "column",
    /// "rating", "level", "technique", "steps": [{"technique", "rating", "placements":
    /// [{"cell": "E5", "digit": 7}], "eliminations": [...], "cells", "units", "digits", "text"}]}.
    Explain {
        #[arg(value_name = "PATH")]
        paths: Vec<String>,
        #[command(flatten)]
        grading: Grading,
    },
    /// Print the next step of each puzzle as a hint: --level 1 says where to look, 2 which
    /// technique, 3 the whole step.
    Hint {
        #[arg(value_name = "PATH")]
        paths: Vec<String>,
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=3))]
        level: u8,
        #[command(flatten)]
        grading: Grading,
    },
    /// Time the solver on puzzle files (one 81-character puzzle a line), or on generated puzzles.
    ///
    /// Prints µs per puzzle and puzzles per second for each file: one thread, up to two solutions
    /// searched (what a uniqueness check costs), parse included, the way published figures are taken.
    ///
    /// With --rate, times the rating instead: per puzzle (the whole path of simplest steps) and
    /// per next step along it (what a hint costs in the editor), one thread.
    Bench {
        #[arg(value_name = "PATH")]
        paths: Vec<std::path::PathBuf>,
        /// Time the rating of each puzzle (files of one-line 9×9 puzzles; at least one file).
        #[arg(long, requires = "paths")]
        rate: bool,
    },
    /// Make new puzzles, each with one solution, written in the `.sudoku` format with their
    /// rating, givens, minimality, symmetry and the seed that makes them again.
    ///
    /// Exit status: 0 when every puzzle asked for was made, 1 when one was not found in its
    /// time (a rating window too narrow), 2 for a usage problem.
    New {
        /// Cells per row: 4, 6, 8, 9, 10, 12, 14, 15, 16 or 25 (also 9x9 and the like); the
        /// prime sides, which have no boxes, are not made.
        #[arg(long, default_value = "9", value_parser = new::parse_size)]
        size: crate::grid::Size,
        /// `classic`; `diagonal` (both main diagonals hold every digit once too); or, up to
        /// 9×9, a variant drawn from the solution with as few givens as keep it unique:
        /// `killer` (cages covering the grid), `kropki` (every white and black dot), `xv`
        /// (every X and V) or `thermo` (thermometers). Variants are rated on the variant scale.
        #[arg(long, default_value = "classic")]
        variant: String,
        /// The symmetry of the givens' places.
        #[arg(long, value_enum, default_value = "none")]
        symmetry: new::SymmetryArg,
        /// Keep only puzzles whose Sudoku Explainer rating is in this window: 6.0..7.5, ..3.0,
        /// 9.0.. or one rating, 7.2 (both ends included).
        #[arg(long, value_name = "LO..HI", value_parser = new::parse_rating)]
        rating: Option<(crate::logic::Difficulty, crate::logic::Difficulty)>,
        /// How many puzzles.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
        count: u64,
        /// The number of the first puzzle: puzzle N of a run with the same seed and options,
        /// made alone (each puzzle's source line gives its number).
        #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=u32::MAX as u64))]
        number: u64,
        /// Keep only puzzles where every given is needed. Without a symmetry, every puzzle is.
        #[arg(long)]
        minimal: bool,
        /// The seed: the same seed and options give the same puzzles (the default, from the
        /// clock, is written in each puzzle's source line).
        #[arg(long)]
        seed: Option<u64>,
        /// Seconds allowed per puzzle to find one that meets the rating window and --minimal.
        #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
        time_limit: f64,
        /// `block`: rows with metadata lines above; `line`: one line per puzzle.
        #[arg(long, value_enum, default_value = "block")]
        layout: new::Layout,
    },
    /// Draw each puzzle as a picture, SVG or PNG, for print and the web.
    ///
    /// Givens bold, entries (`+8`) blue, pencil marks small, conflicting cells tinted red, the
    /// title above, the diagonals shaded in a diagonal puzzle, a variant's constraints as
    /// f-puzzles and SudokuPad draw them (cages, thermometers, arrows, dots, lines, outside
    /// clues). A file of one puzzle gives
    /// STEM.svg (`easy.sudoku` → `easy.svg`), a file of several one picture per puzzle named by
    /// the line of its first row (`collection-12.svg`). A file already there is replaced only
    /// when render made it, or with --force. Exit status: 0 when no input has an error, 1 when
    /// one has (printed on stderr as `check` prints them; conflicts are drawn), 2 for a usage
    /// or I/O problem.
    Render {
        /// Files, folders, or `-` for standard input.
        #[arg(value_name = "PATH")]
        paths: Vec<String>,
        /// `svg`, or `png` (drawn with the system's fonts, or those in $SUDOKU_LSP_FONT_DIR).
        #[arg(long, value_enum, default_value = "svg")]
        format: render::PictureFormat,
        /// Pencil marks worked out from the placed digits in empty cells without marks.
        #[arg(long)]
        candidates: bool,
        /// The solution's digits, lighter, in the empty cells (when there is exactly one).
        #[arg(long)]
        solution: bool,
        /// The folder to write into (made if missing; the current folder by default), or `-`
        /// for the one picture on standard output.
        #[arg(long, value_name = "DIR")]
        out: Option<std::path::PathBuf>,
        /// Replace files that render did not make.
        #[arg(long)]
        force: bool,
        /// Search nodes allowed per puzzle before its solution is given up on.
        #[arg(long, default_value_t = DEFAULT_MAX_NODES)]
        max_nodes: u64,
        /// Stop reading an input past this size (bytes, or with K, M, G: 500M, 2G).
        #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = parse_byte_size)]
        max_file_size: u64,
    },
    /// Turn f-puzzles, SudokuPad and sigh links, f-puzzles JSON, sigh's constraint strings and
    /// other programs' files into .sudoku text.
    ///
    /// Each INPUT is a link (`https://www.f-puzzles.com/?load=…`, `https://sudokupad.app/fpuzzles…`,
    /// `https://sigh.github.io/Interactive-Sudoku-Solver/?q=…`), a payload, f-puzzles JSON, a
    /// line of a classic format, or a file (`-`: standard input) holding one JSON object, links
    /// one a line, or a classic format: .sdk, .sdm, .sdx and Simple Sudoku's .ss (by the file's
    /// extension or --from), HoDoKu library lines, SudoCue killer lines (`3x3:d:k:…`),
    /// 81-character killers, jigsaw lines (81 cells and 81 region symbols), janko.at jigsaw
    /// layouts and sigh's Interactive Sudoku Solver constraint strings
    /// (`.~R1C1_5.Cage~15~R1C2~R1C3…`, a puzzle a line; known by their shape). The text goes
    /// to standard output, puzzles separated by a blank line; what .sudoku cannot hold
    /// (colours, drawings, unknown keys, other programs' extra fields, sigh's rules without a
    /// line) is kept as comments and said on stderr as a warning. SudokuPad's own links (scl,
    /// ctc) give their givens, regions, killer cages and global rules; their drawings, whose
    /// rule they do not say, are kept as `# sudokupad:` comments. SudokuPad's short ids are not
    /// read: the error says what to import instead. A damaged sigh item (a cell outside the
    /// grid, a sum that is no number) is an error, kept as a `# sigh:` comment, and the rest of
    /// its puzzle is written. Exit status: 0, 1 when an input was damaged (the others are still
    /// written), 2 when a file could not be read.
    Import {
        /// Read every file (and standard input) in this format rather than by its extension
        /// or shape.
        #[arg(long, value_name = "FORMAT", value_parser = clap::builder::PossibleValuesParser::new(classic::FORMATS.map(|(name, _)| name)))]
        from: Option<String>,
        /// Links, payloads, JSON, classic lines, files, or `-` for standard input.
        #[arg(value_name = "INPUT")]
        inputs: Vec<String>,
    },
    /// Write each puzzle of a .sudoku file as an f-puzzles link, a SudokuPad link or JSON.
    ///
    /// One line per puzzle on standard output: givens, entries, title, author, `# rules:` and
    /// `# solution:` comments, every constraint line f-puzzles knows, and the `# fpuzzles:`
    /// comments an import kept. Constraints only Rangsk's additions to f-puzzles name
    /// (renban, whispers, X-sums…) also go as drawings, as his userscript writes them, so that
    /// f-puzzles and SudokuPad show them. A puzzle with a constraint f-puzzles cannot hold (an
    /// inequality, `negative: white`) is not written: an error names it. Exit status: 0, 1
    /// when the file has errors (puzzles they leave unread are not written), 2 when a puzzle
    /// cannot be exported or for a usage or I/O problem.
    Export {
        /// What to write.
        #[arg(long, value_enum)]
        to: export::Target,
        /// A .sudoku file, or `-` for standard input.
        #[arg(value_name = "PATH")]
        path: String,
        /// Only the Nth puzzle of the file (from 1).
        #[arg(long, value_name = "N")]
        puzzle: Option<usize>,
    },
    /// Print the completion script for a shell, to source from its startup file.
    ///
    /// bash: `sudoku-lsp completions bash > ~/.local/share/bash-completion/completions/sudoku-lsp`;
    /// zsh: `sudoku-lsp completions zsh > ~/.zfunc/_sudoku-lsp` (with `~/.zfunc` in `fpath`);
    /// fish: `sudoku-lsp completions fish > ~/.config/fish/completions/sudoku-lsp.fish`;
    /// PowerShell: `sudoku-lsp completions powershell | Out-String | Invoke-Expression` in
    /// `$PROFILE`.
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff), or write one page per command into a folder.
    ///
    /// `sudoku-lsp man | man -l -` reads it; `sudoku-lsp man --out DIR` writes `sudoku-lsp.1`,
    /// `sudoku-lsp-check.1` and the rest, for a package's `share/man/man1`.
    Man {
        /// Write the pages into this folder instead of printing the main one.
        #[arg(long, value_name = "DIR")]
        out: Option<std::path::PathBuf>,
    },
    /// Print this help, or the help of a subcommand.
    Help {
        #[arg(value_name = "COMMAND")]
        command: Option<String>,
    },
}

/// Options shared by `rate`, `explain` and `hint`.
#[derive(clap::Args, Debug)]
struct Grading {
    /// `text` for people, `json` for machines.
    #[arg(long, value_enum, default_value = "text")]
    format: rate::OutputFormat,
    /// Seconds allowed per puzzle; past it, the rating reached is given as a lower bound.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    time_limit: f64,
    /// Stop reading an input past this size (bytes, or with K, M, G: 500M, 2G).
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = parse_byte_size)]
    max_file_size: u64,
}

impl Grading {
    fn run(self, paths: Vec<String>, mode: rate::Mode) -> i32 {
        let paths = match stdin_if_none(paths) {
            Ok(paths) => paths,
            Err(code) => return code,
        };
        if !(self.time_limit > 0.0 && self.time_limit.is_finite()) {
            return fail("--time-limit takes a positive number of seconds");
        }
        let options = rate::Options {
            mode,
            format: self.format,
            time_limit: std::time::Duration::from_secs_f64(self.time_limit.min(1e9)),
            max_file: self.max_file_size,
        };
        rate::run(&paths, &options)
    }
}

/// What the server says when started from a terminal, where a user who typed `sudoku-lsp`
/// alone would otherwise see it wait in silence.
const WAITING_FOR_A_CLIENT: &str = "sudoku-lsp: this is a language server, waiting for an \
     editor to speak the Language Server Protocol on standard input (Ctrl-C quits). For the \
     command line, see `sudoku-lsp --help`: check, solve, fmt, rate, hint, new, render, …";

/// What a run asks of memory, told to the binary before the work starts so that it can set its
/// allocator up for it (src/main.rs; the library leaves the allocator to whoever embeds it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Workload {
    /// A few kilobytes of puzzles checked, solved, marked or formatted, or help printed: the
    /// process's start and exit are most of its time.
    Small,
    /// Anything more: larger inputs, standard input, folders, rating, generating, drawing.
    Large,
    /// The language server, long-lived.
    Serving,
}

/// Inputs up to this many bytes in all make a [`Workload::Small`] run (`norvig_hardest.txt`
/// is 1 KB, `top95.txt` 8 KB, `top1465.txt` 120 KB).
const SMALL_INPUT: u64 = 32 * 1024;

/// The workload of a run of `command`.
fn workload(command: &Option<Command>) -> Workload {
    match command {
        None => Workload::Serving,
        Some(
            Command::Check { paths, .. }
            | Command::Solve { paths, .. }
            | Command::Marks { paths, .. }
            | Command::Fmt { paths, .. },
        ) if small_files(paths) => Workload::Small,
        Some(Command::Completions { .. } | Command::Man { .. } | Command::Help { .. }) => {
            Workload::Small
        }
        Some(_) => Workload::Large,
    }
}

/// Whether `paths` name files (not folders, not standard input) of [`SMALL_INPUT`] bytes at most
/// in all.
fn small_files(paths: &[String]) -> bool {
    let mut total = 0;
    for path in paths {
        match std::fs::metadata(path) {
            Ok(metadata) if metadata.is_file() => total += metadata.len(),
            _ => return false,
        }
    }
    !paths.is_empty() && total <= SMALL_INPUT
}

/// Run the binary; returns the exit code. `prepare` is told the run's [`Workload`] before the
/// work starts.
// Over 80 lines: one arm per subcommand, each turning its arguments into its module's options;
// splitting the dispatch would only scatter it.
pub fn main(prepare: fn(Workload)) -> i32 {
    // Before parsing: clap's help and usage errors are printed while it parses.
    style::ColorArg::from_raw_args(std::env::args_os()).apply();
    let args = match Args::try_parse() {
        Ok(args) => args,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    args.color.apply();
    prepare(workload(&args.command));
    match args.command {
        None => {
            if std::io::stdin().is_terminal() {
                eprintln!("{WAITING_FOR_A_CLIENT}");
            }
            crate::lsp::run()
        }
        Some(Command::Check {
            paths,
            format,
            max_findings,
            max_nodes,
            max_file_size,
            setter,
            time_limit,
            against_solution,
        }) => match stdin_if_none(paths) {
            Ok(_) if !(time_limit > 0.0 && time_limit.is_finite()) => {
                fail("--time-limit takes a positive number of seconds")
            }
            Ok(paths) => check::run(
                &paths,
                &check::Options {
                    format,
                    max_findings,
                    max_nodes,
                    max_file: max_file_size,
                    asked: crate::analysis::Asked {
                        setter,
                        setter_time_limit: Some(std::time::Duration::from_secs_f64(
                            time_limit.min(1e9),
                        )),
                        against_solution,
                    },
                },
            ),
            Err(code) => code,
        },
        Some(Command::Solve {
            paths,
            in_place,
            max_nodes,
            max_file_size,
        }) => match stdin_if_none(paths) {
            Ok(paths) => solve::run(
                &paths,
                in_place,
                max_nodes,
                max_file_size,
                solve::Job::Solve,
            ),
            Err(code) => code,
        },
        Some(Command::Marks {
            paths,
            in_place,
            max_file_size,
        }) => match stdin_if_none(paths) {
            Ok(paths) => solve::run(&paths, in_place, 0, max_file_size, solve::Job::Marks),
            Err(code) => code,
        },
        Some(Command::Fmt {
            paths,
            check,
            style,
            max_file_size,
        }) => match stdin_if_none(paths) {
            Ok(paths) => fmt::run(&paths, check, style.style(), max_file_size),
            Err(code) => code,
        },
        Some(Command::Rate { paths, grading }) => grading.run(paths, rate::Mode::Rate),
        Some(Command::Explain { paths, grading }) => grading.run(paths, rate::Mode::Explain),
        Some(Command::Hint {
            paths,
            level,
            grading,
        }) => grading.run(paths, rate::Mode::Hint(level)),
        Some(Command::Bench { paths, rate: false }) => bench::run(&paths, &style::say_error),
        Some(Command::Bench { paths, rate: true }) => bench::run_rate(&paths, &style::say_error),
        Some(Command::New {
            size,
            variant,
            symmetry,
            rating,
            count,
            number,
            minimal,
            seed,
            time_limit,
            layout,
        }) => {
            if !(time_limit > 0.0 && time_limit.is_finite()) {
                return fail("--time-limit takes a positive number of seconds");
            }
            let (variant, genre) = match crate::analysis::parse_variant(&variant, size) {
                Ok(kind) => kind,
                Err(why) => return fail(&format!("--variant: {why}")),
            };
            if genre.is_some() && layout == new::Layout::Line {
                return fail(&format!(
                    "--layout line writes one line of cells, with no room for {variant_name}'s constraints: use --layout block",
                    variant_name = genre.map_or("", |g| g.name())
                ));
            }
            new::run(&new::Options {
                size,
                variant,
                genre,
                symmetry,
                rating,
                count: count as usize,
                number: number as usize,
                minimal,
                seed,
                time_limit: std::time::Duration::from_secs_f64(time_limit.min(1e9)),
                layout,
            })
        }
        Some(Command::Render {
            paths,
            format,
            candidates,
            solution,
            out,
            force,
            max_nodes,
            max_file_size,
        }) => match stdin_if_none(paths) {
            Ok(paths) => render::run(
                &paths,
                &render::Options {
                    format,
                    drawing: crate::render::Options {
                        candidates,
                        solution,
                    },
                    out,
                    force,
                    max_nodes,
                    max_file: max_file_size,
                },
            ),
            Err(code) => code,
        },
        Some(Command::Import { from, inputs }) => match stdin_if_none(inputs) {
            Ok(inputs) => import::run(
                &inputs,
                from.as_deref().and_then(classic::Format::from_name),
            ),
            Err(code) => code,
        },
        Some(Command::Export { to, path, puzzle }) => export::run(&path, to, puzzle),
        Some(Command::Completions { shell }) => docs::completions(Args::command(), shell),
        Some(Command::Man { out }) => docs::man(Args::command(), out.as_deref()),
        Some(Command::Help { command }) => help(command.as_deref()),
    }
}

/// `help [COMMAND]`: the long help of the program or of one subcommand.
fn help(command: Option<&str>) -> i32 {
    let mut program = Args::command();
    // Building names each subcommand after the program (`Usage: sudoku-lsp solve`), as clap
    // does itself for `solve --help`.
    program.build();
    let printed = match command {
        None => program.print_long_help(),
        Some(name) => match program.find_subcommand_mut(name) {
            Some(sub) => sub.print_long_help(),
            None => {
                return fail(&format!(
                    "no command '{name}': the commands are check, solve, marks, fmt, rate, explain, hint, new, render, import, export, bench, completions, man and help"
                ))
            }
        },
    };
    match printed {
        Ok(()) => 0,
        Err(_) => 2,
    }
}

/// A byte count as `--max-file-size` takes it: `1048576`, `512K`, `100M`, `2G` (binary units;
/// `KiB`, `MB` and the like are read the same).
fn parse_byte_size(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let digits = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(digits);
    let number: u64 = number
        .parse()
        .map_err(|_| format!("'{text}' is not a size: write bytes, or a number with K, M or G"))?;
    let shift = match unit
        .trim()
        .to_ascii_uppercase()
        .trim_end_matches("IB")
        .trim_end_matches('B')
    {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => {
            return Err(format!(
                "'{text}': the unit is K, M, G or T (binary), or none for bytes"
            ))
        }
    };
    number
        .checked_mul(1 << shift)
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("'{text}' is not a usable size"))
}

/// No paths means standard input, unless that is a terminal nobody is going to type a puzzle into.
fn stdin_if_none(paths: Vec<String>) -> Result<Vec<String>, i32> {
    if !paths.is_empty() {
        return Ok(paths);
    }
    if std::io::stdin().is_terminal() {
        return Err(fail(
            "give a PATH (a file or folder), or `-` to read standard input",
        ));
    }
    Ok(vec!["-".to_string()])
}

/// The budget of one puzzle's search on the command line.
fn node_budget(max_nodes: u64) -> crate::engine::Budget<'static> {
    crate::engine::Budget {
        max_nodes: Some(max_nodes),
        ..Default::default()
    }
}

/// A usage or I/O problem: said on stderr (`sudoku-lsp: error: …`), exit status 2.
fn fail(message: &str) -> i32 {
    style::say_error(message);
    2
}

#[cfg(test)]
mod tests {
    use super::*;

    fn workload_of(args: &[&str]) -> Workload {
        let args = Args::try_parse_from(std::iter::once("sudoku-lsp").chain(args.iter().copied()));
        workload(&args.unwrap().command)
    }

    #[test]
    fn only_small_files_to_check_solve_mark_or_format_make_a_small_run() {
        let dir = std::env::temp_dir().join(format!("sudoku-lsp-workload-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let small = dir.join("small.txt");
        std::fs::write(&small, "1".repeat(1000)).unwrap();
        let large = dir.join("large.txt");
        std::fs::write(&large, "1".repeat(SMALL_INPUT as usize + 1)).unwrap();
        let (small, large) = (small.to_str().unwrap(), large.to_str().unwrap());
        let folder = dir.to_str().unwrap();
        for command in ["check", "solve", "marks", "fmt"] {
            assert_eq!(workload_of(&[command, small, small]), Workload::Small);
            assert_eq!(workload_of(&[command, small, large]), Workload::Large);
            assert_eq!(workload_of(&[command, folder]), Workload::Large);
            assert_eq!(workload_of(&[command, "-"]), Workload::Large);
            assert_eq!(workload_of(&[command]), Workload::Large, "standard input");
            let missing = dir.join("missing.txt");
            assert_eq!(
                workload_of(&[command, missing.to_str().unwrap()]),
                Workload::Large
            );
        }
        assert_eq!(workload_of(&["rate", small]), Workload::Large);
        assert_eq!(workload_of(&["completions", "bash"]), Workload::Small);
        assert_eq!(workload_of(&[]), Workload::Serving);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
