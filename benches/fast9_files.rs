//! `cargo bench --bench fast9_files -- [PATH]...`: the file bench of `sudoku_lsp::cli::bench`
//! (µs per puzzle on whole puzzle files, or generated puzzles with no path), runnable before the
//! CLI has its `bench` subcommand. Arguments starting with `--` (cargo passes `--bench`) are ignored.

fn main() {
    let paths: Vec<std::path::PathBuf> = std::env::args_os()
        .skip(1)
        .filter(|a| !a.to_string_lossy().starts_with("--"))
        .map(Into::into)
        .collect();
    let say = |message: &str| eprintln!("fast9_files: {message}");
    std::process::exit(sudoku_lsp::cli::bench::run(&paths, &say));
}
