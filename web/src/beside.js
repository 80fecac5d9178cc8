// Beside the text: the picture of the puzzle under the cursor, and the panel with its
// verdict, rating and the steps a person would take.
import { page } from "./page.js";

// The panel's rating and steps: may take seconds, so apart (and started after the first
// check, which it would otherwise slow).
let raterCore = null;
const rater = () => (raterCore ??= new page.boot.Core());

// The picture follows the cursor and each check once typing pauses a moment: the core draws it
// in a millisecond, but the browser takes 10-25 ms of the page's thread to show an SVG, and a
// key pressed meanwhile waits for it. The panel's rating and steps wait a little longer, and
// only the newest is worked out: a rating of a hard puzzle can take seconds, and each keystroke
// would otherwise start another.
const PICTURE_DELAY_MS = 200;
const PANEL_DELAY_MS = 400;
let pictureTimer = 0;
let panelTimer = 0;
export function showPuzzle(view) {
  clearTimeout(pictureTimer);
  pictureTimer = setTimeout(() => drawPicture(view), PICTURE_DELAY_MS);
  clearTimeout(panelTimer);
  panelTimer = setTimeout(() => rateInPanel(view), PANEL_DELAY_MS);
}

async function drawPicture(view) {
  const doc = view.state.doc;
  if (doc !== page.checkedDoc) return;
  const svg = await page.checker.call("picture", view.state.selection.main.head);
  if (view.state.doc !== doc) return;
  const picture = document.getElementById("picture");
  if (svg !== null && svg !== picture.dataset.svg) {
    picture.dataset.svg = svg;
    URL.revokeObjectURL(picture.src);
    picture.src = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
  }
  picture.hidden = svg === null;
}

let rating = false;
let panelShown = null; // the text and cursor the panel shows
async function rateInPanel(view) {
  if (rating) return; // the running one looks again when it ends
  rating = true;
  for (;;) {
    const doc = view.state.doc;
    const at = view.state.selection.main.head;
    const key = { doc, at };
    if (panelShown && panelShown.doc === doc && panelShown.at === at) break;
    const panel = await rater().call("panelFor", doc.toString(), at);
    panelShown = key;
    if (view.state.doc === doc) fillPanel(panel);
  }
  rating = false;
}

function fillPanel(panel) {
  const title = document.getElementById("puzzle-title");
  const lines = document.getElementById("puzzle-lines");
  const steps = document.getElementById("puzzle-steps");
  title.textContent = panel?.title ?? "No puzzle here";
  lines.replaceChildren(...(panel?.lines ?? []).map((line) => item(line)));
  steps.replaceChildren(...(panel?.steps ?? []).map((step) => item(step)));
  document.getElementById("steps-count").textContent = String(panel?.steps?.length ?? 0);
}

function item(text) {
  const li = document.createElement("li");
  li.textContent = text;
  return li;
}
