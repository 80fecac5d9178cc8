//! The language server: a thin face over `analysis`, speaking LSP on stdio.
//!
//! `transport` guards the wire in and `outgoing` lets large arrays out, `documents` owns the text, `encoding` owns positions, `jobs` runs
//! the analysis off the message loop, `long` the long commands (the generator) on threads of
//! their own, `server` holds the handlers, and `diagnostics`, `hover`,
//! `actions` turn findings and explanations into protocol answers over a `view` of one version;
//! `memory` gives back what closed documents freed; `ratings` grades puzzles after each
//! diagnostics run, and `commands` holds the code lenses and the commands they run;
//! `formatting` answers document and range formatting with `format`'s edits.
//! Navigation, over the same `view`: `outline` (document symbols, folding and selection
//! ranges), `completion` (the digits that fit an empty cell), `navigation` (go to definition,
//! references and highlights on a digit), `inlay` (candidates or row counts, as the settings ask)
//! and `tokens` (semantic tokens: givens, entries, marks, conflicts, borders, metadata, comments).
//! LSP types stay inside this module.

mod actions;
mod commands;
mod completion;
mod diagnostics;
mod documents;
mod encoding;
mod formatting;
mod hover;
mod inlay;
mod jobs;
mod long;
mod memory;
mod navigation;
mod outgoing;
mod outline;
mod ratings;
mod server;
mod settings;
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
    let input = transport::guard(input);
    let stash = outgoing::Stash::default();
    let output = outgoing::Outgoing::new(output, stash.clone());
    let (service, socket) = LspService::build(move |client| Backend::new(client, stash))
        .custom_method(transport::MALFORMED_METHOD, Backend::malformed)
        .custom_method(server::DOCUMENT_TEXT_METHOD, Backend::document_text)
        .finish();
    let shut_down = service.inner().shut_down_flag();
    Server::new(input, output, socket)
        .concurrency_level(MESSAGES_AT_ONCE)
        .serve(service)
        .await;
    shut_down.load(Ordering::SeqCst)
}
