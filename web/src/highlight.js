// Highlighting by meaning: the core says what each stretch of the text is (a given, an entry,
// pencil marks, an empty cell, a border, metadata, a comment, a constraint's keyword, number,
// cells and words; a digit in conflict) for the lines in view, and this paints them. Between a
// keystroke and the core's next answer the last answer's marks move with the text.
import { RangeSetBuilder, StateEffect, StateField } from "@codemirror/state";
import { Decoration, EditorView } from "@codemirror/view";
import { CONFLICT, MEANINGS } from "./meanings.js";

const plain = MEANINGS.map((m) => Decoration.mark({ class: `tok-${m}` }));
const conflicting = MEANINGS.map((m) => Decoration.mark({ class: `tok-${m} tok-conflict` }));

const setMeanings = StateEffect.define();

export const meanings = StateField.define({
  create: () => Decoration.none,
  update(marks, transaction) {
    marks = marks.map(transaction.changes);
    for (const effect of transaction.effects) if (effect.is(setMeanings)) marks = effect.value;
    return marks;
  },
  provide: (field) => EditorView.decorations.from(field),
});

// The effect that shows the core's `tokens` answer (flat from, to, meaning triples in text
// order, for a text of `length` UTF-16 units).
export function showMeanings(flat, length) {
  const builder = new RangeSetBuilder();
  for (let i = 0; i + 2 < flat.length; i += 3) {
    const [from, to, meaning] = [flat[i], flat[i + 1], flat[i + 2]];
    const marks = meaning & CONFLICT ? conflicting : plain;
    const mark = marks[meaning & 0xff];
    if (mark && from < to && to <= length) builder.add(from, to, mark);
  }
  return setMeanings.of(builder.finish());
}
