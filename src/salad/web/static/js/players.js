// @ts-check
// What the profile page (/p/{name-or-id}) and the leaderboard (/leaderboard) share: a rating
// in words, a pager, a date, a bot level's name (the home page's too). Their data:
// GET /api/players/{name-or-id}, GET /api/leaderboard.

import { html } from "./dom.js";
import { date, number, t } from "./i18n.js";

/**
 * A rating as the server gives it (salad.server.routes.ratings.RatingOut).
 * @typedef {object} Rating
 * @property {string} family
 * @property {string} title
 * @property {number} mu
 * @property {number} sigma
 * @property {number} ordinal
 * @property {number} games
 * @property {boolean} provisional
 */

/** The bots' levels in words (the values sent stay the codes). */
const LEVELS = /** @type {Record<string, string>} */ ({
  random: t("random"),
  basic: t("basic"),
  advanced: t("advanced"),
  expert: t("expert"),
  "openspiel-ismcts": t("OpenSpiel ISMCTS"),
});

/** A bot level's name in words (an unknown one as it is). @param {string} level */
export function levelName(level) {
  return LEVELS[level] ?? level;
}

/** The rating the board sorts by, and its uncertainty. @param {Rating} r */
export function ratingText(r) {
  const band = t("mu ± sigma");
  const settled = t("Fewer rated games than needed for a settled rating");
  return html`<b class="r-ordinal">${one(r.ordinal)}</b> <span class="r-mu" title="${band}">(${one(r.mu)} ± ${one(r.sigma)})</span>${
    r.provisional
      ? html` <span class="r-prov" title="${settled}">${t("provisional")}</span>`
      : ""
  }`;
}

/** A number with one decimal, as the page's language writes it. @param {number} n */
export function one(n) {
  return number(n, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

/**
 * Links to the other pages of a paged list (none when it has one page).
 * @param {number} page
 * @param {number} pages
 * @param {(page: number) => string} href
 */
export function pager(page, pages, href) {
  if (pages <= 1) return html``;
  return html`${page > 1 ? html`<a class="btn btn-small" href="${href(page - 1)}" rel="prev">${t("Newer")}</a>` : ""}
<span class="hint">${t("Page {page} of {pages}", { page: number(page), pages: number(pages) })}</span>
${page < pages ? html`<a class="btn btn-small" href="${href(page + 1)}" rel="next">${t("Older")}</a>` : ""}`;
}

/** A moment (seconds since 1970) as a short local date (its year if not this one's). @param {number} at */
export function day(at) {
  const when = new Date(at * 1000);
  const year = when.getFullYear() === new Date().getFullYear() ? undefined : "numeric";
  return date(when, { year, month: "short", day: "numeric" });
}

/** A player's name as a link to their profile. @param {string | null} name @param {string} id */
export function playerLink(name, id) {
  return html`<a href="/p/${encodeURIComponent(name || id)}">${name || t("Unnamed player")}</a>`;
}
