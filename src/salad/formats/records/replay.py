"""Replaying a record through the engine: every card re-played, every stored number checked.

The schema (:mod:`salad.formats.records.schema`) has checked the types and keys; replaying checks
what they mean, and the first problem is one line naming hand, trick, seat and card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, TypeVar

from salad.cards import Card, CardMask, Deck
from salad.engine import Game
from salad.errors import CardParseError, IllegalMoveError, RecordError, RulesError, SaladError
from salad.events import Draw, HandScored, TokenTaken, TrickWon, typed
from salad.formats.records.schema import (
    HandData,
    TrickData,
    check_record,
    fail,
    record_seed,
    show,
)
from salad.moves import parse_move
from salad.ruleset import Ruleset
from salad.settings import from_ref
from salad.view import Phase

__all__ = ["game_from_record", "verify_record"]


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


def _seats_word(seats: Sequence[int]) -> str:
    if not seats:
        return "nobody"
    return ("seat " if len(seats) == 1 else "seats ") + ", ".join(str(s) for s in seats)


class _Replay:
    """Replays one record through the engine, checking each field on the way."""

    def __init__(self, record: Any) -> None:
        self.rec = check_record(record)
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
        try:
            return from_ref(self.rec["ruleset"])
        except RulesError as exc:
            raise RecordError(str(exc)) from None

    def _players(self) -> int:
        players = self.rec["players"]
        try:
            self.ruleset.check_players(len(players))
        except RulesError as exc:
            fail("players", str(exc).removeprefix("players: "))
        return len(players)

    def _seed(self) -> int | None:
        return record_seed(self.rec)

    def _auto_deal(self) -> bool:
        auto = self.rec.get("auto_deal", False)
        if auto and self.seed is None:
            fail("record", "auto_deal needs the seed the deals came from")
        return auto

    def _seat(self, value: int, what: str, where: str) -> int:
        if not 0 <= value < self.n:
            fail(where, f"{what} must be a seat number 0 to {self.n - 1}, not {show(value)}")
        return value

    def _start(self) -> Game:
        rec = self.rec
        first = self._seat(rec["first_dealer"], "first_dealer", "record")
        draw = rec.get("draw")
        if draw is not None and self.seed is None:
            fail("draw", "a draw is only recorded with the seed that made it")
        try:
            game = Game(
                self.ruleset,
                self.n,
                seed=self.seed,
                first_dealer=None if draw is not None else first,
                auto_deal=self.auto,
            )
        except SaladError as exc:
            fail("record", str(exc))
        if draw is not None:
            self._check_draw(game, draw)
            if game.first_dealer != first:
                fail(
                    "first_dealer",
                    f"the draw gives seat {game.first_dealer}, the record says seat {first}",
                )
        return game

    def _check_draw(self, game: Game, rounds: list[list[tuple[int, str]]]) -> None:
        actual = next(e for e in game.events if isinstance(e, Draw)).rounds
        deck = game.deck
        for r, pairs in enumerate(rounds):
            where = f"draw, round {r + 1}"
            for i, (raw_seat, code) in enumerate(pairs):
                seat = self._seat(raw_seat, "the seat", where)
                if r >= len(actual) or i >= len(actual[r]):
                    fail(f"{where}, seat {seat}", f"seed {self.seed} draws no card here")
                want_seat, want_card = actual[r][i]
                if seat != want_seat or _canonical(deck, code) != deck.format(want_card):
                    fail(
                        f"{where}, seat {seat}, card {code}",
                        f"seed {self.seed} draws {deck.format(want_card)} for seat {want_seat}",
                    )
            if r < len(actual) and len(pairs) != len(actual[r]):
                fail(
                    where,
                    f"seed {self.seed} draws {len(actual[r])} cards, the record has {len(pairs)}",
                )
        if len(rounds) != len(actual):
            fail(
                "draw", f"seed {self.seed} draws {len(actual)} rounds, the record has {len(rounds)}"
            )

    def run(self) -> Game:
        game = self.game
        hands = self.rec["hands"]
        for k, raw in enumerate(hands):
            self._hand(k, raw, last=k == len(hands) - 1)
        if self.auto and not game.is_over() and game.hand_index == len(hands):
            fail(f"hand {len(hands) + 1}", f"is missing: seed {self.seed} has dealt it")
        self._check_totals()
        return game

    def _check_totals(self) -> None:
        game = self.game
        totals = self.rec["totals"]
        if len(totals) != self.n:
            fail("totals", f"has {len(totals)} entries for {self.n} seats")
        for s, claimed in enumerate(totals):
            if claimed != game.totals[s]:
                fail(f"totals, seat {s}", f"is {game.totals[s]}, the record says {claimed}")
        winners = self.rec["winners"]
        seats = [self._seat(w, "each winner", "winners") for w in winners]
        if seats != game.winners():
            state = "" if game.is_over() else " (the game is unfinished)"
            fail(
                "winners",
                f"{_seats_word(game.winners())}{state}, the record says {_seats_word(seats)}",
            )

    # -- one hand -------------------------------------------------------------------------------
    def _hand(self, k: int, hand: HandData, last: bool) -> None:
        game = self.game
        deck = self.deck
        where = f"hand {k + 1}"
        number = hand["number"]
        if number != k + 1:
            fail(where, f"number is {number}, expected {k + 1}")
        if game.is_over() or k >= len(game.rules.hands):
            fail(where, f"is one too many: the ruleset plays {len(game.rules.hands)} hands")
        if game.hand_index != k:  # the hand before is unfinished
            fail(f"hand {k}", "is not finished, but another hand follows")
        compiled = game.rules.hands[k]
        for key, want in (("round_id", compiled.round.id), ("round", compiled.round.name)):
            value = hand["round_id"] if key == "round_id" else hand["round"]
            if value != want:
                fail(where, f"{key} is {show(want)} here, the record says {show(value)}")
        dealer = self._seat(hand["dealer"], "dealer", where)
        if dealer != game.dealer:
            first = " (the first dealer)" if k == 0 else ""
            fail(
                f"{where}, seat {dealer}",
                f"is not the dealer: seat {game.dealer} deals hand {k + 1}{first}",
            )
        removed = hand["removed"]
        want_removed = [deck.format(c) for c in deck.removed]
        if [_canonical(deck, c) for c in removed] != want_removed:
            fail(
                where,
                f"removed is {' '.join(want_removed) or 'nothing'} for {self.n} players, "
                f"the record says {' '.join(removed) or 'nothing'}",
            )
        self._deal(k, hand)
        if not self._trump(k, hand, last):
            return
        if not self._passes(k, hand, last):
            return
        if "tricks" not in hand:
            fail(where, "tricks is missing")
        tricks = hand["tricks"]
        for t, trick in enumerate(tricks):
            self._trick(k, t, trick)
        if "current" in hand:
            self._current(k, len(tricks), hand)
        scored = len(game.hand_points) > k
        if "points" in hand:
            if not scored:
                fail(where, f"has points after {len(tricks)} of {deck.cards_each} tricks")
            self._points(k, hand)
        elif scored:
            fail(where, "points are missing")
        elif not last:
            fail(
                where,
                f"is not finished ({len(tricks)} of {deck.cards_each} tricks), "
                "but another hand follows",
            )
        elif "moon" in hand:
            fail(where, "moon is given, but the hand has no points yet")

    def _deal(self, k: int, hand: HandData) -> None:
        game = self.game
        deck = self.deck
        n = self.n
        where = f"hand {k + 1}"
        deal = hand["deal"]
        if len(deal) != n:
            fail(f"{where}, deal", f"has {len(deal)} seats, not {n}")
        used = 0
        masks: list[CardMask] = []
        for seat, codes in enumerate(deal):
            at = f"{where}, deal, seat {seat}"
            mask = 0
            for code in codes:
                card = self._deal_card(code, used, f"{at}, card {code}")
                used |= 1 << card
                mask |= 1 << card
            if len(codes) != deck.cards_each:
                fail(at, f"holds {len(codes)} cards, not {deck.cards_each}")
            masks.append(mask)
        if not self.auto:
            try:
                game.deal(masks)
            except SaladError as exc:
                fail(f"{where}, deal", str(exc))
            return
        # The engine has dealt this hand from the seed: the record must say the same.
        for seat in range(n):
            mine = Counter(deck.format_mask(masks[seat]).split())
            dealt = Counter(deck.format_mask(game.hands[seat]).split())
            extra = mine - dealt
            if extra:
                code = next(iter(extra))
                fail(
                    f"{where}, deal, seat {seat}, card {code}",
                    f"seed {self.seed} does not deal it to seat {seat}",
                )

    def _deal_card(self, code: str, used: CardMask, where: str) -> Card:
        deck = self.deck
        try:
            card = deck.parse(code)
        except CardParseError as exc:
            fail(where, str(exc))
        copies = self.copies[deck.format(card)]
        for c in copies:
            if deck.in_play >> c & 1 and not used >> c & 1:
                return c
        left = sum(deck.in_play >> c & 1 for c in copies)
        if not left:
            fail(where, f"is taken out of the deck for {self.n} players")
        fail(where, "is dealt twice" if left == 1 else f"is dealt more than {left} times")

    def _quiet(self, hand: HandData, k: int, where: str, passes: bool) -> None:
        """A hand that stops before play holds no tricks, current trick or points (and no
        passes either when it stops before the trump is picked)."""
        for key in ("tricks", "current", "points", "moon"):
            if key in hand and not (key == "tricks" and hand.get(key) == []):
                fail(where, f"{key} is given, but hand {k + 1} has not reached play")
        given = hand.get("passes")
        if not passes and given is not None and any(p != [] for p in given):
            fail(where, "passes are given, but the trump is not picked yet")

    def _trump(self, k: int, hand: HandData, last: bool) -> bool:
        """Check or choose the trump; False where the record stops before the choice."""
        game = self.game
        deck = self.deck
        where = f"hand {k + 1}"
        trump = hand.get("trump")
        seat_value = hand.get("trump_seat")
        if game.phase == Phase.TRUMP:
            chooser = game.to_move
            if trump is None:
                if seat_value is None and last:
                    self._quiet(hand, k, where, passes=False)
                    return False
                fail(f"{where}, seat {chooser}", "trump is missing: this seat picks it")
            if seat_value is None:
                fail(where, f"trump_seat must be a seat number 0 to {self.n - 1}, not null")
            seat = self._seat(seat_value, "trump_seat", where)
            if seat != chooser:
                fail(
                    f"{where}, seat {seat}",
                    f"cannot pick the trump: seat {chooser} (last place) does",
                )
            try:
                game.play(parse_move(deck, trump, trump=True))
            except SaladError as exc:
                fail(f"{where}, seat {seat}", f"trump: {_engine_reason(exc)}")
            return True
        if seat_value is not None:
            fail(where, "trump_seat is given, but nobody picks the trump in this hand")
        want = deck.suits[game.trump].letter if game.trump >= 0 else None
        if (_suit_letter(deck, trump) if trump else None) != want:
            fail(where, f"trump is {want or 'none'} by the rules, the record says {trump}")
        return True

    def _passes(self, k: int, hand: HandData, last: bool) -> bool:
        """Replay the passes; False where the record stops before they are all chosen."""
        game = self.game
        deck = self.deck
        n = self.n
        where = f"hand {k + 1}"
        count = self.ruleset.passing
        if not count:
            if "passes" in hand:
                fail(where, "passes are given, but this ruleset passes no cards")
            return True
        if "passes" not in hand:
            fail(where, "passes is missing")
        lists = hand["passes"]
        if len(lists) != n:
            fail(f"{where}, passes", f"has {len(lists)} seats, not {n}")
        short = -1
        for i in range(n):
            seat = (game.dealer + 1 + i) % n
            at = f"{where}, passes, seat {seat}"
            codes = lists[seat]
            if len(codes) > count or (codes and short >= 0):
                fail(at, f"passes {len(codes)} cards, not {count}")
            for code in codes:
                try:
                    game.play(parse_move(deck, code, among=game.hands[seat] & ~game.passed[seat]))
                except SaladError as exc:
                    fail(f"{at}, card {code}", _engine_reason(exc))
            if len(codes) < count and short < 0:
                short = seat
        if short >= 0:
            if not last:
                fail(
                    f"{where}, passes, seat {short}",
                    f"passes {len(lists[short])} cards, not {count}",
                )
            self._quiet(hand, k, f"{where}, passes, seat {short}", passes=True)
            return False
        return True

    def _play(self, code: str, seat: int, where: str) -> None:
        game = self.game
        deck = self.deck
        try:
            game.play(parse_move(deck, code, among=game.hands[seat]))
        except SaladError as exc:
            fail(f"{where}, seat {seat}, card {code}", _engine_reason(exc))

    def _check_leader(self, leader: int, k: int, t: int, where: str) -> None:
        game = self.game
        if game.hand_index != k or game.phase != Phase.PLAY:
            fail(where, f"is one too many: hand {k + 1} has {self.deck.cards_each} tricks")
        if leader != game.to_move:
            why = "at the dealer's left" if t == 0 else f"won trick {t}"
            fail(f"{where}, seat {leader}", f"cannot lead: seat {game.to_move} ({why}) leads")

    def _trick(self, k: int, t: int, trick: TrickData) -> None:
        game = self.game
        n = self.n
        where = f"hand {k + 1}, trick {t + 1}"
        leader = self._seat(trick["leader"], "leader", where)
        cards = trick["cards"]
        winner = self._seat(trick["winner"], "winner", where)
        self._check_leader(leader, k, t, where)
        if len(cards) != n:
            fail(where, f"has {len(cards)} cards, not {n}")
        for i, code in enumerate(cards):
            self._play(code, (leader + i) % n, where)
        actual = _last(game, TrickWon).winner
        if winner != actual:
            card = cards[(actual - leader) % n]
            fail(
                f"{where}, seat {actual}, card {card}",
                f"wins the trick, the record says seat {winner}",
            )
        took = _token_taken(game)
        token = trick.get("token")
        if token is not None:
            self._seat(token, "token", where)
        if token != took:
            if took is None:
                fail(f"{where}, seat {token}", "the trick passes no token, the record says it does")
            fail(f"{where}, seat {took}", f"takes the token, the record says {show(token)}")

    def _current(self, k: int, t: int, hand: HandData) -> None:
        n = self.n
        where = f"hand {k + 1}, trick {t + 1}"
        current = hand["current"]
        leader = self._seat(current["leader"], "leader", where)
        cards = current["cards"]
        if "points" in hand:
            fail(where, "current is given, but the hand is scored")
        self._check_leader(leader, k, t, where)
        if len(cards) >= n:
            fail(where, f"the current trick has {len(cards)} cards; a full trick goes in tricks")
        for i, code in enumerate(cards):
            self._play(code, (leader + i) % n, where)

    def _points(self, k: int, hand: HandData) -> None:
        game = self.game
        where = f"hand {k + 1}"
        points = hand["points"]
        if len(points) != self.n:
            fail(where, f"points has {len(points)} entries for {self.n} seats")
        actual = game.hand_points[k]
        for s, claimed in enumerate(points):
            if claimed != actual[s]:
                fail(f"{where}, seat {s}", f"scores {actual[s]}, the record says {claimed}")
        score = _last(game, HandScored)
        moon = hand.get("moon")
        if moon is not None:
            self._seat(moon, "moon", where)
        if moon != (score.moon if score.moon >= 0 else None):
            if score.moon >= 0:
                fail(
                    f"{where}, seat {score.moon}",
                    "shoots the moon, the record says "
                    + ("nobody" if moon is None else f"seat {moon}"),
                )
            fail(f"{where}, seat {moon}", "does not shoot the moon")
