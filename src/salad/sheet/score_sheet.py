"""The score sheet: a game's players and every hand entered, with points and totals computed.

The state is the entries alone, plain JSON (``salad-score/1``), so a terminal and a web page can
share it; a saved sheet is checked again hand by hand when it is read back.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from typing import Any

from salad.errors import RulesError
from salad.locale import _
from salad.ruleset import Ruleset
from salad.scoring import HandScore, standings
from salad.settings import from_ref, to_ref
from salad.sheet.entries import check_entry, check_field, score_entry, whole_number
from salad.sheet.names import check_names
from salad.sheet.questions import Field, SheetError, hand_fields
from salad.sheet.schema import FORMAT, check_saved

__all__ = ["ScoreSheet"]


class ScoreSheet:
    """A game's score sheet: the ruleset, the players and every hand entered so far.

    The state is the entries alone (:meth:`to_dict`); points, totals, leaders and standings are
    computed from them, so correcting a hand corrects everything after it.
    """

    def __init__(
        self,
        ruleset: Ruleset,
        names: Sequence[str],
        first_dealer: int | None = None,
    ) -> None:
        names = list(names)
        try:
            ruleset.check_players(len(names))
        except RulesError as exc:
            raise SheetError(str(exc)) from None
        problems = check_names(names)
        if problems:
            raise SheetError(problems)
        if first_dealer is not None and not (
            whole_number(first_dealer) and 0 <= first_dealer < len(names)
        ):
            raise SheetError(_first_dealer_problem(first_dealer))
        self.ruleset = ruleset
        self.rules = ruleset.compiled(len(names))
        self.names = [name.strip() for name in names]
        self.first_dealer = first_dealer
        self.entries: list[dict[str, list[int] | int]] = []

    # -- the game's shape ---------------------------------------------------------------------
    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def hand_count(self) -> int:
        return len(self.rules.hands)

    @property
    def next_hand(self) -> int:
        """The index of the hand to enter next (``hand_count`` when the game is over)."""
        return len(self.entries)

    def is_over(self) -> bool:
        return len(self.entries) == self.hand_count

    def round_name(self, index: int) -> str:
        """The name of hand ``index``'s round in the current language (``Pas de cœurs``)."""
        return _(self.rules.hands[index].round.name)

    def fields(self, index: int | None = None) -> tuple[Field, ...]:
        """What hand ``index`` asks for (the next hand by default)."""
        return hand_fields(self.rules, self.next_hand if index is None else index)

    def field(self, field_id: str, index: int | None = None) -> Field:
        for f in self.fields(index):
            if f.id == field_id:
                return f
        raise SheetError(
            _("hand {n} asks nothing called {field!r}").format(
                n=self._which(index) + 1, field=field_id
            )
        )

    def dealer(self, index: int) -> int | None:
        """Who deals hand ``index``: the deal passes one seat to the left every hand."""
        if self.first_dealer is None:
            return None
        return (self.first_dealer + index) % self.players

    def trump_picker(self, index: int) -> int | None:
        """Who picks the trump before hand ``index`` (the player in last place, ties to the one
        nearest the dealer's left), when the ruleset has a player pick it."""
        dealer = self.dealer(index)
        if not self.ruleset.trump_chooser or index == 0 or dealer is None:
            return None
        if index > len(self.entries):
            return None
        totals = self.running()[index - 1]
        order = [(dealer + 1 + i) % self.players for i in range(self.players)]
        if self.ruleset.highest_wins:
            return min(order, key=lambda s: totals[s])
        return max(order, key=lambda s: totals[s])

    # -- entering -----------------------------------------------------------------------------
    def check(self, entry: Mapping[str, Any], index: int | None = None) -> list[str]:
        """Every problem with ``entry`` for hand ``index`` (the next hand by default)."""
        which = self._which(index)
        if which >= self.hand_count:
            return [
                _("the game is over: all {count} hands are entered").format(count=self.hand_count)
            ]
        return check_entry(self.rules, which, entry, self.names)

    def check_field(
        self,
        field_id: str,
        value: Any,
        earlier: Mapping[str, Any] | None = None,
        index: int | None = None,
    ) -> list[str]:
        """Problems with one answer, against the answers before it (see :func:`check_field`)."""
        return check_field(self.rules, self._which(index), field_id, value, self.names, earlier)

    def enter(self, entry: Mapping[str, Any]) -> HandScore:
        """Add the next hand; ``SheetError`` names everything that does not add up."""
        index = self.next_hand
        problems = self.check(entry, index)
        if problems:
            raise SheetError(problems)
        self.entries.append(self._clean(entry, index))
        return self.score(index)

    def correct(self, index: int, entry: Mapping[str, Any]) -> HandScore:
        """Replace the entry of an earlier hand (0-based ``index``)."""
        if not 0 <= index < len(self.entries):
            raise SheetError(
                _("hand {n}: only hands 1 to {last} are entered").format(
                    n=index + 1, last=len(self.entries)
                )
                if self.entries
                else _("hand {n}: no hand is entered yet").format(n=index + 1)
            )
        problems = self.check(entry, index)
        if problems:
            raise SheetError(problems)
        self.entries[index] = self._clean(entry, index)
        return self.score(index)

    def undo(self) -> None:
        """Take back the last hand entered."""
        if not self.entries:
            raise SheetError(_("undo: no hand is entered yet"))
        self.entries.pop()

    def _which(self, index: int | None) -> int:
        return self.next_hand if index is None else index

    def _clean(self, entry: Mapping[str, Any], index: int) -> dict[str, list[int] | int]:
        return {
            f.id: list(entry[f.id]) if f.per_player else int(entry[f.id])
            for f in self.fields(index)
        }

    # -- results ------------------------------------------------------------------------------
    def score(self, index: int) -> HandScore:
        return score_entry(self.rules, index, self.entries[index])

    def scores(self) -> list[HandScore]:
        return [self.score(i) for i in range(len(self.entries))]

    def running(self) -> list[tuple[int, ...]]:
        """Each seat's total after every hand entered."""
        out: list[tuple[int, ...]] = []
        totals = [0] * self.players
        for score in self.scores():
            totals = [t + p for t, p in zip(totals, score.points, strict=True)]
            out.append(tuple(totals))
        return out

    @property
    def totals(self) -> tuple[int, ...]:
        running = self.running()
        return running[-1] if running else (0,) * self.players

    def leaders(self, after: int | None = None) -> list[int]:
        """The seats with the best total after hand ``after`` (0-based; the last entered by
        default); several when tied, none before the first hand."""
        running = self.running()
        if not running:
            return []
        totals = running[-1 if after is None else after]
        best = max(totals) if self.ruleset.highest_wins else min(totals)
        return [s for s, t in enumerate(totals) if t == best]

    def standings(self) -> list[int]:
        """The place of each seat by the totals so far; equal totals share the place."""
        return standings(self.totals, self.ruleset.highest_wins)

    def winners(self) -> list[int]:
        """The seats in first place once every hand is entered."""
        return self.leaders() if self.is_over() else []

    def hand_check(self, index: int) -> tuple[int, int | None]:
        """The hand's points in all and what they must come to (``None`` after a moon)."""
        score = self.score(index)
        expected = None if score.moon >= 0 else self.rules.hands[index].fixed_total
        return sum(score.points), expected

    def game_check(self) -> tuple[int, int | None]:
        """The game total and the ruleset's checksum (``None`` while unfinished or when a moon
        was shot: the checksum holds only without one)."""
        total = sum(self.totals)
        if not self.is_over() or any(s.moon >= 0 for s in self.scores()):
            return total, None
        return total, self.rules.checksum

    # -- for screens ----------------------------------------------------------------------------
    def chart(self) -> dict[str, Any]:
        """The running totals as series for a chart: one point per hand, starting from 0."""
        running = self.running()
        labels = [_("Start")] + [f"{i + 1}. {self.round_name(i)}" for i in range(len(running))]
        return {
            "labels": labels,
            "highest_wins": self.ruleset.highest_wins,
            "series": [
                {"name": name, "points": [0] + [r[s] for r in running]}
                for s, name in enumerate(self.names)
            ],
        }

    def summary(self) -> dict[str, Any]:
        """Everything a page shows, as plain JSON: hands with their answers and points, running
        totals, leaders, standings, the checks, and the next hand's questions."""
        hands = []
        running = self.running()
        for i, entry in enumerate(self.entries):
            score = self.score(i)
            total, expected = self.hand_check(i)
            hands.append(
                {
                    "number": i + 1,
                    "round": self.round_name(i),
                    "took": entry,
                    "points": list(score.points),
                    "moon": score.moon,
                    "sum": total,
                    "expected": expected,
                    "running": list(running[i]),
                    "leaders": self.leaders(i),
                }
            )
        total, checksum = self.game_check()
        nxt = None
        if not self.is_over():
            i = self.next_hand
            nxt = {
                "number": i + 1,
                "round": self.round_name(i),
                "fields": [f.to_dict() for f in self.fields(i)],
                "moon": self.rules.hands[i].moon,
                "dealer": self.dealer(i),
                "trump_picker": self.trump_picker(i),
            }
        return {
            "title": _(self.ruleset.title),
            "players": list(self.names),
            "hand_count": self.hand_count,
            "highest_wins": self.ruleset.highest_wins,
            "hands": hands,
            "totals": list(self.totals),
            "leaders": self.leaders(),
            "standings": self.standings(),
            "over": self.is_over(),
            "winners": self.winners(),
            "total": total,
            "checksum": checksum,
            "next": nxt,
            "chart": self.chart(),
        }

    def to_csv(self) -> str:
        """The sheet as CSV: one row per hand (points), then the totals and the places."""
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(["hand", "round", *self.names, "sum", "moon"])
        for i, score in enumerate(self.scores()):
            moon = self.names[score.moon] if score.moon >= 0 else ""
            name = self.rules.hands[i].round.name  # data: in English, as the file's keys
            w.writerow([i + 1, name, *score.points, sum(score.points), moon])
        w.writerow(["total", "", *self.totals, sum(self.totals), ""])
        w.writerow(["place", "", *self.standings(), "", ""])
        return out.getvalue()

    # -- saving ---------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The sheet as JSON data (``salad-score/1``); :meth:`from_dict` reads it back."""
        data: dict[str, Any] = {
            "format": FORMAT,
            "ruleset": to_ref(self.ruleset),
            "players": list(self.names),
        }
        if self.first_dealer is not None:
            data["first_dealer"] = self.first_dealer
        hands = []
        for i, entry in enumerate(self.entries):
            score = self.score(i)
            hand: dict[str, Any] = {
                "number": i + 1,
                "round_id": self.rules.hands[i].round.id,
                "took": dict(entry),
                "points": list(score.points),
            }
            if score.moon >= 0:
                hand["moon"] = score.moon
            hands.append(hand)
        data["hands"] = hands
        data["totals"] = list(self.totals)
        return data

    def to_json(self) -> str:
        """:meth:`to_dict` as a JSON document: one line per key, one line per hand."""
        data = self.to_dict()
        lines = []
        for key, value in data.items():
            if key == "hands" and value:
                inner = ",\n".join(f"  {_compact(h)}" for h in value)
                lines.append(f' "hands": [\n{inner}\n ]')
            else:
                lines.append(f" {json.dumps(key)}: {_compact(value)}")
        return "{\n" + ",\n".join(lines) + "\n}\n"

    @classmethod
    def from_dict(cls, data: Any) -> ScoreSheet:
        """A sheet from :meth:`to_dict` data; every hand is checked again and every stored
        number recomputed, and the first difference raises ``SheetError``."""
        saved = check_saved(data)
        try:
            ruleset = from_ref(saved.get("ruleset"))
        except RulesError as exc:
            raise SheetError(str(exc)) from None
        names = saved["players"]
        try:
            ruleset.check_players(len(names))
        except RulesError as exc:
            raise SheetError(str(exc)) from None
        try:
            sheet = cls(ruleset, names, saved.get("first_dealer"))
        except SheetError as exc:
            dealer = _first_dealer_problem(saved.get("first_dealer"))
            raise SheetError(
                [
                    p if p == dealer else _("players: {problem}").format(problem=p)
                    for p in exc.problems
                ]
            ) from None
        hands = saved.get("hands", [])
        if len(hands) > sheet.hand_count:
            raise SheetError(
                _("hands: {n} hands, but the game has {count}").format(
                    n=len(hands), count=sheet.hand_count
                )
            )
        for i, hand in enumerate(hands):
            where = _("hands[{i}] (hand {n})").format(i=i, n=i + 1)
            round_id = sheet.rules.hands[i].round.id
            if hand.get("round_id", round_id) != round_id:
                raise SheetError(
                    _("{where}.round_id: {given!r}, but this hand is {round!r}").format(
                        where=where, given=hand.get("round_id"), round=round_id
                    )
                )
            if hand.get("number", i + 1) != i + 1:
                raise SheetError(
                    _("{where}.number: {given!r}, not {n}").format(
                        where=where, given=hand.get("number"), n=i + 1
                    )
                )
            took = hand.get("took")
            entry = took if took is not None else {}
            problems = sheet.check(entry, i)
            if problems:
                raise SheetError(_("{where}: {problem}").format(where=where, problem=problems[0]))
            sheet.entries.append(sheet._clean(entry, i))
            score = sheet.score(i)
            if "points" in hand and hand.get("points") != list(score.points):
                raise SheetError(
                    _("{where}.points: {given!r}, but what was taken scores {points!r}").format(
                        where=where, given=hand.get("points"), points=list(score.points)
                    )
                )
            if hand.get("moon", -1) != score.moon:
                raise SheetError(
                    _("{where}.moon: {given!r}, not {moon!r}").format(
                        where=where, given=hand.get("moon"), moon=score.moon
                    )
                )
        if "totals" in saved and saved.get("totals") != list(sheet.totals):
            raise SheetError(
                _("totals: {given!r}, but the hands add up to {totals!r}").format(
                    given=saved.get("totals"), totals=list(sheet.totals)
                )
            )
        return sheet

    @classmethod
    def from_json(cls, text: str) -> ScoreSheet:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise SheetError(
                _("not valid JSON: {problem} (line {line})").format(
                    problem=exc.msg, line=exc.lineno
                )
            ) from None
        return cls.from_dict(data)


def _first_dealer_problem(seat: Any) -> str:
    return _("first dealer: seat {seat!r} is not at the table").format(seat=seat)


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
