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
  const suits = d.suits.map((s) => suitKey(d.suitLetter(s), s)).join(", ");
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

/**
 * A suit's letter and name, as the hint lists them: "S Spades" ("P pique" in French, where a
 * suit is named in the singular); any other suit (Skip the Salad's) by the ruleset's name.
 * @param {string} letter
 * @param {import("../messages.js").Suit} suit
 */
function suitKey(letter, suit) {
  switch (suit.symbol) {
    case "♣":
      return t("{letter} Clubs", { letter });
    case "♦":
      return t("{letter} Diamonds", { letter });
    case "♥":
      return t("{letter} Hearts", { letter });
    case "♠":
      return t("{letter} Spades", { letter });
  }
  return `${letter} ${t(suit.name)}`; // the ruleset's words: in the catalog
}
