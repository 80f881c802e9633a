// At the table: the app installs itself for offline use, and the screen stays on while a
// round is in progress. Both only where the browser offers them (a secure context).
(() => {
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("/sw.js", {scope: "/"}).catch(() => {});
  }

  // A tap (or a spectator's poll) that cannot reach the server says so in one sentence, in
  // the page's language (base.html carries both sentences); the next answer clears it.
  const notice = () => document.getElementById("connection");
  document.addEventListener("htmx:error", (event) => {
    const box = notice();
    const request = event.detail && event.detail.ctx && event.detail.ctx.request;
    if (!box || !request) return;
    const method = String(request.method || "GET").toUpperCase();
    box.textContent = method === "GET" ? box.dataset.read : box.dataset.write;
    box.hidden = false;
  });
  document.addEventListener("htmx:after:request", () => {
    const box = notice();
    if (box) box.hidden = true;
  });

  // Times written by the server in UTC (<time datetime data-local>) shown in the phone's own
  // time zone, in the page's language.
  function localTimes() {
    const format = new Intl.DateTimeFormat(document.documentElement.lang || undefined,
      {dateStyle: "medium", timeStyle: "short"});
    for (const time of document.querySelectorAll("time[data-local]")) {
      const moment = new Date(time.getAttribute("datetime"));
      if (!Number.isNaN(moment.getTime())) time.textContent = format.format(moment);
    }
  }
  document.addEventListener("htmx:after:settle", localTimes);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", localTimes);
  } else {
    localTimes();
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
