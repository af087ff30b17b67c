// @ts-check
// The home page: "Play against bots" in one click, and "Create a table".

import { api, errorText, store } from "./api.js";
import { backSVG, setFourColour } from "./cards.js";
import { $, all, first, html, setHTML, toast } from "./dom.js";
import { rulesForm } from "./rulesform.js";
import { loadPrefs, mountLogo } from "./ui.js";

/** @typedef {import("./types.js").Options} Options */
/** @typedef {import("./dom.js").Html} Html */

/** @type {string[]} */
let bots = [];
const rules = rulesForm("c", { players: "Seats", onChange: renderSeats, presetWithFile: true });

function renderFan() {
  const fan = $("hero-fan");
  const cards = [];
  const n = 7;
  for (let i = 0; i < n; i++) {
    const angle = (i - (n - 1) / 2) * 11;
    cards.push(html`<div class="fan-card" style="transform:translateX(-50%) rotate(${angle}deg)">${backSVG()}</div>`);
  }
  setHTML(fan, html`${cards}`);
}

function renderSeats() {
  const n = Math.max(3, Math.min(10, Number($("c-players", HTMLInputElement).value) || 4));
  const box = $("c-seats");
  const old = all(box, ".seat-row").map((row) => ({
    kind: first(row, "[data-kind]", HTMLSelectElement)?.value,
    bot: first(row, "[data-bot]", HTMLSelectElement)?.value,
  }));
  const offered = bots.length ? bots : ["random"];
  /** @type {Html[]} */
  const rows = [html`<div class="seat-row"><b>Seat 1</b><span>You (host)</span><span></span></div>`];
  for (let i = 1; i < n; i++) {
    const prev = old[i] || {};
    const kind = prev.kind || (i === 1 ? "open" : "bot");
    const bot = prev.bot || offered[Math.min(1, offered.length - 1)];
    rows.push(html`<div class="seat-row"><b>Seat ${i + 1}</b>
<select data-kind aria-label="Seat ${i + 1}"><option value="open" ${kind === "open" ? "selected" : ""}>Open seat</option><option value="bot" ${
      kind === "bot" ? "selected" : ""
    }>Bot</option></select>
<select data-bot aria-label="Bot level for seat ${i + 1}" ${kind === "bot" ? "" : "hidden"}>${offered.map(
      (b) => html`<option value="${b}" ${b === bot ? "selected" : ""}>${b}</option>`,
    )}</select></div>`);
  }
  setHTML(box, html`${rows}`);
  for (const row of all(box, ".seat-row")) {
    const kind = first(row, "[data-kind]", HTMLSelectElement);
    const botSelect = first(row, "[data-bot]");
    if (kind && botSelect) kind.onchange = () => (botSelect.hidden = kind.value !== "bot");
  }
}

/** @param {string} tableId @param {string} token */
function goToTable(tableId, token) {
  store.setToken(tableId, token);
  location.href = `/table/${encodeURIComponent(tableId)}`;
}

/** @param {HTMLInputElement} input */
function currentName(input) {
  const name = input.value.trim();
  if (name) store.setName(name);
  return name;
}

/** @param {Event} e */
async function quickPlay(e) {
  e.preventDefault();
  const btn = $("btn-quick", HTMLButtonElement);
  const name = currentName($("quick-name", HTMLInputElement)) || "You";
  btn.disabled = true;
  try {
    const r = await api("POST", "/api/quickplay", { name });
    goToTable(r.table_id, r.token);
  } catch (err) {
    toast(errorText(err));
    btn.disabled = false;
  }
}

/** @param {Event} e */
async function createTable(e) {
  e.preventDefault();
  const name = currentName($("c-name", HTMLInputElement));
  if (!name) {
    toast("Please give your display name.");
    $("c-name").focus();
    return;
  }
  /** @type {Record<string, unknown>} */
  const body = { name, players: Number($("c-players", HTMLInputElement).value), ...rules.request() };
  body.seats = all(document, "#c-seats .seat-row").map((row, i) => {
    if (i === 0) return { kind: "human" };
    const kind = /** @type {HTMLSelectElement} */ (first(row, "[data-kind]", HTMLSelectElement)).value;
    return kind === "bot"
      ? { kind, bot: /** @type {HTMLSelectElement} */ (first(row, "[data-bot]", HTMLSelectElement)).value }
      : { kind };
  });
  const timer = Number($("c-timer", HTMLInputElement).value);
  if (timer) body.turn_timer = timer;
  const takeover = Number($("c-takeover", HTMLInputElement).value);
  if (takeover) body.bot_takeover = takeover;
  const btn = $("btn-create", HTMLButtonElement);
  btn.disabled = true;
  try {
    const r = await api("POST", "/api/tables", body);
    goToTable(r.table_id, r.token);
  } catch (err) {
    toast(errorText(err));
    btn.disabled = false;
  }
}

async function start() {
  loadPrefs();
  mountLogo($("logo"));
  renderFan();
  const four = $("opt-four", HTMLInputElement);
  four.checked = store.pref("fourColour", false);
  four.onchange = () => {
    store.setPref("fourColour", four.checked);
    setFourColour(four.checked);
  };
  const name = store.name();
  $("quick-name", HTMLInputElement).value = name;
  $("c-name", HTMLInputElement).value = name;
  $("quick-form").addEventListener("submit", quickPlay);
  $("create-form").addEventListener("submit", createTable);
  /** @type {Options} */
  let options;
  try {
    options = await api("GET", "/api/options");
  } catch (err) {
    toast(`Cannot load the options: ${errorText(err)}`);
    return;
  }
  bots = options.bots || [];
  rules.setOptions(options);
  const first = options.presets[0];
  if (first) $("quick-hint").textContent = `One click: you and ${first.default_players - 1} bots, a game of ${first.title}.`;
}

start();
