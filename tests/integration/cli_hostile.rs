//! The command line on hostile input, as issue 28 tried it: control characters meant for the
//! terminal, binary files, files where every line is an error, puzzles that take minutes. Each
//! must end soon, in bounded memory, with the terminal left as it was.

use crate::common;

#[cfg(unix)]
use common::cli::run_in_memory;
use common::cli::{bin, run, scratch, write};

const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

/// What sets a terminal's window title and clears its screen.
const PWNED: &str = "\x1b]0;PWNED\x07\x1b[2J";

/// Whether `text` holds a control character a terminal acts on (line breaks aside).
fn has_controls(text: &str) -> bool {
    text.chars().any(|c| c.is_control() && c != '\n')
}

#[test]
fn control_characters_from_a_file_are_escaped_in_every_text_output() {
    let dir = scratch("controls");
    let text = format!("# title: {PWNED}\n# variant: {PWNED}\n{EASY}\n{PWNED}\n\n{EASY}\n");
    let path = write(&dir, &format!("x{PWNED}.sudoku"), &text);
    let runs: [&[&str]; 8] = [
        &["check"],
        &["check", "--format", "github"],
        &["rate"],
        &["explain"],
        &["hint"],
        &["solve"],
        &["render", "--out", "-"],
        &["fmt", "--check"],
    ];
    for args in runs {
        let (stdout, stderr, _) = run(bin().arg("--color=never").args(args).arg(&path));
        // solve and render write the file's own text (or a picture of it) on stdout: that is
        // the output asked for, as `cat` would give it. What they say on stderr is escaped.
        if !matches!(args[0], "solve" | "render") {
            assert!(!has_controls(&stdout), "{args:?} stdout: {stdout:?}");
        }
        assert!(!has_controls(&stderr), "{args:?} stderr: {stderr:?}");
        if !matches!(args[0], "solve" | "render" | "fmt") {
            let said = format!("{stdout}{stderr}");
            let name = r"x\u{1b}]0;PWNED\u{7}\u{1b}[2J.sudoku";
            assert!(said.contains(name), "{args:?}: {said}");
        }
    }
    let (stdout, _, _) = run(bin().args(["check"]).arg(&path));
    assert!(
        stdout.contains(r"unknown variant '\u{1b}]0;PWNED\u{7}\u{1b}[2J'"),
        "{stdout}"
    );
}

#[test]
fn machine_formats_keep_the_file_s_characters_escaped_as_json_escapes_them() {
    let dir = scratch("controls-json");
    let text = format!("# variant: {PWNED}\n{EASY}\n");
    let path = write(&dir, &format!("x{PWNED}.sudoku"), &text);
    for format in ["json", "sarif"] {
        let (stdout, _, _) = run(bin().args(["check", "--format", format]).arg(&path));
        assert!(!has_controls(&stdout), "{format}: {stdout:?}");
        assert!(stdout.contains(r"\u001b]0;PWNED\u0007"), "{stdout}");
        let value: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        let said = value.to_string();
        assert!(said.contains(r"\u001b"), "{said}");
    }
    let (stdout, _, _) = run(bin().args(["check", "--format", "json"]).arg(&path));
    let value: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let finding = &value["findings"][0];
    assert_eq!(finding["path"], path.display().to_string());
    let message = finding["message"].as_str().unwrap();
    assert!(message.contains(PWNED), "{message:?}");
}

#[test]
fn a_binary_file_is_skipped_with_one_message() {
    let dir = scratch("binary");
    let mut bytes = format!("{EASY}\n").into_bytes();
    bytes.extend((0..100_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8));
    let binary = dir.join("noise.sudoku");
    std::fs::write(&binary, &bytes).unwrap();
    let good = write(&dir, "good.sudoku", &format!("{EASY}\n"));
    for command in ["check", "rate"] {
        let (stdout, stderr, code) = run(bin().arg(command).arg(&binary).arg(&good));
        assert_eq!(code, 2, "{command}: {stderr}");
        let said = format!("{}: a binary file (a NUL byte at byte", binary.display());
        assert!(stderr.contains(&said), "{command}: {stderr}");
        assert_eq!(
            stderr.lines().count(),
            1 + usize::from(command == "check"),
            "{stderr}"
        );
        // The other input is still read.
        match command {
            "check" => assert!(stderr.contains("checked 1 puzzle in 2 files"), "{stderr}"),
            _ => assert!(stdout.contains("good.sudoku:1:1: "), "{stdout}"),
        }
    }
    let utf16: Vec<u8> = [0xff, 0xfe]
        .into_iter()
        .chain(EASY.bytes().flat_map(|b| [b, 0]))
        .collect();
    let path = dir.join("wide.sudoku");
    std::fs::write(&path, utf16).unwrap();
    let (_, stderr, code) = run(bin().arg("check").arg(&path));
    assert_eq!(code, 2);
    assert!(stderr.contains("UTF-16 text"), "{stderr}");
}

#[cfg(unix)]
#[test]
fn check_dev_urandom_stops_at_once() {
    let (stdout, stderr, code) = run(bin().args(["check", "/dev/urandom"]));
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(stdout, "");
    assert!(stderr.contains("/dev/urandom: a binary file"), "{stderr}");
}

/// `count` lines that are each an error.
fn junk_lines(count: usize) -> String {
    "x\n".repeat(count)
}

#[test]
fn check_shows_at_most_max_findings_a_file_and_counts_the_rest() {
    let dir = scratch("max-findings");
    let a = write(&dir, "a.sudoku", &junk_lines(5000));
    let b = write(&dir, "b.sudoku", &format!("{}{EASY}\n", junk_lines(10)));
    let (stdout, stderr, code) = run(bin().arg("check").arg(&a).arg(&b));
    assert_eq!(code, 1);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1010, "{stderr}");
    assert!(lines[999].starts_with(&format!("{}:1000:1: error:", a.display())));
    assert!(lines[1000].starts_with(&format!("{}:1:1: error:", b.display())));
    let said = format!(
        "{}: 4000 more findings not shown (--max-findings 1000 per file)",
        a.display()
    );
    assert!(stderr.contains(&said), "{stderr}");
    assert!(
        stderr.contains("checked 1 puzzle in 2 files: 5010 errors, 0 warnings (4000 not shown)"),
        "{stderr}"
    );
    // Fewer, or none: the counts alone, and the exit code.
    let (stdout, stderr, code) = run(bin().args(["check", "--max-findings", "3"]).arg(&a));
    assert_eq!((stdout.lines().count(), code), (3, 1), "{stderr}");
    let (stdout, stderr, code) = run(bin().args(["check", "--max-findings", "0"]).arg(&a));
    assert_eq!((stdout.as_str(), code), ("", 1));
    assert!(stderr.contains("5000 more findings not shown"), "{stderr}");
}

#[test]
fn machine_formats_show_at_most_max_findings_and_say_what_was_left_out() {
    let dir = scratch("max-findings-machine");
    let a = write(&dir, "a.sudoku", &junk_lines(1500));
    let args = |format: &str| {
        let mut cmd = bin();
        cmd.args(["check", "--format", format]).arg(&a);
        cmd
    };
    let (stdout, _, code) = run(&mut args("json"));
    assert_eq!(code, 1);
    let value: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(value["findings"].as_array().unwrap().len(), 1000);
    assert_eq!(value["summary"]["errors"], 1500);
    assert_eq!(value["summary"]["not_shown"], 500);
    let truncated = serde_json::json!([{"path": a.display().to_string(), "not_shown": 500}]);
    assert_eq!(value["truncated"], truncated);

    let (stdout, _, _) = run(&mut args("sarif"));
    let value: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let run0 = &value["runs"][0];
    assert_eq!(run0["results"].as_array().unwrap().len(), 1000);
    let notice = &run0["invocations"][0]["toolExecutionNotifications"][0];
    assert_eq!(notice["level"], "warning");
    let text = notice["message"]["text"].as_str().unwrap();
    assert!(text.starts_with("500 more findings not shown"), "{text}");

    let (stdout, _, _) = run(&mut args("github"));
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1001);
    assert!(
        lines[1000].starts_with("::warning file="),
        "{}",
        lines[1000]
    );
    assert!(
        lines[1000].contains("::500 more findings not shown"),
        "{}",
        lines[1000]
    );
}

#[cfg(unix)]
#[test]
fn a_file_where_every_line_is_an_error_is_checked_in_memory_in_proportion() {
    // 32 MiB of `x` lines, one piece (no line where a piece can end): its 16 million findings
    // took 1.1 GB (64 bytes each); the first thousand are kept now. The piece's text itself
    // is what remains (the String doubling as it grows: 32 + 64 MiB at the last copy).
    let dir = scratch("every-line-an-error");
    let path = write(&dir, "x.sudoku", &junk_lines(16 << 20));
    let path = path.display().to_string();
    for format in ["text", "json"] {
        let (code, stderr) = run_in_memory(400, &["check", "--format", format, &path]);
        assert_eq!(code, 1, "{format}: {stderr}");
        assert!(
            stderr.contains("16776216 more findings not shown"),
            "{stderr}"
        );
    }
    let (code, stderr) = run_in_memory(400, &["rate", &path]);
    assert_eq!(code, 1, "rate: {stderr}");
    assert!(
        stderr.contains("16776216 more problems not shown"),
        "{stderr}"
    );
}

#[cfg(unix)]
#[test]
fn running_out_of_memory_ends_with_a_clear_error_and_no_backtrace() {
    let dir = scratch("out-of-memory");
    let path = write(&dir, "x.sudoku", &junk_lines(16 << 20));
    let (code, stderr) = run_in_memory(60, &["check", &path.display().to_string()]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.starts_with("sudoku-lsp: error: out of memory (an allocation of "),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

/// The 25×25 of `tests/integration/grids/large.txt`: unique, 272 givens; trying each one with the
/// node budget alone took `check --setter` 107 s.
fn large_puzzle() -> String {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/integration/grids/large.txt"
    ));
    let text = text.unwrap();
    let line = text.lines().find(|l| l.starts_with("25 classic ")).unwrap();
    line["25 classic ".len()..].to_string()
}

#[test]
fn check_setter_stops_at_its_time_limit_and_says_what_it_could_not_decide() {
    let dir = scratch("setter-time");
    let path = write(&dir, "large.sudoku", &format!("{}\n", large_puzzle()));
    let (stdout, stderr, code) = run(bin()
        .args(["check", "--setter", "--time-limit", "0.2"])
        .arg(&path));
    assert_eq!(code, 0, "{stderr}");
    let note = format!(
        "{}:1:1: note: 272 givens, minimality not decided: the time ran out, symmetry: none\n",
        path.display()
    );
    assert_eq!(stdout, note);
    let (_, stderr, code) = run(bin().args(["check", "--time-limit", "0"]).arg(&path));
    assert_eq!(code, 2);
    assert!(
        stderr.contains("--time-limit takes a positive number of seconds"),
        "{stderr}"
    );
}

#[cfg(unix)]
#[test]
fn rate_memory_stays_flat_however_many_puzzles() {
    // Every puzzle of a piece (a MiB of text, 12,000 one-line puzzles) was graded before any
    // was printed, each whole path of steps held: 247 MB from 30,000 puzzles on. Now a few per
    // core are in flight.
    let dir = scratch("rate-memory");
    let path = write(&dir, "many.txt", &format!("{EASY}\n").repeat(30_000));
    let path = path.display().to_string();
    for command in ["rate", "explain"] {
        let (code, stderr) = run_in_memory(150, &[command, &path]);
        assert_eq!(code, 0, "{command}: {stderr}");
    }
}
