/* Offline at the table, the page's half (docs/reliability.md): registers the worker (sw.js),
   says on a session page since when it is offline and what waits, and sends the outbox on every
   load, on "online", when the page is drawn anew and while offline every PROBE_MS. */
(function () {
  "use strict";

  var script = document.currentScript;
  // The worker's pages: one list for it and this script (web/offline.py: KEPT_PAGES), under the root.
  var PAGES = "scorekeeper-pages";
  var KEPT_PAGES = new RegExp(script ? script.getAttribute("data-kept-pages") || "^$" : "^$");
  var ROOT = script ? new URL(script.getAttribute("data-worker"), location.href).pathname.replace(/[^/]*$/, "") : "/";

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

  // The finish page (docs/reliability.md).
  function keepFinish() {
    var link = document.querySelector("a[data-keep-offline]");
    if (!link || !window.caches || !navigator.onLine) { return; }
    caches.open(PAGES).then(function (cache) {
      return cache.match(link.href).then(function (kept) { return kept || cache.add(link.href); });
    }).catch(function () {});
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
      if (event.detail.session !== session) { return; }
      // A send that got no answer (the recorder's, too): out of reach, so probed until back.
      if (event.detail.flushed && event.detail.flushed.failed) { lost(); }
      show();
    });
    // Drawn anew from the server: it is in reach, so what waits goes now.
    document.addEventListener("scorekeeper:redrawn", function () { send(); keepFinish(); });
    setInterval(probe, PROBE_MS);
    if (navigator.onLine && !document.documentElement.hasAttribute("data-offline-copy")) {
      // Served by the server just now: it is in reach.
      localStorage.removeItem(SINCE);
    }
    send();
  }

  var banner = document.querySelector("[data-offline]");
  if (banner) { watch(banner); }

  if ("serviceWorker" in navigator && window.caches && script) {
    navigator.serviceWorker.register(script.getAttribute("data-worker"))
      .then(function () { return navigator.serviceWorker.ready; })
      .then(function () { keepThisPage(); keepFinish(); })
      .catch(function () { /* no worker (plain HTTP on a LAN): the pages work as before */ });
  }
})();
