/* "Remove from this phone" on the start page: asked first, refused while entries of the session wait, done here once the server confirmed; sessions this phone no longer holds lose their kept pages and outbox. */
import { $, fill, wordsOf } from "./page.js";
import * as outbox from "./outbox.js";
import { csrfToken } from "./token.js";

// The worker's cache of pages (sw.js), and the site's root (where /sw.js is, offline.js's tag).
const PAGES = "scorekeeper-pages";
const worker = document.querySelector("script[data-worker]");
const ROOT = worker ? new URL(worker.getAttribute("data-worker"), location.href).pathname.replace(/[^/]*$/, "") : "/";

const underRoot = (path) => (path.indexOf(ROOT) === 0 ? "/" + path.slice(ROOT.length) : null);

/* Take the kept pages whose path passes ``dropped`` out of the worker's cache. */
function dropPages(dropped) {
  if (!window.caches) { return Promise.resolve(); }
  return caches.open(PAGES).then((cache) => cache.keys().then((requests) => Promise.all(
    requests.filter((request) => dropped(new URL(request.url).pathname)).map((request) => cache.delete(request)),
  )));
}

/* Say why the session stays (null: nothing to say); its Remove button is free only then. */
function say(item, words) {
  const said = $(item, "[data-forget-said]");
  said.textContent = words || "";
  said.hidden = !words;
  $(item, "form button[type=submit]").disabled = Boolean(words);
}

/* What waits of the session on this phone, said; answers how many. */
function waiting(item) {
  const text = wordsOf(item.closest("[data-t-waiting-one]"));
  return outbox.list(item.getAttribute("data-forget")).then((items) => {
    const count = items.length;
    say(item, count === 0 ? null : count === 1 ? text("waiting-one") : fill(text("waiting-other"), { count }));
    return count;
  }, () => 0);
}

// The question opened: with entries of the session waiting, it says how many and refuses.
document.addEventListener("toggle", (event) => {
  const item = event.target.closest?.("[data-forget]");
  if (item && event.target.open) { waiting(item); }
}, true);

/* The session off this phone's list on the server (the form's own post, never kept for later:
   a removal sent long after would surprise), then its kept pages and outbox here; answers
   whether the server confirmed, or why not. */
function removed(form) {
  const fields = Array.from(new FormData(form).entries());
  const once = fields.find((pair) => pair[0] === "once");
  const entry = { url: form.action, fields, idempotencyKey: once ? once[1] : "" };
  return Promise.all([import("./send.js"), csrfToken(false)])
    .then(([send, token]) => send.sendForm(entry, token, false));
}

document.addEventListener("submit", (event) => {
  const form = event.target;
  const item = form.closest("[data-forget]");
  if (!item || event.defaultPrevented) { return; }
  event.preventDefault();
  const button = $(form, "button[type=submit]");
  button.disabled = true;
  const text = wordsOf(item.closest("[data-t-offline]"));
  const path = new URL(item.getAttribute("data-forget-pages"), location.href).pathname;
  const session = item.getAttribute("data-forget");
  waiting(item).then((count) => {
    if (count) { return null; }
    return removed(form).then((answer) => {
      if (!answer.ok) { say(item, answer.reason); button.disabled = false; return null; }
      return Promise.all([dropPages((kept) => kept === path || kept.indexOf(path + "/") === 0), outbox.clear(session)])
        .catch(() => { /* nothing kept here to take */ })
        .then(() => location.assign(ROOT));
    }, () => { say(item, text("offline")); button.disabled = false; });
  });
});

// The start page, drawn by the server just now, lists every session this phone holds the key
// of: the kept pages and outboxes of any other session go (its key expired or was removed on
// another page), and every kept finish page. A kept copy of the start page says nothing about
// the keys: nothing goes.
function forgetOthers(list) {
  if (document.documentElement.hasAttribute("data-offline-copy")) { return; }
  const held = (list.getAttribute("data-held") || "").split(" ").filter(Boolean);
  const pages = dropPages((kept) => {
    const path = underRoot(kept) || "";
    const session = /^\/sessions\/([^/]+)/.exec(path);
    // A game's finish page names no session: kept again from its session page.
    return path.indexOf("/games/") === 0 || Boolean(session && held.indexOf(decodeURIComponent(session[1])) < 0);
  });
  const outboxes = outbox.sessions().then((sessions) => Promise.all(
    sessions.filter((session) => held.indexOf(session) < 0).map((session) => outbox.clear(session)),
  ));
  Promise.all([pages, outboxes]).catch(() => { /* nothing kept here to take */ });
}

const held = document.querySelector("[data-held]");
if (held) { forgetOthers(held); }
