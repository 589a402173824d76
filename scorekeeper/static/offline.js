/* Offline at the table, the page's half (docs/reliability.md): registers the service worker
   (sw.js), which keeps the app's files and the pages of the sessions this phone opened. The
   page a phone opens before the worker took over is kept here, once.
   On a session page ([data-offline], its words in data-t-*), says since when the server cannot
   be reached and how many entries wait in the outbox (outbox.js), and sends them on every page
   load, when the phone comes back online, and while offline every PROBE_MS. */
(function () {
  "use strict";

  var script = document.currentScript;
  // The worker's cache of pages, and which pages it keeps: the server gives this script and the
  // worker the same list (views.KEPT_PAGES), by path under the site's root (where /sw.js is).
  var PAGES = "scorekeeper-pages";
  var KEPT_PAGES = new RegExp(script ? script.getAttribute("data-kept-pages") || "^$" : "^$");
  var ROOT = script ? new URL(script.getAttribute("data-worker"), location.href).pathname.replace(/[^/]*$/, "") : "/";

  // A path under the site's root, as the worker reads it ("/sessions/abc").
  function underRoot(path) {
    return path.indexOf(ROOT) === 0 ? "/" + path.slice(ROOT.length) : null;
  }

  function keepThisPage() {
    // Opened before the worker controlled it: the worker never saw this page, so keep it now.
    var path = underRoot(location.pathname);
    if (navigator.serviceWorker.controller || location.search || path === null || !KEPT_PAGES.test(path)) { return; }
    if (document.documentElement.hasAttribute("data-offline-copy")) { return; }
    caches.open(PAGES).then(function (cache) { return cache.add(location.pathname); }).catch(function () {});
  }

  // When the phone lost the server, for every page of the site (ms since 1970).
  var SINCE = "scorekeeper-offline-since";
  var PROBE_MS = 15000;

  function offlineSince() {
    return Number(localStorage.getItem(SINCE)) || null;
  }

  function lost(when) {
    if (!offlineSince()) { localStorage.setItem(SINCE, String(when || Date.now())); }
  }

  function said(banner, name, values) {
    return (banner.getAttribute("data-t-" + name) || "").replace(/\{(\w+)\}/g, function (all, key) {
      return key in values ? values[key] : all;
    });
  }

  function clock(ms) {
    var when = new Date(ms);
    var options = { hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
    if (when.toDateString() !== new Date().toDateString()) { options.day = "numeric"; options.month = "numeric"; }
    return when.toLocaleString(document.documentElement.lang || undefined, options);
  }

  function watch(first) {
    var session = first.getAttribute("data-offline");
    function show() {
      // The live table draws the page anew in place (live.js): the banner is the one shown now.
      var banner = document.querySelector("[data-offline]") || first;
      var since = offlineSince();
      var waiting = window.Outbox ? window.Outbox.list(session) : Promise.resolve([]);
      return waiting.then(function (entries) {
        var words = [];
        if (since) { words.push(said(banner, "since", { time: clock(since) })); }
        if (entries.length === 1) { words.push(said(banner, "waiting-one", {})); }
        if (entries.length > 1) { words.push(said(banner, "waiting-other", { count: entries.length })); }
        entries.filter(function (entry) { return entry.refused !== null; }).slice(0, 1).forEach(function (entry) {
          words.push(said(banner, "refused", { label: entry.label, reason: entry.refused }));
        });
        banner.textContent = words.join(" ");
        banner.hidden = words.length === 0;
      }).catch(function () { /* no IndexedDB (a private window of some browsers): nothing waits */ });
    }

    // Send what waits; a failure means the server is out of reach, an answer that it is back.
    function send() {
      if (!window.Outbox) { return show(); }
      return window.Outbox.flush(session).then(function (result) {
        if (result.failed) { lost(); } else if (navigator.onLine) { localStorage.removeItem(SINCE); }
        return show();
      });
    }

    function probe() {
      if (!offlineSince() || !window.Outbox) { return; }
      window.Outbox.csrfToken(true).then(function () {
        localStorage.removeItem(SINCE);
        return send();
      }, function () { /* still out of reach */ });
    }

    if (!navigator.onLine) { lost(); }
    if (document.documentElement.hasAttribute("data-offline-copy")) { lost(); }
    window.addEventListener("offline", function () { lost(); show(); });
    window.addEventListener("online", function () { localStorage.removeItem(SINCE); send(); });
    document.addEventListener("outbox", function (event) {
      if (event.detail.session === session && !event.detail.flushed) { show(); }
    });
    // Drawn anew from the server: it is in reach, so what waits goes now.
    document.addEventListener("scorekeeper:redrawn", function () { send(); });
    setInterval(probe, PROBE_MS);
    if (navigator.onLine && !document.documentElement.hasAttribute("data-offline-copy")) {
      // Served by the server just now: it is in reach.
      localStorage.removeItem(SINCE);
    }
    send();
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
  // on another page). A kept copy of the start page says nothing about the keys: nothing goes.
  function forgetOthers(list) {
    if (document.documentElement.hasAttribute("data-offline-copy")) { return; }
    var held = (list.getAttribute("data-held") || "").split(" ").filter(Boolean);
    var pages = !window.caches ? Promise.resolve() : caches.open(PAGES).then(function (cache) {
      return cache.keys().then(function (requests) {
        return Promise.all(requests.filter(function (request) {
          var path = underRoot(new URL(request.url).pathname) || "";
          var session = /^\/sessions\/([^/]+)/.exec(path);
          return session && held.indexOf(decodeURIComponent(session[1])) < 0;
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

  var banner = document.querySelector("[data-offline]");
  if (banner) { watch(banner); }

  if ("serviceWorker" in navigator && window.caches && script) {
    navigator.serviceWorker.register(script.getAttribute("data-worker"))
      .then(function () { return navigator.serviceWorker.ready; })
      .then(keepThisPage)
      .catch(function () { /* no worker (plain HTTP on a LAN): the pages work as before */ });
  }
})();
