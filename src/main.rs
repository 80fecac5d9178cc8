/// mimalloc, for the rating's many small vectors (see its line in Cargo.toml).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc.h's `mi_option_purge_delay`, which libmimalloc-sys does not name.
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

fn main() {
    // Freed pages go back to the system at once rather than a second later: the server's peak on
    // a large document stays where glibc's was (a run frees the last one's parse as it builds its
    // own), and rating, which reuses its pages, is as fast.
    // SAFETY: setting an option is safe at any time; this one only changes when pages are purged.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 0) };
    std::process::exit(sudoku_lsp::cli::main());
}
