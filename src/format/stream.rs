//! Reading a long text in pieces, each parsed on its own exactly as the whole text would be.
//!
//! The command line reads files of any length in bounded memory: it hands the lines to
//! [`Pieces`] one by one, which says after which lines the parser provably starts afresh (the
//! points `reparse` resumes at: a blank line, or a one-line puzzle that can be nothing else, once
//! the first grid has settled the file's metadata), and then parses each piece between two such
//! points with the file's metadata carried over. The puzzles and problems of the pieces, in
//! order, are those of a parse of the whole text (a property test checks it, spans included).

use super::lines::{lines_at, Kind};
use super::meta::Scope;
use super::parse::{one_line_size, parse_keeping, parse_region_keeping};
use super::reparse::{declares_size, is_only_one_line};
use super::Document;

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
        let at = base + line_start;
        let mut ends = false;
        for line in lines_at(&piece[line_start..], at) {
            let content = &piece[line.start - base..line.end - base];
            ends = line.next > line.end && self.resumes_after(piece, line.kind, content);
        }
        ends
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
            Kind::Cells(cells) => {
                // The first grid settles the file's metadata: what comes before it, read whole.
                if self.file.is_none() {
                    // Its metadata alone: none of its problems held (they could be millions).
                    self.file = Some(parse_keeping(piece, 0).file_scope);
                }
                let alone = !self.header_declares_size && self.reads_alone(cells.run);
                self.header_declares_size = false;
                alone
            }
            Kind::Junk(_) | Kind::Border => false,
        }
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
        let keep = self.keep.unwrap_or(usize::MAX);
        match &self.file {
            Some(file) if base > 0 => parse_region_keeping(piece, base, file.clone(), keep),
            _ => {
                let document = parse_keeping(piece, keep);
                self.file.get_or_insert_with(|| document.file_scope.clone());
                document
            }
        }
    }
}
