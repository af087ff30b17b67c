// @ts-check
// The leaderboard (/leaderboard?family=...&period=all|week&page=N): GET /api/leaderboard, the
// best conservative rating (mu - 3 sigma) first.

import { api, errorText } from "./api.js";
import { $, html, setHTML } from "./dom.js";
import { number, t, tn } from "./i18n.js";
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
  // the ruleset's words (a family's title): in the catalog
  document.title = t("Leaderboard: {rules} — Salad", { rules: t(b.title) });
  $("b-title").textContent = t("Leaderboard: {rules}", { rules: t(b.title) });
  const family = $("b-family", HTMLSelectElement);
  setHTML(family, html`${b.families.map((f) => html`<option value="${f.family}" ${f.family === b.family ? "selected" : ""}>${t(f.title)}</option>`)}`);
  $("b-period", HTMLSelectElement).value = b.period;
  const week = b.period === "week";
  const games = week
    ? tn("at least {n} rated game this week", "at least {n} rated games this week", b.min_games)
    : tn("at least {n} rated game in all", "at least {n} rated games in all", b.min_games);
  $("b-summary").textContent = b.total
    ? tn(
        "{n} player with {games}. The rating shown is mu − 3 sigma (a cautious estimate); in brackets, mu ± sigma.",
        "{n} players with {games}. The rating shown is mu − 3 sigma (a cautious estimate); in brackets, mu ± sigma.",
        b.total,
        { games },
      )
    : week
      ? tn("No player has {n} rated game this week yet.", "No player has {n} rated games this week yet.", b.min_games)
      : tn("No player has {n} rated game in all yet.", "No player has {n} rated games in all yet.", b.min_games);
  setHTML(
    $("b-rows"),
    b.rows.length
      ? html`<thead><tr><th scope="col" class="num">#</th><th scope="col">${t("Player")}</th><th scope="col">${t("Rating")}</th><th scope="col" class="num">${t("Games")}</th></tr></thead>
<tbody>${b.rows.map(
          (r) =>
            html`<tr><td class="num">${number(r.rank)}</td><td>${playerLink(r.name, r.id)}</td><td>${ratingText(r.rating)}</td><td class="num">${number(
              r.games,
            )}</td></tr>`,
        )}</tbody>`
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
    $("b-summary").textContent = t("Cannot load the leaderboard: {error}", { error: errorText(err) });
  }
}

main();
