// @ts-check
// /replay/{id}?game=N: step through a finished game card by card or trick by trick, from its
// salad-record/2. Nothing of what is still to come shows (no spoiler): the final result
// appears at the last step only.

import { api, errorText, tableIdFromPath } from "./api.js";
import { cardSVG, Deck, suitIcon } from "./cards.js";
import { $, html, setHTML, toast } from "./dom.js";
import { t, tn } from "./i18n.js";
import { points, SEAT_COLOURS, sheetTable, totalsChart } from "./scores.js";
import { clampPlates, loadPrefs, mountLogo, trickPlace, wireDialogs } from "./ui.js";

/** @typedef {import("./types.js").GameRecord} GameRecord */
/** @typedef {import("./types.js").RecordHand} RecordHand */
/** @typedef {import("./messages.js").Lobby} Table */
/** @typedef {import("./dom.js").Html} Html */
/**
 * A step of the replay: hand h; k = -1: its deal (pass: the cards passed), else trick k with
 * its first c cards played (c = the number of players: the trick is complete and won).
 * @typedef {{h: number, k: number, c: number, pass?: boolean}} Step
 */

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
  return R.record.players.map((p, i) => p.name || t("Seat {n}", { n: i + 1 }));
}

/** The cards each seat passed in a hand, when there was passing. @param {RecordHand} hand */
function passesOf(hand) {
  const passes = /** @type {unknown} */ (hand.passes);
  if (!Array.isArray(passes) || !passes.some((p) => Array.isArray(p) && p.length)) return null;
  return /** @type {string[][]} */ (passes);
}

/** One step per hand's deal, one for its passes, then one per card of each trick. */
function buildSteps() {
  /** @type {Step[]} */
  const steps = [];
  R.record.hands.forEach((hand, h) => {
    steps.push({ h, k: -1, c: 0 });
    if (passesOf(hand)) steps.push({ h, k: -1, c: 0, pass: true });
    (hand.tricks || []).forEach((t, k) => {
      for (let c = 1; c <= t.cards.length; c++) steps.push({ h, k, c });
    });
  });
  return steps;
}

/** Whether a step ends a trick (or is a hand's deal or passes): where "Trick ▶" stops. @param {Step} step */
function trickStop(step) {
  return step.k < 0 || step.c === R.record.hands[step.h].tricks[step.k].cards.length;
}

/** Whether the step shows hand h's last trick won: its points are known from here on. @param {Step} step */
function handDone(step) {
  const tricks = R.record.hands[step.h].tricks;
  return step.k === tricks.length - 1 && step.k >= 0 && step.c === tricks[step.k].cards.length;
}

/** Whether the step is the game's last: only then is the final result shown. */
function atEnd() {
  return R.at === R.steps.length - 1;
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
  const none = t("no cards");
  return runs.length ? html`${runs}` : html`<span class="hint">${none}</span>`;
}

/**
 * Each seat's cards once c cards of trick k of hand h are played (k = -1: the deal, before
 * any passing).
 * @param {RecordHand} hand
 * @param {number} k
 * @param {number} c
 */
function cardsAt(hand, k, c) {
  const n = R.record.players.length;
  if (k < 0) return hand.deal.map((cards) => R.deck.sort(cards));
  /** @type {string[][]} */
  const out = Array.from({ length: n }, () => []);
  hand.tricks.slice(k).forEach((t, i) => {
    t.cards.forEach((code, j) => {
      if (i > 0 || j >= c) out[(t.leader + j) % n].push(code.replace(/\+$/, ""));
    });
  });
  return out.map((cards) => R.deck.sort(cards));
}

/** The seat that receives what `seat` passes (the lobby's pass_direction). @param {number} seat @param {number} n */
function passTarget(seat, n) {
  const dir = (R.lobby && R.lobby.pass_direction) || "right";
  const offset = dir === "left" ? 1 : dir === "across" ? Math.floor(n / 2) : n - 1;
  return (seat + offset) % n;
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
  const complete = Boolean(trick && step.c === trick.cards.length);
  const done = handDone(step);
  $("r-slider", HTMLInputElement).value = String(R.at);
  const handNo = t("Hand {number}/{count}", { number: hand.number, count: rec.hands.length });
  const roundName = t(hand.round); // the ruleset's words: in the catalog
  const where = trick
    ? t("trick {number} of {count}", { number: step.k + 1, count: tricksN })
    : step.pass
      ? t("the passes")
      : t("the deal");
  setHTML(
    $("round-line"),
    html`<span class="hand-no">${handNo}</span><span class="round-name">${roundName}</span><span class="penalty">${where}</span>`,
  );
  /** @type {number[]} */
  const won = Array(n).fill(0);
  if (step.k >= 0) hand.tricks.slice(0, complete ? step.k + 1 : step.k).forEach((tr) => (won[tr.winner] += 1));
  const remaining = cardsAt(hand, step.k, step.c);
  // A phone: no room for the hands on the plates; they go in a list under the felt.
  const phone = window.innerWidth < 640 || window.innerHeight < 500;
  /** @type {Html[]} */
  const listed = [];
  const lastTrick = done;
  /** @type {Html[]} */
  const seats = [];
  for (let i = 0; i < n; i++) {
    const p = pos(i, n, 41, 41);
    const cls = ["seat"];
    if (trick && complete && trick.winner === i) cls.push("turn");
    if (atEnd() && rec.winners && rec.winners.includes(i)) cls.push("winner");
    const cards = handText(remaining[i]);
    listed.push(html`<li><span class="dot" style="background:${SEAT_COLOURS[i % SEAT_COLOURS.length]}"></span><b>${nm[i]}</b> ${cards}</li>`);
    const pts =
      lastTrick && hand.points ? html`<span class="pen ${hand.points[i] ? "" : "zero"}">+${points(hand.points[i])}</span>` : "";
    const dealerWord = t("dealer");
    const dealer = hand.dealer === i ? html`<span class="chip chip-dealer">${dealerWord}</span>` : "";
    const tricksWon = tn("{n} trick", "{n} tricks", won[i]);
    seats.push(html`<div class="${cls.join(" ")}" style="left:${p.x}%;top:${p.y}%;max-width:${phone ? 7.5 : 16}rem"><div class="name"><span class="dot" style="display:inline-block;width:9px;height:9px;border-radius:50%;background:${
      SEAT_COLOURS[i % SEAT_COLOURS.length]
    }"></span>${nm[i]}</div><div class="info">${pts}<span>${tricksWon}</span></div><div class="flags">${dealer}</div>${
      phone ? "" : html`<div class="replay-hands">${cards}</div>`
    }</div>`);
  }
  setHTML($("seats"), html`${seats}`);
  const list = $("replay-hands-list");
  list.hidden = !phone;
  setHTML(list, phone ? html`${listed}` : html``);
  $("felt").dataset.n = String(n);
  clampPlates($("felt"));
  /** @type {Html[]} */
  const trickCards = [];
  if (trick) {
    trick.cards.slice(0, step.c).forEach((code, j) => {
      const seat = (trick.leader + j) % n;
      const place = trickPlace(seatAngle(seat, n), j, n, portrait());
      const who = j === 0 ? t("{name} · led", { name: nm[seat] }) : nm[seat];
      trickCards.push(
        html`<div class="trick-card ${place.cls} ${complete && seat === trick.winner ? "won" : ""}" data-card="${code}" style="${
          place.style
        }">${cardSVG(R.deck, code)}<span class="who">${who}</span></div>`,
      );
    });
  }
  setHTML($("trick"), html`${trickCards}`);
  let center = html``;
  const passes = passesOf(hand);
  if (step.pass && passes) {
    const title = t("The passes");
    center = html`<div class="panel replay-passes" id="replay-passes"><h2>${title}</h2>${passes.map(
      (cards, i) => html`<div class="replay-pass"><span class="who">${nm[i]} → ${nm[passTarget(i, n)]}</span><span class="replay-pass-cards">${cards.map(
        (code) => html`<span class="replay-pass-card" data-card="${code}">${cardSVG(R.deck, code)}</span>`,
      )}</span></div>`,
    )}</div>`;
  } else if (!trick) {
    const extra = [];
    if (hand.trump) {
      const s = R.deck.suits.find((x) => x.letter === hand.trump);
      extra.push(t("trump {suit}", { suit: s ? t(s.name) : hand.trump })); // the ruleset's words: in the catalog
    }
    if (passes) extra.push(t("cards are passed next"));
    // the ruleset's words: in the catalog
    const note = t("Hand {number}: {round} — {name} deals", { number: hand.number, round: t(hand.round), name: nm[hand.dealer] });
    center = html`<div class="center-note">${note}${extra.length ? ` · ${extra.join(" · ")}` : ""}</div>`;
  }
  setHTML($("center"), center);
  // The end of a hand goes below the felt, never over the trick that ends it.
  const end = $("hand-end");
  end.hidden = !(lastTrick && hand.points);
  if (lastTrick && hand.points) {
    const pts = hand.points;
    const scores = pts.map((p, i) => `${nm[i]} ${points(p)}`).join(" · ");
    end.textContent = t("End of hand {number}: {scores}", { number: hand.number, scores });
  }
  let status = t("The deal of hand {number}", { number: hand.number });
  if (step.pass) status = t("Hand {number}: the cards passed", { number: hand.number });
  else if (trick && complete) status = t("{leader} led · {winner} took the trick", { leader: nm[trick.leader], winner: nm[trick.winner] });
  else if (trick) {
    const seat = (trick.leader + step.c - 1) % n;
    const params = { name: nm[seat], card: R.deck.name(trick.cards[step.c - 1]) };
    status = step.c === 1 ? t("{name} leads the {card}", params) : t("{name} plays the {card}", params);
  }
  $("status").textContent = status;
  renderScores(step);
}

/** @param {Step} step */
function scoresHTML(step) {
  const rec = R.record;
  const nm = names();
  const upto = step.h + (handDone(step) ? 1 : 0);
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
    winners: finished && atEnd() ? rec.winners : [],
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
  // The final result only at the last step: a replay keeps its ending to itself.
  const words = {
    final: t("Final"),
    winners: won.length > 1 ? t("Winners:") : t("Winner:"),
    unfinished: t("Unfinished game"),
    totals: t("Totals: {totals}", { totals: R.record.totals.map((total, i) => `${names()[i]} ${points(total)}`).join(" · ") }),
    sheet: t("Score sheet"),
  };
  const final = atEnd()
    ? html`<div class="panel" id="replay-final"><h2>${words.final}</h2><p>${
        winners ? html`${words.winners} <b>${winners}</b>` : words.unfinished
      }</p><p class="hint">${words.totals}</p></div>`
    : "";
  setHTML($("side"), html`<div class="panel"><h2>${words.sheet}</h2>${scoresHTML(step)}</div>${final}`);
  if ($("dlg-scores", HTMLDialogElement).open) setHTML($("scores-body"), scoresHTML(step));
}

/** @param {number} at */
function go(at) {
  R.at = Math.max(0, Math.min(R.steps.length - 1, at));
  render();
}

/** The next (dir 1) or previous (dir -1) step that ends a trick. @param {number} dir */
function jumpTrick(dir) {
  for (let i = R.at + dir; i >= 0 && i < R.steps.length; i += dir) {
    if (trickStop(R.steps[i])) {
      go(i);
      return;
    }
  }
  go(dir < 0 ? 0 : R.steps.length - 1);
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
    const words = { title: t("No replay"), back: t("Back to the table") };
    setHTML(
      $("center"),
      html`<div class="panel"><h2>${words.title}</h2><p>${errorText(err)}</p><a class="btn btn-primary" href="/table/${enc}">${words.back}</a></div>`,
    );
    toast(errorText(err));
    return;
  }
  document.title =
    R.lobby && R.lobby.title ? t("Salad — replay of {title}", { title: R.lobby.title }) : t("Salad — replay of a game");
  R.steps = buildSteps();
  const slider = $("r-slider", HTMLInputElement);
  slider.max = String(Math.max(0, R.steps.length - 1));
  slider.oninput = () => go(Number(slider.value));
  $("r-prev").onclick = () => jumpTrick(-1);
  $("r-next").onclick = () => jumpTrick(1);
  $("r-card-prev").onclick = () => go(R.at - 1);
  $("r-card-next").onclick = () => go(R.at + 1);
  $("r-first").onclick = () => jumpHand(-1);
  $("r-last").onclick = () => jumpHand(1);
  $("btn-scores").onclick = () => {
    setHTML($("scores-body"), scoresHTML(R.steps[R.at]));
    $("dlg-scores", HTMLDialogElement).showModal();
  };
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof Element && e.target.closest("input")) return;
    if (e.key === "ArrowRight") jumpTrick(1);
    else if (e.key === "ArrowLeft") jumpTrick(-1);
    else if (e.key === "." || e.key === "ArrowDown") go(R.at + 1);
    else if (e.key === "," || e.key === "ArrowUp") go(R.at - 1);
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
