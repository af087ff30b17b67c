// @ts-check
// Small pieces shared by every page: the logo, dialogs, preferences.

import { store } from "./api.js";
import { setFourColour } from "./cards.js";
import { all, html, setHTML, trusted } from "./dom.js";
import { t } from "./i18n.js";
import { me } from "./me.js";

export const LOGO_SVG = trusted(`<svg viewBox="0 0 64 64" aria-hidden="true"><path d="M5 30h54c0 15-12 27-27 27S5 45 5 30z" fill="#fffaf0"/><path d="M5 30h54" stroke="#e9e2cf" stroke-width="3"/><circle cx="21" cy="23" r="10" fill="#40c057"/><circle cx="27" cy="17" r="7" fill="#69db7c"/><circle cx="41" cy="21" r="9" fill="#e03131"/><circle cx="38" cy="18" r="2.4" fill="#ff8787"/><circle cx="32" cy="27" r="7" fill="#f76707"/><path d="M17 40h30" stroke="#e9e2cf" stroke-width="3" stroke-linecap="round"/></svg>`);

export const TROPHY_SVG = trusted(`<path d="M16 6h32v14c0 10-7 18-16 18S16 30 16 20z" fill="#fcc419"/><path d="M16 10H7c0 10 5 15 11 16M48 10h9c0 10-5 15-11 16" fill="none" stroke="#fcc419" stroke-width="4"/><path d="M28 37h8v9h-8z" fill="#f59f00"/><path d="M19 46h26l2 9H17z" fill="#e67700"/><path d="M24 12h4v16h-4z" fill="#fff3bf" opacity=".8"/>`);

/** The trophy drawing, with this class. @param {string} cls */
export function trophy(cls) {
  return html`<svg class="${cls}" viewBox="0 0 64 64" aria-hidden="true">${TROPHY_SVG}</svg>`;
}

/** The logo (with its name) in `el`, if the page has one. @param {HTMLElement | null} el */
export function mountLogo(el, withText = true) {
  if (!el) return;
  const brand = t("Salad");
  setHTML(el, html`${LOGO_SVG}${withText ? html`<span>${brand}</span>` : ""}`);
}

/** Wire every `[data-close]` button of the page's dialogs; a click on the backdrop closes too. */
export function wireDialogs() {
  for (const dlg of all(document, "dialog", HTMLDialogElement)) {
    for (const b of all(dlg, "[data-close]")) b.addEventListener("click", () => dlg.close());
    dlg.addEventListener("click", (e) => {
      if (e.target === dlg) dlg.close();
    });
  }
}

export function loadPrefs() {
  setFourColour(store.pref("fourColour", false));
  // The player this browser is, made on its first visit (a sign-in link's page signs in first).
  me();
}

/** Keep the seat plates of a felt inside it (a plate is centred on its seat's point). @param {HTMLElement} container */
export function clampPlates(container) {
  const box = container.getBoundingClientRect();
  if (!box.width) return;
  for (const el of all(container, ".seat")) {
    const x = (parseFloat(el.style.left) / 100) * box.width;
    const y = (parseFloat(el.style.top) / 100) * box.height;
    const hw = el.offsetWidth / 2 + 2;
    const hh = el.offsetHeight / 2 + 2;
    const cx = Math.min(Math.max(x, hw), box.width - hw);
    const cy = Math.min(Math.max(y, hh), box.height - hh);
    if (cx !== x) el.style.left = `${cx}px`;
    if (cy !== y) el.style.top = `${cy}px`;
  }
}

/**
 * Where a trick card of the seat at `angle` lies (n players): a cluster around the felt's centre
 * that widens with the number of players; the name goes on the side of the card facing its seat.
 * @param {number} angle
 * @param {number} order
 * @param {number} n
 * @returns {{style: string, cls: string}}
 */
export function trickPlace(angle, order, n, portrait = false) {
  const k = Math.max(0, Math.min(n, 8) - 4);
  const sx = portrait ? (k ? 0.8 : 0.9) : 1; // 3-4 players: the side cards clear the lowest one
  const sy = portrait ? (k ? 1.2 : 1.12) : 1;
  const dx = (Math.cos(angle) * (1.12 + 0.22 * k) * sx).toFixed(3);
  // Five or six players: the two cards on a side a card's height apart, neither on the other.
  const dy = (Math.sin(angle) * Math.min(1.4, 1.0 + 0.26 * k) * sy).toFixed(3);
  return {
    style: `left:calc(50% + ${dx} * var(--trick-w));top:calc(50% + ${dy} * var(--trick-w));z-index:${3 + order}`,
    cls: Math.sin(angle) < -0.2 ? "label-top" : "",
  };
}
