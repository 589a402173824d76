/* The writes waiting on this phone drawn among the game's entries, their cards taken in the picker; a refusal with Correct and Drop. */
import { $, $$, fill, wordsOf } from "./page.js";
import { flush } from "./send.js";
import * as outbox from "./outbox.js";

/* Draw the waiting writes (those this tab is sending show as sent already) and take their cards. */
export function draw(entry, items) {
  $$(document, "ol.entries > li[data-outbox]").forEach((line) => line.remove());
  let list = $(document, "ol.entries");
  if (!list && items.length) {
    list = document.createElement("ol");
    list.className = "entries";
    entry.form.after(list);
  }
  items.forEach((item) => {
    if ($(document, `ol.entries > li[data-waiting][data-outbox-id="${item.id}"]`)) { return; }
    const line = document.createElement("li");
    line.setAttribute("data-outbox", item.id);
    line.innerHTML = '<span class="kind"></span> <span class="cards"></span> <span class="actions"><button type="button" class="small" data-outbox-delete></button></span>';
    $(line, ".kind").textContent = entry.text("queued");
    $(line, ".cards").textContent = item.label;
    $(line, "button").textContent = entry.text("delete");
    $(line, "button").addEventListener("click", () => outbox.remove(item.id));
    list.insertBefore(line, list.firstChild);
  });
  entry.grid.waiting = [].concat(...items.map((item) => item.cards || []));
  entry.refresh();
  const refused = items.find((item) => item.refused);
  if (refused) { sayRefused(entry, refused); }
}

/* Named in the bar with the server's reason: Correct (its cards back into the form, out of the
   outbox) or Drop; then what waits behind it goes. */
function sayRefused(entry, item) {
  entry.say("✗ " + fill(wordsOf(entry.banner)("refused"), { label: item.label, reason: item.refused }), "bad");
  const choices = [
    ["correct", () => {
      const cards = item.fields.find((pair) => pair[0] === "cards");
      return outbox.remove(item.id).then(() => {
        if (cards) { entry.field.value = cards[1]; }
        // Recorded again, it keeps the time it was first tapped: if it then reaches the server
        // after entries tapped later, the bar says so (send.js).
        entry.correcting = item.tapped || null;
      });
    }],
    ["drop", () => outbox.remove(item.id)],
  ];
  choices.forEach(([name, act]) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "small";
    b.setAttribute("data-outbox-" + name, "");
    b.textContent = entry.text(name);
    b.addEventListener("click", () => {
      act().then(() => { entry.idle = null; entry.refresh(); return flush(entry.session); });
    });
    entry.preview.append(" ", b);
  });
}
