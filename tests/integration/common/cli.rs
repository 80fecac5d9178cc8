//! The command line run as a user would: the real binary, real files in a scratch folder, its
//! stdout, stderr and exit code. Shared so that each command's tests read the same way.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The real `sudoku-lsp` binary, built for the tests.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sudoku-lsp"))
}

/// A fresh folder for one test, under the target directory, named after the calling test file
/// too (`cli-setter-notes`) so that tests of two files never share one. The file is the
/// caller's: all the modules are one binary, so the crate's name no longer tells them apart.
#[track_caller]
pub fn scratch(name: &str) -> PathBuf {
    let caller = Path::new(std::panic::Location::caller().file());
    let file = caller
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .replace('_', "-");
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

/// Run with `input` on stdin: stdout as bytes, stderr, and the exit code.
pub fn run_with_stdin(cmd: &mut Command, input: &[u8]) -> (Vec<u8>, String, i32) {
    use std::io::Write;
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // Written from a thread: the command may answer before it has read everything.
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let Output {
        stdout,
        stderr,
        status,
    } = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    (
        stdout,
        String::from_utf8(stderr).unwrap(),
        status.code().unwrap_or(-1),
    )
}

/// Run with nothing on stdin, as `run`, but kill it and fail the test if it has not ended
/// within `seconds`: for what used to hang for ever (a FIFO opened for reading). Not a timing
/// test: what it runs ends at once, the deadline only turns a hang into a failure.
pub fn run_or_fail_hanging(cmd: &mut Command, seconds: u64) -> (String, String, i32) {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(seconds);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{cmd:?} hung: killed after {seconds} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let Output {
        stdout,
        stderr,
        status,
    } = child.wait_with_output().unwrap();
    (
        String::from_utf8(stdout).unwrap(),
        String::from_utf8(stderr).unwrap(),
        status.code().unwrap_or(-1),
    )
}

/// Make a FIFO at `path`.
#[cfg(unix)]
pub fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success(), "mkfifo {}", path.display());
}

/// Whether the tests run as root (who may write any file and give it any owner).
#[cfg(unix)]
pub fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| out.stdout.trim_ascii() == b"0")
}

/// Run `command` as an unprivileged user when we are root (root reads any folder), through
/// `setpriv`; `None` when that is not possible here.
#[cfg(unix)]
pub fn unprivileged(command: &mut Command) -> Option<Command> {
    if !is_root() {
        let mut same = Command::new(command.get_program());
        same.args(command.get_args());
        return Some(same);
    }
    let mut setpriv = Command::new("setpriv");
    setpriv
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(command.get_program())
        .args(command.get_args());
    Command::new("setpriv").arg("--version").output().ok()?; // setpriv itself must exist
    Some(setpriv)
}

/// Run the binary with `args` in at most `mb` MiB of address space (`ulimit -v`; one glibc
/// malloc arena, so the limit measures what is allocated rather than what each thread's arena
/// reserves): its exit code and stderr.
#[cfg(unix)]
pub fn run_in_memory(mb: usize, args: &[&str]) -> (i32, String) {
    let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
    let script = format!(
        "ulimit -v {}; exec '{}' {}",
        mb * 1024,
        env!("CARGO_BIN_EXE_sudoku-lsp"),
        quoted.join(" ")
    );
    let output = Command::new("bash")
        .args(["-c", &script])
        .env("MALLOC_ARENA_MAX", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (output.status.code().unwrap_or(-1), stderr)
}
