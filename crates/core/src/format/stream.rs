//! Reading a long text in pieces, each parsed on its own exactly as the whole text would be.
//!
//! The command line reads files of any length in bounded memory: it hands the lines to
//! [`Pieces`] one by one, which says after which lines the parser provably starts afresh (the
//! points `reparse` resumes at: a blank line, or a one-line puzzle that can be nothing else, once
//! the first grid has settled the file's metadata), and then parses each piece between two such
//! points with the file's metadata carried over. The puzzles and problems of the pieces, in
//! order, are those of a parse of the whole text (a property test checks it, spans included).

use super::document::Document;
use super::lines::{Kind, Lines};
use super::meta::{Scope, Setting};
use super::parse::{
    keep_problems, one_line_size, one_liner_document, parse_keeping, parse_region_keeping,
};
use super::reparse::{declares_size, is_only_one_line};
use crate::grid::Variant;

/// Where the pieces of one text may end, and how each is parsed.
#[derive(Default)]
pub struct Pieces {
    /// The file's metadata, settled once the first line of cells is read.
    file: Option<Scope>,
    /// Whether a comment since the last blank or cells line declares a size: the header of a
    /// one-line puzzle that follows, which could make it a row of a larger grid.
    header_declares_size: bool,
    /// How many problems each piece keeps (see `keeping`).
    keep: Option<usize>,
}

impl Pieces {
    pub fn new() -> Pieces {
        Pieces::default()
    }

    /// Start afresh after a line that is not part of the text (the command line's reader passes
    /// a line too long to be a puzzle's through, unread): what follows reads as after a blank line.
    pub fn restart(&mut self) {
        self.header_declares_size = false;
    }

    /// Pieces whose documents keep only their first `keep` problems of each severity and count
    /// the rest (`Document::unkept`): what a reader that shows at most that many needs, in
    /// memory that does not grow with a piece where every line is a problem.
    pub fn keeping(keep: usize) -> Pieces {
        Pieces {
            keep: Some(keep),
            ..Pieces::default()
        }
    }

    /// Read the next whole line of the text: `piece[line_start..]` (with its line break; a lone
    /// `\r` inside it, which ends a line too, makes it several), where `piece` is the text since
    /// the end of the last piece, found at byte `base` of the text. True when the parser starts
    /// afresh after it: a piece may end here.
    pub fn ends_piece(&mut self, piece: &str, base: usize, line_start: usize) -> bool {
        self.read_line(piece, base, line_start) != LineEnd::Within
    }

    /// `ends_piece`, telling apart the lines that are classic one-line puzzles read on their
    /// own (`LineEnd::OneLiner`).
    pub fn read_line(&mut self, piece: &str, base: usize, line_start: usize) -> LineEnd {
        if is_plain_one_liner(&piece.as_bytes()[line_start..]) {
            return match self.after_cells(piece, ONE_LINER_CELLS) {
                false => LineEnd::Within,
                true if self.file.as_ref().is_some_and(reads_every_puzzle) => LineEnd::OneLiner,
                true => LineEnd::Ends,
            };
        }
        let at = base + line_start;
        let mut ends = false;
        // One line at a time: a table of them (`lines_at`) was an allocation for every line read.
        for line in Lines::new(&piece[line_start..], at) {
            let content = &piece[line.start - base..line.end - base];
            ends = line.next > line.end && self.resumes_after(piece, line.kind, content);
        }
        if ends {
            LineEnd::Ends
        } else {
            LineEnd::Within
        }
    }

    /// Whether the parser starts afresh after a line of this kind (see the module comment).
    fn resumes_after(&mut self, piece: &str, kind: Kind, content: &str) -> bool {
        match kind {
            Kind::Blank => {
                self.header_declares_size = false;
                self.file.is_some()
            }
            Kind::Comment => {
                self.header_declares_size |= declares_size(content);
                false
            }
            Kind::Cells(cells) => self.after_cells(piece, cells.run),
            Kind::Rule | Kind::Junk(_) | Kind::Border => false,
        }
    }

    /// `resumes_after` a line of cells whose leading run has `run` cells.
    fn after_cells(&mut self, piece: &str, run: usize) -> bool {
        // The first grid settles the file's metadata: what comes before it, read whole.
        if self.file.is_none() {
            // Its metadata alone: none of its problems held (they could be millions).
            self.file = Some(parse_keeping(piece, 0).file_scope);
        }
        let alone = !self.header_declares_size && self.reads_alone(run);
        self.header_declares_size = false;
        alone
    }

    /// Whether a line whose leading run has `run` cells is read as a one-line puzzle on its own,
    /// with no size in its header: its width can be nothing else, and the file declares no size
    /// or the very size it has.
    fn reads_alone(&self, run: usize) -> bool {
        let declared = self.file.as_ref().and_then(|file| file.size.valid());
        is_only_one_line(run) && declared.is_none_or(|size| one_line_size(run) == Some(size))
    }

    /// Parse one piece: the text from byte `base` up to where `ends_piece` said yes (or the end
    /// of the text). The first piece (`base` 0) is read as a text of its own; the next ones with
    /// the file's metadata the first one settled.
    pub fn parse(&mut self, piece: &str, base: usize) -> Document {
        let document = self.parse_part(piece, base);
        self.file.get_or_insert_with(|| document.file_scope.clone());
        document
    }

    /// Whether the file's metadata is settled (a grid was read): from then on the parts of a
    /// piece between the places `ends_piece` said yes to can be parsed apart (`parse_part`).
    pub fn settled(&self) -> bool {
        self.file.is_some()
    }

    /// Parse a part of a piece, from byte `base` of the text, that starts at the text's start
    /// or where `ends_piece` said yes: the document `parse` gives for it, on any thread (the
    /// command line parses a piece's parts on every core and `join`s them). Past the text's
    /// start, only once the file's metadata is `settled`.
    pub fn parse_part(&self, part: &str, base: usize) -> Document {
        parse_part(self.file.as_ref(), self.keep, part, base)
    }

    /// What parses parts of the text from here on (`parse_part`), to be kept beside a piece.
    pub fn part_parser(&self) -> PartParser {
        PartParser {
            file: self.file.clone(),
            keep: self.keep,
        }
    }

    /// The documents of a piece's parts (`parse_part`), in order, as one: the document of the
    /// whole piece, its problems kept as `keeping` says.
    pub fn join(&self, parts: Vec<Document>) -> Document {
        let puzzles: usize = parts.iter().map(|part| part.puzzles.len()).sum();
        let mut parts = parts.into_iter();
        let mut whole = parts.next().unwrap_or_default();
        whole.puzzles.reserve_exact(puzzles - whole.puzzles.len());
        for part in parts {
            whole.puzzles.extend(part.puzzles);
            whole.problems.extend(part.problems);
            whole.unkept.add_all(part.unkept);
            whole.unread.extend(part.unread);
        }
        // Each part kept its first problems of each severity: of those, the first of the whole.
        if let Some(keep) = self.keep {
            let kept = whole.kept; // as the parse of the whole piece says it (its first part's)
            keep_problems(&mut whole, keep);
            whole.kept = kept;
        }
        whole
    }
}

/// What `Pieces::read_line` tells of a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineEnd {
    /// The parser does not start afresh after it.
    Within,
    /// It does: a piece may end here.
    Ends,
    /// It does, and the line is a classic one-line puzzle read on its own: 81 digits or empty
    /// marks (`1`–`9`, `.`, `0`, `_`) and its line break, nothing else, in a file whose metadata
    /// reads it (no size but 9, no variant it cannot read) and with no header of its own. A
    /// piece of such lines alone holds one puzzle a line, each what `PartParser::parse` of that
    /// line alone gives, and no problem: the command line solves them without parsing them.
    OneLiner,
}

/// Parses parts of a text once its metadata is settled, as `Pieces::parse_part` does, on any
/// thread (`Pieces::part_parser`).
#[derive(Clone, Debug)]
pub struct PartParser {
    file: Option<Scope>,
    keep: Option<usize>,
}

impl PartParser {
    /// `Pieces::parse_part`.
    pub fn parse(&self, part: &str, base: usize) -> Document {
        parse_part(self.file.as_ref(), self.keep, part, base)
    }

    /// `parse` of `line`, one that `Pieces::read_line` called a classic one-liner read on its
    /// own (`LineEnd::OneLiner`), with its line break: the same document, built without
    /// scanning the line as the parser does when the line is past the text's start (where
    /// the file's metadata is settled).
    pub fn parse_one_liner(&self, line: &str, base: usize) -> Document {
        match &self.file {
            Some(file)
                if base > 0 && is_plain_one_liner(line.as_bytes()) && reads_every_puzzle(file) =>
            {
                one_liner_document(line, base, file)
            }
            _ => self.parse(line, base),
        }
    }

    /// The variant of a puzzle without metadata of its own: the file's.
    pub fn variant(&self) -> Variant {
        self.file
            .as_ref()
            .map_or_else(Variant::default, Scope::puzzle_variant)
    }
}

fn parse_part(file: Option<&Scope>, keep: Option<usize>, part: &str, base: usize) -> Document {
    let keep = keep.unwrap_or(usize::MAX);
    match file {
        Some(file) if base > 0 => parse_region_keeping(part, base, file.clone(), keep),
        _ => parse_keeping(part, keep),
    }
}

/// Whether the file's metadata lets every puzzle be read as a classic one-liner: a size or
/// variant it cannot read, or a wrong constraint line, leaves each puzzle unread, the
/// error saying why; constraint lines make each puzzle's rules, which the parser builds.
fn reads_every_puzzle(file: &Scope) -> bool {
    file.size != Setting::Invalid
        && file.variant != Setting::Invalid
        && !file.unsolved
        && file.rules.is_empty()
}

/// The cells of a classic one-line puzzle.
const ONE_LINER_CELLS: usize = 81;

/// Whether `line` (with its line break) is 81 digits or empty marks (`1`–`9`, `.`, `0`, `_`)
/// and nothing else: nearly every line of a collection, which needs no classifying to know
/// it is a line of cells whose leading run is 81 long (a tenth of `check`'s time over one
/// went to classifying each line twice, here and in the parser).
fn is_plain_one_liner(line: &[u8]) -> bool {
    let cells = match line {
        [cells @ .., b'\r', b'\n'] | [cells @ .., b'\n' | b'\r'] => cells,
        _ => return false,
    };
    cells.len() == ONE_LINER_CELLS
        && cells
            .iter()
            .all(|&b| matches!(b, b'1'..=b'9' | b'.' | b'0' | b'_'))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines of 81 cells from the plain alphabet, from a fixed seed: sound, broken, full or
    /// nearly empty grids alike for the parse.
    fn one_liners(count: usize) -> Vec<String> {
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        (0..count)
            .map(|_| {
                let empty = next() % 82;
                (0..81)
                    .map(|_| match next() % 81 {
                        r if r < empty => ['.', '0', '_'][(r % 3) as usize],
                        r => char::from(b'1' + (r % 9) as u8),
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn a_one_liner_built_directly_is_the_document_its_parse_gives() {
        let headers = [
            "",
            "# from http://example.com/collection\n#\n",
            "# variant: diagonal\n\n",
            "# size: 9\n# title: many\n# author: A. Setter\n\n",
            "# source: a book\n# difficulty: hard\n",
        ];
        let mut compared = 0;
        for header in headers {
            let mut text = header.to_string();
            for (k, line) in one_liners(60).iter().enumerate() {
                text.push_str(line);
                text.push_str(["\n", "\r\n", "\r"][k % 3]);
            }
            let mut cutter = Pieces::new();
            let mut start = 0;
            for line in Lines::new(&text, 0) {
                let end = line.next;
                if cutter.read_line(&text[..end], 0, start) == LineEnd::OneLiner && start > 0 {
                    let parser = cutter.part_parser();
                    let direct = parser.parse_one_liner(&text[start..end], start);
                    let parsed = parser.parse(&text[start..end], start);
                    assert_eq!(format!("{direct:?}"), format!("{parsed:?}"), "{header:?}");
                    compared += 1;
                }
                start = end;
            }
        }
        // Every line but the first of each text, and the first too after a header.
        assert!(compared >= 5 * 59, "{compared}");
    }
}
