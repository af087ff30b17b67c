"""Settings (house rules) applied to a preset: the one place a ruleset is changed.

A ruleset is a preset plus settings, so a game record that stores the preset name and the
settings is self-contained::

    >>> rs = from_preset("canadian", {"points": {"queens": 30}})
    >>> rs.settings
    {'points': {'queens': 30}}
    >>> rs.compiled(4).checksum
    1160
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Annotated, Any, NotRequired, TypeGuard

from pydantic import AfterValidator, ConfigDict, TypeAdapter, ValidationError, with_config
from pydantic_core import ErrorDetails, PydanticCustomError
from typing_extensions import TypedDict  # pydantic needs this TypedDict before Python 3.12

from salad.cards import NO_SUIT, Deck, DeckSpec, WildSpec, WildWins, build_deck
from salad.errors import CardParseError, RulesError
from salad.presets import PRESETS
from salad.ruleset import (
    KIND_NAMES,
    MOON_NAMES,
    Kind,
    Penalty,
    Round,
    Ruleset,
    Selector,
)
from salad.settings_schema import (
    HANDS_LIMIT,
    PENALTIES_LIMIT,
    ROUNDS_LIMIT,
    PenaltyIn,
    RoundIn,
    SettingsIn,
    check_settings,
)
from salad.settings_schema import SETTING_KEYS as SETTING_KEYS
from salad.toppings import apply_swaps, apply_toppings

JOKER = "JK"
"""The code of the jokers that the ``jokers`` setting adds."""


def apply_settings(base: Ruleset, settings: Mapping[str, Any]) -> Ruleset:
    """Apply house-rule settings to a ruleset; every bad key or value raises ``RulesError``.

    Settings applied to a ruleset that already has settings layer on top of them (see
    :func:`merge_settings`), and the result is rebuilt from the preset, so that
    ``load_ruleset(rs.preset, rs.settings) == rs`` holds for every ruleset built this way.
    """
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


def _apply(base: Ruleset, raw: Mapping[str, Any]) -> Ruleset:
    """Every setting of ``raw`` applied to ``base`` (``settings_json`` left alone)."""
    s = check_settings(raw)
    rs = base
    if "title" in s:
        rs = replace(rs, title=s["title"])
    # The deck first, so that penalties can name its cards.
    if "jokers" in s or "joker_points" in s:
        rs = _set_jokers(rs, s)
    if "removal" in s:
        codes = _check_codes(rs, "removal", s["removal"], ordinary=True)
        rs = replace(rs, deck=replace(rs.deck, removal=tuple(codes)))
    if "penalties" in s:
        rs = _add_penalties(rs, s["penalties"])
    if "rounds" in s:
        rs = _add_rounds(rs, s["rounds"], hands_given="hands" in s)
    if "points" in s:
        rs = _set_points(rs, s["points"])
    if "hands" in s:
        rs = _set_hands(rs, s["hands"])
    if "swap" in s:
        rs = apply_swaps(rs, s["swap"])
    if "toppings" in s:
        rs = apply_toppings(rs, s["toppings"])
    if "every_hand" in s:
        ids = s["every_hand"]
        for pid in ids:
            if pid not in {p.id for p in rs.catalogue}:
                raise RulesError(f"every_hand: unknown penalty {pid!r}")
        rs = replace(rs, every_hand=tuple(dict.fromkeys((*rs.every_hand, *ids))))
    if "min_players" in s:
        rs = replace(rs, min_players=s["min_players"])
    if "max_players" in s:
        rs = replace(rs, max_players=s["max_players"])
    if rs.min_players > rs.max_players:
        key = "min_players" if "min_players" in s else "max_players"
        raise RulesError(
            f"{key}: min_players ({rs.min_players}) is more than max_players ({rs.max_players})"
        )
    if "players" in s:
        players = s["players"]
        if not rs.min_players <= players <= rs.max_players:
            span = f"{rs.min_players} to {rs.max_players}"
            raise RulesError(f"players: {players} is out of range ({span})")
        rs = replace(rs, default_players=players)
    elif not rs.min_players <= rs.default_players <= rs.max_players:
        default = max(rs.min_players, min(rs.default_players, rs.max_players))
        rs = replace(rs, default_players=default)
    if "objective" in s:
        rs = replace(rs, highest_wins=s["objective"] == "high")
    if "moon" in s:
        rs = replace(rs, moon=MOON_NAMES[s["moon"]])
    if "moon_points" in s:
        rs = replace(rs, moon_points=s["moon_points"])
    if "passing" in s:
        rs = replace(rs, passing=s["passing"])
    if "pass_direction" in s:
        rs = replace(rs, pass_direction=s["pass_direction"])
    if "trump" in s:
        rs = replace(rs, trump_first=_trump(rs, s["trump"]))
    if "trump_chooser" in s:
        rs = replace(rs, trump_chooser=s["trump_chooser"] == "last-place")
    _check_playable(rs, s)
    return rs


def _check_limits(rs: Ruleset) -> None:
    """The whole ruleset within the limits no real game reaches (settings add to a preset's
    lists, and toppings to its catalogue, so each list alone is not enough)."""
    for key, count, limit in (
        ("hands", len(rs.hands), HANDS_LIMIT),
        ("rounds", len(rs.rounds), ROUNDS_LIMIT),
        ("penalties", len(rs.catalogue), PENALTIES_LIMIT),
    ):
        if count > limit:
            raise RulesError(f"{key}: {count} in all, more than the limit of {limit}")


def _check_playable(rs: Ruleset, s: Mapping[str, Any]) -> None:
    """Report a bad combination now, naming a key, rather than mid-game."""
    _check_limits(rs)
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


def _set_points(rs: Ruleset, points: Mapping[str, int]) -> Ruleset:
    catalogue = list(rs.catalogue)
    for pid, value in points.items():
        for i, p in enumerate(catalogue):
            if p.id == pid:
                catalogue[i] = replace(p, points=value)
                break
        else:
            known = [p.id for p in catalogue]
            raise RulesError(f"points.{pid}: unknown penalty{_hint(str(pid), known)}")
    return replace(rs, catalogue=tuple(catalogue))


def _set_jokers(rs: Ruleset, s: SettingsIn) -> Ruleset:
    old = next((p for p in rs.catalogue if p.id == "jokers"), None)
    count = s["jokers"] if "jokers" in s else _joker_count(rs)
    if "joker_points" in s:
        points = s["joker_points"]
        if not count and "jokers" not in s:
            raise RulesError("joker_points: this game has no jokers; set jokers = N as well")
    else:
        points = old.points if old is not None else 25
    wilds = tuple(w for w in rs.deck.wilds if w.code != JOKER)
    every = tuple(i for i in rs.every_hand if i != "jokers")
    catalogue = tuple(p for p in rs.catalogue if p.id != "jokers")
    if count:
        wilds += (WildSpec(JOKER, "Joker", "★", count, WildWins.NEVER),)
        every += ("jokers",)
        # The jokers by code, not every wild card: Skip the Salad's Wilds and Salad Dressing
        # count for no penalty (rules.md sections 3 and 4).
        catalogue += (Penalty("jokers", "Jokers", Kind.CARDS, points, Selector(cards=(JOKER,))),)
    return replace(rs, deck=replace(rs.deck, wilds=wilds), every_hand=every, catalogue=catalogue)


def _joker_count(rs: Ruleset) -> int:
    return sum(w.count for w in rs.deck.wilds if w.code == JOKER)


def _set_hands(rs: Ruleset, hands: list[str]) -> Ruleset:
    if not hands:
        raise RulesError("hands: must list at least one round")
    known = [r.id for r in rs.rounds]
    for i, h in enumerate(hands):
        if h not in known:
            raise RulesError(f"hands[{i}]: unknown round {h!r}{_hint(h, known)}")
    return replace(rs, hands=tuple(hands))


def _add_penalties(rs: Ruleset, items: list[PenaltyIn]) -> Ruleset:
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


def _parse_penalty(rs: Ruleset, item: PenaltyIn, where: str) -> Penalty:
    pid = item["id"]
    kind_name = item.get("kind", "cards")
    kind = KIND_NAMES[kind_name]
    suits = tuple(dict.fromkeys(_suit(rs, x, f"{where}.suits") for x in item.get("suits", [])))
    ranks = tuple(dict.fromkeys(_rank(rs, x, f"{where}.ranks") for x in item.get("ranks", [])))
    cards = tuple(dict.fromkeys(_check_codes(rs, f"{where}.cards", item.get("cards", []))))
    wild = item.get("wild", False)
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
    return Penalty(
        pid, item.get("name", pid), kind, item["points"], Selector(suits, ranks, cards, wild)
    )


def _add_rounds(rs: Ruleset, items: list[RoundIn], hands_given: bool) -> Ruleset:
    rounds = list(rs.rounds)
    hands = list(rs.hands)
    catalogue = list(rs.catalogue)
    for i, item in enumerate(items):
        where = f"rounds[{i}]"
        rid = item["id"]
        name = item.get("name", rid)
        ids: list[str] = []
        for j, p in enumerate(item.get("penalties", [])):
            at = f"{where}.penalties[{j}]"
            if isinstance(p, str):
                known = [c.id for c in catalogue]
                if p not in known:
                    raise RulesError(f"{at}: unknown penalty {p!r}{_hint(p, known)}")
                ids.append(p)
            else:
                penalty = _parse_penalty(rs, p, at)
                catalogue = _put(catalogue, penalty)
                ids.append(penalty.id)
        all_previous = item.get("all_previous", False)
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
    return ", ".join(deck.examples())


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


def _trump(rs: Ruleset, value: str) -> str:
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


def _known_preset(name: str) -> str:
    if name not in PRESETS:
        raise PydanticCustomError(
            "unknown_preset", "is not one of {known}", {"known": ", ".join(PRESETS)}
        )
    return name


def from_preset(name: str = "canadian", settings: Mapping[str, Any] | None = None) -> Ruleset:
    """A preset by name, in any case (``Canadian``), with optional extra settings (a rules file:
    :mod:`salad.formats.rules`); the ruleset keeps the preset's own lower-case name.

    >>> from_preset("Skip-The-Salad").preset
    'skip-the-salad'
    """
    preset = preset_name(name)
    if preset is None:
        raise RulesError(f"rules: unknown preset {name!r} (presets: {', '.join(PRESETS)})")
    rs = PRESETS[preset]
    return apply_settings(rs, settings) if settings else rs


def preset_name(name: str) -> str | None:
    """The preset ``name`` names, whatever its case and surrounding spaces; None if none."""
    key = name.strip().lower()
    return key if key in PRESETS else None


def to_ref(rs: Ruleset) -> dict[str, Any]:
    """A ruleset as what records, sheets and tables store: its preset's name and its settings.

    >>> to_ref(from_preset("canadian", {"jokers": 2}))
    {'preset': 'canadian', 'settings': {'jokers': 2}}
    """
    return {"preset": rs.preset, "settings": rs.settings}


@with_config(ConfigDict(extra="forbid", strict=True))
class RulesetRef(TypedDict):
    """What :func:`to_ref` writes, as records and sheets store it (checked by pydantic)."""

    preset: Annotated[str, AfterValidator(_known_preset)]
    settings: NotRequired[dict[str, Any]]


REF_CHECK: TypeAdapter[RulesetRef] = TypeAdapter(RulesetRef)
"""Validates a ``{"preset", "settings"}`` object; record and sheet schemas embed it."""


def from_ref(value: Any, where: str = "ruleset") -> Ruleset:
    """The ruleset that :func:`to_ref` wrote; a problem is a :class:`RulesError` naming the key.

    >>> from_ref({"preset": "canadian", "settings": {"jokers": 2}}) == from_preset(
    ...     "canadian", {"jokers": 2})
    True
    >>> from_ref({"preset": "lettuce"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    salad.errors.RulesError: ruleset.preset: 'lettuce' is not one of canadian, fruit-salad, ...
    """
    try:
        ref = REF_CHECK.validate_python(value)
    except ValidationError as exc:
        raise RulesError(_ref_problem(exc.errors()[0], value, where)) from None
    try:
        return from_preset(ref["preset"], ref.get("settings"))
    except RulesError as exc:
        raise RulesError(f"{where}.settings: {exc}") from None


def _ref_problem(error: ErrorDetails, value: Any, where: str) -> str:
    """Pydantic's first error about a ruleset reference as one ``where: what`` line."""
    loc, kind, got = error["loc"], error["type"], error["input"]
    if kind == "extra_forbidden":
        return f"{where}: unknown key {loc[-1]!r} (known: preset, settings)"
    if not loc:
        return f"{where}: must be {{'preset': ..., 'settings': {{...}}}}, not {value!r}"
    if kind == "missing":
        return f"{where}: {loc[0]} is missing"
    if loc[0] == "preset":
        return f"{where}.preset: {got!r} is not one of {', '.join(PRESETS)}"
    return f"{where}.settings: must be a JSON object, not {got!r}"
