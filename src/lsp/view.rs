//! What hover and code actions look at: one version of one document, parsed, with its analyses
//! taken from the finished diagnostics run when there is one for this very text, or computed on
//! the spot (one puzzle at a time, with a small budget) while that run is still going.

use std::borrow::Cow;
use std::sync::Arc;

use tower_lsp_server::lsp_types::{Position, Range, Uri};

use super::config::ClientConfig;
use super::documents::Snapshot;
use super::jobs::{self, Analyzed, Limits};
use super::ratings::Ratings;
use super::settings::Settings;
use crate::analysis::Analysis;
use crate::finding::Span;
use crate::format::{Document, Metadata, Puzzle};

/// What earlier work left for a document: the last finished diagnostics run and the last
/// document a query parsed, each usable only if it is for the very text being asked about.
#[derive(Clone, Default)]
pub struct Earlier {
    pub finished: Option<Arc<Analyzed>>,
    pub parsed: Option<(u64, Arc<Document>)>,
}

/// One version of a document, ready to be asked about positions.
#[derive(Clone)]
pub struct View {
    pub uri: Uri,
    pub snapshot: Snapshot,
    pub config: ClientConfig,
    /// The document's ratings so far (by grid, so they may be for any of its texts).
    pub ratings: Arc<Ratings>,
    /// The user's settings when the request came (the defaults unless the server sets them).
    pub settings: Settings,
    /// Where code actions are being offered without their edits, to a client that resolves the
    /// one chosen (see [`View::deferring_edits`]).
    pub offered_at: Option<Position>,
    parsed: Parsed,
    limits: Limits,
}

#[derive(Clone)]
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
            offered_at: None,
            parsed,
            limits: Limits::from_env(),
        }
    }

    /// This view for building the code actions offered at `position` without their edits, each
    /// saying where it was offered instead (a clone: shared text and analyses).
    pub fn deferring_edits(&self, position: Position) -> View {
        View {
            offered_at: Some(position),
            ..self.clone()
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

    /// The finished run's analysis of the puzzle at `index` when it says the verdict: not while
    /// a first look left that verdict to the whole run, still going.
    pub fn settled_analysis(&self, index: usize) -> Option<&Analysis> {
        let provisional = matches!(&self.parsed, Parsed::Analyzed(done) if done.provisional);
        self.finished_analysis(index)
            .filter(|analysis| !provisional || analysis.is_final())
    }

    /// Whether the puzzle at `index` waits for the whole run to say its verdict (see
    /// [`View::settled_analysis`]).
    pub fn verdict_pending(&self, index: usize) -> bool {
        self.finished_analysis(index).is_some() && self.settled_analysis(index).is_none()
    }

    /// Whether the diagnostics run of this very text has finished (its analyses are at hand).
    pub fn is_analyzed(&self) -> bool {
        matches!(self.parsed, Parsed::Analyzed(_))
    }

    /// The puzzle whose grid or own header lines contain (or end at) a byte offset.
    pub fn puzzle_at(&self, offset: usize) -> Option<(usize, &Puzzle)> {
        self.document().puzzle_at(offset)
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
