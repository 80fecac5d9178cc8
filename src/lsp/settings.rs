//! The user's settings: read from `initializationOptions` and from
//! `workspace/didChangeConfiguration`, under a `sudoku` section or at the top level.
//!
//! - `checkAgainstSolution` (default off): pencil marks that leave out the digit the puzzle's
//!   unique solution needs, and entries that are not the solution's digit, are errors. Off by
//!   default because it gives the solution away.
//! - `redundantGivens` (default off): for setters, the information diagnostics on givens the
//!   puzzle does not need, and the lens's `minimal` or `3 redundant givens`. Off by default: a
//!   solver has no use for them (every row of a fresh puzzle would carry some). Never on a grid
//!   whose every cell is placed.
//! - `inlayHints` (default `"off"`): `"candidates"` after each empty cell of a grid block, or
//!   `"rowCounts"`, the candidates left in each row (see `inlay`).
//! - `formatStyle` (`grid`, `compact` or `line`; default `grid`): how formatting writes grid
//!   blocks (see `format::Style`). It changes no diagnostics, so changing it re-checks nothing.
//! - `maxDocumentMB` (default 16): an open document larger than this many MiB is not analysed
//!   or formatted, only told so by one diagnostic (what a large text costs is bounded by it).
//! - `hoverPictures` (default off): the client draws images in Markdown, so a hover on a
//!   puzzle's title carries its picture. LSP has no capability for that: the VS Code extension
//!   sends it in `initializationOptions`; Neovim, which renders Markdown, drew 25 blank rows.
//! - `copiesLinks` (default off): the client copies the result of *Copy f-puzzles link* itself
//!   (the VS Code extension does, to the clipboard); others are shown the link in a message.
//!
//! `server` and `trace`, the VS Code extension's own entries of the section, are let be.

use serde_json::Value;

use crate::format::Style;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    pub check_against_solution: bool,
    pub redundant_givens: bool,
    pub format_style: Style,
    pub inlay_hints: InlayHints,
    pub max_document_mb: u32,
    pub hover_pictures: bool,
    pub copies_links: bool,
}

/// The default of `maxDocumentMB`: what workspace diagnostics read unopened, four times the
/// largest public collection (49,151 puzzles, 4 MB).
pub const DEFAULT_MAX_DOCUMENT_MB: u32 = 16;

/// The `inlayHints` setting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum InlayHints {
    #[default]
    Off,
    Candidates,
    RowCounts,
    /// For setters: on a puzzle with several solutions, the digits some solution puts in each
    /// empty cell.
    TrueCandidates,
}

impl InlayHints {
    fn parse(value: &Value) -> Option<InlayHints> {
        match value.as_str()? {
            "off" => Some(InlayHints::Off),
            "candidates" => Some(InlayHints::Candidates),
            "rowCounts" => Some(InlayHints::RowCounts),
            "trueCandidates" => Some(InlayHints::TrueCandidates),
            _ => None,
        }
    }
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            check_against_solution: false,
            redundant_givens: false,
            inlay_hints: InlayHints::Off,
            format_style: Style::Grid,
            max_document_mb: DEFAULT_MAX_DOCUMENT_MB,
            hover_pictures: false,
            copies_links: false,
        }
    }
}

/// The settings a diagnostics run depends on: when they change, open documents are checked
/// again, and a run under the old ones does not publish.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checks {
    pub check_against_solution: bool,
    pub redundant_givens: bool,
    pub max_document_mb: u32,
}

impl Checks {
    /// The largest document analysed, in bytes.
    pub fn max_document_bytes(&self) -> usize {
        (self.max_document_mb as usize).saturating_mul(1 << 20)
    }
}

impl Settings {
    pub fn checks(&self) -> Checks {
        Checks {
            check_against_solution: self.check_against_solution,
            redundant_givens: self.redundant_givens,
            max_document_mb: self.max_document_mb,
        }
    }

    /// `current` updated by the settings in `value`, and a sentence for each setting that could
    /// not be used (an unknown key, a value of the wrong type). Keys not given keep their value.
    pub fn updated(current: Settings, value: &Value) -> (Settings, Vec<String>) {
        let mut settings = current;
        let mut problems = Vec::new();
        let section = match value.get("sudoku") {
            Some(section) => section,
            None => value,
        };
        let Some(entries) = section.as_object() else {
            if !section.is_null() {
                problems.push(format!(
                    "sudoku-lsp settings: expected an object of settings, got {section}"
                ));
            }
            return (settings, problems);
        };
        for (key, value) in entries {
            if key == "inlayHints" {
                match InlayHints::parse(value) {
                    Some(mode) => settings.inlay_hints = mode,
                    None => problems.push(format!(
                        "sudoku-lsp settings: 'inlayHints' takes \"off\", \"candidates\" or \
                         \"rowCounts\", not {value}; left as it was"
                    )),
                }
                continue;
            }
            if key == "maxDocumentMB" {
                match value.as_u64().and_then(|mb| u32::try_from(mb).ok()) {
                    Some(mb) if mb > 0 => settings.max_document_mb = mb,
                    _ => problems.push(format!(
                        "sudoku-lsp settings: 'maxDocumentMB' takes a whole number of MB, at \
                         least 1, not {value}; left as it was"
                    )),
                }
                continue;
            }
            let slot = match key.as_str() {
                "checkAgainstSolution" => &mut settings.check_against_solution,
                "redundantGivens" => &mut settings.redundant_givens,
                "hoverPictures" => &mut settings.hover_pictures,
                "copiesLinks" => &mut settings.copies_links,
                "formatStyle" => {
                    match value.as_str().and_then(Style::from_name) {
                        Some(style) => settings.format_style = style,
                        None => problems.push(format!(
                            "sudoku-lsp settings: 'formatStyle' takes \"grid\", \"compact\" or \
                             \"line\", not {value}; left as it was"
                        )),
                    }
                    continue;
                }
                // The editors' own settings, sent along in the same section.
                "server" | "trace" | "preview" => continue,
                _ => {
                    problems.push(format!(
                        "sudoku-lsp settings: unknown setting '{key}' (known: \
                         checkAgainstSolution, redundantGivens, inlayHints, formatStyle, \
                         maxDocumentMB, hoverPictures, copiesLinks)"
                    ));
                    continue;
                }
            };
            match value.as_bool() {
                Some(on) => *slot = on,
                None => problems.push(format!(
                    "sudoku-lsp settings: '{key}' takes true or false, not {value}; left as it was"
                )),
            }
        }
        (settings, problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn settings_are_read_from_a_section_or_the_top_and_problems_are_named() {
        let base = Settings::default();
        assert!(
            !base.redundant_givens,
            "off by default: a solver has no use for them"
        );
        let (s, problems) =
            Settings::updated(base, &json!({"sudoku": {"checkAgainstSolution": true}}));
        assert!(s.check_against_solution && !s.redundant_givens && problems.is_empty());
        let (s, _) = Settings::updated(s, &json!({"redundantGivens": true}));
        assert!(s.check_against_solution && s.redundant_givens);
        let (same, problems) = Settings::updated(
            s,
            &json!({"sudoku": {"redundantGivens": "no", "colour": 1}}),
        );
        assert_eq!(same, s);
        assert_eq!(problems.len(), 2);
        let said = |what: &str| problems.iter().any(|p| p.contains(what));
        assert!(
            said("'redundantGivens' takes true or false"),
            "{problems:?}"
        );
        assert!(said("unknown setting 'colour'"), "{problems:?}");
        assert_eq!(Settings::updated(s, &Value::Null), (s, vec![]));
        let (s, problems) = Settings::updated(s, &json!({"sudoku": {"inlayHints": "rowCounts"}}));
        assert_eq!((s.inlay_hints, problems.len()), (InlayHints::RowCounts, 0));
        let (same, problems) = Settings::updated(s, &json!({"inlayHints": true}));
        assert_eq!(same, s);
        assert!(
            problems[0].contains("'inlayHints' takes \"off\""),
            "{problems:?}"
        );
        let (off, _) = Settings::updated(s, &json!({"inlayHints": "off"}));
        assert_eq!(off.inlay_hints, InlayHints::Off);
        assert_eq!(Settings::default().inlay_hints, InlayHints::Off);
        let (styled, problems) = Settings::updated(s, &json!({"formatStyle": "line"}));
        assert_eq!((styled.format_style, problems.len()), (Style::Line, 0));
        assert_eq!(styled.checks(), s.checks());
        let (same, problems) = Settings::updated(styled, &json!({"formatStyle": "wide"}));
        assert_eq!(same, styled);
        assert!(problems[0].contains("'formatStyle' takes"), "{problems:?}");
        let editor = json!({"sudoku": {"server": {"path": ""}, "trace": {"server": "off"}}});
        assert_eq!(Settings::updated(s, &editor), (s, vec![]));
        assert_eq!(base.checks().max_document_bytes(), 16 << 20);
        let (limited, problems) = Settings::updated(s, &json!({"maxDocumentMB": 2}));
        assert_eq!((limited.max_document_mb, problems.len()), (2, 0));
        assert_ne!(
            limited.checks(),
            s.checks(),
            "a new limit checks documents again"
        );
        for bad in [json!(0), json!(-1), json!(1.5), json!("8")] {
            let (same, problems) = Settings::updated(limited, &json!({"maxDocumentMB": bad}));
            assert_eq!(same, limited);
            assert!(
                problems[0].contains("'maxDocumentMB' takes"),
                "{problems:?}"
            );
        }
        let (pictures, problems) = Settings::updated(s, &json!({"hoverPictures": true}));
        assert!(pictures.hover_pictures && problems.is_empty());
    }
}
