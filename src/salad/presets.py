"""The presets of docs/rules.md as data: ``canadian``, ``fruit-salad`` and ``extended``."""

from __future__ import annotations

from dataclasses import replace

from salad.cards import DeckSpec, RankSpec, SuitSpec, WildSpec, WildWins
from salad.ruleset import Kind, Moon, Penalty, Round, Ruleset, Selector


def avoid(*penalties: Penalty) -> tuple[Round, ...]:
    """One "No ..." round per penalty: round ``no-<id>`` named "No <name>"."""
    return tuple(Round(f"no-{p.id}", f"No {p.name}", (p.id,)) for p in penalties)


STANDARD_SUITS = (
    SuitSpec("C", "Clubs", "♣"),
    SuitSpec("D", "Diamonds", "♦"),
    SuitSpec("H", "Hearts", "♥"),
    SuitSpec("S", "Spades", "♠"),
)

STANDARD_RANKS = (
    RankSpec("2", "Two"),
    RankSpec("3", "Three"),
    RankSpec("4", "Four"),
    RankSpec("5", "Five"),
    RankSpec("6", "Six"),
    RankSpec("7", "Seven"),
    RankSpec("8", "Eight"),
    RankSpec("9", "Nine"),
    RankSpec("T", "Ten", aliases=("10",)),
    RankSpec("J", "Jack"),
    RankSpec("Q", "Queen"),
    RankSpec("K", "King"),
    RankSpec("A", "Ace"),
)

STANDARD_DECK = DeckSpec(STANDARD_SUITS, STANDARD_RANKS, removal_suits=("C", "D"))

# The five penalties of the classic game, less their points: each catalogue below that has one
# gives its points with `classic`.
_CLASSIC = {
    p.id: p
    for p in (
        Penalty("tricks", "Tricks", Kind.TRICK, 0),
        Penalty("hearts", "Hearts", Kind.CARDS, 0, Selector(suits=("H",))),
        Penalty("queens", "Queens", Kind.CARDS, 0, Selector(ranks=("Q",))),
        Penalty("king-of-spades", "King of Spades", Kind.CARDS, 0, Selector(cards=("KS",))),
        Penalty("last-trick", "Last Trick", Kind.LAST_TRICK, 0),
    )
}


def classic(penalty: str, points: int) -> Penalty:
    """The classic penalty with id ``penalty``, worth ``points``.

    >>> classic("queens", 30).describe()
    '30 per card: Q of any suit'
    """
    return replace(_CLASSIC[penalty], points=points)


CLASSIC_PENALTIES = (
    classic("tricks", 10),
    classic("hearts", 10),
    classic("queens", 25),
    classic("king-of-spades", 100),
    classic("last-trick", 100),
)

CLASSIC_ROUNDS = (
    *avoid(*CLASSIC_PENALTIES),
    Round("salad", "Salad (All of the Above)", (), all_previous=True),
)

CANADIAN = Ruleset(
    preset="canadian",
    title="Canadian Salad",
    deck=STANDARD_DECK,
    catalogue=CLASSIC_PENALTIES,
    rounds=CLASSIC_ROUNDS,
    hands=tuple(r.id for r in CLASSIC_ROUNDS),
)

FRUIT_SALAD = replace(
    CANADIAN,
    preset="fruit-salad",
    title="Fruit Salad",
    deck=replace(STANDARD_DECK, removal_suits=("C", "D", "S", "H")),
)

_EXTENDED_PENALTIES = (
    Penalty("red-cards", "Red Cards", Kind.CARDS, 5, Selector(suits=("H", "D"))),
    Penalty(
        "even-cards", "Even Cards", Kind.CARDS, 5, Selector(ranks=("2", "4", "6", "8", "T", "Q"))
    ),
    classic("tricks", 10),
    classic("hearts", 10),
    Penalty("face-cards", "Face Cards", Kind.CARDS, 10, Selector(ranks=("J", "Q", "K"))),
    Penalty("sevens", "Sevens", Kind.CARDS, 30, Selector(ranks=("7",))),
    Penalty("aces", "Aces", Kind.CARDS, 30, Selector(ranks=("A",))),
    classic("queens", 30),
    Penalty("one-eyed", "One-Eyed Face Cards", Kind.CARDS, 40, Selector(cards=("JH", "JS", "KD"))),
    classic("king-of-spades", 75),
    classic("last-trick", 75),
)

_EXTENDED_ROUNDS = (
    *avoid(*_EXTENDED_PENALTIES),
    Round("all-of-the-above", "All of the Above", (), all_previous=True),
)

EXTENDED = Ruleset(
    preset="extended",
    title="Canadian Salad, extended (12 hands)",
    deck=replace(STANDARD_DECK, min_cards_each=10),
    catalogue=_EXTENDED_PENALTIES,
    rounds=_EXTENDED_ROUNDS,
    hands=tuple(r.id for r in _EXTENDED_ROUNDS),
    max_players=10,
    moon=Moon.OLD,
    moon_points=100,
)

PRESETS: dict[str, Ruleset] = {
    "canadian": CANADIAN,
    "fruit-salad": FRUIT_SALAD,
    "extended": EXTENDED,
}

# -- Skip the Salad (docs/rules.md section 4) ---------------------------------------------------
# Suit letters avoid C D H S and ranks avoid T, so no code of this deck is a standard card:
# `QT` is the Queen of Tomatoes, `10R` the ten of Carrots, `AO` the Assassin of Onions, `W` a Wild.

VEGETABLE_SUITS = (
    SuitSpec("R", "Carrots", "🥕", art="carrot"),
    SuitSpec("B", "Broccoli", "🥦", art="broccoli"),
    SuitSpec("T", "Tomatoes", "🍅", art="tomato"),
    SuitSpec("O", "Onions", "🧅", art="onion"),
    SuitSpec("N", "Corn", "🌽", min_players=7, art="corn"),
)

VEGETABLE_RANKS = (
    RankSpec("1", "One"),
    RankSpec("2", "Two"),
    RankSpec("3", "Three"),
    RankSpec("4", "Four"),
    RankSpec("5", "Five"),
    RankSpec("6", "Six"),
    RankSpec("7", "Seven"),
    RankSpec("8", "Eight"),
    RankSpec("9", "Nine"),
    RankSpec("10", "Ten"),
    RankSpec("J", "Jack"),
    RankSpec("Q", "Queen"),
    RankSpec("K", "King"),
    RankSpec("A", "Assassin"),
)

WILD = WildSpec("W", "Wild", "W", 4, WildWins.DECLARED)

VEGETABLE_DECK = DeckSpec(
    VEGETABLE_SUITS, VEGETABLE_RANKS, wilds=(WILD,), removal_suits=("R", "B", "T", "O", "N")
)

VEGETABLE_PENALTIES = (
    classic("tricks", 10),
    Penalty("tomatoes", "Tomatoes", Kind.CARDS, 10, Selector(suits=("T",))),
    classic("queens", 25),
    Penalty("king-of-onions", "King of Onions", Kind.CARDS, 100, Selector(cards=("KO",))),
    classic("last-trick", 100),
)

# Swap-in rounds: they replace any of rounds 1 to 5 (setting `swap`).
SWAP_PENALTIES = (
    Penalty("kings", "Kings", Kind.CARDS, 25, Selector(ranks=("K",))),
    Penalty("assassins", "Assassins", Kind.CARDS, 25, Selector(ranks=("A",))),
    Penalty("royalty", "Royalty", Kind.CARDS, 25, Selector(ranks=("J", "Q", "K"))),
    Penalty("evens", "Evens", Kind.CARDS, 10, Selector(ranks=("2", "4", "6", "8", "10"))),
    Penalty("high-low", "High Low", Kind.CARDS, 25, Selector(ranks=("1", "A"))),
)

VEGETABLE_ROUNDS = (
    *avoid(*VEGETABLE_PENALTIES),
    Round("tossed-salad", "Tossed Salad", (), all_previous=True),
    *avoid(*SWAP_PENALTIES),
)

SKIP_THE_SALAD = Ruleset(
    preset="skip-the-salad",
    title="Skip the Salad",
    deck=VEGETABLE_DECK,
    catalogue=VEGETABLE_PENALTIES + SWAP_PENALTIES,
    rounds=VEGETABLE_ROUNDS,
    hands=tuple(r.id for r in VEGETABLE_ROUNDS[:6]),
)

PRESETS["skip-the-salad"] = SKIP_THE_SALAD
