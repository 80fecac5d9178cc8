//! Findings: what the parser and the analysis say about a document, with source spans.
//!
//! Both faces (`cli` and `lsp`) print these; neither invents its own messages.
//!
//! A file can hold a finding for every line (a million repeated `# title:` lines are a million
//! "given twice" warnings), so findings are kept small: a message that is the same every time
//! is a `&'static str` (no copy per finding), one that is made for the finding is stored without
//! spare capacity, and a finding's related places are a boxed slice, made to size (a vector's
//! first `push` gives room for four, and a vector has a capacity to store).

use std::borrow::Cow;

/// A byte range `start..end` in the source text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }
    pub fn contains(&self, offset: usize) -> bool {
        self.start <= offset && offset < self.end
    }
    /// Like `contains`, but also true at the end (a cursor just after the text).
    pub fn touches(&self, offset: usize) -> bool {
        self.start <= offset && offset <= self.end
    }
    /// Whether `other` lies wholly within this span.
    pub fn covers(&self, other: Span) -> bool {
        self.start <= other.start && other.end <= self.end
    }
    pub fn len(&self) -> usize {
        self.end - self.start
    }
    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
    Info,
    Hint,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "note",
            Severity::Hint => "hint",
        }
    }
}

/// The stable code of each kind of finding, shown to users and matched by tools.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Code {
    /// A character that is neither a cell, a separator nor a comment.
    Syntax,
    /// A grid row with the wrong number of cells.
    RowLength,
    /// A grid block with the wrong number of rows.
    BlockHeight,
    /// A digit larger than the puzzle's size.
    DigitRange,
    /// A metadata key we do not know (a warning).
    UnknownKey,
    /// A metadata value we cannot use (unknown variant, unsupported size), or metadata that
    /// applies to no puzzle.
    BadMetadata,
    /// The same digit twice in a unit.
    Conflict,
    /// A variant constraint (a cage, a thermometer, anti-knight…) that the digits placed break.
    BrokenConstraint,
    /// An empty cell where no digit fits.
    ImpossibleCell,
    /// A digit missing from a unit that fits in none of its empty cells.
    NoPlace,
    NoSolution,
    SeveralSolutions,
    /// The search ran out of budget before deciding.
    Undecided,
    /// Every cell filled, and correctly.
    Solved,
    /// A given the puzzle does not need: without it the solution is still unique.
    RedundantGiven,
    /// What a setter asks of a unique puzzle's givens: how many, minimal or not, their symmetry.
    Givens,
    /// A pencil mark that a placed digit in the same unit rules out (a hint).
    MarkRuledOut,
    /// A cell with no pencil mark left, or a unit where a digit has no mark left.
    NoMark,
    /// An entry that is not the solution's digit, or pencil marks that leave it out (only when
    /// the user asks to be checked against the solution).
    WrongEntry,
    /// The analysis itself failed (a bug); reported rather than crashing.
    Internal,
}

impl Code {
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Syntax => "syntax",
            Code::RowLength => "row-length",
            Code::BlockHeight => "block-height",
            Code::DigitRange => "digit-range",
            Code::UnknownKey => "unknown-key",
            Code::BadMetadata => "bad-metadata",
            Code::Conflict => "conflict",
            Code::BrokenConstraint => "broken-constraint",
            Code::ImpossibleCell => "impossible-cell",
            Code::NoPlace => "no-place",
            Code::NoSolution => "no-solution",
            Code::SeveralSolutions => "several-solutions",
            Code::Undecided => "undecided",
            Code::Solved => "solved",
            Code::RedundantGiven => "redundant-given",
            Code::Givens => "givens",
            Code::MarkRuledOut => "mark-ruled-out",
            Code::NoMark => "no-mark",
            Code::WrongEntry => "against-solution",
            Code::Internal => "internal",
        }
    }
}

/// A finding's text: a fixed `&'static str` or one made for it. Reads as a `str` (`Deref`,
/// `Display`); `to_string()` gives a `String`, `to_mut()` a `String` to change in place.
pub type Message = Cow<'static, str>;

/// A message as stored: a made one without spare capacity (`format!` leaves some).
fn compact(message: impl Into<Message>) -> Message {
    let mut message = message.into();
    if let Cow::Owned(text) = &mut message {
        text.shrink_to_fit();
    }
    message
}

/// Another place in the same text that a finding points at (the other cell of a conflict).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Related {
    pub span: Span,
    pub message: Message,
}

impl Related {
    pub fn new(span: Span, message: impl Into<Message>) -> Related {
        Related {
            span,
            message: compact(message),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub severity: Severity,
    pub code: Code,
    pub message: Message,
    pub span: Span,
    /// Set with [`Finding::with_related`].
    pub related: Box<[Related]>,
}

impl Finding {
    pub fn new(severity: Severity, code: Code, span: Span, message: impl Into<Message>) -> Finding {
        Finding {
            severity,
            code,
            message: compact(message),
            span,
            related: Box::default(),
        }
    }
    pub fn error(code: Code, span: Span, message: impl Into<Message>) -> Finding {
        Finding::new(Severity::Error, code, span, message)
    }
    pub fn warning(code: Code, span: Span, message: impl Into<Message>) -> Finding {
        Finding::new(Severity::Warning, code, span, message)
    }
    pub fn hint(code: Code, span: Span, message: impl Into<Message>) -> Finding {
        Finding::new(Severity::Hint, code, span, message)
    }
    /// The same finding pointing at `related` too.
    pub fn with_related(mut self, related: Vec<Related>) -> Finding {
        self.related = related.into_boxed_slice();
        self
    }
}

/// How many findings of each severity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub errors: usize,
    pub warnings: usize,
    pub notes: usize,
    pub hints: usize,
}

impl Counts {
    pub fn add(&mut self, severity: Severity) {
        match severity {
            Severity::Error => self.errors += 1,
            Severity::Warning => self.warnings += 1,
            Severity::Info => self.notes += 1,
            Severity::Hint => self.hints += 1,
        }
    }

    pub fn add_all(&mut self, other: Counts) {
        self.errors += other.errors;
        self.warnings += other.warnings;
        self.notes += other.notes;
        self.hints += other.hints;
    }

    pub fn total(&self) -> usize {
        self.errors + self.warnings + self.notes + self.hints
    }

    /// The counts indexed by `Severity as usize`.
    pub fn by_severity(&self) -> [usize; 4] {
        [self.errors, self.warnings, self.notes, self.hints]
    }
}

/// A count and its noun, as messages say it: `1 cell`, `8 cells`.
pub fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn findings_stay_small() {
        // Three words of message, two of span, two of related places, and the two small enums.
        assert!(std::mem::size_of::<Finding>() <= 64);
        let fixed = Finding::warning(Code::BadMetadata, Span::new(0, 1), "the same every time");
        assert!(matches!(fixed.message, Cow::Borrowed(_)));
        let mut made = String::with_capacity(100);
        made.push_str("made");
        let made = Finding::error(Code::Syntax, Span::new(0, 1), made);
        assert_eq!(made.message, "made");
        let Cow::Owned(text) = &made.message else {
            panic!()
        };
        assert_eq!(text.capacity(), 4);
        let one = made.with_related(vec![Related::new(Span::new(2, 3), "there")]);
        assert_eq!(one.related.len(), 1);
    }
}
