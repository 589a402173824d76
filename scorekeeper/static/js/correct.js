/* Correcting an entry on its page: its own cards free to tap, the rest of the table not; the cards checked as they are tapped. */
import { $, $$, wordsOf } from "./page.js";
import { JOKER, Letters } from "./cards.js";
import { Grid } from "./grid.js";
import { Reader, rulesCheck, said } from "./check.js";

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
  const ask = rulesCheck(form);
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
    const body = { cards };
    if (meld) { body.onto = meld; }
    ask(body).then((answer) => {
      if (number !== asked) { return; }
      if (answer.valid) { say("✓ " + said(answer, meld, false, text, letters), "ok"); return; }
      say("✗ " + answer.error, "bad");
    }).catch(() => { if (number === asked) { say(text("offline")); } });
  };
  const soon = () => { clearTimeout(timer); timer = setTimeout(check, 120); };
  fillsField(form, field, letters, soon);
  $$(form, "input[name=meld]").forEach((radio) => radio.addEventListener("change", soon));
  check();
}

$$(document, "form[data-correct]").forEach(correct);
