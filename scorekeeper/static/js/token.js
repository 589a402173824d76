/* The CSRF token a write or a question sends: the page's own while it is young, else a fresh one from the server. */

// A token lasts an hour on the server (WTF_CSRF_TIME_LIMIT); the page's is trusted for 50 minutes,
// a kept copy's (data-offline-copy) never: those ask GET /csrf-token (on offline.js's tag).
const TRUSTED_MS = 50 * 60 * 1000;
let token = null;

export function csrfToken(fresh) {
  const field = document.querySelector("input[name=csrf_token]");
  const copy = document.documentElement.hasAttribute("data-offline-copy");
  const now = Date.now();
  if (!fresh && token && now - token.at < TRUSTED_MS) { return Promise.resolve(token.value); }
  if (!fresh && !token && field && !copy && now - performance.timeOrigin < TRUSTED_MS) {
    return Promise.resolve(field.value);
  }
  const source = document.querySelector("script[data-csrf]");
  return fetch(source ? source.getAttribute("data-csrf") : "/csrf-token", { cache: "no-store", credentials: "same-origin" })
    .then((response) => {
      if (!response.ok) { throw new Error("no CSRF token: " + response.status); }
      return response.json();
    })
    .then((answer) => {
      token = { value: answer.csrf_token, at: now };
      return token.value;
    });
}
