//! Whole documents: parse, analyse every puzzle (through a cache of analyses by grid, on every
//! core for large collections), and collect the findings in source order.

use std::collections::HashMap;
use std::sync::Arc;

#[cfg(feature = "threads")]
use rayon::prelude::*;

use super::analyze::{analyze_grid, analyze_puzzle};
use super::findings::{self, findings};
use super::verdict::{Analysis, Verdict};
use crate::engine::Budget;
use crate::finding::Finding;
use crate::format::{self, Document, Puzzle};
use crate::grid::{Size, Variant};
use crate::rules::Rules;

/// A whole text parsed and analysed: every puzzle's analysis and all findings in source order.
pub struct Checked {
    pub document: Document,
    /// One per puzzle of `document`, in the same order.
    pub analyses: Vec<Arc<Analysis>>,
    pub findings: Vec<Finding>,
    /// The indices, ascending, of the puzzles a re-check must look at again although it kept
    /// them: those with findings of their own and those whose analysis was cut short. Every
    /// other puzzle is sound and done, and stays so while its grid does.
    pub noted: Vec<usize>,
}

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

/// What the solution says of the solver's entries and pencil marks, for every puzzle with a
/// unique solution (what the `checkAgainstSolution` setting adds).
pub fn against_solution(checked: &Checked) -> Vec<Finding> {
    let puzzles = checked.document.puzzles.iter().zip(&checked.analyses);
    puzzles
        .filter_map(|(puzzle, analysis)| match &analysis.verdict {
            Verdict::Unique(solution) => Some(super::marks::solution_findings(puzzle, solution)),
            _ => None,
        })
        .flatten()
        .collect()
}

/// What a setter asks of each unique puzzle (`document_findings` with `setter`): its givens,
/// minimal or not, their symmetry, and each redundant given (under a variant puzzle's
/// constraints, by the variant engine); of each puzzle with several solutions, where they
/// differ and the givens any one of which would leave one. Puzzles with none get nothing more:
/// their own findings say why.
/// `time_limit` is each puzzle's (its givens' tries together): past it, its minimality is
/// said to be undecided.
pub(crate) fn setter_findings(
    puzzles: &[Puzzle],
    analyses: &[Arc<Analysis>],
    budget: &Budget,
    time_limit: Option<std::time::Duration>,
) -> Vec<Finding> {
    let asked: Vec<(&Puzzle, bool)> = puzzles
        .iter()
        .zip(analyses)
        .filter_map(|(puzzle, analysis)| match analysis.verdict {
            Verdict::Unique(_) => Some((puzzle, true)),
            Verdict::Several { .. } => Some((puzzle, false)),
            _ => None,
        })
        .collect();
    // A few puzzles pay for threads: each tries every given.
    on_every_core(&asked, 4, |&(puzzle, unique)| {
        let geometry = &puzzle.geometry();
        let deadline = time_limit.and_then(|t| web_time::Instant::now().checked_add(t));
        let budget = Budget {
            deadline: deadline.or(budget.deadline),
            ..*budget
        };
        let rules = puzzle.rules.as_deref();
        if !unique {
            let differences = super::setter::differences(geometry, rules, &puzzle.clues(), &budget);
            return differences
                .map(|d| findings::differences_finding(puzzle, &d))
                .into_iter()
                .collect();
        }
        let redundant =
            super::setter::redundant_givens_under(geometry, rules, &puzzle.clues(), &budget);
        let mut found = vec![findings::givens_finding(
            puzzle,
            redundant.as_deref().map_err(|&stop| stop),
        )];
        for &cell in redundant.as_deref().unwrap_or_default() {
            found.push(findings::redundant_finding(puzzle, cell));
        }
        found
    })
    .into_iter()
    .flatten()
    .collect()
}

/// Check a document that `format::reparse` updated from the one `earlier` checked: the
/// puzzles it kept keep their analyses (the grid is the same, only its place moved), the ones it
/// read anew are looked up in `cache` or analysed. Analyses a cancel or deadline cut short are
/// redone. Findings are placed afresh, since the kept puzzles may have moved.
///
/// Only the puzzles read anew and those `earlier_noted` (the earlier check's `noted`) are looked
/// at: a collection of 49,151 puzzles was walked whole at every keystroke, an analysis behind a
/// pointer each, a quarter of an edit's time.
pub fn recheck(
    document: Document,
    earlier: Vec<Arc<Analysis>>,
    earlier_noted: &[usize],
    splice: format::Splice,
    budget: &Budget,
    cache: &mut Cache,
) -> Checked {
    let mut analyses = earlier;
    let replaced = splice.first..splice.first + splice.removed;
    if replaced.end > analyses.len()
        || analyses.len() - splice.removed + splice.added != document.puzzles.len()
        || earlier_noted
            .last()
            .is_some_and(|&last| last >= analyses.len())
    {
        // Not the document `earlier` was for: check it whole.
        return check_document(document, budget, cache);
    }
    let read = &document.puzzles[splice.first..splice.first + splice.added];
    analyses.splice(replaced, cache.analyze_some(read, budget));
    let candidates = moved_through(earlier_noted, splice);
    let unfinished: Vec<usize> = candidates
        .iter()
        .copied()
        .filter(|&i| !analyses[i].is_final())
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
    with_findings_of(document, analyses, candidates)
}

/// The puzzles `noted` of a document, as indices into the document `splice` made of it, and
/// the puzzles the splice read anew, ascending.
fn moved_through(noted: &[usize], splice: format::Splice) -> Vec<usize> {
    let (first, removed, added) = (splice.first, splice.removed, splice.added);
    let before = noted.iter().copied().take_while(|&i| i < first);
    let read = first..first + added;
    let after = noted
        .iter()
        .copied()
        .filter(|&i| i >= first + removed)
        .map(|i| i - removed + added);
    before.chain(read).chain(after).collect()
}

/// What a check adds, when asked, to the findings every document gets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Asked {
    /// A setter's notes (`setter_findings`).
    pub setter: bool,
    /// The time each puzzle's setter's notes may take (none: the node budget alone).
    pub setter_time_limit: Option<std::time::Duration>,
    /// What the unique solution says of the solver's entries and marks (`against_solution`).
    pub against_solution: bool,
}

/// Analyse a document only its findings are wanted of: in source order, the parser's problems
/// moved in rather than copied (a text of a million repeated titles has a million of them).
pub fn document_findings(
    document: Document,
    budget: &Budget,
    cache: &mut Cache,
    asked: Asked,
) -> Vec<Finding> {
    let analyses = cache.analyze_all(&document.puzzles, budget);
    document_findings_analysed(document, analyses, budget, asked)
}

/// `document_findings` of a document whose puzzles are already analysed (`analyses`, one per
/// puzzle, in order).
pub fn document_findings_analysed(
    mut document: Document,
    analyses: Vec<Arc<Analysis>>,
    budget: &Budget,
    asked: Asked,
) -> Vec<Finding> {
    let mut problems = std::mem::take(&mut document.problems);
    let mut checked = with_findings(document, analyses);
    let mut analysed = std::mem::take(&mut checked.findings);
    if asked.against_solution {
        analysed.extend(against_solution(&checked));
    }
    if asked.setter {
        analysed.extend(setter_findings(
            &checked.document.puzzles,
            &checked.analyses,
            budget,
            asked.setter_time_limit,
        ));
    }
    if asked.setter || asked.against_solution {
        analysed.sort_by_key(position); // stable: a puzzle's own findings stay first
    }
    if !problems.is_sorted_by_key(position) {
        problems.sort_by_key(position);
    }
    if analysed.is_empty() {
        return problems; // no second list to hold beside them
    }
    // What sorting both lists together would give: on a tie, the parser's come first.
    let mut merged = Vec::with_capacity(problems.len() + analysed.len());
    let mut analysed = analysed.into_iter().peekable();
    for problem in problems {
        while let Some(earlier) = analysed.next_if(|f| position(f) < position(&problem)) {
            merged.push(earlier);
        }
        merged.push(problem);
    }
    merged.extend(analysed);
    merged
}

/// Where a finding sorts: by start, then by end.
fn position(finding: &Finding) -> (usize, usize) {
    (finding.span.start, finding.span.end)
}

/// The findings of a parsed and analysed document, in source order.
fn with_findings(document: Document, analyses: Vec<Arc<Analysis>>) -> Checked {
    let every = (0..analyses.len()).collect();
    with_findings_of(document, analyses, every)
}

/// The findings of a parsed and analysed document, in source order, when only the puzzles at
/// `candidates` (ascending) can have any of their own (or be unfinished).
fn with_findings_of(
    document: Document,
    analyses: Vec<Arc<Analysis>>,
    mut candidates: Vec<usize>,
) -> Checked {
    let mut findings = document.problems.clone();
    candidates.retain(|&i| {
        let (puzzle, analysis) = (&document.puzzles[i], &analyses[i]);
        let speaks = has_findings(analysis) || puzzle.marks.is_some() || puzzle.entries.is_some();
        if speaks {
            findings.extend(self::findings(puzzle, analysis));
        }
        speaks || !analysis.is_final()
    });
    // Checked first: sorting needs room for half the findings again, and they are often in
    // order already (a file without puzzles has only the parser's, which are in source order).
    if !findings.is_sorted_by_key(position) {
        findings.sort_by_key(position);
    }
    Checked {
        document,
        analyses,
        findings,
        noted: candidates,
    }
}

/// Whether `findings` would say anything: most puzzles of a collection are sound, and skipping
/// them keeps a large check cheap.
fn has_findings(analysis: &Analysis) -> bool {
    !matches!(analysis.verdict, Verdict::Unique(_)) || analysis.full
}

/// What identifies an analysis: the grid and its shape, never its place in the text.
type CacheKey = (Size, Variant, Option<Arc<Rules>>, Box<[u8]>);

/// Analyses by grid content, kept from one check of a document to the next.
#[derive(Default)]
pub struct Cache {
    entries: HashMap<CacheKey, Arc<Analysis>>,
    /// How many entries `analyze_some` lets the cache grow to before starting afresh.
    limit: usize,
    /// Used once and dropped (`one_use`): nothing to look up or remember.
    one_use: bool,
}

/// Room for grids edited away since the last whole check, besides the document's own.
const CACHE_SLACK: usize = 1024;

impl Cache {
    /// A cache for one `analyze_all` of puzzles read once (the command line's pieces): it
    /// neither looks up nor remembers, which would cost a copy, a hash and an insertion of
    /// every grid for nothing (a tenth of `check`'s time over a collection).
    pub fn one_use() -> Cache {
        Cache {
            one_use: true,
            ..Cache::default()
        }
    }

    /// The analysis of each of `puzzles` (a few, re-read after an edit): looked up, or analysed
    /// and remembered. Nothing is forgotten unless the cache outgrows twice its document.
    pub(crate) fn analyze_some(
        &mut self,
        puzzles: &[Puzzle],
        budget: &Budget,
    ) -> Vec<Arc<Analysis>> {
        if self.entries.len() > self.limit.max(CACHE_SLACK) {
            self.entries.clear();
        }
        let keys: Vec<CacheKey> = puzzles.iter().map(key).collect();
        let mut results: Vec<Option<Arc<Analysis>>> =
            keys.iter().map(|k| self.entries.get(k).cloned()).collect();
        let missing: Vec<usize> = (0..keys.len()).filter(|&i| results[i].is_none()).collect();
        for (i, analysis) in analyze_in_parallel(&keys, &missing, budget) {
            let analysis = Arc::new(analysis);
            if analysis.is_final() {
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
        if self.one_use {
            let analyze_one = |p: &Puzzle| Arc::new(analyze_puzzle(p, budget));
            // rayon's pool: the command line's pieces, one after the other, on the same threads.
            #[cfg(feature = "threads")]
            return puzzles
                .par_iter()
                .with_min_len(16)
                .map(analyze_one)
                .collect();
            #[cfg(not(feature = "threads"))]
            return puzzles.iter().map(analyze_one).collect();
        }
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
            if analysis.is_final() {
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
        puzzle.rules.clone(),
        puzzle.clues().into_owned().into_boxed_slice(),
    )
}

/// Analyse the puzzles at `which`, on every core when there are enough of them to pay for threads.
fn analyze_in_parallel(
    keys: &[CacheKey],
    which: &[usize],
    budget: &Budget,
) -> Vec<(usize, Analysis)> {
    on_every_core(which, 64, |&i| {
        let (size, variant, rules, givens) = &keys[i];
        (
            i,
            analyze_grid(*size, *variant, rules.as_deref(), givens, budget),
        )
    })
}

/// `work` on each item, in order, spread over the cores when there are at least `enough` items
/// to pay for the threads.
fn on_every_core<I: Sync, T: Send>(
    items: &[I],
    enough: usize,
    work: impl Fn(&I) -> T + Sync,
) -> Vec<T> {
    // Without the `threads` feature (a browser's wasm has none), one after another.
    if !cfg!(feature = "threads") || items.len() < enough {
        return items.iter().map(work).collect();
    }
    // Asked once: it reads the cgroup's files, a few hundred microseconds a time.
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    let threads =
        *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if threads < 2 {
        return items.iter().map(work).collect();
    }
    let chunk = items.len().div_ceil(threads);
    let work = &work;
    std::thread::scope(|scope| {
        let workers: Vec<_> = items
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().map(work).collect::<Vec<_>>()))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::Span;
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
            entries: None,
            marks: None,
            cell_spans,
            span: Span::new(0, 81),
            first_row: Span::new(0, 81),
            meta: Default::default(),
            header: None,
            layout: Layout::Line,
            rules: None,
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

    #[test]
    fn document_findings_are_a_check_s_findings() {
        let easy =
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
        let conflict = easy.replacen("..3", "3.3", 1);
        let text = format!(
            "# title: a\n# title: b\n{conflict}\n\nnot a row at all\n# rating: 3\n{easy}\n1.3\n"
        );
        let budget = Budget::unlimited();
        let whole = check_text(&text, &budget).findings;
        let merged = document_findings(
            format::parse(&text),
            &budget,
            &mut Cache::default(),
            Asked::default(),
        );
        assert_eq!(format!("{merged:?}"), format!("{whole:?}"));
        assert!(whole.len() >= 5, "{whole:?}");
    }

    #[test]
    fn a_recheck_looking_only_at_noted_puzzles_finds_what_a_whole_check_finds() {
        let easy =
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
        let conflict = easy.replacen("..3", "3.3", 1);
        let several = easy.replacen("..3", "...", 1);
        let lines: Vec<&str> = (0..60)
            .map(|i| match i % 10 {
                3 => conflict.as_str(),
                7 => several.as_str(),
                _ => easy,
            })
            .collect();
        let text = lines.join("\n") + "\n";
        let budget = Budget::unlimited();
        // Each edit turns one line into another kind (mending a conflict, breaking a sound
        // puzzle, removing a line, adding one), one after the other, each re-checked from the last.
        let mut checked = check_text(&text, &budget);
        let mut text = text;
        for (line, new) in [
            (3, easy),
            (12, conflict.as_str()),
            (17, ""),
            (40, several.as_str()),
        ] {
            let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
            let end = start + text[start..].find('\n').unwrap() + 1;
            let replacement = if new.is_empty() {
                String::new()
            } else {
                format!("{new}\n")
            };
            let mut new_text = text.clone();
            new_text.replace_range(start..end, &replacement);
            let change = format::Change {
                start,
                old_end: end,
                new_end: start + replacement.len(),
            };
            let mut document = checked.document;
            let splice = format::reparse(&mut document, &new_text, 0, new_text.len(), change)
                .expect("a place to resume at");
            let rechecked = recheck(
                document,
                checked.analyses,
                &checked.noted,
                splice,
                &budget,
                &mut Cache::default(),
            );
            let whole = check_text(&new_text, &budget);
            assert_eq!(
                format!("{:?}", rechecked.findings),
                format!("{:?}", whole.findings),
                "line {line}"
            );
            assert_eq!(rechecked.noted, whole.noted, "line {line}");
            assert!(!whole.noted.is_empty() && whole.noted.len() < 20);
            (checked, text) = (rechecked, new_text);
        }
    }
}
