/* "Remove from this phone" on the start page: a session's kept pages and outbox go with it; sessions this phone no longer holds lose theirs. */
import * as outbox from "./outbox.js";

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

// "Remove from this phone" takes the session's kept pages (its page and those under it, the
// history) and its outbox off the phone too, before the form goes.
document.addEventListener("submit", (event) => {
  const form = event.target;
  const item = form.closest("[data-forget]");
  if (!item || event.defaultPrevented) { return; }
  event.preventDefault();
  const path = new URL(item.getAttribute("data-forget-pages"), location.href).pathname;
  Promise.all([dropPages((kept) => kept === path || kept.indexOf(path + "/") === 0), outbox.clear(item.getAttribute("data-forget"))])
    .catch(() => { /* nothing kept here to take */ })
    .then(() => form.submit());
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
