/* The live table: the session page asks every few seconds whether anything changed and draws the change in place, keeping the entry begun. */
import { Draft } from "./draft.js";
import { holdingStill } from "./still.js";
import { meldOf } from "./outbox.js";

// The question is cheap: the session's version as an ETag, "304 Not Modified" while nothing
// changed. A change reads the page again and puts its content where the old one was, at the same
// scroll position; the recorder's entry begun (draft.js) goes into the new form. The same happens
// after this phone's own entry, undo or swap was answered (record.js).
const redrawnListeners = new Set();
let seen = null;

/* Hear when the page was drawn anew (its forms are new elements then); answers how to stop. */
export function onRedrawn(listener) {
  redrawnListeners.add(listener);
  return () => redrawnListeners.delete(listener);
}

/* Read the page again and put its content in place; the entry begun stays, and the bar keeps
   ``said`` (else the words it said last), about the entry of id ``about`` if they name one. */
export function redraw(said, about) {
  // An entry sent and not yet answered would vanish: its answer redraws.
  if (document.querySelector("[data-waiting]")) { return Promise.resolve(); }
  return fetch(location.pathname, { credentials: "same-origin", cache: "no-store" })
    .then((response) => (response.ok ? response.text() : null))
    .then((html) => {
      if (!html || document.querySelector("[data-waiting]")) { return; }
      const drawn = new DOMParser().parseFromString(html, "text/html");
      // The worker's kept copy (sw.js: the server out of reach) is older than this page, which
      // may show entries confirmed since: the page stays until the server draws it again.
      if (drawn.documentElement.hasAttribute("data-offline-copy")) { return; }
      const fresh = drawn.querySelector("main");
      const main = document.querySelector("main");
      if (!fresh || !main) { return; }
      const old = main.querySelector("form[data-entry]");
      let kept = old ? Draft.of(old) : null;
      // A layoff begun onto a meld that waited stays on it once it is recorded (outbox.js).
      if (kept && meldOf(kept.meld)) { kept = kept.with({ meld: meldOf(kept.meld) }); }
      const y = window.scrollY;
      const details = Array.from(main.querySelectorAll("details"), (d) => d.open);
      // The page never gets shorter under the recorder's thumb: the screen stays where it was,
      // and the picker where the thumb found it, though a new meld lies on the table above it.
      fresh.style.minHeight = main.offsetHeight + "px";
      const form = fresh.querySelector("form[data-entry]");
      // The picker is drawn hidden (it needs the script): shown as it was, measured in place.
      const picker = fresh.querySelector("[data-picker]");
      if (picker && !main.querySelector("[data-picker][hidden]")) { picker.hidden = false; }
      holdingStill(() => document.querySelector("main [data-picker]"), () => {
        main.replaceWith(fresh);
        window.scrollTo(0, y);
        fresh.querySelectorAll("details").forEach((d, at) => {
          if (at < details.length && !d.hasAttribute("data-more-melds")) { d.open = details[at]; }
        });
        if (form && kept) { kept.into(form); }
      });
      // A redraw of its own (another phone, the version) keeps the words the bar said last,
      // unless they name an entry the table no longer holds (deleted or undone on another
      // phone): "✓ Jürgen: 8♣ laid off" would say what is no longer so.
      let words = said || old?.getAttribute("data-said");
      let named = said ? about : old?.getAttribute("data-said-entry");
      if (!said && named && !fresh.querySelector('[data-line-of="' + CSS.escape(named) + '"]')) {
        words = null;
        named = null;
      }
      if (form && words) { form.setAttribute("data-said", words); }
      if (form && words && named) { form.setAttribute("data-said-entry", named); }
      const live = fresh.querySelector("[data-live]");
      if (live) { seen = live.getAttribute("data-version"); }
      redrawnListeners.forEach((listener) => listener());
    })
    .catch(() => { /* offline for a moment: the next question tries again */ });
}

function watch(element) {
  const url = element.getAttribute("data-live");
  const seconds = Number(element.getAttribute("data-live-seconds")) || 2;
  let asking = false;
  seen = element.getAttribute("data-version");
  const ask = () => {
    if (asking || document.visibilityState !== "visible") { return; }
    asking = true;
    fetch(url, { headers: { "If-None-Match": '"' + seen + '"' }, cache: "no-store", credentials: "same-origin" })
      .then((response) => (response.status === 200 ? response.json() : null))
      .then((answer) => (answer && "v" + answer.version !== seen ? redraw(null) : null))
      .catch(() => { /* offline for a moment: ask again at the next turn */ })
      .then(() => { asking = false; });
  };
  // The page opened at its game (#game, #entry): the browser would scroll there again whenever
  // the page is drawn anew, so the address keeps no fragment from now on.
  if (location.hash) { history.replaceState(history.state, "", location.pathname + location.search); }
  setInterval(ask, seconds * 1000);
  document.addEventListener("visibilitychange", ask);
}

const element = document.querySelector("[data-live]");
if (element) { watch(element); }
