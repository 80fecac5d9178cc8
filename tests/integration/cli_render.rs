//! `sudoku-lsp render` run as a user would: every shipped puzzle drawn as SVG and PNG into a
//! folder, each picture read back (the SVG parsed, the PNG decoded) to see that every digit is
//! where its cell is and looks as it should; the names, `--out -`, overwriting, and the errors.
//!
//! The PNG tests need a font. Without one they are skipped, saying so, unless
//! `SUDOKU_LSP_REQUIRE_FONTS` is set (as CI sets it, having installed fonts-dejavu-core): then
//! they fail.

use crate::common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use common::cli::{bin, run, scratch, write};
use sudoku_lsp::format::{self, Puzzle};
use sudoku_lsp::grid::digit_char;

const PUZZLES: [&str; 9] = [
    "12x12",
    "16x16",
    "4x4",
    "6x6",
    "collection",
    "diagonal",
    "easy",
    "hard",
    "marks",
];

fn puzzles_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles")
}

/// The line of each puzzle's first row in `text` (1-based), as `render` names pictures.
fn first_lines(text: &str, puzzles: &[Puzzle]) -> Vec<usize> {
    puzzles
        .iter()
        .map(|p| text[..p.first_row.start].matches('\n').count() + 1)
        .collect()
}

/// The picture files `render` should make of a file's puzzles.
fn picture_names(stem: &str, text: &str, puzzles: &[Puzzle], extension: &str) -> Vec<String> {
    if puzzles.len() == 1 {
        return vec![format!("{stem}.{extension}")];
    }
    first_lines(text, puzzles)
        .into_iter()
        .map(|line| format!("{stem}-{line}.{extension}"))
        .collect()
}

/// A text element of a picture.
#[derive(Debug, Clone)]
struct Text {
    class: String,
    x: f64,
    y: f64,
    size: f64,
    bold: bool,
    fill: String,
    text: String,
}

/// What a test reads of an SVG picture.
struct Svg {
    width: f64,
    height: f64,
    /// The grid's outline: left, top, side.
    grid: (f64, f64, f64),
    texts: Vec<Text>,
    /// `class` → the (x, y) of each rect of that class.
    rects: HashMap<String, Vec<(f64, f64)>>,
}

fn number(node: roxmltree::Node, name: &str) -> f64 {
    node.attribute(name)
        .unwrap_or_else(|| panic!("{name} missing on {node:?}"))
        .parse()
        .unwrap()
}

fn parse_svg(text: &str) -> Svg {
    let document = roxmltree::Document::parse(text).expect("the SVG is well-formed XML");
    let root = document.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    let view: Vec<f64> = root
        .attribute("viewBox")
        .expect("a viewBox")
        .split_whitespace()
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(&view[..2], &[0.0, 0.0]);
    assert_eq!(view[2], number(root, "width"));
    assert_eq!(view[3], number(root, "height"));
    let mut svg = Svg {
        width: view[2],
        height: view[3],
        grid: (0.0, 0.0, 0.0),
        texts: Vec::new(),
        rects: HashMap::new(),
    };
    for node in root.descendants().filter(|n| n.is_element()) {
        let class = node.attribute("class").unwrap_or("").to_string();
        match node.tag_name().name() {
            "rect" if class == "border" => {
                assert_eq!(number(node, "width"), number(node, "height"));
                svg.grid = (number(node, "x"), number(node, "y"), number(node, "width"));
            }
            "rect" => svg
                .rects
                .entry(class)
                .or_default()
                .push((number(node, "x"), number(node, "y"))),
            "text" => svg.texts.push(Text {
                class,
                x: number(node, "x"),
                y: number(node, "y"),
                size: number(node, "font-size"),
                bold: node.attribute("font-weight") == Some("bold"),
                fill: node.attribute("fill").unwrap_or("").to_string(),
                text: node.text().unwrap_or("").to_string(),
            }),
            _ => {}
        }
    }
    assert!(svg.grid.2 > 0.0, "no grid outline");
    svg
}

impl Svg {
    fn cell_side(&self, side: usize) -> f64 {
        self.grid.2 / side as f64
    }
    /// The cell (row-major) a point is in, if inside the grid.
    fn cell_at(&self, side: usize, x: f64, y: f64) -> Option<usize> {
        let s = self.cell_side(side);
        let (column, row) = ((x - self.grid.0) / s, (y - self.grid.1) / s);
        let inside = (0.0..side as f64).contains(&column) && (0.0..side as f64).contains(&row);
        inside.then(|| row as usize * side + column as usize)
    }
    fn centre(&self, side: usize, cell: usize) -> (f64, f64) {
        let s = self.cell_side(side);
        let (row, column) = (cell / side, cell % side);
        (
            self.grid.0 + s * (column as f64 + 0.5),
            self.grid.1 + s * (row as f64 + 0.5),
        )
    }
    fn of_class(&self, class: &str) -> Vec<&Text> {
        self.texts.iter().filter(|t| t.class == class).collect()
    }
    /// The text of `class` centred on `cell` (x on its centre, the baseline in its lower half).
    fn at_cell(&self, side: usize, cell: usize, class: &str) -> Option<&Text> {
        let (cx, cy) = self.centre(side, cell);
        let s = self.cell_side(side);
        self.texts
            .iter()
            .find(|t| t.class == class && (t.x - cx).abs() < 0.01 && t.y > cy && t.y < cy + s / 2.0)
    }
}

/// Check one SVG picture of `puzzle` as the puzzle itself says it should look.
fn check_picture(svg: &Svg, puzzle: &Puzzle, what: &str) {
    let side = puzzle.size.side();
    assert!(
        svg.grid.0 >= 0.0 && svg.grid.0 + svg.grid.2 <= svg.width,
        "{what}"
    );
    assert!(
        svg.grid.1 >= 0.0 && svg.grid.1 + svg.grid.2 <= svg.height,
        "{what}"
    );
    let givens = svg.of_class("given");
    assert_eq!(
        givens.len(),
        puzzle.givens_count(),
        "{what}: one text a given"
    );
    let given_size = givens.first().map(|t| t.size);
    for cell in (0..puzzle.givens.len()).filter(|&c| puzzle.is_given(c)) {
        let text = svg
            .at_cell(side, cell, "given")
            .unwrap_or_else(|| panic!("{what}: no given centred on cell {cell}"));
        assert_eq!(
            text.text,
            digit_char(puzzle.givens[cell]).to_string(),
            "{what}"
        );
        assert!(text.bold, "{what}: given at {cell} not bold");
    }
    for mark in svg.of_class("mark") {
        let cell = svg
            .cell_at(side, mark.x, mark.y - 1.0)
            .expect("a mark in the grid");
        assert_eq!(
            puzzle.givens[cell], 0,
            "{what}: a mark on a placed cell {cell}"
        );
        assert!(
            mark.size < given_size.unwrap_or(100.0) / 2.0,
            "{what}: marks small"
        );
    }
    let diagonal = svg.rects.get("diagonal").map_or(0, Vec::len);
    // Every cell of a diagonal that is a house shaded, and no other.
    let variant = puzzle.variant;
    let on_diagonals = (0..side * side)
        .filter(|c| {
            let (row, column) = (c / side, c % side);
            (variant.has_main_diagonal() && row == column)
                || (variant.has_anti_diagonal() && row + column == side - 1)
        })
        .count();
    assert_eq!(diagonal, on_diagonals, "{what}: every diagonal cell shaded");
    let title = svg.of_class("title");
    match &puzzle.meta.title {
        Some(t) => assert_eq!(title[0].text, t.value, "{what}"),
        None => assert!(title.is_empty(), "{what}"),
    }
}

fn render(args: &[&str]) -> (String, String, i32) {
    run(bin().arg("render").args(args))
}

/// The arguments that draw every shipped puzzle file into `out`.
fn shipped_into(out: &Path) -> Vec<String> {
    let dir = puzzles_dir();
    let mut args: Vec<String> = PUZZLES
        .iter()
        .map(|p| dir.join(format!("{p}.sudoku")).display().to_string())
        .collect();
    args.extend(["--out".to_string(), out.display().to_string()]);
    args
}

#[test]
fn every_shipped_puzzle_is_drawn_with_each_given_bold_at_its_cells_centre() {
    let out = scratch("svg");
    let dir = puzzles_dir();
    let args = shipped_into(&out);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (stdout, stderr, code) = render(&args);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    let mut expected = 0;
    for stem in PUZZLES {
        let text = std::fs::read_to_string(dir.join(format!("{stem}.sudoku"))).unwrap();
        let document = format::parse(&text);
        let names = picture_names(stem, &text, &document.puzzles, "svg");
        for (puzzle, name) in document.puzzles.iter().zip(&names) {
            let svg = std::fs::read_to_string(out.join(name))
                .unwrap_or_else(|e| panic!("{name}: {e}; {stderr}"));
            check_picture(&parse_svg(&svg), puzzle, name);
            expected += 1;
        }
    }
    assert!(
        stderr.contains(&format!("wrote {expected} pictures")),
        "{stderr}"
    );
    let written = std::fs::read_dir(&out).unwrap().count();
    assert_eq!(written, expected, "no other file, no temporary left");
    // The pencil-mark file shows its marks, the 16×16 its letters.
    let marks = parse_svg(&std::fs::read_to_string(out.join("marks-7.svg")).unwrap());
    assert!(marks.of_class("mark").len() > 50, "the file's marks drawn");
    let big = parse_svg(&std::fs::read_to_string(out.join("16x16.svg")).unwrap());
    assert!(big.of_class("given").iter().any(|t| t.text == "G"));
}

#[test]
fn entries_conflicts_and_computed_candidates_look_apart() {
    let dir = scratch("entries");
    // A4 is an entry repeating the given 1 of A1: a conflict in row A.
    let file = write(
        &dir,
        "mine.sudoku",
        "# title: Mine & yours\n1 2 | . +1\n. . | . .\n----+----\n. . | . .\n. . | . 3\n",
    );
    let (stdout, stderr, code) = render(&[file.to_str().unwrap(), "--candidates", "--out", "-"]);
    assert_eq!(code, 1, "the conflict is an error, as check says: {stderr}");
    assert!(stderr.contains("mine.sudoku:2:"), "{stderr}");
    let svg = parse_svg(&stdout);
    assert_eq!(svg.of_class("title")[0].text, "Mine & yours");
    let given = svg.at_cell(4, 0, "given").expect("the given 1");
    let entry = svg.at_cell(4, 3, "entry").expect("the entry 1");
    assert!(given.bold && !entry.bold);
    assert_ne!(given.fill, entry.fill, "entries in their own colour");
    let conflicts: Vec<Option<usize>> = svg.rects["conflict"]
        .iter()
        .map(|&(x, y)| svg.cell_at(4, x + 1.0, y + 1.0))
        .collect();
    assert_eq!(conflicts, vec![Some(0), Some(3)]);
    // --candidates: A3 can hold 3 or 4 (row A has 1 and 2), each small in its own place.
    let a3: Vec<&str> = svg
        .of_class("mark")
        .into_iter()
        .filter(|t| svg.cell_at(4, t.x, t.y - 1.0) == Some(2))
        .map(|t| t.text.as_str())
        .collect();
    assert_eq!(a3, ["3", "4"]);
    // Without --candidates, no marks at all.
    let (plain, _, _) = render(&[file.to_str().unwrap(), "--out", "-"]);
    assert!(parse_svg(&plain).of_class("mark").is_empty());
}

#[test]
fn every_size_draws_its_digits_letters_above_nine() {
    let dir = scratch("sizes");
    let row25 = "123456789ABCDEFGHIJKLMNOP";
    let text = format!("# size: 25\n{row25}{}\n", ".".repeat(600));
    let file = write(&dir, "big.sudoku", &text);
    let (stdout, stderr, code) =
        render(&[file.to_str().unwrap(), "--out", "-", "--max-nodes", "2000"]);
    assert!(code <= 1, "{stderr}");
    let svg = parse_svg(&stdout);
    let document = format::parse(&text);
    check_picture(&svg, &document.puzzles[0], "25x25");
    assert_eq!(svg.at_cell(25, 24, "given").unwrap().text, "P");
    assert!(svg.cell_side(25) >= 30.0, "cells large enough to read");
}

#[test]
fn the_solution_is_drawn_lighter_and_a_missing_one_is_said() {
    let dir = puzzles_dir();
    let easy = dir.join("easy.sudoku");
    let (stdout, stderr, code) = render(&[easy.to_str().unwrap(), "--solution", "--out", "-"]);
    assert_eq!(code, 0, "{stderr}");
    let svg = parse_svg(&stdout);
    let text = std::fs::read_to_string(&easy).unwrap();
    let puzzle = &format::parse(&text).puzzles[0];
    let empty = puzzle.givens.iter().filter(|&&d| d == 0).count();
    assert_eq!(svg.of_class("solution").len(), empty);
    let (given, solved) = (&svg.of_class("given")[0], &svg.of_class("solution")[0]);
    assert!(!solved.bold && solved.fill != given.fill);
    for cell in (0..81).filter(|&c| puzzle.givens[c] == 0) {
        assert!(svg.at_cell(9, cell, "solution").is_some(), "cell {cell}");
    }

    let several = dir.join("broken/several-solutions.sudoku");
    let (stdout, stderr, code) = render(&[several.to_str().unwrap(), "--solution", "--out", "-"]);
    assert_eq!(code, 0, "several solutions is a warning: {stderr}");
    assert!(stderr.contains("several solutions: none drawn"), "{stderr}");
    let svg = parse_svg(&stdout);
    assert!(svg.of_class("solution").is_empty());
    assert!(svg.of_class("note")[0].text.contains("several solutions"));

    let none = dir.join("broken/no-solution.sudoku");
    let (stdout, stderr, code) = render(&[none.to_str().unwrap(), "--solution", "--out", "-"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("no solution: none drawn"), "{stderr}");
    assert!(parse_svg(&stdout).of_class("note")[0]
        .text
        .contains("no solution"));
}

#[test]
fn beside_the_solution_a_wrong_entry_is_tinted_and_kept() {
    // A2's digit is 7; the entry 9 there repeats no digit, and the solution has a 9 in row A.
    let easy = std::fs::read_to_string(puzzles_dir().join("easy.sudoku")).unwrap();
    let dir = scratch("wrong-entry");
    let file = write(
        &dir,
        "wrong.sudoku",
        &easy.replacen("6 . . |", "6 +9 . |", 1),
    );
    let (stdout, stderr, code) = render(&[file.to_str().unwrap(), "--solution", "--out", "-"]);
    assert_eq!(code, 0, "{stderr}");
    let svg = parse_svg(&stdout);
    assert_eq!(svg.at_cell(9, 1, "entry").expect("the entry").text, "9");
    assert!(
        svg.at_cell(9, 1, "solution").is_none(),
        "no solution over it"
    );
    let wrong: Vec<Option<usize>> = svg
        .rects
        .get("wrong")
        .expect("a wrong entry is tinted")
        .iter()
        .map(|&(x, y)| svg.cell_at(9, x + 1.0, y + 1.0))
        .collect();
    assert_eq!(wrong, [Some(1)]);
    // Without the solution nothing says it is wrong.
    let (plain, _, _) = render(&[file.to_str().unwrap(), "--out", "-"]);
    assert!(!parse_svg(&plain).rects.contains_key("wrong"));
}

#[test]
fn pictures_are_named_after_their_file_and_line_and_replace_only_their_own() {
    let dir = scratch("names");
    let out = dir.join("pictures");
    let collection = puzzles_dir().join("collection.sudoku");
    let easy = puzzles_dir().join("easy.sudoku");
    let args = [
        collection.to_str().unwrap(),
        easy.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    let (_, stderr, code) = render(&args);
    assert_eq!(code, 0, "{stderr}");
    let text = std::fs::read_to_string(&collection).unwrap();
    let document = format::parse(&text);
    let mut want = picture_names("collection", &text, &document.puzzles, "svg");
    want.push("easy.svg".to_string());
    want.sort();
    let mut made: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    made.sort();
    assert_eq!(made, want);
    assert_eq!(want.len(), 21, "twenty of the collection, one of easy");

    // Its own pictures are replaced on a second run; a file it did not make is not.
    let (_, stderr, code) = render(&args);
    assert_eq!(code, 0, "{stderr}");
    std::fs::write(out.join("easy.svg"), "my drawing").unwrap();
    let (_, stderr, code) = render(&args);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("easy.svg exists and is not a picture sudoku-lsp made"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(out.join("easy.svg")).unwrap(),
        "my drawing"
    );
    let mut forced = args.to_vec();
    forced.push("--force");
    let (_, stderr, code) = render(&forced);
    assert_eq!(code, 0, "{stderr}");
    assert!(std::fs::read_to_string(out.join("easy.svg"))
        .unwrap()
        .starts_with("<svg"));

    // Two inputs that would take the same names: the second is refused.
    let other = write(
        &dir,
        "other/easy.sudoku",
        &std::fs::read_to_string(&easy).unwrap(),
    );
    let (_, stderr, code) = render(&[
        easy.to_str().unwrap(),
        other.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("different --out folders"), "{stderr}");

    // --out - holds one picture only.
    let (stdout, stderr, code) = render(&[collection.to_str().unwrap(), "--out", "-"]);
    assert_eq!(code, 2);
    assert!(stdout.is_empty(), "nothing half said: {stdout}");
    assert!(stderr.contains("--out - writes one picture"), "{stderr}");
}

#[test]
fn unreadable_inputs_broken_puzzles_and_unwritable_folders_are_named() {
    let dir = scratch("errors");
    let missing = dir.join("missing.sudoku");
    let (_, stderr, code) = render(&[missing.to_str().unwrap(), "--out", dir.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(stderr.contains("missing.sudoku"), "{stderr}");

    let broken = puzzles_dir().join("broken/parse-errors.sudoku");
    let out = dir.join("out");
    let (_, stderr, code) = render(&[broken.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("parse-errors.sudoku:8:1: error: row has 8 cells"),
        "{stderr}"
    );
    // The good puzzle after the broken ones is still drawn.
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 1);

    let file = write(&dir, "plain.txt", "not a folder");
    let inside = file.join("pictures");
    let easy = puzzles_dir().join("easy.sudoku");
    let (_, stderr, code) = render(&[easy.to_str().unwrap(), "--out", inside.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("plain.txt/pictures: cannot make the folder"),
        "{stderr}"
    );
}

/// Whether PNGs can be drawn here; if not, says it is skipping (or fails, in CI).
fn fonts_present(stderr: &str) -> bool {
    if !stderr.contains("no font found") {
        return true;
    }
    assert!(
        std::env::var_os("SUDOKU_LSP_REQUIRE_FONTS").is_none(),
        "no font, and SUDOKU_LSP_REQUIRE_FONTS is set: {stderr}"
    );
    eprintln!("SKIPPED: no font to draw PNGs with: {stderr}");
    false
}

/// A PNG's width and height from its header.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(&bytes[12..16], b"IHDR");
    let word = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (word(16), word(20))
}

#[test]
fn pngs_have_the_svgs_size_and_dark_pixels_where_digits_are() {
    let out = scratch("png");
    let dir = puzzles_dir();
    let args = shipped_into(&out);
    let svg_args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (_, stderr, code) = render(&svg_args);
    assert_eq!(code, 0, "{stderr}");
    let mut png_args = svg_args.clone();
    png_args.extend(["--format", "png"]);
    let (_, stderr, code) = render(&png_args);
    if !fonts_present(&stderr) {
        return;
    }
    assert_eq!(code, 0, "{stderr}");
    for stem in PUZZLES {
        let text = std::fs::read_to_string(dir.join(format!("{stem}.sudoku"))).unwrap();
        let document = format::parse(&text);
        let svgs = picture_names(stem, &text, &document.puzzles, "svg");
        let pngs = picture_names(stem, &text, &document.puzzles, "png");
        for ((puzzle, svg_name), png_name) in document.puzzles.iter().zip(&svgs).zip(&pngs) {
            let svg = parse_svg(&std::fs::read_to_string(out.join(svg_name)).unwrap());
            let bytes = std::fs::read(out.join(png_name)).unwrap();
            let (width, height) = png_size(&bytes);
            assert_eq!(
                (width as f64, height as f64),
                (svg.width, svg.height),
                "{png_name}"
            );
            let mut decoder = png::Decoder::new(std::io::Cursor::new(&bytes[..]));
            decoder.set_transformations(png::Transformations::EXPAND);
            let mut reader = decoder.read_info().unwrap();
            let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
            let frame = reader.next_frame(&mut pixels).unwrap();
            let channels = frame.color_type.samples();
            let dark = |x: usize, y: usize| {
                let at = (y * width as usize + x) * channels;
                let p = &pixels[at..at + 3];
                (p[0] as u32 + p[1] as u32 + p[2] as u32) < 3 * 110
            };
            let side = puzzle.size.side();
            let reach = (svg.cell_side(side) * 0.15) as usize;
            for cell in 0..puzzle.givens.len() {
                let (cx, cy) = svg.centre(side, cell);
                let (cx, cy) = (cx as usize, cy as usize);
                let any_dark = (cy - reach..=cy + reach)
                    .any(|y| (cx - reach..=cx + reach).any(|x| dark(x, y)));
                let has_text = svg
                    .texts
                    .iter()
                    .any(|t| svg.cell_at(side, t.x, t.y - 1.0) == Some(cell));
                if puzzle.givens[cell] != 0 {
                    assert!(any_dark, "{png_name}: no dark pixel at cell {cell}'s digit");
                } else if !has_text {
                    assert!(!any_dark, "{png_name}: dark pixels in empty cell {cell}");
                }
            }
        }
    }
}

#[test]
fn without_a_font_a_png_is_an_error_not_a_blank_picture() {
    let dir = scratch("nofont");
    let fonts = dir.join("fonts");
    std::fs::create_dir_all(&fonts).unwrap();
    let out = dir.join("out");
    let easy = puzzles_dir().join("easy.sudoku");
    let (_, stderr, code) = run(bin()
        .args(["render", "--format", "png", "--out"])
        .arg(&out)
        .arg(&easy)
        .env("SUDOKU_LSP_FONT_DIR", &fonts));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("no font found"), "{stderr}");
    assert!(stderr.contains("fonts-dejavu-core"), "{stderr}");
    assert_eq!(
        std::fs::read_dir(&out).unwrap().count(),
        0,
        "no picture written"
    );
}

const EASY_LINE: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

/// The names in a folder, as bytes, sorted.
fn names_in(dir: &Path) -> Vec<Vec<u8>> {
    let mut names: Vec<Vec<u8>> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_encoded_bytes())
        .collect();
    names.sort();
    names
}

/// `coll.sudoku` (puzzles on lines 1 and 2) gives `coll-2.svg`, as `coll-2.sudoku` does: the
/// second overwrote the first and the run said "wrote 3 pictures" of the 2 left.
#[test]
fn a_picture_drawn_in_the_run_is_never_overwritten_and_the_count_is_true() {
    let dir = scratch("clash");
    let out = dir.join("out");
    let coll = write(&dir, "coll.sudoku", &format!("{EASY_LINE}\n{EASY_LINE}\n"));
    let clash = write(
        &dir,
        "coll-2.sudoku",
        &format!("# title: Clash\n{EASY_LINE}\n"),
    );
    let (_, stderr, code) = run(bin()
        .arg("render")
        .arg(&coll)
        .arg(&clash)
        .arg("--out")
        .arg(&out));
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains(&format!(
            "coll-2.sudoku: {} is the picture of {}:2, drawn in this run: not overwritten",
            out.join("coll-2.svg").display(),
            coll.display()
        )),
        "{stderr}"
    );
    assert!(stderr.contains("wrote 2 pictures"), "{stderr}");
    assert_eq!(
        names_in(&out),
        [b"coll-1.svg".to_vec(), b"coll-2.svg".to_vec()]
    );
    let second = std::fs::read_to_string(out.join("coll-2.svg")).unwrap();
    assert!(!second.contains("Clash"), "coll.sudoku's own picture");
}

/// Two names that are not UTF-8 both became `\u{FFFD}.svg`: a name keeps its bytes.
#[cfg(unix)]
#[test]
fn names_that_are_not_utf8_keep_their_bytes() {
    use std::os::unix::ffi::OsStrExt;
    let dir = scratch("bytes");
    let folder = dir.join("in");
    std::fs::create_dir_all(&folder).unwrap();
    for name in [&b"\xff.sudoku"[..], b"\xfe.sudoku"] {
        let path = folder.join(std::ffi::OsStr::from_bytes(name));
        std::fs::write(path, format!("{EASY_LINE}\n")).unwrap();
    }
    let out = dir.join("out");
    let (_, stderr, code) = run(bin().arg("render").arg(&folder).arg("--out").arg(&out));
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("wrote 2 pictures"), "{stderr}");
    assert_eq!(names_in(&out), [b"\xfe.svg".to_vec(), b"\xff.svg".to_vec()]);
}

/// Looking whether a FIFO where a picture goes was made by render opened it for reading, which
/// waits for a writer: the run hung.
#[cfg(unix)]
#[test]
fn a_fifo_where_a_picture_goes_is_refused_at_once() {
    let dir = scratch("fifo");
    let easy = write(&dir, "easy.sudoku", &format!("{EASY_LINE}\n"));
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    common::cli::mkfifo(&out.join("easy.svg"));
    for force in [false, true] {
        let mut command = bin();
        command.arg("render").arg(&easy).arg("--out").arg(&out);
        if force {
            command.arg("--force");
        }
        let (_, stderr, code) = common::cli::run_or_fail_hanging(&mut command, 20);
        assert_eq!(code, 2, "{stderr}");
        assert!(
            stderr.contains("easy.svg exists and is a pipe (FIFO), not a picture: not replaced"),
            "{stderr}"
        );
        assert!(stderr.contains("wrote 0 pictures"), "{stderr}");
    }
}
