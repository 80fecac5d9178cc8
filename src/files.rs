//! Opening a user's file safely, shared by both faces: the command line's in-place writes and
//! pictures, and the server's workspace pull. A path may name a FIFO (or turn into one between
//! a look and an open); opened the usual way it waits for a writer for ever.

use std::fs::{File, FileType};
use std::path::Path;

/// Open for reading without waiting: a FIFO opens at once (and is then refused by the caller,
/// which looks at what it opened) instead of waiting for a writer.
pub fn open_without_waiting(path: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32);
    }
    options.open(path)
}

/// What a file that is not a regular file is, as the user would call it.
pub fn kind_of(kind: &FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a pipe (FIFO)";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
    }
    if kind.is_dir() {
        "a folder"
    } else {
        "not a regular file"
    }
}
