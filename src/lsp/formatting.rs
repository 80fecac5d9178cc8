//! Document and range formatting: `format::style`'s edits as LSP `TextEdit`s over one `view`.
//!
//! The edits replace only the lines that change (the cursor and the undo history stay where
//! they are, and a collection costs only its changed lines), placed in the client's position
//! encoding by `encoding`. The style comes from the `formatStyle` setting; the request's
//! `FormattingOptions` add what they say about whitespace (tab size and spaces mean nothing in a
//! format whose columns are cells).

use tower_lsp_server::lsp_types::{FormattingOptions, Range, TextEdit};

use super::view::View;
use crate::format::{self, Edit, Options, Style};

/// The whole document formatted.
pub fn document(view: &View, style: Style, request: &FormattingOptions) -> Vec<TextEdit> {
    let text = view.snapshot.text();
    let edits = format::format_edits(&text, 0, view.document(), &options(style, request));
    text_edits(view, &text, edits)
}

/// The puzzles overlapping `range` formatted, nothing else (their trailing whitespace trimmed
/// if the request asks; the options about the file's end do not apply to a range).
pub fn range(
    view: &View,
    style: Style,
    range: Range,
    request: &FormattingOptions,
) -> Vec<TextEdit> {
    let (start, end) = (view.offset(range.start), view.offset(range.end));
    let span = crate::finding::Span::new(start.min(end), start.max(end));
    let text = view.snapshot.text();
    let options = options(style, request);
    let edits = format::format_range_edits(&text, view.document(), &options, span);
    text_edits(view, &text, edits)
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
        span: crate::finding::Span::new(start, end),
        text: merged,
    }
}
