// @ts-check
// The review of a finished game, on the replay page: a "Review" button (and
// /replay/{id}?game=N&review=S opens it for seat S) starts the server's review of a seat on its
// bot worker pool, shows its progress, then steps through the seat's decisions: the trick so
// far, the card played and the best card with the points the search expects after each, the
// cost and its label; and a chart of the points lost over the game. The numbers are the
// server's stored review, the same as `salad review RECORD --seat S --json` prints.

import { ApiError, api, errorText, store, tableIdFromPath } from "./api.js";
import { cardSVG, Deck } from "./cards.js";
import { $, html, setHTML } from "./dom.js";
import { number, t, tn } from "./i18n.js";

/** @typedef {import("./dom.js").Html} Html */
/** @typedef {import("./types.js").GameRecord} GameRecord */
/** @typedef {{move: string, points: number, se: number}} Estimate */
/**
 * @typedef {object} Decision
 * @property {number} index
 * @property {number} hand
 * @property {string} round
 * @property {number} trick 0 for a pass or a trump choice
 * @property {"play" | "pass" | "trump"} kind
 * @property {string} chosen
 * @property {string} best
 * @property {Estimate[]} estimates best first
 * @property {number} cost
 * @property {number} noise
 * @property {"good" | "inaccuracy" | "mistake" | "blunder"} label
 * @property {number} worlds
 */
/** @typedef {{hand: number, round: string, points: number, lost: number, dealt: number, decisions: number}} HandSummary */
/**
 * @typedef {object} SeatReview
 * @property {number} seat
 * @property {string} name
 * @property {number} points
 * @property {number} lost
 * @property {number} dealt
 * @property {HandSummary[]} hands
 * @property {Decision[]} decisions
 * @property {number[]} costliest
 */
/** @typedef {{unit: number, inaccuracy: number, mistake: number, blunder: number}} Thresholds */
/** @typedef {{players: string[], worlds: number, thresholds: Thresholds, seats: SeatReview[]}} GameReview */
/** @typedef {{status: "none" | "running" | "done" | "failed", done?: number, total?: number, review?: GameReview, error?: string}} ReviewStatus */

const tableId = tableIdFromPath() || "";
const enc = encodeURIComponent(tableId);
const params = new URLSearchParams(location.search);
const game = Number(params.get("game") || "1") || 1;
const POLL_MS = 400;

const V = {
  deck: new Deck(null),
  /** @type {GameRecord | null} */
  record: null,
  seat: 0,
  /** @type {SeatReview | null} */
  review: null,
  /** @type {Thresholds | null} */
  limits: null,
  at: 0,
  /** @type {number | undefined} */
  timer: undefined,
  /** Start at once (the results screen's "Review" link): no seat to choose. */
  auto: false,
  /** The legend of the numbers is open (it stays so from decision to decision). */
  legend: false,
};

/** @param {number} x */
const pts = (x) => number(x, { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** A decision's label in words ("mistake"). @param {string} label */
function labelText(label) {
  if (label === "inaccuracy") return t("inaccuracy");
  if (label === "mistake") return t("mistake");
  if (label === "blunder") return t("blunder");
  if (label === "forced") return t("forced");
  return t("good");
}

/** Where a decision is: "Hand 3 trick 4" (or "Hand 3" for a pass or a trump choice).
 * @param {{hand: number, trick: number}} d */
function handTrick(d) {
  return d.trick ? t("Hand {hand} trick {trick}", { hand: d.hand, trick: d.trick }) : t("Hand {hand}", { hand: d.hand });
}

const MARGIN = t("The search's margin: the true figure is likely within this much of its estimate");
/** An estimate and its margin ("4.2 ± 1.3"), the margin explained on hover.
 * @param {Estimate} e @param {boolean} [bold] */
const est = (e, bold = false) =>
  html`${bold ? html`<b>${pts(e.points)}</b>` : pts(e.points)} <span title="${MARGIN}">± ${pts(e.se)}</span>`;

/** What the review's words and signs mean, in a player's words. @param {number} worlds */
function legendHTML(worlds) {
  const w = {
    title: t("What the numbers mean"),
    lost: t("Lost to choices"),
    lostText: t("The points better choices would have saved, as the search estimates them."),
    forced: t("Forced by the deal"),
    forcedText: t(
      "The rest of the points taken: what these cards cost whatever was played (points taken minus those lost to choices; below zero when the search's estimates of the losses add up to more than the points taken).",
    ),
    worlds: tn("{n} world", "{n} worlds", worlds),
    worldsText: tn(
      "The search cannot see the other hands: it plays each choice out in {n} deal of the hidden cards that fit what this seat had seen, and averages them.",
      "The search cannot see the other hands: it plays each choice out in {n} deals of the hidden cards that fit what this seat had seen, and averages them.",
      worlds,
    ),
    margin: t("± (plus or minus)"),
    marginText: t("The margin of an average over those deals (one standard error): the true figure is likely within that much of it."),
  };
  return html`<details class="review-legend" id="review-legend" ${V.legend ? "open" : ""}><summary>${w.title}</summary><dl>
<dt>${w.lost}</dt><dd>${w.lostText}</dd>
<dt>${w.forced}</dt><dd>${w.forcedText}</dd>
<dt>${w.worlds}</dt><dd>${w.worldsText}</dd>
<dt>${w.margin}</dt><dd>${w.marginText}</dd></dl></details>`;
}

function path() {
  return `/api/tables/${enc}/games/${game}/review?seat=${V.seat}`;
}

function names() {
  return V.record ? V.record.players.map((p, i) => p.name || t("Seat {n}", { n: i })) : [];
}

/** The dialog, made once. */
function dialog() {
  const found = document.getElementById("dlg-review");
  if (found instanceof HTMLDialogElement) return found;
  const dlg = document.createElement("dialog");
  dlg.id = "dlg-review";
  dlg.className = "review-dialog";
  dlg.setAttribute("aria-labelledby", "dlg-review-title");
  const w = { title: t("Game review"), close: t("Close") };
  setHTML(
    dlg,
    html`<div class="dialog-head"><h2 id="dlg-review-title">${w.title}</h2><button class="close" id="review-close" aria-label="${w.close}">×</button></div><div id="review-body"></div>`,
  );
  document.body.append(dlg);
  $("review-close").onclick = () => dlg.close();
  dlg.addEventListener("close", () => window.clearTimeout(V.timer));
  return dlg;
}

/** @param {Html} markup */
function show(markup) {
  setHTML($("review-body"), markup);
}

function chooser() {
  const options = names().map((name, i) => html`<option value="${i}" ${i === V.seat ? "selected" : ""}>${name}</option>`);
  const w = {
    intro: t(
      "For every choice of a seat, the expert's search estimates the points the seat would take in the hand after each legal choice, from what that seat knew at that moment. The cost of a choice is what it gave away against the best one.",
    ),
    seat: t("Seat"),
    go: t("Review this seat"),
  };
  show(html`<p class="hint">${w.intro}</p>
<div class="review-start"><label>${w.seat} <select id="review-seat">${options}</select></label>
<button class="btn btn-primary" id="review-go" type="button">${w.go}</button></div>`);
  const select = $("review-seat", HTMLSelectElement);
  select.onchange = () => (V.seat = Number(select.value));
  $("review-go").onclick = () => begin();
}

/** @param {number} done @param {number} total */
function progress(done, total) {
  const pct = total ? Math.round((100 * done) / total) : 0;
  const name = names()[V.seat] || t("seat {n}", { n: V.seat });
  const w = {
    reviewing: t("Reviewing the choices of {name} on the server…", { name }),
    count: t("{done} of {total} decisions", { done: number(done), total: total ? number(total) : "?" }),
  };
  show(html`<p>${w.reviewing}</p>
<div class="review-progress" id="review-progress" role="progressbar" aria-valuemin="0" aria-valuemax="${total}" aria-valuenow="${done}"><div class="review-bar" style="width:${pct}%"></div></div>
<p class="hint" id="review-count">${w.count}</p>`);
}

/** @param {string} message */
function failed(message) {
  const back = t("Back");
  show(html`<p class="review-error" role="alert">${message}</p><button class="btn" id="review-back" type="button">${back}</button>`);
  $("review-back").onclick = chooser;
}

/** @param {ReviewStatus} status */
function answer(status) {
  window.clearTimeout(V.timer);
  if (status.status === "done" && status.review) {
    V.review = status.review.seats[0];
    V.limits = status.review.thresholds;
    const worst = V.review.costliest[0];
    V.at = worst === undefined ? 0 : worst;
    done();
  } else if (status.status === "running") {
    progress(status.done || 0, status.total || 0);
    V.timer = window.setTimeout(poll, POLL_MS);
  } else if (status.status === "failed") {
    failed(status.error || t("the review failed"));
  } else {
    chooser();
  }
}

async function poll() {
  try {
    answer(await api("GET", path(), undefined, store.token(tableId)));
  } catch (err) {
    failed(errorText(err));
  }
}

async function begin() {
  progress(0, 0);
  try {
    answer(await api("POST", path(), undefined, store.token(tableId)));
  } catch (err) {
    failed(errorText(err));
  }
}

/** A move as a player reads it ("Q♠", or the move's own words for a pass or a trump choice).
 * @param {string} move */
function say(move) {
  return V.deck && !move.includes(":") && !move.includes(" ") ? V.deck.short(move) : move;
}

/** @param {string} code */
function card(code) {
  return html`<span class="review-card">${cardSVG(V.deck, code)}</span>`;
}

/** The cards played before the seat's in its trick. @param {Decision} d */
function trickSoFar(d) {
  const rec = V.record;
  if (!rec || d.kind !== "play") return [];
  const trick = (rec.hands[d.hand - 1].tricks || [])[d.trick - 1];
  if (!trick) return [];
  const n = rec.players.length;
  return trick.cards.slice(0, (V.seat - trick.leader + n) % n);
}

/** The points lost over the game, decision by decision: an inline SVG line chart. */
function chart() {
  const r = V.review;
  if (!r || !r.decisions.length) return html``;
  const W = 640;
  const H = 150;
  const pad = { l: 36, r: 8, t: 10, b: 22 };
  const n = r.decisions.length;
  /** @type {number[]} */
  const sums = [];
  r.decisions.reduce((s, d) => (sums.push(s + d.cost), s + d.cost), 0);
  const top = Math.max(10, ...sums);
  /** @param {number} i */
  const x = (i) => pad.l + ((W - pad.l - pad.r) * (i + 1)) / n;
  /** @param {number} v */
  const y = (v) => H - pad.b - ((H - pad.t - pad.b) * v) / top;
  const line = [`${pad.l},${y(0)}`, ...sums.map((s, i) => `${x(i).toFixed(1)},${y(s).toFixed(1)}`)].join(" ");
  const hands = r.hands.map((h) => {
    const first = r.decisions.findIndex((d) => d.hand === h.hand);
    if (first < 0) return html``;
    const hx = (x(first) - (W - pad.l - pad.r) / n).toFixed(1);
    const tick = t("H{hand}", { hand: h.hand }); // a hand's tick on the chart: "H3"
    return html`<line x1="${hx}" x2="${hx}" y1="${pad.t}" y2="${H - pad.b}" class="hand-rule"/><text x="${Number(hx) + 3}" y="${H - 6}" class="axis">${tick}</text>`;
  });
  const dots = r.decisions
    .filter((d) => d.label !== "good")
    .map((d) => {
      const words = { where: handTrick(d), move: say(d.chosen), cost: pts(d.cost), label: labelText(d.label) };
      const title = t("{where}: {move}, {cost} lost ({label})", words);
      return html`<circle cx="${x(d.index).toFixed(1)}" cy="${y(sums[d.index]).toFixed(1)}" r="${d.label === "blunder" ? 5 : d.label === "mistake" ? 4 : 3}" class="dot ${d.label}" data-index="${d.index}"><title>${title}</title></circle>`;
    });
  const cx = x(V.at).toFixed(1);
  const label = t("Points lost over the game: {lost} in all", { lost: pts(r.lost) });
  return html`<svg class="review-chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${label}">
<line x1="${pad.l}" x2="${W - pad.r}" y1="${y(0)}" y2="${y(0)}" class="axis-line"/>
<text x="2" y="${y(top) + 4}" class="axis">${number(Math.round(top))}</text><text x="2" y="${y(0)}" class="axis">0</text>
${hands}<line x1="${cx}" x2="${cx}" y1="${pad.t}" y2="${H - pad.b}" class="now"/>
<polyline points="${line}" class="lost"/>${dots}</svg>`;
}

/** One decision: where, the trick so far, played and best with their estimates. @param {Decision} d */
function decisionHTML(d) {
  const played = d.estimates.find((e) => e.move === d.chosen);
  const best = d.estimates.find((e) => e.move === d.best);
  const where =
    d.kind === "play" ? t("trick {number}", { number: d.trick }) : d.kind === "pass" ? t("passing") : t("trump choice");
  const before = trickSoFar(d);
  const marks = { bestPlayed: t("best, played"), best: t("best"), played: t("played") };
  const rows = d.estimates.map((e) => {
    const mark =
      e.move === d.best ? (e.move === d.chosen ? marks.bestPlayed : marks.best) : e.move === d.chosen ? marks.played : "";
    return html`<tr class="${e.move === d.chosen ? "chosen" : ""}"><td>${say(e.move)}</td><td>${est(e)}</td><td>${mark}</td></tr>`;
  });
  const forced = d.estimates.length === 1;
  const w = {
    hand: t("Hand {hand}", { hand: d.hand }),
    round: t(d.round), // the ruleset's words: in the catalog
    label: labelText(forced ? "forced" : d.label),
    sofar: t("Trick so far"),
    played: t("Played {move}", { move: say(d.chosen) }),
    best: t("Best {move}", { move: say(d.best) }),
    only: t("The only choice."),
    cost: t("Cost:"),
    points: tn("{n} point", "{n} points", d.cost, { n: pts(d.cost) }),
    noise: t("Cost: 0 (within the search's noise)"),
    worldsTitle: tn(
      "Each choice played out in {n} deal of the hidden cards",
      "Each choice played out in {n} deals of the hidden cards",
      d.worlds,
    ),
    worlds: tn("{n} world", "{n} worlds", d.worlds),
    every: t("Every choice (points expected in the hand)"),
  };
  const cost = forced ? w.only : d.cost > 0 ? html`${w.cost} <b>${w.points}</b>` : w.noise;
  return html`<div class="review-decision" id="review-decision" data-label="${d.label}">
<div class="review-where"><b>${w.hand}</b> · ${w.round} · ${where}<span class="badge ${d.label}">${w.label}</span></div>
${before.length ? html`<div class="review-trick"><span class="hint">${w.sofar}</span>${before.map(card)}</div>` : ""}
<div class="review-pair"><figure>${card(d.chosen)}<figcaption data-move="${d.chosen}">${w.played}${
    played && !forced ? html`<br/>${est(played, true)}` : ""
  }</figcaption></figure>${
    d.best !== d.chosen && best
      ? html`<figure class="best">${card(d.best)}<figcaption data-move="${d.best}">${w.best}<br/>${est(best, true)}</figcaption></figure>`
      : ""
  }</div>
<p class="review-cost">${cost}${forced ? "" : html` <span class="hint" title="${w.worldsTitle}">· ${w.worlds}</span>`}</p>
${forced ? "" : html`<details><summary>${w.every}</summary><table class="review-table">${rows}</table></details>`}
</div>`;
}

function done() {
  const r = V.review;
  if (!r) return;
  const d = r.decisions[V.at];
  const limits = V.limits;
  const costly = r.costliest.map((i) => {
    const c = r.decisions[i];
    const link = t("{where}: {move} for {best}", { where: handTrick(c), move: say(c.chosen), best: say(c.best) });
    return html`<li><a href="#" data-index="${i}">${link}</a>, ${pts(c.cost)} (${labelText(c.label)})</li>`;
  });
  // The bold figure goes in the sentence's place: "{lost}" in the translated sentence.
  const [before, after = ""] = tn(
    "{name}: {n} point: {lost} lost to choices, {dealt} forced by the deal.",
    "{name}: {n} points: {lost} lost to choices, {dealt} forced by the deal.",
    r.points,
    { name: r.name, dealt: pts(r.dealt) },
  ).split("{lost}");
  const w = {
    labels: limits
      ? t("Labels: inaccuracy from {inaccuracy}, mistake from {mistake}, blunder from {blunder} points lost.", {
          inaccuracy: pts(limits.inaccuracy),
          mistake: pts(limits.mistake),
          blunder: pts(limits.blunder),
        })
      : "",
    prev: t("Previous decision"),
    at: t("Decision {number} of {count}", { number: V.at + 1, count: r.decisions.length }),
    next: t("Next decision"),
    nextMistake: t("Next mistake"),
    show: t("Show in replay"),
    other: t("Another seat"),
    costliest: t("Costliest choices"),
    none: t("No choice cost points the search could measure."),
  };
  show(html`<p class="review-summary">${before}<b>${pts(r.lost)}</b>${after}</p>
${legendHTML(Math.max(0, ...r.decisions.map((x) => x.worlds)))}
${chart()}
${limits ? html`<p class="hint">${w.labels}</p>` : ""}
<div class="review-step"><button class="btn btn-small" id="review-prev" type="button" aria-label="${w.prev}">◀</button>
<span id="review-at">${w.at}</span>
<button class="btn btn-small" id="review-next" type="button" aria-label="${w.next}">▶</button>
<button class="btn btn-small btn-primary" id="review-next-costly" type="button">${w.nextMistake} ▶</button>
<button class="btn btn-small" id="review-show" type="button" ${d && d.kind === "play" ? "" : "disabled"}>${w.show}</button>
<button class="btn btn-small btn-ghost" id="review-other" type="button">${w.other}</button></div>
${d ? decisionHTML(d) : ""}
${costly.length ? html`<h3>${w.costliest}</h3><ol class="review-costliest">${costly}</ol>` : html`<p>${w.none}</p>`}`);
  const body = $("review-body");
  /** @param {number} i */
  const go = (i) => {
    V.at = Math.max(0, Math.min(r.decisions.length - 1, i));
    done();
  };
  $("review-prev").onclick = () => go(V.at - 1);
  $("review-next").onclick = () => go(V.at + 1);
  $("review-next-costly").onclick = () => {
    const next = r.decisions.findIndex((x) => x.index > V.at && x.label !== "good");
    go(next >= 0 ? next : r.decisions.findIndex((x) => x.label !== "good"));
  };
  $("review-other").onclick = chooser;
  const legend = $("review-legend", HTMLDetailsElement);
  legend.ontoggle = () => (V.legend = legend.open);
  $("review-show").onclick = () => {
    if (!d) return;
    const card = trickSoFar(d).length + 1; // the seat's card: the replay shows it played
    window.dispatchEvent(new CustomEvent("salad:show-trick", { detail: { hand: d.hand, trick: d.trick, card } }));
    dialog().close();
  };
  body.querySelectorAll("[data-index]").forEach((el) =>
    el.addEventListener("click", (e) => {
      e.preventDefault();
      go(Number(el.getAttribute("data-index")));
    }),
  );
}

async function open() {
  dialog().showModal();
  if (V.review) return done();
  if (!V.record) {
    try {
      const [record, lobby] = await Promise.all([
        api("GET", `/api/tables/${enc}/record?game=${game}`),
        api("GET", `/api/tables/${enc}`),
      ]);
      V.record = record;
      V.deck = new Deck(lobby.deck);
    } catch (err) {
      return failed(errorText(err));
    }
  }
  try {
    // The seat's token, or else the player's cookie (a seat of theirs, on any device).
    /** @type {ReviewStatus} */
    const status = await api("GET", path(), undefined, store.token(tableId));
    if (status.status === "none" && V.auto) begin();
    else if (status.status === "none") chooser();
    else answer(status);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) {
      return failed(
        t("Only the players of this table can review its games (open the table from the browser you played in, or sign in there)."),
      );
    }
    failed(errorText(err));
  }
}

function mount() {
  const tools = document.querySelector("nav.tools");
  if (!tools || document.getElementById("btn-review")) return;
  const button = document.createElement("button");
  button.className = "tool";
  button.id = "btn-review";
  button.type = "button";
  button.title = t("Review a seat's choices: the expert's search on every decision");
  const label = t("Review");
  setHTML(
    button,
    html`<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M10 3a7 7 0 0 1 5.6 11.2l5.1 5.1-1.4 1.4-5.1-5.1A7 7 0 1 1 10 3zm0 2a5 5 0 1 0 0 10 5 5 0 0 0 0-10z" fill="currentColor"/></svg><span class="label">${label}</span>`,
  );
  button.onclick = () => {
    V.review = null;
    open();
  };
  tools.prepend(button);
  const asked = params.get("review");
  if (asked !== null && /^\d+$/.test(asked)) {
    V.seat = Number(asked);
    V.auto = true;
    open();
  }
}

mount();
