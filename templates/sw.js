// Tablet of Truth's service worker, rendered by the app (scorekeeper/pwa.py): the list of
// files below carries their content hashes, and the version changes with any of them.
const VERSION = {{ version|tojson }};
const SHELL = {{ shell|tojson }};
const OFFLINE = {{ offline|tojson }};
const KEPT = {{ kept|tojson }};
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
  // Writes, the API, other sites, the spectator page's stream and poll (offline, they must
  // fail and let the page keep what it shows) and hand-over links go straight to the
  // network, never into a cache.
  if (request.method !== "GET" || url.origin !== self.location.origin
      || url.pathname.startsWith("/api/") || url.pathname === "/sw.js"
      || url.pathname.endsWith("/view/live") || url.pathname.endsWith("/view/events")
      || url.pathname.startsWith("/handover")) {
    return;
  }
  if (url.pathname.startsWith("/static/")) {
    if (SHELL.includes(url.pathname + url.search)) {
      event.respondWith(caches.match(request).then((kept) => kept || fetch(request)));
    }
    return;
  }
  const accept = request.headers.get("Accept") || "";
  if (request.mode === "navigate" || request.headers.has("HX-Request")
      || accept.includes("text/html") || SHELL.includes(url.pathname)) {
    event.respondWith(networkFirst(request, url));
  }
});

// A page (a game's state) comes from the server while there is one; offline, the copy kept
// from the last visit, which says so, else the offline page. The offline page and the
// manifest are kept in the shell, in the language of the latest page.
async function networkFirst(request, url) {
  try {
    const response = await fetch(request);
    if (response.ok && response.type === "basic" && !response.redirected) {
      const copy = response.clone();
      const cache = await caches.open(SHELL.includes(url.pathname) ? SHELL_CACHE : PAGES_CACHE);
      await cache.put(request, copy);
      await keepShellIn(response.headers.get("Content-Language"));
    }
    return response;
  } catch (error) {
    const kept = await (await caches.open(PAGES_CACHE)).match(request, {ignoreVary: true});
    if (kept) return anew(kept, await saysKept(kept));
    const shell = await caches.open(SHELL_CACHE);
    const answer = (await shell.match(request, {ignoreVary: true}))
      || (await shell.match(OFFLINE));
    return answer ? anew(answer, answer.body) : Response.error();
  }
}

// A page answered from the phone's copy says so, in its language: its connection notice
// (base.html's #connection, hidden while the server answers) shows, with KEPT's sentence.
async function saysKept(kept) {
  if (!(kept.headers.get("Content-Type") || "").startsWith("text/html")) return kept.body;
  const sentence = KEPT[kept.headers.get("Content-Language")] || Object.values(KEPT)[0];
  return (await kept.text()).replace(/(<p id="connection"[^>]*?) hidden([^>]*>)/,
    (tag, start, end) => start + end + sentence);
}

// A copy answered as a new response, whose URL is the one asked for: a kept response keeps
// its own (/offline), and htmx puts a response's URL in the address bar, where a reload
// online would bring the offline page back.
function anew(kept, body) {
  const headers = new Headers(kept.headers);
  headers.delete("Content-Length");
  headers.delete("Content-Encoding");
  return new Response(body, {status: kept.status, statusText: kept.statusText, headers});
}

async function keepShellIn(language) {
  if (!language) return;
  const shell = await caches.open(SHELL_CACHE);
  const kept = await shell.match(OFFLINE);
  if (kept && kept.headers.get("Content-Language") === language) return;
  await Promise.all(SHELL.filter((path) => !path.startsWith("/static/")).map(async (path) => {
    const fresh = await fetch(path);
    if (fresh.ok) await shell.put(path, fresh);
  }));
}
