// @ts-check
// Drawing the table page from S: the top bar, the seats around the felt, the trick, the
// centre (lobby, pickers, game over, notes), the status line, the hand and the side panels.

import { cardSVG, suitIcon } from "../cards.js";
import { $, all, html, setHTML, toast, trusted, updateHTML } from "../dom.js";
import { t, tn } from "../i18n.js";
import { SEAT_COLOURS, shortName } from "../scores.js";
import { clampPlates, trickPlace } from "../ui.js";
import {
  everyHand,
  legendHTML,
  penaltyText,
  refreshDialogs,
  rulesHTML,
  scoresHTML,
  toppingParts,
  toppingsHTML,
} from "./panels.js";
import { passPicker, playCard, trumpPicker, wildPicker } from "./pickers.js";
import {
  countOf,
  gameWinners,
  handInfo,
  listNames,
  mustPressNext,
  myTurn,
  nameYou,
  penaltiesOf,
  players,
  redraw,
  S,
  seatName,
  shownHand,
  table,
  waitingNext,
} from "./state.js";
import { flyIn } from "./motion.js";
import { summaryHTML, wireSummary } from "./summary.js";

/** @typedef {import("../dom.js").Html} Html */

const TOMATO = trusted(
  '<svg class="tomato" viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="14" r="8.5" fill="#e03131"/><ellipse cx="9" cy="11" rx="2.2" ry="1.4" fill="#ff8787" opacity=".8"/><path d="M12 6.2l1.6-2.4.3 2.6 2.6-.9-1.8 2 2.5 1-2.8.3L12 9.6 9.6 8.8l-2.8-.3 2.5-1-1.8-2 2.6.9.3-2.6z" fill="#2f9e44"/></svg>',
);

const CARDS_ICON = trusted(
  '<svg class="cards-icon" viewBox="0 0 16 16" aria-hidden="true"><rect x="1.5" y="3" width="8" height="11" rx="1.5" fill="none" stroke="currentColor" stroke-width="1.3" transform="rotate(-12 5 8)"/><rect x="6" y="2" width="8" height="11" rx="1.5" fill="currentColor" opacity=".85"/></svg>',
);

function portrait() {
  const felt = $("felt");
  return felt.clientHeight > felt.clientWidth * 1.05;
}

/** Draw the whole page (nothing before the first state). */
export function render() {
  if (!S.table) return;
  watchFelt();
  document.body.classList.toggle("in-lobby", S.table.status === "lobby");
  document.body.dataset.seats = String(players()); // styles for many seats (salad.css)
  // the title is the ruleset's words: in the catalog
  const title = S.table.title ? t(S.table.title) : t("Salad");
  document.title = S.watching ? t("{title} — watching", { title }) : t("{title} — table", { title });
  renderTopbar();
  // What sets the felt's height first (the status line, the hand, the toppings strip): the
  // plates and the trick are placed in the felt as it will be.
  renderStatus();
  renderHand();
  renderSide();
  renderSeats();
  renderTrick();
  renderCenter();
  refreshDialogs();
  tick(); // the plates' countdowns
}

let feltWatched = false;

/** The felt changes size after a drawing too (the status line gains the Hint and Undo buttons, a
 * strip shows, a font loads): its plates and trick are placed again, inside it. */
function watchFelt() {
  if (feltWatched) return;
  feltWatched = true;
  new ResizeObserver(() => {
    if (!S.table || !S.view) return;
    renderSeats();
    renderTrick();
    tick(); // the plates' countdowns
  }).observe($("felt"));
}

function renderTopbar() {
  const line = $("round-line");
  const v = S.view;
  const tb = table();
  if (!v || tb.status === "lobby") {
    setHTML(
      line,
      html`<span class="round-name">${tb.title ? t(tb.title) : t("Salad")}</span><span class="penalty">${
        S.watching ? t("watching") : t("waiting for players")
      }</span>`,
    );
    return;
  }
  const info = handInfo();
  const total = (tb.hands && tb.hands.length) || "?";
  const pen = info ? penaltiesOf(info).map(penaltyText).join(" · ") : "";
  const rule = info ? ruleText(penaltiesOf(info)) : "";
  let trump = html``;
  const ended = waitingNext();
  if (v.trump && !ended) {
    const idx = S.deck.suits.findIndex((s) => s.letter === v.trump);
    // the suit's name is the ruleset's words: in the catalog
    const word = t("Trump");
    trump = html`<span class="trump" title="${word}">${suitIcon(S.deck, idx, 14)} ${
      S.deck.suits[idx] ? t(S.deck.suits[idx].name) : v.trump
    }</span>`;
  }
  // "Hand" goes unseen on a phone, for the round's name (salad.css); while a hand's summary is
  // up, the hand just played.
  const hand =
    v.phase === "over"
      ? html`${t("Game over")}`
      : html`<span class="hand-word">${t("Hand")} </span>${String(shownHand())}/${String(total)}`;
  // the round's name is the ruleset's words: in the catalog
  const round = t(ended && info ? info.round : v.round);
  setHTML(
    line,
    html`<span class="hand-no">${hand}</span><span class="round-name">${round}</span>${trump}<span class="penalty">${rule}</span>`,
  );
  line.title = t("{name}: {words}", { name: round, words: pen });
}

/**
 * The hand's rule in the top bar. A phone held upright has two short lines for it: the
 * penalties of every hand (a topping's: the strip below names it) are left out, and a long
 * rule says each penalty by its name and points ("Queens 25"); the rules dialog has the words.
 * @param {string[]} penalties "Name: words ... points"
 */
function ruleText(penalties) {
  if (window.innerWidth >= 640) return penalties.map(penaltyText).join(" · ");
  const common = everyHand();
  const own = penalties.filter((p) => !common.includes(p));
  const full = own.map(penaltyText).join(" · ");
  if (full.length <= 64) return full;
  return own
    .map((p) => {
      const m = p.match(/^([^:]+):.*?(\d+)\D*$/);
      // the penalty's name is the ruleset's words: in the catalog
      return m ? t("{name} {points}", { name: t(m[1]), points: m[2] }) : penaltyText(p);
    })
    .join(" · ");
}

/** Three or four seats on a phone held upright: the others' plates in a row along the top, and
 * the felt's whole width below them for the trick, its side cards and their names clear of every
 * plate (trickRing). */
function topRow() {
  return window.innerWidth < 640 && window.innerHeight > window.innerWidth && players() <= 4 && !wideFelt();
}

/** A felt much wider than tall (a phone held sideways): the seats sit in two columns, left and
 * right of the trick, instead of around it. */
function wideFelt() {
  const felt = $("felt");
  return felt.clientHeight > 0 && felt.clientHeight < 330 && felt.clientWidth > felt.clientHeight * 2;
}

/** The seat's place counted clockwise from the viewer's (0). @param {number} i */
function seatOrder(i) {
  const n = players();
  const base = S.you >= 0 ? S.you : 0;
  return (i - base + n) % n;
}

/** The direction of seat i from the felt's centre: the viewer at the bottom, play going
 * clockwise (on a wide felt, towards its place in the side columns). @param {number} i */
function seatAngle(i) {
  const n = players();
  if (wideFelt()) {
    const felt = $("felt");
    const p = seatPos(i, 0, 0);
    return Math.atan2(((p.y - 50) * felt.clientHeight) / 100, ((p.x - 50) * felt.clientWidth) / 100);
  }
  return ((90 + (seatOrder(i) * 360) / n) * Math.PI) / 180;
}

/** Where seat i sits, in percent of the felt. @param {number} i @param {number} rx @param {number} ry */
function seatPos(i, rx, ry) {
  if (wideFelt()) {
    // Clockwise from the viewer: up the left column, then down the right one.
    const n = players();
    const k = seatOrder(i);
    const left = Math.ceil(n / 2);
    const rows = Math.max(left, n - left);
    const step = rows > 1 ? 76 / (rows - 1) : 0;
    if (k < left) return { x: 11, y: rows > 1 ? 88 - k * step : 50 };
    return { x: 89, y: rows > 1 ? 12 + (k - left) * step : 50 };
  }
  const a = ((90 + (seatOrder(i) * 360) / players()) * Math.PI) / 180;
  return { x: 50 + rx * Math.cos(a), y: 50 + ry * Math.sin(a) };
}

function renderSeats() {
  const box = $("seats");
  const tb = table();
  const v = S.view;
  const n = players();
  if (tb.status === "lobby" || !v) {
    box.innerHTML = "";
    return;
  }
  const winners = v.phase === "over" ? gameWinners() : [];
  const phone = window.innerWidth < 640;
  /** @type {Html[]} */
  const plates = [];
  for (let i = 0; i < n; i++) {
    const seat = tb.seats[i] || {};
    // A phone held upright: the plates out at the felt's rim, the trick's room between them.
    const p = seatPos(i, phone ? 44 : 41, phone ? (portrait() ? 48 : 40) : 41);
    if (topRow() && seatOrder(i)) p.y = 0; // up against the top (clampPlates)
    const cls = ["seat"];
    if (v.phase !== "over" && v.to_move === i) cls.push("turn");
    if (seat.kind === "human" && seat.connected === false) cls.push("away");
    if (i === S.you) cls.push("me");
    if (winners.includes(i)) cls.push("winner");
    const running = (waitingNext() && S.handEnd ? S.handEnd.points[i] : v.running[i]) || 0;
    const bump = S.prevRunning && S.prevRunning[i] !== undefined && S.prevRunning[i] < running;
    const flags = [];
    if (v.dealer === i && !waitingNext()) {
      const dealer = t("Dealer");
      flags.push(html`<span class="chip chip-dealer" title="${dealer}">${t("dealer")}</span>`);
    }
    if (seat.kind === "bot") {
      const what = seat.bot ? t("A bot: {level}", { level: seat.bot }) : t("A bot");
      flags.push(html`<span class="chip chip-bot" title="${what}">${t("bot")}</span>`);
    }
    if (seat.kind === "human" && seat.connected === false) flags.push(html`<span class="chip chip-away">${t("away")}</span>`);
    if (seat.takeover) {
      const why = t("A bot plays until this player is back");
      flags.push(html`<span class="chip chip-bot" title="${why}">${t("bot playing")}</span>`);
    }
    if (v.token === i) {
      // the token's name is the ruleset's words: in the catalog
      const holds = tb.marker ? t("Holds {token}", { token: t(tb.marker) }) : t("Holds the token");
      flags.push(html`<span class="chip chip-token" title="${holds}" aria-label="${holds}">${TOMATO}</span>`);
    }
    if (S.deadline && v.to_move === i && v.phase !== "over") flags.push(html`<span class="chip chip-timer" data-timer></span>`);
    const size = (!waitingNext() && v.hand_sizes[i]) || 0;
    const backs =
      i === S.you
        ? ""
        : html`<div class="mini-backs" aria-hidden="true">${Array.from({ length: Math.min(size, 13) }, () => html`<span></span>`)}</div>`;
    const words = {
      points: t("Points this hand"),
      pointsSaid: tn("{n} point this hand", "{n} points this hand", running),
      total: t("Total so far"),
      totalSaid: t("total {n}", { n: v.totals[i] || 0 }),
      cards: t("Cards in hand"),
      cardsSaid: tn("{n} card in hand", "{n} cards in hand", size),
    };
    plates.push(html`<div class="${cls.join(" ")}" data-seat="${i}" style="left:${p.x}%;top:${p.y}%">
<div class="name"><span class="dot" style="display:inline-block;width:9px;height:9px;border-radius:50%;background:${
      SEAT_COLOURS[i % SEAT_COLOURS.length]
    }"></span>${nameYou(i)}</div>
<div class="info"><span class="pen ${running ? "" : "zero"} ${bump ? "bump" : ""}" title="${words.points}" aria-label="${
      words.pointsSaid
    }">${running ? `+${running}` : "0"}</span><span title="${words.total}" aria-label="${words.totalSaid}">Σ ${
      v.totals[i] || 0
    }</span><span title="${words.cards}" aria-label="${words.cardsSaid}">${CARDS_ICON}${size}</span></div>
<div class="flags">${flags}</div>${backs}</div>`);
  }
  setHTML(box, html`${plates}`);
  $("felt").dataset.n = String(n);
  $("felt").classList.toggle("wide", wideFelt());
  clampPlates($("felt"));
  S.prevRunning = waitingNext() && S.handEnd ? [...S.handEnd.points] : [...v.running];
}

/** A trick card's layer: each above the one played before it, and every one under the centre's
 * panels (.center, z-index 8: a hand's summary over the last trick of seven or eight seats).
 * @param {number} order */
function cardLayer(order) {
  return Math.min(3 + order, 7);
}

/** On a wide felt the trick lies in a row, one place per seat in playing order from the
 * viewer's; the names go above and below in turn, so that each has room.
 * @param {number} seat @param {number} order */
function trickRow(seat, order) {
  const n = players();
  const slot = seatOrder(seat) - (n - 1) / 2;
  return {
    style: `left:calc(50% + ${slot.toFixed(2)} * (var(--trick-w) + 8px));top:50%;z-index:${cardLayer(order)}`,
    cls: seatOrder(seat) % 2 ? "label-top" : "",
  };
}

/** The trick in a ring of rx by ry cards' widths: seven or eight players (wide enough that no
 * card covers another or its neighbour's name), or topRow's three or four.
 * @param {number} seat @param {number} order @param {number} rx @param {number} ry
 * @param {"in" | ""} sides beside the table's sides the name goes inwards, clear of the plates
 * and of the neighbours' cards */
function trickRing(seat, order, rx, ry, sides) {
  const a = seatAngle(seat);
  const side = sides && Math.abs(Math.cos(a)) > 0.85 ? (Math.cos(a) > 0 ? "label-out-left" : "label-out-right") : "";
  return {
    style: `left:calc(50% + ${(Math.cos(a) * rx).toFixed(3)} * var(--trick-w));top:calc(50% + ${(
      Math.sin(a) * ry
    ).toFixed(3)} * var(--trick-w));z-index:${cardLayer(order)}`,
    cls: side || (Math.sin(a) < -0.2 ? "label-top" : ""),
  };
}

/** How far down (or up) the trick goes, in px, to sit midway between the plates above and below
 * its middle (the top plate at a phone's rim, the viewer's taller): its names clear of both.
 * Without a plate above the middle (three seats) the upper plates are beside the top cards: it
 * stays. */
/** A phone's felt lower than this (px: a hand in three rows) has the trick's names short. */
const SHORT_FELT = 340;

function trickShift() {
  const felt = $("felt").getBoundingClientRect();
  const mid = felt.left + felt.width / 2;
  let top = -Infinity;
  let bottom = Infinity;
  for (const plate of all($("seats"), ".seat")) {
    const r = plate.getBoundingClientRect();
    if (r.right < mid - 40 || r.left > mid + 40) continue; // beside the trick, not above it
    if (r.top + r.height / 2 < felt.top + felt.height / 2) top = Math.max(top, r.bottom);
    else bottom = Math.min(bottom, r.top);
  }
  if (!Number.isFinite(top + bottom)) return 0;
  return Math.round((top + bottom) / 2 - (felt.top + felt.height / 2));
}

function renderTrick() {
  const box = $("trick");
  const v = S.view;
  if (!v || table().status === "lobby") {
    box.innerHTML = "";
    return;
  }
  let cards = v.trick;
  let winner = -1;
  const held = S.holdTrick || (waitingNext() ? S.lastTrick : null);
  if (held) {
    cards = held.cards;
    winner = held.winner;
  }
  box.style.setProperty("--trick-shift", `${wideFelt() ? 0 : trickShift()}px`);
  const short = players() >= (window.innerWidth < 1100 ? 5 : 7) || (topRow() && $("felt").clientHeight < SHORT_FELT);
  const shown = S.shownTrick || new Set();
  S.shownTrick = new Set(cards.map(([seat, code]) => `${seat}:${code}`));
  setHTML(
    box,
    html`${cards.map(([seat, code], order) => {
      // Seven or eight: neighbours a card's width apart across or its height apart down, no
      // card over another's rank. Three or four on a phone (topRow): the side cards out by a
      // card and a half, their names clear of the cards above and below.
      const tall = portrait();
      const seven = players() === 7; // the top two cards apart, and low enough for their names
      const place = wideFelt()
        ? trickRow(seat, order)
        : players() >= 7
          ? tall
            ? trickRing(seat, order, 1.45, 2.05, "in")
            : trickRing(seat, order, seven ? 2.3 : 2.0, seven ? 1.8 : 2.0, "in")
          : topRow()
            ? trickRing(seat, order, players() === 3 ? 1.2 : 1.4, 0.75, "") // (three: names clear of the corner plates)
            : trickPlace(seatAngle(seat), order, players(), tall);
      const fresh = shown.has(`${seat}:${code}`) ? "" : "fresh";
      const led = order === 0;
      return html`<div class="trick-card ${fresh} ${place.cls} ${seat === winner ? "won" : ""} ${led ? "leader" : ""}" data-seat="${seat}" data-card="${code}" style="${
        place.style
      }">${cardSVG(S.deck, code)}${led ? ledMark(seat) : ""}<span class="who" title="${seatName(seat)}">${
        // Seven or eight (five or six narrower than a laptop, any number on a felt too short
        // for names on two lines): the names short, as the score sheet's heads ("BB8"); in
        // full on hover.
        short ? shortName(seatName(seat)) : seatName(seat)
      }</span></div>`;
    })}`,
  );
  flyIn(box, S.you);
}

/** The mark on the card that led the trick. @param {number} seat */
function ledMark(seat) {
  const ledBy = t("{name} led this trick", { name: seatName(seat) });
  return html`<b class="led-mark" title="${ledBy}">${t("led")}</b>`;
}

/**
 * In place of the table, once the server closed this page's connection for good: why, and
 * where to go from here (watching the table, unless there is none; home).
 */
export function renderEnded() {
  const ended = S.ended;
  if (!ended) return;
  const box = $("center");
  box.classList.add("fill");
  box.classList.remove("summary", "low");
  const id = encodeURIComponent(S.tableId || "");
  const watch = ended.table && !S.watching ? html`<a class="btn" href="/watch/${id}">${t("Watch this table")}</a>` : html``;
  setHTML(
    box,
    html`<div class="panel ended" role="alert"><h2>${
      ended.table ? t("You are no longer connected to this table") : t("Cannot open this table")
    }</h2><p>${
      ended.reason
    }</p><div class="row">${watch}<a class="btn btn-primary" href="/">${t("Home")}</a></div></div>`,
  );
}

/** @type {typeof import("./lobby.js") | null} */
let lobby = null;
let lobbyAsked = false;

/** The lobby and the results (table/lobby.js), fetched when the table first shows either (a game
 * in progress needs neither, nor its bytes); the page is drawn again when it has come. */
function lobbyModule() {
  if (!lobby && !lobbyAsked) {
    lobbyAsked = true;
    import("./lobby.js").then(
      (module) => {
        lobby = module;
        redraw();
      },
      () => {
        lobbyAsked = false;
        toast(t("This page could not load all its parts: reload it."));
      },
    );
  }
  return lobby;
}

function renderCenter() {
  if (S.ended) {
    renderEnded();
    return;
  }
  const box = $("center");
  const v = S.view;
  const tb = table();
  box.classList.toggle("low", Boolean(S.pendingWild) && !S.holdTrick && Boolean(v) && v?.phase === "play");
  box.classList.toggle(
    "fill",
    tb.status === "lobby" || (Boolean(v) && (v?.phase === "over" || waitingNext()) && !S.holdTrick),
  );
  box.classList.remove("summary");
  const ready = tb.status === "lobby" || v?.phase === "over" ? lobbyModule() : null;
  if (tb.status === "lobby") {
    if (ready) {
      setHTML(box, ready.lobbyHTML());
      ready.wireLobby(box);
    }
    return;
  }
  if (!v) {
    setHTML(box, html`<div class="center-note">${t("Waiting for the game…")}</div>`);
    return;
  }
  if (S.holdTrick) {
    box.innerHTML = "";
    return;
  }
  if (v.phase === "over") {
    if (ready) {
      setHTML(box, ready.overHTML());
      ready.wireOver();
    }
    return;
  }
  box.classList.toggle("summary", waitingNext() && !S.holdTrick);
  if (waitingNext()) {
    setHTML(box, summaryHTML());
    wireSummary();
    return;
  }
  if (v.phase === "trump") {
    trumpPicker(box);
    return;
  }
  if (v.phase === "pass") {
    passPicker(box);
    return;
  }
  if (S.pendingWild) {
    wildPicker(box);
    return;
  }
  if (v.phase === "play" && v.trick.length === 0 && v.tricks.length === 0) {
    // the round's name is the ruleset's words: in the catalog
    const note =
      v.to_move === S.you
        ? t("{round} — You lead", { round: t(v.round) })
        : t("{round} — {name} leads", { round: t(v.round), name: seatName(v.to_move) });
    setHTML(box, html`<div class="center-note">${note}</div>`);
    return;
  }
  box.innerHTML = "";
}

/** The status line: whose turn, what was typed, the countdown. */
export function renderStatus() {
  const el = $("status");
  const v = S.view;
  const tb = table();
  el.classList.remove("your-turn");
  if (S.ended) {
    el.textContent = t("Disconnected");
    return;
  }
  if (tb.status === "lobby" || !v) {
    el.textContent = S.watching ? t("Watching — the game has not started yet") : "";
    return;
  }
  let text;
  if (S.holdTrick) {
    const w = S.holdTrick.winner;
    text = w === S.you ? t("You take the trick") : t("{name} takes the trick", { name: seatName(w) });
  } else if (waitingNext() && S.handEnd) {
    const others = S.handEnd.waiting.filter((s) => s !== S.you).map(seatName);
    const hand = S.handEnd.hand;
    text = mustPressNext()
      ? t("Hand {hand} is over — press Next hand when you are ready", { hand })
      : t("Hand {hand} is over — waiting for {names}", { hand, names: listNames(others) || t("the others") });
  } else if (v.phase === "over") {
    const w = gameWinners().map(seatName);
    text = w.length > 1 ? t("Game over — winners: {names}", { names: listNames(w) }) : t("Game over — winner: {name}", { name: w[0] ?? "" });
  } else if (S.watching) {
    text = watchingText(v.phase, seatName(v.to_move));
  } else if (!S.connected) {
    text = t("Reconnecting to the server…");
  } else if (myTurn()) {
    el.classList.add("your-turn");
    if (v.phase === "play") {
      const s = v.led_suit ? S.deck.suits.find((x) => x.letter === v.led_suit) : null;
      // the suit's name is the ruleset's words: in the catalog
      text = s ? t("Your turn — {suit} led", { suit: t(s.name) }) : v.trick.length ? t("Your turn") : t("Your lead");
    } else if (v.phase === "pass") text = t("Your turn: choose the cards to pass");
    else text = t("Your turn: pick the trump suit");
  } else {
    text = t("Waiting for {name}…", { name: seatName(v.to_move) });
  }
  const typedWord = t("What you typed");
  const typed = S.typed ? html`<span class="typed" title="${typedWord}">${S.typed}</span>` : "";
  setHTML(el, html`<span data-status>${text}</span><span data-timer-mine></span>${typed}`);
  tick(); // the countdowns (here and on the seats, drawn before) get their number at once
}

/** A spectator's status line: who is to do what. @param {string} phase @param {string} name */
function watchingText(phase, name) {
  if (phase === "pass") return t("Watching — {name} to pass", { name });
  if (phase === "trump") return t("Watching — {name} to pick trump", { name });
  return t("Watching — {name} to play", { name });
}

/** The countdowns of the turn timer (every 250 ms). */
export function tick() {
  if (!S.deadline || !S.view) return;
  const left = Math.max(0, Math.ceil(S.deadline - Date.now() / 1000));
  for (const el of all(document, "[data-timer]")) el.textContent = t("{n} s", { n: left });
  const mine = document.querySelector("[data-timer-mine]");
  if (mine) mine.textContent = myTurn() ? ` ${t("({n} s left)", { n: left })}` : "";
}

function renderHand() {
  const box = $("hand");
  const v = S.view;
  // Ended: the cards are no longer this page's to see (a seat given away is a bot's now).
  if (S.watching || S.you < 0 || !v || table().status === "lobby" || S.ended) {
    box.hidden = true;
    setHTML(box, html``);
    return;
  }
  box.hidden = false;
  if (waitingNext()) {
    setHTML(box, html`<span class="hand-empty">${t("Your cards for the next hand come with Next hand")}</span>`);
    return;
  }
  const cards = S.deck.sort(v.cards);
  if (!cards.length && v.phase === "over") {
    // The results take the room (a phone held sideways has none to spare).
    box.hidden = true;
    setHTML(box, html``);
    return;
  }
  if (!cards.length) {
    setHTML(box, html`<span class="hand-empty">${v.phase === "over" ? "" : t("No cards in hand")}</span>`);
    return;
  }
  const turn = myTurn();
  const legal = new Set();
  if (turn && (v.phase === "play" || v.phase === "pass")) {
    for (const m of v.legal) legal.add(m.endsWith("+") ? m.slice(0, -1) : m);
  }
  const received = v.tricks.length === 0 && v.trick.length <= players() ? v.received : [];
  const newWord = t("new"); // the mark of a card just received in the pass (salad.css)
  const active = document.activeElement;
  const focused = active instanceof HTMLElement && active.closest("#hand") ? active : null;
  const focusCode = focused ? focused.dataset.code : undefined;
  const sameCode = (/** @type {string} */ code) => all(box, `.card[data-code="${CSS.escape(code)}"]`);
  const focusCopy = focused && focusCode ? Math.max(0, sameCode(focusCode).indexOf(focused)) : 0;
  /** @type {number | "*" | null} */
  let prevSuit = null;
  /** @type {Map<string, number>} */
  const copies = new Map();
  // Unchanged cards stay the same buttons, so a click is not lost to a message that changes
  // nothing in the hand (a seat's presence, a chat line).
  const replaced = updateHTML(
    box,
    html`${cards.map((code, i) => {
      const info = S.deck.parse(code);
      const cls = ["card"];
      const suit = info.wild ? "*" : info.suitIndex;
      if (i > 0 && suit !== prevSuit) cls.push("suit-gap");
      prevSuit = suit;
      if (turn && v.phase !== "trump") cls.push(legal.has(code) ? "legal" : "dimmed");
      const copy = copies.get(code) || 0; // identical copies: the first ones show as chosen
      copies.set(code, copy + 1);
      if (copy < countOf(S.passSel, code)) cls.push("selected");
      else if (v.phase === "pass" && copy < countOf(v.passed, code)) cls.push("passed");
      if (copy < countOf(received, code)) cls.push("received");
      const label = S.deck.name(code).replace(/, (high|low)$/, "");
      const note = cls.includes("passed") ? ` ${t("(passed)")}` : legal.has(code) ? ` ${t("(playable)")}` : "";
      // The name in the button's text (not an aria-label over a face that shows the rank).
      return html`<button type="button" class="${cls.join(" ")}" data-code="${code}" data-new="${newWord}" title="${label}${note}"><span class="visually-hidden">${label}${note}</span>${cardSVG(S.deck, code, { inHand: true })}</button>`;
    })}`,
  );
  if (replaced) for (const b of all(box, ".card")) b.onclick = () => playCard(String(b.dataset.code), b);
  if (replaced && focusCode) {
    const same = sameCode(focusCode);
    const again = same[focusCopy] || same[0];
    if (again) again.focus({ preventScroll: true });
  }
  layoutHand();
}

/** The narrowest strip of a card that a finger or a pointer can pick: 44 px on a touch screen
 * or a phone, 28 px with a mouse. */
function minStrip() {
  return window.matchMedia("(pointer: coarse)").matches || window.innerWidth < 640 ? 44 : 28;
}

/** Overlap the cards so that the whole hand fits the width of the screen; where one row would
 * leave a card less than its strip (a phone held upright), the hand lies in two or three rows,
 * each card showing its corner: every card in sight and tappable, nothing to scroll. */
function layoutHand() {
  const box = $("hand");
  const cards = all(box, ".card");
  box.classList.remove("rows");
  box.style.height = "";
  for (const c of cards) {
    c.style.left = "";
    c.style.top = "";
  }
  if (!cards.length) return;
  const width = box.clientWidth - 16;
  const cw = cards[0].offsetWidth || 80;
  const gaps = box.querySelectorAll(".suit-gap").length;
  const gap = Math.max(4, cw * 0.1);
  const n = cards.length;
  const strip = minStrip();
  let step = n > 1 ? (width - cw - gaps * gap) / (n - 1) : cw;
  step = Math.min(step, cw + 6);
  // Rows only where there is height for them (not on a phone held sideways).
  if (step < strip && n > 1 && window.innerHeight >= 560) {
    layoutRows(box, cards, width, cw, strip);
    return;
  }
  // A finger needs its strip: on a touch screen the hand scrolls rather than squeeze.
  if (window.matchMedia("(pointer: coarse)").matches) step = Math.max(step, Math.min(44, cw));
  box.style.setProperty("--step-overlap", `${Math.round(step - cw)}px`);
  box.style.setProperty("--suit-gap", `${Math.round(gap)}px`);
}

/**
 * The hand in as few rows as leave each card its strip (at most three), each row overlapping
 * the one above by all but the top of its cards, where the rank is; the rows are staggered by
 * a fraction of a step, so that no corner hides straight under another.
 * @param {HTMLElement} box
 * @param {HTMLElement[]} cards
 * @param {number} width the room for the cards
 * @param {number} cw a card's width
 * @param {number} strip the narrowest strip a card may show
 */
function layoutRows(box, cards, width, cw, strip) {
  const n = cards.length;
  /** The step between cards in rows of `rows` (the stagger takes part of the width). @param {number} rows */
  const stepFor = (rows) => Math.min((width - cw) / Math.max(1, Math.ceil(n / rows) - 1 + (rows - 1) / rows), cw + 6);
  let rows = 2;
  while (rows < 3 && stepFor(rows) < strip) rows += 1;
  const per = Math.ceil(n / rows);
  const step = stepFor(rows);
  const ch = cards[0].offsetHeight || cw * 1.4;
  // A row shows 44 px of the cards above it even when its own cards are lifted (legal: 8 px,
  // chosen to pass: 14 px; .hand.rows in salad.css).
  const rowStep = Math.max(60, Math.round(ch * 0.58));
  const style = getComputedStyle(box);
  const top = parseFloat(style.paddingTop) || 0;
  const start = (box.clientWidth - (cw + (per - 1) * step + ((rows - 1) / rows) * step)) / 2;
  box.classList.add("rows");
  cards.forEach((card, i) => {
    const row = Math.floor(i / per);
    card.style.left = `${Math.round(start + (row / rows) * step + (i - row * per) * step)}px`;
    card.style.top = `${Math.round(top + row * rowStep)}px`;
  });
  const bottom = parseFloat(style.paddingBottom) || 0;
  box.style.height = `${Math.round(top + (Math.ceil(n / per) - 1) * rowStep + ch + bottom)}px`;
}

/** Narrow screens (no side panel): the toppings in play by name, a tap away from what each does. */
function renderToppingsStrip() {
  const strip = $("toppings-strip");
  const list = (S.table && S.table.topping_text) || [];
  strip.hidden = !list.length || table().status === "lobby";
  renderToppingsChip(list, strip.hidden);
  if (strip.hidden) return;
  const names = list.map((text) => toppingParts(text)[0]);
  strip.textContent = t("Toppings: {names}", { names: names.join(" · ") });
  strip.title = list.map((text) => toppingParts(text).join(t(": "))).join("\n");
  strip.onclick = () => $("round-line").click();
}

/** A phone held sideways: the toppings as a chip in the top bar; a tap (or hover) shows what
 * each does. CSS shows it only on short screens.
 * @param {string[]} list "Name: what it does"
 * @param {boolean} hidden
 */
function renderToppingsChip(list, hidden) {
  const chip = $("toppings-chip");
  chip.hidden = hidden;
  if (hidden) return;
  const parts = list.map(toppingParts);
  const names = parts.map(([name]) => name);
  setHTML(chip, html`<span class="chip-key" aria-hidden="true">+</span>${names.join(" · ")}`);
  chip.title = parts.map((p) => p.join(t(": "))).join("\n");
  chip.setAttribute("aria-label", t("Toppings in play: {names}", { names: names.join(", ") }));
  const items = parts.map(([name, words]) => (words ? html`<li><b>${name}</b>${t(": ")}${words}</li>` : html`<li>${name}</li>`));
  setHTML($("toppings-pop"), html`<h2>${t("Toppings in play")}</h2><ul>${items}</ul>`);
}

function renderSide() {
  renderToppingsStrip();
  const side = $("side");
  const v = S.view;
  if (table().status === "lobby" || !v) {
    setHTML(side, html`<div class="panel"><h2>${t("The rounds")}</h2>${rulesHTML()}</div>`);
    return;
  }
  const info = handInfo();
  const thisHand =
    info && v.phase !== "over"
      ? html`<div class="panel"><h2>${t("Hand {hand}: {round}", { hand: shownHand(), round: t(info.round) })}</h2><ul class="penalty-list">${penaltiesOf(info).map(
          (p) => html`<li>${penaltyText(p)}</li>`,
        )}</ul></div>`
      : "";
  setHTML(
    side,
    html`${thisHand}${toppingsHTML()}<div class="panel"><h2>${t("Score sheet")}</h2>${scoresHTML()}</div>${legendHTML()}`,
  );
}
