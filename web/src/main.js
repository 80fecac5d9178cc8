// The playground page: a CodeMirror editor holding `.sudoku` text, checked by the core in a
// worker as you type (squiggles, hover), the picture and the verdict, rating and steps of the
// puzzle under the cursor beside it, and buttons for what the editor's code actions and
// commands do. The page's address holds the text, so a link shares the puzzle.
import { EditorState } from "@codemirror/state";
import {
  EditorView,
  drawSelection,
  highlightActiveLine,
  highlightSpecialChars,
  hoverTooltip,
  keymap,
  lineNumbers,
} from "@codemirror/view";
import { defaultKeymap, history as undoHistory, historyKeymap } from "@codemirror/commands";
import { lintGutter, setDiagnostics } from "@codemirror/lint";
import { highlightSelectionMatches, searchKeymap } from "@codemirror/search";
import { completion } from "./completion.js";
import { meanings, showMeanings } from "./highlight.js";
import { renderMarkdown } from "./markdown.js";

// What boot.js started before this larger script was read: the checker and its first check.
const boot = globalThis.sudokuBoot;
performance.mark("main");

// What a test (or a curious user, from the console) can read: when the first diagnostics
// came, each check's time from the keystroke to its squiggles, how many squiggles came from a
// quick look on the page's thread, how many texts were settled, the text the address holds.
const stats = { firstDiagnosticsMs: null, checks: [], quickLooks: 0, settled: 0, addressed: null };

let checker = boot.checker; // checks, hovers, solves: quick answers about the current text
let raterCore = null; // the panel's rating and steps: may take seconds, so apart (and started
// after the first check, which it would otherwise slow)
const rater = () => (raterCore ??= new boot.Core());

const message = document.getElementById("message");
function say(text, isError = false) {
  message.textContent = text;
  message.classList.toggle("error", isError);
}

// ------------------------------------------------------------------ the text in the address

// The text goes into the address once typing pauses, compressed in the worker (LZ-String; a
// long text takes the page's thread hundreds of milliseconds). A text too long for an address
// is not put there, and the message says so.
const ADDRESS_TEXT = 1_000_000; // UTF-16 units: some 300,000 characters of address
let addressTimer = 0;
let tooLongSaid = false;
function keepInAddress(view, doc) {
  clearTimeout(addressTimer);
  addressTimer = setTimeout(async () => {
    if (view.state.doc !== doc || checkedDoc !== doc) return;
    if (doc.length > ADDRESS_TEXT) {
      if (location.hash) history.replaceState(null, "", location.pathname + location.search);
      if (!tooLongSaid) say("This text is too long for the page's address: copy the text itself to share it.");
      tooLongSaid = true;
      stats.addressed = null;
      return;
    }
    tooLongSaid = false;
    const encoded = await checker.call("address");
    if (view.state.doc !== doc) return;
    history.replaceState(null, "", `#text=${encoded}`);
    stats.addressed = doc.toString();
  }, 300);
}

// ------------------------------------------------------------------ checking as you type

// The text the checker holds, once its diagnostics are shown: hover and the buttons ask about
// it, and only while the editor still shows it.
let checkedDoc = null;
let checking = null; // the running checks' loop, which ends once the newest text is checked
let changedAt = null; // when the oldest change whose squiggles are not shown yet was made
let keyAt = null; // when the last key went down (the event's own time)
let shown = { doc: null, json: null }; // the text whose squiggles are shown, and they

// Check the editor's text; the promise ends when its newest text is checked (or a check
// failed). While a check runs, another call joins it: its loop sends the newest text next.
function check(view) {
  checking ??= checkUntilCurrent(view).then((checked) => {
    checking = null;
    // A text typed as the loop ended (not after a failed check, which would fail again).
    if (checked && view.state.doc !== checkedDoc) return check(view);
  });
  return checking;
}

async function checkUntilCurrent(view) {
  while (view.state.doc !== checkedDoc) {
    const doc = view.state.doc;
    let json;
    let early = null;
    try {
      const text = doc.toString();
      // The first text was checked by boot.js, before the editor was built.
      early = boot.first && boot.text === text ? await boot.first : null;
      boot.first = null;
      json = early?.diagnostics ?? (await checker.call("update", text));
    } catch (error) {
      say(`The check failed: ${error.message}`, true);
      return false;
    }
    if (view.state.doc !== doc) continue; // typed meanwhile: check the newer text first, show nothing stale
    showDiagnostics(view, doc, json);
    settleLater(view, doc, json);
    checkedDoc = doc;
    document.body.dataset.checked = String(stats.checks.length);
    keepInAddress(view, doc);
    if (early?.meanings) view.dispatch({ effects: showMeanings(early.meanings, doc.length) });
    else highlight(view);
    showPuzzle(view);
  }
  return true;
}

// Show `doc`'s diagnostics (the core's JSON), unless they are shown already.
function showDiagnostics(view, doc, json) {
  if (shown.doc === doc && shown.json === json) return;
  const diagnostics = JSON.parse(json);
  view.dispatch(setDiagnostics(view.state, diagnostics.map((d) => toCodeMirror(d, doc.length))));
  const now = performance.now();
  if (shown.doc !== doc && changedAt !== null) {
    stats.checks.push(now - changedAt);
    changedAt = null;
  }
  shown = { doc, json };
  if (stats.firstDiagnosticsMs === null) {
    stats.firstDiagnosticsMs = now;
    performance.mark("diagnostics");
  }
}

// ------------------------------------------------------------------ settling

// A check has 300 ms a text, so that squiggles keep up with typing: a verdict it cannot decide
// in that time is "undecided". Once typing pauses, a worker of its own checks that text again
// with the language server's limits for a whole run (a million search nodes); a change to the
// text stops it. Done, it takes the checker's place: it holds the text, every verdict decided.
const SETTLE_DELAY_MS = 500;
let settleTimer = 0;
let settler = null;

function stopSettling() {
  clearTimeout(settleTimer);
  settler?.terminate();
  settler = null;
}

function settleLater(view, doc, json) {
  stopSettling();
  if (json.includes('"code":"undecided"')) settleTimer = setTimeout(() => settle(view, doc), SETTLE_DELAY_MS);
}

async function settle(view, doc) {
  if (view.state.doc !== doc) return;
  const core = (settler = new boot.Core());
  let json;
  try {
    json = await core.call("settle", doc.toString());
  } catch {
    return; // stopped: the text changed
  }
  if (settler !== core) return;
  settler = null;
  // Only in the checker's place while nothing waits on the checker, and for the text it holds.
  if (view.state.doc !== doc || checkedDoc !== doc || !checker.idle) {
    core.terminate();
    return;
  }
  const old = checker;
  checker = core;
  old.terminate();
  showDiagnostics(view, doc, json);
  stats.settled++;
  highlight(view);
  showPuzzle(view);
}

// ------------------------------------------------------------------ a quick look

// Every check runs in the worker, and its answer is the one hover and the buttons go by. A
// short text is also looked at here, on the page's thread, at once, with a budget of a few
// milliseconds: its squiggles then come in the keystroke's own frame, where the worker's answer
// would come a frame or two later (the page's thread paints the keystroke first). When the look
// cannot decide every verdict in that time it shows nothing, and none is tried for a while.
const QUICK_TEXT = 20000; // UTF-16 units
const QUICK_MS = 3;
const QUICK_SLOW_MS = 12;
const QUICK_PAUSE_MS = 2000;
let quickPausedUntil = 0;

function quickLook(view) {
  const page = boot.page;
  const doc = view.state.doc;
  const started = performance.now();
  if (!page || doc.length > QUICK_TEXT || started < quickPausedUntil || shown.doc === doc) return;
  let json;
  try {
    json = page.quick(doc.toString(), QUICK_MS);
  } catch {
    boot.page = null; // the worker's checks go on
    return;
  }
  // Undecided in time, or far slower than its budget (a long text's parse): the text is not
  // one for quick looks, for a while.
  if (json === undefined || performance.now() - started > QUICK_SLOW_MS) {
    quickPausedUntil = performance.now() + QUICK_PAUSE_MS;
  }
  if (json !== undefined && view.state.doc === doc) {
    showDiagnostics(view, doc, json);
    stats.quickLooks++;
  }
}

// ------------------------------------------------------------------ highlighting by meaning

// Ask for the meanings of the lines in view, for the checked text.
async function highlight(view) {
  const doc = view.state.doc;
  if (doc !== checkedDoc) return;
  const { from, to } = view.viewport;
  const flat = await checker.call("tokens", from, to);
  if (view.state.doc === doc) view.dispatch({ effects: showMeanings(flat, doc.length) });
}

let scrollTimer = 0;
function highlightAfterScroll(view) {
  clearTimeout(scrollTimer);
  scrollTimer = setTimeout(() => highlight(view), 50);
}

// ------------------------------------------------------------------ completion

// The core's completion at `pos` of `state`'s text, once the checker holds that text.
async function completeAt(state, pos) {
  if (!(await whenChecked(view)) || view.state.doc !== state.doc) return null;
  const answer = await checker.call("complete", pos);
  return view.state.doc === state.doc ? answer : null;
}

function toCodeMirror(d, length) {
  const from = Math.min(d.from, length);
  const to = Math.min(Math.max(d.to, from), length);
  const related = d.related.map((r) => r.message).filter(Boolean);
  const message = related.length ? `${d.message}\n${related.join("\n")}` : d.message;
  return { from, to, severity: d.severity, source: d.code, message };
}

// ------------------------------------------------------------------ hover

const hover = hoverTooltip(async (view, pos) => {
  if (view.state.doc !== checkedDoc) return null;
  const text = await checker.call("hover", pos);
  if (text === null || view.state.doc !== checkedDoc) return null;
  return {
    pos,
    above: true,
    create: () => {
      const dom = document.createElement("div");
      dom.className = "hover";
      dom.append(...renderMarkdown(text));
      return { dom };
    },
  };
});

// ------------------------------------------------------------------ links pasted in

const LINK = /^\s*(https?:\/\/)?[^\s]*(f-puzzles\.com|sudokupad\.app|crackingthecryptic\.com|sigh\.github\.io)[^\s]*\s*$/i;

const pasteLinks = EditorView.domEventHandlers({
  paste(event, view) {
    const pasted = event.clipboardData?.getData("text/plain") ?? "";
    if (!LINK.test(pasted)) return false;
    event.preventDefault();
    importInto(view, pasted.trim());
    return true;
  },
});

async function importInto(view, link) {
  try {
    const text = await checker.call("importLink", link);
    const { from, to } = view.state.selection.main;
    view.dispatch({ changes: { from, to, insert: text }, selection: { anchor: from } });
    say("The link became .sudoku text.");
  } catch (error) {
    say(`That link could not be read: ${error.message}`, true);
  }
}

// ------------------------------------------------------------------ the puzzle beside

// The picture follows the cursor and each check at once (drawing is quick); the panel's rating
// and steps wait until typing pauses, and only the newest is worked out: a rating of a hard
// puzzle can take seconds, and each keystroke would otherwise start another.
const PICTURE_DELAY_MS = 60;
const PANEL_DELAY_MS = 400;
let pictureTimer = 0;
let panelTimer = 0;
function showPuzzle(view) {
  clearTimeout(pictureTimer);
  pictureTimer = setTimeout(() => drawPicture(view), PICTURE_DELAY_MS);
  clearTimeout(panelTimer);
  panelTimer = setTimeout(() => rateInPanel(view), PANEL_DELAY_MS);
}

async function drawPicture(view) {
  const doc = view.state.doc;
  if (doc !== checkedDoc) return;
  const svg = await checker.call("picture", view.state.selection.main.head);
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

// ------------------------------------------------------------------ buttons

async function whenChecked(view) {
  await check(view);
  return view.state.doc === checkedDoc;
}

async function solve(view) {
  if (!(await whenChecked(view))) return;
  const doc = view.state.doc;
  const edits = await checker.call("solve", view.state.selection.main.head);
  if (view.state.doc !== doc) return;
  if (edits === null) {
    say("Not solved: the puzzle does not have exactly one solution.", true);
    return;
  }
  view.dispatch({ changes: edits.map((e) => ({ from: e.from, to: e.to, insert: e.insert })) });
  say(`Solved: ${edits.length} cells filled.`);
}

async function applyEdits(view, method, said) {
  if (!(await whenChecked(view))) return;
  const doc = view.state.doc;
  let answer;
  try {
    answer = await checker.call(method, view.state.selection.main.head);
  } catch (error) {
    say(error.message, true);
    return;
  }
  if (view.state.doc !== doc) return;
  if (answer.error) {
    say(answer.error, true);
    return;
  }
  const edits = answer.edits ?? answer;
  view.dispatch({ changes: edits.map((e) => ({ from: e.from, to: e.to, insert: e.insert })) });
  say(said(answer));
}

const nextStep = (view) => applyEdits(view, "nextStep", (answer) => answer.title.replace(/^Apply next step/, "Applied the next step"));
const fillMarks = (view) => applyEdits(view, "fillMarks", (edits) => `Pencil marks written in ${edits.length} cells.`);

// Each click on the same text goes a level further: where to look, the technique, the step.
let hinted = { doc: null, level: 0 };
async function hint(view) {
  if (!(await whenChecked(view))) return;
  const doc = view.state.doc;
  const level = hinted.doc === doc ? Math.min(hinted.level + 1, 3) : 1;
  try {
    const text = await checker.call("hint", view.state.selection.main.head, level);
    hinted = { doc, level };
    say(`Hint ${level}/3: ${text}`);
  } catch (error) {
    say(error.message, true);
  }
}

async function format(view) {
  if (!(await whenChecked(view))) return;
  const doc = view.state.doc;
  const text = await checker.call("format");
  if (view.state.doc !== doc || text === doc.toString()) return;
  view.dispatch({ changes: { from: 0, to: doc.length, insert: text } });
  say("Formatted.");
}

async function link(view, to) {
  if (!(await whenChecked(view))) return null;
  try {
    const url = await checker.call("link", view.state.selection.main.head, to);
    document.getElementById("link-out").value = url;
    return url;
  } catch (error) {
    say(error.message, true);
    return null;
  }
}

async function copyLink(view) {
  const url = await link(view, "fpuzzles");
  if (url === null) return;
  try {
    await navigator.clipboard.writeText(url);
    say("The f-puzzles link is copied.");
  } catch {
    say("The f-puzzles link is below: copy it from there.");
  }
}

async function openSudokuPad(view) {
  const url = await link(view, "sudokupad");
  if (url !== null) window.open(url, "_blank", "noopener");
}

// ------------------------------------------------------------------ the page

const view = new EditorView({
  parent: document.getElementById("editor"),
  state: EditorState.create({
    doc: boot.text,
    extensions: [
      lineNumbers(),
      highlightSpecialChars(),
      undoHistory(),
      drawSelection(),
      highlightActiveLine(),
      highlightSelectionMatches(),
      lintGutter(),
      hover,
      meanings,
      completion(completeAt),
      pasteLinks,
      keymap.of([...defaultKeymap, ...historyKeymap, ...searchKeymap]),
      EditorView.domEventHandlers({
        keydown(event) {
          keyAt = event.timeStamp;
        },
      }),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) {
          // From the key that made the change, when one did.
          const now = performance.now();
          changedAt ??= keyAt !== null && now - keyAt < 200 ? keyAt : now;
          keyAt = null;
          stopSettling();
          queueMicrotask(() => quickLook(update.view)); // once this update is done
          check(update.view);
        } else if (update.selectionSet) {
          showPuzzle(update.view);
        }
        if (update.viewportChanged && !update.docChanged) highlightAfterScroll(update.view);
      }),
    ],
  }),
});

document.getElementById("solve").onclick = () => solve(view);
document.getElementById("format").onclick = () => format(view);
document.getElementById("next-step").onclick = () => nextStep(view);
document.getElementById("hint").onclick = () => hint(view);
document.getElementById("marks").onclick = () => fillMarks(view);
document.getElementById("copy-link").onclick = () => copyLink(view);
document.getElementById("sudokupad").onclick = () => openSudokuPad(view);
document.getElementById("import").onclick = () => {
  const input = document.getElementById("link-in");
  if (input.value.trim()) importInto(view, input.value.trim());
};

performance.mark("editor");
window.sudokuPlayground = { view, stats, shown: () => shown.json };
// Offline once loaded: the service worker keeps every file of the page. Registered once the
// first check is shown and the page is idle, since its install fetches and compiles every file.
check(view).then(() => setTimeout(keepOffline, 500));

function keepOffline() {
  if ("serviceWorker" in navigator && location.protocol.startsWith("http")) {
    navigator.serviceWorker.register("sw.js").catch(() => {});
  }
}
