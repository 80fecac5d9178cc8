//! A scene as SVG text: the grid with thicker box borders, the title above, shading and tints
//! under the digits, one `<text>` per digit (selectable and searchable on the web, sharp in
//! print).
//!
//! Every element a reader may look for has a class: `border` (the grid's outline), `diagonal`
//! (shaded cells of the diagonal variant), `conflict` (tinted cells), `wrong` (an entry that is
//! not the solution's digit, tinted as a conflict when the solution is drawn), `given`, `entry`,
//! `solution`, `mark`, `title`, `note`. The styling is in attributes, not a stylesheet, so tools
//! that ignore CSS draw it the same.

use std::fmt::Write;

use super::{constraints, Content, Scene};
use crate::format::DigitSet;
use crate::grid::{digit_char, UnitKind};

/// The comment every picture starts with: how `render` knows a file it may replace is its own.
pub const GENERATOR: &str = "<!-- made by sudoku-lsp render -->";

/// One cell's side, in pixels (the PNG is drawn at this scale).
pub(crate) const CELL: f64 = 48.0;
const MARGIN: f64 = 16.0;
const TITLE_LINE: f64 = 34.0;
const NOTE_LINE: f64 = 24.0;
/// Fonts tried in order: DejaVu Sans is what the PNG is drawn with on Linux (fonts-dejavu-core).
const FONTS: &str = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif";

const GIVEN: &str = "#000000";
const ENTRY: &str = "#1f5fbf";
const SOLUTION: &str = "#9a9a9a";
const MARK: &str = "#505050";
const CONFLICT: &str = "#f4b6b6";
const DIAGONAL: &str = "#e3e8f2";
const THIN: &str = "#9a9a9a";
const NOTE: &str = "#b00020";
const WHITE: &str = "#ffffff";

/// The SVG text of a scene: its frame (title, note, background), then shading, then the grid's
/// lines over it, then the digits over everything.
pub fn svg(scene: &Scene) -> String {
    let frame = Frame::of(scene);
    let mut out = String::with_capacity(4096 + scene.cells.len() * 160);
    write_frame(&mut out, scene, &frame);
    write_shading(&mut out, scene, &frame);
    let rules = scene
        .rules
        .as_deref()
        .map_or(&[][..], |r| &r.constraints[..]);
    constraints::write_under(&mut out, rules, &frame);
    write_lines(&mut out, scene, &frame);
    constraints::write_over(&mut out, rules, &frame);
    write_digits(&mut out, scene, &frame);
    out.push_str("</svg>\n");
    out
}

/// Where the picture's parts go: the whole picture's size, and the grid's side and top left.
pub(super) struct Frame<'a> {
    title: Option<&'a str>,
    note: Option<&'a str>,
    /// The rules of the whole grid, under the title: "anti-knight · every white dot given".
    globals: Option<String>,
    pub(super) side: usize,
    /// The grid's side in pixels.
    grid: f64,
    width: f64,
    height: f64,
    left: f64,
    top: f64,
}

impl<'a> Frame<'a> {
    fn of(scene: &'a Scene) -> Frame<'a> {
        let side = scene.size.side();
        let grid = CELL * side as f64;
        let mut top = MARGIN;
        let title = scene.title.as_deref().filter(|t| !t.trim().is_empty());
        if title.is_some() {
            top += TITLE_LINE;
        }
        let note = scene.solution.problem();
        if note.is_some() {
            top += NOTE_LINE;
        }
        let rules = scene
            .rules
            .as_deref()
            .map_or(&[][..], |r| &r.constraints[..]);
        let globals = constraints::global_names(rules);
        let globals = (!globals.is_empty()).then(|| globals.join(" · "));
        if globals.is_some() {
            top += NOTE_LINE;
        }
        // Outside clues stand a cell's width beyond the grid.
        let outside = if constraints::needs_margin(rules) {
            CELL
        } else {
            0.0
        };
        top += outside;
        // Wide enough for the title and the note too (a 4×4 is narrower than a long title), the
        // grid in the middle; text width guessed from the font size, digits and letters being
        // about 0.6 em wide on average in sans-serif fonts.
        let text_width = |text: &str, size: f64| text.chars().count() as f64 * size * 0.62;
        let widest = title
            .map_or(0.0, |t| text_width(t, 22.0))
            .max(note.map_or(0.0, |n| text_width(n, 15.0)))
            .max(globals.as_deref().map_or(0.0, |g| text_width(g, 15.0)));
        let width = (grid.max(widest) + 2.0 * (MARGIN + outside)).ceil();
        Frame {
            title,
            note,
            globals,
            side,
            grid,
            width,
            height: top + grid + outside + MARGIN,
            left: ((width - grid) / 2.0).floor(),
            top,
        }
    }

    pub(super) fn cell_x(&self, c: usize) -> f64 {
        self.left + CELL * (c % self.side) as f64
    }

    pub(super) fn cell_y(&self, c: usize) -> f64 {
        self.top + CELL * (c / self.side) as f64
    }
}

/// The `<svg>` element's opening, the title for screen readers, the background, and the title
/// and note written above the grid.
fn write_frame(out: &mut String, scene: &Scene, frame: &Frame) {
    let Frame { width, height, .. } = *frame;
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="{FONTS}">"#
    );
    out.push_str(GENERATOR);
    out.push('\n');
    let label = frame
        .title
        .map_or_else(|| format!("{} sudoku", scene.size.label()), str::to_string);
    let _ = writeln!(out, "<title>{}</title>", escape(&label));
    let _ = writeln!(
        out,
        r#"<rect class="background" x="0" y="0" width="{width}" height="{height}" fill="{WHITE}"/>"#
    );
    let mut baseline = MARGIN;
    if let Some(title) = frame.title {
        baseline += TITLE_LINE - 10.0;
        let _ = writeln!(
            out,
            r#"<text class="title" x="{}" y="{baseline}" font-size="22" font-weight="bold" text-anchor="middle" fill="{GIVEN}">{}</text>"#,
            width / 2.0,
            escape(title)
        );
        baseline += 10.0;
    }
    if let Some(note) = frame.note {
        baseline += NOTE_LINE - 8.0;
        let _ = writeln!(
            out,
            r#"<text class="note" x="{}" y="{baseline}" font-size="15" text-anchor="middle" fill="{NOTE}">{note}</text>"#,
            width / 2.0
        );
        baseline += 8.0;
    }
    if let Some(globals) = &frame.globals {
        baseline += NOTE_LINE - 8.0;
        let _ = writeln!(
            out,
            r#"<text class="rules" x="{}" y="{baseline}" font-size="15" text-anchor="middle" fill="{MARK}">{}</text>"#,
            width / 2.0,
            escape(globals)
        );
    }
}

/// Conflicting and wrong cells tinted, and the diagonals and windows that are houses.
fn write_shading(out: &mut String, scene: &Scene, frame: &Frame) {
    let side = frame.side;
    let variant = scene.variant;
    let geometry = crate::grid::geometry(scene.size, variant);
    let in_window = |c: usize| {
        geometry.units_of[c]
            .iter()
            .any(|&u| matches!(geometry.units[u as usize].kind, UnitKind::Window(_)))
    };
    for c in 0..scene.cells.len() {
        let (row, column) = (c / side, c % side);
        let on_diagonal = (variant.has_main_diagonal() && row == column)
            || (variant.has_anti_diagonal() && row + column == side - 1);
        let fill = if scene.conflicts[c] {
            Some(("conflict", CONFLICT))
        } else if scene.wrong[c] {
            Some(("wrong", CONFLICT))
        } else if on_diagonal {
            Some(("diagonal", DIAGONAL))
        } else if variant.has_windows() && in_window(c) {
            Some(("window", DIAGONAL))
        } else {
            None
        };
        if let Some((class, colour)) = fill {
            let _ = writeln!(
                out,
                r#"<rect class="{class}" x="{}" y="{}" width="{CELL}" height="{CELL}" fill="{colour}"/>"#,
                frame.cell_x(c),
                frame.cell_y(c)
            );
        }
    }
}

/// The lines between cells (heavier between boxes, or a jigsaw's regions) and the border.
fn write_lines(out: &mut String, scene: &Scene, frame: &Frame) {
    let Frame {
        side,
        grid,
        left,
        top,
        ..
    } = *frame;
    // A jigsaw's grid lines are all thin, its regions' edges drawn over them.
    let (box_rows, box_cols) = match scene.regions {
        Some(_) => (side + 1, side + 1),
        None => (scene.size.box_rows(), scene.size.box_cols()),
    };
    for i in 1..side {
        let at = CELL * i as f64;
        let (x, y) = (left + at, top + at);
        let (row_weight, row_colour) = line_style(i % box_rows == 0);
        let (column_weight, column_colour) = line_style(i % box_cols == 0);
        let _ = writeln!(
            out,
            r#"<line x1="{left}" y1="{y}" x2="{}" y2="{y}" stroke="{row_colour}" stroke-width="{row_weight}"/>"#,
            left + grid
        );
        let _ = writeln!(
            out,
            r#"<line x1="{x}" y1="{top}" x2="{x}" y2="{}" stroke="{column_colour}" stroke-width="{column_weight}"/>"#,
            top + grid
        );
    }
    if let Some(regions) = &scene.regions {
        write_region_edges(out, regions, frame);
    }
    let _ = writeln!(
        out,
        r#"<rect class="border" x="{left}" y="{top}" width="{grid}" height="{grid}" fill="none" stroke="{GIVEN}" stroke-width="3"/>"#
    );
}

/// A heavy segment on each cell edge between two regions, and between a region and a cell in
/// none; cells in none side by side are not apart (`regions: none` draws a plain grid).
fn write_region_edges(out: &mut String, regions: &[u8], frame: &Frame) {
    let (side, left, top) = (frame.side, frame.left, frame.top);
    let (weight, colour) = line_style(true);
    let apart = |a: usize, b: usize| regions[a] != regions[b];
    for r in 0..side {
        for c in 0..side {
            let cell = r * side + c;
            let (x, y) = (left + CELL * c as f64, top + CELL * r as f64);
            if c + 1 < side && apart(cell, cell + 1) {
                let x = x + CELL;
                let _ = writeln!(
                    out,
                    r#"<line x1="{x}" y1="{y}" x2="{x}" y2="{}" stroke="{colour}" stroke-width="{weight}" stroke-linecap="square"/>"#,
                    y + CELL
                );
            }
            if r + 1 < side && apart(cell, cell + side) {
                let y = y + CELL;
                let _ = writeln!(
                    out,
                    r#"<line x1="{x}" y1="{y}" x2="{}" y2="{y}" stroke="{colour}" stroke-width="{weight}" stroke-linecap="square"/>"#,
                    x + CELL
                );
            }
        }
    }
}

/// Each cell's digit (given, entry or solution, each its own colour) or its pencil marks.
fn write_digits(out: &mut String, scene: &Scene, frame: &Frame) {
    let (box_rows, box_cols) = (scene.size.box_rows(), scene.size.box_cols());
    let digit_size = CELL * 0.62;
    for (c, content) in scene.cells.iter().enumerate() {
        let (x, y) = (frame.cell_x(c) + CELL / 2.0, frame.cell_y(c) + CELL / 2.0);
        let (class, digit, extra) = match *content {
            Content::Empty => continue,
            Content::Given(d) => ("given", d, format!(r#"font-weight="bold" fill="{GIVEN}""#)),
            Content::Entry(d) => ("entry", d, format!(r#"fill="{ENTRY}""#)),
            Content::Solution(d) => ("solution", d, format!(r#"fill="{SOLUTION}""#)),
            Content::Marks(marks) => {
                write_marks(out, frame, c, marks, (box_rows, box_cols));
                continue;
            }
        };
        let _ = writeln!(
            out,
            r#"<text class="{class}" x="{x}" y="{}" font-size="{digit_size:.1}" text-anchor="middle" {extra}>{}</text>"#,
            baseline_for(y, digit_size),
            digit_char(digit)
        );
    }
}

/// A cell's pencil marks, each digit in its own place, the cell cut like a box (3×3 for a 9×9),
/// so a digit is found where the eye expects it whatever else is marked.
fn write_marks(
    out: &mut String,
    frame: &Frame,
    c: usize,
    marks: DigitSet,
    box_shape: (usize, usize),
) {
    let (box_rows, box_cols) = box_shape;
    let mark_size = CELL / box_rows.max(box_cols) as f64 * 0.8;
    let (w, h) = (CELL / box_cols as f64, CELL / box_rows as f64);
    for d in 1..=frame.side as u8 {
        if marks & (1 << (d - 1)) == 0 {
            continue;
        }
        let i = usize::from(d - 1);
        let mx = frame.cell_x(c) + w * ((i % box_cols) as f64 + 0.5);
        let my = frame.cell_y(c) + h * ((i / box_cols) as f64 + 0.5);
        let _ = writeln!(
            out,
            r#"<text class="mark" x="{mx}" y="{}" font-size="{mark_size:.1}" text-anchor="middle" fill="{MARK}">{}</text>"#,
            baseline_for(my, mark_size),
            digit_char(d)
        );
    }
}

/// The baseline that centres a digit of this size on `middle`: digits stand about 0.73 em
/// high in common fonts. An explicit baseline rather than `dominant-baseline`, which not every
/// renderer honours.
fn baseline_for(middle: f64, size: f64) -> String {
    format!("{:.1}", middle + size * 0.36)
}

/// Stroke width and colour of a line between cells: thick and black on a box border.
fn line_style(box_border: bool) -> (f64, &'static str) {
    if box_border {
        (3.0, GIVEN)
    } else {
        (1.0, THIN)
    }
}

/// Text as XML character data or attribute value.
pub(super) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 cannot hold at all (a title is free text).
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_are_escaped() {
        assert_eq!(
            escape("a<b & \"c\"\u{1}"),
            "a&lt;b &amp; &quot;c&quot;\u{FFFD}"
        );
    }
}
