//! Running the analysis for the server: budgets, caught panics, and hidden test hooks.
//!
//! Everything here is blocking CPU work, called from `spawn_blocking`, never on the message
//! loop. A panic inside the analysis (a bug) is caught and turned into a message, so one broken
//! document costs one `internal` diagnostic instead of the whole server: neither tokio's
//! handler plumbing nor tower-lsp-server would survive an unwinding handler.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use ropey::Rope;

use super::{diagnostics, documents};
use crate::analysis::{self, Analysis, Cache, Checked};
use crate::engine::Budget;
use crate::finding::Finding;
use crate::format::{self, Document, Puzzle};

/// Test hooks are live only when this variable is `1`: a document containing [`PANIC_MARKER`]
/// makes analysis (and hover, and code actions) panic; one containing [`SLOW_MARKER`] makes the
/// diagnostics run spin until it is cancelled (or 60 s pass), like a search that never ends;
/// one containing [`LAGGING_QUERY_MARKER`] makes each hover or code action take 600 ms, so a test
/// can change the text while one is being answered.
pub const TEST_HOOKS_VAR: &str = "SUDOKU_LSP_TEST_HOOKS";
pub const PANIC_MARKER: &str = "sudoku-lsp-test:panic";
pub const SLOW_MARKER: &str = "sudoku-lsp-test:slow";
pub const LAGGING_QUERY_MARKER: &str = "sudoku-lsp-test:lagging-query";
/// With the hooks on, a document containing this makes its rating run spin until cancelled (or
/// 60 s pass) before rating anything: a test can see the lenses of puzzles not yet rated.
pub const STUCK_RATING_MARKER: &str = "sudoku-lsp-test:stuck-rating";
/// With the hooks on, a document containing this has each of its puzzles take at least
/// [`LAGGING_RATING`] to rate, so that a test's rating run is long on any machine.
pub const LAGGING_RATING_MARKER: &str = "sudoku-lsp-test:lagging-rating";
pub const LAGGING_RATING: Duration = Duration::from_millis(3);

/// What a hover or code action may spend on a puzzle whose diagnostics run has not finished.
const ON_DEMAND_MAX_NODES: u64 = 100_000;

/// A finished diagnostics run: the text of one generation, parsed and analysed.
pub struct Analyzed {
    pub generation: u64,
    /// The text that was analysed (sharing its chunks with the document's later texts): the
    /// next run compares it with the new text to re-read only what changed.
    pub text: Rope,
    /// The parse and analyses; its `findings` are empty (the run hands them to the diagnostics
    /// and lets go of them).
    pub checked: Checked,
    /// A first look's, with verdicts left for the whole run to decide (analyses a deadline cut):
    /// those verdicts are not said meanwhile.
    pub provisional: bool,
}

/// What one puzzle's search may spend: `SUDOKU_LSP_MAX_NODES` nodes (default
/// [`analysis::DEFAULT_MAX_NODES`]) and, only if `SUDOKU_LSP_DEADLINE_MS` is set, a deadline for the whole
/// run. A deadline is off by default: it makes verdicts depend on the machine's load, the node
/// budget already bounds every search, and a newer text cancels a run anyway.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_nodes: u64,
    pub deadline: Option<Duration>,
    /// The deadline of a run's first look (`SUDOKU_LSP_FIRST_LOOK_MS`, default [`FIRST_LOOK`];
    /// 0: none).
    pub first_look: Duration,
    /// These are a first look's limits: the whole run follows if they leave a verdict.
    pub look: bool,
}

impl Limits {
    pub fn from_env() -> Limits {
        static LIMITS: OnceLock<Limits> = OnceLock::new();
        *LIMITS.get_or_init(|| {
            let number = |name: &str| std::env::var(name).ok()?.trim().parse::<u64>().ok();
            Limits {
                max_nodes: number("SUDOKU_LSP_MAX_NODES").unwrap_or(analysis::DEFAULT_MAX_NODES),
                deadline: number("SUDOKU_LSP_DEADLINE_MS").map(Duration::from_millis),
                first_look: number("SUDOKU_LSP_FIRST_LOOK_MS")
                    .map_or(FIRST_LOOK, Duration::from_millis),
                look: false,
            }
        })
    }

    /// The smaller budget for answering a hover or code action on the spot.
    pub fn on_demand(self) -> Limits {
        Limits {
            max_nodes: self.max_nodes.min(ON_DEMAND_MAX_NODES),
            ..self
        }
    }

    /// The limits of a first look at a text of `bytes` before the whole run, if it gets one:
    /// the same with the first look's deadline, for texts a person edits (a collection's
    /// puzzles are each quick, and two publications of its findings would cost more than they
    /// save). `None` when the first look is off or the limits' own deadline is no longer.
    pub fn first_look(self, bytes: usize) -> Option<Limits> {
        let look = self.first_look;
        let shorter = self.deadline.is_none_or(|d| d > look);
        (!look.is_zero() && shorter && bytes < FIRST_LOOK_TEXT).then_some(Limits {
            deadline: Some(look),
            look: true,
            ..self
        })
    }

    pub fn budget(self, cancel: Option<&AtomicBool>) -> Budget<'_> {
        Budget {
            max_nodes: Some(self.max_nodes),
            deadline: self.deadline.map(|d| Instant::now() + d),
            cancel,
        }
    }
}

/// How long a diagnostics run's first look searches by default (see [`Limits::first_look`]): a puzzle whose
/// verdict takes longer (a variant with few givens can take a few hundred milliseconds) has
/// its other findings, the conflicts and broken constraints a keystroke makes, published at
/// once, and its verdict when the whole run has it.
pub const FIRST_LOOK: Duration = Duration::from_millis(5);
/// Texts from this size on get no first look.
const FIRST_LOOK_TEXT: usize = 64 * 1024;

/// How long a setter check may search when asked on the spot (hover, code actions).
const ON_DEMAND_SEARCH: Duration = Duration::from_millis(250);

/// The budget of a setter check answered on the spot: the on-demand node budget per search,
/// and a deadline for the whole check.
pub fn on_demand_budget() -> Budget<'static> {
    Budget {
        max_nodes: Some(Limits::from_env().on_demand().max_nodes),
        deadline: Some(Instant::now() + ON_DEMAND_SEARCH),
        cancel: None,
    }
}

/// What one document's diagnostics runs hand on to the next.
#[derive(Default)]
pub struct Carry {
    /// Analyses by grid, so an edit re-analyses only the puzzles it changed.
    pub cache: Cache,
    /// The last run's result, finished or cancelled after its parse: what the next run starts
    /// from. The publisher and queries share it only while its text is current, so the next
    /// run usually takes it over without copying.
    last: Option<Arc<Analyzed>>,
}

/// A text with its parse and analyses, for the next run to re-read only what changed.
struct Base {
    text: Rope,
    document: Document,
    analyses: Vec<Arc<Analysis>>,
    /// The puzzles a re-check looks at again (see `Checked::noted`).
    noted: Vec<usize>,
}

impl Base {
    /// An earlier run's result, taken over if nothing else holds it (else copied).
    fn from_analyzed(last: Arc<Analyzed>) -> Base {
        match Arc::try_unwrap(last) {
            Ok(done) => Base {
                text: done.text,
                document: done.checked.document,
                analyses: done.checked.analyses,
                noted: done.checked.noted,
            },
            Err(shared) => Base {
                text: shared.text.clone(),
                document: shared.checked.document.clone(),
                analyses: shared.checked.analyses.clone(),
                noted: shared.checked.noted.clone(),
            },
        }
    }
}

/// How long a run waits for others to let go of the last run's result before it copies it.
const HOLD_ALONE_WAIT: Duration = Duration::from_millis(5);
/// Texts shorter than this are copied at once: that costs less than the wait.
const WORTH_WAITING: usize = 256 * 1024;

/// Wait a little while anything else holds `last` of a large text: those are queries and a
/// rating run's plan, which let go within a moment once the new text cancelled them (the plan
/// holds it a few hundred puzzles at a time), where copying a large collection's parse costs
/// ten milliseconds and more. It yields rather than sleeps: a sleep's timer slack alone is
/// longer than the plan's chunk.
fn wait_to_hold_alone(last: &Arc<Analyzed>) {
    if last.text.len_bytes() < WORTH_WAITING {
        return;
    }
    let give_up = Instant::now() + HOLD_ALONE_WAIT;
    while Arc::strong_count(last) > 1 && Instant::now() < give_up {
        std::thread::yield_now();
    }
}

/// A finished run: its result, and its findings apart.
pub type Finished = (Arc<Analyzed>, Vec<Finding>);

/// Parse and analyse the text of `generation` for its diagnostics. After an earlier run, only
/// the lines around what changed are parsed again and only the puzzles there analysed (through
/// the document's cache of analyses by grid); else the whole text is. Returns the result with
/// its findings apart, for the diagnostics (the result kept for later keeps none); `None` when a
/// newer text cancelled the run; `Err` carries a panic's message.
pub fn check(
    rope: &Rope,
    generation: u64,
    cancel: &AtomicBool,
    limits: Limits,
    carry: &Mutex<Carry>,
) -> Option<Result<Finished, String>> {
    if cancel.load(Ordering::Relaxed) {
        return None;
    }
    let waiting = Instant::now();
    let cpu = thread_cpu();
    // The previous run holds the carry until it notices its cancel flag (already raised), so
    // in a burst of edits most runs find themselves cancelled once they get it.
    // A run that panicked may have left it half-emptied, which only costs re-analysis.
    let mut carry = carry
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if cancel.load(Ordering::Relaxed) {
        return None;
    }
    let base = carry.last.take().map(|last| {
        wait_to_hold_alone(&last);
        Base::from_analyzed(last)
    });
    let waited = waiting.elapsed();
    let outcome = guarded(|| {
        run_hooks(rope, cancel);
        let started = Instant::now();
        let budget = limits.budget(Some(cancel));
        let (mut checked, how) = match base {
            Some(base) => recheck(base, rope, &budget, &mut carry.cache),
            None => (
                check_text_keeping(&rope.to_string(), &budget, &mut carry.cache),
                "opened: read whole".to_string(),
            ),
        };
        log_timing(|| {
            format!(
                "{} bytes, {} puzzles, {how} (after {:.3} ms for the last run's result), \
                 checked in {:.2} ms ({:.2} ms of CPU in all)",
                rope.len_bytes(),
                checked.document.puzzles.len(),
                waited.as_secs_f64() * 1e3,
                started.elapsed().as_secs_f64() * 1e3,
                (thread_cpu().saturating_sub(cpu)).as_secs_f64() * 1e3
            )
        });
        // The findings are for the diagnostics alone (the next run and the queries read the
        // parse and the analyses): handed out, not kept, they are gone once published.
        let findings = std::mem::take(&mut checked.findings);
        let analyzed = Arc::new(Analyzed {
            generation,
            text: rope.clone(),
            provisional: limits.look && checked.analyses.iter().any(|a| !a.is_final()),
            checked,
        });
        carry.last = Some(analyzed.clone());
        (!cancel.load(Ordering::Relaxed)).then_some((analyzed, findings))
    });
    outcome.transpose()
}

/// The problems of each severity a document keeps: past the diagnostics' cap no one reads them,
/// and a text of millions of broken lines would hold millions of findings (see
/// `format::parse_keeping`).
pub const KEEP_PROBLEMS: usize = diagnostics::MAX_DIAGNOSTICS;

/// The parse of a whole text, keeping [`KEEP_PROBLEMS`] of each severity.
pub fn parse_keeping(text: &str) -> Document {
    format::parse_keeping(text, KEEP_PROBLEMS)
}

/// Parse (keeping [`KEEP_PROBLEMS`]) and analyse a whole text.
pub fn check_text_keeping(text: &str, budget: &Budget, cache: &mut Cache) -> Checked {
    analysis::check_document(parse_keeping(text), budget, cache)
}

/// Check `rope` starting from `base`: re-read the lines around where the texts differ, or the
/// whole text when no point to resume parsing is near, or when `base` kept only some of its
/// problems (a re-read keeps the others as they were, so it needs them all).
/// Also says how, for the timing log.
fn recheck(base: Base, rope: &Rope, budget: &Budget, cache: &mut Cache) -> (Checked, String) {
    if base.document.unkept.total() > 0 {
        let checked = check_text_keeping(&rope.to_string(), budget, cache);
        return (checked, "edited: read whole (problems capped)".to_string());
    }
    let change = documents::change_between(&base.text, rope);
    let (start, window) = documents::window(rope, change);
    let mut document = base.document;
    match format::reparse(&mut document, &window, start, rope.len_bytes(), change) {
        Some(splice) => (
            analysis::recheck(
                capped(document),
                base.analyses,
                &base.noted,
                splice,
                budget,
                cache,
            ),
            format!(
                "edited: re-read {} puzzles for {} from puzzle {}",
                splice.added,
                splice.removed,
                splice.first + 1
            ),
        ),
        None => (
            check_text_keeping(&rope.to_string(), budget, cache),
            "edited: read whole".to_string(),
        ),
    }
}

/// A re-read document with at most [`KEEP_PROBLEMS`] of each severity (an edit may have added
/// many).
fn capped(mut document: Document) -> Document {
    format::keep_problems(&mut document, KEEP_PROBLEMS);
    document
}

/// Analyse one puzzle on the spot (when no finished analysis of this version exists yet).
pub fn analyze_puzzle(puzzle: &Puzzle, limits: Limits) -> Analysis {
    analysis::analyze_puzzle(puzzle, &limits.on_demand().budget(None))
}

/// Run `work`, turning a panic into `Err(message)`.
pub fn guarded<T>(work: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(work)).map_err(|payload| {
        if let Some(text) = payload.downcast_ref::<&str>() {
            text.to_string()
        } else if let Some(text) = payload.downcast_ref::<String>() {
            text.clone()
        } else {
            "a panic with no message".to_string()
        }
    })
}

/// `SUDOKU_LSP_TIMING=1` logs each diagnostics run's own time to stderr (for the latency bench).
pub const TIMING_VAR: &str = "SUDOKU_LSP_TIMING";

/// Write a line to the timing log, if it is on (the message is made only then).
pub fn log_timing(message: impl FnOnce() -> String) {
    if timing() {
        eprintln!("sudoku-lsp timing: {}", message());
    }
}

/// Whether the timing log is on.
pub fn timing() -> bool {
    static ENABLED: OnceLock<bool> = OnceLock::new();
    *ENABLED.get_or_init(|| std::env::var(TIMING_VAR).is_ok_and(|v| v == "1"))
}

/// The milliseconds since `then`, by the wall clock: the timing log compares its moments with
/// a client's (the latency bench's), in another process.
pub fn ms_since(then: std::time::SystemTime) -> f64 {
    then.elapsed().map_or(0.0, |d| d.as_secs_f64() * 1e3)
}

/// The CPU time the calling thread has used so far (zero where it cannot be read): the timing
/// log gives a run's own CPU beside its wall time, which on a loaded machine includes waiting
/// for a core.
pub fn thread_cpu() -> Duration {
    #[cfg(unix)]
    {
        let mut now = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `now` is a valid timespec to write; the clock id is a constant.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) } == 0 {
            return Duration::new(now.tv_sec as u64, now.tv_nsec as u32);
        }
    }
    Duration::ZERO
}

/// A moment as nanoseconds since the Unix epoch, for the timing log.
pub fn unix_ns(at: std::time::SystemTime) -> u128 {
    at.duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos())
}

fn hooks_enabled() -> bool {
    static ENABLED: OnceLock<bool> = OnceLock::new();
    *ENABLED.get_or_init(|| std::env::var(TEST_HOOKS_VAR).is_ok_and(|v| v == "1"))
}

/// The document's text when the hooks are on, once the panic hook (shared by every kind of
/// work) has had its look.
fn hooked_text(rope: &Rope) -> Option<String> {
    if !hooks_enabled() {
        return None;
    }
    let text = rope.to_string();
    if text.contains(PANIC_MARKER) {
        panic!("test hook: {PANIC_MARKER} found in the document");
    }
    Some(text)
}

/// The hidden hooks of a diagnostics run: panic, or spin until cancelled.
fn run_hooks(rope: &Rope, cancel: &AtomicBool) {
    let Some(text) = hooked_text(rope) else {
        return;
    };
    if text.contains(SLOW_MARKER) {
        let give_up = Instant::now() + Duration::from_secs(60);
        while !cancel.load(Ordering::Relaxed) && Instant::now() < give_up {
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

/// The hidden hooks of a rating run: spin until cancelled; whether each puzzle should lag.
pub fn rating_hooks(rope: &Rope, cancel: &AtomicBool) -> bool {
    let Some(text) = hooked_text(rope) else {
        return false;
    };
    if text.contains(STUCK_RATING_MARKER) {
        let give_up = Instant::now() + Duration::from_secs(60);
        while !cancel.load(Ordering::Relaxed) && Instant::now() < give_up {
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    text.contains(LAGGING_RATING_MARKER)
}

/// The hidden hooks of a hover or code action: panic, or lag.
pub fn query_hooks(rope: &Rope) {
    let Some(text) = hooked_text(rope) else {
        return;
    };
    if text.contains(LAGGING_QUERY_MARKER) {
        std::thread::sleep(Duration::from_millis(600));
    }
}
