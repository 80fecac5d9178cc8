//! Reading one input in bounded memory: line by line, in pieces that parse on their own
//! (`format::Pieces`), with a limit on a line, on a piece that finds no place to end, and on the
//! whole input, so that an endless or hostile input (`/dev/zero`, `/dev/urandom`) gets an error
//! naming the limit instead of the machine's memory.

use std::io::{BufRead, BufReader, Read};

use crate::format::{Document, Pieces};

/// The longest line read (a 25×25 one-line puzzle is 625 characters).
pub const MAX_LINE: usize = 1 << 20;
/// The most text read without a place where a piece can end (a blank line, or a one-line
/// puzzle): what one piece can hold at most.
pub const MAX_PIECE: usize = 64 << 20;
/// Pieces end at the first place they can once they hold this much: large enough for the
/// analysis to use every core, small enough to keep memory flat.
const PIECE_TARGET: usize = 1 << 20;

/// One piece of an input, parsed.
pub struct Piece {
    /// Where the piece starts in the text as read (bad UTF-8 replaced by U+FFFD).
    pub base: usize,
    /// The 1-based number of its first line.
    pub first_line: usize,
    pub text: String,
    pub document: Document,
    /// The bytes as read, kept only when they were not UTF-8, to be written back as they were.
    pub raw: Option<Vec<u8>>,
    /// The first byte that was not UTF-8: its offset in the input, and in the text.
    pub invalid: Option<(u64, usize)>,
}

/// Why reading an input stopped before its end.
#[derive(Debug)]
pub enum Stop {
    LineTooLong { line: usize },
    NoPieceEnd { line: usize },
    TooLarge { limit: u64 },
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
    read_pieces(input, max_file, Pieces::new(), each)
}

/// `pieces`, each of whose documents keeps only its first `keep` problems and counts the
/// others (`Document::unkept`): for a reader that shows no more than that per input.
pub fn pieces_keeping(
    input: impl Read,
    max_file: u64,
    keep: usize,
    each: impl FnMut(Piece),
) -> Result<(), Stop> {
    read_pieces(input, max_file, Pieces::keeping(keep), each)
}

fn read_pieces(
    input: impl Read,
    max_file: u64,
    mut cutter: Pieces,
    mut each: impl FnMut(Piece),
) -> Result<(), Stop> {
    let mut reader = BufReader::with_capacity(1 << 16, input);
    let mut piece = Builder::default();
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
            Err(e) if e.kind() == std::io::ErrorKind::FileTooLarge => {
                break Err(Stop::LineTooLong { line: lines + 1 })
            }
            Err(e) => break Err(Stop::Io(e)),
        }
        lines += 1;
        let line_start = piece.text.len();
        piece.push(&line, read_bytes - line.len() as u64);
        if cutter.ends_piece(&piece.text, piece.base, line_start)
            && piece.text.len() >= PIECE_TARGET
        {
            each(piece.take(&mut cutter, lines));
            handed_on = true;
        } else if piece.text.len() > MAX_PIECE {
            break Err(Stop::NoPieceEnd { line: lines });
        }
    };
    if !piece.text.is_empty() || !handed_on {
        each(piece.take(&mut cutter, lines));
    }
    outcome
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
}

impl Builder {
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

    /// The piece read so far, parsed; the builder starts the next one after it.
    fn take(&mut self, cutter: &mut Pieces, lines_read: usize) -> Piece {
        let text = std::mem::take(&mut self.text);
        let document = cutter.parse(&text, self.base);
        let piece = Piece {
            base: self.base,
            first_line: self.lines_before + 1,
            document,
            raw: self.raw.take(),
            invalid: self.invalid.take(),
            text,
        };
        self.base += piece.text.len();
        self.lines_before = lines_read;
        piece
    }
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
        let (taken, complete) = match buffer.iter().position(|&b| b == b'\n' || b == b'\r') {
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

    #[test]
    fn byte_counts_read_as_people_write_them() {
        assert_eq!(bytes(1 << 20), "1 MiB");
        assert_eq!(bytes(3 << 30), "3 GiB");
        assert_eq!(bytes(1000), "1000 bytes");
    }
}
