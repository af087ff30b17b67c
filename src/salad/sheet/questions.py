"""What a hand of the score sheet asks: its questions, derived from the hand's live penalties."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from salad.cards import NO_SUIT, CardMask, Deck, cards_of
from salad.errors import SaladError
from salad.locale import _, pgettext
from salad.locale import cards as shown
from salad.ruleset import CompiledPenalty, CompiledRules, Kind

__all__ = [
    "CARD",
    "CARDS",
    "LAST",
    "TOKEN",
    "TRICKS",
    "Field",
    "SheetError",
    "card_mark",
    "hand_fields",
]


class SheetError(SaladError):
    """An entry or a sheet file that does not add up; ``problems`` lists every reason."""

    def __init__(self, problems: str | Sequence[str]) -> None:
        self.problems = [problems] if isinstance(problems, str) else list(problems)
        super().__init__("; ".join(self.problems))


TRICKS, CARDS, CARD, LAST, TOKEN = "tricks", "cards", "card", "last-trick", "token"


def card_mark(deck: Deck, mask: CardMask) -> dict[str, Any] | None:
    """What a penalty's cards are, for a page to draw beside its name (a suit's drawing, say):
    one card ``{"card": "KO", "suit": 3}``, cards of one suit ``{"suit": 2}``; None for
    anything else (tricks, a rank in every suit, wild cards). ``suit`` indexes the deck's
    suits."""
    cards = cards_of(mask)
    suits = {deck.suit_of[c] for c in cards}
    if len(suits) != 1 or NO_SUIT in suits:
        return None
    suit = int(suits.pop())
    if len(cards) == 1:
        return {"card": deck.format(cards[0]), "suit": suit}
    return {"suit": suit}


_ORDER = (TRICKS, CARDS, CARD, LAST, TOKEN)


@dataclass(frozen=True)
class Field:
    """One question of a hand's entry. ``tricks`` and ``cards`` take a count per player; ``card``
    (a single penalty card), ``last-trick`` and ``token`` take one player (a seat)."""

    id: str
    """The key of the entry: the id of the first penalty it answers."""
    kind: str
    label: str
    """E.g. ``Tricks``, ``Hearts``, ``King of Spades``, ``Last trick``, ``Rotten Tomato``."""
    total: int
    """Tricks played, or matching cards in play (1 for the one-player fields)."""
    mask: CardMask
    """The cards it counts (0 for tricks and the last trick)."""
    points: int
    """What one trick, one card or the event costs (the penalties it answers, summed)."""
    penalties: tuple[str, ...]
    """The ids of the penalties it answers."""
    code: str = ""
    """The card's code, for a ``card`` field."""
    suit: int = -1
    """The suit of every card it counts, when they are of one suit (else -1)."""
    card_names: tuple[str, str] = ("", "")
    """The English names of the card's rank and suit, for a ``card`` field (``King``,
    ``Spades``): its code is written in the player's letters (``RP`` in French)."""

    @property
    def mark(self) -> dict[str, Any] | None:
        """The suit or card it counts, for a page to draw (:func:`card_mark`), or None."""
        if self.suit < 0:
            return None
        return {"card": self.code, "suit": self.suit} if self.code else {"suit": self.suit}

    @property
    def per_player(self) -> bool:
        return self.kind in (TRICKS, CARDS)

    @property
    def name(self) -> str:
        """The label in the current language (the penalties' names are the ruleset's words,
        in the catalog): ``Hearts``, ``Cœurs``."""
        return " / ".join(_(part) for part in self.label.split(" / "))

    @property
    def noun(self) -> str:
        return self.name.lower()

    @property
    def question(self) -> str:
        """The question in the current language."""
        if self.kind == TRICKS:
            return _("How many tricks did each player take? ({total} in all)").format(
                total=self.total
            )
        if self.kind == CARDS:
            return _("How many {cards} did each player take? ({total} in all)").format(
                cards=self.noun, total=self.total
            )
        if self.kind == CARD:
            return _("Who took the {card}?").format(card=self.title)
        if self.kind == LAST:
            return _("Who took the last trick?")
        return _("Who holds the {token}?").format(token=self.name)

    @property
    def title(self) -> str:
        """The label, with the card's code when it is a single card (``King of Spades (KS)``,
        ``Roi de pique (RP)``), in the current language."""
        if not self.code:
            return self.name
        return f"{self.name} ({card_code(self.code, *self.card_names)})"

    @property
    def cost(self) -> str:
        """The price in words: ``10 each`` or ``100``."""
        if self.kind == TRICKS:
            return pgettext("per trick", "{points} each").format(points=self.points)
        if self.per_player:
            return pgettext("per card", "{points} each").format(points=self.points)
        return f"{self.points}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "label": self.title,
            "question": self.question,
            "total": self.total,
            "points": self.points,
            "per_player": self.per_player,
            "penalties": list(self.penalties),
            "mark": self.mark,
        }


def hand_fields(rules: CompiledRules, index: int) -> tuple[Field, ...]:
    """The questions of hand ``index`` (0-based), derived from its live penalties: tricks first,
    then card counts, single cards, the last trick and the token. Penalties that count the same
    cards share a question; a penalty whose cards are all out of play asks nothing."""
    if not 0 <= index < len(rules.hands):
        raise SheetError(
            _("hand {n}: there are only {count} hands").format(n=index + 1, count=len(rules.hands))
        )
    return _fields(rules, index)


@lru_cache(maxsize=512)
def _fields(rules: CompiledRules, index: int) -> tuple[Field, ...]:
    groups: dict[tuple[str, int], list[CompiledPenalty]] = {}
    for p in rules.hands[index].penalties:
        if p.kind == Kind.TRICK:
            key = (TRICKS, 0)
        elif p.kind == Kind.LAST_TRICK:
            key = (LAST, 0)
        elif p.kind == Kind.TOKEN:
            key = (TOKEN, 0)  # the engine keeps one token for every token penalty
        elif not p.mask:
            continue
        else:
            key = (CARD if p.mask.bit_count() == 1 else CARDS, p.mask)
        groups.setdefault(key, []).append(p)
    out: list[Field] = []
    deck = rules.deck
    for (kind, mask), ps in groups.items():
        if kind == TOKEN:
            mask = 0
            for p in ps:
                mask |= p.mask
            if not mask:
                continue
        label = " / ".join(dict.fromkeys(p.penalty.name for p in ps))
        if kind == TRICKS:
            total = rules.tricks
        elif kind == CARDS:
            total = mask.bit_count()
        else:
            total = 1
        code = deck.format(mask.bit_length() - 1) if kind == CARD else ""
        card_names = ("", "")
        if kind == CARD:
            card = mask.bit_length() - 1
            if deck.suit_of[card] != NO_SUIT:
                card_names = (
                    deck.spec.ranks[deck.rank_of[card]].name,
                    deck.suits[deck.suit_of[card]].name,
                )
        points = sum(p.points for p in ps)
        ids = tuple(p.penalty.id for p in ps)
        mark = card_mark(deck, mask)
        suit = mark["suit"] if mark is not None else -1
        out.append(Field(ids[0], kind, label, total, mask, points, ids, code, suit, card_names))
    out.sort(key=lambda f: _ORDER.index(f.kind))
    return tuple(out)


# -- a card's code in the player's letters ---------------------------------------------------
def card_code(code: str, rank: str = "", suit: str = "") -> str:
    """The code of a standard card (``rank`` and ``suit``: its English names) in the letters of
    the current language: ``KS`` is ``RP`` (roi de pique) in French; any other as it is.

    >>> from salad.locale import using
    >>> with using("fr"):
    ...     card_code("KS", "King", "Spades"), card_code("10H", "Ten", "Hearts")
    ('RP', '10C')
    """
    english = {"Clubs": "C", "Diamonds": "D", "Hearts": "H", "Spades": "S"}
    if suit not in english or not code.endswith(english[suit]):
        return code
    rank_code = code[: -len(english[suit])]
    if rank_code == "10" or rank_code not in ("T", rank[:1]):
        return rank_code + shown.suit_code(english[suit])
    return shown.rank_code(rank_code) + shown.suit_code(english[suit])
