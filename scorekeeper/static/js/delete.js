/* Deleting an entry on its page, through the queue: back to the game, which says it and offers "Restore", or where it waits. */
import { $, $$ } from "./page.js";
import { flush, write } from "./send.js";
import * as outbox from "./outbox.js";

// The note handed to the game page (entry.js reads it at "pageshow").
const DELETED = "scorekeeper:deleted";

function deletes(form) {
  const part = form.closest("[data-delete]");
  const b = $(form, "button[type=submit]");
  const banner = $(document, "[data-offline]");
  const session = banner ? banner.getAttribute("data-offline") : "";
  const back = () => location.assign(part.getAttribute("data-back"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    b.disabled = true;
    const fields = Array.from(new FormData(form).entries());
    write(session, { url: form.action, fields }, { label: part.getAttribute("data-t-label") }).then(({ item, answer }) => answer.then((result) => {
      // Offline, or no answer: it waits among the game's entries, sent when the server is back.
      if (result.waits || result.elsewhere) { back(); return null; }
      const body = result.body;
      if (result.refused || result.status >= 300 || !body.back) {
        b.disabled = false;
        const problem = $(form.parentNode, "p.error") || document.createElement("p");
        problem.className = "error";
        problem.setAttribute("role", "alert");
        problem.innerHTML = body.error || "";
        form.parentNode.insertBefore(problem, form);
        // Said here, and taken back: it blocks nothing tapped after it.
        return outbox.remove(item.id).then(() => flush(session));
      }
      try { sessionStorage.setItem(DELETED, JSON.stringify({ said: body.said, restore: body.restore })); } catch { /* said by the page's own list */ }
      const to = new URL(body.back, location.href);
      const from = document.referrer ? new URL(document.referrer) : null;
      if (from && from.origin === to.origin && from.pathname === to.pathname && history.length > 1) { history.back(); } else { location.assign(to.href); }
      return null;
    })).catch(() => { b.disabled = false; });
  });
}

if (window.fetch) { $$(document, "[data-delete] form").forEach(deletes); }
