/* The start page's half of offline at the table (docs/reliability.md): "Remove from this phone"
   takes a session's kept pages and outbox off the phone, and the sessions this phone no longer
   holds lose theirs. Loaded by the start page only: the game page does not carry it. */
(function () {
  "use strict";

  // The worker's cache of pages (sw.js), and the site's root (where /sw.js is, offline.js's tag).
  var PAGES = "scorekeeper-pages";
  var worker = document.querySelector("script[data-worker]");
  var ROOT = worker ? new URL(worker.getAttribute("data-worker"), location.href).pathname.replace(/[^/]*$/, "") : "/";

  function underRoot(path) {
    return path.indexOf(ROOT) === 0 ? "/" + path.slice(ROOT.length) : null;
  }

  // A session's kept pages: its page and those under it (the history).
  function forgetPages(path) {
    if (!window.caches) { return Promise.resolve(); }
    return caches.open(PAGES).then(function (cache) {
      return cache.keys().then(function (requests) {
        return Promise.all(requests.filter(function (request) {
          var kept = new URL(request.url).pathname;
          return kept === path || kept.indexOf(path + "/") === 0;
        }).map(function (request) { return cache.delete(request); }));
      });
    });
  }

  // "Remove from this phone" takes the session's kept pages and its outbox off the phone too,
  // before the form goes.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var item = form.closest("[data-forget]");
    if (!item || event.defaultPrevented) { return; }
    event.preventDefault();
    var path = new URL(item.getAttribute("data-forget-pages"), location.href).pathname;
    var outbox = window.Outbox ? window.Outbox.clear(item.getAttribute("data-forget")) : null;
    Promise.all([forgetPages(path), outbox])
      .catch(function () { /* nothing kept here to take */ })
      .then(function () { form.submit(); });
  });

  // The start page, drawn by the server just now, lists every session this phone holds the key
  // of: the kept pages and outboxes of any other session go (its key expired or was removed
  // on another page), and every kept finish page. A kept copy of the start page says nothing
  // about the keys: nothing goes.
  function forgetOthers(list) {
    if (document.documentElement.hasAttribute("data-offline-copy")) { return; }
    var held = (list.getAttribute("data-held") || "").split(" ").filter(Boolean);
    var pages = !window.caches ? Promise.resolve() : caches.open(PAGES).then(function (cache) {
      return cache.keys().then(function (requests) {
        return Promise.all(requests.filter(function (request) {
          var path = underRoot(new URL(request.url).pathname) || "";
          var session = /^\/sessions\/([^/]+)/.exec(path);
          // A game's finish page names no session: kept again from its session page.
          return path.indexOf("/games/") === 0 || (session && held.indexOf(decodeURIComponent(session[1])) < 0);
        }).map(function (request) { return cache.delete(request); }));
      });
    });
    var outboxes = !window.Outbox ? Promise.resolve() : window.Outbox.sessions().then(function (sessions) {
      return Promise.all(sessions.filter(function (session) { return held.indexOf(session) < 0; })
        .map(function (session) { return window.Outbox.clear(session); }));
    });
    Promise.all([pages, outboxes]).catch(function () { /* nothing kept here to take */ });
  }

  var held = document.querySelector("[data-held]");
  if (held) { forgetOthers(held); }
})();
