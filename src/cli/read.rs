//! Reading one input in bounded memory: line by line, in pieces that parse on their own
//! (`format::Pieces`), with a limit on a line, on a piece that finds no place to end, and on the
//! whole input, so that an endless or hostile input (`/dev/zero`, `/dev/urandom`) gets an error
//! naming the limit instead of the machine's memory.
//!
//! What writes the text back ([`chunks`]: `solve`, `marks`, `fmt`) must not lose a line, so
//! there a line over the limit is no error: it is no puzzle line either, and is handed on as it
//! was read, a part at a time, the text after it read afresh as after a blank line.

use std::io::{BufRead, BufReader, Read};

use rayon::prelude::*;

use crate::finding::Span;
use crate::format::{apply_edits, Document, Edit, LineEnd, PartParser, Pieces};

/// The longest line read (a 25×25 one-line puzzle is 625 characters).
pub const MAX_LINE: usize = 1 << 20;
/// The most text read without a place where a piece can end (a blank line, or a one-line
/// puzzle): what one piece can hold at most.
pub const MAX_PIECE: usize = 64 << 20;
/// Pieces end at the first place they can once they hold this much: large enough for the
/// analysis to use every core, small enough to keep memory flat.
const PIECE_TARGET: usize = 1 << 20;
/// The same for a piece of one-liners alone that is not parsed (`Piece::one_liners`): about
/// 1,600 lines, enough for every core, and a reader a piece ahead (`pieces_keeping_ahead`) starts
/// the work soon.
const ONE_LINERS_TARGET: usize = 128 << 10;
/// An input over this many bytes is large: `check` reads it a piece ahead
/// (`pieces_keeping_ahead`), and `check` and `solve` start the pool of threads at once
/// (`one_liners::start_pool`), where a small one would not pay for either.
pub const LARGE_INPUT: u64 = 256 << 10;
/// A piece is parsed in parts of about this much at once on every core, cut where it could
/// have ended (the parse of a collection's piece was a third of `check`'s time, on one core).
const PART_TARGET: usize = PIECE_TARGET / 16;

/// One piece of an input, parsed.
pub struct Piece {
    /// Where the piece starts in the text as read (bad UTF-8 replaced by U+FFFD).
    pub base: usize,
    /// The 1-based number of its first line.
    pub first_line: usize,
    /// How many lines it holds.
    pub lines: usize,
    pub text: String,
    pub document: Document,
    /// The bytes as read, kept only when they were not UTF-8, to be written back as they were.
    pub raw: Option<Vec<u8>>,
    /// The first byte that was not UTF-8: its offset in the input, and in the text.
    pub invalid: Option<(u64, usize)>,
    /// Set, for a reader that asked for them (`one_liners_apart`), when every line of the piece
    /// is a classic one-line puzzle read on its own (`format::LineEnd::OneLiner`), nothing
    /// else: the piece is not parsed (`document` is empty) and this parses any one of its
    /// lines as the piece's parse would read it. Such a reader solves each line with the 9×9
    /// solver and parses only those with something to say (most collections are all sound
    /// puzzles: their parse and analyses were half of `check`'s time).
    pub one_liners: Option<PartParser>,
}

impl Piece {
    /// The lines of a piece of one-liners (`one_liners`): where each starts in the text and
    /// its 81 cells.
    pub fn one_liner_lines(&self) -> Vec<(usize, &[u8])> {
        let bytes = self.text.as_bytes();
        let mut lines = Vec::with_capacity(bytes.len() / 82 + 1);
        let mut at = 0;
        while at + 81 < bytes.len() {
            lines.push((at, &bytes[at..at + 81]));
            // Each line is its cells and a line break: `\n`, `\r\n` or a lone `\r`.
            at += match &bytes[at + 81..] {
                [b'\r', b'\n', ..] => 83,
                _ => 82,
            };
        }
        lines
    }
}

impl Piece {
    /// The piece's bytes as read, with `edits` made (spans in the whole input's text, as the
    /// parse gives them), and how many edits were left out. Where the bytes were not UTF-8 the
    /// text reads U+FFFD in place of each bad sequence, so its offsets drift from the bytes':
    /// an edit is made at the same place in the bytes when every line it touches was valid
    /// UTF-8, and left out when one was not (that line is written back as it was).
    pub fn edited(&self, edits: &[Edit]) -> (Vec<u8>, usize) {
        let relative = |edit: &Edit| Edit {
            span: Span::new(edit.span.start - self.base, edit.span.end - self.base),
            text: edit.text.clone(),
        };
        let Some(raw) = &self.raw else {
            let edits: Vec<Edit> = edits.iter().map(relative).collect();
            return (apply_edits(&self.text, &edits).into_bytes(), 0);
        };
        let lines = LineMap::new(&self.text, raw);
        let mut placed: Vec<(Span, &str)> = Vec::new();
        for edit in edits {
            let edit_span = relative(edit).span;
            if let Some(span) = lines.raw_span(edit_span) {
                placed.push((span, &edit.text));
            }
        }
        placed.sort_by_key(|(span, _)| span.start);
        let mut out = Vec::with_capacity(raw.len());
        let mut at = 0;
        for (span, text) in &placed {
            out.extend_from_slice(&raw[at..span.start]);
            out.extend_from_slice(text.as_bytes());
            at = span.end;
        }
        out.extend_from_slice(&raw[at..]);
        (out, edits.len() - placed.len())
    }
}

/// Where each line of a piece's text is in its bytes as read, and whether it was valid UTF-8.
/// Lines break after every `\n` and `\r` in both: replacing bad sequences by U+FFFD never
/// touches an ASCII byte, so both have the same breaks in the same order.
struct LineMap {
    /// Per line: its start in the text, its start in the bytes, whether the bytes were UTF-8.
    lines: Vec<(usize, usize, bool)>,
}

impl LineMap {
    fn new(text: &str, raw: &[u8]) -> LineMap {
        let starts = |bytes: &[u8]| -> Vec<usize> {
            let breaks = bytes
                .iter()
                .enumerate()
                .filter(|(_, &b)| b == b'\n' || b == b'\r');
            std::iter::once(0)
                .chain(breaks.map(|(i, _)| i + 1))
                .collect()
        };
        let (in_text, in_raw) = (starts(text.as_bytes()), starts(raw));
        let lines = in_text
            .iter()
            .zip(&in_raw)
            .enumerate()
            .map(|(i, (&t, &r))| {
                let end = in_raw.get(i + 1).copied().unwrap_or(raw.len());
                (t, r, std::str::from_utf8(&raw[r..end]).is_ok())
            })
            .collect();
        LineMap { lines }
    }

    /// The span of the bytes that `span` of the text is, if every line it touches was UTF-8.
    fn raw_span(&self, span: Span) -> Option<Span> {
        let line_of = |offset: usize| self.lines.partition_point(|&(t, _, _)| t <= offset) - 1;
        let first = line_of(span.start);
        let last = line_of(span.end.max(span.start + 1) - 1).max(first);
        if !self.lines[first..=last].iter().all(|&(_, _, valid)| valid) {
            return None;
        }
        let place = |offset: usize, line: usize| {
            let (t, r, _) = self.lines[line];
            offset - t + r
        };
        Some(Span::new(place(span.start, first), place(span.end, last)))
    }
}

/// What [`chunks`] hands on, in the input's order.
pub enum Chunk<'a> {
    Piece(Box<Piece>),
    /// A part of a line longer than [`MAX_LINE`], as read (its line break included, in its last
    /// part): no puzzle line, passed through whole, in parts so that its length costs no memory.
    Long(&'a [u8]),
}

/// Why reading an input stopped before its end.
#[derive(Debug)]
pub enum Stop {
    LineTooLong {
        line: usize,
    },
    /// A line over [`MAX_LINE`] with a NUL byte in it: binary, not text, so not passed through.
    BinaryLine {
        line: usize,
    },
    NoPieceEnd {
        line: usize,
    },
    TooLarge {
        limit: u64,
    },
    Io(std::io::Error),
}

impl Stop {
    /// What to tell the user, after the input's name.
    pub fn message(&self) -> String {
        match self {
            Stop::LineTooLong { line } => format!(
                "line {line} is longer than {} (the limit of one line); stopped reading there",
                bytes(MAX_LINE as u64)
            ),
            Stop::BinaryLine { line } => format!(
                "line {line} is longer than {} and holds a NUL byte: binary data, not text; \
                 stopped reading there",
                bytes(MAX_LINE as u64)
            ),
            Stop::NoPieceEnd { line } => format!(
                "{} without a blank line or a one-line puzzle before line {line} (the most read \
                 at once); stopped reading there",
                bytes(MAX_PIECE as u64)
            ),
            Stop::TooLarge { limit } => format!(
                "larger than {} (the limit of one input, see --max-file-size); stopped reading at that size",
                bytes(*limit)
            ),
            Stop::Io(e) => format!("cannot read: {e}"),
        }
    }
}

/// A byte count as people read it: `1 MiB`, `64 MiB`, `1 GiB`, or bytes.
pub fn bytes(n: u64) -> String {
    match n {
        n if n >= 1 << 30 && n % (1 << 30) == 0 => format!("{} GiB", n >> 30),
        n if n >= 1 << 20 && n % (1 << 20) == 0 => format!("{} MiB", n >> 20),
        n if n >= 1 << 10 && n % (1 << 10) == 0 => format!("{} KiB", n >> 10),
        n => format!("{n} bytes"),
    }
}

/// Read `input` to its end (or to `max_file` bytes) and hand each piece to `each` in order.
/// Every input gives at least one piece, empty if the input is. When reading stops early, the
/// whole lines read before are still handed on, then the reason is returned.
pub fn pieces(input: impl Read, max_file: u64, each: impl FnMut(Piece)) -> Result<(), Stop> {
    let reading = Reading {
        cutter: Pieces::new(),
        pass_long_lines: false,
        one_liners_apart: false,
    };
    read_all(input, max_file, reading, &mut pieces_only(each))
}

/// `pieces`, each of whose documents keeps only its first `keep` problems of each severity and counts the
/// others (`Document::unkept`): for a reader that shows no more than that per input. With
/// `one_liners_apart`, pieces of one-liners alone are not parsed (`Piece::one_liners`).
pub fn pieces_keeping(
    input: impl Read,
    max_file: u64,
    keep: usize,
    one_liners_apart: bool,
    each: impl FnMut(Piece),
) -> Result<(), Stop> {
    let reading = Reading {
        cutter: Pieces::keeping(keep),
        pass_long_lines: false,
        one_liners_apart,
    };
    read_all(input, max_file, reading, &mut pieces_only(each))
}

/// `pieces_keeping` with the reading on a thread of its own, a piece ahead of `each`: for a
/// large input, whose reading (a fifth of `check`'s time over a collection of one-liners,
/// where every line is classified) then overlaps with the work on the piece before.
pub fn pieces_keeping_ahead(
    input: impl Read + Send,
    max_file: u64,
    keep: usize,
    one_liners_apart: bool,
    mut each: impl FnMut(Piece),
) -> Result<(), Stop> {
    std::thread::scope(|scope| {
        let (sender, receiver) = std::sync::mpsc::sync_channel(1);
        let reader = scope.spawn(move || {
            // A piece nobody receives any more is dropped: the receiving side has stopped.
            let hand_on = |piece| drop(sender.send(piece));
            pieces_keeping(input, max_file, keep, one_liners_apart, hand_on)
        });
        for piece in receiver {
            each(piece);
        }
        reader
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// What reads the pieces alone (with no long line passed through, a reading is only pieces).
fn pieces_only(mut each: impl FnMut(Piece)) -> impl FnMut(Chunk<'_>) {
    move |chunk| {
        if let Chunk::Piece(piece) = chunk {
            each(*piece);
        }
    }
}

/// As [`pieces`], but a line longer than [`MAX_LINE`] does not stop the reading: the piece
/// before it ends there, the line is handed on as [`Chunk::Long`] parts, and the text after it
/// is read as after a blank line. Only a long line holding a NUL byte (binary data) stops it.
/// With `one_liners_apart`, pieces of one-liners alone are not parsed (`Piece::one_liners`).
pub fn chunks(
    input: impl Read,
    max_file: u64,
    one_liners_apart: bool,
    mut each: impl FnMut(Chunk<'_>),
) -> Result<(), Stop> {
    let reading = Reading {
        cutter: Pieces::new(),
        pass_long_lines: true,
        one_liners_apart,
    };
    read_all(input, max_file, reading, &mut each)
}

/// Set to read every piece through the parser, one-liners too (`Piece::one_liners` never set):
/// what the tests compare the command line's output with.
pub const PARSE_ALL_VAR: &str = "SUDOKU_LSP_PARSE_ALL";

/// How one input is read.
struct Reading {
    cutter: Pieces,
    pass_long_lines: bool,
    one_liners_apart: bool,
}

fn read_all(
    input: impl Read,
    max_file: u64,
    reading: Reading,
    each: &mut dyn FnMut(Chunk<'_>),
) -> Result<(), Stop> {
    let Reading {
        mut cutter,
        pass_long_lines,
        one_liners_apart,
    } = reading;
    let one_liners_apart = one_liners_apart && std::env::var_os(PARSE_ALL_VAR).is_none();
    let mut reader = BufReader::with_capacity(1 << 16, input);
    let mut piece = Builder {
        one_liners_apart,
        ..Builder::default()
    };
    let mut line = Vec::new();
    let mut read_bytes: u64 = 0;
    let mut lines = 0;
    let mut handed_on = false;
    let outcome = loop {
        line.clear();
        match read_line(&mut reader, &mut line) {
            Ok(0) => break Ok(()),
            Ok(n) if read_bytes + n as u64 > max_file => {
                break Err(Stop::TooLarge { limit: max_file })
            }
            Ok(n) => read_bytes += n as u64,
            Err(e) if e.kind() == std::io::ErrorKind::FileTooLarge && pass_long_lines => {
                // Whatever the piece so far holds is parsed as the text's end would be.
                if !piece.text.is_empty() || !handed_on {
                    each(Chunk::Piece(Box::new(piece.take(&mut cutter, lines))));
                    handed_on = true;
                }
                lines += 1;
                let mut long = LongLine {
                    reader: &mut reader,
                    read_bytes: &mut read_bytes,
                    max_file,
                    line: lines,
                    each: &mut *each,
                };
                match long.pass(&line) {
                    Ok(length) => piece.skip(length, lines),
                    Err(stop) => break Err(stop),
                }
                cutter.restart();
                continue;
            }
            Err(e) if e.kind() == std::io::ErrorKind::FileTooLarge => {
                break Err(Stop::LineTooLong { line: lines + 1 })
            }
            Err(e) => break Err(Stop::Io(e)),
        }
        lines += 1;
        let line_start = piece.text.len();
        piece.push(&line, read_bytes - line.len() as u64);
        let end = cutter.read_line(&piece.text, piece.base, line_start);
        piece.note(end, line_start, lines);
        let may_end = end != LineEnd::Within;
        if let Some(cut) = piece.one_liners_from() {
            each(Chunk::Piece(Box::new(piece.take_head(&mut cutter, cut))));
            handed_on = true;
        } else if may_end && piece.text.len() >= piece.target() {
            each(Chunk::Piece(Box::new(piece.take(&mut cutter, lines))));
            handed_on = true;
        } else if piece.text.len() > MAX_PIECE {
            break Err(Stop::NoPieceEnd { line: lines });
        } else if may_end {
            piece.may_cut();
        }
    };
    if !piece.text.is_empty() || !handed_on {
        each(Chunk::Piece(Box::new(piece.take(&mut cutter, lines))));
    }
    outcome
}

/// A line over [`MAX_LINE`] being passed through.
struct LongLine<'r, R> {
    reader: &'r mut R,
    read_bytes: &'r mut u64,
    max_file: u64,
    /// Its 1-based number.
    line: usize,
    each: &'r mut dyn FnMut(Chunk<'_>),
}

impl<R: BufRead> LongLine<'_, R> {
    /// Hand on `start` (what was read of it, past the limit) and the rest of the line, up to
    /// and with its line break; its length in bytes.
    fn pass(&mut self, start: &[u8]) -> Result<u64, Stop> {
        let before = *self.read_bytes;
        self.hand_on(start)?;
        match start.last() {
            Some(b'\n') => {}
            Some(b'\r') => self.newline_after_return()?,
            _ => self.rest()?,
        }
        Ok(*self.read_bytes - before)
    }

    /// The rest of the line, past what was read of it.
    fn rest(&mut self) -> Result<(), Stop> {
        loop {
            let buffer = self.reader.fill_buf().map_err(Stop::Io)?;
            if buffer.is_empty() {
                return Ok(());
            }
            let end = memchr::memchr2(b'\n', b'\r', buffer);
            let taken = end.map_or(buffer.len(), |at| at + 1);
            let ends_in_return = end.is_some_and(|at| buffer[at] == b'\r');
            let part = buffer[..taken].to_vec();
            self.reader.consume(taken);
            self.hand_on(&part)?;
            if ends_in_return {
                return self.newline_after_return();
            }
            if end.is_some() {
                return Ok(());
            }
        }
    }

    /// A `\r` ended the line: a `\n` right after it belongs to it.
    fn newline_after_return(&mut self) -> Result<(), Stop> {
        let buffer = self.reader.fill_buf().map_err(Stop::Io)?;
        if buffer.first() == Some(&b'\n') {
            self.reader.consume(1);
            self.hand_on(b"\n")?;
        }
        Ok(())
    }

    fn hand_on(&mut self, part: &[u8]) -> Result<(), Stop> {
        *self.read_bytes += part.len() as u64;
        if *self.read_bytes > self.max_file {
            return Err(Stop::TooLarge {
                limit: self.max_file,
            });
        }
        if part.contains(&0) {
            return Err(Stop::BinaryLine { line: self.line });
        }
        (self.each)(Chunk::Long(part));
        Ok(())
    }
}

/// The piece being read.
#[derive(Default)]
struct Builder {
    base: usize,
    /// How many lines the pieces before this one held.
    lines_before: usize,
    text: String,
    raw: Option<Vec<u8>>,
    invalid: Option<(u64, usize)>,
    /// Where the text may be cut into parts parsed apart, at least [`PART_TARGET`] apart.
    cuts: Vec<usize>,
    /// Whether the reader wants pieces of one-liners alone unparsed (`Piece::one_liners`).
    one_liners_apart: bool,
    /// Whether a line of the piece so far is something else than a one-liner read alone.
    not_only_one_liners: bool,
    /// In a piece with other lines, the run of one-liners it ends with, if any.
    run: Option<OneLinerRun>,
}

/// One-liners in a row at the end of a piece that holds other lines too: a collection's
/// header, or comments between its puzzles. Once the run is long, the piece is cut after the
/// run's first line (which the lines before may describe, a title above it), so that the rest
/// is one-liners alone, searched unparsed: a comment at a collection's top used to send its
/// whole first megabyte through the parser.
#[derive(Clone, Copy)]
struct OneLinerRun {
    /// Where its second line starts in the piece's text, and how many lines come before it.
    cut: Option<(usize, usize)>,
    /// How many lines it holds.
    lines: usize,
}

/// How many one-liners in a row are worth a piece of their own: a few kilobytes, so that a file
/// alternating comments and puzzles is not cut into a piece for each.
const RUN_OF_ITS_OWN: usize = 64;

impl Builder {
    /// How much the piece holds before it ends at the first place it can.
    fn target(&self) -> usize {
        if self.one_liners_apart && !self.not_only_one_liners {
            ONE_LINERS_TARGET
        } else {
            PIECE_TARGET
        }
    }

    /// The line just pushed, at `line_start` of the text, the `line`th of the input, ends as
    /// `end` says.
    fn note(&mut self, end: LineEnd, line_start: usize, line: usize) {
        if end != LineEnd::OneLiner {
            self.not_only_one_liners = true;
            self.run = None;
        } else if self.not_only_one_liners {
            let run = self.run.get_or_insert(OneLinerRun {
                cut: None,
                lines: 0,
            });
            run.lines += 1;
            if run.lines == 2 {
                run.cut = Some((line_start, line - 1));
            }
        }
    }

    /// Where to cut the piece so that a long run of one-liners is a piece of its own (see
    /// [`OneLinerRun`]); never in text that was not UTF-8 (its bytes are kept whole).
    fn one_liners_from(&self) -> Option<(usize, usize)> {
        let run = self.run?;
        let long = run.lines >= RUN_OF_ITS_OWN && self.one_liners_apart;
        (long && self.raw.is_none()).then_some(run.cut).flatten()
    }

    /// The piece up to `at` of its text, the first `lines` lines of the input, parsed; the
    /// builder keeps the rest, one-liners alone.
    fn take_head(&mut self, cutter: &mut Pieces, (at, lines): (usize, usize)) -> Piece {
        let rest = self.text.split_off(at);
        let rest_cuts = self
            .cuts
            .iter()
            .filter(|&&cut| cut > at)
            .map(|cut| cut - at);
        let rest_cuts = rest_cuts.collect();
        self.cuts.retain(|&cut| cut < at);
        let head = self.take(cutter, lines);
        self.text = rest;
        self.cuts = rest_cuts;
        head
    }

    /// The text so far could end a piece: note the place if the part before it is long enough.
    fn may_cut(&mut self) {
        let last = self.cuts.last().copied().unwrap_or(0);
        if self.text.len() - last >= PART_TARGET {
            self.cuts.push(self.text.len());
        }
    }

    /// Add one line read at byte `at` of the input.
    fn push(&mut self, line: &[u8], at: u64) {
        match std::str::from_utf8(line) {
            Ok(text) => {
                if let Some(raw) = &mut self.raw {
                    raw.extend_from_slice(line);
                }
                self.text.push_str(text);
            }
            Err(e) => {
                let valid = e.valid_up_to();
                let here = (at + valid as u64, self.base + self.text.len() + valid);
                self.invalid.get_or_insert(here);
                // Until now the piece was UTF-8: its text is its bytes.
                let raw = self
                    .raw
                    .get_or_insert_with(|| self.text.as_bytes().to_vec());
                raw.extend_from_slice(line);
                self.text.push_str(&String::from_utf8_lossy(line));
            }
        }
    }

    /// Pass over a line of `length` bytes that no piece holds, the `line`th of the input.
    fn skip(&mut self, length: u64, line: usize) {
        self.base += length as usize;
        self.lines_before = line;
        self.not_only_one_liners = false;
        self.run = None;
    }

    /// The piece read so far, parsed; the builder starts the next one after it.
    fn take(&mut self, cutter: &mut Pieces, lines_read: usize) -> Piece {
        let text = std::mem::take(&mut self.text);
        let cuts = std::mem::take(&mut self.cuts);
        let only_one_liners = !std::mem::take(&mut self.not_only_one_liners) && !text.is_empty();
        self.run = None;
        let (document, one_liners) = if only_one_liners && self.one_liners_apart {
            (Document::default(), Some(cutter.part_parser()))
        } else {
            (parse_in_parts(cutter, &text, self.base, &cuts), None)
        };
        let piece = Piece {
            base: self.base,
            first_line: self.lines_before + 1,
            lines: lines_read - self.lines_before,
            document,
            raw: self.raw.take(),
            invalid: self.invalid.take(),
            text,
            one_liners,
        };
        self.base += piece.text.len();
        self.lines_before = lines_read;
        piece
    }
}

/// A piece shorter than this is parsed whole on the calling thread: starting the pool's threads
/// costs more (a millisecond or two) than parsing a few thousand lines.
const IN_PARTS_FROM: usize = 256 * 1024;

/// Parse the piece `text`, found at byte `base` of the input, in the parts `cuts` makes of it
/// (places where it could have ended), on every core: the document of a parse of it whole.
fn parse_in_parts(cutter: &mut Pieces, text: &str, base: usize, cuts: &[usize]) -> Document {
    if cuts.is_empty() || text.len() < IN_PARTS_FROM || !cutter.settled() {
        return cutter.parse(text, base);
    }
    let mut parts = Vec::with_capacity(cuts.len() + 1);
    let mut start = 0;
    for &end in cuts.iter().chain([&text.len()]) {
        parts.push((start, &text[start..end]));
        start = end;
    }
    let cutter = &*cutter;
    let documents = parts
        .par_iter()
        .map(|&(start, part)| cutter.parse_part(part, base + start))
        .collect();
    cutter.join(documents)
}

/// Read one line, with its line break (`\n`, `\r\n`, or a lone `\r`, as the parser counts
/// them), into `out`; the number of bytes read, 0 at the end. A line longer than `MAX_LINE` is
/// an error of kind `FileTooLarge`, and is not read further.
fn read_line(reader: &mut impl BufRead, out: &mut Vec<u8>) -> std::io::Result<usize> {
    loop {
        let buffer = reader.fill_buf()?;
        if out.last() == Some(&b'\r') {
            // A `\r` ended the last buffer: the line ends there, with a `\n` if one follows.
            if buffer.first() == Some(&b'\n') {
                out.push(b'\n');
                reader.consume(1);
            }
            return Ok(out.len());
        }
        if buffer.is_empty() {
            return Ok(out.len());
        }
        let (taken, complete) = match memchr::memchr2(b'\n', b'\r', buffer) {
            Some(at) => (at + 1, buffer[at] == b'\n'),
            None => (buffer.len(), false),
        };
        out.extend_from_slice(&buffer[..taken]);
        reader.consume(taken);
        if out.len() > MAX_LINE {
            return Err(std::io::ErrorKind::FileTooLarge.into());
        }
        if complete {
            return Ok(out.len());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(input: &[u8], buffer: usize) -> Vec<Vec<u8>> {
        let mut reader = BufReader::with_capacity(buffer, input);
        let mut out = Vec::new();
        loop {
            let mut line = Vec::new();
            if read_line(&mut reader, &mut line).unwrap() == 0 {
                return out;
            }
            out.push(line);
        }
    }

    #[test]
    fn lines_end_at_every_kind_of_break_however_the_reads_fall() {
        let input = b"a\r\nb\rc\n\rd";
        for buffer in 1..input.len() + 1 {
            let lines = lines_of(input, buffer);
            let expected: Vec<&[u8]> = vec![b"a\r\n", b"b\r", b"c\n", b"\r", b"d"];
            assert_eq!(lines, expected, "buffer of {buffer}");
        }
    }

    #[test]
    fn a_line_past_the_limit_is_an_error() {
        let long = vec![b'1'; MAX_LINE + 10];
        let mut reader = BufReader::new(&long[..]);
        let error = read_line(&mut reader, &mut Vec::new()).unwrap_err();
        assert_eq!(error.kind(), std::io::ErrorKind::FileTooLarge);
    }

    /// A piece's first line and text, or (line 0) a long line's parts joined.
    type Handed = (usize, Vec<u8>);

    /// What `chunks` hands on, in order.
    fn chunked(input: &[u8]) -> (Vec<Handed>, Result<(), Stop>) {
        let mut out: Vec<Handed> = Vec::new();
        let read = chunks(input, u64::MAX, false, |chunk| match chunk {
            Chunk::Piece(piece) => out.push((piece.first_line, piece.text.into_bytes())),
            Chunk::Long(part) => match out.last_mut() {
                Some((0, long)) => long.extend_from_slice(part),
                _ => out.push((0, part.to_vec())),
            },
        });
        (out, read)
    }

    #[test]
    fn a_long_line_is_handed_on_whole_between_pieces() {
        let long = "x".repeat(MAX_LINE + 70_000) + "\r\n";
        let input = format!("1.\n{long}.2\n");
        let (out, read) = chunked(input.as_bytes());
        assert!(read.is_ok());
        let lines: Vec<usize> = out.iter().map(|(line, _)| *line).collect();
        assert_eq!(
            lines,
            [1, 0, 3],
            "the piece, the long line, the piece after it"
        );
        assert_eq!(out[1].1, long.as_bytes());
        let whole: Vec<u8> = out.into_iter().flat_map(|(_, text)| text).collect();
        assert!(whole == input.as_bytes());
    }

    #[test]
    fn a_long_line_of_binary_data_stops_the_reading() {
        let mut input = b"1.\n".to_vec();
        input.extend(vec![0; MAX_LINE + 10]);
        let (_, read) = chunked(&input);
        assert!(
            matches!(read, Err(Stop::BinaryLine { line: 2 })),
            "{read:?}"
        );
    }

    #[test]
    fn edits_are_made_in_the_bytes_on_lines_that_were_utf8() {
        let input = b"# caf\xe9 .\r\n1.\n";
        let mut piece = None;
        pieces(&input[..], u64::MAX, |p| piece = Some(p)).unwrap();
        let piece = piece.unwrap();
        let dot = |n: usize| piece.text.match_indices('.').nth(n).unwrap().0;
        let edit = |at: usize| Edit {
            span: Span::new(at, at + 1),
            text: "2".into(),
        };
        // The first dot shares its line with the bad byte: left out; the second is not.
        let (bytes, left_out) = piece.edited(&[edit(dot(0)), edit(dot(1))]);
        assert_eq!(left_out, 1);
        assert_eq!(bytes, b"# caf\xe9 .\r\n12\n");
    }

    const LINE: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";

    #[test]
    fn a_piece_parsed_in_parts_is_the_piece_parsed_whole() {
        // Problems all the way through (more than are kept), so that every part has some.
        let mut text = String::new();
        for i in 0..20_000 {
            text.push_str(match i % 50 {
                7 => "1.3\n",
                8 => "not a row at all\n",
                9 => "\n",
                _ => LINE,
            });
        }
        let mut first = None;
        pieces_keeping(text.as_bytes(), u64::MAX, 100, false, |piece| {
            first.get_or_insert(piece);
        })
        .unwrap();
        let piece = first.unwrap();
        assert!(piece.text.len() >= PIECE_TARGET && piece.one_liners.is_none());
        let whole = crate::format::parse_keeping(&piece.text, 100);
        let debug = |document: &Document| {
            format!(
                "{:?} {:?} {:?}",
                document.puzzles, document.problems, document.unkept
            )
        };
        assert_eq!(debug(&piece.document), debug(&whole));
        assert_eq!(piece.document.problems.len(), 100, "the first 100 errors");
        assert!(
            piece.document.unkept.errors > 100,
            "{:?}",
            piece.document.unkept
        );
    }

    #[test]
    fn pieces_of_one_liners_alone_are_left_unparsed_when_asked() {
        let text = LINE.repeat(30_000) + "1.3\n" + &LINE.repeat(100);
        let read = |apart: bool| {
            let mut seen = Vec::new();
            pieces_keeping(text.as_bytes(), u64::MAX, 10, apart, |piece| {
                let lines = piece
                    .one_liners
                    .as_ref()
                    .map(|_| piece.one_liner_lines().len());
                seen.push((lines, piece.document.puzzles.len()));
            })
            .unwrap();
            seen
        };
        let apart = read(true);
        assert!(apart.len() >= 4, "{apart:?}");
        // The piece with the short row is parsed, up to the one-liner after it; the 99 after
        // that are a piece of their own, left unparsed.
        let parsed: Vec<_> = apart.iter().filter(|(lines, _)| lines.is_none()).collect();
        assert_eq!(parsed.len(), 1, "{apart:?}");
        assert_eq!(apart[apart.len() - 2].0, None, "{apart:?}");
        assert_eq!(apart.last().unwrap().0, Some(99), "{apart:?}");
        assert!(apart
            .iter()
            .all(|&(lines, parsed)| lines.is_none() || (lines > Some(0) && parsed == 0)));
        let lines: usize = apart.iter().filter_map(|(lines, _)| *lines).sum();
        assert_eq!(lines + parsed[0].1, 30_100);
        assert!(read(false).iter().all(|&(lines, _)| lines.is_none()));
    }

    #[test]
    fn a_reader_a_piece_ahead_hands_on_the_same_pieces_in_order() {
        let text = (LINE.repeat(5_000) + "# a comment\n").repeat(3) + "1.3\n";
        let read = |ahead: bool| {
            let mut seen = Vec::new();
            let each = |piece: Piece| {
                let parsed = piece.document.puzzles.len();
                seen.push((piece.base, piece.lines, piece.one_liners.is_some(), parsed));
            };
            let input = text.as_bytes();
            match ahead {
                true => pieces_keeping_ahead(input, u64::MAX, 10, true, each),
                false => pieces_keeping(input, u64::MAX, 10, true, each),
            }
            .unwrap();
            seen
        };
        let ahead = read(true);
        assert!(ahead.len() >= 6, "{ahead:?}");
        assert_eq!(ahead, read(false));
        let lines: usize = ahead.iter().map(|&(_, lines, ..)| lines).sum();
        assert_eq!(lines, 15_004);
    }

    #[test]
    fn byte_counts_read_as_people_write_them() {
        assert_eq!(bytes(1 << 20), "1 MiB");
        assert_eq!(bytes(3 << 30), "3 GiB");
        assert_eq!(bytes(1000), "1000 bytes");
    }
}
