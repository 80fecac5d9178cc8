// Hover: what the core says of the cell, constraint or title under the mouse, as Markdown.
import { hoverTooltip } from "@codemirror/view";
import { renderMarkdown } from "./markdown.js";
import { page } from "./page.js";

export const hover = hoverTooltip(async (view, pos) => {
  if (view.state.doc !== page.checkedDoc) return null;
  const text = await page.checker.call("hover", pos);
  if (text === null || view.state.doc !== page.checkedDoc) return null;
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
