// The example puzzles the project ships (puzzles/), offered in a list above the text: each
// replaces the text when chosen (undo brings it back).
import { isolateHistory } from "@codemirror/commands";
import EASY from "../../puzzles/easy.sudoku";
import HARD from "../../puzzles/hard.sudoku";
import MARKS from "../../puzzles/marks.sudoku";
import DIAGONAL from "../../puzzles/diagonal.sudoku";
import WINDOKU from "../../puzzles/windoku.sudoku";
import SIX from "../../puzzles/6x6.sudoku";
import SIXTEEN from "../../puzzles/16x16.sudoku";
import KILLER from "../../puzzles/variants/killer.sudoku";
import THERMO from "../../puzzles/variants/thermo.sudoku";
import ARROW from "../../puzzles/variants/arrow.sudoku";
import KROPKI from "../../puzzles/variants/kropki.sudoku";
import XV from "../../puzzles/variants/xv.sudoku";
import JIGSAW from "../../puzzles/variants/jigsaw.sudoku";
import COLLECTION from "../../puzzles/collection.sudoku";

export const EXAMPLES = [
  ["Classic, gentle", EASY],
  ["Classic, 24 clues", HARD],
  ["Pencil marks", MARKS],
  ["Diagonal", DIAGONAL],
  ["Windoku", WINDOKU],
  ["6×6", SIX],
  ["16×16", SIXTEEN],
  ["Killer", KILLER],
  ["Thermometers", THERMO],
  ["Arrows", ARROW],
  ["Kropki", KROPKI],
  ["XV", XV],
  ["Jigsaw", JIGSAW],
  ["Twenty classics", COLLECTION],
];

// Fill the list `select` and put the chosen example into the editor `view`.
export function offerExamples(select, view) {
  for (const [name] of EXAMPLES) select.append(new Option(name, name));
  select.onchange = () => {
    const chosen = EXAMPLES.find(([name]) => name === select.value);
    select.value = "";
    if (!chosen) return;
    view.dispatch({
      changes: { from: 0, to: view.state.doc.length, insert: chosen[1] },
      selection: { anchor: 0 },
      scrollIntoView: true,
      annotations: isolateHistory.of("full"), // its own step to undo, whatever came just before
    });
    view.focus();
  };
}
