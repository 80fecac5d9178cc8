// Drives the built playground (web/dist, from web/build.sh) in a real Chromium, as a user
// would: the first squiggles, a conflict typed and undone, hover on a cell, the picture and the
// panel, Solve, a link pasted in, the page offline once loaded; any JavaScript error on the page
// fails it. Prints when the first squiggles were painted (drawn by boot.js before the editor
// exists; the test checks the editor takes over where they were) and the editor was built, the
// keystroke-to-squiggles times, and keeps a screenshot in $PLAYGROUND_OUT (web/test-output/ by
// default).
//
//   node web/test/playground.mjs
//
// Without a Chromium (CHROMIUM, or chromium on PATH) it says `skipped: …` and passes, unless
// SUDOKU_LSP_REQUIRE_BROWSER is set (CI), where it fails.
import { createServer } from "node:http";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { dirname, extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import LZString from "lz-string";
import { chromium } from "playwright-core";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");

// The Barbed Cross (tests/data/, as the server's tests have it; some ten thousand search nodes)
// and a little-killer snipe (some hundred thousand): more than a keystroke's check may spend on
// a text in the page (300 ms).
const data = join(web, "..", "tests", "data");
const SLOW_VERDICT = ["barbed-cross.sudoku", "little-killer-snipe.sudoku"].map((f) => readFileSync(join(data, f), "utf8")).join("\n");
const dist = join(web, "dist");
const output = process.env.PLAYGROUND_OUT ?? join(web, "test-output");

function findChromium() {
  if (process.env.CHROMIUM) return process.env.CHROMIUM;
  for (const name of ["chromium", "chromium-browser", "google-chrome"]) {
    try {
      return execFileSync("sh", ["-c", `command -v ${name}`]).toString().trim();
    } catch {}
  }
  return null;
}

const executablePath = findChromium();
if (!executablePath || !existsSync(join(dist, "index.html"))) {
  const why = !executablePath ? "no Chromium (set CHROMIUM or install chromium)" : "web/dist is not built (bash web/build.sh)";
  if (process.env.SUDOKU_LSP_REQUIRE_BROWSER) {
    console.error(`playground: ${why}, and SUDOKU_LSP_REQUIRE_BROWSER is set`);
    process.exit(1);
  }
  console.log(`skipped: ${why}`);
  process.exit(0);
}

// ------------------------------------------------------------------ a static server for dist

const TYPES = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".css": "text/css",
  ".wasm": "application/wasm",
  ".map": "application/json",
};
const server = createServer((request, response) => {
  const path = normalize(decodeURIComponent(new URL(request.url, "http://x").pathname));
  const file = join(dist, path.endsWith("/") ? join(path, "index.html") : path);
  if (!file.startsWith(dist) || !existsSync(file)) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
  response.end(readFileSync(file));
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const base = `http://127.0.0.1:${server.address().port}/`;

// ------------------------------------------------------------------ checks

let failures = 0;
function ok(condition, what, detail = "") {
  console.log(`${condition ? "ok  " : "FAIL"} ${what}${detail ? `: ${detail}` : ""}`);
  if (!condition) failures++;
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

const launchOptions = { executablePath, args: ["--no-sandbox", ...(process.env.CHROMIUM_ARGS ?? "").split(" ").filter(Boolean)] };
if (process.env.PLAYGROUND_FIRST_LOADS) await firstLoads(Number(process.env.PLAYGROUND_FIRST_LOADS));
const browser = await chromium.launch(launchOptions);
const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
const page = await context.newPage();
const errors = [];
page.on("pageerror", (error) => errors.push(`page error: ${error.message}`));
page.on("console", (message) => {
  if (message.type() === "error") errors.push(`console error: ${message.text()}`);
});

try {
  const opened = Date.now();
  await page.goto(base);
  await page.waitForSelector("body[data-checked]", { timeout: 30000 });
  const first = await page.evaluate(() => window.sudokuPlayground.stats.firstDiagnosticsMs);
  const editorAt = await page.evaluate(() => window.sudokuPlayground.stats.editorMs);
  console.log(`first diagnostics painted ${first.toFixed(0)} ms after the page began, the editor built at ${editorAt.toFixed(0)} ms (${Date.now() - opened} ms from goto)`);
  const marks = await page.evaluate(() => performance.getEntriesByType("mark").map((m) => `${m.name} ${m.startTime.toFixed(0)}`));
  console.log(`     (ms after the page began: ${marks.join(", ")})`);

  // The picture and the panel of the first puzzle.
  await page.waitForFunction(() => document.getElementById("picture").dataset.svg);
  const picture = await page.evaluate(() => {
    const img = document.getElementById("picture");
    return { svg: img.dataset.svg, hidden: img.hidden };
  });
  ok(picture.svg.includes("<svg") && !picture.hidden, "the picture of the puzzle is shown");
  await page.waitForFunction(() => document.querySelectorAll("#puzzle-lines li").length > 0, null, { timeout: 30000 });
  const panel = await page.evaluate(() => ({
    title: document.getElementById("puzzle-title").textContent,
    lines: [...document.querySelectorAll("#puzzle-lines li")].map((li) => li.textContent),
    steps: document.querySelectorAll("#puzzle-steps li").length,
  }));
  ok(panel.title === "Puzzle 1: A gentle one", "the panel names the puzzle", panel.title);
  ok(panel.lines.some((l) => l.startsWith("Rating: SE ")), "the panel rates it", panel.lines.join(" | "));
  ok(panel.steps > 10, "the panel lists the steps", `${panel.steps} steps`);

  // Highlighting by meaning: metadata, givens, empty cells, borders, a cage's parts.
  const meaning = await page.evaluate(() => {
    const text = (name) => [...document.querySelectorAll(`.tok-${name}`)].map((s) => s.textContent);
    return { key: text("key"), value: text("value"), given: text("given"), empty: text("empty"), keyword: text("keyword"), cell: text("cell") };
  });
  ok(meaning.key.includes("title") && meaning.value.includes("A gentle one"), "the metadata is highlighted", `${meaning.key} / ${meaning.value}`);
  ok(meaning.given.includes("3") && meaning.empty.includes(".."), "givens and empty cells are highlighted", `${meaning.given.slice(0, 4)} / ${meaning.empty.slice(0, 4)}`);
  ok(meaning.keyword.includes("cage") && meaning.cell.length > 0, "a cage's keyword and cells are highlighted", `${meaning.keyword.slice(0, 3)} / ${meaning.cell.slice(0, 3)}`);

  // Completion in an empty cell (A1: 4 or 5), asked for with Ctrl+Space, chosen with Enter.
  const a1 = await page.evaluate(() => window.sudokuPlayground.view.state.doc.toString().indexOf("..3.2.6.."));
  await clickAt(a1 + 1);
  await page.keyboard.press("Control+Space");
  const offered = await page
    .waitForSelector(".cm-tooltip-autocomplete li", { timeout: 10000 })
    .then(() => page.$$eval(".cm-tooltip-autocomplete li .cm-completionLabel", (labels) => labels.map((l) => l.textContent)));
  ok(offered.join(" ") === "4 5", "completion in A1 offers the digits that fit", offered.join(" "));
  await page.waitForTimeout(150); // CodeMirror takes Enter for the list only once it has been open 75 ms
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => !document.querySelector(".cm-tooltip-autocomplete"));
  const completed = await firstGrid();
  ok(completed.startsWith("4.3"), "choosing one writes it into the cell", completed.slice(0, 9));
  await page.keyboard.press("Control+z");
  await page.waitForFunction(() => !document.querySelector(".cm-tooltip-autocomplete"));

  // Completion of a constraint's keyword, by itself while it is typed, on a new last line.
  await page.evaluate(() => {
    const view = window.sudokuPlayground.view;
    const end = view.state.doc.length;
    view.dispatch({ selection: { anchor: end } });
    view.focus();
  });
  await page.keyboard.type("\nther");
  const keywords = await page
    .waitForSelector(".cm-tooltip-autocomplete li", { timeout: 10000 })
    .then(() => page.$$eval(".cm-tooltip-autocomplete li .cm-completionLabel", (labels) => labels.map((l) => l.textContent)));
  ok(keywords.includes("thermo"), "typing a constraint's first letters offers its keyword", keywords.join(" "));
  await page.keyboard.press("Escape");
  for (let i = 0; i < 5; i++) await page.keyboard.press("Backspace");
  await page.evaluate(() => {
    const view = window.sudokuPlayground.view;
    view.dispatch({ selection: { anchor: 0 }, scrollIntoView: true });
  });

  // Type a conflict: A1 becomes 3 (A3 holds 3).
  await typeOver(a1, "3");
  await page.waitForSelector(".cm-lintRange-error", { timeout: 10000 });
  ok(true, "typing a conflict shows an error squiggle");
  await page.waitForSelector(".tok-conflict", { timeout: 10000 });
  const struck = await page.$$eval(".tok-conflict", (spans) => spans.map((s) => s.textContent).join(" "));
  ok(/3/.test(struck), "the digits in conflict are highlighted as such", struck);

  // Hover the error and an empty cell.
  await hoverAt(a1 + 1);
  const onEmpty = await page.waitForSelector(".cm-tooltip-hover .hover", { timeout: 10000 }).then((e) => e.textContent());
  ok(/A2/.test(onEmpty) && /Pencil marks/.test(onEmpty), "hover on an empty cell shows its pencil marks", onEmpty.slice(0, 80));
  await page.mouse.move(5, 5);

  // Undo: the squiggle goes.
  await page.keyboard.press("Control+z");
  await page.waitForSelector(".cm-lintRange-error", { state: "detached", timeout: 10000 });
  ok(true, "undo takes the squiggle away");

  // Keystrokes: a digit in and out of an empty cell, forty times; each one's squiggles timed,
  // in the classic puzzle (A2) and in the killer (A1).
  await timeKeystrokes(a1 + 1, "4", "the classic puzzle");
  const killerA1 = await page.evaluate(() => window.sudokuPlayground.view.state.doc.toString().indexOf(". 3 . | . . . | . . ."));
  await timeKeystrokes(killerA1, "5", "the killer");
  await page.evaluate(() => window.sudokuPlayground.view.dispatch({ selection: { anchor: 0 }, scrollIntoView: true }));

  // Hints go further with each click; the next step writes a digit; pencil marks fill the
  // empty cells (undone after, to solve from the grid).
  await clickAt(a1);
  await page.click("#hint");
  await page.waitForFunction(() => /^Hint 1\/3: /.test(document.getElementById("message").textContent));
  await page.click("#hint");
  await page.waitForFunction(() => /^Hint 2\/3: /.test(document.getElementById("message").textContent));
  ok(true, "Hint says where to look, then more");
  const emptyBefore = (await firstGrid()).split(".").length - 1;
  await page.click("#next-step");
  await page.waitForFunction(() => /^Applied the next step/.test(document.getElementById("message").textContent));
  const emptyAfter = (await firstGrid()).split(".").length - 1;
  ok(emptyAfter < emptyBefore, "Next step writes a digit", `${emptyBefore} → ${emptyAfter} empty cells`);
  await page.keyboard.press("Control+z");
  await page.click("#marks");
  await page.waitForFunction(() => /^Pencil marks written/.test(document.getElementById("message").textContent));
  const withMarks = await page.evaluate(() => window.sudokuPlayground.view.state.doc.toString());
  ok(/\b4578\b/.test(withMarks) || /\[4578\]/.test(withMarks), "Pencil marks are written (A2: 4578)", withMarks.split("\n").slice(2, 4).join(" / "));
  await page.keyboard.press("Control+z");

  // A button pressed at once after a keystroke acts on the new text (A2 = 4: no solution).
  await typeOver(a1 + 1, "4");
  await page.click("#solve");
  await page.waitForFunction(() => /^Not solved/.test(document.getElementById("message").textContent));
  ok(true, "Solve right after a keystroke reads the new text (no solution)");
  await page.keyboard.press("Control+z");

  // What a button writes is its own step to undo: Format at once after a keystroke, undone,
  // leaves the keystroke (A1 = 4).
  await typeOver(a1, "4");
  await page.click("#format");
  await page.waitForFunction(() => /^Formatted/.test(document.getElementById("message").textContent));
  await page.evaluate(() => window.sudokuPlayground.view.focus());
  await page.keyboard.press("Control+z");
  const formatUndone = await page.evaluate(() => window.sudokuPlayground.view.state.doc.toString());
  ok(formatUndone.includes("\n4.3.2.6..\n"), "undo after Format takes back the Format alone", formatUndone.split("\n")[2]);
  await page.keyboard.press("Control+z");

  // Solve the first puzzle.
  await clickAt(a1);
  await page.click("#solve");
  await page.waitForFunction(() => /Solved/.test(document.getElementById("message").textContent));
  const solved = await firstGrid();
  ok(!solved.includes("."), "Solve writes the solution into the first puzzle", solved.slice(0, 20));
  await page.waitForFunction(() => !document.querySelector(".cm-lintRange-error"));

  // A link out, then pasted back in.
  await clickAt(a1);
  await page.click("#copy-link");
  await page.waitForFunction(() => document.getElementById("link-out").value.startsWith("https://"));
  const link = await page.inputValue("#link-out");
  ok(link.includes("f-puzzles.com"), "the f-puzzles link is given", link.slice(0, 50));
  await page.evaluate(() => {
    const view = window.sudokuPlayground.view;
    view.dispatch({ selection: { anchor: 0, head: view.state.doc.length } });
  });
  await page.evaluate((link) => {
    const data = new DataTransfer();
    data.setData("text/plain", link);
    const paste = new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true });
    window.sudokuPlayground.view.contentDOM.dispatchEvent(paste);
  }, link);
  await page.waitForFunction(() => /became/.test(document.getElementById("message").textContent));
  const imported = await page.evaluate(() => window.sudokuPlayground.view.state.doc.toString());
  ok(!imported.includes("f-puzzles.com") && (await firstGrid()) === solved, "a pasted link becomes the same puzzle as .sudoku text", imported.slice(0, 60));

  // Open in SudokuPad gives a SudokuPad link; pasted into the field beside, it is the same
  // puzzle again (the page opens no window here: the link is caught).
  await page.evaluate(() => {
    window.open = (url) => {
      window.sudokuPadOpened = url;
      return null;
    };
  });
  await clickAt(a1);
  await page.click("#sudokupad");
  const padLink = await page.waitForFunction(() => window.sudokuPadOpened).then((handle) => handle.jsonValue());
  ok(/sudokupad\.app/.test(padLink), "Open in SudokuPad opens a SudokuPad link", padLink.slice(0, 50));
  await page.evaluate(() => {
    const view = window.sudokuPlayground.view;
    view.dispatch({ selection: { anchor: 0, head: view.state.doc.length } });
  });
  await page.evaluate(() => (document.getElementById("message").textContent = ""));
  await page.fill("#link-in", padLink);
  await page.click("#import");
  await page.waitForFunction(() => /became/.test(document.getElementById("message").textContent));
  const fromPad = await page.evaluate(() => window.sudokuPlayground.view.state.doc.toString());
  ok(fromPad === imported, "a SudokuPad link pasted in becomes the same puzzle", fromPad.slice(0, 40));
  await page.fill("#link-in", "");

  // A broken link in the field beside: a clear error, the text untouched.
  await page.fill("#link-in", "https://www.f-puzzles.com/?load=N4IgzglgXgpiBcBOAN");
  await page.click("#import");
  await page.waitForFunction(() => /could not be read/.test(document.getElementById("message").textContent));
  const brokenSaid = await page.evaluate(() => document.getElementById("message").textContent);
  const untouched = await page.evaluate(() => window.sudokuPlayground.view.state.doc.toString());
  ok(untouched === imported, "a broken link says why and leaves the text alone", brokenSaid);
  await page.fill("#link-in", "");

  // The address holds the text: a new page at it shows the same.
  await page.waitForFunction(() => {
    const playground = window.sudokuPlayground;
    return playground.stats.addressed === playground.view.state.doc.toString();
  });
  const address = page.url();
  const second = await context.newPage();
  second.on("pageerror", (error) => errors.push(`page error: ${error.message}`));
  await second.goto(address);
  await second.waitForSelector("body[data-checked]");
  const shared = await second.evaluate(() => window.sudokuPlayground.view.state.doc.toString());
  ok(shared === imported, "the page's address carries the text");
  // An address cut short: the sample, and why.
  const third = await context.newPage();
  third.on("pageerror", (error) => errors.push(`page error: ${error.message}`));
  await third.goto(`${base}#text=N4Igdg!!`);
  await third.waitForSelector("body[data-checked]");
  const cut = await third.evaluate(() => ({
    message: document.getElementById("message").textContent,
    text: window.sudokuPlayground.view.state.doc.toString(),
  }));
  ok(/could not be read/.test(cut.message) && cut.text.includes("A gentle one"), "an address that cannot be read says so and shows the sample", cut.message);
  await third.close();

  // A pasted collection (15,000 one-line puzzles, 1.2 MB): checked in the worker, a conflict
  // typed into it squiggled, the address left alone with a message, the page still typing.
  const line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
  await page.evaluate((text) => {
    const view = window.sudokuPlayground.view;
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, selection: { anchor: 0 } });
  }, `${line}\n`.repeat(15000));
  await page.waitForFunction(() => /too long for the page's address/.test(document.getElementById("message").textContent), null, { timeout: 60000 });
  ok(true, "a text too long for the address says so");
  const bigChecks = await page.evaluate(() => window.sudokuPlayground.stats.checks.length);
  const typedAt = Date.now();
  await page.evaluate(() => {
    const view = window.sudokuPlayground.view;
    view.dispatch({ changes: { from: 1, to: 2, insert: "4" }, userEvent: "input.type" }); // 44: a conflict in row A
  });
  await page.waitForSelector(".cm-lintRange-error", { timeout: 60000 });
  await page.waitForFunction((n) => window.sudokuPlayground.stats.checks.length > n, bigChecks);
  ok(true, "a conflict typed into it is squiggled", `${Date.now() - typedAt} ms`);
  await page.evaluate(() => {
    const view = window.sudokuPlayground.view;
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: "" } });
  });

  // Verdicts the keystroke's check cannot all decide in its 300 ms (the Barbed Cross: little
  // killers over disjoint groups, no givens; and a little-killer snipe) are decided once
  // typing pauses, by a worker of its own.
  const slowChecks = await page.evaluate(() => window.sudokuPlayground.stats.checks.length);
  await page.evaluate((text) => {
    const view = window.sudokuPlayground.view;
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, selection: { anchor: 0 } });
  }, SLOW_VERDICT);
  // This text's first check shown (not the last text's), then every verdict decided.
  await page.waitForFunction((n) => window.sudokuPlayground.stats.checks.length > n, slowChecks, { timeout: 60000 });
  await page.waitForFunction(() => !/undecided/.test(window.sudokuPlayground.shown()), null, { timeout: 60000 });
  await page.waitForFunction(() => /exactly one solution/.test(document.getElementById("puzzle-lines").textContent), null, { timeout: 30000 });
  const settled = await page.evaluate(() => window.sudokuPlayground.stats.settled);
  ok(settled > 0, "slow verdicts are decided once typing pauses, in a worker of their own", `${settled} settled`);

  // An example from the list replaces the text; undo brings it back.
  const beforeExample = await page.evaluate(() => window.sudokuPlayground.view.state.doc.toString());
  await page.selectOption("#examples", "Thermometers");
  await page.waitForFunction(() => document.getElementById("puzzle-title").textContent === "Puzzle 1: Thermometers", null, { timeout: 30000 });
  const thermoPicture = await page.waitForFunction(() => /<svg/.test(document.getElementById("picture").dataset.svg ?? "") && document.getElementById("picture").dataset.svg.includes("Thermometers")).then(() => true, () => false);
  ok(thermoPicture, "an example chosen from the list is checked, pictured and rated");
  await page.keyboard.press("Control+z");
  const afterUndo = await page.evaluate(() => window.sudokuPlayground.view.state.doc.toString());
  ok(afterUndo === beforeExample, "undo brings the text back", afterUndo === beforeExample ? "" : afterUndo.slice(0, 60));

  // A phone's narrow screen: the text above, the picture below, neither squeezed out.
  await page.setViewportSize({ width: 390, height: 844 });
  const narrow = await page.evaluate(() => ({
    editor: document.querySelector(".cm-editor").getBoundingClientRect().width,
    picture: document.getElementById("picture").getBoundingClientRect().width,
  }));
  ok(narrow.editor > 300 && narrow.picture > 300, "on a narrow screen the text and the picture each take the width", JSON.stringify(narrow));
  await page.setViewportSize({ width: 1280, height: 860 });

  // A dark colour scheme: a dark gutter, light text.
  const darkPage = await context.newPage({ colorScheme: "dark" });
  await darkPage.emulateMedia({ colorScheme: "dark" });
  darkPage.on("pageerror", (error) => errors.push(`page error: ${error.message}`));
  await darkPage.goto(base);
  await darkPage.waitForSelector("body[data-checked]");
  const dark = await darkPage.evaluate(() => ({
    gutter: getComputedStyle(document.querySelector(".cm-gutters")).backgroundColor,
    text: getComputedStyle(document.querySelector(".cm-editor")).color,
  }));
  const brightness = (rgb) => rgb.match(/\d+/g).slice(0, 3).reduce((a, b) => a + Number(b), 0) / 3;
  ok(brightness(dark.gutter) < 80 && brightness(dark.text) > 180, "in a dark colour scheme the editor is dark, its text light", JSON.stringify(dark));
  // The system's scheme changes while the page is open: the editor follows, without a reload.
  await darkPage.emulateMedia({ colorScheme: "light" });
  const light = await darkPage.waitForFunction(() => {
    const gutter = getComputedStyle(document.querySelector(".cm-gutters")).backgroundColor;
    const text = getComputedStyle(document.querySelector(".cm-editor")).color;
    const brightness = (rgb) => rgb.match(/\d+/g).slice(0, 3).reduce((a, b) => a + Number(b), 0) / 3;
    return brightness(gutter) > 180 && brightness(text) < 80 && { gutter, text };
  }, null, { timeout: 5000 }).then((handle) => handle.jsonValue(), () => null);
  ok(light !== null, "a change to a light scheme while the page is open turns the editor light", JSON.stringify(light));
  await darkPage.close();

  // The first text's squiggles are drawn before the editor's script runs, where the editor then
  // draws them: nothing moves when it takes over (light and dark).
  for (const colorScheme of ["light", "dark"]) await earlyDrawingMatchesTheEditor(browser, colorScheme);

  // Offline once loaded.
  await page.evaluate(() => navigator.serviceWorker.ready);
  await context.setOffline(true);
  const offline = await context.newPage();
  offline.on("pageerror", (error) => errors.push(`page error: ${error.message}`));
  await offline.goto(base);
  await offline.waitForSelector("body[data-checked]", { timeout: 20000 });
  ok(true, "the page loads and checks offline");
  await context.setOffline(false);

  mkdirSync(output, { recursive: true });
  await page.screenshot({ path: join(output, "playground.png") });
  console.log(`screenshot: ${join(output, "playground.png")}`);
} catch (error) {
  ok(false, "the run", error.stack ?? String(error));
  mkdirSync(output, { recursive: true });
  await page.screenshot({ path: join(output, "failure.png") }).catch(() => {});
} finally {
  ok(errors.length === 0, "no JavaScript errors on the page", errors.join("; "));
  await browser.close();
  server.close();
}
console.log(failures ? `playground: ${failures} failed` : "playground: passed");
process.exit(failures ? 1 : 0);

// ------------------------------------------------------------------ helpers

async function coordsOf(pos) {
  return page.evaluate((pos) => {
    const view = window.sudokuPlayground.view;
    view.dispatch({ effects: [], scrollIntoView: true, selection: view.state.selection });
    const c = view.coordsAtPos(pos);
    return { x: (c.left + c.right) / 2 + 1, y: (c.top + c.bottom) / 2 };
  }, pos);
}

async function clickAt(pos) {
  const { x, y } = await coordsOf(pos);
  await page.mouse.click(x - 3, y);
}

// Click just before the character at `pos`, select it and type `text` over it, as a user would.
async function typeOver(pos, text) {
  await clickAt(pos);
  await page.keyboard.down("Shift");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.up("Shift");
  await page.keyboard.type(text);
}

async function hoverAt(pos) {
  const { x, y } = await coordsOf(pos);
  await page.mouse.move(x + 2, y);
}

// Type a digit into the empty cell at `cell` and take it out again, forty times, each time
// waiting for its squiggles, and print the times (from each key's own event).
async function timeKeystrokes(cell, digit, what) {
  await page.evaluate((at) => window.sudokuPlayground.view.dispatch({ selection: { anchor: at }, scrollIntoView: true }), cell);
  const before = await page.evaluate(() => window.sudokuPlayground.stats.checks.length);
  const quickBefore = await page.evaluate(() => window.sudokuPlayground.stats.quickLooks);
  for (let i = 0; i < 40; i++) {
    await typeOver(cell, i % 2 ? "." : digit);
    await page.waitForFunction((n) => window.sudokuPlayground.stats.checks.length > n, before + i);
  }
  const times = await page.evaluate((n) => window.sudokuPlayground.stats.checks.slice(n), before);
  const quick = (await page.evaluate(() => window.sudokuPlayground.stats.quickLooks)) - quickBefore;
  const slowest = [...times].sort((a, b) => b - a).slice(0, 5).map((t) => t.toFixed(1));
  console.log(
    `keystroke to squiggles in ${what} over ${times.length} edits: p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms (slowest ${slowest.join(", ")}; ${quick} shown by a quick look on the page's thread)`,
  );
}

// Opens a text with errors (a repeated digit, an unknown variant, a line that is no row) with
// the editor's script held back: boot.js's drawing must show the squiggles, gutter markers and
// highlighting, and then the editor must put every line, line number, marker and squiggle
// where the drawing had it, with the drawing gone.
async function earlyDrawingMatchesTheEditor(browser, colorScheme) {
  const text = ["# title: early", "5 3 5 | . 7 . | . . .", "6 . . | 1 9 5 | . . .", ". 9 8 | . . . | . 6 .", "", "# variant: killer", "cage 9: A1 A2", "foo", ""].join("\n");
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, colorScheme });
  const early = await context.newPage();
  early.on("pageerror", (error) => errors.push(`page error: ${error.message}`));
  let release;
  const held = new Promise((resolve) => (release = resolve));
  await early.route("**/main.js", async (route) => {
    await held;
    await route.continue();
  });
  try {
    await early.goto(`${base}#text=${LZString.compressToEncodedURIComponent(text)}`);
    await early.waitForSelector("#early .early-squiggle", { timeout: 30000 });
    const drawn = await geometry(early, "#early .early-line", "#early .early-number", "#early .early-marker", "#early .early-squiggle");
    const classes = await early.evaluate(() => [...document.querySelectorAll("#early [class*=tok-]")].map((e) => e.className));
    ok(drawn.squiggles.length >= 3 && drawn.markers.length === 3 && classes.some((c) => c.includes("tok-keyword")), `${colorScheme}: the first squiggles are drawn before the editor's script runs`, `${drawn.squiggles.length} lines squiggled, ${drawn.markers.length} markers`);
    release();
    await early.waitForSelector("body[data-checked]", { timeout: 30000 });
    const editor = await geometry(early, ".cm-line", ".cm-lineNumbers .cm-gutterElement:not([style*=hidden])", ".cm-lint-marker", ".cm-lintRange");
    const gone = await early.evaluate(() => document.getElementById("early") === null);
    // Within a pixel: the drawing cuts a squiggle where highlighting changes, the editor not always.
    const flat = (g) => JSON.stringify(g).match(/-?\d+/g).map(Number);
    const [a, b] = [flat(drawn), flat(editor)];
    const same = a.length === b.length && a.every((v, i) => Math.abs(v - b[i]) <= 1);
    ok(same && gone, `${colorScheme}: the editor takes over where the drawing was, and the drawing goes`, same ? "" : `${JSON.stringify(drawn)} vs ${JSON.stringify(editor)}`);
  } finally {
    release();
    await context.close();
  }
}

// Where the page draws lines, line numbers and lint markers (rounded boxes), and each line's
// squiggled stretch (from the left of its first squiggle to the right of its last).
async function geometry(page, lines, numbers, markers, squiggles) {
  return page.evaluate(
    ([lines, numbers, markers, squiggles]) => {
      const box = (e) => {
        const r = e.getBoundingClientRect();
        return [r.left, r.top, r.width, r.height].map(Math.round);
      };
      const all = (selector) => [...document.querySelectorAll(selector)].map(box);
      const stretches = new Map();
      for (const [left, top, width] of all(squiggles)) {
        const [from, to] = stretches.get(top) ?? [left, left + width];
        stretches.set(top, [Math.min(from, left), Math.max(to, left + width)]);
      }
      return { lines: all(lines), numbers: all(numbers), markers: all(markers), squiggles: [...stretches].sort((a, b) => a[0] - b[0]) };
    },
    [lines, numbers, markers, squiggles],
  );
}

// PLAYGROUND_FIRST_LOADS=N: the page opened N times, each in a browser of its own (as the run
// below opens it once), and when its first squiggles were painted and its editor built, sorted,
// with their medians: the README's figures. This machine's speed varies by the minute; one
// load says little.
async function firstLoads(count) {
  const painted = [];
  const built = [];
  for (let i = 0; i < count; i++) {
    const browser = await chromium.launch(launchOptions);
    try {
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
      await page.goto(base);
      await page.waitForSelector("body[data-checked]", { timeout: 30000 });
      const stats = await page.evaluate(() => window.sudokuPlayground.stats);
      painted.push(stats.firstDiagnosticsMs);
      built.push(stats.editorMs);
    } finally {
      await browser.close();
    }
  }
  const show = (values) => values.sort((a, b) => a - b).map((v) => v.toFixed(0)).join(" ");
  console.log(`first loads (${count}): first diagnostics painted at ${show(painted)} ms, median ${percentile(painted, 50).toFixed(0)}`);
  console.log(`                 the editor built at ${show(built)} ms, median ${percentile(built, 50).toFixed(0)}`);
}

async function firstGrid() {
  return page.evaluate(() => {
    const text = window.sudokuPlayground.view.state.doc.toString();
    // Grid rows, in any layout: cells with spaces and box bars between them.
    const rows = text
      .split("\n")
      .filter((l) => /^[.1-9 |]+$/.test(l) && /[.1-9]/.test(l))
      .map((l) => l.replace(/[ |]/g, ""));
    return rows.slice(0, 9).join("");
  });
}
