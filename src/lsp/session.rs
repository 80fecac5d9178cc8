//! One client's session: what the server knows of it (the client, its capabilities, the user's
//! settings) and the state every handler shares (the open documents, their diagnostics runs,
//! hint levels, kept semantic tokens, the workspace folders).
//!
//! tower-lsp-server starts handlers in arrival order but runs them concurrently: at any `.await`
//! the next message's handler may run. So every handler first does its bookkeeping under the
//! state lock (a std `Mutex`, never held across an `.await`), and only then awaits. The other
//! rooms of the server (`query`, `publish`, the runs, `pull`, `token_store`, `execute`, `sync`)
//! are functions over this state.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use tower_lsp_server::lsp_types::{
    ClientCapabilities, Diagnostic, InitializeParams, MessageType, Uri, WorkspaceFolder,
};
use tower_lsp_server::{Client, UriExt};

use super::config::ClientConfig;
use super::documents::{Documents, Snapshot};
use super::jobs::Carry;
use super::ratings::Ratings;
use super::settings::Settings;
use super::token_sheet::Sheet;
use super::view::Earlier;
use super::{memory, outgoing, transport};

pub struct Session {
    pub client: Client,
    state: Mutex<State>,
    /// The client's capabilities, from its `initialize`.
    config: OnceLock<ClientConfig>,
    /// What the wire guard read of this session's `initialize` (see `transport::Initialize`).
    initialize: transport::Initialize,
    /// The user's settings, as last sent.
    settings: Mutex<Settings>,
    /// Held while deciding whether to publish and publishing, so publishes keep their order.
    pub publish_gate: tokio::sync::Mutex<()>,
    /// Set by `shutdown`; the exit code depends on it.
    pub shut_down: Arc<AtomicBool>,
    /// Where large results' arrays wait for their frame (see `outgoing`).
    pub stash: outgoing::Stash,
    /// Woken whenever a run hands diagnostics to a pulling client's next pull.
    pub delivered: tokio::sync::Notify,
    /// A number unique to this process, in every diagnostics result id, so the ids a client
    /// kept from another server process never match.
    pub number: u64,
    /// Woken whenever a diagnostics run has its analysis, and when it ends, however it ends.
    pub run_news: tokio::sync::Notify,
}

/// What a new diagnostics run needs from its document's `Run`: its cancel flag, and what
/// earlier runs carry over.
pub type NewRun = (Arc<AtomicBool>, Arc<Mutex<Carry>>);

#[derive(Default)]
pub struct State {
    pub documents: Documents,
    /// Per open document: the latest diagnostics run.
    pub runs: HashMap<Uri, Run>,
    /// Per document: the grid the last level-cycling hint was for, and its level.
    pub hint_levels: HashMap<Uri, (Vec<u8>, u8)>,
    /// Per document: the last semantic tokens sent with a result id, the base of the next delta.
    pub tokens: HashMap<Uri, (String, Sheet)>,
    /// The number of the next semantic tokens result id.
    pub next_tokens_id: u64,
    /// The number of the last diagnostics result id handed out (pull diagnostics).
    pub last_result_id: u64,
    /// The workspace folders, as paths: what workspace diagnostics walk.
    pub folders: Vec<PathBuf>,
}

pub struct Run {
    /// Raised when a newer text supersedes this run (or the document closes).
    pub cancel: Arc<AtomicBool>,
    /// Analyses by grid content and the last run's result, carried from one run to the next.
    pub carry: Arc<Mutex<Carry>>,
    /// The last finished analysis and the last parse by a query, whatever text they were for.
    pub earlier: Earlier,
    /// The generation of the latest text whose run ended (finished, failed or cancelled).
    pub ended: u64,
    /// Ratings by grid, carried from one run to the next.
    pub ratings: Arc<Ratings>,
    /// The last published diagnostics other than redundant givens (at most
    /// [`super::diagnostics::MAX_DIAGNOSTICS`] and one), with their text's generation and
    /// version: when ratings find redundant givens, they are published again with those added.
    pub published: Option<Published>,
    /// For a client that pulls diagnostics: the last diagnostics its next pull gets.
    pub delivered: Option<Delivered>,
}

/// Diagnostics waiting for a pull: those of one generation of the text, under a result id.
pub struct Delivered {
    pub generation: u64,
    /// Cleared when a new run starts for the same text (new settings): a pull then waits for
    /// that run rather than take these.
    pub current: bool,
    pub result_id: String,
    pub diagnostics: Arc<Vec<Diagnostic>>,
}

pub struct Published {
    pub generation: u64,
    pub version: i32,
    pub diagnostics: Arc<Vec<Diagnostic>>,
}

impl Session {
    pub fn new(
        client: Client,
        stash: outgoing::Stash,
        initialize: transport::Initialize,
    ) -> Session {
        Session {
            client,
            stash,
            initialize,
            state: Mutex::new(State::default()),
            config: OnceLock::new(),
            settings: Mutex::new(Settings::default()),
            publish_gate: tokio::sync::Mutex::new(()),
            shut_down: Arc::new(AtomicBool::new(false)),
            delivered: tokio::sync::Notify::new(),
            number: session_number(),
            run_news: tokio::sync::Notify::new(),
        }
    }

    pub fn config(&self) -> ClientConfig {
        self.config.get().copied().unwrap_or_default()
    }

    /// Read the client's capabilities (at `initialize`; once).
    pub fn configure(&self, capabilities: &ClientCapabilities) -> ClientConfig {
        let config = ClientConfig::new(capabilities, self.initialize.diagnostic_refresh());
        let _ = self.config.set(config);
        config
    }

    pub fn settings(&self) -> Settings {
        *self.settings.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Take the settings in `value`; whether those diagnostics depend on changed, and what
    /// could not be used.
    pub fn update_settings(&self, value: &serde_json::Value) -> (bool, Vec<String>) {
        let mut settings = self.settings.lock().unwrap_or_else(|e| e.into_inner());
        let (updated, problems) = Settings::updated(*settings, value);
        let changed = updated.checks() != settings.checks();
        *settings = updated;
        (changed, problems)
    }

    pub fn state(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock cannot leave the maps half-updated in a way that
        // matters more than stopping would, so keep serving with the data as it is.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub async fn log(&self, kind: MessageType, message: String) {
        self.client.log_message(kind, message).await;
    }
}

impl State {
    /// Record a new text for `uri`: cancel the previous run and start a new one.
    pub fn supersede(&mut self, uri: &Uri) -> NewRun {
        let cancel = Arc::new(AtomicBool::new(false));
        match self.runs.get_mut(uri) {
            Some(run) => {
                run.cancel.store(true, Ordering::Relaxed);
                run.cancel = cancel.clone();
                if let Some(delivered) = &mut run.delivered {
                    delivered.current = false;
                }
                // The finished run is for an older text, no use to queries now: let go of it, so
                // the new run can take it over from the carry without copying it.
                run.earlier.finished = None;
                (cancel, run.carry.clone())
            }
            None => {
                let run = Run {
                    cancel: cancel.clone(),
                    carry: Arc::default(),
                    earlier: Earlier::default(),
                    ended: 0,
                    ratings: Arc::default(),
                    published: None,
                    delivered: None,
                };
                let carry = run.carry.clone();
                self.runs.insert(uri.clone(), run);
                (cancel, carry)
            }
        }
    }
}

/// Give freed memory back to the system, on the blocking pool (it takes a few milliseconds for
/// a large heap).
pub fn give_back_later(why: &'static str) {
    tokio::task::spawn_blocking(move || memory::give_back(why));
}

/// The workspace folders the client named at `initialize` (or its root, from clients that
/// name no folders), as paths; those that are not files' folders are left out.
pub fn workspace_folders(params: &InitializeParams) -> Vec<PathBuf> {
    #[allow(deprecated)] // `root_uri`: what clients without workspace folders send
    let root = params.root_uri.clone();
    match &params.workspace_folders {
        Some(folders) => folders.iter().filter_map(folder_path).collect(),
        None => root
            .and_then(|uri| uri.to_file_path().map(|p| p.into_owned()))
            .into_iter()
            .collect(),
    }
}

pub fn folder_path(folder: &WorkspaceFolder) -> Option<PathBuf> {
    folder.uri.to_file_path().map(|path| path.into_owned())
}

/// A number that differs between server processes: the start time in nanoseconds, mixed with
/// the process id.
fn session_number() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_nanos() as u64);
    nanos ^ (u64::from(std::process::id()) << 48)
}

/// Why an open document is not analysed, when it is larger than the `maxDocumentMB` setting
/// allows: what a document costs the server (its parse, analyses, tokens and formatting) grows
/// with its size, and a hostile or mistaken file (16 MB of one-line errors once took 1.2 GB) must
/// not take the machine's memory. Its text is still kept, so that cut down it is checked again.
pub fn too_large(snapshot: &Snapshot, settings: Settings) -> Option<String> {
    let len = snapshot.rope.len_bytes();
    let limit = settings.checks().max_document_bytes();
    (len > limit).then(|| {
        format!(
            "too large to check: this document is {:.1} MB, over the {} MB limit (setting \
             `maxDocumentMB`); nothing in it is analysed or formatted. Raise the setting, or run \
             `sudoku-lsp check` on the file",
            len as f64 / f64::from(1 << 20),
            settings.max_document_mb
        )
    })
}
