// @ts-check
// /replay/{id}?game=N: step through a finished game trick by trick, from its salad-record/1.

import { api, errorText, tableIdFromPath } from "./api.js";
import { cardSVG, Deck, suitIcon } from "./cards.js";
import { $, html, setHTML, toast } from "./dom.js";
import { SEAT_COLOURS, sheetTable, totalsChart } from "./scores.js";
import { clampPlates, loadPrefs, mountLogo, trickPlace, wireDialogs } from "./ui.js";

/** @typedef {import("./types.js").GameRecord} GameRecord */
/** @typedef {import("./types.js").RecordHand} RecordHand */
/** @typedef {import("./types.js").Table} Table */
/** @typedef {import("./dom.js").Html} Html */
/** A step of the replay: hand h, after its trick k (k = -1: its deal). @typedef {{h: number, k: number}} Step */

const tableId = tableIdFromPath();
const enc = encodeURIComponent(tableId || "");
const params = new URLSearchParams(location.search);

const R = {
  /** @type {GameRecord} */
  record: { players: [], hands: [], totals: [] },
  /** @type {Table | null} */
  lobby: null,
  deck: new Deck(null),
  /** @type {Step[]} */
  steps: [],
  at: 0,
};

function names() {
  return R.record.players.map((p, i) => p.name || `Seat ${i}`);
}

/** One step per hand's deal, then one per trick. */
function buildSteps() {
  /** @type {Step[]} */
  const steps = [];
  R.record.hands.forEach((hand, h) => {
    steps.push({ h, k: -1 });
    (hand.tricks || []).forEach((_, k) => steps.push({ h, k }));
  });
  return steps;
}

/** @param {number} i @param {number} n */
function seatAngle(i, n) {
  return ((90 + (i * 360) / n) * Math.PI) / 180;
}

/** @param {number} i @param {number} n @param {number} rx @param {number} ry */
function pos(i, n, rx, ry) {
  const a = seatAngle(i, n);
  return { x: 50 + rx * Math.cos(a), y: 50 + ry * Math.sin(a) };
}

/**
 * A hand as text grouped by suit: the suit drawn, then its ranks high to low.
 * @param {string[]} cards
 * @returns {Html}
 */
function handText(cards) {
  /** @type {Map<number | "wild", import("./cards.js").CardInfo[]>} */
  const groups = new Map();
  for (const code of cards) {
    const c = R.deck.parse(code);
    const k = c.wild ? "wild" : c.suitIndex;
    const group = groups.get(k) || [];
    groups.set(k, group);
    group.push(c);
  }
  /** @type {Html[]} */
  const runs = [];
  for (const [k, list] of groups) {
    if (k === "wild") {
      runs.push(html`<span class="suit-run">${list.map((c) => (c.wild ? c.wild.symbol : "")).join(" ")}</span>`);
    } else {
      const ranks = list
        .slice()
        .reverse()
        .map((c) => (c.rank ? R.deck.rankLabel(c.rank) : ""))
        .join(" ");
      runs.push(html`<span class="suit-run" style="color:${R.deck.suitColour(k)}">${suitIcon(R.deck, k, 13)} ${ranks}</span>`);
    }
  }
  return runs.length ? html`${runs}` : html`<span class="hint">no cards</span>`;
}

/**
 * Each seat's cards before trick k of hand h (k = -1: the deal, before any passing).
 * @param {RecordHand} hand
 * @param {number} k
 */
function cardsAt(hand, k) {
  const n = R.record.players.length;
  if (k < 0) return hand.deal.map((cards) => R.deck.sort(cards));
  /** @type {string[][]} */
  const out = Array.from({ length: n }, () => []);
  hand.tricks.slice(k + 1).forEach((t) => {
    t.cards.forEach((c, j) => out[(t.leader + j) % n].push(c.replace(/\+$/, "")));
  });
  return out.map((cards) => R.deck.sort(cards));
}

function portrait() {
  const felt = $("felt");
  return felt.clientHeight > felt.clientWidth * 1.05;
}

function render() {
  const step = R.steps[R.at];
  if (!step) return;
  const rec = R.record;
  const hand = rec.hands[step.h];
  const n = rec.players.length;
  const nm = names();
  const trick = step.k >= 0 ? hand.tricks[step.k] : null;
  const tricksN = hand.tricks.length;
  $("r-slider", HTMLInputElement).value = String(R.at);
  setHTML(
    $("round-line"),
    html`<span class="hand-no">Hand ${hand.number}/${rec.hands.length}</span><span class="round-name">${
      hand.round
    }</span><span class="penalty">${trick ? `trick ${step.k + 1} of ${tricksN}` : "the deal"}</span>`,
  );
  /** @type {number[]} */
  const won = Array(n).fill(0);
  if (step.k >= 0) hand.tricks.slice(0, step.k + 1).forEach((t) => (won[t.winner] += 1));
  const remaining = cardsAt(hand, step.k);
  const phone = window.innerWidth < 640;
  const lastTrick = step.k === tricksN - 1;
  /** @type {Html[]} */
  const seats = [];
  for (let i = 0; i < n; i++) {
    const p = pos(i, n, 41, 41);
    const cls = ["seat"];
    if (trick && trick.winner === i) cls.push("turn");
    if (lastTrick && rec.winners && step.h === rec.hands.length - 1 && rec.winners.includes(i)) cls.push("winner");
    const cards = handText(remaining[i]);
    const pts = lastTrick && hand.points ? html`<span class="pen ${hand.points[i] ? "" : "zero"}">+${hand.points[i]}</span>` : "";
    const dealer = hand.dealer === i ? html`<span class="chip chip-dealer">dealer</span>` : "";
    seats.push(html`<div class="${cls.join(" ")}" style="left:${p.x}%;top:${p.y}%;max-width:${phone ? 7 : 16}rem"><div class="name"><span class="dot" style="display:inline-block;width:9px;height:9px;border-radius:50%;background:${
      SEAT_COLOURS[i % SEAT_COLOURS.length]
    }"></span>${nm[i]}</div><div class="info">${pts}<span>tricks ${won[i]}</span></div><div class="flags">${dealer}</div>${
      phone ? "" : html`<div class="replay-hands">${cards}</div>`
    }</div>`);
  }
  setHTML($("seats"), html`${seats}`);
  $("felt").dataset.n = String(n);
  clampPlates($("felt"));
  /** @type {Html[]} */
  const trickCards = [];
  if (trick) {
    trick.cards.forEach((code, j) => {
      const seat = (trick.leader + j) % n;
      const place = trickPlace(seatAngle(seat, n), j, n, portrait());
      trickCards.push(
        html`<div class="trick-card ${place.cls} ${seat === trick.winner ? "won" : ""}" data-card="${code}" style="${
          place.style
        }">${cardSVG(R.deck, code)}<span class="who">${nm[seat]}${j === 0 ? " · led" : ""}</span></div>`,
      );
    });
  }
  setHTML($("trick"), html`${trickCards}`);
  let center = html``;
  if (!trick) {
    const extra = [];
    if (hand.trump) {
      const s = R.deck.suits.find((x) => x.letter === hand.trump);
      extra.push(`trump ${s ? s.name : hand.trump}`);
    }
    if (hand.passes) extra.push("cards were passed");
    center = html`<div class="center-note">Hand ${hand.number}: ${hand.round} — ${nm[hand.dealer]} deals${
      extra.length ? ` · ${extra.join(" · ")}` : ""
    }</div>`;
  } else if (lastTrick && hand.points) {
    const parts = hand.points.map((p, i) => `${nm[i]} ${p}`).join(" · ");
    center = html`<div class="center-note">End of hand ${hand.number}: ${parts}</div>`;
  }
  setHTML($("center"), center);
  $("status").textContent = trick
    ? `${nm[trick.leader]} led · ${nm[trick.winner]} took the trick`
    : `The deal of hand ${hand.number}`;
  renderScores(step);
}

/** @param {Step} step */
function scoresHTML(step) {
  const rec = R.record;
  const nm = names();
  const upto = step.h + (step.k === rec.hands[step.h].tricks.length - 1 ? 1 : 0);
  const done = rec.hands.slice(0, upto).filter((h) => h.points);
  const rows = rec.hands.map((h, i) => ({ number: h.number, round: h.round, points: i < upto ? h.points || null : null }));
  const totals = nm.map((_, s) => done.reduce((sum, h) => sum + (h.points ? h.points[s] : 0), 0));
  const finished = upto === rec.hands.length;
  const sheet = sheetTable({
    names: nm,
    rows,
    current: finished ? 0 : step.h + 1,
    running: null,
    totals,
    winners: finished ? rec.winners : [],
    you: -1,
  });
  const chart = totalsChart({
    names: nm,
    pointsByHand: done.map((h) => h.points || []),
    hands: rec.hands.length,
    you: -1,
  });
  return html`${sheet}${chart}`;
}

/** @param {Step} step */
function renderScores(step) {
  const won = R.record.winners || [];
  const winners = won.map((i) => names()[i]).join(", ");
  setHTML(
    $("side"),
    html`<div class="panel"><h2>Score sheet</h2>${scoresHTML(step)}</div><div class="panel"><h2>Final</h2><p>${
      winners ? html`Winner${won.length > 1 ? "s" : ""}: <b>${winners}</b>` : "Unfinished game"
    }</p><p class="hint">Totals: ${R.record.totals.map((t, i) => `${names()[i]} ${t}`).join(" · ")}</p></div>`,
  );
  if ($("dlg-scores", HTMLDialogElement).open) setHTML($("scores-body"), scoresHTML(step));
}

/** @param {number} at */
function go(at) {
  R.at = Math.max(0, Math.min(R.steps.length - 1, at));
  render();
}

/** @param {number} dir */
function jumpHand(dir) {
  const h = R.steps[R.at].h + dir;
  const idx = R.steps.findIndex((s) => s.h === h);
  if (idx >= 0) go(idx);
  else go(dir < 0 ? 0 : R.steps.length - 1);
}

async function start() {
  loadPrefs();
  mountLogo($("logo"));
  wireDialogs();
  const game = params.get("game");
  const q = game ? `?game=${encodeURIComponent(game)}` : "";
  $("btn-download", HTMLAnchorElement).href = `/api/tables/${enc}/record${q}`;
  $("btn-download").setAttribute("download", `salad-${tableId}${game ? `-game${game}` : ""}.json`);
  try {
    const [record, lobby] = await Promise.all([
      api("GET", `/api/tables/${enc}/record${q}`),
      api("GET", `/api/tables/${enc}`),
    ]);
    R.record = record;
    R.lobby = lobby;
    R.deck = new Deck(lobby.deck);
  } catch (err) {
    setHTML(
      $("center"),
      html`<div class="panel"><h2>No replay</h2><p>${errorText(err)}</p><a class="btn btn-primary" href="/table/${enc}">Back to the table</a></div>`,
    );
    toast(errorText(err));
    return;
  }
  document.title = `Salad — replay of ${(R.lobby && R.lobby.title) || "a game"}`;
  R.steps = buildSteps();
  const slider = $("r-slider", HTMLInputElement);
  slider.max = String(Math.max(0, R.steps.length - 1));
  slider.oninput = () => go(Number(slider.value));
  $("r-prev").onclick = () => go(R.at - 1);
  $("r-next").onclick = () => go(R.at + 1);
  $("r-first").onclick = () => jumpHand(-1);
  $("r-last").onclick = () => jumpHand(1);
  $("btn-scores").onclick = () => {
    setHTML($("scores-body"), scoresHTML(R.steps[R.at]));
    $("dlg-scores", HTMLDialogElement).showModal();
  };
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof Element && e.target.closest("input")) return;
    if (e.key === "ArrowRight") go(R.at + 1);
    else if (e.key === "ArrowLeft") go(R.at - 1);
    else if (e.key === "PageDown") jumpHand(1);
    else if (e.key === "PageUp") jumpHand(-1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(R.steps.length - 1);
  });
  window.addEventListener("resize", render);
  // js/review.js: "Show in replay" goes to a trick (detail {hand, trick, card}, 1-based; card:
  // the reviewed seat's place in the trick, for steps that go card by card).
  window.addEventListener("salad:show-trick", (e) => {
    const d = /** @type {CustomEvent<{hand: number, trick: number, card: number}>} */ (e).detail;
    const at = (/** @type {{h: number, k: number, c?: number}} */ s) =>
      s.h === d.hand - 1 && s.k === d.trick - 1 && (s.c ?? d.card) === d.card;
    const i = R.steps.findIndex(at);
    if (i >= 0) go(i);
  });
  go(0);
}

start();
