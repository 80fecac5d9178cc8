//! Edits in the client's form, shared by the code actions and the commands: a workspace edit
//! (versioned when the client takes `documentChanges`, so that an edit computed for an older
//! text is refused instead of misapplied), a titled code action around one, and the solve
//! action, which the solve command applies too.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use tower_lsp_server::lsp_types::{
    CodeAction, CodeActionDisabled, CodeActionKind, DocumentChanges, OneOf,
    OptionalVersionedTextDocumentIdentifier, Position, TextDocumentEdit, TextEdit, Uri,
    WorkspaceEdit,
};

use super::view::View;
use crate::analysis::Verdict;
use crate::engine::Stop;
use crate::finding::Span;
use crate::format::{self, Edit, Puzzle};

/// "Solve puzzle": every empty cell, from the analysis' verdict.
pub fn solve(view: &View, index: usize, puzzle: &Puzzle) -> Option<CodeAction> {
    let analysis = view.analysis(index);
    let (title, solution) = match &analysis.verdict {
        Verdict::Unique(solution) => ("Solve puzzle", solution),
        Verdict::Several { first, .. } => ("Solve puzzle (one of several solutions)", first),
        Verdict::Undecided {
            found: Some(solution),
            ..
        } => (
            "Solve puzzle (a solution; uniqueness not decided)",
            solution,
        ),
        Verdict::Undecided { found: None, stop } => {
            // A first look's deadline (the whole run may still find it), or the node budget.
            let reason = match stop {
                Stop::Deadline => "no solution found yet: the search ran out of time",
                _ => "the search ran out of budget before finding a solution",
            };
            return unusable(view, reason);
        }
        Verdict::NoSolution | Verdict::Broken => {
            return unusable(view, "the puzzle has no solution");
        }
    };
    let edits = format::fill_edits(puzzle, solution);
    if edits.is_empty() {
        return None; // already solved
    }
    Some(action(
        view,
        title.to_string(),
        CodeActionKind::REFACTOR_REWRITE,
        edits,
    ))
}

/// "Solve puzzle", disabled with a reason when the client can show one, else not offered.
fn unusable(view: &View, reason: &str) -> Option<CodeAction> {
    view.config.disabled_support.then(|| CodeAction {
        title: "Solve puzzle".into(),
        kind: Some(CodeActionKind::REFACTOR_REWRITE),
        disabled: Some(CodeActionDisabled {
            reason: reason.into(),
        }),
        ..CodeAction::default()
    })
}

/// A titled action around `edits`; on a view [deferring edits](View::deferring_edits), without
/// them, its `data` saying where it was [offered](Offered).
pub fn action(view: &View, title: String, kind: CodeActionKind, edits: Vec<Edit>) -> CodeAction {
    let (edit, data) = match view.offered_at {
        Some(position) => (None, serde_json::to_value(Offered::at(view, position)).ok()),
        None => (Some(workspace_edit(view, &edits)), None),
    };
    CodeAction {
        title,
        kind: Some(kind),
        edit,
        data,
        ..CodeAction::default()
    }
}

/// Where an action offered without its edit was offered, kept in its `data`: resolving it
/// works out the actions there again, on the same text, and takes the edit of the one with
/// its title. A solution's edit is a text edit per empty cell, and the list at a cell carries
/// several (solve, fill all forced cells, the next step), kilobytes an editor would read at
/// every move of the cursor and apply at most one of.
#[derive(Serialize, Deserialize)]
pub struct Offered {
    uri: Uri,
    pub version: i32,
    pub position: Position,
}

impl Offered {
    fn at(view: &View, position: Position) -> Offered {
        Offered {
            uri: view.uri.clone(),
            version: view.snapshot.version,
            position,
        }
    }

    /// What `action` carries, if it was offered without its edit.
    pub fn of(action: &CodeAction) -> Option<Offered> {
        serde_json::from_value(action.data.clone()?).ok()
    }

    pub fn uri(&self) -> &Uri {
        &self.uri
    }
}

/// Versioned `documentChanges` when the client takes them, plain `changes` otherwise.
pub fn workspace_edit(view: &View, edits: &[Edit]) -> WorkspaceEdit {
    // One walk down the text for every edit (a solution's are 81, in text order).
    let spans: Vec<Span> = edits.iter().map(|edit| edit.span).collect();
    let ranges = view.config.encoding.ranges(&view.snapshot.rope, &spans);
    let text_edits: Vec<TextEdit> = ranges
        .into_iter()
        .zip(edits)
        .map(|(range, edit)| TextEdit::new(range, edit.text.clone()))
        .collect();
    if view.config.document_changes {
        let edit = TextDocumentEdit {
            text_document: OptionalVersionedTextDocumentIdentifier {
                uri: view.uri.clone(),
                version: Some(view.snapshot.version),
            },
            edits: text_edits.into_iter().map(OneOf::Left).collect(),
        };
        WorkspaceEdit {
            document_changes: Some(DocumentChanges::Edits(vec![edit])),
            ..WorkspaceEdit::default()
        }
    } else {
        WorkspaceEdit {
            changes: Some(HashMap::from([(view.uri.clone(), text_edits)])),
            ..WorkspaceEdit::default()
        }
    }
}
