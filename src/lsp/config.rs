//! What the client told us it can do, read once per session at `initialize`: it shapes every
//! answer (positions, hover markup, edits, code actions) and what the server asks of the client
//! (progress, refreshes, pulled or pushed diagnostics).

use tower_lsp_server::lsp_types::{ClientCapabilities, MarkupKind};

use super::encoding::Encoding;

/// Markdown or plain text, chosen from the client's `hover.contentFormat`.
pub use crate::analysis::prose::Style;

/// The client capabilities we act on, read once at `initialize`.
#[derive(Clone, Copy, Debug, Default)]
pub struct ClientConfig {
    pub encoding: Encoding,
    pub hover_style: Style,
    /// `workspace.workspaceEdit.documentChanges`: send versioned edits.
    pub document_changes: bool,
    /// `textDocument.codeAction.disabledSupport`: offer unusable actions with a reason.
    pub disabled_support: bool,
    /// `textDocument.codeAction.resolveSupport` names `edit`: actions are offered without
    /// their edits, which `codeAction/resolve` adds to the one chosen.
    pub resolve_edits: bool,
    /// `window.workDoneProgress`: report long rating runs with `$/progress`.
    pub work_done_progress: bool,
    /// `workspace.codeLens.refreshSupport`: ask for code lenses again when ratings arrive.
    pub code_lens_refresh: bool,
    /// The client pulls diagnostics (`textDocument.diagnostic`) and can be asked to pull again
    /// (`workspace.diagnostics.refreshSupport`): the server offers pull, document and
    /// workspace, and publishes none. Diagnostics also change with no edit (new settings,
    /// redundant givens found by the ratings): a client that pulls but cannot be asked again
    /// would not see those, so it gets them pushed, as every other client.
    pub pull_diagnostics: bool,
    /// What the navigation answers take into account (`outline`, `navigation`, `inlay`).
    pub navigation: NavigationConfig,
    /// `window.showDocument.support`: the client opens a link in the browser when asked
    /// (*Open in SudokuPad*); others are shown the link.
    pub show_document: bool,
}

/// The client capabilities the outline, go to definition and inlay hints act on.
#[derive(Clone, Copy, Debug, Default)]
pub struct NavigationConfig {
    /// `textDocument.documentSymbol.hierarchicalDocumentSymbolSupport`: a tree of
    /// `DocumentSymbol`s, else a flat list of `SymbolInformation`.
    pub hierarchical_symbols: bool,
    /// `textDocument.foldingRange.lineFoldingOnly`: whole lines only, no characters.
    pub line_folding_only: bool,
    /// `textDocument.foldingRange.rangeLimit`: at most this many folding ranges.
    pub folding_range_limit: Option<u32>,
    /// `textDocument.definition.linkSupport`: `LocationLink`s, with the cell it was asked on.
    pub definition_links: bool,
    /// `workspace.inlayHint.refreshSupport`: ask for inlay hints again when the setting changes.
    pub inlay_hint_refresh: bool,
    /// `workspace.semanticTokens.refreshSupport`: ask for semantic tokens again when a run
    /// finds conflicts.
    pub semantic_tokens_refresh: bool,
}

/// A flag of the client's capabilities: `read` finds it (`?` where a level is missing), and a
/// missing one is `false`, as the protocol says.
fn flag<'a, T: 'a>(part: Option<&'a T>, read: impl FnOnce(&'a T) -> Option<bool>) -> bool {
    part.and_then(read).unwrap_or(false)
}

impl NavigationConfig {
    fn new(capabilities: &ClientCapabilities) -> NavigationConfig {
        let text = capabilities.text_document.as_ref();
        let workspace = capabilities.workspace.as_ref();
        let folding = text.and_then(|t| t.folding_range.as_ref());
        NavigationConfig {
            hierarchical_symbols: flag(text, |t| {
                t.document_symbol
                    .as_ref()?
                    .hierarchical_document_symbol_support
            }),
            line_folding_only: flag(folding, |f| f.line_folding_only),
            folding_range_limit: folding.and_then(|f| f.range_limit),
            definition_links: flag(text, |t| t.definition.as_ref()?.link_support),
            inlay_hint_refresh: flag(workspace, |w| w.inlay_hint.as_ref()?.refresh_support),
            semantic_tokens_refresh: flag(workspace, |w| {
                w.semantic_tokens.as_ref()?.refresh_support
            }),
        }
    }
}

impl ClientConfig {
    /// `diagnostic_refresh`: whether the client declared `workspace.diagnostics.refreshSupport`,
    /// which the wire guard reads from the raw `initialize` (lsp-types looks for it under the
    /// wrong name: see `transport::Initialize`).
    pub fn new(capabilities: &ClientCapabilities, diagnostic_refresh: bool) -> ClientConfig {
        let text = capabilities.text_document.as_ref();
        let workspace = capabilities.workspace.as_ref();
        let markdown = text
            .and_then(|t| t.hover.as_ref()?.content_format.as_ref())
            .is_some_and(|formats| formats.contains(&MarkupKind::Markdown));
        ClientConfig {
            encoding: Encoding::negotiate(capabilities),
            hover_style: if markdown {
                Style::Markdown
            } else {
                Style::Plain
            },
            document_changes: flag(workspace, |w| w.workspace_edit.as_ref()?.document_changes),
            disabled_support: flag(text, |t| t.code_action.as_ref()?.disabled_support),
            resolve_edits: text
                .and_then(|t| t.code_action.as_ref()?.resolve_support.as_ref())
                .is_some_and(|r| r.properties.iter().any(|p| p == "edit")),
            work_done_progress: flag(capabilities.window.as_ref(), |w| w.work_done_progress),
            code_lens_refresh: flag(workspace, |w| w.code_lens.as_ref()?.refresh_support),
            pull_diagnostics: text.is_some_and(|t| t.diagnostic.is_some()) && diagnostic_refresh,
            navigation: NavigationConfig::new(capabilities),
            show_document: flag(capabilities.window.as_ref(), |w| {
                Some(w.show_document.as_ref()?.support)
            }),
        }
    }
}
