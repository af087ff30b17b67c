"""Canadian Salad and its relatives: cards, rulesets, a fast engine and game records.

The rules it plays, with every decision where the sources are silent, are in docs/rules.md; the
layout of the package (core here, formats/, sheet/, bots/, ... above it) is in README, "Layout".

>>> import salad
>>> game = salad.Game(salad.load_ruleset("canadian"), players=4, seed=1)
>>> len(game.legal_moves())
13
"""

from salad.cards import Card, CardMask, Deck
from salad.engine import Game, Phase, View
from salad.errors import (
    CardParseError,
    IllegalMoveError,
    RecordError,
    RulesError,
    SaladError,
)
from salad.formats.rules import load_ruleset
from salad.ruleset import Ruleset

__all__ = [
    "Card",
    "CardMask",
    "CardParseError",
    "Deck",
    "Game",
    "IllegalMoveError",
    "Phase",
    "RecordError",
    "Ruleset",
    "RulesError",
    "SaladError",
    "View",
    "load_ruleset",
]

__version__ = "0.1.0"
