//! Asking the client to ask again, when what it showed went stale with no edit of its own:
//! code lenses as ratings arrive, inlay hints when their setting changes, semantic tokens when
//! a run finds conflicts, pulled diagnostics when a run it did not start has new ones. Only
//! what the client said it can be asked (its capabilities), and never waiting for its answer:
//! the client may answer only after it has asked us, which may wait on us.

use super::config::ClientConfig;
use super::jobs::Analyzed;
use super::session::Session;

/// Ask the client for the code lenses again.
pub fn lenses(session: &Session, config: ClientConfig) {
    if config.code_lens_refresh {
        let client = session.client.clone();
        tokio::spawn(async move {
            let _ = client.code_lens_refresh().await;
        });
    }
}

/// Ask the client for the inlay hints again (their setting changed).
pub fn inlay_hints(session: &Session) {
    if session.config().navigation.inlay_hint_refresh {
        let client = session.client.clone();
        tokio::spawn(async move {
            let _ = client.inlay_hint_refresh().await;
        });
    }
}

/// Ask the client for its semantic tokens again when a finished run found conflicting
/// digits: tokens sent before the run finished lack their modifier. Only the puzzles with
/// findings are looked at (a puzzle with a conflict has some): walking every analysis of a
/// 49,151-puzzle collection took a fifth of an edit's time.
pub fn semantic_tokens(session: &Session, analyzed: &Analyzed) {
    let checked = &analyzed.checked;
    let conflicts = checked
        .noted
        .iter()
        .any(|&i| !checked.analyses[i].conflicts.is_empty());
    if conflicts && session.config().navigation.semantic_tokens_refresh {
        let client = session.client.clone();
        tokio::spawn(async move {
            let _ = client.semantic_tokens_refresh().await;
        });
    }
}

/// Ask a client that pulls diagnostics to pull again (it can: else it would not pull).
pub fn pull_again(session: &Session) {
    if session.config().pull_diagnostics {
        let client = session.client.clone();
        tokio::spawn(async move {
            let _ = client.workspace_diagnostic_refresh().await;
        });
    }
}
