// @ts-check
// A player's profile (/p/{name-or-id}?page=N): GET /api/players/{name-or-id}. Finished games
// only: the server never puts anything of a game under way in a profile. The rating chart is
// an SVG drawn here.

import { api, errorText } from "./api.js";
import { $, html, join, setHTML } from "./dom.js";
import { number, t, tn } from "./i18n.js";
import { day, levelName, one, pager, ratingText } from "./players.js";
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
  return interval ? t("{mean} ({low} to {high})", { mean: one(mean), low: one(interval[0]), high: one(interval[1]) }) : one(mean);
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
  const label = tn("{rules} rating over {n} rated game", "{rules} rating over {n} rated games", n, { rules: title });
  return html`<figure class="p-figure"><figcaption>${t("{rules}: the rating after each rated game", { rules: title })}</figcaption>
<svg viewBox="0 0 ${CHART_W} ${CHART_H}" role="img" aria-label="${label}">
${join(ticks.map((v) => html`<line class="c-grid" x1="${PAD.left}" x2="${CHART_W - PAD.right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}"/><text class="c-label" x="${PAD.left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${number(Math.round(v))}</text>`))}
<path class="c-band" d="${band}"/>
<path class="c-ordinal" d="${line((p) => p.ordinal)}"/>
<path class="c-mu" d="${line((p) => p.mu)}"/>
${join(points.map((p, i) => html`<circle class="c-dot" cx="${x(i).toFixed(1)}" cy="${y(p.mu).toFixed(1)}" r="3"><title>${t("Game {n}: {mu} ± {sigma}", { n: i + 1, mu: one(p.mu), sigma: one(p.sigma) })}</title></circle>`))}
<text class="c-label" x="${PAD.left + w / 2}" y="${CHART_H - 6}" text-anchor="middle">${t("Rated games ({n})", { n: number(n) })}</text>
</svg>
<p class="c-legend"><span class="k-mu"></span>${t("mu")} <span class="k-band"></span>${t("± sigma")} <span class="k-ordinal"></span>${t("mu − 3 sigma")}</p></figure>`;
}

/** A share (0 to 1) as a whole percentage. @param {number} share */
function percent(share) {
  return number(Math.round(share * 100) / 100, { style: "percent" });
}

/** @param {Profile} p */
function render(p) {
  const name = p.name || t("Unnamed player");
  document.title = t("{name} — Salad", { name });
  setHTML($("p-name"), html`<span class="p-dot" style="background:${/^#[0-9a-fA-F]{6}$/.test(p.colour) ? p.colour : "#888"}"></span>${name}`);
  $("p-summary").textContent = p.games
    ? tn("{n} finished game.", "{n} finished games.", p.games) +
      " " +
      tn("A rating is provisional until {n} rated game.", "A rating is provisional until {n} rated games.", p.provisional_games)
    : t("No finished game yet.");
  setHTML(
    $("p-ratings"),
    p.ratings.length
      ? html`${p.ratings.map(
          (r) =>
            html`<div class="p-rating"><span class="hint">${t(r.title)}</span> ${ratingText(r)} <small class="hint">${tn(
              "{n} rated game",
              "{n} rated games",
              r.games,
            )}</small></div>`,
        )}`
      : html`<p class="hint">${t("No rated game yet: a game with another player, or a rated table against the bots, is rated.")}</p>`,
  );
  setHTML(
    $("p-chart"),
    html`${p.ratings.map((r) => {
      const points = p.history.filter((h) => h.family === r.family);
      return points.length ? chart(points, t(r.title), Math.max(280, $("p-chart").clientWidth)) : "";
    })}`,
  );
  const games = p.finished.games;
  setHTML(
    $("p-games"),
    games.length
      ? html`<thead><tr><th scope="col">${t("Date")}</th><th scope="col">${t("Rules")}</th><th scope="col" class="num wide">${t(
          "Players",
        )}</th><th scope="col" class="num">${t("Place")}</th><th scope="col" class="num">${t("Points")}</th><th scope="col">${t("Game")}</th></tr></thead>
<tbody>${games.map(
          (g) =>
            html`<tr><td>${day(g.finished_at)}</td><td>${t(g.title)}${g.rated ? html` <span class="r-tag">${t("rated")}</span>` : ""}${
              g.left ? html` <span class="r-tag r-left">${t("left")}</span>` : ""
            }</td><td class="num wide">${number(g.players)}</td><td class="num">${number(g.place)}</td><td class="num">${number(
              g.points,
            )}</td><td class="p-links"><a href="${g.replay}">${t("Replay")}</a> <a href="${g.review}">${t("Review")}</a></td></tr>`,
        )}</tbody>`
      : html``,
  );
  setHTML($("p-pager"), pager(p.finished.page, p.finished.pages, (n) => `?page=${n}`));
  setHTML(
    $("p-played"),
    html`<thead><tr><th scope="col">${t("Rules")}</th><th scope="col" class="num">${t("Players")}</th><th scope="col" class="num">${t("Games")}</th></tr></thead>
<tbody>${p.by_ruleset.map(
      (c) => html`<tr><td>${t(c.title)}</td><td class="num">${number(c.players)}</td><td class="num">${number(c.games)}</td></tr>`,
    )}</tbody>`,
  );
  setHTML(
    $("p-bots"),
    html`<thead><tr><th scope="col">${t("Bot")}</th><th scope="col" class="num">${t("Games")}</th><th scope="col" class="num">${t(
      "Wins",
    )}</th><th scope="col">${t("Points a game (95%)")}</th><th scope="col">${t("Points a hand (95%)")}</th></tr></thead>
<tbody>${p.against_bots.map((b) => html`<tr><td>${levelName(b.bot)}</td><td class="num">${number(b.games)}</td><td class="num">${number(b.wins)}</td><td>${meanText(b.mean_game, b.mean_game_interval)}</td><td>${meanText(b.mean_hand, b.mean_hand_interval)}</td></tr>`)}</tbody>`,
  );
  setHTML(
    $("p-kinds"),
    html`<thead><tr><th scope="col">${t("Penalty")}</th><th scope="col" class="num">${t("In play")}</th><th scope="col" class="num">${t(
      "Taken",
    )}</th><th scope="col" class="num">${t("Points")}</th></tr></thead>
<tbody>${
      p.penalty_kinds.length
        ? p.penalty_kinds.map(
            // the ruleset's words (a penalty's name): in the catalog
            (x) =>
              html`<tr><td>${t(x.name)}</td><td class="num">${number(x.hands)}</td><td class="num">${number(x.taken)} (${percent(
                x.share,
              )})</td><td class="num">${number(x.points)}</td></tr>`,
          )
        : html`<tr><td colspan="4">${t("None counted yet.")}</td></tr>`
    }</tbody>`,
  );
  setHTML(
    $("p-penalties"),
    html`<thead><tr><th scope="col">${t("Hand")}</th><th scope="col" class="num">${t("Played")}</th><th scope="col" class="num">${t(
      "Took points",
    )}</th><th scope="col" class="num">${t("Mean points")}</th></tr></thead>
<tbody>${p.penalties.map(
      // the ruleset's words (a round's name): in the catalog
      (x) =>
        html`<tr><td>${t(x.name)}</td><td class="num">${number(x.hands)}</td><td class="num">${number(x.taken)} (${percent(
          x.share,
        )})</td><td class="num">${one(x.mean)}</td></tr>`,
    )}</tbody>`,
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
