"""The rules a client asks for: a preset or an uploaded rules file, with toppings and swaps.

Shared by the tables and the score sheet endpoints. A name from the network is only ever a
preset's, never a path; a ruleset is refused unless it can be stored as a preset plus settings
(:func:`salad.settings.to_ref`) and read back the same.
"""

from __future__ import annotations

from typing import Any

from salad.errors import SaladError
from salad.formats.rules import parse_rules
from salad.locale import _
from salad.ruleset import Ruleset
from salad.server.errors import ActionError
from salad.settings import apply_settings, from_preset, from_ref, to_ref


def build_ruleset(
    rules: str,
    rules_toml: str | None,
    toppings: list[str] | str | None,
    swap: list[str] | dict[str, str] | None,
) -> Ruleset:
    """A preset (never a file path: this comes from the network) or an uploaded rules file,
    with toppings and swaps on top; ActionError (one line) if it is not a ruleset, or when a
    record could not store it."""
    extra: dict[str, Any] = {}
    if toppings:
        extra["toppings"] = toppings
    if swap:
        extra["swap"] = swap
    try:
        if rules_toml is not None:
            rs = parse_rules(rules_toml, "rules_toml")
            if extra:
                rs = apply_settings(rs, extra)
        else:
            rs = from_preset(rules, extra)
        if from_ref(to_ref(rs)) != rs:
            raise ActionError(_("rules: these settings cannot be stored with the game"))
    except SaladError as exc:
        raise ActionError(str(exc)) from None
    return rs


def player_count(rs: Ruleset, players: int | None) -> int:
    """``players``, or the ruleset's default; ActionError if the ruleset is not for so many."""
    n = rs.default_players if players is None else players
    try:
        rs.check_players(n)
    except SaladError as exc:
        raise ActionError(str(exc)) from None
    return n
