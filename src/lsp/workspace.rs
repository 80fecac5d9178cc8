//! Workspace diagnostics (`workspace/diagnostic`): every `*.sudoku` file under the workspace
//! folders, open in the editor or not, for clients that pull diagnostics.
//!
//! This module owns finding the files (a walk that honours `.gitignore` and skips hidden
//! folders, as ripgrep's does), the result ids of files that are not open, and their reports.
//! An open document is reported from its own diagnostics run (the server hands those in),
//! never from the disk, where its text may be older.
//!
//! A closed file's result id is its size, modification time and inode (on Unix), the settings
//! its diagnostics depend on, and a number unique to this server process: when the client
//! names that id from its last pull, the file is reported unchanged after a `stat`, never read.
//! A file that was reported before and is gone now is reported with no diagnostics, so the
//! client drops the old ones.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use ropey::Rope;
use tower_lsp_server::lsp_types::{
    Diagnostic, DiagnosticSeverity, DocumentDiagnosticReport, DocumentDiagnosticReportResult,
    FullDocumentDiagnosticReport, NumberOrString, RelatedFullDocumentDiagnosticReport,
    RelatedUnchangedDocumentDiagnosticReport, UnchangedDocumentDiagnosticReport, Uri,
    WorkspaceDocumentDiagnosticReport, WorkspaceFullDocumentDiagnosticReport,
    WorkspaceUnchangedDocumentDiagnosticReport,
};
use tower_lsp_server::UriExt;

use super::diagnostics::{self, SOURCE};
use super::encoding::Encoding;
use super::jobs::{self, Limits};
use super::settings::Checks;
use crate::analysis;
use crate::files::{kind_of, open_without_waiting};

/// The most files one workspace pull reports: past it the walk stops and the server says so.
/// A workspace folder opened at `/` or a home folder could otherwise hold millions.
pub const MAX_FILES: usize = 10_000;

/// A closed file larger than this is not checked by a workspace pull (its report says so and
/// how to check it): a 4 MB collection of 49,151 puzzles takes about a second; this is four
/// times that.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// The code of the diagnostic that says a file was not checked unopened (too large, or
/// unreadable), and why.
pub const NOT_CHECKED: &str = "not-checked";

/// What a workspace pull needs to know of one open document: its version and, if its current
/// text's diagnostics are ready, them and their result id.
pub struct OpenDocument {
    pub uri: Uri,
    pub version: i32,
    pub ready: Option<(String, Arc<Vec<Diagnostic>>)>,
}

/// What one workspace pull works with, taken from the server's state before it starts.
pub struct Pull {
    pub folders: Vec<PathBuf>,
    /// Open documents by their file's path.
    pub open: HashMap<PathBuf, OpenDocument>,
    /// The result ids the client holds, by document URI (as text: `Uri` is no good as a key).
    pub previous: HashMap<String, String>,
    pub files: FileCheck,
}

/// What checking a closed file depends on, besides the file.
#[derive(Clone, Copy)]
pub struct FileCheck {
    /// In every result id: ids from another server process never match.
    pub session: u64,
    pub checks: Checks,
    pub encoding: Encoding,
}

/// A pull's answer for one document: nothing new (the client holds its result id), or its
/// diagnostics in full under their result id.
pub enum Answer {
    Unchanged(String),
    Full(String, Vec<Diagnostic>),
}

impl Answer {
    /// Unchanged when the client holds `result_id`, else `diagnostics()` in full.
    pub fn new(
        result_id: String,
        previous: Option<&str>,
        diagnostics: impl FnOnce() -> Vec<Diagnostic>,
    ) -> Answer {
        if previous == Some(result_id.as_str()) {
            Answer::Unchanged(result_id)
        } else {
            Answer::Full(result_id, diagnostics())
        }
    }

    /// As a workspace pull reports it.
    fn for_workspace(self, uri: Uri, version: Option<i64>) -> WorkspaceDocumentDiagnosticReport {
        match self {
            Answer::Unchanged(result_id) => WorkspaceDocumentDiagnosticReport::Unchanged(
                WorkspaceUnchangedDocumentDiagnosticReport {
                    uri,
                    version,
                    unchanged_document_diagnostic_report: UnchangedDocumentDiagnosticReport {
                        result_id,
                    },
                },
            ),
            Answer::Full(result_id, items) => {
                WorkspaceDocumentDiagnosticReport::Full(WorkspaceFullDocumentDiagnosticReport {
                    uri,
                    version,
                    full_document_diagnostic_report: FullDocumentDiagnosticReport {
                        result_id: Some(result_id),
                        items,
                    },
                })
            }
        }
    }

    /// As a document pull (`textDocument/diagnostic`) reports it.
    pub fn for_document(self) -> DocumentDiagnosticReportResult {
        let report = match self {
            Answer::Unchanged(result_id) => {
                DocumentDiagnosticReport::Unchanged(RelatedUnchangedDocumentDiagnosticReport {
                    related_documents: None,
                    unchanged_document_diagnostic_report: UnchangedDocumentDiagnosticReport {
                        result_id,
                    },
                })
            }
            Answer::Full(result_id, items) => {
                DocumentDiagnosticReport::Full(RelatedFullDocumentDiagnosticReport {
                    related_documents: None,
                    full_document_diagnostic_report: FullDocumentDiagnosticReport {
                        result_id: Some(result_id),
                        items,
                    },
                })
            }
        };
        DocumentDiagnosticReportResult::Report(report)
    }
}

/// The reports of one workspace pull, and a note when the walk stopped at [`MAX_FILES`] or
/// could not read something. `None` when cancelled.
pub fn reports(
    pull: &Pull,
    cancel: &AtomicBool,
) -> Option<(Vec<WorkspaceDocumentDiagnosticReport>, Vec<String>)> {
    let (files, notes) = sudoku_files(&pull.folders, cancel)?;
    let mut reports = Vec::with_capacity(files.len());
    // Every document found, reported or not (an open one whose run is not done yet is not).
    let mut present: HashSet<String> = pull.open.values().map(|o| o.uri.to_string()).collect();
    for path in files {
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
        let report = match pull.open.get(&path) {
            Some(open) => open_report(open, pull.previous.get(open.uri.as_str())),
            None => closed_report(&path, pull, cancel),
        };
        if let Some(report) = report {
            present.insert(report_uri(&report).to_string());
            reports.push(report);
        }
    }
    reports.extend(gone_reports(pull, &present));
    Some((reports, notes))
}

/// Every `*.sudoku` regular file under `folders`, sorted, each once, at most [`MAX_FILES`]; and
/// notes on what could not be read. `None` when cancelled.
fn sudoku_files(folders: &[PathBuf], cancel: &AtomicBool) -> Option<(Vec<PathBuf>, Vec<String>)> {
    let mut files = Vec::new();
    let mut notes = Vec::new();
    for folder in folders {
        // `.gitignore` counts outside a git repository too: it says what the user wants left out.
        for entry in ignore::WalkBuilder::new(folder).require_git(false).build() {
            if cancel.load(Ordering::Relaxed) {
                return None;
            }
            match entry {
                Ok(entry) if is_sudoku_file(&entry) => files.push(entry.into_path()),
                Ok(_) => {}
                Err(error) => notes.push(format!("workspace diagnostics: {error}")),
            }
            if files.len() > MAX_FILES {
                break;
            }
        }
    }
    files.sort();
    files.dedup();
    if files.len() > MAX_FILES {
        files.truncate(MAX_FILES);
        notes.push(format!(
            "workspace diagnostics: more than {MAX_FILES} .sudoku files in the workspace \
             folders; only the first {MAX_FILES} found are reported"
        ));
    }
    Some((files, notes))
}

fn is_sudoku_file(entry: &ignore::DirEntry) -> bool {
    entry.file_type().is_some_and(|kind| kind.is_file())
        && entry.path().extension().is_some_and(|ext| ext == "sudoku")
}

/// An open document's report: from its diagnostics run, if that is done (if not, the client's
/// own pull of the document waits for it, so the workspace pull does not).
fn open_report(
    open: &OpenDocument,
    previous: Option<&String>,
) -> Option<WorkspaceDocumentDiagnosticReport> {
    let (result_id, diagnostics) = open.ready.as_ref()?;
    let version = Some(i64::from(open.version));
    let answer = Answer::new(result_id.clone(), previous.map(String::as_str), || {
        diagnostics.as_ref().clone()
    });
    Some(answer.for_workspace(open.uri.clone(), version))
}

/// A closed file's report: unchanged when its result id is the one the client holds, else its
/// diagnostics (`None` if its path makes no URI, it is gone, or the pull was cancelled while
/// checking it).
fn closed_report(
    path: &Path,
    pull: &Pull,
    cancel: &AtomicBool,
) -> Option<WorkspaceDocumentDiagnosticReport> {
    let uri = Uri::from_file_path(path)?;
    let previous = pull.previous.get(uri.as_str()).map(String::as_str);
    // Gone since the walk: if the client had a report, `gone_reports` clears it.
    let answer = closed_file(path, &uri, previous, pull.files, cancel)?;
    Some(answer.for_workspace(uri, None))
}

/// The answer for the closed file at `path` (`uri`) to a client holding `previous`: unchanged
/// after a `stat` when that is the file's result id, else its diagnostics read from disk.
/// `None` when the file cannot be found or the pull was cancelled.
pub fn closed_file(
    path: &Path,
    uri: &Uri,
    previous: Option<&str>,
    check: FileCheck,
    cancel: &AtomicBool,
) -> Option<Answer> {
    let metadata = std::fs::metadata(path).ok()?;
    let result_id = stamp(&metadata, check);
    if previous == Some(result_id.as_str()) {
        return Some(Answer::Unchanged(result_id));
    }
    let diagnostics = match read_regular(path) {
        Ok(text) => file_diagnostics(&text, uri, check, cancel)?,
        Err(why) => vec![not_checked(format!("not checked: {why}"))],
    };
    Some(Answer::Full(result_id, diagnostics))
}

/// The text of the regular file at `path`, read only if it is one and not over
/// [`MAX_FILE_BYTES`]; else why not. A path can be a FIFO (or turn into one after the walk saw
/// a file), whose opening and reading would block until some writer comes, and hold a thread of
/// the pool for good: so it is opened without blocking, and its type looked at on the handle
/// opened (what is read), before anything is read.
fn read_regular(path: &Path) -> Result<String, String> {
    use std::io::Read;
    let file = open_without_waiting(path).map_err(|error| error.to_string())?;
    let metadata = file.metadata().map_err(|error| error.to_string())?;
    if !metadata.is_file() {
        return Err(format!(
            "not a regular file ({}); only files are read",
            kind_of(&metadata.file_type())
        ));
    }
    if metadata.len() > MAX_FILE_BYTES {
        return Err(too_large(metadata.len()));
    }
    let mut bytes = Vec::with_capacity(metadata.len() as usize);
    // One byte past the limit tells a file that grew since from one that did not.
    let read = file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes);
    read.map_err(|error| error.to_string())?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Why a file over [`MAX_FILE_BYTES`] is not read.
fn too_large(len: u64) -> String {
    format!(
        "at {} MB this file is over the {} MB that workspace diagnostics read unopened; open \
         it, or run `sudoku-lsp check` on it",
        len >> 20,
        MAX_FILE_BYTES >> 20
    )
}

/// The diagnostics of a closed file's `text`, as if it were open: its findings and, when the
/// settings ask, what the solution says of its entries and marks (ratings are not run, so
/// redundant givens show only once it is open). `None` if cancelled.
fn file_diagnostics(
    text: &str,
    uri: &Uri,
    pull: FileCheck,
    cancel: &AtomicBool,
) -> Option<Vec<Diagnostic>> {
    let budget = Limits::from_env().budget(Some(cancel));
    let checked =
        jobs::guarded(|| jobs::check_text_keeping(text, &budget, &mut Default::default()));
    let rope = Rope::from_str(text);
    let checked = match checked {
        Ok(checked) => checked,
        Err(problem) => {
            return Some(vec![diagnostics::internal(
                &problem,
                uri,
                &rope,
                pull.encoding,
            )])
        }
    };
    if cancel.load(Ordering::Relaxed) {
        return None;
    }
    let omitted = checked.document.unkept.by_severity();
    let main = diagnostics::from_findings(&checked.findings, omitted, uri, &rope, pull.encoding);
    let extra = if pull.checks.check_against_solution {
        let findings = analysis::against_solution(&checked);
        let room = diagnostics::MAX_DIAGNOSTICS.min(findings.len());
        diagnostics::from_findings(&findings[..room], [0; 4], uri, &rope, pull.encoding)
    } else {
        Vec::new()
    };
    Some(diagnostics::with_extra(main, extra))
}

/// A closed file's result id: what changes when its content does (size, modification time,
/// and on Unix the inode, which an editor's save-by-rename replaces), the settings, the session.
fn stamp(metadata: &std::fs::Metadata, pull: FileCheck) -> String {
    let modified = metadata
        .modified()
        .ok()
        .and_then(|time| time.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |since| since.as_nanos());
    #[cfg(unix)]
    let inode = std::os::unix::fs::MetadataExt::ino(metadata);
    #[cfg(not(unix))]
    let inode = 0u64;
    let checks =
        u8::from(pull.checks.check_against_solution) | u8::from(pull.checks.redundant_givens) << 1;
    format!(
        "{}:f{}:{modified}:{inode}:{checks}",
        pull.session,
        metadata.len()
    )
}

/// Empty reports for the files the client holds results for, under the workspace folders,
/// that this pull did not find (deleted, renamed, or now ignored) and that are not open.
fn gone_reports(pull: &Pull, present: &HashSet<String>) -> Vec<WorkspaceDocumentDiagnosticReport> {
    let under_folders = |uri: &Uri| {
        uri.to_file_path()
            .is_some_and(|path| pull.folders.iter().any(|folder| path.starts_with(folder)))
    };
    let mut gone: Vec<Uri> = pull
        .previous
        .keys()
        .filter(|uri| !present.contains(*uri))
        .filter_map(|uri| uri.parse::<Uri>().ok())
        .filter(under_folders)
        .collect();
    gone.sort_by(|a, b| a.as_str().cmp(b.as_str()));
    gone.into_iter()
        .map(|uri| {
            WorkspaceDocumentDiagnosticReport::Full(WorkspaceFullDocumentDiagnosticReport {
                uri,
                version: None,
                full_document_diagnostic_report: FullDocumentDiagnosticReport::default(),
            })
        })
        .collect()
}

fn report_uri(report: &WorkspaceDocumentDiagnosticReport) -> &Uri {
    match report {
        WorkspaceDocumentDiagnosticReport::Full(full) => &full.uri,
        WorkspaceDocumentDiagnosticReport::Unchanged(unchanged) => &unchanged.uri,
    }
}

/// The one diagnostic of a file the workspace pull did not check, on its first character.
fn not_checked(message: String) -> Diagnostic {
    Diagnostic {
        severity: Some(DiagnosticSeverity::INFORMATION),
        code: Some(NumberOrString::String(NOT_CHECKED.to_string())),
        source: Some(SOURCE.to_string()),
        message,
        ..Diagnostic::default()
    }
}

/// Raises a cancel flag when dropped: a request's future is dropped when the client cancels
/// it (`$/cancelRequest`), and the work on the blocking pool then stops at its next check.
pub struct CancelOnDrop(pub Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}
