/* The one path every write takes: a session's writes in one ordered queue (the outbox), sent one at a time, online or offline, across the phone's tabs. */
import * as outbox from "./outbox.js";
import { csrfToken } from "./token.js";

// What is promised and tested: docs/reliability.md, "In the order tapped". What it did (a round
// of sending, a write that arrived late) it tells through outbox.js, which every page has loaded.
// Without Web Locks, how long a tab's right to send lasts unless renewed; also how long a write
// counts as being sent after its tab began to send it (a tab closed meanwhile leaves the mark).
const LEASE_MS = 30 * 1000;
const BUSY_MS = 500;
const TAPS = "scorekeeper-tap";
const ARRIVED = "scorekeeper-arrived ";
// The writes that record an entry, which say when they were tapped (web/forms.py, EntryForm).
const RECORDS = /\/games\/\d+\/(melds|layoffs|swaps)$/;

/* How a write goes to the server; the tests may put a lossy one in its place (window.Outbox.send). */
export const transport = { send: (entry, csrf) => sendForm(entry, csrf, false) };

const running = {};
const again = {};
const answers = new Map();

/* A key of its own for each write: the form's one-time token, so a tap sent twice counts once (web/once.py). */
export function newKey() {
  if (self.crypto && crypto.randomUUID) { return crypto.randomUUID(); }
  return String(Date.now()) + Math.random().toString(36).slice(2);
}
const me = newKey();

function stored(name, value) {
  try {
    if (value === undefined) { return localStorage.getItem(name); }
    localStorage.setItem(name, value);
  } catch { /* no storage here: nothing to compare with */ }
  return null;
}

/* The phone's tap clock: later taps get larger numbers, in every tab (shared in localStorage). */
export function nextTap() {
  const now = Math.max(Date.now(), (Number(stored(TAPS)) || 0) + 1);
  stored(TAPS, String(now));
  return now;
}

function plain(html) {
  const text = new DOMParser().parseFromString(String(html || ""), "text/html").body.textContent || "";
  return text.replace(/\s+/g, " ").trim();
}

function reasonOf(response) {
  const json = (response.headers.get("Content-Type") || "").indexOf("json") !== -1;
  return (json ? response.json() : response.text()).then((answer) => {
    const page = json ? null : new DOMParser().parseFromString(answer, "text/html").querySelector("main [role=alert], main p");
    return plain(json ? answer.error : page?.innerHTML) || String(response.status);
  });
}

/* Send one kept write as its form would go, with its key; answer {ok, status, answer, reason}.
   No answer, a 5xx, a 429 or the 409 of a tap still being saved throw: it is sent again later. */
export function sendForm(entry, csrf, renewed) {
  const body = new URLSearchParams(entry.fields);
  body.set("csrf_token", csrf);
  body.set("once", entry.idempotencyKey);
  if (entry.tapped && RECORDS.test(entry.url)) {
    // When it was tapped, on the phone's clock: kept beside its arrival (sent later offline).
    body.set("tapped_at", new Date(entry.tapped).toISOString());
  }
  return fetch(entry.url, {
    method: "POST", body, credentials: "same-origin", redirect: "manual",
    headers: { Accept: "application/json, text/html;q=0.9" },
  }).then((response) => {
    const json = (response.headers.get("Content-Type") || "").indexOf("json") !== -1;
    if (response.type === "opaqueredirect" || response.ok) {
      return json ? response.json().then((answer) => (answer.refused
        ? { ok: false, status: response.status, reason: plain(answer.error), answer }
        : { ok: true, status: response.status, answer })) : { ok: true, status: response.status };
    }
    if (response.status === 400 && !renewed) {
      return csrfToken(true).then((fresh) => sendForm(entry, fresh, true));
    }
    if (response.status >= 500 || response.status === 429 || (response.status === 409 && response.headers.has("Retry-After"))) {
      throw new Error("the server could not answer: " + response.status);
    }
    return reasonOf(response).then((reason) => ({ ok: false, status: response.status, reason }));
  });
}

/* Whether a waiting write is being sent now (by this tab or another). */
export function inFlight(item) { return Boolean(item.sending) && Date.now() - item.sending < LEASE_MS; }

/* Write through the queue: kept in the outbox behind the session's earlier writes, then sent in
   turn. ``request``: {url, fields (name, value pairs), key}; ``meta``: {label, cards, tapped,
   after, onto: the waiting meld a layoff goes onto, {write, at, gone: why it cannot}}. Answers {item, answer}: ``answer`` settles when this tab hears how it went:
   {status, body} from the server, with ``refused`` for a refusal; {waits} while it must wait
   (offline, no answer, a refusal before it); {elsewhere} when another tab sent it. */
export function write(session, request, meta) {
  const about = meta || {};
  return outbox.add({
    session, url: request.url, fields: outbox.fieldsOf(request.fields || []), idempotencyKey: request.key || newKey(),
    label: about.label, cards: about.cards, tapped: about.tapped || nextTap(), after: about.after,
    onto: about.onto || null,
  }).then((item) => {
    const answer = new Promise((resolve) => answers.set(item.id, { resolve, session: item.session }));
    flush(session);
    return { item, answer };
  });
}

/* Send a refused write again as the recorder corrected it (``id``: the write in the outbox),
   in its place at the head of the queue, with the time it was first tapped; answers as
   ``write``. Dropped meanwhile, the correction is written as a new write. */
export function revise(session, id, request, meta) {
  const about = meta || {};
  const changes = { url: request.url, fields: outbox.fieldsOf(request.fields || []), label: about.label, cards: about.cards || [], onto: about.onto || null };
  return outbox.revise(id, changes).then((item) => {
    if (!item) { return write(session, request, meta); }
    const answer = new Promise((resolve) => answers.set(item.id, { resolve, session: item.session }));
    flush(session);
    return { item, answer };
  });
}

function settle(id, result) {
  const waiting = answers.get(id);
  if (!waiting) { return; }
  answers.delete(id);
  waiting.resolve(result);
}

/* Send a session's waiting writes in order, one at a time, up to a refusal or a failure. */
export function flush(session) {
  const name = String(session);
  if (running[name]) {
    again[name] = true;
    return running[name];
  }
  const summary = { sent: 0, answered: 0, waiting: 0, refused: null, failed: false, busy: false };
  running[name] = exclusive(name, () => drain(name, summary))
    .then((result) => { if (result?.busy) { summary.busy = true; } }, () => { summary.failed = true; })
    .then(() => {
      delete running[name];
      // Written meanwhile: sent now, unless the server was out of reach (tried again later).
      if (again[name] && !summary.failed) {
        again[name] = false;
        return flush(name);
      }
      again[name] = false;
      if (summary.busy) {
        setTimeout(() => flush(name), BUSY_MS);
        return summary;
      }
      return settleRest(name).then(() => {
        outbox.tellRound(name, summary);
        return summary;
      });
    });
  return running[name];
}

/* One tab at a time sends a session's writes: Web Locks where the browser has them (secure
   pages), else a lease kept in the outbox itself. */
function exclusive(session, work) {
  if (navigator.locks) { return navigator.locks.request("outbox " + session, work); }
  return outbox.lease(session, me, LEASE_MS).then((got) => {
    if (!got) { return { busy: true }; }
    return work().finally(() => outbox.release(session, me));
  });
}

async function drain(session, summary) {
  for (;;) {
    const waiting = await outbox.list(session);
    summary.waiting = waiting.length;
    const head = waiting[0];
    if (!head) { return; }
    if (head.refused) { summary.refused = head; return; }
    if (!navigator.onLine) { summary.failed = true; return; }
    if (!navigator.locks && !(await outbox.lease(session, me, LEASE_MS))) { return { busy: true }; }
    await outbox.update(head.id, (item) => { item.sending = Date.now(); }, true);
    let answer;
    try {
      answer = await transport.send(head, await csrfToken(false));
    } catch {
      await outbox.update(head.id, (item) => { item.sending = null; }, true);
      summary.failed = true;
      return;
    }
    if (answer?.ok) {
      await outbox.sent(head.id, answer.answer?.entry, answer.answer?.melds);
      arrived(session, head);
      summary.sent += 1;
      // A tap of this tab draws its own answer; the page is drawn anew for the others' writes.
      if (answers.has(head.id)) { summary.answered += 1; }
      settle(head.id, { status: answer.status || 200, body: answer.answer || {} });
      continue;
    }
    const reason = (answer?.reason) || "";
    await outbox.update(head.id, (item) => { item.refused = reason; item.sending = null; });
    head.refused = reason;
    summary.refused = head;
    settle(head.id, { status: (answer?.status) || 409, body: (answer?.answer) || { error: reason }, refused: true, item: head });
    return;
  }
}

/* Tell this tab's taps that were not answered in this round whether they wait or went elsewhere. */
function settleRest(session) {
  const mine = Array.from(answers.keys()).filter((id) => answers.get(id).session === session);
  if (!mine.length) { return Promise.resolve(); }
  return outbox.list(session).then((waiting) => {
    mine.forEach((id) => {
      const item = waiting.find((other) => other.id === id);
      settle(id, item ? { waits: true, item } : { elsewhere: true });
    });
  }).catch(() => {});
}

/* A write answered: if a write tapped after it reached the server first, the recorder is told. */
function arrived(session, item) {
  if (!item.tapped) { return; }
  const key = ARRIVED + session;
  if (item.tapped >= (Number(stored(key)) || 0)) {
    stored(key, String(item.tapped));
    return;
  }
  outbox.tellLate({ session, label: item.label });
}
