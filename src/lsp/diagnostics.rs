//! Findings as LSP diagnostics: ranges in the negotiated encoding, `source` = `sudoku`, the
//! finding's stable code, and related information pointing at the other cells involved.

use ropey::Rope;
use tower_lsp_server::lsp_types::{
    Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Uri,
};

use super::encoding::Encoding;
use crate::finding::{Code, Finding, Severity, Span};

pub const SOURCE: &str = "sudoku";

pub fn from_findings(
    findings: &[Finding],
    uri: &Uri,
    rope: &Rope,
    encoding: Encoding,
) -> Vec<Diagnostic> {
    findings
        .iter()
        .map(|finding| from_finding(finding, uri, rope, encoding))
        .collect()
}

fn from_finding(finding: &Finding, uri: &Uri, rope: &Rope, encoding: Encoding) -> Diagnostic {
    let related: Vec<DiagnosticRelatedInformation> = finding
        .related
        .iter()
        .map(|related| DiagnosticRelatedInformation {
            location: Location::new(uri.clone(), encoding.range(rope, related.span)),
            message: related.message.to_string(),
        })
        .collect();
    Diagnostic {
        range: encoding.range(rope, finding.span),
        severity: Some(severity(finding.severity)),
        code: Some(NumberOrString::String(finding.code.as_str().to_string())),
        source: Some(SOURCE.to_string()),
        message: finding.message.to_string(),
        related_information: (!related.is_empty()).then_some(related),
        ..Diagnostic::default()
    }
}

fn severity(severity: Severity) -> DiagnosticSeverity {
    match severity {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Info => DiagnosticSeverity::INFORMATION,
        Severity::Hint => DiagnosticSeverity::HINT,
    }
}

/// The one diagnostic of a document whose analysis panicked: on its first line.
pub fn internal(problem: &str, uri: &Uri, rope: &Rope, encoding: Encoding) -> Diagnostic {
    let first_line = rope.line(0).to_string();
    let end = first_line.trim_end_matches(['\r', '\n']).len();
    let message = format!(
        "internal error: analysing this document failed ({problem}); this is a bug in sudoku-lsp, \
         please report it with the file"
    );
    let finding = Finding::error(Code::Internal, Span::new(0, end), message);
    from_finding(&finding, uri, rope, encoding)
}
