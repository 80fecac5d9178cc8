//! A real editor as the client: Emacs's built-in Eglot opens a `.sudoku` file with emoji and CJK
//! in its title, shows the conflict diagnostics at the right characters, hovers, takes an edit,
//! and applies "Solve puzzle" (offered without its edit, which Eglot resolves). Skipped with a message when `emacs` (29 or later, with Eglot) is
//! not installed, unless `SUDOKU_LSP_REQUIRE_EMACS` is set (as CI sets it): then that fails.

use crate::common;

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The conflict the session sees, then edits away (A1 back to `.`) before solving.
const PUZZLE: &str = concat!("# title: deux trois 😀 数独\n", common::conflict_rows!());

const SOLVED: &str = concat!("# title: deux trois 😀 数独\n", common::easy_solved_rows!());

/// The Emacs session: every wait bounded, every result printed on a `key: value` line.
const SCRIPT: &str = r#"
(require 'eglot)
(require 'flymake)
(setq eglot-confirm-server-edits nil)
(define-derived-mode sudoku-mode prog-mode "Sudoku")
(add-to-list 'auto-mode-alist '("\\.sudoku\\'" . sudoku-mode))
(add-to-list 'eglot-server-programs `(sudoku-mode . (,(getenv "SUDOKU_LSP_BIN"))))
(defun wait-until (predicate seconds)
  (let ((deadline (+ (float-time) seconds)))
    (while (and (< (float-time) deadline) (not (funcall predicate)))
      (accept-process-output nil 0.05))))
(find-file (getenv "SUDOKU_FILE"))
(apply #'eglot (eglot--guess-contact))
(wait-until (lambda () (eglot-current-server)) 20)
(wait-until (lambda () (flymake-diagnostics)) 20)
(princ (format "encoding: %s\n"
  (plist-get (eglot--capabilities (eglot-current-server)) :positionEncoding)))
(dolist (d (sort (flymake-diagnostics) (lambda (a b) (< (flymake-diagnostic-beg a) (flymake-diagnostic-beg b)))))
  (princ (format "diagnostic: %d %d %s\n" (flymake-diagnostic-beg d) (flymake-diagnostic-end d)
                 (flymake-diagnostic-text d))))
(goto-char (point-min)) (forward-line 5) (forward-char 4)
(let ((hover (jsonrpc-request (eglot-current-server) :textDocument/hover
                              (eglot--TextDocumentPositionParams))))
  (princ (format "hover: %s\n" (car (split-string (plist-get (plist-get hover :contents) :value) "\n")))))
(goto-char (point-min)) (forward-line 1) (delete-char 1) (insert ".")
(eglot--signal-textDocument/didChange)
(defun notes () (seq-filter (lambda (d) (eq (flymake-diagnostic-type d) 'eglot-note)) (flymake-diagnostics)))
(wait-until (lambda () (null (flymake-diagnostics))) 20)
(princ (format "after edit: %d problems, %d notes\n"
  (- (length (flymake-diagnostics)) (length (notes))) (length (notes))))
(let* ((here (eglot--pos-to-lsp-position (point)))
       (actions (jsonrpc-request (eglot-current-server) :textDocument/codeAction
                  (list :textDocument (eglot--TextDocumentIdentifier)
                        :range (list :start here :end here)
                        :context (list :diagnostics []))))
       (solve (seq-find (lambda (a) (equal (plist-get a :title) "Solve puzzle")) actions)))
  (princ (format "solve offered: %s\n" (if solve "yes" "no")))
;; Eglot resolves the action's edit first (codeAction/resolve) when it came without one.
  (when solve (eglot-execute (eglot-current-server) solve)))
(princ "buffer:\n")
(princ (buffer-substring-no-properties (point-min) (point-max)))
(princ "end of buffer\n")
(set-buffer-modified-p nil)
(eglot-shutdown (eglot-current-server))
"#;

fn emacs_with_eglot() -> bool {
    Command::new("emacs")
        .args(["--batch", "--eval", "(require 'eglot)"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn eglot_sees_diagnostics_hovers_and_solves() {
    if !emacs_with_eglot() {
        // CI installs Emacs before the tests and sets this, so a missing Emacs fails there.
        if std::env::var_os("SUDOKU_LSP_REQUIRE_EMACS").is_some() {
            panic!("no emacs with Eglot on PATH, and SUDOKU_LSP_REQUIRE_EMACS is set");
        }
        common::say_skipped(
            "eglot_sees_diagnostics_hovers_and_solves: no emacs with Eglot on PATH",
        );
        return;
    }
    let dir = std::env::temp_dir().join(format!("sudoku-lsp-eglot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file: PathBuf = dir.join("two.sudoku");
    let script = dir.join("session.el");
    std::fs::write(&file, PUZZLE).unwrap();
    std::fs::write(&script, SCRIPT).unwrap();
    let mut child = Command::new("emacs")
        .arg("--batch")
        .arg("-l")
        .arg(&script)
        .env("SUDOKU_LSP_BIN", env!("CARGO_BIN_EXE_sudoku-lsp"))
        .env("SUDOKU_FILE", &file)
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start emacs");
    let deadline = Instant::now() + Duration::from_secs(120);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the Emacs session did not finish in time");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let output = child.wait_with_output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let out = String::from_utf8_lossy(&output.stdout);
    let context = format!(
        "stdout:\n{out}\nstderr:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );

    // Eglot offers utf-32 first; Emacs counts characters, so the emoji and CJK in the title
    // move the grid by characters, and the diagnostics must land on A1 (26) and A3 (28).
    assert!(out.contains("encoding: utf-32\n"), "{context}");
    let diagnostics: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("diagnostic: "))
        .collect();
    assert_eq!(diagnostics.len(), 2, "{context}");
    assert!(
        diagnostics[0].starts_with("diagnostic: 26 27 sudoku [conflict]: 3 appears twice in row A"),
        "{context}"
    );
    assert!(
        diagnostics[1].starts_with("diagnostic: 28 29 "),
        "{context}"
    );
    assert!(
        out.contains("hover: E5 · row E, column 5, box 5\n"),
        "{context}"
    );
    // The conflict is gone, and nothing else shows: redundant givens are for setters (a
    // setting), off by default.
    assert!(
        out.contains("after edit: 0 problems, 0 notes\n"),
        "{context}"
    );
    assert!(out.contains("solve offered: yes\n"), "{context}");
    let buffer = out
        .split("buffer:\n")
        .nth(1)
        .and_then(|rest| rest.split("end of buffer\n").next())
        .unwrap_or_else(|| panic!("{context}"));
    assert_eq!(buffer, SOLVED, "{context}");
}
