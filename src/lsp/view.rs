//! What hover and code actions look at: one version of one document, parsed, with its analyses
//! taken from the finished diagnostics run when there is one for this very text, or computed on
//! the spot (one puzzle at a time, with a small budget) while that run is still going.
//! Also what the client told us it can do, which shapes every answer.

use std::borrow::Cow;
use std::sync::Arc;

use ropey::Rope;
use tower_lsp_server::lsp_types::{ClientCapabilities, MarkupKind, Position, Range, Uri};

use super::documents::Snapshot;
use super::encoding::Encoding;
use super::hover::Style;
use super::jobs::{self, Limits};
use super::ratings::Ratings;
use super::settings::Settings;
use crate::analysis::{Analysis, Checked};
use crate::finding::Span;
use crate::format::{Document, Metadata, Puzzle};

/// The client capabilities we act on, read once at `initialize`.
#[derive(Clone, Copy, Debug, Default)]
pub struct ClientConfig {
    pub encoding: Encoding,
    pub hover_style: Style,
    /// `workspace.workspaceEdit.documentChanges`: send versioned edits.
    pub document_changes: bool,
    /// `textDocument.codeAction.disabledSupport`: offer unusable actions with a reason.
    pub disabled_support: bool,
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
    pub fn new(capabilities: &ClientCapabilities) -> ClientConfig {
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
            work_done_progress: flag(capabilities.window.as_ref(), |w| w.work_done_progress),
            code_lens_refresh: flag(workspace, |w| w.code_lens.as_ref()?.refresh_support),
            // The refresh capability is read by the wire guard: lsp-types looks for it under
            // the wrong name.
            pull_diagnostics: text.is_some_and(|t| t.diagnostic.is_some())
                && super::transport::diagnostic_refresh_declared(),
            navigation: NavigationConfig::new(capabilities),
        }
    }
}

/// A finished diagnostics run: the text of one generation, parsed and analysed.
pub struct Analyzed {
    pub generation: u64,
    /// The text that was analysed (sharing its chunks with the document's later texts): the
    /// next run compares it with the new text to re-read only what changed.
    pub text: Rope,
    /// The parse and analyses; its `findings` are empty (the run hands them to the diagnostics
    /// and lets go of them).
    pub checked: Checked,
}

/// What earlier work left for a document: the last finished diagnostics run and the last
/// document a query parsed, each usable only if it is for the very text being asked about.
#[derive(Clone, Default)]
pub struct Earlier {
    pub finished: Option<Arc<Analyzed>>,
    pub parsed: Option<(u64, Arc<Document>)>,
}

/// One version of a document, ready to be asked about positions.
pub struct View {
    pub uri: Uri,
    pub snapshot: Snapshot,
    pub config: ClientConfig,
    /// The document's ratings so far (by grid, so they may be for any of its texts).
    pub ratings: Arc<Ratings>,
    /// The user's settings when the request came (the defaults unless the server sets them).
    pub settings: Settings,
    parsed: Parsed,
    limits: Limits,
}

enum Parsed {
    Analyzed(Arc<Analyzed>),
    Reused(Arc<Document>),
    Fresh(Arc<Document>),
}

impl View {
    /// Build the view from what `earlier` has for the snapshot's text, else by parsing it: so
    /// call it off the message loop (and inside `jobs::guarded`).
    pub fn new(
        uri: Uri,
        snapshot: Snapshot,
        earlier: Earlier,
        ratings: Arc<Ratings>,
        config: ClientConfig,
    ) -> View {
        jobs::query_hooks(&snapshot.rope);
        let generation = snapshot.generation;
        let parsed = match earlier {
            Earlier {
                finished: Some(done),
                ..
            } if done.generation == generation => Parsed::Analyzed(done),
            Earlier {
                parsed: Some((parsed_generation, document)),
                ..
            } if parsed_generation == generation => Parsed::Reused(document),
            _ => Parsed::Fresh(Arc::new(jobs::parse_keeping(&snapshot.text()))),
        };
        View {
            uri,
            snapshot,
            config,
            ratings,
            settings: Settings::default(),
            parsed,
            limits: Limits::from_env(),
        }
    }

    /// The document this view parsed itself, for the next query on the same text to reuse
    /// (a large collection takes a while to parse).
    pub fn fresh_document(&self) -> Option<(u64, Arc<Document>)> {
        match &self.parsed {
            Parsed::Fresh(document) => Some((self.snapshot.generation, document.clone())),
            _ => None,
        }
    }

    pub fn document(&self) -> &Document {
        match &self.parsed {
            Parsed::Analyzed(done) => &done.checked.document,
            Parsed::Reused(document) | Parsed::Fresh(document) => document,
        }
    }

    /// The analysis of the puzzle at `index`: the finished run's, or computed now.
    pub fn analysis(&self, index: usize) -> Cow<'_, Analysis> {
        if let Parsed::Analyzed(done) = &self.parsed {
            if let Some(analysis) = done.checked.analyses.get(index) {
                return Cow::Borrowed(analysis);
            }
        }
        Cow::Owned(jobs::analyze_puzzle(
            &self.document().puzzles[index],
            self.limits,
        ))
    }

    /// The finished run's analysis of the puzzle at `index`, if the run for this text finished.
    pub fn finished_analysis(&self, index: usize) -> Option<&Analysis> {
        match &self.parsed {
            Parsed::Analyzed(done) => done.checked.analyses.get(index).map(|a| &**a),
            _ => None,
        }
    }

    /// Whether the diagnostics run of this very text has finished (its analyses are at hand).
    pub fn is_analyzed(&self) -> bool {
        matches!(self.parsed, Parsed::Analyzed(_))
    }

    /// The puzzle whose grid or own header lines contain (or end at) a byte offset.
    pub fn puzzle_at(&self, offset: usize) -> Option<(usize, &Puzzle)> {
        let puzzles = &self.document().puzzles;
        // Puzzles are in source order, each one's header just above its grid: only the last
        // grids starting at or before the offset, or the next one by its header, can hold it
        // (a binary search, not a walk through a large collection).
        let next = puzzles.partition_point(|p| p.span.start <= offset);
        (next.saturating_sub(2)..(next + 1).min(puzzles.len()))
            .map(|i| (i, &puzzles[i]))
            .find(|(_, puzzle)| {
                puzzle.span.touches(offset) || puzzle.header.iter().any(|s| s.touches(offset))
            })
    }

    pub fn range(&self, span: Span) -> Range {
        self.config.encoding.range(&self.snapshot.rope, span)
    }

    /// The line holding a byte offset, without its line break.
    pub fn line_span(&self, offset: usize) -> Span {
        let rope = &self.snapshot.rope;
        let line = rope.byte_to_line(offset.min(rope.len_bytes()));
        let start = rope.line_to_byte(line);
        let text = rope.line(line).to_string();
        Span::new(start, start + text.trim_end_matches(['\r', '\n']).len())
    }

    pub fn offset(&self, position: Position) -> usize {
        self.config
            .encoding
            .byte_offset(&self.snapshot.rope, position)
            .index
    }
}

/// The spans of every metadata entry present.
pub fn metadata_spans(meta: &Metadata) -> Vec<Span> {
    meta.entries().map(|entry| entry.span).collect()
}
