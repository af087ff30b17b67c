// @ts-check
// The end of a hand: each seat's points penalty by penalty (the penalties are the ruleset's, as
// the server's `hand_end` names them), the new totals and places, and the Next hand button.
// The table waits until every connected player has pressed it (or the turn timer runs out).

import { $, html, maybe } from "../dom.js";
import { sendNext } from "./protocol.js";
import { listNames, mustPressNext, nameYou, players, S, seatName, table } from "./state.js";

/** @typedef {import("../messages.js").HandEnd} HandEnd */

/** @param {number} place */
function ordinal(place) {
  const tail = place % 100 >= 11 && place % 100 <= 13 ? "th" : ["th", "st", "nd", "rd"][place % 10] || "th";
  return `${place}${tail}`;
}

/** The table of a finished hand: a row per player, a column per penalty. @param {HandEnd} end */
export function breakdownTable(end) {
  const n = players();
  const cols = end.penalties;
  const rows = Array.from({ length: n }, (_, s) => {
    const seat = end.seats[s] || {};
    const cells = cols.map((p) => {
      const v = seat[p.id] || 0;
      return html`<td class="pts ${v ? "" : "zero"}">${v ? String(v) : "–"}</td>`;
    });
    return html`<tr class="${s === S.you ? "me" : ""}"><th scope="row">${nameYou(s)}</th>${cells}<td class="pts hand-pts">${String(
      end.points[s],
    )}</td><td class="pts">${String(end.totals[s])}</td><td class="pts">${ordinal(end.standings[s])}</td></tr>`;
  });
  // Each penalty's cost under its name: a cell's 80 under "No Tricks, 10 each" is 8 tricks.
  const heads = cols.map((p) => html`<th scope="col">${p.name}${p.each ? html`<small class="each">${String(p.each)} each</small>` : ""}</th>`);
  return html`<div class="summary-scroll"><table class="sheet summary-table"><caption>Points of hand ${String(
    end.hand,
  )}, penalty by penalty</caption><thead><tr><th scope="col">Player</th>${heads}<th scope="col">This hand</th><th scope="col">Total</th><th scope="col">Place</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

/** The panel shown while the table waits for Next hand. */
export function summaryHTML() {
  const end = S.handEnd;
  if (!end) return html``;
  const t = table();
  const total = (t.hands && t.hands.length) || 0;
  const moon = end.moon >= 0 ? html`<p class="moon-line">${seatName(end.moon)} shot the moon!</p>` : "";
  const others = end.waiting.filter((s) => s !== S.you).map(seatName);
  let action;
  if (mustPressNext()) {
    action = html`<button type="button" class="btn btn-primary" id="btn-next-hand">Next hand</button>`;
  } else {
    const who = others.length ? listNames(others) : "the others";
    action = html`<p class="hint" data-waiting>Waiting for ${who} to press Next hand…</p>`;
  }
  const timer = S.deadline ? html` <span class="chip chip-timer" data-timer></span>` : "";
  return html`<div class="panel hand-summary" id="hand-summary" role="region" aria-labelledby="summary-title">
<h2 id="summary-title">Hand ${String(end.hand)}${total ? ` of ${total}` : ""}: ${end.round}</h2>
${breakdownTable(end)}${moon}
<div class="form-actions">${action}${timer}</div></div>`;
}

/** The Next hand button (focused, so that Enter presses it). */
export function wireSummary() {
  const b = maybe("btn-next-hand", HTMLButtonElement);
  if (!b) return;
  b.onclick = () => {
    b.disabled = true;
    sendNext();
  };
  const active = document.activeElement;
  if (!active || active === document.body || !$("center").contains(active)) b.focus({ preventScroll: true });
}
