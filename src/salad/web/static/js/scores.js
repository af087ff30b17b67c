// @ts-check
// The score sheet (points by hand, totals) and the chart of running totals, drawn as SVG.

import { hasArt, suitIcon } from "./cards.js";
import { html } from "./dom.js";
import { number, t } from "./i18n.js";

/** @typedef {import("./dom.js").Html} Html */
/** @typedef {import("./cards.js").Deck} Deck */
/** @typedef {import("./messages.js").Mark} Mark */
/**
 * A row of the score sheet: a hand of the game, with its points once played, and the suits or
 * cards its round names (the lobby's `hands[].marks`).
 * @typedef {{number: number, round: string, points: number[] | null, marks?: Mark[]}} SheetRow
 */
/** @typedef {{name: string, points: number[]}} Series */
/**
 * A chart's size in SVG units (see lineChart).
 * @typedef {object} ChartSize
 * @property {number} width
 * @property {number} height
 * @property {number} left
 * @property {number} right
 * @property {number} top
 * @property {number} bottom
 * @property {number} ticks
 * @property {number} line
 * @property {number} [you]
 * @property {number} dot
 */

/**
 * Points as the page's language writes them, without grouping ("1120", as a score sheet does;
 * "-5" with the language's minus sign).
 * @param {number} n
 */
export function points(n) {
  return number(n, { useGrouping: false });
}

export const SEAT_COLOURS = [
  "#e8590c",
  "#1c7ed6",
  "#2f9e44",
  "#ae3ec9",
  "#f08c00",
  "#0c8599",
  "#e64980",
  "#5c940d",
  "#495057",
  "#9c36b5",
];

/** A name short enough for a column head: "Basic bot 1" becomes "BB1", "Alice" stays. @param {string} name */
export function shortName(name) {
  const text = String(name || "").trim();
  if (text.length <= 7) return text;
  const words = text.split(/\s+/);
  if (words.length === 1) return text;
  const last = /^\d+$/.test(words[words.length - 1]) ? words.pop() : "";
  return words.map((w) => w[0].toUpperCase()).join("") + last;
}

// -- suits and cards in words -------------------------------------------------------------------
// A round or a question that names a suit (or one card) of a suit with a drawing (Skip the
// Salad's vegetables, the deck's `art`) shows that drawing: the server says which suit or card
// (a mark: {suit} or {card, suit}); nothing here knows a suit. Suits without a drawing read
// well in words and are left as they are.

/** Whether the mark's suit has a drawing. @param {Deck | null | undefined} deck @param {Mark | null | undefined} mark */
export function drawn(deck, mark) {
  return Boolean(deck && mark && hasArt(deck.suits[mark.suit]));
}

/**
 * A mark drawn: the suit's drawing, after the rank's face for one card ("K" and an onion);
 * hidden from screen readers (the words beside it name it). Nothing where the suit has no
 * drawing.
 * @param {Deck | null | undefined} deck
 * @param {Mark | null | undefined} mark
 * @param {number} [size]
 * @returns {Html}
 */
export function markHTML(deck, mark, size = 16) {
  if (!deck || !mark || !drawn(deck, mark)) return html``;
  const icon = suitIcon(deck, mark.suit, size);
  if (!mark.card) return html`<span class="suit-mark" aria-hidden="true">${icon}</span>`;
  const card = deck.parse(mark.card);
  const face = card.rank ? deck.rankLabel(card.rank) : "";
  return html`<span class="card-mark" aria-hidden="true"><b>${face}</b>${icon}</span>`;
}

/**
 * A round's name with the suits and cards it names drawn after it ("No Tomatoes" and a tomato).
 * @param {Deck | null | undefined} deck
 * @param {string} round
 * @param {Mark[] | null | undefined} marks
 * @param {number} [size]
 * @returns {Html}
 */
export function roundHTML(deck, round, marks, size = 16) {
  const name = t(round); // the ruleset's words: in the catalog
  const shown = (marks || []).filter((m) => drawn(deck, m));
  if (!shown.length) return html`${name}`;
  // A no-break space: the drawing stays on the line of the name's last word.
  return html`${name}\u00a0${shown.map((m) => markHTML(deck, m, size))}`;
}

/**
 * Text naming the mark's card by its code ("King of Onions (KO)"): the code in brackets is drawn
 * (the rank's face and the suit's drawing) where the suit has a drawing, so no suit letter shows;
 * a suit's name gets its drawing before it. Other text is left as it is.
 * @param {Deck | null | undefined} deck
 * @param {string} text
 * @param {Mark | null | undefined} mark
 * @param {number} [size]
 * @returns {Html}
 */
export function markedText(deck, text, mark, size = 16) {
  if (!mark || !drawn(deck, mark)) return html`${text}`;
  if (!mark.card) return html`${markHTML(deck, mark, size)} ${text}`;
  const at = text.indexOf(`(${mark.card})`);
  if (at < 0) return html`${text} ${markHTML(deck, mark, size)}`;
  return html`${text.slice(0, at)}${markHTML(deck, mark, size)}${text.slice(at + mark.card.length + 2)}`;
}

/**
 * The same text for a screen reader or a tooltip: the card's code left out where it is drawn.
 * @param {Deck | null | undefined} deck
 * @param {string} text
 * @param {Mark | null | undefined} mark
 */
export function markedWords(deck, text, mark) {
  if (!mark || !mark.card || !drawn(deck, mark)) return text;
  return text.replace(` (${mark.card})`, "");
}

/**
 * The score sheet as an HTML table.
 * rows: [{number, round, points | null}] for every hand of the game (future hands without points);
 * current: the number of the hand being played (its row shows `running`), or 0.
 * @param {object} sheet
 * @param {string[]} sheet.names
 * @param {SheetRow[]} sheet.rows
 * @param {number} sheet.current
 * @param {number[] | null} sheet.running
 * @param {number[]} sheet.totals
 * @param {number[] | null | undefined} sheet.winners
 * @param {number} sheet.you
 * @param {Deck} [sheet.deck] to draw the suits the rounds name (see roundHTML)
 * @returns {Html}
 */
export function sheetTable({ names, rows, current, running, totals, winners, you, deck }) {
  const head = names.map(
    (n, i) =>
      html`<th scope="col" class="${i === you ? "me" : ""}" title="${n}"><span class="dot" style="background:${
        SEAT_COLOURS[i % SEAT_COLOURS.length]
      }"></span>${shortName(n)}</th>`,
  );
  const body = rows.map((r) => {
    const isCurrent = r.number === current && !r.points;
    let cells;
    if (r.points) {
      cells = r.points.map((p) => html`<td>${points(p)}</td>`);
    } else if (isCurrent && running) {
      cells = running.map((p) => html`<td class="running">${p ? points(p) : "·"}</td>`);
    } else {
      cells = names.map(() => html`<td></td>`);
    }
    const cls = isCurrent ? "current" : r.points ? "done" : "todo";
    return html`<tr class="${cls}"><th scope="row"><span class="num">${isCurrent ? "▸" : r.number}</span> ${roundHTML(
      deck,
      r.round,
      r.marks,
      14,
    )}</th>${cells}</tr>`;
  });
  const words = { hand: t("Hand"), total: t("Total") };
  const foot = totals.map((total, i) => html`<td class="${winners && winners.includes(i) ? "win" : ""}">${points(total)}</td>`);
  return html`<div class="sheet-wrap"><table class="sheet${names.length > 4 ? " many" : ""}${names.length > 6 ? " lots" : ""}"><thead><tr><th scope="col">${words.hand}</th>${head}</tr></thead>
<tbody>${body}</tbody><tfoot><tr><th scope="row">${words.total}</th>${foot}</tr></tfoot></table></div>`;
}

/**
 * Running totals after each hand, one list per seat, starting at 0.
 * @param {number[][]} pointsByHand
 * @param {number} players
 */
export function runningTotals(pointsByHand, players) {
  const series = Array.from({ length: players }, () => [0]);
  for (const points of pointsByHand) {
    for (let s = 0; s < players; s++) {
      const prev = series[s][series[s].length - 1];
      series[s].push(prev + (points[s] || 0));
    }
  }
  return series;
}

/** @param {number} range */
function niceStep(range) {
  const rough = range / 4;
  const mag = 10 ** Math.floor(Math.log10(Math.max(rough, 1)));
  for (const m of [1, 2, 5, 10]) if (m * mag >= rough) return m * mag;
  return 10 * mag;
}

/** The size of the table page's chart (its score sheet dialog and panel, and the replay's). @type {ChartSize} */
const SMALL = {
  width: 360,
  height: 190,
  left: 40,
  right: 12,
  top: 12,
  bottom: 26,
  ticks: 8,
  line: 2.2,
  you: 3.5,
  dot: 3,
};

/**
 * An SVG line chart of running totals with its legend: one line per seat in the seat's colour,
 * the hands along the bottom.
 * series: [{name, points}], points[0] the start (0), then one point per hand played;
 * hands: how many hands the game has (the axis shows them all from the start);
 * size: {width, height, left, right, top, bottom} in SVG units, `ticks` (the baseline of the
 * hand numbers above the bottom edge), `line`, `you` (the stroke of seat `you`'s line), `dot`;
 * label: the chart's name for screen readers; start: the name of the first tick;
 * labels: a name for each point (the dots get a title "name after label: total"), or none.
 * @param {Series[]} series
 * @param {object} options
 * @param {number} options.hands
 * @param {ChartSize} options.size
 * @param {string} options.label
 * @param {number} [options.you]
 * @param {string} [options.start]
 * @param {string[] | null} [options.labels]
 * @returns {Html}
 */
export function lineChart(series, { hands, size, label, you = -1, start = "0", labels = null }) {
  const { width: W, height: H, left, right, top, bottom } = size;
  const count = Math.max(hands || 0, ...series.map((s) => s.points.length - 1), 1);
  const values = series.flatMap((s) => s.points);
  let lo = Math.min(0, ...values);
  let hi = Math.max(10, ...values);
  const step = niceStep(hi - lo);
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  const x = (/** @type {number} */ i) => left + (i / count) * (W - left - right);
  const y = (/** @type {number} */ v) => top + (1 - (v - lo) / (hi - lo || 1)) * (H - top - bottom);
  /** @type {Html[]} */
  const grid = [];
  for (let v = lo; v <= hi + 1e-9; v += step) {
    grid.push(html`<line x1="${left}" x2="${W - right}" y1="${y(v)}" y2="${y(v)}" class="grid"/>`);
    grid.push(html`<text x="${left - 6}" y="${y(v) + 4}" class="axis" text-anchor="end">${points(Math.round(v))}</text>`);
  }
  for (let i = 0; i <= count; i++) {
    grid.push(html`<text x="${x(i)}" y="${H - size.ticks}" class="axis" text-anchor="middle">${i === 0 ? start : points(i)}</text>`);
  }
  /** @type {Html[]} */
  const lines = [];
  series.forEach(({ name, points: values }, s) => {
    const colour = SEAT_COLOURS[s % SEAT_COLOURS.length];
    const d = values.map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)} ${y(v).toFixed(1)}`).join(" ");
    const width = s === you ? size.you : size.line;
    lines.push(
      html`<path class="line" data-seat="${s}" d="${d}" fill="none" stroke="${colour}" stroke-width="${width}" stroke-linejoin="round" stroke-linecap="round"><title>${name}</title></path>`,
    );
    values.forEach((v, i) => {
      if (!i) return;
      const text = labels ? t("{name} after {label}: {total}", { name, label: labels[i], total: points(v) }) : "";
      const title = labels ? html`<title>${text}</title>` : "";
      lines.push(html`<circle cx="${x(i).toFixed(1)}" cy="${y(v).toFixed(1)}" r="${size.dot}" fill="${colour}">${title}</circle>`);
    });
  });
  const legend = series.map(
    ({ name, points: values }, s) =>
      html`<span class="legend-item"><span class="swatch" style="background:${
        SEAT_COLOURS[s % SEAT_COLOURS.length]
      }"></span>${name} <b>${points(values[values.length - 1])}</b></span>`,
  );
  return html`<figure class="chart"><svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${label}">${grid}${lines}</svg>
<figcaption class="legend">${legend}</figcaption></figure>`;
}

/**
 * The chart of running totals for the table page: one line per seat, hands along the bottom.
 * @param {{names: string[], pointsByHand: number[][], hands: number, you: number}} chart
 */
export function totalsChart({ names, pointsByHand, hands, you }) {
  const series = runningTotals(pointsByHand, names.length).map((points, s) => ({ name: names[s], points }));
  return lineChart(series, { hands, size: SMALL, label: t("Running totals by hand"), you });
}

/**
 * Make a sheet's sideways scroll visible: where the table is wider than its box, the box gets
 * the class `scrolls` (a visible scroll bar and an edge shadow) and a line under it says so.
 * Call it after drawing the sheet and when the window changes size.
 * @param {ParentNode} root
 */
export function markScroll(root) {
  for (const wrap of root.querySelectorAll(".sheet-wrap")) {
    if (!(wrap instanceof HTMLElement)) continue;
    const scrolls = wrap.scrollWidth > wrap.clientWidth + 1;
    wrap.classList.toggle("scrolls", scrolls);
    let hint = wrap.nextElementSibling;
    if (!(hint instanceof HTMLElement && hint.classList.contains("sheet-more"))) hint = null;
    if (scrolls && !hint) {
      hint = document.createElement("p");
      hint.className = "sheet-more";
      hint.textContent = t("More columns to the right: swipe or scroll the sheet sideways →");
      wrap.after(hint);
    } else if (!scrolls && hint) hint.remove();
    if (scrolls) {
      wrap.tabIndex = 0; // the keyboard can scroll it too
      wrap.setAttribute("role", "region");
      wrap.setAttribute("aria-label", t("The sheet (scrolls sideways)"));
    }
  }
}
