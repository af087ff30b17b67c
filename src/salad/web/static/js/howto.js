// @ts-check
// How to play (/howto?preset=...&players=..., or /table/{id}/howto for a table's own rules):
// every word of the rules comes from the server (GET /api/howto, GET /api/tables/{id}/howto,
// asked in the page's language), which reads the ruleset; this page only lays it out and draws
// the example trick's cards.

import { api, errorText } from "./api.js";
import { Deck, cardSVG } from "./cards.js";
import { $, html, setHTML } from "./dom.js";
import { code, number, t, tn } from "./i18n.js";
import { loadPrefs, mountLogo } from "./ui.js";

/** @typedef {import("./types.js").Options} Options */
/** @typedef {import("./messages.js").Deck} DeckSpec */

/**
 * The answer of GET /api/howto (salad.formats.howto).
 * @typedef {object} HowTo
 * @property {string} title
 * @property {string} preset
 * @property {number} players
 * @property {number} min_players
 * @property {number} max_players
 * @property {string} objective
 * @property {{text: string, cards_each: number}} deck
 * @property {DeckSpec} deck_spec
 * @property {{players: number, text: string}[]} removals
 * @property {string[]} play
 * @property {{name: string, points: number, text: string}[]} penalties each penalty of the game, once
 * @property {{number: number, name: string, total: number, penalties: number[]}[]} hands a hand's penalties: their places in `penalties`
 * @property {{name: string, title: string, shown: string, text: string}[]} toppings the title in English (data) and as shown
 * @property {{hand: number, round: string, cards: {code: string, name: string}[], lines: {penalty: string, points: number, why: string}[], total: number, text: string} | null} example
 */

const parts = location.pathname.split("/").filter(Boolean);
const tableId = parts[0] === "table" && parts.length >= 3 ? decodeURIComponent(parts[1]) : null;

/** @param {string} text */
function sentence(text) {
  return text.charAt(0).toUpperCase() + text.slice(1) + (/[.!?]$/.test(text) ? "" : ".");
}

/** @param {HowTo} h */
function render(h) {
  // the ruleset's words (its title): in the catalog
  document.title = t("How to play {rules} — Salad", { rules: t(h.title) });
  $("howto-title").textContent = t("How to play {rules}", { rules: t(h.title) });
  $("howto-objective").textContent = tn("{n} player. {objective}", "{n} players. {objective}", h.players, { objective: h.objective });
  $("howto-deck").textContent = sentence(h.deck.text);
  setHTML(
    $("howto-removals"),
    html`${h.removals.map(
      (r) => html`<li class="${r.players === h.players ? "current" : ""}">${r.players === h.players ? t("{text} (this game)", { text: r.text }) : r.text}</li>`,
    )}`,
  );
  setHTML($("howto-play"), html`${h.play.map((p) => html`<li>${p}</li>`)}`);
  setHTML(
    $("howto-hands"),
    html`${h.hands.map(
      // the ruleset's words (a round's name): in the catalog
      (hand) => html`<li><b>${t(hand.name)}</b>
<ul>${hand.penalties.map((i) => html`<li>${sentence(h.penalties[i].text)}</li>`)}</ul>
<small class="hint">${tn("{n} point in all is handed out in this hand.", "{n} points in all are handed out in this hand.", hand.total)}</small></li>`,
    )}`,
  );
  $("howto-toppings-box").hidden = !h.toppings.length;
  setHTML(
    $("howto-toppings"),
    html`${h.toppings.map((top) => html`<li><b>${top.shown}</b>${t(": {text}", { text: top.text })}</li>`)}`,
  );
  const ex = h.example;
  $("howto-example-box").hidden = !ex;
  if (ex) {
    const deck = new Deck(h.deck_spec);
    setHTML(
      $("howto-trick"),
      html`${ex.cards.map((c) => html`<div class="howto-card">${cardSVG(deck, c.code)}</div>`)}`,
    );
    $("howto-example").textContent = ex.text;
    setHTML(
      $("howto-lines"),
      // the ruleset's words (a penalty's name): in the catalog
      html`<caption>${t("What the last trick costs its winner")}</caption>
<tbody>${ex.lines.map((l) => html`<tr><th scope="row">${t(l.penalty)}</th><td>${l.why}</td><td class="num">${number(l.points)}</td></tr>`)}
<tr class="total"><th scope="row">${t("In all")}</th><td></td><td class="num">${number(ex.total)}</td></tr></tbody>`,
    );
  }
}

/** The rules asked in the page's language. @param {string} path */
async function load(path) {
  const url = new URL(path, location.origin);
  url.searchParams.set("lang", code);
  try {
    render(await api("GET", `${url.pathname}${url.search}`));
  } catch (err) {
    $("howto-objective").textContent = t("Cannot load the rules: {error}", { error: errorText(err) });
  }
}

/** The preset and player pickers (not for a table: its rules are fixed). @param {HowTo | null} shown */
async function mountChoices(shown) {
  const params = new URLSearchParams(location.search);
  /** @type {Options} */
  const options = await api("GET", "/api/options");
  const presetSelect = $("howto-preset", HTMLSelectElement);
  const playersSelect = $("howto-players", HTMLSelectElement);
  const wanted = params.get("preset") || shown?.preset || options.presets[0]?.name || "";
  setHTML(
    presetSelect,
    html`${options.presets.map((p) => html`<option value="${p.name}" ${p.name === wanted ? "selected" : ""}>${t(p.title)}</option>`)}`,
  );
  const fillPlayers = () => {
    const p = options.presets.find((x) => x.name === presetSelect.value) || options.presets[0];
    const want = Number(playersSelect.value || params.get("players")) || p.default_players;
    const n = Math.min(p.max_players, Math.max(p.min_players, want));
    /** @type {number[]} */
    const counts = [];
    for (let i = p.min_players; i <= p.max_players; i++) counts.push(i);
    setHTML(playersSelect, html`${counts.map((i) => html`<option value="${i}" ${i === n ? "selected" : ""}>${i}</option>`)}`);
  };
  fillPlayers();
  const update = () => {
    const q = new URLSearchParams({ preset: presetSelect.value, players: playersSelect.value });
    history.replaceState(null, "", `/howto?${q}`);
    load(`/api/howto?${q}`);
  };
  presetSelect.onchange = () => {
    playersSelect.value = "";
    fillPlayers();
    update();
  };
  playersSelect.onchange = update;
}

async function start() {
  loadPrefs();
  mountLogo($("logo"));
  if (tableId) {
    const enc = encodeURIComponent(tableId);
    $("howto-choose").hidden = true;
    const back = $("howto-back", HTMLAnchorElement);
    back.href = `/table/${enc}`;
    back.textContent = t("Back to the table");
    await load(`/api/tables/${enc}/howto`);
    return;
  }
  const params = new URLSearchParams(location.search);
  const q = new URLSearchParams();
  if (params.get("preset")) q.set("preset", params.get("preset") || "");
  if (params.get("players")) q.set("players", params.get("players") || "");
  if (params.get("toppings")) q.set("toppings", params.get("toppings") || "");
  await load(`/api/howto?${q}`);
  try {
    await mountChoices(null);
  } catch (err) {
    $("howto-choose").hidden = true;
  }
}

start();
