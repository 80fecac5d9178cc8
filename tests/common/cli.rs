//! The command line run as a user would: the real binary, real files in a scratch folder, its
//! stdout, stderr and exit code. Shared so that each command's tests read the same way.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The real `sudoku-lsp` binary, built for the tests.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sudoku-lsp"))
}

/// A fresh folder for one test, under the target directory, named after the test file too
/// (`cli-setter-notes`) so that test files run side by side never share one.
pub fn scratch(name: &str) -> PathBuf {
    let file = env!("CARGO_CRATE_NAME").replace('_', "-");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{file}-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Write `text` to `name` in `dir` (making folders on the way); its path.
pub fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(&path, text).unwrap();
    path
}

/// Run with nothing on stdin: stdout, stderr and the exit code (-1 when killed by a signal).
pub fn run(cmd: &mut Command) -> (String, String, i32) {
    let Output {
        stdout,
        stderr,
        status,
    } = cmd.stdin(Stdio::null()).output().unwrap();
    (
        String::from_utf8(stdout).unwrap(),
        String::from_utf8(stderr).unwrap(),
        status.code().unwrap_or(-1),
    )
}
