// Share the result: the phone's share sheet where the browser has one, else the clipboard.
// The text is written on the server into the box; without this script it is copied by hand.
(function () {
  "use strict";
  var button = document.querySelector("[data-share]");
  var box = document.querySelector("[data-share-text]");
  var said = document.querySelector("[data-share-said]");
  if (!button || !box) return;
  var canShare = typeof navigator.share === "function";
  var canCopy = navigator.clipboard && typeof navigator.clipboard.writeText === "function";
  if (!canShare && !canCopy) return;
  button.hidden = false;

  function say(text) {
    if (said) said.textContent = text;
  }

  function copy() {
    return navigator.clipboard.writeText(box.value).then(function () {
      say(button.dataset.tCopied);
    });
  }

  button.addEventListener("click", function () {
    say("");
    var done = canShare
      ? navigator.share({ text: box.value }).catch(function (error) {
          // Closing the share sheet is no failure; where sharing is refused, copy instead.
          if (error && error.name === "AbortError") return;
          if (canCopy) return copy();
          throw error;
        })
      : copy();
    done.catch(function () {
      box.focus();
      box.select();
      say(button.dataset.tFailed);
    });
  });
})();
