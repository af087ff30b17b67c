"""One move notation: every move of the game as an integer, and as the text people and files use.

A move is a small integer (:data:`Move`), read against the deck in play:

- ``0 <= m < size``: a card, played to the trick or chosen to pass (``QS``, ``TH``; ``10H``
  is read too); a Wild played this way counts low where Wilds may be declared (``W-``, ``W``);
- ``size <= m < 2 * size``: a Wild declared high (``W+``);
- ``2 * size + s``: the trump suit ``s`` chosen (``trump:H``).

Every part of salad (the engine, records, views, the server's protocol, the terminal app,
outside bots and the OpenSpiel adapter) writes moves with :func:`format_move` and reads them
with :func:`parse_move`, so the notation is defined here once::

    >>> from salad.presets import PRESETS
    >>> deck = PRESETS["canadian"].deck_for(4)
    >>> format_move(deck, parse_move(deck, "10h"))
    'TH'
    >>> format_move(deck, trump_move(deck, 2))
    'trump:H'
    >>> parse_move(deck, "trump:H", trump=True) == trump_move(deck, 2)
    True
    >>> parse_move(deck, "ZZ")
    Traceback (most recent call last):
    ...
    salad.errors.CardParseError: unknown card 'ZZ' (expected e.g. QS, 10H, q♠)
"""

from __future__ import annotations

from salad.cards import Card, CardMask, Deck
from salad.errors import CardParseError

Move = int
"""An action: a card to play or pass, a Wild declared high, or a trump choice."""

TRUMP_PREFIX = "trump:"
HIGH, LOW = "+", "-"


def trump_move(deck: Deck, suit: int) -> Move:
    """The move that picks ``suit`` as trump."""
    return 2 * deck.size + suit


def is_trump_choice(deck: Deck, move: Move) -> bool:
    return move >= 2 * deck.size


def trump_suit(deck: Deck, move: Move) -> int:
    """The suit a trump choice picks."""
    return move - 2 * deck.size


def card_of(deck: Deck, move: Move) -> Card:
    """The card a play or pass moves (a Wild declared high is still that card)."""
    return move % deck.size


def is_declared_high(deck: Deck, move: Move) -> bool:
    return deck.size <= move < 2 * deck.size


def format_move(deck: Deck, move: Move, symbols: bool = False) -> str:
    """A move as written in records and the protocol: ``QS``, ``W+``, ``trump:H``.

    With ``symbols``, cards are drawn with suit symbols (``Q♠``) for people.
    """
    size = deck.size
    if move >= 2 * size:
        return TRUMP_PREFIX + deck.suits[move - 2 * size].letter
    card = move % size
    text = deck.symbol(card) if symbols else deck.format(card)
    return text + HIGH if move >= size else text


def move_code(deck: Deck, move: Move) -> str:
    """A move as a person types it: ``QS``, ``W+`` (a Wild high), ``W-`` (low), or a suit letter."""
    size = deck.size
    if move >= 2 * size:
        return deck.suits[move - 2 * size].letter
    card = move % size
    code = deck.format(card)
    if deck.declare_mask >> card & 1:
        code += HIGH if move >= size else LOW
    return code


def move_label(deck: Deck, move: Move, symbols: bool = True) -> str:
    """A move in words for people: ``Q♠``, ``W (high)``, ``W (low)``, ``♥ Hearts``."""
    size = deck.size
    if move >= 2 * size:
        s = deck.suits[move - 2 * size]
        return f"{s.symbol} {s.name}" if symbols else f"{s.letter} ({s.name})"
    card = move % size
    text = deck.symbol(card) if symbols else deck.format(card)
    if deck.declare_mask >> card & 1:
        text += " (high)" if move >= size else " (low)"
    return text


def parse_move(
    deck: Deck, text: str, *, trump: bool = False, among: CardMask | None = None
) -> Move:
    """A move from text: ``QS``, ``10h``, ``Q♠``; ``+`` after a Wild declares it high (``-`` or
    nothing plays it low); ``trump:H``, ``H`` or ``hearts`` when ``trump`` (a trump is chosen).

    ``among`` (the cards the seat may move) picks which copy of identical cards is meant.
    Raises :class:`~salad.errors.CardParseError` for text that names no move.
    """
    text = text.strip()
    chose = text[: len(TRUMP_PREFIX)].lower() == TRUMP_PREFIX
    if trump:
        return trump_move(deck, deck.parse_suit(text[len(TRUMP_PREFIX) :] if chose else text))
    if chose:
        raise CardParseError(f"{text!r}: no trump is chosen now")
    high = text.endswith(HIGH)
    if high or text.endswith(LOW):
        text = text[:-1]
    card = deck.parse(text, among)
    return card + deck.size if high else card


def format_moves(deck: Deck, moves: list[Move] | tuple[Move, ...]) -> str:
    """Moves separated by spaces, as error messages list the legal ones."""
    return " ".join(format_move(deck, m) for m in moves)
