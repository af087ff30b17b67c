// The home page: "Play against bots" in one click, and "Create a table".

import { api, escapeHtml, store, toast } from "./api.js";
import { backSVG, setFourColour } from "./cards.js";
import { rulesForm } from "./rulesform.js";
import { loadPrefs, mountLogo } from "./ui.js";

const $ = (id) => document.getElementById(id);
let bots = [];
const rules = rulesForm("c", { players: "Seats", onChange: renderSeats, presetWithFile: true });

function renderFan() {
  const fan = $("hero-fan");
  let html = "";
  const n = 7;
  for (let i = 0; i < n; i++) {
    const angle = (i - (n - 1) / 2) * 11;
    html += `<div class="fan-card" style="transform:translateX(-50%) rotate(${angle}deg)">${backSVG()}</div>`;
  }
  fan.innerHTML = html;
}

function renderSeats() {
  const n = Math.max(3, Math.min(10, Number($("c-players").value) || 4));
  const box = $("c-seats");
  const old = [...box.querySelectorAll(".seat-row")].map((row) => ({
    kind: row.querySelector("[data-kind]")?.value,
    bot: row.querySelector("[data-bot]")?.value,
  }));
  const offered = bots.length ? bots : ["random"];
  let html = `<div class="seat-row"><b>Seat 1</b><span>You (host)</span><span></span></div>`;
  for (let i = 1; i < n; i++) {
    const prev = old[i] || {};
    const kind = prev.kind || (i === 1 ? "open" : "bot");
    const bot = prev.bot || offered[Math.min(1, offered.length - 1)];
    html += `<div class="seat-row"><b>Seat ${i + 1}</b>
<select data-kind aria-label="Seat ${i + 1}"><option value="open" ${kind === "open" ? "selected" : ""}>Open seat</option><option value="bot" ${
      kind === "bot" ? "selected" : ""
    }>Bot</option></select>
<select data-bot aria-label="Bot level for seat ${i + 1}" ${kind === "bot" ? "" : "hidden"}>${offered
      .map((b) => `<option value="${escapeHtml(b)}" ${b === bot ? "selected" : ""}>${escapeHtml(b)}</option>`)
      .join("")}</select></div>`;
  }
  box.innerHTML = html;
  for (const row of box.querySelectorAll(".seat-row")) {
    const kind = row.querySelector("[data-kind]");
    if (kind) kind.onchange = () => (row.querySelector("[data-bot]").hidden = kind.value !== "bot");
  }
}

function goToTable(tableId, token) {
  store.setToken(tableId, token);
  location.href = `/table/${encodeURIComponent(tableId)}`;
}

function currentName(input) {
  const name = input.value.trim();
  if (name) store.setName(name);
  return name;
}

async function quickPlay(e) {
  e.preventDefault();
  const btn = $("btn-quick");
  const name = currentName($("quick-name")) || "You";
  btn.disabled = true;
  try {
    const r = await api("POST", "/api/quickplay", { name });
    goToTable(r.table_id, r.token);
  } catch (err) {
    toast(err.message);
    btn.disabled = false;
  }
}

async function createTable(e) {
  e.preventDefault();
  const name = currentName($("c-name"));
  if (!name) {
    toast("Please give your display name.");
    $("c-name").focus();
    return;
  }
  const body = { name, players: Number($("c-players").value), ...rules.request() };
  body.seats = [...document.querySelectorAll("#c-seats .seat-row")].map((row, i) => {
    if (i === 0) return { kind: "human" };
    const kind = row.querySelector("[data-kind]").value;
    return kind === "bot" ? { kind, bot: row.querySelector("[data-bot]").value } : { kind };
  });
  const timer = Number($("c-timer").value);
  if (timer) body.turn_timer = timer;
  const takeover = Number($("c-takeover").value);
  if (takeover) body.bot_takeover = takeover;
  const btn = $("btn-create");
  btn.disabled = true;
  try {
    const r = await api("POST", "/api/tables", body);
    goToTable(r.table_id, r.token);
  } catch (err) {
    toast(err.message);
    btn.disabled = false;
  }
}

async function start() {
  loadPrefs();
  mountLogo($("logo"));
  renderFan();
  const four = $("opt-four");
  four.checked = store.pref("fourColour", false);
  four.onchange = () => {
    store.setPref("fourColour", four.checked);
    setFourColour(four.checked);
  };
  const name = store.name();
  $("quick-name").value = name;
  $("c-name").value = name;
  $("quick-form").addEventListener("submit", quickPlay);
  $("create-form").addEventListener("submit", createTable);
  let options;
  try {
    options = await api("GET", "/api/options");
  } catch (err) {
    toast(`Cannot load the options: ${err.message}`);
    return;
  }
  bots = options.bots || [];
  rules.setOptions(options);
  const first = options.presets[0];
  if (first) $("quick-hint").textContent = `One click: you and ${first.default_players - 1} bots, a game of ${first.title}.`;
}

start();
