// @ts-check
// The table page: /table/{id} (a seat, with its token) and /watch/{id} (a spectator).
// Everything shown comes from the server's `state` messages; every action is a `play` message or
// a REST call, checked by the server. The modules under table/: state (S and questions about
// it), protocol (messages in and out), render (the page from S), lobby (before and after a
// game), pickers (pass, trump, Wild), panels (score sheet, rules, last trick), games (the
// table's games list), keyboard.

import { api, DAMAGED, errorText, NO_TABLE, Socket, store } from "./api.js";
import { $, html, setHTML, toast } from "./dom.js";
import { t } from "./i18n.js";
import { me } from "./me.js";
import { initAssist } from "./table/assist.js";
import { initChat } from "./table/chat.js";
import { wireKeyboard } from "./table/keyboard.js";
import { wireTools } from "./table/panels.js";
import { onConnection, onMessage } from "./table/protocol.js";
import { render, renderEnded, tick } from "./table/render.js";
import { S, setRenderer } from "./table/state.js";
import { loadPrefs, mountLogo, wireDialogs } from "./ui.js";

function start() {
  setRenderer(render);
  loadPrefs();
  mountLogo($("logo"));
  wireDialogs();
  if (!S.tableId) {
    toast(t("No table in this address."));
    return;
  }
  if (!S.watching) {
    const m = location.hash.match(/token=([^&]+)/);
    if (m) {
      store.setToken(S.tableId, decodeURIComponent(m[1]));
      history.replaceState(null, "", location.pathname + location.search);
    }
    S.token = store.token(S.tableId);
    if (!S.token) {
      seatOfPlayer(S.tableId);
      return;
    }
  }
  openTable();
}

/**
 * No token here: if the player this browser is sits at the table (another device signed in, a
 * lost link), the connection's cookie is their seat; else the lobby invites to join, and a
 * game in progress is watched.
 * @param {string} tableId
 */
async function seatOfPlayer(tableId) {
  /** @type {{table_id: string}[]} */
  const mine = await me().then((player) => (player ? api("GET", "/api/me/tables") : []), () => []);
  if (mine.some((t) => t.table_id === tableId)) {
    openTable();
    return;
  }
  try {
    const lobby = await api("GET", `/api/tables/${encodeURIComponent(tableId)}`);
    location.replace(`/${lobby.status === "lobby" ? "join" : "watch"}/${encodeURIComponent(tableId)}`);
  } catch (err) {
    showFatal(errorText(err));
  }
}

/** The table's page, its tools and its connection. */
function openTable() {
  document.body.classList.toggle("watching", S.watching);
  wireTools();
  // The table's games (replay, review, records): table/games.js, fetched on the first look.
  $("btn-games").onclick = () =>
    import("./table/games.js").then(
      (games) => games.openGames(),
      () => toast(t("The games list could not be loaded: check the connection.")),
    );
  wireKeyboard();
  initChat(); // table talk (table/chat.js)
  initAssist(); // hint and undo against bots (table/assist.js)
  S.socket = new Socket(S.tableId, S.watching ? null : S.token, onMessage, onConnection, onEnded, S.watching);
  setInterval(tick, 250);
  window.addEventListener("resize", () => {
    if (S.table) render();
  });
}

/**
 * The server closed the table's connection for good (a wrong token, a seat the host gave away
 * or removed, no such table, a table it cannot open): the page says so in place of the table;
 * nothing is tried again.
 * (The socket said "closed" just before: no longer connected, and the reconnecting banner up.)
 * @param {number} code
 * @param {string} reason
 */
function onEnded(code, reason) {
  const none = code === NO_TABLE || code === DAMAGED; // nothing to watch either
  S.ended = { reason, table: !none };
  $("conn-banner").hidden = true;
  if (none) noTable();
  if (S.table) render();
  else renderEnded();
}

/** No table: no tools, and the error said once (in the panel, not in a toast too). */
function noTable() {
  document.querySelector(".topbar .tools")?.remove();
  document.getElementById("toasts")?.remove();
}

/** @param {string} message */
function showFatal(message) {
  noTable();
  setHTML(
    $("center"),
    html`<div class="panel" role="alert"><h2>${t("Cannot open this table")}</h2><p>${message}</p><a class="btn btn-primary" href="/">${t("Home")}</a></div>`,
  );
}

start();
