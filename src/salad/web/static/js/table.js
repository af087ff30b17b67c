// The table page: /table/{id} (a seat, with its token) and /watch/{id} (a spectator).
// Everything shown comes from the server's `state` messages; every action is a `play` message or
// a REST call, checked by the server.

import { api, escapeHtml, Socket, store, tableIdFromPath, toast } from "./api.js";
import { cardSVG, Deck, isFourColour, setFourColour, suitIcon } from "./cards.js";
import { SEAT_COLOURS, sheetTable, totalsChart } from "./scores.js";
import { clampPlates, loadPrefs, mountLogo, trickPlace, trophy, wireDialogs } from "./ui.js";

const HOLD_MS = 1100;
const CARDS_ICON =
  '<svg class="cards-icon" viewBox="0 0 16 16" aria-hidden="true"><rect x="1.5" y="3" width="8" height="11" rx="1.5" fill="none" stroke="currentColor" stroke-width="1.3" transform="rotate(-12 5 8)"/><rect x="6" y="2" width="8" height="11" rx="1.5" fill="currentColor" opacity=".85"/></svg>';

const S = {
  tableId: tableIdFromPath(),
  watching: location.pathname.startsWith("/watch/"),
  token: null,
  socket: null,
  table: null,
  you: -1,
  view: null,
  lastTrick: null,
  handRounds: [],
  deadline: null,
  winners: [],
  deck: new Deck(null),
  deckKey: "",
  hadState: false,
  holdTrick: null,
  holdTimer: null,
  queued: null,
  received: null, // the last state message received, completed (see complete())
  awaiting: false,
  awaitTimer: null,
  typed: "",
  typedTimer: null,
  pendingWild: null,
  passSel: [], // the cards chosen to pass, oldest first: a code once per copy (Wilds are alike)
  bots: [],
  prevRunning: null,
  focusCode: null,
};

const $ = (id) => document.getElementById(id);

// -- start -----------------------------------------------------------------------------------

function start() {
  loadPrefs();
  mountLogo($("logo"));
  wireDialogs();
  if (!S.tableId) {
    toast("No table in this address.");
    return;
  }
  if (!S.watching) {
    const m = location.hash.match(/token=([^&]+)/);
    if (m) {
      store.setToken(S.tableId, decodeURIComponent(m[1]));
      history.replaceState(null, "", location.pathname + location.search);
    }
    S.token = store.token(S.tableId);
    if (!S.token) {
      // No seat here: the lobby invites to join, a game in progress is watched.
      api("GET", `/api/tables/${encodeURIComponent(S.tableId)}`)
        .then((lobby) => {
          location.replace(
            `/${lobby.status === "lobby" ? "join" : "watch"}/${encodeURIComponent(S.tableId)}`,
          );
        })
        .catch((err) => showFatal(err.message));
      return;
    }
  }
  document.body.classList.toggle("watching", S.watching);
  wireTools();
  wireKeyboard();
  api("GET", "/api/options")
    .then((o) => {
      S.bots = (o && o.bots) || [];
      if (S.table) render();
    })
    .catch(() => {});
  S.socket = new Socket(S.tableId, S.watching ? null : S.token, onMessage, onConnection);
  setInterval(tick, 250);
  window.addEventListener("resize", () => {
    if (S.table) render();
  });
}

function showFatal(message) {
  $("center").innerHTML = `<div class="panel"><h2>Cannot open this table</h2><p>${escapeHtml(
    message,
  )}</p><a class="btn btn-primary" href="/">Home</a></div>`;
  toast(message);
}

function onConnection(status) {
  $("conn-banner").hidden = status !== "closed" || !S.hadState;
}

function onMessage(msg) {
  if (msg.type === "state") onState(msg);
  else if (msg.type === "error") {
    releaseAwait();
    toast(msg.message || "error");
  }
}

// -- state -----------------------------------------------------------------------------------

function key(x) {
  return JSON.stringify(x);
}

// A state leaves out what this connection already has: the lobby (`table`) when it has not
// changed, and the parts that change only when a trick ends (the view's `tricks`,
// `last_trick`, `hand_rounds`, `winners`) within a trick. Fill them in from the last state.
const KEPT = ["table", "last_trick", "hand_rounds", "winners"];

function complete(msg) {
  const last = S.received;
  if (last) {
    for (const k of KEPT) if (!(k in msg)) msg[k] = last[k];
    if (msg.view && !("tricks" in msg.view)) msg.view.tricks = (last.view && last.view.tricks) || [];
  }
  S.received = msg;
  return msg;
}

function onState(msg) {
  msg = complete(msg);
  if (S.holdTimer) {
    // Only the newest state is kept for after the pause (complete: see above).
    S.queued = msg;
    return;
  }
  const prev = { last: S.lastTrick, rounds: S.handRounds.length, hadState: S.hadState, view: S.view };
  S.table = msg.table || S.table;
  S.you = typeof msg.you === "number" ? msg.you : -1;
  S.view = msg.view || null;
  S.lastTrick = msg.last_trick || null;
  S.handRounds = msg.hand_rounds || [];
  S.deadline = msg.deadline || null;
  S.winners = msg.winners || [];
  S.hadState = true;
  $("conn-banner").hidden = true;
  releaseAwait();
  const dk = key(S.table && S.table.deck);
  if (dk !== S.deckKey) {
    S.deck = new Deck(S.table && S.table.deck);
    S.deckKey = dk;
  }
  if (!S.view || S.view.phase !== "pass") S.passSel = [];
  else prunePasses();
  if (S.pendingWild && !(S.view && S.view.legal.includes(`${S.pendingWild}+`))) S.pendingWild = null;
  if (
    prev.hadState &&
    prev.view &&
    S.lastTrick &&
    key(S.lastTrick) !== key(prev.last) &&
    store.pref("pause", true)
  ) {
    S.holdTrick = S.lastTrick;
    S.holdTimer = setTimeout(endHold, HOLD_MS);
  }
  if (prev.hadState && S.handRounds.length > prev.rounds) {
    const r = S.handRounds[S.handRounds.length - 1];
    const parts = r.points.map((p, i) => `${seatName(i)} ${p}`).join(" · ");
    toast(`Hand ${r.number}, ${r.round}: ${parts}`, "info");
  }
  render();
}

function endHold() {
  clearTimeout(S.holdTimer);
  S.holdTimer = null;
  S.holdTrick = null;
  const q = S.queued;
  S.queued = null;
  if (q) onState(q);
  else render();
}

function releaseAwait() {
  S.awaiting = false;
  clearTimeout(S.awaitTimer);
}

function seatName(i) {
  const seat = S.table && S.table.seats && S.table.seats[i];
  if (!seat) return `Seat ${i}`;
  if (seat.kind === "open") return "Open seat";
  return seat.name || (seat.bot ? `Bot ${i}` : `Seat ${i}`);
}

function players() {
  return (S.view && S.view.players) || (S.table && (S.table.players || S.table.seats.length)) || 0;
}

function isHost() {
  return S.table && S.you >= 0 && S.table.host === S.you;
}

function myTurn() {
  return S.view && S.you >= 0 && S.view.to_move === S.you && S.view.legal.length > 0;
}

function handInfo() {
  if (!S.table || !S.view || !S.table.hands) return null;
  return S.table.hands[S.view.hand - 1] || null;
}

function gameWinners() {
  if (S.winners && S.winners.length) return S.winners;
  const totals = S.view ? S.view.totals : [];
  if (!totals.length) return [];
  const best = S.table && S.table.highest_wins ? Math.max(...totals) : Math.min(...totals);
  return totals.map((t, i) => (t === best ? i : -1)).filter((i) => i >= 0);
}

// -- actions ---------------------------------------------------------------------------------

function send(move) {
  if (!S.socket || !S.socket.send({ type: "play", move })) {
    toast("Not connected to the server: the move was not sent.");
    return false;
  }
  if (S.holdTimer) endHold();
  return true;
}

/** `el`: the card clicked in the hand (it tells which of identical copies), if any. */
function playCard(code, el) {
  const v = S.view;
  if (!v || S.watching) return;
  if (v.phase === "pass") {
    if (!myTurn()) {
      toast(`Wait for your turn to pass (${seatName(v.to_move)} is choosing).`);
      return;
    }
    choosePass(code, el);
    return;
  }
  if (v.phase !== "play") return;
  if (S.awaiting) return;
  if (myTurn() && v.legal.includes(code) && v.legal.includes(`${code}+`)) {
    S.pendingWild = code;
    render();
    const hi = document.querySelector("[data-wild='high']");
    if (hi) hi.focus();
    return;
  }
  sendPlay(myTurn() && !v.legal.includes(code) && v.legal.includes(`${code}+`) ? `${code}+` : code);
}

function sendPlay(move) {
  S.pendingWild = null;
  if (send(move)) {
    S.awaiting = true;
    S.awaitTimer = setTimeout(releaseAwait, 3000);
  }
}

function passNeeded() {
  const count = S.table && S.table.passing;
  const n = typeof count === "number" ? count : count && count.count;
  if (!n) return 0;
  return Math.max(0, n - ((S.view && S.view.passed.length) || 0));
}

function passDirection() {
  const t = S.table || {};
  return t.pass_direction || (t.passing && t.passing.direction) || "";
}

const countOf = (list, code) => list.reduce((n, c) => n + (c === code ? 1 : 0), 0);

/** Choose a card to pass, or un-choose it; several copies of a card are chosen one by one. */
function choosePass(code, el) {
  const sel = S.passSel;
  const free = countOf(S.view.legal, code); // copies not passed yet
  const chosen = countOf(sel, code);
  const unchoose = el ? el.classList.contains("selected") && chosen > 0 : chosen > 0 && chosen >= free;
  if (unchoose) sel.splice(sel.lastIndexOf(code), 1);
  else if (chosen >= free) {
    toast(free ? "Every copy of that card you still hold is chosen." : "You already pass that card.");
    return;
  } else {
    const need = passNeeded();
    if (need && sel.length >= need) sel.shift();
    sel.push(code);
  }
  render();
}

/** After a state: keep only the chosen cards that can still be passed (a card may have been
 * passed meanwhile from another tab, or by a bot when the turn timer ran out), newest first. */
function prunePasses() {
  const free = [...S.view.legal];
  const keep = [];
  for (let i = S.passSel.length - 1; i >= 0; i--) {
    const at = free.indexOf(S.passSel[i]);
    if (at < 0) continue;
    free.splice(at, 1);
    keep.unshift(S.passSel[i]);
  }
  const need = passNeeded();
  S.passSel = need ? keep.slice(Math.max(0, keep.length - need)) : keep;
}

/** A card as a passed one: a Wild is not declared high or low when it is passed. */
function passShort(code) {
  return S.deck.short(code).replace(/ [▲▼]$/, "");
}

function sendPasses() {
  const cards = [...S.passSel];
  S.passSel = [];
  for (const c of cards) if (!send(c)) break;
  render();
}

async function rest(method, path, body) {
  try {
    return await api(method, path, body, S.token);
  } catch (err) {
    toast(err.message);
    return null;
  }
}

const tablePath = () => `/api/tables/${encodeURIComponent(S.tableId)}`;

// -- rendering -------------------------------------------------------------------------------

function portrait() {
  const felt = $("felt");
  return felt.clientHeight > felt.clientWidth * 1.05;
}

function render() {
  if (!S.table) return;
  document.body.classList.toggle("in-lobby", S.table.status === "lobby");
  document.title = `${S.table.title || "Salad"} — ${S.watching ? "watching" : "table"}`;
  renderTopbar();
  renderSeats();
  renderTrick();
  renderCenter();
  renderStatus();
  renderHand();
  renderSide();
  if ($("dlg-scores").open) $("scores-body").innerHTML = scoresHTML();
  if ($("dlg-last").open) $("last-body").innerHTML = lastTrickHTML();
}

function renderTopbar() {
  const line = $("round-line");
  const v = S.view;
  const t = S.table;
  if (!v || t.status === "lobby") {
    line.innerHTML = `<span class="round-name">${escapeHtml(t.title || "Salad")}</span><span class="penalty">${
      S.watching ? "watching" : "waiting for players"
    }</span>`;
    return;
  }
  const info = handInfo();
  const total = (t.hands && t.hands.length) || "?";
  const pen = info ? info.penalties.join(" · ") : "";
  let trump = "";
  if (v.trump) {
    const idx = S.deck.suits.findIndex((s) => s.letter === v.trump);
    trump = `<span class="trump" title="Trump">${suitIcon(S.deck, idx, 14)} ${escapeHtml(
      S.deck.suits[idx] ? S.deck.suits[idx].name : v.trump,
    )}</span>`;
  }
  const hand = v.phase === "over" ? "Game over" : `Hand ${v.hand}/${total}`;
  line.innerHTML = `<span class="hand-no">${hand}</span><span class="round-name">${escapeHtml(
    v.round,
  )}</span>${trump}<span class="penalty">${escapeHtml(pen)}</span>`;
  line.title = `${v.round}: ${pen}`;
}

/** Where seat i sits, in percent of the felt: the viewer at the bottom, play going clockwise. */
function seatAngle(i) {
  const n = players();
  const base = S.you >= 0 ? S.you : 0;
  const k = (i - base + n) % n;
  return ((90 + (k * 360) / n) * Math.PI) / 180;
}

function seatPos(i, rx, ry) {
  const a = seatAngle(i);
  return { x: 50 + rx * Math.cos(a), y: 50 + ry * Math.sin(a) };
}

function renderSeats() {
  const box = $("seats");
  const t = S.table;
  const v = S.view;
  const n = players();
  if (t.status === "lobby" || !v) {
    box.innerHTML = "";
    return;
  }
  const winners = v.phase === "over" ? gameWinners() : [];
  const phone = window.innerWidth < 640;
  let html = "";
  for (let i = 0; i < n; i++) {
    const seat = t.seats[i] || {};
    const p = seatPos(i, phone ? 44 : 41, phone ? 40 : 41);
    const cls = ["seat"];
    if (v.phase !== "over" && v.to_move === i) cls.push("turn");
    if (seat.kind === "human" && seat.connected === false) cls.push("away");
    if (i === S.you) cls.push("me");
    if (winners.includes(i)) cls.push("winner");
    const running = v.running[i] || 0;
    const bump = S.prevRunning && S.prevRunning[i] !== undefined && S.prevRunning[i] < running;
    const flags = [];
    if (v.dealer === i) flags.push('<span class="chip chip-dealer" title="Dealer">dealer</span>');
    if (seat.kind === "bot") flags.push(`<span class="chip chip-bot" title="A bot${seat.bot ? `: ${escapeHtml(seat.bot)}` : ""}">bot</span>`);
    if (seat.kind === "human" && seat.connected === false) flags.push('<span class="chip chip-away">away</span>');
    if (seat.takeover) flags.push('<span class="chip chip-bot" title="A bot plays until this player is back">bot playing</span>');
    if (v.token === i) flags.push('<span class="chip chip-token" title="Holds the token">token</span>');
    if (S.deadline && v.to_move === i && v.phase !== "over") flags.push('<span class="chip chip-timer" data-timer></span>');
    const size = v.hand_sizes[i] || 0;
    const backs = i === S.you ? "" : `<div class="mini-backs" aria-hidden="true">${"<span></span>".repeat(Math.min(size, 13))}</div>`;
    html += `<div class="${cls.join(" ")}" data-seat="${i}" style="left:${p.x}%;top:${p.y}%">
<div class="name"><span class="dot" style="display:inline-block;width:9px;height:9px;border-radius:50%;background:${
      SEAT_COLOURS[i % SEAT_COLOURS.length]
    }"></span>${escapeHtml(seatName(i))}${i === S.you ? " (you)" : ""}</div>
<div class="info"><span class="pen ${running ? "" : "zero"} ${bump ? "bump" : ""}" title="Penalties this hand">${
      running ? `+${running}` : "0"
    }</span><span title="Total so far">Σ ${v.totals[i] || 0}</span><span title="Cards in hand">${CARDS_ICON}${size}</span></div>
<div class="flags">${flags.join("")}</div>${backs}</div>`;
  }
  box.innerHTML = html;
  $("felt").dataset.n = String(n);
  clampPlates($("felt"));
  S.prevRunning = [...v.running];
}

function renderTrick() {
  const box = $("trick");
  const v = S.view;
  if (!v || S.table.status === "lobby") {
    box.innerHTML = "";
    return;
  }
  let cards = v.trick;
  let winner = -1;
  if (S.holdTrick) {
    cards = S.holdTrick.cards;
    winner = S.holdTrick.winner;
  }
  const shown = S.shownTrick || new Set();
  S.shownTrick = new Set(cards.map(([seat, code]) => `${seat}:${code}`));
  box.innerHTML = cards
    .map(([seat, code], order) => {
      const place = trickPlace(seatAngle(seat), order, players(), portrait());
      const fresh = shown.has(`${seat}:${code}`) ? "" : "fresh";
      return `<div class="trick-card ${fresh} ${place.cls} ${seat === winner ? "won" : ""}" data-seat="${seat}" data-card="${escapeHtml(
        code,
      )}" style="${place.style}">${cardSVG(S.deck, code)}<span class="who">${escapeHtml(
        seatName(seat),      )}</span></div>`;
    })
    .join("");
}

function renderCenter() {
  const box = $("center");
  const v = S.view;
  const t = S.table;
  box.classList.toggle("low", Boolean(S.pendingWild) && !S.holdTrick && v && v.phase === "play");
  box.classList.toggle("fill", t.status === "lobby" || (v && v.phase === "over" && !S.holdTrick));
  if (t.status === "lobby") {
    box.innerHTML = lobbyHTML();
    wireLobby();
    return;
  }
  if (!v) {
    box.innerHTML = '<div class="center-note">Waiting for the game…</div>';
    return;
  }
  if (S.holdTrick) {
    box.innerHTML = "";
    return;
  }
  if (v.phase === "over") {
    box.innerHTML = overHTML();
    wireOver();
    return;
  }
  if (v.phase === "trump") {
    if (myTurn()) {
      const buttons = v.legal
        .filter((m) => m.startsWith("trump:"))
        .map((m) => {
          const letter = m.slice(6);
          const idx = S.deck.suits.findIndex((s) => s.letter === letter);
          const suit = S.deck.suits[idx];
          return `<button class="btn" data-trump="${escapeHtml(m)}">${suitIcon(S.deck, idx, 22)} ${escapeHtml(
            suit ? suit.name : letter,
          )}</button>`;
        })
        .join("");
      box.innerHTML = `<div class="panel"><h2>Pick the trump suit</h2><p class="hint">A trump beats any card of another suit; players still follow the led suit.</p><div class="choice">${buttons}</div></div>`;
      for (const b of box.querySelectorAll("[data-trump]")) b.onclick = () => send(b.dataset.trump);
    } else {
      box.innerHTML = `<div class="center-note">${escapeHtml(seatName(v.to_move))} is choosing the trump suit…</div>`;
    }
    return;
  }
  if (v.phase === "pass") {
    if (myTurn()) {
      const need = passNeeded();
      const dir = passDirection();
      const chosen = [...S.passSel].map(passShort).join(" ");
      const ready = need ? S.passSel.length === need : S.passSel.length > 0;
      const head = need ? `Pass ${plural(need, "card")}` : "Choose the cards to pass";
      box.innerHTML = `<div class="panel"><h2>${head}${dir ? ` to the ${escapeHtml(dir)}` : ""}</h2><p class="hint">Tap the cards to pass, then confirm. ${chosen ? `Chosen: <b>${escapeHtml(chosen)}</b>` : ""}</p><div class="choice"><button class="btn btn-primary" id="btn-pass" ${
        ready ? "" : "disabled"
      }>Pass ${S.passSel.length ? `${S.passSel.length} ` : ""}card${S.passSel.length === 1 ? "" : "s"}</button></div></div>`;
      $("btn-pass").onclick = sendPasses;
    } else if (S.watching) {
      box.innerHTML = '<div class="center-note">The players are choosing cards to pass…</div>';
    } else {
      const passed = v.passed.map(passShort).join(" ");
      box.innerHTML = `<div class="center-note">${passed ? `You pass ${escapeHtml(passed)}. ` : ""}Waiting for ${escapeHtml(
        seatName(v.to_move),
      )} to pass…</div>`;
    }
    return;
  }
  if (S.pendingWild) {
    const name = S.deck.name(S.pendingWild).replace(/, (high|low)$/, "");
    box.innerHTML = `<div class="panel"><h2>Play the ${escapeHtml(name)}</h2><p class="hint">High beats every card of the led suit; low loses to them.</p><div class="choice">
<button class="btn btn-accent" data-wild="high">▲ High</button><button class="btn" data-wild="low">▼ Low</button><button class="btn btn-ghost" data-wild="cancel">Cancel</button></div></div>`;
    for (const b of box.querySelectorAll("[data-wild]")) {
      b.onclick = () => {
        const code = S.pendingWild;
        if (b.dataset.wild === "high") sendPlay(`${code}+`);
        else if (b.dataset.wild === "low") sendPlay(code);
        else {
          S.pendingWild = null;
          render();
        }
      };
    }
    return;
  }
  if (v.phase === "play" && v.trick.length === 0 && v.tricks.length === 0) {
    const who = v.to_move === S.you ? "You lead" : `${seatName(v.to_move)} leads`;
    box.innerHTML = `<div class="center-note">${escapeHtml(v.round)} — ${escapeHtml(who)}</div>`;
    return;
  }
  box.innerHTML = "";
}

function renderStatus() {
  const el = $("status");
  const v = S.view;
  const t = S.table;
  el.classList.remove("your-turn");
  if (t.status === "lobby" || !v) {
    el.innerHTML = S.watching ? "Watching — the game has not started yet" : "";
    return;
  }
  let text;
  if (S.holdTrick) {
    const w = S.holdTrick.winner;
    text = `${w === S.you ? "You take" : `${seatName(w)} takes`} the trick`;
  } else if (v.phase === "over") {
    const w = gameWinners().map(seatName);
    text = `Game over — ${w.length > 1 ? "winners" : "winner"}: ${listNames(w)}`;
  } else if (S.watching) {
    text = `Watching — ${seatName(v.to_move)} to ${phaseVerb(v.phase)}`;
  } else if (myTurn()) {
    el.classList.add("your-turn");
    if (v.phase === "play") {
      const s = v.led_suit ? S.deck.suits.find((x) => x.letter === v.led_suit) : null;
      text = s ? `Your turn — ${s.name} led` : v.trick.length ? "Your turn" : "Your lead";
    } else if (v.phase === "pass") text = "Your turn: choose the cards to pass";
    else text = "Your turn: pick the trump suit";
  } else {
    text = `Waiting for ${seatName(v.to_move)}…`;
  }
  let typed = "";
  if (S.typed) typed = `<span class="typed" title="What you typed">${escapeHtml(S.typed)}</span>`;
  el.innerHTML = `<span data-status>${escapeHtml(text)}</span><span data-timer-mine></span>${typed}`;
  tick(); // the countdowns (here and on the seats, drawn before) get their number at once
}

function phaseVerb(phase) {
  return phase === "pass" ? "pass" : phase === "trump" ? "pick trump" : "play";
}

function renderHand() {
  const box = $("hand");
  const v = S.view;
  if (S.watching || S.you < 0 || !v || S.table.status === "lobby") {
    box.hidden = true;
    box.innerHTML = "";
    return;
  }
  box.hidden = false;
  const cards = S.deck.sort(v.cards);
  if (!cards.length) {
    box.innerHTML = `<span class="hand-empty">${v.phase === "over" ? "" : "No cards in hand"}</span>`;
    return;
  }
  const turn = myTurn();
  const legal = new Set();
  if (turn && (v.phase === "play" || v.phase === "pass")) {
    for (const m of v.legal) legal.add(m.endsWith("+") ? m.slice(0, -1) : m);
  }
  const received = v.tricks.length === 0 && v.trick.length <= players() ? v.received : [];
  const active = document.activeElement;
  const focusCode = active && active.dataset && active.closest("#hand") ? active.dataset.code : null;
  const sameCode = (code) => [...box.querySelectorAll(`.card[data-code="${CSS.escape(code)}"]`)];
  const focusCopy = focusCode ? Math.max(0, sameCode(focusCode).indexOf(active)) : 0;
  let prevSuit = null;
  const copies = new Map();
  box.innerHTML = cards
    .map((code, i) => {
      const info = S.deck.parse(code);
      const cls = ["card"];
      const suit = info.wild ? "*" : info.suitIndex;
      if (i > 0 && suit !== prevSuit) cls.push("suit-gap");
      prevSuit = suit;
      if (turn && v.phase !== "trump") cls.push(legal.has(code) ? "legal" : "dimmed");
      const copy = copies.get(code) || 0; // identical copies: the first ones show as chosen
      copies.set(code, copy + 1);
      if (copy < countOf(S.passSel, code)) cls.push("selected");
      if (copy < countOf(received, code)) cls.push("received");
      const label = S.deck.name(code).replace(/, (high|low)$/, "");
      return `<button type="button" class="${cls.join(" ")}" data-code="${escapeHtml(code)}" aria-label="${escapeHtml(
        label,
      )}${legal.has(code) ? " (playable)" : ""}" title="${escapeHtml(label)}">${cardSVG(S.deck, code, { inHand: true })}</button>`;
    })
    .join("");
  for (const b of box.querySelectorAll(".card")) b.onclick = () => playCard(b.dataset.code, b);
  if (focusCode) {
    const same = sameCode(focusCode);
    const again = same[focusCopy] || same[0];
    if (again) again.focus({ preventScroll: true });
  }
  layoutHand();
}

/** Overlap the cards so that the whole hand fits the width of the screen. */
function layoutHand() {
  const box = $("hand");
  const cards = box.querySelectorAll(".card");
  if (!cards.length) return;
  const width = box.clientWidth - 16;
  const cw = cards[0].offsetWidth || 80;
  const gaps = box.querySelectorAll(".suit-gap").length;
  const gap = Math.max(4, cw * 0.1);
  const n = cards.length;
  let step = n > 1 ? (width - cw - gaps * gap) / (n - 1) : cw;
  step = Math.min(step, cw + 6);
  box.style.setProperty("--step-overlap", `${Math.round(step - cw)}px`);
  box.style.setProperty("--suit-gap", `${Math.round(gap)}px`);
}

function scoresHTML() {
  const t = S.table;
  const v = S.view;
  const n = players();
  const names = Array.from({ length: n }, (_, i) => seatName(i));
  const points = v ? v.hand_points : [];
  const hands = (t.hands || []).map((h) => ({ number: h.number, round: h.round, points: null }));
  points.forEach((p, i) => {
    const r = S.handRounds[i];
    if (hands[i]) hands[i].points = p;
    else hands.push({ number: i + 1, round: r ? r.round : `Hand ${i + 1}`, points: p });
  });
  const current = v && v.phase !== "over" ? v.hand : 0;
  const totals = v ? v.totals : names.map(() => 0);
  const winners = v && v.phase === "over" ? gameWinners() : [];
  const sheet = sheetTable({ names, rows: hands, current, running: v ? v.running : null, totals, winners, you: S.you });
  const chart = totalsChart({ names, pointsByHand: points, hands: hands.length, you: S.you });
  const goal = t.highest_wins ? "Highest total wins." : "Lowest total wins.";
  return `${sheet}<p class="hint">${goal} Running penalties of this hand in the highlighted row.</p>${chart}`;
}

function renderSide() {
  const side = $("side");
  const t = S.table;
  if (t.status === "lobby" || !S.view) {
    side.innerHTML = `<div class="panel"><h2>The rounds</h2>${rulesHTML()}</div>`;
    return;
  }
  const info = handInfo();
  const thisHand =
    info && S.view.phase !== "over"
      ? `<div class="panel"><h2>Hand ${S.view.hand}: ${escapeHtml(info.round)}</h2><ul class="penalty-list">${info.penalties
          .map((p) => `<li>${escapeHtml(p)}</li>`)
          .join("")}</ul></div>`
      : "";
  side.innerHTML = `${thisHand}<div class="panel"><h2>Score sheet</h2>${scoresHTML()}</div>`;
}

function rulesHTML() {
  const t = S.table;
  const hands = (t.hands || [])
    .map(
      (h) =>
        `<li><b>${escapeHtml(h.round)}</b>${h.total !== undefined ? ` <span class="hint">(${h.total} in all)</span>` : ""}<br><span class="hint">${escapeHtml(
          (h.penalties || []).join(" · "),
        )}</span></li>`,
    )
    .join("");
  return `<ol class="penalty-list">${hands}</ol>`;
}

function fullRulesHTML() {
  const t = S.table;
  const d = S.deck;
  const suits = d.suits.map((s, i) => `${suitIcon(d, i, 16)} ${escapeHtml(s.name)}`).join(", ");
  const ranks = d.ranks.map((r) => escapeHtml(d.rankLabel(r))).join(" ");
  const wilds = d.wilds.map((w) => `${escapeHtml(w.name)} (${escapeHtml(w.symbol)})`).join(", ");
  const tops = (t.toppings || []).join(", ");
  return `<p><b>${escapeHtml(t.title || t.rules || "")}</b> · ${players()} players · ${
    t.highest_wins ? "highest" : "lowest"
  } total wins.</p>
<p>Suits: ${suits}<br>Ranks, low to high: ${ranks}${wilds ? `<br>Wild cards: ${wilds}` : ""}${
    tops ? `<br>Toppings: ${escapeHtml(tops)}` : ""
  }</p>
<p class="hint">Follow the led suit if you can; the highest card of the led suit wins the trick and leads the next.</p>
${rulesHTML()}`;
}

function lastTrickHTML() {
  const lt = S.lastTrick;
  if (!lt) return '<p class="hint">No trick has been finished yet.</p>';
  const figs = lt.cards
    .map(
      ([seat, code]) =>
        `<figure class="${seat === lt.winner ? "won" : ""}" data-card="${escapeHtml(code)}">${cardSVG(
          S.deck,
          code,
        )}<figcaption>${escapeHtml(seatName(seat))}${seat === lt.leader ? " · led" : ""}</figcaption></figure>`,
    )
    .join("");
  return `<div class="last-trick">${figs}</div><p style="text-align:center"><b>${escapeHtml(
    seatName(lt.winner),
  )}</b> took it.</p>`;
}

// -- lobby -----------------------------------------------------------------------------------

function lobbyHTML() {
  const t = S.table;
  const host = isHost();
  const origin = location.origin;
  const invite = `${origin}/join/${encodeURIComponent(S.tableId)}`;
  const watch = `${origin}/watch/${encodeURIComponent(S.tableId)}`;
  const botOptions = (sel) =>
    (S.bots.length ? S.bots : ["random"])
      .map((b) => `<option value="${escapeHtml(b)}" ${b === sel ? "selected" : ""}>${escapeHtml(b)}</option>`)
      .join("");
  const seats = t.seats
    .map((s, i) => {
      const conn = s.kind === "bot" || s.connected ? "on" : "";
      let who;
      if (s.kind === "open") who = '<span class="open">Open seat</span>';
      else who = `${escapeHtml(s.name || `Seat ${i}`)}${i === S.you ? " (you)" : ""}`;
      const chips = [];
      if (i === t.host) chips.push('<span class="chip chip-host" style="background:#e6fcf5;color:#087f5b">host</span>');
      if (s.kind === "bot") chips.push(`<span class="chip" style="background:#e7f5ff;color:#1864ab">bot</span>`);
      if (s.kind === "human" && !s.connected) chips.push('<span class="chip chip-away">away</span>');
      let controls = "";
      if (host && i !== t.host) {
        if (s.kind === "open") {
          controls = `<select data-botsel="${i}" aria-label="Bot level for seat ${i}">${botOptions(S.bots[0])}</select>
<button class="btn btn-small" data-fill="${i}">Add bot</button>`;
        } else if (s.kind === "bot") {
          controls = `<select data-botchange="${i}" aria-label="Bot level for seat ${i}">${botOptions(s.bot)}</select>
<button class="btn btn-small" data-open="${i}">Open seat</button>`;
        } else {
          controls = `<button class="btn btn-small" data-fill="${i}" title="Replace this player by a bot">Bot instead</button>`;
        }
        if (!(t.min_players && t.seats.length <= t.min_players)) {
          controls += `<button class="btn btn-small" data-remove="${i}" title="Remove this seat">Remove</button>`;
        }
      }
      return `<li data-lobby-seat="${i}"><span class="who"><span class="conn ${conn}"></span>${who} ${chips.join(
        " ",
      )}</span>${controls}</li>`;
    })
    .join("");
  const open = t.seats.some((s) => s.kind === "open");
  const hostName = seatName(t.host);
  const extras = [];
  if (t.turn_timer) extras.push(`turn timer ${t.turn_timer} s`);
  if (t.bot_takeover) extras.push(`bots take over after ${t.bot_takeover} s away`);
  const head = `<h2>${escapeHtml(t.title || "Salad")}</h2><p class="hint">${t.seats.length} seats${
    extras.length ? ` · ${escapeHtml(extras.join(" · "))}` : ""
  }${t.game_number > 1 ? ` · game ${t.game_number}` : ""}</p>`;
  let links = "";
  if (!S.watching) {
    links = `<label for="invite-link">Invite link</label>
<div class="invite"><input id="invite-link" readonly value="${escapeHtml(invite)}"><button class="btn btn-small btn-primary" data-copy="invite-link">Copy</button></div>
<p class="hint">Friends open the link and pick a name — no account needed. Spectators: <a href="${escapeHtml(
      watch,
    )}" target="_blank" rel="noopener">watch link</a>.</p>`;
  }
  let foot;
  if (host) {
    foot = `<div class="form-actions"><button class="btn btn-primary" id="btn-start" ${open ? "disabled" : ""}>Start the game</button><span class="hint">${
      open ? "Fill the open seats with bots or friends, or remove them." : "Everyone is seated."
    }</span></div>`;
  } else {
    foot = `<p class="hint">Waiting for ${escapeHtml(hostName)} to start the game…</p>`;
  }
  return `<div class="panel lobby" id="lobby">${head}${links}<ul class="lobby-seats">${seats}</ul>${foot}</div>`;
}

function wireLobby() {
  const box = $("center");
  const base = tablePath();
  for (const b of box.querySelectorAll("[data-copy]")) {
    b.onclick = async () => {
      const input = $(b.dataset.copy);
      input.select();
      try {
        await navigator.clipboard.writeText(input.value);
        toast("Invite link copied.", "info");
      } catch {
        document.execCommand && document.execCommand("copy");
      }
    };
  }
  for (const b of box.querySelectorAll("[data-fill]")) {
    b.onclick = async () => {
      const i = b.dataset.fill;
      const sel = box.querySelector(`[data-botsel="${i}"]`);
      const bot = sel ? sel.value : S.bots[0] || "random";
      const lobby = await rest("PUT", `${base}/seats/${i}`, { kind: "bot", bot });
      if (lobby) applyLobby(lobby);
    };
  }
  for (const sel of box.querySelectorAll("[data-botchange]")) {
    sel.onchange = async () => {
      const lobby = await rest("PUT", `${base}/seats/${sel.dataset.botchange}`, { kind: "bot", bot: sel.value });
      if (lobby) applyLobby(lobby);
    };
  }
  for (const b of box.querySelectorAll("[data-open]")) {
    b.onclick = async () => {
      const lobby = await rest("PUT", `${base}/seats/${b.dataset.open}`, { kind: "open" });
      if (lobby) applyLobby(lobby);
    };
  }
  for (const b of box.querySelectorAll("[data-remove]")) {
    b.onclick = async () => {
      const lobby = await rest("DELETE", `${base}/seats/${b.dataset.remove}`);
      if (lobby) applyLobby(lobby);
    };
  }
  const startBtn = $("btn-start");
  if (startBtn) {
    startBtn.onclick = async () => {
      startBtn.disabled = true;
      const lobby = await rest("POST", `${base}/start`);
      if (lobby) applyLobby(lobby);
      else startBtn.disabled = false;
    };
  }
}

/** A REST answer holding the lobby: show it at once (a state message follows). */
function applyLobby(lobby) {
  if (!lobby || !lobby.seats) return;
  if (S.table && S.table.status !== lobby.status) return; // the state message will tell
  S.table = { ...S.table, ...lobby };
  render();
}

// -- game over -------------------------------------------------------------------------------

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function listNames(names) {
  if (names.length < 2) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

function overHTML() {
  const v = S.view;
  const t = S.table;
  const winners = gameWinners();
  const n = players();
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) =>
    t.highest_wins ? v.totals[b] - v.totals[a] : v.totals[a] - v.totals[b],
  );
  const youWon = winners.includes(S.you);
  const others = `${listNames(winners.map(seatName))} ${winners.length > 1 ? "win" : "wins"}`;
  const title = youWon ? (winners.length > 1 ? "You share the win!" : "You win!") : others;
  const rows = order
    .map(
      (i) =>
        `<li class="${winners.includes(i) ? "win" : ""}"><span>${winners.includes(i) ? trophy("trophy-small") : ""}${escapeHtml(
          seatName(i),
        )}${i === S.you ? " (you)" : ""}</span><b>${v.totals[i]}</b></li>`,
    )
    .join("");
  const game = t.game_number || 1;
  const id = encodeURIComponent(S.tableId);
  const rematch = isHost()
    ? '<button class="btn btn-primary" id="btn-rematch">Rematch, same seats</button>'
    : S.you >= 0
      ? `<span class="hint">${escapeHtml(seatName(t.host))} can start a rematch.</span>`
      : "";
  return `<div class="panel over" id="game-over">${winners.length ? trophy("trophy") : ""}<h2>${escapeHtml(title)}</h2>
<p class="hint">Game over after ${plural((t.hands || []).length || v.hand_points.length, "hand")} — ${
    t.highest_wins ? "highest" : "lowest"
  } total wins.</p>
<ol class="standings">${rows}</ol>
<div class="form-actions" style="justify-content:center">${rematch}
<a class="btn" href="/replay/${id}?game=${game}">Replay</a>
<a class="btn" id="btn-download" href="/api/tables/${id}/record?game=${game}" download="salad-${escapeHtml(S.tableId)}-game${game}.json">Download record</a>
<a class="btn btn-ghost" href="/" style="color:var(--ink)">Home</a></div></div>`;
}

function wireOver() {
  const b = $("btn-rematch");
  if (b) {
    b.onclick = async () => {
      b.disabled = true;
      const lobby = await rest("POST", `${tablePath()}/rematch`);
      if (!lobby) b.disabled = false;
    };
  }
}

// -- tools, timer, keyboard ------------------------------------------------------------------

function wireTools() {
  $("btn-last").onclick = () => {
    $("last-body").innerHTML = lastTrickHTML();
    $("dlg-last").showModal();
  };
  $("btn-scores").onclick = () => {
    $("scores-body").innerHTML = S.table ? scoresHTML() : "";
    $("dlg-scores").showModal();
  };
  $("round-line").onclick = () => {
    $("rules-body").innerHTML = S.table ? fullRulesHTML() : "";
    $("dlg-rules").showModal();
  };
  $("btn-settings").onclick = () => {
    $("opt-four").checked = isFourColour();
    $("opt-pause").checked = store.pref("pause", true);
    const id = encodeURIComponent(S.tableId);
    $("settings-links").innerHTML = `<a href="/watch/${id}" target="_blank" rel="noopener">Watch link</a> · <a href="/">Home</a>`;
    $("dlg-settings").showModal();
  };
  $("opt-four").onchange = (e) => {
    setFourColour(e.target.checked);
    store.setPref("fourColour", e.target.checked);
    render();
  };
  $("opt-pause").onchange = (e) => store.setPref("pause", e.target.checked);
}

function tick() {
  if (!S.deadline || !S.view) return;
  const left = Math.max(0, Math.ceil(S.deadline - Date.now() / 1000));
  for (const el of document.querySelectorAll("[data-timer]")) el.textContent = `${left} s`;
  const mine = document.querySelector("[data-timer-mine]");
  if (mine) mine.textContent = myTurn() ? ` (${left} s left)` : "";
}

function wireKeyboard() {
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (document.querySelector("dialog[open]")) return;
    const target = e.target;
    if (target && target.closest && target.closest("input, textarea, select")) return;
    const hand = $("hand");
    const cards = [...hand.querySelectorAll(".card")];
    if (e.key === "Escape") {
      S.typed = "";
      if (S.pendingWild) S.pendingWild = null;
      render();
      return;
    }
    if (!cards.length) return;
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      e.preventDefault();
      const pool = cards.filter((c) => c.classList.contains("legal"));
      const list = pool.length ? pool : cards;
      let i = list.indexOf(document.activeElement);
      if (i < 0) i = e.key === "ArrowLeft" ? list.length : -1;
      const next = list[(i + (e.key === "ArrowLeft" ? -1 : 1) + list.length) % list.length];
      next.focus();
      return;
    }
    if (e.key === "Enter" && S.typed) {
      const match = matchTyped(S.typed, cards);
      e.preventDefault();
      S.typed = "";
      if (match) playCard(match.dataset.code);
      else {
        toast("No card in your hand matches what you typed.");
        renderStatus();
      }
      return;
    }
    if (e.key.length === 1 && /[0-9a-z+♠♥♦♣]/i.test(e.key)) {
      S.typed = (S.typed + e.key.toUpperCase()).slice(-4);
      clearTimeout(S.typedTimer);
      S.typedTimer = setTimeout(() => {
        S.typed = "";
        renderStatus();
      }, 4000);
      const match = matchTyped(S.typed, cards);
      if (match) match.focus();
      renderStatus();
    }
  });
}

function matchTyped(typed, cards) {
  const want = typed.replace(/\+$/, "");
  for (const c of cards) {
    if (S.deck.typings(c.dataset.code).includes(want)) return c;
  }
  // Typing more than a card (say "QSK"): try the end of it.
  for (let i = 1; i < want.length; i++) {
    const tail = want.slice(i);
    for (const c of cards) if (S.deck.typings(c.dataset.code).includes(tail)) return c;
  }
  return null;
}

start();
