// The spectator page follows its game: the server sends the live part again after each
// change (an event of the stream named by data-follow), which replaces what is shown; after
// a change within the round being played, only that round's section and row of the sheet
// (an event named "round"), which replace the elements of the same ids. The
// browser's EventSource connects again by itself after a dropped connection, naming the last
// version received; a refusal (a busy server) ends it, and it is opened again, less often
// each time. A hidden page lets its stream go and opens it again when shown. Once the game
// is gone the server says so, and the page stops. A change of the round, its state, the
// tricks played or the winner is said in a live region (#announce).
(() => {
  const box = document.querySelector("[data-follow]");
  if (!box || !window.EventSource) return;
  const address = new URL(box.dataset.follow, window.location.href);
  const notice = document.getElementById("connection");
  const lost = (yes) => {
    if (!notice) return;
    notice.textContent = yes ? notice.dataset.read : "";
    notice.hidden = !yes;
  };
  let source = null;
  let retry = 0;
  let wait = 1000;
  let gone = false;
  // What changed, for a screen reader: the marked lines, said when they read otherwise.
  const announce = document.getElementById("announce");
  const said = () => [...box.querySelectorAll("[data-announce]")]
    .map((line) => line.textContent.replace(/\s+/g, " ").trim()).join(" ");
  let last = said();
  const shown = (event) => {
    if (event.lastEventId) address.searchParams.set("shown", event.lastEventId);
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
    if (source) source.close();
    source = null;
  };
  const start = () => {
    stop();
    if (gone) return;
    source = new EventSource(address);
    source.onopen = () => { wait = 1000; lost(false); };
    source.onmessage = (event) => {
      box.innerHTML = event.data;
      shown(event);
    };
    source.addEventListener("round", (event) => {
      if (patch(event.data)) {
        shown(event);
        return;
      }
      address.searchParams.delete("shown");  // the whole part, on a stream of its own
      start();
    });
    source.addEventListener("gone", () => { gone = true; stop(); });
    source.onerror = () => {
      lost(true);
      if (source.readyState !== EventSource.CLOSED) return;  // it tries again by itself
      retry = setTimeout(start, wait);
      wait = Math.min(wait * 2, 30000);
    };
  };
  document.addEventListener("visibilitychange", () => (document.hidden ? stop() : start()));
  start();
})();
