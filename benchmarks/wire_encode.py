"""What the typed encoder would cost: a move's ``state`` messages by wire.py's strings and by
the protocol's pydantic models, side by side.

For every move of many real games (salad's engine, random legal moves, several presets and
table sizes), both encoders build the ``state`` message of every seat and of one spectator,
as the server does after each move, and leave out what the connection already has (the lobby
after the first state, the trick parts within a trick: :mod:`salad.server.protocol`):

* **wire**: :func:`salad.server.tables.wire.state_messages`, the server's encoder: the parts
  every seat shares are written once as JSON text and cached until a trick ends.
* **typed**: the same messages as models of :mod:`salad.server.messages`, made as cheaply as
  the models allow: the shared view validated once a move (``ViewOut``), each seat's copy of it
  made with ``model_copy`` (no validation), the lobby and the trick parts validated once each
  time they change, and each seat's :class:`~salad.server.messages.StateOut` written by pydantic's
  ``model_dump_json`` (its Rust serializer).

Every message of the typed encoder is checked to be the same JSON as wire's (outside the
timing). The games are played first and their positions kept (``Game.copy``); the encoders are
then timed over the same positions in alternating rounds (the machine's speed drifts), in CPU
time; the typed encoder's ``model_dump_json`` calls alone are also shown (a typed encoder can
spend no less than they). The server's whole CPU a move is about 100 us (docs/deploy.md,
Sizing): the typed encoder replaces wire.py only if it costs at most 10 us a move more (issue
#32).

    python benchmarks/wire_encode.py             # 24 games, 5 rounds
    python benchmarks/wire_encode.py --games 6 --rounds 2

The last line printed is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from salad.engine import Game
from salad.formats.rules import load_ruleset
from salad.moves import format_move
from salad.server.messages import HandRoundOut, LastTrickOut, LobbyOut, StateOut, ViewOut
from salad.server.store import SeatRow, TableRow
from salad.server.tables import Table
from salad.server.tables.wire import JsonCodes, TricksCache, hand_rounds, last_trick, state_messages
from salad.view import SPECTATOR

CLOCK = time.process_time
BUDGET_US = 10.0
"""How much more than wire.py the typed encoder may cost a move (10% of ~100 us)."""
TABLES = (("canadian", None, 4), ("skip-the-salad", {"toppings": "all"}, 5), ("extended", None, 7))
"""(preset, settings, players) of the games, in turn."""


@dataclass
class Receiver:
    """A connection as a state message sees it (salad.server.tables.wire.Receiver)."""

    seat: int
    version: int = 0
    tricks: Any = None


def lobby(game: Game, table_id: str) -> str:
    """A playing table's lobby as JSON, as the server sends it."""
    rs, n = game.ruleset, game.players
    row = TableRow(table_id, rs.preset, rs.settings, n, None, None, "playing", 1)
    row.seats = [SeatRow(i, "human", f"P{i}") for i in range(n)]
    return Table(row, rs).lobby_json()


def play(index: int) -> list[Game]:
    """Every position of a game played at random, the first before any move."""
    preset, settings, players = TABLES[index % len(TABLES)]
    game = Game(load_ruleset(preset, settings), players, seed=index)
    rng = random.Random(index)
    positions = [game.copy()]
    while not game.is_over():
        game.play(rng.choice(game.legal_moves()))
        positions.append(game.copy())
    return positions


DUMPING = [0.0]
"""The CPU time the typed encoder spent in ``model_dump_json`` alone."""

Encoder = Callable[[list[Game], str], list[list[str]]]


def by_wire(positions: list[Game], lobby_json: str) -> list[list[str]]:
    """Every position's messages, by the server's encoder."""
    game0 = positions[0]
    conns = [Receiver(seat) for seat in [SPECTATOR, *range(game0.players)]]
    cache = TricksCache()
    codes = JsonCodes(game0.deck)
    out = []
    for moves, game in enumerate(positions):
        message = state_messages(
            game,
            game_number=1,
            moves=moves,
            deadline=None,
            lobby_json=lobby_json,
            version=1,
            cache=cache,
            codes=codes,
        )
        out.append([message(conn) for conn in conns])
    return out


def by_models(positions: list[Game], lobby_json: str) -> list[list[str]]:
    """Every position's messages, by the typed models."""
    game0 = positions[0]
    seats = [SPECTATOR, *range(game0.players)]
    table = LobbyOut.model_validate_json(lobby_json)
    sent_lobby: set[int] = set()
    sent_trick: dict[int, Any] = {}
    trick_key: Any = None
    trick_parts: dict[str, Any] = {}
    deck = game0.deck
    out = []
    for moves, game in enumerate(positions):
        shared = game.view(SPECTATOR).to_dict()
        key = (game.hand_index, game.trick_no, game.phase)
        if key != trick_key:
            trick_key = key
            trick_parts = {
                "last_trick": (found := last_trick(game)) and LastTrickOut.model_validate(found),
                "hand_rounds": [HandRoundOut.model_validate(r) for r in hand_rounds(game)],
                "winners": game.winners(),
            }
        tricks = shared.pop("tricks")
        common = ViewOut.model_validate(shared)
        full_view = ViewOut.model_validate({**shared, "tricks": tricks})
        texts = []
        for seat in seats:
            full = sent_trick.get(seat) != key
            sent_trick[seat] = key
            view = full_view if full else common
            if seat != SPECTATOR:
                mine = {
                    "seat": seat,
                    "cards": deck.format_mask(game.hands[seat]).split(),
                    "legal": [format_move(deck, m) for m in game.legal_moves()]
                    if seat == game.to_move
                    else [],
                    "passed": deck.format_mask(game.passed[seat]).split(),
                    "received": deck.format_mask(game.received[seat]).split(),
                }
                view = view.model_copy(update=mine)
            state = StateOut(
                type="state",
                you=seat,
                view=view,
                deadline=None,
                moves=moves,
                hand_end=None,
                **(trick_parts if full else {}),
            )
            if seat not in sent_lobby:
                sent_lobby.add(seat)
                state.table = table
            t0 = CLOCK()
            texts.append(state.model_dump_json())
            DUMPING[0] += CLOCK() - t0
        out.append(texts)
    return out


def same(a: list[list[str]], b: list[list[str]]) -> bool:
    return all(
        json.loads(x) == json.loads(y)
        for xs, ys in zip(a, b, strict=True)
        for x, y in zip(xs, ys, strict=True)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    games = [play(i) for i in range(args.games)]
    lobbies = [lobby(g[0], f"t{i}") for i, g in enumerate(games)]
    moves = sum(len(g) for g in games)
    for positions, lobby_json in zip(games, lobbies, strict=True):
        if not same(by_wire(positions, lobby_json), by_models(positions, lobby_json)):
            raise SystemExit("the two encoders disagree")
    encoders: dict[str, Encoder] = {"wire": by_wire, "typed": by_models}
    per_move: dict[str, list[float]] = {name: [] for name in encoders}
    dumps: list[float] = []
    print(f"{args.games} games, {moves} positions, each seat's and a spectator's state a move")
    print(
        f"{'round':>5} {'wire us/move':>13} {'typed us/move':>14} {'of it dumps':>13} {'ratio':>6}"
    )
    for r in range(args.rounds):
        order = list(encoders.items()) if r % 2 == 0 else list(encoders.items())[::-1]
        spent = dict.fromkeys(encoders, 0.0)
        DUMPING[0] = 0.0
        for positions, lobby_json in zip(games, lobbies, strict=True):
            for name, encode in order:
                t0 = CLOCK()
                encode(positions, lobby_json)
                spent[name] += CLOCK() - t0
        for name in encoders:
            per_move[name].append(spent[name] / moves * 1e6)
        dumps.append(DUMPING[0] / moves * 1e6)
        w, t = per_move["wire"][-1], per_move["typed"][-1]
        print(f"{r + 1:>5} {w:>13.1f} {t:>14.1f} {dumps[-1]:>13.1f} {t / w:>6.2f}")
    wire = statistics.median(per_move["wire"])
    typed = statistics.median(per_move["typed"])
    dumped = statistics.median(dumps)
    extra = typed - wire
    verdict = "typed" if extra <= BUDGET_US else "wire"
    print(
        f"median: wire {wire:.1f} us, typed {typed:.1f} us a move (x{typed / wire:.2f}, "
        f"{extra:+.1f} us; budget +{BUDGET_US:.0f} us; model_dump_json alone {dumped:.1f} us): "
        f"keep {verdict}"
    )
    print(
        json.dumps(
            {
                "games": args.games,
                "positions": moves,
                "rounds": args.rounds,
                "wire_us_per_move": round(wire, 2),
                "typed_us_per_move": round(typed, 2),
                "typed_dump_us_per_move": round(dumped, 2),
                "ratio": round(typed / wire, 3),
                "extra_us_per_move": round(extra, 2),
                "budget_us": BUDGET_US,
                "encoder": verdict,
            }
        )
    )


if __name__ == "__main__":
    main()
