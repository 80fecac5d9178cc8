//! `sudoku-lsp completions SHELL` and `sudoku-lsp man`, run as a user would: each script loaded
//! into its real shell, which then completes `sudoku-lsp ch` to `check` (bash, fish) or at least
//! reads it (zsh); the manual page rendered by `man`; the pages one per command in a folder.
//! A shell or `man` that is not installed is skipped, saying so, unless
//! `SUDOKU_LSP_REQUIRE_SHELLS` is set (as CI sets it, having installed them): then it fails.

use crate::common;

use std::path::Path;
use std::process::Command;

use common::cli::{bin, run, scratch, write};

/// The commands every completion script and the manual must name.
const COMMANDS: [&str; 15] = [
    "check",
    "solve",
    "marks",
    "fmt",
    "rate",
    "explain",
    "hint",
    "bench",
    "new",
    "render",
    "import",
    "export",
    "completions",
    "man",
    "help",
];

fn script(shell: &str) -> String {
    let (out, err, code) = run(bin().args(["completions", shell]));
    assert_eq!(code, 0, "completions {shell}: {err}");
    for command in COMMANDS {
        assert!(out.contains(command), "{shell} script lacks {command}");
    }
    out
}

/// Whether `program` runs here; if not, says the test is skipped (or fails, in CI).
fn installed(program: &str) -> bool {
    let found = Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("SUDOKU_LSP_REQUIRE_SHELLS").is_none(),
            "{program} is not installed, and SUDOKU_LSP_REQUIRE_SHELLS is set"
        );
        common::say_skipped(&format!("{program} is not installed"));
    }
    found
}

fn shell_output(program: &str, args: &[&str]) -> String {
    let (out, err, code) = run(Command::new(program).args(args));
    assert_eq!(code, 0, "{program} {args:?}: {err}");
    out
}

/// A file of the repository.
fn repository_file(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

#[test]
fn the_readmes_pre_commit_snippet_names_the_repository() {
    let manifest = repository_file("Cargo.toml");
    let repository = manifest
        .lines()
        .find_map(|l| l.strip_prefix("repository = "))
        .unwrap()
        .trim_matches('"');
    let readme = repository_file("README.md");
    let repos: Vec<&str> = readme
        .lines()
        .filter_map(|l| l.trim().strip_prefix("- repo: "))
        .collect();
    assert_eq!(repos, [repository]);
}

#[test]
fn the_neovim_readme_says_how_to_get_neovim_0_11() {
    let readme = repository_file("editors/neovim/README.md");
    assert!(readme.contains("## Getting Neovim 0.11"), "{readme}");
    assert!(readme.contains("https://github.com/neovim/neovim/releases/latest/download/"));
}

#[test]
fn bash_completes_a_command_from_its_first_letters() {
    let dir = scratch("bash");
    let path = write(&dir, "sudoku-lsp.bash", &script("bash"));
    if !installed("bash") {
        return;
    }
    // What bash does on Tab after `sudoku-lsp ch`: call the completion function with the words.
    let complete = format!(
        "source {}; COMP_WORDS=(sudoku-lsp ch); COMP_CWORD=1; COMP_LINE='sudoku-lsp ch'; \
         COMP_POINT=13; _sudoku__lsp sudoku-lsp ch sudoku-lsp; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        path.display()
    );
    let offered = shell_output("bash", &["-c", &complete]);
    assert_eq!(offered.split_whitespace().collect::<Vec<_>>(), ["check"]);
    // And the options of a command.
    let options = complete
        .replace("(sudoku-lsp ch)", "(sudoku-lsp check --fo)")
        .replace("COMP_CWORD=1", "COMP_CWORD=2")
        .replace("sudoku-lsp ch sudoku-lsp", "sudoku-lsp --fo check");
    let offered = shell_output("bash", &["-c", &options]);
    assert!(offered.contains("--format"), "{offered}");
}

#[test]
fn fish_completes_a_command_from_its_first_letters() {
    let dir = scratch("fish");
    let path = write(&dir, "sudoku-lsp.fish", &script("fish"));
    if !installed("fish") {
        return;
    }
    let complete = format!("source {}; complete -C 'sudoku-lsp ch'", path.display());
    let offered = shell_output("fish", &["--no-config", "-c", &complete]);
    let words: Vec<&str> = offered
        .lines()
        .filter_map(|l| l.split('\t').next())
        .collect();
    assert_eq!(words, ["check"], "{offered}");
}

#[test]
fn zsh_reads_its_completion_function() {
    let dir = scratch("zsh");
    let path = write(&dir, "_sudoku-lsp", &script("zsh"));
    assert!(std::fs::read_to_string(&path)
        .unwrap()
        .starts_with("#compdef sudoku-lsp"));
    if !installed("zsh") {
        return;
    }
    shell_output("zsh", &["-n", path.to_str().unwrap()]);
    // Loaded the way `fpath` loads it: compinit finds the function and binds it to the name.
    let load = format!(
        "fpath=({} $fpath); autoload -Uz compinit; compinit -u -d {}/zcompdump; \
         print -r -- $_comps[sudoku-lsp]",
        dir.display(),
        dir.display()
    );
    let bound = shell_output("zsh", &["-f", "-c", &load]);
    assert_eq!(bound.trim(), "_sudoku-lsp");
}

#[test]
fn powershell_and_elvish_scripts_name_every_command() {
    assert!(script("powershell").contains("Register-ArgumentCompleter"));
    script("elvish");
}

#[test]
fn an_unknown_shell_is_refused_with_the_ones_there_are() {
    let (out, err, code) = run(bin().args(["completions", "tcsh"]));
    assert_eq!((out.as_str(), code), ("", 2));
    assert!(err.contains("bash, elvish, fish, powershell, zsh"), "{err}");
}

#[test]
fn the_manual_page_renders_with_every_command() {
    let (page, err, code) = run(bin().arg("man"));
    assert_eq!(code, 0, "{err}");
    assert!(page.contains(".TH sudoku-lsp 1"), "{page}");
    for command in COMMANDS {
        assert!(page.contains(command), "the page lacks {command}");
    }
    let dir = scratch("man");
    let path = write(&dir, "sudoku-lsp.1", &page);
    if !installed("man") {
        return;
    }
    let (text, err, code) = run(Command::new("man").env("MANWIDTH", "100").args([
        "-l",
        "-P",
        "cat",
        path.to_str().unwrap(),
    ]));
    assert_eq!(code, 0, "man: {err}");
    let text = without_overstrikes(&text);
    assert!(text.contains("Language server and checker for .sudoku puzzle files"));
    assert!(text.contains("SYNOPSIS"), "{text}");
}

/// `man`'s bold and underline for a terminal (`N\x08N`) taken out: the plain text.
fn without_overstrikes(text: &str) -> String {
    let mut plain: Vec<char> = Vec::with_capacity(text.len());
    for c in text.chars() {
        if c == '\u{8}' {
            plain.pop();
        } else {
            plain.push(c);
        }
    }
    plain.into_iter().collect()
}

#[test]
fn man_out_writes_a_page_per_command() {
    let dir = scratch("man-out");
    let out = dir.join("man1");
    let (_, err, code) = run(bin().args(["man", "--out", out.to_str().unwrap()]));
    assert_eq!(code, 0, "{err}");
    assert!(out.join("sudoku-lsp.1").is_file());
    for command in COMMANDS {
        let page = out.join(format!("sudoku-lsp-{command}.1"));
        let text = std::fs::read_to_string(&page).unwrap_or_else(|e| panic!("{page:?}: {e}"));
        assert!(
            text.contains(&format!(".TH sudoku-lsp-{command} 1")),
            "{text}"
        );
    }
    // A folder that cannot be made: the error names it, nothing is written.
    let file = write(&dir, "a-file", "");
    let blocked = file.join("man1");
    let (_, err, code) = run(bin().args(["man", "--out", blocked.to_str().unwrap()]));
    assert_eq!(code, 2);
    assert!(err.contains(&*blocked.to_string_lossy()), "{err}");
    assert!(!Path::new(&blocked).exists());
}
