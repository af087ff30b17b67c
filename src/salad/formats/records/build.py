"""Writing a record: the event log of an engine game read into the JSON of ``docs/records.md``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from salad.engine import Game
from salad.errors import RecordError, SaladError
from salad.events import Deal, Draw, HandScored, PassChosen, Play, TokenTaken, TrickWon, TrumpChosen
from salad.formats.records.schema import FORMAT, Record
from salad.moves import format_move
from salad.settings import from_ref, to_ref
from salad.view import Phase

__all__ = ["record_from_game"]


def record_from_game(game: Game, players: list[dict[str, Any]] | None = None) -> Record:
    """The record of a game, finished or not (an unfinished hand has no ``points`` yet).

    ``players`` describes the seats, e.g. ``[{"name": "Alice"}, {"name": "Bot 1", "bot":
    "random"}]``; every entry needs a ``name`` (``"Seat 0"``, ``"Seat 1"``, ... when omitted).
    """
    n = game.players
    deck = game.deck
    rs = game.ruleset
    try:
        same = from_ref(to_ref(rs)) == rs
    except SaladError:
        same = False
    if not same:
        raise RecordError(
            f"ruleset: preset {rs.preset!r} with the game's settings does not rebuild its rules"
        )
    record: Record = {
        "format": FORMAT,
        "ruleset": to_ref(rs),
        "players": _players_entries(players, n),
    }
    if game.seed is not None:
        record["seed"] = str(game.seed)  # a string: JSON tools round numbers above 2**53
    record["first_dealer"] = game.first_dealer
    hands: list[_HandNotes] = []
    current: list[str] = []
    leader = -1
    for event in game.events:
        if isinstance(event, Draw):
            record["draw"] = [
                [[seat, deck.format(card)] for seat, card in rnd] for rnd in event.rounds
            ]
        elif isinstance(event, Deal):
            hands.append(_HandNotes(game, event))
            current = []
        elif isinstance(event, TrumpChosen):
            hands[-1].trump = deck.suits[event.suit].letter if event.suit >= 0 else None
            hands[-1].trump_seat = event.seat if event.seat >= 0 else None
        elif isinstance(event, PassChosen):
            hands[-1].passes[event.seat].append(deck.format(event.card))
        elif isinstance(event, Play):
            if not current:
                leader = event.seat
            current.append(format_move(deck, event.move))
        elif isinstance(event, TrickWon):
            hands[-1].tricks.append({"leader": leader, "cards": current, "winner": event.winner})
            current = []
        elif isinstance(event, TokenTaken):
            hands[-1].tricks[-1]["token"] = event.seat
        elif isinstance(event, HandScored):
            hands[-1].points = list(event.points)
            hands[-1].moon = event.moon if event.moon >= 0 else None
    dealt = game.hand_index + (0 if game.phase in (Phase.DEAL, Phase.OVER) else 1)
    if len(hands) != dealt:
        raise RecordError(f"record: the game's log holds {len(hands)} of its {dealt} hands")
    if hands and hands[-1].points is None and game.phase == Phase.PLAY:
        hands[-1].current = {"leader": game.leader, "cards": current}
    record["auto_deal"] = game.auto_deal
    record["hands"] = [h.to_dict() for h in hands]
    record["totals"] = list(game.totals)
    record["winners"] = game.winners()
    return record


class _HandNotes:
    """One hand of a record while the event log is read."""

    def __init__(self, game: Game, deal: Deal) -> None:
        deck = game.deck
        compiled = game.rules.hands[deal.hand]
        self.head: Record = {
            "number": deal.hand + 1,
            "round": compiled.round.name,
            "round_id": compiled.round.id,
            "dealer": deal.dealer,
            "removed": [deck.format(c) for c in deck.removed],
            "deal": [deck.format_mask(mask).split() for mask in deal.hands],
        }
        self.trump: str | None = None
        self.trump_seat: int | None = None
        self.passing = bool(game.ruleset.passing)
        self.passes: list[list[str]] = [[] for _ in range(game.players)]
        self.tricks: list[Record] = []
        self.current: Record | None = None
        self.points: list[int] | None = None
        self.moon: int | None = None

    def to_dict(self) -> Record:
        out = dict(self.head)
        if self.trump is not None:
            out["trump"] = self.trump
            if self.trump_seat is not None:
                out["trump_seat"] = self.trump_seat
        if self.passing:
            out["passes"] = self.passes
        out["tricks"] = self.tricks
        if self.current is not None:
            out["current"] = self.current
        if self.points is not None:
            out["points"] = self.points
            if self.moon is not None:
                out["moon"] = self.moon
        return out


def _players_entries(players: Sequence[Mapping[str, Any]] | None, n: int) -> list[Record]:
    if players is None:
        return [{"name": f"Seat {s}"} for s in range(n)]
    if len(players) != n:
        raise RecordError(f"players: {len(players)} entries for a {n}-seat game")
    out = []
    for s, entry in enumerate(players):
        if not isinstance(entry, Mapping):
            raise RecordError(f"players[{s}]: must be a table like {{'name': 'Alice'}}")
        item = {"name": f"Seat {s}", **entry}
        if not isinstance(item["name"], str) or not item["name"].strip():
            raise RecordError(f"players[{s}].name: must be a non-empty string")
        out.append(item)
    return out
