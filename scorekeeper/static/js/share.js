/* Share the result: the phone's share sheet where the browser has one, else the clipboard; the text is the server's. */

// The text is written on the server into the box; without this script it is copied by hand.
const button = document.querySelector("[data-share]");
const box = document.querySelector("[data-share-text]");
const said = document.querySelector("[data-share-said]");
const canShare = typeof navigator.share === "function";
const canCopy = navigator.clipboard && typeof navigator.clipboard.writeText === "function";

const say = (text) => { if (said) { said.textContent = text; } };
const copy = () => navigator.clipboard.writeText(box.value).then(() => say(button.dataset.tCopied));

if (button && box && (canShare || canCopy)) {
  button.hidden = false;
  button.addEventListener("click", () => {
    say("");
    const done = canShare
      ? navigator.share({ text: box.value }).catch((error) => {
        // Closing the share sheet is no failure; where sharing is refused, copy instead.
        if (error && error.name === "AbortError") { return undefined; }
        if (canCopy) { return copy(); }
        throw error;
      })
      : copy();
    done.catch(() => {
      box.focus();
      box.select();
      say(button.dataset.tFailed);
    });
  });
}
