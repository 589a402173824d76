/* Treppenrommé scorekeeper: the card picker, the live check and the wake lock.
   Progressive enhancement: the forms work without this file; it only fills their fields. */
(function () {
  "use strict";
  var RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  var SUIT_LETTERS = { S: "♠", H: "♥", D: "♦", C: "♣" };
  var RANK_WORDS = { T: "10", B: "J", D: "Q" };

  function $(root, selector) { return root.querySelector(selector); }
  function $$(root, selector) { return Array.prototype.slice.call(root.querySelectorAll(selector)); }
  function fill(text, values) {
    return (text || "").replace(/\{(\w+)\}/g, function (whole, key) {
      return key in values ? values[key] : whole;
    });
  }

  /* Card codes and their labels in the page's language (German B, D). */
  function Letters(root) {
    var local = (root.getAttribute("data-letters") || RANKS.join(" ")).split(" ");
    var map = {};
    RANKS.forEach(function (rank, i) { map[rank] = local[i] || rank; });
    this.label = function (code) { return (map[code.slice(0, -1)] || code.slice(0, -1)) + code.slice(-1); };
    this.labels = function (codes) { return codes.map(this.label).join(" "); };
  }

  /* Read typed cards leniently into codes ("qc" -> "Q♣"); what cannot be read is skipped. */
  function parse(text) {
    var codes = [];
    (text || "").split(/[\s,;\-–]+/).forEach(function (token) {
      var parts = token.replace(/[\ufe0e\ufe0f]/g, "").match(/[^♠♥♦♣]*[♠♥♦♣]|.+/g) || [];
      parts.forEach(function (part) {
        if (part.length < 2) { return; }
        var suit = part.slice(-1).toUpperCase();
        suit = SUIT_LETTERS[suit] || ("♠♥♦♣".indexOf(suit) >= 0 ? suit : null);
        var rank = part.slice(0, -1).toUpperCase();
        rank = RANK_WORDS[rank] || rank;
        if (suit && RANKS.indexOf(rank) >= 0 && codes.indexOf(rank + suit) < 0) { codes.push(rank + suit); }
      });
    });
    return codes;
  }

  /* The grid of 52 buttons: toggles cards, marks taken ones. */
  function Picker(element, onToggle) {
    var buttons = $$(element, "button[data-card]");
    element.hidden = false;
    element.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-card]");
      if (button && !button.disabled) { onToggle(button.getAttribute("data-card")); }
    });
    this.show = function (picked, elsewhere) {
      buttons.forEach(function (button) {
        var code = button.getAttribute("data-card");
        if (button.hasAttribute("data-taken")) { return; }
        var away = elsewhere.indexOf(code) >= 0;
        button.disabled = away;
        button.classList.toggle("elsewhere", away);
        if (away) { button.setAttribute("aria-disabled", "true"); } else { button.removeAttribute("aria-disabled"); }
        button.setAttribute("aria-pressed", String(!away && picked.indexOf(code) >= 0));
      });
    };
  }

  /* The game: one form records a meld, or a layoff onto the meld tapped on the table. */
  function Entry(form) {
    var letters = new Letters(form);
    var field = $(form, "input[name=cards]");
    var preview = $(form, "[data-preview]");
    var meldButton = $(form, "button[data-mode=meld]");
    var layoffButton = $(form, "button[data-mode=layoff]");
    var url = form.getAttribute("data-check") + "?lang=" + encodeURIComponent(form.getAttribute("data-lang") || "en");
    var text = function (name) { return form.getAttribute("data-t-" + name) || ""; };
    var asked = 0;
    var timer = null;
    var sent = false;

    function onto() { return $(form, "input[name=meld]:checked:not([value=''])"); }

    function say(message, kind) {
      preview.textContent = message;
      preview.className = "preview" + (kind ? " " + kind : "");
    }

    function describe(answer, meld) {
      var kind = text(answer.kind) || answer.kind;
      var said = meld
        ? fill(text("layoff"), { cards: letters.labels(answer.added), meld: letters.labels(answer.cards), value: answer.value })
        : kind + " " + letters.labels(answer.cards) + ": " + answer.value;
      // An ace worth nothing (Boathouse Rum scores no melds) needs no explaining.
      (answer.aces || []).filter(function (ace) { return ace.value; }).forEach(function (ace) {
        said += ", " + fill(text("ace-" + ace.position), { value: ace.value });
      });
      return "✓ " + said;
    }

    function check() {
      var meld = onto();
      var cards = field.value.trim();
      if (!cards) {
        say(meld ? fill(text("layoff-hint"), { meld: meld.getAttribute("data-label") }) : text("meld-hint"));
        return;
      }
      var number = ++asked;
      // The check knows the cards, not the table: cards on it are refused here, as on recording.
      var taken = parse(cards).filter(function (code) {
        var button = $(form, 'button[data-card="' + code + '"]');
        return button && button.hasAttribute("data-taken");
      });
      if (taken.length) {
        say("✗ " + fill(text(taken.length === 1 ? "taken-one" : "taken-other"), { cards: letters.labels(taken) }), "bad");
        return;
      }
      var body = { cards: cards, variant: form.getAttribute("data-variant") || "treppenromme" };
      if (meld) { body.onto = meld.getAttribute("data-cards"); }
      fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })
        .then(function (response) { return response.json(); })
        .then(function (answer) {
          if (number !== asked) { return; }
          if (answer.valid) { say(describe(answer, meld), "ok"); } else { say("✗ " + answer.error, "bad"); }
        })
        .catch(function () { if (number === asked) { say(text("offline")); } });
    }

    function soon() { clearTimeout(timer); timer = setTimeout(check, 120); }

    function mode() {
      var layoff = Boolean(onto());
      meldButton.hidden = layoff;
      if (layoffButton) { layoffButton.hidden = !layoff; }
      form.classList.toggle("laying-off", layoff);
      check();
    }

    fillsField(form, field, letters, soon);
    $$(form, "input[name=meld]").forEach(function (radio) { radio.addEventListener("change", mode); });
    form.addEventListener("submit", function (event) {
      if (sent) { event.preventDefault(); return; }
      if (onto() && layoffButton && event.submitter !== layoffButton) {
        event.preventDefault();
        form.requestSubmit(layoffButton);
        return;
      }
      sent = true;
    });
    window.addEventListener("pageshow", function () { sent = false; });
    mode();
  }

  /* The picker of a form with one cards field: a tap adds or takes away a card, typing shows. */
  function fillsField(form, field, letters, changed) {
    var picker = new Picker($(form, "[data-picker]"), function (code) {
      var picked = parse(field.value);
      var at = picked.indexOf(code);
      if (at >= 0) { picked.splice(at, 1); } else { picked.push(code); }
      field.value = letters.labels(picked);
      picker.show(picked, []);
      changed();
    });
    field.addEventListener("input", function () { picker.show(parse(field.value), []); changed(); });
    picker.show(parse(field.value), []);
  }

  /* Correcting an entry: its own cards are free to tap, the rest of the table is not. */
  function Correct(form) {
    fillsField(form, $(form, "input[name=cards]"), new Letters(form), function () {});
  }

  /* The end of a game: the picker fills the hand that was tapped last. */
  function Finish(form) {
    var letters = new Letters(form);
    var hands = $$(form, "[data-hand]");
    var active = null;

    function input(hand) { return $(hand, "input[name^=hand_]"); }
    function winner() {
      var chosen = $(form, "input[name=winner]:checked");
      return chosen ? chosen.value : null;
    }
    function show() {
      var elsewhere = [];
      hands.forEach(function (hand) {
        var target = $(hand, ".hand-target");
        target.setAttribute("aria-pressed", String(hand === active));
        hand.classList.toggle("active", hand === active);
        if (hand !== active && !hand.hidden) { elsewhere = elsewhere.concat(parse(input(hand).value)); }
      });
      picker.show(active ? parse(input(active).value) : [], elsewhere);
    }
    function choose(hand) { active = hand; show(); }
    function seat() {
      var out = winner();
      hands.forEach(function (hand) {
        var gone = hand.getAttribute("data-hand") === out;
        hand.hidden = gone;
        if (gone) { input(hand).value = ""; }
      });
      if (!active || active.hidden) { choose(hands.filter(function (hand) { return !hand.hidden; })[0] || null); } else { show(); }
    }

    var picker = new Picker($(form, "[data-picker]"), function (code) {
      if (!active) { return; }
      var picked = parse(input(active).value);
      var at = picked.indexOf(code);
      if (at >= 0) { picked.splice(at, 1); } else { picked.push(code); }
      input(active).value = letters.labels(picked);
      show();
    });

    hands.forEach(function (hand) {
      var target = $(hand, ".hand-target");
      target.hidden = false;
      target.addEventListener("click", function () { choose(hand); });
      input(hand).addEventListener("focus", function () { choose(hand); });
      input(hand).addEventListener("input", show);
    });
    $$(form, "input[name=winner]").forEach(function (radio) { radio.addEventListener("change", seat); });
    seat();
  }

  /* Keep the screen on while a game is open, where the browser allows it. */
  function keepAwake() {
    if (!("wakeLock" in navigator)) { return; }
    var ask = function () {
      if (document.visibilityState === "visible") { navigator.wakeLock.request("screen").catch(function () {}); }
    };
    document.addEventListener("visibilitychange", ask);
    ask();
  }

  /* Starting a session: the list of first dealers names the players as they are typed. */
  function Seating(form) {
    /* The target shown follows the rule system chosen, until the recorder types another. */
    var target = $(form, "input[name=target]");
    var defaults = JSON.parse((target && target.getAttribute("data-defaults")) || "{}");
    var chosen = $(form, "input[name=variant]:checked");
    var previous = chosen ? chosen.value : "";
    $$(form, "input[name=variant]").forEach(function (radio) {
      radio.addEventListener("change", function () {
        if (target && String(defaults[previous]) === target.value && defaults[radio.value]) {
          target.value = defaults[radio.value];
        }
        if (target && defaults[radio.value]) { target.placeholder = defaults[radio.value]; }
        previous = radio.value;
      });
    });
    /* Only the house rules of the rule system and the ending chosen are shown (all without JS). */
    var value = function (name) {
      var radio = $(form, "input[name=" + name + "]:checked");
      return radio ? radio.value : "";
    };
    var show = function () {
      $$(form, "[data-variant-only]").forEach(function (part) {
        part.hidden = part.getAttribute("data-variant-only") !== value("variant");
      });
      $$(form, "[data-end-only]").forEach(function (part) {
        part.hidden = part.getAttribute("data-end-only") !== value("end");
      });
    };
    $$(form, "input[name=variant], input[name=end]").forEach(function (radio) {
      radio.addEventListener("change", show);
    });
    show();
    $$(form, "input[name^=names-]").forEach(function (input) {
      var option = $(form, 'select[name=dealer] option[value="' + input.name.slice(6) + '"]');
      if (!option) { return; }
      var seat = option.textContent;
      var name = function () { option.textContent = input.value.trim() || seat; };
      input.addEventListener("input", name);
      name();
    });
  }

  /* A phone that watches shows the scores as the recorder writes them: it reloads now and then,
     while it is on screen, and at once when it comes back on screen. */
  function watch(element) {
    var seconds = Number(element.getAttribute("data-watch")) || 20;
    var reload = function () { if (document.visibilityState === "visible") { location.reload(); } };
    setInterval(reload, seconds * 1000);
    document.addEventListener("visibilitychange", reload);
  }

  function start() {
    $$(document, "form[data-entry]").forEach(function (form) { new Entry(form); });
    $$(document, "form[data-finish]").forEach(function (form) { new Finish(form); });
    $$(document, "form[data-correct]").forEach(function (form) { new Correct(form); });
    $$(document, "form[data-seating]").forEach(function (form) { new Seating(form); });
    if ($(document, "[data-wake-lock]")) { keepAwake(); }
    var watching = $(document, "[data-watch]");
    if (watching) { watch(watching); }
  }

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
