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
//! On a variant puzzle, constraint lines and cells point at each other: definition from a cell
//! named in a constraint line goes to the grid cell, and from a grid cell with no digit asked
//! about to the constraint lines naming it; references list, for a cell, every constraint line
//! naming it, and for a constraint line, its cells in the grid.
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
use crate::format::{constraint_line_parts, Layout, Puzzle};
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

/// Go to definition: from a cell named in a constraint line, the cell in the grid; from a
/// placed digit or a mark, the peers holding it; from a cell of the grid with none, the
/// constraint lines that name it. `None` when there is nothing to go to.
pub fn definition(view: &View, offset: usize) -> Option<GotoDefinitionResponse> {
    if let Some((puzzle, cell, origin)) = mention_under(view, offset) {
        return Some(respond(view, origin, vec![puzzle.cell_span(cell)]));
    }
    if let Some((puzzle, cell, digit, origin)) = digit_under(view, offset) {
        let holders = analysis::holders(puzzle, cell, digit);
        if !holders.is_empty() {
            let targets = holders.into_iter().map(|p| puzzle.cell_span(p)).collect();
            return Some(respond(view, origin, targets));
        }
    }
    let (puzzle, cell) = grid_cell_under(view, offset)?;
    let named: Vec<Span> = mentions(view, puzzle)
        .into_iter()
        .filter(|&(_, c)| c == cell)
        .map(|(span, _)| span)
        .collect();
    (!named.is_empty()).then(|| respond(view, puzzle.cell_span(cell), named))
}

/// Locations, or links from `origin` when the client takes them (so it can underline exactly
/// what was asked about).
fn respond(view: &View, origin: Span, targets: Vec<Span>) -> GotoDefinitionResponse {
    let targets = targets.into_iter().map(|span| view.range(span));
    if view.config.navigation.definition_links {
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
    }
}

/// References: on a cell named in a constraint line (or a grid cell with no digit to ask
/// about), every constraint line naming that cell (and the grid cell with
/// `include_declaration`); elsewhere on a constraint line, its cells in the grid; on a digit,
/// the cells of its units that hold it or could, in reading order (the cell itself with
/// `include_declaration`).
pub fn references(view: &View, offset: usize, include_declaration: bool) -> Option<Vec<Location>> {
    let at = |span: Span| Location::new(view.uri.clone(), view.range(span));
    let named_cell = mention_under(view, offset)
        .map(|(puzzle, cell, _)| (puzzle, cell))
        .or_else(|| {
            let (puzzle, cell) = grid_cell_under(view, offset)?;
            digit_under(view, offset)
                .is_none()
                .then_some((puzzle, cell))
        });
    if let Some((puzzle, cell)) = named_cell {
        let mut spans: Vec<Span> = Vec::new();
        if include_declaration {
            spans.push(puzzle.cell_span(cell));
        }
        let named: Vec<Span> = mentions(view, puzzle)
            .into_iter()
            .filter(|&(_, c)| c == cell)
            .map(|(span, _)| span)
            .collect();
        // A cell no constraint names has no references of its own (nor a digit to ask about).
        if named.is_empty() {
            return None;
        }
        spans.extend(named);
        return Some(spans.into_iter().map(at).collect());
    }
    if let Some((puzzle, index)) = constraint_line_under(view, offset) {
        let rules = puzzle.rules.as_deref()?;
        let cells = rules.constraints[index].named_cells();
        let locations: Vec<Location> = cells
            .iter()
            .map(|&c| at(puzzle.cell_span(c as usize)))
            .collect();
        return (!locations.is_empty()).then_some(locations);
    }
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
            at(span)
        })
        .collect();
    (!locations.is_empty()).then_some(locations)
}

/// The grid cell under the cursor (not in the puzzle's header lines).
fn grid_cell_under(view: &View, offset: usize) -> Option<(&Puzzle, usize)> {
    let (_, puzzle) = view.puzzle_at(offset)?;
    let cell = puzzle
        .span
        .touches(offset)
        .then(|| puzzle.cell_at(offset))??;
    Some((puzzle, cell))
}

/// The puzzle's own constraint line under the cursor: the puzzle and the constraint's index.
fn constraint_line_under(view: &View, offset: usize) -> Option<(&Puzzle, usize)> {
    let (_, puzzle) = view.puzzle_at(offset)?;
    let header = puzzle.header?;
    let rules = puzzle.rules.as_deref()?;
    let index = rules
        .constraints
        .iter()
        .position(|c| header.covers(c.line) && c.line.touches(offset))?;
    Some((puzzle, index))
}

/// The cell named in a constraint line under the cursor: the puzzle, the cell, the name's span.
fn mention_under(view: &View, offset: usize) -> Option<(&Puzzle, usize, Span)> {
    let (puzzle, _) = constraint_line_under(view, offset)?;
    mentions(view, puzzle)
        .into_iter()
        .find(|(span, _)| span.touches(offset))
        .map(|(span, cell)| (puzzle, cell, span))
}

/// Every cell named in the puzzle's own constraint lines: where its name is, and the cell.
fn mentions(view: &View, puzzle: &Puzzle) -> Vec<(Span, usize)> {
    let (Some(rules), Some(header)) = (puzzle.rules.as_deref(), puzzle.header) else {
        return Vec::new();
    };
    let side = puzzle.size.side();
    let mut found = Vec::new();
    for constraint in rules.constraints.iter().filter(|c| header.covers(c.line)) {
        let Some(line) = text(view, constraint.line) else {
            continue;
        };
        let Some(parts) = constraint_line_parts(&line, constraint.line.start) else {
            continue;
        };
        for (span, row, col) in parts.cells {
            let (row, col) = (row as usize, col as usize);
            if row < side && col < side {
                found.push((span, row * side + col));
            }
        }
    }
    found
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
