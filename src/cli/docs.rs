//! `completions` and `man`: shell completion scripts and manual pages, generated from the same
//! clap definitions as `--help` (clap_complete, clap_mangen), so they always agree with it.

use std::io::Write;
use std::path::Path;

use clap::Command;
use clap_complete::Shell;

/// Write the completion script for `shell` to stdout.
pub fn completions(mut program: Command, shell: Shell) -> i32 {
    let name = program.get_name().to_string();
    // Made in memory first: clap_complete panics when its writer fails (a closed pipe).
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut program, name.as_str(), &mut script);
    if shell == Shell::Bash {
        script = mend_bash(&String::from_utf8_lossy(&script), &name).into_bytes();
    }
    let mut out = std::io::stdout().lock();
    match out.write_all(&script).and_then(|()| out.flush()) {
        Ok(()) => 0,
        Err(error) => super::fail(&format!("cannot write the completions: {error}")),
    }
}

/// clap_complete's bash script names a hyphenated program's subcommand states two ways
/// (clap-rs/clap#6421): the loop reading the words makes `sudoku__lsp__subcmd__check`, the case
/// arms look for `sudoku__subcmd__lsp__subcmd__check`, so no option after a subcommand would
/// ever complete. Spell the arms as the loop does (a no-op once clap_complete is mended).
fn mend_bash(script: &str, name: &str) -> String {
    let loop_spelling = format!("{}__subcmd__", name.replace('-', "__"));
    let arm_spelling = format!("{}__subcmd__", name.replace('-', "__subcmd__"));
    script.replace(&arm_spelling, &loop_spelling)
}

/// The manual page of the program to stdout or, with `out`, one page per command into that
/// folder (`sudoku-lsp.1`, `sudoku-lsp-check.1`, …), as packagers install them.
pub fn man(program: Command, out: Option<&Path>) -> i32 {
    let written = match out {
        None => write_page(&program, &mut std::io::stdout().lock()),
        Some(folder) => write_pages(program, folder),
    };
    match written {
        Ok(()) => 0,
        Err(error) => super::fail(&format!("cannot write the manual: {error}")),
    }
}

fn write_page(program: &Command, out: &mut impl Write) -> std::io::Result<()> {
    clap_mangen::Man::new(program.clone()).render(out)?;
    out.flush()
}

fn write_pages(mut program: Command, folder: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(folder)
        .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", folder.display())))?;
    program.build(); // subcommands get their full names (`sudoku-lsp-check`)
    clap_mangen::generate_to(program, folder)
        .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", folder.display())))
}
