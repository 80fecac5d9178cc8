// What the editor's code actions and commands do, as buttons: solve, the next step, hints,
// pencil marks, format, the links out; and links pasted in, which become `.sudoku` text.
import { isolateHistory } from "@codemirror/commands";
import { EditorView } from "@codemirror/view";
import { whenChecked } from "./checks.js";
import { page, say } from "./page.js";

// What a button writes is its own step to undo, whatever was typed just before.
const ownStep = isolateHistory.of("full");

// ------------------------------------------------------------------ links pasted in

const LINK = /^\s*(https?:\/\/)?[^\s]*(f-puzzles\.com|sudokupad\.app|crackingthecryptic\.com|sigh\.github\.io)[^\s]*\s*$/i;

export const pasteLinks = EditorView.domEventHandlers({
  paste(event, view) {
    const pasted = event.clipboardData?.getData("text/plain") ?? "";
    if (!LINK.test(pasted)) return false;
    event.preventDefault();
    importInto(view, pasted.trim());
    return true;
  },
});

export async function importInto(view, link) {
  try {
    const text = await page.checker.call("importLink", link);
    const { from, to } = view.state.selection.main;
    view.dispatch({ changes: { from, to, insert: text }, selection: { anchor: from }, annotations: ownStep });
    say("The link became .sudoku text.");
  } catch (error) {
    say(`That link could not be read: ${error.message}`, true);
  }
}

// ------------------------------------------------------------------ buttons

// The core's edits are `{from, to, insert}` in the text's UTF-16 offsets: CodeMirror's own
// change specs, dispatched as they come.
export async function solve(view) {
  if (!(await whenChecked(view))) return;
  const doc = view.state.doc;
  const edits = await page.checker.call("solve", view.state.selection.main.head);
  if (view.state.doc !== doc) return;
  if (edits === null) {
    say("Not solved: the puzzle does not have exactly one solution.", true);
    return;
  }
  view.dispatch({ changes: edits, annotations: ownStep });
  say(`Solved: ${edits.length} cells filled.`);
}

async function applyEdits(view, method, said) {
  if (!(await whenChecked(view))) return;
  const doc = view.state.doc;
  let answer;
  try {
    answer = await page.checker.call(method, view.state.selection.main.head);
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
  view.dispatch({ changes: edits, annotations: ownStep });
  say(said(answer));
}

export const nextStep = (view) => applyEdits(view, "nextStep", (answer) => answer.title.replace(/^Apply next step/, "Applied the next step"));
export const fillMarks = (view) => applyEdits(view, "fillMarks", (edits) => `Pencil marks written in ${edits.length} cells.`);

// Each click on the same text goes a level further: where to look, the technique, the step.
let hinted = { doc: null, level: 0 };
export async function hint(view) {
  if (!(await whenChecked(view))) return;
  const doc = view.state.doc;
  const level = hinted.doc === doc ? Math.min(hinted.level + 1, 3) : 1;
  try {
    const text = await page.checker.call("hint", view.state.selection.main.head, level);
    hinted = { doc, level };
    say(`Hint ${level}/3: ${text}`);
  } catch (error) {
    say(error.message, true);
  }
}

export async function format(view) {
  if (!(await whenChecked(view))) return;
  const doc = view.state.doc;
  const text = await page.checker.call("format");
  if (view.state.doc !== doc || text === doc.toString()) return;
  view.dispatch({ changes: { from: 0, to: doc.length, insert: text }, annotations: ownStep });
  say("Formatted.");
}

async function link(view, to) {
  if (!(await whenChecked(view))) return null;
  try {
    const url = await page.checker.call("link", view.state.selection.main.head, to);
    document.getElementById("link-out").value = url;
    return url;
  } catch (error) {
    say(error.message, true);
    return null;
  }
}

export async function copyLink(view) {
  const url = await link(view, "fpuzzles");
  if (url === null) return;
  try {
    await navigator.clipboard.writeText(url);
    say("The f-puzzles link is copied.");
  } catch {
    say("The f-puzzles link is below: copy it from there.");
  }
}

export async function openSudokuPad(view) {
  const url = await link(view, "sudokupad");
  if (url !== null) window.open(url, "_blank", "noopener");
}
