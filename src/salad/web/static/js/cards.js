// @ts-check
// Cards drawn as SVG from the deck the server describes (lobby field `deck`): no image files,
// no card or suit known in advance. A code is a rank letter and a suit letter, or a wild code;
// a trailing "+" is a wild declared high.

import { html, trusted } from "./dom.js";
import { lang, t } from "./i18n.js";

/** @typedef {import("./messages.js").Suit} Suit */
/** @typedef {import("./messages.js").Rank} Rank */
/** @typedef {import("./messages.js").Wild} Wild */
/** @typedef {import("./messages.js").Deck} DeckSpec */
/** @typedef {import("./dom.js").Html} Html */

/**
 * A card code taken apart (see Deck.parse).
 * @typedef {object} CardInfo
 * @property {string} code
 * @property {string} base the code without its "+"
 * @property {boolean} high a wild declared high
 * @property {Wild | null} wild
 * @property {number} [wildIndex]
 * @property {Suit | null} suit
 * @property {number} suitIndex
 * @property {Rank | null} rank
 * @property {number} rankIndex
 */

// Crisp shapes for the four French suit symbols (drawn in a 100 x 100 box); any other symbol
// the server sends is drawn as text.
const SHAPES = /** @type {Record<string, string>} */ ({
  "♠":
    "M50 4C38 24 8 40 8 62c0 16 13 25 26 25 7 0 12-3 14-6-1 7-5 12-12 15h28c-7-3-11-8-12-15 2 3 7 6 14 6 13 0 26-9 26-25C92 40 62 24 50 4z",
  "♥":
    "M50 92C34 76 6 58 6 32 6 17 17 6 30 6c9 0 16 5 20 12 4-7 11-12 20-12 13 0 24 11 24 26 0 26-28 44-44 60z",
  "♦": "M50 3L88 50 50 97 12 50z",
  "♣":
    "M50 6a20 20 0 0 0-19 27 20 20 0 1 0 14 33c-1 10-5 19-13 26h36c-8-7-12-16-13-26a20 20 0 1 0 14-33A20 20 0 0 0 50 6z",
});

// Drawings for suits that have no shape every font draws (Skip the Salad's vegetables): the
// deck names one with a suit's `art` key (salad.cards.SuitSpec.art). Each is drawn in a
// 100 x 100 box in its own colours, so a vegetable looks the same on every device.
const ART = /** @type {Record<string, string>} */ ({
  carrot:
    '<path d="M62 30 18 92c-3 4 1 7 5 4l56-48z" fill="#f76707" stroke="#c2410c" stroke-width="3" stroke-linejoin="round"/>' +
    '<path d="M34 66l8 5M44 54l8 5M53 44l6 4" stroke="#c2410c" stroke-width="3" stroke-linecap="round"/>' +
    '<path d="M64 34C58 20 60 8 66 4c2 10 4 18 4 24M70 38c8-12 18-18 26-18-6 8-12 16-20 22M68 34c2-12 10-22 18-24-2 10-8 18-14 26" fill="#2f9e44" stroke="#237a34" stroke-width="2.5" stroke-linejoin="round"/>',
  broccoli:
    '<path d="M42 58h16l6 36H36z" fill="#8ce99a" stroke="#2b8a3e" stroke-width="3" stroke-linejoin="round"/>' +
    '<circle cx="30" cy="44" r="17" fill="#2f9e44" stroke="#1b5e20" stroke-width="3"/>' +
    '<circle cx="70" cy="44" r="17" fill="#2f9e44" stroke="#1b5e20" stroke-width="3"/>' +
    '<circle cx="50" cy="30" r="21" fill="#37b24d" stroke="#1b5e20" stroke-width="3"/>' +
    '<circle cx="43" cy="26" r="4" fill="#69db7c"/><circle cx="57" cy="33" r="3.5" fill="#69db7c"/><circle cx="26" cy="42" r="3.5" fill="#69db7c"/><circle cx="72" cy="40" r="3.5" fill="#69db7c"/>',
  tomato:
    '<circle cx="50" cy="56" r="38" fill="#e03131" stroke="#a51111" stroke-width="3"/>' +
    '<path d="M50 22l6 10 12-4-6 10 12 4-14 3M50 22l-6 10-12-4 6 10-12 4 14 3" fill="#2f9e44" stroke="#237a34" stroke-width="2.5" stroke-linejoin="round"/>' +
    '<path d="M50 24V10" stroke="#237a34" stroke-width="5" stroke-linecap="round"/>' +
    '<ellipse cx="34" cy="52" rx="7" ry="11" fill="#ff8787" opacity=".8"/>',
  onion:
    '<path d="M50 8c4 14 30 26 34 50 4 22-14 36-34 36S12 80 16 58C20 34 46 22 50 8z" fill="#b197fc" stroke="#6741d9" stroke-width="3" stroke-linejoin="round"/>' +
    '<path d="M50 14c-6 20-18 34-16 56M50 14c6 20 18 34 16 56M50 14v74" fill="none" stroke="#6741d9" stroke-width="2.5"/>' +
    '<path d="M42 94l-4 5M50 94v6M58 94l4 5" stroke="#868e96" stroke-width="3" stroke-linecap="round"/>',
  corn:
    '<ellipse cx="50" cy="46" rx="18" ry="38" fill="#fcc419" stroke="#e67700" stroke-width="3"/>' +
    '<path d="M34 30h32M32 44h36M33 58h34M37 72h26M44 12v68M56 12v68" stroke="#e67700" stroke-width="2" fill="none"/>' +
    '<path d="M50 96C30 86 22 66 26 40c6 18 14 34 24 42M50 96c20-10 28-30 24-56-6 18-14 34-24 42" fill="#51cf66" stroke="#2b8a3e" stroke-width="3" stroke-linejoin="round"/>',
});

// A French screen reads and writes its cards in French (docs/fr/glossaire.md, "Saisie des
// cartes"): the faces show V D R for Jack Queen King, cards are typed with the French ranks
// and the suit letters T K C P. Codes stay English in the data (records, the protocol): the
// French letters are only what the screen shows and reads.
const FRENCH = lang.toLowerCase().startsWith("fr");
/** @type {Record<string, string>} */
const FR_RANKS = { J: "V", Q: "D", K: "R" };
/** @type {Record<string, string>} */
const FR_SUITS = { "♣": "T", "♦": "K", "♥": "C", "♠": "P" };

/** @type {Record<string, string>} */
const TWO_COLOUR = { "♠": "#1b1b1f", "♣": "#1b1b1f", "♥": "#c8102e", "♦": "#c8102e" };
/** @type {Record<string, string>} */
const FOUR_COLOUR = { "♠": "#1b1b1f", "♣": "#1d7a35", "♥": "#c8102e", "♦": "#1560bd" };
const PALETTE = ["#d9480f", "#2b8a3e", "#c92a2a", "#7048e8", "#e0a800", "#1971c2", "#a61e4d"];

// Emoji suits (Skip the Salad's vegetables) need an emoji font; where the browser has none, a
// suit is drawn as a coloured disc with its letter instead of an empty box.
/** @type {Map<string, boolean>} */
const glyphCache = new Map();
/** @type {Uint8ClampedArray | null} */
let missingGlyph = null;

/** @param {string} text */
function glyphPixels(text) {
  const canvas = document.createElement("canvas");
  canvas.width = 24;
  canvas.height = 24;
  const g = canvas.getContext("2d", { willReadFrequently: true });
  if (!g) throw new Error("no 2d canvas");
  g.textBaseline = "top";
  g.font = "20px sans-serif";
  g.fillStyle = "#000";
  g.fillText(text, 0, 0);
  return g.getImageData(0, 0, 24, 24).data;
}

/** Whether the browser draws this symbol (not blank, not the missing-glyph box). @param {string} symbol */
export function glyphRenders(symbol) {
  const known = glyphCache.get(symbol);
  if (known !== undefined) return known;
  let ok = true;
  try {
    if (!missingGlyph) missingGlyph = glyphPixels("\u{10FFFD}");
    const px = glyphPixels(symbol);
    let blank = true;
    let same = true;
    for (let i = 0; i < px.length; i++) {
      if (px[i] !== /** @type {Uint8ClampedArray} */ (missingGlyph)[i]) same = false;
      if (i % 4 === 3 && px[i]) blank = false;
    }
    ok = !blank && !same;
  } catch {
    ok = true;
  }
  glyphCache.set(symbol, ok);
  return ok;
}

/** The suit as text: its symbol, or its letter where the symbol cannot be drawn. @param {Suit} suit */
export function suitText(suit) {
  return SHAPES[suit.symbol] || glyphRenders(suit.symbol) ? suit.symbol : suit.letter;
}

/** Whether the suit has a drawing of its own (see ART). @param {Suit | null | undefined} suit */
export function hasArt(suit) {
  return Boolean(suit && suit.art && ART[suit.art]);
}

let fourColour = false;
/** @param {boolean} on */
export function setFourColour(on) {
  fourColour = Boolean(on);
}
export function isFourColour() {
  return fourColour;
}

/**
 * A card's name: "Queen of Spades" ("Dame de pique"). The four French suits have a sentence
 * each (French names a card by its suit in the singular); any other suit (Skip the Salad's
 * vegetables) is named by the ruleset.
 * @param {string} rank the rank's name, translated
 * @param {Suit} suit
 */
function cardName(rank, suit) {
  switch (suit.symbol) {
    case "♣":
      return t("{rank} of Clubs", { rank });
    case "♦":
      return t("{rank} of Diamonds", { rank });
    case "♥":
      return t("{rank} of Hearts", { rank });
    case "♠":
      return t("{rank} of Spades", { rank });
  }
  // the ruleset's words: in the catalog
  const name = t("{rank} of {suit}", { rank, suit: t(suit.name) });
  // French elides "de" before a vowel: "Roi d'Oignons".
  return FRENCH ? name.replace(/\bde (?=[AEIOUYÉÈaeiouyéè])/, "d'") : name;
}

export class Deck {
  /**
   * `spec` is the lobby's `deck`: {suits: [{letter,name,symbol}], ranks: [...], wilds: [...]}.
   * @param {DeckSpec | null | undefined} spec
   */
  constructor(spec) {
    this.spec = spec || { suits: [], ranks: [], wilds: [] };
    /** @type {Suit[]} */
    this.suits = this.spec.suits || [];
    /** @type {Rank[]} */
    this.ranks = this.spec.ranks || [];
    /** @type {Wild[]} */
    this.wilds = this.spec.wilds || [];
    // Longest letters first, so that a two-letter suit never loses to a one-letter one.
    this.suitOrder = this.suits
      .map((s, i) => ({ ...s, index: i }))
      .sort((a, b) => b.letter.length - a.letter.length);
    /** @type {Map<string, CardInfo>} */
    this.cache = new Map();
  }

  /**
   * {code, base, high, wild, suit, suitIndex, rank, rankIndex} for a code such as "QS" or "W+".
   * @param {string} code
   * @returns {CardInfo}
   */
  parse(code) {
    const known = this.cache.get(code);
    if (known) return known;
    let base = String(code);
    const high = base.endsWith("+");
    if (high) base = base.slice(0, -1);
    /** @type {CardInfo} */
    const info = { code, base, high, wild: null, suit: null, suitIndex: -1, rank: null, rankIndex: -1 };
    const upper = base.toUpperCase();
    const wildIndex = this.wilds.findIndex((w) => w.code.toUpperCase() === upper);
    if (wildIndex >= 0) {
      info.wild = this.wilds[wildIndex];
      info.wildIndex = wildIndex;
    } else {
      for (const s of this.suitOrder) {
        if (upper.endsWith(s.letter.toUpperCase()) && upper.length > s.letter.length) {
          const rankText = upper.slice(0, upper.length - s.letter.length);
          const rankIndex = this.ranks.findIndex((r) => r.letter.toUpperCase() === rankText);
          if (rankIndex >= 0) {
            info.suit = s;
            info.suitIndex = s.index;
            info.rank = this.ranks[rankIndex];
            info.rankIndex = rankIndex;
            break;
          }
        }
      }
    }
    this.cache.set(code, info);
    return info;
  }

  /** A sort key: suit by suit in deck order, low to high, wild cards last. @param {string} code */
  order(code) {
    const c = this.parse(code);
    if (c.wild) return 100000 + (c.wildIndex || 0);
    if (c.suitIndex < 0) return 200000;
    return c.suitIndex * 1000 + c.rankIndex;
  }

  /** @param {ReadonlyArray<string>} codes */
  sort(codes) {
    return [...codes].sort((a, b) => this.order(a) - this.order(b));
  }

  /** The rank on a card's face: "10", "Q", "A" ("D" on a French screen). @param {Rank} rank */
  rankLabel(rank) {
    const label = rank.label || rank.letter;
    return (FRENCH && FR_RANKS[label.toUpperCase()]) || label;
  }

  /** The letter a player types for a suit: "S" ("P" on a French screen for the pique). @param {Suit} suit */
  suitLetter(suit) {
    return (FRENCH && FR_SUITS[suit.symbol]) || suit.letter;
  }

  /**
   * The rank as a person reads it in a list (the rules, the help): its face, named where the
   * letter misleads, e.g. "A (Assassin)" in Skip the Salad (the server sends `text` only then).
   * @param {Rank} rank
   */
  rankText(rank) {
    // the ruleset's words: in the catalog
    return rank.text ? t("{label} ({name})", { label: this.rankLabel(rank), name: t(rank.name) }) : this.rankLabel(rank);
  }

  /** Short text such as "Q♠" or "W ▲". @param {string} code */
  short(code) {
    const c = this.parse(code);
    if (c.wild) return c.wild.symbol + (c.wild.declare ? (c.high ? " ▲" : " ▼") : "");
    if (!c.suit || !c.rank) return code;
    return this.rankLabel(c.rank) + suitText(c.suit);
  }

  /** Words such as "Queen of Spades" or "Wild, high". @param {string} code */
  name(code) {
    const c = this.parse(code);
    if (c.wild) {
      const wild = t(c.wild.name); // the ruleset's words: in the catalog
      if (!c.wild.declare) return wild;
      return c.high ? t("{wild}, high", { wild }) : t("{wild}, low", { wild });
    }
    if (!c.suit || !c.rank) return code;
    return cardName(t(c.rank.name), c.suit); // the ruleset's words: in the catalog
  }

  /** The card's name without a Wild's high or low: "Queen of Spades", "Wild". @param {string} code */
  plainName(code) {
    const c = this.parse(code);
    return c.wild ? t(c.wild.name) : this.name(code); // the ruleset's words: in the catalog
  }

  /**
   * The card's name inside a sentence: French writes it in lower case there ("Kim joue : dame
   * de pique", "roi d'Oignons"; docs/fr/glossaire.md), English as it is.
   * @param {string} code
   */
  nameInText(code) {
    const name = this.name(code);
    const c = this.parse(code);
    // Skip the Salad's special cards keep their capital ("l'Assassin"): a rank the server
    // explains (`text`), and a Wild.
    if (!FRENCH || c.wild || (c.rank && c.rank.text)) return name;
    return name.charAt(0).toLowerCase() + name.slice(1);
  }

  /** The strings a player may type for a card: its code and its face label with the suit's
   * letter or symbol (on a French screen, the French letters and not the code). @param {string} code */
  typings(code) {
    const c = this.parse(code);
    // A French screen reads French codes only: "AC" is the ace of hearts there, not of clubs.
    const out = new Set(FRENCH && !c.wild ? [] : [c.base.toUpperCase()]);
    if (c.suit && c.rank) {
      out.add((this.rankLabel(c.rank) + this.suitLetter(c.suit)).toUpperCase());
      out.add((this.rankLabel(c.rank) + c.suit.symbol).toUpperCase());
    } else if (c.wild) {
      out.add(c.wild.symbol.toUpperCase());
    }
    return [...out];
  }

  /** @param {number} suitIndex */
  suitColour(suitIndex) {
    const s = this.suits[suitIndex];
    if (!s) return "#333";
    const table = fourColour ? FOUR_COLOUR : TWO_COLOUR;
    return table[s.symbol] || PALETTE[suitIndex % PALETTE.length];
  }

  /** @param {string} code */
  colour(code) {
    const c = this.parse(code);
    if (c.wild) return "#5f3dc4";
    return this.suitColour(c.suitIndex);
  }
}

/**
 * An SVG suit symbol centred at (x, y) with the given size.
 * @param {Suit} suit
 * @param {number} x
 * @param {number} y
 * @param {number} size
 * @param {string} colour
 * @returns {Html}
 */
export function suitMark(suit, x, y, size, colour) {
  const art = suit.art ? ART[suit.art] : undefined;
  if (art) {
    return html`<g class="suit-art" data-art="${suit.art}" transform="translate(${x - size / 2} ${y - size / 2}) scale(${
      size / 100
    })">${trusted(art)}</g>`;
  }
  const shape = SHAPES[suit.symbol];
  if (shape) {
    const s = size / 100;
    return html`<path d="${shape}" fill="${colour}" transform="translate(${x - size / 2} ${
      y - size / 2
    }) scale(${s})"/>`;
  }
  if (!glyphRenders(suit.symbol)) {
    const r = size * 0.46;
    return html`<circle cx="${x}" cy="${y}" r="${r}" fill="${colour}"/><text x="${x}" y="${y}" font-size="${
      r * 1.25
    }" font-weight="800" text-anchor="middle" dominant-baseline="central" fill="#fff" font-family="system-ui, sans-serif">${suit.letter}</text>`;
  }
  return html`<text x="${x}" y="${y}" font-size="${size}" text-anchor="middle" dominant-baseline="central" fill="${colour}" class="suit-text">${suit.symbol}</text>`;
}

/**
 * A standalone inline SVG of one suit symbol (for buttons and labels); nothing for no suit.
 * @param {Deck} deck
 * @param {number} suitIndex
 * @param {number} [size]
 * @returns {Html}
 */
export function suitIcon(deck, suitIndex, size = 18) {
  const suit = deck.suits[suitIndex];
  if (!suit) return html``;
  return html`<svg class="suit-icon" width="${size}" height="${size}" viewBox="0 0 100 100" aria-hidden="true">${suitMark(
    suit,
    50,
    50,
    SHAPES[suit.symbol] || (suit.art && ART[suit.art]) ? 100 : 80,
    deck.suitColour(suitIndex),
  )}</svg>`;
}

let gradientId = 0;

/**
 * The SVG markup of a card face (viewBox 100 x 140).
 * @param {Deck} deck
 * @param {string} code
 * @param {{inHand?: boolean}} [options] inHand: a Wild shows no high/low badge
 * @returns {Html}
 */
export function cardSVG(deck, code, { inHand = false } = {}) {
  const c = deck.parse(code);
  const label = deck.name(code);
  // In the hand, the card's button names it ("Queen of Spades"): the drawing is hidden from
  // screen readers, so the button's name is its own and not "Q" plus a symbol.
  const named = inHand ? html`aria-hidden="true"` : html`role="img" aria-label="${label}"`;
  if (c.wild) {
    const id = `wg${gradientId++}`;
    const sym = c.wild.symbol;
    const wildName = t(c.wild.name); // the ruleset's words: in the catalog
    const badged = c.wild.declare && !inHand;
    // With the high/low badge below, the disc sits higher and smaller, clear of the name.
    const [cy, r] = badged ? [61, 26] : [68, 30];
    const big = Math.round((sym.length <= 1 ? 58 : sym.length <= 2 ? 40 : 26) * (r / 30));
    const declared = c.high ? t("▲ HIGH") : t("▼ LOW");
    const badge =
      badged
      ? html`<g><rect x="17" y="104" width="66" height="20" rx="10" fill="#fff" opacity=".92"/><text x="50" y="118" text-anchor="middle" font-size="13" font-weight="700" fill="#5f3dc4">${
          declared
        }</text></g>`
      : "";
    return html`<svg viewBox="0 0 100 140" class="card-svg" ${named}>
<defs><linearGradient id="${id}" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#ffd43b"/><stop offset=".35" stop-color="#ff6b6b"/><stop offset=".7" stop-color="#845ef7"/><stop offset="1" stop-color="#339af0"/></linearGradient></defs>
<rect x="1.5" y="1.5" width="97" height="137" rx="9" fill="#fff" stroke="#b9b4a7" stroke-width="1.5"/>
<rect x="7" y="7" width="86" height="126" rx="6" fill="url(#${id})"/>
<text x="13" y="28" font-size="20" font-weight="800" fill="#fff">${sym}</text>
<circle cx="50" cy="${cy}" r="${r}" fill="#fff" opacity=".9"/>
<text x="50" y="${cy + 1}" font-size="${big}" font-weight="900" text-anchor="middle" dominant-baseline="central" fill="#5f3dc4">${sym}</text>
<text x="50" y="${badged ? 99 : 120}" font-size="${Math.min(
      11,
      130 / Math.max(1, wildName.length),
    ).toFixed(1)}" font-weight="700" text-anchor="middle" fill="#fff">${wildName.toUpperCase()}</text>
${badge}</svg>`;
  }
  if (!c.suit || !c.rank) {
    return html`<svg viewBox="0 0 100 140" class="card-svg" role="img" aria-label="${code}">
<rect x="1.5" y="1.5" width="97" height="137" rx="9" fill="#fff" stroke="#b9b4a7" stroke-width="1.5"/>
<text x="50" y="75" font-size="26" text-anchor="middle" fill="#333">${code}</text></svg>`;
  }
  const colour = deck.suitColour(c.suitIndex);
  const rank = deck.rankLabel(c.rank);
  const rankSize = rank.length > 1 ? 30 : 36;
  const top = c.rankIndex === deck.ranks.length - 1;
  // A jumbo index (rank and suit in the top-left corner, readable when the cards overlap),
  // a large suit in the lower right, and the rank again upside down in the bottom corner.
  const tint = "#fffdf8";
  return html`<svg viewBox="0 0 100 140" class="card-svg" ${named}>
<rect x="1.5" y="1.5" width="97" height="137" rx="9" fill="${tint}" stroke="#b9b4a7" stroke-width="1.5"/>
<text x="${rank.length > 1 ? 6 : 9}" y="36" font-size="${rankSize}" font-weight="800" letter-spacing="-2" fill="${colour}" font-family="Georgia, 'DejaVu Serif', serif">${rank}</text>
${suitMark(c.suit, 22, 56, 26, colour)}
${suitMark(c.suit, 56, 95, top ? 60 : 50, colour)}
<text x="88" y="118" font-size="17" font-weight="800" fill="${colour}" text-anchor="middle" transform="rotate(180 88 118)" font-family="Georgia, 'DejaVu Serif', serif">${rank}</text>
</svg>`;
}

/** The back of a card. @returns {Html} */
export function backSVG() {
  return html`<svg viewBox="0 0 100 140" class="card-svg card-back" aria-hidden="true">
<rect x="1.5" y="1.5" width="97" height="137" rx="9" fill="#fff" stroke="#b9b4a7" stroke-width="1.5"/>
<rect x="7" y="7" width="86" height="126" rx="6" fill="#2b8a3e"/>
<g stroke="#69db7c" stroke-width="2" opacity=".55" fill="none">
<path d="M7 27l20-20M7 47l40-40M7 67l60-60M7 87l80-80M7 107l86-86M7 127l86-86M27 133l66-66M47 133l46-46M67 133l26-26"/>
<path d="M93 27l-20-20M93 47l-40-40M93 67l-60-60M93 87l-80-80M93 107l-86-86M93 127l-86-86M73 133l-66-66M53 133l-46-46M33 133l-26-26"/>
</g>
<circle cx="50" cy="70" r="18" fill="#fff" opacity=".95"/>
<path d="M50 58c-9 5-11 15-5 24 7-3 11-11 9-19l-4 7" fill="#40c057" stroke="#2b8a3e" stroke-width="1.5"/>
</svg>`;
}
