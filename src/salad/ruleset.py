"""Rulesets as data: a deck, a catalogue of penalties, the rounds built from them, and settings.

Every variant is a :class:`Ruleset`; the engine, bots, screens and scorekeeper only read it.
A ruleset is a preset plus settings (house rules), so a game record that stores the preset name
and the settings is self-contained::

    >>> rs = load_ruleset("canadian", {"points": {"queens": 30}})
    >>> rs.settings
    {'points': {'queens': 30}}
    >>> rs.compiled(4).checksum
    1140
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import IntEnum
from functools import lru_cache
from typing import Any

from salad.cards import CardMask, Deck, DeckSpec, WildSpec, WildWins, build_deck
from salad.errors import CardParseError, RulesError


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


KIND_NAMES = {"trick": Kind.TRICK, "cards": Kind.CARDS, "last-trick": Kind.LAST_TRICK,
              "token": Kind.TOKEN}


@dataclass(frozen=True)
class Selector:
    """Which cards a penalty counts: cards matching suits *and* ranks, plus listed cards."""

    suits: tuple[str, ...] = ()
    ranks: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    wild: bool = False
    """Also count every wild card (jokers)."""

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

    def describe(self) -> str:
        parts = []
        if self.cards:
            parts.append(" ".join(self.cards))
        if self.ranks or self.suits:
            ranks = "/".join(self.ranks) or "any rank"
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

    def describe(self) -> str:
        if self.kind == Kind.TRICK:
            return f"{self.points} per trick"
        if self.kind == Kind.LAST_TRICK:
            return f"{self.points} for the last trick"
        if self.kind == Kind.TOKEN:
            return f"{self.points} to the holder of the {self.name} token"
        return f"{self.points} per card: {self.selector.describe()}"


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
        self.check_players(players)
        return _compile(self, players)

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
    """Whether a moon can be shot in this hand."""


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
        own = [rs.penalty(i) for i in rnd.penalties]
        single_event = not rnd.all_previous and all(
            p.kind == Kind.LAST_TRICK
            or (p.kind == Kind.CARDS and (p.selector.mask(deck) & deck.in_play).bit_count() <= 1)
            for p in own
        )
        moon = rs.moon != Moon.NONE and not single_event
        hands.append(CompiledHand(index, rnd, tuple(compiled), total, moon))
    return CompiledRules(rs, players, deck, tuple(hands))


# -- settings ---------------------------------------------------------------------------------

_SETTING_KEYS = (
    "title", "players", "min_players", "max_players", "points", "hands", "jokers",
    "joker_points", "objective", "moon", "moon_points", "passing", "pass_direction", "trump",
    "trump_chooser", "removal", "penalties", "rounds",
)


def apply_settings(base: Ruleset, settings: Mapping[str, Any]) -> Ruleset:
    """Apply house-rule settings to a preset; every bad key or value raises ``RulesError``."""
    rs = base
    for key in settings:
        if key not in _SETTING_KEYS:
            raise RulesError(f"{key}: unknown setting (known: {', '.join(_SETTING_KEYS)})")
    s = dict(settings)
    if "title" in s:
        rs = replace(rs, title=_str(s, "title"))
    if "penalties" in s:
        rs = _add_penalties(rs, s["penalties"])
    if "rounds" in s:
        rs = _add_rounds(rs, s["rounds"], hands_given="hands" in s)
    if "points" in s:
        rs = _set_points(rs, s["points"])
    if "jokers" in s or "joker_points" in s:
        rs = _set_jokers(rs, s)
    if "hands" in s:
        hands = _str_list(s, "hands")
        if not hands:
            raise RulesError("hands: at least one hand must be played")
        for h in hands:
            if h not in {r.id for r in rs.rounds}:
                known = ", ".join(r.id for r in rs.rounds)
                raise RulesError(f"hands: unknown round {h!r} (known: {known})")
        rs = replace(rs, hands=tuple(hands))
    for key in ("min_players", "max_players"):
        if key in s:
            value = _int(s, key, 2, 16)
            rs = replace(rs, **{key: value})
    if rs.min_players > rs.max_players:
        raise RulesError("min_players: is larger than max_players")
    if "players" in s:
        players = _int(s, "players", rs.min_players, rs.max_players)
        rs = replace(rs, default_players=players)
    if "objective" in s:
        objective = _choice(s, "objective", ("low", "high"))
        rs = replace(rs, highest_wins=objective == "high")
    if "moon" in s:
        rs = replace(rs, moon=MOON_NAMES[_choice(s, "moon", tuple(MOON_NAMES))])
    if "moon_points" in s:
        rs = replace(rs, moon_points=_int(s, "moon_points", 0, 100000))
    if "passing" in s:
        rs = replace(rs, passing=_int(s, "passing", 0, 6))
    if "pass_direction" in s:
        rs = replace(rs, pass_direction=_choice(s, "pass_direction", tuple(DIRECTIONS)))
    if "trump" in s:
        trump = _str(s, "trump").upper()
        if trump in ("", "NONE"):
            trump = ""
        elif trump not in {x.letter for x in rs.deck.suits}:
            raise RulesError(f"trump: {s['trump']!r} is not a suit letter of this deck")
        rs = replace(rs, trump_first=trump)
    if "trump_chooser" in s:
        chooser = _choice(s, "trump_chooser", ("none", "last-place"))
        rs = replace(rs, trump_chooser=chooser == "last-place")
    if "removal" in s:
        codes = _str_list(s, "removal")
        _check_codes(rs, "removal", codes)
        rs = replace(rs, deck=replace(rs.deck, removal=tuple(c.upper() for c in codes)))
    merged = {**rs.settings, **s}
    rs = replace(rs, settings_json=json.dumps(merged, sort_keys=True))
    # Build every player count once so that a bad combination is reported now, not mid-game.
    for n in range(rs.min_players, rs.max_players + 1):
        try:
            _compile(rs, n)
        except ValueError as exc:
            raise RulesError(f"players: {n} players cannot be dealt: {exc}") from None
    if rs.default_players < rs.min_players or rs.default_players > rs.max_players:
        rs = replace(rs, default_players=rs.min_players)
    return rs


def _set_points(rs: Ruleset, points: Any) -> Ruleset:
    if not isinstance(points, Mapping):
        raise RulesError("points: must be a table of penalty = points")
    catalogue = list(rs.catalogue)
    for pid, value in points.items():
        key = f"points.{pid}"
        if not isinstance(value, int) or isinstance(value, bool):
            raise RulesError(f"{key}: must be a whole number, not {value!r}")
        if abs(value) > 100000:
            raise RulesError(f"{key}: {value} is out of range")
        for i, p in enumerate(catalogue):
            if p.id == pid:
                catalogue[i] = replace(p, points=value)
                break
        else:
            known = ", ".join(p.id for p in catalogue)
            raise RulesError(f"{key}: unknown penalty (known: {known})")
    return replace(rs, catalogue=tuple(catalogue))


def _set_jokers(rs: Ruleset, s: Mapping[str, Any]) -> Ruleset:
    count = _int(s, "jokers", 0, 8) if "jokers" in s else _joker_count(rs)
    points = _int(s, "joker_points", -1000, 1000) if "joker_points" in s else 25
    wilds = tuple(w for w in rs.deck.wilds if w.code != "JK")
    every = tuple(i for i in rs.every_hand if i != "jokers")
    catalogue = tuple(p for p in rs.catalogue if p.id != "jokers")
    if count:
        wilds += (WildSpec("JK", "Joker", "★", count, WildWins.NEVER),)
        every += ("jokers",)
        catalogue += (Penalty("jokers", "Jokers", Kind.CARDS, points, Selector(wild=True)),)
    return replace(rs, deck=replace(rs.deck, wilds=wilds), every_hand=every, catalogue=catalogue)


def _joker_count(rs: Ruleset) -> int:
    return sum(w.count for w in rs.deck.wilds if w.code == "JK")


def _add_penalties(rs: Ruleset, items: Any) -> Ruleset:
    if not isinstance(items, list):
        raise RulesError("penalties: must be a list of tables")
    catalogue = list(rs.catalogue)
    for i, item in enumerate(items):
        catalogue = [p for p in catalogue if p.id != _penalty_id(item, f"penalties[{i}]")]
        catalogue.append(_parse_penalty(rs, item, f"penalties[{i}]"))
    return replace(rs, catalogue=tuple(catalogue))


def _penalty_id(item: Any, where: str) -> str:
    if not isinstance(item, Mapping):
        raise RulesError(f"{where}: must be a table")
    return _str(item, "id", where)


def _parse_penalty(rs: Ruleset, item: Any, where: str) -> Penalty:
    pid = _penalty_id(item, where)
    allowed = {"id", "name", "kind", "points", "suits", "ranks", "cards", "wild"}
    for key in item:
        if key not in allowed:
            raise RulesError(f"{where}.{key}: unknown key (known: {', '.join(sorted(allowed))})")
    kind_name = _choice(item, "kind", tuple(KIND_NAMES), where) if "kind" in item else "cards"
    kind = KIND_NAMES[kind_name]
    if "points" not in item:
        raise RulesError(f"{where}.points: missing")
    points = _int(item, "points", -100000, 100000, where)
    suits = tuple(s.upper() for s in _str_list(item, "suits", where)) if "suits" in item else ()
    letters = {s.letter for s in rs.deck.suits}
    for s in suits:
        if s not in letters:
            raise RulesError(f"{where}.suits: {s!r} is not a suit of this deck")
    ranks = tuple(r.upper() for r in _str_list(item, "ranks", where)) if "ranks" in item else ()
    rank_letters = {r.letter for r in rs.deck.ranks}
    aliases = {a.upper(): r.letter for r in rs.deck.ranks for a in r.aliases}
    ranks = tuple(aliases.get(r, r) for r in ranks)
    for r in ranks:
        if r not in rank_letters:
            raise RulesError(f"{where}.ranks: {r!r} is not a rank of this deck")
    cards = tuple(c.upper() for c in _str_list(item, "cards", where)) if "cards" in item else ()
    cards = _check_codes(rs, f"{where}.cards", list(cards))
    wild = bool(item.get("wild", False))
    selector = Selector(suits, ranks, tuple(cards), wild)
    if kind in (Kind.CARDS, Kind.TOKEN) and not (suits or ranks or cards or wild):
        raise RulesError(f"{where}: a {kind_name} penalty needs suits, ranks, cards or wild")
    name = _str(item, "name", where) if "name" in item else pid
    return Penalty(pid, name, kind, points, selector)


def _add_rounds(rs: Ruleset, items: Any, hands_given: bool) -> Ruleset:
    if not isinstance(items, list):
        raise RulesError("rounds: must be a list of tables")
    rounds = list(rs.rounds)
    hands = list(rs.hands)
    catalogue = list(rs.catalogue)
    for i, item in enumerate(items):
        where = f"rounds[{i}]"
        if not isinstance(item, Mapping):
            raise RulesError(f"{where}: must be a table")
        allowed = {"id", "name", "penalties", "all_previous"}
        for key in item:
            if key not in allowed:
                raise RulesError(f"{where}.{key}: unknown key (known: {', '.join(sorted(allowed))})")
        rid = _str(item, "id", where)
        name = _str(item, "name", where) if "name" in item else rid
        ids: list[str] = []
        raw = item.get("penalties", [])
        if not isinstance(raw, list):
            raise RulesError(f"{where}.penalties: must be a list")
        for j, p in enumerate(raw):
            if isinstance(p, str):
                if p not in {c.id for c in catalogue}:
                    raise RulesError(f"{where}.penalties[{j}]: unknown penalty {p!r}")
                ids.append(p)
            else:
                penalty = _parse_penalty(
                    replace(rs, catalogue=tuple(catalogue)), p, f"{where}.penalties[{j}]"
                )
                catalogue = [c for c in catalogue if c.id != penalty.id] + [penalty]
                ids.append(penalty.id)
        all_previous = bool(item.get("all_previous", False))
        if not ids and not all_previous:
            raise RulesError(f"{where}.penalties: a round needs at least one penalty")
        rounds = [r for r in rounds if r.id != rid] + [Round(rid, name, tuple(ids), all_previous)]
        if not hands_given and rid not in hands:
            last = rs.round(hands[-1]) if hands else None
            if last is not None and last.all_previous:
                hands.insert(len(hands) - 1, rid)
            else:
                hands.append(rid)
    return replace(rs, rounds=tuple(rounds), hands=tuple(hands), catalogue=tuple(catalogue))


def _check_codes(rs: Ruleset, key: str, codes: list[str]) -> list[str]:
    deck = build_deck(rs.deck, rs.max_players)  # the most players has every suit
    out = []
    for code in codes:
        try:
            out.append(deck.format(deck.parse(code)))
        except CardParseError:
            raise RulesError(f"{key}: {code!r} is not a card of this deck") from None
    return out


# -- small validators ----------------------------------------------------------------------


def _where(key: str, where: str) -> str:
    return f"{where}.{key}" if where else key


def _str(s: Mapping[str, Any], key: str, where: str = "") -> str:
    value = s.get(key)
    if not isinstance(value, str) or not value.strip() and key != "trump":
        raise RulesError(f"{_where(key, where)}: must be a non-empty string, not {value!r}")
    return value


def _int(s: Mapping[str, Any], key: str, lo: int, hi: int, where: str = "") -> int:
    value = s.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise RulesError(f"{_where(key, where)}: must be a whole number, not {value!r}")
    if not lo <= value <= hi:
        raise RulesError(f"{_where(key, where)}: {value} is out of range ({lo} to {hi})")
    return value


def _choice(s: Mapping[str, Any], key: str, options: tuple[str, ...], where: str = "") -> str:
    value = s.get(key)
    if value not in options:
        raise RulesError(
            f"{_where(key, where)}: {value!r} is not one of {', '.join(options)}"
        )
    assert isinstance(value, str)
    return value


def _str_list(s: Mapping[str, Any], key: str, where: str = "") -> list[str]:
    value = s.get(key)
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RulesError(f"{_where(key, where)}: must be a list of strings, not {value!r}")
    return list(value)


def load_ruleset(name: str = "canadian", settings: Mapping[str, Any] | None = None) -> Ruleset:
    """A preset by name, or a TOML rules file by path, with optional extra settings."""
    from salad.presets import PRESETS  # presets import this module

    if name in PRESETS:
        rs = PRESETS[name]
    elif name.endswith(".toml") or "/" in name:
        from salad.rulesfile import load_rules_file

        rs = load_rules_file(name)
    else:
        raise RulesError(f"rules: unknown preset or file {name!r} (presets: {', '.join(PRESETS)})")
    return apply_settings(rs, settings) if settings else rs
