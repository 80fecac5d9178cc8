//! The diagnostics run of one text: analysis on the blocking pool with a cancel flag that the
//! next change of the document raises; its result published under the publish gate, and only if
//! the document still has the very text that was analysed (see `publish`). After its
//! diagnostics are published, a run rates the document's puzzles (`rating_run`). A text a person
//! edits gets a first look with a short deadline: what it found is published at once, and when
//! a puzzle's verdict needed longer the whole run publishes again with it.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Instant, SystemTime};

use ropey::Rope;
use tower_lsp_server::lsp_types::{Diagnostic, MessageType, Uri};

use super::diagnostics;
use super::documents::Snapshot;
use super::encoding::Encoding;
use super::jobs::{self, Analyzed, Carry, Limits};
use super::memory;
use super::publish::extra_diagnostics;
use super::ratings::Ratings;
use super::session::{give_back_later, too_large, NewRun, Published, Session};
use super::settings::Settings;
use super::view::Earlier;
use super::{long, publish, rating_run, refresh};
use crate::finding::Code;

/// What the blocking part of a run works from.
#[derive(Clone)]
struct Job {
    uri: Uri,
    rope: Rope,
    generation: u64,
    received: SystemTime,
    cancel: Arc<AtomicBool>,
    carry: Arc<Mutex<Carry>>,
    ratings: Option<Arc<Ratings>>,
    settings: Settings,
    encoding: Encoding,
    limits: Limits,
}

/// What the blocking part of a run gives back: the analysis (or why there is none), the
/// diagnostics of its findings, those the settings add, and the timings so far.
struct Built {
    outcome: Result<Arc<Analyzed>, String>,
    diagnostics: Vec<Diagnostic>,
    extra: Vec<Diagnostic>,
    way: Way,
    /// A first look left a verdict to the whole run.
    left: bool,
}

/// Which publication of a text's diagnostics: the first (`unasked` as in
/// [`analyze_and_publish`]), or the whole run's after a first look's.
#[derive(Clone, Copy)]
enum Round {
    First { unasked: bool },
    Whole,
}

/// Analyse one text off the message loop and publish its diagnostics if still current; then
/// give back what a large text's run freed, or what a closed document's run held (the
/// close itself gave back before this run let go).
/// `unasked`: the client's edit did not start this run (new settings did), so a pulling
/// client is asked to pull again when it is done.
pub async fn analyze_and_publish(
    session: Arc<Session>,
    uri: Uri,
    snapshot: Snapshot,
    run: NewRun,
    unasked: bool,
) {
    let large = snapshot.rope.len_bytes() >= memory::LARGE_TEXT;
    let cancel = run.0.clone();
    let generation = snapshot.generation;
    let published = run_and_publish(session.clone(), uri.clone(), snapshot, run, unasked).await;
    if let Some(run) = session.state().runs.get_mut(&uri) {
        run.ended = run.ended.max(generation);
    }
    session.run_news.notify_waiters();
    let closed = || session.state().documents.generation(&uri).is_none();
    if large && (closed() || (published.is_some() && memory::due_after_run())) {
        give_back_later("a run over a large text");
    }
    if let Some(analyzed) = published {
        rating_run::rate(&session, uri, analyzed, cancel).await;
    }
}

/// The run itself: its result, when its diagnostics were published.
async fn run_and_publish(
    session: Arc<Session>,
    uri: Uri,
    snapshot: Snapshot,
    run: NewRun,
    unasked: bool,
) -> Option<Arc<Analyzed>> {
    let (cancel, carry) = run;
    let encoding = session.config().encoding;
    let settings = session.settings();
    let text = (snapshot.generation, snapshot.version);
    if let Some(why) = too_large(&snapshot, settings) {
        let alone = diagnostics::too_large(why, &snapshot.rope, encoding);
        publish::alone(&session, uri, text, settings, alone, unasked).await;
        return None;
    }
    let limits = Limits::from_env();
    let job = Job {
        uri: uri.clone(),
        rope: snapshot.rope.clone(), // shares its chunks
        generation: snapshot.generation,
        received: snapshot.received,
        cancel,
        carry,
        ratings: session
            .state()
            .runs
            .get(&uri)
            .map(|run| run.ratings.clone()),
        settings,
        encoding,
        limits,
    };
    // A puzzle whose verdict is slow (a variant with few givens) would hold back what a
    // keystroke broke: a first look publishes that at once, the whole run the verdict after.
    let mut round = Round::First { unasked };
    if let Some(first) = limits.first_look(snapshot.rope.len_bytes()) {
        let look = Job {
            limits: first,
            ..job.clone()
        };
        let built = build(&session, &snapshot, look, false).await?;
        if !built.left {
            return publish_run(&session, uri, &snapshot, settings, built, round).await;
        }
        publish_run(&session, uri.clone(), &snapshot, settings, built, round).await?;
        round = Round::Whole;
    }
    // After a first look, the rest is a search that may take a while: at the background's
    // lower priority, so that hovers and the next keystroke's first look are not behind it.
    let behind = matches!(round, Round::Whole);
    let built = build(&session, &snapshot, job, behind).await?;
    publish_run(&session, uri, &snapshot, settings, built, round).await
}

/// Run the blocking part of a run off the message loop, in the `background` if asked;
/// `None` when cancelled.
async fn build(
    session: &Arc<Session>,
    snapshot: &Snapshot,
    job: Job,
    background: bool,
) -> Option<Built> {
    let (uri, encoding) = (job.uri.clone(), job.encoding);
    let job_session = session.clone();
    // Placing the findings in the client's encoding is work too: done off the message loop.
    let work = move || check_and_build(&job_session, job);
    let outcome = if background {
        long::background(work)
            .await
            .map_err(|gone| gone.to_string())
    } else {
        let done = tokio::task::spawn_blocking(work).await;
        done.map_err(|join_error| join_error.to_string())
    };
    let mut built = match outcome {
        Ok(None) => return None,
        Ok(Some(built)) => built,
        Err(failed) => {
            let problem = format!("the analysis task failed: {failed}");
            let internal = diagnostics::internal(&problem, &uri, &snapshot.rope, encoding);
            Built {
                outcome: Err(problem),
                diagnostics: vec![internal],
                extra: Vec::new(),
                way: Way::default(),
                left: false,
            }
        }
    };
    built.way.back = jobs::ms_since(snapshot.received);
    Some(built)
}

/// The blocking part of a run: check the text, hand its analysis to the queries at once,
/// and build the diagnostics. `None` when cancelled.
fn check_and_build(session: &Session, job: Job) -> Option<Built> {
    let Job { uri, rope, .. } = &job;
    let mut way = Way {
        thread: jobs::ms_since(job.received),
        ..Way::default()
    };
    let outcome = jobs::check(rope, job.generation, &job.cancel, job.limits, &job.carry)?;
    way.checked = jobs::ms_since(job.received);
    if let Ok((analyzed, _)) = &outcome {
        offer_analysis(session, uri, analyzed);
    }
    let started = Instant::now();
    let mut left = false;
    let (outcome, diagnostics, extra) = match outcome {
        Ok((analyzed, mut findings)) => {
            left = analyzed.provisional;
            if left {
                // The whole run says these verdicts: "undecided", or a no-solution core it had
                // no time to make minimal, would only flicker.
                let checked = &analyzed.checked;
                let cut_cores: Vec<_> = (checked.document.puzzles.iter())
                    .zip(&checked.analyses)
                    .filter(|(_, analysis)| analysis.core.is_some() && !analysis.is_final())
                    .map(|(puzzle, _)| puzzle.anchor())
                    .collect();
                findings.retain(|f| {
                    f.code != Code::Undecided
                        && !(f.code == Code::NoSolution && cut_cores.contains(&f.span))
                });
            }
            let omitted = analyzed.checked.document.unkept.by_severity();
            let diagnostics =
                diagnostics::from_findings(&findings, omitted, uri, rope, job.encoding);
            let ratings = job.ratings.as_deref();
            let extra = extra_diagnostics(&analyzed, ratings, job.settings, uri, job.encoding);
            (Ok(analyzed), diagnostics, extra)
        }
        Err(problem) => {
            let internal = diagnostics::internal(&problem, uri, rope, job.encoding);
            (Err(problem), vec![internal], Vec::new())
        }
    };
    jobs::log_timing(|| {
        format!(
            "{} diagnostics built in {:.2} ms",
            diagnostics.len(),
            started.elapsed().as_secs_f64() * 1e3
        )
    });
    way.built = jobs::ms_since(job.received);
    Some(Built {
        outcome,
        diagnostics,
        extra,
        way,
        left,
    })
}

/// Publish what a run built, under the gate, if its text and settings are still current;
/// its analysis, when it has one and published.
async fn publish_run(
    session: &Session,
    uri: Uri,
    snapshot: &Snapshot,
    settings: Settings,
    built: Built,
    round: Round,
) -> Option<Arc<Analyzed>> {
    let Built {
        outcome,
        diagnostics,
        extra,
        mut way,
        ..
    } = built;
    let received = snapshot.received;
    let (analyzed, panic) = match outcome {
        Ok(analyzed) => (Some(analyzed), None),
        Err(problem) => (None, Some(problem)),
    };
    let _gate = session.publish_gate.lock().await;
    way.gate = jobs::ms_since(received);
    if session.settings().checks() != settings.checks() {
        return None; // the settings changed while we worked: the run they started publishes
    }
    if !keep_published(session, &uri, snapshot, analyzed.as_ref(), &diagnostics) {
        return None; // the text moved on (or closed) while we worked: never publish stale
    }
    let diagnostics = diagnostics::with_extra(diagnostics, extra);
    if let Some(problem) = panic {
        let message = format!(
            "analysis of {} (version {}) panicked: {problem}",
            uri.as_str(),
            snapshot.version
        );
        session.log(MessageType::ERROR, message).await;
    }
    let (generation, version) = (snapshot.generation, snapshot.version);
    match round {
        Round::First { unasked } => {
            publish::deliver(session, uri, generation, version, diagnostics, unasked).await
        }
        Round::Whole => {
            publish::deliver_again(session, uri, generation, version, diagnostics).await
        }
    }
    way.queued = jobs::ms_since(received);
    jobs::log_timing(|| way.line(snapshot.version, received));
    if let Some(analyzed) = &analyzed {
        refresh::semantic_tokens(session, analyzed);
    }
    analyzed
}

/// Keep what a run is about to publish, as the document's last, if the document still has
/// the snapshot's text; whether it has.
fn keep_published(
    session: &Session,
    uri: &Uri,
    snapshot: &Snapshot,
    analyzed: Option<&Arc<Analyzed>>,
    diagnostics: &[Diagnostic],
) -> bool {
    let mut state = session.state();
    if state.documents.generation(uri) != Some(snapshot.generation) {
        return false;
    }
    if let (Some(run), Some(analyzed)) = (state.runs.get_mut(uri), analyzed) {
        // The finished run has the document too: drop any separate parse.
        run.earlier = Earlier {
            finished: Some(analyzed.clone()),
            parsed: None,
        };
        run.published = Some(Published {
            generation: snapshot.generation,
            version: snapshot.version,
            diagnostics: Arc::new(diagnostics.to_vec()),
        });
    }
    true
}

/// Hand a run's analysis to the queries as soon as it exists, while the text is current,
/// before its diagnostics are built and published (which can take longer than the analysis
/// after an edit): semantic tokens wait for it.
fn offer_analysis(session: &Session, uri: &Uri, analyzed: &Arc<Analyzed>) {
    {
        let mut state = session.state();
        let current = state.documents.generation(uri) == Some(analyzed.generation);
        if let (true, Some(run)) = (current, state.runs.get_mut(uri)) {
            run.earlier = Earlier {
                finished: Some(analyzed.clone()),
                parsed: None,
            };
        }
    }
    session.run_news.notify_waiters();
}

/// The way of a text from its arrival to its diagnostics, for the timing log: the milliseconds
/// since the text arrived at which its run was on a blocking thread, had its analysis (the
/// last run's result taken over, the text checked), had its diagnostics built, was back on the
/// async side, through the publish gate, and had its diagnostics queued to be written (the
/// writer logs when it writes them: see `outgoing`).
#[derive(Clone, Copy, Default)]
struct Way {
    thread: f64,
    checked: f64,
    built: f64,
    back: f64,
    gate: f64,
    queued: f64,
}

impl Way {
    fn line(&self, version: i32, received: SystemTime) -> String {
        format!(
            "way of version {version}: received at {} ns; since then, on a thread at {:.3} ms, \
             checked at {:.3}, built at {:.3}, back at {:.3}, through the gate at {:.3}, queued \
             at {:.3} ms",
            jobs::unix_ns(received),
            self.thread,
            self.checked,
            self.built,
            self.back,
            self.gate,
            self.queued
        )
    }
}
