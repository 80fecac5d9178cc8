//! The language server: a thin face over `analysis`, speaking LSP on stdio.

/// Serve LSP on stdin/stdout until the client says exit; returns the process exit code.
pub fn run() -> i32 {
    eprintln!("sudoku-lsp: the language server is not built yet");
    1 // TODO(lsp)
}
