//! A constraint string cut into its items: `.Type~arg~arg`, each with the character it starts
//! at, whitespace left out as sigh's own reader leaves it out, and composites (`.Or` … `.End`)
//! gathered whole, since `.sudoku` has no way to say "one of these".

/// The composite types: their items up to the matching `.End` are one rule.
const COMPOSITES: [&str; 3] = ["Or", "And", "Replicate"];

/// One argument of an item, and the character it starts at (from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Arg {
    pub at: usize,
    pub text: String,
}

/// One `.Type~arg~…` item: its type (empty for givens), its arguments, and the character
/// (from 1) of its `.` in the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Item {
    pub at: usize,
    pub kind: String,
    pub args: Vec<Arg>,
}

impl Item {
    fn new(at: usize) -> Item {
        Item {
            at,
            kind: String::new(),
            args: Vec::new(),
        }
    }

    fn push(&mut self, at: usize, c: char) {
        match (c, self.args.last_mut()) {
            ('~', _) => self.args.push(Arg {
                at: at + 1,
                text: String::new(),
            }),
            (_, Some(arg)) => arg.text.push(c),
            (_, None) => self.kind.push(c),
        }
    }

    /// The item as sigh writes it: `.Cage~15~R1C1~R1C2`.
    pub(super) fn text(&self) -> String {
        let mut text = format!(".{}", self.kind);
        for arg in &self.args {
            text.push('~');
            text.push_str(&arg.text);
        }
        text
    }

    /// The arguments' texts.
    pub(super) fn arg_texts(&self) -> Vec<&str> {
        self.args.iter().map(|a| a.text.as_str()).collect()
    }

    /// Whether the item says nothing: a lone `.` (as the one after `.AntiKnight.`).
    pub(super) fn is_empty(&self) -> bool {
        self.kind.is_empty() && self.args.is_empty()
    }
}

/// What the reader makes of a stretch of the string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Entry {
    Item(Item),
    /// A composite and the items inside it, as one text (`.Or.~R1C1_1.~R1C2_1.End`).
    Composite {
        at: usize,
        kind: String,
        text: String,
    },
    /// A composite never closed, or an `.End` that closes none: the text and why.
    Unmatched {
        at: usize,
        text: String,
        why: String,
    },
}

/// The items of `text`, or why it is no constraint string (it does not start with `.`).
pub(super) fn items(text: &str) -> Result<Vec<Item>, String> {
    let mut items = Vec::new();
    let mut current: Option<Item> = None;
    let characters = text.chars().enumerate().map(|(i, c)| (i + 1, c));
    for (at, c) in characters.filter(|(_, c)| !c.is_whitespace()) {
        match (c, current.as_mut()) {
            ('.', _) => items.extend(current.replace(Item::new(at))),
            (_, Some(item)) => item.push(at, c),
            (_, None) => {
                return Err(format!(
                "character {at}: a sigh constraint string starts with '.' (.Type~arg~…), not {c:?}"
            ))
            }
        }
    }
    items.extend(current);
    Ok(items)
}

/// The items as entries: composites gathered up to their `.End`.
pub(super) fn entries(items: Vec<Item>) -> Vec<Entry> {
    let mut entries = Vec::new();
    let mut open: Option<(Item, String, usize)> = None;
    for item in items {
        let Some((first, text, depth)) = open.as_mut() else {
            if COMPOSITES.contains(&item.kind.as_str()) {
                open = Some((item.clone(), item.text(), 1));
            } else if item.kind == "End" {
                entries.push(Entry::Unmatched {
                    at: item.at,
                    text: item.text(),
                    why: "this .End closes no .Or, .And or .Replicate".into(),
                });
            } else {
                entries.push(Entry::Item(item));
            }
            continue;
        };
        text.push_str(&item.text());
        if COMPOSITES.contains(&item.kind.as_str()) {
            *depth += 1;
        } else if item.kind == "End" {
            *depth -= 1;
        }
        if *depth == 0 {
            entries.push(Entry::Composite {
                at: first.at,
                kind: first.kind.clone(),
                text: std::mem::take(text),
            });
            open = None;
        }
    }
    if let Some((first, text, _)) = open {
        entries.push(Entry::Unmatched {
            at: first.at,
            why: format!("this .{} is never closed by an .End", first.kind),
            text,
        });
    }
    entries
}

/// Whether `line` reads as a constraint string by its shape: a `.` first, then items each a
/// type word and `~`-separated arguments, at least one of them saying something. A grid row
/// or a one-line puzzle that starts with `.` (`..3.2.6..`, `. . 3 | …`) has items of digits
/// or `|`, and a 16×16 line written `..E..K..` lone capitals: neither is one.
pub(super) fn is_constraint_string(line: &str) -> bool {
    let Ok(items) = items(line.trim()) else {
        return false;
    };
    let says_something = |item: &Item| !item.args.is_empty() || is_type_word(&item.kind);
    items.iter().all(well_formed) && items.iter().any(says_something)
}

/// A type and arguments made only of what sigh writes in them (letters, digits, `_`, `-`,
/// `,`, `%` escapes, base64's `+`, `/` and `=`).
fn well_formed(item: &Item) -> bool {
    let type_ok = item.kind.chars().all(|c| c.is_ascii_alphabetic());
    let arg_ok = |arg: &Arg| {
        arg.text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-,%+/=".contains(c))
    };
    let lone_type = item.args.is_empty() && !item.kind.is_empty();
    type_ok && item.args.iter().all(arg_ok) && (!lone_type || is_type_word(&item.kind))
}

/// A type named without arguments (`AntiKnight`, `NoBoxes`, `Or`): two letters or more, one
/// of them small.
fn is_type_word(kind: &str) -> bool {
    kind.len() >= 2 && kind.chars().any(|c| c.is_ascii_lowercase())
}
