// @ts-check
// Before and after a game: the lobby (seats, invite link, the host's controls, start) and the
// game-over panel (standings, rematch, replay, the record).

import { store } from "../api.js";
import { $, all, first, html, join, maybe, toast } from "../dom.js";
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
  plural,
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
    ? w.toppings.map((t) => html`<li><b>${t.title}</b>: ${t.text}</li>`)
    : names.map((n) => html`<li><b>${n}</b></li>`);
  return html`<h3 class="lobby-toppings-head">Toppings in play</h3><ul class="lobby-toppings" id="lobby-toppings">${items}</ul>`;
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

/** The table's pace: the host's select, the others' words. @param {boolean} host */
function paceHTML(host) {
  return html`<p class="hint" id="lobby-pace">${paceLine(host, "pace-select")}</p>`;
}

export function lobbyHTML() {
  // The bot levels: asked when a lobby first shows (a game in progress needs none).
  askOnce("/api/options", (o) => (S.bots = (o && o.bots) || []));
  const t = table();
  const host = isHost();
  const origin = location.origin;
  const invite = `${origin}/join/${encodeURIComponent(S.tableId)}`;
  const watch = `${origin}/watch/${encodeURIComponent(S.tableId)}`;
  const botOptions = (/** @type {string | null | undefined} */ sel) =>
    (S.bots.length ? S.bots : ["random"]).map((b) => html`<option value="${b}" ${b === sel ? "selected" : ""}>${b}</option>`);
  const seats = t.seats.map((s, i) => {
    const conn = s.kind === "bot" || s.connected ? "on" : "";
    let who;
    if (s.kind === "open") who = html`<span class="open">Open seat</span>`;
    else who = nameYou(i, s.name || `Seat ${i + 1}`);
    const chips = [];
    if (i === t.host) chips.push(html`<span class="chip chip-host" style="background:#e6fcf5;color:#087f5b">host</span>`);
    if (s.kind === "bot") chips.push(html`<span class="chip" style="background:#e7f5ff;color:#1864ab">bot</span>`);
    if (s.kind === "human" && !s.connected) chips.push(html`<span class="chip chip-away">away</span>`);
    const controls = [];
    if (host && i !== t.host) {
      if (s.kind === "open") {
        // (Until the server has said its bot levels, a moment: nothing to choose yet.)
        const wait = S.bots.length ? "" : "disabled";
        controls.push(html`<select data-botsel="${i}" aria-label="Bot level for seat ${i + 1}" ${wait}>${botOptions(homeBotLevel() || defaultBot())}</select>
<button class="btn btn-small" data-fill="${i}" ${wait}>Add bot</button>`);
      } else if (s.kind === "bot") {
        controls.push(html`<select data-botchange="${i}" aria-label="Bot level for seat ${i + 1}">${botOptions(s.bot)}</select>
<button class="btn btn-small" data-open="${i}">Open seat</button>`);
      } else {
        controls.push(html`<button class="btn btn-small" data-fill="${i}" title="Replace this player by a bot">Bot instead</button>`);
      }
      if (!(t.min_players && t.seats.length <= t.min_players)) {
        controls.push(html`<button class="btn btn-small" data-remove="${i}" title="Remove this seat">Remove</button>`);
      }
    }
    return html`<li data-lobby-seat="${i}"><span class="who"><span class="conn ${conn}"></span>${who} ${join(chips, " ")}</span>${controls}</li>`;
  });
  const open = t.seats.some((s) => s.kind === "open");
  const hostName = seatName(t.host);
  const extras = [];
  if (t.turn_timer) extras.push(`turn timer ${t.turn_timer} s`);
  if (t.bot_takeover) extras.push(`bots take over after ${t.bot_takeover} s away`);
  const rated = t.rated
    ? html` <span class="rated-tag" title="The games at this table count for the players' ratings">Rated</span>`
    : "";
  const head = html`<h2>${t.title || "Salad"}${rated}</h2><p class="hint">${t.seats.length} seats${
    extras.length ? ` · ${extras.join(" · ")}` : ""
  }${t.game_number && t.game_number > 1 ? ` · game ${t.game_number}` : ""} · <a href="/table/${encodeURIComponent(
    S.tableId,
  )}/howto" id="lobby-howto">How to play</a></p>${paceHTML(host)}${toppingsHTML()}`;
  let links = html``;
  if (!S.watching) {
    links = html`<label for="invite-link">Invite link</label>
<div class="invite"><input id="invite-link" readonly value="${invite}"><button class="btn btn-small btn-primary" data-copy="invite-link">Copy</button></div>
<p class="hint">Friends open the link and pick a name — no account needed. Spectators: <a href="${watch}" target="_blank" rel="noopener">watch link</a>.</p>`;
  }
  let foot;
  if (host) {
    foot = html`<div class="form-actions"><button class="btn btn-primary" id="btn-start" ${open ? "disabled" : ""}>Start the game</button><span class="hint">${
      open ? "Fill the open seats with bots or friends, or remove them." : "Everyone is seated."
    }</span></div>`;
  } else {
    foot = html`<p class="hint">Waiting for ${hostName} to start the game…</p>`;
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
        toast("Invite link copied.", "info");
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
  const t = table();
  const winners = gameWinners();
  const n = players();
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) =>
    t.highest_wins ? v.totals[b] - v.totals[a] : v.totals[a] - v.totals[b],
  );
  const youWon = winners.includes(S.you);
  const others = `${listNames(winners.map(seatName))} ${winners.length > 1 ? "win" : "wins"}`;
  const title = youWon ? (winners.length > 1 ? "You share the win!" : "You win!") : others;
  const rows = order.map(
    (i) =>
      html`<li class="${winners.includes(i) ? "win" : ""}"><span>${winners.includes(i) ? trophy("trophy-small") : ""}${nameYou(i)}</span><b>${v.totals[i]}</b></li>`,
  );
  const game = t.game_number || 1;
  const id = encodeURIComponent(S.tableId);
  const rematch = isHost()
    ? html`<button class="btn btn-primary" id="btn-rematch">Rematch, same seats</button>`
    : S.you >= 0
      ? html`<span class="hint">${seatName(t.host)} can start a rematch.</span>`
      : "";
  return html`<div class="panel over" id="game-over">${winners.length ? trophy("trophy") : ""}<h2>${title}</h2>
<p class="hint">Game over after ${plural((t.hands || []).length || v.hand_points.length, "hand")} — ${
    t.highest_wins ? "highest" : "lowest"
  } total wins.</p>
<ol class="standings">${rows}</ol>${
    S.handEnd ? html`<details class="last-hand"><summary>The last hand, ${S.handEnd.round}, by penalty</summary>${breakdownTable(S.handEnd)}</details>` : ""
  }
<div class="form-actions" style="justify-content:center">${rematch}
<a class="btn" href="/replay/${id}?game=${game}">Replay</a>
${S.you >= 0 ? html`<a class="btn" id="btn-review-game" href="/replay/${id}?game=${game}&review=${S.you}">Review</a>` : ""}
<a class="btn" id="btn-download" href="/api/tables/${id}/record?game=${game}" download="salad-${S.tableId}-game${game}.json">Download record</a>
<a class="btn btn-ghost" href="/" style="color:var(--ink)">Home</a></div></div>`;
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
