// The playground page: a CodeMirror editor holding `.sudoku` text, checked by the core in a
// worker as you type (squiggles, highlighting, hover, completion), the picture and the verdict,
// rating and steps of the puzzle under the cursor beside it, and buttons for what the editor's
// code actions and commands do. The page's address holds the text, so a link shares the puzzle.
//
// The parts: page.js (what they share), checks.js (checking as you type), address.js,
// beside.js (the picture and the panel), hover.js, completion.js, highlight.js, actions.js
// (the buttons, links pasted in), examples.js, theme.js. This file makes the editor and wires them to it.
import { EditorState } from "@codemirror/state";
import {
  EditorView,
  drawSelection,
  highlightActiveLine,
  highlightSpecialChars,
  keymap,
  lineNumbers,
} from "@codemirror/view";
import { defaultKeymap, history as undoHistory, historyKeymap } from "@codemirror/commands";
import { lintGutter } from "@codemirror/lint";
import { highlightSelectionMatches, searchKeymap } from "@codemirror/search";
import {
  copyLink,
  fillMarks,
  format,
  hint,
  importInto,
  nextStep,
  openSudokuPad,
  pasteLinks,
  solve,
} from "./actions.js";
import { showPuzzle } from "./beside.js";
import {
  check,
  completeAt,
  dispatchWithQuickLook,
  highlightAfterScroll,
  keyDown,
  shownJson,
  textChanged,
} from "./checks.js";
import { completion } from "./completion.js";
import { offerExamples } from "./examples.js";
import { meanings } from "./highlight.js";
import { hover } from "./hover.js";
import { page, say } from "./page.js";
import { followScheme, theme } from "./theme.js";

performance.mark("main");

const view = new EditorView({
  parent: document.getElementById("editor"),
  dispatchTransactions: dispatchWithQuickLook,
  state: EditorState.create({
    doc: page.boot.text,
    extensions: [
      theme(),
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
      EditorView.domEventHandlers({ keydown: keyDown }),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) {
          textChanged(update.view);
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
offerExamples(document.getElementById("examples"), view);
document.getElementById("import").onclick = () => {
  const input = document.getElementById("link-in");
  if (input.value.trim()) importInto(view, input.value.trim());
};

// boot.js's drawing of the first text goes in the task that built the editor: no frame shows both.
document.getElementById("early")?.remove();
if (page.boot.problem) say(page.boot.problem, true);
performance.mark("editor");
page.stats.editorMs = performance.now();
page.view = view;
followScheme(view);
window.sudokuPlayground = { view, stats: page.stats, shown: shownJson };
// Offline once loaded: the service worker keeps every file of the page. Registered once the
// first check is shown and the page is idle, since its install fetches and compiles every file.
check(view).then(() => setTimeout(keepOffline, 500));

function keepOffline() {
  if ("serviceWorker" in navigator && location.protocol.startsWith("http")) {
    navigator.serviceWorker.register("sw.js").catch(() => {});
  }
}
