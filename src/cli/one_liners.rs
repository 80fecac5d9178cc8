//! Pieces made of classic one-line puzzles alone (`read::Piece::one_liners`): each line is
//! searched with the 9×9 solver as it is, and only a line with something to say (no solution,
//! several, a conflict, a full grid, a search cut short) is parsed and analysed, the search
//! reused, exactly as the piece's parse would read it. Most collections are all sound puzzles,
//! and their parse and analyses were half of `check`'s time over one.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::read::Piece;
use crate::analysis::{self, Analysis, Asked, Cache, NineSearch};
use crate::engine::Budget;
use crate::finding::Finding;
use crate::format::{Document, PartParser};
use crate::grid::{Size, Variant};

/// One line of a piece of one-liners, searched.
pub enum Line {
    /// Exactly one solution, the search complete: what nearly every line of a collection has.
    Unique {
        /// Where the line starts in the piece's text.
        at: usize,
        /// Whether every cell is given (then the puzzle is solved, which `check` says).
        full: bool,
        solution: [u8; 81],
    },
    /// Anything else: the line as the piece's parse reads it, and the analysis of its puzzle
    /// (boxed: a document is large beside a solution, and most lines have none).
    Parsed {
        /// Where the line starts in the piece's text.
        at: usize,
        parsed: Box<Parsed>,
    },
}

/// A line parsed: a document of one puzzle, and its analysis.
pub struct Parsed {
    pub document: Document,
    pub analyses: Vec<Arc<Analysis>>,
}

/// Every line of `piece`, a piece of one-liners that `parser` reads, in order, searched on
/// every core, and what `then` makes of each there (given its 0-based number in the piece).
pub fn search<R: Send>(
    piece: &Piece,
    parser: &PartParser,
    budget: &Budget,
    then: impl Fn(usize, Line) -> R + Sync + Send,
) -> Vec<R> {
    let variant = parser.variant();
    let lines: Vec<_> = piece.one_liner_lines().into_iter().enumerate().collect();
    let search = |&(k, (at, cells)): &(usize, (usize, &[u8]))| {
        then(k, search_line(piece, parser, variant, budget, at, cells))
    };
    map_in_order(&lines, search)
}

/// The findings of a piece of one-liners, line after line in source order, handed to `each`:
/// what `document_findings` gives for the piece's parse, asked nothing more. Returns how many
/// puzzles it holds. Lines are searched a batch at a time on every core, so that memory holds
/// one batch's findings, not a piece's (a collection where every puzzle has several solutions
/// has a finding on every line).
pub fn each_finding(
    piece: &Piece,
    parser: &PartParser,
    budget: &Budget,
    mut each: impl FnMut(&Finding),
) -> usize {
    const BATCH: usize = 4096;
    let variant = parser.variant();
    let lines = piece.one_liner_lines();
    let line_findings = |&(at, cells): &(usize, &[u8])| {
        match search_line(piece, parser, variant, budget, at, cells) {
            // A sound puzzle says nothing unless its grid is full (`solved`).
            Line::Unique { full: false, .. } => Vec::new(),
            Line::Unique { full: true, .. } => {
                let givens = givens(cells);
                let search = NineSearch::new(variant, &givens, budget);
                let Parsed { document, analyses } =
                    parse(piece, parser, at, &givens, variant, search, budget);
                analysis::document_findings_analysed(document, analyses, budget, Asked::default())
            }
            Line::Parsed { parsed, .. } => analysis::document_findings_analysed(
                parsed.document,
                parsed.analyses,
                budget,
                Asked::default(),
            ),
        }
    };
    for batch in lines.chunks(BATCH) {
        for finding in map_in_order(batch, line_findings).iter().flatten() {
            each(finding);
        }
    }
    lines.len()
}

/// Whether the pool of threads has been asked for.
static POOL_STARTED: AtomicBool = AtomicBool::new(false);

/// Start the pool's threads now, in the background, for a run known to be large (they take a
/// millisecond or two to start, which the reading of the input's first piece then hides): its
/// first lines are then searched on every core at once, not on the calling thread alone.
pub fn start_pool() {
    if !POOL_STARTED.swap(true, Ordering::Relaxed) {
        rayon::spawn(|| {});
    }
}

/// `each` of `items`, in order: on the calling thread for the first couple of milliseconds, then
/// (what is left) on every core. Starting the pool's threads costs a millisecond or two (their
/// stacks, their allocator's first pages), more than a small file's whole work; once started,
/// the pool serves every later piece at once.
pub fn map_in_order<T: Sync, R: Send>(items: &[T], each: impl Fn(&T) -> R + Sync + Send) -> Vec<R> {
    const ALONE_FOR: Duration = Duration::from_millis(2);
    let mut done = Vec::with_capacity(items.len());
    if !POOL_STARTED.load(Ordering::Relaxed) {
        let start = Instant::now();
        for chunk in items.chunks(16) {
            done.extend(chunk.iter().map(&each));
            if start.elapsed() > ALONE_FOR {
                break;
            }
        }
    }
    let rest = &items[done.len()..];
    if !rest.is_empty() {
        POOL_STARTED.store(true, Ordering::Relaxed);
        done.par_extend(rest.par_iter().with_min_len(16).map(&each));
    }
    done
}

/// One line, at `at` of the piece's text, its cells `cells`, searched.
fn search_line(
    piece: &Piece,
    parser: &PartParser,
    variant: Variant,
    budget: &Budget,
    at: usize,
    cells: &[u8],
) -> Line {
    let givens = givens(cells);
    let search = NineSearch::new(variant, &givens, budget);
    match search.unique() {
        Some(solution) => Line::Unique {
            at,
            full: !givens.contains(&0),
            solution: *solution,
        },
        None => Line::Parsed {
            at,
            parsed: Box::new(parse(piece, parser, at, &givens, variant, search, budget)),
        },
    }
}

/// The cells of a one-liner's line: `1`–`9` a digit, `.` `0` `_` an empty cell.
fn givens(cells: &[u8]) -> [u8; 81] {
    let mut givens = [0; 81];
    for (given, &byte) in givens.iter_mut().zip(cells) {
        *given = if byte.is_ascii_digit() {
            byte - b'0'
        } else {
            0
        };
    }
    givens
}

/// The line at `at` of `piece` parsed, its puzzle analysed with the search already made.
fn parse(
    piece: &Piece,
    parser: &PartParser,
    at: usize,
    givens: &[u8; 81],
    variant: Variant,
    search: NineSearch,
    budget: &Budget,
) -> Parsed {
    // A one-liner is its 81 cells and its line break.
    let end = at + 81;
    let line_end = match piece.text.as_bytes()[end..] {
        [b'\r', b'\n', ..] => end + 2,
        [] => end,
        _ => end + 1,
    };
    let document = parser.parse_one_liner(&piece.text[at..line_end], piece.base + at);
    let analyses = match document.puzzles.as_slice() {
        [puzzle]
            if puzzle.size == Size::NINE
                && puzzle.variant == variant
                && puzzle.entries.is_none()
                && puzzle.givens == givens =>
        {
            let analysis =
                analysis::analyze_searched(Size::NINE, variant, givens, budget, Some(search));
            vec![Arc::new(analysis)]
        }
        // Never so for a line read as a one-liner; analysed afresh all the same.
        puzzles => Cache::one_use().analyze_all(puzzles, budget),
    };
    Parsed { document, analyses }
}
