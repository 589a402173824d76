/* The picker's grid: 52 card buttons (and the joker) that toggle cards, mark taken ones and count copies left. */
import { $, $$, fill } from "./page.js";
import { JOKER, count, isJoker, same } from "./cards.js";

/* A card every copy of which lies on the table: crossed out, unless it is picked all the same
   (an entry put back to be corrected), then pressed, and a tap takes it back. */
function takenAndPicked(b, mine) {
  b.disabled = mine === 0;
  if (mine) {
    b.removeAttribute("aria-disabled");
    b.setAttribute("aria-pressed", "true");
  } else {
    b.setAttribute("aria-disabled", "true");
    b.removeAttribute("aria-pressed");
  }
}

export class Grid {
  /* ``onToggle(card)`` hears every tap on a card that may be tapped. */
  constructor(element, onToggle) {
    this.buttons = $$(element, "button[data-card]");
    this.saysLeft = element.getAttribute("data-t-left");
    // The cards of entries waiting on this phone: taken as if they lay on the table.
    this.waiting = [];
    // The cards of entries the server confirmed since it drew this grid: they lie on the table.
    this.recorded = [];
    this.buttons.forEach((b) => b.setAttribute("data-name", b.getAttribute("aria-label") || ""));
    element.hidden = false;
    element.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-card]");
      if (button && !button.disabled) { onToggle(button.getAttribute("data-card")); }
    });
  }

  button(card) { return this.buttons.find((b) => b.getAttribute("data-card") === card); }

  /* How many copies the server counts as free (not on the table), less those waiting here. */
  lying(card) {
    const b = this.button(card);
    if (!b) { return 0; }
    const served = b.hasAttribute("data-left") ? Number(b.getAttribute("data-left")) : (b.hasAttribute("data-taken") ? 0 : 1);
    return served - count(this.waiting, card) - count(this.recorded, card);
  }

  /* How many more copies of a card may be picked: those lying, less those elsewhere or picked. */
  room(card, picked, elsewhere) {
    return this.lying(card) - count(elsewhere, card) - count(picked, card);
  }

  /* A tap adds a copy while one is left and fewer than ``most`` are picked, else takes it
     back: all of a card, one joker at a time ("-JKR", the joker's own button to take back). */
  toggled(picked, card, elsewhere, most) {
    const jokers = count(picked, JOKER);
    if (card === "-" + JOKER || (card === JOKER && jokers > 0 && (jokers >= most || this.room(card, picked, elsewhere) <= 0))) {
      let last = -1;
      picked.forEach((code, at) => { if (isJoker(code)) { last = at; } });
      return last < 0 ? picked : picked.slice(0, last).concat(picked.slice(last + 1));
    }
    const mine = count(picked, card);
    if (mine > 0 && (mine >= most || this.room(card, picked, elsewhere) <= 0)) {
      return picked.filter((code) => !same(code, card));
    }
    if (this.room(card, picked, elsewhere) <= 0) { return picked; }
    return picked.concat([card]);
  }

  /* Draw the grid for the cards picked; ``elsewhere`` are those the entry holds in another part. */
  show(picked, elsewhere) {
    this.buttons.forEach((b) => {
      const card = b.getAttribute("data-card");
      if (card === "-" + JOKER) { b.hidden = count(picked, JOKER) === 0; return; }
      const mine = count(picked, card);
      let none;
      if (b.hasAttribute("data-left")) {
        const left = Math.max(0, this.room(card, picked, elsewhere));
        $(b, ".left").textContent = String(left);
        if (this.saysLeft) { b.setAttribute("aria-label", fill(this.saysLeft, { card: b.getAttribute("data-name"), count: left })); }
        if (b.hasAttribute("data-taken")) { takenAndPicked(b, mine); return; }
        none = left <= 0 && mine === 0;
      } else {
        if (b.hasAttribute("data-taken")) { takenAndPicked(b, mine); return; }
        none = mine === 0 && (elsewhere.indexOf(card) >= 0 || this.lying(card) <= 0);
      }
      b.disabled = none;
      b.classList.toggle("elsewhere", none);
      if (none) { b.setAttribute("aria-disabled", "true"); } else { b.removeAttribute("aria-disabled"); }
      b.setAttribute("aria-pressed", String(!none && mine > 0));
    });
  }
}
