//! Findings as LSP diagnostics: ranges in the negotiated encoding, `source` = `sudoku`, the
//! finding's stable code, and related information pointing at the other cells involved; and
//! the cap on how many one document publishes.

use ropey::Rope;
use tower_lsp_server::lsp_types::{
    Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Uri,
};

use super::encoding::Encoding;
use crate::finding::{Code, Finding, Severity, Span};

pub const SOURCE: &str = "sudoku";

/// The most diagnostics one document publishes, besides the one saying how many more there are.
/// Past a few thousand no one reads them, and every one costs: a kilobyte or so in the server
/// while it is built, turned into JSON and queued, and as much again in the client. A file of
/// 100,000 repeated lines once made the server peak at 1.2 GB. `sudoku-lsp check` lists all.
pub const MAX_DIAGNOSTICS: usize = 2_000;

/// The code of the diagnostic that stands for those over [`MAX_DIAGNOSTICS`].
pub const TOO_MANY: &str = "too-many";

/// The code of the one diagnostic of a document over the size limit.
pub const TOO_LARGE: &str = "too-large";

/// The diagnostics of a document's findings: all of them up to [`MAX_DIAGNOSTICS`]. Past that,
/// errors first, then warnings, then the rest, each group in source order, and one more
/// diagnostic saying how many of each severity are not shown, `omitted` (by severity: the
/// problems a capped parse counted without keeping them) among them. Only the diagnostics
/// published are ever built.
pub fn from_findings(
    findings: &[Finding],
    omitted: [usize; 4],
    uri: &Uri,
    rope: &Rope,
    encoding: Encoding,
) -> Vec<Diagnostic> {
    if findings.len() <= MAX_DIAGNOSTICS && omitted == [0; 4] {
        let mut diagnostics: Vec<Diagnostic> = findings
            .iter()
            .map(|finding| from_finding(finding, uri, rope, encoding))
            .collect();
        let cells = findings
            .iter()
            .flat_map(|finding| at_broken_cells(finding, uri, rope, encoding));
        diagnostics.extend(cells.take(MAX_DIAGNOSTICS.saturating_sub(findings.len())));
        return diagnostics;
    }
    let shown = chosen(findings, MAX_DIAGNOSTICS);
    let mut diagnostics = Vec::with_capacity(shown.len() + 1);
    diagnostics.extend(
        shown
            .iter()
            .map(|&at| from_finding(&findings[at], uri, rope, encoding)),
    );
    diagnostics.push(too_many(findings, omitted, &shown, rope, encoding));
    diagnostics
}

/// `main` with `extra` after it, as far as the cap on diagnostics leaves room: what the settings
/// add (redundant givens, the solution's verdict on entries) is the first to go.
pub fn with_extra(mut main: Vec<Diagnostic>, extra: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let room = MAX_DIAGNOSTICS.saturating_sub(main.len());
    main.extend(extra.into_iter().take(room));
    main
}

/// Which `cap` findings to show, by their indices, in the order to publish them.
fn chosen(findings: &[Finding], cap: usize) -> Vec<usize> {
    let rank = |severity| match severity {
        Severity::Error => 0,
        Severity::Warning => 1,
        Severity::Info | Severity::Hint => 2,
    };
    let mut order: Vec<usize> = (0..findings.len()).collect();
    // Stable: findings at the same place keep the order the analysis gave them.
    order.sort_by_key(|&at| (rank(findings[at].severity), findings[at].span.start));
    order.truncate(cap);
    order
}

/// The diagnostic on the first line that says how many findings of each severity `shown`
/// leaves out, with those `omitted` before.
fn too_many(
    findings: &[Finding],
    omitted: [usize; 4],
    shown: &[usize],
    rope: &Rope,
    encoding: Encoding,
) -> Diagnostic {
    let severities = [
        Severity::Error,
        Severity::Warning,
        Severity::Info,
        Severity::Hint,
    ];
    let mut hidden = omitted;
    for finding in findings {
        hidden[finding.severity as usize] += 1;
    }
    for &at in shown {
        hidden[findings[at].severity as usize] -= 1;
    }
    let total = findings.len() + omitted.iter().sum::<usize>();
    let counts: Vec<String> = severities
        .iter()
        .zip(hidden)
        .filter(|&(_, count)| count > 0)
        .map(|(severity, count)| {
            let plural = if count == 1 { "" } else { "s" };
            format!("{count} more {}{plural}", severity.name())
        })
        .collect();
    let message = format!(
        "{} not shown: {} of the {total} problems are listed here, errors first; \
         `sudoku-lsp check` lists them all",
        counts.join(", "),
        shown.len()
    );
    on_first_line(
        DiagnosticSeverity::INFORMATION,
        TOO_MANY,
        message,
        rope,
        encoding,
    )
}

/// The first line of the text, without its line break.
fn first_line(rope: &Rope) -> Span {
    let line = rope.line(0);
    let mut end = line.len_chars();
    while end > 0 && matches!(line.char(end - 1), '\r' | '\n') {
        end -= 1;
    }
    Span::new(0, line.char_to_byte(end))
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

/// A broken constraint's finding stands at its line; each cell whose digit breaks it (a related
/// entry `A1 holds 4`, as `analysis` words them) gets a diagnostic too, pointing back at the
/// line, so the grid shows where the break is, as a conflict shows at both its cells. Only for
/// a finding at the puzzle's own constraint line: one at a cell (the line is the file's, above
/// every puzzle) names the line first, `the cage 15 line`, and is at the grid already.
fn at_broken_cells(
    finding: &Finding,
    uri: &Uri,
    rope: &Rope,
    encoding: Encoding,
) -> Vec<Diagnostic> {
    let at_line = !finding
        .related
        .iter()
        .any(|r| r.message.starts_with("the "));
    if finding.code != Code::BrokenConstraint || !at_line {
        return Vec::new();
    }
    let back = DiagnosticRelatedInformation {
        location: Location::new(uri.clone(), encoding.range(rope, finding.span)),
        message: "the constraint's line".to_string(),
    };
    finding
        .related
        .iter()
        .filter(|r| r.message.contains(" holds "))
        .map(|cell| Diagnostic {
            range: encoding.range(rope, cell.span),
            severity: Some(severity(finding.severity)),
            code: Some(NumberOrString::String(finding.code.as_str().to_string())),
            source: Some(SOURCE.to_string()),
            message: format!("{} — {}", cell.message, finding.message),
            related_information: Some(vec![back.clone()]),
            ..Diagnostic::default()
        })
        .collect()
}

fn severity(severity: Severity) -> DiagnosticSeverity {
    match severity {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Info => DiagnosticSeverity::INFORMATION,
        Severity::Hint => DiagnosticSeverity::HINT,
    }
}

/// The one diagnostic of a document over the size limit, saying so (`message`): on its first
/// line, a warning, since nothing else in it is checked.
pub fn too_large(message: String, rope: &Rope, encoding: Encoding) -> Diagnostic {
    on_first_line(
        DiagnosticSeverity::WARNING,
        TOO_LARGE,
        message,
        rope,
        encoding,
    )
}

/// A diagnostic about the whole document, on its first line.
fn on_first_line(
    severity: DiagnosticSeverity,
    code: &str,
    message: String,
    rope: &Rope,
    encoding: Encoding,
) -> Diagnostic {
    Diagnostic {
        range: encoding.range(rope, first_line(rope)),
        severity: Some(severity),
        code: Some(NumberOrString::String(code.to_string())),
        source: Some(SOURCE.to_string()),
        message,
        ..Diagnostic::default()
    }
}

/// The one diagnostic of a document whose analysis panicked: on its first line.
pub fn internal(problem: &str, uri: &Uri, rope: &Rope, encoding: Encoding) -> Diagnostic {
    let message = format!(
        "internal error: analysing this document failed ({problem}); this is a bug in sudoku-lsp, \
         please report it with the file"
    );
    let finding = Finding::error(Code::Internal, first_line(rope), message);
    from_finding(&finding, uri, rope, encoding)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn past_the_cap_errors_come_first_and_one_more_counts_the_rest() {
        let text = "x\n".repeat(MAX_DIAGNOSTICS + 10);
        let rope = Rope::from_str(&text);
        let uri: Uri = "file:///t.sudoku".parse().unwrap();
        let line = |n: usize| Span::new(2 * n, 2 * n + 1);
        let mut findings: Vec<Finding> = (0..MAX_DIAGNOSTICS + 5)
            .map(|n| Finding::new(Severity::Warning, Code::UnknownKey, line(n), "w"))
            .collect();
        findings.push(Finding::new(Severity::Hint, Code::Solved, line(1), "h"));
        findings.push(Finding::new(Severity::Error, Code::Syntax, line(9), "e2"));
        findings.push(Finding::new(Severity::Error, Code::Syntax, line(3), "e1"));
        let diagnostics = from_findings(&findings, [0; 4], &uri, &rope, Encoding::Utf16);
        assert_eq!(diagnostics.len(), MAX_DIAGNOSTICS + 1);
        let messages: Vec<&str> = diagnostics.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(messages[..3], ["e1", "e2", "w"]);
        assert_eq!(
            diagnostics[2].range.start.line, 0,
            "warnings in source order"
        );
        let last = &diagnostics[MAX_DIAGNOSTICS];
        assert_eq!(last.code, Some(NumberOrString::String(TOO_MANY.into())));
        assert_eq!(last.severity, Some(DiagnosticSeverity::INFORMATION));
        assert_eq!((last.range.start.line, last.range.end.character), (0, 1));
        assert!(
            last.message
                .starts_with("7 more warnings, 1 more hint not shown"),
            "{}",
            last.message
        );
        assert!(last.message.contains("sudoku-lsp check"));

        findings.truncate(MAX_DIAGNOSTICS);
        let all = from_findings(&findings, [0; 4], &uri, &rope, Encoding::Utf16);
        assert_eq!(
            all.len(),
            MAX_DIAGNOSTICS,
            "no note when nothing is left out"
        );
        // Problems a capped parse counted without keeping them are said too.
        findings.truncate(10);
        let capped = from_findings(&findings, [3, 0, 0, 2], &uri, &rope, Encoding::Utf16);
        assert_eq!(capped.len(), 11);
        let last = &capped[10].message;
        assert!(
            last.starts_with("3 more errors, 2 more hints not shown: 10 of the 15 problems"),
            "{last}"
        );
    }
}
