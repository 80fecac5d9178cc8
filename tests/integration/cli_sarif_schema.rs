//! `check --format sarif` against the SARIF 2.1.0 JSON schema itself (OASIS's, as Microsoft's
//! SARIF Multitool ships it), validated by Python's jsonschema: both installed under
//! `.cache/sarif` by `tests/sarif_schema.sh` (or named by `SARIF_SCHEMA` and `SARIF_PYTHON`).
//! Without them the test is skipped, saying so, unless `SUDOKU_LSP_REQUIRE_SARIF_SCHEMA` is set
//! (as CI sets it, having run that script): then it fails.

use crate::common;

use std::path::PathBuf;
use std::process::Command;

use common::cli::{bin, run, scratch, write};

const PUZZLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles");

/// Validates the log at argv[2] against the schema at argv[1]; each error on a line, exit 1.
const VALIDATE: &str = r#"
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
log = json.load(open(sys.argv[2]))
validator = jsonschema.validators.validator_for(schema)(schema)
errors = list(validator.iter_errors(log))
for e in errors[:20]:
    print("/".join(map(str, e.absolute_path)) + ": " + e.message)
sys.exit(1 if errors else 0)
"#;

/// The schema and a Python with jsonschema, or `None` (said) when they are not installed.
fn validator() -> Option<(PathBuf, PathBuf)> {
    let cache = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".cache/sarif");
    let schema = std::env::var_os("SARIF_SCHEMA").map_or_else(
        || cache.join("node_modules/@microsoft/sarif-multitool-linux/sarif-2.1.0.json"),
        PathBuf::from,
    );
    let python = std::env::var_os("SARIF_PYTHON")
        .map_or_else(|| cache.join("venv/bin/python"), PathBuf::from);
    let has_jsonschema = Command::new(&python)
        .args(["-c", "import jsonschema"])
        .output()
        .is_ok_and(|o| o.status.success());
    if schema.is_file() && has_jsonschema {
        return Some((schema, python));
    }
    let why = format!(
        "no SARIF schema at {} or no jsonschema for {} (run tests/sarif_schema.sh)",
        schema.display(),
        python.display()
    );
    assert!(
        std::env::var_os("SUDOKU_LSP_REQUIRE_SARIF_SCHEMA").is_none(),
        "{why}, and SUDOKU_LSP_REQUIRE_SARIF_SCHEMA is set"
    );
    common::say_skipped(&why);
    None
}

/// What the schema says of `log`: `Ok` or the errors.
fn validate(schema: &PathBuf, python: &PathBuf, log: &PathBuf) -> Result<(), String> {
    let (out, err, code) = run(Command::new(python)
        .args(["-c", VALIDATE])
        .arg(schema)
        .arg(log));
    match code {
        0 => Ok(()),
        1 => Err(out),
        _ => panic!("the validator failed: {err}"),
    }
}

#[test]
fn check_writes_sarif_the_schema_accepts() {
    let Some((schema, python)) = validator() else {
        return;
    };
    let dir = scratch("logs");
    // Every kind of finding the shipped puzzles give (errors with related places, warnings, the
    // setter's notes), relative paths and an absolute one with a space (a file:// URI).
    let spaced = write(&dir, "with space/ünï.sudoku", "# title: x\n1 2 3\n");
    let (log, err, code) = run(bin()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["check", "--format", "sarif", "--setter", "puzzles"])
        .arg(&spaced));
    assert_eq!(code, 1, "{err}");
    for needle in [
        "\"error\"",
        "\"warning\"",
        "\"note\"",
        "relatedLocations",
        "file://",
    ] {
        assert!(log.contains(needle), "the log lacks {needle}");
    }
    let path = write(&dir, "check.sarif", &log);
    validate(&schema, &python, &path).unwrap_or_else(|e| panic!("{e}"));
    // Files with more findings than are shown: a notification for each, in the invocation.
    let (log, err, code) = run(bin().current_dir(env!("CARGO_MANIFEST_DIR")).args([
        "check",
        "--format",
        "sarif",
        "--max-findings",
        "1",
        "puzzles/broken",
    ]));
    assert_eq!(code, 1, "{err}");
    assert!(log.contains("toolExecutionNotifications"), "{log}");
    let path = write(&dir, "truncated.sarif", &log);
    validate(&schema, &python, &path).unwrap_or_else(|e| panic!("{e}"));
    // A clean run: no results at all.
    let (log, _, code) = run(bin().args([
        "check",
        "--format",
        "sarif",
        &format!("{PUZZLES}/easy.sudoku"),
    ]));
    assert_eq!(code, 0);
    let path = write(&dir, "clean.sarif", &log);
    validate(&schema, &python, &path).unwrap_or_else(|e| panic!("{e}"));
    // And the validator does refuse what breaks the schema.
    let broken = write(&dir, "broken.sarif", &log.replace("\"2.1.0\"", "\"2.2\""));
    let refused = validate(&schema, &python, &broken).expect_err("a wrong version is refused");
    assert!(refused.contains("version"), "{refused}");
}
