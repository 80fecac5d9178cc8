//! The semantic tokens requests, and the store behind their deltas: the last tokens per
//! document, kept (as a `token_sheet::Sheet`, by line) under the result id they were sent with,
//! as the base of the next delta. A tokens request first waits a little for the diagnostics run
//! of the text to end, so that it reuses its parse and shows its conflicts.

use std::time::Duration;

use tower_lsp_server::lsp_types::{
    Range, SemanticTokens, SemanticTokensDelta, SemanticTokensEdit, SemanticTokensFullDeltaResult,
    SemanticTokensRangeResult, SemanticTokensResult, Uri,
};

use super::query;
use super::session::{Run, Session};
use super::token_sheet::Sheet;
use super::tokens;
use super::view::View;

/// How long a semantic tokens request waits for the diagnostics run of its text to end; after
/// that the tokens go without conflicts (and the refresh after the run brings them).
const TOKENS_WAIT: Duration = Duration::from_secs(2);

/// A semantic tokens answer: every token (the array's JSON), or the edits to the array the
/// client has.
enum Tokens {
    All(Vec<u8>),
    Edits(Vec<SemanticTokensEdit>),
}

/// `textDocument/semanticTokens/full`: every token of the current text of `uri`.
pub async fn full(session: &Session, uri: &Uri) -> Option<SemanticTokensResult> {
    let (result_id, answer) = semantic_tokens(session, uri, None).await?;
    let Tokens::All(json) = answer else {
        return None; // never: without a previous result, the answer is all of them
    };
    let tokens = all_tokens(session, result_id, json);
    Some(SemanticTokensResult::Tokens(tokens))
}

/// `textDocument/semanticTokens/full/delta`: the edits from the tokens sent as `previous`,
/// when they are still kept; else every token.
pub async fn delta(
    session: &Session,
    uri: &Uri,
    previous: &str,
) -> Option<SemanticTokensFullDeltaResult> {
    let (result_id, answer) = semantic_tokens(session, uri, Some(previous)).await?;
    Some(match answer {
        Tokens::Edits(edits) => SemanticTokensFullDeltaResult::TokensDelta(SemanticTokensDelta {
            result_id: Some(result_id),
            edits,
        }),
        Tokens::All(json) => {
            SemanticTokensFullDeltaResult::Tokens(all_tokens(session, result_id, json))
        }
    })
}

/// `textDocument/semanticTokens/range`: the tokens of the lines in `range` (never kept).
pub async fn range(
    session: &Session,
    uri: &Uri,
    range: Range,
) -> Option<SemanticTokensRangeResult> {
    settle(session, uri).await;
    let query = move |view: &View| Some(tokens::range(view, range));
    let tokens = query::run(session, "semantic tokens (range)", uri, query).await;
    tokens.map(|data| {
        SemanticTokensRangeResult::Tokens(SemanticTokens {
            result_id: None,
            data,
        })
    })
}

/// Wait, at most [`TOKENS_WAIT`], for the diagnostics run of the current text of `uri` to
/// have its analysis (or to end without one): its tokens then reuse the run's parse (not a
/// second parse of a large text) and carry its conflicts.
async fn settle(session: &Session, uri: &Uri) {
    let deadline = tokio::time::Instant::now() + TOKENS_WAIT;
    loop {
        let ended = session.run_news.notified();
        tokio::pin!(ended);
        // Registered before looking, so a run ending in between still wakes us.
        ended.as_mut().enable();
        {
            let state = session.state();
            let generation = state.documents.generation(uri);
            let run = state.runs.get(uri);
            let analyzed = |run: &Run| run.earlier.finished.as_ref().map(|f| f.generation);
            match (generation, run) {
                (Some(generation), Some(run))
                    if run.ended < generation && analyzed(run) != Some(generation) => {}
                _ => return,
            }
        }
        if tokio::time::timeout_at(deadline, ended).await.is_err() {
            return;
        }
    }
}

/// The semantic tokens of the current text of `uri`, with their result id: from the kept
/// tokens that `previous` names, when given and still kept, as edits to them; else the whole
/// array. Keeps the new tokens under that id when the text is still current.
async fn semantic_tokens(
    session: &Session,
    uri: &Uri,
    previous: Option<&str>,
) -> Option<(String, Tokens)> {
    settle(session, uri).await;
    let base = previous.and_then(|previous| kept_tokens(session, uri, previous));
    let what = if previous.is_some() {
        "semantic tokens (delta)"
    } else {
        "semantic tokens"
    };
    let query = move |view: &View| {
        let generation = view.snapshot.generation;
        Some(match base {
            Some(mut sheet) => {
                let edits = sheet.update(view);
                (generation, sheet, Tokens::Edits(edits))
            }
            None => {
                let sheet = Sheet::new(view);
                let json = sheet.data_json();
                (generation, sheet, Tokens::All(json))
            }
        })
    };
    let (generation, sheet, answer) = query::run(session, what, uri, query).await?;
    Some((keep_tokens(session, uri, generation, sheet), answer))
}

/// The kept tokens of `uri`, taken out of the store, if they are those sent as `previous`.
fn kept_tokens(session: &Session, uri: &Uri, previous: &str) -> Option<Sheet> {
    let mut state = session.state();
    match state.tokens.remove(uri) {
        Some((id, sheet)) if id == previous => Some(sheet),
        Some(other) => {
            state.tokens.insert(uri.clone(), other);
            None
        }
        None => None,
    }
}

/// A new result id for `sheet`, kept under it as the base of the next delta if the
/// document still has the text of `generation` (else a delta from it gets every token).
fn keep_tokens(session: &Session, uri: &Uri, generation: u64, sheet: Sheet) -> String {
    let mut state = session.state();
    state.next_tokens_id += 1;
    let id = state.next_tokens_id.to_string();
    if state.documents.generation(uri) == Some(generation) {
        state.tokens.insert(uri.clone(), (id.clone(), sheet));
    }
    id
}

/// Every token, as the protocol's result: the array itself goes out as the JSON the sheet
/// wrote, put in the frame by `outgoing`.
fn all_tokens(session: &Session, result_id: String, json: Vec<u8>) -> SemanticTokens {
    session.stash.put(result_id.clone(), json);
    SemanticTokens {
        result_id: Some(result_id),
        data: Vec::new(),
    }
}
