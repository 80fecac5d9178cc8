//! The integration tests, one binary (as ripgrep's `tests/tests.rs`): each module was its own
//! test file and binary, and each binary linked the whole crate. A module's name is its old
//! file's, so `cargo test --test integration cli_fmt::` runs what `--test cli_fmt` ran.
//!
//! The modules share one process: a test must not change the process's environment, working
//! folder or other global state; it passes what a run needs to the child it starts instead.
//! proptest keeps the seeds of past failures in `tests/proptest-regressions/MODULE.txt`, its
//! default place for a source under a folder with a `main.rs`.

mod common;
mod grids;

mod cli;
mod cli_collections;
mod cli_docs;
mod cli_fmt;
mod cli_formats;
mod cli_hostile;
mod cli_import;
mod cli_in_place;
mod cli_marks;
mod cli_rate;
mod cli_render;
mod cli_sarif_schema;
mod cli_setter;
mod cli_terminal;
mod cli_variants;
mod differential;
mod engine;
mod fast9;
mod format;
mod logic;
mod lsp_eglot;
mod lsp_features;
mod lsp_format;
mod lsp_limits;
mod lsp_marks;
mod lsp_navigation;
mod lsp_protocol;
mod lsp_pull;
mod lsp_render;
mod lsp_setter;
mod lsp_shared_data;
mod lsp_solver;
mod lsp_tokens;
mod lsp_variants;
