// @ts-check
// The score sheet page: a table with real cards enters what each player took, hand by hand.
//
// The server's model (salad.sheet, through /api/sheets/...) checks and scores everything;
// this page only asks the questions it is given, shows the answers, and keeps the sheet
// (salad-score/1 JSON) in localStorage, sending it back with every call.

import { api, ApiError, errorText } from "./api.js";
import { Deck } from "./cards.js";
import { $, all, first, html, setHTML, toast } from "./dom.js";
import { t, tn } from "./i18n.js";
import { rulesForm } from "./rulesform.js";
import { lineChart, markedText, markedWords, markScroll, points, roundHTML, SEAT_COLOURS } from "./scores.js";
import { loadPrefs, mountLogo, trophy } from "./ui.js";

/** @typedef {import("./dom.js").Html} Html */
/** @typedef {import("./types.js").Options} Options */

/**
 * A question of the entry form (the model's `fields` of a hand).
 * @typedef {object} Field
 * @property {string} id
 * @property {string} label
 * @property {string} question
 * @property {number} points
 * @property {boolean} per_player a count for each player, else one player picked
 * @property {number} total what a count question's counts add up to (the hand's tricks, or
 *   the cards of that kind in play)
 * @property {import("./messages.js").Mark | null} [mark] the suit or card it counts, to draw
 */

/**
 * An entered hand of the summary.
 * @typedef {object} SummaryHand
 * @property {number} number
 * @property {number[]} points
 * @property {number[]} running
 * @property {number[]} leaders
 * @property {number | null} moon
 * @property {number} sum
 * @property {number | null} expected
 * @property {Record<string, unknown>} took the answers entered
 */

/**
 * The model's summary of the sheet.
 * @typedef {object} Summary
 * @property {string} title
 * @property {string[]} players
 * @property {boolean} highest_wins
 * @property {number} hand_count
 * @property {SummaryHand[]} hands
 * @property {{dealer: number | null, trump_picker: number | null, moon: boolean} | null} next
 * @property {boolean} over
 * @property {number[]} totals
 * @property {number} total
 * @property {number[]} standings
 * @property {number[]} winners
 * @property {number[]} leaders
 * @property {number | null} checksum
 * @property {{series: import("./scores.js").Series[], labels: string[]}} chart
 */

/**
 * An answer of the sheet API: the sheet (salad-score/1), its summary, the rounds' names and
 * each hand's questions, the deck (its suits' drawings) and the suits or cards each round names.
 * @typedef {object} Answer
 * @property {unknown} sheet
 * @property {Summary} summary
 * @property {string[]} rounds
 * @property {Field[][]} fields
 * @property {import("./messages.js").Deck} [deck]
 * @property {import("./messages.js").Mark[][]} [marks]
 */

const STORE_KEY = "salad.scoresheet"; // the browser key of saved sheets: kept as first published

const rules = rulesForm("s", { onChange: () => renderNames() });
/** @type {Answer | null} */
let current = null; // the last answer of the server: {sheet, summary, rounds, fields}
/** @type {number | null} */
let editing = null; // the index of the hand being corrected, or null for the next hand
/** @type {Record<string, unknown> | null} */
let prefill = null; // answers to show in the entry form ({field id: answer}), e.g. after undo

/** @type {{spec: unknown, deck: Deck} | null} */
let deckMemo = null;

/** The deck of the current sheet (its suits' drawings), made once per answer's deck. */
function deck() {
  const spec = now().deck;
  if (!deckMemo || deckMemo.spec !== spec) deckMemo = { spec, deck: new Deck(spec) };
  return deckMemo.deck;
}

/** The suits or cards hand `index`'s round names. @param {number} index */
function roundMarks(index) {
  return (now().marks || [])[index] || [];
}

/** The current answer; only called once there is one. */
function now() {
  if (!current) throw new Error("no score sheet yet");
  return current;
}

// -- keeping the sheet ------------------------------------------------------------------------

function saved() {
  try {
    const text = localStorage.getItem(STORE_KEY);
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/** @param {unknown} sheet */
function keep(sheet) {
  try {
    if (sheet) localStorage.setItem(STORE_KEY, JSON.stringify(sheet));
    else localStorage.removeItem(STORE_KEY);
  } catch {
    /* private mode: the sheet lasts as long as the page */
  }
}

/** @param {Answer} answer */
function adopt(answer) {
  current = answer;
  keep(answer.sheet);
  render();
}

/** @param {string} name @param {string} text @param {string} type */
function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function fileStem() {
  const day = new Date().toISOString().slice(0, 10);
  return `salad-score-${day}`;
}

// -- small formatting ---------------------------------------------------------------------------

/** @param {string[]} names */
function nameList(names) {
  if (names.length <= 1) return names.join("");
  return t("{names} and {last}", { names: names.slice(0, -1).join(", "), last: names[names.length - 1] });
}

/** @param {number[]} seats */
function who(seats) {
  return nameList(seats.map((s) => now().summary.players[s]));
}

/** Places as the model gives them, with "=" when a place is shared. @param {number[]} standings */
function placeLabels(standings) {
  return standings.map((p) => `${points(p)}${standings.filter((q) => q === p).length > 1 ? "=" : ""}`);
}

/** @param {Field} field */
function cost(field) {
  return field.per_player ? t("{points} each", { points: points(field.points) }) : points(field.points);
}

/** @param {HTMLElement} box @param {string[]} problems @param {string} intro */
function showProblems(box, problems, intro) {
  if (!problems.length) {
    box.hidden = true;
    box.innerHTML = "";
    return;
  }
  setHTML(box, html`<p><b>${intro}</b></p><ul>${problems.map((p) => html`<li>${p}</li>`)}</ul>`);
  box.hidden = false;
}

// -- the setup form -------------------------------------------------------------------------------

/** @param {string[]} [names] */
function renderNames(names) {
  const box = $("s-names");
  const old = names || all(box, "input", HTMLInputElement).map((i) => i.value);
  const count = $("s-players", HTMLInputElement);
  const min = Number(count.min) || 2;
  const max = Number(count.max) || 16;
  const n = Math.max(min, Math.min(max, Number(count.value) || 4));
  /** @type {Html[]} */
  const rows = [];
  for (let i = 0; i < n; i++) {
    const placeholder = t("Player {n}", { n: i + 1 });
    const label = t("Name of player {n}", { n: i + 1 });
    rows.push(html`<div class="name-row"><label for="s-name-${i}">${i + 1}</label><input type="text" id="s-name-${i}" maxlength="24" autocomplete="off" placeholder="${placeholder}" value="${
      old[i] || ""
    }" aria-label="${label}" /></div>`);
  }
  setHTML(box, html`${rows}`);
  for (const input of all(box, "input")) input.addEventListener("input", renderDealer);
  renderDealer();
}

function setupNames() {
  return all($("s-names"), "input", HTMLInputElement).map((input, i) => input.value.trim() || t("Player {n}", { n: i + 1 }));
}

function renderDealer() {
  const select = $("s-dealer", HTMLSelectElement);
  const was = select.value;
  const none = t("(not noted)");
  setHTML(
    select,
    html`<option value="">${none}</option>${setupNames().map(
      (n, i) => html`<option value="${i}" ${String(i) === was ? "selected" : ""}>${n}</option>`,
    )}`,
  );
}

function showSetup() {
  $("setup").hidden = false;
  $("intro").hidden = false;
  $("game").hidden = true;
  $("btn-cancel-new").hidden = !current;
  showProblems($("setup-problems"), [], "");
  if (current) {
    $("s-players", HTMLInputElement).value = String(current.summary.players.length);
    renderNames(current.summary.players);
  }
  $("s-name-0").focus();
}

/** @param {Event} e */
async function startSheet(e) {
  e.preventDefault();
  const names = setupNames();
  /** @type {Record<string, unknown>} */
  const body = { names, players: names.length, ...rules.request() };
  const dealer = $("s-dealer", HTMLSelectElement).value;
  if (dealer !== "") body.first_dealer = Number(dealer);
  const btn = $("btn-start", HTMLButtonElement);
  btn.disabled = true;
  try {
    editing = null;
    prefill = null;
    note("");
    adopt(await call("/api/sheets/new", body));
    showProblems($("setup-problems"), [], "");
    focusEntry();
  } catch (err) {
    showProblems($("setup-problems"), splitProblems(err), t("The sheet cannot start:"));
  } finally {
    btn.disabled = false;
  }
}

/** An error's problems: the list the API sent, or its one line. @param {unknown} err */
function splitProblems(err) {
  return (err instanceof ApiError && err.problems) || [errorText(err)];
}

// -- talking to the model ---------------------------------------------------------------------

/**
 * Like api(), but a refusal keeps the model's list of problems (err.problems).
 * @param {string} path
 * @param {unknown} body
 * @returns {Promise<any>}
 */
async function call(path, body) {
  let response;
  try {
    response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError(t("cannot reach the server ({error})", { error: errorText(err) }), 0);
  }
  const type = response.headers.get("content-type") || "";
  if (response.ok) return type.includes("json") ? response.json() : response.text();
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  const error = new ApiError((data && data.error) || `${response.status} ${response.statusText}`, response.status);
  if (data && Array.isArray(data.problems)) error.problems = data.problems;
  throw error;
}

// -- the entry form ---------------------------------------------------------------------------------

function handIndex() {
  return editing === null ? now().summary.hands.length : editing;
}

function renderEntry() {
  const current = now();
  const { summary } = current;
  const index = handIndex();
  const entry = $("entry");
  if (summary.over && editing === null) {
    entry.hidden = true;
    return;
  }
  entry.hidden = false;
  const fields = current.fields[index];
  const round = current.rounds[index];
  /** @type {Record<string, unknown>} */
  const old = editing !== null ? summary.hands[index].took : prefill || {};
  const drawnRound = roundHTML(deck(), round, roundMarks(index), 20);
  const heading =
    editing !== null
      ? t("Correcting hand {number}:", { number: index + 1 })
      : t("Hand {number} of {count}:", { number: index + 1, count: summary.hand_count });
  setHTML($("entry-title"), html`${heading} ${drawnRound}`);
  const info = [];
  const next = summary.next;
  if (editing === null && next) {
    if (next.dealer !== null) info.push(t("{name} deals.", { name: summary.players[next.dealer] }));
    if (next.trump_picker !== null) info.push(t("{name} picks the trump.", { name: summary.players[next.trump_picker] }));
    if (next.moon) info.push(t("A moon can be shot in this hand."));
  }
  if (editing !== null) info.push(t("Everything after this hand is recomputed."));
  $("entry-info").textContent = info.join(" ");
  $("entry-info").hidden = !info.length;
  const names = summary.players;
  const questions = fields.map((f, k) => {
    const qid = `q-${index}-${k}`;
    const label = markedWords(deck(), f.label, f.mark);
    const answer = old[f.id];
    let body;
    if (f.per_player) {
      const cols = names.length <= 4 ? names.length : Math.ceil(names.length / 2);
      const counts = names.map((name, s) => {
        const id = `e-${k}-${s}`;
        const value = Array.isArray(answer) ? answer[s] : "";
        return html`<div class="count"><label for="${id}">${name}</label><input type="text" id="${id}" inputmode="numeric" autocomplete="off" placeholder="0" data-field="${
          f.id
        }" data-seat="${s}" value="${value ?? ""}" aria-label="${`${label}: ${name}`}" /></div>`;
      });
      body = html`<div class="counts" style="--cols:${cols}">${counts}</div><p class="tally" data-tally="${f.id}" aria-live="polite"></p>`;
    } else {
      const picks = names.map((name, s) => {
        const id = `e-${k}-${s}`;
        const checked = answer === s ? "checked" : "";
        return html`<label class="pick-one" for="${id}"><input type="radio" id="${id}" name="e-${k}" value="${s}" data-field="${
          f.id
        }" data-seat="${s}" ${checked} aria-label="${`${label}: ${name}`}" /><span>${name}</span></label>`;
      });
      body = html`<div class="pick" role="radiogroup" aria-label="${markedWords(deck(), f.question, f.mark)}">${picks}</div>`;
    }
    return html`<fieldset class="question" data-field="${f.id}" aria-describedby="${qid}">
<legend>${markedText(deck(), f.label, f.mark, 18)} <span class="cost">${cost(f)}</span></legend>
<p class="hint" id="${qid}">${markedText(deck(), f.question, f.mark, 15)}</p>${body}</fieldset>`;
  });
  const nothing = t("Nothing to enter for this hand: no penalty card is in play.");
  setHTML($("entry-fields"), fields.length ? html`${questions}` : html`<p class="hint">${nothing}</p>`);
  tally(fields);
  $("entry-fields").oninput = () => tally(fields);
  $("btn-enter").textContent = editing !== null ? t("Save the correction") : t("Enter the hand");
  $("btn-cancel-fix").hidden = editing === null;
  $("entry-hint").hidden = !fields.some((f) => f.per_player);
}

/** Under each count question, while it is typed: how many of its tricks or cards are entered
 * so far against how many there are ("12 of 13 tricks"), and whether they add up.
 * @param {Field[]} fields */
function tally(fields) {
  for (const f of fields) {
    const line = document.querySelector(`[data-tally="${CSS.escape(f.id)}"]`);
    if (!(line instanceof HTMLElement)) continue;
    const inputs = all($("entry-fields"), "input", HTMLInputElement).filter((i) => i.dataset.field === f.id);
    const sum = inputs.reduce((n, i) => n + (/^\s*\d+\s*$/.test(i.value) ? Number(i.value) : 0), 0);
    const what = { sum: points(sum), total: points(f.total), what: f.label.toLowerCase(), left: points(Math.abs(f.total - sum)) };
    const left = f.total - sum;
    line.textContent =
      left === 0
        ? t("{sum} of {total} {what}: it adds up ✓", what)
        : left > 0
          ? t("{sum} of {total} {what} entered: {left} to go", what)
          : t("{sum} of {total} {what}: {left} too many", what);
    line.dataset.state = left === 0 ? "ok" : left > 0 ? "short" : "over";
  }
}

/** The form's answers: counts as numbers (an empty box is 0; a question left blank is left
 * out, so the model says it was not entered), anything else as typed for the model to judge. */
function collectEntry() {
  /** @type {Record<string, unknown>} */
  const entry = {};
  const fields = now().fields[handIndex()];
  for (const f of fields) {
    const inputs = all($("entry-fields"), "input", HTMLInputElement).filter((i) => i.dataset.field === f.id);
    if (f.per_player) {
      const texts = inputs.map((i) => i.value.trim());
      if (texts.every((text) => text === "")) continue;
      entry[f.id] = texts.map((text) => (text === "" ? 0 : /^[+-]?\d+$/.test(text) ? Number(text) : text));
    } else {
      const picked = inputs.find((i) => i.checked);
      if (picked) entry[f.id] = Number(picked.dataset.seat);
    }
  }
  return entry;
}

/** @param {Event} e */
async function submitEntry(e) {
  e.preventDefault();
  if (!current) return;
  const sheet = current.sheet;
  const entry = collectEntry();
  const index = handIndex();
  note("");
  const btn = $("btn-enter", HTMLButtonElement);
  btn.disabled = true;
  try {
    const checked = await call("/api/sheets/check", { sheet, entry, index });
    if (checked.problems.length) {
      showProblems($("problems"), checked.problems, t("Hand {number} does not add up, so it was not entered:", { number: index + 1 }));
      return;
    }
    const fixing = editing;
    const answer =
      fixing === null
        ? await call("/api/sheets/enter", { sheet, entry })
        : await call("/api/sheets/correct", { sheet, index, entry });
    editing = null;
    prefill = null;
    showProblems($("problems"), [], "");
    adopt(answer);
    note(fixing === null ? t("Hand {number} entered.", { number: index + 1 }) : t("Hand {number} corrected.", { number: index + 1 }));
    focusEntry();
  } catch (err) {
    if (err instanceof ApiError && err.problems) {
      showProblems($("problems"), err.problems, t("Hand {number} was not entered:", { number: index + 1 }));
    } else toast(errorText(err));
  } finally {
    btn.disabled = false;
  }
}

/** What just happened, above the form (read out by screen readers). @param {string} text */
function note(text) {
  $("entry-done").textContent = text;
  $("entry-done").hidden = !text;
}

function focusEntry() {
  const input = first($("entry-fields"), "input");
  if (input && !$("entry").hidden) input.focus();
}

/** @param {number} index */
function startCorrection(index) {
  editing = index;
  note("");
  showProblems($("problems"), [], "");
  renderEntry();
  $("entry").scrollIntoView({ block: "start", behavior: "smooth" });
  focusEntry();
}

function cancelCorrection() {
  editing = null;
  note("");
  showProblems($("problems"), [], "");
  renderEntry();
  focusEntry();
}

async function undo() {
  if (!current || !current.summary.hands.length) return;
  const { sheet, summary } = current;
  const last = summary.hands[summary.hands.length - 1];
  try {
    const answer = await call("/api/sheets/undo", { sheet });
    editing = null;
    prefill = last.took; // the undone answers, ready to change and enter again
    showProblems($("problems"), [], "");
    adopt(answer);
    note(t("Hand {number} taken back: its answers are in the form.", { number: last.number }));
  } catch (err) {
    toast(errorText(err));
  }
}

// -- the sheet, the leader, the standings ------------------------------------------------------

function renderSheet() {
  const current = now();
  const { summary } = current;
  const names = summary.players;
  const n = names.length;
  // the ruleset's words: in the catalog
  const title = t(summary.title);
  $("sheet-rules").textContent = summary.highest_wins
    ? t("{title} · highest total wins", { title })
    : t("{title} · lowest total wins", { title });
  const head = names.map(
    (name, s) =>
      html`<th scope="col" title="${name}"><span class="dot" style="background:${
        SEAT_COLOURS[s % SEAT_COLOURS.length]
      }"></span>${name}</th>`,
  );
  /** @type {Html[]} */
  const body = [];
  for (let i = 0; i < summary.hand_count; i++) {
    const hand = summary.hands[i];
    const round = current.rounds[i];
    if (!hand) {
      const isNext = i === summary.hands.length;
      body.push(html`<tr class="${isNext ? "current" : "todo"}" data-hand="${i + 1}"><th scope="row"><span class="num">${
        i + 1
      }</span> ${roundHTML(deck(), round, roundMarks(i), 14)}</th>${names.map(() => html`<td></td>`)}<td class="sum"></td><td></td></tr>`);
      continue;
    }
    const cells = hand.points.map((p, s) => {
      const lead = hand.leaders.includes(s) ? " lead" : "";
      const shot = t("{name} shot the moon", { name: names[s] });
      const moon = hand.moon === s ? html` <span class="moon" title="${shot}">☾</span>` : "";
      const after = t("Total after hand {number}", { number: i + 1 });
      return html`<td><span class="pts">${points(p)}${moon}</span><span class="run${lead}" title="${after}">${points(
        hand.running[s],
      )}</span></td>`;
    });
    const ok = hand.expected === null ? t("moon") : hand.sum === hand.expected ? "✓" : `≠ ${points(hand.expected)}`;
    const cls = editing === i ? "fixing" : "done";
    const handsOut =
      hand.expected === null
        ? t("The hand hands out no fixed sum (a moon was shot)")
        : t("The hand hands out {sum}", { sum: points(hand.expected) });
    const fixLabel = t("Fix hand {number} ({round})", { number: i + 1, round: t(round) }); // the ruleset's words
    const fix = t("Fix");
    body.push(html`<tr class="${cls}" data-hand="${i + 1}"><th scope="row" title="${t(round)}"><span class="num">${i + 1}</span> ${roundHTML(
      deck(),
      round,
      roundMarks(i),
      14,
    )}</th>${cells}
<td class="sum" title="${handsOut}">${points(hand.sum)} <small>${ok}</small></td><td class="fix"><button class="btn btn-small btn-fix" type="button" data-fix="${i}" aria-label="${fixLabel}"><span class="fix-word">${fix}</span><svg class="fix-icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M4 17.2V20h2.8l8.3-8.3-2.8-2.8zm13.7-7.6a1 1 0 0 0 0-1.4l-1.9-1.9a1 1 0 0 0-1.4 0l-1.5 1.5 2.8 2.8z" fill="currentColor"/></svg></button></td></tr>`);
  }
  const best = summary.over ? summary.winners : summary.leaders;
  const totals = summary.totals.map((total, s) => html`<td class="${best.includes(s) ? "win" : ""}">${points(total)}</td>`);
  const places = summary.hands.length ? placeLabels(summary.standings) : names.map(() => "");
  const placeCells = places.map((p) => html`<td>${p}</td>`);
  const words = {
    caption: t("Points by hand; the small number is the total after the hand"),
    hand: t("Hand"),
    sum: t("Sum"),
    correct: t("Correct"),
    total: t("Total"),
    place: t("Place"),
  };
  setHTML($("sheet-table"), html`<div class="sheet-wrap"><table class="sheet score-sheet${n > 5 ? " many" : ""}">
<caption class="visually-hidden">${words.caption}</caption>
<thead><tr><th scope="col" class="hand-col">${words.hand}</th>${head}<th scope="col" class="sum">${words.sum}</th><th scope="col"><span class="visually-hidden">${words.correct}</span></th></tr></thead>
<tbody>${body}</tbody>
<tfoot><tr class="totals"><th scope="row">${words.total}</th>${totals}<td class="sum">${points(summary.total)}</td><td></td></tr>
<tr class="places"><th scope="row">${words.place}</th>${placeCells}<td class="sum"></td><td></td></tr></tfoot></table></div>`);
  for (const b of all($("sheet-table"), "[data-fix]")) {
    b.addEventListener("click", () => startCorrection(Number(b.dataset.fix)));
  }
  markScroll($("sheet-table"));
  const entered = summary.hands.length;
  let line;
  if (!entered) line = t("No hand entered yet.");
  else if (summary.over) {
    const w = summary.winners;
    const params = { names: who(w), total: points(summary.totals[w[0]]) };
    line = w.length > 1 ? t("{names} share the win with {total}.", params) : t("{names} wins with {total}.", params);
  } else {
    const l = summary.leaders;
    const params = { number: entered, names: who(l), total: points(summary.totals[l[0]]) };
    line =
      l.length > 1
        ? t("After hand {number}: {names} lead with {total}.", params)
        : t("After hand {number}: {names} leads with {total}.", params);
  }
  $("leader").textContent = line;
  $("btn-undo", HTMLButtonElement).disabled = !entered;
}

function renderFinal() {
  const { summary } = now();
  $("final").hidden = !summary.over;
  if (!summary.over) return;
  const places = placeLabels(summary.standings);
  const order = summary.players.map((_, s) => s).sort((a, b) => summary.standings[a] - summary.standings[b] || a - b);
  setHTML(
    $("standings"),
    html`${order.map(
      (s) =>
        html`<li class="${summary.winners.includes(s) ? "win" : ""}"><span><b class="place">${places[s]}</b> ${
          summary.players[s]
        }</span><span>${points(summary.totals[s])}</span></li>`,
    )}`,
  );
  const n = summary.players.length;
  let text;
  const params = { total: points(summary.total), checksum: points(summary.checksum ?? 0) };
  if (summary.checksum === null) {
    text = t("Game total {total}. A moon was shot, so the checksum does not apply.", params);
  } else if (summary.total === summary.checksum) {
    text = tn("Game total {total}, the checksum for {n} player: ok.", "Game total {total}, the checksum for {n} players: ok.", n, params);
  } else {
    text = tn(
      "Game total {total}, but the checksum for {n} player is {checksum}.",
      "Game total {total}, but the checksum for {n} players is {checksum}.",
      n,
      params,
    );
  }
  $("checksum").textContent = text;
}

// -- the chart -----------------------------------------------------------------------------------

/** The chart's size for a box `width` pixels wide: on a short screen (a phone held sideways)
 * it is drawn at most about half the screen's height. @param {number} width */
function chartSize(width) {
  const W = Math.round(Math.max(300, Math.min(640, width || 560)));
  const shown = Math.max(1, width || W) / W; // screen pixels per SVG unit
  const H = Math.round(Math.max(150, Math.min(Math.max(200, W * 0.42), (window.innerHeight * 0.55) / shown)));
  return { width: W, height: H, left: 44, right: 14, top: 14, bottom: 30, ticks: 10, line: 2.6, dot: 3.2 };
}

// -- the page --------------------------------------------------------------------------------------

function render() {
  const has = current !== null;
  $("btn-new").hidden = !has;
  $("btn-save").hidden = !has;
  $("btn-csv").hidden = !has;
  if (!has) {
    showSetup();
    return;
  }
  $("setup").hidden = true;
  $("intro").hidden = true;
  $("game").hidden = false;
  $("game").classList.toggle("wide", now().summary.players.length > 4);
  renderEntry();
  renderSheet();
  renderFinal();
  drawChart();
}

function drawChart() {
  if (!current) return;
  const box = $("chart");
  const { chart, hand_count: hands } = current.summary;
  setHTML(
    box,
    lineChart(chart.series, {
      hands,
      size: chartSize(box.clientWidth),
      label: t("Running totals after each hand"),
      start: t("Start"),
      labels: chart.labels,
    }),
  );
}

async function openFile() {
  const input = $("open-file", HTMLInputElement);
  const file = input.files && input.files[0];
  input.value = "";
  if (!file) return;
  try {
    const answer = await call("/api/sheets/load", { text: await file.text() });
    editing = null;
    prefill = null;
    showProblems($("problems"), [], "");
    adopt(answer);
    note(t("Opened {file}.", { file: file.name }));
  } catch (err) {
    toast(`${file.name}: ${errorText(err)}`);
  }
}

async function exportCsv() {
  try {
    const text = await call("/api/sheets/csv", { sheet: now().sheet });
    download(`${fileStem()}.csv`, text, "text/csv");
  } catch (err) {
    toast(errorText(err));
  }
}

async function start() {
  loadPrefs();
  mountLogo($("logo"));
  setHTML($("final-trophy"), trophy("trophy-small"));
  $("setup-form").addEventListener("submit", startSheet);
  $("entry-form").addEventListener("submit", submitEntry);
  $("btn-new").addEventListener("click", showSetup);
  $("btn-cancel-new").addEventListener("click", render);
  $("btn-cancel-fix").addEventListener("click", cancelCorrection);
  $("btn-undo").addEventListener("click", undo);
  $("btn-save").addEventListener("click", () =>
    download(`${fileStem()}.json`, `${JSON.stringify(now().sheet, null, 1)}\n`, "application/json"),
  );
  $("btn-csv").addEventListener("click", exportCsv);
  $("open-file").addEventListener("change", openFile);
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let resizing;
  window.addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = setTimeout(() => {
      drawChart();
      markScroll($("sheet-table"));
    }, 150);
  });
  /** @type {Options} */
  let options = { presets: [], toppings: [], swaps: {} };
  try {
    options = await api("GET", "/api/options");
  } catch (err) {
    // Offline, the page's #offline line says so (offline.js): no second message.
    if (navigator.onLine) toast(t("Cannot load the rules on offer: {error}", { error: errorText(err) }));
  }
  rules.setOptions(options);
  const stored = saved();
  if (stored) {
    try {
      current = await call("/api/sheets/load", { sheet: stored });
    } catch (err) {
      if (navigator.onLine) {
        toast(t("The sheet kept in this browser cannot be read: {error}", { error: errorText(err) }));
      }
    }
  }
  render();
  if (current) focusEntry();
}

start();
