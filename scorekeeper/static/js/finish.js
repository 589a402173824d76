/* The end of a game: the picker fills the hand tapped last; sent without a network, or behind writes still waiting, the finish waits in the queue. */
import { $, $$, fill, languageLinksTo, offline, wordsOf } from "./page.js";
import { Letters } from "./cards.js";
import { Grid } from "./grid.js";
import { Reader } from "./check.js";
import { flush, write } from "./send.js";
import * as outbox from "./outbox.js";
import "./wake.js";

// The winner's value when nobody went out (web/forms.py: NOBODY).
const NOBODY = "0";

/* With two packs a hand may hold both copies of a card, so a tap adds a copy while one is left. */
function hands(form) {
  const letters = new Letters(form.getAttribute("data-letters"));
  const copies = Number(form.getAttribute("data-packs")) || 1;
  const all = $$(form, "[data-hand]");
  const reader = new Reader(form);
  let active = null;
  let ready = false;

  const input = (hand) => $(hand, "input[name^=hand_]");
  const winner = () => {
    const chosen = $(form, "input[name=winner]:checked");
    return chosen ? chosen.value : null;
  };
  const elsewhere = () => [].concat(...all.filter((hand) => hand !== active && !hand.hidden).map((hand) => reader.codes(input(hand).value)));
  /* Switching the language keeps the hands: the form is a GET, its fields the address.
     Until something changes the page's own address (a preview included) is kept. */
  const remember = () => {
    if (!ready) { return; }
    const query = new URLSearchParams(new FormData(form));
    query.delete("show");
    languageLinksTo(location.pathname + "?" + query.toString());
  };
  const show = () => {
    all.forEach((hand) => {
      $(hand, ".hand-target").setAttribute("aria-pressed", String(hand === active));
      hand.classList.toggle("active", hand === active);
    });
    grid.show(active ? reader.codes(input(active).value) : [], elsewhere());
    remember();
  };
  const choose = (hand) => { active = hand; show(); };
  const seat = () => {
    const out = winner();
    all.forEach((hand) => {
      const gone = hand.getAttribute("data-hand") === out;
      hand.hidden = gone;
      if (gone) { input(hand).value = ""; }
    });
    if (!active || active.hidden) { choose(all.find((hand) => !hand.hidden) || null); } else { show(); }
  };
  /* Under a hand typed in words, the cards the server read ("Herz As": A♥), or why not. */
  const heard = (hand, answer) => {
    const line = $(hand, "[data-heard]");
    if (!line) { return; }
    line.hidden = !answer;
    if (!answer) { return; }
    line.textContent = answer.error ? "✗ " + answer.error : letters.labels(answer.cards);
    line.className = "preview " + (answer.error ? "bad" : "ok");
  };
  const hear = (hand) => {
    const typed = input(hand).value;
    if (!typed.trim()) { heard(hand, null); return; }
    reader.hear(typed, (answer) => {
      if (input(hand).value !== typed) { return; }
      heard(hand, answer);
      show();
    });
  };
  const grid = new Grid($(form, "[data-picker]"), (code) => {
    if (!active) { return; }
    const picked = grid.toggled(reader.codes(input(active).value), code, elsewhere(), copies > 1 ? 6 : 1);
    input(active).value = letters.labels(picked);
    heard(active, null);
    show();
  });
  all.forEach((hand) => {
    const target = $(hand, ".hand-target");
    let timer = null;
    target.hidden = false;
    target.addEventListener("click", () => choose(hand));
    input(hand).addEventListener("focus", () => choose(hand));
    input(hand).addEventListener("input", () => {
      show();
      clearTimeout(timer);
      timer = setTimeout(() => hear(hand), 120);
    });
    if (input(hand).value.trim()) { hear(hand); }
  });
  $$(form, "input[name=winner]").forEach((radio) => radio.addEventListener("change", seat));
  form.addEventListener("change", remember);
  form.addEventListener("input", remember);
  seat();
  ready = true;
}

/* The finish put into the queue as the Confirm of the settlement (offline there is no preview:
   the server works it out when it gets it); the page says so, with its way back to the game. */
function queued(form, session) {
  const text = wordsOf(form);
  const chosen = $(form, "input[name=winner]:checked");
  const name = chosen?.labels[0] ? chosen.labels[0].textContent.trim() : "";
  // "Nobody went out" is no name: its finish has words of its own.
  const label = chosen && chosen.value === NOBODY ? text("label-nobody") : fill(text("label"), { name });
  const fields = outbox.fieldsOf(form).filter((pair) => pair[0] !== "show");
  fields.push(["confirm", "1"]);
  return write(session, { url: form.action, fields }, { label }).then(({ item }) => {
    const note = document.createElement("p");
    note.className = "preview waiting";
    note.setAttribute("role", "status");
    note.setAttribute("data-finish-waits", item.id);
    note.textContent = text("waits") + " ";
    const back = document.createElement("a");
    back.href = form.getAttribute("data-back");
    back.textContent = text("back");
    note.appendChild(back);
    form.parentNode.insertBefore(note, form);
    Array.from(form.elements).forEach((part) => { part.disabled = true; });
    // Sent (by this page or another): the game page shows the settlement booked.
    outbox.watch((changed) => {
      if (changed !== String(session)) { return; }
      outbox.list(session).then((left) => {
        if (!left.some((other) => other.id === item.id)) { location.assign(back.href); }
      });
    });
  });
}

/* Shown (or confirmed) when nothing of the session waits; else after what waits, or queued. */
function sentInTurn(form) {
  const banner = $(document, "[data-offline]");
  const session = banner?.getAttribute("data-offline");
  if (!session) { return; }
  form.addEventListener("submit", (event) => {
    if (form.hasAttribute("data-in-turn")) { form.removeAttribute("data-in-turn"); return; }
    event.preventDefault();
    const submitter = event.submitter;
    const go = () => { form.setAttribute("data-in-turn", ""); form.requestSubmit(submitter); };
    if (offline()) { queued(form, session).catch(() => {}); return; }
    outbox.list(session)
      .then((waiting) => (waiting.length ? flush(session).then((summary) => (summary.waiting || summary.busy ? queued(form, session) : go())) : go()))
      .catch(go);
  });
}

$$(document, "form[data-finish]").forEach((form) => { hands(form); sentInTurn(form); });
