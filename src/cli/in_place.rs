//! Replacing a file with new contents so that nothing of the user's is lost: not if the process
//! dies midway, not if the user saves the file meanwhile, not its owner, group, mode or links.
//!
//! The file is opened before it is read, and that handle is kept to the end: whatever happens to
//! the name, the handle is the file that was read. The new text goes to a temporary file beside
//! it (same folder, so same file system), flushed to disk and given the original's owner, group
//! and mode. Then:
//!
//! 1. The original is looked at through the handle (its length, then a hash of its bytes against
//!    the one taken while reading it), and its name must still lead to it. If either fails, the
//!    new text is dropped.
//! 2. The temporary file and the original swap names in one step (`renameat2` with
//!    `RENAME_EXCHANGE`): the name holds the whole old text or the whole new one at any moment,
//!    and the old file is not gone, it has the temporary name.
//! 3. The old file is looked at once more: what now has the temporary name must be the file that
//!    was read, unchanged. A save that landed between 1 and 2 (written into the old file, or a
//!    new file renamed onto the name) shows here, and the two swap back: the user's version has
//!    its name again. Only then is the old file removed.
//!
//! Where the file system cannot swap (a plain rename instead), step 3 reads the old file through
//! the handle and, if it changed, writes that text back to the name; a file renamed onto the name
//! between 1 and 2 is then replaced unseen. What no program can see: a writer that keeps the file
//! open and writes into it after step 3 writes into the old file, removed by then.
//!
//! Stat times are not compared: a write within the file system's clock tick leaves them as they
//! were (git's "racy" files), so only the bytes decide.

use std::ffi::OsString;
use std::fs::{File, Metadata};
use std::hash::Hasher;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use tempfile::TempPath;

use crate::files::{kind_of, open_without_waiting};

/// Test hook: with this variable set to a path, the replacement waits (up to 10 s) before
/// comparing, until a file at that path exists, after creating `<path>.waiting`; so a test can
/// change the original at exactly that moment.
pub const PAUSE_VAR: &str = "SUDOKU_LSP_TEST_PAUSE_BEFORE_REPLACE";
/// Test hook: the same wait right after the new file took the name, before the old one is
/// looked at again.
pub const PAUSE_AFTER_VAR: &str = "SUDOKU_LSP_TEST_PAUSE_AFTER_REPLACE";
/// Test hook: when set, the names are never swapped but renamed, as on a file system without
/// `RENAME_EXCHANGE`.
pub const NO_EXCHANGE_VAR: &str = "SUDOKU_LSP_TEST_NO_EXCHANGE";

/// The longest part of the file's name the temporary file's name keeps: with its dot, random
/// letters and `.tmp` it stays within the 255 bytes a name may have.
const TEMP_NAME_KEEPS: usize = 200;

/// A replacement under way: the new text being written beside `target`.
pub struct Replacement {
    /// The real file (links followed: the link stays a link, its target gets the new text).
    target: PathBuf,
    /// The file as opened before it was read.
    original: File,
    temp: BufWriter<File>,
    temp_path: TempPath,
}

/// What was read of a file: a hash of its bytes and their number.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fingerprint {
    hash: u64,
    len: u64,
}

/// Why a replacement did not happen.
pub enum NotReplaced {
    /// The original changed since it was read: it is left, or put back, as the other writer left
    /// it; `kept` names where the user's version is when it could not have its name back.
    Changed {
        kept: Option<PathBuf>,
    },
    /// The file is not to be replaced: why.
    Refused(String),
    Io(String),
    /// The original changed after the new text took its name, and what it holds now could
    /// not be written back (only after a plain rename, see the module comment).
    Lost(String),
}

impl NotReplaced {
    /// What to tell the user after the file's name (`doing`: "solved"; `command`: "solve"), and
    /// the exit status.
    pub fn report(&self, doing: &str, command: &str) -> (String, i32) {
        match self {
            NotReplaced::Changed { kept: None } => (
                format!(
                    "the file changed while it was being {doing}; it is left as it was saved \
                     meanwhile, not overwritten (run {command} again)"
                ),
                1,
            ),
            NotReplaced::Changed { kept: Some(kept) } => (
                format!(
                    "the file changed while it was being {doing}; the version saved meanwhile \
                     could not take its name back and is kept as {} (run {command} again)",
                    kept.display()
                ),
                1,
            ),
            NotReplaced::Refused(why) => (format!("{why}; not rewritten"), 2),
            NotReplaced::Io(e) => (
                format!("cannot replace the file: {e}; it is left as it was"),
                2,
            ),
            NotReplaced::Lost(e) => (
                format!(
                    "the file changed while it was being {doing}, after its new text was in                      place, and what was saved meanwhile could not be written back: {e}"
                ),
                2,
            ),
        }
    }
}

fn io(e: std::io::Error) -> NotReplaced {
    NotReplaced::Io(e.to_string())
}

impl Replacement {
    /// Start replacing `path`: the replacement, and a reader of the file as it is now (read it
    /// through a [`HashingReader`]). Only a regular file is opened, never waiting on a FIFO.
    /// An error says why, after the file's name.
    pub fn start(path: &Path) -> Result<(Replacement, File), String> {
        let cannot_read = |e: std::io::Error| format!("cannot read: {e}");
        // A look by name first: opening a FIFO, even without waiting, would wake its writer.
        require_regular(&std::fs::metadata(path).map_err(cannot_read)?)?;
        let original = open_without_waiting(path).map_err(cannot_read)?;
        require_regular(&original.metadata().map_err(cannot_read)?)?;
        let target = std::fs::canonicalize(path).map_err(cannot_read)?;
        let folder = target.parent().unwrap_or(Path::new("."));
        let (temp, temp_path) = tempfile::Builder::new()
            .prefix(&temp_prefix(&target))
            .suffix(".tmp")
            .tempfile_in(folder)
            .map_err(|e| format!("cannot write a temporary file beside it: {e}"))?
            .into_parts();
        let reader = original.try_clone().map_err(cannot_read)?;
        let replacement = Replacement {
            target,
            original,
            temp: BufWriter::new(temp),
            temp_path,
        };
        Ok((replacement, reader))
    }

    pub fn write(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.temp.write_all(bytes)
    }

    /// Put the new text in place, if the original is still what was read (`read`, from the
    /// [`HashingReader`] it was read through). Dropping a replacement instead removes its
    /// temporary file.
    pub fn finish(self, read: Fingerprint) -> Result<(), NotReplaced> {
        let Replacement {
            target,
            original,
            temp,
            temp_path,
        } = self;
        let temp = temp.into_inner().map_err(|e| io(e.into_error()))?;
        temp.sync_all().map_err(io)?;
        let now = original.metadata().map_err(io)?;
        refusal(&target, &now)?;
        keep_owner_and_mode(&temp, &now)?;
        pause_for_tests(PAUSE_VAR);
        if !is_as_read(&original, read).map_err(io)?
            || !name_leads_to(&target, &original).map_err(io)?
        {
            return Err(NotReplaced::Changed { kept: None });
        }
        let new = identity(&temp.metadata().map_err(io)?);
        // From here on the temporary name may hold the user's file: never removed unseen.
        let old = temp_path.keep().map_err(|e| io(e.error))?;
        let swapped = swap(&old, &target).map_err(|e| {
            let _ = std::fs::remove_file(&old);
            io(e)
        })?;
        sync_folder(&target);
        pause_for_tests(PAUSE_AFTER_VAR);
        let after = After {
            target: &target,
            original: &original,
            old: &old,
            new,
        };
        match swapped {
            Swapped::Exchanged => after.exchanged(read),
            Swapped::Renamed => after.renamed(read, &now),
        }
    }
}

/// Whether `target` still leads to the file that was opened (not to a new one saved in its
/// place, nor to nothing).
fn name_leads_to(target: &Path, original: &File) -> std::io::Result<bool> {
    match std::fs::metadata(target) {
        Ok(meta) => Ok(identity(&meta) == identity(&original.metadata()?)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e),
    }
}

/// Whether the file as opened still holds exactly the bytes that were read.
fn is_as_read(original: &File, read: Fingerprint) -> std::io::Result<bool> {
    if original.metadata()?.len() != read.len {
        return Ok(false);
    }
    let mut file = original;
    file.seek(SeekFrom::Start(0))?;
    let (mut reader, now) = HashingReader::new(file);
    std::io::copy(&mut reader, &mut std::io::sink())?;
    Ok(now.get() == read)
}

/// The state right after the new file took the name.
struct After<'a> {
    target: &'a Path,
    original: &'a File,
    /// The temporary name, which now holds the old file (after a swap).
    old: &'a Path,
    /// The new file.
    new: Identity,
}

impl After<'_> {
    /// After a swap: the old file under the temporary name must be the one read, unchanged;
    /// if so it is removed, if not it swaps back.
    fn exchanged(&self, read: Fingerprint) -> Result<(), NotReplaced> {
        let original = identity(&self.original.metadata().map_err(io)?);
        let old_is_original =
            std::fs::symlink_metadata(self.old).is_ok_and(|meta| identity(&meta) == original);
        if old_is_original && is_as_read(self.original, read).map_err(io)? {
            let _ = std::fs::remove_file(self.old);
            return Ok(());
        }
        if self.name_holds_new() && exchange(self.old, self.target).is_ok() {
            sync_folder(self.target);
            // The temporary name holds the new file again, unless yet another save came.
            if std::fs::symlink_metadata(self.old).is_ok_and(|meta| identity(&meta) == self.new) {
                let _ = std::fs::remove_file(self.old);
                return Err(NotReplaced::Changed { kept: None });
            }
        }
        Err(NotReplaced::Changed {
            kept: Some(keep_beside(self.old, self.target)),
        })
    }

    /// After a plain rename the old file has no name left: if it changed, its text (read through
    /// the handle) is written back to the name, the same safe way.
    fn renamed(&self, read: Fingerprint, was: &Metadata) -> Result<(), NotReplaced> {
        if is_as_read(self.original, read).map_err(io)? {
            return Ok(());
        }
        let copy = self
            .copy_of_original(was)
            .map_err(|e| NotReplaced::Lost(e.to_string()))?;
        if self.name_holds_new() && std::fs::rename(&copy, self.target).is_ok() {
            sync_folder(self.target);
            return Err(NotReplaced::Changed { kept: None });
        }
        Err(NotReplaced::Changed {
            kept: Some(keep_beside(&copy, self.target)),
        })
    }

    fn name_holds_new(&self) -> bool {
        std::fs::symlink_metadata(self.target).is_ok_and(|meta| identity(&meta) == self.new)
    }

    /// The original's text as it is now, in a new file beside it with its owner and mode.
    fn copy_of_original(&self, was: &Metadata) -> std::io::Result<PathBuf> {
        let folder = self.target.parent().unwrap_or(Path::new("."));
        let mut copy = tempfile::Builder::new()
            .prefix(&temp_prefix(self.target))
            .suffix(".tmp")
            .tempfile_in(folder)?;
        let mut original = self.original;
        original.seek(SeekFrom::Start(0))?;
        std::io::copy(&mut original, copy.as_file_mut())?;
        copy.as_file().sync_all()?;
        let _ = keep_owner_and_mode(copy.as_file(), was);
        copy.into_temp_path().keep().map_err(|e| e.error)
    }
}

/// Refuse a file that only a rename by force could replace, or that replacing would harm.
fn refusal(target: &Path, now: &Metadata) -> Result<(), NotReplaced> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let links = now.nlink();
        if links > 1 {
            return Err(NotReplaced::Refused(format!(
                "it has {links} hard links, which replacing it would split (the other names \
                 would keep the old text)"
            )));
        }
        let mode = now.mode() & 0o7777;
        // Root may write anything: a file no one may write is read-only for root too.
        if mode & 0o222 == 0 {
            return Err(NotReplaced::Refused(format!(
                "read-only file (mode {mode:04o})"
            )));
        }
        if let Err(e) = rustix::fs::access(target, rustix::fs::Access::WRITE_OK) {
            return Err(NotReplaced::Refused(format!(
                "this user may not write it (mode {mode:04o}, owner uid {}): {}",
                now.uid(),
                std::io::Error::from(e)
            )));
        }
    }
    #[cfg(not(unix))]
    if now.permissions().readonly() {
        let _ = target;
        return Err(NotReplaced::Refused("read-only file".into()));
    }
    Ok(())
}

/// Give the new file the original's owner, group and mode (the mode last: a change of owner
/// clears the set-user-ID bits). An owner this user cannot give is a refusal: the file would
/// become someone else's.
fn keep_owner_and_mode(temp: &File, original: &Metadata) -> Result<(), NotReplaced> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let (uid, gid) = (original.uid(), original.gid());
        let mine = temp.metadata().map_err(io)?;
        if (mine.uid(), mine.gid()) != (uid, gid) {
            match std::os::unix::fs::fchown(temp, Some(uid), Some(gid)) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => {
                    return Err(NotReplaced::Refused(format!(
                        "it belongs to uid {uid}, gid {gid}, which this user cannot give a new \
                         file: replacing it would change its owner"
                    )))
                }
                Err(e) => return Err(io(e)),
            }
        }
    }
    temp.set_permissions(original.permissions()).map_err(io)
}

/// Where a version of the file is kept when it cannot have its name: `NAME.sudoku-lsp-conflict`
/// (`-2`… when taken), or where it is if it cannot be renamed.
fn keep_beside(path: &Path, target: &Path) -> PathBuf {
    for n in 1..10 {
        let mut name = target.as_os_str().to_owned();
        name.push(".sudoku-lsp-conflict");
        if n > 1 {
            name.push(format!("-{n}"));
        }
        let candidate = PathBuf::from(name);
        // A hard link never replaces an existing file, as a rename would.
        if std::fs::hard_link(path, &candidate).is_ok() {
            let _ = std::fs::remove_file(path);
            sync_folder(target);
            return candidate;
        }
    }
    path.to_path_buf()
}

fn require_regular(meta: &Metadata) -> Result<(), String> {
    if meta.is_file() {
        return Ok(());
    }
    Err(format!(
        "not a regular file but {}: only a regular file can be rewritten in place",
        kind_of(&meta.file_type())
    ))
}

/// `.NAME.` with NAME cut short enough for the whole temporary name to be a valid one.
fn temp_prefix(target: &Path) -> OsString {
    let name = target.file_name().unwrap_or_default();
    let mut prefix = OsString::from(".");
    prefix.push(shortened(name, TEMP_NAME_KEEPS));
    prefix.push(".");
    prefix
}

/// The first `most` bytes of a name, cut between two characters when it is UTF-8.
pub fn shortened(name: &std::ffi::OsStr, most: usize) -> OsString {
    if name.len() <= most {
        return name.to_owned();
    }
    if let Some(text) = name.to_str() {
        let mut end = most;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        return OsString::from(&text[..end]);
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        std::ffi::OsStr::from_bytes(&name.as_bytes()[..most]).to_owned()
    }
    #[cfg(not(unix))]
    {
        OsString::from(
            name.to_string_lossy()
                .chars()
                .take(most / 4)
                .collect::<String>(),
        )
    }
}

/// How the new file took the name.
enum Swapped {
    /// The two files swapped names: the old one has the temporary name.
    Exchanged,
    /// The old one lost its name.
    Renamed,
}

fn swap(temp: &Path, target: &Path) -> std::io::Result<Swapped> {
    match exchange(temp, target) {
        Ok(()) => Ok(Swapped::Exchanged),
        Err(e) if cannot_exchange(&e) => {
            std::fs::rename(temp, target)?;
            Ok(Swapped::Renamed)
        }
        Err(e) => Err(e),
    }
}

/// Swap two names in one step.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    use rustix::fs::{renameat_with, RenameFlags, CWD};
    if std::env::var_os(NO_EXCHANGE_VAR).is_some() {
        return Err(std::io::ErrorKind::Unsupported.into());
    }
    renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE).map_err(std::io::Error::from)
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn exchange(_: &Path, _: &Path) -> std::io::Result<()> {
    Err(std::io::ErrorKind::Unsupported.into())
}

/// Whether an exchange failed only because the system or file system has none.
fn cannot_exchange(e: &std::io::Error) -> bool {
    if e.kind() == std::io::ErrorKind::Unsupported {
        return true;
    }
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        use rustix::io::Errno;
        let none = [Errno::INVAL, Errno::NOSYS, Errno::OPNOTSUPP];
        return none
            .iter()
            .any(|n| e.raw_os_error() == Some(n.raw_os_error()));
    }
    #[allow(unreachable_code)]
    false
}

/// What a file is on disk, whatever its name: its device and inode.
#[cfg(unix)]
type Identity = (u64, u64);

#[cfg(unix)]
fn identity(meta: &Metadata) -> Identity {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

#[cfg(not(unix))]
type Identity = ();

#[cfg(not(unix))]
fn identity(_: &Metadata) -> Identity {}

/// A reader that hashes every byte it hands on.
pub struct HashingReader<R> {
    inner: R,
    hasher: std::collections::hash_map::DefaultHasher,
    len: u64,
    read: std::rc::Rc<std::cell::Cell<Fingerprint>>,
}

impl<R: Read> HashingReader<R> {
    /// Wrap `inner`; the returned cell holds the fingerprint of what was read so far.
    pub fn new(inner: R) -> (HashingReader<R>, std::rc::Rc<std::cell::Cell<Fingerprint>>) {
        let read = std::rc::Rc::new(std::cell::Cell::new(Fingerprint::default()));
        let reader = HashingReader {
            inner,
            hasher: Default::default(),
            len: 0,
            read: read.clone(),
        };
        (reader, read)
    }
}

impl<R: Read> Read for HashingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hasher.write(&buf[..n]);
        self.len += n as u64;
        self.read.set(Fingerprint {
            hash: self.hasher.finish(),
            len: self.len,
        });
        Ok(n)
    }
}

/// Make a rename durable (a power loss right after it keeps the new name).
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

fn pause_for_tests(var: &str) {
    let Some(go) = std::env::var_os(var) else {
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

    fn fingerprint(bytes: &[u8], step: usize) -> Fingerprint {
        let (mut reader, read) = HashingReader::new(Trickle(bytes, step));
        std::io::copy(&mut reader, &mut std::io::sink()).unwrap();
        read.get()
    }

    #[test]
    fn the_hash_is_of_the_bytes_not_of_how_they_were_read() {
        let text: Vec<u8> = (0..5000u32).map(|i| (i * 7 % 251) as u8).collect();
        let whole = fingerprint(&text, usize::MAX);
        assert_eq!(whole.len, 5000);
        for step in [1, 3, 8, 64, 1000] {
            assert_eq!(fingerprint(&text, step), whole, "reads of {step}");
        }
        let mut other = text.clone();
        other[4000] ^= 1;
        assert_ne!(fingerprint(&other, 64), whole);
    }

    #[test]
    fn a_long_name_is_cut_between_characters() {
        let name = "é".repeat(150); // 300 bytes
        let short = shortened(std::ffi::OsStr::new(&name), 201);
        assert_eq!(short.len(), 200);
        assert!(short.to_str().is_some());
        let prefix = temp_prefix(Path::new(&format!("/x/{}", "a".repeat(255))));
        assert_eq!(prefix.len(), TEMP_NAME_KEEPS + 2);
    }
}
