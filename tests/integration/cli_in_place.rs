//! Files rewritten in place (`solve --in-place`, `marks --in-place`, `fmt`) keep everything of the
//! user's: a save that lands while they are replaced, the owner, group and mode, hard links,
//! read-only files, FIFOs, long names. Exact interleavings through the test hooks, never timing.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::cli::{bin, run, run_or_fail_hanging, scratch, write};

/// A puzzle each of the three commands changes: solved, marked (no cell is left with one mark,
/// which a line of marks could not hold), and (its empty cells written `0`) formatted to `.`.
const PUZZLE: &str =
    "400000805030000000000700000020000060000080400000010000000603070500200000104000000";

/// The three ways of rewriting a file in place, and the word their messages use.
const COMMANDS: [(&[&str], &str); 3] = [
    (&["solve", "--in-place"], "solved"),
    (&["marks", "--in-place"], "marked"),
    (&["fmt"], "formatted"),
];

const BEFORE_VAR: &str = "SUDOKU_LSP_TEST_PAUSE_BEFORE_REPLACE";
const AFTER_VAR: &str = "SUDOKU_LSP_TEST_PAUSE_AFTER_REPLACE";
const NO_EXCHANGE_VAR: &str = "SUDOKU_LSP_TEST_NO_EXCHANGE";

/// Run `args` and `path` with the pause hook `var` set (and `env`); when the run pauses, do
/// `meanwhile`, then let it go on. Its stderr and exit code.
fn run_pausing(
    args: &[&str],
    path: &Path,
    var: &str,
    env: &[(&str, &str)],
    meanwhile: impl FnOnce(),
) -> (String, i32) {
    let go = path.with_file_name("go");
    let waiting = path.with_file_name("go.waiting");
    let _ = std::fs::remove_file(&go);
    let _ = std::fs::remove_file(&waiting);
    let child = bin()
        .args(args)
        .arg(path)
        .env(var, &go)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !waiting.exists() {
        assert!(
            std::time::Instant::now() < deadline,
            "{args:?} never paused at {var}"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    meanwhile();
    std::fs::write(&go, "").unwrap();
    let out = child.wait_with_output().unwrap();
    std::fs::remove_file(&go).unwrap();
    std::fs::remove_file(&waiting).unwrap();
    (
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

/// The names in a folder, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The hidden temporary file a run is writing beside `path`.
fn temporary_beside(path: &Path) -> PathBuf {
    let dir = path.parent().unwrap();
    let temporary: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "tmp"))
        .collect();
    assert_eq!(temporary.len(), 1, "{temporary:?}");
    temporary[0].clone()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

/// A save written into the file the run read, at the last moment: after the run's last look
/// before the new file takes the name (the old code's window of a few milliseconds, which lost
/// the save and exited 0). Seen through the handle the run kept; the saved text gets its name
/// back.
#[cfg(unix)]
#[test]
fn a_save_into_the_old_file_during_the_replacement_is_put_back() {
    use std::os::unix::fs::FileExt;
    let dir = scratch("race-write");
    let saved = format!("# my notes, saved meanwhile\n{PUZZLE}\n");
    for exchange in [true, false] {
        for (args, doing) in COMMANDS {
            let path = write(&dir, "p.sudoku", &format!("{PUZZLE}\n"));
            // The editor's handle, opened before the run, as an editor saving in place keeps it.
            let editor = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
            let env: &[(&str, &str)] = if exchange {
                &[]
            } else {
                &[(NO_EXCHANGE_VAR, "1")]
            };
            let (err, code) = run_pausing(args, &path, AFTER_VAR, env, || {
                editor.set_len(0).unwrap();
                editor.write_all_at(saved.as_bytes(), 0).unwrap();
            });
            let case = format!("{args:?}, exchange: {exchange}");
            assert_eq!(code, 1, "{case}: {err}");
            assert!(
                err.contains(&format!(
                    "p.sudoku: the file changed while it was being {doing}; it is left as it \
                     was saved meanwhile"
                )),
                "{case}: {err}"
            );
            assert_eq!(read(&path), saved, "{case}");
            assert_eq!(names(&dir), ["p.sudoku"], "{case}: nothing left beside it");
        }
    }
}

/// A save that renames a new file onto the name (as Vim and most editors save) at the last
/// moment: the run's swap hands that file the temporary name, where the run finds it and swaps
/// it back.
#[cfg(target_os = "linux")]
#[test]
fn a_file_saved_onto_the_name_during_the_replacement_is_put_back() {
    let dir = scratch("race-rename");
    let saved = format!("# saved by rename\n{PUZZLE}\n");
    for (args, doing) in COMMANDS {
        let path = write(&dir, "p.sudoku", &format!("{PUZZLE}\n"));
        let (err, code) = run_pausing(args, &path, AFTER_VAR, &[], || {
            // The state had the save landed just before the swap: the name held the saved file,
            // which the swap moved to the temporary name.
            let editors = write(&dir, "p.sudoku~", &saved);
            std::fs::rename(editors, temporary_beside(&path)).unwrap();
        });
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(
            err.contains(&format!("the file changed while it was being {doing}")),
            "{err}"
        );
        assert_eq!(read(&path), saved, "{args:?}");
        assert_eq!(names(&dir), ["p.sudoku"], "{args:?}");
    }
}

/// The common case through the same hooks: nothing happens meanwhile, the new text stays and the
/// old file is gone.
#[test]
fn an_untouched_file_is_replaced_and_nothing_is_left_beside_it() {
    let dir = scratch("race-none");
    for var in [BEFORE_VAR, AFTER_VAR] {
        for (args, _) in COMMANDS {
            let path = write(&dir, "p.sudoku", &format!("{PUZZLE}\n"));
            let (err, code) = run_pausing(args, &path, var, &[], || {});
            assert_eq!(code, 0, "{args:?} {var}: {err}");
            assert_ne!(read(&path), format!("{PUZZLE}\n"), "{args:?}");
            assert_eq!(names(&dir), ["p.sudoku"], "{args:?}");
        }
    }
}

/// A save before the run's last look: nothing is swapped at all.
#[test]
fn a_save_before_the_last_look_is_left_as_it_is() {
    let dir = scratch("race-before");
    let saved = format!("# saved earlier\n{PUZZLE}\n");
    for (args, doing) in COMMANDS {
        let path = write(&dir, "p.sudoku", &format!("{PUZZLE}\n"));
        let (err, code) = run_pausing(args, &path, BEFORE_VAR, &[], || {
            std::fs::write(&path, &saved).unwrap()
        });
        assert_eq!(code, 1, "{err}");
        assert!(
            err.contains(&format!("the file changed while it was being {doing}")),
            "{err}"
        );
        assert_eq!(read(&path), saved);
        assert_eq!(names(&dir), ["p.sudoku"]);
    }
}

/// Run each of the three commands on `path` written afresh with the puzzle: (args, stderr, code).
fn each_command(path: &Path) -> Vec<(&'static [&'static str], String, i32)> {
    COMMANDS
        .iter()
        .map(|&(args, _)| {
            std::fs::write(path, format!("{PUZZLE}\n")).unwrap();
            let (_, err, code) = run_or_fail_hanging(bin().args(args).arg(path), 60);
            (args, err, code)
        })
        .collect()
}

#[cfg(unix)]
#[test]
fn the_owner_group_and_mode_are_kept() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    if !common::cli::is_root() {
        common::say_skipped(
            "the_owner_group_and_mode_are_kept gives the file to another user: root only",
        );
        return;
    }
    let dir = scratch("owner");
    let path = dir.join("p.sudoku");
    for (args, _) in COMMANDS {
        std::fs::write(&path, format!("{PUZZLE}\n")).unwrap();
        std::os::unix::fs::chown(&path, Some(1234), Some(4321)).unwrap();
        // Set-user-ID too: a change of owner clears it, so the mode must come after.
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o4640)).unwrap();
        let (_, err, code) = run(bin().args(args).arg(&path));
        assert_eq!(code, 0, "{args:?}: {err}");
        assert_ne!(read(&path), format!("{PUZZLE}\n"), "{args:?}");
        let meta = std::fs::metadata(&path).unwrap();
        assert_eq!(
            (meta.uid(), meta.gid(), meta.mode() & 0o7777),
            (1234, 4321, 0o4640),
            "{args:?}"
        );
    }
}

/// Root may write any file, so whether a file may be written is judged by its mode: one that
/// no one may write is read-only for root too, as for everyone.
#[cfg(unix)]
#[test]
fn a_read_only_file_is_refused_and_left_alone() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("read-only");
    let path = write(&dir, "p.sudoku", &format!("{PUZZLE}\n"));
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
    for (args, _) in COMMANDS {
        let (_, err, code) = run(bin().args(args).arg(&path));
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.contains("p.sudoku: read-only file (mode 0444); not rewritten"),
            "{args:?}: {err}"
        );
        assert_eq!(read(&path), format!("{PUZZLE}\n"), "{args:?}");
        assert_eq!(names(&dir), ["p.sudoku"], "{args:?}");
    }
    let (_, err, _) = run(bin().arg("fmt").arg(&path));
    assert!(
        err.contains("0 files reformatted, 0 files left unchanged, 1 file could not be formatted"),
        "{err}"
    );
}

/// A user who may write the folder but not the file (the rename alone would let it replace
/// the file), or who may write the file but could not give the new one its owner.
#[cfg(unix)]
#[test]
fn a_file_the_user_may_not_write_or_does_not_own_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    if !common::cli::is_root() {
        common::say_skipped(
            "a_file_the_user_may_not_write_or_does_not_own_is_refused needs root to own the file",
        );
        return;
    }
    let dir = std::env::temp_dir().join(format!("sudoku-lsp-in-place-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    let binary = dir.join("sudoku-lsp");
    std::fs::copy(env!("CARGO_BIN_EXE_sudoku-lsp"), &binary).unwrap();
    std::fs::set_permissions(&binary, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = write(&dir, "p.sudoku", &format!("{PUZZLE}\n"));
    let cases = [
        (0o644, "this user may not write it (mode 0644"),
        (
            0o666,
            "which this user cannot give a new file: replacing it would change its owner",
        ),
    ];
    for (mode, said) in cases {
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
        for (args, _) in COMMANDS {
            let as_nobody = common::cli::unprivileged(Command::new(&binary).args(args).arg(&path));
            let Some(mut command) = as_nobody else {
                common::say_skipped(
                    "a_file_the_user_may_not_write_or_does_not_own_is_refused needs setpriv",
                );
                return;
            };
            let (_, err, code) = run(&mut command);
            assert_eq!(code, 2, "{args:?} {mode:o}: {err}");
            assert!(err.contains(said), "{args:?} {mode:o}: {err}");
            assert_eq!(read(&path), format!("{PUZZLE}\n"), "{args:?}");
            assert_eq!(names(&dir), ["p.sudoku", "sudoku-lsp"], "{args:?}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Replacing a file with hard links would leave the other names with the old text: refused.
#[cfg(unix)]
#[test]
fn a_file_with_hard_links_is_refused_and_the_links_kept() {
    use std::os::unix::fs::MetadataExt;
    let dir = scratch("hard-links");
    let path = write(&dir, "p.sudoku", "");
    let other = dir.join("other-name.sudoku");
    std::fs::hard_link(&path, &other).unwrap();
    for (args, _) in COMMANDS {
        std::fs::write(&path, format!("{PUZZLE}\n")).unwrap();
        let (_, err, code) = run(bin().args(args).arg(&path));
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.contains("p.sudoku: it has 2 hard links, which replacing it would split"),
            "{args:?}: {err}"
        );
        let (a, b) = (
            std::fs::metadata(&path).unwrap(),
            std::fs::metadata(&other).unwrap(),
        );
        assert_eq!((a.ino(), a.nlink()), (b.ino(), 2), "{args:?}");
        assert_eq!(read(&other), format!("{PUZZLE}\n"), "{args:?}");
    }
}

/// Opening a FIFO for reading waits for a writer: each command used to hang there for ever.
#[cfg(unix)]
#[test]
fn a_fifo_is_refused_at_once() {
    let dir = scratch("fifo");
    let fifo = dir.join("p.sudoku");
    common::cli::mkfifo(&fifo);
    for (args, _) in COMMANDS {
        let (_, err, code) = run_or_fail_hanging(bin().args(args).arg(&fifo), 20);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.contains("p.sudoku: not a regular file but a pipe (FIFO): only a regular file can be rewritten in place"),
            "{args:?}: {err}"
        );
    }
    // `solve --in-place <(command)`: a pipe by a name that leads nowhere real (it said "No such
    // file" before).
    let script = format!(
        "'{}' solve --in-place <(echo {PUZZLE})",
        env!("CARGO_BIN_EXE_sudoku-lsp")
    );
    let (_, err, code) = run_or_fail_hanging(Command::new("bash").args(["-c", &script]), 20);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(
            "not a regular file but a pipe (FIFO): only a regular file can be rewritten in place"
        ),
        "{err}"
    );
}

/// A name of 244 bytes and more made a temporary name over the 255 bytes a name may have.
#[test]
fn a_name_of_the_longest_length_is_rewritten() {
    let dir = scratch("long-name");
    let path = dir.join(format!("{}.sudoku", "n".repeat(248))); // 255 bytes
    for (args, err, code) in each_command(&path) {
        assert_eq!(code, 0, "{args:?}: {err}");
        assert_ne!(read(&path), format!("{PUZZLE}\n"), "{args:?}");
        assert_eq!(names(&dir).len(), 1, "{args:?}");
    }
}
