"""Rulesets as data: a deck, a catalogue of penalties, the rounds built from them, and settings.

Every variant is a :class:`Ruleset`; the engine, bots, screens and scorekeeper only read it.
A ruleset is a preset plus settings (house rules), so a game record that stores the preset name
and the settings is self-contained::

    >>> rs = load_ruleset("canadian", {"points": {"queens": 30}})
    >>> rs.settings
    {'points': {'queens': 30}}
    >>> rs.compiled(4).checksum
    1160
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import IntEnum
from functools import lru_cache
from typing import Any, TypeGuard

from salad.cards import NO_SUIT, CardMask, Deck, DeckSpec, WildSpec, WildWins, build_deck
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

SETTING_KEYS = (
    "title",
    "players",
    "min_players",
    "max_players",
    "points",
    "hands",
    "jokers",
    "joker_points",
    "objective",
    "moon",
    "moon_points",
    "passing",
    "pass_direction",
    "trump",
    "trump_chooser",
    "removal",
    "penalties",
    "rounds",
    "every_hand",
    "toppings",
    "swap",
)
"""Every key :func:`apply_settings` knows."""
_SETTING_KEYS = SETTING_KEYS

_PENALTY_KEYS = ("id", "name", "kind", "points", "suits", "ranks", "cards", "wild")
_ROUND_KEYS = ("id", "name", "penalties", "all_previous")
_POINTS_LIMIT = 100_000
_ID = re.compile(r"[A-Za-z0-9_-]+")


def apply_settings(base: Ruleset, settings: Mapping[str, Any]) -> Ruleset:
    """Apply house-rule settings to a ruleset; every bad key or value raises ``RulesError``.

    Settings applied to a ruleset that already has settings layer on top of them (see
    :func:`merge_settings`), and the result is rebuilt from the preset, so that
    ``load_ruleset(rs.preset, rs.settings) == rs`` holds for every ruleset built this way.
    """
    if not isinstance(settings, Mapping):
        raise RulesError(f"settings: must be a table of setting = value, not {settings!r}")
    _check_keys(settings, SETTING_KEYS, "", "setting")
    rs = _apply(base, settings)
    earlier = base.settings
    if not earlier:
        return _with_settings(rs, settings)
    merged = merge_settings(earlier, settings)
    root = _preset_of(base)
    if root is None:
        return _with_settings(rs, merged)
    # Pin what the layers decided together, then rebuild from the preset: the record must
    # give back exactly this ruleset.
    if isinstance(merged.get("points"), Mapping):
        live = {p.id: p.points for p in rs.catalogue}
        points = {k: live[k] for k in merged["points"] if k in live}
        if points:
            merged["points"] = points
        else:
            del merged["points"]
    if "players" in merged:
        merged["players"] = rs.default_players
    if "hands" in merged:
        merged["hands"] = list(rs.hands)  # rounds added later join an earlier hand list
    rebuilt = _apply(root, merged)
    if replace(rebuilt, settings_json=rs.settings_json) != rs:
        raise RulesError(
            "settings: these settings redefine a penalty or round of the earlier settings "
            "in a way a record cannot store; give all the settings at once"
        )
    return _with_settings(rebuilt, merged)


def merge_settings(earlier: Mapping[str, Any], later: Mapping[str, Any]) -> dict[str, Any]:
    """Layer ``later`` settings on ``earlier`` ones: a later value replaces an earlier one,
    except that ``points`` tables merge and ``penalties`` and ``rounds`` lists extend."""
    merged = dict(earlier)
    for key, value in later.items():
        old = merged.get(key)
        if key == "points" and isinstance(old, Mapping) and isinstance(value, Mapping):
            merged[key] = {**old, **value}
        elif key in ("penalties", "rounds") and _is_list(old) and _is_list(value):
            merged[key] = [*old, *value]
        else:
            merged[key] = value
    return merged


def _preset_of(rs: Ruleset) -> Ruleset | None:
    """The registered preset ``rs`` was built from, when it is a plain preset."""
    from salad.presets import PRESETS  # presets import this module

    root = PRESETS.get(rs.preset)
    return root if root is not None and not root.settings else None


def _with_settings(rs: Ruleset, settings: Mapping[str, Any]) -> Ruleset:
    try:
        text = json.dumps(_plain(settings), sort_keys=True)
    except (TypeError, ValueError) as exc:
        raise RulesError(f"settings: cannot be stored: {exc}") from None
    return replace(rs, settings_json=text)


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if _is_list(value):
        return [_plain(v) for v in value]
    return value


def _apply(base: Ruleset, s: Mapping[str, Any]) -> Ruleset:
    """Every setting of ``s`` applied to ``base`` (``settings_json`` left alone)."""
    rs = base
    if "title" in s:
        rs = replace(rs, title=_str(s, "title"))
    # The deck first, so that penalties can name its cards.
    if "jokers" in s or "joker_points" in s:
        rs = _set_jokers(rs, s)
    if "removal" in s:
        codes = _check_codes(rs, "removal", _str_list(s, "removal"), ordinary=True)
        rs = replace(rs, deck=replace(rs.deck, removal=tuple(codes)))
    if "penalties" in s:
        rs = _add_penalties(rs, s["penalties"])
    if "rounds" in s:
        rs = _add_rounds(rs, s["rounds"], hands_given="hands" in s)
    if "points" in s:
        rs = _set_points(rs, s["points"])
    if "hands" in s:
        rs = _set_hands(rs, s)
    if "swap" in s:
        from salad.toppings import apply_swaps

        rs = apply_swaps(rs, s["swap"])
    if "toppings" in s:
        from salad.toppings import apply_toppings

        rs = apply_toppings(rs, s["toppings"])
    if "every_hand" in s:
        ids = _str_list(s, "every_hand")
        for pid in ids:
            if pid not in {p.id for p in rs.catalogue}:
                raise RulesError(f"every_hand: unknown penalty {pid!r}")
        rs = replace(rs, every_hand=tuple(dict.fromkeys((*rs.every_hand, *ids))))
    if "min_players" in s:
        rs = replace(rs, min_players=_int(s, "min_players", 2, 16))
    if "max_players" in s:
        rs = replace(rs, max_players=_int(s, "max_players", 2, 16))
    if rs.min_players > rs.max_players:
        key = "min_players" if "min_players" in s else "max_players"
        raise RulesError(
            f"{key}: min_players ({rs.min_players}) is more than max_players ({rs.max_players})"
        )
    if "players" in s:
        rs = replace(rs, default_players=_int(s, "players", rs.min_players, rs.max_players))
    elif not rs.min_players <= rs.default_players <= rs.max_players:
        default = max(rs.min_players, min(rs.default_players, rs.max_players))
        rs = replace(rs, default_players=default)
    if "objective" in s:
        rs = replace(rs, highest_wins=_choice(s, "objective", ("low", "high")) == "high")
    if "moon" in s:
        rs = replace(rs, moon=MOON_NAMES[_choice(s, "moon", tuple(MOON_NAMES))])
    if "moon_points" in s:
        rs = replace(rs, moon_points=_int(s, "moon_points", 0, _POINTS_LIMIT))
    if "passing" in s:
        rs = replace(rs, passing=_int(s, "passing", 0, 6))
    if "pass_direction" in s:
        rs = replace(rs, pass_direction=_choice(s, "pass_direction", tuple(DIRECTIONS)))
    if "trump" in s:
        rs = replace(rs, trump_first=_trump(rs, s))
    if "trump_chooser" in s:
        chooser = _choice(s, "trump_chooser", ("none", "last-place"))
        rs = replace(rs, trump_chooser=chooser == "last-place")
    _check_playable(rs, s)
    return rs


def _check_playable(rs: Ruleset, s: Mapping[str, Any]) -> None:
    """Report a bad combination now, naming a key, rather than mid-game."""
    for index, round_id in enumerate(rs.hands):
        try:
            live = rs.hand_penalties(index)
        except RulesError as exc:
            raise RulesError(f"hands[{index}]: {exc}") from None
        if not live:
            raise RulesError(
                f"hands[{index}]: round {round_id!r} has no penalties there "
                f"(an all_previous round needs rounds before it)"
            )
    # Build every player count once: removal, passing and trump must work for all of them.
    for n in range(rs.min_players, rs.max_players + 1):
        try:
            deck = build_deck(rs.deck, n)
        except ValueError as exc:
            key = "removal" if "removal" in s else "players"
            raise RulesError(f"{key}: {n} players cannot be dealt: {exc}") from None
        if rs.passing > deck.cards_each:
            raise RulesError(
                f"passing: {rs.passing} cards cannot be passed, {n} players hold only "
                f"{deck.cards_each} each"
            )
        if rs.trump_first and rs.trump_first not in {x.letter for x in deck.suits}:
            raise RulesError(f"trump: suit {rs.trump_first!r} is not in the deck for {n} players")


def _set_points(rs: Ruleset, points: Any) -> Ruleset:
    if not isinstance(points, Mapping):
        raise RulesError(f"points: must be a table of penalty = points, not {points!r}")
    catalogue = list(rs.catalogue)
    for pid, value in points.items():
        key = f"points.{pid}"
        if not isinstance(value, int) or isinstance(value, bool):
            raise RulesError(f"{key}: must be a whole number, not {value!r}")
        if abs(value) > _POINTS_LIMIT:
            limit = _POINTS_LIMIT
            raise RulesError(f"{key}: {value} is out of range ({-limit} to {limit})")
        for i, p in enumerate(catalogue):
            if p.id == pid:
                catalogue[i] = replace(p, points=value)
                break
        else:
            known = [p.id for p in catalogue]
            raise RulesError(f"{key}: unknown penalty{_hint(str(pid), known)}")
    return replace(rs, catalogue=tuple(catalogue))


def _set_jokers(rs: Ruleset, s: Mapping[str, Any]) -> Ruleset:
    old = next((p for p in rs.catalogue if p.id == "jokers"), None)
    count = _int(s, "jokers", 0, 8) if "jokers" in s else _joker_count(rs)
    if "joker_points" in s:
        points = _int(s, "joker_points", -_POINTS_LIMIT, _POINTS_LIMIT)
        if not count and "jokers" not in s:
            raise RulesError("joker_points: this game has no jokers; set jokers = N as well")
    else:
        points = old.points if old is not None else 25
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


def _set_hands(rs: Ruleset, s: Mapping[str, Any]) -> Ruleset:
    hands = _str_list(s, "hands")
    if not hands:
        raise RulesError("hands: must list at least one round")
    known = [r.id for r in rs.rounds]
    for i, h in enumerate(hands):
        if h not in known:
            raise RulesError(f"hands[{i}]: unknown round {h!r}{_hint(h, known)}")
    return replace(rs, hands=tuple(hands))


def _add_penalties(rs: Ruleset, items: Any) -> Ruleset:
    if not _is_list(items):
        raise RulesError(f"penalties: must be a list of tables ([[penalties]]), not {items!r}")
    catalogue = list(rs.catalogue)
    for i, item in enumerate(items):
        penalty = _parse_penalty(rs, item, f"penalties[{i}]")
        catalogue = _put(catalogue, penalty)
    return replace(rs, catalogue=tuple(catalogue))


def _put(catalogue: list[Penalty], penalty: Penalty) -> list[Penalty]:
    """Add ``penalty``, or replace the one with its id in place."""
    for i, p in enumerate(catalogue):
        if p.id == penalty.id:
            return [*catalogue[:i], penalty, *catalogue[i + 1 :]]
    return [*catalogue, penalty]


def _parse_penalty(rs: Ruleset, item: Any, where: str) -> Penalty:
    if not isinstance(item, Mapping):
        raise RulesError(f"{where}: must be a table, not {item!r}")
    pid = _ident(item, where)
    _check_keys(item, _PENALTY_KEYS, where, "key")
    kind_name = _choice(item, "kind", tuple(KIND_NAMES), where) if "kind" in item else "cards"
    kind = KIND_NAMES[kind_name]
    if "points" not in item:
        raise RulesError(f"{where}.points: missing (what penalty {pid!r} costs)")
    points = _int(item, "points", -_POINTS_LIMIT, _POINTS_LIMIT, where)
    suits: tuple[str, ...] = ()
    if "suits" in item:
        key = f"{where}.suits"
        suits = tuple(dict.fromkeys(_suit(rs, x, key) for x in _str_list(item, "suits", where)))
    ranks: tuple[str, ...] = ()
    if "ranks" in item:
        key = f"{where}.ranks"
        ranks = tuple(dict.fromkeys(_rank(rs, x, key) for x in _str_list(item, "ranks", where)))
    cards: tuple[str, ...] = ()
    if "cards" in item:
        codes = _check_codes(rs, f"{where}.cards", _str_list(item, "cards", where))
        cards = tuple(dict.fromkeys(codes))
    wild = _bool(item, "wild", where) if "wild" in item else False
    selects = suits or ranks or cards or wild
    if kind in (Kind.CARDS, Kind.TOKEN) and not selects:
        raise RulesError(
            f"{where}: {kind_name} penalty {pid!r} needs suits, ranks, cards or wild = true "
            f"to say which cards count"
        )
    if kind in (Kind.TRICK, Kind.LAST_TRICK) and selects:
        key = next(k for k in ("suits", "ranks", "cards", "wild") if k in item)
        raise RulesError(
            f"{where}.{key}: a {kind_name} penalty counts no cards "
            f'(leave out {key}, or use kind = "cards")'
        )
    name = _str(item, "name", where) if "name" in item else pid
    return Penalty(pid, name, kind, points, Selector(suits, ranks, cards, wild))


def _add_rounds(rs: Ruleset, items: Any, hands_given: bool) -> Ruleset:
    if not _is_list(items):
        raise RulesError(f"rounds: must be a list of tables ([[rounds]]), not {items!r}")
    rounds = list(rs.rounds)
    hands = list(rs.hands)
    catalogue = list(rs.catalogue)
    for i, item in enumerate(items):
        where = f"rounds[{i}]"
        if not isinstance(item, Mapping):
            raise RulesError(f"{where}: must be a table, not {item!r}")
        rid = _ident(item, where)
        _check_keys(item, _ROUND_KEYS, where, "key")
        name = _str(item, "name", where) if "name" in item else rid
        raw = item.get("penalties", [])
        if isinstance(raw, str | Mapping):
            raw = [raw]
        if not _is_list(raw):
            raise RulesError(f"{where}.penalties: must be a list of penalty ids or tables")
        ids: list[str] = []
        for j, p in enumerate(raw):
            at = f"{where}.penalties[{j}]"
            if isinstance(p, str):
                known = [c.id for c in catalogue]
                if p not in known:
                    raise RulesError(f"{at}: unknown penalty {p!r}{_hint(p, known)}")
                ids.append(p)
            elif isinstance(p, Mapping):
                penalty = _parse_penalty(rs, p, at)
                catalogue = _put(catalogue, penalty)
                ids.append(penalty.id)
            else:
                raise RulesError(f"{at}: must be a penalty id or a table, not {p!r}")
        all_previous = _bool(item, "all_previous", where) if "all_previous" in item else False
        if not ids and not all_previous:
            raise RulesError(
                f"{where}.penalties: round {rid!r} needs at least one penalty "
                f"(or all_previous = true)"
            )
        new = Round(rid, name, tuple(dict.fromkeys(ids)), all_previous)
        at_index = next((k for k, r in enumerate(rounds) if r.id == rid), len(rounds))
        rounds[at_index : at_index + 1] = [new]
        if not hands_given and rid not in hands:
            last = next((r for r in rounds if hands and r.id == hands[-1]), None)
            if last is not None and last.all_previous:
                hands.insert(len(hands) - 1, rid)
            else:
                hands.append(rid)
    return replace(rs, rounds=tuple(rounds), hands=tuple(hands), catalogue=tuple(catalogue))


def _full_deck(spec: DeckSpec) -> Deck:
    """One copy of every card the spec can hold (every suit, nothing removed)."""
    suits = tuple(replace(x, min_players=0) for x in spec.suits)
    return build_deck(replace(spec, suits=suits, copies=1, min_cards_each=0), 1)


def _check_codes(rs: Ruleset, key: str, codes: list[str], ordinary: bool = False) -> list[str]:
    """The codes in their plain form (``10h`` -> ``TH``); an unknown card raises."""
    deck = _full_deck(rs.deck)
    out = []
    for code in codes:
        try:
            card = deck.parse(code)
        except CardParseError:
            raise RulesError(
                f"{key}: {code!r} is not a card of this deck (cards look like {_example(deck)})"
            ) from None
        if ordinary and deck.suit_of[card] == NO_SUIT:
            raise RulesError(f"{key}: {code!r} is a wild card; only suited cards are removed")
        out.append(deck.format(card))
    return out


def _example(deck: Deck) -> str:
    """Two card codes of ``deck`` to show in a message, e.g. ``QS, 10H``."""
    ranks = deck.spec.ranks
    suits = [s for s in deck.spec.suits if not s.min_players] or deck.spec.suits
    queen = ranks[-3].letter + suits[-1].letter
    ten = ranks[len(ranks) // 2 + 2]
    return f"{queen}, {(ten.aliases or (ten.letter,))[0]}{suits[len(suits) // 2].letter}"


def _suit(rs: Ruleset, text: str, key: str) -> str:
    """A suit letter from a letter, name or symbol (``h``, ``hearts``, ``♥``)."""
    t = text.strip().upper().replace("\ufe0f", "")
    for x in rs.deck.suits:
        if t in (x.letter.upper(), x.name.upper(), x.symbol):
            return x.letter
    known = ", ".join(x.letter for x in rs.deck.suits)
    raise RulesError(f"{key}: {text!r} is not a suit of this deck (suits: {known})")


def _rank(rs: Ruleset, text: str, key: str) -> str:
    """A rank letter from a letter, alias or name (``q``, ``10``, ``queen``)."""
    t = text.strip().upper()
    for r in rs.deck.ranks:
        if t in (r.letter.upper(), r.name.upper(), *(a.upper() for a in r.aliases)):
            return r.letter
    known = " ".join(r.letter for r in rs.deck.ranks)
    raise RulesError(f"{key}: {text!r} is not a rank of this deck (ranks: {known})")


def _trump(rs: Ruleset, s: Mapping[str, Any]) -> str:
    value = s.get("trump")
    if not isinstance(value, str):
        raise RulesError(f'trump: must be a suit or "none", not {value!r}')
    if value.strip().lower() in ("", "none"):
        return ""
    return _suit(rs, value, "trump")


# -- small validators ----------------------------------------------------------------------


def _where(key: str, where: str) -> str:
    return f"{where}.{key}" if where else key


def _is_list(value: Any) -> TypeGuard[list[Any] | tuple[Any, ...]]:
    return isinstance(value, list | tuple)


def _hint(word: str, known: list[str]) -> str:
    close = difflib.get_close_matches(word, known, n=1, cutoff=0.75)
    if close:
        return f" (did you mean {close[0]!r}?)"
    return f" (known: {', '.join(known)})"


def _check_keys(s: Mapping[Any, Any], known: tuple[str, ...], where: str, what: str) -> None:
    for key in s:
        if key not in known:
            hint = _hint(str(key), list(known))
            raise RulesError(f"{_where(str(key), where)}: unknown {what}{hint}")


def _str(s: Mapping[str, Any], key: str, where: str = "") -> str:
    if key not in s:
        raise RulesError(f"{_where(key, where)}: missing")
    value = s.get(key)
    if not isinstance(value, str) or not value.strip():
        raise RulesError(f"{_where(key, where)}: must be a non-empty string, not {value!r}")
    if "\n" in value or "\r" in value:
        raise RulesError(f"{_where(key, where)}: must be one line, not {value!r}")
    return value


def _ident(s: Mapping[str, Any], where: str) -> str:
    value = _str(s, "id", where)
    if not _ID.fullmatch(value):
        raise RulesError(
            f"{where}.id: {value!r} may hold only letters, digits, '-' and '_' (e.g. 'black-jacks')"
        )
    return value


def _int(s: Mapping[str, Any], key: str, lo: int, hi: int, where: str = "") -> int:
    value = s.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise RulesError(f"{_where(key, where)}: must be a whole number, not {value!r}")
    if not lo <= value <= hi:
        raise RulesError(f"{_where(key, where)}: {value} is out of range ({lo} to {hi})")
    return value


def _bool(s: Mapping[str, Any], key: str, where: str = "") -> bool:
    value = s.get(key)
    if not isinstance(value, bool):
        raise RulesError(f"{_where(key, where)}: must be true or false, not {value!r}")
    return value


def _choice(s: Mapping[str, Any], key: str, options: tuple[str, ...], where: str = "") -> str:
    value = s.get(key)
    if not isinstance(value, str) or value not in options:
        raise RulesError(f"{_where(key, where)}: {value!r} is not one of {', '.join(options)}")
    return value


def _str_list(s: Mapping[str, Any], key: str, where: str = "") -> list[str]:
    value = s.get(key)
    if isinstance(value, str):
        value = [value]
    if not _is_list(value) or not all(isinstance(v, str) for v in value):
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
