// @ts-check
// A player's profile (/p/{name-or-id}?page=N): GET /api/players/{name-or-id}. Finished games
// only: the server never puts anything of a game under way in a profile. The rating chart is
// an SVG drawn here.

import { api, errorText } from "./api.js";
import { $, html, join, setHTML } from "./dom.js";
import { day, pager, ratingText } from "./players.js";
import { mountLogo } from "./ui.js";

/** @typedef {import("./players.js").Rating} Rating */
/** @typedef {{family: string, table_id: string, game_number: number, mu: number, sigma: number, ordinal: number, at: number}} Point */
/** @typedef {[number, number] | null} Interval */

/**
 * The answer of GET /api/players/{name-or-id} (salad.server.routes.ratings.ProfileOut).
 * @typedef {object} Profile
 * @property {string} id
 * @property {string | null} name
 * @property {string} colour
 * @property {number} games
 * @property {{family: string, title: string, players: number, games: number}[]} by_ruleset
 * @property {{page: number, pages: number, games: {table_id: string, game_number: number, seat: number, preset: string, title: string, family: string, players: number, place: number, points: number, rated: boolean, left: boolean, finished_at: number, replay: string, review: string}[]}} finished
 * @property {{bot: string, games: number, wins: number, mean_game: number, mean_game_interval: Interval, mean_hand: number | null, mean_hand_interval: Interval}[]} against_bots
 * @property {{round: string, name: string, hands: number, taken: number, share: number, mean: number}[]} penalties
 * @property {{penalty: string, name: string, hands: number, taken: number, share: number, points: number}[]} penalty_kinds
 * @property {Rating[]} ratings
 * @property {Point[]} history
 * @property {number} provisional_games
 */

const who = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const page = Number(new URLSearchParams(location.search).get("page")) || 1;

/** A mean and its 95% interval, if there is one. @param {number | null} mean @param {Interval} interval */
function meanText(mean, interval) {
  if (mean === null) return "–";
  return interval ? `${mean.toFixed(1)} (${interval[0].toFixed(1)} to ${interval[1].toFixed(1)})` : mean.toFixed(1);
}

const CHART_H = 220;
const PAD = { left: 40, right: 12, top: 12, bottom: 28 };

/**
 * One family's rating after each rated game: mu, a band of ± sigma, and the ordinal (dashed).
 * Drawn at the width it is shown at (its text stays the page's size on a phone).
 * @param {Point[]} points
 * @param {string} title
 * @param {number} CHART_W
 */
function chart(points, title, CHART_W) {
  const lows = points.map((p) => Math.min(p.ordinal, p.mu - p.sigma));
  const highs = points.map((p) => p.mu + p.sigma);
  const lo = Math.floor(Math.min(...lows) / 5) * 5;
  const step = Math.max(5, Math.ceil((Math.max(...highs) - lo) / 4 / 5) * 5);
  const hi = lo + 4 * step;
  const w = CHART_W - PAD.left - PAD.right;
  const h = CHART_H - PAD.top - PAD.bottom;
  const n = points.length;
  /** @param {number} i */
  const x = (i) => PAD.left + (n === 1 ? w / 2 : (i * w) / (n - 1));
  /** @param {number} v */
  const y = (v) => PAD.top + h - ((v - lo) * h) / (hi - lo);
  /** @param {(p: Point) => number} f */
  const line = (f) => points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(f(p)).toFixed(1)}`).join("");
  const band =
    points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.mu + p.sigma).toFixed(1)}`).join("") +
    [...points].reverse().map((p, j) => `L${x(n - 1 - j).toFixed(1)},${y(p.mu - p.sigma).toFixed(1)}`).join("") +
    "Z";
  const ticks = [0, 1, 2, 3, 4].map((k) => lo + k * step);
  return html`<figure class="p-figure"><figcaption>${title}: the rating after each rated game</figcaption>
<svg viewBox="0 0 ${CHART_W} ${CHART_H}" role="img" aria-label="${title} rating over ${n} rated games">
${join(ticks.map((v) => html`<line class="c-grid" x1="${PAD.left}" x2="${CHART_W - PAD.right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}"/><text class="c-label" x="${PAD.left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${v.toFixed(0)}</text>`))}
<path class="c-band" d="${band}"/>
<path class="c-ordinal" d="${line((p) => p.ordinal)}"/>
<path class="c-mu" d="${line((p) => p.mu)}"/>
${join(points.map((p, i) => html`<circle class="c-dot" cx="${x(i).toFixed(1)}" cy="${y(p.mu).toFixed(1)}" r="3"><title>Game ${i + 1}: ${p.mu.toFixed(1)} ± ${p.sigma.toFixed(1)}</title></circle>`))}
<text class="c-label" x="${PAD.left + w / 2}" y="${CHART_H - 6}" text-anchor="middle">Rated games (${n})</text>
</svg>
<p class="c-legend"><span class="k-mu"></span>mu <span class="k-band"></span>± sigma <span class="k-ordinal"></span>mu − 3 sigma</p></figure>`;
}

/** @param {Profile} p */
function render(p) {
  const name = p.name || "Unnamed player";
  document.title = `${name} — Salad`;
  setHTML($("p-name"), html`<span class="p-dot" style="background:${/^#[0-9a-fA-F]{6}$/.test(p.colour) ? p.colour : "#888"}"></span>${name}`);
  $("p-summary").textContent = p.games
    ? `${p.games} finished game${p.games === 1 ? "" : "s"}. A rating is provisional until ${p.provisional_games} rated games.`
    : "No finished game yet.";
  setHTML(
    $("p-ratings"),
    p.ratings.length
      ? html`${p.ratings.map((r) => html`<div class="p-rating"><span class="hint">${r.title}</span> ${ratingText(r)} <small class="hint">${r.games} rated game${r.games === 1 ? "" : "s"}</small></div>`)}`
      : html`<p class="hint">No rated game yet: a game with another player, or a rated table against the bots, is rated.</p>`,
  );
  setHTML(
    $("p-chart"),
    html`${p.ratings.map((r) => {
      const points = p.history.filter((h) => h.family === r.family);
      return points.length ? chart(points, r.title, Math.max(280, $("p-chart").clientWidth)) : "";
    })}`,
  );
  const games = p.finished.games;
  setHTML(
    $("p-games"),
    games.length
      ? html`<thead><tr><th scope="col">Date</th><th scope="col">Rules</th><th scope="col" class="num wide">Players</th><th scope="col" class="num">Place</th><th scope="col" class="num">Points</th><th scope="col">Game</th></tr></thead>
<tbody>${games.map((g) => html`<tr><td>${day(g.finished_at)}</td><td>${g.title}${g.rated ? html` <span class="r-tag">rated</span>` : ""}${g.left ? html` <span class="r-tag r-left">left</span>` : ""}</td><td class="num wide">${g.players}</td><td class="num">${g.place}</td><td class="num">${g.points}</td><td class="p-links"><a href="${g.replay}">Replay</a> <a href="${g.review}">Review</a></td></tr>`)}</tbody>`
      : html``,
  );
  setHTML($("p-pager"), pager(p.finished.page, p.finished.pages, (n) => `?page=${n}`));
  setHTML(
    $("p-played"),
    html`<thead><tr><th scope="col">Rules</th><th scope="col" class="num">Players</th><th scope="col" class="num">Games</th></tr></thead>
<tbody>${p.by_ruleset.map((c) => html`<tr><td>${c.title}</td><td class="num">${c.players}</td><td class="num">${c.games}</td></tr>`)}</tbody>`,
  );
  setHTML(
    $("p-bots"),
    html`<thead><tr><th scope="col">Bot</th><th scope="col" class="num">Games</th><th scope="col" class="num">Wins</th><th scope="col">Points a game (95%)</th><th scope="col">Points a hand (95%)</th></tr></thead>
<tbody>${p.against_bots.map((b) => html`<tr><td>${b.bot}</td><td class="num">${b.games}</td><td class="num">${b.wins}</td><td>${meanText(b.mean_game, b.mean_game_interval)}</td><td>${meanText(b.mean_hand, b.mean_hand_interval)}</td></tr>`)}</tbody>`,
  );
  setHTML(
    $("p-kinds"),
    html`<thead><tr><th scope="col">Penalty</th><th scope="col" class="num">In play</th><th scope="col" class="num">Taken</th><th scope="col" class="num">Points</th></tr></thead>
<tbody>${
      p.penalty_kinds.length
        ? p.penalty_kinds.map((x) => html`<tr><td>${x.name}</td><td class="num">${x.hands}</td><td class="num">${x.taken} (${Math.round(x.share * 100)}%)</td><td class="num">${x.points}</td></tr>`)
        : html`<tr><td colspan="4">None counted yet.</td></tr>`
    }</tbody>`,
  );
  setHTML(
    $("p-penalties"),
    html`<thead><tr><th scope="col">Hand</th><th scope="col" class="num">Played</th><th scope="col" class="num">Took points</th><th scope="col" class="num">Mean points</th></tr></thead>
<tbody>${p.penalties.map((x) => html`<tr><td>${x.name}</td><td class="num">${x.hands}</td><td class="num">${x.taken} (${Math.round(x.share * 100)}%)</td><td class="num">${x.mean.toFixed(1)}</td></tr>`)}</tbody>`,
  );
}

async function main() {
  mountLogo($("logo"));
  try {
    render(await api("GET", `/api/players/${encodeURIComponent(who)}?page=${page}`));
  } catch (err) {
    $("p-summary").textContent = errorText(err);
    for (const id of ["h-ratings", "h-games", "h-played", "h-bots", "h-kinds", "h-penalties"]) {
      const section = $(id).parentElement;
      if (section) section.hidden = true;
    }
  }
}

main();
