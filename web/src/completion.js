// Completion: what the core offers at the cursor (the digits that fit an empty cell, why the
// others are out; constraint keywords, cage sums and the cells that may come next on a
// constraint line). The list comes on Ctrl+Space anywhere, and by itself when a letter is typed
// (a keyword, a cell's name): typing digits into a grid must not pop a list at every cell.
import { autocompletion, completionStatus, startCompletion } from "@codemirror/autocomplete";
import { EditorView } from "@codemirror/view";

const TYPES = { digit: "constant", keyword: "keyword", sum: "constant", cell: "variable" };

// `ask(pos)` answers the core's `complete` for the editor's text as it is (or null when the
// text changed meanwhile): `{from, to, items}`.
export function completion(ask) {
  async function source(context) {
    const before = context.state.sliceDoc(Math.max(0, context.pos - 1), context.pos);
    if (!context.explicit && !/[A-Za-z]/.test(before)) return null;
    const answer = await ask(context.state, context.pos);
    if (answer === null || context.aborted) return null;
    const digits = answer.items.some((item) => item.kind === "digit");
    return {
      from: answer.from,
      to: answer.to,
      // A cell's digits replace the cell, whatever was typed in it: shown as given, in order.
      filter: !digits,
      options: answer.items.map((item, order) => ({
        label: item.label,
        detail: item.detail ?? undefined,
        info: item.info ?? undefined,
        type: TYPES[item.kind],
        boost: Math.max(-99, 99 - order),
        apply: digits ? replaceCell(item.edit) : item.edit.insert,
      })),
    };
  }
  // Not CodeMirror's own activation on typing: it would ask at every digit typed into a grid
  // (and update the editor twice for each), where only a letter can start a keyword or a cell.
  return [autocompletion({ override: [source], icons: false, activateOnTyping: false }), onLetters];
}

// The list opens by itself when a letter is typed (and none is open).
const onLetters = EditorView.updateListener.of((update) => {
  if (update.docChanged && typedLetter(update) && completionStatus(update.state) === null) {
    setTimeout(() => startCompletion(update.view)); // not within this update
  }
});

function typedLetter(update) {
  let letter = false;
  for (const transaction of update.transactions) {
    if (!transaction.isUserEvent("input.type")) continue;
    transaction.changes.iterChanges((_fromA, _toA, _fromB, _toB, inserted) => {
      letter ||= /^[A-Za-z]$/.test(inserted.toString());
    });
  }
  return letter;
}

// Write a digit over its cell, `edit` (its start is where the list's `from` was; CodeMirror
// hands it on through any change since) and put the cursor after it.
function replaceCell(edit) {
  return (view, _completion, from) => {
    const to = from + (edit.to - edit.from);
    view.dispatch({ changes: { from, to, insert: edit.insert }, selection: { anchor: from + edit.insert.length }, userEvent: "input.complete" });
  };
}
