/* Offline at the table, the page's half: registers the worker (sw.js), says in the banner since when the server is out of reach and what waits, and sends the queue whenever it can. */
import { $, fill, wordsOf } from "./page.js";
import * as outbox from "./outbox.js";
import { csrfToken } from "./token.js";

// The queue's sending part (send.js) comes when something is to be sent.
const sending = () => import("./send.js");

// Its tag carries the worker's address, the pages kept (web/offline.py: KEPT_PAGES, the same
// list the worker is given) and the address of a fresh CSRF token.
const script = document.querySelector("script[data-worker]");
const PAGES = "scorekeeper-pages";
const KEPT_PAGES = new RegExp(script ? script.getAttribute("data-kept-pages") || "^$" : "^$");
const ROOT = script ? new URL(script.getAttribute("data-worker"), location.href).pathname.replace(/[^/]*$/, "") : "/";
// When the phone lost the server, for every page of the site (ms since 1970).
const SINCE = "scorekeeper-offline-since";
const PROBE_MS = 15000;
// After a send that got no answer the queue is tried again soon, then less often.
const AGAIN_MS = [2000, 4000, 8000];

const underRoot = (path) => (path.indexOf(ROOT) === 0 ? "/" + path.slice(ROOT.length) : null);
const offlineSince = () => Number(localStorage.getItem(SINCE)) || null;
const lost = (when) => { if (!offlineSince()) { localStorage.setItem(SINCE, String(when || Date.now())); } };
const found = () => localStorage.removeItem(SINCE);

// Whether the worker answered this page's load. Not ``controller``: the worker claims the pages
// open when it starts, so one that activated while this page loaded controls it already,
// although it never saw it; the load's timing says whether a worker was asked.
const loaded = window.performance?.getEntriesByType?.("navigation")[0];
const seenByTheWorker = loaded ? loaded.workerStart > 0 : Boolean(navigator.serviceWorker?.controller);

/* Opened before the worker controlled it: the worker never saw this page, so keep it now. */
function keepThisPage() {
  const path = underRoot(location.pathname);
  if (seenByTheWorker || location.search || path === null || !KEPT_PAGES.test(path)) { return; }
  if (document.documentElement.hasAttribute("data-offline-copy")) { return; }
  caches.open(PAGES).then((cache) => cache.add(location.pathname)).catch(() => {});
}

/* The finish page of the game on this page, kept so that a game ends offline too. */
function keepFinish() {
  const link = document.querySelector("a[data-keep-offline]");
  if (!link || !window.caches || !navigator.onLine) { return; }
  caches.open(PAGES).then((cache) => cache.match(link.href).then((kept) => kept || cache.add(link.href))).catch(() => {});
}

function clock(ms) {
  const when = new Date(ms);
  const options = { hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
  if (when.toDateString() !== new Date().toDateString()) { options.day = "numeric"; options.month = "numeric"; }
  return when.toLocaleString(document.documentElement.lang || undefined, options);
}

function watch(first) {
  const session = first.getAttribute("data-offline");
  let tries = 0;
  let again = null;
  let late = null;
  const show = () => {
    // The live table draws the page anew in place (live.js): the banner is the one shown now.
    const banner = document.querySelector("[data-offline]") || first;
    const said = wordsOf(banner);
    const since = offlineSince();
    return outbox.list(session).then((entries) => {
      const words = [];
      if (since) { words.push(fill(said("since"), { time: clock(since) })); }
      if (entries.length === 1) { words.push(said("waiting-one")); }
      if (entries.length > 1) { words.push(fill(said("waiting-other"), { count: entries.length })); }
      const refused = entries.find((entry) => entry.refused !== null);
      if (refused) { words.push(fill(said("refused"), { label: refused.label, reason: refused.refused })); }
      if (late && !$(document, "form[data-entry]")) { words.push(fill(said("late"), { label: late.label })); }
      banner.textContent = words.join(" ");
      banner.hidden = words.length === 0;
    }).catch(() => { /* no outbox here: nothing waits */ });
  };
  // Sent when something waits: nothing is loaded for an empty queue.
  const send = () => outbox.list(session).then((waiting) => (waiting.length ? sending().then((queue) => queue.flush(session)) : null));
  // A round of sending ended: no answer means the server is out of reach (tried again soon,
  // then probed), an answer that it is back.
  outbox.onRound((name, result) => {
    if (name !== session) { return; }
    clearTimeout(again);
    if (result.failed) {
      lost();
      if (navigator.onLine && tries < AGAIN_MS.length) { again = setTimeout(send, AGAIN_MS[tries++]); }
    } else if (navigator.onLine) {
      tries = 0;
      found();
    }
    show();
  });
  outbox.watch((name) => { if (name === session) { show(); } });
  // Told on pages without the game's bar (the finish, an entry's page): the banner says it.
  outbox.onLate((note) => { if (note.session === session) { late = note; show(); } });
  const probe = () => {
    if (!offlineSince()) { return; }
    csrfToken(true).then(() => { found(); tries = 0; return send(); }, () => { /* still out of reach */ });
  };
  if (!navigator.onLine || document.documentElement.hasAttribute("data-offline-copy")) { lost(); }
  window.addEventListener("offline", () => { lost(); show(); });
  window.addEventListener("online", () => { found(); tries = 0; send(); });
  // Drawn anew from the server: it is in reach, so what waits goes now.
  if ($(document, "[data-live]")) {
    import("./live.js").then((live) => live.onRedrawn(() => { send(); keepFinish(); }));
  }
  setInterval(probe, PROBE_MS);
  // Served by the server just now: it is in reach.
  if (navigator.onLine && !document.documentElement.hasAttribute("data-offline-copy")) { found(); }
  holdForms(session, show);
  send();
}

/* A form that leaves the page (a new game, abandon, the settlement's Confirm, a seat…) goes
   only after the writes of its session waiting before it: held until they are sent. */
function holdForms(session, show) {
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (event.defaultPrevented || (form.getAttribute("method") || "get").toLowerCase() !== "post") { return; }
    if (form.hasAttribute("data-in-turn")) { form.removeAttribute("data-in-turn"); return; }
    event.preventDefault();
    const submitter = event.submitter;
    const go = () => { form.setAttribute("data-in-turn", ""); form.requestSubmit(submitter); };
    const held = () => outbox.list(session).then((waiting) => {
      if (!waiting.length) { go(); return; }
      const banner = document.querySelector("[data-offline]");
      sending().then((queue) => queue.flush(session)).then((summary) => {
        if (!summary.waiting && !summary.busy) { go(); return; }
        show().then(() => {
          if (banner) { banner.append(" ", wordsOf(banner)("held")); banner.hidden = false; }
        });
      });
    });
    held().catch(go);
  });
}

const banner = document.querySelector("[data-offline]");
if (banner) { watch(banner); }

if ("serviceWorker" in navigator && window.caches && script) {
  navigator.serviceWorker.register(script.getAttribute("data-worker"))
    .then(() => navigator.serviceWorker.ready)
    .then((registration) => {
      // Loaded while the worker installed (it fetches every module first): taken over now.
      if (!navigator.serviceWorker.controller && registration.active) { registration.active.postMessage("claim"); }
      keepThisPage();
      keepFinish();
    })
    .catch(() => { /* no worker (plain HTTP on a LAN): the pages work as before */ });
}

// For the browser's console and the tests: the outbox by hand. No module of the app reads it.
window.Outbox = {
  add: outbox.add, list: outbox.list, sessions: outbox.sessions, remove: outbox.remove, retry: outbox.retry,
  clear: outbox.clear, fieldsOf: outbox.fieldsOf, csrfToken,
  flush: (session) => sending().then((queue) => queue.flush(session)),
  sendForm: (entry, csrf) => sending().then((queue) => queue.sendForm(entry, csrf, false)),
  // How the queue sends (a lossy one in a test's hands); set before anything is sent.
  set send(send) { sending().then((queue) => { queue.transport.send = send; }); },
};
