//! The rating run that follows a published diagnostics run: it rates the document's puzzles
//! (`ratings`), a slice at a time on the background threads of `long` (at a lower priority than
//! diagnostics and queries), under the diagnostics run's cancel flag: a newer text stops it
//! between two puzzles (or inside one: the solver reads the flag). Ratings are kept by grid, so
//! the next run rates only the puzzles an edit changed; a long run reports `$/progress`, and a
//! finished one asks the client for its code lenses again (and publishes the diagnostics again
//! when it found redundant givens).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use tower_lsp_server::lsp_types::{MessageType, ProgressToken, Uri};

use super::config::ClientConfig;
use super::jobs::{self, Analyzed};
use super::long;
use super::ratings::{self, Batch, Key, Plan, Ratings};
use super::session::Session;
use super::{progress, publish, refresh};

/// How long one slice of a rating run may take before it reports and checks for newer texts.
const RATING_SLICE: Duration = Duration::from_millis(300);
/// How often a rating run asks for the code lenses again while ratings arrive.
const REFRESH_EVERY: Duration = Duration::from_secs(1);

/// One rating run: what its slices share.
struct Rating {
    uri: Uri,
    /// The generation of the text rated.
    generation: u64,
    ratings: Arc<Ratings>,
    cancel: Arc<AtomicBool>,
    /// The grids to rate, in order.
    todo: Arc<Vec<Key>>,
    /// A test hook: each grid takes a while (see `ratings::Plan`).
    lag: bool,
    config: ClientConfig,
}

/// How a run's slices went.
struct Rated {
    /// Every grid is rated (not cancelled, nothing failed).
    finished: bool,
    /// One of them has redundant givens.
    redundant: bool,
}

/// Rate the puzzles of a published run, a slice at a time on the background threads, until
/// done or cancelled by a newer text; report progress when it takes long and the client can
/// show it, and ask for the code lenses again as ratings arrive.
pub async fn rate(session: &Session, uri: Uri, analyzed: Arc<Analyzed>, cancel: Arc<AtomicBool>) {
    let Some(ratings) = session
        .state()
        .runs
        .get(&uri)
        .map(|run| run.ratings.clone())
    else {
        return;
    };
    let generation = analyzed.generation;
    // Only a weak hold while rating, which can take minutes: the next edit's run takes the
    // parse over instead of copying a large collection's while any other holds it. The
    // text is still current exactly when the document's run still holds it.
    let kept = Arc::downgrade(&analyzed);
    drop(analyzed);
    let Some(plan) = plan(session, &uri, &kept, &ratings, &cancel).await else {
        return;
    };
    let rating = Rating {
        uri,
        generation,
        ratings,
        cancel,
        todo: Arc::new(plan.todo),
        lag: plan.lag,
        config: session.config(),
    };
    let rated = rate_slices(session, &rating).await;
    // Even with nothing new rated: lenses asked for before the diagnostics run finished
    // said `checking…`.
    let current = session.state().documents.generation(&rating.uri) == Some(generation);
    if rated.finished && current && plan.puzzles > 0 {
        refresh::lenses(session, rating.config);
    }
    if let (true, true, Some(analyzed)) =
        (rated.finished && current, rated.redundant, kept.upgrade())
    {
        publish::republish(session, rating.uri, analyzed, rating.ratings).await;
    }
}

/// The plan of a run: the grids to rate (the run holds them, not the document). `None` when
/// making it failed (logged).
async fn plan(
    session: &Session,
    uri: &Uri,
    kept: &Weak<Analyzed>,
    ratings: &Arc<Ratings>,
    cancel: &Arc<AtomicBool>,
) -> Option<Plan> {
    let (ratings, cancel, kept) = (ratings.clone(), cancel.clone(), kept.clone());
    let job = long::background(move || jobs::guarded(|| ratings::plan(&kept, &ratings, &cancel)));
    let problem = match job.await {
        Ok(Ok(plan)) => return Some(plan),
        Ok(Err(problem)) => problem,
        Err(gone) => gone.to_string(),
    };
    rating_failed(session, uri, problem).await;
    None
}

/// Rate the plan's grids a slice at a time, with progress, until done or cancelled.
async fn rate_slices(session: &Session, rating: &Rating) -> Rated {
    let total = rating.todo.len();
    let mut next = 0;
    let mut redundant = false;
    let mut shown: Option<ProgressToken> = None;
    let mut unrefreshed = 0;
    let mut refreshed_at = Instant::now();
    let finished = loop {
        if rating.cancel.load(Ordering::Relaxed) {
            break false;
        }
        if next >= total {
            break true;
        }
        let Some(batch) = rate_slice(session, rating, next).await else {
            break false;
        };
        next = batch.next;
        unrefreshed += batch.added;
        redundant |= batch.redundant;
        if rating.cancel.load(Ordering::Relaxed) || next >= total {
            continue;
        }
        if unrefreshed > 0 && refreshed_at.elapsed() >= REFRESH_EVERY {
            refresh::lenses(session, rating.config);
            unrefreshed = 0;
            refreshed_at = Instant::now();
        }
        match &shown {
            None if rating.config.work_done_progress => {
                shown = progress::begin(session, rating.generation, next, total).await;
            }
            None => {}
            Some(token) => progress::report(session, token, next, total).await,
        }
    };
    if let Some(token) = shown {
        let message = if finished {
            format!("{total} puzzles rated")
        } else {
            "cancelled".to_string()
        };
        progress::end(session, token, message).await;
    }
    Rated {
        finished,
        redundant,
    }
}

/// Rate one slice of the plan from `next` on, on a background thread; `None` when it
/// failed (logged).
async fn rate_slice(session: &Session, rating: &Rating, next: usize) -> Option<Batch> {
    let (todo, ratings, cancel) = (
        rating.todo.clone(),
        rating.ratings.clone(),
        rating.cancel.clone(),
    );
    let lag = rating.lag;
    let job = long::background(move || {
        jobs::guarded(|| {
            let slice = RATING_SLICE;
            ratings::rate_batch(&todo, &ratings, next, slice, &cancel, lag)
        })
    });
    let problem = match job.await {
        Ok(Ok(batch)) => return Some(batch),
        Ok(Err(problem)) => problem,
        Err(gone) => gone.to_string(),
    };
    rating_failed(session, &rating.uri, problem).await;
    None
}

async fn rating_failed(session: &Session, uri: &Uri, problem: String) {
    let message = format!("rating {} failed: {problem}", uri.as_str());
    session.log(MessageType::ERROR, message).await;
}
