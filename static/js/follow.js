// The spectator page follows its game: the server sends the live part again after each
// change (an event of the stream named by data-follow), which replaces what is shown; after
// a change within the round being played, only that round's section and row of the sheet
// (an event named "round"), which replace the elements of the same ids. The
// browser's EventSource connects again by itself after a dropped connection, naming the last
// version received. A refusal (a server that holds all the streams it can) ends it: the page
// then asks for the live part every few seconds (data-poll: 304 while it is unchanged), and
// for a stream again, less often each time, until one is let in. A hidden page lets its
// stream go and opens it again when shown. Once the game is gone the server says so, and
// the page stops. A change of the round, its state, the tricks played or the winner is said
// in a live region (#announce).
(() => {
  const box = document.querySelector("[data-follow]");
  if (!box || !window.EventSource) return;
  const address = new URL(box.dataset.follow, window.location.href);
  const poll = new URL(box.dataset.poll, window.location.href);
  const POLL_MS = 3000;
  const notice = document.getElementById("connection");
  const lost = (yes) => {
    if (!notice) return;
    notice.textContent = yes ? notice.dataset.read : "";
    notice.hidden = !yes;
  };
  let source = null;
  let retry = 0;
  let polling = 0;
  let wait = 1000;
  let gone = false;
  // What changed, for a screen reader: the marked lines, said when they read otherwise.
  const announce = document.getElementById("announce");
  const said = () => [...box.querySelectorAll("[data-announce]")]
    .map((line) => line.textContent.replace(/\s+/g, " ").trim()).join(" ");
  let last = said();
  const shown = (tag) => {
    if (tag) address.searchParams.set("shown", tag);
    lost(false);
    const now = said();
    if (announce && now !== last) announce.textContent = now;
    last = now;
  };
  // The round's parts in place of the page's; false (nothing replaced) when one has no place.
  const patch = (html) => {
    const fresh = document.createElement("template");
    fresh.innerHTML = html;
    const parts = [...fresh.content.querySelectorAll("#current, tr[id]")];
    const places = parts.map((part) => box.querySelector(`#${part.id}`));
    if (!parts.length || places.includes(null)) return false;
    parts.forEach((part, index) => places[index].replaceWith(part));
    return true;
  };
  const stop = () => {
    clearTimeout(retry);
    clearTimeout(polling);
    if (source) source.close();
    source = null;
  };
  // The live part asked for, as a page without the stream does: the browser keeps the last
  // answer and asks whether it changed (a 304 gives it back), and the page puts it in place
  // when its tag is not the one shown.
  const ask = async () => {
    try {
      const answer = await fetch(poll, { cache: "no-cache" });
      if (source) return;  // a stream was let in meanwhile
      const tag = (answer.headers.get("ETag") || "").replace(/^W\/"|"$/g, "");
      if (answer.status === 404 || (answer.ok && tag !== address.searchParams.get("shown"))) {
        box.innerHTML = await answer.text();
        shown(tag);
        if (answer.status === 404) { gone = true; stop(); return; }
      }
      lost(false);
    } catch {
      lost(true);
    }
    if (!source && !gone && !document.hidden) polling = setTimeout(ask, POLL_MS);
  };
  const start = () => {
    stop();
    if (gone) return;
    source = new EventSource(address);
    source.onopen = () => { wait = 1000; clearTimeout(polling); lost(false); };
    source.onmessage = (event) => {
      box.innerHTML = event.data;
      shown(event.lastEventId);
    };
    source.addEventListener("round", (event) => {
      if (patch(event.data)) {
        shown(event.lastEventId);
        return;
      }
      address.searchParams.delete("shown");  // the whole part, on a stream of its own
      start();
    });
    source.addEventListener("gone", () => { gone = true; stop(); });
    source.onerror = () => {
      if (source.readyState !== EventSource.CLOSED) {  // dropped: it tries again by itself
        lost(true);
        return;
      }
      // Refused: ask meanwhile, and for a stream again later.
      source = null;
      ask();
      retry = setTimeout(start, wait);
      wait = Math.min(wait * 2, 60000);
    };
  };
  document.addEventListener("visibilitychange", () => (document.hidden ? stop() : start()));
  start();
})();
