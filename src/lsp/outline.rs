//! The outline of a document: its symbols (one a puzzle, with its rows for a grid block),
//! folding ranges (one a puzzle of several lines, one a run of comment lines outside puzzles)
//! and selection ranges (mark → cell → row → grid → puzzle with its title and metadata → the
//! whole document).
//!
//! A puzzle's status comes from the finished diagnostics run of this very text and never from
//! a search started here: on a 49,151-puzzle collection the outline must answer within 100 ms,
//! so a puzzle whose run has not finished says `not yet checked` instead of making the outline
//! wait. For the same reason one-line puzzles have no children, every position goes through
//! one `encoding::Cursor` walking down the text, and only the first 2,000 puzzles are listed
//! (the JSON, not the work, is what costs: see [`MAX_SYMBOLS`]).

use tower_lsp_server::lsp_types::{
    DocumentSymbol, DocumentSymbolResponse, FoldingRange, FoldingRangeKind, Location, Position,
    SelectionRange, SymbolInformation, SymbolKind,
};

use super::encoding::Cursor;
use super::view::View;
use crate::analysis;
use crate::finding::Span;
use crate::format::{Layout, Puzzle};
use crate::grid::row_letter;

/// At most this many puzzles get a symbol of their own; the rest share one. Listing all
/// 49,151 puzzles of `sudoku17.txt` took the server about 100 ms, and their JSON (about 240
/// bytes a symbol, 12 MB) close to a second more to build, send and read, each time (VS Code
/// asks again after edits, for its breadcrumbs and sticky scroll); 2,000 take a few tens of
/// milliseconds in all. The same bound as the diagnostics'.
pub const MAX_SYMBOLS: usize = 2_000;

/// The document's symbols: a tree when the client takes one, else a flat list of puzzles.
/// Past [`MAX_SYMBOLS`], one more symbol spans the puzzles not listed.
pub fn symbols(view: &View) -> DocumentSymbolResponse {
    let mut cursor = view.config.encoding.cursor(&view.snapshot.rope);
    let all = &view.document().puzzles;
    let listed = all.iter().enumerate().take(MAX_SYMBOLS);
    let rest = all.get(MAX_SYMBOLS..).filter(|rest| !rest.is_empty());
    if view.config.navigation.hierarchical_symbols {
        let mut tree: Vec<DocumentSymbol> = listed
            .map(|(index, puzzle)| symbol(view, &mut cursor, index, puzzle))
            .collect();
        tree.extend(rest.map(|rest| rest_symbol(&mut cursor, rest)));
        DocumentSymbolResponse::Nested(tree)
    } else {
        let mut flat: Vec<SymbolInformation> = listed
            .map(|(index, puzzle)| information(view, &mut cursor, index, puzzle))
            .collect();
        flat.extend(rest.map(|rest| {
            let symbol = rest_symbol(&mut cursor, rest);
            #[allow(deprecated)]
            SymbolInformation {
                name: format!("{} ({})", symbol.name, symbol.detail.unwrap_or_default()),
                kind: symbol.kind,
                tags: None,
                deprecated: None,
                location: Location::new(view.uri.clone(), symbol.range),
                container_name: None,
            }
        }));
        DocumentSymbolResponse::Flat(flat)
    }
}

/// "44151 more puzzles": the puzzles past [`MAX_SYMBOLS`], from the first one's header to the
/// end of the last, selected at the first one's title or first row.
fn rest_symbol(cursor: &mut Cursor, rest: &[Puzzle]) -> DocumentSymbol {
    let (first, last) = (&rest[0], &rest[rest.len() - 1]);
    let start = cursor.position(whole_span(first).start);
    let selection_range = cursor.range(first.anchor());
    let end = cursor.position(last.span.end);
    #[allow(deprecated)]
    DocumentSymbol {
        name: format!("{} more puzzles", rest.len()),
        detail: Some(format!(
            "puzzles {} to {}, not listed: the outline lists the first {MAX_SYMBOLS}",
            MAX_SYMBOLS + 1,
            MAX_SYMBOLS + rest.len()
        )),
        kind: SymbolKind::NAMESPACE,
        tags: None,
        deprecated: None,
        range: tower_lsp_server::lsp_types::Range::new(start, end),
        selection_range,
        children: None,
    }
}

/// One puzzle: named by its own title (or `Puzzle 17`, its number in the file), its size,
/// variant and status as detail; the range is the whole puzzle with its own header lines, the
/// selection range its title line (or first row), where its diagnostics and lens are too.
fn symbol(view: &View, cursor: &mut Cursor, index: usize, puzzle: &Puzzle) -> DocumentSymbol {
    let whole = whole_span(puzzle);
    let start = cursor.position(whole.start);
    let selection_range = cursor.range(puzzle.anchor());
    let mut children: Vec<DocumentSymbol> = own_constraint_lines(puzzle)
        .into_iter()
        .map(|(line, name, cells)| constraint_symbol(cursor, line, name, cells))
        .collect();
    if matches!(puzzle.layout, Layout::Block | Layout::Marks) {
        children.extend((0..puzzle.size.side()).filter_map(|row| row_symbol(cursor, puzzle, row)));
    }
    let children = (!children.is_empty()).then_some(children);
    let end = cursor.position(whole.end);
    #[allow(deprecated)] // `deprecated` is a required field of the struct, deprecated or not
    DocumentSymbol {
        name: name(index, puzzle),
        detail: Some(detail(view, index, puzzle)),
        kind: SymbolKind::OBJECT,
        tags: None,
        deprecated: None,
        range: tower_lsp_server::lsp_types::Range::new(start, end),
        selection_range,
        children,
    }
}

/// The puzzle's own constraint lines (those in its header), in order: each line's span, the
/// constraint's name ("cage 15", "regions") and its cells' names.
fn own_constraint_lines(puzzle: &Puzzle) -> Vec<(Span, String, String)> {
    let (Some(rules), Some(header)) = (puzzle.rules.as_deref(), puzzle.header) else {
        return Vec::new();
    };
    let geometry = puzzle.geometry();
    let mut lines: Vec<(Span, String, String)> = rules
        .constraints
        .iter()
        .filter(|c| header.covers(c.line))
        .map(|c| {
            let cells: Vec<String> = c
                .named_cells()
                .iter()
                .map(|&cell| geometry.cell_name(cell as usize))
                .collect();
            (c.line, c.name(), cells.join(" "))
        })
        .collect();
    if let Some(regions) = rules.regions.as_ref().filter(|r| header.covers(r.line)) {
        lines.push((regions.line, "regions".to_string(), String::new()));
    }
    lines.sort_by_key(|(line, _, _)| line.start);
    lines
}

/// A constraint line: named by the constraint ("cage 15"), its cells as detail.
fn constraint_symbol(
    cursor: &mut Cursor,
    line: Span,
    name: String,
    cells: String,
) -> DocumentSymbol {
    let range = cursor.range(line);
    #[allow(deprecated)]
    DocumentSymbol {
        name,
        detail: (!cells.is_empty()).then_some(cells),
        kind: SymbolKind::PROPERTY,
        tags: None,
        deprecated: None,
        range,
        selection_range: range,
        children: None,
    }
}

/// "row C" of a grid block: its cells, first to last.
fn row_symbol(cursor: &mut Cursor, puzzle: &Puzzle, row: usize) -> Option<DocumentSymbol> {
    let range = cursor.range(row_span(puzzle, row)?);
    #[allow(deprecated)]
    Some(DocumentSymbol {
        name: format!("row {}", row_letter(row)),
        detail: None,
        kind: SymbolKind::ARRAY,
        tags: None,
        deprecated: None,
        range,
        selection_range: range,
        children: None,
    })
}

fn information(
    view: &View,
    cursor: &mut Cursor,
    index: usize,
    puzzle: &Puzzle,
) -> SymbolInformation {
    #[allow(deprecated)]
    SymbolInformation {
        name: format!("{} ({})", name(index, puzzle), detail(view, index, puzzle)),
        kind: SymbolKind::OBJECT,
        tags: None,
        deprecated: None,
        location: Location::new(view.uri.clone(), cursor.range(whole_span(puzzle))),
        container_name: None,
    }
}

/// The puzzle's own title (not the file's, which every puzzle shares), else `Puzzle 17`.
/// Never empty: clients reject a symbol without a name.
fn name(index: usize, puzzle: &Puzzle) -> String {
    let own = puzzle
        .meta
        .title
        .as_ref()
        .filter(|title| puzzle.header.is_some_and(|h| h.covers(title.span)))
        .map(|title| title.value.trim())
        .filter(|title| !title.is_empty());
    match own {
        Some(title) => title.to_string(),
        None => format!("Puzzle {}", index + 1),
    }
}

/// "9×9 diagonal · unique", or "· not yet checked" while this text's run is going.
fn detail(view: &View, index: usize, puzzle: &Puzzle) -> String {
    let status = view
        .settled_analysis(index)
        .map_or("not yet checked", analysis::status_word);
    match puzzle.rules.as_deref().filter(|r| !r.is_empty()) {
        Some(_) => format!("{} · {status}", analysis::puzzle_kind(puzzle)),
        None => format!(
            "{} {} · {status}",
            puzzle.size.label(),
            puzzle.variant.name()
        ),
    }
}

/// The puzzle with its own comment and metadata lines above it.
fn whole_span(puzzle: &Puzzle) -> Span {
    let start = puzzle
        .header
        .map_or(puzzle.span.start, |h| h.start.min(puzzle.span.start));
    Span::new(start, puzzle.span.end.max(start))
}

/// From the first cell of `row` to the end of its last.
fn row_span(puzzle: &Puzzle, row: usize) -> Option<Span> {
    let side = puzzle.size.side();
    let first = puzzle.cell_spans.get(row * side)?;
    let last = puzzle.cell_spans.get(row * side + side - 1)?;
    Some(Span::new(first.start, last.end.max(first.start)))
}

/// A fold for each puzzle of several lines (a grid, or any puzzle with header lines above it),
/// and one for each run of two or more comment lines outside every puzzle (a file's notes).
/// The first line of each stays in view: the title, or the first row.
pub fn folding_ranges(view: &View) -> Vec<FoldingRange> {
    let rope = &view.snapshot.rope;
    let line_of = |byte: usize| rope.byte_to_line(byte.min(rope.len_bytes()));
    let puzzle_lines: Vec<(usize, usize)> = view
        .document()
        .puzzles
        .iter()
        .map(|puzzle| {
            let whole = whole_span(puzzle);
            (line_of(whole.start), line_of(whole.end))
        })
        .collect();
    let mut folds: Vec<(usize, usize, FoldingRangeKind)> = puzzle_lines
        .iter()
        .filter(|(first, last)| last > first)
        .map(|&(first, last)| (first, last, FoldingRangeKind::Region))
        .collect();
    // A puzzle's constraint lines, a run of two or more folding as one.
    for puzzle in &view.document().puzzles {
        let mut run: Option<(usize, usize)> = None;
        for (line, _, _) in own_constraint_lines(puzzle) {
            let (first, last) = (line_of(line.start), line_of(line.end));
            run = match run {
                Some((start, end)) if first <= end + 1 => Some((start, last.max(end))),
                Some((start, end)) => {
                    if end > start {
                        folds.push((start, end, FoldingRangeKind::Region));
                    }
                    Some((first, last))
                }
                None => Some((first, last)),
            };
        }
        if let Some((start, end)) = run.filter(|(start, end)| end > start) {
            folds.push((start, end, FoldingRangeKind::Region));
        }
    }
    for (first, last) in comment_runs(view) {
        // Puzzles are in source order: the last one starting at or before the run's end is the
        // only one that can overlap it.
        let before = puzzle_lines.partition_point(|&(start, _)| start <= last);
        let overlaps = before > 0 && puzzle_lines[before - 1].1 >= first;
        if !overlaps {
            folds.push((first, last, FoldingRangeKind::Comment));
        }
    }
    folds.sort_by_key(|&(first, last, _)| (first, last));
    let limit = view.config.navigation.folding_range_limit;
    folds.truncate(limit.map_or(usize::MAX, |l| l as usize));
    folds
        .into_iter()
        .map(|(first, last, kind)| fold(view, first, last, kind))
        .collect()
}

fn fold(view: &View, first: usize, last: usize, kind: FoldingRangeKind) -> FoldingRange {
    // Characters only for clients that fold inside lines: each end of its line's content.
    let end_of = |line: usize| {
        let rope = &view.snapshot.rope;
        let start = rope.line_to_byte(line);
        view.range(view.line_span(start)).end.character
    };
    let characters = !view.config.navigation.line_folding_only;
    FoldingRange {
        start_line: line_number(first),
        start_character: characters.then(|| end_of(first)),
        end_line: line_number(last),
        end_character: characters.then(|| end_of(last)),
        kind: Some(kind),
        collapsed_text: None,
    }
}

fn line_number(line: usize) -> u32 {
    u32::try_from(line).unwrap_or(u32::MAX)
}

/// Runs of two or more lines whose first non-blank character is `#`, as (first, last) lines.
fn comment_runs(view: &View) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut open: Option<usize> = None;
    for (index, line) in view.snapshot.rope.lines().enumerate() {
        let comment = line
            .chars()
            .find(|c| !c.is_whitespace())
            .is_some_and(|c| c == '#');
        match (comment, open) {
            (true, None) => open = Some(index),
            (false, Some(first)) => {
                if index - 1 > first {
                    runs.push((first, index - 1));
                }
                open = None;
            }
            _ => {}
        }
    }
    if let Some(first) = open {
        let last = view.snapshot.rope.len_lines().saturating_sub(1);
        if last > first {
            runs.push((first, last));
        }
    }
    runs
}

/// For each position, the ranges a "expand selection" walks through, innermost first: in a
/// grid the mark under the cursor (in a cell of pencil marks), its cell, its row (a row, not a
/// box: a box is no stretch of text), the grid, the puzzle with its header lines, the whole
/// document; elsewhere its line, then the document.
pub fn selection_ranges(view: &View, positions: &[Position]) -> Vec<SelectionRange> {
    positions
        .iter()
        .map(|&position| nest(view, chain(view, view.offset(position))))
        .collect()
}

fn chain(view: &View, offset: usize) -> Vec<Span> {
    let mut spans = Vec::new();
    match view.puzzle_at(offset) {
        Some((_, puzzle)) => {
            let cell = puzzle
                .span
                .touches(offset)
                .then(|| puzzle.cell_at(offset))
                .flatten();
            match cell {
                Some(cell) => {
                    let span = puzzle.cell_span(cell);
                    spans.extend(super::navigation::mark_span(view, puzzle, cell, offset));
                    spans.push(span);
                    spans.extend(row_span(puzzle, cell / puzzle.size.side()));
                }
                None => spans.push(view.line_span(offset)),
            }
            spans.push(puzzle.span);
            spans.push(whole_span(puzzle));
        }
        None => spans.push(view.line_span(offset)),
    }
    spans.push(Span::new(0, view.snapshot.rope.len_bytes()));
    // Each range must hold the one before: drop any that does not, and repeats.
    let mut nested: Vec<Span> = Vec::new();
    for span in spans {
        match nested.last() {
            Some(inner) if !span.covers(*inner) || span == *inner => {}
            _ if !span.touches(offset) => {}
            _ => nested.push(span),
        }
    }
    nested
}

/// The chain as the protocol nests it: the innermost range, its parent, and so on.
fn nest(view: &View, chain: Vec<Span>) -> SelectionRange {
    let mut cursor = view.config.encoding.cursor(&view.snapshot.rope);
    let ranges = chain
        .into_iter()
        .map(|s| cursor.range(s))
        .collect::<Vec<_>>();
    let parent = ranges.iter().skip(1).rev().fold(None, |parent, &range| {
        Some(Box::new(SelectionRange { range, parent }))
    });
    SelectionRange {
        // The chain ends with the whole document, which holds every offset: never empty.
        range: ranges.first().copied().unwrap_or_default(),
        parent,
    }
}
