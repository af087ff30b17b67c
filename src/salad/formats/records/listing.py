"""A record as a readable, trick-by-trick listing for people."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping
from typing import Any

from salad.cards import Deck
from salad.errors import CardParseError, RecordError, SaladError
from salad.formats.describe import card_text, cards_text
from salad.formats.records.replay import verify_record
from salad.formats.records.schema import Record, record_seed
from salad.locale import _, ngettext
from salad.moves import format_move, parse_move
from salad.ruleset import Ruleset
from salad.settings import from_ref

__all__ = ["format_record"]


def format_record(record: Record, symbols: bool = True) -> str:
    """A readable, trick-by-trick listing of a record (``symbols``: suit symbols like ``Q♠``).

    A record too malformed to list raises the ``RecordError`` that verifying it gives.
    """
    try:
        return _Listing(record, symbols).text()
    except (LookupError, TypeError, ValueError, ArithmeticError, AttributeError):
        verify_record(record)  # names the problem
        raise RecordError(_("record: cannot be listed")) from None


class _Listing:
    """The text of :func:`format_record`."""

    def __init__(self, record: Record, symbols: bool) -> None:
        self.rec = record
        self.symbols = symbols
        players = self.rec["players"]
        self.names = [
            str(p.get("name", _("Seat {seat}").format(seat=s))) for s, p in enumerate(players)
        ]
        self.n = len(players)
        self.ruleset: Ruleset | None = None
        self.deck: Deck | None = None
        try:
            self.ruleset = from_ref(self.rec.get("ruleset"))
            self.deck = self.ruleset.deck_for(self.n)
        except SaladError:
            pass

    def card(self, code: str) -> str:
        deck = self.deck
        if deck is None:
            return code
        if not self.symbols:
            return card_text(deck.spec, code)
        try:
            return card_text(deck.spec, format_move(deck, parse_move(deck, code), symbols=True))
        except CardParseError:
            return code

    def cards(self, codes: list[str]) -> str:
        """A hand of cards, sorted by suit and rank."""
        if not codes:
            return "-"
        if self.deck is not None:
            try:
                shown = self.deck.format_mask(self.deck.parse_many(codes), self.symbols)
                return cards_text(self.deck.spec, shown)
            except CardParseError:
                pass
        return " ".join(self.card(c) for c in codes)

    def seat(self, seat: Any) -> str:
        if isinstance(seat, int) and 0 <= seat < self.n:
            return self.names[seat]
        return _("seat {seat}").format(seat=seat)

    def scores(self, values: list[int]) -> str:
        return ", ".join(f"{self.names[s]} {v}" for s, v in enumerate(values))

    def text(self) -> str:
        rec = self.rec
        rules = rec["ruleset"]
        title = _(self.ruleset.title) if self.ruleset else str(rules["preset"])
        out = [
            _("{title} (preset {preset}), {n} players").format(
                title=title, preset=rules["preset"], n=self.n
            )
        ]
        if rules.get("settings"):
            settings = json.dumps(rules["settings"], ensure_ascii=False)
            out.append(_("Settings: {settings}").format(settings=settings))
        seats = []
        for s, p in enumerate(rec["players"]):
            # a flag as its word ("human", not "human True"), a false one not at all
            extra = ", ".join(
                str(k) if v is True else f"{k} {v}"
                for k, v in p.items()
                if k != "name" and v is not False
            )
            seats.append(f"{s} {self.names[s]}" + (f" ({extra})" if extra else ""))
        out.append(_("Players: {seats}").format(seats="; ".join(seats)))
        if rec.get("seed") is not None:
            out.append(_("Seed: {seed}").format(seed=record_seed(rec)))
        line = _("First dealer: {name}").format(name=self.seat(rec["first_dealer"]))
        if rec.get("draw"):
            draws = [
                ", ".join(f"{self.seat(seat)} {self.card(code)}" for seat, code in rnd)
                for rnd in rec["draw"]
            ]
            line += " " + _("(drew {cards})").format(cards=_("; tie, drew again: ").join(draws))
        out.append(line)
        totals = [0] * self.n
        width = max(len(name) for name in self.names) if self.names else 0
        count = len(self.ruleset.hands) if self.ruleset else len(rec["hands"])
        for hand in rec["hands"]:
            out.append("")
            out.append(
                _("Hand {n} of {count}: {round}, dealer {name}").format(
                    n=hand["number"],
                    count=count,
                    round=_(hand["round"]),
                    name=self.seat(hand["dealer"]),
                )
            )
            if hand.get("removed"):
                removed = " ".join(self.card(c) for c in hand["removed"])
                out.append("  " + _("Removed: {cards}").format(cards=removed))
            for s, codes in enumerate(hand["deal"]):
                out.append(f"  {self.seat(s):<{width}}  {self.cards(codes)}")
            if hand.get("trump"):
                trump = hand["trump"]
                if self.deck is not None and self.symbols:
                    with contextlib.suppress(CardParseError):
                        trump = self.deck.suits[self.deck.parse_suit(trump)].symbol
                by = hand.get("trump_seat")
                if by is not None:
                    trump_line = _("Trump: {suit}, picked by {name}").format(
                        suit=trump, name=self.seat(by)
                    )
                else:
                    trump_line = _("Trump: {suit}").format(suit=trump)
                out.append("  " + trump_line)
            if hand.get("passes") is not None:
                passes = "; ".join(
                    f"{self.seat(s)} {self.cards(codes)}" for s, codes in enumerate(hand["passes"])
                )
                out.append("  " + _("Passes: {passes}").format(passes=passes))
            tricks = list(hand["tricks"])
            for t, trick in enumerate(tricks):
                out.append(
                    "  "
                    + _("Trick {n}: {trick}, won by {name}").format(
                        n=f"{t + 1:>2}", trick=self.trick(trick), name=self.seat(trick["winner"])
                    )
                )
            if hand.get("current") is not None:
                out.append(
                    "  "
                    + _("Trick {n}: {trick} (in progress)").format(
                        n=f"{len(tricks) + 1:>2}", trick=self.trick(hand["current"])
                    )
                )
            if hand.get("points") is not None:
                points = list(hand["points"])
                line = "  " + _("Points: {scores}").format(scores=self.scores(points))
                if hand.get("moon") is not None:
                    line += " " + _("({name} shot the moon)").format(name=self.seat(hand["moon"]))
                out.append(line)
                totals = [a + b for a, b in zip(totals, points, strict=True)]
                out.append("  " + _("Totals: {scores}").format(scores=self.scores(totals)))
        out.append("")
        winners = list(rec.get("winners") or [])
        if winners:
            out.append(_("Final totals: {scores}").format(scores=self.scores(list(rec["totals"]))))
            names = ", ".join(self.seat(w) for w in winners)
            if len(winners) == 1:
                out.append(_("Winner: {names}").format(names=names))
            else:
                out.append(_("Winners (tied): {names}").format(names=names))
        else:
            played = sum(1 for h in rec["hands"] if h.get("points") is not None)
            out.append(
                ngettext(
                    "Not finished: {played} of {count} hand played; totals so far: {scores}",
                    "Not finished: {played} of {count} hands played; totals so far: {scores}",
                    count,
                ).format(played=played, count=count, scores=self.scores(list(rec["totals"])))
            )
        return "\n".join(out)

    def trick(self, trick: Mapping[str, Any]) -> str:
        leader = trick["leader"]
        plays = ", ".join(
            f"{self.seat((leader + i) % self.n)} {self.card(code)}"
            for i, code in enumerate(trick["cards"])
        )
        # "led by": a seat's name may be "You" (the terminal app's human), and "You leads" is wrong
        if plays:
            return _("led by {name}: {plays}").format(name=self.seat(leader), plays=plays)
        return _("led by {name}").format(name=self.seat(leader))
