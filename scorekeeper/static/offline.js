/* Offline at the table, the page's half (docs/reliability.md): registers the service worker
   (sw.js), which keeps the app's files and the pages of the sessions this phone opened. The
   page a phone opens before the worker took over is kept here, once. */
(function () {
  "use strict";

  var script = document.currentScript;
  // The worker's cache of pages (sw.js says which pages it keeps).
  var PAGES = "scorekeeper-pages";
  var KEPT_PAGES = /\/(sessions\/[^/]+(\/history)?)?$/;

  function keepThisPage() {
    // Opened before the worker controlled it: the worker never saw this page, so keep it now.
    if (navigator.serviceWorker.controller || location.search || !KEPT_PAGES.test(location.pathname)) { return; }
    if (document.documentElement.hasAttribute("data-offline-copy")) { return; }
    caches.open(PAGES).then(function (cache) { return cache.add(location.pathname); }).catch(function () {});
  }

  if ("serviceWorker" in navigator && window.caches && script) {
    navigator.serviceWorker.register(script.getAttribute("data-worker"))
      .then(function () { return navigator.serviceWorker.ready; })
      .then(keepThisPage)
      .catch(function () { /* no worker (plain HTTP on a LAN): the pages work as before */ });
  }
})();
