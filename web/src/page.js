// What the page's modules share, as a language server's session holds its documents: the
// editor, the worker that checks (replaced by one that settled a slow verdict), the text that
// worker holds, and the figures a test (or a curious user, from the console) reads.

// What boot.js started before the editor's script was read: the first check, the checker.
const boot = globalThis.sudokuBoot;

export const page = {
  boot,
  view: null, // the editor, once main.js has made it
  checker: boot.checker, // checks, hovers, solves: quick answers about the current text
  // The text the checker holds, once its diagnostics are shown: hover and the buttons ask
  // about it, and only while the editor still shows it.
  checkedDoc: null,
  // When the first squiggles were shown (boot.js's drawing painted, or the editor's, whichever
  // came first) and the editor was built, each check's time from the keystroke to its
  // squiggles, how many squiggles came from a quick look on the page's thread, how many texts
  // were settled, the text the address holds.
  stats: { firstDiagnosticsMs: null, editorMs: null, checks: [], quickLooks: 0, settled: 0, addressed: null },
};

boot.painted?.then((at) => {
  const shown = page.stats.firstDiagnosticsMs;
  if (at !== null && (shown === null || at < shown)) page.stats.firstDiagnosticsMs = at;
});

const message = document.getElementById("message");

// A line in the footer: what a button did, or why it could not.
export function say(text, isError = false) {
  message.textContent = text;
  message.classList.toggle("error", isError);
}
