/* Offline at the table, the finish and the delete (docs/reliability.md): sent without a
   network, they wait in the outbox (outbox.js) like the game page's entries, each with a key
   of its own, and go in order when the network is back. Loaded by the finish page and the
   entry's page only: the game page does not carry it. No rules here: the server settles the
   game and checks the delete when it gets them. */
(function () {
  "use strict";

  var banner = document.querySelector("[data-offline]");
  var session = banner && banner.getAttribute("data-offline");

  function offline() {
    return !navigator.onLine || document.documentElement.hasAttribute("data-offline-copy");
  }

  function queue(form, fields, label) {
    return window.Outbox.add({ session: session, url: form.action, fields: fields, label: label, cards: [] });
  }

  /* The finish: the hands as tapped, booked at once when sent (no preview: that needs the
     server); the page says that the settlement is worked out when the network is back. */
  function finish(form) {
    var chosen = form.querySelector("input[name=winner]:checked");
    var name = chosen && chosen.labels[0] ? chosen.labels[0].textContent.trim() : "";
    var fields = window.Outbox.fieldsOf(form).filter(function (pair) { return pair[0] !== "show"; });
    fields.push(["confirm", "1"]);
    return queue(form, fields, form.getAttribute("data-t-label").replace("{name}", name)).then(function (kept) {
      var note = document.createElement("p");
      note.className = "preview waiting";
      note.setAttribute("role", "status");
      note.setAttribute("data-finish-waits", kept.id);
      note.textContent = form.getAttribute("data-t-waits") + " ";
      var back = document.createElement("a");
      back.href = form.getAttribute("data-back");
      back.textContent = form.getAttribute("data-t-back");
      note.appendChild(back);
      form.parentNode.insertBefore(note, form);
      Array.prototype.forEach.call(form.elements, function (part) { part.disabled = true; });
      // Sent (offline.js sends on "online"): the game page shows the settlement booked.
      document.addEventListener("outbox", function () {
        window.Outbox.list(session).then(function (left) {
          if (!left.some(function (entry) { return entry.id === kept.id; })) { location.assign(back.href); }
        });
      });
    });
  }

  /* The delete: back to the game, where it waits among the entries. */
  function remove(form) {
    var part = form.closest("[data-delete]");
    return queue(form, window.Outbox.fieldsOf(form), part.getAttribute("data-t-label")).then(function () {
      location.assign(part.getAttribute("data-back"));
    });
  }

  // Before picker.js's own handlers (capture): offline, the form goes into the outbox.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var kind = form.hasAttribute("data-finish") ? finish : form.closest("[data-delete]") ? remove : null;
    if (!kind || !session || !window.Outbox || !offline()) { return; }
    event.preventDefault();
    event.stopImmediatePropagation();
    kind(form).catch(function () { /* no IndexedDB: the form stays as it was, to send later */ });
  }, true);
})();
