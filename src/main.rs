use std::alloc::{GlobalAlloc, Layout};
use std::io::Write;

use mimalloc::MiMalloc;
use sudoku_lsp::cli::Workload;

/// mimalloc (for the rating's many small vectors, see its line in Cargo.toml), behind a check
/// that ends the run with a clear message when memory runs out.
#[global_allocator]
static ALLOCATOR: OrSayOutOfMemory<MiMalloc> = OrSayOutOfMemory(MiMalloc);

/// mimalloc.h's `mi_option_purge_delay`, which libmimalloc-sys does not name.
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Every run starts without transparent huge pages, set before Rust's runtime makes its first
/// allocation (an `.init_array` entry, as the `ctor` crate places them): mimalloc's arena asks
/// the kernel for huge pages, and the first one, 2 MB zeroed, was a quarter of a small run's
/// start (`check` of an 11-puzzle file). [`prepare`] turns them back on for larger work, where
/// they pay (a rating or a large collection runs 5–10% slower without them).
#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static START_WITHOUT_HUGE_PAGES: extern "C" fn() = start_without_huge_pages;

#[cfg(target_os = "linux")]
extern "C" fn start_without_huge_pages() {
    set_huge_pages(false);
}

/// Whether the kernel may back this process's memory with transparent huge pages from now on
/// (where the allocator asks for them). A kernel without the setting leaves things as they were.
#[cfg(target_os = "linux")]
fn set_huge_pages(allowed: bool) {
    // SAFETY: PR_SET_THP_DISABLE takes a flag and touches no memory of ours.
    unsafe {
        libc::prctl(
            libc::PR_SET_THP_DISABLE,
            libc::c_ulong::from(!allowed),
            0,
            0,
            0,
        )
    };
}

/// Elsewhere there is no such setting to make.
#[cfg(not(target_os = "linux"))]
fn set_huge_pages(_allowed: bool) {}

fn main() {
    let mut code = sudoku_lsp::cli::main(prepare);
    // What `exit` would do besides ending the process is of no use here and costs: mimalloc's
    // handler gives every freed page back to the system one `madvise` at a time (3% of the
    // CPU time of `check` over 10,000 puzzles). Our buffered output is all that must not be
    // lost: standard output is flushed (files were flushed and closed where they were written).
    let flushed = std::io::stdout().flush();
    if let Err(e) = flushed {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            let _ = writeln!(
                std::io::stderr(),
                "sudoku-lsp: error: writing standard output: {e}"
            );
            code = code.max(2);
        }
    }
    // SAFETY: `_exit` ends the process at once; nothing of ours runs after it.
    unsafe { libc_exit(code) }
}

/// Set the allocator up for the run ahead. Huge pages for all but small runs. For the language
/// server, freed pages wait a tenth of a second before they go back to the system (mimalloc's
/// own `MIMALLOC_PURGE_DELAY` says otherwise when set): given back at once, every request that
/// builds a large answer faulted its pages in afresh (the semantic tokens of a 49,151-puzzle
/// collection spent a fifth of their 160 ms of CPU on the kernel zeroing pages; 125 ms kept),
/// for peaks 20 to 50 MB higher on the largest documents, and a closed document's memory still
/// goes back at once (the server trims it). The command line keeps mimalloc's default delay: a
/// run over a collection reuses its pages piece after piece.
fn prepare(workload: Workload) {
    const PURGE_DELAY_MS: std::ffi::c_long = 100;
    if workload != Workload::Small {
        set_huge_pages(true);
    }
    if workload == Workload::Serving && std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: setting an option is safe at any time; this one only changes when pages are
        // purged.
        unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, PURGE_DELAY_MS) };
    }
}

/// An allocator that never returns failure: where the one inside fails, it says so on stderr,
/// `sudoku-lsp: error: out of memory …`, and exits with status 2 (a usage or I/O problem), as
/// ripgrep and git end, instead of Rust's abort (SIGABRT, a core dump and, from a thread, a
/// panic's backtrace). `std::alloc::set_alloc_error_hook` would do this but is not stable.
struct OrSayOutOfMemory<A>(A);

// SAFETY: every call goes to the allocator inside with the same arguments; only a null result
// is acted on, and then the process ends.
unsafe impl<A: GlobalAlloc> GlobalAlloc for OrSayOutOfMemory<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        checked(self.0.alloc(layout), layout.size())
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        checked(self.0.alloc_zeroed(layout), layout.size())
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        self.0.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        checked(self.0.realloc(ptr, layout, new_size), new_size)
    }
}

fn checked(ptr: *mut u8, size: usize) -> *mut u8 {
    if ptr.is_null() {
        out_of_memory(size);
    }
    ptr
}

/// Say that memory ran out and exit 2, allocating nothing (the number is written from a buffer
/// on the stack; stderr is unbuffered).
#[cold]
fn out_of_memory(size: usize) -> ! {
    let mut number = itoa::Buffer::new();
    let mut stderr = std::io::stderr().lock();
    let _ = stderr.write_all(b"sudoku-lsp: error: out of memory (an allocation of ");
    let _ = stderr.write_all(number.format(size).as_bytes());
    let _ = stderr.write_all(b" bytes failed); stopped\n");
    // Not `exit`: its handlers (mimalloc's own among them) may want memory too.
    // SAFETY: `_exit` ends the process at once; nothing of ours runs after it.
    unsafe { libc_exit(2) }
}

extern "C" {
    #[link_name = "_exit"]
    fn libc_exit(status: i32) -> !;
}
