//! Writing puzzles back to text: filling empty marks in place, and the canonical form.

use super::{Document, Puzzle};
use crate::finding::Span;
use crate::grid::digit_char;

/// Replace `span` of the source with `text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub span: Span,
    pub text: String,
}

/// The edits that write `solution` into `puzzle`: one per empty mark, nothing else touched.
pub fn fill_edits(puzzle: &Puzzle, solution: &[u8]) -> Vec<Edit> {
    puzzle
        .givens
        .iter()
        .zip(solution)
        .zip(&puzzle.cell_spans)
        .filter(|((&given, _), _)| given == 0)
        .map(|((_, &digit), &span)| Edit {
            span,
            text: digit_char(digit).to_string(),
        })
        .collect()
}

/// Apply non-overlapping edits to `text`.
pub fn apply_edits(text: &str, edits: &[Edit]) -> String {
    let mut sorted: Vec<&Edit> = edits.iter().collect();
    sorted.sort_by_key(|e| e.span.start);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for edit in sorted {
        out.push_str(&text[at..edit.span.start]);
        out.push_str(&edit.text);
        at = edit.span.end;
    }
    out.push_str(&text[at..]);
    out
}

/// The canonical form of a document: comments and blank lines kept, metadata as `# key: value`,
/// every block puzzle in the display style (`4 8 3 | 9 2 1 | 6 5 7` rows, border lines between
/// bands, `.` for empty cells), one-line puzzles as one line with their trailing text.
pub fn canonical(text: &str, doc: &Document) -> String {
    let _ = doc;
    text.to_string() // TODO(format): write the canonical form
}
