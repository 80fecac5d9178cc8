// Checking as you type: every text goes to the worker (its answer is the one hover and the
// buttons go by); a short one also gets a quick look on the page's thread; a verdict the
// worker's 300 ms could not decide is settled once typing pauses; the meanings of the lines in
// view follow each check.
import { setDiagnostics } from "@codemirror/lint";
import { keepInAddress } from "./address.js";
import { showPuzzle } from "./beside.js";
import { showMeanings } from "./highlight.js";
import { page, say } from "./page.js";

let checking = null; // the running checks' loop, which ends once the newest text is checked
let changedAt = null; // when the oldest change whose squiggles are not shown yet was made
let keyAt = null; // when the last key went down (the event's own time)
let shown = { doc: null, json: null }; // the text whose squiggles are shown, and they

// Check the editor's text; the promise ends when its newest text is checked (or a check
// failed). While a check runs, another call joins it: its loop sends the newest text next.
export function check(view) {
  checking ??= checkUntilCurrent(view).then((checked) => {
    checking = null;
    // A text typed as the loop ended (not after a failed check, which would fail again).
    if (checked && view.state.doc !== page.checkedDoc) return check(view);
  });
  return checking;
}

async function checkUntilCurrent(view) {
  while (view.state.doc !== page.checkedDoc) {
    const doc = view.state.doc;
    let json;
    let early = null;
    try {
      const text = doc.toString();
      // The first text was checked by boot.js, before the editor was built.
      early = page.boot.first && page.boot.text === text ? await page.boot.first : null;
      page.boot.first = null;
      json = early?.diagnostics ?? (await page.checker.call("update", text));
    } catch (error) {
      say(`The check failed: ${error.message}`, true);
      return false;
    }
    if (view.state.doc !== doc) continue; // typed meanwhile: check the newer text first, show nothing stale
    showDiagnostics(view, doc, json);
    settleLater(view, doc, json);
    page.checkedDoc = doc;
    document.body.dataset.checked = String(page.stats.checks.length);
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
  view.dispatch(lintSpec(view.state, json));
  noteShown(doc, json);
}

// The transaction spec that shows the core's diagnostics (`json`) on `state`'s text.
function lintSpec(state, json) {
  const diagnostics = JSON.parse(json);
  return setDiagnostics(state, diagnostics.map((d) => toCodeMirror(d, state.doc.length)));
}

// `doc`'s squiggles (the core's `json`) are shown now: the time since the change they answer.
function noteShown(doc, json) {
  const now = performance.now();
  if (shown.doc !== doc && changedAt !== null) {
    page.stats.checks.push(now - changedAt);
    changedAt = null;
  }
  shown = { doc, json };
  if (page.stats.firstDiagnosticsMs === null) {
    page.stats.firstDiagnosticsMs = now;
    performance.mark("diagnostics");
  }
}

// A diagnostic of the core's as CodeMirror's lint has it, its related notes in its message.
function toCodeMirror(d, length) {
  const from = Math.min(d.from, length);
  const to = Math.min(Math.max(d.to, from), length);
  const related = d.related.map((r) => r.message).filter(Boolean);
  const message = related.length ? `${d.message}\n${related.join("\n")}` : d.message;
  return { from, to, severity: d.severity, source: d.code, message };
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
  const core = (settler = new page.boot.Core());
  let json;
  try {
    json = await core.call("settle", doc.toString());
  } catch {
    return; // stopped: the text changed
  }
  if (settler !== core) return;
  settler = null;
  // Only in the checker's place while nothing waits on the checker, and for the text it holds.
  if (view.state.doc !== doc || page.checkedDoc !== doc || !page.checker.idle) {
    core.terminate();
    return;
  }
  const old = page.checker;
  page.checker = core;
  old.terminate();
  showDiagnostics(view, doc, json);
  page.stats.settled++;
  highlight(view);
  showPuzzle(view);
}

// ------------------------------------------------------------------ a quick look

// Every check runs in the worker, and its answer is the one hover and the buttons go by. A
// short text is also looked at here, on the page's thread, as the keystroke's change is
// dispatched, with a budget of a few milliseconds: its squiggles then come in the keystroke's own
// update of the editor, where the worker's answer would come a frame or two later (the page's
// thread paints the keystroke first). When the look cannot decide every verdict in that time it
// shows nothing, and none is tried for a while.
const QUICK_TEXT = 20000; // UTF-16 units
const QUICK_MS = 3;
const QUICK_SLOW_MS = 12;
const QUICK_PAUSE_MS = 2000;
let quickPausedUntil = 0;

// The squiggles of a quick look at `doc` (the core's JSON), or undefined.
function quickLook(doc) {
  const here = page.boot.page;
  const started = performance.now();
  if (!here || doc.length > QUICK_TEXT || started < quickPausedUntil) return undefined;
  let json;
  try {
    json = here.quick(doc.toString(), QUICK_MS);
  } catch {
    page.boot.page = null; // the worker's checks go on
    return undefined;
  }
  // Undecided in time, or far slower than its budget (a long text's parse): the text is not
  // one for quick looks, for a while.
  if (json === undefined || performance.now() - started > QUICK_SLOW_MS) {
    quickPausedUntil = performance.now() + QUICK_PAUSE_MS;
  }
  return json;
}

// The editor's dispatch: transactions that change the text are followed, in the same update of
// the editor, by the squiggles of a quick look at the new text when it has them: the keystroke
// and its squiggles reach the page in one update of the editor's DOM, not two.
export function dispatchWithQuickLook(transactions, view) {
  const last = transactions[transactions.length - 1];
  if (!last.docChanged) {
    view.update(transactions);
    return;
  }
  noteChange();
  const doc = last.state.doc;
  const json = quickLook(doc);
  if (json === undefined) {
    view.update(transactions);
    return;
  }
  view.update([...transactions, last.state.update(lintSpec(last.state, json))]);
  noteShown(doc, json);
  page.stats.quickLooks++;
}

// ------------------------------------------------------------------ highlighting by meaning

// Ask for the meanings of the lines in view, for the checked text.
async function highlight(view) {
  const doc = view.state.doc;
  if (doc !== page.checkedDoc) return;
  const { from, to } = view.viewport;
  const flat = await page.checker.call("tokens", from, to);
  if (view.state.doc === doc) view.dispatch({ effects: showMeanings(flat, doc.length) });
}

let scrollTimer = 0;
export function highlightAfterScroll(view) {
  clearTimeout(scrollTimer);
  scrollTimer = setTimeout(() => highlight(view), 50);
}

// ------------------------------------------------------------------ completion

// The core's completion at `pos` of `state`'s text, once the checker holds that text.
export async function completeAt(state, pos) {
  const view = page.view;
  if (!(await whenChecked(view)) || view.state.doc !== state.doc) return null;
  const answer = await page.checker.call("complete", pos);
  return view.state.doc === state.doc ? answer : null;
}

// ------------------------------------------------------------------ the editor's side

// Whether the checker holds the editor's text, once the checks running now are done: what
// the buttons and completion wait for.
export async function whenChecked(view) {
  await check(view);
  return view.state.doc === page.checkedDoc;
}

// A key went down: a change it makes is counted from the key's own event.
export function keyDown(event) {
  keyAt = event.timeStamp;
}

// A change to the text is on its way to the editor: counted from the key that made it, when
// one did.
function noteChange() {
  const now = performance.now();
  changedAt ??= keyAt !== null && now - keyAt < 200 ? keyAt : now;
  keyAt = null;
}

// The text changed: settling stopped, the worker's check started.
export function textChanged(view) {
  stopSettling();
  check(view);
}

// The JSON of the squiggles shown.
export const shownJson = () => shown.json;
