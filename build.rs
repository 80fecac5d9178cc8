//! Link the binary with packed relative relocations (`DT_RELR`) where the C library that will
//! load it reads them.
//!
//! The binary is position-independent (its address is randomised at each start), so the loader
//! writes the address of every pointer in its tables before `main`: 22 thousand of them. As
//! classic `RELA` entries, 24 bytes each, that table is 750 KB read at every start; packed, it is
//! 9 KB, and a small run (`check` of an 11-puzzle file, `--version`) starts about 0.25 ms sooner
//! (of 2.5–3). glibc reads packed relocations from 2.36 on, and a binary linked with them does
//! not start on an older one, so they are asked for only when building on and for a Linux whose
//! glibc is 2.36 or later (the usual `cargo install`); a cross build or an older glibc links as
//! before. A linker that does not know the option (GNU ld before 2.38) warns and ignores it.

use std::env;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if building_for_this_glibc() && host_glibc_at_least(2, 36) {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
}

/// Whether the binary is built for the machine that builds it, a Linux with glibc.
fn building_for_this_glibc() -> bool {
    let var = |name| env::var(name).unwrap_or_default();
    var("TARGET") == var("HOST")
        && var("CARGO_CFG_TARGET_OS") == "linux"
        && var("CARGO_CFG_TARGET_ENV") == "gnu"
}

/// Whether the glibc this build script runs on (the one the binary will be loaded by, when it
/// is built for this machine) is at least `major.minor`.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn host_glibc_at_least(major: u32, minor: u32) -> bool {
    use std::ffi::{c_char, CStr};
    extern "C" {
        fn gnu_get_libc_version() -> *const c_char;
    }
    // SAFETY: glibc returns a pointer to a static, NUL-terminated version string.
    let version = unsafe { CStr::from_ptr(gnu_get_libc_version()) };
    let mut parts = version
        .to_str()
        .unwrap_or("")
        .split('.')
        .map(|part| part.parse::<u32>().unwrap_or(0));
    let found = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
    found >= (major, minor)
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn host_glibc_at_least(_major: u32, _minor: u32) -> bool {
    false
}
