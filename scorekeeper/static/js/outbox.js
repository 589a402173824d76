/* The outbox: the writes of each session waiting on this phone, in the order they were tapped (IndexedDB, shared by the phone's tabs). */

// Interface and promises: docs/reliability.md, "Offline at the table" and "In the order tapped".
const DATABASE = "scorekeeper-outbox";
const STORE = "entries";
const LEASES = "leases";
const listeners = new Set();
const rounds = new Set();
const lates = new Set();
// Every tab of the phone hears of a change to an outbox and of a write that arrived late
// (BroadcastChannel; where there is none, a tab sees the others' entries at its next look, as
// the store is shared).
const channel = "BroadcastChannel" in self ? new BroadcastChannel(DATABASE) : null;
if (channel) {
  channel.onmessage = (event) => {
    if (event.data.late) { lates.forEach((listener) => listener(event.data.late)); } else { tell(event.data.session, false); }
  };
}
let opened = null;

function database() {
  if (!opened) {
    opened = new Promise((resolve, reject) => {
      const request = indexedDB.open(DATABASE, 2);
      request.onupgradeneeded = (event) => {
        const db = request.result;
        if (event.oldVersion < 1) {
          const store = db.createObjectStore(STORE, { keyPath: "seq", autoIncrement: true });
          store.createIndex("session", "session");
          store.createIndex("id", "id", { unique: true });
        }
        if (event.oldVersion < 2) { db.createObjectStore(LEASES, { keyPath: "session" }); }
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    }).catch(() => memory());
  }
  return opened;
}

/* Where IndexedDB fails (a private window of some browsers): the same store in this tab's
   memory. Nothing survives a reload, and other tabs do not see it (send.js tells the recorder
   if entries then reach the server out of the order tapped). */
function memory() {
  const stores = { [STORE]: [], [LEASES]: [] };
  let seq = 0;
  return {
    memory: true,
    transaction: (name, _mode, work) => {
      const key = name === STORE ? "seq" : "session";
      return Promise.resolve(work({
        all: () => stores[name].slice(),
        put: (item) => {
          if (name === STORE && item.seq === undefined) { item.seq = ++seq; }
          stores[name] = stores[name].filter((other) => other[key] !== item[key]).concat([item]);
        },
        remove: (item) => { stores[name] = stores[name].filter((other) => other[key] !== item[key]); },
      }));
    },
  };
}

/* Run ``work`` on a store in one transaction; ``work`` gets all its items, put and remove. */
function transaction(name, mode, work) {
  return database().then((db) => {
    if (db.memory) { return db.transaction(name, mode, work); }
    return new Promise((resolve, reject) => {
      const done = db.transaction(name, mode);
      const store = done.objectStore(name);
      let result;
      const request = store.getAll();
      request.onsuccess = () => {
        const items = request.result;
        result = work({
          all: () => items.slice(),
          put: (item) => { store.put(item); },
          remove: (item) => { store.delete(name === STORE ? item.seq : item.session); },
        });
      };
      done.oncomplete = () => resolve(result);
      done.onerror = done.onabort = () => reject(done.error);
    });
  });
}

function tell(session, others) {
  if (session === null || session === undefined) { return; }
  listeners.forEach((listener) => listener(String(session)));
  if (others && channel) { channel.postMessage({ session: String(session) }); }
}

/* Hear of every change to a session's outbox, in this tab and the phone's others. */
export function watch(listener) { listeners.add(listener); }

/* Hear when this tab's round of sending a session's writes ended (send.js): (session,
   {sent, answered (those tapped in this tab), waiting, refused, failed}). */
export function onRound(listener) { rounds.add(listener); }
export function tellRound(session, summary) { rounds.forEach((listener) => listener(session, summary)); }

/* Hear when a write of this phone reached the server after one tapped later: ({session, label}). */
export function onLate(listener) { lates.add(listener); }
export function tellLate(note) {
  lates.forEach((listener) => listener(note));
  if (channel) { channel.postMessage({ late: note }); }
}

function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode.apply(null, bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/* The first write kept per page load (a tap) asks the browser to keep the outbox when space
   runs short, where it can (secure pages); whatever it answers, the write is kept. */
let persisting = null;
function askToPersist() {
  if (persisting) { return; }
  persisting = true;
  try {
    if (!self.isSecureContext || !navigator.storage?.persist) { return; }
    navigator.storage.persisted().then((kept) => kept || navigator.storage.persist()).catch(() => {});
  } catch { /* a browser that refuses to be asked: the outbox works as before */ }
}

/* Keep a write behind those of its session: its address, fields, key, words and cards. */
export function add(entry) {
  askToPersist();
  const kept = {
    id: newKey(),
    session: String(entry.session),
    url: entry.url,
    fields: entry.fields || [],
    idempotencyKey: entry.idempotencyKey || newKey(),
    created: new Date().toISOString(),
    label: entry.label || "",
    cards: entry.cards || [],
    refused: null,
    // When it was tapped (send.js: the phone's tap clock), and the write it must follow.
    tapped: entry.tapped || 0,
    after: entry.after || null,
    // A layoff onto a meld still waiting here: which write's meld, named once it is sent (done).
    onto: entry.onto || null,
  };
  return transaction(STORE, "readwrite", (store) => { store.put(kept); })
    .then(() => { tell(kept.session, true); return kept; });
}

const sorted = (items) => items.sort((a, b) => a.seq - b.seq);

/* The writes waiting for a session, in order. */
export function list(session) {
  return transaction(STORE, "readonly", (store) => sorted(store.all().filter((item) => item.session === String(session))));
}

/* The sessions that have writes waiting. */
export function sessions() {
  return transaction(STORE, "readonly", (store) => store.all().map((item) => item.session)
    .filter((session, at, all) => all.indexOf(session) === at));
}

/* Change one write in place; answer its session (null when it is gone). ``quiet``: a mark
   only the sending tab needs (that it is being sent), told to nobody. */
export function update(id, edit, quiet) {
  return transaction(STORE, "readwrite", (store) => {
    const item = store.all().find((other) => other.id === id);
    if (!item) { return null; }
    edit(item);
    store.put(item);
    return item.session;
  }).then((session) => { if (!quiet) { tell(session, true); } return session; });
}

/* Take a write out, with those that follow it (an undo of it): answer its session. A layoff
   tapped onto a meld of it stays, refused: the meld it went onto will not be recorded. */
export function remove(id) { return done(id, null, []); }

/* A write the server answered: out of the outbox; an undo waiting behind it now names the
   entry the server recorded (``entry``), and a layoff onto one of its melds that meld's id
   (``melds``, in the order typed), which their pages could not know. */
export function sent(id, entry, melds) {
  return done(id, entry === undefined || entry === null ? null : String(entry), melds || []);
}

// The melds this tab sent, by how the form offered them while they waited (waiting.js):
// "waiting:<write>:<which meld>" to the meld's id, so that a layoff begun onto one stays on it.
const named = new Map();

/* The id of a meld offered while it waited, once this tab sent it; else null. */
export function meldOf(value) { return named.get(value) || null; }

function done(id, entry, melds) {
  melds.forEach((meld, at) => named.set(`waiting:${id}:${at}`, String(meld)));
  return transaction(STORE, "readwrite", (store) => {
    const items = store.all();
    const item = items.find((other) => other.id === id);
    if (!item) { return null; }
    store.remove(item);
    items.filter((other) => other.after === id).forEach((follower) => {
      if (entry === null) { store.remove(follower); return; }
      const url = new URL(follower.url, location.href);
      url.searchParams.set("entry", entry);
      follower.url = url.pathname + url.search;
      follower.after = null;
      store.put(follower);
    });
    items.filter((other) => other.onto && other.onto.write === id).forEach((follower) => {
      const meld = melds[follower.onto.at];
      if (meld === undefined || meld === null) {
        follower.refused = follower.onto.gone;
      } else {
        follower.fields = follower.fields.map((pair) => (pair[0] === "meld" ? ["meld", String(meld)] : pair));
      }
      follower.onto = null;
      store.put(follower);
    });
    return item.session;
  }).then((session) => { tell(session, true); return session; });
}

/* Take every write of a session off the phone. */
export function clear(session) {
  return transaction(STORE, "readwrite", (store) => {
    store.all().filter((item) => item.session === String(session)).forEach((item) => store.remove(item));
  }).then(() => tell(String(session), true));
}

/* A refused write corrected by the recorder, in its place: its new address, fields (and so a
   new key), words and cards; answer it, or null when it is gone (dropped meanwhile). */
export function revise(id, changes) {
  return transaction(STORE, "readwrite", (store) => {
    const item = store.all().find((other) => other.id === id);
    if (!item) { return null; }
    Object.assign(item, changes, { refused: null, sending: null, idempotencyKey: newKey() });
    store.put(item);
    return item;
  }).then((item) => { if (item) { tell(item.session, true); } return item; });
}

/* A refused write sent again, with corrected fields (and so a new key) if given. */
export function retry(id, fields) {
  return update(id, (entry) => {
    entry.refused = null;
    if (fields) { entry.fields = fields; entry.idempotencyKey = newKey(); }
  });
}

/* The fields of a form (or name, value pairs) worth keeping: not its tokens. */
export function fieldsOf(form) {
  return Array.from(form instanceof HTMLFormElement ? new FormData(form) : form)
    .filter((pair) => pair[0] !== "csrf_token" && pair[0] !== "once" && typeof pair[1] === "string");
}

/* Where the browser has no Web Locks (a page over plain http on a LAN): the right to send a
   session's writes, held by one tab for ``ms`` at a time and renewed while it sends. */
export function lease(session, holder, ms) {
  return transaction(LEASES, "readwrite", (store) => {
    const held = store.all().find((other) => other.session === session);
    const now = Date.now();
    if (held && held.holder !== holder && held.until > now) { return false; }
    store.put({ session, holder, until: now + ms });
    return true;
  });
}

export function release(session, holder) {
  return transaction(LEASES, "readwrite", (store) => {
    store.all().filter((other) => other.session === session && other.holder === holder).forEach((held) => store.remove(held));
  });
}
