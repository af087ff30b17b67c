"""The strings of a ``python_salad`` state: each seat's information state and observation (what
it saw), and the whole state for people."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pyspiel

from salad.adapters.openspiel.config import nums
from salad.adapters.openspiel.core import StateCore
from salad.cards import CardMask
from salad.engine import Game
from salad.view import Phase


def info_string(core: StateCore, player: int, private: Any = None) -> str:
    """The seat's whole history of what it saw (``private``: which hands to show)."""
    if private is None:
        cached = core.cache.get(player)
        if cached is not None:
            return cached
    cfg = core.cfg
    lines = [f"p{player}"]
    lines.extend(p[player] for p in core.past)
    game = core.game
    if game is None:
        lines.append("drawing for the first dealer")
    elif game.phase is Phase.DEAL or game.phase is Phase.OVER:
        if game.phase is Phase.DEAL and game.hand_index < cfg.end_hand:
            lines.append(f"hand {game.hand_index + 1} dealing, dealer {game.dealer}")
            lines.append("cards " + _cards_for(core, player, private, core.deal_masks))
    else:
        lines.append(_hand_line(core, game))
        lines.append("cards " + _cards_for(core, player, private, game.hands))
        lines.extend(_pass_lines(core, game, player, private))
        lines.append("plays " + core.plays_text())
    if game is not None:
        lines.append("totals " + nums(game.totals))
    text = "\n".join(lines)
    if private is None:
        core.cache[player] = text
    return text


def _hand_line(core: StateCore, game: Game) -> str:
    name = core.cfg.rules.hands[game.hand_index].round.name
    return f"hand {game.hand_index + 1} {name}, dealer {game.dealer}, {core.trump_line}"


def _cards_for(core: StateCore, player: int, private: Any, hands: Sequence[CardMask]) -> str:
    cfg = core.cfg
    if private is None or private == pyspiel.PrivateInfoType.SINGLEPhase.PLAYER:
        return cfg.cards_text(hands[player])
    if private == pyspiel.PrivateInfoType.ALLPhase.PLAYERS:
        return " / ".join(f"{s}: {cfg.cards_text(h)}" for s, h in enumerate(hands))
    return "?"


def _pass_lines(core: StateCore, game: Game, player: int, private: Any) -> list[str]:
    cfg = core.cfg
    if not cfg.ruleset.passing:
        return []
    if private is None or private == pyspiel.PrivateInfoType.SINGLEPhase.PLAYER:
        seats = [player]
    elif private == pyspiel.PrivateInfoType.ALLPhase.PLAYERS:
        seats = list(range(cfg.players))
    else:
        return []
    return [
        f"{s} passed {cfg.cards_text(game.passed[s])} received {cfg.cards_text(game.received[s])}"
        for s in seats
    ]


def observation_string(core: StateCore, player: int, private: Any = None) -> str:
    """The current hand only (no earlier hands' plays): what a seat sees at the table."""
    cfg = core.cfg
    game = core.game
    if game is None:
        return f"p{player} drawing for the first dealer"
    parts = [f"p{player}"]
    if game.phase is Phase.DEAL or game.phase is Phase.OVER:
        parts.append(f"hand {game.hand_index + 1} dealing" if game.phase is Phase.DEAL else "over")
        parts.append("cards " + _cards_for(core, player, private, core.deal_masks))
    else:
        parts.append(_hand_line(core, game) + f", to move {game.to_move}")
        parts.append("cards " + _cards_for(core, player, private, game.hands))
        parts.extend(_pass_lines(core, game, player, private))
        if game.phase is Phase.PLAY:
            trick = " ".join(
                f"{game.trick_seat(i)}:{cfg.move_text(m)}" for i, m in enumerate(game.trick)
            )
            parts.append(f"trick {trick or '-'}")
            parts.append("taken " + " / ".join(cfg.cards_text(t) for t in game.taken))
        parts.append("running " + nums(game.running_points()))
    parts.append("totals " + nums(game.totals))
    return "\n".join(parts)


def state_text(core: StateCore) -> str:
    """Every seat's cards and everything played: the state for people (``str(state)``)."""
    cfg = core.cfg
    game = core.game
    if game is None:
        return "drawing for the first dealer"
    phase = game.phase.name.lower()
    lines = [
        f"hand {game.hand_index + 1} ({cfg.first_hand + 1}-{cfg.end_hand}) {phase}, "
        f"dealer {game.dealer}, to move {game.to_move}, {core.trump_line or 'no trump'}"
    ]
    if game.phase is Phase.DEAL:
        lines.append("dealt " + " ".join(cfg.labels[c] for c in core.dealt))
    hands = core.deal_masks if game.phase is Phase.DEAL else game.hands
    for s in range(cfg.players):
        extra = ""
        if cfg.ruleset.passing:
            extra = (
                f" passed {cfg.cards_text(game.passed[s])}"
                f" received {cfg.cards_text(game.received[s])}"
            )
        lines.append(f"seat {s}: {cfg.cards_text(hands[s])}{extra}")
    lines.append("plays " + core.plays_text())
    lines.append("past " + " || ".join(p[0] for p in core.past))
    lines.append(f"totals {nums(game.totals)} (from {nums(core.base)})")
    return "\n".join(lines)
