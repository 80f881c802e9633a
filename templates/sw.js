// Tablet of Truth's service worker, rendered by the app (scorekeeper/pwa.py): the list of
// files below carries their content hashes, and the version changes with any of them.
const VERSION = {{ version|tojson }};
const SHELL = {{ shell|tojson }};
const OFFLINE = {{ offline|tojson }};
const SHELL_CACHE = "shell-" + VERSION;
const PAGES_CACHE = "pages";

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(SHELL_CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names
        .filter((name) => name !== SHELL_CACHE && name !== PAGES_CACHE)
        .map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  // Writes, the API and other sites go straight to the network, never into a cache.
  if (request.method !== "GET" || url.origin !== self.location.origin
      || url.pathname.startsWith("/api/") || url.pathname === "/sw.js") {
    return;
  }
  if (SHELL.includes(url.pathname + url.search)) {
    event.respondWith(caches.match(request).then((kept) => kept || fetch(request)));
    return;
  }
  const accept = request.headers.get("Accept") || "";
  if (request.mode === "navigate" || request.headers.has("HX-Request") || accept.includes("text/html")) {
    event.respondWith(networkFirst(request));
  }
});

// A page (a game's state) comes from the server while there is one; offline, the copy kept
// from the last visit, else the offline page.
async function networkFirst(request) {
  try {
    const response = await fetch(request);
    if (response.ok && response.type === "basic" && !response.redirected) {
      const copy = response.clone();
      caches.open(PAGES_CACHE).then((cache) => cache.put(request, copy));
    }
    return response;
  } catch (error) {
    const kept = await caches.match(request, {ignoreVary: true, ignoreSearch: false});
    return kept || (await caches.match(OFFLINE)) || Response.error();
  }
}
