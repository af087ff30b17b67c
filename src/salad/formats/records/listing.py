"""A record as a readable, trick-by-trick listing for people."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping
from typing import Any

from salad.cards import Deck
from salad.errors import CardParseError, RecordError, SaladError
from salad.formats.records.replay import verify_record
from salad.formats.records.schema import Record
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
        raise RecordError("record: cannot be listed") from None


class _Listing:
    """The text of :func:`format_record`."""

    def __init__(self, record: Record, symbols: bool) -> None:
        self.rec = record
        self.symbols = symbols
        players = self.rec["players"]
        self.names = [str(p.get("name", f"Seat {s}")) for s, p in enumerate(players)]
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
        if not self.symbols or deck is None:
            return code
        try:
            return format_move(deck, parse_move(deck, code), symbols=True)
        except CardParseError:
            return code

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
