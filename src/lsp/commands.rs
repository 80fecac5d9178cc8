//! The commands the server runs itself (`workspace/executeCommand`), so that every client runs
//! them without code of its own, and the code lenses above each puzzle that call them:
//! `SE 7.2 · Fiendish · unique · 24 givens` (the rating, shown in full when run), `Hint` and
//! `Solve`.
//!
//! A command names its puzzle by a position in it (the start of its anchor line) rather than
//! by its index, so that a lens a client kept from a slightly older text still finds its puzzle.

use std::time::Instant;

use serde::{Deserialize, Serialize};
use tower_lsp_server::lsp_types::{CodeLens, Command, Position, Uri, WorkspaceEdit};

use super::edits;
use super::view::View;
use crate::analysis::{parse_window, Request, Symmetry, Verdict};
use crate::convert::{fpuzzles, links};
use crate::engine::Budget;
use crate::format::Puzzle;
use crate::grid::{Size, Variant};
use crate::render;

/// Show the puzzle's rating in full.
pub const RATING: &str = "sudoku.rating";
/// Show the next step: at `level` 1 (where to look), 2 (which technique) or 3 (the whole
/// step); without a level, each use on the same grid goes one level further (1, 2, 3, 1…).
pub const HINT: &str = "sudoku.hint";
/// Write the solution into the puzzle's empty cells (a `workspace/applyEdit`).
pub const SOLVE: &str = "sudoku.solve";

/// Insert a new puzzle (from the generator) at the start of the position's line (a
/// `workspace/applyEdit`). Optional arguments, as `sudoku-lsp new` takes them: `size` (a side,
/// 9 by default), `variant` (`classic`, `diagonal`, `killer`, `kropki`, `xv`, `thermo`),
/// `symmetry`, `rating` (a window such as `"4.0..6.0"`), `seed`.
pub const NEW_PUZZLE: &str = "sudoku.newPuzzle";

/// The picture of the puzzle at the position: its SVG text is the command's result. Optional
/// arguments, as `sudoku-lsp render` takes them: `candidates`, `solution` (booleans).
pub const RENDER: &str = "sudoku.render";

/// Open the puzzle at the position in SudokuPad: the client is asked to open its link in the
/// browser (`window/showDocument`), or shown the link when it cannot be; the link is the
/// command's result.
pub const OPEN_IN_SUDOKUPAD: &str = "sudoku.openInSudokuPad";

/// The f-puzzles link of the puzzle at the position: the command's result, for an editor to
/// copy (VS Code's extension does), and shown in a message for the others.
pub const COPY_FPUZZLES_LINK: &str = "sudoku.copyFpuzzlesLink";

pub const ALL: [&str; 7] = [
    RATING,
    HINT,
    SOLVE,
    NEW_PUZZLE,
    RENDER,
    OPEN_IN_SUDOKUPAD,
    COPY_FPUZZLES_LINK,
];

/// The one argument of every command.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Args {
    pub uri: Uri,
    pub position: Position,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symmetry: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub candidates: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solution: Option<bool>,
}

/// The time the new-puzzle command gives the generator (a rating window may need it).
pub const NEW_PUZZLE_TIME: std::time::Duration = std::time::Duration::from_secs(20);

/// What the new-puzzle command's arguments ask the generator for.
pub fn new_puzzle_request(args: &Args) -> Result<Request, String> {
    let side = args.size.unwrap_or(9);
    let size = Size::from_side(side)
        .filter(|size| size.has_boxes())
        .ok_or_else(|| {
            format!(
                "no {side}×{side} puzzles: the sizes are {}",
                Size::boxed_sides()
            )
        })?;
    let (variant, genre) = match &args.variant {
        None => (Variant::Classic, None),
        Some(name) => crate::analysis::parse_variant(name, size)?,
    };
    let symmetry = match &args.symmetry {
        None => Symmetry::None,
        Some(name) => Symmetry::parse(name).ok_or_else(|| {
            format!("'{name}' is not a symmetry: none, rotational180, rotational90, horizontal, vertical, diagonal, anti-diagonal, orthogonal, bi-diagonal or full")
        })?,
    };
    let rating = args.rating.as_deref().map(parse_window).transpose()?;
    Ok(Request {
        size,
        variant,
        genre,
        symmetry,
        rating,
        minimal: false,
        rating_time: Request::default_rating_time(size),
    })
}

/// The edit that inserts `text` (a puzzle block ending in a blank line) at the start of the
/// line holding `position`, after a blank line unless the line above is blank already.
pub fn insert_puzzle(view: &View, position: Position, text: &str) -> WorkspaceEdit {
    let line = view.line_span(view.offset(position));
    let rope = &view.snapshot.rope;
    let line_index = rope.byte_to_line(line.start);
    let above_blank = line_index == 0 || rope.line(line_index - 1).to_string().trim().is_empty();
    let mut inserted = String::new();
    if !above_blank {
        inserted.push('\n');
    }
    inserted.push_str(text);
    let at = crate::finding::Span::new(line.start, line.start);
    edits::workspace_edit(
        view,
        &[crate::format::Edit {
            span: at,
            text: inserted,
        }],
    )
}

/// A command on a puzzle, which it names by the start of its anchor line.
pub fn command(
    view: &View,
    puzzle: &Puzzle,
    title: String,
    name: &str,
    level: Option<u8>,
) -> Command {
    let args = Args {
        uri: view.uri.clone(),
        position: view.range(puzzle.anchor()).start,
        level,
        size: None,
        variant: None,
        symmetry: None,
        rating: None,
        seed: None,
        candidates: None,
        solution: None,
    };
    Command {
        title,
        command: name.to_string(),
        arguments: Some(vec![serde_json::to_value(args).unwrap_or_default()]),
    }
}

/// Which link of a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkTo {
    Fpuzzles,
    SudokuPad,
}

/// The link of the puzzle at `offset` (its f-puzzles JSON, compressed as f-puzzles and
/// SudokuPad read it), or why there is none: no puzzle there, or a constraint f-puzzles cannot
/// hold (a link that dropped it would mislead whoever solves it).
pub fn link(view: &View, offset: usize, to: LinkTo) -> Result<String, String> {
    let (_, puzzle) = view.puzzle_at(offset).ok_or("no puzzle there")?;
    let text = view.snapshot.rope.to_string();
    let exported = fpuzzles::export(&text, view.document(), puzzle);
    if !exported.lost.is_empty() {
        return Err(format!(
            "f-puzzles cannot hold {}, so no link is made",
            exported.lost.join("; ")
        ));
    }
    Ok(match to {
        LinkTo::Fpuzzles => links::fpuzzles_link(&exported.json),
        LinkTo::SudokuPad => links::sudokupad_link(&exported.json),
    })
}

/// Whether the puzzle has one solution, per the finished (or an on-the-spot) analysis.
pub fn unique(view: &View, index: usize) -> bool {
    matches!(view.analysis(index).verdict, Verdict::Unique(_))
}

/// Lenses are given for this many puzzles at most, the first ones: the client asks for all of
/// a document's lenses at once, and each is a couple of hundred bytes to send and keep.
pub const MAX_LENS_PUZZLES: usize = 5_000;

/// The lenses of every puzzle (up to [`MAX_LENS_PUZZLES`]): answered at once with what is known
/// (never a search: a puzzle whose diagnostics run has not finished says `checking…`, one not
/// yet rated `rating…`). With the `redundantGivens` setting, `minimal` or how many givens are
/// not needed.
pub fn lenses(view: &View) -> Vec<CodeLens> {
    let document = view.document();
    let shown = document.puzzles.len().min(MAX_LENS_PUZZLES);
    let mut lenses = Vec::with_capacity(shown * 3);
    for (index, puzzle) in document.puzzles.iter().enumerate().take(shown) {
        let range = view.range(puzzle.anchor());
        let givens = puzzle.givens_count();
        let full = super::ratings::filled_in(puzzle);
        let (status, hint, solve) = match view.settled_analysis(index).map(|a| &a.verdict) {
            None => ("checking…".to_string(), false, false),
            Some(Verdict::Unique(_)) if full => ("solved".to_string(), false, false),
            Some(Verdict::Unique(_)) => match view.ratings.get(puzzle) {
                Some(rated) => (format!("{} · unique", rated.words()), true, true),
                None => ("rating… · unique".to_string(), true, true),
            },
            Some(Verdict::NoSolution | Verdict::Broken) => {
                ("no solution".to_string(), false, false)
            }
            Some(Verdict::Several { .. }) => ("2+ solutions".to_string(), false, true),
            Some(Verdict::Undecided { .. }) => ("uniqueness undecided".to_string(), false, false),
        };
        let mut title = format!("{status} · {}", crate::finding::plural(givens, "given"));
        // Minimality is for setters (the setting), and means nothing on a filled-in grid.
        let rated = matches!(
            view.settled_analysis(index).map(|a| &a.verdict),
            Some(Verdict::Unique(_))
        ) && view.settings.redundant_givens
            && !full;
        if let Some(minimality) = rated
            .then(|| view.ratings.get(puzzle))
            .flatten()
            .and_then(|r| r.minimality())
        {
            title = format!("{title} · {minimality}");
        }
        let mut add = |title: String, name: &str| {
            lenses.push(CodeLens {
                range,
                command: Some(command(view, puzzle, title, name, None)),
                data: None,
            })
        };
        add(title, RATING);
        if hint {
            add("Hint".to_string(), HINT);
        }
        if solve {
            add("Solve".to_string(), SOLVE);
        }
    }
    lenses
}

/// The lines saying a puzzle's rating (hover on its title, the rating command).
pub fn rating_lines(view: &View, index: usize, puzzle: &Puzzle) -> Vec<String> {
    if view.verdict_pending(index) {
        return vec!["Rating: pending (its solutions are still being counted)".to_string()];
    }
    match &view.analysis(index).verdict {
        Verdict::Unique(_) => match view.ratings.get(puzzle) {
            Some(rated) => rated.lines(&puzzle.geometry()),
            None => vec!["Rating: pending (puzzles are rated after the diagnostics)".to_string()],
        },
        Verdict::NoSolution | Verdict::Broken => vec!["Not rated: no solution".to_string()],
        Verdict::Several { .. } => vec!["Not rated: several solutions".to_string()],
        Verdict::Undecided { .. } => {
            vec!["Not rated: uniqueness undecided (the search ran out of budget)".to_string()]
        }
    }
}

/// The rating command's message.
pub fn rating_message(view: &View, offset: usize) -> Result<String, String> {
    let (index, puzzle) = view.puzzle_at(offset).ok_or("no puzzle there any more")?;
    let lines = rating_lines(view, index, puzzle);
    Ok(format!("Puzzle {}: {}", index + 1, lines.join("; ")))
}

/// The next step of the puzzle at an offset, said at the three hint levels, with the grid it
/// is for (so repeated hints on the same grid can go a level further).
pub struct HintTexts {
    pub givens: Vec<u8>,
    pub texts: [String; 3],
}

pub fn hint(view: &View, offset: usize) -> Result<HintTexts, String> {
    let (index, puzzle) = view.puzzle_at(offset).ok_or("no puzzle there any more")?;
    if !unique(view, index) {
        return Err("no hint: the puzzle does not have exactly one solution".into());
    }
    // As long as a rating may take: a grid with entries can need chains the rating never met.
    let time = super::ratings::per_puzzle();
    let budget = Budget {
        deadline: Some(Instant::now() + time),
        ..Budget::default()
    };
    let step = super::ratings::first_step(puzzle, &view.ratings, &budget).ok_or_else(|| {
        if puzzle.givens.iter().all(|&d| d != 0) {
            "no hint: the puzzle is solved".to_string()
        } else if budget.stop(0).is_some() {
            format!(
                "no hint: no step found within {} ms (the rating's time, SUDOKU_LSP_RATING_MS)",
                time.as_millis()
            )
        } else {
            "no hint: the next step needs a technique the solver does not know".to_string()
        }
    })?;
    let geo = &puzzle.geometry();
    Ok(HintTexts {
        givens: puzzle.givens.clone(),
        texts: [1, 2, 3].map(|level| step.hint(geo, level)),
    })
}

/// The solve command's edit: the solve code action's.
pub fn solve(view: &View, offset: usize) -> Result<WorkspaceEdit, String> {
    let (index, puzzle) = view.puzzle_at(offset).ok_or("no puzzle there any more")?;
    let action =
        edits::solve(view, index, puzzle).ok_or("cannot solve: no empty cell, or no solution")?;
    match (action.edit, action.disabled) {
        (Some(edit), None) => Ok(edit),
        (_, Some(disabled)) => Err(format!("cannot solve: {}", disabled.reason)),
        (None, None) => Err("cannot solve".into()),
    }
}

/// The SVG picture of the puzzle at an offset (the render command), drawn from its analysis.
pub fn render(view: &View, offset: usize, options: &render::Options) -> Result<String, String> {
    let (index, puzzle) = view.puzzle_at(offset).ok_or("no puzzle there")?;
    let analysis = view.analysis(index);
    Ok(render::svg(&render::draw(puzzle, &analysis, options)))
}
