/* Holding the picker still: whatever is drawn above it (a meld on the table, a mode's chips), the page scrolls so that it stays where the thumb found it. */

/* Run ``change`` and scroll by what it moved ``find()`` (the element to hold, looked up
   before and after: a redraw puts a new one in its place); answers what ``change`` answers. */
export function holdingStill(find, change) {
  const before = find();
  const top = before ? before.getBoundingClientRect().top : null;
  const result = change();
  const after = find();
  if (top !== null && after?.isConnected) {
    const moved = after.getBoundingClientRect().top - top;
    if (Math.abs(moved) >= 1) { window.scrollBy(0, moved); }
  }
  return result;
}
