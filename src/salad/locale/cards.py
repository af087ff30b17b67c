"""Cards in the current language: how a screen shows a card (``D♠``, ``Dame de pique``) and
how a player types one (``dp``, ``10c``), read into the core's card through the ruleset's
:class:`~salad.cards.DeckSpec`.

Records, files, the command line and the protocol keep the English codes (``QS``); only the
screens speak the player's language. French input is a mode, not a mix: ``AC`` is the Ace of
Clubs in English but the Ace of Hearts in French, so a French screen reads French codes only
(docs/fr/glossaire.md, « Saisie des cartes »). No card is named here: the French letters are a
table keyed by the English rank and suit letters, applied to whatever deck the ruleset holds.

>>> from salad.locale import using
>>> from salad.presets import CANADIAN
>>> deck = CANADIAN.deck_for(4)
>>> queen = deck.parse("QS")
>>> short(deck, queen), name(deck, queen), typed(deck, queen)
('Q♠', 'Queen of Spades', 'QS')
>>> with using("fr"):
...     short(deck, queen), name(deck, queen), typed(deck, queen)
('D♠', 'Dame de pique', 'DP')
>>> with using("fr"):
...     name(deck, deck.parse("TH")), typed(deck, deck.parse("JC"))
('10 de cœur', 'VT')
>>> with using("fr"):
...     deck.format(parse(deck, "10c")), deck.format(parse(deck, "d♠"))
('TH', 'QS')
>>> with using("fr"):
...     parse(deck, "QS")
Traceback (most recent call last):
...
salad.errors.CardParseError: « QS » n'est pas une carte (tape par exemple DP, 10C, d♠)
"""

from __future__ import annotations

from functools import lru_cache

from salad.cards import NO_SUIT, Card, CardMask, Deck, RankSpec, Suit, SuitSpec, cards_of
from salad.errors import CardParseError
from salad.locale.current import _, current, pgettext
from salad.moves import HIGH, LOW, Move, trump_move

FRENCH_RANKS = {"T": "10", "J": "V", "Q": "D", "K": "R", "A": "A"}
"""The French letter of a rank, by its English letter (the others, digits, stay)."""
FRENCH_SUITS = {
    "C": ("T", "trèfle"),
    "D": ("K", "carreau"),
    "H": ("C", "cœur"),
    "S": ("P", "pique"),
}
"""The French letter of a suit of the standard deck and its name in a card's name ("Dame de
pique"), by its English letter. Other suits (Skip the Salad's vegetables) keep their letter,
and are named by the catalog (``_(suit.name)``)."""
VOWELS = "AEIOUYÀÂÉÈÊËÎÏÔÛÙÜaeiouyàâéèêëîïôûùü"

LETTERS = {"fr": (FRENCH_RANKS, {k: v[0] for k, v in FRENCH_SUITS.items()})}
"""The letters a language types and shows cards with, where they are not the English ones."""


def _french() -> bool:
    return current().code in LETTERS


def rank_code(letter: str) -> str:
    """A rank's English letter as the current language writes it (``Q``: ``D`` in French)."""
    return FRENCH_RANKS.get(letter, letter) if _french() else letter


def suit_code(letter: str) -> str:
    """A suit's English letter as the current language types it (``S``: ``P`` in French)."""
    return FRENCH_SUITS.get(letter, (letter, ""))[0] if _french() else letter


def rank_letter(rank: RankSpec) -> str:
    """A rank as the current language writes it on a card (``D``; ``10`` in French)."""
    return rank_code(rank.letter)


def suit_letter(suit: SuitSpec) -> str:
    """A suit as the current language types it (``P`` for Spades in French)."""
    return suit_code(suit.letter)


def short(deck: Deck, card: Card) -> str:
    """A card for screens: ``Q♠``; in French ``D♠``, ``10♥``; a wild card by its symbol.

    >>> from salad.locale import using
    >>> from salad.presets import SKIP_THE_SALAD
    >>> deck = SKIP_THE_SALAD.deck_for(4)
    >>> with using("fr"):
    ...     short(deck, deck.parse("KO")), short(deck, deck.parse("W"))
    ('R🧅', 'W')
    """
    suit = deck.suit_of[card]
    if suit == NO_SUIT:
        return deck.symbol(card)
    return rank_letter(deck.spec.ranks[deck.rank_of[card]]) + deck.suits[suit].symbol


def typed(deck: Deck, card: Card) -> str:
    """A card as a player types it in the current language: ``QS``; ``DP`` in French."""
    suit = deck.suit_of[card]
    if suit == NO_SUIT:
        return deck.format(card)
    return rank_letter(deck.spec.ranks[deck.rank_of[card]]) + suit_letter(deck.suits[suit])


def name(deck: Deck, card: Card) -> str:
    """A card in words: ``Queen of Spades``; ``Dame de pique``, ``10 de cœur``, ``Roi
    d'Oignons`` in French; a wild card by its name.

    >>> from salad.locale import using
    >>> from salad.presets import SKIP_THE_SALAD
    >>> deck = SKIP_THE_SALAD.deck_for(4)
    >>> with using("fr"):
    ...     name(deck, deck.parse("KO")), name(deck, deck.parse("W"))
    ("Roi d'Oignons", 'Passe-partout')
    """
    suit = deck.suit_of[card]
    if suit == NO_SUIT:
        return _(deck.wild_spec(card).name)
    rank = deck.spec.ranks[deck.rank_of[card]]
    s = deck.suits[suit]
    if _french():
        word = rank.letter if rank.letter.isdigit() else _(rank.name)
        if rank.letter in FRENCH_RANKS and FRENCH_RANKS[rank.letter].isdigit():
            word = FRENCH_RANKS[rank.letter]
        suit_word = FRENCH_SUITS[s.letter][1] if s.letter in FRENCH_SUITS else _(s.name)
    else:
        word, suit_word = _(rank.name), _(s.name)
    if suit_word[:1] in VOWELS:
        # TRANSLATORS: a card's name when the suit's name starts with a vowel (French: d'Oignons)
        return pgettext("before a vowel", "{rank} of {suit}").format(rank=word, suit=suit_word)
    return _("{rank} of {suit}").format(rank=word, suit=suit_word)


def suit_name(deck: Deck, suit: Suit) -> str:
    """A suit in words in the current language (``Cœurs``)."""
    return _(deck.suits[suit].name)


def suit_label(deck: Deck, suit: Suit, symbols: bool = True) -> str:
    """A suit for screens: ``♥ Hearts`` (``♥ Cœurs``), or its name alone."""
    s = deck.suits[suit]
    return f"{s.symbol} {_(s.name)}" if symbols else _(s.name)


@lru_cache(maxsize=128)
def _index(deck: Deck, french: bool) -> dict[str, str]:
    """Every way of typing a card of ``deck`` (upper case), to its English code."""
    out: dict[str, str] = {}
    for card, code in enumerate(deck.codes):
        suit = deck.suit_of[card]
        if suit == NO_SUIT:
            out[code.upper()] = code
            out[deck.symbol(card).upper()] = code
            continue
        rank = deck.spec.ranks[deck.rank_of[card]]
        s = deck.suits[suit]
        if french:
            ranks = [FRENCH_RANKS.get(rank.letter, rank.letter)]
            suits = [FRENCH_SUITS.get(s.letter, (s.letter, ""))[0], s.symbol]
        else:
            ranks = [rank.letter, *rank.aliases]
            suits = [s.letter, s.symbol]
        for r in ranks:
            for sl in suits:
                out[(r + sl).upper()] = code
    return out


def _key(text: str) -> str:
    key = text.strip().upper().replace("\ufe0f", "")
    return key.translate(str.maketrans("♤♡♢♧", "♠♥♦♣"))


def accepted(deck: Deck) -> frozenset[str]:
    """Every way of typing a card of ``deck`` in the current language, upper case."""
    return frozenset(_index(deck, _french()))


def examples(deck: Deck) -> tuple[str, str]:
    """Two cards of ``deck`` as a player types them in the current language (``QS``, ``10H``;
    ``DP``, ``10C`` in French), for help and error texts."""
    first, second = deck.examples()
    if not _french():
        return first, second
    return typed(deck, deck.parse(first)), typed(deck, deck.parse(second))


def unknown_card(deck: Deck, text: str) -> CardParseError:
    """The one-line error for ``text``, which names no card of ``deck``."""
    first, second = examples(deck)
    symbol = short(deck, deck.parse(deck.examples()[0])).lower()
    return CardParseError(
        _("'{text}' is not a card (type e.g. {first}, {second}, {symbol})").format(
            text=text.strip(), first=first, second=second, symbol=symbol
        )
    )


def english(deck: Deck, text: str) -> str:
    """The English code (records' and the core's) of a card typed in the current language,
    a Wild's ``+``/``-`` kept: ``DP`` → ``QS`` in French. Raises a one-line
    :class:`~salad.errors.CardParseError` naming ``text``."""
    body = text.strip()
    mark = ""
    if body.endswith((HIGH, LOW)) and len(body) > 1:
        body, mark = body[:-1], body[-1]
    code = _index(deck, _french()).get(_key(body))
    if code is None:
        raise unknown_card(deck, text)
    return code + mark


def parse(deck: Deck, text: str, among: CardMask | None = None) -> Card:
    """A card typed in the current language, as the core's card (the lowest copy in
    ``among`` where the deck holds copies)."""
    return deck.parse(english(deck, text).rstrip(HIGH + LOW), among)


def parse_suit(deck: Deck, text: str) -> Suit:
    """A suit typed in the current language: its letter (``P`` in French), symbol or name."""
    key = _key(text)
    for i, s in enumerate(deck.suits):
        if key in (suit_letter(s).upper(), s.symbol, _(s.name).upper()):
            return i
    raise CardParseError(_("'{text}' is not a suit").format(text=text.strip()))


def to_move(deck: Deck, text: str, trump: bool = False, among: CardMask | None = None) -> Move:
    """A move typed in the current language: a card (``DP``, ``W+`` a Wild high) or, when
    ``trump``, a suit. Raises a one-line :class:`~salad.errors.CardParseError`."""
    if trump:
        return trump_move(deck, parse_suit(deck, text))
    code = english(deck, text)
    high = code.endswith(HIGH)
    card = deck.parse(code.rstrip(HIGH + LOW), among)
    return card + deck.size if high else card


def move_label(deck: Deck, move: Move, symbols: bool = True) -> str:
    """A move for people in the current language: ``D♠``, ``W (haut)``, ``♥ Cœurs``."""
    size = deck.size
    if move >= 2 * size:
        s = deck.suits[move - 2 * size]
        return f"{s.symbol} {_(s.name)}" if symbols else f"{suit_letter(s)} ({_(s.name)})"
    card = move % size
    text = short(deck, card) if symbols else typed(deck, card)
    if deck.declare_mask >> card & 1:
        if move >= size:
            return _("{card} (high)").format(card=text)
        return _("{card} (low)").format(card=text)
    return text


def move_code(deck: Deck, move: Move) -> str:
    """A move as a player types it in the current language: ``DP``, ``W+``, a suit letter."""
    size = deck.size
    if move >= 2 * size:
        return suit_letter(deck.suits[move - 2 * size])
    card = move % size
    code = typed(deck, card)
    if deck.declare_mask >> card & 1:
        code += HIGH if move >= size else LOW
    return code


def mask_text(deck: Deck, mask: CardMask, symbols: bool = False) -> str:
    """Some cards, lowest first, as the current language shows (or types) them."""
    fmt = short if symbols else typed
    return " ".join(fmt(deck, c) for c in cards_of(mask))
