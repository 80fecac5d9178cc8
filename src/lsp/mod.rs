//! The language server: a thin face over `analysis`, speaking LSP on stdio. LSP types stay
//! inside this module.
//!
//! Its files stand in layers, each using only the layers under it (as ruff's server does: a
//! session that owns the documents, and one file per method or concern):
//!
//! 1. Leaves: `encoding` owns positions, `settings` the user's settings, `long` the threads of
//!    long work (the generator, ratings), `transport` guards the wire in (and reads what
//!    lsp-types misses of each session's `initialize`), `remembered` keeps per grid what every
//!    move of the cursor would redo (a variant grid's full propagation).
//! 2. One document and its analysis: `config` (what the client can do), `documents` (the
//!    text), `diagnostics` (findings as protocol diagnostics, with the per-file cap), `jobs`
//!    (the analysis off the message loop, budgets, caught panics, test hooks), `memory`
//!    (giving back what closed documents freed), `outgoing` (large arrays into their frame),
//!    `ratings` (puzzles graded by grid; a variant grid's next step worked out on a `long`
//!    thread), and `view`: one version of one document, parsed.
//! 3. Answers over a `view`, plain functions to protocol types: `edits`, `commands` (code
//!    lenses and what their commands answer), `actions`, `hover`, `completion`, `navigation`
//!    (definition, references, highlights), `outline` (symbols, folding and selection ranges),
//!    `inlay`, `formatting`, `tokens` (semantic tokens) and `token_sheet` (kept by line, for
//!    deltas); and `workspace`, the files of the workspace folders.
//! 4. The session and its rooms: `session` owns the state every handler shares (behind one
//!    lock, never held across an `.await`) and the client's capabilities; `query` answers a
//!    request over a view of the current text; `refresh` asks the client to ask again;
//!    `progress` reports `$/progress`; `publish` hands diagnostics to the client (pushed with
//!    their version, or kept for a pull); `rating_run` and `diagnostics_run` are the two runs
//!    each edit starts; `pull` answers pulled document and workspace diagnostics;
//!    `token_store` the semantic tokens requests over the kept tokens; `execute` runs the
//!    commands; `sync` takes the notifications (open, change, close, settings, folders);
//!    `capabilities` answers `initialize`.
//! 5. `server`: the `LanguageServer` methods, each handing its message to its room.
//!
//! Which file may use which (the rows run up the layers: a file uses only rows above its own;
//! `tests::files_use_only_the_layers_below_them` holds every file to its row):
//!
//! | file | may use |
//! | --- | --- |
//! | `encoding` | — |
//! | `settings` | — |
//! | `long` | — |
//! | `transport` | — |
//! | `remembered` | — |
//! | `config` | `encoding` |
//! | `documents` | `encoding` |
//! | `diagnostics` | `encoding` |
//! | `jobs` | `diagnostics`, `documents` |
//! | `memory` | `jobs` |
//! | `outgoing` | `jobs`, `transport` |
//! | `ratings` | `jobs`, `long` |
//! | `view` | `config`, `documents`, `jobs`, `ratings`, `settings` |
//! | `edits` | `view` |
//! | `commands` | `edits`, `ratings`, `view` |
//! | `actions` | `commands`, `edits`, `jobs`, `ratings`, `remembered`, `view` |
//! | `hover` | `commands`, `config`, `jobs`, `ratings`, `remembered`, `view` |
//! | `completion` | `view` |
//! | `navigation` | `view` |
//! | `outline` | `encoding`, `navigation`, `view` |
//! | `inlay` | `jobs`, `settings`, `view` |
//! | `formatting` | `view` |
//! | `tokens` | `encoding`, `view` |
//! | `token_sheet` | `documents`, `encoding`, `tokens`, `view` |
//! | `workspace` | `diagnostics`, `encoding`, `jobs`, `settings` |
//! | `session` | `config`, `diagnostics`, `documents`, `jobs`, `memory`, `outgoing`, `ratings`, `settings`, `token_sheet`, `transport`, `view` |
//! | `query` | `jobs`, `session`, `view` |
//! | `refresh` | `config`, `jobs`, `session` |
//! | `progress` | `session` |
//! | `publish` | `diagnostics`, `encoding`, `jobs`, `ratings`, `refresh`, `session`, `settings` |
//! | `rating_run` | `config`, `jobs`, `long`, `progress`, `publish`, `ratings`, `refresh`, `session` |
//! | `diagnostics_run` | `diagnostics`, `documents`, `encoding`, `jobs`, `long`, `memory`, `publish`, `rating_run`, `ratings`, `refresh`, `session`, `settings`, `view` |
//! | `pull` | `jobs`, `session`, `workspace` |
//! | `token_store` | `query`, `session`, `token_sheet`, `tokens`, `view` |
//! | `execute` | `commands`, `jobs`, `long`, `query`, `session`, `workspace` |
//! | `sync` | `diagnostics_run`, `publish`, `refresh`, `session` |
//! | `capabilities` | `commands`, `config`, `diagnostics`, `session`, `tokens` |
//! | `server` | `actions`, `capabilities`, `commands`, `completion`, `execute`, `formatting`, `hover`, `inlay`, `jobs`, `navigation`, `outgoing`, `outline`, `pull`, `query`, `session`, `sync`, `token_store`, `transport`, `view` |
//!
//! The session's rooms are plain functions over a `&Session`, not methods, so that each room's
//! `use` lines say which rooms it calls, and the table above can hold them.

mod actions;
mod capabilities;
mod commands;
mod completion;
mod config;
mod diagnostics;
mod diagnostics_run;
mod documents;
mod edits;
mod encoding;
mod execute;
mod formatting;
mod hover;
mod inlay;
mod jobs;
mod long;
mod memory;
mod navigation;
mod outgoing;
mod outline;
mod progress;
mod publish;
mod pull;
mod query;
mod rating_run;
mod ratings;
mod refresh;
mod remembered;
mod server;
mod session;
mod settings;
mod sync;
#[cfg(test)]
mod tests;
mod token_sheet;
mod token_store;
mod tokens;
mod transport;
mod view;
mod workspace;

pub use diagnostics::{MAX_DIAGNOSTICS, TOO_MANY};
pub use outline::MAX_SYMBOLS;

use std::sync::atomic::Ordering;

use tokio::io::{AsyncRead, AsyncWrite};
use tower_lsp_server::{LspService, Server};

use server::Backend;

/// How many messages tower-lsp-server handles at once (its default is 4). Every message, a
/// notification or `$/cancelRequest` too, waits for a place: four long commands once held all
/// four, and hover, edits and even the cancel waited 20 s. Long work is bounded on its own (see
/// `long`), so this only needs to be well above what waits at once.
const MESSAGES_AT_ONCE: usize = 64;

/// Serve LSP on stdin/stdout until the client says exit (or closes stdin); returns the process
/// exit code: 0 when `shutdown` came first, 1 otherwise, as the protocol asks.
pub fn run() -> i32 {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("sudoku-lsp: cannot start the async runtime: {e}");
            return 1;
        }
    };
    let clean = runtime.block_on(serve());
    // Analysis threads still spinning on a cancelled search must not hold up the exit.
    runtime.shutdown_background();
    if clean {
        0
    } else {
        1
    }
}

async fn serve() -> bool {
    serve_io(tokio::io::stdin(), tokio::io::stdout()).await
}

/// Serve LSP on any byte streams (the fuzz target drives it over in-memory pipes) until the
/// client says exit or closes `input`; true when `shutdown` came first. Must run inside a tokio
/// runtime with the blocking pool (any runtime `Builder` gives one).
pub async fn serve_io(
    input: impl AsyncRead + Unpin + Send + 'static,
    output: impl AsyncWrite + Unpin,
) -> bool {
    let (input, initialize) = transport::guard(input);
    let stash = outgoing::Stash::default();
    let output = outgoing::Outgoing::new(output, stash.clone());
    let (service, socket) =
        LspService::build(move |client| Backend::new(client, stash, initialize))
            .custom_method(transport::MALFORMED_METHOD, Backend::malformed)
            .custom_method(transport::DOCUMENT_TEXT_METHOD, Backend::document_text)
            .finish();
    let shut_down = service.inner().shut_down_flag();
    Server::new(input, output, socket)
        .concurrency_level(MESSAGES_AT_ONCE)
        .serve(service)
        .await;
    shut_down.load(Ordering::SeqCst)
}
