use super::*;
use crate::format::parse;

/// The text of a string that imports without a warning or an error, which must read back
/// without a problem.
fn clean(input: &str) -> String {
    let imported = import(input).unwrap_or_else(|e| panic!("{input}: {e}"));
    assert!(imported.warnings.is_empty(), "{:?}", imported.warnings);
    assert!(imported.errors.is_empty(), "{:?}", imported.errors);
    reads_back(&imported.text);
    imported.text
}

/// Whether `text` reads as one puzzle with no problem at all.
fn reads_back(text: &str) {
    let document = parse(text);
    assert!(
        document.problems.is_empty(),
        "{:?}\n{text}",
        document.problems
    );
    assert_eq!(document.puzzles.len(), 1, "{text}");
}

/// The rule lines of a clean import: those that start with a keyword (grid rows start with
/// a digit, `.` or a capital, comments with `#`).
fn rule_lines(input: &str) -> Vec<String> {
    clean(input)
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_lowercase()))
        .map(String::from)
        .collect()
}

/// Whether the one puzzle of `text` has the given 5 that every case below adds.
fn keeps_the_five(text: &str) -> bool {
    parse(text).puzzles[0].givens.contains(&5)
}

/// The one rule line of a clean import.
fn one_line(input: &str) -> String {
    let lines = rule_lines(input);
    assert_eq!(lines.len(), 1, "{lines:?}");
    lines[0].clone()
}

fn imported(input: &str) -> Imported {
    import(input).unwrap_or_else(|e| panic!("{input}: {e}"))
}

#[test]
fn givens_and_the_size_make_the_grid() {
    let text = clean(".~R1C1_5~R2C2_3");
    assert!(text.starts_with("5 . . | . . . | . . .\n. 3 . |"), "{text}");
    let six = clean(".Shape~6x6.~R1C5_4~R6C2_5");
    assert_eq!(six.lines().next(), Some(". . . | . 4 ."));
    assert_eq!(six.lines().count(), 8);
    assert_eq!(
        clean(".Shape~6x6~1-6~Sudoku.~R1C5_4"),
        clean(".Shape~6x6.~R1C5_4")
    );
    // sigh's base-17 cell ids (`RgCg` on a 16×16), and decimal ones.
    let sixteen = clean(".Shape~16x16.~RgCg_16~RaC1_10~R10C2_9");
    let rows: Vec<&str> = sixteen.lines().filter(|l| !l.starts_with('-')).collect();
    assert!(rows[15].ends_with('G'), "{sixteen}");
    assert!(rows[9].starts_with("A 9 "), "{sixteen}");
}

#[test]
fn allowed_candidates_are_even_odd_or_candidates_and_meet_when_given_twice() {
    let lines = rule_lines(".~R1C1_2_4_6_8.~R1C2_1_3_5_7_9~R1C3_1_3_5_7_9.~R1C4_1_2.~R1C5_1_2");
    assert_eq!(lines, ["candidates 12: A4 A5", "even: A1", "odd: A2 A3"]);
    assert_eq!(
        rule_lines(".~R1C1_1_2_3.~R1C1_2_3_4"),
        ["candidates 23: A1"]
    );
    let text = clean(".~R1C1_1_2.~R1C1_2_3");
    assert!(text.starts_with("2 . ."), "{text}");
    // On a 6×6, the even digits are 2, 4 and 6.
    assert_eq!(one_line(".Shape~6x6.~R1C1_2_4_6"), "even: A1");
}

#[test]
fn lines_keep_their_cells_in_order() {
    let cases = [
        (".Thermo~R9C4~R8C3~R7C2", "thermo: I4 H3 G2"),
        (".Renban~R1C1~R1C2~R2C2", "renban: A1 A2 B2"),
        (".Palindrome~R1C1~R2C2~R3C3", "palindrome: A1 B2 C3"),
        (".Between~R1C1~R1C2~R1C3", "between: A1 A2 A3"),
        (".Zipper~R1C1~R1C2~R1C3", "zipper: A1 A2 A3"),
        (".RegionSumLine~R1C3~R1C4", "region-sum: A3 A4"),
        (".DoubleArrow~R1C1~R1C2~R1C3", "double-arrow: A1 A2 A3"),
        (".AllDifferent~R1C1~R5C5", "extra-region: A1 E5"),
        (".Modular~3~R1C1~R1C2~R1C3", "modular: A1 A2 A3"),
        (".Entropic~R1C1~R1C2~R1C3", "entropic: A1 A2 A3"),
        (".Lockout~4~R1C1~R1C2~R1C3", "lockout 4: A1 A2 A3"),
        (".Arrow~R1C1~R1C2~R1C3", "arrow: A1 > A2 A3"),
        (".Indexing~C~R1C5~R2C5", "column-index: A5 B5"),
        (".Indexing~R~R1C1", "row-index: A1"),
        (".SameValues~3~R1C1~R5C5~R9C9", "clone: A1 = E5 = I9"),
    ];
    for (input, line) in cases {
        assert_eq!(one_line(input), line, "{input}");
    }
}

#[test]
fn whispers_say_their_difference_unless_it_is_ours() {
    assert_eq!(one_line(".Whisper~R1C1~R1C2"), "whisper: A1 A2");
    assert_eq!(one_line(".Whisper~5~R1C1~R1C2"), "whisper: A1 A2");
    assert_eq!(one_line(".Whisper~4~R1C1~R1C2"), "whisper 4: A1 A2");
    // sigh's default is 5 on every grid, ours ⌈N/2⌉.
    assert_eq!(one_line(".Shape~6x6.Whisper~R1C1~R1C2"), "whisper 5: A1 A2");
    // A line that comes back to a cell is cut where it does, each step kept.
    assert_eq!(
        rule_lines(".Whisper~5~R6C7~R5C7~R6C6~R5C5~R4C6~R5C7"),
        ["whisper: F7 E7 F6 E5 D6", "whisper: D6 E7"]
    );
}

#[test]
fn cages_and_pill_arrows() {
    assert_eq!(one_line(".Cage~15~R1C1~R1C2"), "cage 15: A1 A2");
    assert_eq!(one_line(".Cage~~R1C1~R1C2"), "cage: A1 A2");
    assert_eq!(one_line(".Cage~0~R1C1~R1C2"), "cage: A1 A2");
    // The pill is read in reading order, whatever order sigh lists it in.
    assert_eq!(
        one_line(".PillArrow~2~R1C2~R1C1~R2C1~R3C1"),
        "arrow: A1 A2 > B1 C1"
    );
}

#[test]
fn a_little_killers_edge_says_which_way_its_diagonal_runs() {
    let cases = [
        ("R9C8", "I8 up-right"),
        ("R2C9", "B9 up-left"),
        ("R1C2", "A2 down-left"),
        ("R8C1", "H1 down-right"),
        ("R1C1", "A1 down-right"),
        ("R1C9", "A9 down-left"),
    ];
    for (start, place) in cases {
        let input = format!(".LittleKiller~12~{start}");
        assert_eq!(one_line(&input), format!("little-killer 12: {place}"));
    }
}

#[test]
fn outside_clues_name_their_side() {
    assert_eq!(one_line(".Sandwich~8~C1"), "sandwich 8: top 1");
    assert_eq!(one_line(".Sandwich~0~R2"), "sandwich 0: left B");
    assert_eq!(
        rule_lines(".XSum~C2~27~26"),
        ["x-sum 27: top 2", "x-sum 26: bottom 2"]
    );
    assert_eq!(one_line(".XSum~R4~~17"), "x-sum 17: right D");
    assert_eq!(one_line(".Skyscraper~C5~5"), "skyscraper 5: top 5");
}

#[test]
fn dots_join_each_side_by_side_pair() {
    assert_eq!(one_line(".WhiteDot~R1C1~R1C2"), "white: A1 A2");
    assert_eq!(one_line(".BlackDot~R2C1~R1C1"), "black: B1 A1");
    assert_eq!(one_line(".X~R1C1~R1C2"), "x: A1 A2");
    assert_eq!(one_line(".V~R1C1~R2C1"), "v: A1 B1");
    // More cells: a dot between each two side by side (A1 B2 are not).
    assert_eq!(
        rule_lines(".WhiteDot~R1C1~R1C2~R2C2"),
        ["white: A1 A2", "white: A2 B2"]
    );
    // The earlier cell is the greater.
    assert_eq!(one_line(".GreaterThan~R1C1~R1C2"), "inequality: A2 < A1");
    assert_eq!(one_line(".Quad~R1C1~1~4~6~7"), "quad 1467: A1 A2 B1 B2");
}

#[test]
fn rules_of_the_whole_grid_are_flags_in_the_fpuzzles_order() {
    let lines = rule_lines(
        ".StrictXV.AntiConsecutive.AntiKing.AntiKnight.DisjointSets.Windoku.Diagonal~1.StrictKropki",
    );
    assert_eq!(
        lines,
        [
            "diagonal /",
            "windoku",
            "disjoint",
            "antiknight",
            "antiking",
            "nonconsecutive",
            "negative: white black x v"
        ]
    );
    assert_eq!(one_line(".Diagonal~-1"), "diagonal \\");
    assert_eq!(one_line(".Diagonal~-1.Diagonal~1"), "diagonal");
}

#[test]
fn sighs_windows_are_written_as_extra_regions_where_ours_differ() {
    // On a 6×6 sigh has one window (rows 2–3, columns 2–4); ours are two.
    assert_eq!(
        rule_lines(".Shape~6x6.Windoku"),
        ["extra-region: B2 B3 B4 C2 C3 C4"]
    );
}

#[test]
fn a_jigsaw_replaces_the_boxes_only_with_no_boxes() {
    let layout =
        "000111222000111222000111222333444555333444555333444555666777888666777888666777888";
    // A1–A3 and A4 swapped between the first two regions: no longer the boxes.
    let layout = layout.replacen("0001", "0010", 1);
    let text = clean(&format!(".NoBoxes.Jigsaw~{layout}"));
    assert!(text.starts_with("regions:\nAABABBCCC\n"), "{text}");
    assert!(!text.contains('|'), "{text}");
    let extra = rule_lines(&format!(".Jigsaw~{layout}"));
    assert_eq!(extra.len(), 9);
    assert_eq!(extra[0], "extra-region: A1 A2 A4 B1 B2 B3 C1 C2 C3");
    assert_eq!(one_line(".NoBoxes"), "regions: none");
}

#[test]
fn pair_relations_that_are_ours_become_their_lines() {
    // sigh's keys for a < b (a thermometer) and |a - b| >= 2 between every two (nabner) on
    // a 9×9, from its `fnToBinaryKey`.
    assert_eq!(
        one_line(".Pair~-n_4H-gH4AGg~_up~R1C1~R1C2~R1C3"),
        "thermo: A1 A2 A3"
    );
    assert_eq!(
        one_line(".PairX~8H_xf8H_xf8H_B~_Nabner~R4C1~R5C1~R6C1"),
        "nabner: D1 E1 F1"
    );
    let odd = imported(".Pair~UFVQFUAFQAE~_Odd-Even~R1C2~R1C3");
    assert!(
        odd.warnings[0].contains("its relation is none of the rules"),
        "{odd:?}"
    );
}

#[test]
fn what_has_no_line_is_kept_as_a_comment_and_named_in_a_warning() {
    let cases = [
        (
            ".SumLine~10~R1C1~R1C2",
            "sigh's SumLine has no constraint line",
        ),
        (".Foo~R1C1", "'Foo' is no constraint type sigh knows"),
        (".Or.~R1C1_1.~R1C2_1.End", "sigh's composite .Or … .End"),
        (".Shape~9x9~0-8", "its digits are 0-8, not 1 to 9"),
        (".Shape~9x9~~Raw", "a Raw grid"),
        (".Thermo~VA1~R1C1", "VA1 is one of sigh's extra cells"),
        (".Modular~4~R1C1~R1C2", "modular lines are mod 3"),
        (".Shape~6x6.Entropic~R1C1~R1C2", "need the digits 1 to 9"),
        (
            ".SameValues~2~R1C1~R1C2~R2C1~R2C2",
            "a clone keeps them in place",
        ),
        (".Thermo~R1C1~R1C3", "are not next to each other"),
    ];
    for (input, says) in cases {
        let imported = imported(&format!("{input}.~R5C5_5"));
        assert!(imported.errors.is_empty(), "{input}: {:?}", imported.errors);
        assert_eq!(
            imported.warnings.len(),
            1,
            "{input}: {:?}",
            imported.warnings
        );
        let warning = &imported.warnings[0];
        let kept = input
            .rsplit_once(".Shape~6x6")
            .map_or(input, |(_, rest)| rest);
        let at = input.len() - kept.len() + 1;
        let start = format!("kept as a comment: character {at}: ");
        assert!(warning.starts_with(&start), "{warning}");
        assert!(warning.contains(says), "{input}: {warning}");
        assert!(
            imported.text.contains(&format!("# sigh: {kept}\n")),
            "{input}:\n{}",
            imported.text
        );
        reads_back(&imported.text);
        // The other items are still read.
        assert!(keeps_the_five(&imported.text), "{}", imported.text);
    }
}

#[test]
fn a_wrong_item_is_an_error_at_its_character_and_the_others_are_still_read() {
    let cases = [
        (
            ".Cage~x~R1C1~R1C2",
            1,
            "the cage's sum 'x' is no whole number",
        ),
        (".~R10C1_5", 3, "R10C1 is outside this 9×9 grid"),
        (".Thermo~R1C1~R1", 1, "'R1' is no cell"),
        (".Cage~15", 1, "it names no cell"),
        (
            ".LittleKiller~12~R5C5",
            1,
            "R5C5 starts none of sigh's little killer diagonals",
        ),
        (
            ".~R1C1_1.~R1C1_2",
            3,
            "the values given for A1 have no digit in common",
        ),
        (".End", 1, "closes no .Or"),
        (".Or.~R1C1_1", 1, "never closed"),
        (".~R1C1_10", 3, "'10' is no digit of a 9×9 grid"),
        (".XSum~C1~0", 1, "a clue of 0"),
        (".Whisper~0~R1C1~R1C2", 1, "a whisper's difference of 0"),
    ];
    for (input, at, says) in cases {
        let imported = imported(&format!(".~R5C5_5{input}"));
        let at = at + ".~R5C5_5".len();
        assert_eq!(imported.errors.len(), 1, "{input}: {:?}", imported.errors);
        let error = &imported.errors[0];
        assert!(
            error.starts_with(&format!("character {at}: ")),
            "{input}: {error}"
        );
        assert!(error.contains(says), "{input}: {error}");
        assert!(error.ends_with("(kept as a comment)"), "{error}");
        assert!(imported.text.starts_with("# sigh: "), "{}", imported.text);
        assert!(keeps_the_five(&imported.text), "{}", imported.text);
        reads_back(&imported.text);
    }
}

#[test]
fn a_string_that_gives_no_puzzle_is_an_error_for_the_whole() {
    let cases = [
        (
            "Thermo~R1C1",
            "character 1: a sigh constraint string starts with '.'",
        ),
        (".Shape~6x9", "a grid of 6 rows and 9 columns is not square"),
        (".Shape~3x3", "a 3×3 grid is not a size sudoku-lsp reads"),
        (".Shape~25x25", "sigh's grids are 16×16 at most"),
        (".Shape~big", "its grid is no size"),
    ];
    for (input, says) in cases {
        let error = import(input).unwrap_err();
        assert!(error.contains(says), "{input}: {error}");
    }
}

#[test]
fn whitespace_is_ignored_and_positions_count_it() {
    let imported = imported(".Cage~15~R1C1 ~R1C2\n  .Cage~x~R2C1~R2C2");
    assert!(
        imported.text.contains("cage 15: A1 A2\n"),
        "{}",
        imported.text
    );
    assert!(
        imported.errors[0].starts_with("character 23: .Cage~x~R2C1~R2C2"),
        "{:?}",
        imported.errors
    );
}

#[test]
fn constraint_strings_are_told_by_their_shape() {
    for yes in [
        ".~R1C1_5",
        ".AntiKnight.",
        ".Thermo~R1C1~R1C2",
        ".Sum~3~R1C5~R1C6 .Sum~4~R2C6~R1C6",
        ".Pair~UFVQFUAFQAE~_Odd-Even%20Thermo~r1c2~r1c3",
    ] {
        assert!(is_constraint_string(yes), "{yes}");
    }
    for no in [
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
        ". . 3 | . 2 . | 6 . .",
        "..E..K..MI....P.K",
        &".".repeat(81),
        "hello",
        ".",
        ".23...7..",
    ] {
        assert!(!is_constraint_string(no), "{no}");
    }
}

#[test]
fn the_comment_of_a_kept_item_is_no_metadata() {
    let imported = imported(".SumLine~10~R1C1~R1C2");
    assert!(
        imported.text.starts_with("# sigh: .SumLine"),
        "{}",
        imported.text
    );
    // Not a metadata key, nor one typo from one (`size` is two away): no finding at all.
    reads_back(&imported.text);
}

#[test]
fn lines_are_written_by_kind_in_the_fpuzzles_order() {
    let lines = rule_lines(
        ".Thermo~R1C1~R1C2.GreaterThan~R5C5~R5C6.X~R3C3~R3C4.Cage~3~R9C9~R9C8.~R7C7_1_2.AntiKnight",
    );
    assert_eq!(
        lines,
        [
            "antiknight",
            "candidates 12: G7",
            "cage 3: I9 I8",
            "x: C3 C4",
            "inequality: E6 < E5",
            "thermo: A1 A2"
        ]
    );
}
