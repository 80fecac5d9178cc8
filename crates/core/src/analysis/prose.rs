//! Explanations as a person reads them, in Markdown or plain text: what hover shows on a cell
//! (its pencil marks and why each other digit is out), on a constraint (a cage's combinations)
//! and on a puzzle's title (its summary). The editor and the playground say the same words.

use super::{CellExplanation, CellState, ConstraintHelp};
use crate::grid::digit_char;
use crate::logic::{Rating, Step};

/// Markdown, or plain text for a client that shows no markup.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Style {
    Markdown,
    #[default]
    Plain,
}

/// Builds paragraphs and bullet lists in either style.
pub struct Text {
    style: Style,
    blocks: Vec<String>,
}

impl Text {
    pub fn new(style: Style) -> Text {
        Text {
            style,
            blocks: Vec::new(),
        }
    }
    pub fn heading(&mut self, name: &str, rest: &str) {
        let name = match self.style {
            Style::Markdown => format!("**{name}**"),
            Style::Plain => name.to_string(),
        };
        self.blocks.push(format!("{name} · {rest}"));
    }
    pub fn paragraph(&mut self, text: impl Into<String>) {
        self.blocks.push(self.escape(&text.into()));
    }
    pub fn list(&mut self, title: &str, items: impl IntoIterator<Item = String>) {
        let mut block = self.escape(title);
        for item in items {
            block.push_str("\n- ");
            block.push_str(&self.escape(&item));
        }
        self.blocks.push(block);
    }
    /// Markdown would read `*`, `_` or a leading `#` in our sentences as markup.
    fn escape(&self, text: &str) -> String {
        match self.style {
            Style::Plain => text.to_string(),
            Style::Markdown => text
                .chars()
                .flat_map(|c| {
                    let escaped = matches!(c, '*' | '_' | '`' | '#' | '<' | '>' | '[' | ']' | '\\');
                    escaped.then_some('\\').into_iter().chain([c])
                })
                .collect(),
        }
    }
    /// One paragraph, escaped for the style.
    pub fn one(style: Style, text: &str) -> String {
        let mut one = Text::new(style);
        one.paragraph(text);
        one.finish()
    }
    pub fn finish(self) -> String {
        self.blocks.join("\n\n")
    }
}

/// What hover shows on a cell.
pub fn cell(explanation: &CellExplanation, style: Style) -> String {
    let mut text = Text::new(style);
    text.heading(&explanation.name, &explanation.units.join(", "));
    match &explanation.state {
        CellState::Given {
            digit,
            entry,
            conflicts,
        } => {
            let what = if *entry { "Your entry" } else { "Given" };
            if conflicts.is_empty() {
                text.paragraph(format!("{what}: {}", digit_char(*digit)));
            } else {
                let title = format!("{what}: {} — conflicts with", digit_char(*digit));
                text.list(&title, conflicts.iter().cloned());
            }
        }
        CellState::Empty {
            marks,
            excluded,
            conclusion,
        } => {
            if let Some(written) = explanation.written {
                text.paragraph(format!("Your pencil marks: {written}"));
            }
            text.paragraph(format!("Pencil marks: {marks}"));
            if !excluded.is_empty() {
                let reasons = excluded
                    .iter()
                    .map(|(digit, why)| format!("{} — {why}", digit_char(*digit)));
                text.list("Excluded:", reasons);
            }
            text.paragraph(capitalize(conclusion));
        }
    }
    text.finish()
}

/// At most this many of a cage's combinations are listed (a cage without a sum has many).
const MAX_COMBINATIONS: usize = 24;

/// What hover shows on a constraint line: what it means, a cage's combinations (all, then
/// those its cells' candidates still allow), and its cells' candidates.
pub fn constraint(help: &ConstraintHelp, style: Style) -> String {
    let mut text = Text::new(style);
    text.heading(&help.heading, &help.meaning);
    let listed = |sets: &[String]| {
        let mut line = sets
            .iter()
            .take(MAX_COMBINATIONS)
            .cloned()
            .collect::<Vec<_>>()
            .join(" · ");
        if sets.len() > MAX_COMBINATIONS {
            line.push_str(&format!(" · …and {} more", sets.len() - MAX_COMBINATIONS));
        }
        line
    };
    if !help.combinations.is_empty() {
        text.paragraph(format!("Combinations: {}", listed(&help.combinations)));
        if help.allowed.len() < help.combinations.len() {
            text.paragraph(match help.allowed.is_empty() {
                true => "With the candidates now: none".to_string(),
                false => format!("With the candidates now: {}", listed(&help.allowed)),
            });
        }
    }
    if !help.cells.is_empty() {
        text.list("Candidates now:", help.cells.iter().cloned());
    }
    text.finish()
}

/// "Apply next step: Hidden single: 7 in box 5 can only go in E5": the title of the editor's
/// action (and the playground's button) that writes the last step of `lead`, the steps up to the
/// first that places a digit; those before it, which only eliminate, are named. `None` when the
/// lead places nothing.
pub fn next_step_title(lead: &[Step]) -> Option<String> {
    let (step, before) = lead.split_last()?;
    if step.placements.is_empty() {
        return None;
    }
    if before.is_empty() {
        return Some(format!("Apply next step: {}", step.text));
    }
    let mut techniques: Vec<&str> = Vec::new();
    for earlier in before {
        let name = earlier.technique.name();
        if !techniques.contains(&name) {
            techniques.push(name);
        }
    }
    Some(format!(
        "Apply next step (after {} that only eliminate: {}): {}",
        crate::finding::plural(before.len(), "step"),
        techniques.join(", "),
        step.text
    ))
}

/// A rating in words: `SE 7.2 · Fiendish`, `SE ≥ 7.2 · Fiendish` for a lower bound (`bound`),
/// `Variant 2.8 · Hard` on the variant scale.
pub fn rating(rating: &Rating, variant_scale: bool, bound: bool) -> String {
    let scale = if variant_scale { "Variant" } else { "SE" };
    let bound = if bound { "≥ " } else { "" };
    format!("{scale} {bound}{} · {}", rating.difficulty, rating.level)
}

/// What hover shows on a puzzle's title or metadata: `summarize`'s lines under a heading.
pub fn summary(heading: &str, lines: &[String], style: Style) -> String {
    let mut text = Text::new(style);
    text.list(heading, lines.iter().cloned());
    text.finish()
}

/// Several puzzles' summaries (file-level metadata applies to all of them).
pub fn summaries(sections: &[(String, Vec<String>)], style: Style) -> String {
    let mut text = Text::new(style);
    for (heading, lines) in sections {
        text.list(heading, lines.iter().cloned());
    }
    text.finish()
}

fn capitalize(sentence: &str) -> String {
    let mut chars = sentence.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Digits;

    #[test]
    fn empty_cell_shows_marks_first_then_reasons() {
        let mut marks = Digits::EMPTY;
        for d in [2, 5, 7] {
            marks.insert(d);
        }
        let explanation = CellExplanation {
            name: "E5".into(),
            units: vec!["row E".into(), "column 5".into(), "box 5".into()],
            state: CellState::Empty {
                marks,
                excluded: vec![
                    (4, "row E: E2".into()),
                    (9, "naked twins {8, 9} in column 5: B5, H5".into()),
                ],
                conclusion: "propagation leaves {2, 7}".into(),
            },
            written: None,
        };
        let markdown = cell(&explanation, Style::Markdown);
        assert!(markdown.starts_with("**E5** · row E, column 5, box 5\n\nPencil marks: {2, 5, 7}"));
        assert!(markdown.contains("\n- 4 — row E: E2\n- 9 — naked twins {8, 9}"));
        assert!(markdown.ends_with("Propagation leaves {2, 7}"));
        let plain = cell(&explanation, Style::Plain);
        assert!(plain.starts_with("E5 · row E"));
    }

    #[test]
    fn markdown_escapes_markup_characters() {
        let text = summary("Puzzle *one*", &["title: a_b".into()], Style::Markdown);
        assert_eq!(text, "Puzzle \\*one\\*\n- title: a\\_b");
    }
}
