"""Game records: a whole game as JSON, rebuilt and checked by replaying it through the engine.

A record stores the ruleset (a preset plus its settings), the players, how the first dealer was
found, and every hand: the deal, the trump, the passes, every trick and the points. Replaying a
record re-plays every card through :class:`~salad.engine.Game`, so every rule the engine knows is
checked; the first problem is reported as one line naming hand, trick, seat and card. Many games
go in a JSON Lines file, one record per line. The format is described field by field in
``docs/records.md``.

>>> from salad import Game, load_ruleset
>>> game = Game(load_ruleset("canadian"), players=4, seed=3)
>>> while not game.is_over():
...     game.play(game.legal_moves()[-1])
>>> record = record_from_game(game)
>>> verify_record(record) == game.totals
True
>>> game_from_record(record).log == game.log
True
"""

from __future__ import annotations

import contextlib
import json
import os
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from salad.cards import Card, CardMask, Deck
from salad.engine import Game
from salad.errors import CardParseError, IllegalMoveError, RecordError, RulesError, SaladError
from salad.events import (
    Deal,
    Draw,
    HandScored,
    PassChosen,
    Play,
    TokenTaken,
    TrickWon,
    TrumpChosen,
    typed,
)
from salad.formats.rules import load_ruleset
from salad.presets import PRESETS
from salad.ruleset import Ruleset
from salad.view import Phase

__all__ = [
    "FORMAT",
    "Record",
    "dump_record",
    "format_record",
    "game_from_record",
    "load_records",
    "record_from_game",
    "verify_record",
    "write_records",
]

FORMAT = "salad-record/1"
"""The value of every record's ``format`` field."""

Record = dict[str, Any]
"""A game record: a JSON object (see ``docs/records.md``)."""

_RECORD_KEYS = (
    "format",
    "ruleset",
    "players",
    "seed",
    "first_dealer",
    "draw",
    "auto_deal",
    "hands",
    "totals",
    "winners",
)
_HAND_KEYS = (
    "number",
    "round",
    "round_id",
    "dealer",
    "removed",
    "deal",
    "trump",
    "trump_seat",
    "passes",
    "tricks",
    "current",
    "points",
    "moon",
)
_TRICK_KEYS = ("leader", "cards", "winner", "token")
_CURRENT_KEYS = ("leader", "cards")


# -- writing a record ---------------------------------------------------------------------------


def record_from_game(game: Game, players: list[dict[str, Any]] | None = None) -> Record:
    """The record of a game, finished or not (an unfinished hand has no ``points`` yet).

    ``players`` describes the seats, e.g. ``[{"name": "Alice"}, {"name": "Bot 1", "bot":
    "random"}]``; every entry needs a ``name`` (``"Seat 0"``, ``"Seat 1"``, ... when omitted).
    """
    n = game.players
    deck = game.deck
    rs = game.ruleset
    fmt = deck.format
    try:
        same = rs.preset in PRESETS and load_ruleset(rs.preset, rs.settings) == rs
    except SaladError:
        same = False
    if not same:
        raise RecordError(
            f"ruleset: preset {rs.preset!r} with the game's settings does not rebuild its rules"
        )
    record: Record = {
        "format": FORMAT,
        "ruleset": {"preset": rs.preset, "settings": rs.settings},
        "players": _players_entries(players, n),
    }
    if game.seed is not None:
        record["seed"] = game.seed
    record["first_dealer"] = game.first_dealer
    hands: list[_HandNotes] = []
    current: list[str] = []
    leader = -1
    for event in game.events:
        if isinstance(event, Draw):
            record["draw"] = [[[seat, fmt(card)] for seat, card in rnd] for rnd in event.rounds]
        elif isinstance(event, Deal):
            hands.append(_HandNotes(game, event))
            current = []
        elif isinstance(event, TrumpChosen):
            hands[-1].trump = deck.suits[event.suit].letter if event.suit >= 0 else None
            hands[-1].trump_seat = event.seat if event.seat >= 0 else None
        elif isinstance(event, PassChosen):
            hands[-1].passes[event.seat].append(fmt(event.card))
        elif isinstance(event, Play):
            if not current:
                leader = event.seat
            current.append(_move_code(deck, event.move))
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


def _move_code(deck: Deck, move: int) -> str:
    """A play as a card code; a Wild played high gets a trailing ``+``."""
    size = deck.size
    return deck.format(move % size) + ("+" if move >= size else "")


# -- replaying a record -------------------------------------------------------------------------


def verify_record(record: Any) -> list[int]:
    """Replay a record and check everything in it; the totals, or ``RecordError``.

    The error's one-line message names the first problem: where it is (hand, trick, seat,
    card) and what is wrong, e.g. ``hand 3, trick 5, seat 2, card QS: seat 2 must follow
    hearts``.
    """
    return list(_Replay(record).run().totals)


def game_from_record(record: Any) -> Game:
    """The game a record describes, replayed move by move (to resume it); ``RecordError``.

    The game deals the next hands from its seed when the record says ``auto_deal``, and waits
    for :meth:`Game.deal` otherwise. Identical cards (several decks) are interchangeable: the
    rebuilt game gives and plays the lowest copy of a card.
    """
    return _Replay(record).run()


def _canonical(deck: Deck, code: str) -> str:
    """A card code as the deck writes it (``10h`` is ``TH``); unknown codes as they are."""
    try:
        return deck.format(deck.parse(code))
    except CardParseError:
        return code


def _suit_letter(deck: Deck, text: str) -> str:
    """A suit as the deck writes it (``hearts`` is ``H``); unknown suits as they are."""
    try:
        return deck.suits[deck.parse_suit(text)].letter
    except CardParseError:
        return text


def _fail(where: str, message: str) -> NoReturn:
    raise RecordError(f"{where}: {message}")


def _engine_reason(exc: SaladError) -> str:
    """The reason of an engine error, without its ``seat 2 cannot play QS:`` preamble."""
    if isinstance(exc, IllegalMoveError) and exc.move:
        return f"seat {exc.seat} {exc.why}"
    return str(exc)


_E = TypeVar("_E", TrickWon, HandScored)


def _last(game: Game, kind: type[_E]) -> _E:
    """The latest event of a kind in the game's log."""
    for entry in reversed(game.log):
        event = typed(entry)
        if isinstance(event, kind):
            return event
    raise RecordError(f"internal: no {kind.__name__} event")  # pragma: no cover


def _token_taken(game: Game) -> int | None:
    """The seat that took the token with the game's latest trick, if it did."""
    log = game.log
    for i in range(len(log) - 1, -1, -1):
        if isinstance(typed(log[i]), TrickWon):
            after = typed(log[i + 1]) if i + 1 < len(log) else None
            return after.seat if isinstance(after, TokenTaken) else None
    return None


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if _is_json(value) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _is_json(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        return False
    return True


def _table(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        _fail(where, f"must be a JSON object, not {_show(value)}")
    return value


def _check_keys(obj: Mapping[str, Any], known: tuple[str, ...], where: str) -> None:
    for key in obj:
        if key not in known:
            _fail(where, f"unknown key {_show(key)} (known: {', '.join(known)})")


def _required(obj: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in obj:
        _fail(where, f"{key} is missing")
    return obj[key]


def _int(value: Any, what: str, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        _fail(where, f"{what} must be a whole number, not {_show(value)}")
    return value


def _list(value: Any, what: str, where: str) -> list[Any]:
    if not isinstance(value, list):
        _fail(where, f"{what} must be a list, not {_show(value)}")
    return value


def _codes(value: Any, what: str, where: str) -> list[str]:
    items = _list(value, what, where)
    for item in items:
        if not isinstance(item, str):
            _fail(where, f"{what} must be a list of card codes, not {_show(value)}")
    return items


def _seats_word(seats: Sequence[int]) -> str:
    if not seats:
        return "nobody"
    return ("seat " if len(seats) == 1 else "seats ") + ", ".join(str(s) for s in seats)


def _load_ruleset(value: Any) -> Ruleset:
    """The ruleset of a record's ``ruleset`` field: a built-in preset plus settings."""
    rules = _table(value, "ruleset")
    _check_keys(rules, ("preset", "settings"), "ruleset")
    preset = _required(rules, "preset", "ruleset")
    if not isinstance(preset, str) or preset not in PRESETS:
        _fail("ruleset", f"preset {_show(preset)} is not one of {', '.join(PRESETS)}")
    settings = _table(rules.get("settings", {}), "ruleset.settings")
    try:
        return load_ruleset(preset, settings)
    except RulesError as exc:
        _fail("ruleset.settings", str(exc))
    except (TypeError, ValueError, KeyError, AttributeError, IndexError) as exc:
        _fail("ruleset.settings", f"cannot be applied ({exc})")


class _Replay:
    """Replays one record through the engine, checking each field on the way."""

    def __init__(self, record: Any) -> None:
        rec = _table(record, "record")
        if "format" not in rec:
            _fail("record", f"format is missing (expected {FORMAT!r})")
        if rec["format"] != FORMAT:
            _fail(
                "format",
                f"{_show(rec['format'])} is not a known record format (expected {FORMAT!r})",
            )
        _check_keys(rec, _RECORD_KEYS, "record")
        self.rec = rec
        self.ruleset = self._ruleset()
        self.n = self._players()
        self.seed = self._seed()
        self.auto = self._auto_deal()
        self.game = self._start()
        self.deck = self.game.deck
        copies: dict[str, list[Card]] = {}
        for card, code in enumerate(self.deck.codes):
            copies.setdefault(code, []).append(card)
        self.copies = copies

    # -- the game as a whole -----------------------------------------------------------------
    def _ruleset(self) -> Ruleset:
        return _load_ruleset(_required(self.rec, "ruleset", "record"))

    def _players(self) -> int:
        players = _list(_required(self.rec, "players", "record"), "players", "record")
        for s, entry in enumerate(players):
            name = _table(entry, f"players[{s}]").get("name")
            if not isinstance(name, str) or not name.strip():
                _fail(f"players[{s}]", f"name must be a non-empty string, not {_show(name)}")
        try:
            self.ruleset.check_players(len(players))
        except RulesError as exc:
            _fail("players", str(exc).removeprefix("players: "))
        return len(players)

    def _seed(self) -> int | None:
        seed = self.rec.get("seed")
        return None if seed is None else _int(seed, "seed", "record")

    def _auto_deal(self) -> bool:
        auto = self.rec.get("auto_deal", False)
        if not isinstance(auto, bool):
            _fail("record", f"auto_deal must be true or false, not {_show(auto)}")
        if auto and self.seed is None:
            _fail("record", "auto_deal needs the seed the deals came from")
        return auto

    def _seat(self, value: Any, what: str, where: str) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < self.n:
            _fail(where, f"{what} must be a seat number 0 to {self.n - 1}, not {_show(value)}")
        return value

    def _start(self) -> Game:
        rec = self.rec
        first = self._seat(_required(rec, "first_dealer", "record"), "first_dealer", "record")
        draw = rec.get("draw")
        if draw is not None and self.seed is None:
            _fail("draw", "a draw is only recorded with the seed that made it")
        try:
            game = Game(
                self.ruleset,
                self.n,
                seed=self.seed,
                first_dealer=None if draw is not None else first,
                auto_deal=self.auto,
            )
        except SaladError as exc:
            _fail("record", str(exc))
        if draw is not None:
            self._check_draw(game, draw)
            if game.first_dealer != first:
                _fail(
                    "first_dealer",
                    f"the draw gives seat {game.first_dealer}, the record says seat {first}",
                )
        return game

    def _check_draw(self, game: Game, draw: Any) -> None:
        rounds = _list(draw, "draw", "record")
        actual = next(e for e in game.events if isinstance(e, Draw)).rounds
        deck = game.deck
        for r, raw in enumerate(rounds):
            where = f"draw, round {r + 1}"
            pairs = _list(raw, "a round", where)
            for i, pair in enumerate(pairs):
                if not isinstance(pair, list) or len(pair) != 2 or not isinstance(pair[1], str):
                    _fail(where, f"each draw must be [seat, card], not {_show(pair)}")
                seat = self._seat(pair[0], "the seat", where)
                if r >= len(actual) or i >= len(actual[r]):
                    _fail(f"{where}, seat {seat}", f"seed {self.seed} draws no card here")
                want_seat, want_card = actual[r][i]
                if seat != want_seat or _canonical(deck, pair[1]) != deck.format(want_card):
                    _fail(
                        f"{where}, seat {seat}, card {pair[1]}",
                        f"seed {self.seed} draws {deck.format(want_card)} for seat {want_seat}",
                    )
            if r < len(actual) and len(pairs) != len(actual[r]):
                _fail(
                    where,
                    f"seed {self.seed} draws {len(actual[r])} cards, the record has {len(pairs)}",
                )
        if len(rounds) != len(actual):
            _fail(
                "draw", f"seed {self.seed} draws {len(actual)} rounds, the record has {len(rounds)}"
            )

    def run(self) -> Game:
        game = self.game
        hands = _list(_required(self.rec, "hands", "record"), "hands", "record")
        for k, raw in enumerate(hands):
            self._hand(k, raw, last=k == len(hands) - 1)
        if self.auto and not game.is_over() and game.hand_index == len(hands):
            _fail(f"hand {len(hands) + 1}", f"is missing: seed {self.seed} has dealt it")
        self._check_totals()
        return game

    def _check_totals(self) -> None:
        game = self.game
        totals = _list(_required(self.rec, "totals", "record"), "totals", "record")
        if len(totals) != self.n:
            _fail("totals", f"has {len(totals)} entries for {self.n} seats")
        for s, value in enumerate(totals):
            claimed = _int(value, "each total", "totals")
            if claimed != game.totals[s]:
                _fail(f"totals, seat {s}", f"is {game.totals[s]}, the record says {claimed}")
        winners = _list(_required(self.rec, "winners", "record"), "winners", "record")
        seats = [self._seat(w, "each winner", "winners") for w in winners]
        if seats != game.winners():
            state = "" if game.is_over() else " (the game is unfinished)"
            _fail(
                "winners",
                f"{_seats_word(game.winners())}{state}, the record says {_seats_word(seats)}",
            )

    # -- one hand -------------------------------------------------------------------------------
    def _hand(self, k: int, raw: Any, last: bool) -> None:
        game = self.game
        deck = self.deck
        where = f"hand {k + 1}"
        hand = _table(raw, where)
        _check_keys(hand, _HAND_KEYS, where)
        number = _int(_required(hand, "number", where), "number", where)
        if number != k + 1:
            _fail(where, f"number is {number}, expected {k + 1}")
        if game.is_over() or k >= len(game.rules.hands):
            _fail(where, f"is one too many: the ruleset plays {len(game.rules.hands)} hands")
        if game.hand_index != k:  # the hand before is unfinished
            _fail(f"hand {k}", "is not finished, but another hand follows")
        compiled = game.rules.hands[k]
        for key, want in (("round_id", compiled.round.id), ("round", compiled.round.name)):
            value = _required(hand, key, where)
            if value != want:
                _fail(where, f"{key} is {_show(want)} here, the record says {_show(value)}")
        dealer = self._seat(_required(hand, "dealer", where), "dealer", where)
        if dealer != game.dealer:
            first = " (the first dealer)" if k == 0 else ""
            _fail(
                f"{where}, seat {dealer}",
                f"is not the dealer: seat {game.dealer} deals hand {k + 1}{first}",
            )
        removed = _codes(_required(hand, "removed", where), "removed", where)
        want_removed = [deck.format(c) for c in deck.removed]
        if [_canonical(deck, c) for c in removed] != want_removed:
            _fail(
                where,
                f"removed is {' '.join(want_removed) or 'nothing'} for {self.n} players, "
                f"the record says {' '.join(removed) or 'nothing'}",
            )
        self._deal(k, hand)
        if not self._trump(k, hand, last):
            return
        if not self._passes(k, hand, last):
            return
        tricks = _list(_required(hand, "tricks", where), "tricks", where)
        for t, trick in enumerate(tricks):
            self._trick(k, t, trick)
        if "current" in hand:
            self._current(k, len(tricks), hand)
        scored = len(game.hand_points) > k
        if "points" in hand:
            if not scored:
                _fail(where, f"has points after {len(tricks)} of {deck.cards_each} tricks")
            self._points(k, hand)
        elif scored:
            _fail(where, "points are missing")
        elif not last:
            _fail(
                where,
                f"is not finished ({len(tricks)} of {deck.cards_each} tricks), "
                "but another hand follows",
            )
        elif "moon" in hand:
            _fail(where, "moon is given, but the hand has no points yet")

    def _deal(self, k: int, hand: Mapping[str, Any]) -> None:
        game = self.game
        deck = self.deck
        n = self.n
        where = f"hand {k + 1}"
        deal = _list(_required(hand, "deal", where), "deal", where)
        if len(deal) != n:
            _fail(f"{where}, deal", f"has {len(deal)} seats, not {n}")
        used = 0
        masks: list[CardMask] = []
        for seat, raw in enumerate(deal):
            at = f"{where}, deal, seat {seat}"
            mask = 0
            codes = _codes(raw, "the cards", at)
            for code in codes:
                card = self._deal_card(code, used, f"{at}, card {code}")
                used |= 1 << card
                mask |= 1 << card
            if len(codes) != deck.cards_each:
                _fail(at, f"holds {len(codes)} cards, not {deck.cards_each}")
            masks.append(mask)
        if not self.auto:
            try:
                game.deal(masks)
            except SaladError as exc:
                _fail(f"{where}, deal", str(exc))
            return
        # The engine has dealt this hand from the seed: the record must say the same.
        for seat in range(n):
            mine = Counter(deck.format_mask(masks[seat]).split())
            dealt = Counter(deck.format_mask(game.hands[seat]).split())
            extra = mine - dealt
            if extra:
                code = next(iter(extra))
                _fail(
                    f"{where}, deal, seat {seat}, card {code}",
                    f"seed {self.seed} does not deal it to seat {seat}",
                )

    def _deal_card(self, code: str, used: CardMask, where: str) -> Card:
        deck = self.deck
        try:
            card = deck.parse(code)
        except CardParseError as exc:
            _fail(where, str(exc))
        copies = self.copies[deck.format(card)]
        for c in copies:
            if deck.in_play >> c & 1 and not used >> c & 1:
                return c
        left = sum(deck.in_play >> c & 1 for c in copies)
        if not left:
            _fail(where, f"is taken out of the deck for {self.n} players")
        _fail(where, "is dealt twice" if left == 1 else f"is dealt more than {left} times")

    def _quiet(self, hand: Mapping[str, Any], k: int, where: str, passes: bool) -> None:
        """A hand that stops before play holds no tricks, current trick or points (and no
        passes either when it stops before the trump is picked)."""
        for key in ("tricks", "current", "points", "moon"):
            if key in hand and not (key == "tricks" and hand[key] == []):
                _fail(where, f"{key} is given, but hand {k + 1} has not reached play")
        given = hand.get("passes")
        if (
            not passes
            and given is not None
            and (not isinstance(given, list) or any(p != [] for p in given))
        ):
            _fail(where, "passes are given, but the trump is not picked yet")

    def _trump(self, k: int, hand: Mapping[str, Any], last: bool) -> bool:
        """Check or choose the trump; False where the record stops before the choice."""
        game = self.game
        deck = self.deck
        where = f"hand {k + 1}"
        trump = hand.get("trump")
        seat_value = hand.get("trump_seat")
        if trump is not None and not isinstance(trump, str):
            _fail(where, f"trump must be a suit letter, not {_show(trump)}")
        if game.phase == Phase.TRUMP:
            chooser = game.to_move
            if trump is None:
                if seat_value is None and last:
                    self._quiet(hand, k, where, passes=False)
                    return False
                _fail(f"{where}, seat {chooser}", "trump is missing: this seat picks it")
            seat = self._seat(seat_value, "trump_seat", where)
            if seat != chooser:
                _fail(
                    f"{where}, seat {seat}",
                    f"cannot pick the trump: seat {chooser} (last place) does",
                )
            try:
                game.play(2 * deck.size + deck.parse_suit(trump))
            except SaladError as exc:
                _fail(f"{where}, seat {seat}", f"trump: {_engine_reason(exc)}")
            return True
        if seat_value is not None:
            _fail(where, "trump_seat is given, but nobody picks the trump in this hand")
        want = deck.suits[game.trump].letter if game.trump >= 0 else None
        if (_suit_letter(deck, trump) if trump else None) != want:
            _fail(where, f"trump is {want or 'none'} by the rules, the record says {trump}")
        return True

    def _passes(self, k: int, hand: Mapping[str, Any], last: bool) -> bool:
        """Replay the passes; False where the record stops before they are all chosen."""
        game = self.game
        deck = self.deck
        n = self.n
        where = f"hand {k + 1}"
        count = self.ruleset.passing
        if not count:
            if "passes" in hand:
                _fail(where, "passes are given, but this ruleset passes no cards")
            return True
        passes = _list(_required(hand, "passes", where), "passes", where)
        if len(passes) != n:
            _fail(f"{where}, passes", f"has {len(passes)} seats, not {n}")
        lists = [_codes(p, "the cards", f"{where}, passes, seat {s}") for s, p in enumerate(passes)]
        short = -1
        for i in range(n):
            seat = (game.dealer + 1 + i) % n
            at = f"{where}, passes, seat {seat}"
            codes = lists[seat]
            if len(codes) > count or (codes and short >= 0):
                _fail(at, f"passes {len(codes)} cards, not {count}")
            for code in codes:
                try:
                    card = deck.parse(code, game.hands[seat] & ~game.passed[seat])
                    game.play(card)
                except SaladError as exc:
                    _fail(f"{at}, card {code}", _engine_reason(exc))
            if len(codes) < count and short < 0:
                short = seat
        if short >= 0:
            if not last:
                _fail(
                    f"{where}, passes, seat {short}",
                    f"passes {len(lists[short])} cards, not {count}",
                )
            self._quiet(hand, k, f"{where}, passes, seat {short}", passes=True)
            return False
        return True

    def _play(self, code: str, seat: int, where: str) -> None:
        game = self.game
        deck = self.deck
        high = code.endswith("+")
        try:
            card = deck.parse(code[:-1] if high else code, game.hands[seat])
            game.play(card + deck.size if high else card)
        except SaladError as exc:
            _fail(f"{where}, seat {seat}, card {code}", _engine_reason(exc))

    def _check_leader(self, leader: int, k: int, t: int, where: str) -> None:
        game = self.game
        if game.hand_index != k or game.phase != Phase.PLAY:
            _fail(where, f"is one too many: hand {k + 1} has {self.deck.cards_each} tricks")
        if leader != game.to_move:
            why = "at the dealer's left" if t == 0 else f"won trick {t}"
            _fail(f"{where}, seat {leader}", f"cannot lead: seat {game.to_move} ({why}) leads")

    def _trick(self, k: int, t: int, raw: Any) -> None:
        game = self.game
        n = self.n
        where = f"hand {k + 1}, trick {t + 1}"
        trick = _table(raw, where)
        _check_keys(trick, _TRICK_KEYS, where)
        leader = self._seat(_required(trick, "leader", where), "leader", where)
        cards = _codes(_required(trick, "cards", where), "cards", where)
        winner = self._seat(_required(trick, "winner", where), "winner", where)
        self._check_leader(leader, k, t, where)
        if len(cards) != n:
            _fail(where, f"has {len(cards)} cards, not {n}")
        for i, code in enumerate(cards):
            self._play(code, (leader + i) % n, where)
        actual = _last(game, TrickWon).winner
        if winner != actual:
            card = cards[(actual - leader) % n]
            _fail(
                f"{where}, seat {actual}, card {card}",
                f"wins the trick, the record says seat {winner}",
            )
        took = _token_taken(game)
        token = trick.get("token")
        if token is not None:
            token = self._seat(token, "token", where)
        if token != took:
            if took is None:
                _fail(
                    f"{where}, seat {token}", "the trick passes no token, the record says it does"
                )
            _fail(f"{where}, seat {took}", f"takes the token, the record says {_show(token)}")

    def _current(self, k: int, t: int, hand: Mapping[str, Any]) -> None:
        n = self.n
        where = f"hand {k + 1}, trick {t + 1}"
        current = _table(hand["current"], f"{where} (current)")
        _check_keys(current, _CURRENT_KEYS, f"{where} (current)")
        leader = self._seat(_required(current, "leader", where), "leader", where)
        cards = _codes(_required(current, "cards", where), "cards", where)
        if "points" in hand:
            _fail(where, "current is given, but the hand is scored")
        self._check_leader(leader, k, t, where)
        if len(cards) >= n:
            _fail(where, f"the current trick has {len(cards)} cards; a full trick goes in tricks")
        for i, code in enumerate(cards):
            self._play(code, (leader + i) % n, where)

    def _points(self, k: int, hand: Mapping[str, Any]) -> None:
        game = self.game
        where = f"hand {k + 1}"
        points = _list(hand["points"], "points", where)
        if len(points) != self.n:
            _fail(where, f"points has {len(points)} entries for {self.n} seats")
        actual = game.hand_points[k]
        for s, value in enumerate(points):
            claimed = _int(value, "each of points", where)
            if claimed != actual[s]:
                _fail(f"{where}, seat {s}", f"scores {actual[s]}, the record says {claimed}")
        score = _last(game, HandScored)
        moon = hand.get("moon")
        if moon is not None:
            moon = self._seat(moon, "moon", where)
        if moon != (score.moon if score.moon >= 0 else None):
            if score.moon >= 0:
                _fail(
                    f"{where}, seat {score.moon}",
                    "shoots the moon, the record says "
                    + ("nobody" if moon is None else f"seat {moon}"),
                )
            _fail(f"{where}, seat {moon}", "does not shoot the moon")


# -- files --------------------------------------------------------------------------------------


def dump_record(record: Record) -> str:
    """One record as one line of JSON (a line of a JSON Lines file)."""
    return json.dumps(record, ensure_ascii=False)


def load_records(path: str | os.PathLike[str]) -> list[Record]:
    """The records in a ``.json`` file (one record) or a JSON Lines file (one per line).

    A file whose name does not end in ``.jsonl`` is read as one JSON document first; if that
    fails and its lines are JSON objects, as JSON Lines. Errors name the file and the line.
    The records are not verified (see :func:`verify_record`).
    """
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise RecordError(f"{name}: no such file") from None
    except UnicodeDecodeError:
        raise RecordError(f"{name}: not UTF-8 text") from None
    except OSError as exc:
        raise RecordError(f"{name}: cannot read ({exc.strerror or exc})") from None
    if not text.strip():
        if name.endswith(".jsonl"):
            return []
        raise RecordError(f"{name}: empty file, no records")
    if not name.endswith(".jsonl"):
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as exc:
            if len(text.strip().splitlines()) < 2 or not _first_line_is_object(text):
                raise RecordError(
                    f"{name}, line {exc.lineno}: not valid JSON: {exc.msg} (column {exc.colno})"
                ) from None
        else:
            docs = doc if isinstance(doc, list) else [doc]
            for i, item in enumerate(docs):
                _check_loaded(item, f"{name}" + (f", record {i + 1}" if len(docs) > 1 else ""))
            return docs
    records: list[Record] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise RecordError(
                f"{name}, line {number}: not valid JSON: {exc.msg} (column {exc.colno})"
            ) from None
        records.append(_check_loaded(item, f"{name}, line {number}"))
    return records


def _first_line_is_object(text: str) -> bool:
    first = text.strip().splitlines()[0]
    try:
        return isinstance(json.loads(first), dict)
    except json.JSONDecodeError:
        return False


def _check_loaded(item: Any, where: str) -> Record:
    if not isinstance(item, dict):
        raise RecordError(f"{where}: a record must be a JSON object, not {type(item).__name__}")
    if item.get("format") != FORMAT:
        raise RecordError(f"{where}: format is {_show(item.get('format'))}, not {FORMAT!r}")
    return item


def write_records(path: str | os.PathLike[str], records: Sequence[Record]) -> None:
    """Write records: one per line to a ``.jsonl`` file, else one record as readable JSON."""
    name = str(path)
    if name.endswith(".jsonl"):
        text = "".join(dump_record(r) + "\n" for r in records)
    elif len(records) == 1:
        text = _pretty(records[0]) + "\n"
    else:
        raise RecordError(
            f"{name}: {len(records)} records need a .jsonl file (one record per line)"
        )
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"{name}: cannot write ({exc.strerror or exc})") from None


def _pretty(value: Any, indent: int = 0, column: int = 0, width: int = 100) -> str:
    """JSON indented by structure, keeping anything that fits on its line on one line."""
    flat = json.dumps(value, ensure_ascii=False)
    if column + len(flat) <= width or not isinstance(value, (dict, list)) or not value:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        items = []
        for key, item in value.items():
            head = f"{pad}{json.dumps(key, ensure_ascii=False)}: "
            items.append(head + _pretty(item, indent + 2, len(head) + 1, width))
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    lines = [pad + _pretty(item, indent + 2, len(pad) + 1, width) for item in value]
    return "[\n" + ",\n".join(lines) + "\n" + " " * indent + "]"


# -- a readable listing -------------------------------------------------------------------------


def format_record(record: Record, symbols: bool = True) -> str:
    """A readable, trick-by-trick listing of a record (``symbols``: suit symbols like ``Q♠``).

    A record too malformed to list raises the ``RecordError`` that verifying it gives.
    """
    try:
        return _Listing(record, symbols).text()
    except (LookupError, TypeError, ValueError, ArithmeticError, AttributeError):
        verify_record(record)  # names the problem
        raise RecordError("record: cannot be listed") from None


class _Listing:
    """The text of :func:`format_record`."""

    def __init__(self, record: Record, symbols: bool) -> None:
        self.rec = _table(record, "record")
        self.symbols = symbols
        players = self.rec["players"]
        self.names = [str(p.get("name", f"Seat {s}")) for s, p in enumerate(players)]
        self.n = len(players)
        self.ruleset: Ruleset | None = None
        self.deck: Deck | None = None
        try:
            self.ruleset = _load_ruleset(self.rec.get("ruleset"))
            self.deck = self.ruleset.deck_for(self.n)
        except SaladError:
            pass

    def card(self, code: str) -> str:
        deck = self.deck
        if not self.symbols or deck is None:
            return code
        high = code.endswith("+")
        try:
            card = deck.parse(code[:-1] if high else code)
        except CardParseError:
            return code
        return deck.symbol(card) + ("+" if high else "")

    def cards(self, codes: list[str]) -> str:
        """A hand of cards, sorted by suit and rank."""
        if not codes:
            return "-"
        if self.deck is not None:
            try:
                return self.deck.format_mask(self.deck.parse_many(codes), self.symbols)
            except CardParseError:
                pass
        return " ".join(self.card(c) for c in codes)

    def seat(self, seat: Any) -> str:
        if isinstance(seat, int) and 0 <= seat < self.n:
            return self.names[seat]
        return f"seat {seat}"

    def scores(self, values: list[int]) -> str:
        return ", ".join(f"{self.names[s]} {v}" for s, v in enumerate(values))

    def text(self) -> str:
        rec = self.rec
        rules = rec["ruleset"]
        title = self.ruleset.title if self.ruleset else str(rules["preset"])
        out = [f"{title} (preset {rules['preset']}), {self.n} players"]
        if rules.get("settings"):
            out.append("Settings: " + json.dumps(rules["settings"], ensure_ascii=False))
        seats = []
        for s, p in enumerate(rec["players"]):
            extra = ", ".join(f"{k} {v}" for k, v in p.items() if k != "name")
            seats.append(f"{s} {self.names[s]}" + (f" ({extra})" if extra else ""))
        out.append("Players: " + "; ".join(seats))
        if rec.get("seed") is not None:
            out.append(f"Seed: {rec['seed']}")
        line = f"First dealer: {self.seat(rec['first_dealer'])}"
        if rec.get("draw"):
            draws = [
                ", ".join(f"{self.seat(seat)} {self.card(code)}" for seat, code in rnd)
                for rnd in rec["draw"]
            ]
            line += " (drew " + "; tie, drew again: ".join(draws) + ")"
        out.append(line)
        totals = [0] * self.n
        width = max(len(name) for name in self.names) if self.names else 0
        count = len(self.ruleset.hands) if self.ruleset else len(rec["hands"])
        for hand in rec["hands"]:
            out.append("")
            out.append(
                f"Hand {hand['number']} of {count}: {hand['round']}, "
                f"dealer {self.seat(hand['dealer'])}"
            )
            if hand.get("removed"):
                out.append("  Removed: " + " ".join(self.card(c) for c in hand["removed"]))
            for s, codes in enumerate(hand["deal"]):
                out.append(f"  {self.seat(s):<{width}}  {self.cards(codes)}")
            if hand.get("trump"):
                trump = hand["trump"]
                if self.deck is not None and self.symbols:
                    with contextlib.suppress(CardParseError):
                        trump = self.deck.suits[self.deck.parse_suit(trump)].symbol
                by = hand.get("trump_seat")
                out.append(
                    f"  Trump: {trump}" + (f", picked by {self.seat(by)}" if by is not None else "")
                )
            if hand.get("passes") is not None:
                out.append(
                    "  Passes: "
                    + "; ".join(
                        f"{self.seat(s)} {self.cards(codes)}"
                        for s, codes in enumerate(hand["passes"])
                    )
                )
            tricks = list(hand["tricks"])
            for t, trick in enumerate(tricks):
                out.append(
                    f"  Trick {t + 1:>2}: {self.trick(trick)}, won by {self.seat(trick['winner'])}"
                )
            if hand.get("current") is not None:
                out.append(
                    f"  Trick {len(tricks) + 1:>2}: {self.trick(hand['current'])} (in progress)"
                )
            if hand.get("points") is not None:
                points = list(hand["points"])
                line = "  Points: " + self.scores(points)
                if hand.get("moon") is not None:
                    line += f" ({self.seat(hand['moon'])} shot the moon)"
                out.append(line)
                totals = [a + b for a, b in zip(totals, points, strict=True)]
                out.append("  Totals: " + self.scores(totals))
        out.append("")
        winners = list(rec.get("winners") or [])
        if winners:
            out.append("Final totals: " + self.scores(list(rec["totals"])))
            word = "Winner" if len(winners) == 1 else "Winners (tied)"
            out.append(f"{word}: " + ", ".join(self.seat(w) for w in winners))
        else:
            played = sum(1 for h in rec["hands"] if h.get("points") is not None)
            out.append(
                f"Not finished: {played} of {count} hands played; "
                "totals so far: " + self.scores(list(rec["totals"]))
            )
        return "\n".join(out)

    def trick(self, trick: Mapping[str, Any]) -> str:
        leader = trick["leader"]
        plays = ", ".join(
            f"{self.seat((leader + i) % self.n)} {self.card(code)}"
            for i, code in enumerate(trick["cards"])
        )
        return f"{self.seat(leader)} leads: {plays}" if plays else f"{self.seat(leader)} leads"
