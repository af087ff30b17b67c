"""The protocol's messages: the ``ruleset`` a program is told, and the answers it gives back."""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from typing import Any

from salad.cards import NO_SUIT
from salad.errors import CardParseError
from salad.formats.describe import describe
from salad.moves import TRUMP_PREFIX, Move, format_move, format_moves, parse_move
from salad.ruleset import Kind, Ruleset
from salad.view import Phase, View

PROTOCOL = 1
"""The protocol version, sent in ``hello`` and ``game``; raised on incompatible changes."""


@functools.lru_cache(maxsize=64)
def ruleset_info(rs: Ruleset, players: int) -> dict[str, Any]:
    """The ``ruleset`` object of the ``game`` message (see docs/external-bots.md).

    >>> from salad import load_ruleset
    >>> info = ruleset_info(load_ruleset("canadian"), 4)
    >>> info["preset"], len(info["deck"]["cards"]), info["hands"][0]["round"]
    ('canadian', 52, 'No Tricks')
    >>> info["hands"][2]["penalties"][0]["cards"]
    ['QC', 'QD', 'QH', 'QS']
    """
    deck = rs.deck_for(players)
    compiled = rs.compiled(players)
    codes = deck.codes
    wilds = []
    in_deck = {codes[c] for c in range(deck.size) if deck.suit_of[c] == NO_SUIT}
    for w in rs.deck.wilds:
        if w.code in in_deck:
            wilds.append(
                {"code": w.code, "name": w.name, "count": w.count, "wins": w.wins.name.lower()}
            )
    hands = []
    for hand in compiled.hands:
        penalties = []
        for p in hand.penalties:
            item: dict[str, Any] = {
                "id": p.penalty.id,
                "name": p.penalty.name,
                "kind": p.kind.name.lower(),
                "points": p.points,
                "text": p.penalty.describe(rs.deck),
            }
            if p.kind in (Kind.CARDS, Kind.TOKEN):
                item["cards"] = deck.format_mask(p.mask).split()
            penalties.append(item)
        hands.append(
            {
                "number": hand.index + 1,
                "round": hand.round.name,
                "penalties": penalties,
                "total": hand.fixed_total,
            }
        )
    return {
        "preset": rs.preset,
        "title": rs.title,
        "settings": rs.settings,
        "highest_wins": rs.highest_wins,
        "moon": rs.moon.name.lower(),
        "moon_points": rs.moon_points,
        "passing": rs.passing,
        "pass_direction": rs.pass_direction,
        "trump_first": rs.trump_first or None,
        "trump_chooser": rs.trump_chooser,
        "deck": {
            "suits": [{"letter": s.letter, "name": s.name, "symbol": s.symbol} for s in deck.suits],
            "ranks": [{"letter": r.letter, "name": r.name} for r in rs.deck.ranks],
            "wilds": wilds,
            "copies": rs.deck.copies_for(players),
            "cards": [codes[c] for c in range(deck.size) if deck.in_play >> c & 1],
            "removed": [codes[c] for c in deck.removed],
            "cards_each": deck.cards_each,
        },
        "hands": hands,
        "checksum": compiled.checksum,
        "description": describe(rs, players),
    }


def dumps(message: dict[str, Any]) -> str:
    """A message as one line of JSON."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def winners(totals: Sequence[int], highest_wins: bool) -> list[int]:
    best = max(totals) if highest_wins else min(totals)
    return [s for s, t in enumerate(totals) if t == best]


def legal_texts(view: View) -> list[str]:
    """The ``legal`` list of a ``move`` message."""
    return [format_move(view.deck, m) for m in view.legal_moves]


def parse_answer(view: View, line: str) -> tuple[Move | None, str, str]:
    """A program's answer → ``(move, "", "")`` or ``(None, kind, why)``, ``kind`` being
    ``"malformed"`` (not a move of this deck) or ``"illegal"`` (a move, not a legal one).

    >>> from salad import Game, load_ruleset
    >>> game = Game(load_ruleset("canadian"), 4, seed=3)
    >>> view = game.view(game.to_move)
    >>> first = game.format_move(view.legal_moves[0])
    >>> parse_answer(view, first)[0] == view.legal_moves[0]
    True
    >>> parse_answer(view, '{"move": "%s"}' % first)[0] == view.legal_moves[0]
    True
    >>> parse_answer(view, "hello world")
    (None, 'malformed', "unknown card 'hello world' (expected e.g. QS, 10H, q♠)")
    >>> parse_answer(view, "trump:H")
    (None, 'illegal', 'no trump is chosen now')
    """
    text = line.strip()
    if text[:1] in ("{", '"'):
        try:
            value = json.loads(text)
        except ValueError:
            return None, "malformed", "not valid JSON"
        if isinstance(value, dict):
            value = value.get("move")
        if not isinstance(value, str):
            return None, "malformed", 'no "move" string in the answer'
        text = value.strip()
    if not text:
        return None, "malformed", "an empty answer"
    deck = view.deck
    trump = view.phase == Phase.TRUMP
    if not trump and text[: len(TRUMP_PREFIX)].lower() == TRUMP_PREFIX:
        return None, "illegal", "no trump is chosen now"
    among = view.hand & ~view.passed if view.phase == Phase.PASS else view.hand
    try:
        move = parse_move(deck, text, trump=trump, among=among)
    except CardParseError as exc:
        return None, "malformed", str(exc)
    if move not in view.legal_moves:
        legal = format_moves(deck, view.legal_moves)
        return None, "illegal", f"{text!r} is not legal now (legal: {legal})"
    return move, "", ""
