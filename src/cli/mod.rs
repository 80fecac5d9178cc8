//! The command line: `check`, `solve`, and the arguments that pick the server.

/// Run the binary; returns the exit code.
pub fn main() -> i32 {
    0 // TODO(cli)
}
