/* Asking the server about cards: the game's live check, the rules' check, reading typed words; the answer said in words. */
import { fill } from "./page.js";
import { parse } from "./cards.js";
import { csrfToken } from "./token.js";

/* Post JSON and answer the server's JSON (a question: it writes nothing, so it takes no turn in
   the queue). A page without a form token (the finish page, a GET form) asks what needs none.
   A token the server no longer takes (400: the page open over an hour) is renewed and the
   question asked again, once, as the queue does with a write (send.js). */
export function ask(url, body, renewed) {
  const tokened = Boolean(document.querySelector("input[name=csrf_token]"));
  const asked = tokened ? csrfToken(Boolean(renewed)) : Promise.resolve("");
  return asked.then((token) => fetch(url, {
    method: "POST", body: JSON.stringify(body), credentials: "same-origin",
    headers: { Accept: "application/json", "Content-Type": "application/json", "X-CSRFToken": token },
  })).then((response) => {
    if (response.status === 400 && tokened && !renewed) { return ask(url, body, true); }
    return response.json();
  });
}

/* Say what a check answered: the meld (or layoff) in playing order, its value and why.
   ``text(name)`` gives the page's words, ``counted`` says the opening's value is asked. */
export function said(answer, meld, counted, text, letters) {
  const kind = text(answer.kind) || answer.kind;
  const value = counted && answer.opening_value !== undefined ? answer.opening_value : answer.value;
  let words = meld
    ? fill(text("layoff"), { cards: letters.labels(answer.added), meld: letters.labels(answer.cards), value: answer.value })
    : kind + " " + letters.labels(answer.cards) + ": " + value;
  if (counted) { return words; }
  const aces = (answer.aces || []).filter((ace) => ace.value);
  const told = {};
  aces.forEach((ace) => {
    const key = ace.position + " " + ace.value;
    if (told[key]) { return; }
    told[key] = true;
    const many = aces.filter((other) => other.position === ace.position && other.value === ace.value).length;
    const several = text("aces-" + ace.position);
    words += ", " + (many > 1 && several
      ? fill(several, { count: many, value: ace.value })
      : fill(text("ace-" + ace.position), { value: ace.value }));
  });
  return words;
}

/* What the server read of typed text (POST /games/<id>/read), kept by the text: the picker
   shows it pressed. Until it answers, only the picker's own labels are read. */
export class Reader {
  constructor(form) {
    this.url = form.getAttribute("data-read");
    this.copies = Number(form.getAttribute("data-packs")) || 1;
    this.heard = {};
  }

  codes(value) {
    const typed = (value || "").trim();
    return this.heard[typed] || parse(typed, this.copies);
  }

  /* Keep what the server read from a text. */
  remember(typed, codes) {
    if (typed && codes && /[^\s]/.test(typed)) { this.heard[typed.trim()] = codes; }
  }

  /* Ask what a text names; ``then`` gets the answer ({cards} or {cards: [], error}). */
  hear(value, then) {
    const typed = (value || "").trim();
    if (!this.url || !typed) { return; }
    ask(this.url, { cards: typed }).then((answer) => {
      if (!answer.error) { this.heard[typed] = answer.cards; }
      then(answer);
    }).catch(() => {});
  }
}
