// @ts-check
// A group's page, /g/{id}: its members (the owner's invite link, remove and leave), a table
// for the group, and the standings of a season (the table, its CSV, the chart over time drawn
// here as SVG, and every game counted: online games and score sheets).

import { api, errorText, store } from "./api.js";
import { $, html, join, setHTML, toast } from "./dom.js";
import { date, number, t, tn } from "./i18n.js";
import { SEAT_COLOURS } from "./scores.js";
import { loadPrefs, mountLogo } from "./ui.js";

/** @typedef {import("./dom.js").Html} Html */
/** @typedef {{player: string, name: string | null, joined_at: number, owner: boolean}} Member */
/**
 * @typedef {object} Group
 * @property {string} id
 * @property {string} name
 * @property {string | null} owner
 * @property {boolean} you_own
 * @property {Member[]} members
 * @property {string | null} invite_url
 */
/**
 * @typedef {object} Line
 * @property {string} player
 * @property {string} name
 * @property {boolean} former a former member (left, or removed) whose games still count
 * @property {number} games
 * @property {number} online
 * @property {number} sheets
 * @property {number | null} points_per_game
 * @property {number} wins
 * @property {number | null} mean_place
 */
/** @typedef {{name: string, player: string | null, total: number, place: number}} SeatResult */
/**
 * @typedef {object} Counted
 * @property {"online" | "sheet"} kind
 * @property {string} id
 * @property {string | null} url
 * @property {string} day
 * @property {string} rules
 * @property {SeatResult[]} seats
 */
/** @typedef {{player: string, name: string, points_per_game: (number | null)[]}} ChartSeries */
/**
 * @typedef {object} Standings
 * @property {{id: string, name: string}} group
 * @property {{label: string, from: string, to: string, years: string[]}} season
 * @property {Line[]} players
 * @property {Counted[]} games
 * @property {{labels: string[], series: ChartSeries[]}} chart
 */

const parts = location.pathname.split("/").filter(Boolean);
const groupId = decodeURIComponent(parts[1] || "");
const base = `/api/groups/${encodeURIComponent(groupId)}`;

/** @type {string} */
let me = "";
/** @type {string | null} */
let myName = null;
/** @type {Group | null} */
let group = null;

async function start() {
  loadPrefs();
  mountLogo($("logo"));
  try {
    const player = await api("GET", "/api/me");
    me = player.id;
    myName = player.name;
    group = await api("GET", base);
  } catch (err) {
    $("g-note").textContent = errorText(err);
    return;
  }
  $("g-body").hidden = false;
  renderGroup();
  $("season").addEventListener("change", seasonChanged);
  $("season-form").addEventListener("submit", (e) => {
    e.preventDefault();
    loadStandings();
  });
  $("btn-copy").addEventListener("click", copyInvite);
  $("btn-new-code").addEventListener("click", newCode);
  $("table-form").addEventListener("submit", newTable);
  await Promise.all([loadStandings(true), mountPlay()]);
}

function renderGroup() {
  if (!group) return;
  const g = group;
  document.title = t("Salad — {group}", { group: g.name });
  $("g-name").textContent = g.name;
  $("g-note").textContent = tn("{n} member", "{n} members", g.members.length);
  setHTML(
    $("members"),
    join(g.members.map((m) => {
      const label = m.player === me ? t("Leave") : t("Remove");
      const named = m.player === me ? t("Leave {name}", { name: m.name || "" }) : t("Remove {name}", { name: m.name || "" });
      const can = m.player === me || g.you_own;
      return html`<li><span>${m.name || t("(no name yet)")}${m.owner ? html`<span class="g-tag">${t("owner")}</span>` : ""}${
        m.player === me ? html`<span class="g-tag">${t("you")}</span>` : ""
      }</span>${can ? html`<button class="btn btn-small btn-ghost" type="button" data-remove="${m.player}" aria-label="${named.trim()}">${label}</button>` : ""}</li>`;
    })),
  );
  for (const button of $("members").querySelectorAll("button[data-remove]")) {
    button.addEventListener("click", () => remove(button.getAttribute("data-remove") || ""));
  }
  $("invite").hidden = !g.invite_url;
  if (g.invite_url) $("invite-url", HTMLInputElement).value = new URL(g.invite_url, location.href).href;
}

/** @param {string} player */
async function remove(player) {
  if (!group) return;
  const leaving = player === me;
  if (!confirm(leaving ? t("Leave {group}?", { group: group.name }) : t("Remove this member from the group?"))) return;
  try {
    const after = await api("DELETE", `${base}/members/${encodeURIComponent(player)}`);
    if (leaving) {
      location.href = "/";
      return;
    }
    group = after;
    renderGroup();
  } catch (err) {
    toast(errorText(err));
  }
}

async function copyInvite() {
  const input = $("invite-url", HTMLInputElement);
  try {
    await navigator.clipboard.writeText(input.value);
    toast(t("Invite link copied"), "info");
  } catch {
    input.select(); // the browser would not copy: selected for the person to copy
  }
}

async function newCode() {
  try {
    group = await api("POST", `${base}/code`);
    renderGroup();
    toast(t("A new invite link: the old one no longer works"), "info");
  } catch (err) {
    toast(errorText(err));
  }
}

/** @type {{name: string, title: string, min_players: number, max_players: number, default_players: number}[]} */
let presets = [];

async function mountPlay() {
  try {
    presets = (await api("GET", "/api/options")).presets;
  } catch {
    return;
  }
  const rules = $("t-rules", HTMLSelectElement);
  // the ruleset's words: in the catalog
  setHTML(rules, join(presets.map((p) => html`<option value="${p.name}">${t(p.title)}</option>`)));
  rules.addEventListener("change", fillPlayers);
  fillPlayers();
}

function fillPlayers() {
  const preset = presets.find((p) => p.name === $("t-rules", HTMLSelectElement).value);
  if (!preset) return;
  const counts = [];
  for (let n = preset.min_players; n <= preset.max_players; n++) counts.push(n);
  setHTML(
    $("t-players", HTMLSelectElement),
    join(counts.map((n) => html`<option value="${n}" ${n === preset.default_players ? "selected" : ""}>${n}</option>`)),
  );
}

/** @param {Event} e */
async function newTable(e) {
  e.preventDefault();
  const players = Number($("t-players", HTMLSelectElement).value) || 4;
  const seats = [{ kind: "human" }, ...Array.from({ length: players - 1 }, () => ({ kind: "open" }))];
  const body = {
    name: myName || store.name() || t("Host"),
    rules: $("t-rules", HTMLSelectElement).value || undefined,
    seats,
    group: groupId,
  };
  try {
    const made = await api("POST", "/api/tables", body);
    store.setToken(made.table_id, made.token);
    location.href = `/table/${encodeURIComponent(made.table_id)}`;
  } catch (err) {
    toast(errorText(err));
  }
}

// -- the standings ---------------------------------------------------------------------------

function seasonChanged() {
  const custom = $("season", HTMLSelectElement).value === "range";
  $("season-range").hidden = !custom;
  if (!custom) loadStandings();
}

/** The query of the season chosen. */
function seasonQuery() {
  const chosen = $("season", HTMLSelectElement).value;
  if (chosen !== "range") return chosen ? `?season=${encodeURIComponent(chosen)}` : "";
  const q = new URLSearchParams();
  const from = $("season-from", HTMLInputElement).value;
  const to = $("season-to", HTMLInputElement).value;
  if (from) q.set("from", from);
  if (to) q.set("to", to);
  return `?${q}`;
}

/** @param {boolean} [first] */
async function loadStandings(first = false) {
  const query = first ? "" : seasonQuery();
  /** @type {Standings} */
  let table;
  try {
    table = await api("GET", `${base}/standings${query}`);
  } catch (err) {
    toast(errorText(err));
    return;
  }
  if (first) {
    const years = table.season.years.map((y) => html`<option value="${y}">${y}</option>`);
    setHTML(
      $("season", HTMLSelectElement),
      html`${years}<option value="all">${t("All time")}</option><option value="range">${t("From … to …")}</option>`,
    );
    $("season", HTMLSelectElement).value = table.season.label;
  }
  $("csv-link", HTMLAnchorElement).href = `${base}/standings.csv${query}`;
  renderTable(table);
  renderChart(table);
  renderGames(table);
}

/** @param {number | null} value */
const cell = (value) => (value === null ? "–" : number(value));

/** @param {Standings} table */
function renderTable(table) {
  const rows = table.players.map(
    (p, i) =>
      html`<tr class="${p.player === me ? "you" : ""}"><td>${p.games ? i + 1 : ""}</td><td>${p.name}${
        p.former ? html` <small class="g-former">${t("(former member)")}</small>` : ""
      }</td><td>${number(p.games)}</td><td>${number(p.online)}</td><td>${number(p.sheets)}</td><td>${cell(
        p.points_per_game,
      )}</td><td>${number(p.wins)}</td><td>${cell(p.mean_place)}</td></tr>`,
  );
  const titles = {
    online: t("Online games"),
    sheets: t("Score sheets"),
    points: t("Points per game"),
    place: t("Mean place"),
  };
  setHTML(
    $("standings"),
    html`<table class="g-table" id="standings-table"><caption class="visually-hidden">${t("Standings, {season}", {
      season: table.season.label === "all" ? t("All time") : table.season.label,
    })}</caption>
<thead><tr><th scope="col">#</th><th scope="col">${t("Name")}</th><th scope="col">${t("Games")}</th><th scope="col" title="${titles.online}">${t("Online")}</th><th scope="col" title="${titles.sheets}">${t("Sheets")}</th><th scope="col" title="${titles.points}">${t("Pts/game")}</th><th scope="col">${t("Wins")}</th><th scope="col" title="${titles.place}">${t("Mean place")}</th></tr></thead>
<tbody>${rows}</tbody></table>`,
  );
}

/** The chart: each member's points per game after every game of the season (x: the games in
 * order; a member's line starts at their first game). @param {Standings} table */
function renderChart(table) {
  const { labels, series } = table.chart;
  const box = $("g-chart");
  box.className = "g-chart";
  if (!labels.length) {
    setHTML(box, html`<p class="hint">${t("No game counted in this season yet.")}</p>`);
    return;
  }
  const W = Math.round(Math.max(300, Math.min(640, box.clientWidth || 640))); // SVG units: about a pixel each
  const H = Math.round(Math.max(170, Math.min(240, W * 0.42)));
  const left = 40;
  const right = 12;
  const top = 12;
  const bottom = 28;
  const values = series.flatMap((s) => s.points_per_game.filter((v) => v !== null));
  const hi = Math.max(10, ...values.map(Number));
  const step = [10, 20, 50, 100, 200, 500].find((s) => hi / s <= 6) || 1000;
  const top_ = Math.ceil(hi / step) * step;
  const n = labels.length;
  const x = (/** @type {number} */ i) => left + (n === 1 ? 0.5 : i / (n - 1)) * (W - left - right);
  const y = (/** @type {number} */ v) => top + (1 - v / top_) * (H - top - bottom);
  /** @type {import("./dom.js").Html[]} */
  const grid = [];
  for (let v = 0; v <= top_ + 1e-9; v += step) {
    grid.push(
      html`<line class="grid" x1="${left}" x2="${W - right}" y1="${y(v)}" y2="${y(v)}"/><text class="axis" x="${left - 5}" y="${y(v) + 4}" text-anchor="end">${Math.round(v)}</text>`,
    );
  }
  const every = Math.max(1, Math.ceil(n / 6));
  labels.forEach((label, i) => {
    if (i % every === 0 || i === n - 1) {
      const anchor = n === 1 ? "middle" : i === 0 ? "start" : i === n - 1 ? "end" : "middle";
      grid.push(html`<text class="axis" x="${x(i)}" y="${H - 8}" text-anchor="${anchor}">${label.slice(5)}</text>`);
    }
  });
  const lines = series.map((s, k) => {
    const colour = SEAT_COLOURS[k % SEAT_COLOURS.length];
    const points = s.points_per_game.map((v, i) => (v === null ? null : [x(i), y(v), v]));
    const drawn = /** @type {number[][]} */ (points.filter((p) => p !== null));
    const d = drawn.map((p, i) => `${i ? "L" : "M"}${p[0].toFixed(1)} ${p[1].toFixed(1)}`).join(" ");
    return html`<path d="${d}" fill="none" stroke="${colour}" stroke-width="2.4" stroke-linejoin="round"><title>${s.name}</title></path>${drawn.map(
      (p) =>
        html`<circle cx="${p[0].toFixed(1)}" cy="${p[1].toFixed(1)}" r="3" fill="${colour}"><title>${t("{name}: {points}", {
          name: s.name,
          points: number(p[2]),
        })}</title></circle>`,
    )}`;
  });
  const legend = series.map((s, k) => {
    const last = s.points_per_game[s.points_per_game.length - 1];
    return html`<span><span class="swatch" style="background:${SEAT_COLOURS[k % SEAT_COLOURS.length]}"></span>${s.name} <b>${cell(last)}</b></span>`;
  });
  const label = t("Points per game after each game of the season");
  setHTML(
    box,
    html`<figure class="chart"><svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${label}">${grid}${lines}</svg><figcaption class="g-legend">${legend}</figcaption></figure>`,
  );
}

/** A day (`2026-03-14`) as the page's language writes it. @param {string} iso */
function day(iso) {
  const [y, m, d] = iso.split("-").map(Number);
  return y && m && d ? date(new Date(y, m - 1, d)) : iso;
}

/** @param {Standings} table */
function renderGames(table) {
  const games = [...table.games].reverse();
  setHTML(
    $("g-games"),
    games.length
      ? join(games.map((g) => {
          const seats = g.seats.map((s) => `${s.name} ${number(s.total)}`).join(", ");
          const tag =
            g.kind === "online"
              ? html`<span class="g-tag">${t("online")}</span>`
              : html`<span class="g-tag sheet">${t("score sheet")}</span>`;
          const link = g.url ? html` <a href="${g.url}">${t("replay")}</a>` : "";
          // the ruleset's words (a preset's title): in the catalog
          return html`<li data-kind="${g.kind}"><span class="g-day">${day(g.day)}</span>${tag} ${t("{rules}: {seats}", {
            rules: t(g.rules),
            seats,
          })}${link}</li>`;
        }))
      : html`<li class="hint">${t("None yet.")}</li>`,
  );
}

start();
