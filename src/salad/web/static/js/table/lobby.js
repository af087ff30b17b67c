// @ts-check
// Before and after a game: the lobby (seats, invite link, the host's controls, start) and the
// game-over panel (standings, rematch, replay, the record).

import { store } from "../api.js";
import { $, all, first, html, join, maybe, toast } from "../dom.js";
import { t, tn } from "../i18n.js";
import { trophy } from "../ui.js";
import { paceLine, wirePace } from "./pacepick.js";
import { askOnce, rulesWords } from "./panels.js";
import { breakdownTable } from "./summary.js";
import {
  gameWinners,
  isHost,
  listNames,
  nameYou,
  players,
  redraw,
  rest,
  S,
  seatName,
  table,
  tablePath,
  view,
} from "./state.js";

/** @typedef {import("../messages.js").Lobby} Table */

/** The toppings in play, each by name with its line (nothing without toppings). */
function toppingsHTML() {
  const w = rulesWords();
  const names = table().toppings || [];
  if (!names.length) return html``;
  const items = w
    ? w.toppings.map((top) => html`<li><b>${top.title}</b>: ${top.text}</li>`)
    : names.map((n) => html`<li><b>${n}</b></li>`);
  return html`<h3 class="lobby-toppings-head">${t("Toppings in play")}</h3><ul class="lobby-toppings" id="lobby-toppings">${items}</ul>`;
}

/** The bot level offered first: basic, as everywhere else, where this table offers it. */
function defaultBot() {
  return S.bots.includes("basic") ? "basic" : S.bots[0];
}

/** The bot level the home page's form last chose (js/home.js keeps it), if this table offers it. */
function homeBotLevel() {
  const kept = store.pref("quickplay", /** @type {{bot?: unknown}} */ ({}));
  return kept && typeof kept.bot === "string" && S.bots.includes(kept.bot) ? kept.bot : null;
}

/** A bot level's name in the page's language (the server's are codes). @param {string} level */
function botName(level) {
  const names = { random: t("random"), basic: t("basic"), advanced: t("advanced"), expert: t("expert") };
  return /** @type {Record<string, string>} */ (names)[level] ?? level;
}

/** The table's pace: the host's select, the others' words. @param {boolean} host */
function paceHTML(host) {
  return html`<p class="hint" id="lobby-pace">${paceLine(host, "pace-select")}</p>`;
}

export function lobbyHTML() {
  // The bot levels: asked when a lobby first shows (a game in progress needs none).
  askOnce("/api/options", (o) => (S.bots = (o && o.bots) || []));
  const tb = table();
  const host = isHost();
  const origin = location.origin;
  const invite = `${origin}/join/${encodeURIComponent(S.tableId)}`;
  const watch = `${origin}/watch/${encodeURIComponent(S.tableId)}`;
  const botOptions = (/** @type {string | null | undefined} */ sel) =>
    (S.bots.length ? S.bots : ["random"]).map((b) => html`<option value="${b}" ${b === sel ? "selected" : ""}>${botName(b)}</option>`);
  const seats = tb.seats.map((s, i) => {
    const conn = s.kind === "bot" || s.connected ? "on" : "";
    let who;
    if (s.kind === "open") who = html`<span class="open">${t("Open seat")}</span>`;
    else who = nameYou(i, s.name || t("Seat {n}", { n: i + 1 }));
    const chips = [];
    if (i === tb.host) chips.push(html`<span class="chip chip-host" style="background:#e6fcf5;color:#087f5b">${t("host")}</span>`);
    if (s.kind === "bot") chips.push(html`<span class="chip" style="background:#e7f5ff;color:#1864ab">${t("bot")}</span>`);
    if (s.kind === "human" && !s.connected) chips.push(html`<span class="chip chip-away">${t("away")}</span>`);
    const controls = [];
    const level = t("Bot level for seat {n}", { n: i + 1 });
    if (host && i !== tb.host) {
      if (s.kind === "open") {
        // (Until the server has said its bot levels, a moment: nothing to choose yet.)
        const wait = S.bots.length ? "" : "disabled";
        controls.push(html`<select data-botsel="${i}" aria-label="${level}" ${wait}>${botOptions(homeBotLevel() || defaultBot())}</select>
<button class="btn btn-small" data-fill="${i}" ${wait}>${t("Add bot")}</button>`);
      } else if (s.kind === "bot") {
        controls.push(html`<select data-botchange="${i}" aria-label="${level}">${botOptions(s.bot)}</select>
<button class="btn btn-small" data-open="${i}">${t("Open seat")}</button>`);
      } else {
        const why = t("Replace this player by a bot");
        controls.push(html`<button class="btn btn-small" data-fill="${i}" title="${why}">${t("Bot instead")}</button>`);
      }
      if (!(tb.min_players && tb.seats.length <= tb.min_players)) {
        const what = t("Remove this seat");
        controls.push(html`<button class="btn btn-small" data-remove="${i}" title="${what}">${t("Remove")}</button>`);
      }
    }
    return html`<li data-lobby-seat="${i}"><span class="who"><span class="conn ${conn}"></span>${who} ${join(chips, " ")}</span>${controls}</li>`;
  });
  const open = tb.seats.some((s) => s.kind === "open");
  const hostName = seatName(tb.host);
  const extras = [tn("{n} seat", "{n} seats", tb.seats.length)];
  if (tb.turn_timer) extras.push(t("turn timer {n} s", { n: tb.turn_timer }));
  if (tb.bot_takeover) extras.push(t("bots take over after {n} s away", { n: tb.bot_takeover }));
  if (tb.game_number && tb.game_number > 1) extras.push(t("game {n}", { n: tb.game_number }));
  const ratedWhy = t("The games at this table count for the players' ratings");
  const rated = tb.rated ? html` <span class="rated-tag" title="${ratedWhy}">${t("Rated")}</span>` : "";
  // the title is the ruleset's words: in the catalog
  const head = html`<h2>${tb.title ? t(tb.title) : t("Salad")}${rated}</h2><p class="hint">${extras.join(
    " · ",
  )} · <a href="/table/${encodeURIComponent(S.tableId)}/howto" id="lobby-howto">${t("How to play")}</a></p>${paceHTML(
    host,
  )}${toppingsHTML()}`;
  let links = html``;
  if (!S.watching) {
    links = html`<label for="invite-link">${t("Invite link")}</label>
<div class="invite"><input id="invite-link" readonly value="${invite}"><button class="btn btn-small btn-primary" data-copy="invite-link">${t(
      "Copy",
    )}</button></div>
<p class="hint">${t("Friends open the link and pick a name — no account needed.")} ${t("Spectators:")} <a href="${watch}" target="_blank" rel="noopener">${t(
      "watch link",
    )}</a>.</p>`;
  }
  let foot;
  if (host) {
    foot = html`<div class="form-actions"><button class="btn btn-primary" id="btn-start" ${open ? "disabled" : ""}>${t(
      "Start the game",
    )}</button><span class="hint">${
      open ? t("Fill the open seats with bots or friends, or remove them.") : t("Everyone is seated.")
    }</span></div>`;
  } else {
    foot = html`<p class="hint">${t("Waiting for {name} to start the game…", { name: hostName })}</p>`;
  }
  // Start (or the guest's "Waiting for ...") and the seats first: in sight on a phone, at 8 seats.
  return html`<div class="panel lobby" id="lobby">${head}${foot}<ul class="lobby-seats">${seats}</ul>${links}</div>`;
}

/** The lobby's buttons: copy the invite, change the seats, start. @param {HTMLElement} box */
export function wireLobby(box) {
  const base = tablePath();
  for (const b of all(box, "[data-copy]")) {
    b.onclick = async () => {
      const input = $(String(b.dataset.copy), HTMLInputElement);
      input.select();
      try {
        await navigator.clipboard.writeText(input.value);
        toast(t("Invite link copied."), "info");
      } catch {
        document.execCommand && document.execCommand("copy");
      }
    };
  }
  for (const b of all(box, "[data-fill]")) {
    b.onclick = async () => {
      const i = b.dataset.fill;
      const sel = first(box, `[data-botsel="${i}"]`, HTMLSelectElement);
      const bot = sel ? sel.value : defaultBot() || "random";
      const lobby = await rest("PUT", `${base}/seats/${i}`, { kind: "bot", bot });
      if (lobby) applyLobby(lobby);
    };
  }
  for (const sel of all(box, "[data-botchange]", HTMLSelectElement)) {
    sel.onchange = async () => {
      const lobby = await rest("PUT", `${base}/seats/${sel.dataset.botchange}`, { kind: "bot", bot: sel.value });
      if (lobby) applyLobby(lobby);
    };
  }
  for (const b of all(box, "[data-open]")) {
    b.onclick = async () => {
      const lobby = await rest("PUT", `${base}/seats/${b.dataset.open}`, { kind: "open" });
      if (lobby) applyLobby(lobby);
    };
  }
  for (const b of all(box, "[data-remove]")) {
    b.onclick = async () => {
      const lobby = await rest("DELETE", `${base}/seats/${b.dataset.remove}`);
      if (lobby) applyLobby(lobby);
    };
  }
  wirePace("pace-select", applyLobby);
  const startBtn = maybe("btn-start", HTMLButtonElement);
  if (startBtn) {
    startBtn.onclick = async () => {
      startBtn.disabled = true;
      const lobby = await rest("POST", `${base}/start`);
      if (lobby) applyLobby(lobby);
      else startBtn.disabled = false;
    };
  }
}

/** A REST answer holding the lobby: show it at once (a state message follows). @param {Table | null} lobby */
function applyLobby(lobby) {
  if (!lobby || !lobby.seats) return;
  if (S.table && S.table.status !== lobby.status) return; // the state message will tell
  S.table = { ...S.table, ...lobby };
  redraw();
}

export function overHTML() {
  const v = view();
  const tb = table();
  const winners = gameWinners();
  const n = players();
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) =>
    tb.highest_wins ? v.totals[b] - v.totals[a] : v.totals[a] - v.totals[b],
  );
  const youWon = winners.includes(S.you);
  const names = listNames(winners.map(seatName));
  const others = winners.length > 1 ? t("{names} win", { names }) : t("{name} wins", { name: names });
  const title = youWon ? (winners.length > 1 ? t("You share the win!") : t("You win!")) : others;
  const rows = order.map(
    (i) =>
      html`<li class="${winners.includes(i) ? "win" : ""}"><span>${winners.includes(i) ? trophy("trophy-small") : ""}${nameYou(i)}</span><b>${v.totals[i]}</b></li>`,
  );
  const game = tb.game_number || 1;
  const id = encodeURIComponent(S.tableId);
  const rematch = isHost()
    ? html`<button class="btn btn-primary" id="btn-rematch">${t("Rematch, same seats")}</button>`
    : S.you >= 0
      ? html`<span class="hint">${t("{name} can start a rematch.", { name: seatName(tb.host) })}</span>`
      : "";
  const hands = (tb.hands || []).length || v.hand_points.length;
  const after = tb.highest_wins
    ? tn("Game over after {n} hand — highest total wins.", "Game over after {n} hands — highest total wins.", hands)
    : tn("Game over after {n} hand — lowest total wins.", "Game over after {n} hands — lowest total wins.", hands);
  // the round's name is the ruleset's words: in the catalog
  const last = S.handEnd
    ? html`<details class="last-hand"><summary>${t("The last hand, {round}, by penalty", {
        round: t(S.handEnd.round),
      })}</summary>${breakdownTable(S.handEnd)}</details>`
    : "";
  return html`<div class="panel over" id="game-over">${winners.length ? trophy("trophy") : ""}<h2>${title}</h2>
<p class="hint">${after}</p>
<ol class="standings">${rows}</ol>${last}
<div class="form-actions" style="justify-content:center">${rematch}
<a class="btn" href="/replay/${id}?game=${game}">${t("Replay")}</a>
${S.you >= 0 ? html`<a class="btn" id="btn-review-game" href="/replay/${id}?game=${game}&review=${S.you}">${t("Review")}</a>` : ""}
<a class="btn" id="btn-download" href="/api/tables/${id}/record?game=${game}" download="salad-${S.tableId}-game${game}.json">${t(
    "Download record",
  )}</a>
<a class="btn btn-ghost" href="/" style="color:var(--ink)">${t("Home")}</a></div></div>`;
}

export function wireOver() {
  const b = maybe("btn-rematch", HTMLButtonElement);
  if (b) {
    b.onclick = async () => {
      b.disabled = true;
      const lobby = await rest("POST", `${tablePath()}/rematch`);
      if (!lobby) b.disabled = false;
    };
  }
}
