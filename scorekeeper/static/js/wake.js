/* The screen kept on while a game is open, where the browser offers the Screen Wake Lock. */

let asked = false;

export function keepAwake() {
  if (asked || !("wakeLock" in navigator)) { return; }
  asked = true;
  const ask = () => {
    if (document.visibilityState === "visible") { navigator.wakeLock.request("screen").catch(() => {}); }
  };
  document.addEventListener("visibilitychange", ask);
  ask();
}
