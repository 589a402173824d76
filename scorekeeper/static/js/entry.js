/* The game page's entry form: whose entry, the mode (meld, layoff, joker swap), the cards picked and checked as they are tapped. */
import { $, $$, escaped, fill, languageLinksTo, wordsOf } from "./page.js";
import { JOKER, Letters, isJoker, isRed, sayJoker } from "./cards.js";
import { Grid } from "./grid.js";
import { Draft } from "./draft.js";
import { Reader, ask, said } from "./check.js";
import * as outbox from "./outbox.js";
import { onRedrawn, redraw } from "./live.js";
import { holdingStill } from "./still.js";
import "./wake.js";

// Recording, the undo and the queue (record.js, send.js) come when the recorder begins an entry.
const recording = () => import("./record.js");
// The joker swap (swap.js) comes where a meld on the table holds a joker, as the page opens.
let swap = null;

// How the bar shows the words it keeps, by their first sign.
const SAID = { "…": "waiting", "✗": "bad", "⚠": "bad", "↶": "undone" };
// What the bar keeps beside its words while it is offered (restore.js: the "Restore" button).
export const bar = { offered: null };
let current = null;

export class Entry {
  constructor(form) {
    this.form = form;
    this.letters = new Letters(form.getAttribute("data-letters"));
    this.reader = new Reader(form);
    this.text = wordsOf(form);
    this.field = $(form, "input[name=cards]");
    this.newMeld = $(form, "input[name=new_meld]");
    this.meldsField = $(form, "textarea[name=melds]");
    this.preview = $(form, "[data-preview]");
    this.choices = $(form, "[data-joker-choices]");
    this.another = $(form, "button[data-another]");
    this.places = $(form, "[data-swap-places]");
    this.buttons = { meld: $(form, "button[data-mode=meld]"), layoff: $(form, "button[data-mode=layoff]"), swap: $(form, "button[data-mode=swap]") };
    this.minimum = Number(form.getAttribute("data-minimum")) || 0;
    this.opened = (form.getAttribute("data-opened") || "").split(" ");
    // The bar's words while nothing is begun: what the server said last.
    this.idle = form.getAttribute("data-said");
    this.asked = 0;
    this.timer = null;
    const banner = $(document, "[data-offline]");
    this.banner = banner;
    this.session = banner ? banner.getAttribute("data-offline") : "";
    // The writes of this session waiting on the phone (outbox.js), as last drawn, and how the
    // bar names one the server refused (waiting.js): said whenever nothing else is begun.
    this.queued = [];
    this.refusal = null;
    this.grid = new Grid($(form, "[data-picker]"), (code) => this.toggle(code));
    this.listen();
    if (this.places && !swap) { import("./swap.js").then((module) => { swap = module; if (this.form.isConnected) { this.refresh(); } }); }
  }

  read(value) { return this.reader.codes(value); }
  onto() { return $(this.form, "input[name=meld]:checked:not([value=''])"); }
  mode() {
    const meld = this.onto();
    if (!meld) { return "meld"; }
    const swap = $(this.form, "input[name=onto_action][value=swap]");
    return meld.hasAttribute("data-places") && swap?.checked ? "swap" : "layoff";
  }
  lines() { return this.meldsField ? this.meldsField.value.split("\n").map((l) => l.trim()).filter(Boolean) : []; }
  target() { return this.mode() === "swap" && this.newMeld ? this.newMeld : this.field; }
  player() { return $(this.form, "input[name=player]:checked"); }
  opening() {
    const player = this.player();
    return this.minimum > 0 && !(player && this.opened.indexOf(player.value) >= 0);
  }
  /* The cards the entry holds in its other parts: the melds before, or the swap's card. */
  elsewhere() {
    if (this.mode() === "swap") { return this.read(this.field.value); }
    if (this.mode() === "meld") { return [].concat(...this.lines().map((line) => this.read(line))); }
    return [];
  }
  playerName() {
    const chip = this.player();
    const label = chip?.closest("label");
    return label ? label.textContent.replace("✓", "").trim() : "";
  }

  say(message, kind, html) {
    if (html) { this.preview.innerHTML = message; } else { this.preview.textContent = message; }
    this.preview.className = "preview" + (kind ? " " + kind : "");
    if (bar.offered) { this.preview.appendChild(bar.offered); }
  }

  /* Every record button names the player it records for. */
  nameButtons() {
    Object.values(this.buttons).forEach((b) => {
      if (b?.hasAttribute("data-t-for")) { b.textContent = fill(b.getAttribute("data-t-for"), { name: this.playerName() }); }
    });
  }

  /* Offer the cards a joker in doubt can stand for; a tap says it in the text it came from. */
  offer(cards, input) {
    this.choices.textContent = "";
    this.choices.hidden = !cards?.length;
    (cards || []).forEach((card) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "pick choice" + (isRed(card) ? " red" : "");
      b.textContent = this.letters.label(JOKER + "=" + card);
      b.addEventListener("click", () => { input.value = sayJoker(input.value, card, this.letters); this.refresh(); });
      this.choices.appendChild(b);
    });
  }

  /* Ask the game's own check: it knows the table, the copies left and the player's opening,
     and answers what recording would (POST /games/<id>/check). */
  ask(body) {
    const chosen = this.player();
    if (chosen) { body.player = chosen.value; }
    return ask(this.form.getAttribute("data-game-check"), body);
  }

  describe(answer, meld, counted) { return said(answer, meld, counted, this.text, this.letters); }

  check() {
    const now = this.mode();
    const meld = this.onto();
    const cards = this.field.value.trim();
    this.offer([]);
    if (now === "swap") { swap?.checkSwap(this, meld, cards); return; }
    const earlier = now === "meld" ? this.lines() : [];
    if (!cards && !earlier.length) {
      if (this.refusal && !meld) { this.refusal(); return; }
      const idle = this.idle;
      if (idle && !meld) { this.say(idle, SAID[idle.charAt(0)] || "ok", idle.charAt(0) !== "…"); return; }
      this.say(meld ? fill(this.text("layoff-hint"), { meld: meld.getAttribute("data-label") }) : this.text("meld-hint"));
      return;
    }
    this.idle = null;
    const number = ++this.asked;
    // Just after "Another meld": the next meld is to be tapped; what the melds so far lacked
    // (an opening short of its minimum) is said again with the next meld's cards.
    if (!cards && now === "meld") { this.say(this.text("meld-hint")); return; }
    if (!navigator.onLine) { this.showPicked(); this.say(this.text("checked-later")); return; }
    // Onto a meld still waiting on this phone: the server checks the layoff once it has the meld.
    if (meld?.hasAttribute("data-pending")) { this.showPicked(); this.say(fill(this.text("pending-layoff"), { meld: meld.getAttribute("data-label") })); return; }
    const body = meld ? { cards, onto: meld.value } : { cards, melds: earlier };
    this.ask(body).then((answer) => {
      if (number !== this.asked) { return; }
      if (meld) {
        this.reader.remember(cards, answer.added);
      } else if (answer.melds) {
        earlier.concat(cards ? [cards] : []).forEach((line, at) => this.reader.remember(line, answer.melds[at]?.cards));
      } else {
        this.reader.remember(cards || earlier[0], answer.cards);
      }
      this.showPicked();
      const counted = !meld && this.opening() && answer.opening_value !== undefined;
      const opening = () => fill(this.text("opening"), { value: answer.opening_value, minimum: this.minimum });
      if (!answer.valid) {
        this.say("✗ " + answer.error + (counted ? " — " + opening() : ""), "bad");
        this.offer(answer.joker_choices, this.field);
        return;
      }
      if (meld) { this.say("✓ " + this.describe(answer, meld), "ok"); return; }
      let words = (answer.melds || [answer]).map((one) => this.describe(one, null, counted)).join(" · ");
      if (counted) { words += " — " + opening(); }
      this.say("✓ " + words, "ok");
    }).catch(() => { if (number === this.asked) { this.say(this.text("offline")); } });
  }

  soon() { clearTimeout(this.timer); this.timer = setTimeout(() => this.check(), 120); }

  /* The melds tapped before "Another meld": listed, each can be taken back. */
  showMelds() {
    const soFar = $(this.form, "[data-melds-so-far]");
    if (!soFar) { return; }
    soFar.textContent = "";
    this.lines().forEach((line, at) => {
      const item = document.createElement("li");
      const cards = document.createElement("span");
      cards.className = "cards";
      cards.textContent = this.letters.labels(this.read(line));
      const back = document.createElement("button");
      back.type = "button";
      back.className = "small";
      back.textContent = "✕";
      back.setAttribute("aria-label", this.letters.labels(this.read(line)) + " ✕");
      back.addEventListener("click", () => {
        const all = this.lines();
        all.splice(at, 1);
        this.meldsField.value = all.join("\n");
        this.refresh();
      });
      item.append(cards, back);
      soFar.appendChild(item);
    });
    soFar.hidden = this.mode() !== "meld" || !this.lines().length;
  }

  /* In a swap the new meld's first joker is the one taken from the table, not one left. */
  swapped(codes) { return this.mode() === "swap" ? codes.find(isJoker) || null : null; }
  fromHand(codes) {
    const joker = this.swapped(codes);
    const at = joker ? codes.indexOf(joker) : -1;
    return at < 0 ? codes : codes.slice(0, at).concat(codes.slice(at + 1));
  }
  toggle(code) {
    recording();
    const input = this.target();
    const picked = this.read(input.value);
    const joker = this.swapped(picked);
    const hand = this.grid.toggled(this.fromHand(picked), code, this.elsewhere(), code === JOKER ? 6 : 1);
    input.value = this.letters.labels(joker ? [joker].concat(hand) : hand);
    this.showPicked();
    this.soon();
    this.keepAcrossLanguages();
  }
  showPicked() { this.grid.show(this.fromHand(this.read(this.target().value)), this.elsewhere()); }

  clearPlaces() { if (this.places) { $(this.places, "[data-places-buttons]").textContent = ""; } }

  /* Draw the entry's mode and check it; the picker stays where the thumb found it. */
  refresh(first) {
    holdingStill(() => $(this.form, "[data-picker]"), () => {
      if (first) { first(); }
      this.drawn();
    });
  }

  drawn() {
    const now = this.mode();
    const meld = this.onto();
    const ontoAction = $(this.form, "[data-onto-action]");
    Object.keys(this.buttons).forEach((name) => { if (this.buttons[name]) { this.buttons[name].hidden = name !== now; } });
    // Out of a meld "Another meld" keeps its room: the record button below it stays put.
    if (this.another) {
      this.another.hidden = false;
      this.another.classList.toggle("kept-room", now !== "meld");
      this.another.disabled = now !== "meld";
    }
    if (ontoAction) { ontoAction.hidden = !(meld?.hasAttribute("data-places")); }
    if (this.places) { this.places.hidden = now !== "swap"; }
    $$(this.form, "[data-swap-only]").forEach((part) => { part.hidden = now !== "swap"; });
    if (now === "swap") {
      if (!$(this.places, "[data-place]")) { swap?.showPlaces(this, meld); }
      if (this.newMeld && !this.newMeld.value.trim()) { this.newMeld.value = JOKER; }
    } else {
      this.clearPlaces();
    }
    this.form.classList.toggle("laying-off", now !== "meld");
    this.showMelds();
    this.showPicked();
    this.check();
    this.keepAcrossLanguages();
  }

  /* Switching DE / EN keeps the entry begun: the language links carry its text form (draft.js). */
  keepAcrossLanguages() {
    const text = Draft.of(this.form).toText();
    languageLinksTo(location.pathname + (text ? "?" + text : ""));
  }

  /* What was begun, put back as it was (after a refusal), its player's name on the buttons. */
  putBack(kept) {
    this.refresh(() => {
      kept.into(this.form);
      this.clearPlaces();
      this.nameButtons();
    });
  }

  /* The writes waiting on the phone drawn among the entries (waiting.js, loaded when any wait). */
  drawQueued() {
    if (!this.session || !this.form.isConnected) { return; }
    outbox.list(this.session).then((items) => {
      const drawn = this.queued.length || $(document, "ol.entries > li[data-outbox]");
      this.queued = items;
      if (!items.length && !drawn) { return null; }
      return import("./waiting.js").then((waiting) => { if (this.form.isConnected) { waiting.draw(this, items); } });
    }).catch(() => {});
  }

  /* A write reached the server after one tapped later: said in the bar, kept through redraws. */
  sayLate(note) {
    this.idle = "⚠ " + fill(escaped(wordsOf(this.banner)("late")), { label: escaped(note.label) });
    this.form.setAttribute("data-said", this.idle);
    this.say(this.idle, "bad", true);
  }

  listen() {
    const form = this.form;
    if (this.meldsField) { $(form, "[data-more-melds]").hidden = true; }
    if (this.another) {
      this.another.addEventListener("click", () => {
        const cards = this.field.value.trim();
        if (!cards) { return; }
        this.meldsField.value = this.lines().concat([cards]).join("\n");
        this.field.value = "";
        this.refresh();
      });
    }
    this.field.addEventListener("input", () => { recording(); this.showPicked(); this.soon(); this.keepAcrossLanguages(); });
    if (this.newMeld) { this.newMeld.addEventListener("input", () => { this.showPicked(); this.soon(); }); }
    $$(form, "input[name=meld], input[name=onto_action]").forEach((radio) => {
      radio.addEventListener("change", () => this.refresh(() => {
        this.clearPlaces();
        if (radio.name === "meld") { swap?.swapWhenItFits(this); }
      }));
    });
    $$(form, "input[name=player]").forEach((radio) => {
      radio.addEventListener("change", () => { this.nameButtons(); this.check(); this.keepAcrossLanguages(); });
    });
    form.addEventListener("submit", (event) => {
      const wanted = this.buttons[this.mode()];
      if (wanted && event.submitter !== wanted) {
        event.preventDefault();
        form.requestSubmit(wanted);
        return;
      }
      if (!window.fetch || !form.hasAttribute("data-game-check")) { return; }
      event.preventDefault();
      const button = wanted || event.submitter;
      const mode = this.mode();
      recording().then((recorder) => recorder.record(this, button, mode));
    });
    const undoForm = $(document, "form#undo");
    if (undoForm && window.fetch) {
      undoForm.addEventListener("submit", (event) => {
        event.preventDefault();
        recording().then((recorder) => recorder.undo(this, undoForm));
      });
    }
    document.documentElement.style.overflowAnchor = "none";
    document.body.style.overflowAnchor = "none";
    this.nameButtons();
    this.refresh();
    this.drawQueued();
  }
}

/* The entry on the page now: a new one after every redraw (live.js). */
export function entry() { return current?.form.isConnected ? current : null; }

function start() {
  const form = $(document, "form[data-entry]");
  current = form ? new Entry(form) : null;
}

const DELETED = "scorekeeper:deleted";
/* Back from a delete on the entry's page (delete.js): its words in the bar, and "Restore". */
window.addEventListener("pageshow", () => {
  if (!entry()) { return; }
  let note = null;
  try { note = JSON.parse(sessionStorage.getItem(DELETED) || "null"); sessionStorage.removeItem(DELETED); } catch { note = null; }
  if (!note) { return; }
  redraw(note.said);
  if (note.restore) { import("./restore.js").then((restore) => restore.offerRestore(note.restore, note.said)); }
});

onRedrawn(start);
outbox.watch((session) => { const now = entry(); if (now && session === now.session) { now.drawQueued(); } });
// Writes another page or tab left waiting went now: the page shows the server's state.
outbox.onRound((session, summary) => {
  const now = entry();
  if (now && session === now.session && summary.sent > summary.answered) { redraw(); }
});
outbox.onLate((note) => { const now = entry(); if (now && note.session === now.session) { now.sayLate(note); } });
start();
