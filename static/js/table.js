// At the table: the app installs itself for offline use, and the screen stays on while a
// round is in progress. Both only where the browser offers them (a secure context).
(() => {
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("/sw.js", {scope: "/"}).catch(() => {});
  }

  if (!("wakeLock" in navigator)) return;
  let lock = null;
  // A round screen in progress carries data-wake-lock (templates/round.html).
  const wanted = () => document.visibilityState === "visible"
    && document.querySelector("[data-wake-lock]") !== null;
  async function keepAwake() {
    if (wanted() && lock === null) {
      try {
        lock = await navigator.wakeLock.request("screen");
        lock.addEventListener("release", () => { lock = null; });
      } catch (refused) {
        lock = null;  // e.g. battery saver: the screen may sleep, nothing else changes
      }
    } else if (!wanted() && lock !== null) {
      const held = lock;
      lock = null;
      held.release().catch(() => {});
    }
  }
  // The lock goes when the page is hidden: take it again on coming back, and after every
  // page htmx swaps in (which may start or end a round).
  document.addEventListener("visibilitychange", keepAwake);
  document.addEventListener("htmx:after:settle", keepAwake);
  keepAwake();
})();
