// @ts-check
// The invite link /join/{id}: pick a display name, take the first open seat.

import { api, errorText, store, tableIdFromPath } from "./api.js";
import { $, html, setHTML, toast } from "./dom.js";
import { me, offerName } from "./me.js";
import { loadPrefs, mountLogo } from "./ui.js";

/** @typedef {import("./messages.js").Lobby} Table */

const tableId = tableIdFromPath() || "";
const enc = encodeURIComponent(tableId || "");

async function start() {
  loadPrefs();
  mountLogo($("logo"));
  $("join-watch", HTMLAnchorElement).href = `/watch/${enc}`;
  if (store.token(tableId)) {
    // This browser already holds a seat here: go back to it.
    location.replace(`/table/${enc}`);
    return;
  }
  $("j-name", HTMLInputElement).value = store.name();
  me().then(async (mine) => {
    const input = $("j-name", HTMLInputElement);
    if (mine?.name && !input.value) input.value = mine.name;
    /** @type {{table_id: string}[]} */
    const seated = mine ? await api("GET", "/api/me/tables").catch(() => []) : [];
    if (seated.some((t) => t.table_id === tableId)) location.replace(`/table/${enc}`); // their seat
  });
  $("join-form").addEventListener("submit", join);
  try {
    /** @type {Table} */
    const lobby = await api("GET", `/api/tables/${enc}`);
    const host = lobby.seats.find((s) => s.seat === lobby.host) || lobby.seats[lobby.host] || {};
    const joinButton = $("btn-join", HTMLButtonElement);
    const open = lobby.seats.filter((s) => s.kind === "open").length;
    $("join-title").textContent = `Join ${lobby.title || "the table"}`;
    if (lobby.status !== "lobby") {
      setHTML($("join-info"), html`This game has already started: you can watch it.`);
      joinButton.disabled = true;
    } else if (!open) {
      setHTML($("join-info"), html`Every seat is taken: you can watch.`);
      joinButton.disabled = true;
    } else if (lobby.group && !(await isMember(lobby.group.id))) {
      // Said before the player tries: only the group's members take its seats.
      const group = lobby.group.name || "a group";
      setHTML(
        $("join-info"),
        html`This table is for the members of <a href="/g/${encodeURIComponent(lobby.group.id)}"
            id="join-group">${group}</a> only: join the group with its invite link first. You can
          watch.`,
      );
      joinButton.disabled = true;
    } else {
      const of = lobby.group ? ` (members of ${lobby.group.name || "the group"} only)` : "";
      setHTML(
        $("join-info"),
        html`${("name" in host && host.name) || "The host"} invites you: ${open} open seat${
          open > 1 ? "s" : ""
        } of ${lobby.seats.length}${of}.`,
      );
    }
  } catch (err) {
    $("join-info").textContent = errorText(err);
    $("btn-join", HTMLButtonElement).disabled = true;
  }
}

/**
 * Whether this browser's player is a member of the group (no player yet: not).
 * @param {string} groupId
 */
async function isMember(groupId) {
  if (!(await me())) return false;
  /** @type {{id: string}[]} */
  const mine = await api("GET", "/api/groups").catch(() => []);
  return mine.some((g) => g.id === groupId);
}

/** @param {Event} e */
async function join(e) {
  e.preventDefault();
  const name = $("j-name", HTMLInputElement).value.trim();
  if (!name) {
    toast("Please give a display name.");
    return;
  }
  store.setName(name);
  const btn = $("btn-join", HTMLButtonElement);
  btn.disabled = true;
  try {
    await me(); // the seat remembers the player
    await offerName(name);
    const r = await api("POST", `/api/tables/${enc}/join`, { name });
    store.setToken(tableId, r.token);
    location.href = `/table/${enc}`;
  } catch (err) {
    toast(errorText(err));
    btn.disabled = false;
  }
}

start();
