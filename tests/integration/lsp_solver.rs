//! The human-style solver in the language server, driven over stdio as an editor would: the
//! code lenses (rating, Hint, Solve) and the commands they run, the hint and "Apply next step"
//! code actions, the next step on hover, the rating on a title's hover, and the rating run on a
//! large collection: after the diagnostics, never in the way of hovers, cancelled by an edit,
//! with progress and a code lens refresh.

use crate::common;

use common::{action_edits, apply_text_edits, hover_text, Enc, Server};
use serde_json::{json, Value};
use sudoku_lsp::engine::Budget;
use sudoku_lsp::format;
use sudoku_lsp::grid::geometry;
use sudoku_lsp::logic::{self, Step};

const EASY: &str = concat!("# title: easy 😀\n", common::easy_rows!());
const EASY_SOLVED: &str = concat!("# title: easy 😀\n", common::easy_solved_rows!());
const SEVERAL: &str = "1........\n.........\n.........\n.........\n.........\n.........\n.........\n.........\n.........\n";
const BROKEN: &str = concat!("# title: broken\n", common::conflict_rows!());

/// A client that shows progress and refreshes code lenses, besides the usual.
fn capabilities() -> Value {
    let mut capabilities = common::full_capabilities();
    capabilities["workspace"]["codeLens"] = json!({"refreshSupport": true});
    capabilities["window"] = json!({"workDoneProgress": true});
    capabilities
}

/// The three puzzles, a blank line apart: the easy one (line 0 is its title), the one with
/// several solutions (untitled, its first row on line 11), the broken one (title on line 21).
fn three() -> String {
    format!("{EASY}\n{SEVERAL}\n{BROKEN}")
}

/// The easy puzzle's path of simplest steps, as the library walks it.
fn easy_path() -> logic::Path {
    let puzzle = &format::parse(EASY).puzzles[0];
    let budget = Budget {
        max_nodes: None,
        deadline: None,
        cancel: None,
    };
    logic::solve_path(
        geometry(puzzle.size, puzzle.variant),
        &puzzle.givens,
        &budget,
    )
}

fn easy_hint(step: &Step, level: u8) -> String {
    let puzzle = &format::parse(EASY).puzzles[0];
    step.hint(geometry(puzzle.size, puzzle.variant), level)
}

fn lenses(server: &mut Server, uri: &str) -> Vec<Value> {
    let response = server.request(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": uri}}),
    );
    response["result"].as_array().cloned().unwrap_or_default()
}

/// The lens titles on a line.
fn titles_at(lenses: &[Value], line: u64) -> Vec<String> {
    lenses
        .iter()
        .filter(|l| l["range"]["start"]["line"] == line)
        .map(|l| l["command"]["title"].as_str().unwrap().to_string())
        .collect()
}

fn lens_command(lenses: &[Value], line: u64, title: &str) -> Value {
    lenses
        .iter()
        .find(|l| l["range"]["start"]["line"] == line && l["command"]["title"] == title)
        .unwrap_or_else(|| panic!("a {title} lens on line {line}: {lenses:#?}"))["command"]
        .clone()
}

/// Send `workspace/executeCommand` for a command as a lens or action gives it; its request id.
fn execute(server: &mut Server, command: &Value) -> i64 {
    server.send_request(
        "workspace/executeCommand",
        json!({"command": command["command"], "arguments": command["arguments"]}),
    )
}

/// Run a command that answers with `window/showMessage`: the message's text.
fn shown(server: &mut Server, command: &Value) -> String {
    let id = execute(server, command);
    let message = server.wait_for("a showMessage", |m| m["method"] == "window/showMessage");
    let response = server.response(id);
    assert!(response.get("error").is_none(), "{response}");
    message["params"]["message"].as_str().unwrap().to_string()
}

/// Wait until the ratings of the document have arrived (the server asks for lenses again).
fn wait_for_ratings(server: &mut Server) {
    let refresh = server.server_request("workspace/codeLens/refresh");
    server.respond(&refresh, Value::Null);
}

#[test]
fn lenses_rate_unique_puzzles_and_say_why_others_are_not() {
    let mut server = Server::spawn();
    let init = server.initialize(capabilities());
    let commands = &init["capabilities"]["executeCommandProvider"]["commands"];
    for name in ["sudoku.rating", "sudoku.hint", "sudoku.solve"] {
        assert!(
            commands.as_array().unwrap().contains(&json!(name)),
            "{init}"
        );
    }
    assert!(
        init["capabilities"]["codeLensProvider"].is_object(),
        "{init}"
    );
    let uri = "file:///t/three.sudoku";
    let text = three();
    server.open(uri, 1, &text);
    server.diagnostics(uri, 1);
    wait_for_ratings(&mut server);

    let rating = logic::rate(&easy_path());
    let givens = format::parse(EASY).puzzles[0].givens_count();
    let lenses = lenses(&mut server, uri);
    assert_eq!(
        titles_at(&lenses, 0),
        [
            // Nothing of redundant givens: those are for setters (a setting).
            format!(
                "SE {} · {} · unique · {givens} givens",
                rating.difficulty, rating.level
            ),
            "Hint".into(),
            "Solve".into()
        ],
        "{lenses:#?}"
    );
    assert_eq!(titles_at(&lenses, 11), ["2+ solutions · 1 given", "Solve"]);
    let broken = format::parse(BROKEN).puzzles[0].givens_count();
    assert_eq!(
        titles_at(&lenses, 21),
        [format!("no solution · {broken} givens")]
    );
    for lens in &lenses {
        let command = &lens["command"];
        assert!(
            ["sudoku.rating", "sudoku.hint", "sudoku.solve"]
                .contains(&command["command"].as_str().unwrap()),
            "{lens}"
        );
        assert_eq!(command["arguments"][0]["uri"], uri, "{lens}");
    }

    // The rating lens says it in full.
    let rating_lens = lenses
        .iter()
        .find(|l| l["range"]["start"]["line"] == 0 && l["command"]["command"] == "sudoku.rating")
        .unwrap()["command"]
        .clone();
    let message = shown(&mut server, &rating_lens);
    assert!(
        message.starts_with(&format!(
            "Puzzle 1: Rating: SE {} · {}",
            rating.difficulty, rating.level
        )),
        "{message}"
    );

    // Hover on the title line: rating, hardest technique, steps by technique.
    let hover = hover_text(&mut server, uri, 0, 3);
    assert!(
        hover.contains(&format!(
            "Rating: SE {} · {}",
            rating.difficulty, rating.level
        )),
        "{hover}"
    );
    let hardest = rating.hardest.unwrap().name();
    assert!(
        hover.contains(&format!("Hardest technique: {hardest}")),
        "{hover}"
    );
    let path = easy_path();
    let singles = path
        .steps
        .iter()
        .filter(|s| s.technique == path.steps[0].technique)
        .count();
    assert!(
        hover.contains(&format!(
            "{} steps: {} ×{singles}",
            path.steps.len(),
            path.steps[0].technique.name()
        )),
        "{hover}"
    );
    // The untitled puzzle's first row is its title line.
    let hover = hover_text(&mut server, uri, 11, 1);
    assert!(hover.contains("Not rated: several solutions"), "{hover}");
    let hover = hover_text(&mut server, uri, 21, 3);
    assert!(hover.contains("Not rated: no solution"), "{hover}");
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

#[test]
fn the_solve_lens_asks_the_editor_to_apply_the_solution() {
    let mut server = Server::spawn();
    server.initialize(capabilities());
    let uri = "file:///t/solve.sudoku";
    let text = three();
    server.open(uri, 1, &text);
    server.diagnostics(uri, 1);
    let lenses = lenses(&mut server, uri);
    let solve = lens_command(&lenses, 0, "Solve");
    let id = execute(&mut server, &solve);
    let request = server.server_request("workspace/applyEdit");
    let edits = action_edits(&json!({"edit": request["params"]["edit"]}), uri);
    let solved = apply_text_edits(&text, &edits, Enc::Utf16);
    assert_eq!(solved, format!("{EASY_SOLVED}\n{SEVERAL}\n{BROKEN}"));
    assert_eq!(
        request["params"]["edit"]["documentChanges"][0]["textDocument"]["version"],
        1
    );
    server.respond(&request, json!({"applied": true}));
    let response = server.response(id);
    assert!(response.get("error").is_none(), "{response}");
    assert!(response["result"].is_null(), "{response}");

    // An editor that refuses: the user is told.
    let id = execute(&mut server, &solve);
    let request = server.server_request("workspace/applyEdit");
    server.respond(
        &request,
        json!({"applied": false, "failureReason": "read-only"}),
    );
    let message = server.wait_for("a showMessage", |m| m["method"] == "window/showMessage");
    assert!(
        message["params"]["message"]
            .as_str()
            .unwrap()
            .contains("did not apply the solution: read-only"),
        "{message}"
    );
    server.response(id);
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

#[test]
fn hints_in_three_levels_and_the_next_step_as_an_edit() {
    let mut server = Server::spawn();
    server.initialize(capabilities());
    let uri = "file:///t/hint.sudoku";
    let text = three();
    server.open(uri, 1, &text);
    server.diagnostics(uri, 1);
    let path = easy_path();
    let step = &path.steps[0];

    // The Hint lens goes one level further on each use, then starts again.
    let lenses = lenses(&mut server, uri);
    let hint = lens_command(&lenses, 0, "Hint");
    for level in [1, 2, 3, 1] {
        let message = shown(&mut server, &hint);
        assert_eq!(
            message,
            format!("Hint {level}/3: {}", easy_hint(step, level))
        );
    }

    // The code actions, cursor in the puzzle: one per level, commands without edits.
    let at = json!({"line": 3, "character": 0});
    let actions = server.code_actions(uri, json!({"start": at, "end": at}));
    let titles: Vec<&str> = actions
        .iter()
        .map(|a| a["title"].as_str().unwrap())
        .collect();
    for (level, title) in [
        "Hint: where to look",
        "Hint: which technique",
        "Hint: the whole step",
    ]
    .into_iter()
    .enumerate()
    {
        let action = actions
            .iter()
            .find(|a| a["title"] == title)
            .unwrap_or_else(|| panic!("{title} in {titles:?}"));
        assert!(action["edit"].is_null(), "{action}");
        let level = level as u8 + 1;
        let message = shown(&mut server, &action["command"]);
        assert_eq!(
            message,
            format!("Hint {level}/3: {}", easy_hint(step, level))
        );
    }

    // "Apply next step": the first step that places a digit, written into its cell.
    let placing = path
        .steps
        .iter()
        .position(|s| !s.placements.is_empty())
        .unwrap();
    let next = &path.steps[placing];
    let action = actions
        .iter()
        .find(|a| a["title"].as_str().unwrap().starts_with("Apply next step"))
        .unwrap_or_else(|| panic!("Apply next step in {titles:?}"));
    assert!(
        action["title"].as_str().unwrap().ends_with(&next.text),
        "{action}"
    );
    let edits = action_edits(action, uri);
    let applied = apply_text_edits(&text, &edits, Enc::Utf16);
    let mut expected = text.clone();
    for placement in &next.placements {
        let cell = placement.cell as usize;
        // Rows start on line 1, one character per cell, after the title line.
        let line_start: usize = text
            .split_inclusive('\n')
            .take(1 + cell / 9)
            .map(str::len)
            .sum();
        let at = line_start + cell % 9;
        expected.replace_range(at..at + 1, &placement.digit.to_string());
    }
    assert_eq!(applied, expected);

    // No hints on a puzzle with several solutions.
    let at = json!({"line": 12, "character": 0});
    let actions = server.code_actions(uri, json!({"start": at, "end": at}));
    assert!(
        !actions
            .iter()
            .any(|a| a["title"].as_str().unwrap().starts_with("Hint")),
        "{actions:#?}"
    );
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

#[test]
fn hover_on_an_empty_cell_tells_the_next_step_that_touches_it() {
    let mut server = Server::spawn();
    server.initialize(json!({})); // plain text: the step's words as they are
    let uri = "file:///t/hover.sudoku";
    server.open(uri, 1, EASY);
    server.diagnostics(uri, 1);
    let path = easy_path();
    let step = &path.steps[0];
    let givens = &format::parse(EASY).puzzles[0].givens;
    let touched = step
        .placements
        .first()
        .map(|p| p.cell as usize)
        .unwrap_or_else(|| step.eliminations[0].cell as usize);
    let hover = hover_text(&mut server, uri, 1 + touched as u64 / 9, touched as u64 % 9);
    assert!(
        hover.contains(&format!("Next step: {}", step.text)),
        "{hover}"
    );
    let untouched = (0..81)
        .find(|&c| givens[c] == 0 && !step.touches(c))
        .unwrap();
    let hover = hover_text(
        &mut server,
        uri,
        1 + untouched as u64 / 9,
        untouched as u64 % 9,
    );
    assert!(!hover.contains("Next step"), "{hover}");
    assert!(hover.contains("Pencil marks"), "{hover}");
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

#[test]
fn lenses_answer_at_once_before_the_rating_and_a_newer_text_replaces_a_stuck_run() {
    let mut server = Server::spawn_with(&[], &[("SUDOKU_LSP_TEST_HOOKS", "1")]);
    server.initialize(capabilities());
    let uri = "file:///t/pending.sudoku";
    // The marker (a comment of the file) holds the rating run until a newer text cancels it.
    let text = format!("# sudoku-lsp-test:stuck-rating\n\n{EASY}");
    server.open(uri, 1, &text);
    server.diagnostics(uri, 1);
    let givens = format::parse(EASY).puzzles[0].givens_count();
    let lenses = self::lenses(&mut server, uri);
    assert_eq!(
        titles_at(&lenses, 2),
        [
            format!("rating… · unique · {givens} givens"),
            "Hint".into(),
            "Solve".into()
        ]
    );
    let hover = hover_text(&mut server, uri, 2, 3);
    assert!(hover.contains("Rating: pending"), "{hover}");
    // The hint does not wait for the rating: it works the next step out itself.
    let message = shown(&mut server, &lens_command(&lenses, 2, "Hint"));
    assert!(message.starts_with("Hint 1/3: look at "), "{message}");

    // A newer text without the marker: the stuck run is cancelled, the new one rates.
    let change = json!({"range": {"start": {"line": 0, "character": 0}, "end": {"line": 1, "character": 0}}, "text": ""});
    server.change(uri, 2, vec![change]);
    server.diagnostics(uri, 2);
    wait_for_ratings(&mut server);
    let rating = logic::rate(&easy_path());
    let lenses = self::lenses(&mut server, uri);
    assert_eq!(
        titles_at(&lenses, 1)[0],
        format!(
            "SE {} · {} · unique · {givens} givens",
            rating.difficulty, rating.level
        )
    );
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

#[test]
fn a_rating_out_of_time_is_a_lower_bound() {
    let mut server = Server::spawn_with(&[], &[("SUDOKU_LSP_RATING_MS", "0")]);
    server.initialize(capabilities());
    let uri = "file:///t/bound.sudoku";
    server.open(uri, 1, EASY);
    server.diagnostics(uri, 1);
    wait_for_ratings(&mut server);
    let lenses = self::lenses(&mut server, uri);
    assert!(titles_at(&lenses, 0)[0].starts_with("SE ≥ "), "{lenses:#?}");
    let hover = hover_text(&mut server, uri, 0, 3);
    assert!(
        hover.contains("A lower bound: the solver ran out of its budget"),
        "{hover}"
    );
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

/// A hint the solver does not find within the rating's time (`SUDOKU_LSP_RATING_MS`; here 0)
/// says so, instead of holding the request for as long as the search takes (a grid with entries
/// is not the rated one: its step is looked for on demand).
#[test]
fn a_hint_out_of_time_says_so() {
    let easy = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/easy.sudoku"))
        .unwrap();
    let row = easy.lines().position(|l| l.starts_with("6 . .")).unwrap() as u64;
    let entered = easy.replacen("6 . . |", "6 +7 . |", 1);
    let mut server = Server::spawn_with(&[], &[("SUDOKU_LSP_RATING_MS", "0")]);
    server.initialize(capabilities());
    let said = editor_hint(&mut server, "file:///t/late.sudoku", &entered, row);
    assert!(
        said.contains("no hint: no step found within 0 ms"),
        "{said}"
    );
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

/// 2,000 one-line puzzles, each the easy puzzle with its digits relabelled (so each is a grid
/// of its own for the cache).
fn collection() -> String {
    let rows: String = common::easy_rows!().lines().collect();
    let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
    let mut seen = std::collections::HashSet::new();
    let mut text = String::new();
    while seen.len() < 2_000 {
        let mut digits: Vec<char> = "123456789".chars().collect();
        for i in (1..9).rev() {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            digits.swap(i, (seed % (i as u64 + 1)) as usize);
        }
        let line: String = rows
            .chars()
            .map(|c| match c.to_digit(10) {
                Some(d) => digits[d as usize - 1],
                None => c,
            })
            .collect();
        if seen.insert(line.clone()) {
            text.push_str(&line);
            text.push('\n');
        }
    }
    text
}

fn progress_of(m: &Value, token: &Value, kind: &str) -> bool {
    m["method"] == "$/progress"
        && m["params"]["token"] == *token
        && m["params"]["value"]["kind"] == kind
}

fn index_in_log(server: &Server, wanted: impl Fn(&Value) -> bool) -> usize {
    server
        .log
        .iter()
        .position(wanted)
        .expect("the message is in the log")
}

#[test]
fn a_large_collection_is_rated_after_its_diagnostics_and_an_edit_cancels_the_run() {
    // Each rating takes 3 ms at least (a test hook): the run lasts seconds on any machine.
    let mut server = Server::spawn_with(&[], &[("SUDOKU_LSP_TEST_HOOKS", "1")]);
    server.initialize(capabilities());
    let uri = "file:///t/collection.sudoku";
    let text = format!("# sudoku-lsp-test:lagging-rating\n\n{}", collection());
    server.open(uri, 1, &text);
    server.diagnostics(uri, 1);

    // The run is long: it reports progress, and meanwhile hovers and lenses are answered.
    let create = server.server_request("window/workDoneProgress/create");
    let token = create["params"]["token"].clone();
    server.respond(&create, Value::Null);
    server.wait_for("the rating's begin", |m| progress_of(m, &token, "begin"));
    let hover_id = server.send_request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 1500, "character": 0}}),
    );
    let lens_id = server.send_request(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": uri}}),
    );
    let hover = server.response(hover_id);
    assert!(hover["result"]["contents"].is_object(), "{hover}");
    let lenses = server.response(lens_id);
    let lenses = lenses["result"].as_array().unwrap();
    assert_eq!(
        lenses
            .iter()
            .filter(|l| l["command"]["command"] == "sudoku.rating")
            .count(),
        2_000
    );

    // An edit: the run ends, cancelled, and says nothing more; the new text's diagnostics come,
    // then its own run, which ends having rated everything, and asks for the lenses again.
    let change = json!({"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "# a comment\n"});
    server.change(uri, 2, vec![change]);
    let end = server.wait_for("the first run's end", |m| progress_of(m, &token, "end"));
    assert_eq!(end["params"]["value"]["message"], "cancelled", "{end}");
    server.diagnostics(uri, 2);
    let create = server.server_request("window/workDoneProgress/create");
    let second = create["params"]["token"].clone();
    assert_ne!(second, token);
    server.respond(&create, Value::Null);
    let end = server.wait_for("the second run's end", |m| progress_of(m, &second, "end"));
    // Those the first run rated are not rated again.
    let message = end["params"]["value"]["message"].as_str().unwrap();
    let rated: usize = message
        .strip_suffix(" puzzles rated")
        .unwrap_or_else(|| panic!("{end}"))
        .parse()
        .unwrap();
    assert!(0 < rated && rated < 2_000, "{end}");
    server.drain(std::time::Duration::from_millis(300));
    let first_end = index_in_log(&server, |m| progress_of(m, &token, "end"));
    let first_begin = index_in_log(&server, |m| progress_of(m, &token, "begin"));
    let diagnostics = |version: i64| {
        move |m: &Value| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["version"] == version
        }
    };
    assert!(index_in_log(&server, diagnostics(1)) < first_begin);
    assert!(
        index_in_log(&server, |m| m["id"] == hover_id
            && m.get("method").is_none())
            < first_end
    );
    assert!(
        !server.log[first_end + 1..]
            .iter()
            .any(|m| m["method"] == "$/progress" && m["params"]["token"] == token),
        "nothing more about the cancelled run"
    );
    let second_end = index_in_log(&server, |m| progress_of(m, &second, "end"));
    assert!(index_in_log(&server, diagnostics(2)) < second_end);
    assert!(
        server.log[second_end..]
            .iter()
            .any(|m| m["method"] == "workspace/codeLens/refresh"),
        "the lenses are asked for again once the ratings are in"
    );
    let lenses = self::lenses(&mut server, uri);
    assert!(
        lenses
            .iter()
            .filter(|l| l["command"]["command"] == "sudoku.rating")
            .all(|l| l["command"]["title"].as_str().unwrap().starts_with("SE 1.")),
        "every puzzle rated"
    );
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

/// A collection past `MAX_LENS_PUZZLES` (5,000) gets lenses for its first 5,000 puzzles and no
/// more: the client asks for all of a document's lenses at once.
#[test]
fn lenses_stop_after_the_first_five_thousand_puzzles() {
    let mut server = Server::spawn_with(&[], &[("SUDOKU_LSP_TEST_HOOKS", "1")]);
    server.initialize(capabilities());
    let uri = "file:///t/many.sudoku";
    let line: String = common::easy_rows!().lines().collect();
    // Line 0 is the marker that holds the rating run; puzzle k is on line k + 1.
    let text = format!(
        "# sudoku-lsp-test:stuck-rating\n{}",
        format!("{line}\n").repeat(5_001)
    );
    server.open(uri, 1, &text);
    server.diagnostics(uri, 1);
    let lenses = self::lenses(&mut server, uri);
    let rating_lines: Vec<u64> = lenses
        .iter()
        .filter(|l| l["command"]["command"] == "sudoku.rating")
        .map(|l| l["range"]["start"]["line"].as_u64().unwrap())
        .collect();
    assert_eq!(rating_lines.len(), 5_000);
    assert_eq!(rating_lines.first(), Some(&1));
    assert_eq!(rating_lines.last(), Some(&5_000));
    assert!(titles_at(&lenses, 5_001).is_empty());
    server.shutdown_and_exit();
}

/// What `sudoku-lsp CMD` says of the only puzzle of `text` after its place (`: hint: …`).
fn cli_says(args: &[&str], text: &str, name: &str) -> String {
    let dir = common::cli::scratch(name);
    let path = common::cli::write(&dir, "p.sudoku", text);
    let (out, err, code) = common::cli::run(common::cli::bin().args(args).arg(&path));
    assert_eq!(code, 0, "{err}");
    let said = out.split_once(": ").map_or("", |(_, rest)| rest);
    said.trim_end().to_string()
}

/// The editor's "Hint: the whole step" on the puzzle at `line` of `text`.
fn editor_hint(server: &mut Server, uri: &str, text: &str, line: u64) -> String {
    server.open(uri, 1, text);
    server.diagnostics(uri, 1);
    let at = json!({"line": line, "character": 0});
    let actions = server.code_actions(uri, json!({"start": at, "end": at}));
    let action = actions
        .iter()
        .find(|a| a["title"] == "Hint: the whole step")
        .unwrap_or_else(|| panic!("{actions:#?}"));
    shown(server, &action["command"])
}

/// One answer everywhere: the next step from where the solver is (their entries, and the
/// file's pencil marks where it has them), on the command line as in the editor; the rating
/// stays about the givens.
#[test]
fn the_hint_is_the_next_step_from_where_the_solver_is_everywhere() {
    let easy = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/easy.sudoku"))
        .unwrap();
    let row = easy.lines().position(|l| l.starts_with("6 . .")).unwrap() as u64;
    let hint = |text: &str, name: &str| cli_says(&["hint", "--level", "3"], text, name);
    let first = hint(&easy, "hint-givens");
    assert!(first.ends_with("can only go in A2"), "{first}");
    // The solver has entered that 7: the next step is another one.
    let entered = easy.replacen("6 . . |", "6 +7 . |", 1);
    let next = hint(&entered, "hint-entry");
    assert!(next.starts_with("hint: ") && !next.contains("A2"), "{next}");
    let rate = |text: &str, name: &str| cli_says(&["rate"], text, name);
    assert_eq!(rate(&entered, "rate-entry"), rate(&easy, "rate-givens"));

    let mut server = Server::spawn();
    server.initialize(capabilities());
    let said = editor_hint(&mut server, "file:///t/entry.sudoku", &entered, row);
    assert_eq!(said, format!("Hint 3/3: {}", &next["hint: ".len()..]));

    // With pencil marks: the step on the marks as written, as Apply next step takes it.
    let dir = common::cli::scratch("hint-marks");
    let path = common::cli::write(&dir, "p.sudoku", &entered);
    let (marked, _, _) = common::cli::run(common::cli::bin().arg("marks").arg(&path));
    let on_marks = hint(&marked, "hint-marks");
    let uri = "file:///t/marks.sudoku";
    let said = editor_hint(&mut server, uri, &marked, row);
    assert_eq!(said, format!("Hint 3/3: {}", &on_marks["hint: ".len()..]));
    let at = json!({"line": row, "character": 0});
    let actions = server.code_actions(uri, json!({"start": at, "end": at}));
    let apply = actions
        .iter()
        .filter_map(|a| a["title"].as_str())
        .find(|t| t.starts_with("Apply next step: "))
        .unwrap_or_else(|| panic!("{actions:#?}"));
    assert_eq!(
        &apply["Apply next step: ".len()..],
        &on_marks["hint: ".len()..]
    );
    server.shutdown_and_exit();
}
