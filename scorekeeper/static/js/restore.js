/* "Restore" after an undo or a delete: for a few seconds the bar offers to record the entry again, as a new entry checked anew. */
import { $ } from "./page.js";
import { write } from "./send.js";
import * as outbox from "./outbox.js";
import { onRedrawn, redraw } from "./live.js";
import { bar } from "./entry.js";

const OFFERED_MS = 8000;
let restoring = null;
let stop = null;

const preview = () => $(document, "form[data-entry] [data-preview]");

export function offerRestore(restore, said) {
  if (!preview()) { return; }
  clearTimeout(restoring);
  if (stop) { stop(); }
  const b = document.createElement("button");
  b.type = "button";
  b.className = "small";
  b.setAttribute("data-restore", "");
  b.textContent = preview().closest("form").getAttribute("data-t-restore") || "Restore";
  b.addEventListener("click", () => {
    b.disabled = true;
    const banner = $(document, "[data-offline]");
    const session = banner ? banner.getAttribute("data-offline") : "";
    const fields = Object.keys(restore.fields).map((name) => [name, String(restore.fields[name])]);
    write(session, { url: restore.url, fields }, { label: said }).then(({ item, answer }) => answer.then((result) => {
      if (result.waits || result.refused) {
        // Restored only while the server answers: nothing is kept for later.
        b.disabled = Boolean(result.refused);
        outbox.remove(item.id);
      }
      if (result.waits || result.elsewhere) { return; }
      const now = preview();
      const words = result.body.line ? "✓ " + result.body.said : "✗ " + result.body.error;
      if (now) { now.innerHTML = words; now.className = "preview " + (result.body.line ? "ok" : "bad"); }
      if (result.body.line) { redraw(words, result.body.entry == null ? null : String(result.body.entry)); }
    })).catch(() => { b.disabled = false; });
  });
  const put = () => {
    const now = preview();
    if (now && !$(now, "[data-restore]")) { now.append(" ", b); }
  };
  put();
  bar.offered = b;
  stop = onRedrawn(put);
  restoring = setTimeout(() => {
    stop();
    stop = null;
    bar.offered = null;
    if (b.parentNode) { b.remove(); }
  }, OFFERED_MS);
}
