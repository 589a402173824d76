/* The page's small helpers: finding elements, the words the templates give the scripts, the language links. */

export const $ = (root, selector) => root.querySelector(selector);
export const $$ = (root, selector) => Array.from(root.querySelectorAll(selector));

/* Put values into a sentence of the catalogue: "{name}" becomes values.name (no $ patterns). */
export function fill(text, values) {
  return (text || "").replace(/\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));
}

/* Text made safe to put into HTML. */
export function escaped(text) {
  return String(text).replace(/[&<>"']/g, (sign) => "&#" + sign.charCodeAt(0) + ";");
}

/* The words an element carries for the scripts (data-t-<name>, from the gettext catalogue). */
export function wordsOf(element) {
  return (name) => (element?.getAttribute("data-t-" + name)) || "";
}

/* Let the DE / EN links come back to an address of this page that holds what was begun. */
export function languageLinksTo(next) {
  $$(document, "nav.languages a[href]").forEach((link) => {
    const address = new URL(link.href, location.href);
    address.searchParams.set("next", next);
    link.href = address.pathname + address.search;
  });
}

/* Whether the page knows it cannot reach the server: the phone says so, or this is a kept copy. */
export function offline() {
  return !navigator.onLine || document.documentElement.hasAttribute("data-offline-copy");
}
