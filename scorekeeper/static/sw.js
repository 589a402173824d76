/* The service worker: keeps the app's files and the pages of the sessions this phone opened, so
   that a session page opens without a network (docs/reliability.md, "Offline at the table").

   /sw.js serves this file from the site's root after a first line that sets ASSETS, the app's
   files with their fingerprints (?v=...) and every module of the browser code under the
   modules' version (/static/js/<version>/...), those loaded on demand too. Those are kept at
   install, answered from the kept copy ever after (a new fingerprint is a new address), and
   dropped with the worker that kept them.
   The start page, session pages and histories are asked of the network first and kept; the kept
   copy answers only when the network does not, marked on its <html> (data-offline-copy) so the
   page can say so. Everything else goes to the network untouched, unseen by this worker: every
   write (POST), the live table's version question, the API, the CSRF token. Written by hand:
   about 120 lines (5.4 KB, with these words) against 21.9 KB of minified Workbox 7.4.1 (sw,
   core, routing, strategies, precaching) plus its configuration, for the same two strategies. */
/* global ASSETS, KEPT_PAGES */
"use strict";

var FILES = "scorekeeper-files-" + hash(ASSETS.join(" "));
// Shared with offline.js, which keeps the page a phone opened before the worker took over and
// removes a session's pages when the phone forgets it.
var PAGES = "scorekeeper-pages";
// KEPT_PAGES, the pages kept (the start page, a session's page and its history, by path under
// the root, without a query), comes in the first lines too: the same list offline.js is given.

// A module of the browser code, under the version of the modules it was loaded with.
var MODULE = /\/static\/js\/[^/]+\/([^/]+)$/;

function hash(text) {
  var value = 0;
  var i;
  for (i = 0; i < text.length; i += 1) { value = (value * 31 + text.charCodeAt(i)) | 0; }
  return (value >>> 0).toString(36);
}

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(FILES)
      .then(function (cache) { return cache.addAll(ASSETS); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys()
      .then(function (names) {
        return Promise.all(names.filter(function (name) {
          return name.indexOf("scorekeeper-files-") === 0 && name !== FILES;
        }).map(function (name) { return caches.delete(name); }));
      })
      .then(function () { return self.clients.claim(); })
  );
});

// A page that loaded while this worker installed asks to be taken over (offline.js): the claim
// at activation may have come before that page was a client.
self.addEventListener("message", function (event) {
  if (event.data === "claim") { event.waitUntil(self.clients.claim()); }
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") { return; } // a write goes to the network, never kept or retried
  var url = new URL(request.url);
  var root = new URL(self.registration.scope).pathname;
  if (url.origin !== self.location.origin || url.pathname.indexOf(root) !== 0) { return; }
  var path = "/" + url.pathname.slice(root.length);
  if (path.indexOf("/static/") === 0 && (url.searchParams.has("v") || MODULE.test(path))) {
    event.respondWith(file(request));
  } else if (KEPT_PAGES.test(path)) {
    // Opened, or read again by the live table (live.js) after an entry: the copy kept is the
    // latest the server drew.
    event.respondWith(page(event, request, url));
  }
});

// A fingerprinted file: the kept copy, else the network's (kept for the next time); offline,
// a page kept before the app changed asks for old fingerprints: the file as kept now answers.
function file(request) {
  return caches.match(request).then(function (kept) {
    return kept || fetch(request).then(function (response) {
      var copy = response.ok ? response.clone() : null;
      if (copy) {
        caches.open(FILES).then(function (cache) { return cache.put(request, copy); });
      }
      return response;
    }, function (failure) {
      return caches.match(today(request), { ignoreSearch: true }).then(function (older) {
        if (!older) { throw failure; }
        return older;
      });
    });
  });
}

// The address of a file as this worker keeps it: a module of another version is today's module.
function today(request) {
  var url = new URL(request.url);
  var module = MODULE.exec(url.pathname);
  var kept = module && ASSETS.filter(function (asset) {
    var other = MODULE.exec(asset);
    return other && other[1] === module[1];
  })[0];
  return kept ? new URL(kept, self.location.href).href : request;
}

// A page: the network's answer (kept when it is the page itself), else the kept copy, marked;
// also when a proxy answers for a server it cannot reach (502, 503, 504). The app's own errors
// (500) are shown as they are: a kept copy would hide them.
function page(event, request, url) {
  var address = url.origin + url.pathname;
  return fetch(request).then(function (response) {
    var copy;
    if (response.status === 502 || response.status === 503 || response.status === 504) {
      return caches.open(PAGES)
        .then(function (cache) { return cache.match(address); })
        .then(function (kept) { return kept ? marked(kept) : response; });
    }
    if (response.ok && !response.redirected && !url.search) {
      copy = response.clone();
      event.waitUntil(caches.open(PAGES).then(function (cache) { return cache.put(address, copy); }));
    } else if (response.status === 404 || response.status === 403) {
      // The phone no longer opens it (forgotten, or its key is gone): keep no copy of it.
      event.waitUntil(caches.open(PAGES).then(function (cache) { return cache.delete(address); }));
    }
    return response;
  }, function (failure) {
    return caches.open(PAGES)
      .then(function (cache) { return cache.match(address); })
      .then(function (kept) {
        if (!kept) { throw failure; }
        return marked(kept);
      });
  });
}

// The kept copy with data-offline-copy="<when the server drew it, in ms>" on its <html>.
function marked(kept) {
  var drawn = Date.parse(kept.headers.get("Date") || "") || 0;
  var headers = new Headers(kept.headers);
  headers.delete("Content-Length");
  headers.delete("Content-Encoding");
  return kept.text().then(function (html) {
    var body = html.replace("<html", '<html data-offline-copy="' + drawn + '"');
    return new Response(body, { status: 200, headers: headers });
  });
}
