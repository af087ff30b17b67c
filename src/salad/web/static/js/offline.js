// @ts-check
// The installable web app's part of a page: it registers the service worker (/sw.js, which
// keeps the site's pages and files for when there is no network), and, on a page that has an
// `#offline` line, shows it while the browser is offline.

if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js").catch(() => {
    // No service worker (a private window, an old browser): the site works as before.
  });
}

const line = document.getElementById("offline");
if (line) {
  const show = () => {
    line.hidden = navigator.onLine;
  };
  window.addEventListener("online", show);
  window.addEventListener("offline", show);
  show();
}
