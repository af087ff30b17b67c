// @ts-check
// The keyboard hint of the table's settings in this deck's own letters: a card of it to type,
// and each suit's letter (a ruleset's suits cannot be guessed from a standard deck's). Loaded
// when the settings open, so the table's first load does not carry it.

import { html, maybe, setHTML } from "../dom.js";
import { S } from "./state.js";

export function keyHint() {
  const d = S.deck;
  const rank = d.ranks.at(-1);
  const suit = d.suits.at(-1);
  const el = maybe("key-example");
  if (!el || !rank || !suit) return;
  const suits = d.suits.map((s) => `${s.letter} ${s.name}`).join(", ");
  setHTML(
    el,
    html`, such as <kbd>${d.rankLabel(rank) + suit.letter}</kbd> for the ${d.name(rank.letter + suit.letter)} (suits: ${suits}),`,
  );
}
