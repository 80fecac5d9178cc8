//! Pulled diagnostics: `textDocument/diagnostic` (an open document's from its run, waiting for
//! the run of its current text; a closed one's from its file) and `workspace/diagnostic` (every
//! `*.sudoku` file of the workspace folders, worked out by `workspace` on the blocking pool).

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::lsp_types::{
    Diagnostic, DocumentDiagnosticReport, DocumentDiagnosticReportResult,
    FullDocumentDiagnosticReport, MessageType, RelatedFullDocumentDiagnosticReport, Uri,
    WorkspaceDocumentDiagnosticReport,
};
use tower_lsp_server::UriExt;

use super::jobs;
use super::session::Session;
use super::workspace::{self, CancelOnDrop};

/// Where a document's pull stands.
enum Pulled {
    /// The diagnostics of its current text, under their result id.
    Ready(String, Arc<Vec<Diagnostic>>),
    /// Its current text's run is not done yet.
    Pending,
    /// It is not open.
    NotOpen,
}

/// The answer to `textDocument/diagnostic`: the diagnostics of the document's current text,
/// once its run has them (the pull waits for it; a newer edit makes it wait for that text's
/// run instead), or `unchanged` when the client already holds them. A document that is not
/// open is read from its file.
pub async fn document(
    session: &Session,
    uri: Uri,
    previous: Option<String>,
) -> DocumentDiagnosticReportResult {
    loop {
        // Registered before looking, so a delivery between the look and the wait wakes us.
        let mut notified = std::pin::pin!(session.delivered.notified());
        notified.as_mut().enable();
        match pulled(session, &uri) {
            Pulled::Ready(result_id, diagnostics) => {
                let answer =
                    workspace::Answer::new(result_id, previous.as_deref(), || diagnostics.to_vec());
                return answer.for_document();
            }
            Pulled::NotOpen => return pull_closed(session, uri, previous).await,
            Pulled::Pending => notified.await,
        }
    }
}

fn pulled(session: &Session, uri: &Uri) -> Pulled {
    let state = session.state();
    let Some(generation) = state.documents.generation(uri) else {
        return Pulled::NotOpen;
    };
    let delivered = state.runs.get(uri).and_then(|run| run.delivered.as_ref());
    match delivered {
        Some(d) if d.current && d.generation == generation => {
            Pulled::Ready(d.result_id.clone(), d.diagnostics.clone())
        }
        _ => Pulled::Pending,
    }
}

/// A pull of a document that is not open: its file's diagnostics, or `unchanged` when the
/// file's result id is the one the client holds (none for a URI that is not a file's, or a
/// file that cannot be found).
async fn pull_closed(
    session: &Session,
    uri: Uri,
    previous: Option<String>,
) -> DocumentDiagnosticReportResult {
    let check = file_check(session);
    let cancel = CancelOnDrop(Arc::new(AtomicBool::new(false)));
    let flag = cancel.0.clone();
    let job = tokio::task::spawn_blocking(move || {
        let path = uri.to_file_path()?.into_owned();
        workspace::closed_file(&path, &uri, previous.as_deref(), check, &flag)
    });
    let answer = job.await.ok().flatten();
    drop(cancel);
    match answer {
        Some(answer) => answer.for_document(),
        None => full_document_report(None, Vec::new()),
    }
}

/// What checking a closed file depends on, as the settings are now.
fn file_check(session: &Session) -> workspace::FileCheck {
    workspace::FileCheck {
        session: session.number,
        checks: session.settings().checks(),
        encoding: session.config().encoding,
    }
}

/// What a workspace pull needs from the state, taken at once.
fn workspace_pull(session: &Session, previous: HashMap<String, String>) -> workspace::Pull {
    let state = session.state();
    let open = state
        .runs
        .iter()
        .filter_map(|(uri, run)| {
            let path = uri.to_file_path()?.into_owned();
            let generation = state.documents.generation(uri)?;
            let version = state.documents.version(uri)?;
            let ready = run
                .delivered
                .as_ref()
                .filter(|d| d.current && d.generation == generation)
                .map(|d| (d.result_id.clone(), d.diagnostics.clone()));
            let uri = uri.clone();
            Some((
                path,
                workspace::OpenDocument {
                    uri,
                    version,
                    ready,
                },
            ))
        })
        .collect();
    workspace::Pull {
        folders: state.folders.clone(),
        open,
        previous,
        files: file_check(session),
    }
}

/// The answer to `workspace/diagnostic`: a report for every `*.sudoku` file of the
/// workspace folders, worked out on the blocking pool (stopped if the client cancels).
pub async fn workspace_files(
    session: &Session,
    previous: HashMap<String, String>,
) -> Result<Vec<WorkspaceDocumentDiagnosticReport>> {
    let pull = workspace_pull(session, previous);
    let cancel = CancelOnDrop(Arc::new(AtomicBool::new(false)));
    let flag = cancel.0.clone();
    let started = Instant::now();
    let job =
        tokio::task::spawn_blocking(move || jobs::guarded(|| workspace::reports(&pull, &flag)));
    let outcome = job.await;
    drop(cancel);
    let failed = match outcome {
        Ok(Ok(Some(done))) => return Ok(reported(session, done, started).await),
        Ok(Ok(None)) => return Err(Error::request_cancelled()),
        Ok(Err(problem)) => problem,
        Err(join_error) => join_error.to_string(),
    };
    let message = format!("workspace diagnostics failed: {failed}");
    session.log(MessageType::ERROR, message).await;
    Err(Error::internal_error())
}

/// The reports of a workspace pull, with its timing and its notes logged.
async fn reported(
    session: &Session,
    (reports, notes): (Vec<WorkspaceDocumentDiagnosticReport>, Vec<String>),
    started: Instant,
) -> Vec<WorkspaceDocumentDiagnosticReport> {
    jobs::log_timing(|| {
        format!(
            "workspace diagnostics: {} files in {:.2} ms",
            reports.len(),
            started.elapsed().as_secs_f64() * 1e3
        )
    });
    for note in notes {
        session.log(MessageType::WARNING, note).await;
    }
    reports
}

fn full_document_report(
    result_id: Option<String>,
    items: Vec<Diagnostic>,
) -> DocumentDiagnosticReportResult {
    DocumentDiagnosticReportResult::Report(DocumentDiagnosticReport::Full(
        RelatedFullDocumentDiagnosticReport {
            related_documents: None,
            full_document_diagnostic_report: FullDocumentDiagnosticReport { result_id, items },
        },
    ))
}
