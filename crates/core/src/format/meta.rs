//! Metadata lines (`# key: value`): recognising them, checking their values, and the scope
//! (file or puzzle) they apply in.

use super::metadata::{Entry, Metadata};
use super::rules::{Diagonals, Keyword, Rule, Value};
use crate::finding::{Code, Finding, Related, Span};
use crate::grid::{Size, Variant};

/// The keys we know, in the order the docs list them.
pub(crate) const KNOWN_KEYS: [&str; 6] =
    ["title", "author", "source", "difficulty", "variant", "size"];

/// A comment line in `# key: value` form: the key as written, and the trimmed value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyValue<'a> {
    pub key: &'a str,
    pub value: &'a str,
}

/// Read a whole-line comment as `# key: value`, if it has that form and its key is metadata's:
/// `#`, optional whitespace, a single word key (`[A-Za-z][A-Za-z0-9_-]*`) that is a known key
/// or a likely typo of one (`known_key_like`), optional whitespace, `:`, then whitespace or the
/// end of the line. Requiring whitespace after the colon keeps `# https://…` a plain comment,
/// and requiring a key like ours keeps prose (`# Note: …`, `# Solved in: 5 min`) one.
pub fn key_value(line: &str) -> Option<KeyValue<'_>> {
    let kv = key_value_form(line)?;
    known_key_like(kv.key).is_some().then_some(kv)
}

/// The known key that `key` is (any case), or is one edit from (a letter left out, added,
/// changed or two swapped: `titel`, `autor`, `sise`); two edits for `difficulty`.
pub(crate) fn known_key_like(key: &str) -> Option<&'static str> {
    let key = key.to_ascii_lowercase();
    KNOWN_KEYS.into_iter().find(|known| {
        let allowed = if known.len() >= 10 { 2 } else { 1 };
        strsim::osa_distance(&key, known) <= allowed
    })
}

/// `# word: text`, whatever the word.
pub(crate) fn key_value_form(line: &str) -> Option<KeyValue<'_>> {
    let rest = line.trim_start().strip_prefix('#')?.trim_start();
    let key_len = rest
        .char_indices()
        .find(|&(i, c)| {
            !(c.is_ascii_alphabetic() || (i > 0 && (c.is_ascii_digit() || c == '_' || c == '-')))
        })
        .map_or(rest.len(), |(i, _)| i);
    if key_len == 0 {
        return None;
    }
    let (key, after) = rest.split_at(key_len);
    let after = after.trim_start().strip_prefix(':')?;
    if !(after.is_empty() || after.starts_with(char::is_whitespace)) {
        return None;
    }
    Some(KeyValue {
        key,
        value: after.trim(),
    })
}

/// A setting that metadata may give: not given, given and usable, or given but unusable.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Setting<T> {
    #[default]
    Unset,
    Valid(T),
    Invalid,
}

impl<T: Copy> Setting<T> {
    fn or(self, outer: Setting<T>) -> Setting<T> {
        match self {
            Setting::Unset => outer,
            given => given,
        }
    }
    pub(crate) fn valid(self) -> Option<T> {
        match self {
            Setting::Valid(t) => Some(t),
            _ => None,
        }
    }
}

/// The metadata of one scope (the file, or one puzzle's header), with variant and size read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Scope {
    pub meta: Metadata,
    pub variant: Setting<Variant>,
    pub size: Setting<Size>,
    /// The spans of the metadata lines with a known key, for "applies to no puzzle" warnings.
    pub lines: Vec<Span>,
    /// Whether a constraint line applies that the engine does not solve yet, or one that is
    /// wrong: the puzzles under it are not read (its finding says why), as with an unknown
    /// variant.
    pub unsolved: bool,
    /// Houses that constraint lines add (`diagonal \`, `diagonal /`, `windoku`, `disjoint`),
    /// whatever the variant: a file's and a puzzle's together.
    pub houses: Variant,
    /// The other constraint lines, as read: the file's then the puzzle's. They become a
    /// puzzle's `rules` once its size is known (`constraints::resolve`).
    pub rules: Vec<Rule>,
}

impl Scope {
    /// This scope's entries over `outer`'s: what a puzzle with this header sees.
    pub(crate) fn over(&self, outer: &Scope) -> Scope {
        let pick =
            |inner: &Option<Entry>, outer: &Option<Entry>| inner.clone().or_else(|| outer.clone());
        let (m, o) = (&self.meta, &outer.meta);
        Scope {
            meta: Metadata {
                title: pick(&m.title, &o.title),
                author: pick(&m.author, &o.author),
                source: pick(&m.source, &o.source),
                difficulty: pick(&m.difficulty, &o.difficulty),
                variant: pick(&m.variant, &o.variant),
                size: pick(&m.size, &o.size),
            },
            variant: self.variant.or(outer.variant),
            size: self.size.or(outer.size),
            lines: Vec::new(),
            unsolved: self.unsolved || outer.unsolved,
            houses: self.houses.with(outer.houses),
            rules: outer.rules.iter().chain(&self.rules).cloned().collect(),
        }
    }

    /// The variant of a puzzle under this scope: the metadata's (classic if none), with the
    /// houses its constraint lines add.
    pub(crate) fn puzzle_variant(&self) -> Variant {
        self.variant.valid().unwrap_or_default().with(self.houses)
    }

    /// Add one constraint line, as `rules::read` read it. `diagonal` (both diagonals) is the
    /// diagonal variant (so a header's `# variant: classic` overrides a file's `diagonal`);
    /// one diagonal, `windoku` and `disjoint` add their houses; the other constraints (regions
    /// of the puzzle's own too) are the puzzle's rules.
    pub(crate) fn add_rule(
        &mut self,
        read: Result<Rule, Finding>,
        span: Span,
        problems: &mut Vec<Finding>,
    ) {
        match read {
            Ok(rule) if rule.keyword == Keyword::Diagonal && rule.value.is_none() => {
                self.variant = Setting::Valid(Variant::Diagonal);
                self.lines.push(span);
            }
            Ok(rule) => match houses(&rule) {
                Some(added) => {
                    self.houses = self.houses.with(added);
                    self.lines.push(span);
                }
                None => {
                    self.rules.push(rule);
                    self.lines.push(span);
                }
            },
            // A wrong constraint line leaves the puzzle's rules unknown; metadata written
            // without its `#` does not.
            Err(wrong) => {
                self.unsolved |= wrong.code != Code::BadMetadata;
                problems.push(wrong);
            }
        }
    }

    /// Add one metadata line (a later entry for the same key wins). Unknown keys and unusable
    /// values become findings.
    pub(crate) fn add(&mut self, kv: KeyValue<'_>, span: Span, problems: &mut Vec<Finding>) {
        let entry = Entry {
            value: kv.value.to_string(),
            span,
        };
        let key = kv.key.to_ascii_lowercase();
        let slot = match key.as_str() {
            "title" => &mut self.meta.title,
            "author" => &mut self.meta.author,
            "source" => &mut self.meta.source,
            "difficulty" => &mut self.meta.difficulty,
            "variant" => {
                self.variant = match Variant::parse(kv.value) {
                    Some(v) => Setting::Valid(v),
                    None => {
                        problems.push(bad_variant(kv.value, span));
                        Setting::Invalid
                    }
                };
                &mut self.meta.variant
            }
            "size" => {
                self.size = match parse_size(kv.value) {
                    Some(s) => Setting::Valid(s),
                    None => {
                        problems.push(bad_size(kv.value, span));
                        Setting::Invalid
                    }
                };
                &mut self.meta.size
            }
            _ => {
                problems.push(unknown_key(kv.key, known_key_like(kv.key), span));
                return;
            }
        };
        if let Some(earlier) = slot.as_ref() {
            problems.push(given_twice(&key, earlier.span, span));
        }
        *slot = Some(entry);
        self.lines.push(span);
    }
}

/// The two messages of a key given twice: the warning's and its related place's.
macro_rules! twice {
    ($key:literal) => {
        (
            concat!(
                "'",
                $key,
                "' is given twice for the same puzzles; this later value is the one used"
            ),
            concat!("the earlier '", $key, "'"),
        )
    };
}

/// Read a size value: `9`, `9x9` or `9×9` (either side of a supported size).
pub fn parse_size(value: &str) -> Option<Size> {
    let value = value.trim();
    let mut parts = value.split(['x', 'X', '×']);
    let first = parts.next()?.trim();
    let second = parts.next().map(str::trim);
    if parts.next().is_some() {
        return None;
    }
    let side: usize = first.parse().ok()?;
    if let Some(second) = second {
        if second.parse::<usize>().ok()? != side {
            return None;
        }
    }
    Size::from_side(side)
}

fn given_twice(key: &str, earlier: Span, span: Span) -> Finding {
    // The messages are fixed for each known key (the only keys with a slot to fill twice), so
    // a file repeating a key a million times holds no copy of them.
    let (message, earlier_message): (&'static str, &'static str) = match key {
        "title" => twice!("title"),
        "author" => twice!("author"),
        "source" => twice!("source"),
        "difficulty" => twice!("difficulty"),
        "variant" => twice!("variant"),
        _ => twice!("size"),
    };
    Finding::warning(Code::BadMetadata, span, message)
        .with_related(vec![Related::new(earlier, earlier_message)])
}

/// A key one typo from a known key.
fn unknown_key(key: &str, like: Option<&str>, span: Span) -> Finding {
    let like = like.map_or(String::new(), |k| format!("did you mean '{k}'? "));
    Finding::warning(
        Code::UnknownKey,
        span,
        format!(
            "unknown metadata key '{key}': {like}the keys are {}",
            KNOWN_KEYS.join(", ")
        ),
    )
}

fn bad_variant(value: &str, span: Span) -> Finding {
    Finding::error(
        Code::BadMetadata,
        span,
        format!("unknown variant '{value}': use classic or diagonal (also written x or sudoku-x)"),
    )
}

/// The houses a constraint line adds, if it is one of those.
fn houses(rule: &Rule) -> Option<Variant> {
    match (rule.keyword, &rule.value) {
        (Keyword::Diagonal, Some(Value::Diagonals(Diagonals::Main, _))) => {
            Some(Variant::MAIN_DIAGONAL)
        }
        (Keyword::Diagonal, Some(Value::Diagonals(Diagonals::Anti, _))) => {
            Some(Variant::ANTI_DIAGONAL)
        }
        (Keyword::Windoku, None) => Some(Variant::WINDOKU),
        (Keyword::Disjoint, None) => Some(Variant::DISJOINT),
        _ => None,
    }
}

fn bad_size(value: &str, span: Span) -> Finding {
    Finding::error(
        Code::BadMetadata,
        span,
        format!(
            "unsupported size '{value}': a size is {} (written 9, 9x9 or 9×9)",
            Size::supported_sides(),
        ),
    )
}

/// The warning for metadata that no puzzle picks up.
pub(crate) fn applies_to_no_puzzle(span: Span, file_has_puzzles: bool) -> Finding {
    let message = if file_has_puzzles {
        "this metadata applies to no puzzle: put it directly above a puzzle (no blank line between) \
         to describe that puzzle, or at the top of the file followed by a blank line to describe every puzzle"
    } else {
        "this metadata applies to no puzzle: the file has no puzzle yet"
    };
    Finding::warning(Code::BadMetadata, span, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_value_form() {
        let kv = key_value("# Title :  Easy one  ").unwrap();
        assert_eq!((kv.key, kv.value), ("Title", "Easy one"));
        assert_eq!(key_value("#size:").unwrap().value, "");
        assert_eq!(key_value("  #titel:\tv").unwrap().key, "titel");
        assert_eq!(key_value("  #x-2_b:\tv"), None);
        assert_eq!(key_value("# https://example.com"), None);
        assert_eq!(key_value("# This puzzle has: a conflict"), None);
        assert_eq!(key_value("# 9x9: no"), None);
        assert_eq!(key_value("# just a comment"), None);
        assert_eq!(key_value("#"), None);
    }

    #[test]
    fn prose_is_no_metadata_but_a_typo_of_a_key_is() {
        for prose in [
            "# Note: conflict in row A",
            "# TODO: rate it",
            "# Solved in: 5 minutes",
            "# Date: 2024-01-01",
            "# Name: Ann",
            "# Type: classic",
        ] {
            assert_eq!(key_value(prose), None, "{prose}");
        }
        for (typo, key) in [
            ("titel", "title"),
            ("Autor", "author"),
            ("sise", "size"),
            ("varient", "variant"),
            ("dificulty", "difficulty"),
            ("difficutly", "difficulty"),
            ("sources", "source"),
        ] {
            assert_eq!(known_key_like(typo), Some(key), "{typo}");
        }
    }

    #[test]
    fn a_key_given_twice_has_fixed_messages_naming_it() {
        for key in KNOWN_KEYS {
            let f = given_twice(key, Span::new(0, 1), Span::new(2, 3));
            let expected = format!(
                "'{key}' is given twice for the same puzzles; this later value is the one used"
            );
            assert_eq!(f.message, expected);
            assert!(matches!(f.message, std::borrow::Cow::Borrowed(_)));
            assert_eq!(f.related[0].message, format!("the earlier '{key}'"));
            assert_eq!(f.related[0].span, Span::new(0, 1));
        }
    }

    #[test]
    fn sizes() {
        for (text, side) in [
            ("9", 9),
            ("9x9", 9),
            (" 16 × 16 ", 16),
            ("4X4", 4),
            ("25", 25),
            ("7", 7),
        ] {
            assert_eq!(parse_size(text).map(Size::side), Some(side), "{text}");
        }
        for text in ["", "17", "9x6", "x", "9x9x9", "nine", "-9"] {
            assert_eq!(parse_size(text), None, "{text}");
        }
    }
}
