"""The fast per-seat view JSON of the server is exactly ``Game.view(seat).to_dict()``."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

import pytest
from pydantic import ValidationError

from salad.engine import Game
from salad.formats.rules import load_ruleset
from salad.server.messages import LobbyOut, StateOut
from salad.server.protocol import complete_state
from salad.server.store import SeatRow, TableRow
from salad.server.tables import Table
from salad.server.tables.wire import (
    JsonCodes,
    TricksCache,
    hand_summary,
    last_trick,
    state_messages,
)
from salad.view import SPECTATOR

TABLES = [
    ("canadian", None, 4),
    ("fruit-salad", None, 3),
    ("extended", None, 7),
    ("skip-the-salad", {"toppings": "all"}, 5),
    ("skip-the-salad", {"toppings": ["pass-the-veggies"], "swap": ["3=no-royalty"]}, 8),
    ("canadian", {"jokers": 2, "passing": 3}, 4),
]
"""(preset, settings, players): every kind of deck, round and topping a view can show."""


@pytest.mark.parametrize(("preset", "settings", "players"), TABLES)
def test_view_json_is_the_view(preset: str, settings: Any, players: int) -> None:
    game = Game(load_ruleset(preset, settings), players, seed=17)
    cache = TricksCache()
    rng = random.Random(3)
    steps = 0
    while True:
        message = state_messages(
            game,
            game_number=1,
            moves=steps,
            deadline=None,
            lobby_json="{}",
            version=0,
            cache=cache,
            codes=None,
        )
        for seat in [SPECTATOR, *range(players)]:
            fast = json.loads(message(Receiver(seat)))["view"]  # a new receiver: a whole view
            assert fast == game.view(seat).to_dict(), (steps, seat)
        if game.is_over():
            break
        game.play(rng.choice(game.legal_moves()))
        steps += 1
    assert steps > 100


def test_last_trick_follows_the_game() -> None:
    game = Game(load_ruleset("canadian"), 4, seed=1)
    assert last_trick(game) is None
    rng = random.Random(1)
    for _ in range(4 * 13):  # the whole first hand
        game.play(rng.choice(game.legal_moves()))
    last = last_trick(game)
    assert last is not None
    tricks = [t for t in json.loads(json.dumps(game.view(0).to_dict()))["tricks"]]
    assert tricks == []  # the next hand has begun
    seats = [seat for seat, _ in last["cards"]]
    assert seats == [(last["leader"] + i) % 4 for i in range(4)]
    game.play(game.legal_moves()[0])
    assert last_trick(game) == last  # unchanged until a trick ends


def test_state_messages_after_every_move() -> None:
    """The whole state message of each seat: the cached parts always match the game."""
    from salad.server.tables import Conn
    from salad.server.tables.wire import hand_rounds

    rs = load_ruleset("skip-the-salad", {"toppings": "all"})
    row = TableRow("t", rs.preset, rs.settings, 4, None, None, "playing", 1)
    row.seats = [SeatRow(i, "human", f"P{i}") for i in range(4)]
    table = Table(row, rs)
    conns = [Conn(None, seat) for seat in [SPECTATOR, 0, 1, 2, 3]]  # type: ignore[arg-type]
    rng = random.Random(4)
    last: dict[int, Any] = {}
    for number in (1, 2):  # a rematch: the caches start again
        game = Game(rs, 4, seed=number)
        table.game, table.moves, table.game_number = game, 0, number
        before = None
        while True:
            table.moves += 1
            message = table.state_messages()
            # The tricks and what goes with them are sent when a trick ends, else left out.
            trick = (number, game.hand_index, game.trick_no, game.phase)
            for conn in conns:
                text = message(conn)
                raw = json.loads(text)
                assert StateOut.model_validate_json(text).model_dump(mode="json") == raw
                assert ("tricks" in raw["view"]) == (trick != before), (trick, before)
                assert ("hand_rounds" in raw) == (trick != before)
                assert ("table" in raw) == (table.moves == 1 and number == 1)
                state = complete_state(raw, last.get(conn.seat))
                last[conn.seat] = state
                assert state["type"] == "state" and state["you"] == conn.seat
                assert state["view"] == game.view(conn.seat).to_dict()
                assert state["last_trick"] == last_trick(game)
                assert state["hand_rounds"] == hand_rounds(game)
                assert state["winners"] == game.winners()
                assert state["moves"] == table.moves and state["deadline"] is None
            before = trick
            if game.is_over():
                break
            game.play(rng.choice(game.legal_moves()))


@dataclass
class Receiver:
    seat: int
    version: int = 0
    tricks: Any = None


@pytest.mark.parametrize(("preset", "settings", "players"), TABLES)
def test_the_wire_is_the_protocol(preset: str, settings: Any, players: int) -> None:
    """Every state wire.py writes, whole or with the kept parts left out, is a ``StateOut``
    of the protocol's models, key for key (nothing the models do not say, nothing missing),
    after every move of games of every kind of table, with a hand's summary and the lobby."""
    rs = load_ruleset(preset, settings)
    game = Game(rs, players, seed=29)
    row = TableRow("t", rs.preset, rs.settings, players, 30.0, None, "playing", 1)
    row.seats = [SeatRow(i, "human", f"P{i}") for i in range(players)]
    lobby = Table(row, rs).lobby()
    assert LobbyOut.model_validate(lobby).model_dump() == lobby
    conns = [Receiver(seat) for seat in [SPECTATOR, *range(players)]]
    cache, codes = TricksCache(), JsonCodes(game.deck)
    rng = random.Random(5)
    moves, left_out = 0, 0
    while True:
        hands = len(game.hand_points)
        summary = hand_summary(game, hands - 1) if hands else None
        message = state_messages(
            game,
            game_number=1,
            moves=moves,
            deadline=1712345678.5 if moves % 2 else None,
            lobby_json=json.dumps(lobby),
            version=1 + moves // 100,
            cache=cache,
            codes=codes,
            hand_end=None if summary is None else json.dumps({**summary, "waiting": [0]}),
        )
        for conn in conns:
            text = message(conn)
            state = StateOut.model_validate_json(text)
            assert state.model_dump(mode="json") == json.loads(text), (moves, conn.seat)
            left_out += "tricks" not in json.loads(text)["view"]
        if game.is_over():
            break
        game.play(rng.choice(game.legal_moves()))
        moves += 1
    assert moves > 100 and left_out > moves  # the short form was checked too


def test_the_models_refuse_what_the_protocol_does_not_say() -> None:
    """The check above can fail: a key the models do not know, or one missing, is refused."""
    game = Game(load_ruleset("canadian"), 4, seed=1)
    state = {"type": "state", "you": 0, "view": game.view(0).to_dict(), "deadline": None}
    state |= {"moves": 0, "hand_end": None}
    StateOut.model_validate(state)
    with pytest.raises(ValidationError):
        StateOut.model_validate({**state, "news": 1})
    with pytest.raises(ValidationError):
        StateOut.model_validate({**state, "view": {**state["view"], "suits": []}})
    del state["moves"]
    with pytest.raises(ValidationError):
        StateOut.model_validate(state)
