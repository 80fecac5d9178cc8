//! The command line: `check`, `solve`, `bench`, and with no subcommand the language server.

use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(
    name = "sudoku-lsp",
    version,
    about = "Language server and checker for .sudoku puzzle files"
)]
struct Args {
    /// Serve the Language Server Protocol on stdin/stdout (also the default with no subcommand).
    #[arg(long)]
    stdio: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {}

/// Run the binary; returns the exit code.
pub fn main() -> i32 {
    let args = match Args::try_parse() {
        Ok(args) => args,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    match args.command {
        None => crate::lsp::run(),
    }
}
