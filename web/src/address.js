// The text in the page's address, so that a link shares the puzzle.
import { page, say } from "./page.js";

// The text goes into the address once typing pauses, compressed in the worker (LZ-String; a
// long text takes the page's thread hundreds of milliseconds). A text too long for an address
// is not put there, and the message says so.
const ADDRESS_TEXT = 1_000_000; // UTF-16 units: some 300,000 characters of address
let addressTimer = 0;
let tooLongSaid = false;
export function keepInAddress(view, doc) {
  clearTimeout(addressTimer);
  addressTimer = setTimeout(async () => {
    if (view.state.doc !== doc || page.checkedDoc !== doc) return;
    if (doc.length > ADDRESS_TEXT) {
      if (location.hash) history.replaceState(null, "", location.pathname + location.search);
      if (!tooLongSaid) say("This text is too long for the page's address: copy the text itself to share it.");
      tooLongSaid = true;
      page.stats.addressed = null;
      return;
    }
    tooLongSaid = false;
    const encoded = await page.checker.call("address");
    if (view.state.doc !== doc) return;
    history.replaceState(null, "", `#text=${encoded}`);
    page.stats.addressed = doc.toString();
  }, 300);
}
