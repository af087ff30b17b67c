// @ts-check
// The table's games: the "Games" tool opens a list of every game played at this table (GET
// /api/tables/{id}/games): its number, when, who won and the totals, and for a finished game
// its Replay, Review and record. Review opens the replay page with the review of this seat
// (js/review.js, the same link as the results screen's); the server decides who may review
// what and the replay page shows its refusal. A game still being played has no Review.

import { api, errorText } from "../api.js";
import { $, html, setHTML } from "../dom.js";
import { listNames, nameYou, S, seatName, table } from "./state.js";

/** @typedef {import("../dom.js").Html} Html */
/**
 * A game as GET /api/tables/{id}/games lists it.
 * @typedef {object} GameItem
 * @property {number} game_number
 * @property {"playing" | "over"} status
 * @property {number[] | null} totals
 * @property {number[]} winners
 * @property {string[]} [players] who sat where, seat by seat
 * @property {number | null} [started_at] Unix seconds
 * @property {number | null} [finished_at]
 */

/** @param {number} seconds Unix time */
function when(seconds) {
  const at = new Date(seconds * 1000);
  const today = new Date().toDateString() === at.toDateString();
  const time = at.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
  return today ? `today ${time}` : `${at.toLocaleDateString(undefined, { dateStyle: "medium" })} ${time}`;
}

/** @param {GameItem} g */
function whenLine(g) {
  if (!g.started_at) return "";
  if (g.status !== "over" || !g.finished_at) return `started ${when(g.started_at)}`;
  const minutes = Math.max(1, Math.round((g.finished_at - g.started_at) / 60));
  return `${when(g.finished_at)} · ${minutes} min`;
}

/** A seat's name in a game (the game's own list, as it was dealt), "(you)" for this seat.
 * @param {GameItem} g @param {number} i */
function who(g, i) {
  const name = (g.players && g.players[i]) || seatName(i);
  return nameYou(i, name);
}

/** Who won, in words. @param {GameItem} g */
function result(g) {
  if (g.status !== "over") return "In progress";
  const names = g.winners.map((i) => who(g, i));
  if (!names.length) return "Over";
  if (g.winners.includes(S.you)) return g.winners.length > 1 ? "You shared the win" : "You won";
  return `${listNames(names)} ${g.winners.length > 1 ? "shared the win" : "won"}`;
}

/** The totals, best first, the winners marked. @param {GameItem} g */
function totals(g) {
  const t = g.totals || [];
  const high = Boolean(table().highest_wins);
  const order = t.map((_, i) => i).sort((a, b) => (high ? t[b] - t[a] : t[a] - t[b]));
  const items = order.map(
    (i) =>
      html`<li class="${g.winners.includes(i) ? "win" : ""} ${i === S.you ? "me" : ""}"><span>${who(g, i)}</span> <b>${String(t[i])}</b></li>`,
  );
  const label = g.status === "over" ? `Totals of game ${g.game_number}` : `Totals so far in game ${g.game_number}`;
  return html`<ol class="games-totals" aria-label="${label}">${items}</ol>`;
}

/** One game: its heading, when, the result, the totals and what can be done with it.
 * @param {GameItem} g */
function gameHTML(g) {
  const id = encodeURIComponent(S.tableId);
  const n = g.game_number;
  const over = g.status === "over";
  const actions = over
    ? html`<div class="games-actions">
<a class="btn btn-small" href="/replay/${id}?game=${n}" data-replay>Replay</a>
${S.you >= 0 ? html`<a class="btn btn-small games-review" href="/replay/${id}?game=${n}&review=${S.you}" data-review>Review</a>` : ""}
<a class="btn btn-small" href="/api/tables/${id}/record?game=${n}" download="salad-${S.tableId}-game${n}.json" data-download>Download record</a></div>`
    : html`<p class="hint">Replay and review when it is over.</p>`;
  return html`<li class="games-item ${over ? "games-over" : "games-playing"}" data-game="${n}" data-status="${g.status}">
<h3>Game ${String(n)} <span class="games-result">${result(g)}</span></h3>
${whenLine(g) ? html`<p class="hint games-when">${whenLine(g)}</p>` : ""}
${totals(g)}${actions}</li>`;
}

/** The list, newest game first. @param {GameItem[]} games */
export function gamesHTML(games) {
  if (!games.length) return html`<p class="hint">No game has been dealt at this table yet.</p>`;
  const items = [...games].reverse().map(gameHTML);
  return html`<ol class="games-list" id="games-list">${items}</ol>`;
}

/** The Games dialog, opened by the top bar's Games button (js/table.js). */
export async function openGames() {
  const body = $("games-body");
  setHTML(body, html`<p class="hint">Loading…</p>`);
  $("dlg-games", HTMLDialogElement).showModal();
  try {
    /** @type {GameItem[]} */
    const games = await api("GET", `/api/tables/${encodeURIComponent(S.tableId)}/games`);
    setHTML(body, gamesHTML(games));
  } catch (err) {
    setHTML(body, html`<p class="games-error" role="alert">${errorText(err)}</p>`);
  }
}
