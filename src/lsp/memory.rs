//! Giving freed memory back to the system.
//!
//! An allocator keeps what a large document freed (its rope, parse, analyses, and the
//! diagnostics on their way out) for reuse, so without this the server stays near its peak long
//! after the document is closed. The binary's allocator is mimalloc (src/main.rs), which purges
//! freed pages as it goes; `mi_collect` returns what its threads still hold. glibc's
//! `malloc_trim(0)` does the same for a program that embeds this library with glibc's allocator.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::jobs;

/// Texts at least this long are large enough that a run over them frees memory worth returning.
pub const LARGE_TEXT: usize = 1 << 20;

/// Runs give memory back at most this often. In a burst of edits to a large document each run
/// reuses what the one before freed: returning it every time would only make the next run
/// fault it in again.
const RUN_INTERVAL: Duration = Duration::from_secs(2);

/// Whether a run over a large text that just finished should give memory back (see
/// [`RUN_INTERVAL`]); if so, the next one will wait.
pub fn due_after_run() -> bool {
    static LAST: Mutex<Option<Instant>> = Mutex::new(None);
    let mut last = LAST.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let now = Instant::now();
    if last.is_some_and(|at| now.duration_since(at) < RUN_INTERVAL) {
        return false;
    }
    *last = Some(now);
    true
}

/// Return free memory to the system (on Linux with glibc), logging the time it took.
pub fn give_back(why: &str) {
    let started = Instant::now();
    trim();
    jobs::log_timing(|| {
        let ms = started.elapsed().as_secs_f64() * 1e3;
        format!("memory given back after {why} in {ms:.2} ms")
    });
}

fn trim() {
    // SAFETY: mi_collect frees and purges what mimalloc (the binary's allocator, see
    // src/main.rs) holds unused, under its own locks; harmless where it allocates nothing.
    unsafe {
        libmimalloc_sys::mi_collect(true);
    }
    glibc_trim();
}

/// What glibc's own allocator holds (a library embedding this one may use it).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn glibc_trim() {
    // SAFETY: malloc_trim only walks the allocator's own free lists, under its own locks; it is
    // safe to call from any thread at any time.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn glibc_trim() {}
