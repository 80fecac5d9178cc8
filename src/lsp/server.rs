//! The protocol handlers: document sync, diagnostics runs, rating runs, hover, code actions,
//! code lenses and the commands they run, formatting, semantic tokens (the last tokens per document
//! kept, by line, as the base of the next delta; a tokens request first waits a little for the
//! diagnostics run of the text to end, so that it reuses its parse and shows its conflicts).
//!
//! tower-lsp-server starts handlers in arrival order but runs them concurrently: at any `.await`
//! the next message's handler may run. So every handler first does its bookkeeping under the
//! state lock (a std `Mutex`, never held across an `.await`), and only then awaits. Analysis
//! runs on the blocking pool with a cancel flag that the next change of the document raises;
//! its result is published under the publish gate, and only if the document still has the very
//! text that was analysed, so diagnostics for an old version never reach the client and never
//! overtake newer ones.
//!
//! After its diagnostics are published, a run rates the document's puzzles (`ratings`), a slice
//! at a time on the background threads of `long` (at a lower priority than diagnostics and
//! queries), under the same cancel flag: a newer text stops it between two
//! puzzles (or inside one: the solver reads the flag). Ratings are kept by grid, so the next run
//! rates only the puzzles an edit changed; a long run reports `$/progress`, and a finished one
//! asks the client for its code lenses again.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::lsp_types::*;
use tower_lsp_server::{Client, LanguageServer, UriExt};

use super::diagnostics;
use super::documents::{Documents, Snapshot};
use super::jobs::{self, Carry, Limits};
use super::ratings::{self, Ratings};
use super::settings::Settings;
use super::transport::Malformed;
use super::view::{Analyzed, ClientConfig, Earlier, View};
use super::{actions, commands, formatting, hover, long, memory, outgoing};
use super::{completion, inlay, navigation, outline, tokens, workspace};

/// How long one slice of a rating run may take before it reports and checks for newer texts.
const RATING_SLICE: Duration = Duration::from_millis(300);
/// How often a rating run asks for the code lenses again while ratings arrive.
const REFRESH_EVERY: Duration = Duration::from_secs(1);
/// How long a semantic tokens request waits for the diagnostics run of its text to end; after
/// that the tokens go without conflicts (and the refresh after the run brings them).
const TOKENS_WAIT: Duration = Duration::from_secs(2);
/// How long to wait for the client to create a progress token.
const PROGRESS_CREATE_WAIT: Duration = Duration::from_secs(10);

fn percent(done: usize, total: usize) -> u32 {
    (done * 100).checked_div(total).unwrap_or(100) as u32
}

pub struct Backend {
    inner: Arc<Inner>,
}

struct Inner {
    client: Client,
    state: Mutex<State>,
    config: OnceLock<ClientConfig>,
    /// The user's settings, as last sent.
    settings: Mutex<Settings>,
    /// Held while deciding whether to publish and publishing, so publishes keep their order.
    publish_gate: tokio::sync::Mutex<()>,
    /// Set by `shutdown`; the exit code depends on it.
    shut_down: Arc<AtomicBool>,
    /// Where large results' arrays wait for their frame (see `outgoing`).
    stash: outgoing::Stash,
    /// Woken whenever a run hands diagnostics to a pulling client's next pull.
    delivered: tokio::sync::Notify,
    /// A number unique to this process, in every diagnostics result id, so the ids a client
    /// kept from another server process never match.
    session: u64,
    /// Woken whenever a diagnostics run has its analysis, and when it ends, however it ends.
    run_news: tokio::sync::Notify,
}

/// What a new diagnostics run needs from its document's `Run`: its cancel flag, and what
/// earlier runs carry over.
type NewRun = (Arc<AtomicBool>, Arc<Mutex<Carry>>);

#[derive(Default)]
struct State {
    documents: Documents,
    /// Per open document: the latest diagnostics run.
    runs: HashMap<Uri, Run>,
    /// Per document: the grid the last level-cycling hint was for, and its level.
    hint_levels: HashMap<Uri, (Vec<u8>, u8)>,
    /// Per document: the last semantic tokens sent with a result id, the base of the next delta.
    tokens: HashMap<Uri, (String, tokens::Sheet)>,
    /// The number of the next semantic tokens result id.
    next_tokens_id: u64,
    /// The number of the last diagnostics result id handed out (pull diagnostics).
    last_result_id: u64,
    /// The workspace folders, as paths: what workspace diagnostics walk.
    folders: Vec<PathBuf>,
}

struct Run {
    /// Raised when a newer text supersedes this run (or the document closes).
    cancel: Arc<AtomicBool>,
    /// Analyses by grid content and the last run's result, carried from one run to the next.
    carry: Arc<Mutex<Carry>>,
    /// The last finished analysis and the last parse by a query, whatever text they were for.
    earlier: Earlier,
    /// The generation of the latest text whose run ended (finished, failed or cancelled).
    ended: u64,
    /// Ratings by grid, carried from one run to the next.
    ratings: Arc<Ratings>,
    /// The last published diagnostics other than redundant givens (at most
    /// [`diagnostics::MAX_DIAGNOSTICS`] and one), with their text's generation and version:
    /// when ratings find redundant givens, they are published again with those added.
    published: Option<Published>,
    /// For a client that pulls diagnostics: the last diagnostics its next pull gets.
    delivered: Option<Delivered>,
}

/// Diagnostics waiting for a pull: those of one generation of the text, under a result id.
struct Delivered {
    generation: u64,
    /// Cleared when a new run starts for the same text (new settings): a pull then waits for
    /// that run rather than take these.
    current: bool,
    result_id: String,
    diagnostics: Arc<Vec<Diagnostic>>,
}

struct Published {
    generation: u64,
    version: i32,
    diagnostics: Arc<Vec<Diagnostic>>,
}

impl Backend {
    pub fn new(client: Client, stash: outgoing::Stash) -> Backend {
        Backend {
            inner: Arc::new(Inner {
                client,
                stash,
                state: Mutex::new(State::default()),
                config: OnceLock::new(),
                settings: Mutex::new(Settings::default()),
                publish_gate: tokio::sync::Mutex::new(()),
                shut_down: Arc::new(AtomicBool::new(false)),
                delivered: tokio::sync::Notify::new(),
                session: session_number(),
                run_news: tokio::sync::Notify::new(),
            }),
        }
    }

    /// Whether `shutdown` was received (read after the session ends, for the exit code).
    pub fn shut_down_flag(&self) -> Arc<AtomicBool> {
        self.inner.shut_down.clone()
    }

    /// The answer to a message the wire guard could not pass on (see `transport`).
    pub async fn malformed(&self, params: Malformed) -> Result<()> {
        self.inner
            .client
            .log_message(
                MessageType::WARNING,
                format!("malformed message: {}", params.problem),
            )
            .await;
        Err(Error {
            code: ErrorCode::from(params.code),
            message: params.problem.into(),
            data: None,
        })
    }
}

/// A hidden request, answered only when the test hooks are on (`SUDOKU_LSP_TEST_HOOKS=1`): the
/// server's own text and version of an open document (`null` if it is not open), so a test or
/// the fuzz target can compare it with the client's. Without the hooks it is an unknown method.
pub const DOCUMENT_TEXT_METHOD: &str = "$/sudoku-lsp/documentText";

#[derive(serde::Deserialize)]
pub struct DocumentTextParams {
    pub uri: Uri,
}

#[derive(serde::Serialize)]
pub struct DocumentText {
    pub version: i32,
    pub text: String,
}

impl Backend {
    pub async fn document_text(&self, params: DocumentTextParams) -> Result<Option<DocumentText>> {
        if !std::env::var(jobs::TEST_HOOKS_VAR).is_ok_and(|v| v == "1") {
            return Err(Error::method_not_found());
        }
        let snapshot = self.inner.state().documents.get(&params.uri);
        Ok(snapshot.map(|s| DocumentText {
            version: s.version,
            text: s.text(),
        }))
    }
}

impl Inner {
    fn config(&self) -> ClientConfig {
        self.config.get().copied().unwrap_or_default()
    }

    fn settings(&self) -> Settings {
        *self.settings.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Take the settings in `value`; whether those diagnostics depend on changed, and what
    /// could not be used.
    fn update_settings(&self, value: &serde_json::Value) -> (bool, Vec<String>) {
        let mut settings = self.settings.lock().unwrap_or_else(|e| e.into_inner());
        let (updated, problems) = Settings::updated(*settings, value);
        let changed = updated.checks() != settings.checks();
        *settings = updated;
        (changed, problems)
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock cannot leave the maps half-updated in a way that
        // matters more than stopping would, so keep serving with the data as it is.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Record a new text for `uri`: cancel the previous run and start a new one.
    fn supersede(state: &mut State, uri: &Uri) -> NewRun {
        let cancel = Arc::new(AtomicBool::new(false));
        match state.runs.get_mut(uri) {
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
                state.runs.insert(uri.clone(), run);
                (cancel, carry)
            }
        }
    }

    async fn log(&self, kind: MessageType, message: String) {
        self.client.log_message(kind, message).await;
    }

    /// Analyse one text off the message loop and publish its diagnostics if still current; then
    /// give back what a large text's run freed, or what a closed document's run held (the
    /// close itself gave back before this run let go).
    /// `unasked`: the client's edit did not start this run (new settings did), so a pulling
    /// client is asked to pull again when it is done.
    async fn analyze_and_publish(
        self: Arc<Self>,
        uri: Uri,
        snapshot: Snapshot,
        run: NewRun,
        unasked: bool,
    ) {
        let large = snapshot.rope.len_bytes() >= memory::LARGE_TEXT;
        let cancel = run.0.clone();
        let generation = snapshot.generation;
        let published = self
            .clone()
            .run_and_publish(uri.clone(), snapshot, run, unasked)
            .await;
        if let Some(run) = self.state().runs.get_mut(&uri) {
            run.ended = run.ended.max(generation);
        }
        self.run_news.notify_waiters();
        let closed = || self.state().documents.generation(&uri).is_none();
        if large && (closed() || (published.is_some() && memory::due_after_run())) {
            give_back_later("a run over a large text");
        }
        if let Some(analyzed) = published {
            self.rate(uri, analyzed, cancel).await;
        }
    }

    /// Rate the puzzles of a published run, a slice at a time on the background threads, until
    /// done or cancelled by a newer text; report progress when it takes long and the client can
    /// show it, and ask for the code lenses again as ratings arrive.
    async fn rate(self: Arc<Self>, uri: Uri, analyzed: Arc<Analyzed>, cancel: Arc<AtomicBool>) {
        let Some(ratings) = self.state().runs.get(&uri).map(|run| run.ratings.clone()) else {
            return;
        };
        let config = self.config();
        let generation = analyzed.generation;
        // Only a weak hold while rating, which can take minutes: the next edit's run takes the
        // parse over instead of copying a large collection's while any other holds it. The
        // text is still current exactly when the document's run still holds it.
        let kept = Arc::downgrade(&analyzed);
        drop(analyzed);
        let mut found_redundant = false;
        // First the plan: the grids to rate. The run holds them, not the document.
        let (ratings_job, cancel_job, kept_job) = (ratings.clone(), cancel.clone(), kept.clone());
        let job = long::background(move || {
            jobs::guarded(|| ratings::plan(&kept_job, &ratings_job, &cancel_job))
        });
        let plan = match job.await {
            Ok(Ok(plan)) => plan,
            Ok(Err(problem)) => return self.rating_failed(&uri, problem).await,
            Err(gone) => return self.rating_failed(&uri, gone.to_string()).await,
        };
        let todo = Arc::new(plan.todo);
        let lag = plan.lag;
        let total = todo.len();
        let mut next = 0;
        let mut progress: Option<ProgressToken> = None;
        let mut unrefreshed = 0;
        let mut refreshed_at = Instant::now();
        let finished = loop {
            if cancel.load(Ordering::Relaxed) {
                break false;
            }
            if next >= total {
                break true;
            }
            let (todo_job, ratings_job, cancel_job) =
                (todo.clone(), ratings.clone(), cancel.clone());
            let job = long::background(move || {
                jobs::guarded(|| {
                    let slice = RATING_SLICE;
                    ratings::rate_batch(&todo_job, &ratings_job, next, slice, &cancel_job, lag)
                })
            });
            let batch = match job.await {
                Ok(Ok(batch)) => batch,
                Ok(Err(problem)) => {
                    self.rating_failed(&uri, problem).await;
                    break false;
                }
                Err(gone) => {
                    self.rating_failed(&uri, gone.to_string()).await;
                    break false;
                }
            };
            next = batch.next;
            unrefreshed += batch.added;
            found_redundant |= batch.redundant;
            if cancel.load(Ordering::Relaxed) || next >= total {
                continue;
            }
            if unrefreshed > 0 && refreshed_at.elapsed() >= REFRESH_EVERY {
                self.refresh_lenses(config);
                unrefreshed = 0;
                refreshed_at = Instant::now();
            }
            match &progress {
                None if config.work_done_progress => {
                    progress = self.begin_progress(generation, next, total).await;
                }
                None => {}
                Some(token) => self.report_progress(token, next, total).await,
            }
        };
        if let Some(token) = progress {
            let message = if finished {
                format!("{total} puzzles rated")
            } else {
                "cancelled".to_string()
            };
            self.end_progress(token, message).await;
        }
        // Even with nothing new rated: lenses asked for before the diagnostics run finished
        // said `checking…`.
        let current = self.state().documents.generation(&uri) == Some(generation);
        if finished && current && plan.puzzles > 0 {
            self.refresh_lenses(config);
        }
        if let (true, true, Some(analyzed)) = (finished && current, found_redundant, kept.upgrade())
        {
            self.republish(uri, analyzed, ratings).await;
        }
    }

    /// Publish the last diagnostics again with the redundant givens the ratings found, if the
    /// text is still the one they were for.
    async fn republish(&self, uri: Uri, analyzed: Arc<Analyzed>, ratings: Arc<Ratings>) {
        let encoding = self.config().encoding;
        let job_uri = uri.clone();
        let job_analyzed = analyzed.clone();
        let settings = self.settings();
        let job = tokio::task::spawn_blocking(move || {
            jobs::guarded(|| {
                extra_diagnostics(&job_analyzed, Some(&ratings), settings, &job_uri, encoding)
            })
        });
        let Ok(Ok(extra)) = job.await else {
            return;
        };
        let _gate = self.publish_gate.lock().await;
        if self.settings().checks() != settings.checks() {
            return; // the run the new settings started publishes instead
        }
        let (version, main) = {
            let state = self.state();
            if state.documents.generation(&uri) != Some(analyzed.generation) {
                return;
            }
            let Some(published) = state.runs.get(&uri).and_then(|run| run.published.as_ref())
            else {
                return;
            };
            if published.generation != analyzed.generation {
                return;
            }
            (published.version, published.diagnostics.clone())
        };
        let diagnostics = diagnostics::with_extra(main.as_ref().clone(), extra);
        self.deliver(uri, analyzed.generation, version, diagnostics, true)
            .await;
    }

    /// Hand a run's diagnostics to the client: published, or, for a client that pulls, kept
    /// for its next pull (and a pull waiting for them woken). `unasked`: no edit of the client's
    /// led to them, so a pulling client is asked to pull again. They are kept for a pull in
    /// either case: a client that never said it pulls may still ask, and should not wait for
    /// ever. Called under the publish gate, once the text is known to be still current.
    async fn deliver(
        &self,
        uri: Uri,
        generation: u64,
        version: i32,
        diagnostics: Vec<Diagnostic>,
        unasked: bool,
    ) {
        let pulling = self.config().pull_diagnostics;
        let kept = Arc::new(diagnostics);
        let changed = {
            let mut state = self.state();
            state.last_result_id += 1;
            let fresh_id = format!("{}:{}", self.session, state.last_result_id);
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
        self.delivered.notify_waiters();
        if !pulling {
            let diagnostics = Arc::unwrap_or_clone(kept);
            self.client
                .publish_diagnostics(uri, diagnostics, Some(version))
                .await;
        } else if unasked && changed {
            self.ask_to_pull_again();
        }
    }

    /// Ask a client that pulls diagnostics to pull again (it can: else it would not pull).
    fn ask_to_pull_again(&self) {
        if self.config().pull_diagnostics {
            let client = self.client.clone();
            // Not awaited: the client may answer only after it has pulled, which may wait on us.
            tokio::spawn(async move {
                let _ = client.workspace_diagnostic_refresh().await;
            });
        }
    }

    /// The new-puzzle command: the generator runs as long work (`long`: never in the way of
    /// requests, stopped when the request is cancelled), then the puzzle goes in at the start of
    /// the line the command names, in the text as it is by then.
    async fn new_puzzle(
        self: &Arc<Self>,
        args: &commands::Args,
    ) -> std::result::Result<(), String> {
        let request = commands::new_puzzle_request(args)?;
        let seed = args.seed.unwrap_or_else(crate::analysis::clock_seed);
        let job_request = request.clone();
        // Raised when this future is dropped: `$/cancelRequest` drops it.
        let cancel = workspace::CancelOnDrop(Arc::new(AtomicBool::new(false)));
        let job = long::start(cancel.0.clone(), move |cancel| {
            jobs::guarded(|| {
                // Puzzle 1 of `sudoku-lsp new --seed`'s run: its source line makes it again.
                let mut rng = crate::analysis::puzzle_rng(seed, 1);
                let deadline = Instant::now() + commands::NEW_PUZZLE_TIME;
                crate::analysis::generate_cancellable(
                    &job_request,
                    &mut rng,
                    deadline,
                    Some(cancel),
                )
            })
        })
        .map_err(|long::Busy| {
            format!(
                "no new puzzle: {} are being made already; try again once one is in",
                long::running() + long::WAITING
            )
        })?;
        let made = match job.await {
            Ok(Ok(Ok(made))) => made,
            Ok(Ok(Err(crate::analysis::Failure::OutOfTime { tried }))) => {
                return Err(format!(
                    "no new puzzle: none of the {tried} made in {} s was in the rating window",
                    commands::NEW_PUZZLE_TIME.as_secs()
                ))
            }
            Ok(Err(problem)) => return Err(format!("no new puzzle: {problem}")),
            Err(_) => return Err("no new puzzle: the generator stopped".to_string()),
        };
        drop(cancel);
        let source = request.command_line(seed, 1);
        let text = crate::analysis::block_text(
            &made,
            request.size,
            request.variant,
            "New puzzle",
            &source,
        );
        let position = args.position;
        let edit = self
            .query("new puzzle command", &args.uri, move |view| {
                Some(commands::insert_puzzle(view, position, &text))
            })
            .await
            .ok_or_else(|| gone(&args.uri))?;
        self.apply_edit(edit, "insert the puzzle").await
    }

    /// Ask the editor to apply `edit` (`workspace/applyEdit`). The commands that edit share it,
    /// so a refusal or a failed request reads alike: "the editor did not {what}", and why.
    async fn apply_edit(&self, edit: WorkspaceEdit, what: &str) -> std::result::Result<(), String> {
        match self.client.apply_edit(edit).await {
            Ok(response) if response.applied => Ok(()),
            Ok(response) => Err(format!(
                "the editor did not {what}{}",
                response
                    .failure_reason
                    .map(|r| format!(": {r}"))
                    .unwrap_or_default()
            )),
            Err(error) => Err(format!("the editor did not {what}: {error}")),
        }
    }

    async fn rating_failed(&self, uri: &Uri, problem: String) {
        let message = format!("rating {} failed: {problem}", uri.as_str());
        self.log(MessageType::ERROR, message).await;
    }

    /// Ask the client for the inlay hints again (their setting changed), without waiting.
    fn refresh_inlay_hints(&self) {
        if self.config().navigation.inlay_hint_refresh {
            let client = self.client.clone();
            tokio::spawn(async move {
                let _ = client.inlay_hint_refresh().await;
            });
        }
    }

    /// Ask the client for its semantic tokens again, without waiting, when a finished run found
    /// conflicting digits: tokens sent before the run finished lack their modifier. Only the
    /// puzzles with findings are looked at (a puzzle with a conflict has some): walking every
    /// analysis of a 49,151-puzzle collection took a fifth of an edit's time.
    fn refresh_semantic_tokens(&self, analyzed: &Analyzed) {
        let checked = &analyzed.checked;
        let conflicts = checked
            .noted
            .iter()
            .any(|&i| !checked.analyses[i].conflicts.is_empty());
        if conflicts && self.config().navigation.semantic_tokens_refresh {
            let client = self.client.clone();
            tokio::spawn(async move {
                let _ = client.semantic_tokens_refresh().await;
            });
        }
    }

    /// Wait, at most [`TOKENS_WAIT`], for the diagnostics run of the current text of `uri` to
    /// have its analysis (or to end without one): its tokens then reuse the run's parse (not a
    /// second parse of a large text) and carry its conflicts.
    async fn settle(&self, uri: &Uri) {
        let deadline = tokio::time::Instant::now() + TOKENS_WAIT;
        loop {
            let ended = self.run_news.notified();
            tokio::pin!(ended);
            // Registered before looking, so a run ending in between still wakes us.
            ended.as_mut().enable();
            {
                let state = self.state();
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
        self: &Arc<Self>,
        uri: &Uri,
        previous: Option<&str>,
    ) -> Option<(String, Tokens)> {
        self.settle(uri).await;
        let base = previous.and_then(|previous| {
            let mut state = self.state();
            match state.tokens.remove(uri) {
                Some((id, sheet)) if id == previous => Some(sheet),
                Some(other) => {
                    state.tokens.insert(uri.clone(), other);
                    None
                }
                None => None,
            }
        });
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
                    let sheet = tokens::Sheet::new(view);
                    let json = sheet.data_json();
                    (generation, sheet, Tokens::All(json))
                }
            })
        };
        let (generation, sheet, answer) = self.query(what, uri, query).await?;
        Some((self.keep_tokens(uri, generation, sheet), answer))
    }

    /// A new result id for `sheet`, kept under it as the base of the next delta if the
    /// document still has the text of `generation` (else a delta from it gets every token).
    fn keep_tokens(&self, uri: &Uri, generation: u64, sheet: tokens::Sheet) -> String {
        let mut state = self.state();
        state.next_tokens_id += 1;
        let id = state.next_tokens_id.to_string();
        if state.documents.generation(uri) == Some(generation) {
            state.tokens.insert(uri.clone(), (id.clone(), sheet));
        }
        id
    }

    /// Every token, as the protocol's result: the array itself goes out as the JSON the sheet
    /// wrote, put in the frame by `outgoing`.
    fn all_tokens(&self, result_id: String, json: Vec<u8>) -> SemanticTokens {
        self.stash.put(result_id.clone(), json);
        SemanticTokens {
            result_id: Some(result_id),
            data: Vec::new(),
        }
    }

    /// Ask the client for the code lenses again, without waiting for its answer.
    fn refresh_lenses(&self, config: ClientConfig) {
        if config.code_lens_refresh {
            let client = self.client.clone();
            tokio::spawn(async move {
                let _ = client.code_lens_refresh().await;
            });
        }
    }

    /// Create a progress token and begin; `None` when the client refused or did not answer.
    async fn begin_progress(
        &self,
        generation: u64,
        done: usize,
        total: usize,
    ) -> Option<ProgressToken> {
        let token = NumberOrString::String(format!("sudoku-lsp/rating/{generation}"));
        let create = self.client.send_request::<request::WorkDoneProgressCreate>(
            WorkDoneProgressCreateParams {
                token: token.clone(),
            },
        );
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
        self.send_progress(&token, begin).await;
        Some(token)
    }

    async fn report_progress(&self, token: &ProgressToken, done: usize, total: usize) {
        let report = WorkDoneProgress::Report(WorkDoneProgressReport {
            cancellable: Some(false),
            message: Some(format!("{done}/{total}")),
            percentage: Some(percent(done, total)),
        });
        self.send_progress(token, report).await;
    }

    async fn end_progress(&self, token: ProgressToken, message: String) {
        let end = WorkDoneProgress::End(WorkDoneProgressEnd {
            message: Some(message),
        });
        self.send_progress(&token, end).await;
    }

    async fn send_progress(&self, token: &ProgressToken, value: WorkDoneProgress) {
        self.client
            .send_notification::<notification::Progress>(ProgressParams {
                token: token.clone(),
                value: ProgressParamsValue::WorkDone(value),
            })
            .await;
    }

    /// The run itself: its result, when its diagnostics were published.
    async fn run_and_publish(
        self: Arc<Self>,
        uri: Uri,
        snapshot: Snapshot,
        run: NewRun,
        unasked: bool,
    ) -> Option<Arc<Analyzed>> {
        let limits = Limits::from_env();
        let (cancel, carry) = run;
        let encoding = self.config().encoding;
        let settings = self.settings();
        if let Some(why) = too_large(&snapshot, settings) {
            let alone = diagnostics::too_large(why, &snapshot.rope, encoding);
            self.publish_alone(uri, snapshot, settings, alone, unasked)
                .await;
            return None;
        }
        let rope = snapshot.rope.clone(); // shares its chunks
        let job_uri = uri.clone();
        let generation = snapshot.generation;
        let ratings = self.state().runs.get(&uri).map(|run| run.ratings.clone());
        let inner = self.clone();
        let received = snapshot.received;
        // Placing the findings in the client's encoding is work too: done off the message loop.
        let job = tokio::task::spawn_blocking(move || {
            let mut way = Way {
                thread: jobs::ms_since(received),
                ..Way::default()
            };
            let outcome = jobs::check(&rope, generation, &cancel, limits, &carry)?;
            way.checked = jobs::ms_since(received);
            if let Ok((analyzed, _)) = &outcome {
                inner.offer_analysis(&job_uri, analyzed);
            }
            let started = Instant::now();
            let (outcome, diagnostics, extra) = match outcome {
                Ok((analyzed, findings)) => {
                    let omitted = analyzed.checked.document.unkept.by_severity();
                    let diagnostics =
                        diagnostics::from_findings(&findings, omitted, &job_uri, &rope, encoding);
                    let extra = extra_diagnostics(
                        &analyzed,
                        ratings.as_deref(),
                        settings,
                        &job_uri,
                        encoding,
                    );
                    (Ok(analyzed), diagnostics, extra)
                }
                Err(problem) => {
                    let internal = diagnostics::internal(&problem, &job_uri, &rope, encoding);
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
            way.built = jobs::ms_since(received);
            Some((outcome, diagnostics, extra, way))
        });
        let (outcome, diagnostics, extra, mut way) = match job.await {
            Ok(None) => return None,
            Ok(Some(done)) => done,
            Err(join_error) => {
                let problem = format!("the analysis task failed: {join_error}");
                let internal = diagnostics::internal(&problem, &uri, &snapshot.rope, encoding);
                (Err(problem), vec![internal], Vec::new(), Way::default())
            }
        };
        way.back = jobs::ms_since(received);
        let (analyzed, panic) = match outcome {
            Ok(analyzed) => (Some(analyzed), None),
            Err(problem) => (None, Some(problem)),
        };
        let _gate = self.publish_gate.lock().await;
        way.gate = jobs::ms_since(received);
        if self.settings().checks() != settings.checks() {
            return None; // the settings changed while we worked: the run they started publishes
        }
        {
            let mut state = self.state();
            if state.documents.generation(&uri) != Some(snapshot.generation) {
                return None; // the text moved on (or closed) while we worked: never publish stale
            }
            if let (Some(run), Some(analyzed)) = (state.runs.get_mut(&uri), analyzed.clone()) {
                // The finished run has the document too: drop any separate parse.
                run.earlier = Earlier {
                    finished: Some(analyzed),
                    parsed: None,
                };
                run.published = Some(Published {
                    generation: snapshot.generation,
                    version: snapshot.version,
                    diagnostics: Arc::new(diagnostics.clone()),
                });
            }
        }
        let diagnostics = diagnostics::with_extra(diagnostics, extra);
        if let Some(problem) = panic {
            let message = format!(
                "analysis of {} (version {}) panicked: {problem}",
                uri.as_str(),
                snapshot.version
            );
            self.log(MessageType::ERROR, message).await;
        }
        self.deliver(
            uri,
            snapshot.generation,
            snapshot.version,
            diagnostics,
            unasked,
        )
        .await;
        way.queued = jobs::ms_since(received);
        jobs::log_timing(|| way.line(snapshot.version, received));
        if let Some(analyzed) = &analyzed {
            self.refresh_semantic_tokens(analyzed);
        }
        analyzed
    }

    /// Publish `diagnostic` as the only one of a text that is not analysed (over the size
    /// limit), if the text and the `settings` the run started under are still current.
    async fn publish_alone(
        &self,
        uri: Uri,
        snapshot: Snapshot,
        settings: Settings,
        diagnostic: Diagnostic,
        unasked: bool,
    ) {
        let _gate = self.publish_gate.lock().await;
        if self.settings().checks() != settings.checks() {
            return;
        }
        {
            let mut state = self.state();
            if state.documents.generation(&uri) != Some(snapshot.generation) {
                return;
            }
            if let Some(run) = state.runs.get_mut(&uri) {
                run.earlier = Earlier::default();
                run.published = Some(Published {
                    generation: snapshot.generation,
                    version: snapshot.version,
                    diagnostics: Arc::new(vec![diagnostic.clone()]),
                });
            }
        }
        let (generation, version) = (snapshot.generation, snapshot.version);
        self.deliver(uri, generation, version, vec![diagnostic], unasked)
            .await;
    }

    /// Hand a run's analysis to the queries as soon as it exists, while the text is current,
    /// before its diagnostics are built and published (which can take longer than the analysis
    /// after an edit): semantic tokens wait for it.
    fn offer_analysis(&self, uri: &Uri, analyzed: &Arc<Analyzed>) {
        {
            let mut state = self.state();
            let current = state.documents.generation(uri) == Some(analyzed.generation);
            if let (true, Some(run)) = (current, state.runs.get_mut(uri)) {
                run.earlier = Earlier {
                    finished: Some(analyzed.clone()),
                    parsed: None,
                };
            }
        }
        self.run_news.notify_waiters();
    }

    /// After `didClose`: clear the diagnostics, unless the document was reopened meanwhile, and
    /// give back the memory the document held.
    async fn clear(self: Arc<Self>, uri: Uri) {
        let _gate = self.publish_gate.lock().await;
        if self.state().documents.version(&uri).is_some() {
            return; // reopened: its own run publishes
        }
        if !self.config().pull_diagnostics {
            // A pulling client forgets a closed document's pulled diagnostics itself.
            self.client.publish_diagnostics(uri, Vec::new(), None).await;
        }
        give_back_later("closing a document");
    }

    /// The view of the current text of `uri`, built on the blocking pool, and `work` done on it.
    /// `None` if the document is not open or over the size limit (never parsed: see
    /// `too_large`), if the work panicked (logged), or if the text changed while we worked (an
    /// answer about an older text is worse than none).
    async fn query<T: Send + 'static>(
        self: &Arc<Self>,
        what: &'static str,
        uri: &Uri,
        work: impl FnOnce(&View) -> Option<T> + Send + 'static,
    ) -> Option<T> {
        let settings = self.settings();
        let (snapshot, earlier, ratings) = {
            let state = self.state();
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
        let config = self.config();
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
        let (answer, parsed) = match job.await {
            Ok(Ok(done)) => done,
            Ok(Err(problem)) => {
                let message = format!("a request on {} failed: {problem}", uri.as_str());
                self.log(MessageType::ERROR, message).await;
                return None;
            }
            Err(join_error) => {
                let message = format!("a request on {} failed: {join_error}", uri.as_str());
                self.log(MessageType::ERROR, message).await;
                return None;
            }
        };
        let mut state = self.state();
        if state.documents.generation(uri) != Some(generation) {
            return None;
        }
        if let (Some(parsed), Some(run)) = (parsed, state.runs.get_mut(uri)) {
            run.earlier.parsed = Some(parsed);
        }
        answer
    }
}

impl Inner {
    /// A formatting answer for the document's text as it is when the request arrives: `null`
    /// when the document is not open, the error `ContentModified` when its text changed while
    /// the edits were computed (they would be for a text the editor no longer has), and
    /// `RequestFailed` saying why when it cannot be formatted (over the size limit, or a piece
    /// too long to format at once).
    async fn format(
        self: &Arc<Self>,
        what: &'static str,
        uri: &Uri,
        work: impl FnOnce(&View) -> std::result::Result<Vec<TextEdit>, String> + Send + 'static,
    ) -> Result<Option<Vec<TextEdit>>> {
        let Some(snapshot) = self.state().documents.get(uri) else {
            return Ok(None);
        };
        let generation = snapshot.generation;
        let refused = |why: String| Error {
            code: ErrorCode::ServerError(REQUEST_FAILED),
            message: format!("{} is not formatted: {why}", uri.as_str()).into(),
            data: None,
        };
        if let Some(why) = too_large(&snapshot, self.settings()) {
            return Err(refused(why));
        }
        match self.query(what, uri, move |view| Some(work(view))).await {
            Some(Ok(edits)) => Ok(Some(edits)),
            Some(Err(why)) => Err(refused(why)),
            None => match self.state().documents.generation(uri) {
                None => Ok(None),
                Some(now) if now != generation => Err(Error {
                    code: ErrorCode::ServerError(CONTENT_MODIFIED),
                    message: format!("{} changed while it was being formatted", uri.as_str())
                        .into(),
                    data: None,
                }),
                // The work failed (and was logged).
                Some(_) => Err(Error::internal_error()),
            },
        }
    }
}

/// Where a document's pull stands.
enum Pulled {
    /// The diagnostics of its current text, under their result id.
    Ready(String, Arc<Vec<Diagnostic>>),
    /// Its current text's run is not done yet.
    Pending,
    /// It is not open.
    NotOpen,
}

impl Inner {
    /// The answer to `textDocument/diagnostic`: the diagnostics of the document's current text,
    /// once its run has them (the pull waits for it; a newer edit makes it wait for that text's
    /// run instead), or `unchanged` when the client already holds them. A document that is not
    /// open is read from its file.
    async fn pull(
        self: &Arc<Self>,
        uri: Uri,
        previous: Option<String>,
    ) -> DocumentDiagnosticReportResult {
        loop {
            // Registered before looking, so a delivery between the look and the wait wakes us.
            let mut notified = std::pin::pin!(self.delivered.notified());
            notified.as_mut().enable();
            match self.pulled(&uri) {
                Pulled::Ready(result_id, diagnostics) => {
                    let answer = workspace::Answer::new(result_id, previous.as_deref(), || {
                        diagnostics.to_vec()
                    });
                    return answer.for_document();
                }
                Pulled::NotOpen => return self.pull_closed(uri, previous).await,
                Pulled::Pending => notified.await,
            }
        }
    }

    fn pulled(&self, uri: &Uri) -> Pulled {
        let state = self.state();
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
        &self,
        uri: Uri,
        previous: Option<String>,
    ) -> DocumentDiagnosticReportResult {
        let check = self.file_check();
        let cancel = workspace::CancelOnDrop(Arc::new(AtomicBool::new(false)));
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
    fn file_check(&self) -> workspace::FileCheck {
        workspace::FileCheck {
            session: self.session,
            checks: self.settings().checks(),
            encoding: self.config().encoding,
        }
    }

    /// What a workspace pull needs from the state, taken at once.
    fn workspace_pull(&self, previous: HashMap<String, String>) -> workspace::Pull {
        let state = self.state();
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
            files: self.file_check(),
        }
    }

    /// The answer to `workspace/diagnostic`: a report for every `*.sudoku` file of the
    /// workspace folders, worked out on the blocking pool (stopped if the client cancels).
    async fn pull_workspace(
        &self,
        previous: HashMap<String, String>,
    ) -> Result<Vec<WorkspaceDocumentDiagnosticReport>> {
        let pull = self.workspace_pull(previous);
        let cancel = workspace::CancelOnDrop(Arc::new(AtomicBool::new(false)));
        let flag = cancel.0.clone();
        let started = Instant::now();
        let job =
            tokio::task::spawn_blocking(move || jobs::guarded(|| workspace::reports(&pull, &flag)));
        let outcome = job.await;
        drop(cancel);
        let (reports, notes) = match outcome {
            Ok(Ok(Some(done))) => done,
            Ok(Ok(None)) => return Err(Error::request_cancelled()),
            Ok(Err(problem)) => {
                self.log(
                    MessageType::ERROR,
                    format!("workspace diagnostics failed: {problem}"),
                )
                .await;
                return Err(Error::internal_error());
            }
            Err(join_error) => {
                let message = format!("workspace diagnostics failed: {join_error}");
                self.log(MessageType::ERROR, message).await;
                return Err(Error::internal_error());
            }
        };
        jobs::log_timing(|| {
            format!(
                "workspace diagnostics: {} files in {:.2} ms",
                reports.len(),
                started.elapsed().as_secs_f64() * 1e3
            )
        });
        for note in notes {
            self.log(MessageType::WARNING, note).await;
        }
        Ok(reports)
    }
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
    fn line(&self, version: i32, received: std::time::SystemTime) -> String {
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

/// A semantic tokens answer: every token (the array's JSON), or the edits to the array the
/// client has.
enum Tokens {
    All(Vec<u8>),
    Edits(Vec<SemanticTokensEdit>),
}

/// LSP's `ContentModified`: the document changed under a request's feet.
const CONTENT_MODIFIED: i64 = -32801;

/// Give freed memory back to the system, on the blocking pool (it takes a few milliseconds for
/// a large heap).
fn give_back_later(why: &'static str) {
    tokio::task::spawn_blocking(move || memory::give_back(why));
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let config = ClientConfig::new(&params.capabilities);
        let _ = self.inner.config.set(config);
        self.inner.state().folders = workspace_folders(&params);
        if let Some(options) = &params.initialization_options {
            let (_, problems) = self.inner.update_settings(options);
            for problem in problems {
                self.inner.log(MessageType::WARNING, problem).await;
            }
        }
        let code_actions = CodeActionOptions {
            code_action_kinds: Some(vec![
                CodeActionKind::QUICKFIX,
                CodeActionKind::REFACTOR_REWRITE,
            ]),
            ..CodeActionOptions::default()
        };
        Ok(InitializeResult {
            capabilities: ServerCapabilities {
                position_encoding: Some(config.encoding.kind()),
                text_document_sync: Some(TextDocumentSyncCapability::Options(
                    TextDocumentSyncOptions {
                        open_close: Some(true),
                        change: Some(TextDocumentSyncKind::INCREMENTAL),
                        ..TextDocumentSyncOptions::default()
                    },
                )),
                hover_provider: Some(HoverProviderCapability::Simple(true)),
                document_symbol_provider: Some(OneOf::Left(true)),
                folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
                selection_range_provider: Some(SelectionRangeProviderCapability::Simple(true)),
                completion_provider: Some(CompletionOptions::default()),
                definition_provider: Some(OneOf::Left(true)),
                references_provider: Some(OneOf::Left(true)),
                document_highlight_provider: Some(OneOf::Left(true)),
                inlay_hint_provider: Some(OneOf::Left(true)),
                code_lens_provider: Some(CodeLensOptions {
                    resolve_provider: Some(false),
                }),
                execute_command_provider: Some(ExecuteCommandOptions {
                    commands: commands::ALL.iter().map(|c| c.to_string()).collect(),
                    ..ExecuteCommandOptions::default()
                }),
                code_action_provider: Some(CodeActionProviderCapability::Options(code_actions)),
                document_formatting_provider: Some(OneOf::Left(true)),
                document_range_formatting_provider: Some(OneOf::Left(true)),
                semantic_tokens_provider: Some(
                    SemanticTokensServerCapabilities::SemanticTokensOptions(
                        SemanticTokensOptions {
                            legend: tokens::legend(),
                            range: Some(true),
                            full: Some(SemanticTokensFullOptions::Delta { delta: Some(true) }),
                            ..SemanticTokensOptions::default()
                        },
                    ),
                ),
                diagnostic_provider: config.pull_diagnostics.then(|| {
                    DiagnosticServerCapabilities::Options(DiagnosticOptions {
                        identifier: Some(diagnostics::SOURCE.to_string()),
                        inter_file_dependencies: false,
                        workspace_diagnostics: true,
                        ..DiagnosticOptions::default()
                    })
                }),
                workspace: Some(WorkspaceServerCapabilities {
                    workspace_folders: Some(WorkspaceFoldersServerCapabilities {
                        supported: Some(true),
                        change_notifications: Some(OneOf::Left(true)),
                    }),
                    file_operations: None,
                }),
                ..ServerCapabilities::default()
            },
            server_info: Some(ServerInfo {
                name: "sudoku-lsp".into(),
                version: Some(env!("CARGO_PKG_VERSION").into()),
            }),
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        let encoding = self.inner.config().encoding.kind();
        let message = format!("sudoku-lsp ready (positions in {})", encoding.as_str());
        self.inner.log(MessageType::INFO, message).await;
    }

    async fn shutdown(&self) -> Result<()> {
        self.inner.shut_down.store(true, Ordering::SeqCst);
        for run in self.inner.state().runs.values() {
            run.cancel.store(true, Ordering::Relaxed);
        }
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let document = params.text_document;
        let (snapshot, run) = {
            let mut state = self.inner.state();
            let snapshot =
                state
                    .documents
                    .open(document.uri.clone(), &document.text, document.version);
            (snapshot, Inner::supersede(&mut state, &document.uri))
        };
        let inner = self.inner.clone();
        tokio::spawn(inner.analyze_and_publish(document.uri, snapshot, run, false));
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let uri = params.text_document.uri;
        let version = params.text_document.version;
        let encoding = self.inner.config().encoding;
        let outcome = {
            let mut state = self.inner.state();
            match state
                .documents
                .change(&uri, version, &params.content_changes, encoding)
            {
                Ok(changed) => Ok((changed, Inner::supersede(&mut state, &uri))),
                Err(note) => Err(note),
            }
        };
        match outcome {
            Ok((changed, run)) => {
                let inner = self.inner.clone();
                tokio::spawn(inner.analyze_and_publish(uri, changed.snapshot, run, false));
                for note in changed.notes {
                    self.inner.log(MessageType::WARNING, note).await;
                }
            }
            Err(note) => self.inner.log(MessageType::WARNING, note).await,
        }
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        let inlay_before = self.inner.settings().inlay_hints;
        let (changed, problems) = self.inner.update_settings(&params.settings);
        if self.inner.settings().inlay_hints != inlay_before {
            self.inner.refresh_inlay_hints();
        }
        if changed {
            // Every open document again, with the new settings: state first, before any await.
            let runs: Vec<_> = {
                let mut state = self.inner.state();
                let uris: Vec<Uri> = state.runs.keys().cloned().collect();
                uris.into_iter()
                    .filter_map(|uri| {
                        let snapshot = state.documents.get(&uri)?;
                        let run = Inner::supersede(&mut state, &uri);
                        Some((uri, snapshot, run))
                    })
                    .collect()
            };
            if runs.is_empty() {
                // No run will ask a pulling client to pull again: the files' ids changed anyway.
                self.inner.ask_to_pull_again();
            }
            for (uri, snapshot, run) in runs {
                tokio::spawn(
                    self.inner
                        .clone()
                        .analyze_and_publish(uri, snapshot, run, true),
                );
            }
        }
        for problem in problems {
            self.inner.log(MessageType::WARNING, problem).await;
        }
    }

    async fn did_change_workspace_folders(&self, params: DidChangeWorkspaceFoldersParams) {
        let mut state = self.inner.state();
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

    async fn diagnostic(
        &self,
        params: DocumentDiagnosticParams,
    ) -> Result<DocumentDiagnosticReportResult> {
        let uri = params.text_document.uri;
        let previous = params.previous_result_id;
        Ok(self.inner.pull(uri, previous).await)
    }

    async fn workspace_diagnostic(
        &self,
        params: WorkspaceDiagnosticParams,
    ) -> Result<WorkspaceDiagnosticReportResult> {
        let previous = params
            .previous_result_ids
            .into_iter()
            .map(|id| (id.uri.to_string(), id.value))
            .collect();
        let items = self.inner.pull_workspace(previous).await?;
        Ok(WorkspaceDiagnosticReportResult::Report(
            WorkspaceDiagnosticReport { items },
        ))
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        let was_open = {
            let mut state = self.inner.state();
            if let Some(run) = state.runs.remove(&uri) {
                run.cancel.store(true, Ordering::Relaxed);
            }
            state.hint_levels.remove(&uri);
            state.tokens.remove(&uri);
            state.documents.close(&uri)
        };
        if was_open {
            tokio::spawn(self.inner.clone().clear(uri));
        } else {
            let message = format!("ignored closing {}: it was not open", uri.as_str());
            self.inner.log(MessageType::WARNING, message).await;
        }
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let position = params.text_document_position_params.position;
        let uri = params.text_document_position_params.text_document.uri;
        Ok(self
            .inner
            .query("hover", &uri, move |view| hover::answer(view, position))
            .await)
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        let uri = params.text_document.uri;
        let query = |view: &View| Some(outline::symbols(view));
        Ok(self.inner.query("document symbols", &uri, query).await)
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        let uri = params.text_document.uri;
        let query = |view: &View| Some(outline::folding_ranges(view));
        Ok(self.inner.query("folding ranges", &uri, query).await)
    }

    async fn selection_range(
        &self,
        params: SelectionRangeParams,
    ) -> Result<Option<Vec<SelectionRange>>> {
        let uri = params.text_document.uri;
        let positions = params.positions;
        let query = move |view: &View| Some(outline::selection_ranges(view, &positions));
        Ok(self.inner.query("selection ranges", &uri, query).await)
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        let position = params.text_document_position.position;
        let uri = params.text_document_position.text_document.uri;
        let query = move |view: &View| completion::items(view, view.offset(position));
        let items = self.inner.query("completion", &uri, query).await;
        Ok(items.map(CompletionResponse::Array))
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        let position = params.text_document_position_params.position;
        let uri = params.text_document_position_params.text_document.uri;
        let query = move |view: &View| navigation::definition(view, view.offset(position));
        Ok(self.inner.query("definition", &uri, query).await)
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        let position = params.text_document_position.position;
        let uri = params.text_document_position.text_document.uri;
        let include = params.context.include_declaration;
        let query = move |view: &View| navigation::references(view, view.offset(position), include);
        Ok(self.inner.query("references", &uri, query).await)
    }

    async fn document_highlight(
        &self,
        params: DocumentHighlightParams,
    ) -> Result<Option<Vec<DocumentHighlight>>> {
        let position = params.text_document_position_params.position;
        let uri = params.text_document_position_params.text_document.uri;
        let query = move |view: &View| navigation::highlights(view, view.offset(position));
        Ok(self.inner.query("highlights", &uri, query).await)
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        // The setting as it is when the request comes, before any await.
        let mode = self.inner.settings().inlay_hints;
        let (uri, range) = (params.text_document.uri, params.range);
        let query = move |view: &View| Some(inlay::hints(view, mode, range));
        Ok(self.inner.query("inlay hints", &uri, query).await)
    }

    async fn semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>> {
        let uri = params.text_document.uri;
        let Some((result_id, answer)) = self.inner.semantic_tokens(&uri, None).await else {
            return Ok(None);
        };
        let Tokens::All(json) = answer else {
            return Ok(None); // never: without a previous result, the answer is all of them
        };
        let tokens = self.inner.all_tokens(result_id, json);
        Ok(Some(SemanticTokensResult::Tokens(tokens)))
    }

    async fn semantic_tokens_full_delta(
        &self,
        params: SemanticTokensDeltaParams,
    ) -> Result<Option<SemanticTokensFullDeltaResult>> {
        let uri = params.text_document.uri;
        let previous = Some(params.previous_result_id.as_str());
        let Some((result_id, answer)) = self.inner.semantic_tokens(&uri, previous).await else {
            return Ok(None);
        };
        Ok(Some(match answer {
            Tokens::Edits(edits) => {
                SemanticTokensFullDeltaResult::TokensDelta(SemanticTokensDelta {
                    result_id: Some(result_id),
                    edits,
                })
            }
            Tokens::All(json) => {
                SemanticTokensFullDeltaResult::Tokens(self.inner.all_tokens(result_id, json))
            }
        }))
    }

    async fn semantic_tokens_range(
        &self,
        params: SemanticTokensRangeParams,
    ) -> Result<Option<SemanticTokensRangeResult>> {
        let uri = params.text_document.uri;
        let range = params.range;
        self.inner.settle(&uri).await;
        let query = move |view: &View| Some(tokens::range(view, range));
        let tokens = self
            .inner
            .query("semantic tokens (range)", &uri, query)
            .await;
        Ok(tokens.map(|data| {
            SemanticTokensRangeResult::Tokens(SemanticTokens {
                result_id: None,
                data,
            })
        }))
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let start = params.range.start;
        let only = params.context.only;
        let uri = params.text_document.uri;
        let actions = self
            .inner
            .query("code action", &uri, move |view| {
                let offset = view.offset(start);
                Some(actions::at(view, offset, only.as_deref()))
            })
            .await;
        Ok(actions.filter(|actions| !actions.is_empty()))
    }

    async fn code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        let uri = params.text_document.uri;
        Ok(self
            .inner
            .query("code lens", &uri, |view| Some(commands::lenses(view)))
            .await)
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        let style = self.inner.settings().format_style;
        let options = params.options;
        let uri = params.text_document.uri;
        self.inner
            .format("formatting", &uri, move |view| {
                formatting::document(view, style, &options)
            })
            .await
    }

    async fn range_formatting(
        &self,
        params: DocumentRangeFormattingParams,
    ) -> Result<Option<Vec<TextEdit>>> {
        let style = self.inner.settings().format_style;
        let (range, request) = (params.range, params.options);
        let uri = params.text_document.uri;
        self.inner
            .format("range formatting", &uri, move |view| {
                formatting::range(view, style, range, &request)
            })
            .await
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<LSPAny>> {
        let args = params
            .arguments
            .first()
            .and_then(|a| serde_json::from_value::<commands::Args>(a.clone()).ok())
            .ok_or_else(|| {
                Error::invalid_params("expected one argument {uri, position, level?}")
            })?;
        let uri = args.uri.clone();
        let position = args.position;
        let inner = &self.inner;
        if params.command == commands::RENDER {
            // The one command with a result: the picture, for the client to show or save.
            let options = crate::render::Options {
                candidates: args.candidates.unwrap_or(false),
                solution: args.solution.unwrap_or(false),
            };
            let svg = inner
                .query("render command", &uri, move |view| {
                    Some(commands::render(view, view.offset(position), &options))
                })
                .await;
            return match svg {
                Some(Ok(svg)) => Ok(Some(LSPAny::String(svg))),
                Some(Err(why)) => Err(Error::invalid_params(why)),
                None => Err(Error::invalid_params(gone(&uri))),
            };
        }
        let outcome: std::result::Result<(), String> = match params.command.as_str() {
            commands::RATING => {
                let message = inner
                    .query("rating command", &uri, move |view| {
                        Some(commands::rating_message(view, view.offset(position)))
                    })
                    .await;
                match message {
                    Some(Ok(message)) => {
                        inner.client.show_message(MessageType::INFO, message).await;
                        Ok(())
                    }
                    Some(Err(why)) => Err(why),
                    None => Err(gone(&uri)),
                }
            }
            commands::HINT => {
                let hint = inner
                    .query("hint command", &uri, move |view| {
                        Some(commands::hint(view, view.offset(position)))
                    })
                    .await;
                match hint {
                    Some(Ok(hint)) => {
                        // Chosen under the lock, before any await: two quick uses go 1 then 2.
                        let level = {
                            let mut state = inner.state();
                            let level = match args.level {
                                Some(level) => level.clamp(1, 3),
                                None => match state.hint_levels.get(&uri) {
                                    Some((givens, last)) if *givens == hint.givens => last % 3 + 1,
                                    _ => 1,
                                },
                            };
                            state.hint_levels.insert(uri.clone(), (hint.givens, level));
                            level
                        };
                        let text = &hint.texts[usize::from(level) - 1];
                        let message = format!("Hint {level}/3: {text}");
                        inner.client.show_message(MessageType::INFO, message).await;
                        Ok(())
                    }
                    Some(Err(why)) => Err(why),
                    None => Err(gone(&uri)),
                }
            }
            commands::SOLVE => {
                let edit = inner
                    .query("solve command", &uri, move |view| {
                        Some(commands::solve(view, view.offset(position)))
                    })
                    .await;
                match edit {
                    Some(Ok(edit)) => inner.apply_edit(edit, "apply the solution").await,
                    Some(Err(why)) => Err(why),
                    None => Err(gone(&uri)),
                }
            }
            commands::NEW_PUZZLE => inner.new_puzzle(&args).await,
            other => return Err(Error::invalid_params(format!("unknown command {other}"))),
        };
        if let Err(why) = outcome {
            inner.client.show_message(MessageType::WARNING, why).await;
        }
        Ok(None)
    }
}

/// The diagnostics the settings add to a run's: the redundant givens of the puzzles rated so
/// far (unless turned off), and what the solution says of the solver's entries and marks (when
/// asked for).
fn extra_diagnostics(
    analyzed: &Analyzed,
    ratings: Option<&Ratings>,
    settings: Settings,
    uri: &Uri,
    encoding: super::encoding::Encoding,
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

/// The workspace folders the client named at `initialize` (or its root, from clients that
/// name no folders), as paths; those that are not files' folders are left out.
fn workspace_folders(params: &InitializeParams) -> Vec<PathBuf> {
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

fn folder_path(folder: &WorkspaceFolder) -> Option<PathBuf> {
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
fn too_large(snapshot: &Snapshot, settings: Settings) -> Option<String> {
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

/// LSP's `RequestFailed`: a request the server understood but could not carry out.
const REQUEST_FAILED: i64 = -32803;

/// Why a command found nothing to act on.
fn gone(uri: &Uri) -> String {
    format!(
        "{} is not open, or changed while the command ran",
        uri.as_str()
    )
}
