// The service worker (served at /sw.js by salad.server.routes.webapp, which fills in VERSION and
// PRECACHE): the site keeps working without a network for what it can do alone.
//
// - The pages to have offline (the home page, the score sheet, how to play) and every file they
//   load are cached when it installs, under its VERSION: a release changes the files' versioned
//   URLs, so the list, so this script, which the browser then installs afresh; the new one takes
//   over at once and drops the caches of the old.
// - The client's files (/static/, the catalogs under /i18n/) have versioned URLs: the cache
//   answers, else the network (and the cache keeps what it answered).
// - A page is asked of the network first (a player sees the site as it is; a kept page is kept
//   as last seen); without one, the kept page, else the home page, which then says it is
//   offline.
// - Everything else (the API, the websockets) goes to the network, untouched.

const VERSION = "__VERSION__";
const PRECACHE = __PRECACHE__;
const CACHE = `salad-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

async function fromCacheFirst(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const answer = await fetch(request);
  if (answer.ok) cache.put(request, answer.clone());
  return answer;
}

async function pageFromNetworkFirst(request) {
  const cache = await caches.open(CACHE);
  const key = new URL(request.url).pathname; // one copy of a page, whatever its query
  try {
    const answer = await fetch(request);
    // Only the kept pages are kept fresh: a table's page is not kept (one a table, ever more).
    if (answer.ok && PRECACHE.includes(key)) cache.put(key, answer.clone());
    return answer;
  } catch (error) {
    const kept = (await cache.match(key)) || (await cache.match("/"));
    if (kept) return kept;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/static/") || url.pathname.startsWith("/i18n/")) {
    event.respondWith(fromCacheFirst(request));
  } else if (request.mode === "navigate") {
    event.respondWith(pageFromNetworkFirst(request));
  }
});
