// @ts-check
// The home page: "Play against bots" in one click, and "Create a table".

import { api, errorText, store } from "./api.js";
import { backSVG, setFourColour } from "./cards.js";
import { $, all, first, html, setHTML, toast } from "./dom.js";
import { t, tn } from "./i18n.js";
import { me, offerName } from "./me.js";
import { levelName } from "./players.js";
import { rulesForm } from "./rulesform.js";
import { keepPace, keptPace, paceOptions } from "./table/motion.js";
import { loadPrefs, mountLogo, wireDialogs } from "./ui.js";
import { mountYou } from "./you.js";

/** @typedef {import("./types.js").Options} Options */
/** @typedef {import("./dom.js").Html} Html */

/** @type {string[]} */
let bots = [];
/** @type {Options | null} */
let offered = null;

/**
 * The quick play choices, kept in this browser for next time (the lobby reads `bot` too:
 * an open seat's bot level defaults to it).
 * @typedef {{rules?: string, players?: number, bot?: string}} QuickChoice
 */
const QUICK_KEY = "quickplay";

/** The paces in words (the values sent stay the codes). */
const PACE_WORDS = /** @type {Record<string, string>} */ ({ slow: t("slow"), normal: t("normal"), fast: t("fast") });
const rules = rulesForm("c", { players: t("Seats"), onChange: renderSeats, presetWithFile: true });

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
  const rows = [html`<div class="seat-row"><b>${t("Seat {n}", { n: 1 })}</b><span>${t("You (host)")}</span><span></span></div>`];
  for (let i = 1; i < n; i++) {
    const prev = old[i] || {};
    const kind = prev.kind || (i === 1 ? "open" : "bot");
    const quick = /** @type {HTMLSelectElement | null} */ (document.getElementById("quick-bot"));
    const level = quick && offered.includes(quick.value) ? quick.value : null; // the quick play's level
    const bot = prev.bot || level || offered[Math.min(1, offered.length - 1)];
    const levelLabel = t("Bot level for seat {n}", { n: i + 1 });
    rows.push(html`<div class="seat-row"><b>${t("Seat {n}", { n: i + 1 })}</b>
<select data-kind aria-label="${t("Seat {n}", { n: i + 1 })}"><option value="open" ${kind === "open" ? "selected" : ""}>${t(
      "Open seat",
    )}</option><option value="bot" ${kind === "bot" ? "selected" : ""}>${t("Bot")}</option></select>
<select data-bot aria-label="${levelLabel}" ${kind === "bot" ? "" : "hidden"}>${offered.map(
      (b) => html`<option value="${b}" ${b === bot ? "selected" : ""}>${levelName(b)}</option>`,
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

/** Before a table is made: the player exists (the seat remembers them) and has a name. @param {string} name */
async function asPlayer(name) {
  await me();
  await offerName(name);
}

/** @param {Event} e */
async function quickPlay(e) {
  e.preventDefault();
  const btn = $("btn-quick", HTMLButtonElement);
  const typed = currentName($("quick-name", HTMLInputElement));
  const name = typed || t("You");
  btn.disabled = true;
  /** @type {Record<string, unknown>} */
  const body = { name };
  if (offered) {
    const choice = quickChoice();
    store.setPref(QUICK_KEY, choice);
    Object.assign(body, choice);
  }
  body.pace = chosenPace("quick-pace");
  if ($("quick-rated", HTMLInputElement).checked) body.rated = true;
  try {
    await asPlayer(typed);
    const r = await api("POST", "/api/quickplay", body);
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
    toast(t("Please give your display name."));
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
  body.pace = chosenPace("c-pace");
  if ($("c-rated", HTMLInputElement).checked) body.rated = true;
  const btn = $("btn-create", HTMLButtonElement);
  btn.disabled = true;
  try {
    await asPlayer(name);
    const r = await api("POST", "/api/tables", body);
    goToTable(r.table_id, r.token);
  } catch (err) {
    toast(errorText(err));
    btn.disabled = false;
  }
}

/**
 * The pace selects (how fast the bots play, how long a finished trick stays): one among the
 * quick play's choices, one beside the turn timer; both start at the pace this browser last
 * chose, and a change of either is kept for the next table.
 */
function mountPace() {
  const chosen = keptPace();
  const quick = document.createElement("label");
  setHTML(quick, html`${t("Pace")} <select id="quick-pace">${paceOptions(chosen)}</select>`);
  $("quick-choices").append(quick);
  const field = document.createElement("div");
  field.className = "field";
  setHTML(
    field,
    html`<label for="c-pace">${t("Pace")} <small>${t("(bots' speed, pause after a trick)")}</small></label><select id="c-pace">${paceOptions(chosen)}</select>`,
  );
  for (const option of [...quick.querySelectorAll("option"), ...field.querySelectorAll("option")]) {
    if (option instanceof HTMLOptionElement) option.textContent = PACE_WORDS[option.value] ?? option.value;
  }
  const takeover = $("c-takeover").closest(".field");
  if (takeover) takeover.after(field);
  for (const id of ["quick-pace", "c-pace"]) {
    const sel = $(id, HTMLSelectElement);
    sel.onchange = () => {
      keepPace(sel.value);
      for (const other of ["quick-pace", "c-pace"]) $(other, HTMLSelectElement).value = sel.value;
    };
  }
}

/** The pace a select says (kept for the next table). @param {string} id */
function chosenPace(id) {
  const pace = $(id, HTMLSelectElement).value;
  keepPace(pace);
  return pace;
}

/** What the quick play selects say now. @returns {QuickChoice} */
function quickChoice() {
  return {
    rules: $("quick-rules", HTMLSelectElement).value,
    players: Number($("quick-players", HTMLSelectElement).value),
    bot: $("quick-bot", HTMLSelectElement).value,
  };
}

/** The rules, players and bot selects, from the server's options and what was kept. @param {Options} options */
function mountQuickChoices(options) {
  offered = options;
  /** @type {QuickChoice} */
  const kept = store.pref(QUICK_KEY, {}) || {};
  const rulesSelect = $("quick-rules", HTMLSelectElement);
  const playersSelect = $("quick-players", HTMLSelectElement);
  const botSelect = $("quick-bot", HTMLSelectElement);
  const presets = options.presets;
  const rules = presets.some((p) => p.name === kept.rules) ? kept.rules : presets[0]?.name;
  setHTML(rulesSelect, html`${presets.map((p) => html`<option value="${p.name}" ${p.name === rules ? "selected" : ""}>${t(p.title)}</option>`)}`);
  const levels = options.bots && options.bots.length ? options.bots : ["random"];
  const bot = kept.bot && levels.includes(kept.bot) ? kept.bot : levels.includes("basic") ? "basic" : levels[0];
  setHTML(botSelect, html`${levels.map((b) => html`<option value="${b}" ${b === bot ? "selected" : ""}>${levelName(b)}</option>`)}`);
  /** @param {number | undefined} want */
  const fillPlayers = (want) => {
    const p = presets.find((x) => x.name === rulesSelect.value) || presets[0];
    const n = Math.min(p.max_players, Math.max(p.min_players, want || p.default_players));
    /** @type {number[]} */
    const counts = [];
    for (let i = p.min_players; i <= p.max_players; i++) counts.push(i);
    setHTML(playersSelect, html`${counts.map((i) => html`<option value="${i}" ${i === n ? "selected" : ""}>${i}</option>`)}`);
  };
  fillPlayers(kept.players);
  const hint = () => {
    const c = quickChoice();
    const p = presets.find((x) => x.name === c.rules);
    // the ruleset's words (a preset's title): in the catalog
    $("quick-hint").textContent = tn(
      "One click: you and {n} {level} bot, a game of {rules}.",
      "One click: you and {n} {level} bots, a game of {rules}.",
      (c.players || 2) - 1,
      { level: levelName(c.bot || ""), rules: p ? t(p.title) : c.rules },
    );
    const q = new URLSearchParams({ preset: String(c.rules), players: String(c.players) });
    $("link-howto", HTMLAnchorElement).href = `/howto?${q}`;
  };
  const remember = () => {
    store.setPref(QUICK_KEY, quickChoice());
    hint();
  };
  rulesSelect.onchange = () => {
    fillPlayers(Number(playersSelect.value));
    remember();
  };
  playersSelect.onchange = remember;
  botSelect.onchange = remember;
  hint();
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
  mountPace();
  $("quick-form").addEventListener("submit", quickPlay);
  $("create-form").addEventListener("submit", createTable);
  wireDialogs();
  mountYou((mine) => {
    // The player's name fills the name fields (a name typed there for one table stays).
    for (const id of ["quick-name", "c-name"]) {
      const input = $(id, HTMLInputElement);
      if (!input.value || input.value === name) input.value = mine;
    }
  });
  /** @type {Options} */
  let options;
  try {
    options = await api("GET", "/api/options");
  } catch (err) {
    // Offline, the page's #offline line says so (offline.js): no second message.
    if (navigator.onLine) toast(t("Cannot load the options: {error}", { error: errorText(err) }));
    return;
  }
  bots = options.bots || [];
  mountQuickChoices(options); // first: the seats below offer its bot level
  rules.setOptions(options);
}

start();
