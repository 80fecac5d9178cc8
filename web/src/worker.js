// The core, compiled to WebAssembly, runs here, off the page's thread: typing never waits on a
// check. The page sends {id, method, args}; the answer is {id, result} or {id, error}, one per
// message and in order. One Playground holds the current text (`update`); every other method
// asks about that text.
import init, { Playground, importLink } from "../build/pkg/sudoku_web.js";

// The page compiles the WebAssembly once and sends the module as the first message (both
// workers share it); a worker started without one fetches and compiles it itself.
let start;
const module = new Promise((resolve) => (start = resolve));
const ready = module.then((compiled) =>
  init({ module_or_path: compiled ?? new URL("sudoku_web_bg.wasm", import.meta.url) }).then(
    () => new Playground(),
  ),
);

const methods = {
  update: (playground, text) => playground.update(text), // JSON, compared with the page's own
  settle: (playground, text) => playground.settle(text),
  hover: (playground, at) => playground.hover(at) ?? null,
  picture: (playground, at) => playground.picture(at) ?? null,
  tokens: (playground, from, to) => playground.tokens(from, to),
  complete: (playground, at) => JSON.parse(playground.complete(at)),
  // The rater's worker: the panel of a text it checks first (its own copy of the text).
  panelFor: (playground, text, at) => {
    playground.settle(text); // off the typing path: every verdict decided, as a whole run would
    return JSON.parse(playground.panel(at));
  },
  solve: (playground, at) => JSON.parse(playground.solve(at)),
  nextStep: (playground, at) => JSON.parse(playground.next_step(at)),
  hint: (playground, at, level) => playground.hint(at, level),
  fillMarks: (playground, at) => JSON.parse(playground.fill_marks(at)),
  format: (playground) => playground.format(),
  address: (playground) => playground.address(),
  link: (playground, at, to) => playground.link(at, to),
  importLink: (_, link) => importLink(link),
};

self.onmessage = async ({ data: { id, method, args, module } }) => {
  if (method === undefined) {
    start(module);
    return;
  }
  try {
    const playground = await ready;
    const result = methods[method](playground, ...args);
    self.postMessage({ id, result });
  } catch (error) {
    self.postMessage({ id, error: String(error?.message ?? error) });
  }
};
