/* The screen kept on while a game is open (a page part marked data-wake-lock), where the browser offers the Screen Wake Lock. */

function keepAwake() {
  if (!("wakeLock" in navigator)) { return; }
  const ask = () => {
    if (document.visibilityState === "visible") { navigator.wakeLock.request("screen").catch(() => {}); }
  };
  document.addEventListener("visibilitychange", ask);
  ask();
}

if (document.querySelector("[data-wake-lock]")) { keepAwake(); }
