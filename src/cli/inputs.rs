//! What the command line reads: files as given (a FIFO or a device too: `check <(gen)`), folders
//! walked for `*.sudoku` files, and `-` for standard input.
//!
//! A walk follows links but enters each real folder once and lists each real file once, so a
//! link back up the tree (`ln -s . self`) neither loops nor counts a file twice; it lists only
//! regular files (a FIFO, socket or device named `x.sudoku` in a folder could block or never
//! end). A folder or file it cannot read is reported, naming it, and the walk goes on.

use std::collections::HashSet;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use walkdir::WalkDir;

/// One input to check or solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    Stdin,
    File(PathBuf),
}

impl Input {
    /// As printed in messages: the path as given or found, or `-`, its control characters
    /// escaped (a file name can hold any byte but `/`).
    pub fn name(&self) -> String {
        super::style::printable(&self.raw_name()).into_owned()
    }

    /// The name as it is, for machine formats (whose writers escape what they must).
    pub fn raw_name(&self) -> String {
        match self {
            Input::Stdin => "-".to_string(),
            Input::File(path) => path.display().to_string(),
        }
    }

    /// Whether it is larger than `bytes`, or may be (standard input, a file whose size is not
    /// known).
    pub fn may_exceed(&self, bytes: u64) -> bool {
        match self {
            Input::Stdin => true,
            Input::File(path) => std::fs::metadata(path).map_or(true, |m| m.len() > bytes),
        }
    }

    /// Open it for reading; an error says why, after the input's name.
    pub fn open(&self) -> Result<Box<dyn Read + Send>, String> {
        match self {
            Input::Stdin => Ok(Box::new(std::io::stdin())),
            Input::File(path) => match File::open(path) {
                Ok(file) => Ok(Box::new(file)),
                Err(e) => Err(format!("{}: cannot read: {e}", self.name())),
            },
        }
    }
}

/// How much of an input is looked at for a NUL byte, the mark of a binary file (git looks at
/// its first 8,000 bytes, ripgrep at its first buffer).
const BINARY_PROBE: usize = 8 << 10;

impl Input {
    /// Open it for reading as text: an error says why not, after the input's name, when it is
    /// a binary file (a NUL byte in its first 8 KiB, as git and ripgrep tell them: no `.sudoku`
    /// text holds one) or UTF-16 (its byte-order mark), rather than a finding for each of its
    /// lines of noise (`/dev/urandom`).
    pub fn open_text(&self) -> Result<Box<dyn Read + Send>, String> {
        let mut reader = self.open()?;
        let mut head = Vec::with_capacity(BINARY_PROBE);
        let probe = (&mut reader)
            .take(BINARY_PROBE as u64)
            .read_to_end(&mut head);
        if let Err(e) = probe {
            return Err(format!("{}: cannot read: {e}", self.name()));
        }
        if head.starts_with(&[0xff, 0xfe]) || head.starts_with(&[0xfe, 0xff]) {
            return Err(format!(
                "{}: UTF-16 text (its byte-order mark says so), not read: save it as UTF-8",
                self.name()
            ));
        }
        if let Some(at) = head.iter().position(|&b| b == 0) {
            return Err(format!(
                "{}: a binary file (a NUL byte at byte {at}), not read",
                self.name()
            ));
        }
        Ok(Box::new(std::io::Cursor::new(head).chain(reader)))
    }
}

/// The inputs the arguments name, and how many problems finding them met (each already said
/// on stderr, naming its path).
pub struct Collected {
    pub inputs: Vec<Input>,
    pub problems: usize,
}

/// Expand the arguments in order: folders to their `*.sudoku` files (sorted, recursively),
/// anything else as given, `-` as stdin.
pub fn collect(args: &[String]) -> Collected {
    let mut collected = Collected {
        inputs: Vec::new(),
        problems: 0,
    };
    let mut seen = Seen::default();
    for arg in args {
        let path = PathBuf::from(arg);
        if arg == "-" {
            collected.inputs.push(Input::Stdin);
            continue;
        }
        match std::fs::metadata(&path) {
            Ok(meta) if meta.is_dir() => walk(&path, &mut seen, &mut collected),
            Ok(_) => collected.inputs.push(Input::File(path)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                problem(&mut collected, format!("{arg}: no such file or folder"))
            }
            Err(e) => problem(&mut collected, format!("{arg}: {e}")),
        }
    }
    collected
}

fn problem(collected: &mut Collected, message: String) {
    super::style::say_error(&message);
    collected.problems += 1;
}

/// Add the `*.sudoku` regular files under `root` that no earlier walk listed.
fn walk(root: &Path, seen: &mut Seen, collected: &mut Collected) {
    let mut folders = std::mem::take(&mut seen.folders);
    let entries = WalkDir::new(root)
        .follow_links(true)
        .sort_by_file_name()
        .into_iter()
        // Each real folder once: a second way into one (a link) is not entered.
        .filter_entry(|entry| !entry.file_type().is_dir() || first_visit(&mut folders, entry));
    for entry in entries {
        match entry {
            Ok(entry) => {
                let wanted = entry.file_type().is_file() && has_sudoku_extension(entry.path());
                if wanted && first_visit(&mut seen.files, &entry) {
                    collected.inputs.push(Input::File(entry.into_path()));
                }
            }
            // A link back to a folder being walked: that folder is walked once already.
            Err(e) if e.loop_ancestor().is_some() => {}
            // A dangling link to something that is no puzzle file is none of our business.
            Err(e) if is_dangling(&e) && !e.path().is_some_and(has_sudoku_extension) => {}
            Err(e) => {
                let path = e.path().unwrap_or(root).display().to_string();
                let cause = e
                    .io_error()
                    .map_or_else(|| e.to_string(), |io| io.to_string());
                problem(collected, format!("{path}: cannot read: {cause}"));
            }
        }
    }
    seen.folders = folders;
}

fn has_sudoku_extension(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "sudoku")
}

fn is_dangling(e: &walkdir::Error) -> bool {
    e.io_error()
        .is_some_and(|io| io.kind() == std::io::ErrorKind::NotFound)
}

/// The folders and files walks have listed, by what they are on disk rather than their path.
#[derive(Default)]
struct Seen {
    folders: HashSet<Identity>,
    files: HashSet<Identity>,
}

/// True the first time an entry's real file or folder comes up.
fn first_visit(seen: &mut HashSet<Identity>, entry: &walkdir::DirEntry) -> bool {
    match identity(entry) {
        Some(id) => seen.insert(id),
        None => true, // unknown: better listed twice than not at all
    }
}

#[cfg(unix)]
type Identity = (u64, u64);

/// The device and inode: the same for every path to one file.
#[cfg(unix)]
fn identity(entry: &walkdir::DirEntry) -> Option<Identity> {
    use std::os::unix::fs::MetadataExt;
    let meta = entry.metadata().ok()?;
    Some((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
type Identity = PathBuf;

#[cfg(not(unix))]
fn identity(entry: &walkdir::DirEntry) -> Option<Identity> {
    std::fs::canonicalize(entry.path()).ok()
}
