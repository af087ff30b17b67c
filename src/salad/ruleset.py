"""Rulesets as data: a deck, a catalogue of penalties, the rounds built from them, and settings.

Every variant is a :class:`Ruleset`; the engine, bots, screens and scorekeeper only read it.
A ruleset is a preset plus settings (house rules, :mod:`salad.settings`), so a game record
that stores the preset name and the settings is self-contained.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import IntEnum
from functools import lru_cache
from typing import Any

from salad.cards import CardMask, Deck, DeckSpec, build_deck
from salad.errors import RulesError


class Kind(IntEnum):
    """What a penalty counts."""

    TRICK = 0
    """Points per trick taken."""
    CARDS = 1
    """Points per card taken that matches a selector (one card: points to its taker)."""
    LAST_TRICK = 2
    """Points to the winner of the last trick."""
    TOKEN = 3
    """Points to the holder of a token at the end of the hand; winning a trick holding a
    card that matches the selector takes the token."""


KIND_NAMES = {
    "trick": Kind.TRICK,
    "cards": Kind.CARDS,
    "last-trick": Kind.LAST_TRICK,
    "token": Kind.TOKEN,
}


@dataclass(frozen=True)
class Selector:
    """Which cards a penalty counts: cards matching suits *and* ranks, plus listed cards."""

    suits: tuple[str, ...] = ()
    ranks: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    wild: bool = False
    """Also count every wild card: jokers, Skip the Salad's Wilds and Salad Dressing (a rules
    file's ``wild = true``). The ``jokers`` setting's penalty names its jokers by code instead,
    since Wilds and Salad Dressing count for no penalty."""

    def mask(self, deck: Deck) -> CardMask:
        mask = 0
        if self.suits or self.ranks:
            for card, suit in enumerate(deck.suit_of):
                if suit < 0:
                    continue
                if self.suits and deck.suits[suit].letter not in self.suits:
                    continue
                if self.ranks and deck.spec.ranks[deck.rank_of[card]].letter not in self.ranks:
                    continue
                mask |= 1 << card
        for code in self.cards:
            for card, c in enumerate(deck.codes):
                if c == code:
                    mask |= 1 << card
        if self.wild:
            mask |= deck.wild_mask
        return mask

    def one_card(self, deck: DeckSpec | None) -> bool:
        """Whether the selector counts one card of a ``deck`` that holds one of it (so that a
        penalty on it is "100 for KS", not "per card")."""
        only = len(self.cards) == 1 and not (self.ranks or self.suits or self.wild)
        return only and deck is not None and deck.copies == 1 and not deck.min_cards_each

    def describe(self, deck: DeckSpec | None = None) -> str:
        """The selector in words; with the ``deck``, a rank whose letter misleads is named
        (``Assassin of any suit``, see :attr:`salad.cards.RankSpec.word`)."""
        words = {r.letter: r.word for r in deck.ranks} if deck is not None else {}
        parts = []
        if self.cards:
            parts.append(" ".join(self.cards))
        if self.ranks or self.suits:
            ranks = "/".join(words.get(r, r) for r in self.ranks) or "any rank"
            suits = "/".join(self.suits) or "any suit"
            parts.append(f"{ranks} of {suits}")
        if self.wild:
            parts.append("wild cards")
        return ", ".join(parts)


@dataclass(frozen=True)
class Penalty:
    id: str
    name: str
    kind: Kind
    points: int
    selector: Selector = Selector()

    def describe(self, deck: DeckSpec | None = None) -> str:
        """The penalty in words, e.g. ``25 per card: Q of any suit`` (``deck``: see
        :meth:`Selector.describe`)."""
        if self.kind == Kind.TRICK:
            return f"{self.points} per trick"
        if self.kind == Kind.LAST_TRICK:
            return f"{self.points} for the last trick"
        if self.kind == Kind.TOKEN:
            return f"{self.points} to the holder of the {self.name} token"
        if self.selector.one_card(deck):
            return f"{self.points} for {self.selector.cards[0]}"
        return f"{self.points} per card: {self.selector.describe(deck)}"


@dataclass(frozen=True)
class Round:
    id: str
    name: str
    penalties: tuple[str, ...]
    all_previous: bool = False
    """Also every penalty of the rounds played before this one (the Salad)."""


class Moon(IntEnum):
    NONE = 0
    OLD = 1
    """The shooter scores 0 and every other player scores ``moon_points``."""
    NEGATIVE = 2
    """The shooter scores the hand negative (Blue Cheese Moon)."""


MOON_NAMES = {"none": Moon.NONE, "old": Moon.OLD, "negative": Moon.NEGATIVE}
DIRECTIONS = {"left": 1, "right": -1, "across": 0}


@dataclass(frozen=True)
class Ruleset:
    """A whole variant. Build one with :func:`load_ruleset`; never mutate, ``replace``."""

    preset: str
    title: str
    deck: DeckSpec
    catalogue: tuple[Penalty, ...]
    rounds: tuple[Round, ...]
    """Every round the ruleset knows, by id."""
    hands: tuple[str, ...]
    """The round ids played, in order: one hand each."""
    every_hand: tuple[str, ...] = ()
    """Penalties live in every hand (jokers, the Rotten Tomato)."""
    min_players: int = 3
    max_players: int = 8
    default_players: int = 4
    highest_wins: bool = False
    moon: Moon = Moon.NONE
    moon_points: int = 100
    passing: int = 0
    pass_direction: str = "right"
    trump_first: str = ""
    """Suit letter that is trump in the first hand ('' for none)."""
    trump_chooser: bool = False
    """Before every later hand the player in last place picks the trump suit."""
    settings_json: str = field(default="{}", compare=True)

    # -- lookups ----------------------------------------------------------------------------
    @property
    def settings(self) -> dict[str, Any]:
        """The settings applied on top of the preset (what a record stores)."""
        result: dict[str, Any] = json.loads(self.settings_json)
        return result

    def penalty(self, penalty_id: str) -> Penalty:
        for p in self.catalogue:
            if p.id == penalty_id:
                return p
        raise RulesError(f"unknown penalty {penalty_id!r}")

    def round(self, round_id: str) -> Round:
        for r in self.rounds:
            if r.id == round_id:
                return r
        raise RulesError(f"unknown round {round_id!r}")

    def hand_penalties(self, index: int) -> tuple[Penalty, ...]:
        """Every penalty live in hand ``index`` (0-based), the all-previous rounds expanded."""
        rnd = self.round(self.hands[index])
        ids: list[str] = []
        if rnd.all_previous:
            for previous in self.hands[:index]:
                ids.extend(self.round(previous).penalties)
        ids.extend(rnd.penalties)
        ids.extend(self.every_hand)
        return tuple(self.penalty(i) for i in dict.fromkeys(ids))

    def deck_for(self, players: int) -> Deck:
        self.check_players(players)
        return build_deck(self.deck, players)

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise RulesError(
                f"players: {players} is out of range for {self.preset} "
                f"({self.min_players} to {self.max_players})"
            )

    def compiled(self, players: int) -> CompiledRules:
        # Looked up by identity first: hashing a whole ruleset costs more than a game's hand.
        got = _COMPILED.get((id(self), players))
        if got is not None and got[0] is self:
            return got[1]
        self.check_players(players)
        rules = _compile(self, players)  # by value: an equal ruleset may have compiled it
        if len(_COMPILED) >= 256:
            _COMPILED.clear()
        _COMPILED[(id(self), players)] = (self, rules)
        return rules

    @property
    def pass_offset(self) -> int:
        return DIRECTIONS[self.pass_direction]


@dataclass(frozen=True)
class CompiledPenalty:
    kind: Kind
    points: int
    mask: CardMask
    penalty: Penalty


@dataclass(frozen=True)
class CompiledHand:
    """One hand's penalties as masks over a concrete deck."""

    index: int
    round: Round
    penalties: tuple[CompiledPenalty, ...]
    fixed_total: int
    """What the hand hands out in all, unless a moon is shot."""
    moon: bool
    """Whether a moon can be shot in this hand: never where the round's own penalties are all
    single events (the last trick, a penalty matching one card in play, a token)."""


@dataclass(frozen=True)
class CompiledRules:
    ruleset: Ruleset
    players: int
    deck: Deck
    hands: tuple[CompiledHand, ...]

    @property
    def checksum(self) -> int:
        """The game total when no moon is shot."""
        return sum(h.fixed_total for h in self.hands)

    @property
    def tricks(self) -> int:
        return self.deck.cards_each


_COMPILED: dict[tuple[int, int], tuple[Ruleset, CompiledRules]] = {}
"""(ruleset, compiled rules) by (id of the ruleset, players): the ruleset held keeps its id."""


@lru_cache(maxsize=256)
def _compile(rs: Ruleset, players: int) -> CompiledRules:
    deck = build_deck(rs.deck, players)
    tricks = deck.cards_each
    hands = []
    for index, round_id in enumerate(rs.hands):
        rnd = rs.round(round_id)
        compiled = []
        total = 0
        for p in rs.hand_penalties(index):
            mask = p.selector.mask(deck) & deck.in_play
            compiled.append(CompiledPenalty(p.kind, p.points, mask, p))
            if p.kind == Kind.TRICK:
                total += tricks * p.points
            elif p.kind == Kind.CARDS:
                total += mask.bit_count() * p.points
            elif p.kind == Kind.LAST_TRICK or mask:
                total += p.points
        # A round whose own penalties are single events (the last trick, one card in play, a
        # token such as a Hot Potato: one seat takes each) has no moon (rules.md section 4).
        own = [rs.penalty(i) for i in rnd.penalties]
        single_event = not rnd.all_previous and all(
            p.kind in (Kind.LAST_TRICK, Kind.TOKEN)
            or (p.kind == Kind.CARDS and (p.selector.mask(deck) & deck.in_play).bit_count() <= 1)
            for p in own
        )
        moon = rs.moon != Moon.NONE and not single_event
        hands.append(CompiledHand(index, rnd, tuple(compiled), total, moon))
    return CompiledRules(rs, players, deck, tuple(hands))
