// The editor's colours in a dark colour scheme (the page follows the system's: style.css says
// `color-scheme: light dark`); CodeMirror's own are for a light page, its cursor black. The
// editor follows a change of scheme while the page is open, as the page's own colours do.
import { Compartment } from "@codemirror/state";
import { EditorView } from "@codemirror/view";

const dark = EditorView.theme(
  {
    "&": { color: "#d4d4d4" },
    ".cm-content": { caretColor: "#e8e8e8" },
    ".cm-cursor, .cm-dropCursor": { borderLeftColor: "#e8e8e8" },
    "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground":
      { backgroundColor: "#264f78" },
    ".cm-gutters": { backgroundColor: "#1e1f22", color: "#8a939b", borderRightColor: "#3a3d41" },
    ".cm-activeLine": { backgroundColor: "#ffffff0d" },
    ".cm-activeLineGutter": { backgroundColor: "#ffffff1a" },
    ".cm-tooltip": { backgroundColor: "#2b2d30", color: "#d4d4d4", border: "1px solid #4a4d51" },
    ".cm-tooltip-autocomplete > ul > li[aria-selected]": { backgroundColor: "#264f78", color: "#fff" },
    ".cm-selectionMatch": { backgroundColor: "#ffffff1f" },
  },
  { dark: true },
);

const scheme = window.matchMedia?.("(prefers-color-scheme: dark)");
const chosen = new Compartment();
const forScheme = () => (scheme?.matches ? [dark] : []);

// The theme for the system's colour scheme, for the editor's extensions.
export function theme() {
  return chosen.of(forScheme());
}

// Change `view`'s theme whenever the system's colour scheme changes.
export function followScheme(view) {
  scheme?.addEventListener("change", () => view.dispatch({ effects: chosen.reconfigure(forScheme()) }));
}
