// @ts-check
// The table's pace (the bots' speed and the pause after a trick): the host's select, the others'
// words, in the lobby and in the settings at any time of a game (the next state says a change
// to everyone). Loaded with the lobby or when the settings open, so the table's first load does
// not carry it.

import { html, maybe, setHTML } from "../dom.js";
import { t } from "../i18n.js";
import { keepPace, PACES } from "./motion.js";
import { isHost, rest, S, table } from "./state.js";

/** @typedef {import("../messages.js").Lobby} Lobby */

/** The pace as a line: the host's select `id`, the others' words. @param {boolean} host @param {string} id */
export function paceLine(host, id) {
  const pace = table().pace || "normal";
  const words = t("bots' speed and pause after a trick");
  if (!host) return html`${t("Pace: {pace} ({words})", { pace: paceName(pace), words })}`;
  return html`<label>${t("Pace")} <select id="${id}">${paceOptions(pace)}</select></label> ${words}`;
}

/** The select's options, each pace by its name. @param {string} chosen */
function paceOptions(chosen) {
  return PACES.map((p) => html`<option value="${p}" ${p === chosen ? "selected" : ""}>${paceName(p)}</option>`);
}

/** A pace's name in the page's language (the server's are codes). @param {string} pace */
function paceName(pace) {
  const names = { slow: t("slow"), normal: t("normal"), fast: t("fast") };
  return /** @type {Record<string, string>} */ (names)[pace] ?? pace;
}

/**
 * The host's select `id` changes the table's pace, kept for the host's next table; `then` gets
 * the lobby the server answers with.
 * @param {string} id @param {(lobby: Lobby) => void} [then]
 */
export function wirePace(id, then) {
  const pick = maybe(id, HTMLSelectElement);
  if (!pick) return;
  pick.onchange = async () => {
    keepPace(pick.value); // the host's next table starts at it
    const lobby = await rest("PUT", `/api/tables/${encodeURIComponent(S.tableId)}/pace`, { pace: pick.value });
    if (lobby && then) then(lobby);
  };
}

/** The settings' pace line, put before their links. */
export function pacePick() {
  const links = maybe("settings-links");
  if (!links || !S.table) return;
  let el = maybe("settings-pace");
  if (!el) {
    el = document.createElement("p");
    el.id = "settings-pace";
    el.className = "hint";
    links.before(el);
  }
  setHTML(el, paceLine(isHost(), "settings-pace-select"));
  wirePace("settings-pace-select");
}
