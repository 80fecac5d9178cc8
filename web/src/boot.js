// The page's first script, small and read first. It compiles the core (streaming, while the
// editor's larger script, main.js, is fetched and parsed: see index.html's modulepreload),
// checks the first text here on the page's thread, draws that text with its squiggles as the
// editor will (early.js: the editor's script and the editor itself take the page's thread some
// 60 to 90 ms more), and once that drawing is painted loads the editor, which takes over from
// `globalThis.sudokuBoot`. The worker that runs every later check starts only once that first
// check is done: on a machine with two cores a starting worker, the streaming compile and the
// editor's script slow each other down, and of the orders tried this one shows the first
// squiggles soonest (web/test/playground.mjs prints the marks set here and in main.js).
import LZString from "lz-string";
import { Core, compiled } from "./core.js";
import { drawEarly } from "./early.js";
import init, { Playground } from "../build/pkg/sudoku_web.js";
import KILLER from "../../puzzles/variants/killer.sudoku";

// The first visit's text: a classic puzzle and the project's example killer.
const SAMPLE = `# title: A gentle one
# author: sudoku-lsp
..3.2.6..
9..3.5..1
..18.64..
..81.29..
7.......8
..67.82..
..26.95..
8..2.3..9
..5.1.3..

${KILLER}`;

// The text the page's address holds (`#text=…`), if it holds one; why it cannot be read, if not.
function textFromAddress() {
  const match = location.hash.match(/^#text=(.*)$/);
  if (!match) return {};
  const text = LZString.decompressFromEncodedURIComponent(match[1]);
  if (text || match[1] === LZString.compressToEncodedURIComponent("")) return { text };
  return { problem: "The text in the page's address could not be read (a link cut short?): here is the sample instead." };
}

performance.mark("boot");
const fromAddress = textFromAddress();
const text = fromAddress.text ?? SAMPLE;

async function checkHere() {
  const module = await compiled;
  performance.mark("compiled");
  await init({ module_or_path: module ?? new URL("sudoku_web_bg.wasm", import.meta.url) });
  performance.mark("instantiated");
  const playground = new Playground();
  const diagnostics = playground.update(text);
  // The whole text's meanings: the first text is short (a long one from an address is the
  // user's, and its first squiggles matter more than painting lines out of view).
  const meanings = text.length <= 20000 ? playground.tokens(0, text.length) : null;
  performance.mark("checked");
  // Kept for main.js's quick looks at each keystroke's text.
  globalThis.sudokuBoot.page = playground;
  return { diagnostics, meanings };
}
const first = checkHere();
// Core goes along so that main.js's workers share this script's one compiled module; `checker`
// is the worker every later check runs in, started once the first check is done and given the
// same text, so that it answers hovers about it. `painted` is when the first squiggles were
// painted (null if they were not drawn here).
const checker = new Core();
globalThis.sudokuBoot = { text, first, Core, checker, page: null, problem: fromAddress.problem ?? null, painted: null };
first.then(
  () => checker.call("update", text),
  () => {}, // main.js says why
);
const drawn = first.then(({ diagnostics, meanings }) => {
  performance.mark("drawing");
  try {
    drawEarly(document.getElementById("early"), text, JSON.parse(diagnostics), meanings);
  } catch (error) {
    console.error("The first text could not be drawn before the editor:", error);
    throw error; // the editor comes all the same
  }
  performance.mark("early");
});
globalThis.sudokuBoot.painted = drawn.then(whenPainted, () => null);
// The editor's script is evaluated once the drawing is on the screen: evaluated before, it
// would hold back the frame that paints it.
drawn.then(afterNextFrame, () => {}).then(() => {
  performance.mark("import");
  import("./main.js");
});

// The end of the task that follows the next frame: that frame has painted what was drawn before.
// A page opened in a background tab paints no frame until it is shown: it goes on at once.
function afterNextFrame() {
  if (document.hidden) return Promise.resolve(performance.now());
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(() => resolve(performance.now()))));
}

// When the drawing of the first text reached the screen: its element timing where the browser
// has it; else (or if that does not come within a few frames) the end of the task after the
// frame that painted it.
function whenPainted() {
  const frame = afterNextFrame();
  if (!PerformanceObserver.supportedEntryTypes?.includes("element")) return frame;
  const timed = new Promise((resolve) => {
    const observer = new PerformanceObserver((list) => {
      const entry = list.getEntries().find((e) => e.identifier === "early");
      if (entry) {
        observer.disconnect();
        resolve(entry.renderTime || entry.startTime);
      }
    });
    observer.observe({ type: "element", buffered: true });
  });
  const late = frame.then((at) => new Promise((resolve) => setTimeout(() => resolve(at), 100)));
  return Promise.race([timed, late]);
}
