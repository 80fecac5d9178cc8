//! Setter checks in the language server, driven over stdio as an editor would: redundant
//! givens (for a setter, with the `redundantGivens` setting: information diagnostics once the
//! puzzle is rated, a quick fix that removes one, and `minimal` in the lens; off by default,
//! and never on a grid the user has filled in), minimality on hover, the symmetry of the givens on hover, the givens that
//! together leave no solution (related information on `no-solution`), and for a puzzle with
//! several solutions the digits each cell takes across them (hover) and the given that removes
//! the most of them (a quick fix).

use crate::common;

use common::{action_edits, apply_text_edits, hover_text, titled, Enc, Server};
use serde_json::{json, Value};
use sudoku_lsp::analysis;
use sudoku_lsp::engine::{self, Budget, Digits};
use sudoku_lsp::format;
use sudoku_lsp::grid::{geometry, Geometry, Size, Variant};

const EASY: &str = concat!("# title: easy\n", common::easy_rows!());

fn nine() -> &'static Geometry {
    geometry(Size::NINE, Variant::Classic)
}

/// A client that refreshes code lenses, so a test can wait for the ratings.
fn capabilities() -> Value {
    let mut capabilities = common::full_capabilities();
    capabilities["workspace"]["codeLens"] = json!({"refreshSupport": true});
    capabilities
}

/// A server for such a client, initialized with these settings.
fn server_with(settings: Value) -> Server {
    let mut server = Server::spawn();
    let params = json!({"processId": null, "rootUri": null, "capabilities": capabilities(),
                        "initializationOptions": settings});
    let response = server.request("initialize", params);
    assert!(response.get("error").is_none(), "{response}");
    server.notify("initialized", json!({}));
    server
}

/// A setter's server: redundant givens on.
fn setter_server() -> Server {
    server_with(json!({"redundantGivens": true}))
}

/// Wait for the ratings of the open documents to finish (the server asks for the lenses again
/// then), answer that request, and let whatever follows it (a publish with the redundant
/// givens) arrive.
fn wait_for_ratings(server: &mut Server) {
    let refresh = server.server_request("workspace/codeLens/refresh");
    server.respond(&refresh, Value::Null);
    server.drain(std::time::Duration::from_millis(500));
}

/// Every `redundant-given` diagnostic published for `uri` so far.
fn published_redundant(server: &Server, uri: &str) -> Vec<Value> {
    server
        .log
        .iter()
        .filter(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri)
        .flat_map(|m| {
            m["params"]["diagnostics"]
                .as_array()
                .cloned()
                .unwrap_or_default()
        })
        .filter(|d| d["code"] == "redundant-given")
        .collect()
}

/// Nine rows of a grid (0 for empty), under a title.
fn block(title: &str, givens: &[u8]) -> String {
    let mut text = format!("# title: {title}\n");
    for row in givens.chunks(9) {
        let line: String = row
            .iter()
            .map(|&d| if d == 0 { '.' } else { char::from(b'0' + d) })
            .collect();
        text.push_str(&line);
        text.push('\n');
    }
    text
}

fn actions_at(server: &mut Server, uri: &str, line: u64, character: u64) -> Vec<Value> {
    let at = json!({"line": line, "character": character});
    let response = server.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": uri},
            "range": {"start": at, "end": at},
            "context": {"diagnostics": []},
        }),
    );
    response["result"].as_array().cloned().unwrap_or_default()
}

fn lens_titles(server: &mut Server, uri: &str) -> Vec<(u64, String)> {
    let response = server.request(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": uri}}),
    );
    response["result"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|l| {
            let line = l["range"]["start"]["line"].as_u64().unwrap();
            (line, l["command"]["title"].as_str().unwrap().to_string())
        })
        .collect()
}

/// Where a cell of a block (title on `title_line`) sits: its line and column.
fn cell_position(title_line: u64, cell: usize) -> (u64, u64) {
    (title_line + 1 + (cell / 9) as u64, (cell % 9) as u64)
}

#[test]
fn redundant_givens_are_information_with_a_quick_fix_and_minimal_puzzles_say_so() {
    let budget = Budget::unlimited();
    let minimal = engine::fast9::generate(1, 11)[0];
    let text = format!("{EASY}\n{}", block("minimal", &minimal));
    let easy = format::parse(EASY).puzzles[0].givens.clone();
    let redundant = analysis::redundant_givens(nine(), &easy, &budget).unwrap();
    assert!(
        !redundant.is_empty(),
        "the easy puzzle has givens it does not need"
    );
    assert_eq!(
        analysis::redundant_givens(nine(), &minimal, &budget),
        Ok(vec![])
    );

    let mut server = setter_server();
    let uri = "file:///t/setter.sudoku";
    server.open(uri, 1, &text);
    let first = server.diagnostics(uri, 1);
    assert!(
        first.is_empty(),
        "sound puzzles: nothing before the rating: {first:#?}"
    );
    // Once rated, the diagnostics are published again with the redundant givens.
    let published = server.wait_for("diagnostics with redundant givens", |m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["version"] == 1
            && !m["params"]["diagnostics"].as_array().unwrap().is_empty()
    });
    let diagnostics = published["params"]["diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics.len(), redundant.len(), "{diagnostics:#?}");
    for (diagnostic, &cell) in diagnostics.iter().zip(&redundant) {
        let (line, column) = cell_position(0, cell);
        assert_eq!(diagnostic["code"], "redundant-given", "{diagnostic}");
        assert_eq!(diagnostic["severity"], 3, "information: {diagnostic}");
        assert_eq!(
            diagnostic["range"],
            json!({"start": {"line": line, "character": column},
                   "end": {"line": line, "character": column + 1}})
        );
        let name = nine().cell_name(cell);
        assert_eq!(
            diagnostic["message"],
            format!("{name} is not needed: without it the puzzle still has one solution")
        );
    }

    // The lenses: how many givens are not needed, or `minimal`.
    let lenses = lens_titles(&mut server, uri);
    let on = |line: u64| -> String {
        lenses
            .iter()
            .find(|(l, t)| *l == line && t.starts_with("SE "))
            .map(|(_, t)| t.clone())
            .unwrap_or_else(|| panic!("a rating lens on line {line}: {lenses:?}"))
    };
    let count = redundant.len();
    let easy_givens = easy.iter().filter(|&&d| d != 0).count();
    assert!(
        on(0).ends_with(&format!(
            "· {easy_givens} givens · {count} redundant givens"
        )),
        "{}",
        on(0)
    );
    assert!(on(11).ends_with(" givens · minimal"), "{}", on(11));

    // Hover on the titles: minimality and symmetry.
    let easy_hover = hover_text(&mut server, uri, 0, 3);
    assert!(easy_hover.contains("Not minimal: the puzzle stays unique without any one of"));
    assert!(
        easy_hover.contains("symmetry of the givens: mirrors across the middle row and column"),
        "{easy_hover}"
    );
    let minimal_hover = hover_text(&mut server, uri, 11, 3);
    assert!(
        minimal_hover.contains("Minimal: every given is needed"),
        "{minimal_hover}"
    );
    let expected = analysis::symmetry(nine(), &minimal).name();
    assert!(
        minimal_hover.contains(&format!("symmetry of the givens: {expected}")),
        "{minimal_hover}"
    );

    // The quick fix on a redundant given removes it, and the puzzle stays unique.
    let cell = redundant[0];
    let (line, column) = cell_position(0, cell);
    let actions = actions_at(&mut server, uri, line, column);
    let name = nine().cell_name(cell);
    let fix = titled(&actions, &format!("Remove the redundant given {name}"))
        .unwrap_or_else(|| panic!("a fix for {name}: {actions:#?}"));
    assert_eq!(fix["kind"], "quickfix");
    let edited = apply_text_edits(&text, &action_edits(fix, uri), Enc::Utf16);
    let puzzle = &format::parse(&edited).puzzles[0];
    assert_eq!(puzzle.givens[cell], 0);
    assert_eq!(
        puzzle.givens.iter().filter(|&&d| d != 0).count(),
        easy.iter().filter(|&&d| d != 0).count() - 1
    );
    assert!(matches!(
        analysis::analyze(Size::NINE, Variant::Classic, &puzzle.givens, &budget).verdict,
        analysis::Verdict::Unique(_)
    ));
    // No such fix on a needed given.
    let needed = (0..81)
        .find(|&c| easy[c] != 0 && !redundant.contains(&c))
        .expect("a needed given");
    let (line, column) = cell_position(0, needed);
    let actions = actions_at(&mut server, uri, line, column);
    assert!(titled(&actions, "Remove the redundant given").is_none());
}

#[test]
fn redundant_givens_are_off_by_default_for_a_solver() {
    let mut server = Server::spawn();
    server.initialize(capabilities());
    let uri = "file:///t/solver.sudoku";
    server.open(uri, 1, EASY);
    assert_eq!(server.diagnostics(uri, 1), Vec::<Value>::new());
    wait_for_ratings(&mut server);
    let redundant = published_redundant(&server, uri);
    assert!(redundant.is_empty(), "{redundant:#?}");
    // The lens rates the puzzle and says nothing of its givens' minimality.
    let lenses = lens_titles(&mut server, uri);
    let rating = &lenses[0].1;
    assert!(
        rating.starts_with("SE ") && rating.ends_with("· 32 givens"),
        "{lenses:?}"
    );
    // Nor does a quick fix offer to remove one.
    let budget = Budget::unlimited();
    let easy = format::parse(EASY).puzzles[0].givens.clone();
    let cell = analysis::redundant_givens(nine(), &easy, &budget).unwrap()[0];
    let (line, column) = cell_position(0, cell);
    let actions = actions_at(&mut server, uri, line, column);
    assert!(
        titled(&actions, "Remove the redundant given").is_none(),
        "{actions:#?}"
    );
    // Turned on, they come (the ratings are kept: no new run is needed).
    server.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"sudoku": {"redundantGivens": true}}}),
    );
    let published = server.wait_for("the redundant givens", |m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["diagnostics"]
                .as_array()
                .is_some_and(|d| d.iter().any(|d| d["code"] == "redundant-given"))
    });
    assert_eq!(published["params"]["version"], 1);
}

#[test]
fn a_grid_the_user_filled_in_has_no_redundant_givens() {
    let solved = concat!("# title: filled in\n", common::easy_solved_rows!());
    let entered = format!(
        "# title: entered\n{}",
        entries_over(common::easy_rows!(), common::easy_solved_rows!())
    );
    let text = format!("{solved}\n{entered}");
    let mut server = setter_server();
    let uri = "file:///t/filled.sudoku";
    server.open(uri, 1, &text);
    let diagnostics = server.diagnostics(uri, 1);
    assert!(
        diagnostics.iter().all(|d| d["code"] == "solved"),
        "{diagnostics:#?}"
    );
    wait_for_ratings(&mut server);
    let redundant = published_redundant(&server, uri);
    assert!(redundant.is_empty(), "{redundant:#?}");
    let lenses = lens_titles(&mut server, uri);
    assert_eq!(
        lenses.iter().map(|(_, t)| t.as_str()).collect::<Vec<_>>(),
        ["solved · 81 givens", "solved · 32 givens"],
        "{lenses:?}"
    );
}

/// `rows` (a puzzle's rows) with each empty cell filled in from `solved` as an entry (`+7`).
fn entries_over(rows: &str, solved: &str) -> String {
    rows.chars()
        .zip(solved.chars())
        .map(|(given, solution)| match given {
            '.' => format!("+{solution}"),
            other => other.to_string(),
        })
        .collect()
}

/// The first `no-solution` diagnostic published for `uri` at version 1 (a first look with no
/// time for the search leaves it to the whole run, which publishes again).
fn published_no_solution(server: &mut Server, uri: &str) -> Value {
    let message = server.wait_for("a no-solution diagnostic", |m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"] == uri
            && m["params"]["version"] == 1
            && no_solution_in(m).is_some()
    });
    no_solution_in(&message).unwrap().clone()
}

fn no_solution_in(publication: &Value) -> Option<&Value> {
    publication["params"]["diagnostics"]
        .as_array()?
        .iter()
        .find(|d| d["code"] == "no-solution")
}

#[test]
fn no_solution_names_the_givens_that_together_leave_none() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/broken/no-solution.sudoku"),
    )
    .unwrap();
    let puzzle = &format::parse(&text).puzzles[0];
    let core = analysis::no_solution_core(nine(), &puzzle.givens, &Budget::unlimited());
    assert!(core.minimal());

    let mut server = Server::spawn();
    server.initialize_full();
    let uri = "file:///t/no-solution.sudoku";
    server.open(uri, 1, &text);
    let no_solution = published_no_solution(&mut server, uri);
    let count = core.cells.len();
    let message = no_solution["message"].as_str().unwrap();
    assert!(
        message.starts_with(&format!("no solution: these {count} givens leave none")),
        "{message}"
    );
    let related = no_solution["relatedInformation"].as_array().unwrap();
    assert_eq!(related.len(), count);
    for (info, &cell) in related.iter().zip(&core.cells) {
        let span = puzzle.cell_span(cell);
        let line = text[..span.start].matches('\n').count() as u64;
        let column = (span.start - text[..span.start].rfind('\n').map_or(0, |n| n + 1)) as u64;
        assert_eq!(info["location"]["uri"], uri);
        assert_eq!(
            info["location"]["range"]["start"],
            json!({"line": line, "character": column})
        );
        let name = nine().cell_name(cell);
        let digit = puzzle.givens[cell];
        assert_eq!(
            info["message"],
            format!("{name} holds {digit}, one of the {count} givens that leave no solution")
        );
    }
}

/// A core the first look's few milliseconds cannot shrink (a 16×16's takes about 200 ms) is
/// left to the whole run: the editor is never told a larger set "the search ran out" on, and
/// what it is told is what `check` says. (Before, the first look's cut core was published as
/// final, and kept: no whole run followed, and the cache held it.)
#[test]
fn a_no_solution_core_the_first_look_had_no_time_for_is_left_to_the_whole_run() {
    let sixteen = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/16x16.sudoku"),
    )
    .unwrap();
    // D2 holds F in no solution, though no unit has F already.
    let text = sixteen.replacen("\n. . E . |", "\n. F E . |", 1);
    assert_ne!(text, sixteen);
    let puzzle = &format::parse(&text).puzzles[0];
    let grid = geometry(Size::from_side(16).unwrap(), Variant::Classic);
    let checked = analysis::analyze_puzzle(puzzle, &Budget::unlimited());
    assert_eq!(checked.verdict, analysis::Verdict::NoSolution);
    let core = checked.core.expect("a core");
    let names: Vec<String> = core.cells.iter().map(|&c| grid.cell_name(c)).collect();

    let mut server = Server::spawn();
    server.initialize_full();
    let uri = "file:///t/no-solution-16.sudoku";
    server.open(uri, 1, &text);
    let no_solution = published_no_solution(&mut server, uri);
    let message = no_solution["message"].as_str().unwrap();
    let count = core.cells.len();
    assert!(
        message.starts_with(&format!(
            "no solution: these {count} givens leave none between them: {};",
            names.join(", ")
        )),
        "{message}"
    );
    assert!(!message.contains("time ran out"), "{message}");
}

#[test]
fn several_solutions_get_true_candidates_on_hover_and_a_given_that_narrows_them() {
    let budget = Budget::unlimited();
    let mut givens = format::parse(EASY).puzzles[0].givens.clone();
    for cell in [2, 4, 6, 9] {
        givens[cell] = 0;
    }
    let all = engine::search(nine(), &givens, 100_000, &budget).solutions;
    assert!(all.len() >= 3, "{}", all.len());
    let text = block("several", &givens);

    let mut server = Server::spawn();
    server.initialize_full();
    let uri = "file:///t/several.sudoku";
    let diagnostics = server.open_and_check(uri, &text);
    assert!(
        diagnostics.iter().any(|d| d["code"] == "several-solutions"),
        "{diagnostics:#?}"
    );

    // Hover on an empty cell where the solutions differ: the digits it takes across them.
    let differ = (0..81)
        .find(|&c| all.iter().any(|s| s[c] != all[0][c]))
        .unwrap();
    let mut across = Digits::EMPTY;
    for s in &all {
        across.insert(s[differ]);
    }
    let (line, column) = cell_position(0, differ);
    let hover = hover_text(&mut server, uri, line, column);
    let name = nine().cell_name(differ);
    assert!(
        hover.contains(&format!(
            "Across the puzzle's solutions, {name} takes {across}"
        )),
        "{hover}"
    );

    // The quick fix adds the given held by the fewest solutions.
    let actions = actions_at(&mut server, uri, 1, 0);
    let fix = titled(&actions, "Add the given ").unwrap_or_else(|| panic!("{actions:#?}"));
    assert_eq!(fix["kind"], "quickfix");
    let edited = apply_text_edits(&text, &action_edits(fix, uri), Enc::Utf16);
    let after = &format::parse(&edited).puzzles[0].givens;
    let added: Vec<usize> = (0..81).filter(|&c| after[c] != givens[c]).collect();
    assert_eq!(added.len(), 1, "one given added");
    let (cell, digit) = (added[0], after[added[0]]);
    let left = all.iter().filter(|s| s[cell] == digit).count();
    let fewest = (0..81)
        .filter(|&c| givens[c] == 0)
        .flat_map(|c| (1..=9u8).map(move |d| (c, d)))
        .map(|(c, d)| all.iter().filter(|s| s[c] == d).count())
        .filter(|&k| k > 0)
        .min()
        .unwrap();
    assert_eq!(left, fewest);
    let title = fix["title"].as_str().unwrap();
    if left == 1 {
        assert!(title.ends_with("(the puzzle is then unique)"), "{title}");
    } else {
        assert!(
            title.ends_with(&format!("({left} of {} solutions remain)", all.len())),
            "{title}"
        );
    }
}

/// On a variant puzzle with several solutions the hover's true candidates and the quick fix's
/// given are the rules' (a cage and a thermometer on a 4×4), not the houses' alone.
#[test]
fn a_variant_puzzle_with_several_solutions_gets_true_candidates_under_its_rules() {
    let text = "cage 4: A1 A2\nthermo: C1 C2 C3\n....\n....\n....\n....\n";
    let puzzle = &format::parse(text).puzzles[0];
    let rules = puzzle.rules.as_deref().unwrap();
    let budget = Budget::unlimited();
    let all = engine::variant::solve(&puzzle.geometry(), rules, &[0; 16], 1000, &budget).solutions;
    assert!(all.len() >= 2, "{}", all.len());

    let mut server = Server::spawn();
    server.initialize_full();
    let uri = "file:///t/variant.sudoku";
    let diagnostics = server.open_and_check(uri, text);
    assert!(
        diagnostics.iter().any(|d| d["code"] == "several-solutions"),
        "{diagnostics:#?}"
    );
    // C1 (row C, line 4): at most 2 under the thermometer, any digit by the houses alone.
    let mut across = Digits::EMPTY;
    for s in &all {
        across.insert(s[8]);
    }
    assert!(across.iter().all(|d| d <= 2), "{across}");
    let hover = hover_text(&mut server, uri, 4, 0);
    assert!(
        hover.contains(&format!("Across the puzzle's solutions, C1 takes {across}")),
        "{hover}"
    );
    let actions = actions_at(&mut server, uri, 2, 0);
    let fix = titled(&actions, "Add the given ").unwrap_or_else(|| panic!("{actions:#?}"));
    let edited = apply_text_edits(text, &action_edits(fix, uri), Enc::Utf16);
    let after = &format::parse(&edited).puzzles[0].givens;
    let added: Vec<usize> = (0..16).filter(|&c| after[c] != 0).collect();
    assert_eq!(added.len(), 1, "{edited}");
    let held = all
        .iter()
        .filter(|s| s[added[0]] == after[added[0]])
        .count();
    assert!(
        held >= 1,
        "the given added is held by a solution under the rules"
    );
}

#[test]
fn the_new_puzzle_command_inserts_a_unique_puzzle_at_the_line_and_says_why_when_it_cannot() {
    let mut server = Server::spawn();
    let init = server.initialize(capabilities());
    let commands = &init["capabilities"]["executeCommandProvider"]["commands"];
    assert!(
        commands
            .as_array()
            .unwrap()
            .contains(&json!("sudoku.newPuzzle")),
        "{init}"
    );
    let uri = "file:///t/new.sudoku";
    server.open(uri, 1, EASY);
    server.diagnostics(uri, 1);
    // On the easy puzzle's second row: the new puzzle goes in above that line.
    let arguments = json!([{
        "uri": uri, "position": {"line": 2, "character": 3},
        "size": 6, "symmetry": "rotational180", "seed": 11
    }]);
    let id = server.send_request(
        "workspace/executeCommand",
        json!({"command": "sudoku.newPuzzle", "arguments": arguments}),
    );
    let request = server.server_request("workspace/applyEdit");
    let edits = action_edits(&json!({"edit": request["params"]["edit"]}), uri);
    let text = apply_text_edits(EASY, &edits, Enc::Utf16);
    server.respond(&request, json!({"applied": true}));
    let response = server.response(id);
    assert!(response.get("error").is_none(), "{response}");

    let (before, after) =
        text.split_at(EASY.find('\n').unwrap() + 1 + EASY.lines().nth(1).unwrap().len() + 1);
    assert_eq!(before.lines().count(), 2, "{text}");
    let source = "sudoku-lsp new --seed 11 --size 6 --symmetry rotational180";
    assert!(
        after.starts_with(&format!("\n# title: New puzzle\n# source: {source}\n")),
        "{text}"
    );
    // The inserted block is a puzzle of its own: a 6×6 with one solution and the symmetry asked.
    let inserted = &after[1..after.find("\n\n").unwrap() + 2];
    let document = format::parse(inserted);
    let [puzzle] = &document.puzzles[..] else {
        panic!("one puzzle: {inserted}");
    };
    assert_eq!(puzzle.size.side(), 6, "{inserted}");
    let six = geometry(puzzle.size, Variant::Classic);
    let found = engine::search(six, &puzzle.givens, 2, &Budget::unlimited());
    assert_eq!(found.solutions.len(), 1, "{inserted}");
    assert!(matches!(
        analysis::symmetry(six, &puzzle.givens),
        analysis::Symmetry::Rotational180
            | analysis::Symmetry::Rotational90
            | analysis::Symmetry::Orthogonal
            | analysis::Symmetry::BiDiagonal
            | analysis::Symmetry::Full
    ));
    assert!(inserted.contains("# difficulty: SE "), "{inserted}");
    // The source line makes the same puzzle on the command line.
    let args: Vec<&str> = source.split(' ').skip(1).collect();
    let (made, err, code) = common::cli::run(common::cli::bin().args(&args));
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        format::parse(&made).puzzles[0].givens,
        puzzle.givens,
        "{made}"
    );
    // What follows is the easy puzzle's rest, untouched.
    assert!(text
        .ends_with(&EASY[EASY.find('\n').unwrap() + 1 + EASY.lines().nth(1).unwrap().len() + 1..]));

    // A killer: its cages above the grid, rated on the variant scale, remade by its source.
    let arguments = json!([{
        "uri": uri, "position": {"line": 0, "character": 0}, "variant": "killer", "seed": 4
    }]);
    let id = server.send_request(
        "workspace/executeCommand",
        json!({"command": "sudoku.newPuzzle", "arguments": arguments}),
    );
    let request = server.server_request("workspace/applyEdit");
    let edits = action_edits(&json!({"edit": request["params"]["edit"]}), uri);
    let killer = apply_text_edits(EASY, &edits, Enc::Utf16);
    server.respond(&request, json!({"applied": true}));
    server.response(id);
    let inserted = &killer[..killer.find("\n\n").unwrap() + 2];
    assert!(
        inserted.contains("# source: sudoku-lsp new --seed 4 --variant killer\n"),
        "{inserted}"
    );
    assert!(inserted.contains("# difficulty: Variant "), "{inserted}");
    let [puzzle] = &format::parse(inserted).puzzles[..] else {
        panic!("one puzzle: {inserted}");
    };
    let cages = puzzle.rules.as_ref().map_or(0, |r| r.constraints.len());
    assert!(cages >= 15, "{inserted}");
    let (made, _, _) =
        common::cli::run(common::cli::bin().args(["new", "--seed", "4", "--variant", "killer"]));
    // The same puzzle, line for line; its rating has a time limit, which a loaded machine may
    // reach in one and not the other (then it says a lower bound), so that line is left out.
    let unrated = |text: &str| -> String {
        (text.lines())
            .filter(|line| !line.starts_with("# difficulty:"))
            .map(|line| format!("{line}\n"))
            .collect()
    };
    assert_eq!(
        unrated(&made.replace("Puzzle 1", "New puzzle")),
        unrated(inserted)
    );

    // Arguments it cannot use: the user is told which and why, and nothing is inserted.
    for (bad, why) in [
        (json!({"variant": "killer", "size": 16}), "up to 9×9"),
        (json!({"size": 11}), "no 11×11 puzzles"),
        (json!({"symmetry": "spiral"}), "'spiral' is not a symmetry"),
        (json!({"rating": "8..7"}), "above the high end"),
    ] {
        let mut arguments = json!({"uri": uri, "position": {"line": 0, "character": 0}});
        for (key, value) in bad.as_object().unwrap() {
            arguments[key] = value.clone();
        }
        let id = server.send_request(
            "workspace/executeCommand",
            json!({"command": "sudoku.newPuzzle", "arguments": [arguments]}),
        );
        let message = server.wait_for("a showMessage", |m| m["method"] == "window/showMessage");
        let said = message["params"]["message"].as_str().unwrap();
        assert!(said.contains(why), "{said}");
        server.response(id);
    }
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

/// A variant puzzle's givens are weighed under its rules: the thermometer example's four
/// givens the thermometers make unneeded are information at their cells, as `check --setter`
/// names them, and its lens counts them.
#[test]
fn a_variant_puzzle_s_redundant_givens_are_weighed_under_its_rules() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/variants/thermo.sudoku");
    let text = std::fs::read_to_string(&path).expect("the thermo example");
    let (checked, _, _) =
        common::cli::run(common::cli::bin().args(["check", "--setter"]).arg(&path));
    let expected: Vec<String> = checked
        .lines()
        .filter_map(|l| l.split(": note: ").nth(1))
        .filter(|m| m.contains(" is not needed"))
        .map(str::to_string)
        .collect();
    assert_eq!(expected.len(), 4, "{checked}");

    let mut server = setter_server();
    let uri = "file:///t/thermo.sudoku";
    server.open(uri, 1, &text);
    server.diagnostics(uri, 1);
    let published = server.wait_for("diagnostics with redundant givens", |m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["version"] == 1
            && !m["params"]["diagnostics"].as_array().unwrap().is_empty()
    });
    let said: Vec<String> = published["params"]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "redundant-given")
        .map(|d| d["message"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(said, expected);
    let lenses = lens_titles(&mut server, uri);
    assert!(
        lenses
            .iter()
            .any(|(_, t)| t.starts_with("Variant ") && t.ends_with("· 4 redundant givens")),
        "{lenses:?}"
    );
    assert_eq!(server.shutdown_and_exit(), Some(0));
}
