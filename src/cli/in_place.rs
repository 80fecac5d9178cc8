//! Replacing a file with new contents so that nothing is lost if the process dies midway or
//! someone else changes the file meanwhile.
//!
//! The new text goes to a temporary file beside the original (same folder, so same file
//! system), is flushed to disk, takes the original's permissions, and is renamed over it: a
//! rename is atomic, so at any moment the path holds either the whole old text or the whole new
//! one. Just before the rename the original is read again and compared with what was read at
//! the start (by a hash of its bytes, kept while reading): if it changed, the new text is
//! dropped and the original left as the other writer left it.

use std::fs::File;
use std::hash::Hasher;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

/// Test hook: with this variable set to a path, the replacement waits (up to 10 s) before
/// comparing, until a file at that path exists, after creating `<path>.waiting`; so a test can
/// change the original at exactly that moment.
pub const PAUSE_VAR: &str = "SUDOKU_LSP_TEST_PAUSE_BEFORE_REPLACE";

/// A replacement under way: the new text being written beside `target`.
pub struct Replacement {
    /// The real file (links followed: the link stays a link, its target gets the new text).
    target: PathBuf,
    temp: BufWriter<NamedTempFile>,
}

/// Why a replacement did not happen.
pub enum NotReplaced {
    /// The original changed since it was read.
    Changed,
    Io(String),
}

impl Replacement {
    /// Start replacing `path`.
    pub fn start(path: &Path) -> std::io::Result<Replacement> {
        let target = std::fs::canonicalize(path)?;
        if !std::fs::metadata(&target)?.is_file() {
            let message = "not a regular file: only a file can be rewritten in place";
            return Err(std::io::Error::other(message));
        }
        let folder = target.parent().unwrap_or(Path::new("."));
        let name = target.file_name().unwrap_or_default().to_string_lossy();
        let temp = tempfile::Builder::new()
            .prefix(&format!(".{name}."))
            .suffix(".tmp")
            .tempfile_in(folder)?;
        Ok(Replacement {
            target,
            temp: BufWriter::new(temp),
        })
    }

    pub fn write(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.temp.write_all(bytes)
    }

    /// Put the new text in place, if the original still hashes to `read_hash` (what the
    /// reader saw, from [`HashingReader`]). Dropping a replacement instead removes its
    /// temporary file.
    pub fn finish(self, read_hash: u64) -> Result<(), NotReplaced> {
        let io = |e: std::io::Error| NotReplaced::Io(e.to_string());
        let temp = self.temp.into_inner().map_err(|e| io(e.into_error()))?;
        temp.as_file().sync_all().map_err(io)?;
        let permissions = std::fs::metadata(&self.target).map_err(io)?.permissions();
        std::fs::set_permissions(temp.path(), permissions).map_err(io)?;
        pause_for_tests();
        if hash_of_file(&self.target).map_err(io)? != read_hash {
            return Err(NotReplaced::Changed);
        }
        temp.persist(&self.target).map_err(|e| io(e.error))?;
        sync_folder(&self.target);
        Ok(())
    }
}

/// A reader that hashes every byte it hands on.
pub struct HashingReader<R> {
    inner: R,
    hasher: std::collections::hash_map::DefaultHasher,
    hash: std::rc::Rc<std::cell::Cell<u64>>,
}

impl<R: Read> HashingReader<R> {
    /// Wrap `inner`; the returned cell holds the hash of what was read so far.
    pub fn new(inner: R) -> (HashingReader<R>, std::rc::Rc<std::cell::Cell<u64>>) {
        let hash = std::rc::Rc::new(std::cell::Cell::new(0));
        let reader = HashingReader {
            inner,
            hasher: Default::default(),
            hash: hash.clone(),
        };
        (reader, hash)
    }
}

impl<R: Read> Read for HashingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hasher.write(&buf[..n]);
        self.hash.set(self.hasher.finish());
        Ok(n)
    }
}

/// The hash of a whole file, as [`HashingReader`] computes it.
fn hash_of_file(path: &Path) -> std::io::Result<u64> {
    let (mut reader, hash) = HashingReader::new(File::open(path)?);
    std::io::copy(&mut reader, &mut std::io::sink())?;
    Ok(hash.get())
}

/// Make the rename itself durable (a power loss right after it keeps the new name).
fn sync_folder(file: &Path) {
    #[cfg(unix)]
    if let Some(folder) = file.parent() {
        if let Ok(folder) = File::open(folder) {
            let _ = folder.sync_all();
        }
    }
    #[cfg(not(unix))]
    let _ = file;
}

fn pause_for_tests() {
    let Some(go) = std::env::var_os(PAUSE_VAR) else {
        return;
    };
    let go = PathBuf::from(go);
    let mut waiting = go.clone().into_os_string();
    waiting.push(".waiting");
    let _ = File::create(&waiting);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !go.exists() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out at most `step` bytes a read.
    struct Trickle<'a>(&'a [u8], usize);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.1.min(buf.len()).min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    fn hash(bytes: &[u8], step: usize) -> u64 {
        let (mut reader, hash) = HashingReader::new(Trickle(bytes, step));
        std::io::copy(&mut reader, &mut std::io::sink()).unwrap();
        hash.get()
    }

    #[test]
    fn the_hash_is_of_the_bytes_not_of_how_they_were_read() {
        let text: Vec<u8> = (0..5000u32).map(|i| (i * 7 % 251) as u8).collect();
        let whole = hash(&text, usize::MAX);
        for step in [1, 3, 8, 64, 1000] {
            assert_eq!(hash(&text, step), whole, "reads of {step}");
        }
        let mut other = text.clone();
        other[4000] ^= 1;
        assert_ne!(hash(&other, 64), whole);
    }
}
