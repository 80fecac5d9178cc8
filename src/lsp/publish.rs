//! Handing diagnostics to the client: pushed with the version of their text, or kept for a
//! client that pulls. Always under the publish gate and only once the text they are for is known
//! to be still current, so diagnostics for an old version never reach the client and never
//! overtake newer ones; and the settings the run started under must still hold (else the run
//! the new settings started publishes instead).

use std::sync::Arc;

use tower_lsp_server::lsp_types::{Diagnostic, Uri};

use super::diagnostics;
use super::encoding::Encoding;
use super::jobs::{self, Analyzed};
use super::ratings::{self, Ratings};
use super::refresh;
use super::session::{give_back_later, Delivered, Published, Session};
use super::settings::Settings;

/// Hand a run's diagnostics to the client: published, or, for a client that pulls, kept
/// for its next pull (and a pull waiting for them woken). `unasked`: no edit of the client's
/// led to them, so a pulling client is asked to pull again. They are kept for a pull in
/// either case: a client that never said it pulls may still ask, and should not wait for
/// ever. Called under the publish gate, once the text is known to be still current.
pub async fn deliver(
    session: &Session,
    uri: Uri,
    generation: u64,
    version: i32,
    diagnostics: Vec<Diagnostic>,
    unasked: bool,
) {
    deliver_as(
        session,
        uri,
        (generation, version),
        diagnostics,
        unasked,
        false,
    )
    .await;
}

/// [`deliver`] the whole run's diagnostics of a text whose first look's are delivered: a
/// pulling client is asked to pull again, and nothing is sent when they are the same.
pub async fn deliver_again(
    session: &Session,
    uri: Uri,
    generation: u64,
    version: i32,
    diagnostics: Vec<Diagnostic>,
) {
    deliver_as(session, uri, (generation, version), diagnostics, true, true).await;
}

async fn deliver_as(
    session: &Session,
    uri: Uri,
    (generation, version): (u64, i32),
    diagnostics: Vec<Diagnostic>,
    unasked: bool,
    only_if_changed: bool,
) {
    let pulling = session.config().pull_diagnostics;
    let kept = Arc::new(diagnostics);
    let changed = {
        let mut state = session.state();
        state.last_result_id += 1;
        let fresh_id = format!("{}:{}", session.number, state.last_result_id);
        let Some(run) = state.runs.get_mut(&uri) else {
            return; // closed meanwhile
        };
        // The same diagnostics keep their id, so the client's next pull costs nothing.
        let (result_id, changed) = match run.delivered.take() {
            Some(last) if last.diagnostics == kept => (last.result_id, false),
            _ => (fresh_id, true),
        };
        run.delivered = Some(Delivered {
            generation,
            current: true,
            result_id,
            diagnostics: kept.clone(),
        });
        changed
    };
    session.delivered.notify_waiters();
    if only_if_changed && !changed {
        return;
    }
    if !pulling {
        let diagnostics = Arc::unwrap_or_clone(kept);
        session
            .client
            .publish_diagnostics(uri, diagnostics, Some(version))
            .await;
    } else if unasked && changed {
        refresh::pull_again(session);
    }
}

/// Publish `diagnostic` as the only one of a text that is not analysed (over the size
/// limit), if the text and the `settings` the run started under are still current.
pub async fn alone(
    session: &Session,
    uri: Uri,
    (generation, version): (u64, i32),
    settings: Settings,
    diagnostic: Diagnostic,
    unasked: bool,
) {
    let _gate = session.publish_gate.lock().await;
    if session.settings().checks() != settings.checks() {
        return;
    }
    {
        let mut state = session.state();
        if state.documents.generation(&uri) != Some(generation) {
            return;
        }
        if let Some(run) = state.runs.get_mut(&uri) {
            run.earlier = Default::default();
            run.published = Some(Published {
                generation,
                version,
                diagnostics: Arc::new(vec![diagnostic.clone()]),
            });
        }
    }
    deliver(session, uri, generation, version, vec![diagnostic], unasked).await;
}

/// Publish the last diagnostics again with the redundant givens the ratings found, if the
/// text is still the one they were for.
pub async fn republish(
    session: &Session,
    uri: Uri,
    analyzed: Arc<Analyzed>,
    ratings: Arc<Ratings>,
) {
    let encoding = session.config().encoding;
    let job_uri = uri.clone();
    let job_analyzed = analyzed.clone();
    let settings = session.settings();
    let job = tokio::task::spawn_blocking(move || {
        jobs::guarded(|| {
            extra_diagnostics(&job_analyzed, Some(&ratings), settings, &job_uri, encoding)
        })
    });
    let Ok(Ok(extra)) = job.await else {
        return;
    };
    let _gate = session.publish_gate.lock().await;
    if session.settings().checks() != settings.checks() {
        return; // the run the new settings started publishes instead
    }
    let (version, main) = {
        let state = session.state();
        if state.documents.generation(&uri) != Some(analyzed.generation) {
            return;
        }
        let Some(published) = state.runs.get(&uri).and_then(|run| run.published.as_ref()) else {
            return;
        };
        if published.generation != analyzed.generation {
            return;
        }
        (published.version, published.diagnostics.clone())
    };
    let diagnostics = diagnostics::with_extra(main.as_ref().clone(), extra);
    deliver(
        session,
        uri,
        analyzed.generation,
        version,
        diagnostics,
        true,
    )
    .await;
}

/// After `didClose`: clear the diagnostics, unless the document was reopened meanwhile, and
/// give back the memory the document held.
pub async fn clear(session: Arc<Session>, uri: Uri) {
    let _gate = session.publish_gate.lock().await;
    if session.state().documents.version(&uri).is_some() {
        return; // reopened: its own run publishes
    }
    if !session.config().pull_diagnostics {
        // A pulling client forgets a closed document's pulled diagnostics itself.
        session
            .client
            .publish_diagnostics(uri, Vec::new(), None)
            .await;
    }
    give_back_later("closing a document");
}

/// The diagnostics the settings add to a run's: the redundant givens of the puzzles rated so
/// far (unless turned off), and what the solution says of the solver's entries and marks (when
/// asked for).
pub fn extra_diagnostics(
    analyzed: &Analyzed,
    ratings: Option<&Ratings>,
    settings: Settings,
    uri: &Uri,
    encoding: Encoding,
) -> Vec<Diagnostic> {
    let checked = &analyzed.checked;
    let mut findings = Vec::new();
    if settings.check_against_solution {
        findings.extend(crate::analysis::against_solution(checked));
    }
    if let (true, Some(ratings)) = (settings.redundant_givens, ratings) {
        findings.extend(ratings::redundant_findings(
            &checked.document.puzzles,
            ratings,
        ));
    }
    let room = diagnostics::MAX_DIAGNOSTICS.min(findings.len());
    diagnostics::from_findings(&findings[..room], [0; 4], uri, &analyzed.text, encoding)
}
