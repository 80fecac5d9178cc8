//! Findings about puzzles: conflicts, impossible cells, digits with no place, and the verdict.
//!
//! `analyze` looks at one grid and knows no text positions, so its result can be cached by
//! content; `findings` places it in the source through the puzzle's spans. `explain_cell` and
//! `summarize` give the faces ready-made sentences for hover and the like.

use std::collections::HashMap;
use std::sync::Arc;

use crate::engine::{self, fast9, Budget, Contradiction, Digits, Forced, Marks, Reason, Stop};
use crate::finding::{Code, Finding, Related, Severity, Span};
use crate::format::{self, Document, Puzzle};
use crate::grid::{digit_char, geometry, Geometry, Size, Variant};

/// The same digit more than once in a unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    pub unit: usize,
    pub digit: u8,
    /// Every cell of the unit holding the digit, ascending.
    pub cells: Vec<usize>,
}

/// A digit missing from a unit that fits in none of the unit's empty cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoPlace {
    pub unit: usize,
    pub digit: u8,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Conflicts, impossible cells or digits with no place already show there is no solution.
    Broken,
    NoSolution,
    Unique(Vec<u8>),
    /// Two different solutions and the first cell where they differ.
    Several {
        first: Vec<u8>,
        second: Vec<u8>,
        differ: usize,
    },
    /// The budget ran out first; with the solution found so far, if any.
    Undecided {
        stop: Stop,
        found: Option<Vec<u8>>,
    },
}

impl Verdict {
    /// The solution to write in, if there is one (the first of several).
    pub fn solution(&self) -> Option<&[u8]> {
        match self {
            Verdict::Unique(s) => Some(s),
            Verdict::Several { first, .. } => Some(first),
            _ => None,
        }
    }
}

/// Everything we conclude about one grid; positions are cell indices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    pub size: Size,
    pub variant: Variant,
    pub conflicts: Vec<Conflict>,
    /// Empty cells whose pencil marks are empty.
    pub impossible: Vec<usize>,
    pub no_place: Vec<NoPlace>,
    pub verdict: Verdict,
    /// True when every cell is filled (and so, with no conflict, solved).
    pub full: bool,
}

/// Analyse one grid.
pub fn analyze(size: Size, variant: Variant, givens: &[u8], budget: &Budget) -> Analysis {
    let geometry = geometry(size, variant);
    let conflicts = find_conflicts(geometry, givens);
    let mut analysis = Analysis {
        size,
        variant,
        conflicts,
        impossible: Vec::new(),
        no_place: Vec::new(),
        verdict: Verdict::Broken,
        full: givens.iter().all(|&d| d != 0),
    };
    // A grid with a conflict is already wrong, and the extra digit empties cells and units that
    // would be fine without it: those follow-on findings wait until the conflict is fixed.
    if !analysis.conflicts.is_empty() {
        return analysis;
    }
    analysis.verdict = verdict(geometry, givens, budget);
    // Pencil marks keep every digit of every solution, so a puzzle with a solution has neither
    // impossible cells nor digits without a place: look for them only when search found none.
    if analysis.verdict.solution().is_none() {
        let marks = engine::pencil_marks(geometry, givens);
        analysis.impossible = (0..givens.len())
            .filter(|&c| givens[c] == 0 && marks.candidates[c].is_empty())
            .collect();
        analysis.no_place = find_no_place(geometry, givens, &marks);
        if !analysis.impossible.is_empty() || !analysis.no_place.is_empty() {
            analysis.verdict = Verdict::Broken;
        }
    }
    analysis
}

fn find_conflicts(geometry: &Geometry, givens: &[u8]) -> Vec<Conflict> {
    let mut conflicts = Vec::new();
    for (u, unit) in geometry.units.iter().enumerate() {
        let (mut seen, mut twice) = (Digits::EMPTY, Digits::EMPTY);
        for &cell in unit.cells.iter() {
            let digit = givens[cell as usize];
            if digit != 0 {
                if seen.contains(digit) {
                    twice.insert(digit);
                }
                seen.insert(digit);
            }
        }
        for digit in twice.iter() {
            let cells = unit
                .cells
                .iter()
                .map(|&c| c as usize)
                .filter(|&c| givens[c] == digit)
                .collect();
            conflicts.push(Conflict {
                unit: u,
                digit,
                cells,
            });
        }
    }
    conflicts
}

fn find_no_place(geometry: &Geometry, givens: &[u8], marks: &Marks) -> Vec<NoPlace> {
    let mut found = Vec::new();
    for (u, unit) in geometry.units.iter().enumerate() {
        let mut present = Digits::EMPTY;
        let mut fits = Digits::EMPTY;
        for &cell in unit.cells.iter() {
            let cell = cell as usize;
            match givens[cell] {
                0 => fits = fits | marks.candidates[cell],
                digit => present.insert(digit),
            }
        }
        let missing = Digits::all(geometry.side()) & !present;
        for digit in (missing & !fits).iter() {
            found.push(NoPlace { unit: u, digit });
        }
    }
    found
}

/// Search for up to two solutions, through the dedicated 9×9 solver where it applies.
fn verdict(geometry: &Geometry, givens: &[u8], budget: &Budget) -> Verdict {
    let (first, second, stop) = match <&[u8; 81]>::try_from(givens) {
        Ok(grid) => solve_nine(geometry, grid, budget),
        _ => {
            let outcome = engine::search(geometry, givens, 2, budget);
            let mut solutions = outcome.solutions.into_iter();
            (solutions.next(), solutions.next(), outcome.stop)
        }
    };
    match (first, second, stop) {
        (Some(first), Some(second), _) => {
            let differ = (0..first.len())
                .find(|&c| first[c] != second[c])
                .unwrap_or(0);
            Verdict::Several {
                first,
                second,
                differ,
            }
        }
        (found, _, Some(stop)) => Verdict::Undecided { stop, found },
        (Some(only), _, None) => Verdict::Unique(only),
        (None, _, None) => Verdict::NoSolution,
    }
}

/// The dedicated 9×9 solver. It takes a node budget and a cancel flag but no deadline: the
/// hardest known 9×9 needs well under a millisecond.
fn solve_nine(
    geometry: &Geometry,
    grid: &[u8; 81],
    budget: &Budget,
) -> (Option<Vec<u8>>, Option<Vec<u8>>, Option<Stop>) {
    let diagonal = geometry.variant == Variant::Diagonal;
    let max_nodes = budget.max_nodes.unwrap_or(u64::MAX);
    let outcome = fast9::solve(grid, diagonal, 2, max_nodes, budget.cancel);
    let found = |i: usize| (outcome.count > i).then(|| outcome.solutions[i].to_vec());
    let stop = outcome.stop.map(|stop| match stop {
        fast9::Fast9Stop::Nodes => Stop::Nodes,
        fast9::Fast9Stop::Cancelled => Stop::Cancelled,
    });
    (found(0), found(1), stop)
}

/// The findings of one analysed puzzle, placed at its spans.
pub fn findings(puzzle: &Puzzle, analysis: &Analysis) -> Vec<Finding> {
    let geometry = geometry(puzzle.size, puzzle.variant);
    let mut out = conflict_findings(geometry, puzzle, &analysis.conflicts);
    if !analysis.impossible.is_empty() || !analysis.no_place.is_empty() {
        let marks = engine::pencil_marks(geometry, &puzzle.givens);
        for &cell in &analysis.impossible {
            out.push(impossible_finding(geometry, puzzle, &marks, cell));
        }
        for no_place in &analysis.no_place {
            out.push(no_place_finding(geometry, puzzle, &marks, no_place));
        }
    }
    out.extend(verdict_finding(geometry, puzzle, analysis));
    out
}

/// One finding per cell of a conflict and other cell it clashes with, naming every shared unit.
fn conflict_findings(geometry: &Geometry, puzzle: &Puzzle, conflicts: &[Conflict]) -> Vec<Finding> {
    let mut pairs: Vec<(usize, usize, u8)> = Vec::new();
    for conflict in conflicts {
        for &a in &conflict.cells {
            for &b in conflict.cells.iter().filter(|&&b| b != a) {
                if !pairs.contains(&(a, b, conflict.digit)) {
                    pairs.push((a, b, conflict.digit));
                }
            }
        }
    }
    pairs.sort_unstable();
    pairs
        .into_iter()
        .map(|(cell, other, digit)| {
            let units = shared_unit_names(geometry, cell, other);
            let d = digit_char(digit);
            let mut finding = Finding::error(
                Code::Conflict,
                puzzle.cell_span(cell),
                format!(
                    "{d} appears twice in {units}: {} and {}",
                    geometry.cell_name(cell),
                    geometry.cell_name(other)
                ),
            );
            finding.related.push(Related {
                span: puzzle.cell_span(other),
                message: format!("the other {d} in {units}, at {}", geometry.cell_name(other)),
            });
            finding
        })
        .collect()
}

/// "row E" or "row E and box 4".
fn shared_unit_names(geometry: &Geometry, a: usize, b: usize) -> String {
    let names: Vec<String> = geometry.units_of[a]
        .iter()
        .map(|&u| u as usize)
        .filter(|&u| geometry.units[u].cells.contains(&(b as u16)))
        .map(|u| geometry.unit_name(u))
        .collect();
    join_and(&names)
}

fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

fn impossible_finding(geometry: &Geometry, puzzle: &Puzzle, marks: &Marks, cell: usize) -> Finding {
    let reasons: Vec<String> = Digits::all(geometry.side())
        .iter()
        .map(|d| {
            format!(
                "{} ({})",
                digit_char(d),
                reason_text(geometry, marks.reason(cell, d))
            )
        })
        .collect();
    let mut finding = Finding::error(
        Code::ImpossibleCell,
        puzzle.cell_span(cell),
        format!(
            "no digit fits in {}: {}",
            geometry.cell_name(cell),
            reasons.join(", ")
        ),
    );
    finding.related = related_peers(geometry, puzzle, marks, cell);
    finding
}

/// The peers that took digits from `cell`, one related location each.
fn related_peers(geometry: &Geometry, puzzle: &Puzzle, marks: &Marks, cell: usize) -> Vec<Related> {
    let mut related: Vec<Related> = Vec::new();
    for digit in Digits::all(geometry.side()).iter() {
        if let Some(Reason::Peer { peer, .. }) = marks.reason(cell, digit) {
            let span = puzzle.cell_span(peer as usize);
            if !related.iter().any(|r| r.span == span) {
                related.push(Related {
                    span,
                    message: format!(
                        "{} takes {}",
                        geometry.cell_name(peer as usize),
                        digit_char(digit)
                    ),
                });
            }
        }
    }
    related
}

fn no_place_finding(
    geometry: &Geometry,
    puzzle: &Puzzle,
    marks: &Marks,
    no_place: &NoPlace,
) -> Finding {
    let unit = &geometry.units[no_place.unit];
    let empties: Vec<usize> = unit
        .cells
        .iter()
        .map(|&c| c as usize)
        .filter(|&c| puzzle.givens[c] == 0)
        .collect();
    let d = digit_char(no_place.digit);
    let unit_name = geometry.unit_name(no_place.unit);
    let why: Vec<String> = empties
        .iter()
        .map(|&c| {
            format!(
                "{} ({})",
                geometry.cell_name(c),
                reason_text(geometry, marks.reason(c, no_place.digit))
            )
        })
        .collect();
    let message = if why.is_empty() {
        format!("{d} has no place in {unit_name}")
    } else {
        format!("{d} has no place in {unit_name}: {}", why.join(", "))
    };
    let span = unit_span(puzzle, &unit.cells, &empties);
    let mut finding = Finding::error(Code::NoPlace, span, message);
    finding.related = empties
        .iter()
        .skip(1)
        .map(|&c| Related {
            span: puzzle.cell_span(c),
            message: format!("{} cannot hold {d}", geometry.cell_name(c)),
        })
        .collect();
    finding
}

/// Where a unit-wide finding goes: the whole row when the unit's cells sit on one line of the
/// source, else its first empty cell (a column or box spans lines full of other text).
fn unit_span(puzzle: &Puzzle, cells: &[u16], empties: &[usize]) -> Span {
    let first = puzzle.cell_span(cells[0] as usize);
    let last = puzzle.cell_span(cells[cells.len() - 1] as usize);
    let is_row = cells.windows(2).all(|w| w[1] == w[0] + 1);
    if is_row && puzzle.layout == format::Layout::Block {
        Span::new(first.start, last.end)
    } else {
        empties.first().map_or(first, |&c| puzzle.cell_span(c))
    }
}

fn verdict_finding(geometry: &Geometry, puzzle: &Puzzle, analysis: &Analysis) -> Option<Finding> {
    let at = puzzle.anchor();
    match &analysis.verdict {
        Verdict::Broken => None,
        Verdict::NoSolution => Some(Finding::error(
            Code::NoSolution,
            at,
            "no solution: no way to fill every empty cell keeps each digit once per unit",
        )),
        Verdict::Unique(_) if analysis.full => {
            Some(Finding::new(Severity::Hint, Code::Solved, at, "solved"))
        }
        Verdict::Unique(_) => None,
        Verdict::Several {
            first,
            second,
            differ,
        } => Some(Finding::warning(
            Code::SeveralSolutions,
            at,
            format!(
                "several solutions: {} can be {} or {}",
                geometry.cell_name(*differ),
                digit_char(first[*differ]),
                digit_char(second[*differ])
            ),
        )),
        Verdict::Undecided { stop, found } => Some(Finding::new(
            Severity::Info,
            Code::Undecided,
            at,
            format!(
                "undecided: the search {} before it could tell {}",
                stop_text(*stop),
                if found.is_some() {
                    "whether the solution it found is the only one"
                } else {
                    "whether there is a solution"
                }
            ),
        )),
    }
}

fn stop_text(stop: Stop) -> &'static str {
    match stop {
        Stop::Nodes => "reached its node budget",
        Stop::Deadline => "ran out of time",
        Stop::Cancelled => "was cancelled",
    }
}

/// Why a digit left a cell, as hover and messages say it: "row E: E2",
/// "naked twins {8, 9} in column 5: B5, H5", "only place for 7 in box 5".
pub fn reason_text(geometry: &Geometry, reason: Option<Reason>) -> String {
    match reason {
        None => "no reason recorded".to_string(),
        Some(Reason::Peer { unit, peer }) => {
            format!(
                "{}: {}",
                geometry.unit_name(unit as usize),
                geometry.cell_name(peer as usize)
            )
        }
        Some(Reason::NakedTwins { unit, pair, digits }) => format!(
            "naked twins {digits} in {}: {}, {}",
            geometry.unit_name(unit as usize),
            geometry.cell_name(pair[0] as usize),
            geometry.cell_name(pair[1] as usize)
        ),
        Some(Reason::OnlyChoice { unit, digit }) => format!(
            "{} goes here, its only place in {}",
            digit_char(digit),
            geometry.unit_name(unit as usize)
        ),
    }
}

/// A whole text parsed and analysed: every puzzle's analysis and all findings in source order.
pub struct Checked {
    pub document: Document,
    /// One per puzzle of `document`, in the same order.
    pub analyses: Vec<Arc<Analysis>>,
    pub findings: Vec<Finding>,
}

/// The node budget of one puzzle's search, for the command line and the editor alike: far more
/// than any 9×9 needs, and a bound on the rare large grid that would otherwise search for minutes.
pub const DEFAULT_MAX_NODES: u64 = 1_000_000;

/// Parse and analyse a whole text.
pub fn check_text(text: &str, budget: &Budget) -> Checked {
    check_text_with(text, budget, &mut Cache::default())
}

/// Parse and analyse a whole text, reusing the analyses of grids `cache` has seen before: an edit
/// to one puzzle of a large collection analyses that puzzle again, not the others.
pub fn check_text_with(text: &str, budget: &Budget, cache: &mut Cache) -> Checked {
    check_document(format::parse(text), budget, cache)
}

/// Analyse an already parsed document (whose parse a caller may want to keep using).
pub fn check_document(document: Document, budget: &Budget, cache: &mut Cache) -> Checked {
    let analyses = cache.analyze_all(&document.puzzles, budget);
    with_findings(document, analyses)
}

/// Check a document that `format::reparse` updated from the one `earlier` checked: the
/// puzzles it kept keep their analyses (the grid is the same, only its place moved), the ones it
/// read anew are looked up in `cache` or analysed. Analyses a cancel or deadline cut short are
/// redone. Findings are placed afresh, since the kept puzzles may have moved.
pub fn recheck(
    document: Document,
    earlier: Vec<Arc<Analysis>>,
    splice: format::Splice,
    budget: &Budget,
    cache: &mut Cache,
) -> Checked {
    let mut analyses = earlier;
    let replaced = splice.first..splice.first + splice.removed;
    if replaced.end > analyses.len()
        || analyses.len() - splice.removed + splice.added != document.puzzles.len()
    {
        // Not the document `earlier` was for: check it whole.
        return check_document(document, budget, cache);
    }
    let read = &document.puzzles[splice.first..splice.first + splice.added];
    analyses.splice(replaced, cache.analyze_some(read, budget));
    let unfinished: Vec<usize> = (0..analyses.len())
        .filter(|&i| !is_final(&analyses[i]))
        .collect();
    if !unfinished.is_empty() {
        let puzzles: Vec<Puzzle> = unfinished
            .iter()
            .map(|&i| document.puzzles[i].clone())
            .collect();
        for (i, analysis) in unfinished
            .into_iter()
            .zip(cache.analyze_some(&puzzles, budget))
        {
            analyses[i] = analysis;
        }
    }
    with_findings(document, analyses)
}

/// The findings of a parsed and analysed document, in source order.
fn with_findings(document: Document, analyses: Vec<Arc<Analysis>>) -> Checked {
    let mut findings = document.problems.clone();
    for (puzzle, analysis) in document.puzzles.iter().zip(&analyses) {
        if has_findings(analysis) {
            findings.extend(self::findings(puzzle, analysis));
        }
    }
    findings.sort_by_key(|f| (f.span.start, f.span.end));
    Checked {
        document,
        analyses,
        findings,
    }
}

/// Whether `findings` would say anything: most puzzles of a collection are sound, and skipping
/// them keeps a large check cheap.
fn has_findings(analysis: &Analysis) -> bool {
    !matches!(analysis.verdict, Verdict::Unique(_)) || analysis.full
}

/// What identifies an analysis: the grid and its shape, never its place in the text.
type CacheKey = (Size, Variant, Box<[u8]>);

/// Analyses by grid content, kept from one check of a document to the next.
#[derive(Default)]
pub struct Cache {
    entries: HashMap<CacheKey, Arc<Analysis>>,
    /// How many entries `analyze_some` lets the cache grow to before starting afresh.
    limit: usize,
}

/// Room for grids edited away since the last whole check, besides the document's own.
const CACHE_SLACK: usize = 1024;

impl Cache {
    /// The analysis of each of `puzzles` (a few, re-read after an edit): looked up, or analysed
    /// and remembered. Nothing is forgotten unless the cache outgrows twice its document.
    pub fn analyze_some(&mut self, puzzles: &[Puzzle], budget: &Budget) -> Vec<Arc<Analysis>> {
        if self.entries.len() > self.limit.max(CACHE_SLACK) {
            self.entries.clear();
        }
        let keys: Vec<CacheKey> = puzzles.iter().map(key).collect();
        let mut results: Vec<Option<Arc<Analysis>>> =
            keys.iter().map(|k| self.entries.get(k).cloned()).collect();
        let missing: Vec<usize> = (0..keys.len()).filter(|&i| results[i].is_none()).collect();
        for (i, analysis) in analyze_in_parallel(&keys, &missing, budget) {
            let analysis = Arc::new(analysis);
            if is_final(&analysis) {
                self.entries.insert(keys[i].clone(), Arc::clone(&analysis));
            }
            results[i] = Some(analysis);
        }
        results
            .into_iter()
            .map(|r| r.expect("every puzzle analysed"))
            .collect()
    }

    /// The analysis of every puzzle, in order. Grids seen last time are not analysed again; grids
    /// not among these puzzles are forgotten, so the cache never outgrows its document.
    pub fn analyze_all(&mut self, puzzles: &[Puzzle], budget: &Budget) -> Vec<Arc<Analysis>> {
        let old = std::mem::take(&mut self.entries);
        self.limit = 2 * puzzles.len() + CACHE_SLACK;
        let keys: Vec<CacheKey> = puzzles.iter().map(key).collect();
        let mut results: Vec<Option<Arc<Analysis>>> =
            keys.iter().map(|k| old.get(k).cloned()).collect();
        let missing: Vec<usize> = (0..keys.len()).filter(|&i| results[i].is_none()).collect();
        for (i, analysis) in analyze_in_parallel(&keys, &missing, budget) {
            results[i] = Some(Arc::new(analysis));
        }
        let results: Vec<Arc<Analysis>> = results
            .into_iter()
            .map(|r| r.expect("every puzzle analysed"))
            .collect();
        for (key, analysis) in keys.into_iter().zip(&results) {
            if is_final(analysis) {
                self.entries.insert(key, Arc::clone(analysis));
            }
        }
        results
    }
}

fn key(puzzle: &Puzzle) -> CacheKey {
    (
        puzzle.size,
        puzzle.variant,
        puzzle.givens.clone().into_boxed_slice(),
    )
}

/// An analysis worth keeping: not one cut short by a deadline or a cancel, which another run
/// could finish.
fn is_final(analysis: &Analysis) -> bool {
    !matches!(
        analysis.verdict,
        Verdict::Undecided {
            stop: Stop::Deadline | Stop::Cancelled,
            ..
        }
    )
}

/// Analyse the puzzles at `which`, on every core when there are enough of them to pay for threads.
fn analyze_in_parallel(
    keys: &[CacheKey],
    which: &[usize],
    budget: &Budget,
) -> Vec<(usize, Analysis)> {
    let analyze_one = |&i: &usize| {
        let (size, variant, givens) = &keys[i];
        (i, analyze(*size, *variant, givens, budget))
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    if threads < 2 || which.len() < 64 {
        return which.iter().map(analyze_one).collect();
    }
    let chunk = which.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let workers: Vec<_> = which
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().map(analyze_one).collect::<Vec<_>>()))
            .collect();
        workers
            .into_iter()
            .flat_map(|w| {
                w.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    })
}

/// What hover says about one cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellExplanation {
    /// "E5"
    pub name: String,
    /// "row E", "column 5", "box 5", …
    pub units: Vec<String>,
    pub state: CellState,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CellState {
    /// A digit in the source; `conflicts` names each clash, e.g. "row E: E2".
    Given { digit: u8, conflicts: Vec<String> },
    Empty {
        /// The pencil marks.
        marks: Digits,
        /// Each excluded digit with why, e.g. (4, "row E: E2"),
        /// (9, "naked twins {8, 9} in column 5: B5, H5").
        excluded: Vec<(u8, String)>,
        /// What full propagation concludes, e.g. "propagation places 7 (only place for 7 in box 5)"
        /// or "propagation leaves {2, 7}".
        conclusion: String,
    },
}

/// Explain one cell of a puzzle (computed on demand: it costs microseconds).
pub fn explain_cell(puzzle: &Puzzle, cell: usize) -> CellExplanation {
    let geometry = geometry(puzzle.size, puzzle.variant);
    let units = geometry.units_of[cell]
        .iter()
        .map(|&u| geometry.unit_name(u as usize))
        .collect();
    let state = match puzzle.givens[cell] {
        0 => explain_empty(geometry, &puzzle.givens, cell),
        digit => CellState::Given {
            digit,
            conflicts: geometry.peers[cell]
                .iter()
                .map(|&p| p as usize)
                .filter(|&p| puzzle.givens[p] == digit)
                .map(|p| {
                    format!(
                        "{}: {}",
                        shared_unit_names(geometry, cell, p),
                        geometry.cell_name(p)
                    )
                })
                .collect(),
        },
    };
    CellExplanation {
        name: geometry.cell_name(cell),
        units,
        state,
    }
}

fn explain_empty(geometry: &Geometry, givens: &[u8], cell: usize) -> CellState {
    let marks = engine::pencil_marks(geometry, givens);
    let here = marks.candidates[cell];
    let excluded = (Digits::all(geometry.side()) & !here)
        .iter()
        .map(|d| (d, reason_text(geometry, marks.reason(cell, d))))
        .collect();
    CellState::Empty {
        marks: here,
        excluded,
        conclusion: propagation_conclusion(geometry, givens, cell),
    }
}

/// What `propagate` says of one cell, in a sentence.
fn propagation_conclusion(geometry: &Geometry, givens: &[u8], cell: usize) -> String {
    let result = engine::propagate(geometry, givens);
    if let Some(contradiction) = result.contradiction {
        return format!(
            "propagation finds no solution: {}",
            contradiction_text(geometry, contradiction)
        );
    }
    if let Some(placement) = result.placed.iter().find(|p| p.cell == cell) {
        let d = digit_char(placement.digit);
        return match placement.how {
            Forced::LastCandidate => format!("propagation places {d}: its last candidate"),
            Forced::OnlyPlace { unit } => {
                format!(
                    "propagation places {d}: its only place in {}",
                    geometry.unit_name(unit as usize)
                )
            }
        };
    }
    format!("propagation leaves {}", result.marks.candidates[cell])
}

fn contradiction_text(geometry: &Geometry, contradiction: Contradiction) -> String {
    match contradiction {
        Contradiction::EmptyCell { cell } => {
            format!("{} is left with no candidate", geometry.cell_name(cell))
        }
        Contradiction::NoPlace { unit, digit } => {
            format!(
                "{} has no place left in {}",
                digit_char(digit),
                geometry.unit_name(unit)
            )
        }
        Contradiction::Clash { unit, digit } => {
            format!(
                "{} would be placed twice in {}",
                digit_char(digit),
                geometry.unit_name(unit)
            )
        }
    }
}

/// One line per fact about a puzzle as a whole: size, variant, givens, solution status.
pub fn summarize(puzzle: &Puzzle, analysis: &Analysis) -> Vec<String> {
    let geometry = geometry(puzzle.size, puzzle.variant);
    // The title is not repeated here: the faces already name the puzzle by it.
    let empty = puzzle.givens.len() - puzzle.givens_count();
    vec![
        format!("{} {} sudoku", puzzle.size.label(), puzzle.variant.name()),
        format!("{} givens, {empty} empty cells", puzzle.givens_count()),
        status_text(geometry, analysis),
    ]
}

fn status_text(geometry: &Geometry, analysis: &Analysis) -> String {
    let count = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    match &analysis.verdict {
        Verdict::Broken => {
            let mut parts = Vec::new();
            if !analysis.conflicts.is_empty() {
                parts.push(count(analysis.conflicts.len(), "conflict"));
            }
            if !analysis.impossible.is_empty() {
                parts.push(count(analysis.impossible.len(), "impossible cell"));
            }
            if !analysis.no_place.is_empty() {
                parts.push(count(analysis.no_place.len(), "digit with no place"));
            }
            format!("no solution: {}", parts.join(", "))
        }
        Verdict::NoSolution => "no solution".to_string(),
        Verdict::Unique(_) if analysis.full => "solved".to_string(),
        Verdict::Unique(_) => "exactly one solution".to_string(),
        Verdict::Several {
            first,
            second,
            differ,
        } => format!(
            "several solutions ({} can be {} or {})",
            geometry.cell_name(*differ),
            digit_char(first[*differ]),
            digit_char(second[*differ])
        ),
        Verdict::Undecided { stop, .. } => format!("undecided: the search {}", stop_text(*stop)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::Layout;

    fn puzzle(line: &str) -> Puzzle {
        let givens: Vec<u8> = line
            .bytes()
            .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
            .collect();
        let cell_spans = format::CellSpans::run(0, givens.len());
        Puzzle {
            size: Size::NINE,
            variant: Variant::Classic,
            givens,
            cell_spans,
            span: Span::new(0, 81),
            first_row: Span::new(0, 81),
            meta: Default::default(),
            header: Vec::new(),
            layout: Layout::Line,
        }
    }

    #[test]
    fn the_cache_reuses_unchanged_grids_and_forgets_the_rest() {
        let easy =
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
        let other = easy.replacen("..3", "1.3", 1);
        let mut cache = Cache::default();
        let budget = Budget::unlimited();
        let first = cache.analyze_all(&[puzzle(easy), puzzle(&other)], &budget);
        let second = cache.analyze_all(&[puzzle(easy)], &budget);
        assert!(Arc::ptr_eq(&first[0], &second[0]));
        assert_eq!(cache.entries.len(), 1);
        assert!(matches!(
            first[1].verdict,
            Verdict::Unique(_) | Verdict::Broken | Verdict::NoSolution
        ));
    }

    #[test]
    fn many_puzzles_are_analysed_in_order() {
        let easy =
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
        let conflict = easy.replacen("..3", "3.3", 1);
        let puzzles: Vec<Puzzle> = (0..200)
            .map(|i| puzzle(if i % 7 == 0 { &conflict } else { easy }))
            .collect();
        let analyses = Cache::default().analyze_all(&puzzles, &Budget::unlimited());
        for (i, a) in analyses.iter().enumerate() {
            assert_eq!(a.verdict == Verdict::Broken, i % 7 == 0, "puzzle {i}");
        }
    }
}
