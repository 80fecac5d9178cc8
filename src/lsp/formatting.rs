//! Document and range formatting: `format::style`'s edits as LSP `TextEdit`s over one `view`.
//!
//! The edits replace only the lines that change (the cursor and the undo history stay where
//! they are, and a collection costs only its changed lines), placed in the client's position
//! encoding by `encoding`. The style comes from the `formatStyle` setting; the request's
//! `FormattingOptions` add what they say about whitespace (tab size and spaces mean nothing in a
//! format whose columns are cells).
//!
//! The formatter holds a table of every line it formats (about 150 bytes a line, and its read
//! back of the result): a large document is formatted a piece at a time, cut where the parser
//! starts afresh (`format::Pieces`, as `sudoku-lsp fmt` reads long files), so what it holds is
//! a piece's, not the document's. A piece that finds no place to end within [`MAX_PIECE_LINES`]
//! (millions of broken lines) is not formatted, and the answer says why.

use tower_lsp_server::lsp_types::{FormattingOptions, Range, TextEdit};

use super::view::View;
use crate::finding::Span;
use crate::format::{self, Edit, Options, Pieces, Style};

/// Documents up to this size are formatted whole, from the diagnostics run's parse; larger
/// ones a piece at a time, each piece ending at the first place it can past this size (or
/// [`PIECE_TARGET_LINES`] lines).
const PIECE_TARGET: usize = 1 << 20;
const PIECE_TARGET_LINES: usize = 100_000;

/// The most lines formatted at once: a piece of a large document that finds no place to end
/// within them is refused (the formatter would hold 150 bytes and more for each).
pub const MAX_PIECE_LINES: usize = 500_000;

/// The whole document formatted; `Err` says why not.
pub fn document(
    view: &View,
    style: Style,
    request: &FormattingOptions,
) -> Result<Vec<TextEdit>, String> {
    let text = view.snapshot.text();
    let options = options(style, request);
    if text.len() <= PIECE_TARGET {
        let edits = format::format_edits(&text, 0, view.document(), &options);
        return Ok(text_edits(view, &text, edits));
    }
    let pieces = pieces(&text)?;
    let mut cutter = Pieces::new();
    let mut edits = Vec::new();
    for (at, &(start, end)) in pieces.iter().enumerate() {
        // The options about the file's end are the last piece's alone.
        let options = if at + 1 == pieces.len() {
            options
        } else {
            Options {
                insert_final_newline: false,
                trim_final_newlines: false,
                ..options
            }
        };
        let piece = &text[start..end];
        let document = cutter.parse(piece, start);
        edits.extend(format::format_edits(piece, start, &document, &options));
    }
    Ok(text_edits(view, &text, edits))
}

/// The puzzles overlapping `range` formatted, nothing else (their trailing whitespace trimmed
/// if the request asks; the options about the file's end do not apply to a range); `Err` says
/// why not.
pub fn range(
    view: &View,
    style: Style,
    range: Range,
    request: &FormattingOptions,
) -> Result<Vec<TextEdit>, String> {
    let (start, end) = (view.offset(range.start), view.offset(range.end));
    let span = Span::new(start.min(end), start.max(end));
    let text = view.snapshot.text();
    let options = options(style, request);
    if text.len() <= PIECE_TARGET {
        let edits = format::format_range_edits(&text, view.document(), &options, span);
        return Ok(text_edits(view, &text, edits));
    }
    // A puzzle lies in one piece: the range's puzzles are those of the pieces it touches.
    let mut cutter = Pieces::new();
    let mut edits = Vec::new();
    for (start, end) in pieces(&text)? {
        if end < span.start || span.end < start {
            continue;
        }
        let piece = &text[start..end];
        let document = cutter.parse(piece, start);
        edits.extend(format::format_range_edits_at(
            piece, start, &document, &options, span,
        ));
    }
    Ok(text_edits(view, &text, edits))
}

/// Where `text` is cut into pieces that parse on their own, as byte ranges: each ends at the
/// first place it can once it holds [`PIECE_TARGET`] bytes. `Err` when a piece passes
/// [`MAX_PIECE_LINES`] lines with no place to end.
fn pieces(text: &str) -> Result<Vec<(usize, usize)>, String> {
    let mut cutter = Pieces::new();
    let mut pieces = Vec::new();
    let (mut base, mut lines_in_piece, mut line_number) = (0, 0, 0);
    for (start, end) in line_ranges(text) {
        line_number += 1;
        lines_in_piece += 1;
        let ends = cutter.ends_piece(&text[base..end], base, start - base);
        if ends && (end - base >= PIECE_TARGET || lines_in_piece >= PIECE_TARGET_LINES) {
            pieces.push((base, end));
            (base, lines_in_piece) = (end, 0);
        } else if lines_in_piece > MAX_PIECE_LINES {
            return Err(format!(
                "lines {} to {line_number} hold no blank line or one-line puzzle where the \
                 formatting of a large document can be cut, and it formats at most {} lines at \
                 once; `sudoku-lsp fmt` formats the file",
                line_number + 1 - lines_in_piece,
                MAX_PIECE_LINES
            ));
        }
    }
    if base < text.len() || pieces.is_empty() {
        pieces.push((base, text.len()));
    }
    Ok(pieces)
}

/// Each line of `text` with its line break, as byte ranges (`\n`, `\r\n` or a lone `\r` ends
/// a line, as the parser counts them).
fn line_ranges(text: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let bytes = text.as_bytes();
    let mut start = 0;
    std::iter::from_fn(move || {
        if start >= bytes.len() {
            return None;
        }
        let mut end = match bytes[start..]
            .iter()
            .position(|&b| b == b'\n' || b == b'\r')
        {
            Some(at) => start + at + 1,
            None => bytes.len(),
        };
        if bytes[end - 1] == b'\r' && bytes.get(end) == Some(&b'\n') {
            end += 1;
        }
        let line = (start, end);
        start = end;
        Some(line)
    })
}

/// The style, and what the request says about whitespace.
fn options(style: Style, request: &FormattingOptions) -> Options {
    Options {
        style,
        trim_trailing_whitespace: request.trim_trailing_whitespace.unwrap_or(false),
        insert_final_newline: request.insert_final_newline.unwrap_or(false),
        trim_final_newlines: request.trim_final_newlines.unwrap_or(false),
    }
}

/// Past this many edits, they go as one: each edit's range costs about 80 bytes of JSON both
/// ways, and reformatting a whole collection changes every line (49,151 edits for
/// `sudoku17.txt`, more JSON than text). Below it, small edits keep the cursor and the undo
/// steps where they are.
const MERGE_OVER: usize = 1_000;

/// The edits placed in the client's encoding, in one walk down the text (they come in order).
fn text_edits(view: &View, text: &str, edits: Vec<Edit>) -> Vec<TextEdit> {
    let edits = if edits.len() > MERGE_OVER {
        vec![merged(text, edits)]
    } else {
        edits
    };
    let spans: Vec<_> = edits.iter().map(|edit| edit.span).collect();
    let ranges = view.config.encoding.ranges(&view.snapshot.rope, &spans);
    edits
        .into_iter()
        .zip(ranges)
        .map(|(edit, range)| TextEdit {
            range,
            new_text: edit.text,
        })
        .collect()
}

/// One edit doing what `edits` (in order, not overlapping) do to `text`: from the first one's
/// start to the last one's end.
fn merged(text: &str, edits: Vec<Edit>) -> Edit {
    let start = edits.first().map_or(0, |e| e.span.start);
    let end = edits.last().map_or(0, |e| e.span.end);
    let mut merged = String::with_capacity(end - start);
    let mut at = start;
    for edit in edits {
        merged.push_str(&text[at..edit.span.start]);
        merged.push_str(&edit.text);
        at = edit.span.end;
    }
    Edit {
        span: Span::new(start, end),
        text: merged,
    }
}
