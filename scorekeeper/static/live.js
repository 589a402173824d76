/* The live table: a phone on a session page asks every few seconds, cheaply, whether another
   phone changed anything (the session's version as an ETag: "304 Not Modified" while nothing
   did), and shows the change at once. It asks only while the page is on screen and at once when
   it comes back. The recorder's half-done entry is never thrown away: while cards are picked or
   typed, the page says that something changed and updates when the entry is recorded or cleared. */
(function () {
  "use strict";

  function Live(element) {
    var url = element.getAttribute("data-live");
    var seen = element.getAttribute("data-version");
    var seconds = Number(element.getAttribute("data-live-seconds")) || 2;
    var notice = document.querySelector("[data-live-notice]");
    var asking = false;
    var changed = false;

    // Picked or typed cards, a chosen meld for a layoff: the recorder is in the middle of an entry.
    function busy() {
      return Array.prototype.some.call(
        document.querySelectorAll("form[data-entry] input[type=text], form[data-entry] textarea"),
        function (field) { return field.value.trim() !== ""; }
      );
    }

    function show() {
      if (!changed) { return; }
      if (busy()) {
        if (notice) { notice.hidden = false; }
        return;
      }
      // The browser keeps the scroll position on a reload of the same page.
      location.reload();
    }

    function ask() {
      if (asking || document.visibilityState !== "visible") { return; }
      if (changed) { show(); return; }
      asking = true;
      fetch(url, { headers: { "If-None-Match": '"' + seen + '"' }, cache: "no-store", credentials: "same-origin" })
        .then(function (response) { return response.status === 200 ? response.json() : null; })
        .then(function (answer) {
          if (answer && "v" + answer.version !== seen) { changed = true; show(); }
        })
        .catch(function () { /* offline for a moment: ask again at the next turn */ })
        .then(function () { asking = false; });
    }

    if (notice) {
      var button = notice.querySelector("button");
      if (button) { button.addEventListener("click", function () { location.reload(); }); }
    }
    setInterval(ask, seconds * 1000);
    document.addEventListener("visibilitychange", ask);
  }

  function start() {
    var element = document.querySelector("[data-live]");
    if (element) { new Live(element); }
  }

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
