/* Correcting an entry on its page: its own cards free to tap, the rest of the table not; the correction checked by the game as saving it would, as the cards are tapped. */
import { $, $$, wordsOf } from "./page.js";
import { JOKER, Letters } from "./cards.js";
import { Grid } from "./grid.js";
import { Reader, ask, said } from "./check.js";
import { newKey } from "./send.js";

/* The picker of a form with one cards field: a tap adds or takes away a card, typing shows. */
export function fillsField(form, field, letters, changed) {
  const reader = new Reader(form);
  let timer = null;
  const shown = () => grid.show(reader.codes(field.value), []);
  const grid = new Grid($(form, "[data-picker]"), (code) => {
    const picked = grid.toggled(reader.codes(field.value), code, [], code === JOKER ? 6 : 1);
    field.value = letters.labels(picked);
    grid.show(picked, []);
    changed();
  });
  const hear = () => reader.hear(field.value, shown);
  field.addEventListener("input", () => {
    shown();
    changed();
    clearTimeout(timer);
    timer = setTimeout(hear, 120);
  });
  shown();
  hear();
}

function correct(form) {
  const letters = new Letters(form.getAttribute("data-letters"));
  const field = $(form, "input[name=cards]");
  const preview = $(form, "[data-preview]");
  const onto = JSON.parse(form.getAttribute("data-onto") || "{}");
  // The server checks the correction as saving it would (the game's rules, the later entries).
  const url = form.getAttribute("data-check");
  const text = wordsOf(form);
  let asked = 0;
  let timer = null;
  const say = (message, kind) => {
    if (!preview) { return; }
    preview.textContent = message;
    preview.className = "preview" + (kind ? " " + kind : "");
  };
  const check = () => {
    const cards = field.value.trim();
    const chosen = $(form, "input[name=meld]:checked");
    const meld = chosen ? onto[chosen.value] : null;
    const number = ++asked;
    if (!cards) { say(""); return; }
    const player = $(form, "input[name=player]:checked");
    const body = { cards, player: player ? player.value : null, meld: chosen ? chosen.value : null };
    ask(url, body).then((answer) => {
      if (number !== asked) { return; }
      if (answer.valid) { say("✓ " + said(answer, meld, false, text, letters), "ok"); return; }
      say("✗ " + answer.error, "bad");
    }).catch(() => { if (number === asked) { say(text("offline")); } });
  };
  const soon = () => { clearTimeout(timer); timer = setTimeout(check, 120); };
  fillsField(form, field, letters, soon);
  $$(form, "input[name=meld], input[name=player]").forEach((radio) => radio.addEventListener("change", soon));
  check();
  // Saved in place: a refusal is said in the bar under the picker, where the thumb is, and
  // the page stays where it was; a correction saved goes back to the game.
  const save = $(form, "button[type=submit]");
  form.addEventListener("submit", (event) => {
    if (!window.fetch) { return; }
    event.preventDefault();
    if (save) { save.disabled = true; }
    fetch(form.action, {
      method: "POST", body: new URLSearchParams(new FormData(form)), credentials: "same-origin",
      headers: { Accept: "application/json" },
    }).then((response) => response.json()).then((answer) => {
      if (answer.to) { location.assign(answer.to); return; }
      say("✗ " + (answer.error || ""), "bad");
      // Nothing was saved: the next try is a send of its own.
      const once = $(form, "input[name=once]");
      if (once) { once.value = newKey(); }
    }).catch(() => say(text("offline"), "bad"))
      .then(() => { if (save) { save.disabled = false; } });
  });
}

$$(document, "form[data-correct]").forEach(correct);
