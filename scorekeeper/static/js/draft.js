/* The entry begun on the game page: one state object and its one text form, read by the language links, the live redraw and the server. */

// Each part of the entry begun and the entry form's field that holds it. The text form is those
// fields as the query of an address ("player=3&meld=12&onto_action=swap&cards=8♥"): the DE / EN
// links carry it, the live redraw keeps it across a new page, and the server reads it back into
// the form it draws (web/session_page.py: EntryBegun.from_query).
const PARTS = { player: "player", meld: "meld", action: "onto_action", cards: "cards", melds: "melds", newMeld: "new_meld" };
const NAMES = Object.keys(PARTS);

function fieldValue(field) {
  if (!field) { return ""; }
  if (field.type === "radio") { return field.checked ? field.value : ""; }
  return field.value || "";
}

export class Draft {
  constructor(parts) {
    NAMES.forEach((name) => { this[name] = String((parts?.[name]) || ""); });
    Object.freeze(this);
  }

  /* Read what a form holds now. The mode (layoff or swap) counts only with a meld chosen. */
  static of(form) {
    const parts = {};
    NAMES.forEach((name) => { parts[name] = fieldValue(form.elements.namedItem(PARTS[name])); });
    if (!parts.meld) { parts.action = ""; }
    return new Draft(parts);
  }

  /* Read the text form (an address's query, with or without its "?"). */
  static fromText(text) {
    const query = new URLSearchParams(text || "");
    const parts = {};
    NAMES.forEach((name) => { parts[name] = query.get(PARTS[name]) || ""; });
    return new Draft(parts);
  }

  /* Read the fields a write of the entry form kept (name, value pairs, as outbox.js keeps
     them): the entry as it was tapped, its player, meld, mode and every card. */
  static fromFields(fields) {
    const draft = Draft.fromText(new URLSearchParams((fields || []).filter((pair) => typeof pair[1] === "string")));
    return draft.meld ? draft : draft.with({ action: "" });
  }

  /* The text form: the parts that hold something, in a fixed order. */
  toText() {
    const query = new URLSearchParams();
    NAMES.forEach((name) => { if (this[name].trim()) { query.set(PARTS[name], this[name]); } });
    return query.toString();
  }

  with(changes) { return new Draft(Object.assign({}, this, changes)); }

  /* Whether the recorder has begun an entry: cards picked or typed, melds listed before. */
  get begun() { return Boolean(this.cards.trim() || this.melds.trim()); }

  /* Put it into a form: its texts, its player, its meld (else "New meld") and its mode. */
  into(form) {
    ["cards", "melds", "newMeld"].forEach((name) => {
      const field = form.querySelector(`[name="${PARTS[name]}"]:not([type=radio])`);
      if (field) { field.value = this[name]; }
    });
    const choose = (name, value) => {
      const radio = form.querySelector(`input[type=radio][name="${name}"][value="${CSS.escape(value)}"]`);
      if (radio) { radio.checked = true; }
      return Boolean(radio);
    };
    if (this.player) { choose("player", this.player); }
    if (!this.meld || !choose("meld", this.meld)) { choose("meld", ""); }
    if (this.action) { choose("onto_action", this.action); }
  }
}
