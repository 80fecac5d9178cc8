//! Printing findings: `PATH:LINE:COLUMN: severity: message` lines, JSON for machines, GitHub
//! Actions workflow commands (annotations on a pull request's files), and SARIF 2.1.0 results
//! (code scanning).

use std::fmt::Write;

use serde_json::{json, Value};

use super::lines::LineIndex;
use super::style::{self, Paint};
use crate::finding::{Finding, Severity};

/// The quickfix line editors read: `PATH:LINE:COLUMN: error: MESSAGE`, its place and severity
/// coloured when `paint` is on (the same text once the escapes are stripped). What comes from
/// the file (its name, text quoted in the message) has its control characters escaped.
pub fn line(name: &str, index: &LineIndex, finding: &Finding, paint: Paint) -> String {
    let mut line = String::new();
    write_line(&mut line, name, index, finding, paint);
    line.pop();
    line
}

/// [`line`] and its line break, written at the end of `out` (no string of its own: a run
/// over a collection may say a line for each of thousands of puzzles).
pub fn write_line(
    out: &mut String,
    name: &str,
    index: &LineIndex,
    finding: &Finding,
    paint: Paint,
) {
    let (line, column) = index.line_column(finding.span.start);
    let severity = paint.paint(style::severity(finding.severity), finding.severity.name());
    // Room for the whole line at once (with its numbers, severity and a colour's escapes),
    // rather than the string growing piece by piece as it is written.
    out.reserve(name.len() + finding.message.len() + 64);
    // Writing into a String cannot fail.
    let _ = writeln!(
        out,
        "{}: {severity}: {}",
        paint.place(name, line, column),
        style::printable(&finding.message)
    );
}

/// One finding as a JSON object, with the range and related places in the same terms.
pub fn json(name: &str, index: &LineIndex, finding: &Finding) -> Value {
    let (line, column) = index.line_column(finding.span.start);
    let (end_line, end_column) = index.line_column(finding.span.end);
    let related: Vec<Value> = finding
        .related
        .iter()
        .map(|r| {
            let (line, column) = index.line_column(r.span.start);
            json!({ "line": line, "column": column, "message": r.message })
        })
        .collect();
    json!({
        "path": name,
        "line": line,
        "column": column,
        "end_line": end_line,
        "end_column": end_column,
        "severity": severity_word(finding.severity),
        "code": finding.code.as_str(),
        "message": finding.message,
        "related": related,
    })
}

fn severity_word(severity: Severity) -> &'static str {
    match severity {
        Severity::Info => "info",
        other => other.name(),
    }
}

/// A GitHub Actions workflow command that annotates the finding's place:
/// `::error file=PATH,line=L,col=C,endLine=L,endColumn=C,title=sudoku-lsp CODE::MESSAGE`.
/// Notes become `notice`; hints are not shown (`None`). Control characters are escaped as in
/// the text format: the Actions log shows terminal escapes as a terminal would.
pub fn github(name: &str, index: &LineIndex, finding: &Finding) -> Option<String> {
    let command = match finding.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
        Severity::Hint => return None,
    };
    let (line, column) = index.line_column(finding.span.start);
    let (end_line, end_column) = index.line_column(finding.span.end);
    let title = format!("sudoku-lsp {}", finding.code.as_str());
    Some(format!(
        "::{command} file={},line={line},col={column},endLine={end_line},endColumn={end_column},title={}::{}",
        github_property(&style::printable(name)),
        github_property(&title),
        github_data(&style::printable(&finding.message)),
    ))
}

/// A workflow command that warns about a whole file (`::warning file=PATH,title=…::MESSAGE`):
/// how many of its findings were not shown.
pub fn github_notice(name: &str, message: &str) -> String {
    format!(
        "::warning file={},title=sudoku-lsp::{}",
        github_property(&style::printable(name)),
        github_data(message)
    )
}

/// A workflow command's message, escaped as the runner reads it back.
fn github_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A workflow command's property value: its `:` and `,` would end it.
fn github_property(text: &str) -> String {
    github_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// The SARIF level of a severity; hints are not reported (`None`).
pub fn sarif_level(severity: Severity) -> Option<&'static str> {
    match severity {
        Severity::Error => Some("error"),
        Severity::Warning => Some("warning"),
        Severity::Info => Some("note"),
        Severity::Hint => None,
    }
}

/// One finding as a SARIF `result`, its places as regions of the file (columns in Unicode
/// characters: the run says `unicodeCodePoints`).
pub fn sarif_result(name: &str, index: &LineIndex, finding: &Finding) -> Option<Value> {
    let level = sarif_level(finding.severity)?;
    let uri = artifact_uri(name);
    let region = |start: usize, end: usize| {
        let (line, column) = index.line_column(start);
        let (end_line, end_column) = index.line_column(end.max(start));
        json!({
            "startLine": line,
            "startColumn": column,
            "endLine": end_line,
            "endColumn": end_column,
        })
    };
    let location = |start, end| {
        json!({"physicalLocation": {
            "artifactLocation": {"uri": uri},
            "region": region(start, end),
        }})
    };
    let related: Vec<Value> = finding
        .related
        .iter()
        .enumerate()
        .map(|(id, r)| {
            let mut place = location(r.span.start, r.span.end);
            place["id"] = json!(id);
            place["message"] = json!({"text": r.message});
            place
        })
        .collect();
    let mut result = json!({
        "ruleId": finding.code.as_str(),
        "level": level,
        "message": {"text": finding.message},
        "locations": [location(finding.span.start, finding.span.end)],
    });
    if !related.is_empty() {
        result["relatedLocations"] = json!(related);
    }
    Some(result)
}

/// A path as SARIF wants it: a relative URI reference with `/` separators (as code scanning
/// expects, relative to where `check` ran), or a `file://` URI for an absolute path; each
/// character other than letters, digits, `-._~/` percent-encoded.
fn artifact_uri(name: &str) -> String {
    let path = name.replace('\\', "/");
    let mut uri = String::with_capacity(path.len());
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            uri.push(byte as char);
        } else {
            uri.push_str(&format!("%{byte:02X}"));
        }
    }
    if path.starts_with('/') {
        format!("file://{uri}")
    } else {
        uri
    }
}

/// The SARIF log around the results, split where they go: the text before the first result,
/// and after the last one, given the rules (codes) the results used and the notices about
/// files whose results were not all written (their name, and what to say), which go in the
/// run's invocation as tool execution notifications, where SARIF has a tool say such things.
pub const SARIF_HEAD: &str = "{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\
    \"version\":\"2.1.0\",\"runs\":[{\"columnKind\":\"unicodeCodePoints\",\"results\":[";

pub fn sarif_tail(
    rules: &std::collections::BTreeSet<&'static str>,
    notices: &[(String, String)],
) -> String {
    let rules: Vec<Value> = rules.iter().map(|id| json!({"id": id})).collect();
    let mut driver = json!({
        "name": "sudoku-lsp",
        "version": env!("CARGO_PKG_VERSION"),
        "rules": rules,
    });
    if !env!("CARGO_PKG_REPOSITORY").is_empty() {
        driver["informationUri"] = json!(env!("CARGO_PKG_REPOSITORY"));
    }
    let tool = json!({ "driver": driver });
    if notices.is_empty() {
        return format!("\n],\"tool\":{tool}}}]}}\n");
    }
    let notifications: Vec<Value> = notices
        .iter()
        .map(|(name, message)| {
            json!({
                "level": "warning",
                "message": {"text": message},
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": artifact_uri(name)},
                }}],
            })
        })
        .collect();
    let invocations = json!([{
        "executionSuccessful": true,
        "toolExecutionNotifications": notifications,
    }]);
    format!("\n],\"tool\":{tool},\"invocations\":{invocations}}}]}}\n")
}
