/* Cards: their codes ("Q♣", "JKR=7♠"), their labels in the page's language, the picker's labels read back. */

export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
export const JOKER = "JKR";
const RANK_WORDS = { B: "J", D: "Q" };
const JOKER_WORD = /^(jkr|joker)(?:=(.+))?$/i;

export const isJoker = (code) => code.indexOf(JOKER) === 0;
export const isRed = (code) => "♥♦".indexOf(code.slice(-1)) >= 0;

/* The labels of a language: its rank letters ("A 2 … 10 B D K" in German), as data-letters says. */
export class Letters {
  constructor(letters) {
    const local = (letters || RANKS.join(" ")).split(" ");
    this.ranks = {};
    RANKS.forEach((rank, at) => { this.ranks[rank] = local[at] || rank; });
  }

  card(code) { return (this.ranks[code.slice(0, -1)] || code.slice(0, -1)) + code.slice(-1); }

  label(code) {
    if (isJoker(code)) { return code.length > 4 ? JOKER + "=" + this.card(code.slice(4)) : JOKER; }
    return this.card(code);
  }

  labels(codes) { return codes.map((code) => this.label(code)).join(" "); }
}

/* Read one card as the picker writes it ("Q♣", German "D♣"), or null. Typed words ("qc",
   "Herz As") are the server's to read (check.js: the live check, Reader). */
export function readCard(part) {
  if (part.length < 2) { return null; }
  const suit = "♠♥♦♣".indexOf(part.slice(-1)) >= 0 ? part.slice(-1) : null;
  let rank = part.slice(0, -1).toUpperCase();
  rank = RANK_WORDS[rank] || rank;
  return suit && RANKS.indexOf(rank) >= 0 ? rank + suit : null;
}

/* Read the picker's labels into codes ("D♣" -> "Q♣", "JKR=7♠"); anything else is skipped.
   With one pack a card is read once; with two it may come twice. */
export function parse(text, copies) {
  const codes = [];
  (text || "").split(/[\s,;\-–]+/).forEach((word) => {
    const token = word.replace(/[\ufe0e\ufe0f]/g, "");
    const joker = token.match(JOKER_WORD);
    if (joker) {
      const said = joker[2] ? readCard(joker[2]) : null;
      codes.push(said ? JOKER + "=" + said : JOKER);
      return;
    }
    (token.match(/[^♠♥♦♣]*[♠♥♦♣]|.+/g) || []).forEach((part) => {
      const code = readCard(part);
      if (code && ((copies || 1) > 1 || codes.indexOf(code) < 0)) { codes.push(code); }
    });
  });
  return codes;
}

/* Whether a code is a copy of the picker's card: any joker is a copy of the joker button. */
export const same = (code, card) => (card === JOKER ? isJoker(code) : code === card);
export const count = (codes, card) => codes.filter((code) => same(code, card)).length;

/* Replace the first joker not yet said in a text by the joker standing for a card. */
export function sayJoker(text, card, letters) {
  let done = false;
  return text.split(/\s+/).filter(Boolean).map((token) => {
    if (!done && /^(jkr|joker)$/i.test(token)) { done = true; return letters.label(JOKER + "=" + card); }
    return token;
  }).join(" ");
}
