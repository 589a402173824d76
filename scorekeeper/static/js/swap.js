/* The joker swap of the game page: its check, the cards a joker stands for, the swap offered when the picked card fits. */
import { $, fill } from "./page.js";
import { isJoker, isRed } from "./cards.js";

/* Ask the game whether the swap begun is one: the card for the joker, the new meld it makes. */
export function checkSwap(entry, meld, cards) {
  const joined = entry.newMeld ? entry.newMeld.value.trim() : "";
  if (!cards || !entry.read(joined).some((code) => !isJoker(code))) {
    entry.say(entry.text("swap-hint"));
    return;
  }
  const number = ++entry.asked;
  entry.ask({ onto: meld.value, cards, new_meld: joined }).then((answer) => {
    if (number !== entry.asked) { return; }
    if (answer.valid) {
      entry.say("✓ " + fill(entry.text("swap"), {
        cards: entry.letters.labels(answer.added || entry.read(cards)),
        meld: entry.letters.labels(answer.meld.cards),
        new_meld: entry.letters.labels(answer.new_meld.cards),
      }), "ok");
      return;
    }
    entry.say("✗ " + answer.error, "bad");
    entry.offer(answer.joker_choices, entry.newMeld);
  }).catch(() => { if (number === entry.asked) { entry.say(entry.text("offline")); } });
}

/* The cards a joker of the chosen meld stands for: one tap puts the card in its place. */
export function showPlaces(entry, meld) {
  const holder = $(entry.form, "[data-places-buttons]");
  if (!holder) { return; }
  holder.textContent = "";
  const cards = meld?.getAttribute("data-places") ? meld.getAttribute("data-places").split(" ") : [];
  cards.forEach((card) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "pick choice" + (isRed(card) ? " red" : "");
    b.setAttribute("data-place", card);
    const put = () => entry.read(entry.field.value).indexOf(card) >= 0;
    b.setAttribute("aria-pressed", String(put()));
    b.textContent = entry.letters.label(card);
    b.addEventListener("click", () => {
      const now = entry.read(entry.field.value);
      entry.field.value = entry.letters.labels(put() ? now.filter((c) => c !== card) : now.concat([card]));
      b.setAttribute("aria-pressed", String(put()));
      entry.showPicked();
      entry.soon();
    });
    holder.appendChild(b);
  });
  if (cards.length === 1 && !entry.field.value.trim()) { entry.field.value = entry.letters.label(cards[0]); holder.firstChild.setAttribute("aria-pressed", "true"); }
}

/* A meld with a joker tapped after the card picked: the swap is offered at once when the
   card is one the server says the joker stands for (data-places). */
export function swapWhenItFits(entry) {
  const meld = entry.onto();
  const swap = $(entry.form, "input[name=onto_action][value=swap]");
  if (!meld || !swap || !meld.getAttribute("data-places")) { return; }
  const picked = entry.read(entry.field.value);
  if (picked.length === 1 && meld.getAttribute("data-places").split(" ").indexOf(picked[0]) >= 0) { swap.checked = true; }
}
