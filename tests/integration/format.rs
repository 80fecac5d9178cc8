//! The `.sudoku` format through the library API: properties of `parse` and `canonical` on
//! arbitrary and on generated documents, and the example files in `puzzles/`.

use crate::common;
use proptest::prelude::*;
use sudoku_lsp::analysis;
use sudoku_lsp::finding::{Code, Severity};
use sudoku_lsp::format::{
    apply_edits, canonical, every_digit, fill_bytes, fill_edits, format, format_edits, marks_grid,
    marks_line, parse, reparse, Change, DigitSet, Document, Layout, Metadata, Options, Pieces,
    Style,
};
use sudoku_lsp::grid::{digit_char, Size, Variant};

/// What must hold for any parse of any text: the parser's contract, the one list the fuzz
/// targets check too.
fn check_invariants(text: &str, doc: &Document) {
    if let Err(broken) = sudoku_lsp::format::check_invariants(text, doc) {
        panic!("{broken}, in {text:?}");
    }
}

/// The parts of a puzzle the canonical form must keep.
type Essence = (
    Size,
    Variant,
    Vec<u8>,
    Option<Vec<DigitSet>>,
    Layout,
    Vec<Option<String>>,
);

fn essence(doc: &Document) -> Vec<Essence> {
    doc.puzzles
        .iter()
        .map(|p| {
            (
                p.size,
                p.variant,
                p.givens.clone(),
                p.marks.as_ref().map(|m| m.to_vec()),
                p.layout,
                meta_values(&p.meta),
            )
        })
        .collect()
}

fn meta_values(m: &Metadata) -> Vec<Option<String>> {
    m.fields()
        .iter()
        .map(|e| e.as_ref().map(|e| e.value.clone()))
        .collect()
}

fn problem_codes(doc: &Document) -> Vec<(Code, Severity)> {
    doc.problems.iter().map(|f| (f.code, f.severity)).collect()
}

/// Parse, write canonically, parse again: the same puzzles and the same kinds of problems,
/// and writing again changes nothing.
fn check_round_trip(text: &str) {
    let doc = parse(text);
    check_invariants(text, &doc);
    let once = canonical(text, &doc);
    let again = parse(&once);
    check_invariants(&once, &again);
    assert!(
        essence(&doc) == essence(&again),
        "puzzles differ after the canonical form\ninput:     {text:?}\ncanonical: {once:?}"
    );
    assert!(
        problem_codes(&doc) == problem_codes(&again),
        "problems differ after the canonical form: {:?} then {:?}\ninput:     {text:?}\ncanonical: {once:?}",
        problem_codes(&doc),
        problem_codes(&again)
    );
    let twice = canonical(&once, &again);
    assert!(
        twice == once,
        "not idempotent\ninput: {text:?}\nonce:  {once:?}\ntwice: {twice:?}"
    );
}

// ---------------------------------------------------------------- generated documents

/// A valid, fully filled grid of `size` (a shifted pattern), as digits.
fn pattern(size: Size) -> Vec<u8> {
    let (n, br, bc) = (size.side(), size.box_rows(), size.box_cols());
    (0..n * n)
        .map(|i| {
            let (r, c) = (i / n, i % n);
            ((bc * (r % br) + r / br + c) % n + 1) as u8
        })
        .collect()
}

/// One cell's text, in one of the accepted spellings.
fn cell_text(d: u8, empty: char, lower: bool) -> char {
    match d {
        0 => empty,
        _ if lower => digit_char(d).to_ascii_lowercase(),
        _ => digit_char(d),
    }
}

#[derive(Clone, Debug)]
enum Chunk {
    Blank,
    Comment(String),
    Meta(String, String),
    Block {
        size: usize,
        holes: Vec<bool>,
        style: u8,
        empty: char,
        lower: bool,
        comment: bool,
    },
    Line {
        size: usize,
        holes: Vec<bool>,
        empty: char,
        trailing: String,
    },
    /// A pencil-mark grid or line: each cell its pattern digit, and with `extra` some more.
    Marks {
        size: usize,
        extra: Vec<u32>,
        line: bool,
    },
    Junk(String),
}

fn chunk() -> impl Strategy<Value = Chunk> {
    let sizes = prop::sample::select(vec![4usize, 6, 9, 9, 9, 12, 16]);
    let empties = prop::sample::select(vec!['.', '0', '_']);
    let keys = prop::sample::select(vec![
        "title",
        "Title",
        "author",
        "source",
        "difficulty",
        "variant",
        "size",
        "note",
        "SIZE",
    ]);
    let values = prop::sample::select(vec![
        "Easy one",
        "数独 🧩",
        "diagonal",
        "x",
        "classic",
        "sudoku-x",
        "9",
        "4x4",
        "16×16",
        "7",
        "",
        "wat",
    ]);
    prop_oneof![
        2 => Just(Chunk::Blank),
        1 => "[ -~é✓🧩]{0,20}".prop_map(|s| Chunk::Comment(format!("#{s}"))),
        2 => (keys, values).prop_map(|(k, v)| Chunk::Meta(k.to_string(), v.to_string())),
        4 => (sizes.clone(), prop::collection::vec(any::<bool>(), 625), 0u8..4, empties.clone(), any::<bool>(), any::<bool>())
            .prop_map(|(size, holes, style, empty, lower, comment)| Chunk::Block { size, holes, style, empty, lower, comment }),
        3 => (prop::sample::select(vec![4usize, 9, 9, 6]), prop::collection::vec(any::<bool>(), 81), empties, "( [a-z0-9.# ]{0,10})?")
            .prop_map(|(size, holes, empty, trailing)| Chunk::Line { size, holes, empty, trailing }),
        1 => "[0-9.|x #:-]{0,30}".prop_map(Chunk::Junk),
        1 => (prop::sample::select(vec![4usize, 6, 9, 9, 16]), prop::collection::vec(any::<u32>(), 81), any::<bool>())
            .prop_map(|(size, extra, line)| Chunk::Marks { size, extra, line }),
    ]
}

fn render(chunks: &[Chunk], br: &str) -> String {
    let mut out = String::new();
    for chunk in chunks {
        match chunk {
            Chunk::Blank => out.push_str(br),
            Chunk::Comment(c) => {
                out.push_str(c);
                out.push_str(br);
            }
            Chunk::Meta(k, v) => {
                out.push_str(&format!("# {k}: {v}{br}"));
            }
            Chunk::Block {
                size,
                holes,
                style,
                empty,
                lower,
                comment,
            } => {
                let size = Size::from_side(*size).unwrap();
                let n = size.side();
                let grid = pattern(size);
                for r in 0..n {
                    if *style == 2 && r > 0 && r % size.box_rows() == 0 {
                        out.push_str(&"-".repeat(n + 3));
                        out.push_str(br);
                    }
                    for c in 0..n {
                        let i = r * n + c;
                        let d = if holes[i % holes.len()] { 0 } else { grid[i] };
                        if c > 0 {
                            match style {
                                0 => {}
                                1 => out.push(' '),
                                _ if c % size.box_cols() == 0 => out.push_str(" | "),
                                _ => out.push(' '),
                            }
                        }
                        // Some digits as entries (`+7`), in some blocks.
                        if *style == 3 && d != 0 && i % 5 == 0 {
                            out.push('+');
                        }
                        out.push(cell_text(d, *empty, *lower));
                    }
                    if *comment && r == 0 {
                        out.push_str(" # first row");
                    }
                    out.push_str(br);
                }
            }
            Chunk::Line {
                size,
                holes,
                empty,
                trailing,
            } => {
                let size = Size::from_side(*size).unwrap();
                let grid = pattern(size);
                for (i, &d) in grid.iter().enumerate() {
                    let d = if holes[i % holes.len()] { 0 } else { d };
                    if *empty == '_' && d != 0 && i % 7 == 0 {
                        out.push('+');
                    }
                    out.push(cell_text(d, *empty, false));
                }
                out.push_str(trailing);
                out.push_str(br);
            }
            Chunk::Marks { size, extra, line } => {
                // Apart from what is above: a broken line right above a grid may take its rows
                // as its own, and how many depends on the groups' widths, which filling changes.
                out.push_str(br);
                let size = Size::from_side(*size).unwrap();
                let all = every_digit(size.side());
                let marks: Vec<DigitSet> = pattern(size)
                    .iter()
                    .enumerate()
                    .map(|(i, &d)| (1 << (d - 1) | extra[i % extra.len()]) & all)
                    .collect();
                let text = if *line {
                    marks_line(size, &marks) + "\n"
                } else {
                    // A cell with one mark is the pattern's digit, placed.
                    let placed: Vec<u8> = marks
                        .iter()
                        .map(|&m| match m.count_ones() {
                            1 => m.trailing_zeros() as u8 + 1,
                            _ => 0,
                        })
                        .collect();
                    marks_grid(size, &placed, &marks, None)
                };
                out.push_str(&text.replace('\n', br));
            }
            Chunk::Junk(j) => {
                out.push_str(j);
                out.push_str(br);
            }
        }
    }
    out
}

fn document() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(chunk(), 0..12),
        prop::sample::select(vec!["\n", "\r\n", "\r"]),
    )
        .prop_map(|(chunks, br)| render(&chunks, br))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn parse_never_panics_on_any_string(text in any::<String>()) {
        check_invariants(&text, &parse(&text));
    }

    #[test]
    fn parse_never_panics_on_format_like_noise(text in "[0-9A-Za-z.|_#:=*'+ \t\r\n-]{0,400}") {
        check_round_trip(&text);
    }

    #[test]
    fn canonical_round_trips_generated_documents(text in document()) {
        check_round_trip(&text);
    }

    #[test]
    fn filling_changes_only_empty_marks(text in document()) {
        let doc = parse(&text);
        let edits: Vec<_> = doc
            .puzzles
            .iter()
            .flat_map(|p| fill_edits(p, &vec![1; p.givens.len()]))
            .collect();
        let filled = apply_edits(&text, &edits);
        assert_eq!(filled.len(), text.len());
        let mut in_place = text.clone().into_bytes();
        for p in &doc.puzzles {
            fill_bytes(&mut in_place, 0, p, &vec![1; p.givens.len()]);
        }
        assert_eq!(String::from_utf8(in_place).unwrap(), filled);
        let again = parse(&filled);
        assert_eq!(again.puzzles.len(), doc.puzzles.len());
        for (before, after) in doc.puzzles.iter().zip(&again.puzzles) {
            // A filled group of pencil marks is its digit, padded: it starts where it did.
            let starts = |p: &sudoku_lsp::format::Puzzle| p.cell_spans.iter().map(|s| s.start).collect::<Vec<_>>();
            assert_eq!(starts(before), starts(after));
            for (c, (&b, &a)) in before.givens.iter().zip(&after.givens).enumerate() {
                // Empty cells and entries take the solution's digit; givens stay.
                let solved = b == 0 || before.is_entry(c);
                assert_eq!(a, if solved { 1 } else { b });
                assert_eq!(before.is_entry(c), after.is_entry(c));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// *Fill in pencil marks* on one puzzle: read back, it holds the marks filled in, its
    /// placed digits, entries and empty cells as they were (a cell left with one mark is
    /// `*7`, not placed), and every other puzzle and comment is unchanged.
    /// (In a document without problems: a broken block right above a grid may take the grid's
    /// first rows as its own, and whether it does depends on the rows' widths, which change.)
    #[test]
    fn writing_pencil_marks_changes_only_that_puzzle(text in document()) {
        let doc = parse(&text);
        if !doc.problems.is_empty() {
            return Ok(()); // about half of the documents: too many to reject
        }
        let eligible = |p: &&sudoku_lsp::format::Puzzle| {
            p.givens.contains(&0)
                && analysis::marks_unwritable(p, &analysis::fill_marks(p)).is_none()
        };
        if let Some((i, p)) = doc.puzzles.iter().enumerate().find(|(_, p)| eligible(p)) {
            let marks = analysis::fill_marks(p);
            prop_assume!(marks.iter().all(|&m| m != 0)); // a broken grid's empty cell
            let written = apply_edits(&text, &analysis::marks_edits(p, &marks, &text, 0));
            let again = parse(&written);
            prop_assert_eq!(again.puzzles.len(), doc.puzzles.len(), "{}", written);
            let q = &again.puzzles[i];
            prop_assert_eq!(analysis::marks_of(q), marks, "{}", written);
            // Nothing placed, nothing taken away.
            for c in 0..p.givens.len() {
                prop_assert_eq!((q.givens[c], q.is_entry(c)), (p.givens[c], p.is_entry(c)));
            }
            let (before, after) = (meaning(&doc), meaning(&again));
            for k in (0..doc.puzzles.len()).filter(|&k| k != i) {
                prop_assert_eq!(&before[k], &after[k], "{}", written);
            }
            prop_assert_eq!(plain_comments(&text), plain_comments(&written));
            // Row comments too: every `#` is kept.
            prop_assert_eq!(text.matches('#').count(), written.matches('#').count());
        }
    }
}

/// What filling in marks found the parser missing: a pencil-mark grid whose rows of several
/// digits all hold entries (`+4`) is still a pencil-mark grid, and a line of places right
/// after a broken row is a puzzle of its own, as a one-line puzzle there is.
#[test]
fn entries_beside_marks_and_a_line_of_places_after_a_broken_row_are_read() {
    let grid = "+1 2  3  | 4  5  +6 | 7  8  9\n4  +5 6  | 7  8  9  | +1 2  3\n7  8  +9 | 1  2  3  | 4  +5 6\n2  3  4  | +5 6  7  | 8  9  +1\n5  6  7  | 8  +9 1  | 2  3  4\n+8 9  1  | 2  3  +4 | 5  6  7\n3  +4 5  | 6  7  8  | +9 1  2\n6  7  +8 | 9  1  2  | 3  +4 5\n9  1  2  | +3 +4 5  | 6  47 +8\n";
    let doc = parse(grid);
    assert!(doc.problems.is_empty(), "{:?}", doc.problems);
    assert_eq!(doc.puzzles[0].layout, Layout::Marks);
    assert_eq!(doc.puzzles[0].marks.as_ref().unwrap()[80 - 1], 0b1001000);

    let solved =
        "123456789456789123789123456234567891567891234891234567345678912678912345912345678";
    let mut places = marks_line(
        Size::NINE,
        &solved.bytes().map(|b| 1 << (b - b'1')).collect::<Vec<_>>(),
    );
    places.replace_range(728..729, ".");
    places.replace_range(720..721, "1");
    let doc = parse(&format!("0\n{places}\n"));
    assert_eq!(doc.puzzles.len(), 1, "{:?}", doc.problems);
    assert_eq!(doc.puzzles[0].layout, Layout::MarksLine);
    assert_eq!(
        doc.problems.len(),
        1,
        "only the broken row: {:?}",
        doc.problems
    );
}

// ---------------------------------------------------------------- formatting styles

/// What formatting must keep of each puzzle, whatever its layout becomes: size, variant, cells,
/// which are entries, pencil marks and metadata.
type Meaning = (
    Size,
    Variant,
    Vec<u8>,
    Option<Vec<bool>>,
    Option<Vec<DigitSet>>,
    Vec<Option<String>>,
);

fn meaning(doc: &Document) -> Vec<Meaning> {
    doc.puzzles
        .iter()
        .map(|p| {
            (
                p.size,
                p.variant,
                p.givens.clone(),
                p.entries.as_ref().map(|e| e.to_vec()),
                p.marks.as_ref().map(|m| m.to_vec()),
                meta_values(&p.meta),
            )
        })
        .collect()
}

/// Comment lines that are not metadata (`# key: value` is rewritten with a lowercase key).
fn plain_comments(text: &str) -> Vec<&str> {
    text.split(['\n', '\r'])
        .filter(|line| {
            let Some(rest) = line.trim_start().strip_prefix('#') else {
                return false;
            };
            let rest = rest.trim_start();
            let key = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
                .unwrap_or(rest.len());
            !(key > 0 && rest[key..].trim_start().starts_with(':'))
        })
        .collect()
}

/// Formatting `text` in `style`: the same puzzles with the same problems, every comment and
/// every `#` kept, the edits giving the formatted text, and formatting again changing nothing.
fn check_formatting(text: &str, style: Style) {
    let doc = parse(text);
    let options = Options::style(style);
    let edits = format_edits(text, 0, &doc, &options);
    let once = apply_edits(text, &edits);
    assert_eq!(once, format(text, &options));
    let again = parse(&once);
    assert!(
        meaning(&doc) == meaning(&again),
        "{style:?} changed a puzzle\ninput:  {text:?}\noutput: {once:?}"
    );
    assert_eq!(
        problem_codes(&doc),
        problem_codes(&again),
        "{style:?}\ninput:  {text:?}\noutput: {once:?}"
    );
    for comment in plain_comments(text) {
        assert!(
            once.contains(comment),
            "{style:?} lost {comment:?}\noutput: {once:?}"
        );
    }
    assert_eq!(
        text.matches('#').count(),
        once.matches('#').count(),
        "{style:?}: {once:?}"
    );
    let edits_again = format_edits(&once, 0, &again, &options);
    assert!(
        edits_again.is_empty(),
        "{style:?}: edits on formatted text: {edits_again:?}\nonce: {once:?}"
    );
    let twice = format(&once, &options);
    assert!(
        twice == once,
        "{style:?} not idempotent\ninput: {text:?}\nonce:  {once:?}\ntwice: {twice:?}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn formatting_keeps_every_puzzle_and_settles_at_once(
        text in prop_oneof![document(), collection_document()],
    ) {
        for style in Style::ALL {
            check_formatting(&text, style);
        }
    }

    #[test]
    fn formatting_noise_keeps_what_it_reads(text in "[0-9A-Za-z.|_#:=*'+ \t\r\n-]{0,400}") {
        for style in Style::ALL {
            check_formatting(&text, style);
        }
    }
}

#[test]
fn every_style_on_the_example_files() {
    for path in common::shipped_puzzles(&["", "broken"]) {
        let text = std::fs::read_to_string(&path).unwrap();
        for style in Style::ALL {
            check_formatting(&text, style);
        }
    }
}

// ---------------------------------------------------------------- fixed cases

#[test]
fn round_trips_of_hand_written_cases() {
    for text in [
        "",
        "\n\r\n\r",
        "\u{feff}# title: bom\n1234341221434321\n",
        "# size: 16\n1...............\n",
        "+-----+-----+\n|1 . |. 4|\n|. . |. .|\n+-----+-----+\n|. . |. .|\n|4 . |. 1|\n+-----+-----+ # end\n",
        "1 2 | 3 4\n3 4 | 1 2\n---+--- # band\n2 1 | 4 3\n4 3 | 2 1\n",
        "12345678\n",
        "# variant: nope\n1234341221434321\n\n# title: x\n",
    ] {
        check_round_trip(text);
    }
}

#[test]
fn huge_and_hostile_inputs_do_not_hang() {
    let long_line = "1".repeat(3_000_000);
    check_invariants(&long_line, &parse(&long_line));
    let many_lines = "123456789\n".repeat(200_000);
    let doc = parse(&many_lines);
    // Back-to-back blocks of nine rows; the last two rows are a block too short.
    assert_eq!(doc.puzzles.len(), 22_222);
    assert_eq!(doc.problems.len(), 1);
    let junk: String = (0..500_000u32)
        .map(|i| char::from_u32(i.wrapping_mul(2_654_435_761) % 0x11_0000).unwrap_or('\u{fffd}'))
        .collect();
    check_invariants(&junk, &parse(&junk));
    let bars = "|".repeat(1_000_000) + "\n" + &"-".repeat(1_000_000);
    check_invariants(&bars, &parse(&bars));
}

#[test]
fn a_big_collection_reads_every_line() {
    let line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let text: String = (0..49_151).map(|i| format!("{line} #{i}\n")).collect();
    let doc = parse(&text);
    assert!(doc.problems.is_empty());
    assert_eq!(doc.puzzles.len(), 49_151);
    assert!(doc
        .puzzles
        .iter()
        .all(|p| p.layout == Layout::Line && p.givens_count() == 17));
    assert_eq!(canonical(&text, &doc), text);
}

// ---------------------------------------------------------------- the example files

fn example(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("puzzles")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn example_puzzles_read_cleanly() {
    let cases: [(&str, usize, usize, Variant); 13] = [
        ("easy.sudoku", 1, 9, Variant::Classic),
        ("hard.sudoku", 1, 9, Variant::Classic),
        ("diagonal.sudoku", 1, 9, Variant::Diagonal),
        ("4x4.sudoku", 1, 4, Variant::Classic),
        ("6x6.sudoku", 1, 6, Variant::Classic),
        ("12x12.sudoku", 1, 12, Variant::Classic),
        ("16x16.sudoku", 1, 16, Variant::Classic),
        ("collection.sudoku", 20, 9, Variant::Classic),
        ("marks.sudoku", 2, 9, Variant::Classic),
        ("broken/conflict.sudoku", 1, 9, Variant::Classic),
        ("broken/impossible-cell.sudoku", 1, 9, Variant::Classic),
        ("broken/no-solution.sudoku", 1, 9, Variant::Classic),
        ("broken/several-solutions.sudoku", 1, 9, Variant::Classic),
    ];
    for (name, count, side, variant) in cases {
        let text = example(name);
        let doc = parse(&text);
        assert!(doc.problems.is_empty(), "{name}: {:?}", doc.problems);
        assert_eq!(doc.puzzles.len(), count, "{name}");
        for p in &doc.puzzles {
            assert_eq!((p.size.side(), p.variant), (side, variant), "{name}");
            assert!(p.meta.title.is_some(), "{name} has a title");
        }
        check_round_trip(&text);
    }
    assert!(example("4x4.sudoku").contains("\r\n"));
    let marks = parse(&example("marks.sudoku"));
    let [grid, line] = &marks.puzzles[..] else {
        unreachable!("two puzzles, checked above")
    };
    assert_eq!(
        (grid.layout, line.layout),
        (Layout::Marks, Layout::MarksLine)
    );
    assert!(grid.marks.is_some() && grid.marks == line.marks);
    let diagonal = parse(&example("diagonal.sudoku"));
    let expected =
        "2.............62....1....7...6..8...3...9...7...6..4...4....8....52.............3";
    let givens: String = diagonal.puzzles[0]
        .givens
        .iter()
        .map(|&d| if d == 0 { '.' } else { digit_char(d) })
        .collect();
    assert_eq!(givens, expected);
}

#[test]
fn example_parse_errors_are_each_reported_at_their_place() {
    let text = example("broken/parse-errors.sudoku");
    let doc = parse(&text);
    let found: Vec<(Code, &str)> = doc
        .problems
        .iter()
        .map(|f| (f.code, &text[f.span.start..f.span.end]))
        .collect();
    assert_eq!(found.len(), 5, "{found:?}");
    assert_eq!(found[0], (Code::RowLength, "4 8 . |. . . |6 3"));
    assert_eq!(found[1], (Code::Syntax, "x"));
    assert_eq!(found[2].0, Code::BlockHeight);
    assert!(found[2].1.starts_with(".9....8..") && found[2].1.ends_with(".43..86.."));
    assert_eq!(found[3], (Code::DigitRange, "7"));
    assert_eq!(found[4], (Code::UnknownKey, "# titel: The last one"));
    assert_eq!(doc.puzzles.len(), 1, "the last puzzle is still read");
    check_round_trip(&text);
}

// ---------------------------------------------------------------- re-reading after an edit

/// The byte offsets where lines start (`\n`, `\r\n` and a lone `\r` end a line).
fn line_starts(text: &str) -> Vec<usize> {
    let b = text.as_bytes();
    let mut starts = vec![0];
    for i in 0..b.len() {
        let ends = b[i] == b'\n' || (b[i] == b'\r' && b.get(i + 1) != Some(&b'\n'));
        if ends && i + 1 < b.len() {
            starts.push(i + 1);
        }
    }
    starts
}

/// The whole lines of `text` around `from..to`, with `before` and `after` more lines each side.
fn window_around(
    text: &str,
    from: usize,
    to: usize,
    before: usize,
    after: usize,
) -> (usize, usize) {
    let starts = line_starts(text);
    let first = starts
        .partition_point(|&s| s <= from)
        .saturating_sub(1 + before);
    let last = starts.partition_point(|&s| s <= to) + after;
    let end = starts.get(last).copied().unwrap_or(text.len());
    (starts[first], end)
}

/// Apply `inserted` over `from..to` of `old`, reparse with the given window margins, and demand
/// the full parse of the new text. Returns whether the reparse was possible.
fn check_reparse(
    old: &str,
    from: usize,
    to: usize,
    inserted: &str,
    margins: (usize, usize),
) -> bool {
    let mut new = old.to_string();
    new.replace_range(from..to, inserted);
    let change = Change {
        start: from,
        old_end: to,
        new_end: from + inserted.len(),
    };
    let (ws, we) = window_around(&new, change.start, change.new_end, margins.0, margins.1);
    let mut doc = parse(old);
    let before = doc.puzzles.len();
    let Some(splice) = reparse(&mut doc, &new[ws..we], ws, new.len(), change) else {
        return false;
    };
    let full = parse(&new);
    assert_eq!(
        format!("{doc:?}"),
        format!("{full:?}"),
        "reparse differs from a full parse\nold: {old:?}\nnew: {new:?}\nwindow: {ws}..{we} {splice:?}"
    );
    assert_eq!(before - splice.removed + splice.added, full.puzzles.len());
    true
}

/// Documents where re-reading in part is often possible: file metadata, then a grid, then
/// chunks with more blank lines, titles and 9×9 one-liners than `document` has.
fn collection_document() -> impl Strategy<Value = String> {
    let one_liner = (
        prop::collection::vec(any::<bool>(), 81),
        "( [a-z.# ]{0,6})?",
    )
        .prop_map(|(holes, trailing)| Chunk::Line {
            size: 9,
            holes,
            empty: '.',
            trailing,
        });
    let title = Just(Chunk::Meta("title".into(), "t".into()));
    let piece =
        prop_oneof![3 => chunk(), 1 => Just(Chunk::Blank), 3 => one_liner.clone(), 1 => title];
    let header = prop::collection::vec(chunk(), 0..3);
    (
        header,
        one_liner,
        prop::collection::vec(piece, 0..16),
        prop::sample::select(vec!["\n", "\r\n", "\r"]),
    )
        .prop_map(|(header, first, rest, br)| {
            let mut chunks = header;
            chunks.push(Chunk::Blank);
            chunks.push(first);
            chunks.extend(rest);
            render(&chunks, br)
        })
}

fn inserted_text() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "",
        ".",
        "1",
        "9",
        "x",
        "é",
        " ",
        "\n",
        "\r",
        "\r\n",
        "\n\n",
        "# ",
        "# size: 4\n",
        "# title: t\n",
        "# variant: diagonal\n",
        "| ",
        "---+---\n",
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n",
        "1..4.4..........\n",
    ]);
    prop::collection::vec(pieces, 0..4).prop_map(|p| p.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    /// Re-reading only the lines around an edit gives exactly the full parse of the new text.
    #[test]
    fn reparse_equals_a_full_parse(
        text in prop_oneof![document(), collection_document()],
        a in any::<prop::sample::Index>(),
        b in any::<prop::sample::Index>(),
        inserted in inserted_text(),
        margins in (0usize..4, 0usize..4),
    ) {
        let bounds: Vec<usize> = (0..=text.len()).filter(|&i| text.is_char_boundary(i)).collect();
        let (a, b) = (*a.get(&bounds), *b.get(&bounds));
        check_reparse(&text, a.min(b), a.max(b), &inserted, margins);
        check_reparse(&text, a.min(b), a.max(b), &inserted, (usize::MAX / 4, usize::MAX / 4));
    }
}

/// The property above means something only if generated edits often can be re-read in part.
#[test]
fn generated_edits_are_often_reread_in_part() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = (
        collection_document(),
        any::<prop::sample::Index>(),
        inserted_text(),
    );
    let (mut tried, mut reread) = (0, 0);
    for _ in 0..400 {
        let (text, at, inserted) = strategy.new_tree(&mut runner).unwrap().current();
        let bounds: Vec<usize> = (0..=text.len())
            .filter(|&i| text.is_char_boundary(i))
            .collect();
        let at = *at.get(&bounds);
        tried += 1;
        reread += usize::from(check_reparse(&text, at, at, &inserted, (40, 40)));
    }
    assert!(
        reread * 2 >= tried,
        "only {reread} of {tried} edits were re-read in part"
    );
}

#[test]
fn an_edit_in_a_collection_rereads_one_line() {
    let line =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
    let text = format!("# title: many\n\n{}", line.repeat(50));
    let at = text.len() - 20 * line.len() + 3;
    for inserted in ["", "1", "12"] {
        let mut doc = parse(&text);
        let mut new = text.clone();
        new.replace_range(at..at + 1, inserted);
        let change = Change {
            start: at,
            old_end: at + 1,
            new_end: at + inserted.len(),
        };
        let splice = reparse(&mut doc, &new, 0, new.len(), change).expect("a resume point");
        // The two lines after the edited one are read again too: whether the parser starts
        // afresh after a one-liner depends on the line above it, so that line must be unchanged.
        let whole = usize::from(inserted.len() == 1);
        assert_eq!((splice.removed, splice.added), (3, 2 + whole));
        assert_eq!(format!("{doc:?}"), format!("{:?}", parse(&new)));
        assert!(check_reparse(&text, at, at + 1, ".", (2, 2)));
    }
    // Near the top the start is the resume point: an edit to the first puzzle re-reads a
    // few lines, and one to the file's metadata changes every puzzle, so is no reparse.
    let first = text.find(line).unwrap();
    assert!(check_reparse(&text, first, first + 1, "1", (2, 2)));
    assert!(!check_reparse(&text, 4, 5, "x", (200, 200)));
    assert!(check_reparse(
        &text,
        first,
        first,
        "# a header\n",
        (200, 200)
    ));
}

/// Parse `text` the way the command line reads a long file: fed line by line to `Pieces`, cut
/// at every point it allows, each piece parsed on its own. Gives the puzzles and problems of
/// every piece in order, and how many pieces there were.
fn parse_in_pieces(text: &str) -> (Document, usize) {
    let mut starts = line_starts(text);
    starts.push(text.len());
    starts.dedup();
    let mut cutter = Pieces::new();
    let mut whole = Document::default();
    let (mut base, mut count) = (0, 0);
    let take = |cutter: &mut Pieces, base: usize, end: usize, whole: &mut Document| {
        let piece = cutter.parse(&text[base..end], base);
        whole.puzzles.extend(piece.puzzles);
        whole.problems.extend(piece.problems);
    };
    for pair in starts.windows(2) {
        let (start, end) = (pair[0], pair[1]);
        if cutter.ends_piece(&text[base..end], base, start - base) {
            take(&mut cutter, base, end, &mut whole);
            (base, count) = (end, count + 1);
        }
    }
    if base < text.len() || count == 0 {
        take(&mut cutter, base, text.len(), &mut whole);
        count += 1;
    }
    (whole, count)
}

/// A collection that declares its size in the file's metadata (the parser's one-liner rule
/// depends on it).
fn sized_collection_document() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec!["9", "9x9", "16", "4", "x"]),
        collection_document(),
    )
        .prop_map(|(size, text)| format!("# size: {size}\n\n{text}"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    /// Reading a text in pieces gives exactly the puzzles and problems of a whole parse.
    #[test]
    fn pieces_parse_as_the_whole(
        text in prop_oneof![document(), collection_document(), sized_collection_document()],
    ) {
        let whole = parse(&text);
        let (pieces, _) = parse_in_pieces(&text);
        prop_assert_eq!(format!("{:?}", pieces.puzzles), format!("{:?}", whole.puzzles));
        prop_assert_eq!(format!("{:?}", pieces.problems), format!("{:?}", whole.problems));
    }
}

#[test]
fn a_collection_is_cut_at_every_one_line_puzzle() {
    let line =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
    for (head, cuts) in [
        ("", 20),
        ("# title: many\n\n", 20),
        ("# size: 9\n\n", 20),
        // The first puzzle's own header declares a size: not cut after it, to be safe.
        ("# size: 9x9\n", 19),
    ] {
        let text = format!("{head}{}", line.repeat(20));
        assert_eq!(parse_in_pieces(&text).1, cuts, "{head:?}");
    }
    // A declared size of 16 makes an 81-cell line a (broken) row: no cut there.
    let text = format!("# size: 16\n\n{}", line.repeat(20));
    assert_eq!(parse_in_pieces(&text).1, 1);
}

// ---------------------------------------------------------------- entries

#[test]
fn entries_are_read_apart_from_givens_in_every_layout_and_written_back() {
    let line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let with_entry = line.replacen("4.....", "4+1....", 1);
    let block = "4 +1 . | . . . | 8 . 5\n. 3 . | . . . | . . .\n. . . | 7 . . | . . .\n------+-------+------\n. 2 . | . . . | . 6 .\n. . . | . 8 . | 4 . .\n. . . | . 1 . | . . .\n------+-------+------\n. . . | 6 . 3 | . 7 .\n5 . . | 2 . . | . . .\n1 . 4 | . . . | . . .\n";
    for text in [format!("{with_entry} rated\n"), block.to_string()] {
        let doc = parse(&text);
        assert!(doc.problems.is_empty(), "{:?}", doc.problems);
        let p = &doc.puzzles[0];
        assert_eq!(p.givens[1], 1);
        assert!(p.is_entry(1) && !p.is_entry(0) && p.is_given(0));
        assert_eq!(p.clues()[1], 0);
        assert_eq!(p.givens_count(), 17);
        assert_eq!(&text[p.cell_span(1).start..p.cell_span(1).end], "+1");
        check_round_trip(&text);
        let canon = canonical(&text, &doc);
        assert!(canon.contains("+1"), "{canon}");
        // Solving corrects an entry that is not the solution's digit, its `+` kept, and leaves
        // one that is.
        let filled = apply_edits(&text, &fill_edits(p, &[9; 81]));
        assert!(filled.contains("+9") && !filled.contains("+1"), "{filled}");
        let mut right = [9; 81];
        right[1] = 1;
        let filled = apply_edits(&text, &fill_edits(p, &right));
        assert!(filled.contains("+1"), "{filled}");
    }
    // In a pencil-mark grid, before a lone digit only.
    let marks = "+1 23 | 34 4\n3 4 | 12 12\n. . | . .\n. . | . 1234\n";
    let doc = parse(marks);
    assert!(doc.problems.is_empty(), "{:?}", doc.problems);
    assert!(doc.puzzles[0].is_entry(0));
    let bad = parse(&marks.replacen("+1 23", "1 +23", 1));
    assert!(
        bad.problems[0].message.contains("before a lone digit"),
        "{:?}",
        bad.problems
    );
    // A `+` before no digit is a stray character, as before.
    let stray = parse("+. 2 | 3 4\n");
    assert!(
        stray.problems.iter().any(|p| p.code == Code::Syntax),
        "{:?}",
        stray.problems
    );
}
