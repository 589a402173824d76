/* The outbox (IndexedDB): entries wait on this phone in order, each sent once with its own key,
   never past a refusal. Interface and promises: docs/reliability.md, "Offline at the table". */
(function () {
  "use strict";

  var script = document.currentScript;
  var DATABASE = "scorekeeper-outbox";
  var STORE = "entries";
  var TOKEN_TRUSTED_MS = 50 * 60 * 1000;
  var opened = null;
  var token = null;
  var flushing = {};

  function database() {
    if (!opened) {
      opened = new Promise(function (resolve, reject) {
        var request = indexedDB.open(DATABASE, 1);
        request.onupgradeneeded = function () {
          var store = request.result.createObjectStore(STORE, { keyPath: "seq", autoIncrement: true });
          store.createIndex("session", "session");
          store.createIndex("id", "id", { unique: true });
        };
        request.onsuccess = function () { resolve(request.result); };
        request.onerror = function () { opened = null; reject(request.error); };
      });
    }
    return opened;
  }

  function transaction(mode, work) {
    return database().then(function (db) {
      return new Promise(function (resolve, reject) {
        var done = db.transaction(STORE, mode);
        var request = work(done.objectStore(STORE));
        done.oncomplete = function () { resolve(request ? request.result : undefined); };
        done.onerror = done.onabort = function () { reject(done.error); };
      });
    });
  }

  function change(id, edit) {
    var session = null;
    return transaction("readwrite", function (store) {
      store.index("id").openCursor(IDBKeyRange.only(id)).onsuccess = function (event) {
        var cursor = event.target.result;
        if (!cursor) { return; }
        session = cursor.value.session;
        if (edit) { edit(cursor.value); cursor.update(cursor.value); } else { cursor.delete(); }
      };
    }).then(function () { changed(session); return session; });
  }

  function changed(session) {
    if (session !== null) { document.dispatchEvent(new CustomEvent("outbox", { detail: { session: session } })); }
  }

  function newKey() {
    var bytes = crypto.getRandomValues(new Uint8Array(16));
    return btoa(String.fromCharCode.apply(null, bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function add(entry) {
    var kept = {
      id: newKey(),
      session: String(entry.session),
      url: entry.url,
      fields: entry.fields || [],
      idempotencyKey: entry.idempotencyKey || newKey(),
      created: new Date().toISOString(),
      label: entry.label || "",
      cards: entry.cards || [],
      refused: null
    };
    return transaction("readwrite", function (store) { return store.add(kept); })
      .then(function () { changed(kept.session); return kept; });
  }

  function sessions() {
    return transaction("readonly", function (store) { return store.getAll(); }).then(function (entries) {
      return entries.map(function (entry) { return entry.session; }).filter(function (session, at, all) {
        return all.indexOf(session) === at;
      });
    });
  }

  function list(session) {
    return transaction("readonly", function (store) {
      return store.index("session").getAll(IDBKeyRange.only(String(session)));
    }).then(function (entries) {
      return entries.sort(function (a, b) { return a.seq - b.seq; });
    });
  }

  function clear(session) {
    return transaction("readwrite", function (store) {
      store.index("session").openCursor(IDBKeyRange.only(String(session))).onsuccess = function (event) {
        var cursor = event.target.result;
        if (cursor) { cursor.delete(); cursor.continue(); }
      };
    }).then(function () { changed(String(session)); });
  }

  function retry(id, fields) {
    return change(id, function (entry) {
      entry.refused = null;
      if (fields) { entry.fields = fields; entry.idempotencyKey = newKey(); }
    });
  }

  function fieldsOf(form) {
    return Array.from(form instanceof HTMLFormElement ? new FormData(form) : form).filter(function (pair) {
      return pair[0] !== "csrf_token" && pair[0] !== "once" && typeof pair[1] === "string";
    });
  }

  function csrfToken(fresh) {
    var field = document.querySelector("input[name=csrf_token]");
    var copy = document.documentElement.hasAttribute("data-offline-copy");
    var now = Date.now();
    if (!fresh && token && now - token.at < TOKEN_TRUSTED_MS) { return Promise.resolve(token.value); }
    if (!fresh && !token && field && !copy && now - performance.timeOrigin < TOKEN_TRUSTED_MS) {
      return Promise.resolve(field.value);
    }
    return fetch(script.getAttribute("data-csrf"), { cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) { throw new Error("no CSRF token: " + response.status); }
        return response.json();
      })
      .then(function (answer) {
        token = { value: answer.csrf_token, at: now };
        return token.value;
      });
  }

  function plain(html) {
    var text = new DOMParser().parseFromString(String(html || ""), "text/html").body.textContent || "";
    return text.replace(/\s+/g, " ").trim();
  }

  function reasonOf(response) {
    var json = (response.headers.get("Content-Type") || "").indexOf("json") !== -1;
    return (json ? response.json() : response.text()).then(function (answer) {
      var page = json ? null : new DOMParser().parseFromString(answer, "text/html").querySelector("main [role=alert], main p");
      return plain(json ? answer.error : page && page.innerHTML) || String(response.status);
    });
  }

  function sendForm(entry, csrf, renewed) {
    var body = new URLSearchParams(entry.fields);
    body.set("csrf_token", csrf);
    body.set("once", entry.idempotencyKey);
    return fetch(entry.url, {
      method: "POST", body: body, credentials: "same-origin", redirect: "manual",
      headers: { Accept: "application/json, text/html;q=0.9" }
    }).then(function (response) {
      var json = (response.headers.get("Content-Type") || "").indexOf("json") !== -1;
      if (response.type === "opaqueredirect" || response.ok) {
        return json ? response.json().then(function (answer) {
          return answer.refused ? { ok: false, status: response.status, reason: plain(answer.error), answer: answer }
            : { ok: true, status: response.status, answer: answer };
        }) : { ok: true, status: response.status };
      }
      if (response.status === 400 && !renewed) {
        return csrfToken(true).then(function (fresh) { return sendForm(entry, fresh, true); });
      }
      if (response.status >= 500 || response.status === 429 || (response.status === 409 && response.headers.has("Retry-After"))) {
        throw new Error("the server could not answer: " + response.status);
      }
      return reasonOf(response).then(function (reason) { return { ok: false, status: response.status, reason: reason }; });
    });
  }

  function sendWaiting(session, send, summary) {
    return list(session).then(function (waiting) {
      var entry = waiting[0];
      summary.waiting = waiting.length;
      if (!entry) { return summary; }
      if (entry.refused) { summary.refused = entry; return summary; }
      return csrfToken(false)
        .then(function (csrf) { return send(entry, csrf); })
        .then(function (answer) {
          if (answer && answer.ok) {
            summary.sent += 1;
            return change(entry.id).then(function () { return sendWaiting(session, send, summary); });
          }
          var reason = (answer && answer.reason) || "";
          return change(entry.id, function (kept) { kept.refused = reason; }).then(function () {
            entry.refused = reason;
            summary.refused = entry;
            return summary;
          });
        });
    });
  }

  function flush(session, send) {
    session = String(session);
    if (flushing[session]) { return flushing[session]; }
    var summary = { sent: 0, waiting: 0, refused: null, failed: false };
    function run() {
      return sendWaiting(session, send || Outbox.send, summary).catch(function () {
        summary.failed = true;
        return summary;
      });
    }
    var done = navigator.locks ? navigator.locks.request("outbox " + session, run) : run();
    flushing[session] = done.then(function (result) {
      delete flushing[session];
      document.dispatchEvent(new CustomEvent("outbox", { detail: { session: session, flushed: result } }));
      return result;
    });
    return flushing[session];
  }

  var Outbox = {
    add: add,
    list: list,
    sessions: sessions,
    remove: function (id) { return change(id); },
    retry: retry,
    clear: clear,
    flush: flush,
    sendForm: function (entry, csrf) { return sendForm(entry, csrf, false); },
    csrfToken: csrfToken,
    fieldsOf: fieldsOf
  };
  Outbox.send = Outbox.sendForm;
  window.Outbox = Outbox;
})();
