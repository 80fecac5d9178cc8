//! `$/progress` for a long rating run: a token the client creates (we wait a while for it), then
//! begin, reports and end, each saying how many puzzles are rated of how many.

use std::time::Duration;

use tower_lsp_server::lsp_types::{
    notification, request, NumberOrString, ProgressParams, ProgressParamsValue, ProgressToken,
    WorkDoneProgress, WorkDoneProgressBegin, WorkDoneProgressCreateParams, WorkDoneProgressEnd,
    WorkDoneProgressReport,
};

use super::session::Session;

/// How long to wait for the client to create a progress token.
const PROGRESS_CREATE_WAIT: Duration = Duration::from_secs(10);

fn percent(done: usize, total: usize) -> u32 {
    (done * 100).checked_div(total).unwrap_or(100) as u32
}

/// Create a progress token and begin; `None` when the client refused or did not answer.
pub async fn begin(
    session: &Session,
    generation: u64,
    done: usize,
    total: usize,
) -> Option<ProgressToken> {
    let token = NumberOrString::String(format!("sudoku-lsp/rating/{generation}"));
    let create = session
        .client
        .send_request::<request::WorkDoneProgressCreate>(WorkDoneProgressCreateParams {
            token: token.clone(),
        });
    match tokio::time::timeout(PROGRESS_CREATE_WAIT, create).await {
        Ok(Ok(())) => {}
        _ => return None,
    }
    let begin = WorkDoneProgress::Begin(WorkDoneProgressBegin {
        title: "Rating puzzles".into(),
        cancellable: Some(false),
        message: Some(format!("{done}/{total}")),
        percentage: Some(percent(done, total)),
    });
    send(session, &token, begin).await;
    Some(token)
}

pub async fn report(session: &Session, token: &ProgressToken, done: usize, total: usize) {
    let report = WorkDoneProgress::Report(WorkDoneProgressReport {
        cancellable: Some(false),
        message: Some(format!("{done}/{total}")),
        percentage: Some(percent(done, total)),
    });
    send(session, token, report).await;
}

pub async fn end(session: &Session, token: ProgressToken, message: String) {
    let end = WorkDoneProgress::End(WorkDoneProgressEnd {
        message: Some(message),
    });
    send(session, &token, end).await;
}

async fn send(session: &Session, token: &ProgressToken, value: WorkDoneProgress) {
    session
        .client
        .send_notification::<notification::Progress>(ProgressParams {
            token: token.clone(),
            value: ProgressParamsValue::WorkDone(value),
        })
        .await;
}
