//! What the command line reads: files, folders walked for `*.sudoku`, and `-` for stdin.

use std::io::Read;
use std::path::{Path, PathBuf};

/// One input to check or solve.
pub struct Input {
    /// As printed in messages: the path as given or found, or `-` for stdin.
    pub name: String,
    /// The file to write back to (`None` for stdin).
    pub path: Option<PathBuf>,
    pub text: String,
    /// Where the bytes were not UTF-8 (replaced by U+FFFD in `text`), if anywhere.
    pub invalid_utf8_at: Option<usize>,
    /// The bytes as read, kept only when they were not UTF-8, so they can be written back as they were.
    pub raw: Option<Vec<u8>>,
}

/// Expand the arguments: folders to their `*.sudoku` files (sorted, recursively), files as
/// given, `-` as stdin. An error names the path and what went wrong.
pub fn collect(args: &[String]) -> Result<Vec<PathBuf>, String> {
    let mut paths = Vec::new();
    for arg in args {
        let path = PathBuf::from(arg);
        if arg == "-" {
            paths.push(path);
        } else if path.is_dir() {
            walk(&path, &mut paths).map_err(|e| format!("{arg}: {e}"))?;
        } else if path.exists() {
            paths.push(path);
        } else {
            return Err(format!("{arg}: no such file or folder"));
        }
    }
    Ok(paths)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "sudoku") {
            out.push(path);
        }
    }
    Ok(())
}

/// Read each path in turn and hand it to `work`; a file that cannot be read is reported on
/// stderr and skipped. Returns false if any was.
pub fn each(paths: &[PathBuf], mut work: impl FnMut(Input)) -> bool {
    let mut all_read = true;
    for path in paths {
        match read(path) {
            Ok(input) => work(input),
            Err(message) => {
                eprintln!("sudoku-lsp: {message}");
                all_read = false;
            }
        }
    }
    all_read
}

/// Read one input; an I/O error names the path.
fn read(path: &Path) -> Result<Input, String> {
    let (name, bytes, file) = if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| format!("-: cannot read standard input: {e}"))?;
        ("-".to_string(), bytes, None)
    } else {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| format!("{name}: {e}"))?;
        (name, bytes, Some(path.to_path_buf()))
    };
    let (text, invalid_utf8_at, raw) = match String::from_utf8(bytes) {
        Ok(text) => (text, None, None),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
            (text, Some(at), Some(e.into_bytes()))
        }
    };
    Ok(Input {
        name,
        path: file,
        text,
        invalid_utf8_at,
        raw,
    })
}
