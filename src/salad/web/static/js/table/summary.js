// @ts-check
// The end of a hand: each seat's points penalty by penalty (the penalties are the ruleset's, as
// the server's `hand_end` names them), the new totals and places, and the Next hand button.
// The table waits until every connected player has pressed it (or the turn timer runs out).

import { $, html, maybe } from "../dom.js";
import { lang, t } from "../i18n.js";
import { sendNext } from "./protocol.js";
import { listNames, mustPressNext, nameYou, players, S, seatName, table } from "./state.js";

/** @typedef {import("../messages.js").HandEnd} HandEnd */

/** A place as the page's language writes it ("1st", "1re"), by its ordinal rules. @param {number} place */
function ordinal(place) {
  const n = place;
  switch (new Intl.PluralRules(lang, { type: "ordinal" }).select(place)) {
    case "one":
      // TRANSLATORS: a place (rank) ending as 1st, 21st; French has one form for 1 (1re)
      return t("{n}st", { n });
    case "two":
      // TRANSLATORS: a place ending as 2nd, 22nd (French never asks for it)
      return t("{n}nd", { n });
    case "few":
      // TRANSLATORS: a place ending as 3rd, 23rd (French never asks for it)
      return t("{n}rd", { n });
    default:
      // TRANSLATORS: a place ending as 4th, 11th, 2nd in French (2e, 3e)
      return t("{n}th", { n });
  }
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
  // (The penalties' names are the ruleset's words: in the catalog.)
  const heads = cols.map(
    (p) => html`<th scope="col">${t(p.name)}${p.each ? html`<small class="each">${t("{n} each", { n: p.each })}</small>` : ""}</th>`,
  );
  return html`<div class="summary-scroll"><table class="sheet summary-table"><caption>${t("Points of hand {hand}, penalty by penalty", {
    hand: end.hand,
  })}</caption><thead><tr><th scope="col">${t("Player")}</th>${heads}<th scope="col">${t("This hand")}</th><th scope="col">${t(
    "Total",
  )}</th><th scope="col">${t("Place")}</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

/** The panel shown while the table waits for Next hand. */
export function summaryHTML() {
  const end = S.handEnd;
  if (!end) return html``;
  const tb = table();
  const total = (tb.hands && tb.hands.length) || 0;
  const moon = end.moon >= 0 ? html`<p class="moon-line">${t("{name} shot the moon!", { name: seatName(end.moon) })}</p>` : "";
  const others = end.waiting.filter((s) => s !== S.you).map(seatName);
  let action;
  if (mustPressNext()) {
    action = html`<button type="button" class="btn btn-primary" id="btn-next-hand">${t("Next hand")}</button>`;
  } else {
    const who = others.length ? listNames(others) : t("the others");
    action = html`<p class="hint" data-waiting>${t("Waiting for {names} to press Next hand…", { names: who })}</p>`;
  }
  const timer = S.deadline ? html` <span class="chip chip-timer" data-timer></span>` : "";
  return html`<div class="panel hand-summary" id="hand-summary" role="region" aria-labelledby="summary-title">
<h2 id="summary-title">${
    // the round's name is the ruleset's words: in the catalog
    total
      ? t("Hand {hand} of {total}: {round}", { hand: end.hand, total, round: t(end.round) })
      : t("Hand {hand}: {round}", { hand: end.hand, round: t(end.round) })
  }</h2>
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
