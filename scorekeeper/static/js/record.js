/* Recording in place: the entry begun sent through the queue, greyed until the server answers; the undo of the latest entry. */
import { $, fill } from "./page.js";
import { Draft } from "./draft.js";
import { flush, inFlight, revise, write } from "./send.js";
import * as outbox from "./outbox.js";
import { redraw } from "./live.js";
import { entry as current } from "./entry.js";
import { correction, pendingMeld } from "./waiting.js";

/* The entry as tapped, greyed at the top of the entries until the server answers. */
function waitingLine(entry, kept, kind) {
  let list = $(document, "ol.entries");
  if (!list) {
    list = document.createElement("ol");
    list.className = "entries";
    const empty = $(document, "#game p.empty");
    if (empty) { empty.replaceWith(list); } else { entry.form.after(list); }
  }
  const line = document.createElement("li");
  line.setAttribute("data-waiting", "");
  const melds = kind === "meld" ? entry.lines().concat(kept.cards.trim() ? [kept.cards.trim()] : []) : [kept.cards];
  const cards = melds.map((one) => entry.letters.labels(entry.read(one))).join(" + ");
  [["who", entry.playerName()], ["kind", entry.text("sending")], ["cards", cards]].forEach((part) => {
    const span = document.createElement("span");
    span.className = part[0];
    span.textContent = part[1];
    line.append(span, " ");
  });
  list.insertBefore(line, list.firstChild);
  return line;
}

/* The cards an entry takes from the hand: every meld of it, or the laid-off or swapped ones. */
function codesOf(entry, kept, kind) {
  const all = [kept.cards, kind === "meld" ? kept.melds : "", kind === "swap" ? kept.newMeld : ""].join("\n");
  return [].concat(...all.split("\n").filter((line) => line.trim()).map((line) => entry.read(line)));
}

/* Record the entry begun: the form's own fields to the form's own address, through the queue. */
export function record(entry, button, kind) {
  const form = entry.form;
  const fields = Array.from(new FormData(form).entries());
  const kept = Draft.of(form);
  const onto = entry.onto();
  const line = waitingLine(entry, kept, kind);
  const cards = codesOf(entry, kept, kind);
  // A refused entry put back to be corrected is sent in its place (waiting.js, send.js).
  const corrects = correction(entry.session);
  entry.idle = "… " + entry.playerName() + ": " + $(line, ".cards").textContent;
  entry.refresh(() => {
    Draft.of(form).with({ cards: "", melds: "", meld: "", newMeld: "" }).into(form);
    entry.clearPlaces();
  });
  entry.say(entry.idle, "waiting");
  const label = entry.idle.slice(2);
  const named = { name: entry.playerName(), cards: $(line, ".cards").textContent };
  const request = { url: button.getAttribute("formaction") || form.action, fields };
  // Onto a meld that waits here: sent after it, with its id (outbox.js: done); dropped, refused.
  const pending = kind === "layoff" ? pendingMeld(onto) : null;
  const meta = { label, cards, onto: pending ? { ...pending, gone: entry.text("meld-not-recorded") } : null };
  (corrects ? revise(entry.session, corrects, request, meta) : write(entry.session, request, meta))
    .then(({ item, answer }) => {
      line.setAttribute("data-outbox-id", item.id);
      return answer.then((result) => answered(entry, line, kept, result, cards, named));
    })
    .catch(() => { line.remove(); entry.putBack(kept); entry.say(entry.text("offline"), "bad"); });
}

function answered(tapped, line, kept, result, cards, named) {
  const entry = current() || tapped;
  if (result.waits) {
    // No answer now (offline, or the server out of reach) or a refusal before it: it waits,
    // and the bar says so where the eyes are, with how many wait, until something is begun.
    line.remove();
    entry.idle = null;
    return cancelledByUndo(entry, result.item).then((cancelled) => {
      if (cancelled) { entry.drawQueued(); return null; }
      return outbox.list(entry.session).then((items) => {
        entry.idle = "… " + fill(entry.text("waiting"), { name: named.name, cards: named.cards, count: items.length });
        entry.drawQueued();
      });
    });
  }
  if (result.elsewhere) {
    line.remove();
    entry.drawQueued();
    return redraw();
  }
  if (result.refused) {
    line.remove();
    // Refused at once with nothing behind it and nothing begun since: back into the form, as
    // it was. Else it stays at the head of the queue, to correct or drop (waiting.js).
    return outbox.list(entry.session).then((items) => {
      const last = items[items.length - 1];
      if (last && last.id === result.item.id && !Draft.of(entry.form).begun) {
        return outbox.remove(last.id).then(() => {
          entry.putBack(kept);
          entry.say("✗ " + result.body.error, "bad", Boolean(result.body.refused));
        });
      }
      entry.drawQueued();
      return null;
    });
  }
  if (result.body.line) { line.outerHTML = result.body.line; } else { line.remove(); }
  // Until the page is drawn anew from the server, its cards lie on the table here too (a
  // redraw that finds no server keeps this page: live.js).
  if (entry === tapped) {
    entry.grid.recorded.push(...cards);
    entry.showPicked();
  }
  entry.idle = "✓ " + result.body.said;
  if (!entry.field.value.trim() && !entry.lines().length) { entry.say(entry.idle, "ok", true); }
  return redraw(entry.idle, result.body.entry == null ? null : String(result.body.entry));
}

/* An entry that waits unsent with an undo tapped behind it: both go, as if never tapped. */
function cancelledByUndo(entry, item) {
  return outbox.list(entry.session).then((items) => {
    if (!items.some((other) => other.after === item.id)) { return false; }
    return outbox.remove(item.id).then(() => { entry.say("✓ " + item.label, "ok"); return true; });
  });
}

/* Undo in place: the latest write if it still waits on the phone (nothing is sent), else the
   latest entry on the server, after every write before it; the undone entry greyed meanwhile. */
export function undo(entry, form) {
  outbox.list(entry.session).then((items) => {
    const latest = items[items.length - 1];
    if (latest && !inFlight(latest)) {
      return outbox.remove(latest.id).then(() => { entry.idle = null; entry.say("✓ " + latest.label, "ok"); });
    }
    const last = $(document, "ol.entries > li:not([data-waiting]):not([data-outbox])");
    if (last && !latest) { last.classList.add("undoing"); }
    const url = new URL(form.action, location.href);
    const button = $(document, "button[form=undo]") || $(form, "button");
    const meta = { label: (button ? button.textContent.trim() : "") };
    if (latest) {
      // Being sent now: undone once the server has it, by the id it answers (outbox.sent).
      url.searchParams.delete("entry");
      meta.after = latest.id;
      meta.label += ": " + latest.label;
    }
    const fields = Array.from(new FormData(form).entries());
    return write(entry.session, { url: url.pathname + url.search, fields }, meta).then(({ item, answer }) => answer.then((result) => {
      if (last) { last.classList.remove("undoing"); }
      const now = current() || entry;
      if (result.waits && !latest) {
        // An undo is not kept for later: it says the network is gone, as it did.
        return outbox.remove(item.id).then(() => now.say(now.text("offline"), "bad"));
      }
      if (result.waits || result.elsewhere) { return result.elsewhere ? redraw() : null; }
      const body = result.body;
      // An undo is said plainly, not in the green of an entry recorded.
      now.idle = (result.refused ? "✗ " : "↶ ") + (body.said || body.error || "");
      now.say(now.idle, result.refused ? "bad" : "undone", true);
      if (result.refused) { return outbox.remove(item.id).then(() => flush(entry.session)); }
      if (body.restore) { import("./restore.js").then((restore) => restore.offerRestore(body.restore, now.idle)); }
      const again = body.player && $(now.form, `input[name=player][value="${body.player}"]`);
      if (again) { again.checked = true; now.nameButtons(); }
      return redraw(now.idle);
    }));
  }).catch(() => entry.say(entry.text("offline"), "bad"));
}
