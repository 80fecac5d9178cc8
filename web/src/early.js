// The first text's squiggles drawn before the editor exists. The core is ready and has checked
// the text well before CodeMirror's script has been evaluated and its editor built (together
// some 60 to 90 ms on this machine's two cores), so boot.js draws the lines in view as the editor
// will: the same gutters, line heights, highlighting and squiggles, in elements with the
// editor's geometry (style.css, `#early`). main.js removes the drawing in the task that builds
// the editor, so no frame shows both and nothing moves when the editor takes over. The drawing
// is not editable: typing begins once the editor is there.
import { CONFLICT, MEANINGS } from "./meanings.js";

// As many lines as any window shows: the rest of a long text waits for the editor.
const LINES = 200;
// The core's severities (crates/web), as CodeMirror's lint names them too.
const SEVERITIES = new Set(["error", "warning", "info", "hint"]);

// Draw `text`'s first lines into `root` (index.html's empty drawing: one line number, which
// has the browser find the editor's font at its first layout, while it waits for the scripts)
// with `diagnostics` (the core's JSON list) and `meanings` (flat from, to, meaning triples, or
// null). Its first squiggle (or first line) is marked for the browser's element timing as "early".
export function drawEarly(root, text, diagnostics, meanings) {
  const lines = firstLines(text);
  const end = lines[lines.length - 1].to;
  const marks = [...squiggles(diagnostics, end), ...highlighting(meanings, end)].sort((a, b) => a.from - b.from);
  const numbers = element("div", "early-numbers");
  const lint = element("div", "early-lint");
  const content = element("div", "early-content");
  // The line numbers' column is as wide as CodeMirror makes it: room for the largest number
  // of as many digits as the text's last line number (CodeMirror's spacer: that many nines).
  const count = lineCount(text);
  numbers.appendChild(element("div", "early-spacer")).textContent = "9".repeat(String(count).length);
  const broken = linesWithSquiggles(diagnostics, lines);
  let first = 0; // the first mark that may reach the line being drawn
  lines.forEach((line, index) => {
    numbers.appendChild(element("div", "early-number")).textContent = String(index + 1);
    const marker = lint.appendChild(element("div", "early-lint-line"));
    if (broken.has(index)) marker.appendChild(element("div", `early-marker early-marker-${broken.get(index)}`));
    const row = content.appendChild(element("div", index === 0 ? "early-line early-active" : "early-line"));
    while (first < marks.length && marks[first].to <= line.from) first++;
    drawLine(row, text, line, marks, first);
  });
  // The lines not drawn still take their room, so the scroll bar is the editor's.
  if (count > lines.length) content.appendChild(element("div", "early-rest")).style.height = `${(count - lines.length) * 1.4}em`;
  const timed = content.querySelector(".early-squiggle") ?? content.firstChild;
  timed.setAttribute("elementtiming", "early");
  root.querySelector(".early-gutters").replaceChildren(numbers, lint);
  root.querySelector(".early-content").replaceWith(content);
}

// The first lines' ranges (without their line breaks), up to LINES of them.
function firstLines(text) {
  const lines = [];
  let from = 0;
  while (lines.length < LINES) {
    const next = text.indexOf("\n", from);
    const to = next < 0 ? text.length : next;
    lines.push({ from, to: text[to - 1] === "\r" ? to - 1 : to });
    if (next < 0) break;
    from = next + 1;
  }
  return lines;
}

// How many lines `text` has (CodeMirror's count: one more than its line breaks).
function lineCount(text) {
  let count = 1;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) count++;
  return count;
}

function squiggles(diagnostics, end) {
  return diagnostics
    .filter((d) => d.from < end && SEVERITIES.has(d.severity))
    .map((d) => ({ from: d.from, to: Math.max(d.to, d.from), classes: `early-squiggle early-squiggle-${d.severity}` }));
}

function highlighting(meanings, end) {
  const marks = [];
  for (let i = 0; meanings && i + 2 < meanings.length && meanings[i] < end; i += 3) {
    const name = MEANINGS[meanings[i + 2] & 0xff];
    if (!name) continue;
    const classes = meanings[i + 2] & CONFLICT ? `tok-${name} tok-conflict` : `tok-${name}`;
    marks.push({ from: meanings[i], to: meanings[i + 1], classes });
  }
  return marks;
}

// The lines a diagnostic touches, each with its most severe diagnostic's severity: the lint
// gutter's markers.
function linesWithSquiggles(diagnostics, lines) {
  const order = ["hint", "info", "warning", "error"];
  const found = new Map();
  for (const d of diagnostics) {
    if (!SEVERITIES.has(d.severity)) continue;
    const index = lines.findIndex((line) => d.from <= line.to && line.from <= d.from);
    if (index < 0) continue;
    const before = found.get(index);
    if (!before || order.indexOf(d.severity) > order.indexOf(before)) found.set(index, d.severity);
  }
  return found;
}

// One line's text, cut where a mark begins or ends, each piece in the classes of the marks over it.
// `marks` is in order of where each begins; those before `first` end before the line.
function drawLine(row, text, line, marks, first) {
  if (line.from === line.to) {
    row.appendChild(document.createElement("br")); // as CodeMirror keeps an empty line's height
    return;
  }
  const over = [];
  for (let i = first; i < marks.length && marks[i].from < line.to; i++) {
    if (line.from < marks[i].to) over.push(marks[i]);
  }
  const cuts = new Set([line.from, line.to]);
  for (const m of over) {
    if (m.from > line.from) cuts.add(m.from);
    if (m.to < line.to) cuts.add(m.to);
  }
  const points = [...cuts].sort((a, b) => a - b);
  for (let i = 0; i + 1 < points.length; i++) {
    const [from, to] = [points[i], points[i + 1]];
    const classes = over.filter((m) => m.from <= from && to <= m.to).map((m) => m.classes);
    const piece = text.slice(from, to);
    if (classes.length) row.appendChild(element("span", classes.join(" "))).textContent = piece;
    else row.appendChild(document.createTextNode(piece));
  }
}

function element(tag, className) {
  const made = document.createElement(tag);
  made.className = className;
  return made;
}
