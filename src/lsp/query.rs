//! Answering a request about one document: a `View` of its current text, built on the blocking
//! pool (reusing the finished run's analysis or a query's parse when they are for this very
//! text), the work done on it, and the answer dropped if the text changed meanwhile. Formatting
//! goes the same way, with the errors the protocol has for a refusal and a moved-on text.

use std::sync::Arc;
use std::time::Instant;

use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::lsp_types::{MessageType, TextEdit, Uri};

use super::jobs;
use super::session::{too_large, Session};
use super::view::View;

/// LSP's `ContentModified`: the document changed under a request's feet.
const CONTENT_MODIFIED: i64 = -32801;

/// LSP's `RequestFailed`: a request the server understood but could not carry out.
const REQUEST_FAILED: i64 = -32803;

/// The view of the current text of `uri`, built on the blocking pool, and `work` done on it.
/// `None` if the document is not open or over the size limit (never parsed: see
/// `too_large`), if the work panicked (logged), or if the text changed while we worked (an
/// answer about an older text is worse than none).
pub async fn run<T: Send + 'static>(
    session: &Session,
    what: &'static str,
    uri: &Uri,
    work: impl FnOnce(&View) -> Option<T> + Send + 'static,
) -> Option<T> {
    let settings = session.settings();
    let (snapshot, earlier, ratings) = {
        let state = session.state();
        let snapshot = state.documents.get(uri)?;
        let run = state.runs.get(uri);
        let earlier = run.map(|run| run.earlier.clone());
        let ratings = run.map(|run| run.ratings.clone());
        (
            snapshot,
            earlier.unwrap_or_default(),
            ratings.unwrap_or_default(),
        )
    };
    if too_large(&snapshot, settings).is_some() {
        return None;
    }
    let generation = snapshot.generation;
    let config = session.config();
    let owned_uri = uri.clone();
    let job = tokio::task::spawn_blocking(move || {
        jobs::guarded(|| {
            let (started, cpu) = (Instant::now(), jobs::thread_cpu());
            let mut view = View::new(owned_uri, snapshot, earlier, ratings, config);
            view.settings = settings;
            let answer = work(&view);
            jobs::log_timing(|| {
                let ms = started.elapsed().as_secs_f64() * 1e3;
                let cpu = jobs::thread_cpu().saturating_sub(cpu).as_secs_f64() * 1e3;
                format!("{what} answered in {ms:.3} ms ({cpu:.3} ms of CPU)")
            });
            (answer, view.fresh_document())
        })
    });
    let failed = match job.await {
        Ok(Ok((answer, parsed))) => return keep_parse(session, uri, generation, answer, parsed),
        Ok(Err(problem)) => problem,
        Err(join_error) => join_error.to_string(),
    };
    let message = format!("a request on {} failed: {failed}", uri.as_str());
    session.log(MessageType::ERROR, message).await;
    None
}

/// A query's `answer`, if the text of `generation` is still current; the document it
/// `parsed` is then kept for the next query on the same text.
fn keep_parse<T>(
    session: &Session,
    uri: &Uri,
    generation: u64,
    answer: Option<T>,
    parsed: Option<(u64, Arc<crate::format::Document>)>,
) -> Option<T> {
    let mut state = session.state();
    if state.documents.generation(uri) != Some(generation) {
        return None;
    }
    if let (Some(parsed), Some(run)) = (parsed, state.runs.get_mut(uri)) {
        run.earlier.parsed = Some(parsed);
    }
    answer
}

/// LSP's `ContentModified` error: the answer was for a text the editor no longer has.
pub fn content_modified(message: String) -> Error {
    Error {
        code: ErrorCode::ServerError(CONTENT_MODIFIED),
        message: message.into(),
        data: None,
    }
}

/// LSP's `RequestFailed` error: understood, but it cannot be done, for the reason given.
pub fn request_failed(message: String) -> Error {
    Error {
        code: ErrorCode::ServerError(REQUEST_FAILED),
        message: message.into(),
        data: None,
    }
}

/// A formatting answer for the document's text as it is when the request arrives: `null`
/// when the document is not open, the error `ContentModified` when its text changed while
/// the edits were computed (they would be for a text the editor no longer has), and
/// `RequestFailed` saying why when it cannot be formatted (over the size limit, or a piece
/// too long to format at once).
pub async fn format(
    session: &Session,
    what: &'static str,
    uri: &Uri,
    work: impl FnOnce(&View) -> std::result::Result<Vec<TextEdit>, String> + Send + 'static,
) -> Result<Option<Vec<TextEdit>>> {
    let Some(snapshot) = session.state().documents.get(uri) else {
        return Ok(None);
    };
    let generation = snapshot.generation;
    let refused = |why: String| request_failed(format!("{} is not formatted: {why}", uri.as_str()));
    if let Some(why) = too_large(&snapshot, session.settings()) {
        return Err(refused(why));
    }
    match run(session, what, uri, move |view| Some(work(view))).await {
        Some(Ok(edits)) => Ok(Some(edits)),
        Some(Err(why)) => Err(refused(why)),
        None => match session.state().documents.generation(uri) {
            None => Ok(None),
            Some(now) if now != generation => Err(content_modified(format!(
                "{} changed while it was being formatted",
                uri.as_str()
            ))),
            // The work failed (and was logged).
            Some(_) => Err(Error::internal_error()),
        },
    }
}
