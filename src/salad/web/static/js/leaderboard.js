// @ts-check
// The leaderboard (/leaderboard?family=...&period=all|week&page=N): GET /api/leaderboard, the
// best conservative rating (mu - 3 sigma) first.

import { api, errorText } from "./api.js";
import { $, html, setHTML } from "./dom.js";
import { pager, playerLink, ratingText } from "./players.js";
import { mountLogo } from "./ui.js";

/** @typedef {import("./players.js").Rating} Rating */

/**
 * The answer of GET /api/leaderboard.
 * @typedef {object} Board
 * @property {string} family
 * @property {string} title
 * @property {{family: string, title: string}[]} families
 * @property {"all" | "week"} period
 * @property {number} min_games
 * @property {number} page
 * @property {number} pages
 * @property {number} total
 * @property {{rank: number, id: string, name: string | null, rating: Rating, games: number}[]} rows
 */

const params = new URLSearchParams(location.search);

/** @param {Record<string, string>} change */
function href(change) {
  const q = new URLSearchParams(params);
  for (const [k, v] of Object.entries(change)) q.set(k, v);
  return `/leaderboard?${q}`;
}

/** @param {Board} b */
function render(b) {
  document.title = `Leaderboard: ${b.title} — Salad`;
  $("b-title").textContent = `Leaderboard: ${b.title}`;
  const family = $("b-family", HTMLSelectElement);
  setHTML(family, html`${b.families.map((f) => html`<option value="${f.family}" ${f.family === b.family ? "selected" : ""}>${f.title}</option>`)}`);
  $("b-period", HTMLSelectElement).value = b.period;
  const when = b.period === "week" ? "this week" : "in all";
  $("b-summary").textContent = b.total
    ? `${b.total} player${b.total === 1 ? "" : "s"} with at least ${b.min_games} rated game${b.min_games === 1 ? "" : "s"} ${when}. The rating shown is mu − 3 sigma (a cautious estimate); in brackets, mu ± sigma.`
    : `No player has ${b.min_games} rated games ${when} yet.`;
  setHTML(
    $("b-rows"),
    b.rows.length
      ? html`<thead><tr><th scope="col" class="num">#</th><th scope="col">Player</th><th scope="col">Rating</th><th scope="col" class="num">Games</th></tr></thead>
<tbody>${b.rows.map((r) => html`<tr><td class="num">${r.rank}</td><td>${playerLink(r.name, r.id)}</td><td>${ratingText(r.rating)}</td><td class="num">${r.games}</td></tr>`)}</tbody>`
      : html``,
  );
  setHTML($("b-pager"), pager(b.page, b.pages, (page) => href({ page: String(page) })));
}

async function main() {
  mountLogo($("logo"));
  const go = () => {
    location.href = href({ family: $("b-family", HTMLSelectElement).value, period: $("b-period", HTMLSelectElement).value, page: "1" });
  };
  $("b-family").onchange = go;
  $("b-period").onchange = go;
  try {
    render(await api("GET", `/api/leaderboard?${params}`));
  } catch (err) {
    $("b-summary").textContent = `Cannot load the leaderboard: ${errorText(err)}`;
  }
}

main();
