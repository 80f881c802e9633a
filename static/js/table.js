// Sent on every page (see base.html): keep it small.
(() => {
  const on = (name, handler) => document.addEventListener(name, handler);
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("/sw.js", {scope: "/"}).catch(() => {});
  }

  const notice = () => document.getElementById("connection");
  on("htmx:error", (event) => {
    const box = notice();
    const request = event.detail?.ctx?.request;
    if (!box || !request) return;
    const read = String(request.method || "GET").toUpperCase() === "GET";
    box.textContent = read ? box.dataset.read : box.dataset.write;
    box.hidden = false;
  });
  // A form's refresh (a name typed, a bid tapped) refused keeps the form and says why.
  on("htmx:response:error", (event) => {
    const ctx = event.detail.ctx, box = notice();
    if (!box || !ctx.sourceElement?.matches("[hx-vals*=refresh]")) return;
    ctx.swap = "none";
    const page = new DOMParser().parseFromString(ctx.text, "text/html");
    box.textContent = page.querySelector(".refusal")?.textContent || box.dataset.write;
    box.hidden = false;
  });
  const hide = () => { const box = notice(); if (box) box.hidden = true; };
  on("htmx:after:request", hide);
  addEventListener("online", hide);
  on("htmx:before:request", (event) => {
    if (event.detail?.ctx?.sourceElement?.isConnected === false) event.preventDefault();
  });

  // A tap counts once. A tap while a tap's answer is out is dropped, and so is a finger's
  // tap (or a double click) where the last tap was, for 500 ms after it and 300 ms after its
  // answer is drawn: the second tap of a double tap would land on whatever the answer put
  // under the finger. (A name sent on leaving its field is no tap; a click from the keyboard
  // has no place.)
  let out = 0, last = null;
  const tapped = (event) => ["click", "submit"].includes(event.detail?.ctx?.sourceEvent?.type);
  addEventListener("click", (event) => {
    if (!event.isTrusted || event.detail === 0) return;
    const near = last && (event.pointerType === "touch" || event.detail > 1)
      && Math.hypot(event.clientX - last.x, event.clientY - last.y) < 40;
    if (out > 0 || (near && event.timeStamp < last.until)) {
      event.preventDefault();
      event.stopImmediatePropagation();
      return;
    }
    last = {x: event.clientX, y: event.clientY, until: event.timeStamp + 500};
  }, true);
  on("htmx:before:request", (event) => { if (tapped(event)) out += 1; });
  on("htmx:finally:request", (event) => {
    if (!tapped(event)) return;
    out -= 1;
    if (last) last.until = Math.max(last.until, performance.now() + 300);
  });

  function localTimes() {
    const format = new Intl.DateTimeFormat(document.documentElement.lang || undefined,
      {dateStyle: "medium", timeStyle: "short"});
    for (const time of document.querySelectorAll("time[data-local]")) {
      const moment = new Date(time.getAttribute("datetime"));
      if (!Number.isNaN(moment.getTime())) time.textContent = format.format(moment);
    }
  }
  const showNext = () => (document.getElementById("refusal")
    || document.querySelector(".flash.error,[data-next]"))?.scrollIntoView({block: "nearest"});
  const settled = () => { localTimes(); showNext(); };
  on("htmx:after:settle", settled);
  if (document.readyState === "loading") on("DOMContentLoaded", settled); else settled();

  if (!("wakeLock" in navigator)) return;
  let lock = null;
  const wanted = () => document.visibilityState === "visible"
    && document.querySelector("[data-wake-lock]") !== null;
  async function keepAwake() {
    if (wanted() && lock === null) {
      try {
        lock = await navigator.wakeLock.request("screen");
        lock.addEventListener("release", () => { lock = null; });
      } catch (refused) {
        lock = null;  // e.g. battery saver: then the screen may sleep
      }
    } else if (!wanted() && lock !== null) {
      const held = lock;
      lock = null;
      held.release().catch(() => {});
    }
  }
  // A hidden page loses the lock: take it again on coming back, and after each swap.
  on("visibilitychange", keepAwake);
  on("htmx:after:settle", keepAwake);
  keepAwake();
})();
