//! Reading one constraint line of a variant puzzle: `cage 15: A1 A2 B1`, `thermo: A1 B2 C3`,
//! `arrow: E5 > D4 C3`, `antiknight`, … (the whole list is [`Keyword`]; `puzzles/README.md` will
//! document it once the engine solves them).
//!
//! A line is a constraint line when, after optional blanks, it starts with a word that is
//! followed (after an optional parameter) by a `:`, or is a flag word alone. A grid row never
//! holds a `:`, and every flag is a whole line, so nothing that reads as a row reads as a
//! constraint. [`read`] answers `None` for any other line, an error for a line of the
//! constraint form that is wrong (an unknown word, f-puzzles' name for a constraint, a bad
//! cell…), and the [`Rule`] with the span of every part otherwise, so that diagnostics can point
//! at the cell or the number at fault.
//!
//! What needs the puzzle (cells inside its grid, a little killer starting on its edge, sums
//! within reach) is checked when the rules are built for a puzzle, not here.
//!
//! The parser reads every constraint line with this; `diagonal` is the diagonal variant, the
//! other lines become the puzzle's rules (`format::constraints`). The parts after a keyword's
//! `:` are read in `body.rs`; a `regions:` block's rows are read by the parser, which knows the
//! lines that follow.

use crate::finding::{Code, Finding, Span};
use crate::grid::{char_digit, digit_char};
/// A kind of dot that `negative:` says is all given: the rules' own.
pub(crate) use crate::rules::Dot;

/// Every constraint keyword, as written in a `.sudoku` file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Keyword {
    AntiKnight,
    AntiKing,
    NonConsecutive,
    Negative,
    Diagonal,
    Disjoint,
    Windoku,
    Regions,
    ExtraRegion,
    Cage,
    Arrow,
    DoubleArrow,
    LittleKiller,
    RegionSum,
    Zipper,
    Sandwich,
    XSum,
    Skyscraper,
    White,
    Black,
    X,
    V,
    Inequality,
    Thermo,
    SlowThermo,
    Whisper,
    Renban,
    Palindrome,
    Between,
    Lockout,
    Entropic,
    Modular,
    Nabner,
    Even,
    Odd,
    Minimum,
    Maximum,
    Candidates,
    Quad,
    Clone,
    RowIndex,
    ColumnIndex,
    BoxIndex,
}

/// What follows a keyword's `:`, by keyword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// A whole line alone, no `:` (`antiknight`; `diagonal` may add `/` or `\`).
    Flag,
    /// Kinds of dot: `negative: white black`.
    Kinds,
    /// `regions:` opens a block of rows; `regions: none` says there are no boxes.
    Regions,
    /// At least this many cells.
    Cells(usize),
    /// Exactly two orthogonally adjacent cells (a dot).
    Pair,
    /// A line: at least this many cells, each touching the one before (diagonals allowed).
    Line(usize),
    /// Exactly four cells making a 2×2 block.
    Square,
    /// `circle > shaft`: a circle (or a pill of up to three cells) then the shaft.
    Arrow,
    /// Groups of cells separated by `=`, all of one length.
    Clone,
    /// `A1 < A2`.
    Less,
    /// The first cell of a diagonal and the way it goes: `A3 down-left`.
    Diagonal,
    /// A side of the grid and the row or column the clue stands by: `top 3`, `left A`.
    Outside,
}

/// Whether a keyword takes a value before its `:`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Param {
    None,
    /// `cage 15:` or `cage:`.
    OptionalNumber,
    /// `sandwich 12:`, never `sandwich:`.
    Number,
    /// Digits as pencil marks: `quad 1259:`.
    Digits,
}

struct Spec {
    keyword: Keyword,
    name: &'static str,
    param: Param,
    shape: Shape,
}

const fn spec(keyword: Keyword, name: &'static str, param: Param, shape: Shape) -> Spec {
    Spec {
        keyword,
        name,
        param,
        shape,
    }
}

/// The keywords, in the order `puzzles/README.md` lists them (families: global, regions, sums,
/// outside clues, dots, lines, cells).
const SPECS: [Spec; 43] = [
    spec(Keyword::AntiKnight, "antiknight", Param::None, Shape::Flag),
    spec(Keyword::AntiKing, "antiking", Param::None, Shape::Flag),
    spec(
        Keyword::NonConsecutive,
        "nonconsecutive",
        Param::None,
        Shape::Flag,
    ),
    spec(Keyword::Negative, "negative", Param::None, Shape::Kinds),
    spec(Keyword::Diagonal, "diagonal", Param::None, Shape::Flag),
    spec(Keyword::Disjoint, "disjoint", Param::None, Shape::Flag),
    spec(Keyword::Windoku, "windoku", Param::None, Shape::Flag),
    spec(Keyword::Regions, "regions", Param::None, Shape::Regions),
    spec(
        Keyword::ExtraRegion,
        "extra-region",
        Param::None,
        Shape::Cells(2),
    ),
    spec(
        Keyword::Cage,
        "cage",
        Param::OptionalNumber,
        Shape::Cells(1),
    ),
    spec(Keyword::Arrow, "arrow", Param::None, Shape::Arrow),
    spec(
        Keyword::DoubleArrow,
        "double-arrow",
        Param::None,
        Shape::Line(3),
    ),
    spec(
        Keyword::LittleKiller,
        "little-killer",
        Param::Number,
        Shape::Diagonal,
    ),
    spec(
        Keyword::RegionSum,
        "region-sum",
        Param::None,
        Shape::Line(2),
    ),
    spec(Keyword::Zipper, "zipper", Param::None, Shape::Line(3)),
    spec(Keyword::Sandwich, "sandwich", Param::Number, Shape::Outside),
    spec(Keyword::XSum, "x-sum", Param::Number, Shape::Outside),
    spec(
        Keyword::Skyscraper,
        "skyscraper",
        Param::Number,
        Shape::Outside,
    ),
    spec(Keyword::White, "white", Param::OptionalNumber, Shape::Pair),
    spec(Keyword::Black, "black", Param::OptionalNumber, Shape::Pair),
    spec(Keyword::X, "x", Param::None, Shape::Pair),
    spec(Keyword::V, "v", Param::None, Shape::Pair),
    spec(Keyword::Inequality, "inequality", Param::None, Shape::Less),
    spec(Keyword::Thermo, "thermo", Param::None, Shape::Line(2)),
    spec(
        Keyword::SlowThermo,
        "slow-thermo",
        Param::None,
        Shape::Line(2),
    ),
    spec(
        Keyword::Whisper,
        "whisper",
        Param::OptionalNumber,
        Shape::Line(2),
    ),
    spec(Keyword::Renban, "renban", Param::None, Shape::Line(2)),
    spec(
        Keyword::Palindrome,
        "palindrome",
        Param::None,
        Shape::Line(2),
    ),
    spec(Keyword::Between, "between", Param::None, Shape::Line(3)),
    spec(Keyword::Lockout, "lockout", Param::Number, Shape::Line(3)),
    spec(Keyword::Entropic, "entropic", Param::None, Shape::Line(2)),
    spec(Keyword::Modular, "modular", Param::None, Shape::Line(2)),
    spec(Keyword::Nabner, "nabner", Param::None, Shape::Line(2)),
    spec(Keyword::Even, "even", Param::None, Shape::Cells(1)),
    spec(Keyword::Odd, "odd", Param::None, Shape::Cells(1)),
    spec(Keyword::Minimum, "minimum", Param::None, Shape::Cells(1)),
    spec(Keyword::Maximum, "maximum", Param::None, Shape::Cells(1)),
    spec(
        Keyword::Candidates,
        "candidates",
        Param::Digits,
        Shape::Cells(1),
    ),
    spec(Keyword::Quad, "quad", Param::Digits, Shape::Square),
    spec(Keyword::Clone, "clone", Param::None, Shape::Clone),
    spec(Keyword::RowIndex, "row-index", Param::None, Shape::Cells(1)),
    spec(
        Keyword::ColumnIndex,
        "column-index",
        Param::None,
        Shape::Cells(1),
    ),
    spec(Keyword::BoxIndex, "box-index", Param::None, Shape::Cells(1)),
];

/// The length of the shortest flag word (`windoku`, `antiking`): a shorter line without a `:`
/// is no constraint line.
const SHORTEST_FLAG: usize = 7;

/// Names other tools give constraints (f-puzzles' JSON keys, Rangsk's and sigh's names), and
/// ours for them: a line using one gets an error saying what to write.
const OTHER_NAMES: [(&str, &str); 22] = [
    ("killercage", "cage"),
    ("killer", "cage"),
    ("thermometer", "thermo"),
    ("slowthermometer", "slow-thermo"),
    ("slowthermo", "slow-thermo"),
    ("whispers", "whisper"),
    ("germanwhispers", "whisper"),
    ("difference", "white"),
    ("ratio", "black"),
    ("littlekiller", "little-killer"),
    ("littlekillersum", "little-killer"),
    ("sandwichsum", "sandwich"),
    ("xsum", "x-sum"),
    ("doublearrow", "double-arrow"),
    ("regionsumline", "region-sum"),
    ("betweenline", "between"),
    ("zipperline", "zipper"),
    ("entropicline", "entropic"),
    ("modularline", "modular"),
    ("quadruple", "quad"),
    ("extraregion", "extra-region"),
    ("anticonsecutive", "nonconsecutive"),
];

impl Keyword {
    fn spec(self) -> &'static Spec {
        SPECS
            .iter()
            .find(|s| s.keyword == self)
            .unwrap_or(&SPECS[0])
    }

    /// The keyword as written in a file.
    pub(crate) fn name(self) -> &'static str {
        self.spec().name
    }
}

/// A cell named in a rule: row and column from 0, and where its name is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CellRef {
    pub row: u8,
    pub col: u8,
    pub span: Span,
}

/// Which main diagonal a `diagonal` flag names (without a value: both).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Diagonals {
    /// `diagonal \`: A1 to the bottom right corner.
    Main,
    /// `diagonal /`: the bottom left corner to the top right.
    Anti,
}

/// The value before a keyword's `:`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Value {
    Number(u32, Span),
    /// Digits in the order written (a quad may repeat one).
    Digits(Vec<u8>, Span),
    Diagonals(Diagonals, Span),
}

/// The way a little killer's diagonal runs from its first cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Direction {
    UpLeft,
    UpRight,
    DownLeft,
    DownRight,
}

/// The side of the grid an outside clue stands on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Side {
    Left,
    Right,
    Top,
    Bottom,
}

/// The words of `Direction`, `Side` and `Dot` as a line writes them: read and written by
/// the same table.
impl Direction {
    const WORDS: [(Direction, &'static str); 4] = [
        (Direction::UpLeft, "up-left"),
        (Direction::UpRight, "up-right"),
        (Direction::DownLeft, "down-left"),
        (Direction::DownRight, "down-right"),
    ];
}
impl Side {
    const WORDS: [(Side, &'static str); 4] = [
        (Side::Left, "left"),
        (Side::Right, "right"),
        (Side::Top, "top"),
        (Side::Bottom, "bottom"),
    ];
}
impl Dot {
    const WORDS: [(Dot, &'static str); 4] = [
        (Dot::White, "white"),
        (Dot::Black, "black"),
        (Dot::X, "x"),
        (Dot::V, "v"),
    ];
}

/// The thing `word` names in `table` (any case).
fn from_word<T: Copy>(table: &[(T, &'static str)], word: &str) -> Option<T> {
    table
        .iter()
        .find(|(_, w)| w.eq_ignore_ascii_case(word))
        .map(|&(t, _)| t)
}

/// The word for `value` in `table`.
#[cfg_attr(not(test), allow(dead_code))]
fn word_of<T: Copy + PartialEq>(table: &[(T, &'static str)], value: T) -> &'static str {
    table
        .iter()
        .find(|(t, _)| *t == value)
        .map_or("", |&(_, w)| w)
}

/// What a rule says about which cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Body {
    /// A flag: the whole grid.
    Whole,
    Kinds(Vec<(Dot, Span)>),
    /// `regions:` and the rows below it (read by the parser, which knows the lines that
    /// follow), or `regions: none` (no rows).
    Regions {
        none: bool,
        rows: Vec<RegionRow>,
    },
    /// Cells in the order written (a line's order, a set's reading order as written).
    Cells(Vec<CellRef>),
    Arrow {
        circle: Vec<CellRef>,
        shaft: Vec<CellRef>,
    },
    Clone(Vec<Vec<CellRef>>),
    Less(CellRef, CellRef),
    Diagonal(CellRef, Direction, Span),
    /// The side, and the row (left, right) or column (top, bottom) from 0.
    Outside(Side, u8, Span),
}

/// One row of a `regions:` block: its symbols (blanks between them are ignored) and where each
/// is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RegionRow {
    pub symbols: Vec<(char, Span)>,
    /// The row's text, without a trailing comment or blanks.
    pub span: Span,
}

/// One constraint line, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Rule {
    pub keyword: Keyword,
    /// The keyword's word.
    pub keyword_span: Span,
    pub value: Option<Value>,
    pub body: Body,
    /// The line's text, without a trailing comment or blanks.
    pub span: Span,
}

/// How a constraint line's cells go, for an editor offering the next cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellsShape {
    /// No cells (a rule of the whole grid, `negative:`, `regions:`, an outside clue).
    None,
    /// A set of cells (a cage, even cells…): the next one beside any of them.
    Set,
    /// A line (a thermometer, an arrow…): the next one touching the last, diagonally too.
    Line,
    /// Two cells side by side (a dot).
    Pair,
    /// One cell and a direction (a little killer).
    First,
}

/// One constraint keyword as an editor offers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeywordHelp {
    /// As written: `cage`, `slow-thermo`, `antiknight`.
    pub name: &'static str,
    /// A whole line using it: `cage 15: A1 A2 B1`.
    pub example: &'static str,
    /// What it says, in a few words.
    pub means: &'static str,
    /// Whether it is written alone on its line (no `:`).
    pub flag: bool,
    /// Whether it takes a value before its `:` (`cage 15:`).
    pub value: bool,
    pub cells: CellsShape,
}

/// Every constraint keyword with an example line and what it says, in the order
/// `puzzles/README.md` lists them.
pub fn keywords() -> Vec<KeywordHelp> {
    SPECS
        .iter()
        .map(|spec| {
            let (example, means) = example_of(spec.keyword);
            KeywordHelp {
                name: spec.name,
                example,
                means,
                flag: spec.shape == Shape::Flag,
                value: spec.param != Param::None,
                cells: match spec.shape {
                    Shape::Flag | Shape::Kinds | Shape::Regions | Shape::Outside => {
                        CellsShape::None
                    }
                    Shape::Cells(_) | Shape::Square | Shape::Clone => CellsShape::Set,
                    Shape::Line(_) | Shape::Arrow | Shape::Less => CellsShape::Line,
                    Shape::Pair => CellsShape::Pair,
                    Shape::Diagonal => CellsShape::First,
                },
            }
        })
        .collect()
}

/// A keyword's example line and meaning (as `puzzles/README.md` has them).
fn example_of(keyword: Keyword) -> (&'static str, &'static str) {
    use Keyword as K;
    match keyword {
        K::AntiKnight => ("antiknight", "cells a knight's move apart differ"),
        K::AntiKing => ("antiking", "cells a king's move apart differ"),
        K::NonConsecutive => (
            "nonconsecutive",
            "side-by-side cells are not consecutive, except across a white dot",
        ),
        K::Negative => (
            "negative: white black",
            "the dots of those kinds are all given",
        ),
        K::Diagonal => ("diagonal", "both main diagonals hold every digit once"),
        K::Disjoint => (
            "disjoint",
            "the cells in the same place of every box are a house",
        ),
        K::Windoku => ("windoku", "four extra windows the size of a box are houses"),
        K::Regions => (
            "regions:",
            "a jigsaw: N rows of N symbols below, one region each",
        ),
        K::ExtraRegion => ("extra-region: B2 B3 C2 C3", "the cells differ"),
        K::Cage => (
            "cage 15: A1 A2 B1",
            "a killer cage: the digits differ and sum to 15",
        ),
        K::Arrow => ("arrow: E5 > D4 C3", "the shaft sums to the circle"),
        K::DoubleArrow => (
            "double-arrow: A1 A2 A3 A4",
            "the two ends sum to the cells between",
        ),
        K::LittleKiller => (
            "little-killer 17: A3 down-left",
            "the diagonal from A3 to the far edge sums to 17",
        ),
        K::RegionSum => (
            "region-sum: A1 B1 C1 D2",
            "each run of the line inside one box has the same sum",
        ),
        K::Zipper => (
            "zipper: A1 A2 A3 A4 A5",
            "cells equally far from the middle sum alike",
        ),
        K::Sandwich => (
            "sandwich 12: top 3",
            "the digits between the 1 and the N of column 3 sum to 12",
        ),
        K::XSum => (
            "x-sum 15: left A",
            "the first X digits of row A sum to 15, X being the first",
        ),
        K::Skyscraper => (
            "skyscraper 4: bottom 7",
            "from below, 4 digits of column 7 are seen",
        ),
        K::White => (
            "white: A1 A2",
            "the two digits are consecutive (or differ by the value)",
        ),
        K::Black => (
            "black: A1 A2",
            "one digit is twice the other (or the value times)",
        ),
        K::X => ("x: A1 A2", "the two digits sum to 10"),
        K::V => ("v: A1 A2", "the two digits sum to 5"),
        K::Inequality => ("inequality: A1 < A2", "A1 is less than A2"),
        K::Thermo => ("thermo: A1 B2 C3", "strictly increasing from the bulb"),
        K::SlowThermo => ("slow-thermo: A1 B2 C3", "never decreasing from the bulb"),
        K::Whisper => (
            "whisper: A1 B2 C3",
            "neighbours on the line differ by at least 5 (on a 9×9)",
        ),
        K::Renban => (
            "renban: A1 B2 C3",
            "the digits differ and make a run of consecutive digits",
        ),
        K::Palindrome => ("palindrome: A1 B2 C3", "the line reads the same both ways"),
        K::Between => (
            "between: A1 B2 C3 D4",
            "the cells between the ends are strictly between the ends' digits",
        ),
        K::Lockout => (
            "lockout 4: A1 B2 C3 D4",
            "the ends differ by at least 4; no cell between is between them",
        ),
        K::Entropic => (
            "entropic: A1 B2 C3",
            "every three cells in a row hold a low, a middle and a high digit",
        ),
        K::Modular => (
            "modular: A1 B2 C3",
            "every three cells in a row hold one digit of each remainder by 3",
        ),
        K::Nabner => (
            "nabner: A1 B2 C3",
            "the digits differ and no two are consecutive",
        ),
        K::Even => ("even: A1 C3", "each listed cell is even"),
        K::Odd => ("odd: A1 C3", "each listed cell is odd"),
        K::Minimum => ("minimum: A1", "less than each side-by-side cell not listed"),
        K::Maximum => ("maximum: A1", "more than each side-by-side cell not listed"),
        K::Candidates => ("candidates 137: A1 B2", "each listed cell holds 1, 3 or 7"),
        K::Quad => ("quad 1259: A4 A5 B4 B5", "the 2×2 block holds these digits"),
        K::Clone => (
            "clone: A1 A2 = F5 F6",
            "cells in the same place of each group hold the same digit",
        ),
        K::RowIndex => (
            "row-index: A1 B1",
            "a cell in row r holding v says row v of its column holds r",
        ),
        K::ColumnIndex => (
            "column-index: A1 A2",
            "a cell in column c holding v says column v of its row holds c",
        ),
        K::BoxIndex => (
            "box-index: A1 B2",
            "a cell in place p of its box holding v says place v holds p",
        ),
    }
}

/// Where the parts of a constraint line are, for an editor's colours and navigation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineParts {
    /// The keyword (`cage`, `antiknight`).
    pub keyword: Span,
    /// The value before the `:` (`15` of `cage 15:`, `1259` of `quad 1259:`, `/` of
    /// `diagonal /`).
    pub value: Option<Span>,
    /// Each cell named, with its row and column from 0, in the order written.
    pub cells: Vec<(Span, u8, u8)>,
    /// The other words: a dot kind, a direction, a side with its row or column.
    pub words: Vec<Span>,
}

/// The parts of a constraint line (as the parser reads it); `None` for a line that is no
/// constraint line or is one with an error (its diagnostic says what is wrong), and for a
/// `regions:` line, whose rows are no part of it.
pub fn parts(line: &str, base: usize) -> Option<LineParts> {
    let rule = read(line, base)?.ok()?;
    let mut parts = LineParts {
        keyword: rule.keyword_span,
        value: rule.value.as_ref().map(|v| match v {
            Value::Number(_, span) | Value::Digits(_, span) | Value::Diagonals(_, span) => *span,
        }),
        ..LineParts::default()
    };
    let mut cell = |c: &CellRef| parts.cells.push((c.span, c.row, c.col));
    match &rule.body {
        Body::Whole | Body::Regions { .. } => {}
        Body::Kinds(kinds) => parts.words.extend(kinds.iter().map(|&(_, span)| span)),
        Body::Cells(cells) => cells.iter().for_each(&mut cell),
        Body::Arrow { circle, shaft } => circle.iter().chain(shaft).for_each(&mut cell),
        Body::Clone(groups) => groups.iter().flatten().for_each(&mut cell),
        Body::Less(a, b) => {
            cell(a);
            cell(b);
        }
        Body::Diagonal(first, _, way) => {
            cell(first);
            parts.words.push(*way);
        }
        Body::Outside(_, _, span) => parts.words.push(*span),
    }
    Some(parts)
}

/// Read `line` (one line's text, without its line break, starting at byte `base` of the file):
/// `None` when it is no constraint line, else the rule or the error that says what is wrong.
pub(crate) fn read(line: &str, base: usize) -> Option<Result<Rule, Finding>> {
    // Every line that starts with a letter is asked (a row of a large grid, prose, a million
    // lines of junk): most are answered here, having no `:` and being shorter than any flag.
    if line.len() < SHORTEST_FLAG && !line.as_bytes().contains(&b':') {
        return None;
    }
    let text = match line.find('#') {
        Some(hash) => &line[..hash],
        None => line,
    };
    let lead = text.len() - text.trim_start().len();
    let text = text.trim();
    let word_len = text
        .bytes()
        .take_while(|b| b.is_ascii_alphabetic() || *b == b'-')
        .count();
    if word_len == 0 || !text.as_bytes()[0].is_ascii_alphabetic() {
        return None;
    }
    let start = base + lead;
    let word = &text[..word_len];
    let spec = SPECS.iter().find(|s| s.name.eq_ignore_ascii_case(word));
    let colon = text.find(':');
    match (spec, colon) {
        (Some(spec), None) if spec.shape == Shape::Flag => {
            flag(spec, text, start, word_len).map(Ok)
        }
        (Some(spec), Some(colon)) if spec.shape != Shape::Flag => {
            Some(Reader::new(text, start).rule(spec, word_len, colon))
        }
        (Some(spec), Some(colon)) => Some(Err(Finding::error(
            Code::Syntax,
            Span::new(start + colon, start + colon + 1),
            format!(
                "'{}' is a rule of the whole grid, written alone on its line: no ':'",
                spec.name
            ),
        ))),
        (None, Some(colon)) if word_len >= 2 && only_a_value_between(text, word_len, colon) => {
            let span = Span::new(start, start + word_len);
            unknown_keyword(word, span)
                .or_else(|| names_cells(&text[colon + 1..]).then(|| not_a_keyword(word, span)))
                .map(Err)
        }
        _ => None,
    }
}

/// Whether at most one token (a rule's value) stands between the word and the colon.
fn only_a_value_between(text: &str, word_len: usize, colon: usize) -> bool {
    colon >= word_len && text[word_len..colon].split_whitespace().count() <= 1
}

/// The error for `word:` when the word is no keyword: metadata written without its `#` (a
/// `BadMetadata` finding: it says nothing of the puzzle's rules), another tool's name for a
/// constraint, or a likely typo of a keyword. Any other word is no constraint line at all
/// (`Solution: see below` stays a line of prose).
fn unknown_keyword(word: &str, span: Span) -> Option<Finding> {
    let lower = word.to_ascii_lowercase();
    if super::meta::KNOWN_KEYS.contains(&lower.as_str()) {
        return Some(Finding::error(
            Code::BadMetadata,
            span,
            format!("metadata is a comment: write '# {lower}: …'"),
        ));
    }
    if let Some((_, ours)) = OTHER_NAMES.iter().find(|(other, _)| *other == lower) {
        return Some(Finding::error(
            Code::Syntax,
            span,
            format!("'{word}' is another tool's name for this constraint: write '{ours}'"),
        ));
    }
    // Two edits from a keyword, and longer than twice the edits (`ab` is not a typo of `x`).
    let (distance, nearest) = SPECS
        .iter()
        .map(|s| (strsim::osa_distance(&lower, s.name), s.name))
        .min()?;
    (distance <= 2 && lower.len() > 2 * distance).then(|| {
        Finding::error(
            Code::Syntax,
            span,
            format!("unknown constraint '{word}': did you mean '{nearest}'?"),
        )
    })
}

/// Whether the text after a colon is cells, as a constraint's are (`A1 B2`, `E5 > D4`,
/// `A1 < A2`, `A1 A2 = F5 F6`): prose after a colon (`Solution: see below`) is not.
fn names_cells(after_colon: &str) -> bool {
    let mut tokens = after_colon.split_whitespace().peekable();
    tokens.peek().is_some()
        && tokens.all(|t| body::cell_name(t).is_some() || matches!(t, ">" | "<" | "="))
}

/// The error for `word: A1 …` when the word is no constraint and no likely typo of one: every
/// constraint's name, so that the right one can be picked.
fn not_a_keyword(word: &str, span: Span) -> Finding {
    let names: Vec<&str> = SPECS.iter().map(|s| s.name).collect();
    Finding::error(
        Code::Syntax,
        span,
        format!(
            "unknown constraint '{word}': the constraints are {}",
            names.join(", ")
        ),
    )
}

/// A flag line: the keyword alone (`diagonal` may add `/` or `\`); anything else after the
/// word and the line is no rule (a 25×25 row may start with the letters of `diagonal`).
fn flag(spec: &Spec, text: &str, start: usize, word_len: usize) -> Option<Rule> {
    let rest = &text[word_len..];
    let extra = rest.trim_start();
    let extra_at = start + text.len() - extra.len();
    let value = match (spec.keyword, extra) {
        (_, "") => None,
        (Keyword::Diagonal, "\\") => Some(Value::Diagonals(
            Diagonals::Main,
            Span::new(extra_at, extra_at + 1),
        )),
        (Keyword::Diagonal, "/") => Some(Value::Diagonals(
            Diagonals::Anti,
            Span::new(extra_at, extra_at + 1),
        )),
        _ => return None,
    };
    Some(Rule {
        keyword: spec.keyword,
        keyword_span: Span::new(start, start + word_len),
        value,
        body: Body::Whole,
        span: Span::new(start, start + text.len()),
    })
}

/// `A1` for row 0, column 0.
fn name(cell: CellRef) -> String {
    format!("{}{}", (b'A' + cell.row) as char, cell.col + 1)
}

/// How a rule is written back (keywords lower case, cells upper case, one blank between): the
/// canonical form, which the tests hold reading to.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) fn write(rule: &Rule) -> String {
    let mut out = rule.keyword.name().to_string();
    match &rule.value {
        Some(Value::Number(n, _)) => out.push_str(&format!(" {n}")),
        Some(Value::Digits(digits, _)) => {
            out.push(' ');
            out.extend(digits.iter().map(|&d| digit_char(d)));
        }
        Some(Value::Diagonals(Diagonals::Main, _)) => out.push_str(" \\"),
        Some(Value::Diagonals(Diagonals::Anti, _)) => out.push_str(" /"),
        None => {}
    }
    let names = |cells: &[CellRef]| cells.iter().map(|&c| name(c)).collect::<Vec<_>>().join(" ");
    let body = match &rule.body {
        Body::Whole => return out,
        Body::Kinds(kinds) => kinds
            .iter()
            .map(|&(k, _)| word_of(&Dot::WORDS, k))
            .collect::<Vec<_>>()
            .join(" "),
        Body::Regions { none: true, .. } => "none".to_string(),
        Body::Regions { none: false, .. } => String::new(),
        Body::Cells(cells) => names(cells),
        Body::Arrow { circle, shaft } => format!("{} > {}", names(circle), names(shaft)),
        Body::Clone(groups) => groups
            .iter()
            .map(|g| names(g))
            .collect::<Vec<_>>()
            .join(" = "),
        Body::Less(a, b) => format!("{} < {}", name(*a), name(*b)),
        Body::Diagonal(first, way, _) => {
            format!("{} {}", name(*first), word_of(&Direction::WORDS, *way))
        }
        Body::Outside(side, index, _) => {
            let word = word_of(&Side::WORDS, *side);
            match side {
                Side::Left | Side::Right => format!("{word} {}", (b'A' + index) as char),
                Side::Top | Side::Bottom => format!("{word} {}", index + 1),
            }
        }
    };
    if body.is_empty() {
        format!("{out}:")
    } else {
        format!("{out}: {body}")
    }
}

mod body;
#[cfg(test)]
mod tests;

pub(crate) use body::cell_name;
use body::Reader;
