/* The writes waiting on this phone drawn among the game's entries, their cards taken in the picker; a refusal with Correct and Drop. */
import { $, $$, fill, wordsOf } from "./page.js";
import { Draft } from "./draft.js";
import { flush } from "./send.js";
import * as outbox from "./outbox.js";

// The refused write the recorder is correcting in the entry form (its id and session), kept
// through the live table's redraws: it stays in the outbox, at the head of the queue, until
// the correction is recorded in its place (record.js, send.js: revise) or dropped.
let correcting = null;

/* The refused write being corrected in the session's entry form, taken over by the record of
   the correction: its id, or null. */
export function correction(session) {
  const id = correcting && correcting.session === String(session) ? correcting.id : null;
  correcting = null;
  return id;
}

const corrected = (item) => Boolean(correcting) && correcting.id === item.id;

/* Draw the waiting writes (those this tab is sending show as sent already) and take their cards. */
export function draw(entry, items) {
  $$(document, "ol.entries > li[data-outbox]").forEach((line) => line.remove());
  if (correcting && correcting.session === entry.session && !items.some(corrected)) { correcting = null; }
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
    $(line, ".kind").textContent = entry.text(corrected(item) ? "correcting" : "queued");
    $(line, ".cards").textContent = item.label;
    $(line, "button").textContent = entry.text("delete");
    $(line, "button").addEventListener("click", () => drop(entry, item));
    list.insertBefore(line, list.firstChild);
  });
  // The cards of the write being corrected are in the form now, picked.
  entry.grid.waiting = [].concat(...items.filter((item) => !corrected(item)).map((item) => item.cards || []));
  drawMelds(entry, items);
  const refused = items.find((item) => item.refused && !corrected(item));
  // Said in the bar whenever nothing is begun (entry.js: check), until corrected or dropped.
  entry.refusal = refused ? () => sayRefused(entry, refused) : null;
  entry.refresh();
}

// The melds of writes waiting here, as the form offers them: "waiting:<write>:<which meld>".
const MELDS = /\/games\/\d+\/melds$/;
const PENDING = /^waiting:(.+):(\d+)$/;
// The waiting meld the recorder chose to lay off onto, chosen again when the table is drawn anew.
let wanted = null;

/* The melds of the writes waiting (or being sent) greyed on the table: a layoff may be tapped
   onto one at once, online or offline; it is sent after the meld, with the meld's id. */
function drawMelds(entry, items) {
  const table = $(entry.form, "fieldset.table-melds");
  if (!table) { return; }
  $$(table, "label[data-pending-meld]").forEach((label) => label.remove());
  if (!table.hasAttribute("data-pending-heard")) {
    table.setAttribute("data-pending-heard", "");
    table.addEventListener("change", (event) => {
      if (event.target.name === "meld") { wanted = event.target.hasAttribute("data-pending") ? event.target.value : null; }
    });
  }
  const last = $$(table, "label.meld-choice").pop();
  let at = last ? last.nextSibling : null;
  items.filter((item) => MELDS.test(item.url) && !item.refused && !corrected(item)).forEach((item) => {
    const draft = Draft.fromFields(item.fields);
    const player = $(entry.form, `input[name=player][value="${CSS.escape(draft.player)}"]`);
    const name = player ? player.closest("label").textContent.replace("✓", "").trim() : "";
    draft.melds.split("\n").concat([draft.cards]).map((line) => line.trim()).filter(Boolean).forEach((line, which) => {
      const cards = entry.letters.labels(entry.read(line));
      const label = document.createElement("label");
      label.className = "meld-choice pending";
      label.setAttribute("data-pending-meld", "");
      label.innerHTML = '<input type="radio" name="meld" data-pending><span><span class="who"><bdi></bdi></span> <span class="kind"></span> <span class="cards"></span></span>';
      const radio = $(label, "input");
      radio.value = `waiting:${item.id}:${which}`;
      radio.setAttribute("data-label", cards);
      radio.addEventListener("change", () => entry.refresh(() => entry.clearPlaces()));
      $(label, "bdi").textContent = name;
      $(label, ".kind").textContent = entry.text("pending");
      $(label, ".cards").textContent = cards;
      table.insertBefore(label, at);
      at = label.nextSibling;
    });
  });
  if (wanted && outbox.meldOf(wanted)) { wanted = outbox.meldOf(wanted); }
  const again = wanted && $(table, `input[name=meld][value="${CSS.escape(wanted)}"]`);
  if (again && !entry.onto()) { again.checked = true; }
}

/* The waiting meld a layoff goes onto (its radio chosen in the form): {write, at}, or null. */
export function pendingMeld(radio) {
  const found = radio ? PENDING.exec(radio.value) : null;
  return found ? { write: found[1], at: Number(found[2]) } : null;
}

/* A waiting write dropped by the recorder; the one being corrected takes its cards out of the form. */
function drop(entry, item) {
  const mine = corrected(item);
  if (mine) { correcting = null; }
  return outbox.remove(item.id).then(() => {
    if (mine) { entry.putBack(Draft.of(entry.form).with({ cards: "", melds: "", meld: "", newMeld: "" })); }
    return flush(entry.session);
  });
}

/* Named in the bar with the server's reason: Correct (the whole entry back into the form, as it
   was tapped: its player, the meld it went onto, the mode and every card; it stays in the
   outbox until the correction is recorded in its place) or Drop; then what waits behind it goes. */
function sayRefused(entry, item) {
  // A layoff or swap onto a meld the page no longer shows (undone meanwhile): said so, as the
  // server's reason names only the form's field.
  const onto = item.fields.find((pair) => pair[0] === "meld");
  const gone = onto?.[1] && !PENDING.test(onto[1]) && !$(entry.form, `input[name=meld][value="${CSS.escape(onto[1])}"]`);
  const reason = gone ? entry.text("meld-gone") : item.refused;
  entry.say("✗ " + fill(wordsOf(entry.banner)("refused"), { label: item.label, reason }), "bad");
  const choices = [];
  // Only an entry of the form can be put back into it (a refused finish or delete is dropped).
  if (item.fields.some((pair) => pair[0] === "cards")) {
    choices.push(["correct", () => {
      correcting = { id: item.id, session: entry.session };
      entry.idle = null;
      entry.putBack(Draft.fromFields(item.fields));
      entry.drawQueued();
    }]);
  }
  choices.push(["drop", () => drop(entry, item).then(() => {
    entry.idle = null;
    entry.refusal = null;
    entry.refresh();
    // A layoff onto the meld dropped is refused now: drawn with its reason.
    entry.drawQueued();
  })]);
  choices.forEach(([name, act]) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "small";
    b.setAttribute("data-outbox-" + name, "");
    b.textContent = entry.text(name);
    b.addEventListener("click", act);
    entry.preview.append(" ", b);
  });
}
