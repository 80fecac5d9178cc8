//! Ratings for the server: each puzzle's path of simplest steps, graded after the diagnostics
//! run, a slice of the document at a time on background threads (`long`), and kept by grid so
//! an edit re-rates only the puzzles it changed. What is kept is small: the rating, how many steps of
//! each technique, and the steps up to the first that places a digit (what hints, hovers and
//! "Apply next step" read).
//!
//! Everything here is blocking CPU work, called from `long::background`.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, Weak};
use std::time::{Duration, Instant};

use super::jobs::Analyzed;
use crate::analysis::{self, incomplete_reason, Verdict};
use crate::engine::Budget;
use crate::finding::Span;
use crate::format::Puzzle;
use crate::grid::{geometry, Size, Variant};
use crate::logic::{self, Rating, Step, Technique};
use crate::rules::Rules;

/// The most steps worked out on demand looking for the next placement.
const MAX_LEAD: usize = 200;
/// How long on-demand work may go on looking for the next placement.
const ON_DEMAND: Duration = Duration::from_millis(250);

/// The time one puzzle's rating may take: `SUDOKU_LSP_RATING_MS` milliseconds, 10 s by default;
/// past it the rating is a lower bound (`SE ≥ …`).
pub fn per_puzzle() -> Duration {
    static LIMIT: OnceLock<Duration> = OnceLock::new();
    *LIMIT.get_or_init(|| {
        let ms = std::env::var("SUDOKU_LSP_RATING_MS")
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
            .unwrap_or(10_000);
        Duration::from_millis(ms)
    })
}

/// A grid and its rules: what ratings are kept by. The rules without the lines that say them:
/// an edit above a puzzle moves its lines, not its rules.
pub type Key = (Size, Variant, Vec<u8>, Option<Arc<Rules>>);

fn key(puzzle: &Puzzle) -> Key {
    let rules = puzzle.rules.as_deref().map(|rules| {
        let mut rules = rules.clone();
        for constraint in &mut rules.constraints {
            constraint.line = Span::default();
        }
        Arc::new(rules)
    });
    (
        puzzle.size,
        puzzle.variant,
        puzzle.clues().into_owned(),
        rules,
    )
}

/// What the server keeps of one puzzle's path.
#[derive(Debug)]
pub struct Rated {
    pub rating: Rating,
    /// Whether the rating is on the variant scale (a puzzle with rules), not Sudoku Explainer's.
    pub variant_scale: bool,
    /// Why the rating is only a lower bound, if it is.
    pub incomplete: Option<&'static str>,
    pub steps: usize,
    /// How many steps of each technique, in the order each was first used.
    pub counts: Vec<(Technique, usize)>,
    /// The hints from the givens up to and including the first that places a digit: the steps
    /// of the hint ladder (`logic::next_hint`), which names patterns the rating's path (Sudoku
    /// Explainer's ladder) would reach only through chains.
    pub lead: Vec<Step>,
    /// The givens the puzzle does not need, ascending (empty: minimal); `None` when the budget
    /// ran out before each was tried.
    pub redundant: Option<Vec<usize>>,
}

impl Rated {
    fn of(
        path: logic::Path,
        lead: Vec<Step>,
        redundant: Option<Vec<usize>>,
        variant_scale: bool,
    ) -> Rated {
        let rating = logic::rate(&path);
        let incomplete = incomplete_reason(&path);
        let mut counts: Vec<(Technique, usize)> = Vec::new();
        for step in &path.steps {
            match counts.iter_mut().find(|(t, _)| *t == step.technique) {
                Some((_, n)) => *n += 1,
                None => counts.push((step.technique, 1)),
            }
        }
        let steps = path.steps.len();
        Rated {
            rating,
            incomplete,
            steps,
            counts,
            lead,
            redundant,
            variant_scale,
        }
    }

    /// `minimal`, `1 redundant given`, or nothing when that is not known.
    pub fn minimality(&self) -> Option<String> {
        match self.redundant.as_deref()? {
            [] => Some("minimal".to_string()),
            some => Some(crate::finding::plural(some.len(), "redundant given")),
        }
    }

    /// `SE 7.2 · Fiendish`, or `SE ≥ 7.2 · Fiendish` for a lower bound; `Variant 2.8 · Hard`
    /// on the variant scale.
    pub fn words(&self) -> String {
        let bound = self.incomplete.is_some();
        crate::analysis::prose::rating(&self.rating, self.variant_scale, bound)
    }

    /// The lines hover shows on a puzzle's title: rating, hardest technique, steps by technique,
    /// and whether every given is needed.
    pub fn lines(&self, geometry: &crate::grid::Geometry) -> Vec<String> {
        let mut lines = vec![format!("Rating: {}", self.words())];
        if let Some(why) = self.incomplete {
            lines.push(format!("A lower bound: the solver {why}"));
        }
        if let Some(hardest) = self.rating.hardest {
            lines.push(format!("Hardest technique: {hardest}"));
        }
        let counts: Vec<String> = self
            .counts
            .iter()
            .map(|(technique, n)| format!("{technique} ×{n}"))
            .collect();
        lines.push(format!(
            "{}: {}",
            crate::finding::plural(self.steps, "step"),
            counts.join(", ")
        ));
        match self.redundant.as_deref() {
            Some([]) => lines.push("Minimal: every given is needed".to_string()),
            Some(cells) => {
                let names: Vec<String> = cells.iter().map(|&c| geometry.cell_name(c)).collect();
                lines.push(format!(
                    "Not minimal: the puzzle stays unique without any one of {}",
                    names.join(", ")
                ));
            }
            None => lines.push("Minimality not decided (the search ran out of budget)".into()),
        }
        lines
    }
}

/// One document's ratings by grid, and the leads of variant grids worked out on demand.
#[derive(Default)]
pub struct Ratings {
    by_grid: Mutex<HashMap<Key, Arc<Rated>>>,
    leads: Mutex<Leads>,
}

/// Leads (the steps up to the first placement) of variant grids as the solver has them
/// (entries included), worked out on demand: at most [`KEPT_LEADS`], and the one being worked
/// out in the background with its cancel flag.
#[derive(Default)]
struct Leads {
    done: HashMap<Key, Arc<Vec<Step>>>,
    pending: Option<(Key, Arc<AtomicBool>)>,
}

/// Leads kept per document: the grids the solver has been through lately.
const KEPT_LEADS: usize = 64;
/// How long a request may look for a variant grid's lead itself before leaving it to the
/// background: code actions are asked for at every move of the cursor.
const QUICK_LEAD: Duration = Duration::from_millis(1);

impl Ratings {
    fn lock(&self) -> MutexGuard<'_, HashMap<Key, Arc<Rated>>> {
        self.by_grid
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn leads(&self) -> MutexGuard<'_, Leads> {
        self.leads
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub fn get(&self, puzzle: &Puzzle) -> Option<Arc<Rated>> {
        self.lock().get(&key(puzzle)).cloned()
    }

    fn keep_lead(&self, grid: Key, lead: Vec<Step>) -> Arc<Vec<Step>> {
        let lead = Arc::new(lead);
        let mut leads = self.leads();
        if leads.done.len() >= KEPT_LEADS {
            leads.done.clear();
        }
        leads.done.insert(grid, lead.clone());
        lead
    }
}

/// What a rating run has to do.
pub struct Plan {
    /// The grids with one solution not rated yet, each once, in the document's order.
    pub todo: Vec<Key>,
    /// How many puzzles the document has.
    pub puzzles: usize,
    /// A test hook: each grid takes at least `jobs::LAGGING_RATING`.
    pub lag: bool,
}

/// How many puzzles the plan reads between two looks at its cancel flag, holding the result
/// meanwhile.
const PLAN_CHUNK: usize = 256;

/// The grids of the result `kept` to rate; the ratings of grids no longer in the document are
/// forgotten. It holds the result only a chunk of puzzles at a time: the next edit's run takes
/// the result over to re-read only what changed, which it cannot while anything else holds it
/// (it copies the parse instead, ten milliseconds and more for a large collection).
/// Cancelled (a newer text came), or the result gone, it stops with nothing to do and forgets
/// nothing.
pub fn plan(kept: &Weak<Analyzed>, ratings: &Ratings, cancel: &AtomicBool) -> Plan {
    let nothing = |puzzles| Plan {
        todo: Vec::new(),
        puzzles,
        lag: false,
    };
    let Some((text, puzzles)) = kept.upgrade().map(|analyzed| {
        (
            analyzed.text.clone(),
            analyzed.checked.document.puzzles.len(),
        )
    }) else {
        return nothing(0);
    };
    let lag = super::jobs::rating_hooks(&text, cancel);
    let mut keep: HashSet<Key> = HashSet::with_capacity(puzzles);
    let mut todo = Vec::new();
    let mut rated = ratings.lock();
    for start in (0..puzzles).step_by(PLAN_CHUNK) {
        if cancel.load(Ordering::Relaxed) {
            return nothing(puzzles);
        }
        let Some(analyzed) = kept.upgrade() else {
            return nothing(puzzles);
        };
        let chunk = start..(start + PLAN_CHUNK).min(puzzles);
        let document = &analyzed.checked.document.puzzles[chunk.clone()];
        for (puzzle, analysis) in document.iter().zip(&analyzed.checked.analyses[chunk]) {
            if !matches!(analysis.verdict, Verdict::Unique(_)) {
                continue;
            }
            let key = key(puzzle);
            if !rated.contains_key(&key) && !keep.contains(&key) {
                todo.push(key.clone());
            }
            keep.insert(key);
        }
    }
    rated.retain(|k, _| keep.contains(k));
    Plan { todo, puzzles, lag }
}

/// How far a rating run got.
pub struct Batch {
    /// The index in the plan of the first grid not yet rated.
    pub next: usize,
    /// How many grids this batch rated.
    pub added: usize,
    /// Whether one of them has redundant givens.
    pub redundant: bool,
}

/// Rate the grids of the plan from `from` on, until `slice` has passed (at least one grid is
/// rated) or `cancel` is raised.
pub fn rate_batch(
    todo: &[Key],
    ratings: &Ratings,
    from: usize,
    slice: Duration,
    cancel: &AtomicBool,
    lag: bool,
) -> Batch {
    let started = Instant::now();
    let mut next = from;
    let mut added = 0;
    let mut found_redundant = false;
    while let Some(grid) = todo.get(next) {
        if cancel.load(Ordering::Relaxed) || (next > from && started.elapsed() >= slice) {
            break;
        }
        let (size, variant, givens, rules) = grid;
        let budget = Budget {
            max_nodes: Some(analysis::DEFAULT_MAX_NODES),
            deadline: Some(Instant::now() + per_puzzle()),
            cancel: Some(cancel),
        };
        let rated = match rules {
            None => {
                let geo = geometry(*size, *variant);
                let path = logic::solve_path(geo, givens, &budget);
                let until_cancelled = Budget {
                    cancel: Some(cancel),
                    ..Budget::default()
                };
                let lead = logic::lead(geo, givens, MAX_LEAD, &until_cancelled, &until_cancelled);
                let redundant = redundant_givens(geo, None, givens, cancel);
                Rated::of(path, lead, redundant, false)
            }
            Some(rules) => {
                let geometry = rules.geometry(*size, *variant);
                let path = logic::solve_path_with_rules(&geometry, rules, givens, &budget);
                let until_cancelled = Budget {
                    cancel: Some(cancel),
                    ..Budget::default()
                };
                let lead = logic::lead_with_rules(
                    &geometry,
                    rules,
                    givens,
                    MAX_LEAD,
                    &until_cancelled,
                    &until_cancelled,
                );
                let redundant = redundant_givens(&geometry, Some(rules), givens, cancel);
                Rated::of(path, lead, redundant, true)
            }
        };
        if lag {
            std::thread::sleep(super::jobs::LAGGING_RATING);
        }
        if cancel.load(Ordering::Relaxed) {
            break; // a cancelled path is no rating
        }
        found_redundant |= rated.redundant.as_ref().is_some_and(|c| !c.is_empty());
        ratings.lock().insert(grid.clone(), Arc::new(rated));
        added += 1;
        next += 1;
    }
    Batch {
        next,
        added,
        redundant: found_redundant,
    }
}

/// The givens a puzzle does not need (under its rules, for a variant), with a budget of its
/// own (each try is one search for two solutions: milliseconds on a 9×9).
fn redundant_givens(
    geometry: &crate::grid::Geometry,
    rules: Option<&Rules>,
    givens: &[u8],
    cancel: &AtomicBool,
) -> Option<Vec<usize>> {
    let budget = Budget {
        max_nodes: Some(analysis::DEFAULT_MAX_NODES),
        deadline: Some(Instant::now() + per_puzzle()),
        cancel: Some(cancel),
    };
    analysis::redundant_givens_under(geometry, rules, givens, &budget).ok()
}

/// Whether every cell of the puzzle holds a digit (given or entered): a grid the user has
/// filled in, where "redundant givens" would be every cell and mean nothing.
pub fn filled_in(puzzle: &Puzzle) -> bool {
    puzzle.givens.iter().all(|&d| d != 0)
}

/// The information findings of the redundant givens of the puzzles rated so far, except on
/// grids the user has filled in.
pub fn redundant_findings(puzzles: &[Puzzle], ratings: &Ratings) -> Vec<crate::finding::Finding> {
    let rated = ratings.lock();
    let mut findings = Vec::new();
    for puzzle in puzzles.iter().filter(|p| !filled_in(p)) {
        let Some(cells) = rated.get(&key(puzzle)).and_then(|r| r.redundant.clone()) else {
            continue;
        };
        findings.extend(
            cells
                .iter()
                .map(|&c| analysis::redundant_finding(puzzle, c)),
        );
    }
    findings
}

/// The steps from the givens up to and including the first that places a digit: the cached
/// path's when the puzzle is rated, else worked out now, for at most [`ON_DEMAND`] after the
/// first step (code actions are asked for at every move of the cursor).
///
/// A variant grid's steps can take far longer (a contradiction by trial is tens of
/// milliseconds): there the request looks for [`QUICK_LEAD`] only, and what it did not finish
/// goes on in the background, kept by grid for the next request (the cursor's next move).
pub fn lead(puzzle: &Puzzle, ratings: &Arc<Ratings>) -> Vec<Step> {
    match ratings.get(puzzle) {
        Some(rated) if puzzle.entries.is_none() => rated.lead.clone(),
        _ if puzzle.rules.is_some() => variant_lead(puzzle, ratings),
        _ => walk(puzzle, MAX_LEAD, Some(Instant::now() + ON_DEMAND)),
    }
}

/// The lead of a variant grid: kept, found within [`QUICK_LEAD`], or none yet while the
/// background works it out (the work for another grid, moved on from, is cancelled).
fn variant_lead(puzzle: &Puzzle, ratings: &Arc<Ratings>) -> Vec<Step> {
    let grid = solver_key(puzzle);
    {
        let leads = ratings.leads();
        if let Some(lead) = leads.done.get(&grid) {
            return lead.to_vec();
        }
        if leads.pending.as_ref().is_some_and(|(k, _)| *k == grid) {
            return Vec::new();
        }
    }
    let quick = Budget {
        deadline: Some(Instant::now() + QUICK_LEAD),
        ..Budget::default()
    };
    let lead = walk_variant(puzzle, &quick, &quick);
    if lead.last().is_some_and(|s| !s.placements.is_empty()) {
        return ratings.keep_lead(grid, lead).to_vec();
    }
    let cancel = Arc::new(AtomicBool::new(false));
    if let Some((_, old)) = ratings
        .leads()
        .pending
        .replace((grid.clone(), cancel.clone()))
    {
        old.store(true, Ordering::Relaxed);
    }
    let (puzzle, ratings) = (puzzle.clone(), Arc::downgrade(ratings));
    drop(super::long::background(move || {
        // As long as a rating may take: a lead cut short by it is not kept (the next request
        // starts again), one where the solver ran out of techniques is.
        let deadline = Instant::now() + per_puzzle();
        let budget = Budget {
            deadline: Some(deadline),
            cancel: Some(&cancel),
            ..Budget::default()
        };
        let lead = walk_variant(&puzzle, &budget, &budget);
        let Some(ratings) = ratings.upgrade() else {
            return;
        };
        let mut leads = ratings.leads();
        if leads.pending.as_ref().is_some_and(|(k, _)| *k == grid) {
            leads.pending = None;
        }
        drop(leads);
        let placed = lead.last().is_some_and(|s| !s.placements.is_empty());
        if !cancel.load(Ordering::Relaxed) && (placed || Instant::now() < deadline) {
            ratings.keep_lead(grid, lead);
        }
    }));
    Vec::new()
}

/// A grid as the solver has it, entries included, with its rules: what variant leads are kept
/// by.
fn solver_key(puzzle: &Puzzle) -> Key {
    let (size, variant, _, rules) = key(puzzle);
    (size, variant, puzzle.givens.clone(), rules)
}

/// The steps of a variant grid up to the first placement, the first within `first`, the rest
/// within `rest`.
fn walk_variant(puzzle: &Puzzle, first: &Budget, rest: &Budget) -> Vec<Step> {
    let Some(rules) = puzzle.rules.as_deref() else {
        return Vec::new();
    };
    let geometry = rules.geometry(puzzle.size, puzzle.variant);
    logic::lead_with_rules(&geometry, rules, &puzzle.givens, MAX_LEAD, first, rest)
}

/// The simplest step from where the solver is: the cached path's first when that is the
/// givens alone, else found now (`analysis::next_step`, as `sudoku-lsp hint` finds it) within
/// `budget`.
pub fn first_step(puzzle: &Puzzle, ratings: &Ratings, budget: &Budget) -> Option<Step> {
    match ratings.get(puzzle) {
        Some(rated) if puzzle.entries.is_none() && puzzle.marks.is_none() => {
            rated.lead.first().cloned()
        }
        _ => crate::analysis::next_step(puzzle, budget),
    }
}

/// The simplest step from where the solver is, for a hover: as [`first_step`], but never a
/// wait. A variant grid without marks reads the lead the background works out (`None` until it
/// is known: the hover leaves the step out); otherwise the step is looked for within
/// [`HOVER_STEP`] (a chain on a hard grid with entries can take a second).
pub fn first_step_for_hover(puzzle: &Puzzle, ratings: &Arc<Ratings>) -> Option<Step> {
    match ratings.get(puzzle) {
        Some(rated) if puzzle.entries.is_none() && puzzle.marks.is_none() => {
            rated.lead.first().cloned()
        }
        _ if puzzle.rules.is_some() && puzzle.marks.is_none() => {
            variant_lead(puzzle, ratings).first().cloned()
        }
        _ => {
            let budget = Budget {
                deadline: Some(Instant::now() + HOVER_STEP),
                ..Budget::default()
            };
            crate::analysis::next_step(puzzle, &budget)
        }
    }
}

/// How long a hover may look for the next step itself.
const HOVER_STEP: Duration = Duration::from_millis(20);

/// The steps from a classic grid as the solver has it: givens and entries (the rating, kept
/// by grid, is about the givens alone, and so is its cached lead).
fn walk(puzzle: &Puzzle, max: usize, deadline: Option<Instant>) -> Vec<Step> {
    let geo = crate::grid::geometry(puzzle.size, puzzle.variant);
    let rest = Budget {
        deadline,
        ..Budget::default()
    };
    logic::lead(geo, &puzzle.givens, max, &Budget::default(), &rest)
}
