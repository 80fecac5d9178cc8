//! What the client tells the server without asking: documents opened, changed and closed, new
//! settings, workspace folders added or removed, shutdown. Each changes the state first, under
//! the lock and before any `.await` (so the next message's handler sees it), and only then
//! starts the runs it calls for (`diagnostics_run`) on tasks of their own.

use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use tower_lsp_server::lsp_types::{
    DidChangeConfigurationParams, DidChangeTextDocumentParams, DidChangeWorkspaceFoldersParams,
    DidCloseTextDocumentParams, DidOpenTextDocumentParams, MessageType, Uri, WorkspaceFolder,
};

use super::session::{folder_path, Session};
use super::{diagnostics_run, publish, refresh};

pub fn open(session: &Arc<Session>, params: DidOpenTextDocumentParams) {
    let document = params.text_document;
    let (snapshot, run) = {
        let mut state = session.state();
        let snapshot = state
            .documents
            .open(document.uri.clone(), &document.text, document.version);
        (snapshot, state.supersede(&document.uri))
    };
    tokio::spawn(diagnostics_run::analyze_and_publish(
        session.clone(),
        document.uri,
        snapshot,
        run,
        false,
    ));
}

pub async fn change(session: &Arc<Session>, params: DidChangeTextDocumentParams) {
    let uri = params.text_document.uri;
    let version = params.text_document.version;
    let encoding = session.config().encoding;
    let outcome = {
        let mut state = session.state();
        match state
            .documents
            .change(&uri, version, &params.content_changes, encoding)
        {
            Ok(changed) => Ok((changed, state.supersede(&uri))),
            Err(note) => Err(note),
        }
    };
    match outcome {
        Ok((changed, run)) => {
            tokio::spawn(diagnostics_run::analyze_and_publish(
                session.clone(),
                uri,
                changed.snapshot,
                run,
                false,
            ));
            for note in changed.notes {
                session.log(MessageType::WARNING, note).await;
            }
        }
        Err(note) => session.log(MessageType::WARNING, note).await,
    }
}

pub async fn reconfigure(session: &Arc<Session>, params: DidChangeConfigurationParams) {
    let inlay_before = session.settings().inlay_hints;
    let (changed, problems) = session.update_settings(&params.settings);
    if session.settings().inlay_hints != inlay_before {
        refresh::inlay_hints(session);
    }
    if changed {
        check_again(session);
    }
    for problem in problems {
        session.log(MessageType::WARNING, problem).await;
    }
}

/// Every open document again, with the new settings: state first, before any await.
fn check_again(session: &Arc<Session>) {
    let runs: Vec<_> = {
        let mut state = session.state();
        let uris: Vec<Uri> = state.runs.keys().cloned().collect();
        uris.into_iter()
            .filter_map(|uri| {
                let snapshot = state.documents.get(&uri)?;
                let run = state.supersede(&uri);
                Some((uri, snapshot, run))
            })
            .collect()
    };
    if runs.is_empty() {
        // No run will ask a pulling client to pull again: the files' ids changed anyway.
        refresh::pull_again(session);
    }
    for (uri, snapshot, run) in runs {
        tokio::spawn(diagnostics_run::analyze_and_publish(
            session.clone(),
            uri,
            snapshot,
            run,
            true,
        ));
    }
}

pub fn change_folders(session: &Session, params: DidChangeWorkspaceFoldersParams) {
    let mut state = session.state();
    let paths = |folders: Vec<WorkspaceFolder>| -> Vec<PathBuf> {
        folders.iter().filter_map(folder_path).collect()
    };
    let removed = paths(params.event.removed);
    state.folders.retain(|folder| !removed.contains(folder));
    for added in paths(params.event.added) {
        if !state.folders.contains(&added) {
            state.folders.push(added);
        }
    }
}

pub async fn close(session: &Arc<Session>, params: DidCloseTextDocumentParams) {
    let uri = params.text_document.uri;
    let was_open = {
        let mut state = session.state();
        if let Some(run) = state.runs.remove(&uri) {
            run.cancel.store(true, Ordering::Relaxed);
        }
        state.hint_levels.remove(&uri);
        state.tokens.remove(&uri);
        state.documents.close(&uri)
    };
    if was_open {
        tokio::spawn(publish::clear(session.clone(), uri));
    } else {
        let message = format!("ignored closing {}: it was not open", uri.as_str());
        session.log(MessageType::WARNING, message).await;
    }
}

/// `shutdown`: noted for the exit code, and every run stopped.
pub fn shutdown(session: &Session) {
    session.shut_down.store(true, Ordering::SeqCst);
    for run in session.state().runs.values() {
        run.cancel.store(true, Ordering::Relaxed);
    }
}
