/* The live table: a phone on a session page asks every few seconds, cheaply, whether another
   phone changed anything (the session's version as an ETag: "304 Not Modified" while nothing
   did), and then draws the change in place: the page is read again and its content put where
   the old one was, at the same scroll position. The recorder's half-done entry is kept: the
   player, the cards picked or typed, the meld chosen and the mode go into the new form. The
   same happens after this phone's own entry, undo or swap was answered (picker.js). */
(function () {
  "use strict";

  /* The fields of a form a recorder fills: typed text and the radios chosen. */
  function begun(form) {
    var kept = { text: {}, chosen: {} };
    Array.prototype.forEach.call(form.elements, function (field) {
      if (!field.name || field.type === "hidden") { return; }
      if (field.type === "radio") {
        if (field.checked) { kept.chosen[field.name] = field.value; }
      } else if (field.type === "text" || field.tagName === "TEXTAREA") {
        kept.text[field.name] = field.value;
      }
    });
    return kept;
  }

  function putBack(form, kept) {
    Object.keys(kept.text).forEach(function (name) {
      var field = form.elements.namedItem(name);
      if (field && "value" in field) { field.value = kept.text[name]; }
    });
    Object.keys(kept.chosen).forEach(function (name) {
      var radio = form.querySelector('input[type=radio][name="' + name + '"][value="' + CSS.escape(kept.chosen[name]) + '"]');
      if (radio) { radio.checked = true; }
    });
  }

  function Live(element) {
    var url = element.getAttribute("data-live");
    var seen = element.getAttribute("data-version");
    var seconds = Number(element.getAttribute("data-live-seconds")) || 2;
    var asking = false;

    /* Read the page again and put its content in place; the entry begun stays. */
    function redraw(said) {
      // An entry sent and not yet answered would vanish: its answer redraws.
      if (document.querySelector("[data-waiting]")) { return Promise.resolve(); }
      return fetch(location.pathname, { credentials: "same-origin", cache: "no-store" })
        .then(function (response) { return response.ok ? response.text() : null; })
        .then(function (html) {
          if (!html || document.querySelector("[data-waiting]")) { return; }
          var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("main");
          var main = document.querySelector("main");
          if (!fresh || !main) { return; }
          var old = main.querySelector("form[data-entry]");
          var kept = old ? begun(old) : null;
          var y = window.scrollY;
          var details = Array.prototype.map.call(main.querySelectorAll("details"), function (d) { return d.open; });
          // The page never gets shorter under the recorder's thumb: the screen stays where it was.
          fresh.style.minHeight = main.offsetHeight + "px";
          main.replaceWith(fresh);
          Array.prototype.forEach.call(fresh.querySelectorAll("details"), function (d, at) {
            if (at < details.length && !d.hasAttribute("data-more-melds")) { d.open = details[at]; }
          });
          var form = fresh.querySelector("form[data-entry]");
          if (form && kept) { putBack(form, kept); }
          // A redraw of its own (another phone, the version) keeps the words the bar said last.
          said = said || (old && old.getAttribute("data-said"));
          if (form && said) { form.setAttribute("data-said", said); }
          var live = fresh.querySelector("[data-live]");
          if (live) { seen = live.getAttribute("data-version"); }
          window.scrollTo(0, y);
          document.dispatchEvent(new CustomEvent("scorekeeper:redrawn"));
        })
        .catch(function () { /* offline for a moment: the next question tries again */ });
    }

    function ask() {
      if (asking || document.visibilityState !== "visible") { return; }
      asking = true;
      fetch(url, { headers: { "If-None-Match": '"' + seen + '"' }, cache: "no-store", credentials: "same-origin" })
        .then(function (response) { return response.status === 200 ? response.json() : null; })
        .then(function (answer) {
          if (answer && "v" + answer.version !== seen) { return redraw(null); }
        })
        .catch(function () { /* offline for a moment: ask again at the next turn */ })
        .then(function () { asking = false; });
    }

    // The page opened at its game (#game, #entry): the browser would scroll there again
    // whenever the page is drawn anew, so the address keeps no fragment from now on.
    if (location.hash) { history.replaceState(history.state, "", location.pathname + location.search); }

    // This phone's own entry was answered: draw what it changed at once.
    document.addEventListener("scorekeeper:changed", function (event) {
      redraw(event.detail && event.detail.said);
    });
    setInterval(ask, seconds * 1000);
    document.addEventListener("visibilitychange", ask);
  }

  function start() {
    var element = document.querySelector("[data-live]");
    if (element) { new Live(element); }
  }

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
