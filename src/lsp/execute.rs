//! `workspace/executeCommand`: the commands of the code lenses and code actions (`commands`
//! makes their answers over a view) carried out: the rating and the hints shown as messages,
//! the solution and a new puzzle applied as edits the editor is asked to make, the picture
//! returned. A command that finds nothing to act on says why in a warning.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::lsp_types::{
    ExecuteCommandParams, LSPAny, MessageType, ShowDocumentParams, Uri, WorkspaceEdit,
};

use super::commands::{self, Args, HintTexts};
use super::query;
use super::session::Session;
use super::workspace::CancelOnDrop;
use super::{jobs, long};

type Outcome = std::result::Result<(), String>;

/// Carry out a command; its result (only the picture has one), or an error for arguments
/// that name no command or no place.
pub async fn command(session: &Session, params: ExecuteCommandParams) -> Result<Option<LSPAny>> {
    let args = params
        .arguments
        .first()
        .and_then(|a| serde_json::from_value::<Args>(a.clone()).ok())
        .ok_or_else(|| Error::invalid_params("expected one argument {uri, position, level?}"))?;
    let outcome = match params.command.as_str() {
        // The one command with a result: the picture, for the client to show or save.
        commands::RENDER => return render(session, &args).await.map(Some),
        commands::OPEN_IN_SUDOKUPAD => return open_in_sudokupad(session, &args).await.map(Some),
        commands::COPY_FPUZZLES_LINK => return copy_link(session, &args).await.map(Some),
        commands::RATING => rating(session, &args).await,
        commands::HINT => hint(session, &args).await,
        commands::SOLVE => solve(session, &args).await,
        commands::NEW_PUZZLE => new_puzzle(session, &args).await,
        other => return Err(Error::invalid_params(format!("unknown command {other}"))),
    };
    if let Err(why) = outcome {
        session.client.show_message(MessageType::WARNING, why).await;
    }
    Ok(None)
}

async fn render(session: &Session, args: &Args) -> Result<LSPAny> {
    let options = crate::render::Options {
        candidates: args.candidates.unwrap_or(false),
        solution: args.solution.unwrap_or(false),
    };
    let position = args.position;
    let svg = query::run(session, "render command", &args.uri, move |view| {
        Some(commands::render(view, view.offset(position), &options))
    })
    .await;
    match svg {
        Some(Ok(svg)) => Ok(LSPAny::String(svg)),
        Some(Err(why)) => Err(Error::invalid_params(why)),
        None => Err(Error::invalid_params(gone(&args.uri))),
    }
}

/// The puzzle's link, or the error that says why there is none (also shown to the user: an
/// action's command has no other way to tell).
async fn puzzle_link(session: &Session, args: &Args, to: commands::LinkTo) -> Result<String> {
    let position = args.position;
    let link = query::run(session, "link command", &args.uri, move |view| {
        Some(commands::link(view, view.offset(position), to))
    })
    .await
    .unwrap_or_else(|| Err(gone(&args.uri)));
    match link {
        Ok(link) => Ok(link),
        Err(why) => {
            session
                .client
                .show_message(MessageType::WARNING, why.clone())
                .await;
            Err(Error::invalid_params(why))
        }
    }
}

async fn open_in_sudokupad(session: &Session, args: &Args) -> Result<LSPAny> {
    let link = puzzle_link(session, args, commands::LinkTo::SudokuPad).await?;
    let opened = match (session.config().show_document, link.parse::<Uri>()) {
        (true, Ok(uri)) => {
            let params = ShowDocumentParams {
                uri,
                external: Some(true),
                take_focus: Some(true),
                selection: None,
            };
            session.client.show_document(params).await.unwrap_or(false)
        }
        _ => false,
    };
    if !opened {
        let message = format!("Open this link in a browser: {link}");
        session
            .client
            .show_message(MessageType::INFO, message)
            .await;
    }
    Ok(LSPAny::String(link))
}

async fn copy_link(session: &Session, args: &Args) -> Result<LSPAny> {
    let link = puzzle_link(session, args, commands::LinkTo::Fpuzzles).await?;
    if !session.settings().copies_links {
        let message = format!("f-puzzles link: {link}");
        session
            .client
            .show_message(MessageType::INFO, message)
            .await;
    }
    Ok(LSPAny::String(link))
}

async fn rating(session: &Session, args: &Args) -> Outcome {
    let position = args.position;
    let message = query::run(session, "rating command", &args.uri, move |view| {
        Some(commands::rating_message(view, view.offset(position)))
    })
    .await
    .ok_or_else(|| gone(&args.uri))??;
    session
        .client
        .show_message(MessageType::INFO, message)
        .await;
    Ok(())
}

async fn hint(session: &Session, args: &Args) -> Outcome {
    let position = args.position;
    let hint = query::run(session, "hint command", &args.uri, move |view| {
        Some(commands::hint(view, view.offset(position)))
    })
    .await
    .ok_or_else(|| gone(&args.uri))??;
    let level = hint_level(session, &args.uri, args.level, &hint);
    let text = &hint.texts[usize::from(level) - 1];
    let message = format!("Hint {level}/3: {text}");
    session
        .client
        .show_message(MessageType::INFO, message)
        .await;
    Ok(())
}

/// The level of a hint: the one asked for, else one more than the last hint's on the same
/// grid (1 after 3, or on another grid). Chosen under the lock, before any await: two
/// quick uses go 1 then 2.
fn hint_level(session: &Session, uri: &Uri, asked: Option<u8>, hint: &HintTexts) -> u8 {
    let mut state = session.state();
    let level = match asked {
        Some(level) => level.clamp(1, 3),
        None => match state.hint_levels.get(uri) {
            Some((givens, last)) if *givens == hint.givens => last % 3 + 1,
            _ => 1,
        },
    };
    state
        .hint_levels
        .insert(uri.clone(), (hint.givens.clone(), level));
    level
}

async fn solve(session: &Session, args: &Args) -> Outcome {
    let position = args.position;
    let edit = query::run(session, "solve command", &args.uri, move |view| {
        Some(commands::solve(view, view.offset(position)))
    })
    .await
    .ok_or_else(|| gone(&args.uri))??;
    apply_edit(session, edit, "apply the solution").await
}

/// The new-puzzle command: the generator runs as long work (`long`: never in the way of
/// requests, stopped when the request is cancelled), then the puzzle goes in at the start of
/// the line the command names, in the text as it is by then.
async fn new_puzzle(session: &Session, args: &Args) -> Outcome {
    let request = commands::new_puzzle_request(args)?;
    let seed = args.seed.unwrap_or_else(crate::analysis::clock_seed);
    let made = generate(request.clone(), seed).await?;
    let source = request.command_line(seed, 1);
    let text =
        crate::analysis::block_text(&made, request.size, request.variant, "New puzzle", &source);
    let position = args.position;
    let edit = query::run(session, "new puzzle command", &args.uri, move |view| {
        Some(commands::insert_puzzle(view, position, &text))
    })
    .await
    .ok_or_else(|| gone(&args.uri))?;
    apply_edit(session, edit, "insert the puzzle").await
}

/// Ask the editor to apply `edit` (`workspace/applyEdit`). The commands that edit share it,
/// so a refusal or a failed request reads alike: "the editor did not {what}", and why.
async fn apply_edit(session: &Session, edit: WorkspaceEdit, what: &str) -> Outcome {
    match session.client.apply_edit(edit).await {
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

/// Make a new puzzle for `request` as long work, stopped when this future is dropped
/// (`$/cancelRequest` drops it); the grid, or why there is none.
async fn generate(
    request: crate::analysis::Request,
    seed: u64,
) -> std::result::Result<crate::analysis::Generated, String> {
    // Raised when this future is dropped.
    let cancel = CancelOnDrop(Arc::new(AtomicBool::new(false)));
    let job = long::start(cancel.0.clone(), move |cancel| {
        jobs::guarded(|| {
            // Puzzle 1 of `sudoku-lsp new --seed`'s run: its source line makes it again.
            let mut rng = crate::analysis::puzzle_rng(seed, 1);
            let deadline = Instant::now() + commands::NEW_PUZZLE_TIME;
            crate::analysis::generate_cancellable(&request, &mut rng, deadline, Some(cancel))
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
    Ok(made)
}

/// Why a command found nothing to act on.
fn gone(uri: &Uri) -> String {
    format!(
        "{} is not open, or changed while the command ran",
        uri.as_str()
    )
}
