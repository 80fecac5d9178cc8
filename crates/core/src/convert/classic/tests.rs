use super::*;
use crate::analysis::{check_text, Verdict};
use crate::engine::Budget;
use crate::finding::Severity;
use crate::format::parse;

/// The one puzzle of `text` in `format`, imported.
fn one(text: &str, format: Format) -> Imported {
    let pieces = import(text, format);
    assert_eq!(pieces.len(), 1, "{pieces:?}");
    pieces[0].result.clone().unwrap_or_else(|e| panic!("{e}"))
}

/// The error of the one puzzle of `text` in `format`.
fn error(text: &str, format: Format) -> String {
    let pieces = import(text, format);
    assert_eq!(pieces.len(), 1, "{pieces:?}");
    pieces[0].result.clone().expect_err("an error")
}

/// The solution of the one puzzle of an imported text, which must read without errors.
fn solution(text: &str) -> String {
    let errors: Vec<_> = parse(text)
        .problems
        .into_iter()
        .filter(|f| f.severity == Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:?}\n{text}");
    let checked = check_text(text, &Budget::unlimited());
    assert_eq!(checked.analyses.len(), 1, "{text}");
    match &checked.analyses[0].verdict {
        Verdict::Unique(solution) => solution.iter().map(|d| (b'0' + d) as char).collect(),
        other => panic!("{other:?}\n{text}"),
    }
}

// A puzzle and its solution (shipped as puzzles/easy.sudoku's first).
const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
const EASY_SOLVED: &str =
    "483921657967345821251876493548132976729564138136798245372689514814253769695417382";

#[test]
fn formats_that_say_what_they_are_are_detected_and_the_rest_left_to_the_sudoku_reader() {
    assert_eq!(detect(&format!(":0000:x:{EASY}:::")), Some(Format::HoDoKu));
    assert_eq!(detect("3x3:d:k:3841:7705"), Some(Format::SudoCueKiller));
    assert_eq!(
        detect(&format!("{EASY}{}", "a".repeat(81))),
        Some(Format::JigsawLine)
    );
    assert_eq!(detect("9 9\n- 5 1"), Some(Format::Janko));
    assert_eq!(detect(".~R1C1_5.Thermo~R9C4~R8C3"), Some(Format::Sigh));
    assert_eq!(detect(".AntiKnight.\n"), Some(Format::Sigh));
    assert_eq!(detect("#ARuud\n2..1.5..3"), Some(Format::Sdk));
    assert_eq!(detect("[Puzzle]\n2..1.5..3"), Some(Format::Sdk));
    assert_eq!(detect(EASY), None);
    assert_eq!(detect("# title: x\n\n2..1.5..3"), None);
    assert_eq!(detect("https://f-puzzles.com/?load=N4Ig"), None);
    // Rows of lone digits and dots are a grid the .sudoku reader takes as it is.
    let plain = "1 2 3 4 5 6 7 8 9\n".repeat(9);
    assert_eq!(detect(&plain), None);
    assert_eq!(
        detect(&plain.replacen("1 2", "u1 23", 1)),
        Some(Format::Sdx)
    );
    assert_eq!(Format::from_extension("SDK"), Some(Format::Sdk));
    assert_eq!(Format::from_name("short-killer"), Some(Format::ShortKiller));
    assert_eq!(Format::from_name("sigh"), Some(Format::Sigh));
    for (name, format) in FORMATS {
        assert_eq!(format.name(), name);
    }
}

#[test]
fn an_sdk_file_keeps_its_title_author_source_and_level_as_metadata_and_the_rest_as_comments() {
    let text = "#ARuud\n#DA random puzzle created by SudoCue\n#SSudoCue\n#LEasy\n\
                #B03-08-2006\n2..1.5..3\n.54...71.\n.1.2.3.8.\n6.28.73.4\n.........\n\
                1.53.98.6\n.2.7.1.6.\n.81...24.\n7..4.2..1\n";
    let imported = one(text, Format::Sdk);
    assert!(
        imported.text.starts_with(
            "# title: A random puzzle created by SudoCue\n# author: Ruud\n# source: SudoCue\n\
             # difficulty: Easy\n# #B03-08-2006\n2 . . | 1 . 5 | . . 3\n"
        ),
        "{}",
        imported.text
    );
    assert_eq!(
        imported.warnings,
        ["kept as comments, with no metadata key to hold them: #B (date)"]
    );
    assert_eq!(
        solution(&imported.text),
        "278145693354698712916273485692817354837564129145329876423751968581936247769482531"
    );
    // SadMan's sections: the puzzle under [Puzzle], the others kept.
    let sadman = format!(
        "[Puzzle]\n{}[State]\n{}",
        grid_rows(EASY),
        grid_rows(EASY_SOLVED)
    );
    let imported = one(&sadman, Format::Sdk);
    assert_eq!(solution(&imported.text), EASY_SOLVED);
    assert!(imported.text.contains("# [State]") || imported.text.contains("# 483921657"));
    assert_eq!(imported.warnings.len(), 1);
    assert!(error("2..1.5..3\n.54...71.\n", Format::Sdk).contains("nine rows"));
    assert!(error(&grid_rows(EASY).replacen('3', "x", 1), Format::Sdk).contains("'x'"));
}

fn grid_rows(cells: &str) -> String {
    cells
        .as_bytes()
        .chunks(9)
        .map(|row| format!("{}\n", std::str::from_utf8(row).unwrap()))
        .collect()
}

#[test]
fn an_sdm_file_is_a_puzzle_a_line_each_with_its_own_line_number() {
    let text = format!("{}\n\n{EASY}\n{}x\n", EASY.replace('.', "0"), &EASY[..80]);
    let pieces = import(&text, Format::Sdm);
    assert_eq!(pieces.len(), 3);
    assert_eq!(pieces[0].result.as_ref().unwrap().text, format!("{EASY}\n"));
    assert_eq!(pieces[1].line, 3);
    assert_eq!(pieces[2].line, 4);
    let message = pieces[2].result.clone().unwrap_err();
    assert!(message.starts_with("character 81: 'x'"), "{message}");
}

#[test]
fn an_sdx_file_gives_its_givens_entries_and_candidates() {
    // EASY with A1 entered (u4) and B2 left with its candidates 6 and 7.
    let mut rows = Vec::new();
    for r in 0..9 {
        let row: Vec<String> = (0..9)
            .map(|c| {
                let cell = r * 9 + c;
                let given = EASY.as_bytes()[cell];
                match (cell, given) {
                    (0, _) => "u4".to_string(),
                    (_, b'.') if cell == 10 => "67".to_string(),
                    (_, b'.') => "123456789".to_string(),
                    (_, d) => (d as char).to_string(),
                }
            })
            .collect();
        rows.push(row.join(" "));
    }
    let text = rows.join("\n");
    assert_eq!(detect(&text), Some(Format::Sdx));
    let imported = one(&text, Format::Sdx);
    let document = parse(&imported.text);
    let puzzle = &document.puzzles[0];
    let givens = EASY.bytes().filter(|&b| b != b'.').count();
    assert_eq!((0..81).filter(|&c| puzzle.is_given(c)).count(), givens);
    assert!(
        puzzle.is_entry(0) && puzzle.givens[0] == 4,
        "{}",
        imported.text
    );
    let marks = puzzle.marks.as_ref().expect("marks");
    assert_eq!(marks[10], 0b110_0000, "{}", imported.text);
    assert_eq!(solution(&imported.text), EASY_SOLVED);
    let message = error(&text.replacen("u4", "u45", 1), Format::Sdx);
    assert!(message.starts_with("line 1: group 1 \"u45\""), "{message}");
}

#[test]
fn a_simple_sudoku_file_gives_givens_then_the_solvers_values() {
    let boxed = |cells: &str| {
        let mut out = String::from("*-----------*\n");
        for (r, row) in cells.as_bytes().chunks(9).enumerate() {
            if r == 3 || r == 6 {
                out.push_str("|---+---+---|\n");
            }
            let row = std::str::from_utf8(row).unwrap();
            out.push_str(&format!("|{}|{}|{}|\n", &row[..3], &row[3..6], &row[6..]));
        }
        out.push_str("*-----------*\n");
        out
    };
    let values = format!("4{}", &EASY[1..]);
    let text = format!("{}\n{}", boxed(EASY), boxed(&values));
    let imported = one(&text, Format::SimpleSudoku);
    assert!(imported.text.starts_with("+4 . 3 |"), "{}", imported.text);
    assert_eq!(solution(&imported.text), EASY_SOLVED);
    assert!(error(
        &boxed(EASY).replacen("|..3", "|.x3", 1),
        Format::SimpleSudoku
    )
    .contains("'x'"));
}

#[test]
fn hodoku_lines_give_entries_deleted_candidates_and_keep_a_technique_test_as_a_comment() {
    let with_entry = format!(":0000:x:+4{}:::", &EASY[1..]);
    let imported = one(&with_entry, Format::HoDoKu);
    assert!(imported.warnings.is_empty());
    assert!(imported.text.starts_with("+4 . 3"), "{}", imported.text);
    assert_eq!(solution(&imported.text), EASY_SOLVED);
    // Deleted candidates: 6 and 7 out of B2 (row 2, column 2) leave its others.
    let deleted = format!(":0000:x:{EASY}:622 722::");
    let imported = one(&deleted, Format::HoDoKu);
    let document = parse(&imported.text);
    let marks = document.puzzles[0].marks.as_ref().expect("marks");
    let basic = basic_marks(
        &EASY
            .bytes()
            .map(|b| cell_digit(b as char).unwrap())
            .collect::<Vec<_>>(),
    );
    assert_eq!(marks[10], basic[10] & !0b110_0000, "{}", imported.text);
    // reglib-1.4.txt's first test case: a technique test with its elimination.
    let test = ":0000:1:+6+3+42+8+9...8+7531+6+2+9+42+91+7+5+4+6+38+349+16+58+7+2+5+8+79+42..+6+1+62+83+754+97+5+8+4+2+39+61+9.+6+5784+23+4+2+3+6+91...:::182:";
    let imported = one(test, Format::HoDoKu);
    assert!(
        imported
            .text
            .starts_with("# hodoku: technique 0000, candidates 1, placements 182\n"),
        "{}",
        imported.text
    );
    assert_eq!(imported.warnings.len(), 1);
    let message = error(&format!(":0000:x:{}x:::", &EASY[..80]), Format::HoDoKu);
    assert!(message.starts_with("character 89: 'x'"), "{message}");
}

// sigh's collection (data/collections.js), HS_KILLERS[0]: a SudoCue killer line with both
// diagonals, and its solution as sigh's solver finds it.
const SUDOCUE_KILLER: &str = "3x3:d:k:3841:7705:7705:7705:7705:7705:26:3847:3847:3841:27:3846:3846:3846:7705:4361:3847:3848:3841:3843:4621:4876:28:4361:4361:4619:3848:29:3843:4621:4876:4876:5395:5395:4619:3848:3844:3843:4621:4114:4114:5395:4619:30:3850:3844:4878:4880:31:4114:3605:3605:3850:3850:3844:4878:4880:4880:4372:3350:3605:4632:32:4367:4878:33:4625:4372:3350:3350:4632:4632:4367:4367:4625:4625:4372:34:4375:4375:4375:";

#[test]
fn a_sudocue_killer_line_gives_its_cages_and_diagonals_and_solves_as_published() {
    let imported = one(SUDOCUE_KILLER, Format::SudoCueKiller);
    assert!(imported.text.contains("diagonal\n"), "{}", imported.text);
    assert!(
        imported.text.contains("cage 15: A1 B1 C1\n"),
        "{}",
        imported.text
    );
    assert_eq!(
        solution(&imported.text),
        "875329146312674958469815372146298735253746819798153624687432591521987463934561287"
    );
    let message = error(
        &SUDOCUE_KILLER.replacen(":3841:", ":x:", 1),
        Format::SudoCueKiller,
    );
    assert!(message.starts_with("cell 1: \"x\""), "{message}");
    assert!(error("3x3:d:k:1:2", Format::SudoCueKiller).contains("81 cell numbers"));
    assert!(error("3x3", Format::SudoCueKiller).contains("starts 3x3:"));
}

// sigh's collection, TAREK_ALL[0] (from rcbroughton.co.uk's forum), and its solution.
const SHORT_KILLER: &str =
    "G<<L<K<L<^G>^>^E^^>^IJ<G^<G^>^^I^<>^HC<C^<B^N^^G^<>^>^^E^<DF<^PG^<>^^J<^^<H<<>^>^";

#[test]
fn an_81_character_killer_follows_its_pointers_to_each_cages_sum() {
    assert_eq!(detect(SHORT_KILLER), Some(Format::ShortKiller));
    let imported = one(SHORT_KILLER, Format::ShortKiller);
    assert!(
        imported.text.contains("cage 16: A1 A2 A3 B1\n"),
        "{}",
        imported.text
    );
    assert_eq!(
        solution(&imported.text),
        "432851769786239415159467823263974581971583642548612397397148256614725938825396174"
    );
    let looped = format!("><{}", &SHORT_KILLER[2..]);
    assert!(error(&looped, Format::ShortKiller).contains("loop"));
    let outside = format!("^{}", &SHORT_KILLER[1..]);
    assert!(error(&outside, Format::ShortKiller).starts_with("character 1: '^' points out"));
}

// janko.at's Chaos 316, as SmilingWayne/PuzzleSolver keeps it, and its published solution.
const JANKO: &str = "9 9
- 5 1 - - - 6 - 7
- - - - 7 4 9 - -
- - - - 8 - - - 5
- - 7 - - - 4 1 -
1 3 - - - - - 2 8
- 7 4 - - - 1 - -
9 - - - 6 - - - -
- - 5 4 9 - - - -
7 - 2 - - - 8 9 -
1 1 2 2 2 2 3 3 3
1 1 1 2 2 2 3 6 3
1 1 1 1 2 3 3 6 3
4 4 5 5 2 5 3 6 6
4 4 4 5 5 5 6 6 6
4 4 7 5 8 5 5 6 6
7 4 7 7 8 9 9 9 9
7 4 7 8 8 8 9 9 9
7 7 7 8 8 8 8 9 9
";
const JANKO_SOLVED: &str =
    "451932687218674953396781245687253419139546728574829136943168572825497361762315894";

/// The janko.at puzzle's 81 cells (`.` empty) and 81 region symbols, as a jigsaw line's parts.
fn janko_on_one_line() -> (String, String) {
    let rows: Vec<&str> = JANKO.lines().collect();
    let cells = rows[1..10]
        .iter()
        .flat_map(|r| r.split_whitespace())
        .map(|t| if t == "-" { "." } else { t })
        .collect();
    let regions = rows[10..19]
        .iter()
        .flat_map(|r| r.split_whitespace())
        .collect();
    (cells, regions)
}

#[test]
fn jigsaw_layouts_give_their_regions_and_solve_as_published() {
    let imported = one(JANKO, Format::Janko);
    assert!(imported.text.contains("regions:\n"), "{}", imported.text);
    assert_eq!(solution(&imported.text), JANKO_SOLVED);
    // The same puzzle on one line: 81 cells, then 81 region symbols.
    let (cells, regions) = janko_on_one_line();
    let line = format!("{cells}{regions}");
    assert_eq!(detect(&line), Some(Format::JigsawLine));
    assert_eq!(one(&line, Format::JigsawLine).text, imported.text);
    let short = JANKO.replacen("- 5 1 - - - 6 - 7", "- 5 1 - - - 6 -", 1);
    assert!(
        error(&short, Format::Janko).starts_with("line 2: a row of clues has 9 cells, this one 8")
    );
    // Regions of the wrong sizes: said by import or by the reader of what it writes.
    let uneven = JANKO.replacen("1 1 2 2 2 2 3 3 3", "1 1 1 2 2 2 3 3 3", 1);
    let said = match import(&uneven, Format::Janko).remove(0).result {
        Err(message) => message,
        Ok(imported) => parse(&imported.text)
            .problems
            .iter()
            .map(|f| f.message.to_string())
            .collect::<Vec<_>>()
            .join("\n"),
    };
    assert!(said.contains("region '"), "{said}");
}

#[test]
fn jigsaw_lines_of_other_sides_read_their_digits_and_regions() {
    // The 9×9 line with a space between cells and regions, as sigh writes them.
    let (cells, regions) = janko_on_one_line();
    let spaced = format!("{cells} {regions}");
    assert_eq!(detect(&spaced), Some(Format::JigsawLine));
    assert_eq!(
        solution(&one(&spaced, Format::JigsawLine).text),
        JANKO_SOLVED
    );

    // sigh's 16×16 jigsaw: cells lettered A (1) to P (16), a space, then the regions.
    let showcase = include_str!("../sigh/showcase.txt");
    let line = showcase
        .split("name: 16x16: Jigsaw\ninput: ")
        .nth(1)
        .and_then(|rest| rest.lines().next())
        .expect("the 16×16 jigsaw in sigh's showcase");
    assert_eq!(detect(line), Some(Format::JigsawLine));
    let text = one(line, Format::JigsawLine).text;
    assert!(text.contains("regions:\nAAAAABBBBBCDDDDD\n"), "{text}");
    // `..E..K..MI…`: E is 5, K is 11 (B in a 16×16's digits), M 13 (D), I 9.
    assert!(
        text.contains("\n. . 5 . . B . . D 9 . . . . G .\n"),
        "{text}"
    );
    assert_eq!(solution(&text).len(), 256);

    // With a digit 1-9 among them, letters count on from 10 (A-G on a 16×16).
    let hex = format!("{}{}", "1A".repeat(128), "A".repeat(256));
    assert_eq!(jigsaw_cells(&hex[..256], 16).unwrap()[..2], [1, 10]);
    // A letter past the side is no cell; a line of the wrong length is no jigsaw line.
    assert!(jigsaw_cells(&"Q".repeat(256), 16)
        .unwrap_err()
        .contains("'Q' is no cell of a 16×16 jigsaw line"));
    assert!(!is_jigsaw_line(&format!("{cells} {}", &regions[1..])));
}
