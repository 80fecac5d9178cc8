//! Pull diagnostics, driven over stdio as an editor would: `textDocument/diagnostic` for a
//! client that declares it (and then no pushed diagnostics), `workspace/diagnostic` over every
//! `*.sudoku` file of the workspace folders with result ids, and `workspace/diagnostic/refresh`
//! when diagnostics change with no edit. A client that pulls but cannot be asked to pull again
//! gets pushed diagnostics instead.

use crate::common;

use std::path::Path;
use std::time::Duration;

use common::Server;
use serde_json::{json, Value};

const CONFLICT: &str = concat!("# title: two threes\n", common::conflict_rows!());
const EASY: &str = concat!("# title: easy\n", common::easy_rows!());
/// A wrong entry (5 at A1, where the solution has 4) and no conflict: only checking against
/// the solution finds something.
const WRONG_ENTRY: &str = concat!("# title: entry\n+5.3.2.6..\n", common::easy_rows_b_to_i!());

/// A client that pulls diagnostics; `refresh`: and can be asked to pull again (without, the
/// server treats it as a client that does not pull).
fn pulling_capabilities(refresh: bool) -> Value {
    let mut capabilities = common::full_capabilities();
    capabilities["textDocument"]["diagnostic"] = json!({"dynamicRegistration": false});
    capabilities["workspace"]["diagnostics"] = json!({"refreshSupport": refresh});
    capabilities
}

/// A pulling client's server, with `folder` as its one workspace folder (if any). Redundant
/// givens are off (as by default): found by the ratings after a run, they would change a
/// document's diagnostics a moment after its first pull.
fn pulling_server(refresh: bool, folder: Option<&Path>) -> (Server, Value) {
    pulling_server_with(refresh, folder, json!({"redundantGivens": false}))
}

fn pulling_server_with(refresh: bool, folder: Option<&Path>, options: Value) -> (Server, Value) {
    let mut server = Server::spawn();
    let folders = folder.map(|path| json!([{"uri": file_uri(path), "name": "puzzles"}]));
    let params = json!({
        "processId": null,
        "rootUri": null,
        "capabilities": pulling_capabilities(refresh),
        "workspaceFolders": folders,
        "initializationOptions": options,
    });
    let response = server.request("initialize", params);
    server.notify("initialized", json!({}));
    (server, response["result"].clone())
}

fn file_uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

fn pull(server: &mut Server, uri: &str, previous: Option<&str>) -> Value {
    let params = json!({"textDocument": {"uri": uri}, "previousResultId": previous});
    let response = server.request("textDocument/diagnostic", params);
    assert!(response.get("error").is_none(), "{response}");
    response["result"].clone()
}

fn codes(items: &Value) -> Vec<String> {
    let items = items.as_array().unwrap_or_else(|| panic!("items: {items}"));
    items
        .iter()
        .map(|d| d["code"].as_str().unwrap_or("").to_string())
        .collect()
}

fn pushed(server: &Server) -> Vec<&Value> {
    let is_push = |m: &&Value| m["method"] == "textDocument/publishDiagnostics";
    server.log.iter().filter(is_push).collect()
}

#[test]
fn a_pulling_client_pulls_and_nothing_is_pushed() {
    let (mut server, result) = pulling_server(true, None);
    let provider = &result["capabilities"]["diagnosticProvider"];
    assert_eq!(provider["workspaceDiagnostics"], json!(true), "{result}");
    assert_eq!(provider["interFileDependencies"], json!(false), "{result}");

    let uri = "file:///t/pull.sudoku";
    server.open(uri, 1, CONFLICT);
    // Sent at once: the pull waits for the run of the text just opened.
    let report = pull(&mut server, uri, None);
    assert_eq!(report["kind"], "full", "{report}");
    assert_eq!(
        codes(&report["items"]),
        ["conflict", "conflict"],
        "{report}"
    );
    let first_id = report["resultId"]
        .as_str()
        .expect("a result id")
        .to_string();

    let again = pull(&mut server, uri, Some(&first_id));
    assert_eq!(again, json!({"kind": "unchanged", "resultId": first_id}));

    // The conflict mended (A1's 3 removed): the next pull has the new text's diagnostics.
    let a1 = json!({"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 1}});
    server.change(uri, 2, vec![json!({"range": a1, "text": "."})]);
    let mended = pull(&mut server, uri, Some(&first_id));
    assert_eq!(mended["kind"], "full", "{mended}");
    assert!(
        !codes(&mended["items"]).contains(&"conflict".to_string()),
        "{mended}"
    );
    assert_ne!(mended["resultId"], json!(first_id));

    server.close(uri);
    server.drain(Duration::from_millis(300));
    assert!(pushed(&server).is_empty(), "{:#?}", pushed(&server));
    assert_eq!(server.shutdown_and_exit(), Some(0));
}

#[test]
fn clients_that_do_not_pull_or_cannot_be_asked_again_get_pushes() {
    let plain = common::full_capabilities();
    let no_refresh = pulling_capabilities(false);
    for capabilities in [plain, no_refresh] {
        let mut server = Server::spawn();
        let result = server.initialize(capabilities.clone());
        assert!(
            result["capabilities"].get("diagnosticProvider").is_none(),
            "{capabilities}: {result}"
        );
        let diagnostics = server.open_and_check("file:///t/push.sudoku", CONFLICT);
        assert_eq!(diagnostics.len(), 2, "{diagnostics:#?}");
        // A pull all the same (the client never said it would) is answered, not left waiting.
        let report = pull(&mut server, "file:///t/push.sudoku", None);
        assert_eq!(
            codes(&report["items"]),
            ["conflict", "conflict"],
            "{report}"
        );
    }
}

#[test]
fn new_settings_ask_the_client_to_pull_again() {
    let (mut server, _) = pulling_server(true, None);
    let uri = "file:///t/entry.sudoku";
    server.open(uri, 1, WRONG_ENTRY);
    let before = pull(&mut server, uri, None);
    assert!(!codes(&before["items"]).contains(&"against-solution".to_string()));
    assert!(server
        .try_wait_for(Duration::from_millis(500), &|m| {
            m["method"] == "workspace/diagnostic/refresh"
        })
        .is_none());
    server.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"sudoku": {"checkAgainstSolution": true}}}),
    );
    let asked = server.wait_for("workspace/diagnostic/refresh", |m| {
        m["method"] == "workspace/diagnostic/refresh"
    });
    server.respond(&asked, Value::Null);
    let after = pull(&mut server, uri, before["resultId"].as_str());
    assert!(
        codes(&after["items"]).contains(&"against-solution".to_string()),
        "{after}"
    );
}

/// The codes a client ends with when something after its first pull asks it to pull again: it
/// pulls, waits for the refresh, and pulls with the first result's id. The news may come before
/// the first pull is answered (a loaded machine): then that pull already had it, and the second
/// is unchanged. Also both results, for messages.
fn codes_after_refresh(server: &mut Server, uri: &str) -> (Vec<String>, String) {
    let first = pull(server, uri, None);
    let asked = server.wait_for("workspace/diagnostic/refresh", |m| {
        m["method"] == "workspace/diagnostic/refresh"
    });
    server.respond(&asked, Value::Null);
    let after = pull(server, uri, first["resultId"].as_str());
    let latest = match after["kind"].as_str() {
        Some("full") => &after,
        Some("unchanged") => {
            assert_eq!(after["resultId"], first["resultId"], "{first} then {after}");
            &first
        }
        _ => panic!("{after}"),
    };
    (codes(&latest["items"]), format!("{first} then {after}"))
}

#[test]
fn redundant_givens_found_by_the_ratings_ask_the_client_to_pull_again() {
    let (mut server, _) = pulling_server_with(true, None, json!({"redundantGivens": true}));
    let uri = "file:///t/easy.sudoku";
    server.open(uri, 1, EASY);
    let (redundant, pulls) = codes_after_refresh(&mut server, uri);
    assert!(
        !redundant.is_empty() && redundant.iter().all(|code| code == "redundant-given"),
        "{pulls}"
    );
}

/// A verdict the first look left to the whole run (see `lsp_variants`) reaches a pulling
/// client through a refresh.
#[test]
fn a_slow_verdict_asks_the_client_to_pull_again() {
    let (mut server, _) = pulling_server(true, None);
    let uri = "file:///t/barbed.sudoku";
    // A1 = 7 (the solution has 3): no solution, which only the whole search shows.
    let text = common::SLOW_VERDICT.replacen("\n. . .", "\n7 . .", 1);
    server.open(uri, 1, &text);
    let (codes, pulls) = codes_after_refresh(&mut server, uri);
    assert_eq!(codes, ["no-solution"], "{pulls}");
}

#[test]
fn a_pull_of_a_closed_document_reads_its_file_until_it_is_unchanged() {
    let dir = tempfile::Builder::new().prefix("pull").tempdir().unwrap();
    let path = dir.path().join("closed.sudoku");
    std::fs::write(&path, CONFLICT).unwrap();
    let (mut server, _) = pulling_server(true, None);
    let report = pull(&mut server, &file_uri(&path), None);
    assert_eq!(
        codes(&report["items"]),
        ["conflict", "conflict"],
        "{report}"
    );
    // Pulled again naming its result id: unchanged, after a look at the file alone.
    let id = report["resultId"]
        .as_str()
        .expect("a result id")
        .to_string();
    let again = pull(&mut server, &file_uri(&path), Some(&id));
    assert_eq!(again["kind"], "unchanged", "{again}");
    assert_eq!(again["resultId"], id.as_str());
    // Once the file changes, in full again under a new id.
    std::fs::write(&path, format!("{CONFLICT}\n")).unwrap();
    let changed = pull(&mut server, &file_uri(&path), Some(&id));
    assert_eq!(changed["kind"], "full", "{changed}");
    assert_ne!(changed["resultId"], id.as_str());
    let missing = pull(&mut server, &file_uri(&dir.path().join("no.sudoku")), None);
    assert_eq!(codes(&missing["items"]), Vec::<String>::new(), "{missing}");
}

/// The workspace's reports by file name: (kind, codes, version).
fn by_name(result: &Value) -> Vec<(String, String, Vec<String>, Value)> {
    let items = result["items"].as_array().expect("items");
    let mut reports: Vec<_> = items
        .iter()
        .map(|item| {
            let uri = item["uri"].as_str().unwrap();
            let name = uri.rsplit('/').next().unwrap().to_string();
            let kind = item["kind"].as_str().unwrap().to_string();
            let codes = if kind == "full" {
                codes(&item["items"])
            } else {
                Vec::new()
            };
            (name, kind, codes, item["version"].clone())
        })
        .collect();
    reports.sort_by(|a, b| a.0.cmp(&b.0));
    reports
}

fn pull_workspace(server: &mut Server, previous: &Value) -> Value {
    let params = json!({"previousResultIds": previous});
    let response = server.request("workspace/diagnostic", params);
    assert!(response.get("error").is_none(), "{response}");
    response["result"].clone()
}

/// The result ids of a workspace pull, as the next pull sends them.
fn result_ids(result: &Value, previous: &Value) -> Value {
    let mut ids: Vec<Value> = previous.as_array().cloned().unwrap_or_default();
    for item in result["items"].as_array().unwrap() {
        if let Some(id) = item["resultId"].as_str() {
            ids.retain(|old| old["uri"] != item["uri"]);
            ids.push(json!({"uri": item["uri"], "value": id}));
        }
    }
    Value::Array(ids)
}

#[test]
fn the_workspace_pull_reports_every_sudoku_file_and_only_changes() {
    let dir = tempfile::Builder::new().prefix("pull").tempdir().unwrap();
    let root = dir.path();
    let write = |name: &str, text: &str| {
        let path = root.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("conflict.sudoku", CONFLICT);
    write("sub/easy.sudoku", EASY);
    write("open.sudoku", CONFLICT);
    write(".hidden/skipped.sudoku", CONFLICT);
    write("ignored/skipped.sudoku", CONFLICT);
    write(".gitignore", "ignored/\n");
    write("notes.txt", CONFLICT);

    let (mut server, _) = pulling_server(true, Some(root));
    // Open in the editor with its conflict mended: reported from the editor's text, versioned.
    let open_uri = file_uri(&root.join("open.sudoku"));
    server.open(&open_uri, 7, EASY);
    pull(&mut server, &open_uri, None);

    let first = pull_workspace(&mut server, &json!([]));
    let none = Vec::<String>::new();
    let conflicts = vec!["conflict".to_string(), "conflict".to_string()];
    assert_eq!(
        by_name(&first),
        [
            (
                "conflict.sudoku".into(),
                "full".into(),
                conflicts.clone(),
                Value::Null
            ),
            (
                "easy.sudoku".into(),
                "full".into(),
                none.clone(),
                Value::Null
            ),
            ("open.sudoku".into(), "full".into(), none.clone(), json!(7)),
        ],
        "{first:#}"
    );

    // Nothing changed: every report unchanged.
    let ids = result_ids(&first, &json!([]));
    let second = pull_workspace(&mut server, &ids);
    let kinds: Vec<String> = by_name(&second).into_iter().map(|r| r.1).collect();
    assert_eq!(kinds, ["unchanged", "unchanged", "unchanged"], "{second:#}");

    // One file rewritten on disk, another deleted: only those two are reported in full.
    write("sub/easy.sudoku", CONFLICT);
    std::fs::remove_file(root.join("conflict.sudoku")).unwrap();
    let third = pull_workspace(&mut server, &ids);
    assert_eq!(
        by_name(&third),
        [
            (
                "conflict.sudoku".into(),
                "full".into(),
                none.clone(),
                Value::Null
            ),
            ("easy.sudoku".into(), "full".into(), conflicts, Value::Null),
            ("open.sudoku".into(), "unchanged".into(), none, json!(7)),
        ],
        "{third:#}"
    );
    assert!(pushed(&server).is_empty());
}

#[test]
fn a_file_too_large_for_the_workspace_pull_says_so() {
    let dir = tempfile::Builder::new().prefix("pull").tempdir().unwrap();
    // 17 MB of one-line puzzles: over the 16 MB read unopened.
    let line = format!("{}\n", ".".repeat(81));
    let text = line.repeat(17 * (1 << 20) / line.len() + 1);
    std::fs::write(dir.path().join("huge.sudoku"), text).unwrap();
    let (mut server, _) = pulling_server(true, Some(dir.path()));
    let result = pull_workspace(&mut server, &json!([]));
    let item = &result["items"][0];
    assert_eq!(codes(&item["items"]), ["not-checked"], "{result}");
    let message = item["items"][0]["message"].as_str().unwrap();
    assert!(message.contains("sudoku-lsp check"), "{message}");
}
