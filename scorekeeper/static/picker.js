/* Rummy scorekeeper: the card picker, the live check and the wake lock.
   Progressive enhancement: the forms work without this file; it only fills their fields. */
(function () {
  "use strict";
  var RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  var RANK_WORDS = { B: "J", D: "Q" };

  function $(root, selector) { return root.querySelector(selector); }
  function $$(root, selector) { return Array.prototype.slice.call(root.querySelectorAll(selector)); }
  function fill(text, values) {
    return (text || "").replace(/\{(\w+)\}/g, function (whole, key) {
      return key in values ? values[key] : whole;
    });
  }

  /* Card codes and their labels in the page's language (German B, D); a joker is JKR. */
  function Letters(root) {
    var local = (root.getAttribute("data-letters") || RANKS.join(" ")).split(" ");
    var map = {};
    RANKS.forEach(function (rank, i) { map[rank] = local[i] || rank; });
    var card = function (code) { return (map[code.slice(0, -1)] || code.slice(0, -1)) + code.slice(-1); };
    this.label = function (code) {
      if (code.indexOf(JOKER) === 0) { return code.length > 4 ? JOKER + "=" + card(code.slice(4)) : JOKER; }
      return card(code);
    };
    this.labels = function (codes) { return codes.map(this.label).join(" "); };
  }

  var JOKER = "JKR";
  var JOKER_WORD = /^(jkr|joker)(?:=(.+))?$/i;

  /* Read one card as the picker writes it ("Q♣", German "D♣"), or null. Typed words ("qc",
     "Herz As") are the server's to read: the live check (the game page) and POST
     /games/<id>/read (the finish and correction pages) answer the cards it read. */
  function readCard(part) {
    if (part.length < 2) { return null; }
    var suit = part.slice(-1);
    suit = "♠♥♦♣".indexOf(suit) >= 0 ? suit : null;
    var rank = part.slice(0, -1).toUpperCase();
    rank = RANK_WORDS[rank] || rank;
    return suit && RANKS.indexOf(rank) >= 0 ? rank + suit : null;
  }

  /* Read the picker's labels into codes ("D♣" -> "Q♣", "JKR=7♠"); anything else is skipped.
     With one pack a card is read once; with two it may come twice. */
  function parse(text, copies) {
    var codes = [];
    (text || "").split(/[\s,;\-–]+/).forEach(function (token) {
      token = token.replace(/[\ufe0e\ufe0f]/g, "");
      var joker = token.match(JOKER_WORD);
      if (joker) {
        var said = joker[2] ? readCard(joker[2]) : null;
        codes.push(said ? JOKER + "=" + said : JOKER);
        return;
      }
      (token.match(/[^♠♥♦♣]*[♠♥♦♣]|.+/g) || []).forEach(function (part) {
        var code = readCard(part);
        if (code && ((copies || 1) > 1 || codes.indexOf(code) < 0)) { codes.push(code); }
      });
    });
    return codes;
  }

  /* What the server read of typed text, kept by the text (POST /games/<id>/read): the
     picker shows it pressed. Until it answers, only the picker's own labels are read. */
  function Reader(form) {
    var url = form.getAttribute("data-read");
    var copies = Number(form.getAttribute("data-packs")) || 1;
    var heard = {};
    this.codes = function (value) {
      var typed = (value || "").trim();
      return heard[typed] || parse(typed, copies);
    };
    /* Ask what a text names; ``then`` gets the answer ({cards} or {cards: [], error}). */
    this.hear = function (value, then) {
      var typed = (value || "").trim();
      if (!url || !typed) { return; }
      send({ url: url, json: { cards: typed } }).then(function (answer) {
        if (!answer.body.error) { heard[typed] = answer.body.cards; }
        then(answer.body);
      }).catch(function () {});
    };
  }

  /* Whether a code is a copy of the picker's card: any joker is a copy of the joker button. */
  function same(code, card) { return card === JOKER ? code.indexOf(JOKER) === 0 : code === card; }
  function count(codes, card) { return codes.filter(function (code) { return same(code, card); }).length; }

  /* The grid of 52 buttons (and the joker): toggles cards, marks taken ones, counts copies. */
  function Picker(element, onToggle) {
    var buttons = $$(element, "button[data-card]");
    var saysLeft = element.getAttribute("data-t-left");
    buttons.forEach(function (b) { b.setAttribute("data-name", b.getAttribute("aria-label") || ""); });
    element.hidden = false;
    element.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-card]");
      if (button && !button.disabled) { onToggle(button.getAttribute("data-card")); }
    });
    function button(card) { return buttons.filter(function (b) { return b.getAttribute("data-card") === card; })[0]; }
    /* How many more copies of a card may be picked: those not on the table, elsewhere or picked. */
    this.room = function (card, picked, elsewhere) {
      var b = button(card);
      if (!b) { return 0; }
      var lying = b.hasAttribute("data-left") ? Number(b.getAttribute("data-left")) : (b.hasAttribute("data-taken") ? 0 : 1);
      return lying - count(elsewhere, card) - count(picked, card);
    };
    /* A tap adds a copy while one is left and fewer than ``most`` are picked, else takes it
       back: all of a card, one joker at a time ("-JKR", the joker's own button to take back). */
    this.toggled = function (picked, card, elsewhere, most) {
      if (card === "-" + JOKER || (card === JOKER && count(picked, JOKER) > 0 && (count(picked, JOKER) >= most || this.room(card, picked, elsewhere) <= 0))) {
        var last = -1;
        picked.forEach(function (code, at) { if (code.indexOf(JOKER) === 0) { last = at; } });
        return last < 0 ? picked : picked.slice(0, last).concat(picked.slice(last + 1));
      }
      var mine = count(picked, card);
      if (mine > 0 && (mine >= most || this.room(card, picked, elsewhere) <= 0)) {
        return picked.filter(function (code) { return !same(code, card); });
      }
      if (this.room(card, picked, elsewhere) <= 0) { return picked; }
      return picked.concat([card]);
    };
    this.show = function (picked, elsewhere) {
      var self = this;
      buttons.forEach(function (b) {
        var card = b.getAttribute("data-card");
        if (card === "-" + JOKER) { b.hidden = count(picked, JOKER) === 0; return; }
        var mine = count(picked, card);
        if (b.hasAttribute("data-left")) {
          var left = self.room(card, picked, elsewhere);
          $(b, ".left").textContent = String(Math.max(0, left));
          if (saysLeft) { b.setAttribute("aria-label", fill(saysLeft, { card: b.getAttribute("data-name"), count: Math.max(0, left) })); }
          if (b.hasAttribute("data-taken")) { return; }
          var none = left <= 0 && mine === 0;
          b.disabled = none;
          b.classList.toggle("elsewhere", none);
          if (none) { b.setAttribute("aria-disabled", "true"); } else { b.removeAttribute("aria-disabled"); }
          b.setAttribute("aria-pressed", String(mine > 0));
          return;
        }
        if (b.hasAttribute("data-taken")) { return; }
        var away = elsewhere.indexOf(card) >= 0;
        b.disabled = away;
        b.classList.toggle("elsewhere", away);
        if (away) { b.setAttribute("aria-disabled", "true"); } else { b.removeAttribute("aria-disabled"); }
        b.setAttribute("aria-pressed", String(!away && mine > 0));
      });
    };
  }

  /* Say what the check answered: the meld (or layoff) in playing order, its value and why. */
  function said(answer, meld, counted, text, letters) {
    var kind = text(answer.kind) || answer.kind;
    var value = counted ? (answer.opening_value !== undefined ? answer.opening_value : answer.value) : answer.value;
    var words = meld
      ? fill(text("layoff"), { cards: letters.labels(answer.added), meld: letters.labels(answer.cards), value: answer.value })
      : kind + " " + letters.labels(answer.cards) + ": " + value;
    if (counted) { return words; }
    var aces = (answer.aces || []).filter(function (ace) { return ace.value; });
    var told = {};
    aces.forEach(function (ace) {
      var key = ace.position + " " + ace.value;
      if (told[key]) { return; }
      told[key] = true;
      var many = aces.filter(function (other) { return other.position === ace.position && other.value === ace.value; }).length;
      var several = text("aces-" + ace.position);
      words += ", " + (many > 1 && several
        ? fill(several, { count: many, value: ace.value })
        : fill(text("ace-" + ace.position), { value: ace.value }));
    });
    return words;
  }

  /* Ask the server's check about cards (a meld, a layoff, a swap) under the session's rules. */
  function asker(form) {
    var url = form.getAttribute("data-check") + "?lang=" + encodeURIComponent(form.getAttribute("data-lang") || "en");
    var rules = JSON.parse(form.getAttribute("data-rules") || "null");
    return function (body) {
      if (form.getAttribute("data-variant")) { body.variant = form.getAttribute("data-variant"); }
      if (rules) { body.rules = rules; }
      return fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })
        .then(function (response) { return response.json(); });
    };
  }

  /* Let the DE / EN links come back to this address, which holds what was picked so far. */
  function languageLinksTo(next) {
    $$(document, "nav.languages a[href]").forEach(function (link) {
      var address = new URL(link.href, location.href);
      address.searchParams.set("next", next);
      link.href = address.pathname + address.search;
    });
  }

  /* Replace the first joker not yet said in a text by the joker standing for a card. */
  function sayJoker(text, card, letters) {
    var done = false;
    return text.split(/\s+/).filter(Boolean).map(function (token) {
      if (!done && /^(jkr|joker)$/i.test(token)) { done = true; return letters.label(JOKER + "=" + card); }
      return token;
    }).join(" ");
  }

  /* The game: one form records a meld (or several together), a layoff onto the meld tapped on
     the table, or a joker swap from it. */
  function Entry(form) {
    var letters = new Letters(form);
    var copies = Number(form.getAttribute("data-packs")) || 1;
    var field = $(form, "input[name=cards]");
    var newMeld = $(form, "input[name=new_meld]");
    var meldsField = $(form, "textarea[name=melds]");
    var soFar = $(form, "[data-melds-so-far]");
    var preview = $(form, "[data-preview]");
    var choices = $(form, "[data-joker-choices]");
    var another = $(form, "button[data-another]");
    var ontoAction = $(form, "[data-onto-action]");
    var places = $(form, "[data-swap-places]");
    var buttons = { meld: $(form, "button[data-mode=meld]"), layoff: $(form, "button[data-mode=layoff]"), swap: $(form, "button[data-mode=swap]") };
    var minimum = Number(form.getAttribute("data-minimum")) || 0;
    var opened = (form.getAttribute("data-opened") || "").split(" ");
    var text = function (name) { return form.getAttribute("data-t-" + name) || ""; };
    var asked = 0;
    var timer = null;
    var heard = {};
    function read(value) {
      var typed = (value || "").trim();
      return heard[typed] || parse(typed, copies);
    }

    function onto() { return $(form, "input[name=meld]:checked:not([value=''])"); }
    function mode() {
      var meld = onto();
      if (!meld) { return "meld"; }
      var swap = $(form, "input[name=onto_action][value=swap]");
      return meld.hasAttribute("data-places") && swap && swap.checked ? "swap" : "layoff";
    }
    function lines() { return meldsField ? meldsField.value.split("\n").map(function (l) { return l.trim(); }).filter(Boolean) : []; }
    function target() { return mode() === "swap" && newMeld ? newMeld : field; }
    function opening() {
      var player = $(form, "input[name=player]:checked");
      return minimum > 0 && !(player && opened.indexOf(player.value) >= 0);
    }
    function elsewhere() {
      if (mode() === "swap") { return read(field.value); }
      if (mode() === "meld") { return [].concat.apply([], lines().map(read)); }
      return [];
    }

    function say(message, kind, html) {
      if (html) { preview.innerHTML = message; } else { preview.textContent = message; }
      preview.className = "preview" + (kind ? " " + kind : "");
      if (offered) { preview.appendChild(offered); }
    }
    function player() { return $(form, "input[name=player]:checked"); }
    function playerName() {
      var chip = player();
      var label = chip && chip.closest("label");
      return label ? label.textContent.replace("✓", "").trim() : "";
    }
    /* Every record button names the player it records for. */
    function nameButtons() {
      Object.keys(buttons).forEach(function (name) {
        var b = buttons[name];
        if (b && b.hasAttribute("data-t-for")) { b.textContent = fill(b.getAttribute("data-t-for"), { name: playerName() }); }
      });
    }
    /* Offer the cards a joker in doubt can stand for; a tap says it in the text it came from. */
    function offer(cards, rewrite) {
      choices.textContent = "";
      choices.hidden = !cards || !cards.length;
      (cards || []).forEach(function (card) {
        var b = document.createElement("button");
        b.type = "button";
        b.className = "pick choice" + ("♥♦".indexOf(card.slice(-1)) >= 0 ? " red" : "");
        b.textContent = letters.label(JOKER + "=" + card);
        b.addEventListener("click", function () { rewrite(card); refresh(); });
        choices.appendChild(b);
      });
    }
    function rewriter(input) { return function (card) { input.value = sayJoker(input.value, card, letters); }; }

    function describe(answer, meld, counted) { return said(answer, meld, counted, text, letters); }

    /* Ask the game's own check: it knows the table, the copies left and the player's opening,
       and answers what recording would (POST /games/<id>/check). */
    function ask(body) {
      var chosen = player();
      if (chosen) { body.player = chosen.value; }
      return send({ url: form.getAttribute("data-game-check"), json: body }).then(function (answer) { return answer.body; });
    }

    /* What the server read, kept by the text it read it from; the picker shows it pressed. */
    function remember(typed, codes) {
      if (typed && codes && /[^\s]/.test(typed)) { heard[typed.trim()] = codes; }
    }

    var idle = form.getAttribute("data-said");
    var outbox = window.Outbox;
    var banner = $(document, "[data-offline]");
    var session = banner ? banner.getAttribute("data-offline") : null;
    var queued = [];
    function check() {
      var now = mode();
      var meld = onto();
      var cards = field.value.trim();
      offer([]);
      if (now === "swap") { return checkSwap(meld, cards); }
      var earlier = now === "meld" ? lines() : [];
      if (!cards && !earlier.length) {
        if (idle && !meld) { say(idle, idle.charAt(0) === "…" ? "waiting" : "ok", idle.charAt(0) !== "…"); return; }
        say(meld ? fill(text("layoff-hint"), { meld: meld.getAttribute("data-label") }) : text("meld-hint"));
        return;
      }
      idle = null;
      var number = ++asked;
      if (!navigator.onLine) { showPicked(); say(text("checked-later")); return; }
      var body = meld ? { cards: cards, onto: meld.value } : { cards: cards, melds: earlier };
      ask(body).then(function (answer) {
        if (number !== asked) { return; }
        if (meld) { remember(cards, answer.added); } else if (answer.melds) {
          earlier.concat(cards ? [cards] : []).forEach(function (line, at) { remember(line, answer.melds[at] && answer.melds[at].cards); });
        } else { remember(cards || earlier[0], answer.cards); }
        showPicked();
        var counted = !meld && opening() && answer.opening_value !== undefined;
        if (!answer.valid) {
          say("✗ " + answer.error + (counted ? " — " + fill(text("opening"), { value: answer.opening_value, minimum: minimum }) : ""), "bad");
          offer(answer.joker_choices, rewriter(field));
          return;
        }
        if (meld) { say("✓ " + describe(answer, meld), "ok"); return; }
        var said = (answer.melds || [answer]).map(function (a) { return describe(a, null, counted); }).join(" · ");
        if (counted) { said += " — " + fill(text("opening"), { value: answer.opening_value, minimum: minimum }); }
        say("✓ " + said, "ok");
      }).catch(function () { if (number === asked) { say(text("offline")); } });
    }

    function checkSwap(meld, cards) {
      var joined = newMeld ? newMeld.value.trim() : "";
      if (!cards || !read(joined).some(function (code) { return code.indexOf(JOKER) < 0; })) {
        say(text("swap-hint"));
        return;
      }
      var number = ++asked;
      ask({ onto: meld.value, cards: cards, new_meld: joined }).then(function (answer) {
        if (number !== asked) { return; }
        if (answer.valid) {
          say("✓ " + fill(text("swap"), {
            cards: letters.labels(answer.added || read(cards)),
            meld: letters.labels(answer.meld.cards),
            new_meld: letters.labels(answer.new_meld.cards)
          }), "ok");
          return;
        }
        say("✗ " + answer.error, "bad");
        offer(answer.joker_choices, rewriter(newMeld));
      }).catch(function () { if (number === asked) { say(text("offline")); } });
    }

    function soon() { clearTimeout(timer); timer = setTimeout(check, 120); }

    /* The melds tapped before "Another meld": listed, each can be taken back. */
    function showMelds() {
      if (!soFar) { return; }
      soFar.textContent = "";
      lines().forEach(function (line, at) {
        var item = document.createElement("li");
        var cards = document.createElement("span");
        cards.className = "cards";
        cards.textContent = letters.labels(read(line));
        var back = document.createElement("button");
        back.type = "button";
        back.className = "small";
        back.textContent = "✕";
        back.setAttribute("aria-label", letters.labels(read(line)) + " ✕");
        back.addEventListener("click", function () {
          var all = lines();
          all.splice(at, 1);
          meldsField.value = all.join("\n");
          refresh();
        });
        item.appendChild(cards);
        item.appendChild(back);
        soFar.appendChild(item);
      });
      soFar.hidden = mode() !== "meld" || !lines().length;
    }

    /* In a swap the new meld's first joker is the one taken from the table, not one left. */
    function swapped(codes) {
      if (mode() !== "swap") { return null; }
      return codes.filter(function (code) { return code.indexOf(JOKER) === 0; })[0] || null;
    }
    function fromHand(codes) {
      var joker = swapped(codes);
      var at = joker ? codes.indexOf(joker) : -1;
      return at < 0 ? codes : codes.slice(0, at).concat(codes.slice(at + 1));
    }
    var picker = new Picker($(form, "[data-picker]"), function (code) {
      var input = target();
      var picked = read(input.value);
      var joker = swapped(picked);
      var hand = picker.toggled(fromHand(picked), code, elsewhere(), code === JOKER ? 6 : 1);
      input.value = letters.labels(joker ? [joker].concat(hand) : hand);
      showPicked();
      soon();
      keepAcrossLanguages();
    });
    function showPicked() { picker.show(fromHand(read(target().value)), elsewhere()); }

    /* The cards a joker of the chosen meld stands for: one tap puts the card in its place. */
    function showPlaces(meld) {
      var holder = $(form, "[data-places-buttons]");
      if (!holder) { return; }
      holder.textContent = "";
      var cards = meld && meld.getAttribute("data-places") ? meld.getAttribute("data-places").split(" ") : [];
      cards.forEach(function (card) {
        var b = document.createElement("button");
        b.type = "button";
        b.className = "pick choice" + ("♥♦".indexOf(card.slice(-1)) >= 0 ? " red" : "");
        b.setAttribute("data-place", card);
        var put = function () { return read(field.value).indexOf(card) >= 0; };
        b.setAttribute("aria-pressed", String(put()));
        b.textContent = letters.label(card);
        b.addEventListener("click", function () {
          var now = read(field.value);
          field.value = letters.labels(put() ? now.filter(function (c) { return c !== card; }) : now.concat([card]));
          b.setAttribute("aria-pressed", String(put()));
          showPicked();
          soon();
        });
        holder.appendChild(b);
      });
      if (cards.length === 1 && !field.value.trim()) { field.value = letters.label(cards[0]); holder.firstChild.setAttribute("aria-pressed", "true"); }
    }

    function refresh() {
      var now = mode();
      var meld = onto();
      Object.keys(buttons).forEach(function (name) { if (buttons[name]) { buttons[name].hidden = name !== now; } });
      if (another) { another.hidden = now !== "meld"; }
      if (ontoAction) { ontoAction.hidden = !(meld && meld.hasAttribute("data-places")); }
      if (places) { places.hidden = now !== "swap"; }
      $$(form, "[data-swap-only]").forEach(function (part) { part.hidden = now !== "swap"; });
      if (now === "swap") {
        if (!$(places, "[data-place]")) { showPlaces(meld); }
        if (newMeld && !newMeld.value.trim()) { newMeld.value = JOKER; }
      } else if (places) {
        $(places, "[data-places-buttons]").textContent = "";
      }
      form.classList.toggle("laying-off", now !== "meld");
      showMelds();
      showPicked();
      check();
      keepAcrossLanguages();
    }

    /* Switching DE / EN keeps the entry begun: the language links carry its player, cards,
       the melds picked before, the meld chosen, the mode and the joker's new meld (the session
       page reads them back, see _next_entry_form and _entry_begun). */
    function keepAcrossLanguages() {
      var player = $(form, "input[name=player]:checked");
      var query = new URLSearchParams();
      if (player) { query.set("player", player.value); }
      if (field.value.trim()) { query.set("cards", field.value.trim()); }
      if (lines().length) { query.set("melds", lines().join("\n")); }
      var meld = onto();
      if (meld) { query.set("meld", meld.value); }
      if (mode() === "swap") {
        query.set("action", "swap");
        if (newMeld && newMeld.value.trim()) { query.set("new_meld", newMeld.value.trim()); }
      }
      languageLinksTo(location.pathname + (query.toString() ? "?" + query.toString() : ""));
    }

    if (meldsField) { $(form, "[data-more-melds]").hidden = true; }
    if (another) {
      another.addEventListener("click", function () {
        var cards = field.value.trim();
        if (!cards) { return; }
        meldsField.value = lines().concat([cards]).join("\n");
        field.value = "";
        refresh();
      });
    }
    field.addEventListener("input", function () { showPicked(); soon(); keepAcrossLanguages(); });
    if (newMeld) { newMeld.addEventListener("input", function () { showPicked(); soon(); }); }
    $$(form, "input[name=meld], input[name=onto_action]").forEach(function (radio) {
      radio.addEventListener("change", function () {
        if (places) { $(places, "[data-places-buttons]").textContent = ""; }
        refresh();
      });
    });
    $$(form, "input[name=player]").forEach(function (radio) {
      radio.addEventListener("change", function () { nameButtons(); check(); keepAcrossLanguages(); });
    });

    /* What the recorder has begun: kept through a refusal, put back as it was. */
    function begun() {
      var meld = onto();
      var action = $(form, "input[name=onto_action]:checked");
      return { cards: field.value, melds: meldsField ? meldsField.value : "", meld: meld ? meld.value : "",
        action: action ? action.value : "", newMeld: newMeld ? newMeld.value : "" };
    }
    function putBack(kept) {
      field.value = kept.cards;
      if (meldsField) { meldsField.value = kept.melds; }
      if (newMeld) { newMeld.value = kept.newMeld; }
      var meld = $(form, 'input[name=meld][value="' + kept.meld + '"]') || $(form, "input[name=meld][value='']");
      if (meld) { meld.checked = true; }
      var action = kept.action && $(form, 'input[name=onto_action][value="' + kept.action + '"]');
      if (action) { action.checked = true; }
      if (places) { $(places, "[data-places-buttons]").textContent = ""; }
      refresh();
    }

    /* The entry as sent, greyed at the top of the entries until the server answers. */
    function waiting(kept, kind) {
      var list = $(document, "ol.entries");
      if (!list) {
        list = document.createElement("ol");
        list.className = "entries";
        var empty = $(document, "#game p.empty");
        if (empty) { empty.replaceWith(list); } else { form.after(list); }
      }
      var line = document.createElement("li");
      line.setAttribute("data-waiting", "");
      var cards = kind === "meld" ? lines().concat(field.value.trim() ? [field.value.trim()] : []).map(function (l) { return letters.labels(read(l)); }).join(" + ") : letters.labels(read(kept.cards));
      [["who", playerName()], ["kind", text("sending")], ["cards", cards]].forEach(function (part) {
        var span = document.createElement("span");
        span.className = part[0];
        span.textContent = part[1];
        line.appendChild(span);
        line.appendChild(document.createTextNode(" "));
      });
      list.insertBefore(line, list.firstChild);
      return line;
    }

    /* Record in place: the form's own fields to the form's own address, with a key of its own. */
    function record(button, kind) {
      var fields = Array.from(new FormData(form).entries());
      var kept = begun();
      var line = waiting(kept, kind);
      field.value = "";
      if (meldsField) { meldsField.value = ""; }
      if (newMeld) { newMeld.value = ""; }
      var fresh = $(form, "input[name=meld][value='']");
      if (fresh) { fresh.checked = true; }
      if (places) { $(places, "[data-places-buttons]").textContent = ""; }
      idle = "… " + playerName() + ": " + $(line, ".cards").textContent;
      refresh();
      say(idle, "waiting");
      var prepared = { url: button.getAttribute("formaction") || form.action, fields: fields, key: newKey() };
      var cards = codesOf(kept, kind);
      if (outbox && session && (!navigator.onLine || queued.length)) {
        keep(prepared, line, cards);
        return;
      }
      send(prepared).then(function (answer) {
        if (answer.status < 300 && answer.body.line) {
          line.outerHTML = answer.body.line;
          idle = "✓ " + answer.body.said;
          if (!field.value.trim() && !lines().length) { say(idle, "ok", true); }
          document.dispatchEvent(new CustomEvent("scorekeeper:changed", { detail: { said: idle } }));
          return;
        }
        line.remove();
        putBack(kept);
        say("✗ " + answer.body.error, "bad", true);
      }).catch(function () {
        if (outbox && session) { keep(prepared, line, cards); return; }
        line.remove();
        putBack(kept);
        say(text("offline"), "bad");
      });
    }

    /* Offline: an entry waits in the outbox (outbox.js), greyed, its cards taken; a refusal on
       sending is named in the bar, to correct or drop (docs/reliability.md). */
    function codesOf(kept, kind) {
      var all = [kept.cards, kind === "meld" ? kept.melds : "", kind === "swap" ? kept.newMeld : ""].join("\n");
      return [].concat.apply([], all.split("\n").filter(function (l) { return l.trim(); }).map(read));
    }
    function keep(prepared, line, cards) {
      var label = idle.replace(/^… /, "");
      outbox.add({ session: session, url: prepared.url, idempotencyKey: prepared.key, label: label, cards: cards, fields: outbox.fieldsOf(prepared.fields) })
        .then(function () {
          line.remove();
          idle = null;
          say(text("queued") + ": " + label, "waiting");
          if (navigator.onLine) { outbox.flush(session); }
        })
        .catch(function () { line.remove(); say(text("offline"), "bad"); });
    }
    function drawQueued() {
      if (!outbox || !session || !form.isConnected) { return; }
      outbox.list(session).then(function (entries) {
        queued = entries;
        $$(document, "ol.entries > li[data-outbox]").forEach(function (l) { l.remove(); });
        var list = $(document, "ol.entries");
        if (!list && entries.length) { list = document.createElement("ol"); list.className = "entries"; form.after(list); }
        entries.forEach(function (entry) {
          var line = document.createElement("li");
          line.setAttribute("data-outbox", entry.id);
          line.innerHTML = '<span class="kind"></span> <span class="cards"></span> <span class="actions"><button type="button" class="small" data-outbox-delete></button></span>';
          $(line, ".kind").textContent = text("queued");
          $(line, ".cards").textContent = entry.label;
          $(line, "button").textContent = text("delete");
          $(line, "button").addEventListener("click", function () { outbox.remove(entry.id); });
          list.insertBefore(line, list.firstChild);
          entry.cards.forEach(function (code) {
            var b = $(form, 'button[data-card="' + code + '"]');
            if (b && b.hasAttribute("data-left")) { b.setAttribute("data-left", Math.max(0, b.getAttribute("data-left") - 1)); } else if (b) { b.setAttribute("data-taken", ""); b.disabled = true; }
          });
        });
        refresh();
        var refused = entries.filter(function (entry) { return entry.refused; })[0];
        if (refused) { sayRefused(refused); }
      }).catch(function () {});
    }
    function sayRefused(entry) {
      var notSent = banner ? banner.getAttribute("data-t-refused") || "" : "";
      say("✗ " + fill(notSent, { label: entry.label, reason: entry.refused }), "bad");
      [["correct", function () {
        var cards = entry.fields.filter(function (pair) { return pair[0] === "cards"; })[0];
        return outbox.remove(entry.id).then(function () { if (cards) { field.value = cards[1]; } });
      }], ["drop", function () { return outbox.remove(entry.id); }]].forEach(function (choice) {
        var b = document.createElement("button");
        b.type = "button";
        b.className = "small";
        b.setAttribute("data-outbox-" + choice[0], "");
        b.textContent = text(choice[0]);
        b.addEventListener("click", function () {
          choice[1]().then(function () { idle = null; refresh(); return outbox.flush(session); });
        });
        preview.appendChild(document.createTextNode(" "));
        preview.appendChild(b);
      });
    }

    form.addEventListener("submit", function (event) {
      var wanted = buttons[mode()];
      if (wanted && event.submitter !== wanted) {
        event.preventDefault();
        form.requestSubmit(wanted);
        return;
      }
      if (!window.fetch || !form.hasAttribute("data-game-check")) { return; }
      event.preventDefault();
      record(wanted || event.submitter, mode());
    });

    /* Undo in place: the undone entry greyed, then the server's words in the bar. */
    var undo = $(document, "form#undo");
    if (undo && window.fetch) {
      undo.addEventListener("submit", function (event) {
        event.preventDefault();
        if (queued.length) {
          var latest = queued[queued.length - 1];
          outbox.remove(latest.id).then(function () { idle = null; say("✓ " + latest.label, "ok"); });
          return;
        }
        var last = $(document, "ol.entries > li:not([data-waiting])");
        if (last) { last.classList.add("undoing"); }
        var fields = Array.from(new FormData(undo).entries());
        send({ url: undo.action, fields: fields, key: newKey() }).then(function (answer) {
          if (last) { last.classList.remove("undoing"); }
          var words = answer.body.said || answer.body.error;
          idle = (answer.status < 300 ? "" : "✗ ") + words;
          say(idle, answer.status < 300 ? "ok" : "bad", true);
          if (answer.status >= 300) { return; }
          if (answer.body.restore) { offerRestore(answer.body.restore, idle); }
          var again = answer.body.player && $(form, 'input[name=player][value="' + answer.body.player + '"]');
          if (again) { again.checked = true; nameButtons(); }
          document.dispatchEvent(new CustomEvent("scorekeeper:changed", { detail: { said: idle } }));
        }).catch(function () {
          if (last) { last.classList.remove("undoing"); }
          say(text("offline"), "bad");
        });
      });
    }
    document.documentElement.style.overflowAnchor = "none";
    document.body.style.overflowAnchor = "none";
    nameButtons();
    refresh();
    document.addEventListener("outbox", function (event) {
      if (event.detail.session !== session || !form.isConnected) { return; }
      drawQueued();
      if (event.detail.flushed && event.detail.flushed.sent) { document.dispatchEvent(new CustomEvent("scorekeeper:changed", { detail: {} })); }
    });
    drawQueued();
  }

  var restoring = null;
  var offered = null;  // the "Restore" button while it is offered: the bar's words keep it
  /* For a few seconds after an undo the bar offers to record the entry again ("Restore"): a new
     entry with a key of its own, checked again by the server; the history keeps both. */
  function offerRestore(restore, said) {
    var preview = $(document, "form[data-entry] [data-preview]");
    if (!preview) { return; }
    clearTimeout(restoring);
    var b = document.createElement("button");
    b.type = "button";
    b.className = "small";
    b.setAttribute("data-restore", "");
    b.textContent = preview.closest("form").getAttribute("data-t-restore") || "Restore";
    b.addEventListener("click", function () {
      b.disabled = true;
      var token = $(document, "form[data-entry] input[name=csrf_token]");
      var fields = Object.keys(restore.fields).map(function (name) { return [name, String(restore.fields[name])]; });
      if (token) { fields.push(["csrf_token", token.value]); }
      send({ url: restore.url, fields: fields, key: newKey() }).then(function (answer) {
        var now = $(document, "form[data-entry] [data-preview]");
        var words = answer.body.line ? "✓ " + answer.body.said : "✗ " + answer.body.error;
        if (now) { now.innerHTML = words; now.className = "preview " + (answer.body.line ? "ok" : "bad"); }
        if (answer.body.line) { document.dispatchEvent(new CustomEvent("scorekeeper:changed", { detail: { said: words } })); }
      }).catch(function () { b.disabled = false; });
    });
    var put = function () {
      var now = $(document, "form[data-entry] [data-preview]");
      if (now && !$(now, "[data-restore]")) { now.appendChild(document.createTextNode(" ")); now.appendChild(b); }
    };
    put();
    offered = b;
    document.addEventListener("scorekeeper:redrawn", put);
    restoring = setTimeout(function () {
      document.removeEventListener("scorekeeper:redrawn", put);
      offered = null;
      if (b.parentNode) { b.remove(); }
    }, 8000);
  }

  /* Deleting on the entry's page: sent in place. A refusal is said above the button; a delete
     goes back to the game page where the recorder left it, which says it and offers "Restore"
     as after an undo (the note is handed over in sessionStorage, read at "pageshow"). */
  var DELETED = "scorekeeper:deleted";
  function DeleteEntry(form) {
    var b = $(form, "button[type=submit]");
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      b.disabled = true;
      var fields = Array.from(new FormData(form).entries());
      send({ url: form.action, fields: fields, key: newKey() }).then(function (answer) {
        if (answer.body.refused || answer.status >= 300 || !answer.body.back) {
          b.disabled = false;
          var problem = $(form.parentNode, "p.error") || document.createElement("p");
          problem.className = "error";
          problem.setAttribute("role", "alert");
          problem.innerHTML = answer.body.error || "";
          form.parentNode.insertBefore(problem, form);
          return;
        }
        try { sessionStorage.setItem(DELETED, JSON.stringify({ said: answer.body.said, restore: answer.body.restore })); } catch (e) { /* said by the page's own list */ }
        var back = new URL(answer.body.back, location.href);
        var from = document.referrer ? new URL(document.referrer) : null;
        if (from && from.origin === back.origin && from.pathname === back.pathname && history.length > 1) { history.back(); } else { location.assign(back.href); }
      }).catch(function () { b.disabled = false; });
    });
  }
  window.addEventListener("pageshow", function () {
    if (!$(document, "form[data-entry]")) { return; }
    var note = null;
    try { note = JSON.parse(sessionStorage.getItem(DELETED) || "null"); sessionStorage.removeItem(DELETED); } catch (e) { note = null; }
    if (!note) { return; }
    document.dispatchEvent(new CustomEvent("scorekeeper:changed", { detail: { said: note.said } }));
    if (note.restore) { offerRestore(note.restore, note.said); }
  });

  /* A key of its own for each write: the form's one-time token, so a tap sent twice counts once
     (web/once.py). */
  function newKey() {
    if (window.crypto && crypto.randomUUID) { return crypto.randomUUID(); }
    return String(Date.now()) + Math.random().toString(36).slice(2);
  }

  /* Send one prepared request and answer {status, body}: ``fields`` (name, value pairs of a
     form, its ``once`` token replaced by ``key``) or ``json``, to ``url``, asking for JSON.
     Whatever queues writes (the next step: an outbox) hands this the same prepared request. */
  function send(prepared) {
    var outbox = window.Outbox;
    if (prepared.fields) {
      var entry = { url: prepared.url, idempotencyKey: prepared.key || newKey(), fields: outbox.fieldsOf(prepared.fields) };
      return outbox.csrfToken(false).then(function (token) { return outbox.sendForm(entry, token); })
        .then(function (answer) {
          return { status: answer.ok ? 200 : answer.status || 409, body: answer.answer || { error: answer.reason || "" } };
        });
    }
    var token = $(document, "input[name=csrf_token]");
    return fetch(prepared.url, { method: "POST", body: JSON.stringify(prepared.json), credentials: "same-origin",
      headers: { Accept: "application/json", "Content-Type": "application/json", "X-CSRFToken": token ? token.value : "" } })
      .then(function (response) {
        return response.json().then(function (answer) { return { status: response.status, body: answer }; });
      });
  }

  /* The picker of a form with one cards field: a tap adds or takes away a card, typing shows. */
  function fillsField(form, field, letters, changed) {
    var reader = new Reader(form);
    var timer = null;
    var shown = function () { picker.show(reader.codes(field.value), []); };
    var picker = new Picker($(form, "[data-picker]"), function (code) {
      var picked = picker.toggled(reader.codes(field.value), code, [], code === JOKER ? 6 : 1);
      field.value = letters.labels(picked);
      picker.show(picked, []);
      changed();
    });
    var hear = function () { reader.hear(field.value, shown); };
    field.addEventListener("input", function () {
      shown();
      changed();
      clearTimeout(timer);
      timer = setTimeout(hear, 120);
    });
    shown();
    hear();
  }

  /* Correcting an entry: its own cards are free to tap, the rest of the table is not; the
     cards are checked as they are tapped, as on the game page. */
  function Correct(form) {
    var letters = new Letters(form);
    var field = $(form, "input[name=cards]");
    var preview = $(form, "[data-preview]");
    var onto = JSON.parse(form.getAttribute("data-onto") || "{}");
    var ask = asker(form);
    var text = function (name) { return form.getAttribute("data-t-" + name) || ""; };
    var asked = 0;
    var timer = null;
    function say(message, kind) {
      if (!preview) { return; }
      preview.textContent = message;
      preview.className = "preview" + (kind ? " " + kind : "");
    }
    function check() {
      var cards = field.value.trim();
      var chosen = $(form, "input[name=meld]:checked");
      var meld = chosen ? onto[chosen.value] : null;
      var number = ++asked;
      if (!cards) { say(""); return; }
      var body = { cards: cards };
      if (meld) { body.onto = meld; }
      ask(body).then(function (answer) {
        if (number !== asked) { return; }
        if (answer.valid) { say("✓ " + said(answer, meld, false, text, letters), "ok"); return; }
        say("✗ " + answer.error, "bad");
      }).catch(function () { if (number === asked) { say(text("offline")); } });
    }
    function soon() { clearTimeout(timer); timer = setTimeout(check, 120); }
    fillsField(form, field, letters, soon);
    $$(form, "input[name=meld]").forEach(function (radio) { radio.addEventListener("change", soon); });
    check();
  }

  /* The end of a game: the picker fills the hand that was tapped last; with two packs a hand
     may hold both copies of a card, so a tap adds a copy while one is left. */
  function Finish(form) {
    var letters = new Letters(form);
    var copies = Number(form.getAttribute("data-packs")) || 1;
    var hands = $$(form, "[data-hand]");
    var reader = new Reader(form);
    var active = null;
    var ready = false;

    function input(hand) { return $(hand, "input[name^=hand_]"); }
    function winner() {
      var chosen = $(form, "input[name=winner]:checked");
      return chosen ? chosen.value : null;
    }
    function elsewhere() {
      var codes = [];
      hands.forEach(function (hand) {
        if (hand !== active && !hand.hidden) { codes = codes.concat(reader.codes(input(hand).value)); }
      });
      return codes;
    }
    function show() {
      hands.forEach(function (hand) {
        var target = $(hand, ".hand-target");
        target.setAttribute("aria-pressed", String(hand === active));
        hand.classList.toggle("active", hand === active);
      });
      picker.show(active ? reader.codes(input(active).value) : [], elsewhere());
      remember();
    }
    /* Switching the language keeps the hands: the form is a GET, its fields the address.
       Until something changes the page's own address (a preview included) is kept. */
    function remember() {
      if (!ready) { return; }
      var query = new URLSearchParams(new FormData(form));
      query.delete("show");
      languageLinksTo(location.pathname + "?" + query.toString());
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
      var picked = picker.toggled(reader.codes(input(active).value), code, elsewhere(), copies > 1 ? 6 : 1);
      input(active).value = letters.labels(picked);
      heard(active, null);
      show();
    });

    /* Under a hand typed in words, the cards the server read ("Herz As": A♥), or why not. */
    function heard(hand, answer) {
      var line = $(hand, "[data-heard]");
      if (!line) { return; }
      line.hidden = !answer;
      if (!answer) { return; }
      line.textContent = answer.error ? "✗ " + answer.error : letters.labels(answer.cards);
      line.className = "preview " + (answer.error ? "bad" : "ok");
    }
    function hear(hand) {
      var typed = input(hand).value;
      if (!typed.trim()) { heard(hand, null); return; }
      reader.hear(typed, function (answer) {
        if (input(hand).value !== typed) { return; }
        heard(hand, answer);
        show();
      });
    }
    hands.forEach(function (hand) {
      var target = $(hand, ".hand-target");
      var timer = null;
      target.hidden = false;
      target.addEventListener("click", function () { choose(hand); });
      input(hand).addEventListener("focus", function () { choose(hand); });
      input(hand).addEventListener("input", function () {
        show();
        clearTimeout(timer);
        timer = setTimeout(function () { hear(hand); }, 120);
      });
      if (input(hand).value.trim()) { hear(hand); }
    });
    $$(form, "input[name=winner]").forEach(function (radio) { radio.addEventListener("change", seat); });
    form.addEventListener("change", remember);
    form.addEventListener("input", remember);
    seat();
    ready = true;
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
    var ends = JSON.parse(form.getAttribute("data-ends") || "{}");
    /* Only the endings of the rule system chosen are offered (German Rummy: a limit, no target). */
    var endings = function () {
      var allowed = ends[value("variant")];
      if (!allowed) { return; }
      var radios = $$(form, "input[name=end]");
      radios.forEach(function (radio) { radio.closest("label").hidden = allowed.indexOf(radio.value) < 0; });
      var chosen = $(form, "input[name=end]:checked");
      if (!chosen || allowed.indexOf(chosen.value) < 0) {
        radios.filter(function (radio) { return radio.value === allowed[0]; }).forEach(function (radio) { radio.checked = true; });
      }
    };
    var show = function () {
      endings();
      $$(form, "[data-variant-only]").forEach(function (part) {
        part.hidden = part.getAttribute("data-variant-only").split(" ").indexOf(value("variant")) < 0;
      });
      $$(form, "[data-end-only]").forEach(function (part) {
        part.hidden = part.getAttribute("data-end-only") !== value("end");
      });
    };
    $$(form, "input[name=variant], input[name=end]").forEach(function (radio) {
      radio.addEventListener("change", show);
    });
    show();
    /* The first dealer is one of the names typed (or drawn by lot): seats left empty are not
       offered, and a dealer whose name is wiped out gives way to the first player. */
    var dealer = $(form, "select[name=dealer]");
    var named = function () {
      if (!dealer) { return; }
      var chosen = dealer.options[dealer.selectedIndex];
      if (chosen && chosen.hidden) {
        var first = $$(dealer, "option").filter(function (option) { return !option.hidden && option.value !== "lot"; })[0];
        dealer.value = first ? first.value : "lot";
      }
    };
    $$(form, "input[name^=names-]").forEach(function (input) {
      var option = $(form, 'select[name=dealer] option[value="' + input.name.slice(6) + '"]');
      if (!option) { return; }
      var seat = option.textContent;
      var name = function () {
        var typed = input.value.trim();
        option.textContent = typed || seat;
        option.hidden = !typed;
        option.disabled = !typed;
      };
      input.addEventListener("input", function () { name(); named(); });
      name();
    });
    if (dealer && $$(dealer, "option").some(function (option) { return !option.hidden && option.value !== "lot"; })) { named(); }
  }

  function start() {
    $$(document, "form[data-entry]").forEach(function (form) { new Entry(form); });
    $$(document, "form[data-finish]").forEach(function (form) { new Finish(form); });
    $$(document, "form[data-correct]").forEach(function (form) { new Correct(form); });
    if (window.fetch) { $$(document, "[data-delete] form").forEach(function (form) { new DeleteEntry(form); }); }
    $$(document, "form[data-seating]").forEach(function (form) { new Seating(form); });
    if ($(document, "[data-wake-lock]")) { keepAwake(); }
  }
  document.addEventListener("scorekeeper:redrawn", function () {
    $$(document, "form[data-entry]").forEach(function (form) { new Entry(form); });
  });

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
