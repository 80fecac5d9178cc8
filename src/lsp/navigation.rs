//! Go to definition and references on a digit: a placed digit (given or entry), or one pencil
//! mark of an empty cell (the digit under the cursor in a group `237`, or a place of a line of
//! places). An empty cell without a mark under the cursor names no digit, so nothing is
//! answered there.
//!
//! - Definition: the peers holding the same digit. On a placed digit, the other side of a
//!   conflict; on a mark, the placed digit that rules it out. `LocationLink`s when the client
//!   takes them, so it can underline exactly the digit asked about.
//! - References: every cell of the cell's units (row, column, box, and both diagonals of a
//!   diagonal puzzle) that holds the digit or could (empty, no placed peer holding it, and
//!   among its marks when marks are written); the cell itself only with `includeDeclaration`.
//!
//! - Highlights: every cell of the puzzle holding the digit, and each pencil mark of it, as a
//!   solver's app lights up every 7 on choosing 7 (placed digits as writes, marks as text).
//!
//! The answers come from `analysis::holders`, `analysis::unit_places` and
//! `analysis::digit_cells`; this module finds
//! the digit under the cursor and places cells in the client's encoding.

use tower_lsp_server::lsp_types::{
    DocumentHighlight, DocumentHighlightKind, GotoDefinitionResponse, Location, LocationLink,
};

use super::view::View;
use crate::analysis::{self, Place};
use crate::finding::Span;
use crate::format::{Layout, Puzzle};
use crate::grid::char_digit;

/// The digit under the cursor and where it is: (puzzle index, cell, digit, its span).
fn digit_under(view: &View, offset: usize) -> Option<(&Puzzle, usize, u8, Span)> {
    let (_, puzzle) = view.puzzle_at(offset)?;
    let cell = puzzle
        .span
        .touches(offset)
        .then(|| puzzle.cell_at(offset))??;
    match puzzle.givens[cell] {
        0 => {
            let span = mark_span(view, puzzle, cell, offset)?;
            let digit = char_digit(text(view, span)?.chars().next()?)?;
            let marked = puzzle.marks.as_deref()?[cell] & 1 << (digit - 1) != 0;
            marked.then_some((puzzle, cell, digit, span))
        }
        digit => Some((puzzle, cell, digit, puzzle.cell_span(cell))),
    }
}

/// In a cell of pencil marks, the one mark (or place of a line of places) under the cursor,
/// or just before it at the cell's end. `None` in any other cell.
pub fn mark_span(view: &View, puzzle: &Puzzle, cell: usize, offset: usize) -> Option<Span> {
    if !matches!(puzzle.layout, Layout::Marks | Layout::MarksLine) || puzzle.givens[cell] != 0 {
        return None;
    }
    let span = puzzle.cell_span(cell);
    if span.len() < 2 || !span.touches(offset) {
        return None;
    }
    // Cells are ASCII, one byte a character.
    let at = offset.min(span.end - 1);
    let mark = Span::new(at, at + 1);
    let digit = text(view, mark)?.chars().next().and_then(char_digit);
    digit.map(|_| mark)
}

fn text(view: &View, span: Span) -> Option<String> {
    let slice = view.snapshot.rope.get_byte_slice(span.start..span.end)?;
    Some(slice.to_string())
}

/// The peers holding the digit under the cursor; `None` when there are none.
pub fn definition(view: &View, offset: usize) -> Option<GotoDefinitionResponse> {
    let (puzzle, cell, digit, origin) = digit_under(view, offset)?;
    let holders = analysis::holders(puzzle, cell, digit);
    if holders.is_empty() {
        return None;
    }
    let targets = holders.into_iter().map(|p| view.range(puzzle.cell_span(p)));
    Some(if view.config.navigation.definition_links {
        let origin = view.range(origin);
        let links = targets.map(|target| LocationLink {
            origin_selection_range: Some(origin),
            target_uri: view.uri.clone(),
            target_range: target,
            target_selection_range: target,
        });
        GotoDefinitionResponse::Link(links.collect())
    } else {
        let locations = targets.map(|range| Location::new(view.uri.clone(), range));
        GotoDefinitionResponse::Array(locations.collect())
    })
}

/// The cells of the units of the cell under the cursor that hold its digit or could, in
/// reading order (the cell itself with `include_declaration`).
pub fn references(view: &View, offset: usize, include_declaration: bool) -> Option<Vec<Location>> {
    let (puzzle, cell, digit, _) = digit_under(view, offset)?;
    let places = analysis::unit_places(puzzle, cell, digit);
    let locations: Vec<Location> = places
        .into_iter()
        .filter(|&(c, _)| include_declaration || c != cell)
        .map(|(c, place)| {
            let span = match place {
                // A mark of a cell of pencil marks is pointed at itself, not its whole group.
                Place::Could => digit_span(view, puzzle, c, digit),
                Place::Holds => puzzle.cell_span(c),
            };
            Location::new(view.uri.clone(), view.range(span))
        })
        .collect();
    (!locations.is_empty()).then_some(locations)
}

/// Every placed `digit` of the puzzle and each mark of it; `None` off a digit.
pub fn highlights(view: &View, offset: usize) -> Option<Vec<DocumentHighlight>> {
    let (puzzle, _, digit, _) = digit_under(view, offset)?;
    let cells = analysis::digit_cells(puzzle, digit);
    let highlights = cells.into_iter().map(|(cell, place)| {
        let (span, kind) = match place {
            Place::Holds => (puzzle.cell_span(cell), DocumentHighlightKind::WRITE),
            Place::Could => (
                digit_span(view, puzzle, cell, digit),
                DocumentHighlightKind::TEXT,
            ),
        };
        DocumentHighlight {
            range: view.range(span),
            kind: Some(kind),
        }
    });
    Some(highlights.collect())
}

/// Where `digit` is written in an empty cell: its mark in a group or its place in a line of
/// places; the whole cell where marks are not written.
fn digit_span(view: &View, puzzle: &Puzzle, cell: usize, digit: u8) -> Span {
    let span = puzzle.cell_span(cell);
    if !matches!(puzzle.layout, Layout::Marks | Layout::MarksLine) || span.len() < 2 {
        return span;
    }
    let found = text(view, span).and_then(|t| t.chars().position(|c| char_digit(c) == Some(digit)));
    match found {
        Some(at) => Span::new(span.start + at, span.start + at + 1),
        None => span,
    }
}
