use super::*;

const EASY: &str = "# title: Loose\n\
..3.2.6..\n9..3.5..1\n..18.64..\n..81.29..\n7.......8\n..67.82..\n..26.95..\n8..2.3..9\n..5.1.3..\n";

/// `text` with the JSON edits `[{from, to, insert}]` made (offsets in UTF-16 units, which for
/// these ASCII texts are bytes), last first so the earlier offsets hold.
fn applied(text: &str, edits: &Value) -> String {
    let mut out = text.to_string();
    for edit in edits.as_array().unwrap().iter().rev() {
        let from = edit["from"].as_u64().unwrap() as usize;
        let to = edit["to"].as_u64().unwrap() as usize;
        out.replace_range(from..to, edit["insert"].as_str().unwrap());
    }
    out
}

fn diagnostics(playground: &mut Playground, text: &str) -> Vec<Value> {
    let json: Value = serde_json::from_str(&playground.update(text.to_string())).unwrap();
    json.as_array().unwrap().clone()
}

#[test]
fn a_conflict_is_an_error_at_its_cells_in_utf16_units() {
    let mut playground = Playground::new();
    // "😀" is two UTF-16 units and four bytes: the grid's offsets differ in each.
    let text = format!("# title: 😀\n33.......\n{}", ".........\n".repeat(8));
    let found = diagnostics(&mut playground, &text);
    let conflict = found
        .iter()
        .find(|d| d["code"] == "conflict")
        .expect("a conflict");
    assert_eq!(conflict["severity"], "error");
    let grid = text[..text.find("33").unwrap()].encode_utf16().count();
    let from = conflict["from"].as_u64().unwrap() as usize;
    assert!(
        from == grid || from == grid + 1,
        "{conflict} (grid at {grid})"
    );
}

#[test]
fn hover_on_an_empty_cell_gives_its_candidates_and_on_the_title_the_summary() {
    let mut playground = Playground::new();
    assert!(diagnostics(&mut playground, EASY).is_empty());
    let a1 = EASY.find("..3").unwrap() as u32;
    let hover = playground.hover(a1).unwrap();
    assert!(hover.starts_with("**A1**"), "{hover}");
    assert!(hover.contains("Pencil marks:"), "{hover}");
    let title = playground.hover(3).unwrap();
    assert!(title.contains("Puzzle 1: Loose"), "{title}");
    assert!(title.contains("exactly one solution"), "{title}");
}

#[test]
fn the_picture_is_the_puzzles_svg() {
    let mut playground = Playground::new();
    diagnostics(&mut playground, EASY);
    let svg = playground.picture(0).unwrap();
    assert!(
        svg.starts_with("<svg") || svg.starts_with("<?xml"),
        "{svg:.80}"
    );
    assert!(svg.contains("</svg>"));
}

#[test]
fn the_panel_rates_and_explains_and_solve_fills_every_empty_cell() {
    let mut playground = Playground::new();
    diagnostics(&mut playground, EASY);
    let panel: Value = serde_json::from_str(&playground.panel(0)).unwrap();
    assert_eq!(panel["title"], "Puzzle 1: Loose");
    let lines = panel["lines"].to_string();
    assert!(lines.contains("Rating: SE "), "{lines}");
    assert!(!panel["steps"].as_array().unwrap().is_empty());
    let edits: Value = serde_json::from_str(&playground.solve(0)).unwrap();
    let empty = EASY
        .lines()
        .skip(1)
        .flat_map(|l| l.chars())
        .filter(|&c| c == '.')
        .count();
    assert_eq!(edits.as_array().unwrap().len(), empty);
    let solved = applied(EASY, &edits);
    assert!(diagnostics(&mut playground, &solved)
        .iter()
        .all(|d| d["severity"] != "error"));
    assert!(!solved.contains('.'));
}

#[test]
fn a_link_goes_out_and_comes_back_as_the_same_puzzle() {
    let mut playground = Playground::new();
    diagnostics(&mut playground, EASY);
    let link = playground.link_or_why(0, "fpuzzles").unwrap();
    assert!(link.starts_with("https://"), "{link}");
    let text = import_link_or_why(&link).unwrap();
    let back = format::parse(&text);
    let here = format::parse(EASY);
    assert_eq!(back.puzzles[0].givens, here.puzzles[0].givens);
}

#[test]
fn offsets_count_utf16_units_both_ways() {
    let offsets = Offsets::new("a😀é\n");
    // bytes: a=0, 😀=1..5, é=5..7, \n=7, end 8; units: a=0, 😀=1..3, é=3, \n=4, end 5.
    assert_eq!([0, 1, 5, 7, 8].map(|b| offsets.utf16(b)), [0, 1, 3, 4, 5]);
    assert_eq!([0, 1, 3, 4, 5].map(|u| offsets.byte(u)), [0, 1, 5, 7, 8]);
    assert_eq!(offsets.byte(99), 8);
}

#[test]
fn the_next_step_places_a_digit_and_hints_go_from_where_to_what() {
    let mut playground = Playground::new();
    diagnostics(&mut playground, EASY);
    let next: Value = serde_json::from_str(&playground.next_step(0)).unwrap();
    let title = next["title"].as_str().unwrap();
    assert!(title.starts_with("Apply next step"), "{next}");
    let edits = next["edits"].as_array().unwrap();
    assert!(!edits.is_empty());
    assert!(edits.iter().all(|e| e["insert"]
        .as_str()
        .unwrap()
        .chars()
        .all(|c| c.is_ascii_digit())));
    let where_to_look = playground.hint_or_why(0, 1).unwrap();
    let whole = playground.hint_or_why(0, 3).unwrap();
    assert!(where_to_look.contains("look at"), "{where_to_look}");
    assert_ne!(where_to_look, whole);
}

#[test]
fn pencil_marks_are_written_into_every_empty_cell() {
    let mut playground = Playground::new();
    diagnostics(&mut playground, EASY);
    let edits: Value = serde_json::from_str(&playground.fill_marks_or_why(0).unwrap()).unwrap();
    let marked = applied(EASY, &edits);
    let document = format::parse(&marked);
    let puzzle = &document.puzzles[0];
    assert!(puzzle.marks.is_some(), "{marked}");
    assert_eq!(puzzle.givens, format::parse(EASY).puzzles[0].givens);
    // On marks, the next step writes into them.
    let next: Value = serde_json::from_str(&{
        playground.update(marked.clone());
        playground.next_step(0)
    })
    .unwrap();
    assert!(
        next["title"]
            .as_str()
            .unwrap()
            .starts_with("Apply next step: "),
        "{next}"
    );
}

#[test]
fn a_puzzle_without_one_solution_gets_no_hint_and_no_next_step() {
    let mut playground = Playground::new();
    diagnostics(&mut playground, &format!("{}\n", ".........\n".repeat(9)));
    assert!(playground.hint_or_why(0, 1).is_err());
    let next: Value = serde_json::from_str(&playground.next_step(0)).unwrap();
    assert!(
        next["error"]
            .as_str()
            .unwrap()
            .contains("exactly one solution"),
        "{next}"
    );
}

/// The tokens of `text` as (its text, meaning, conflict) triples.
fn tokens_of(playground: &Playground, text: &str) -> Vec<(String, u32, bool)> {
    let flat = playground.tokens(0, text.encode_utf16().count() as u32);
    let units: Vec<u16> = text.encode_utf16().collect();
    flat.chunks(3)
        .map(|t| {
            let piece = String::from_utf16(&units[t[0] as usize..t[1] as usize]).unwrap();
            (piece, t[2] & !CONFLICT, t[2] & CONFLICT != 0)
        })
        .collect()
}

#[test]
fn tokens_say_what_each_stretch_is_in_utf16_units_with_conflicts_marked() {
    let mut playground = Playground::new();
    let text = format!(
        "# title: 😀 two\n33.......\n{}cage 15: A3 A4 # a comment\n",
        ".........\n".repeat(8)
    );
    diagnostics(&mut playground, &text);
    let tokens = tokens_of(&playground, &text);
    let has = |piece: &str, meaning: u32, conflict: bool| {
        tokens.contains(&(piece.to_string(), meaning, conflict))
    };
    assert!(has("title", 5, false), "{tokens:?}");
    assert!(has("😀 two", 6, false), "{tokens:?}");
    assert!(has("33", 0, true), "the two 3s are in conflict: {tokens:?}");
    assert!(has(".......", 3, false), "{tokens:?}");
    assert!(has("cage", 8, false), "{tokens:?}");
    assert!(has("15", 9, false), "{tokens:?}");
    assert!(has("A3", 10, false), "{tokens:?}");
    assert!(has("# a comment", 7, false), "{tokens:?}");
}

#[test]
fn tokens_for_a_range_start_at_its_line_and_stop_after_it() {
    let mut playground = Playground::new();
    diagnostics(&mut playground, EASY);
    let second_row = EASY.find("9..3").unwrap() as u32;
    let flat = playground.tokens(second_row + 2, second_row + 3);
    assert_eq!(flat[0], second_row, "from the line's start");
    let last_end = flat[flat.len() - 2];
    assert_eq!(last_end, second_row + 9, "only that line: {flat:?}");
}

fn completion(playground: &Playground, at: usize) -> Value {
    serde_json::from_str(&playground.complete(at as u32)).unwrap()
}

/// The labels of a completion's items, in order.
fn labels(offered: &Value) -> Vec<&str> {
    let items = offered["items"].as_array().unwrap();
    items.iter().map(|i| i["label"].as_str().unwrap()).collect()
}

#[test]
fn completion_in_an_empty_cell_offers_the_digits_that_fit_it() {
    let mut playground = Playground::new();
    diagnostics(&mut playground, EASY);
    let a1 = EASY.find("..3").unwrap();
    let offered = completion(&playground, a1 + 1);
    let labels = labels(&offered);
    assert_eq!(labels, ["4", "5"], "{offered}");
    let edit = &offered["items"][0]["edit"];
    assert_eq!(edit["from"], a1, "{offered}");
    assert_eq!(edit["to"], a1 + 1, "{offered}");
    assert_eq!(edit["insert"], "4", "{offered}");
    assert!(offered["items"][0]["info"]
        .as_str()
        .unwrap()
        .contains("Out of A1"));
    // Between two givens (C3 and C4): nothing.
    let between = EASY.find("18").unwrap() + 1;
    assert_eq!(completion(&playground, between), Value::Null);
}

#[test]
fn completion_on_a_constraint_line_offers_keywords_then_cells() {
    let mut playground = Playground::new();
    let text = format!("{EASY}ther");
    diagnostics(&mut playground, &text);
    let offered = completion(&playground, text.len());
    let line = text.rfind('\n').unwrap() + 1;
    assert_eq!(offered["from"], line, "the word typed so far: {offered}");
    let items = offered["items"].as_array().unwrap();
    assert!(
        items
            .iter()
            .any(|i| i["label"] == "thermo" && i["kind"] == "keyword"),
        "{offered}"
    );
    let text = format!("{EASY}thermo: A1 ");
    diagnostics(&mut playground, &text);
    let offered = completion(&playground, text.len());
    let labels = labels(&offered);
    assert_eq!(
        labels,
        ["A2", "B1", "B2"],
        "the cells touching A1: {offered}"
    );
}

#[test]
fn the_panel_rates_a_grid_once_wherever_the_cursor_is_in_it() {
    let mut playground = Playground::new();
    diagnostics(&mut playground, EASY);
    let first = playground.panel(0);
    let again = playground.panel(EASY.find("7.......8").unwrap() as u32);
    assert_eq!(first, again);
    assert_eq!(playground.ratings.len(), 1, "rated once");
    // Another grid is rated on its own.
    let edited = EASY.replacen("..3.2.6..", "4.3.2.6..", 1);
    diagnostics(&mut playground, &edited);
    playground.panel(0);
    assert_eq!(playground.ratings.len(), 2);
}

#[test]
fn a_quick_look_answers_only_when_every_verdict_is_decided() {
    let mut playground = Playground::new();
    let full = playground.update(EASY.to_string());
    let mut page = Playground::new();
    assert_eq!(page.quick(EASY.to_string(), 1000), Some(full));
    // No time at all for a grid whose verdict needs a search: nothing, not "undecided".
    let open = format!("{}\n", ".".repeat(256));
    assert_eq!(page.quick(open, 0), None);
}

#[test]
fn settling_decides_what_a_check_out_of_time_left_undecided() {
    let mut playground = Playground::new();
    let open = format!("{}\n", ".".repeat(256));
    assert_eq!(
        playground.quick(open.clone(), 0),
        None,
        "undecided in no time"
    );
    let settled = playground.settle(open);
    assert!(!settled.contains("undecided"), "{settled}");
    assert!(settled.contains("several solutions"), "{settled}");
    assert!(playground.analyses.iter().all(|a| a.is_final()));
}

#[test]
fn the_address_holds_the_text_as_lz_string_reads_it_back() {
    let mut playground = Playground::new();
    let text = format!("# title: 😀 ünïcode\n{EASY}");
    diagnostics(&mut playground, &text);
    let address = playground.address();
    assert!(
        address
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-$".contains(c)),
        "URI-safe: {address}"
    );
    let back = lz_str::decompress_from_encoded_uri_component(&address).unwrap();
    assert_eq!(String::from_utf16(&back).unwrap(), text);
}

/// A classic puzzle on one line.
const LINE: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

/// A text made from another.
type Edited = fn(&str) -> String;

/// Where line `n` (from 0) of `text` starts.
fn line_start(text: &str, n: usize) -> usize {
    text.split_inclusive('\n').take(n).map(str::len).sum()
}

/// `text` with line `n`'s first character replaced by `by`.
fn first_of_line(text: &str, n: usize, by: &str) -> String {
    let mut text = text.to_string();
    let at = line_start(&text, n);
    text.replace_range(at..at + 1, by);
    text
}

#[test]
fn an_edited_text_is_checked_as_a_fresh_one_would_be() {
    // Many one-line puzzles, some unsound, and edits of every kind one after the other, each
    // checked from the last check (re-reading around the edit): the diagnostics are those of
    // the whole text checked afresh, offsets (UTF-16 after the "é") included.
    let lines: Vec<String> = (0..400)
        .map(|i| match i % 50 {
            7 => LINE.replacen("..3", "3.3", 1),
            21 => LINE.replacen("..3", "...", 1),
            _ => LINE.to_string(),
        })
        .collect();
    let mut text = format!("# title: many\n{}\n", lines.join("\n"));
    let mut playground = Playground::new();
    diagnostics(&mut playground, &text);
    let edits: [(&str, Edited); 7] = [
        ("a conflict typed", |t| first_of_line(t, 200, "3")),
        ("a conflict mended", |t| first_of_line(t, 8, ".")),
        ("a line removed", |t| {
            let mut t = t.to_string();
            t.replace_range(line_start(&t, 300)..line_start(&t, 301), "");
            t
        }),
        ("a line added", |t| {
            let mut t = t.to_string();
            let several = LINE.replacen("..3", "...", 1);
            t.insert_str(line_start(&t, 5), &format!("{several}\n"));
            t
        }),
        ("a character beyond ASCII", |t| {
            t.replacen("# title: many", "# title: é many", 1)
        }),
        ("a conflict after it", |t| first_of_line(t, 390, "3")),
        ("everything replaced", |_| format!("{LINE}\n")),
    ];
    for (what, edit) in edits {
        text = edit(&text);
        let again = diagnostics(&mut playground, &text);
        let fresh = diagnostics(&mut Playground::new(), &text);
        assert_eq!(again, fresh, "{what}");
    }
}
