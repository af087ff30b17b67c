"""Skip the Salad's toppings and swap-in rounds, as changes to a ruleset's data.

A topping never adds a code path: each one only sets ruleset fields the engine already reads
(a token penalty, passing, the objective, trumps, the moon, an extra wild card). So a topping
works with any preset whose deck has what it needs, and is refused with a reason where not:

>>> from salad.formats.rules import load_ruleset
>>> load_ruleset("canadian", {"toppings": ["cornucopia"]}).highest_wins
True
>>> load_ruleset("canadian", {"toppings": ["rotten-tomato"]})
Traceback (most recent call last):
...
salad.errors.RulesError: toppings: rotten-tomato needs a Tomatoes suit; canadian has none
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from salad.cards import WildSpec, WildWins
from salad.errors import RulesError
from salad.ruleset import Kind, Moon, Penalty, Ruleset, Selector

TOPPINGS = (
    "rotten-tomato",
    "pass-the-veggies",
    "cornucopia",
    "spicy-pepper",
    "blue-cheese-moon",
    "salad-dressing",
)

TOPPING_TEXT = {
    "rotten-tomato": "Rotten Tomato: winning a trick with a Tomato takes the token; "
    "its holder at the end of the round takes +25",
    "pass-the-veggies": "Pass the Veggies: before each round everyone passes two cards right",
    "cornucopia": "Cornucopia: the highest total wins",
    "spicy-pepper": "Spicy Pepper: Carrots are trump in round one; later, last place picks trump",
    "blue-cheese-moon": "Blue Cheese Moon: collecting every penalty of a round scores it "
    "negative (not in single-event rounds)",
    "salad-dressing": "Salad Dressing: one extra card, playable any time, wins any trick",
}

ROTTEN_TOMATO_POINTS = 25
DRESSING = WildSpec("SD", "Salad Dressing", "SD", 1, WildWins.ALWAYS)


def parse_toppings(value: Any) -> list[str]:
    """``"all"``, ``"a,b"`` or a list of names → the topping names, checked.

    A string must name at least one topping: ``--toppings ''`` is a mistake, not "none" (leave
    the setting out, or give an empty list, for no toppings).
    """
    if isinstance(value, str):
        text = value
        value = [v for v in value.split(",") if v.strip()]
        if not value:
            raise RulesError(
                f"toppings: {text!r} names no topping (known: {', '.join(TOPPINGS)}, all)"
            )
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RulesError(f"toppings: must be a list of topping names, not {value!r}")
    names: list[str] = []
    for raw in value:
        name = raw.strip().lower()
        if name == "all":
            names.extend(TOPPINGS)
        elif name in TOPPINGS:
            names.append(name)
        else:
            raise RulesError(
                f"toppings: unknown topping {raw!r} (known: {', '.join(TOPPINGS)}, all)"
            )
    return list(dict.fromkeys(names))


def _suit_named(rs: Ruleset, name: str) -> str | None:
    for s in rs.deck.suits:
        if s.name.lower() == name.lower():
            return s.letter
    return None


def apply_toppings(rs: Ruleset, value: Any) -> Ruleset:
    for name in parse_toppings(value):
        rs = _TOPPING_FUNCTIONS[name](rs)
    return rs


def _rotten_tomato(rs: Ruleset) -> Ruleset:
    tomato = _suit_named(rs, "Tomatoes")
    if tomato is None:
        raise RulesError(f"toppings: rotten-tomato needs a Tomatoes suit; {rs.preset} has none")
    penalty = Penalty(
        "rotten-tomato",
        "Rotten Tomato",
        Kind.TOKEN,
        ROTTEN_TOMATO_POINTS,
        Selector(suits=(tomato,)),
    )
    catalogue = tuple(p for p in rs.catalogue if p.id != penalty.id) + (penalty,)
    every = tuple(i for i in rs.every_hand if i != penalty.id) + (penalty.id,)
    return replace(rs, catalogue=catalogue, every_hand=every)


def _pass_the_veggies(rs: Ruleset) -> Ruleset:
    return replace(rs, passing=2, pass_direction="right")


def _cornucopia(rs: Ruleset) -> Ruleset:
    return replace(rs, highest_wins=True)


def _spicy_pepper(rs: Ruleset) -> Ruleset:
    carrots = _suit_named(rs, "Carrots")
    if carrots is None:
        raise RulesError(f"toppings: spicy-pepper needs a Carrots suit; {rs.preset} has none")
    return replace(rs, trump_first=carrots, trump_chooser=True)


def _blue_cheese_moon(rs: Ruleset) -> Ruleset:
    return replace(rs, moon=Moon.NEGATIVE)


def _salad_dressing(rs: Ruleset) -> Ruleset:
    wilds = tuple(w for w in rs.deck.wilds if w.code != DRESSING.code) + (DRESSING,)
    return replace(rs, deck=replace(rs.deck, wilds=wilds))


_TOPPING_FUNCTIONS = {
    "rotten-tomato": _rotten_tomato,
    "pass-the-veggies": _pass_the_veggies,
    "cornucopia": _cornucopia,
    "spicy-pepper": _spicy_pepper,
    "blue-cheese-moon": _blue_cheese_moon,
    "salad-dressing": _salad_dressing,
}


def parse_swaps(value: Any) -> dict[int, str]:
    """``{"2": "no-evens"}`` or ``["2=no-evens"]`` → {2: "no-evens"}."""
    pairs: list[tuple[str, Any]]
    if isinstance(value, Mapping):
        pairs = [(str(k), v) for k, v in value.items()]
    elif isinstance(value, str | list):
        items = [value] if isinstance(value, str) else value
        pairs = []
        for item in items:
            if not isinstance(item, str) or "=" not in item:
                raise RulesError(f"swap: {item!r} is not of the form ROUND=NAME (e.g. 2=no-evens)")
            k, v = item.split("=", 1)
            pairs.append((k.strip(), v.strip()))
    else:
        raise RulesError(f"swap: must be a table of round = name, not {value!r}")
    out: dict[int, str] = {}
    for k, v in pairs:
        if not k.isdigit():
            raise RulesError(f"swap.{k}: the round must be a hand number such as 2")
        if not isinstance(v, str) or not v:
            raise RulesError(f"swap.{k}: must name a round, not {v!r}")
        out[int(k)] = v.strip().lower()
    return out


def apply_swaps(rs: Ruleset, value: Any) -> Ruleset:
    hands = list(rs.hands)
    known = {r.id for r in rs.rounds}
    for number, round_id in parse_swaps(value).items():
        if not 1 <= number <= len(hands):
            raise RulesError(f"swap.{number}: {_swappable(rs)}")
        if rs.round(hands[number - 1]).all_previous:
            raise RulesError(
                f"swap.{number}: {rs.round(hands[number - 1]).name} takes every earlier "
                f"penalty and cannot be swapped out ({_swappable(rs)})"
            )
        if round_id not in known:
            raise RulesError(
                f"swap.{number}: unknown round {round_id!r} (known: {', '.join(sorted(known))})"
            )
        if rs.round(round_id).all_previous:
            raise RulesError(f"swap.{number}: {round_id} cannot be swapped in")
        hands[number - 1] = round_id
    return replace(rs, hands=tuple(hands))


def _swappable(rs: Ruleset) -> str:
    """Which hands a swap may replace, in words: every hand but one that takes every earlier
    penalty (Skip the Salad: "only hands 1 to 5 may be swapped", not 1 to 6)."""
    numbers = [i + 1 for i, h in enumerate(rs.hands) if not rs.round(h).all_previous]
    if not numbers:
        return "no hand of this game may be swapped"
    if numbers == list(range(numbers[0], numbers[-1] + 1)):
        span = str(numbers[0]) if len(numbers) == 1 else f"{numbers[0]} to {numbers[-1]}"
    else:
        span = ", ".join(map(str, numbers))
    return f"only hands {span} may be swapped"
