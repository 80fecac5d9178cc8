// The page's first script, small and read first. It compiles the core (streaming, while the
// editor's larger script, main.js, is fetched and parsed: see index.html's modulepreload),
// checks the first text here on the page's thread, and loads the editor, which takes over from
// `globalThis.sudokuBoot`. The worker that runs every later check starts only once that first
// check is done: on a machine with two cores a starting worker, the streaming compile and the
// editor's script slow each other down, and of the orders tried this one shows the first
// squiggles soonest (web/test/playground.mjs prints the marks set here and in main.js).
import LZString from "lz-string";
import { Core, compiled } from "./core.js";
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
// same text, so that it answers hovers about it.
const checker = new Core();
globalThis.sudokuBoot = { text, first, Core, checker, page: null, problem: fromAddress.problem ?? null };
first.then(
  () => checker.call("update", text),
  () => {}, // main.js says why
);
performance.mark("import");
import("./main.js");
