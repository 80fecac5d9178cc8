// The hover's Markdown is the little the core writes (analysis::prose): paragraphs, "- " lists,
// **bold** and backslash escapes. Built as DOM nodes, so no text of a puzzle is read as HTML.
export function renderMarkdown(markdown) {
  return markdown.split("\n\n").map((block) => {
    const lines = block.split("\n");
    const items = lines.filter((line) => line.startsWith("- "));
    const head = lines.filter((line) => !line.startsWith("- ")).join(" ");
    const element = document.createElement("div");
    if (head) {
      const p = document.createElement("p");
      p.append(...inline(head));
      element.append(p);
    }
    if (items.length) {
      const ul = document.createElement("ul");
      for (const line of items) {
        const li = document.createElement("li");
        li.append(...inline(line.slice(2)));
        ul.append(li);
      }
      element.append(ul);
    }
    return element;
  });
}

function inline(text) {
  const nodes = [];
  // Split on **…** (bold), then undo the escapes in each piece.
  const parts = text.split(/(\*\*(?:\\.|[^*])+\*\*)/);
  for (const part of parts) {
    if (part.startsWith("**") && part.endsWith("**") && part.length > 4) {
      const strong = document.createElement("strong");
      strong.textContent = unescape(part.slice(2, -2));
      nodes.push(strong);
    } else if (part) {
      nodes.push(document.createTextNode(unescape(part)));
    }
  }
  return nodes;
}

function unescape(text) {
  return text.replace(/\\(.)/g, "$1");
}
