//! LZ-String's base64 form, the payload of f-puzzles and SudokuPad links.
//!
//! Decompression is our own: LZ-String's output can grow quadratically in its input (a payload
//! of 8 KB decodes to ten million characters), and `lz-str` has no output limit. This decoder
//! keeps its dictionary as (prefix entry, last unit) pairs, so its memory is linear in the
//! input, and stops at [`OUTPUT_CAP`] UTF-16 units with an error. Compression is `lz-str`'s,
//! with the padding JavaScript's `compressToBase64` writes.
//!
//! What a link may have done to a payload on its way here is undone first (see `clean`).

use std::fmt;

/// The most UTF-16 units a payload may decompress to: far above any real puzzle (Rangsk's 40
/// f-puzzles payloads decode to at most 5,827), far below what would hurt an editor.
pub const OUTPUT_CAP: usize = 4 * 1024 * 1024;

/// Why a payload does not decompress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LzError {
    /// A character that is no base64 (at this character of the payload as given).
    NotBase64 { at: usize, found: char },
    /// `=` padding followed by more payload.
    PaddingInside { at: usize },
    /// The payload is empty.
    Empty,
    /// The payload ends before its end marker: it was cut short.
    Truncated,
    /// A code that names no dictionary entry: the payload is damaged.
    BadCode { code: u64 },
    /// The text would be longer than [`OUTPUT_CAP`].
    TooLong,
    /// The decompressed units are no text (a lone surrogate).
    NotText,
}

impl fmt::Display for LzError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LzError::NotBase64 { at, found } => write!(
                f,
                "character {} of the payload, {found:?}, is not base64",
                at + 1
            ),
            LzError::PaddingInside { at } => write!(
                f,
                "character {} of the payload: '=' padding with more payload after it",
                at + 1
            ),
            LzError::Empty => write!(f, "the payload is empty"),
            LzError::Truncated => write!(f, "the payload is cut short (it ends before its end mark)"),
            LzError::BadCode { code } => {
                write!(f, "the payload is damaged (code {code} names nothing)")
            }
            LzError::TooLong => write!(
                f,
                "the payload decompresses to more than {OUTPUT_CAP} characters: no puzzle is that long"
            ),
            LzError::NotText => write!(f, "the payload decompresses to no text (a lone surrogate)"),
        }
    }
}

impl std::error::Error for LzError {}

/// `LZString.decompressFromBase64`, bounded: the text, or why there is none.
pub fn decompress_from_base64(payload: &str) -> Result<String, LzError> {
    let values = clean(payload)?;
    if values.is_empty() {
        return Err(LzError::Empty);
    }
    let units = decompress(&values, OUTPUT_CAP)?;
    String::from_utf16(&units).map_err(|_| LzError::NotText)
}

/// `LZString.compressToBase64`, padded to a multiple of 4 as JavaScript pads it (lz-str ends
/// some payloads with one `=` too many; f-puzzles' own are always 4n long).
pub fn compress_to_base64(text: &str) -> String {
    let mut out = lz_str::compress_to_base64(text);
    out.truncate(out.trim_end_matches('=').len());
    let padding = match out.len() % 4 {
        0 => "",
        1 => "===",
        2 => "==",
        _ => "=",
    };
    out.push_str(padding);
    out
}

/// The base64 value of each character of a payload, after undoing what links do to it:
/// `%2B` `%2F` `%3D` escapes; line breaks of a wrapped link, with the blanks around them; a
/// `+` that form decoding turned into a space (a blank left); `=` padding of any length, or
/// none, and SudokuPad's padding character `\` (the 65th of its alphabet) in its place.
fn clean(payload: &str) -> Result<Vec<u8>, LzError> {
    let chars: Vec<char> = payload.trim().chars().collect();
    let mut values = Vec::with_capacity(chars.len());
    let mut padding_at = None;
    let mut i = 0;
    while i < chars.len() {
        let (ch, used) = unescape(&chars[i..]);
        let at = i;
        i += used;
        if ch == '\n' || ch == '\r' {
            // A wrapped link: the blanks that end this line and start the next are no payload.
            while values.last() == Some(&SPACE_MARK) {
                values.pop();
            }
            while i < chars.len() && chars[i].is_whitespace() {
                i += 1;
            }
            continue;
        }
        if ch == '=' || ch == '\\' {
            padding_at.get_or_insert(at);
            continue;
        }
        let value = if ch == ' ' {
            SPACE_MARK
        } else {
            base64_value(ch).ok_or(LzError::NotBase64 { at, found: ch })?
        };
        if let Some(at) = padding_at {
            return Err(LzError::PaddingInside { at });
        }
        values.push(value);
    }
    // A blank left inside is a `+` that form decoding turned into a space.
    for value in &mut values {
        if *value == SPACE_MARK {
            *value = 62;
        }
    }
    Ok(values)
}

/// Stands for a blank while cleaning (no base64 value is this high).
const SPACE_MARK: u8 = 255;

/// The character at the start of `rest`, with a `%2B`, `%2F` or `%3D` escape undone, and how
/// many characters it took.
fn unescape(rest: &[char]) -> (char, usize) {
    if rest.len() >= 3 && rest[0] == '%' {
        let code: String = rest[1..3].iter().collect::<String>().to_ascii_uppercase();
        match code.as_str() {
            "2B" => return ('+', 3),
            "2F" => return ('/', 3),
            "3D" => return ('=', 3),
            _ => {}
        }
    }
    (rest[0], 1)
}

fn base64_value(ch: char) -> Option<u8> {
    let value = match ch {
        'A'..='Z' => ch as u32 - 'A' as u32,
        'a'..='z' => ch as u32 - 'a' as u32 + 26,
        '0'..='9' => ch as u32 - '0' as u32 + 52,
        '+' => 62,
        '/' => 63,
        _ => return None,
    };
    Some(value as u8)
}

/// Reads the payload's bits as LZ-String does: six a character, lowest first within each
/// code, and zeros past the end (as JavaScript's `undefined & bit` is 0).
struct Bits<'a> {
    values: &'a [u8],
    index: usize,
    /// The bit of the current character to read next (32 down to 1).
    position: u8,
}

impl Bits<'_> {
    fn read(&mut self, count: u32) -> u64 {
        let mut bits = 0u64;
        for power in 0..count {
            let value = self.values.get(self.index).copied().unwrap_or(0);
            if value & self.position != 0 {
                bits |= 1 << power;
            }
            self.position >>= 1;
            if self.position == 0 {
                self.position = 32;
                self.index += 1;
            }
        }
        bits
    }

    /// Whether every character has been read (and more bits would be zeros made up).
    fn exhausted(&self) -> bool {
        self.index >= self.values.len()
    }
}

/// One dictionary entry: its text is `prefix`'s followed by `last`.
#[derive(Clone, Copy)]
struct Entry {
    prefix: u32,
    last: u16,
    first: u16,
    len: u32,
}

/// No prefix: a one-unit entry.
const NONE: u32 = u32::MAX;

struct Dictionary {
    entries: Vec<Entry>,
}

impl Dictionary {
    fn new() -> Dictionary {
        // Codes 0, 1 and 2 are the literal markers and the end mark, never entries.
        let unused = Entry {
            prefix: NONE,
            last: 0,
            first: 0,
            len: 0,
        };
        Dictionary {
            entries: vec![unused; 3],
        }
    }

    fn len(&self) -> u64 {
        self.entries.len() as u64
    }

    fn add_unit(&mut self, unit: u16) -> u32 {
        self.push(Entry {
            prefix: NONE,
            last: unit,
            first: unit,
            len: 1,
        })
    }

    /// Add the text of entry `prefix` followed by `last`.
    fn add_after(&mut self, prefix: u32, last: u16) -> u32 {
        let base = self.entries[prefix as usize];
        self.push(Entry {
            prefix,
            last,
            first: base.first,
            len: base.len + 1,
        })
    }

    fn push(&mut self, entry: Entry) -> u32 {
        self.entries.push(entry);
        (self.entries.len() - 1) as u32
    }

    /// Append entry `id`'s text to `out`, walking its prefixes from the end.
    fn write(&self, id: u32, out: &mut Vec<u16>, cap: usize) -> Result<(), LzError> {
        let len = self.entries[id as usize].len as usize;
        if out.len() + len > cap {
            return Err(LzError::TooLong);
        }
        let start = out.len();
        out.resize(start + len, 0);
        let mut at = start + len;
        let mut id = id;
        while id != NONE {
            let entry = self.entries[id as usize];
            at -= 1;
            out[at] = entry.last;
            id = entry.prefix;
        }
        Ok(())
    }
}

/// LZ-String's `_decompress` over base64 values, with entries as prefix pairs, stopping past
/// `cap` units.
fn decompress(values: &[u8], cap: usize) -> Result<Vec<u16>, LzError> {
    let mut bits = Bits {
        values,
        index: 0,
        position: 32,
    };
    let mut dictionary = Dictionary::new();
    let mut out = Vec::new();
    let mut width = 3u32;
    let mut enlarge_in = 4u64;
    let first = match bits.read(2) {
        0 => bits.read(8) as u16,
        1 => bits.read(16) as u16,
        _ => return Ok(out),
    };
    let mut previous = dictionary.add_unit(first);
    dictionary.write(previous, &mut out, cap)?;
    loop {
        if bits.exhausted() {
            return Err(LzError::Truncated);
        }
        let mut code = bits.read(width);
        match code {
            0 | 1 => {
                let unit = bits.read(if code == 0 { 8 } else { 16 }) as u16;
                code = dictionary.add_unit(unit) as u64;
                enlarge_in -= 1;
            }
            2 => return Ok(out),
            _ => {}
        }
        if enlarge_in == 0 {
            enlarge_in = 1 << width;
            width += 1;
        }
        let entry = if code < dictionary.len() {
            let entry = code as u32;
            let first = dictionary.entries[entry as usize].first;
            dictionary.add_after(previous, first);
            entry
        } else if code == dictionary.len() {
            // The entry being made now: the previous text and its own first unit (LZ-String's
            // `w + w.charAt(0)`, which is also what it adds to the dictionary).
            let first = dictionary.entries[previous as usize].first;
            dictionary.add_after(previous, first)
        } else {
            return Err(LzError::BadCode { code });
        };
        dictionary.write(entry, &mut out, cap)?;
        enlarge_in -= 1;
        previous = entry;
        if enlarge_in == 0 {
            enlarge_in = 1 << width;
            width += 1;
        }
        // Each code adds an entry, so the width grows with the log of the payload's length:
        // past 40 bits no payload held in memory gets here.
        if width > 40 {
            return Err(LzError::BadCode { code });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::fast9::XorShift;

    /// Text of every kind of unit: ASCII, Latin, CJK, emoji (surrogate pairs), runs that
    /// repeat (so the dictionary's long entries are used).
    fn random_text(rng: &mut XorShift) -> String {
        const PIECES: [&str; 8] = [
            "a",
            "{\"cells\":[\"R1C1\"]}",
            "é",
            "数独",
            "🧩",
            " ",
            "R9C9",
            "\n",
        ];
        let len = rng.below(300);
        (0..len).map(|_| PIECES[rng.below(PIECES.len())]).collect()
    }

    #[test]
    fn round_trips_through_lz_str_both_ways() {
        let mut rng = XorShift::new(31);
        for _ in 0..500 {
            let text = random_text(&mut rng);
            let ours = compress_to_base64(&text);
            assert_eq!(ours.len() % 4, 0, "{ours}");
            assert_eq!(decompress_from_base64(&ours).as_deref(), Ok(text.as_str()));
            let theirs = lz_str::compress_to_base64(text.as_str());
            assert_eq!(
                decompress_from_base64(&theirs).as_deref(),
                Ok(text.as_str())
            );
            let back =
                lz_str::decompress_from_base64(&ours).and_then(|u| String::from_utf16(&u).ok());
            assert_eq!(back, Some(text));
        }
    }

    #[test]
    fn padding_escapes_and_wrapping_are_undone() {
        let text = r#"{"size":9,"title":"Blitz ✓","grid":[[{}]]}"#;
        let payload = compress_to_base64(text);
        let bare = payload.trim_end_matches('=');
        let escaped = payload
            .replace('+', "%2B")
            .replace('/', "%2f")
            .replace('=', "%3D");
        let spaced = payload.replace('+', " ");
        let wrapped = format!("{}\n    {}", &payload[..10], &payload[10..]);
        let backslash = format!("{bare}\\");
        for form in [
            bare.to_string(),
            format!("{bare}="),
            format!("{bare}===="),
            escaped,
            wrapped,
            backslash,
        ] {
            assert_eq!(decompress_from_base64(&form).as_deref(), Ok(text), "{form}");
        }
        if payload.contains('+') {
            assert_eq!(decompress_from_base64(&spaced).as_deref(), Ok(text));
        }
    }

    #[test]
    fn damaged_payloads_are_errors_not_panics() {
        let text = r#"{"size":9,"killercage":[{"cells":["R1C1","R1C2"],"value":"3"}]}"#.repeat(3);
        let payload = compress_to_base64(&text);
        // The last characters may hold nothing but the end mark and zero bits: cut deeper.
        let bare = payload.trim_end_matches('=');
        for end in 0..bare.len() - 4 {
            let cut = &payload[..end];
            assert_ne!(
                decompress_from_base64(cut).as_deref(),
                Ok(text.as_str()),
                "{cut}"
            );
        }
        let mut rng = XorShift::new(7);
        for _ in 0..2000 {
            let mut bytes = payload.clone().into_bytes();
            let at = rng.below(bytes.len());
            bytes[at] = b"ABCxyz019+/"[rng.below(11)];
            let _ = decompress_from_base64(std::str::from_utf8(&bytes).unwrap());
            let garbage: String = (0..rng.below(64))
                .map(|_| (b'+' + rng.below(80) as u8) as char)
                .collect();
            let _ = decompress_from_base64(&garbage);
        }
        assert_eq!(decompress_from_base64(""), Err(LzError::Empty));
        assert_eq!(decompress_from_base64("==="), Err(LzError::Empty));
        assert_eq!(
            decompress_from_base64("N4Ig!zgl"),
            Err(LzError::NotBase64 { at: 4, found: '!' })
        );
        assert_eq!(
            decompress_from_base64("N4=Ig"),
            Err(LzError::PaddingInside { at: 2 })
        );
    }

    #[test]
    fn output_is_capped() {
        // A run of one letter: its payload is short, its text as long as we like.
        let long = "a".repeat(OUTPUT_CAP + 1);
        let payload = compress_to_base64(&long);
        assert!(payload.len() < 20_000, "{}", payload.len());
        assert_eq!(decompress_from_base64(&payload), Err(LzError::TooLong));
        let values = clean(&payload).unwrap();
        assert_eq!(decompress(&values, 1000), Err(LzError::TooLong));
        let fits = "a".repeat(OUTPUT_CAP);
        let decoded = decompress_from_base64(&compress_to_base64(&fits)).unwrap();
        assert_eq!(decoded.len(), OUTPUT_CAP);
    }
}
