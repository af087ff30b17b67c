// @ts-check
// The table page's keys: ← → move between the cards of the hand, typing a card ("QS", "10♥";
// on a French screen "DP", "10C": cards.js's Deck.typings) finds it and Enter plays it, Esc
// clears what was typed and puts a held Wild back.

import { $, all, toast } from "../dom.js";
import { t } from "../i18n.js";
import { playCard } from "./pickers.js";
import { renderStatus } from "./render.js";
import { redraw, S } from "./state.js";

export function wireKeyboard() {
  // The settings' hint types a card of this deck (keyhint.js, loaded when they open).
  document.getElementById("btn-settings")?.addEventListener("click", () => import("./keyhint.js").then((m) => m.keyHint()));
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (document.querySelector("dialog[open]")) return;
    const target = e.target;
    if (target instanceof Element && target.closest("input, textarea, select")) return;
    const hand = $("hand");
    const cards = all(hand, ".card");
    if (e.key === "Escape") {
      S.typed = "";
      if (S.pendingWild) S.pendingWild = null;
      redraw();
      return;
    }
    if (!cards.length) return;
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      e.preventDefault();
      const pool = cards.filter((c) => c.classList.contains("legal"));
      const list = pool.length ? pool : cards;
      let i = list.indexOf(/** @type {HTMLElement} */ (document.activeElement));
      if (i < 0) i = e.key === "ArrowLeft" ? list.length : -1;
      const next = list[(i + (e.key === "ArrowLeft" ? -1 : 1) + list.length) % list.length];
      next.focus();
      return;
    }
    if (e.key === "Enter" && S.typed) {
      const match = matchTyped(S.typed, cards);
      e.preventDefault();
      S.typed = "";
      if (match) playCard(String(match.dataset.code));
      else {
        toast(t("No card in your hand matches what you typed."));
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

/**
 * The card of the hand that `typed` names, if any.
 * @param {string} typed
 * @param {HTMLElement[]} cards
 */
function matchTyped(typed, cards) {
  const want = typed.replace(/\+$/, "");
  for (const c of cards) {
    if (S.deck.typings(String(c.dataset.code)).includes(want)) return c;
  }
  // Typing more than a card (say "QSK"): try the end of it.
  for (let i = 1; i < want.length; i++) {
    const tail = want.slice(i);
    for (const c of cards) if (S.deck.typings(String(c.dataset.code)).includes(tail)) return c;
  }
  return null;
}
