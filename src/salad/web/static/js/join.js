// @ts-check
// The invite link /join/{id}: pick a display name, take the first open seat.

import { api, errorText, store, tableIdFromPath } from "./api.js";
import { $, html, setHTML, toast } from "./dom.js";
import { t, tn } from "./i18n.js";
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
    $("join-title").textContent = lobby.title ? t("Join {title}", { title: t(lobby.title) }) : t("Join the table"); // the ruleset's words: in the catalog
    if (lobby.status !== "lobby") {
      $("join-info").textContent = t("This game has already started: you can watch it.");
      joinButton.disabled = true;
    } else if (!open) {
      $("join-info").textContent = t("Every seat is taken: you can watch.");
      joinButton.disabled = true;
    } else if (lobby.group && !(await isMember(lobby.group.id))) {
      // Said before the player tries: only the group's members take its seats.
      const group = lobby.group.name || t("a group");
      const [before, after = ""] = t(
        "This table is for the members of {group} only: join the group with its invite link first. You can watch.",
      ).split("{group}");
      setHTML(
        $("join-info"),
        html`${before}<a href="/g/${encodeURIComponent(lobby.group.id)}" id="join-group">${group}</a>${after}`,
      );
      joinButton.disabled = true;
    } else {
      const who = ("name" in host && host.name) || t("The host");
      const params = { host: who, total: lobby.seats.length, group: lobby.group?.name || t("the group") };
      $("join-info").textContent = lobby.group
        ? tn(
            "{host} invites you: {n} open seat of {total} (members of {group} only).",
            "{host} invites you: {n} open seats of {total} (members of {group} only).",
            open,
            params,
          )
        : tn("{host} invites you: {n} open seat of {total}.", "{host} invites you: {n} open seats of {total}.", open, params);
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
    toast(t("Please give a display name."));
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
