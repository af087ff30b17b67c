// The home page: "Play against bots" in one click, and "Create a table".

import { api, escapeHtml, store, toast } from "./api.js";
import { backSVG, setFourColour } from "./cards.js";
import { loadPrefs, mountLogo } from "./ui.js";

const $ = (id) => document.getElementById(id);
let options = { presets: [], toppings: [], swaps: {}, bots: [] };
let rulesText = null;

function presetOf(name) {
  return options.presets.find((p) => p.name === name) || null;
}

function toppingName(t) {
  return typeof t === "string" ? t : t.name;
}

function toppingText(t) {
  if (typeof t === "string") return t.replace(/-/g, " ");
  return t.text || t.name;
}

function swapEntries(preset) {
  const list = (options.swaps && options.swaps[preset]) || [];
  return list.map((r) => (typeof r === "string" ? { id: r, name: r.replace(/-/g, " ") } : r));
}

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

function renderPresetDependent() {
  const preset = presetOf($("c-preset").value);
  const players = $("c-players");
  if (preset) {
    players.min = preset.min_players;
    players.max = preset.max_players;
    const v = Number(players.value);
    if (!v || v < preset.min_players || v > preset.max_players) players.value = preset.default_players;
  }
  // Toppings: offered where the preset supports them (options say so), or when unknown.
  const tops = options.toppings || [];
  const allowTops = rulesText !== null || !preset || preset.toppings === undefined || preset.toppings;
  $("c-toppings-box").hidden = !tops.length || !allowTops;
  $("c-toppings").innerHTML = tops
    .map(
      (t) =>
        `<label class="check"><input type="checkbox" name="topping" value="${escapeHtml(toppingName(t))}"> <span>${escapeHtml(
          toppingText(t),
        )}</span></label>`,
    )
    .join("");
  // Swaps: for each hand slot of the preset, a swap-in round may replace it.
  const swaps = preset ? swapEntries(preset.name) : [];
  const slots = (preset && preset.hands) || [];
  $("c-swaps-box").hidden = !swaps.length || !slots.length;
  $("c-swaps").innerHTML = slots
    .map((h, i) => {
      if (h && h.swappable === false) return "";
      const name = typeof h === "string" ? h : h.name;
      const opts = swaps.map((s) => `<option value="${escapeHtml(s.id)}">${escapeHtml(s.name)}</option>`).join("");
      return `<div class="swap-row"><span>${i + 1}. ${escapeHtml(name)}</span><select data-swap="${i + 1}" aria-label="Replace hand ${
        i + 1
      }"><option value="">keep</option>${opts}</select></div>`;
    })
    .join("");
  renderSeats();
}

function renderSeats() {
  const n = Math.max(3, Math.min(10, Number($("c-players").value) || 4));
  const box = $("c-seats");
  const old = [...box.querySelectorAll(".seat-row")].map((row) => ({
    kind: row.querySelector("[data-kind]")?.value,
    bot: row.querySelector("[data-bot]")?.value,
  }));
  const bots = options.bots.length ? options.bots : ["random"];
  let html = `<div class="seat-row"><b>Seat 1</b><span>You (host)</span><span></span></div>`;
  for (let i = 1; i < n; i++) {
    const prev = old[i] || {};
    const kind = prev.kind || (i === 1 ? "open" : "bot");
    const bot = prev.bot || bots[Math.min(1, bots.length - 1)];
    html += `<div class="seat-row"><b>Seat ${i + 1}</b>
<select data-kind aria-label="Seat ${i + 1}"><option value="open" ${kind === "open" ? "selected" : ""}>Open seat</option><option value="bot" ${
      kind === "bot" ? "selected" : ""
    }>Bot</option></select>
<select data-bot aria-label="Bot level for seat ${i + 1}" ${kind === "bot" ? "" : "hidden"}>${bots
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
  const body = { name, players: Number($("c-players").value) };
  if (rulesText !== null) body.rules_toml = rulesText;
  else body.rules = $("c-preset").value;
  const toppings = [...document.querySelectorAll("input[name=topping]:checked")].map((c) => c.value);
  if (toppings.length) body.toppings = toppings;
  const swap = {};
  for (const s of document.querySelectorAll("[data-swap]")) if (s.value) swap[s.dataset.swap] = s.value;
  if (Object.keys(swap).length) body.swap = swap;
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
  $("c-players").addEventListener("input", renderSeats);
  $("c-preset").addEventListener("change", renderPresetDependent);
  $("c-file").addEventListener("change", async () => {
    const file = $("c-file").files[0];
    rulesText = file ? await file.text() : null;
    $("c-preset").disabled = rulesText !== null;
    $("c-file-note").textContent = file ? `Using ${file.name} instead of a preset.` : "";
    renderPresetDependent();
  });
  try {
    options = await api("GET", "/api/options");
  } catch (err) {
    toast(`Cannot load the options: ${err.message}`);
    return;
  }
  options.bots = options.bots || [];
  $("c-preset").innerHTML = options.presets
    .map((p) => `<option value="${escapeHtml(p.name)}">${escapeHtml(p.title || p.name)}</option>`)
    .join("");
  const first = options.presets[0];
  if (first) $("c-players").value = first.default_players;
  renderPresetDependent();
  if (first) $("quick-hint").textContent = `One click: you and ${first.default_players - 1} bots, a game of ${first.title}.`;
}

start();
