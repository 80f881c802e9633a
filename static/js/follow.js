// The spectator page follows its game: the server sends the live part again after each
// change (an event of the stream named by data-follow), which replaces what is shown. The
// browser's EventSource connects again by itself after a dropped connection, naming the last
// version received; a refusal (a busy server) ends it, and it is opened again, less often
// each time. A hidden page lets its stream go and opens it again when shown. Once the game
// is gone the server says so, and the page stops.
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
      if (event.lastEventId) address.searchParams.set("shown", event.lastEventId);
      lost(false);
    };
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
