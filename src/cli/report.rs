//! Printing findings: `PATH:LINE:COLUMN: severity: message` lines, or JSON for machines.

use serde_json::{json, Value};

use super::lines::LineIndex;
use crate::finding::{Finding, Severity};

/// The quickfix line editors read: `PATH:LINE:COLUMN: error: MESSAGE`.
pub fn line(name: &str, index: &LineIndex, finding: &Finding) -> String {
    let (line, column) = index.line_column(finding.span.start);
    format!(
        "{name}:{line}:{column}: {}: {}",
        finding.severity.name(),
        finding.message
    )
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
