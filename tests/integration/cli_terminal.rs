//! What a user at a terminal sees: colour (`--color`, `NO_COLOR`, a pipe or a terminal) and the
//! progress line of long runs, driving the real binary. The terminal is a real pseudo-terminal,
//! made by util-linux's `script`; where it is not installed those tests are skipped, saying so,
//! unless `SUDOKU_LSP_REQUIRE_PTY` is set (as CI sets it): then they fail.

use crate::common;

use std::path::Path;
use std::process::{Command, Stdio};

use common::cli::{bin, run, scratch, write};

const BROKEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/broken");
const PUZZLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles");

/// The binary with no colour settings from the environment of whoever runs the tests.
fn clean() -> Command {
    let mut cmd = bin();
    for var in ["NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE"] {
        cmd.env_remove(var);
    }
    cmd.env("TERM", "xterm-256color");
    cmd
}

fn has_escapes(text: &str) -> bool {
    text.contains("\x1b[")
}

fn strip(text: &str) -> String {
    anstream::adapter::strip_str(text).to_string()
}

/// stdout and stderr of `args`, with `color` (`None`: no `--color`) and `NO_COLOR` as given.
fn output(args: &[&str], color: Option<&str>, no_color: bool) -> (String, String, i32) {
    let mut cmd = clean();
    if let Some(color) = color {
        cmd.args(["--color", color]);
    }
    if no_color {
        cmd.env("NO_COLOR", "1");
    }
    run(cmd.args(args))
}

/// Commands whose text output is coloured, each over inputs that give it something to colour.
fn coloured_commands() -> Vec<Vec<String>> {
    let dir = scratch("fmt");
    let messy = write(&dir, "messy.sudoku", "4.....8.5\n.3.......\n...7.....\n.2.....6.\n....8.4..\n....1....\n...6.3.7.\n5..2.....\n1.4......\n");
    let messy = messy.display().to_string();
    let easy = format!("{PUZZLES}/easy.sudoku");
    let hard = format!("{PUZZLES}/hard.sudoku");
    [
        vec!["check", BROKEN],
        vec!["rate", &easy, &hard],
        vec!["explain", &easy],
        vec!["solve", &easy],
        vec!["fmt", "--check", &messy],
    ]
    .into_iter()
    .map(|args| args.into_iter().map(String::from).collect())
    .collect()
}

#[test]
fn always_colours_never_and_a_pipe_do_not_and_the_text_is_the_same() {
    for args in coloured_commands() {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (plain, plain_err, code) = output(&args, None, false);
        assert!(!has_escapes(&plain), "{args:?} piped: {plain:?}");
        assert!(!has_escapes(&plain_err), "{args:?} piped: {plain_err:?}");
        let (never, _, never_code) = output(&args, Some("never"), false);
        assert_eq!(
            (never.as_str(), never_code),
            (plain.as_str(), code),
            "{args:?}"
        );
        let (always, always_err, always_code) = output(&args, Some("always"), false);
        assert!(has_escapes(&always), "{args:?} --color always: {always:?}");
        assert_eq!(
            strip(&always),
            plain,
            "{args:?}: the same text once stripped"
        );
        assert_eq!(strip(&always_err), plain_err, "{args:?}");
        assert_eq!(always_code, code);
    }
}

#[test]
fn what_check_colours_is_the_place_the_severity_and_nothing_else() {
    let (out, _, _) = output(&["check", BROKEN], Some("always"), false);
    let line = out.lines().find(|l| l.contains("conflict.sudoku")).unwrap();
    // ripgrep's colours for the path and the line and column, red bold for the error.
    assert!(line.contains("\x1b[35m"), "{line:?}");
    assert!(line.contains("\x1b[32m5\x1b[0m"), "{line:?}");
    assert!(line.contains("\x1b[1m\x1b[31merror\x1b[0m"), "{line:?}");
    assert!(
        line.ends_with(": 5 appears twice in row A: A2 and A4"),
        "{line:?}"
    );
}

#[test]
fn no_color_turns_auto_off_but_an_explicit_always_wins() {
    let args = ["check", BROKEN];
    let (out, _, _) = output(&args, Some("auto"), true);
    assert!(!has_escapes(&out));
    let (out, _, _) = output(&args, Some("always"), true);
    assert!(has_escapes(&out), "NO_COLOR=1 --color always");
    // The option is global: after the subcommand too.
    let (out, _, _) = run(clean()
        .env("NO_COLOR", "1")
        .args(["check", "--color=always", BROKEN]));
    assert!(has_escapes(&out));
}

#[test]
fn machine_formats_never_get_colour() {
    for format in ["json", "github", "sarif"] {
        let (out, _, code) = output(
            &["check", "--format", format, BROKEN],
            Some("always"),
            false,
        );
        assert_eq!(code, 1);
        assert!(!has_escapes(&out), "--format {format}: {out:?}");
    }
    let (out, _, _) = output(
        &[
            "rate",
            "--format",
            "json",
            &format!("{PUZZLES}/easy.sudoku"),
        ],
        Some("always"),
        false,
    );
    assert!(!has_escapes(&out) && out.contains("\"level\""), "{out:?}");
}

#[test]
fn solve_in_place_writes_no_colour_into_the_file() {
    let dir = scratch("in-place");
    let text = std::fs::read_to_string(format!("{PUZZLES}/easy.sudoku")).unwrap();
    let path = write(&dir, "easy.sudoku", &text);
    let (_, err, code) = output(
        &["solve", "--in-place", &path.display().to_string()],
        Some("always"),
        false,
    );
    assert_eq!(code, 0, "{err}");
    let solved = std::fs::read_to_string(&path).unwrap();
    assert!(!has_escapes(&solved) && solved != text, "{solved}");
}

#[test]
fn usage_errors_and_help_follow_the_choice() {
    let (_, err, code) = output(&["check", "/no/such/file.sudoku"], Some("always"), false);
    assert_eq!(code, 2);
    assert!(err.contains("\x1b[31merror:\x1b[0m"), "{err:?}");
    assert_eq!(
        strip(&err).lines().next(),
        Some("sudoku-lsp: error: /no/such/file.sudoku: no such file or folder")
    );
    // clap's own help and errors, printed while parsing.
    let (help, _, _) = output(&["--help"], Some("always"), false);
    assert!(has_escapes(&help) && strip(&help).contains("Usage:"));
    let (help, _, _) = output(&["--help"], Some("never"), false);
    assert!(!has_escapes(&help) && help.contains("Usage:"));
    let (_, err, code) = output(&["chek"], Some("always"), false);
    assert_eq!(code, 2);
    assert!(has_escapes(&err) && strip(&err).contains("unrecognized subcommand"));
    let (_, err, _) = output(&["--color", "sometimes", "check"], None, false);
    assert!(err.contains("sometimes") && err.contains("always"), "{err}");
}

/// `sh -c SCRIPT` in a pseudo-terminal: what the terminal showed, `\r\n` read as `\n`, and the
/// exit code; `None` (said) when `script` is not installed.
fn in_terminal(script: &str) -> Option<(String, i32)> {
    let found = Command::new("script")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("SUDOKU_LSP_REQUIRE_PTY").is_none(),
            "util-linux's script is not installed, and SUDOKU_LSP_REQUIRE_PTY is set"
        );
        common::say_skipped("util-linux's script is not installed: no pseudo-terminal");
        return None;
    }
    let mut cmd = Command::new("script");
    for var in ["NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE"] {
        cmd.env_remove(var);
    }
    let out = cmd
        .env("TERM", "xterm-256color")
        .args(["-q", "-e", "-c", script, "/dev/null"])
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n");
    Some((text, out.status.code().unwrap_or(-1)))
}

fn quoted(path: impl AsRef<Path>) -> String {
    format!(
        "'{}'",
        path.as_ref().display().to_string().replace('\'', "'\\''")
    )
}

#[test]
fn the_server_started_from_a_terminal_says_what_it_waits_for() {
    let exe = quoted(env!("CARGO_BIN_EXE_sudoku-lsp"));
    // `timeout` keeps it in the foreground, reading the terminal, until it is stopped.
    let Some((shown, _)) = in_terminal(&format!("timeout 2 {exe}; true")) else {
        return;
    };
    assert!(
        shown.starts_with("sudoku-lsp: this is a language server, waiting for an editor"),
        "{shown:?}"
    );
    assert!(shown.contains("sudoku-lsp --help"), "{shown:?}");
    // Started by an editor (standard input a pipe), it says nothing.
    let mut server = clean()
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(server.stdin.take());
    let out = server.wait_with_output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

#[test]
fn auto_colours_on_a_terminal_and_the_text_is_the_same() {
    let exe = quoted(env!("CARGO_BIN_EXE_sudoku-lsp"));
    let Some((shown, code)) = in_terminal(&format!("{exe} check {}", quoted(BROKEN))) else {
        return;
    };
    assert_eq!(code, 1);
    assert!(has_escapes(&shown), "{shown:?}");
    let (out, err, _) = output(&["check", BROKEN], None, false);
    assert_eq!(strip(&shown), format!("{out}{err}"));
    // NO_COLOR on a terminal: none.
    let (shown, _) = in_terminal(&format!("NO_COLOR=1 {exe} check {}", quoted(BROKEN))).unwrap();
    assert!(!has_escapes(&shown), "{shown:?}");
    assert_eq!(shown, format!("{out}{err}"));
}

/// A collection that takes a while to check (a second or so, by the machine): one of the
/// hardest puzzles known, its digits relabelled nine ways, over and over.
fn long_collection(dir: &Path) -> std::path::PathBuf {
    const HARD: &str =
        "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6";
    let mut text = String::new();
    for i in 0..30_000u32 {
        for c in HARD.chars() {
            text.push(match c.to_digit(10) {
                Some(d) => char::from_digit((d - 1 + i) % 9 + 1, 10).unwrap(),
                None => c,
            });
        }
        text.push('\n');
    }
    write(dir, "long.txt", &text)
}

#[test]
fn a_long_run_shows_progress_on_a_terminal_and_none_in_a_pipe() {
    let dir = scratch("progress");
    let long = long_collection(&dir);
    let exe = quoted(env!("CARGO_BIN_EXE_sudoku-lsp"));
    for (command, what) in [("check", "puzzles checked"), ("solve", "puzzles solved")] {
        // Piped: stdout and stderr as they always were.
        let (out, err, code) = run(clean().args([command, &long.display().to_string()]));
        assert_eq!(code, 0, "{err}");
        assert!(!err.contains(what), "{command} piped: {err:?}");
        // stderr on the terminal, stdout into a file.
        let file = dir.join(format!("{command}.out"));
        // The line at once (not after a second): how long the run takes depends on the machine.
        let script = format!(
            "SUDOKU_LSP_PROGRESS_AFTER_MS=0 {exe} {command} {} >{}",
            quoted(&long),
            quoted(&file)
        );
        let Some((shown, code)) = in_terminal(&script) else {
            return;
        };
        assert_eq!(code, 0, "{shown}");
        assert!(shown.contains(what), "{command} on a terminal: {shown:?}");
        // Cleared at the end: after the last clearing of the line comes what a piped run says.
        let after = shown.rsplit("\r\x1b[2K").next().unwrap();
        assert_eq!(strip(after), err, "{shown:?}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), out);
        // A machine format shows none.
        if command == "check" {
            let script = format!(
                "SUDOKU_LSP_PROGRESS_AFTER_MS=0 {exe} check --format json {} >/dev/null",
                quoted(&long)
            );
            let (shown, _) = in_terminal(&script).unwrap();
            assert!(!shown.contains(what), "--format json: {shown:?}");
        }
    }
    // A short run shows none.
    let script = format!("{exe} check {} >/dev/null", quoted(BROKEN));
    let (shown, _) = in_terminal(&script).unwrap();
    assert!(!shown.contains("puzzles checked"), "{shown:?}");
}
