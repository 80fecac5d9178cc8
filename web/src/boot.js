// Read first and small: checks the first text while the browser still reads the editor's larger
// script (main.js), which takes over from `globalThis.sudokuBoot`. That first check runs here,
// on the page's thread (a few tens of milliseconds, before anyone can type): a worker takes
// hundreds of milliseconds to start on a slow machine. Every later check runs in the worker,
// started here too, which is given the same text at once so that it answers hovers about it.
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

function textFromAddress() {
  const match = location.hash.match(/^#text=(.*)$/);
  if (!match) return null;
  return LZString.decompressFromEncodedURIComponent(match[1]);
}

const text = textFromAddress() ?? SAMPLE;
const checker = new Core();
checker.call("update", text); // its answer is the one below

async function checkHere() {
  const module = await compiled;
  await init({ module_or_path: module ?? new URL("sudoku_web_bg.wasm", import.meta.url) });
  const playground = new Playground();
  const diagnostics = JSON.parse(playground.update(text));
  playground.free();
  return diagnostics;
}
// Core goes along so that main.js's workers share this script's one compiled module.
globalThis.sudokuBoot = { text, checker, first: checkHere(), Core };
