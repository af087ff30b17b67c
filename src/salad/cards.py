"""Cards as small integers and hands as bitmasks, built from a deck described as data.

A :class:`DeckSpec` says what a deck is made of (suits, ranks, copies, wild cards, the order
cards are removed in); :func:`build_deck` turns it into a concrete :class:`Deck` for a player
count, where every physical card is an integer index and a set of cards is a bitmask.

Within a suit, a higher index means a higher rank (copies of the same card sit side by side),
so the winner of a trick is found by comparing integers.

>>> from salad.presets import CANADIAN
>>> deck = CANADIAN.deck_for(4)
>>> card = deck.parse("Q♠")
>>> deck.format(card), deck.symbol(card)
('QS', 'Q♠')
>>> deck.format_mask(deck.parse_many("10h qs 2c"))
'2C TH QS'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache

from salad.errors import CardParseError

Card = int
"""A physical card: an index into a :class:`Deck`."""

CardMask = int
"""A set of cards: bit ``i`` stands for card ``i``."""

Suit = int
"""A suit: an index into ``Deck.suits``."""

NO_SUIT: Suit = -1


class WildWins(IntEnum):
    """When a wild card can win a trick."""

    NEVER = 0
    """Only when every card of the trick is wild (jokers)."""
    DECLARED = 1
    """When its player declares it high (Skip the Salad's Wilds)."""
    ALWAYS = 2
    """Always: it beats everything (Salad Dressing)."""


@dataclass(frozen=True)
class SuitSpec:
    letter: str
    name: str
    symbol: str
    min_players: int = 0
    """The suit is only in the deck from this many players on (Skip the Salad's Corn)."""
    art: str = ""
    """How a screen draws the suit where its symbol is not a shape every font has: the name
    of a drawing (``carrot``: the web client's cards.js draws it); '' for the symbol."""


USUAL_RANK_NAMES = {"T": "Ten", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
"""What a card player reads a rank letter as."""


@dataclass(frozen=True)
class RankSpec:
    letter: str
    name: str
    aliases: tuple[str, ...] = ()

    @property
    def clear(self) -> bool:
        """Whether a person reads the letter right: a number, or a letter that means what it
        does in a standard deck (``Q``, ``A`` for an Ace). Skip the Salad's ``A`` is an
        Assassin, not an Ace, so wherever a person reads ranks it is named."""
        return self.letter.isdigit() or USUAL_RANK_NAMES.get(self.letter) == self.name

    @property
    def word(self) -> str:
        """The rank in a sentence: its letter when that is clear, else its name
        (``Q of any suit``, ``Assassin of any suit``)."""
        return self.letter if self.clear else self.name

    @property
    def listed(self) -> str:
        """The rank in a list of letters: ``Q``, or ``A (Assassin)`` where the letter misleads."""
        return self.letter if self.clear else f"{self.letter} ({self.name})"


@dataclass(frozen=True)
class WildSpec:
    """Cards with no suit that may be played at any time."""

    code: str
    name: str
    symbol: str
    count: int
    wins: WildWins = WildWins.NEVER


@dataclass(frozen=True)
class DeckSpec:
    suits: tuple[SuitSpec, ...]
    ranks: tuple[RankSpec, ...]
    """Low to high."""
    wilds: tuple[WildSpec, ...] = ()
    copies: int = 1
    min_cards_each: int = 0
    """Shuffle in more copies until every player gets at least this many cards."""
    removal_suits: tuple[str, ...] = ()
    """Removal walks the ranks low to high, taking these suits in this order at each rank."""
    removal: tuple[str, ...] = ()
    """An explicit removal order of card codes; overrides ``removal_suits`` when given."""

    def copies_for(self, players: int) -> int:
        copies = self.copies
        while self.min_cards_each and (
            self._ordinary_count(players) * copies // players < self.min_cards_each
        ):
            copies += 1
        return copies

    def _ordinary_count(self, players: int) -> int:
        suits = [s for s in self.suits if s.min_players <= players]
        return len(suits) * len(self.ranks)

    def removal_order(self, players: int) -> list[str]:
        """Card codes in the order they are taken out (each code once per copy)."""
        if self.removal:
            return list(self.removal)
        letters = [s.letter for s in self.suits if s.min_players <= players]
        order = [s for s in self.removal_suits if s in letters] or letters
        return [r.letter + s for r in self.ranks for s in order]


@dataclass(frozen=True)
class Deck:
    """A concrete deck for one player count; every table here is indexed by card."""

    spec: DeckSpec
    players: int
    suits: tuple[SuitSpec, ...]
    codes: tuple[str, ...]
    suit_of: tuple[Suit, ...]
    """``NO_SUIT`` for wild cards."""
    rank_of: tuple[int, ...]
    """Index into ``spec.ranks``; -1 for wild cards."""
    wild_wins: tuple[int, ...]
    """``WildWins`` of each card; -1 for ordinary cards."""
    suit_masks: tuple[CardMask, ...]
    wild_mask: CardMask
    declare_mask: CardMask
    """Wild cards whose player declares them high or low."""
    always_mask: CardMask
    """Cards that win any trick they are in."""
    all_mask: CardMask
    """Every card of the deck, removed ones included."""
    removed: tuple[Card, ...]
    in_play: CardMask
    """Every card that is dealt."""
    cards_each: int

    @property
    def size(self) -> int:
        return len(self.codes)

    # -- formatting -------------------------------------------------------------------------
    def format(self, card: Card) -> str:
        """The plain code used in records and protocols, e.g. ``QS``."""
        return self.codes[card]

    def symbol(self, card: Card) -> str:
        """The code for screens, e.g. ``Q♠``."""
        suit = self.suit_of[card]
        if suit == NO_SUIT:
            return self.wild_spec(card).symbol
        return self.spec.ranks[self.rank_of[card]].letter + self.suits[suit].symbol

    def name(self, card: Card) -> str:
        suit = self.suit_of[card]
        if suit == NO_SUIT:
            return self.wild_spec(card).name
        return f"{self.spec.ranks[self.rank_of[card]].name} of {self.suits[suit].name}"

    def wild_spec(self, card: Card) -> WildSpec:
        """The Wild card ``card`` is (its spec: code, name, symbol)."""
        code = self.codes[card]
        return next(w for w in self.spec.wilds if w.code == code)

    def format_mask(self, mask: CardMask, symbols: bool = False) -> str:
        fmt = self.symbol if symbols else self.format
        return " ".join(fmt(c) for c in cards_of(mask))

    # -- parsing ----------------------------------------------------------------------------
    def examples(self) -> tuple[str, str]:
        """Two cards of this deck as a player types them, for help and error texts: a high
        card of the last suit and a two-digit one of another (``QS``, ``10H`` in the standard
        deck, ``QO``, ``10T`` in the vegetable one)."""
        return _examples(self)

    def parse(self, text: str, among: CardMask | None = None) -> Card:
        """Parse one card. Where the deck holds copies, take the lowest copy in ``among``."""
        key = _normalise(text)
        matches = self._by_code().get(key)
        if matches is None:
            first, second = self.examples()
            typed = self.symbol(self._by_code()[_normalise(first)][0]).lower()
            raise CardParseError(
                f"unknown card {text!r} (expected e.g. {first}, {second}, {typed})"
            )
        if among is not None:
            for card in matches:
                if among >> card & 1:
                    return card
        return matches[0]

    def parse_many(self, text: str | Iterable[str]) -> CardMask:
        """Parse cards separated by spaces or commas into a mask; copies fill up in order."""
        words = text.replace(",", " ").split() if isinstance(text, str) else list(text)
        mask = 0
        for word in words:
            options = [c for c in self._by_code().get(_normalise(word), ()) if not mask >> c & 1]
            if not options:
                if _normalise(word) in self._by_code():
                    raise CardParseError(f"card {word!r} given more times than the deck holds")
                self.parse(word)  # raises the unknown-card error
            mask |= 1 << options[0]
        return mask

    def _by_code(self) -> dict[str, tuple[Card, ...]]:
        return _code_index(self)

    def parse_suit(self, text: str) -> Suit:
        key = text.strip().upper()
        for i, s in enumerate(self.suits):
            if key in (s.letter.upper(), s.name.upper(), s.symbol):
                return i
        raise CardParseError(f"unknown suit {text!r}")


@lru_cache(maxsize=64)
def _examples(deck: Deck) -> tuple[str, str]:
    ranks = deck.spec.ranks
    suits = deck.suits
    index = _code_index(deck)
    found: list[str] = []
    for r, s in ((len(ranks) - 3, len(suits) - 1), (len(ranks) - 5, len(suits) - 2)):
        if r < 0 or s < 0:
            continue
        rank = ranks[r]
        text = max((rank.letter, *rank.aliases), key=len) + suits[s].letter
        cards = index.get(_normalise(text), ())
        if any(deck.in_play >> c & 1 for c in cards) and text not in found:
            found.append(text)
    for card in cards_of(deck.in_play):  # a deck too small for the usual picks
        if len(found) == 2:
            break
        if deck.format(card) not in found:
            found.append(deck.format(card))
    return found[0], found[1]


@lru_cache(maxsize=64)
def _code_index(deck: Deck) -> dict[str, tuple[Card, ...]]:
    index: dict[str, list[Card]] = {}
    for card, code in enumerate(deck.codes):
        index.setdefault(code.upper(), []).append(card)
        suit = deck.suit_of[card]
        if suit != NO_SUIT:
            rank = deck.spec.ranks[deck.rank_of[card]]
            s = deck.suits[suit]
            for r in (rank.letter, *rank.aliases):
                for sl in (s.letter, s.symbol):
                    key = (r + sl).upper()
                    if key != code.upper():
                        index.setdefault(key, []).append(card)
        else:
            w = deck.wild_spec(card)
            if w.symbol.upper() != code.upper():
                index.setdefault(w.symbol.upper(), []).append(card)
    return {k: tuple(v) for k, v in index.items()}


def _normalise(text: str) -> str:
    # U+FE0F turns ♠ into an emoji; drop it, and map the white suits to the black ones.
    key = text.strip().upper().replace("\ufe0f", "")
    return key.translate(str.maketrans("♤♡♢♧", "♠♥♦♣"))


def cards_of(mask: CardMask) -> list[Card]:
    """The cards of a mask, lowest index first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def iter_cards(mask: CardMask) -> Iterator[Card]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def popcount(mask: CardMask) -> int:
    return mask.bit_count()


@lru_cache(maxsize=256)
def build_deck(spec: DeckSpec, players: int) -> Deck:
    """Lay out the cards for ``players`` and take out the removal cards until the deal is even."""
    suits = tuple(s for s in spec.suits if s.min_players <= players)
    copies = spec.copies_for(players)
    codes: list[str] = []
    suit_of: list[int] = []
    rank_of: list[int] = []
    wild_wins: list[int] = []
    suit_masks = [0] * len(suits)
    for si, s in enumerate(suits):
        for ri, r in enumerate(spec.ranks):
            for _ in range(copies):
                suit_masks[si] |= 1 << len(codes)
                codes.append(r.letter + s.letter)
                suit_of.append(si)
                rank_of.append(ri)
                wild_wins.append(-1)
    wild_mask = declare_mask = always_mask = 0
    for w in spec.wilds:
        for _ in range(w.count):
            bit = 1 << len(codes)
            wild_mask |= bit
            if w.wins == WildWins.DECLARED:
                declare_mask |= bit
            elif w.wins == WildWins.ALWAYS:
                always_mask |= bit
            codes.append(w.code)
            suit_of.append(NO_SUIT)
            rank_of.append(-1)
            wild_wins.append(int(w.wins))
    total = len(codes)
    excess = total % players
    removed: list[Card] = []
    if excess:
        taken = 0
        for code in spec.removal_order(players):
            for card, c in enumerate(codes):
                if c == code and card not in removed and suit_of[card] != NO_SUIT:
                    removed.append(card)
                    taken += 1
                    if taken == excess:
                        break
            if taken == excess:
                break
        if taken < excess:
            raise ValueError(f"removal order runs out before the deck divides by {players}")
    all_mask = (1 << total) - 1
    in_play = all_mask
    for card in removed:
        in_play &= ~(1 << card)
    return Deck(
        spec=spec,
        players=players,
        suits=suits,
        codes=tuple(codes),
        suit_of=tuple(suit_of),
        rank_of=tuple(rank_of),
        wild_wins=tuple(wild_wins),
        suit_masks=tuple(suit_masks),
        wild_mask=wild_mask,
        declare_mask=declare_mask,
        always_mask=always_mask,
        all_mask=all_mask,
        removed=tuple(removed),
        in_play=in_play,
        cards_each=(total - len(removed)) // players,
    )
