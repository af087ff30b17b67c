// @ts-check
// What a screen reader says as the game goes: each card played and each trick won, by the
// player's name, and the end of each hand; written to the page's polite `aria-live` region
// (#announce), from the difference between two states.

import { $ } from "../dom.js";
import { number, t } from "../i18n.js";
import { key, S, seatName } from "./state.js";

/** @typedef {import("../messages.js").CompleteView} View */
/** @typedef {import("../messages.js").LastTrick} LastTrick */
/** @typedef {import("../messages.js").HandEnd} HandEnd */

/** @param {number} seat @param {string} code */
function played(seat, code) {
  const card = S.deck.nameInText(code);
  return seat === S.you ? t("You play {card}", { card }) : t("{name} plays {card}", { name: seatName(seat), card });
}

/**
 * Announce what changed since the last state.
 * @param {View | null} before the previous view
 * @param {LastTrick | null} lastBefore the previous last trick
 * @param {HandEnd | null} endBefore the previous hand summary
 */
export function announceChanges(before, lastBefore, endBefore) {
  const v = S.view;
  const el = document.getElementById("announce");
  if (!v || !el) return;
  /** @type {string[]} */
  const lines = [];
  const old = before && before.hand === v.hand ? before.trick : before ? before.trick : [];
  const seen = new Set(old.map(([s, c]) => `${s}:${c}`));
  const last = S.lastTrick;
  if (last && key(last) !== key(lastBefore)) {
    for (const [s, c] of last.cards) if (!seen.has(`${s}:${c}`)) lines.push(played(s, c));
    lines.push(last.winner === S.you ? t("You take the trick") : t("{name} takes the trick", { name: seatName(last.winner) }));
    for (const [s, c] of v.trick) lines.push(played(s, c));
  } else {
    for (const [s, c] of v.trick) if (!seen.has(`${s}:${c}`)) lines.push(played(s, c));
  }
  const end = S.handEnd;
  if (end && (!endBefore || endBefore.hand !== end.hand)) {
    const points = end.points.map((p, i) => `${seatName(i)} ${number(p)}`).join(", ");
    lines.push(t("Hand {hand} is over. Points: {points}", { hand: end.hand, points }));
  }
  if (lines.length) $("announce").textContent = `${lines.join(". ")}.`;
}
