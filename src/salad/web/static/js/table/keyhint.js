// @ts-check
// The keyboard hint of the table's settings in this deck's own letters: a card of it to type,
// and each suit's letter (a ruleset's suits cannot be guessed from a standard deck's). Loaded
// when the settings open, so the table's first load does not carry it.

import { html, maybe, setHTML } from "../dom.js";
import { t } from "../i18n.js";
import { S } from "./state.js";

export function keyHint() {
  const d = S.deck;
  const rank = d.ranks.at(-1);
  const suit = d.suits.at(-1);
  const el = maybe("key-example");
  if (!el || !rank || !suit) return;
  // the ruleset's words: in the catalog
  const suits = d.suits.map((s) => `${d.suitLetter(s)} ${t(s.name)}`).join(", ");
  // TRANSLATORS: the middle of the settings' keyboard hint "... or type a card (its rank, then
  // its suit's letter), such as AS for the Ace of Spades (suits: ...), then Enter."; {example}
  // is the card to type, {card} its name, {suits} each suit's letter and name.
  const words = t(", such as {example} for the {card} (suits: {suits}),", {
    card: d.nameInText(rank.letter + suit.letter),
    suits,
  });
  const [before, after = ""] = words.split("{example}");
  setHTML(el, html`${before}<kbd>${d.rankLabel(rank) + d.suitLetter(suit)}</kbd>${after}`);
}
