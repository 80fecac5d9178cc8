//! A variant puzzle's constraints drawn as f-puzzles and SudokuPad draw them: dashed cages with
//! their sums, thermometers (bulb and tube), arrows with their circles or pills, kropki dots, X
//! and V, lines in their usual colours (whispers green, renban purple, palindromes grey,
//! region-sum blue…), even and odd shapes, quadruple circles, clone and extra-region shading,
//! and outside the grid the little killers' arrows and sums and the sandwich, X-sum and
//! skyscraper clues.
//!
//! Each constraint is one `<g class="constraint KIND" data-cells="A1 A2">` group, so a reader
//! (or a test) finds what was drawn for which line: drawn whole in one of the two passes, lines
//! and shading under the grid's lines, the rest over them, all under the digits.

use super::svg::{escape, Frame, CELL};
use crate::grid::{digit_char, row_letter};
use crate::rules::{Constraint, Dot, Index, Kind};

const LINE_GREY: &str = "#b8b8b8";
const THERMO: &str = "#c8c8c8";
const WHISPER: &str = "#5fd35f";
const RENBAN: &str = "#e07ef0";
const PALINDROME: &str = "#b0b0b0";
const REGION_SUM: &str = "#3aa8f0";
const ZIPPER: &str = "#c78af0";
const ENTROPIC: &str = "#ffb060";
const MODULAR: &str = "#40c0b0";
const NABNER: &str = "#f0d040";
const LOCKOUT: &str = "#7a9cc6";
const CAGE: &str = "#303030";
const SHADE: &str = "#ece6c8";
const MINIMUM: &str = "#cfe3f7";
const MAXIMUM: &str = "#f7dccf";
const INDEXER: &str = "#f2d0d0";
const INK: &str = "#000000";
const WHITE: &str = "#ffffff";

/// Whether any constraint stands outside the grid (the frame then leaves a cell's room around
/// it).
pub(super) fn needs_margin(constraints: &[Constraint]) -> bool {
    constraints.iter().any(|c| {
        matches!(
            c.kind,
            Kind::LittleKiller { .. }
                | Kind::Sandwich { .. }
                | Kind::XSum { .. }
                | Kind::Skyscraper { .. }
        )
    })
}

/// The rules of the whole grid, named for the line under the title: "anti-knight · every white
/// dot given".
pub(super) fn global_names(constraints: &[Constraint]) -> Vec<String> {
    constraints
        .iter()
        .filter(|c| c.is_global())
        .map(|c| c.listed_name())
        .collect()
}

/// Shading and lines: drawn before the grid's lines, under everything else.
pub(super) fn write_under(out: &mut String, constraints: &[Constraint], frame: &Frame) {
    for constraint in constraints {
        let mut g = Group::open(out, constraint, frame);
        match &constraint.kind {
            Kind::ExtraRegion(cells) => g.shade(cells, SHADE),
            Kind::Clone(groups) => {
                for cells in groups.iter() {
                    g.shade(cells, SHADE);
                }
            }
            Kind::Extreme { maximum, cells } => {
                g.shade(cells, if *maximum { MAXIMUM } else { MINIMUM })
            }
            Kind::Indexer { index, cells } => {
                g.shade(cells, INDEXER);
                let letter = match index {
                    Index::Row => "r",
                    Index::Column => "c",
                    Index::Box => "b",
                };
                for &cell in cells.iter() {
                    g.corner_text(cell, letter);
                }
            }
            Kind::Thermo { cells, slow } => {
                g.bulb(cells[0], THERMO);
                g.path(cells, THERMO, 0.26, *slow);
            }
            Kind::Whisper { cells, .. } => g.path(cells, WHISPER, 0.16, false),
            Kind::Renban(cells) => g.path(cells, RENBAN, 0.16, false),
            Kind::Palindrome(cells) => g.path(cells, PALINDROME, 0.16, false),
            Kind::Zipper(cells) => g.path(cells, ZIPPER, 0.16, false),
            Kind::Entropic(cells) => g.path(cells, ENTROPIC, 0.16, false),
            Kind::Modular(cells) => g.path(cells, MODULAR, 0.16, false),
            Kind::Nabner(cells) => g.path(cells, NABNER, 0.16, false),
            Kind::RegionSum(runs) => {
                let cells: Vec<u16> = runs.iter().flatten().copied().collect();
                g.path(&cells, REGION_SUM, 0.16, false);
            }
            _ => {}
        }
        g.close();
    }
}

/// Cages, arrows, dots, shapes and outside clues: over the grid's lines, under the digits.
pub(super) fn write_over(out: &mut String, constraints: &[Constraint], frame: &Frame) {
    for constraint in constraints {
        let mut g = Group::open(out, constraint, frame);
        match &constraint.kind {
            Kind::Cage { sum, cells } => g.cage(cells, *sum),
            Kind::Arrow { circle, shaft } => g.arrow(circle, shaft),
            Kind::DoubleArrow(cells) => {
                g.ring(cells[0], 0.38);
                g.ring(cells[cells.len() - 1], 0.38);
                g.path(cells, LINE_GREY, 0.06, false);
            }
            Kind::Between(cells) => {
                g.path(cells, LINE_GREY, 0.1, false);
                g.ring(cells[0], 0.38);
                g.ring(cells[cells.len() - 1], 0.38);
            }
            Kind::Lockout { cells, .. } => {
                g.path(cells, LOCKOUT, 0.1, false);
                g.diamond(cells[0]);
                g.diamond(cells[cells.len() - 1]);
            }
            Kind::Dot { dot, value, cells } => g.dot(*dot, *value, *cells),
            Kind::Less([a, b]) => g.less(*a, *b),
            Kind::Parity { even, cells } => {
                for &cell in cells.iter() {
                    g.parity(cell, *even);
                }
            }
            Kind::Quad { digits, cells } => g.quad(digits, cells),
            Kind::Candidates { digits, cells } => {
                for &cell in cells.iter() {
                    g.corner_text(cell, &digits_text(*digits));
                }
            }
            Kind::LittleKiller { sum, cells } => g.little_killer(*sum, cells),
            Kind::Sandwich { sum, cells } | Kind::XSum { sum, cells } => {
                g.outside(cells, &sum.to_string())
            }
            Kind::Skyscraper { count, cells } => g.outside(cells, &count.to_string()),
            _ => {}
        }
        g.close();
    }
}

/// One constraint's group, opened on first use (a constraint that draws nothing writes nothing).
struct Group<'a, 'f> {
    out: &'a mut String,
    frame: &'f Frame<'f>,
    opening: Option<String>,
}

impl<'a, 'f> Group<'a, 'f> {
    fn open(out: &'a mut String, constraint: &Constraint, frame: &'f Frame<'f>) -> Self {
        let side = frame.side;
        let cells: Vec<String> = constraint
            .named_cells()
            .iter()
            .map(|&c| cell_name(c as usize, side))
            .collect();
        let kind = constraint.name();
        let kind: String = kind
            .split(' ')
            .filter(|w| w.parse::<u32>().is_err())
            .collect::<Vec<_>>()
            .join("-");
        let opening = format!(
            r#"<g class="constraint {kind}" data-cells="{}">"#,
            cells.join(" ")
        );
        Group {
            out,
            frame,
            opening: Some(opening),
        }
    }

    /// Write one element, the group's opening first if it is the first.
    fn put(&mut self, element: String) {
        if let Some(opening) = self.opening.take() {
            self.out.push_str(&opening);
            self.out.push('\n');
        }
        self.out.push_str(&element);
        self.out.push('\n');
    }

    fn close(self) {
        if self.opening.is_none() {
            self.out.push_str("</g>\n");
        }
    }

    fn centre(&self, cell: u16) -> (f64, f64) {
        let c = cell as usize;
        (
            self.frame.cell_x(c) + CELL / 2.0,
            self.frame.cell_y(c) + CELL / 2.0,
        )
    }

    fn shade(&mut self, cells: &[u16], colour: &str) {
        for &cell in cells {
            let c = cell as usize;
            self.put(format!(
                r#"<rect x="{}" y="{}" width="{CELL}" height="{CELL}" fill="{colour}"/>"#,
                self.frame.cell_x(c),
                self.frame.cell_y(c)
            ));
        }
    }

    /// A polyline through the cells' centres, `width` a cell's fraction; dashed for a slow
    /// thermometer.
    fn path(&mut self, cells: &[u16], colour: &str, width: f64, dashed: bool) {
        let points: Vec<(f64, f64)> = cells.iter().map(|&c| self.centre(c)).collect();
        self.polyline(&points, colour, width, dashed);
    }

    fn polyline(&mut self, points: &[(f64, f64)], colour: &str, width: f64, dashed: bool) {
        let points: Vec<String> = points
            .iter()
            .map(|(x, y)| format!("{x:.1},{y:.1}"))
            .collect();
        let dash = if dashed {
            format!(
                r#" stroke-dasharray="{:.1} {:.1}""#,
                CELL * 0.3,
                CELL * 0.15
            )
        } else {
            String::new()
        };
        self.put(format!(
            r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="{:.1}" stroke-linecap="round" stroke-linejoin="round"{dash}/>"#,
            points.join(" "),
            CELL * width
        ));
    }

    fn bulb(&mut self, cell: u16, colour: &str) {
        let (x, y) = self.centre(cell);
        self.put(format!(
            r#"<circle cx="{x}" cy="{y}" r="{:.1}" fill="{colour}"/>"#,
            CELL * 0.4
        ));
    }

    fn ring(&mut self, cell: u16, radius: f64) {
        let (x, y) = self.centre(cell);
        self.put(format!(
            r#"<circle cx="{x}" cy="{y}" r="{:.1}" fill="{WHITE}" fill-opacity="0.6" stroke="{LINE_GREY}" stroke-width="2"/>"#,
            CELL * radius
        ));
    }

    fn diamond(&mut self, cell: u16) {
        let (x, y) = self.centre(cell);
        let r = CELL * 0.38;
        self.put(format!(
            r#"<polygon points="{x},{} {},{y} {x},{} {},{y}" fill="none" stroke="{LOCKOUT}" stroke-width="2"/>"#,
            y - r,
            x + r,
            y + r,
            x - r
        ));
    }

    /// A dashed outline just inside the cage's outer edges, its sum small in its first cell's
    /// top left corner.
    fn cage(&mut self, cells: &[u16], sum: Option<u32>) {
        let side = self.frame.side;
        let inside = |r: isize, c: isize| {
            (0..side as isize).contains(&r)
                && (0..side as isize).contains(&c)
                && cells.contains(&((r as usize * side + c as usize) as u16))
        };
        let inset = CELL * 0.08;
        let mut segments = Vec::new();
        for &cell in cells {
            let (r, c) = (
                (cell as usize / side) as isize,
                (cell as usize % side) as isize,
            );
            let (x0, y0) = (
                self.frame.cell_x(cell as usize),
                self.frame.cell_y(cell as usize),
            );
            let (x1, y1) = (x0 + CELL, y0 + CELL);
            // Each edge on the cage's outside, inset; it reaches the cell's side where the
            // cage goes on that way, so neighbouring cells' edges meet.
            let (left, right) = (inside(r, c - 1), inside(r, c + 1));
            let (up, down) = (inside(r - 1, c), inside(r + 1, c));
            let ex0 = if left { x0 } else { x0 + inset };
            let ex1 = if right { x1 } else { x1 - inset };
            let ey0 = if up { y0 } else { y0 + inset };
            let ey1 = if down { y1 } else { y1 - inset };
            if !up {
                segments.push((ex0, y0 + inset, ex1, y0 + inset));
            }
            if !down {
                segments.push((ex0, y1 - inset, ex1, y1 - inset));
            }
            if !left {
                segments.push((x0 + inset, ey0, x0 + inset, ey1));
            }
            if !right {
                segments.push((x1 - inset, ey0, x1 - inset, ey1));
            }
        }
        for (xa, ya, xb, yb) in segments {
            self.put(format!(
                r#"<line x1="{xa:.1}" y1="{ya:.1}" x2="{xb:.1}" y2="{yb:.1}" stroke="{CAGE}" stroke-width="1.2" stroke-dasharray="4 3"/>"#
            ));
        }
        if let (Some(sum), Some(&first)) = (sum, cells.iter().min()) {
            let (x, y) = (
                self.frame.cell_x(first as usize),
                self.frame.cell_y(first as usize),
            );
            let size = CELL * 0.24;
            let text = sum.to_string();
            self.put(format!(
                r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{WHITE}"/>"#,
                x + 2.0,
                y + 2.0,
                size * 0.62 * text.len() as f64 + 2.0,
                size + 1.0
            ));
            self.put(format!(
                r#"<text class="sum" x="{:.1}" y="{:.1}" font-size="{size:.1}" fill="{INK}">{text}</text>"#,
                x + 3.0,
                y + 2.0 + size * 0.9
            ));
        }
    }

    /// The circle (or a pill around its cells), the shaft from its edge, and an arrowhead.
    fn arrow(&mut self, circle: &[u16], shaft: &[u16]) {
        if let [one] = circle {
            self.ring(*one, 0.4);
        } else {
            let xs: Vec<f64> = circle.iter().map(|&c| self.centre(c).0).collect();
            let ys: Vec<f64> = circle.iter().map(|&c| self.centre(c).1).collect();
            let fold = |v: &[f64], f: fn(f64, f64) -> f64| v.iter().copied().fold(v[0], f);
            let r = CELL * 0.4;
            let (x0, y0) = (fold(&xs, f64::min) - r, fold(&ys, f64::min) - r);
            let (x1, y1) = (fold(&xs, f64::max) + r, fold(&ys, f64::max) + r);
            self.put(format!(
                r#"<rect x="{x0:.1}" y="{y0:.1}" width="{:.1}" height="{:.1}" rx="{r:.1}" fill="{WHITE}" fill-opacity="0.6" stroke="{LINE_GREY}" stroke-width="2"/>"#,
                x1 - x0,
                y1 - y0
            ));
        }
        let Some(&last) = shaft.last() else {
            return;
        };
        let mut line: Vec<u16> = circle.last().copied().into_iter().collect();
        line.extend_from_slice(shaft);
        // The shaft leaves from the circle's edge, as SudokuPad draws it.
        let mut points: Vec<(f64, f64)> = line.iter().map(|&c| self.centre(c)).collect();
        if let [(cx, cy), (nx, ny), ..] = points[..] {
            let (dx, dy) = (nx - cx, ny - cy);
            let length = (dx * dx + dy * dy).sqrt().max(1.0);
            let r = CELL * 0.4;
            points[0] = (cx + dx / length * r, cy + dy / length * r);
        }
        self.polyline(&points, LINE_GREY, 0.05, false);
        // The arrowhead: two strokes back from the last centre, along the last step.
        let (x, y) = self.centre(last);
        let before = line[line.len() - 2];
        let (px, py) = self.centre(before);
        let (dx, dy) = (x - px, y - py);
        let length = (dx * dx + dy * dy).sqrt().max(1.0);
        let (ux, uy) = (dx / length, dy / length);
        let head = CELL * 0.22;
        for turn in [1.0, -1.0] {
            let (hx, hy) = (
                x - head * (ux * 0.8 - uy * 0.6 * turn),
                y - head * (uy * 0.8 + ux * 0.6 * turn),
            );
            self.put(format!(
                r#"<line x1="{x:.1}" y1="{y:.1}" x2="{hx:.1}" y2="{hy:.1}" stroke="{LINE_GREY}" stroke-width="{:.1}" stroke-linecap="round"/>"#,
                CELL * 0.05
            ));
        }
    }

    fn midpoint(&self, a: u16, b: u16) -> (f64, f64) {
        let ((ax, ay), (bx, by)) = (self.centre(a), self.centre(b));
        ((ax + bx) / 2.0, (ay + by) / 2.0)
    }

    fn dot(&mut self, dot: Dot, value: u32, cells: [u16; 2]) {
        let (x, y) = self.midpoint(cells[0], cells[1]);
        match dot {
            Dot::White | Dot::Black => {
                let fill = if dot == Dot::White { WHITE } else { INK };
                self.put(format!(
                    r#"<circle cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="{fill}" stroke="{INK}" stroke-width="1.5"/>"#,
                    CELL * 0.13
                ));
                if value != dot.default_value() {
                    let ink = if dot == Dot::White { INK } else { WHITE };
                    self.label(x, y, &value.to_string(), CELL * 0.18, ink);
                }
            }
            Dot::X | Dot::V => {
                let letter = if dot == Dot::X { "X" } else { "V" };
                self.put(format!(
                    r#"<text x="{x:.1}" y="{:.1}" font-size="{:.1}" font-weight="bold" text-anchor="middle" fill="{INK}" stroke="{WHITE}" stroke-width="3" paint-order="stroke">{letter}</text>"#,
                    y + CELL * 0.3 * 0.36,
                    CELL * 0.3
                ));
            }
        }
    }

    /// A small `<` between the two cells, opening towards the larger.
    fn less(&mut self, a: u16, b: u16) {
        let (x, y) = self.midpoint(a, b);
        let side = self.frame.side;
        let (ra, ca) = (a as usize / side, a as usize % side);
        let (rb, cb) = (b as usize / side, b as usize % side);
        let symbol = match (rb.cmp(&ra), cb.cmp(&ca)) {
            (_, std::cmp::Ordering::Greater) => "<",
            (_, std::cmp::Ordering::Less) => ">",
            (std::cmp::Ordering::Greater, _) => "∧",
            _ => "∨",
        };
        self.label(x, y, symbol, CELL * 0.32, INK);
    }

    fn label(&mut self, x: f64, y: f64, text: &str, size: f64, fill: &str) {
        self.put(format!(
            r#"<text x="{x:.1}" y="{:.1}" font-size="{size:.1}" text-anchor="middle" fill="{fill}">{}</text>"#,
            y + size * 0.36,
            escape(text)
        ));
    }

    fn parity(&mut self, cell: u16, even: bool) {
        let (x, y) = self.centre(cell);
        let r = CELL * 0.36;
        self.put(if even {
            format!(
                r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{THERMO}"/>"#,
                x - r,
                y - r,
                2.0 * r,
                2.0 * r
            )
        } else {
            format!(r#"<circle cx="{x}" cy="{y}" r="{r:.1}" fill="{THERMO}"/>"#)
        });
    }

    /// A circle on the corner the four cells share, its digits inside.
    fn quad(&mut self, digits: &[u8], cells: &[u16]) {
        let xs: Vec<f64> = cells.iter().map(|&c| self.centre(c).0).collect();
        let ys: Vec<f64> = cells.iter().map(|&c| self.centre(c).1).collect();
        let x = xs.iter().sum::<f64>() / xs.len().max(1) as f64;
        let y = ys.iter().sum::<f64>() / ys.len().max(1) as f64;
        self.put(format!(
            r#"<circle cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="{WHITE}" stroke="{INK}" stroke-width="1.2"/>"#,
            CELL * 0.26
        ));
        let text: String = digits.iter().map(|&d| digit_char(d)).collect();
        let size = if text.len() > 2 {
            CELL * 0.16
        } else {
            CELL * 0.22
        };
        self.label(x, y, &text, size, INK);
    }

    fn corner_text(&mut self, cell: u16, text: &str) {
        let c = cell as usize;
        let size = CELL * 0.2;
        self.put(format!(
            r#"<text x="{:.1}" y="{:.1}" font-size="{size:.1}" text-anchor="end" fill="{INK}">{text}</text>"#,
            self.frame.cell_x(c) + CELL - 3.0,
            self.frame.cell_y(c) + CELL - 4.0
        ));
    }

    /// The sum outside the grid, diagonally beyond the diagonal's first cell, with a short
    /// arrow along the diagonal.
    fn little_killer(&mut self, sum: u32, cells: &[u16]) {
        let (Some(&first), Some(&second)) = (cells.first(), cells.get(1).or(cells.first())) else {
            return;
        };
        let (x, y) = self.centre(first);
        let (nx, ny) = self.centre(second);
        let (dx, dy) = (sign(nx - x), sign(ny - y));
        let (sx, sy) = (x - dx * CELL, y - dy * CELL);
        self.label(sx, sy, &sum.to_string(), CELL * 0.3, INK);
        let (ax, ay) = (sx + dx * CELL * 0.3, sy + dy * CELL * 0.3);
        let (bx, by) = (sx + dx * CELL * 0.55, sy + dy * CELL * 0.55);
        self.put(format!(
            r#"<line x1="{ax:.1}" y1="{ay:.1}" x2="{bx:.1}" y2="{by:.1}" stroke="{INK}" stroke-width="1.5"/>"#
        ));
    }

    /// A clue beside the row or column its cells run along, on the side of its first cell.
    fn outside(&mut self, cells: &[u16], text: &str) {
        let (Some(&first), Some(&second)) = (cells.first(), cells.get(1)) else {
            return;
        };
        let (x, y) = self.centre(first);
        let (nx, ny) = self.centre(second);
        let (dx, dy) = (sign(nx - x), sign(ny - y));
        self.label(x - dx * CELL, y - dy * CELL, text, CELL * 0.34, INK);
    }
}

/// -1, 0 or 1 (`f64::signum` says 1 for 0).
fn sign(v: f64) -> f64 {
    if v == 0.0 {
        0.0
    } else {
        v.signum()
    }
}

/// A cell's name as the file writes it: "A1".
fn cell_name(cell: usize, side: usize) -> String {
    format!("{}{}", row_letter(cell / side), cell % side + 1)
}

/// Digits run together, as a `candidates` line writes them: "137".
fn digits_text(digits: u16) -> String {
    (1..=16u8)
        .filter(|d| digits >> (d - 1) & 1 == 1)
        .map(digit_char)
        .collect()
}

/// One constraint group of a picture, read back (for tests): its kind, its cells' names and
/// every point its elements name.
#[cfg(test)]
pub(super) type DrawnGroup = (String, String, Vec<(f64, f64)>);

/// For tests: the SVG's constraint groups.
#[cfg(test)]
pub(super) fn groups(svg: &str) -> Vec<DrawnGroup> {
    let mut found = Vec::new();
    let mut lines = svg.lines();
    while let Some(line) = lines.next() {
        let Some(rest) = line.strip_prefix(r#"<g class="constraint "#) else {
            continue;
        };
        let (kind, rest) = rest.split_once('"').unwrap_or_default();
        let cells = rest
            .split_once("data-cells=\"")
            .and_then(|(_, r)| r.split_once('"'))
            .map_or("", |(c, _)| c);
        let mut points = Vec::new();
        for inner in lines.by_ref() {
            if inner == "</g>" {
                break;
            }
            points.extend(coordinates(inner));
        }
        found.push((kind.to_string(), cells.to_string(), points));
    }
    found
}

/// Every (x, y) an element names: x/y, x1/y1, x2/y2, cx/cy attributes, and points lists.
#[cfg(test)]
fn coordinates(element: &str) -> Vec<(f64, f64)> {
    let attribute = |name: &str| -> Option<f64> {
        let key = format!(" {name}=\"");
        let start = element.find(&key)? + key.len();
        element[start..].split('"').next()?.parse().ok()
    };
    let mut points = Vec::new();
    for (x, y) in [("x", "y"), ("x1", "y1"), ("x2", "y2"), ("cx", "cy")] {
        if let (Some(x), Some(y)) = (attribute(x), attribute(y)) {
            points.push((x, y));
        }
    }
    if let Some(start) = element.find(" points=\"") {
        let list = element[start + 9..].split('"').next().unwrap_or("");
        for pair in list.split(' ') {
            if let Some((x, y)) = pair.split_once(',') {
                if let (Ok(x), Ok(y)) = (x.parse(), y.parse()) {
                    points.push((x, y));
                }
            }
        }
    }
    points
}
