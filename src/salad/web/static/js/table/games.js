// @ts-check
// The table's games: the "Games" tool opens a list of every game played at this table (GET
// /api/tables/{id}/games): its number, when, who won and the totals, and for a finished game
// its Replay, Review and record. Review opens the replay page with the review of this seat
// (js/review.js, the same link as the results screen's); the server decides who may review
// what and the replay page shows its refusal. A game still being played has no Review.

import { api, errorText } from "../api.js";
import { $, html, setHTML } from "../dom.js";
import { date, t } from "../i18n.js";
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
  const time = date(at, { hour: "2-digit", minute: "2-digit" });
  return today ? t("today {time}", { time }) : t("{date} {time}", { date: date(at, { dateStyle: "medium" }), time });
}

/** @param {GameItem} g */
function whenLine(g) {
  if (!g.started_at) return "";
  if (g.status !== "over" || !g.finished_at) return t("started {when}", { when: when(g.started_at) });
  const minutes = Math.max(1, Math.round((g.finished_at - g.started_at) / 60));
  return t("{when} · {n} min", { when: when(g.finished_at), n: minutes });
}

/** A seat's name in a game (the game's own list, as it was dealt), "(you)" for this seat.
 * @param {GameItem} g @param {number} i */
function who(g, i) {
  const name = (g.players && g.players[i]) || seatName(i);
  return nameYou(i, name);
}

/** Who won, in words. @param {GameItem} g */
function result(g) {
  if (g.status !== "over") return t("In progress");
  const names = g.winners.map((i) => who(g, i));
  if (!names.length) return t("Over");
  if (g.winners.includes(S.you)) return g.winners.length > 1 ? t("You shared the win") : t("You won");
  if (g.winners.length > 1) return t("{names} shared the win", { names: listNames(names) });
  return t("{name} won", { name: names[0] });
}

/** The totals, best first, the winners marked. @param {GameItem} g */
function totals(g) {
  const sums = g.totals || [];
  const high = Boolean(table().highest_wins);
  const order = sums.map((_, i) => i).sort((a, b) => (high ? sums[b] - sums[a] : sums[a] - sums[b]));
  const items = order.map(
    (i) =>
      html`<li class="${g.winners.includes(i) ? "win" : ""} ${i === S.you ? "me" : ""}"><span>${who(g, i)}</span> <b>${String(sums[i])}</b></li>`,
  );
  const n = g.game_number;
  const label = g.status === "over" ? t("Totals of game {n}", { n }) : t("Totals so far in game {n}", { n });
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
<a class="btn btn-small" href="/replay/${id}?game=${n}" data-replay>${t("Replay")}</a>
${S.you >= 0 ? html`<a class="btn btn-small games-review" href="/replay/${id}?game=${n}&review=${S.you}" data-review>${t("Review")}</a>` : ""}
<a class="btn btn-small" href="/api/tables/${id}/record?game=${n}" download="salad-${S.tableId}-game${n}.json" data-download>${t(
        "Download record",
      )}</a></div>`
    : html`<p class="hint">${t("Replay and review when it is over.")}</p>`;
  return html`<li class="games-item ${over ? "games-over" : "games-playing"}" data-game="${n}" data-status="${g.status}">
<h3>${t("Game {n}", { n })} <span class="games-result">${result(g)}</span></h3>
${whenLine(g) ? html`<p class="hint games-when">${whenLine(g)}</p>` : ""}
${totals(g)}${actions}</li>`;
}

/** The list, newest game first. @param {GameItem[]} games */
export function gamesHTML(games) {
  if (!games.length) return html`<p class="hint">${t("No game has been dealt at this table yet.")}</p>`;
  const items = [...games].reverse().map(gameHTML);
  return html`<ol class="games-list" id="games-list">${items}</ol>`;
}

/**
 * Resolves once the table's first state has come (its seats' names and whether the highest
 * total wins, which the list needs): Games may be pressed while the page still connects.
 * @returns {Promise<void>}
 */
function tableCame() {
  return new Promise((resolve) => {
    const look = () => (S.table ? resolve() : setTimeout(look, 100));
    look();
  });
}

/** The Games dialog, opened by the top bar's Games button (js/table.js). */
export async function openGames() {
  const body = $("games-body");
  setHTML(body, html`<p class="hint">${t("Loading…")}</p>`);
  $("dlg-games", HTMLDialogElement).showModal();
  try {
    /** @type {GameItem[]} */
    const games = await api("GET", `/api/tables/${encodeURIComponent(S.tableId)}/games`);
    await tableCame();
    setHTML(body, gamesHTML(games));
  } catch (err) {
    setHTML(body, html`<p class="games-error" role="alert">${errorText(err)}</p>`);
  }
}
