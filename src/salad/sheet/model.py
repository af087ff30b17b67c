"""The score sheet for tables that play with real cards: what each player took, checked, scored.

After every hand the scorekeeper enters what each player took, in the terms of that hand's
penalties (never hard-coded round names): tricks per player, matching cards per player (hearts,
queens, ...), who took a single penalty card (the KS), who took the last trick, who holds a token
(the Rotten Tomato). The sheet checks the entry against the ruleset, naming what does not add up,
and scores it exactly as the engine scores the same captures (:func:`score_hand`, moons included).

Everything here is pure (no I/O) and every state is plain JSON, so a terminal and a web page can
share it::

    >>> from salad.formats.rules import load_ruleset
    >>> sheet = ScoreSheet(load_ruleset("canadian"), ["Ann", "Bob", "Cy", "Di"])
    >>> [f.id for f in sheet.fields()]
    ['tricks']
    >>> sheet.check({"tricks": [3, 4, 3, 2]})
    ['Tricks: they add up to 12, but 13 were played']
    >>> sheet.enter({"tricks": [3, 4, 3, 3]}).points
    (30, 40, 30, 30)
    >>> [f.id for f in sheet.fields()]
    ['hearts']
    >>> sheet.enter({"hearts": parse_value(sheet.fields()[0], "ann 4 bob 9", sheet.names)}).points
    (40, 90, 0, 0)
    >>> sheet.totals, sheet.leaders()
    ((70, 130, 30, 30), [2, 3])
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from salad.cards import CardMask
from salad.errors import RulesError, SaladError
from salad.presets import PRESETS
from salad.ruleset import CompiledPenalty, CompiledRules, Kind, Ruleset
from salad.scoring import (
    HandScore,
    card_counts,
    moon_shooter,
    penalty_points,
    score_hand,
    standings,
)
from salad.settings import from_preset

__all__ = [
    "FORMAT",
    "Field",
    "HandScore",
    "ScoreSheet",
    "SheetError",
    "card_counts",
    "check_entry",
    "check_field",
    "check_names",
    "format_value",
    "hand_fields",
    "moon_shooter",
    "parse_value",
    "penalty_points",
    "score_entry",
    "score_hand",
    "standings",
]

FORMAT = "salad-score/1"
NAME_LIMIT = 24


class SheetError(SaladError):
    """An entry or a sheet file that does not add up; ``problems`` lists every reason."""

    def __init__(self, problems: str | Sequence[str]) -> None:
        self.problems = [problems] if isinstance(problems, str) else list(problems)
        super().__init__("; ".join(self.problems))


# -- what a hand asks for -------------------------------------------------------------------

TRICKS, CARDS, CARD, LAST, TOKEN = "tricks", "cards", "card", "last-trick", "token"
_ORDER = (TRICKS, CARDS, CARD, LAST, TOKEN)


@dataclass(frozen=True)
class Field:
    """One question of a hand's entry. ``tricks`` and ``cards`` take a count per player; ``card``
    (a single penalty card), ``last-trick`` and ``token`` take one player (a seat)."""

    id: str
    """The key of the entry: the id of the first penalty it answers."""
    kind: str
    label: str
    """E.g. ``Tricks``, ``Hearts``, ``King of Spades``, ``Last trick``, ``Rotten Tomato``."""
    total: int
    """Tricks played, or matching cards in play (1 for the one-player fields)."""
    mask: CardMask
    """The cards it counts (0 for tricks and the last trick)."""
    points: int
    """What one trick, one card or the event costs (the penalties it answers, summed)."""
    penalties: tuple[str, ...]
    """The ids of the penalties it answers."""
    code: str = ""
    """The card's code, for a ``card`` field."""

    @property
    def per_player(self) -> bool:
        return self.kind in (TRICKS, CARDS)

    @property
    def noun(self) -> str:
        return self.label.lower()

    @property
    def question(self) -> str:
        if self.kind == TRICKS:
            return f"How many tricks did each player take? ({self.total} in all)"
        if self.kind == CARDS:
            return f"How many {self.noun} did each player take? ({self.total} in all)"
        if self.kind == CARD:
            return f"Who took the {self.title}?"
        if self.kind == LAST:
            return "Who took the last trick?"
        return f"Who holds the {self.label}?"

    @property
    def title(self) -> str:
        """The label, with the card's code when it is a single card (``King of Spades (KS)``)."""
        return f"{self.label} ({self.code})" if self.code else self.label

    @property
    def cost(self) -> str:
        """The price in words: ``10 each`` or ``100``."""
        return f"{self.points} each" if self.per_player else f"{self.points}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "label": self.title,
            "question": self.question,
            "total": self.total,
            "points": self.points,
            "per_player": self.per_player,
            "penalties": list(self.penalties),
        }


def hand_fields(rules: CompiledRules, index: int) -> tuple[Field, ...]:
    """The questions of hand ``index`` (0-based), derived from its live penalties: tricks first,
    then card counts, single cards, the last trick and the token. Penalties that count the same
    cards share a question; a penalty whose cards are all out of play asks nothing."""
    if not 0 <= index < len(rules.hands):
        raise SheetError(f"hand {index + 1}: there are only {len(rules.hands)} hands")
    return _fields(rules, index)


@lru_cache(maxsize=512)
def _fields(rules: CompiledRules, index: int) -> tuple[Field, ...]:
    groups: dict[tuple[str, int], list[CompiledPenalty]] = {}
    for p in rules.hands[index].penalties:
        if p.kind == Kind.TRICK:
            key = (TRICKS, 0)
        elif p.kind == Kind.LAST_TRICK:
            key = (LAST, 0)
        elif p.kind == Kind.TOKEN:
            key = (TOKEN, 0)  # the engine keeps one token for every token penalty
        elif not p.mask:
            continue
        else:
            key = (CARD if p.mask.bit_count() == 1 else CARDS, p.mask)
        groups.setdefault(key, []).append(p)
    out: list[Field] = []
    deck = rules.deck
    for (kind, mask), ps in groups.items():
        if kind == TOKEN:
            mask = 0
            for p in ps:
                mask |= p.mask
            if not mask:
                continue
        label = " / ".join(dict.fromkeys(p.penalty.name for p in ps))
        if kind == TRICKS:
            total = rules.tricks
        elif kind == CARDS:
            total = mask.bit_count()
        else:
            total = 1
        code = deck.format(mask.bit_length() - 1) if kind == CARD else ""
        points = sum(p.points for p in ps)
        ids = tuple(p.penalty.id for p in ps)
        out.append(Field(ids[0], kind, label, total, mask, points, ids, code))
    out.sort(key=lambda f: _ORDER.index(f.kind))
    return tuple(out)


# -- players --------------------------------------------------------------------------------


def check_names(names: Sequence[str], players: int | None = None) -> list[str]:
    """Problems with a table's player names (empty when they are fine)."""
    problems: list[str] = []
    if players is not None and len(names) != players:
        problems.append(f"names: {players} players need {players} names, not {len(names)}")
    seen: dict[str, str] = {}
    for i, raw in enumerate(names):
        problem = check_name(raw, list(seen.values()))
        if problem:
            problems.append(f"player {i + 1}: {problem}")
        elif isinstance(raw, str):
            seen[_key(raw)] = raw.strip()
    return problems


def check_name(name: Any, taken: Sequence[str] = ()) -> str:
    """What is wrong with one player name ('' when nothing): names must be short, not a number,
    and differ from the names already taken."""
    if not isinstance(name, str) or not name.strip():
        return "a name cannot be empty"
    text = name.strip()
    if len(text) > NAME_LIMIT:
        return f"{text[:NAME_LIMIT]!r}... is too long ({NAME_LIMIT} characters at most)"
    if text.lstrip("+-").isdigit():
        return f"{text!r} is a number; a name must not be one"
    if any(c in text for c in ",=:/\n\r\t") or text.startswith("?"):
        return f"{text!r}: a name may not hold , = : / or start with ?"
    for other in taken:
        if _key(other) == _key(text):
            return f"{text!r} is already taken by {other}"
    return ""


def _key(name: str) -> str:
    return "".join(name.split()).casefold()


def find_player(text: str, names: Sequence[str], numbers: bool = True) -> int:
    """The seat a name, a unique beginning of a name, or (``numbers``) a number 1..n stands
    for; ``SheetError`` otherwise."""
    word = _key(text)
    if not word:
        raise SheetError(f"who? give one of {_list(names)}")
    if numbers and _is_int(word):
        k = int(word)
        if 1 <= k <= len(names):
            return k - 1
        raise SheetError(f"{text.strip()!r}: players are numbered 1 to {len(names)}")
    for s, name in enumerate(names):
        if _key(name) == word:
            return s
    matches = [s for s, name in enumerate(names) if _key(name).startswith(word)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        some = " or ".join(names[s] for s in matches)
        raise SheetError(f"{text.strip()!r} could be {some}; type more of the name")
    raise SheetError(f"{text.strip()!r} is not a player ({_list(names)})")


def _list(names: Sequence[str]) -> str:
    return ", ".join(names)


# -- text in and out ------------------------------------------------------------------------


def parse_value(field: Field, text: str, names: Sequence[str]) -> list[int] | int:
    """One answer typed at a table. Per-player fields take one number per player in seat order
    (``3 4 3 3``), or names with counts where everyone left out took none (``ann 2 bob 1``, a
    name alone counting 1: ``ann ann bob``). One-player fields take a name, its beginning, or
    the player's number (1 to n). Raises ``SheetError`` with a one-line message."""
    if not field.per_player:
        try:
            return find_player(text, names)
        except SheetError as exc:
            raise SheetError(f"{field.title}: {exc}") from None
    words = text.replace(",", " ").replace("=", " ").replace(":", " ").split()
    n = len(names)
    if not words:
        raise SheetError(
            f"{field.label}: give {n} numbers, one per player ({_list(names)}), "
            f"or names with counts (e.g. {_key(names[0])} 2)"
        )
    if all(_is_int(w) for w in words):
        if len(words) != n:
            raise SheetError(
                f"{field.label}: {n} numbers needed, one per player ({_list(names)}), "
                f"not {len(words)}"
            )
        return [int(w) for w in words]
    counts = [0] * n
    i = 0
    while i < len(words):
        word = words[i]
        if _is_int(word):
            example = " ".join(f"{_key(x)} {k}" for k, x in enumerate(names[:2], 1))
            raise SheetError(f"{field.label}: {word} follows no name (write e.g. {example})")
        try:
            seat = find_player(word, names, numbers=False)
        except SheetError as exc:
            raise SheetError(f"{field.label}: {exc}") from None
        if i + 1 < len(words) and _is_int(words[i + 1]):
            counts[seat] += int(words[i + 1])
            i += 2
        else:
            counts[seat] += 1
            i += 1
    return counts


def _is_int(word: str) -> bool:
    return _INT.fullmatch(word) is not None


_INT = re.compile(r"[+-]?[0-9]+")


def format_value(field: Field, value: Any, names: Sequence[str]) -> str:
    """An answer as it would be typed (``3 4 3 3`` or a name)."""
    if field.per_player:
        return " ".join(str(v) for v in value)
    return str(names[value])


# -- checking -------------------------------------------------------------------------------


def check_field(
    rules: CompiledRules,
    index: int,
    field_id: str,
    value: Any,
    names: Sequence[str],
    earlier: Mapping[str, Any] | None = None,
) -> list[str]:
    """Problems with one answer of hand ``index``: on its own (counts, totals, a real player),
    then against the answers to the fields before it in ``earlier`` (a player who took cards took
    a trick, a queen is a face card, ...). Empty when it adds up."""
    fields = hand_fields(rules, index)
    field = next((f for f in fields if f.id == field_id), None)
    if field is None:
        asked = ", ".join(f.id for f in fields) or "nothing"
        return [f"unknown entry {field_id!r} (hand {index + 1} asks for: {asked})"]
    problems = _check_alone(rules, field, value, names)
    if problems or not earlier:
        return problems
    for other in fields:
        if other is field:
            break
        if other.id in earlier and not _check_alone(rules, other, earlier[other.id], names):
            problems += _check_pair(rules, other, earlier[other.id], field, value, names)
    return problems


def check_entry(
    rules: CompiledRules, index: int, entry: Mapping[str, Any], names: Sequence[str]
) -> list[str]:
    """Every problem with a whole hand's entry ``{field id: answer}``; empty when it adds up."""
    if not isinstance(entry, Mapping):
        return [f"hand {index + 1}: the entry must be a table of answers, not {entry!r}"]
    fields = hand_fields(rules, index)
    problems: list[str] = []
    ids = {f.id for f in fields}
    for key in entry:
        if key not in ids:
            asked = ", ".join(f.id for f in fields) or "nothing"
            problems.append(f"unknown entry {key!r} (hand {index + 1} asks for: {asked})")
    for f in fields:
        if f.id not in entry:
            problems.append(f"{f.title}: not entered")
            continue
        problems += check_field(rules, index, f.id, entry[f.id], names, entry)
    return problems


def _check_alone(rules: CompiledRules, field: Field, value: Any, names: Sequence[str]) -> list[str]:
    n = len(names)
    if not field.per_player:
        if not _whole(value):
            return [f"{field.title}: who? give one player ({_list(names)}), not {value!r}"]
        if not 0 <= value < n:
            return [f"{field.title}: seat {value} is not at the table (seats 0 to {n - 1})"]
        return []
    if not isinstance(value, list | tuple) or len(value) != n:
        got = len(value) if isinstance(value, list | tuple) else repr(value)
        return [f"{field.label}: give {n} numbers, one per player ({_list(names)}), not {got}"]
    for v in value:
        if not _whole(v):
            return [f"{field.label}: {v!r} is not a whole number"]
    problems = []
    for s, v in enumerate(value):
        if v < 0:
            problems.append(f"{field.label}: {names[s]} has {v}; counts cannot be negative")
        elif v > field.total:
            if field.kind == TRICKS:
                problems.append(
                    f"{field.label}: {names[s]} has {v}, but only {field.total} were played"
                )
            else:
                problems.append(
                    f"{field.label}: {names[s]} has {v}, but only {field.total} are in play"
                )
    if problems:
        return problems
    total = sum(value)
    if total != field.total:
        if field.kind == TRICKS:
            return [f"{field.label}: they add up to {total}, but {field.total} were played"]
        return [f"{field.label}: they add up to {total}, but {field.total} are in play"]
    return []


def _whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _as_counts(field: Field, value: Any, n: int) -> list[int]:
    """A card or count answer as cards per seat."""
    if field.per_player:
        return list(value)
    counts = [0] * n
    counts[value] = 1
    return counts


def _check_pair(
    rules: CompiledRules, a: Field, va: Any, b: Field, vb: Any, names: Sequence[str]
) -> list[str]:
    """Problems between two answers that each add up on their own."""
    if b.kind == TRICKS:
        a, va, b, vb = b, vb, a, va
    n = len(names)
    if a.kind == TRICKS:
        return _check_tricks(rules, va, b, vb, names)
    if TOKEN in (a.kind, b.kind):
        token, holder, other, vo = (a, va, b, vb) if a.kind == TOKEN else (b, vb, a, va)
        covers = other.kind in (CARDS, CARD) and token.mask & ~other.mask == 0
        if covers and _as_counts(other, vo, n)[holder] == 0:
            return [f"{token.label}: {names[holder]} holds it but took no {other.noun}"]
        return []
    if a.kind not in (CARDS, CARD) or b.kind not in (CARDS, CARD):
        return []
    if a.mask & ~b.mask == 0:
        small, vs, big, vbig = a, va, b, vb
    elif b.mask & ~a.mask == 0:
        small, vs, big, vbig = b, vb, a, va
    else:
        return []
    cs, cb = _as_counts(small, vs, n), _as_counts(big, vbig, n)
    extra = big.total - small.total
    problems = []
    for s in range(n):
        who = names[s]
        if cs[s] > cb[s]:
            if small.kind == CARD:
                problems.append(f"{small.title}: {who} took it, but no {big.noun}")
            else:
                problems.append(f"{small.label}: {who} took {cs[s]}, but only {cb[s]} {big.noun}")
        elif cs[s] < cb[s] - extra:
            need = cb[s] - extra
            if small.kind == CARD:
                problems.append(
                    f"{small.title}: {who} took {cb[s]} {big.noun}, so {who} took it too"
                )
            else:
                problems.append(
                    f"{small.label}: {who} took {cs[s]}, but {cb[s]} {big.noun} "
                    f"hold at least {need}"
                )
    return problems


def _check_tricks(
    rules: CompiledRules, tricks: Sequence[int], other: Field, value: Any, names: Sequence[str]
) -> list[str]:
    n = len(names)
    if not other.per_player:
        who = names[value]
        if tricks[value]:
            return []
        if other.kind == TOKEN:
            return [f"{other.label}: {who} holds it but took no tricks"]
        return [f"{other.title}: {who} took it but no tricks"]
    if other.kind != CARDS:
        return []
    in_play = rules.deck.in_play.bit_count()
    problems = []
    for s, v in enumerate(value):
        t, who = tricks[s], names[s]
        if v and not t:
            problems.append(f"{other.label}: {who} took {v} but no tricks")
        elif v > t * n:
            problems.append(
                f"{other.label}: {who} took {v} in {_tricks(t)} (a trick holds {n} cards)"
            )
        elif v < t * n - (in_play - other.total):
            need = t * n - (in_play - other.total)
            problems.append(
                f"{other.label}: {who} took {_tricks(t)} ({t * n} cards), so at least {need} "
                f"{other.noun}, not {v}"
            )
    return problems


def _tricks(k: int) -> str:
    return f"{k} trick" if k == 1 else f"{k} tricks"


# -- scoring an entry -----------------------------------------------------------------------


def score_entry(rules: CompiledRules, index: int, entry: Mapping[str, Any]) -> HandScore:
    """The points of a checked entry (see :func:`check_entry`), exactly as the engine scores the
    same captures."""
    hand = rules.hands[index]
    fields = hand_fields(rules, index)
    n = rules.players
    tricks_won = [0] * n
    last = token = -1
    by_penalty: dict[str, list[int]] = {}
    for f in fields:
        value = entry[f.id]
        if f.kind == TRICKS:
            tricks_won = list(value)
        elif f.kind == LAST:
            last = value
        elif f.kind == TOKEN:
            token = value
        else:
            for pid in f.penalties:
                by_penalty[pid] = _as_counts(f, value, n)
    counts = [
        tuple(by_penalty.get(p.penalty.id, [0] * n)) if p.kind == Kind.CARDS else ()
        for p in hand.penalties
    ]
    return score_hand(rules, hand, tricks_won, counts, last, token)


# -- the sheet ------------------------------------------------------------------------------


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
            _whole(first_dealer) and 0 <= first_dealer < len(names)
        ):
            raise SheetError(f"first dealer: seat {first_dealer!r} is not at the table")
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
        return self.rules.hands[index].round.name

    def fields(self, index: int | None = None) -> tuple[Field, ...]:
        """What hand ``index`` asks for (the next hand by default)."""
        return hand_fields(self.rules, self.next_hand if index is None else index)

    def field(self, field_id: str, index: int | None = None) -> Field:
        for f in self.fields(index):
            if f.id == field_id:
                return f
        raise SheetError(f"hand {self._which(index) + 1} asks nothing called {field_id!r}")

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
            return [f"the game is over: all {self.hand_count} hands are entered"]
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
                f"hand {index + 1}: only hands 1 to {len(self.entries)} are entered"
                if self.entries
                else f"hand {index + 1}: no hand is entered yet"
            )
        problems = self.check(entry, index)
        if problems:
            raise SheetError(problems)
        self.entries[index] = self._clean(entry, index)
        return self.score(index)

    def undo(self) -> None:
        """Take back the last hand entered."""
        if not self.entries:
            raise SheetError("undo: no hand is entered yet")
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
        labels = ["Start"] + [f"{i + 1}. {self.round_name(i)}" for i in range(len(running))]
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
            "title": self.ruleset.title,
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
            w.writerow([i + 1, self.round_name(i), *score.points, sum(score.points), moon])
        w.writerow(["total", "", *self.totals, sum(self.totals), ""])
        w.writerow(["place", "", *self.standings(), "", ""])
        return out.getvalue()

    # -- saving ---------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The sheet as JSON data (``salad-score/1``); :meth:`from_dict` reads it back."""
        data: dict[str, Any] = {
            "format": FORMAT,
            "ruleset": {"preset": self.ruleset.preset, "settings": self.ruleset.settings},
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
        if not isinstance(data, Mapping):
            raise SheetError(f"a score sheet must be a JSON object, not {type(data).__name__}")
        if data.get("format") != FORMAT:
            raise SheetError(f"format: {data.get('format')!r} is not {FORMAT!r}")
        known = ("format", "ruleset", "players", "first_dealer", "hands", "totals")
        for key in data:
            if key not in known:
                raise SheetError(f"{key}: unknown key (known: {', '.join(known)})")
        ruleset = _load_ruleset(data.get("ruleset"))
        names = data.get("players")
        if not isinstance(names, list):
            raise SheetError(f"players: must be a list of names, not {names!r}")
        try:
            ruleset.check_players(len(names))
        except RulesError as exc:
            raise SheetError(str(exc)) from None
        try:
            sheet = cls(ruleset, names, data.get("first_dealer"))
        except SheetError as exc:
            raise SheetError(
                [p if p.startswith("first dealer") else f"players: {p}" for p in exc.problems]
            ) from None
        hands = data.get("hands", [])
        if not isinstance(hands, list):
            raise SheetError(f"hands: must be a list, not {hands!r}")
        if len(hands) > sheet.hand_count:
            raise SheetError(f"hands: {len(hands)} hands, but the game has {sheet.hand_count}")
        for i, hand in enumerate(hands):
            where = f"hands[{i}] (hand {i + 1})"
            if not isinstance(hand, Mapping):
                raise SheetError(f"{where}: must be an object, not {hand!r}")
            for key in hand:
                if key not in ("number", "round_id", "took", "points", "moon"):
                    raise SheetError(f"{where}.{key}: unknown key")
            round_id = sheet.rules.hands[i].round.id
            if hand.get("round_id", round_id) != round_id:
                raise SheetError(
                    f"{where}.round_id: {hand['round_id']!r}, but this hand is {round_id!r}"
                )
            if hand.get("number", i + 1) != i + 1:
                raise SheetError(f"{where}.number: {hand['number']!r}, not {i + 1}")
            took = hand.get("took")
            problems = sheet.check(took if took is not None else {}, i)
            if problems:
                raise SheetError(f"{where}: {problems[0]}")
            sheet.entries.append(sheet._clean(took, i))  # type: ignore[arg-type]
            score = sheet.score(i)
            if "points" in hand and hand["points"] != list(score.points):
                raise SheetError(
                    f"{where}.points: {hand['points']!r}, but what was taken scores "
                    f"{list(score.points)!r}"
                )
            if hand.get("moon", -1) != score.moon:
                raise SheetError(f"{where}.moon: {hand.get('moon')!r}, not {score.moon!r}")
        if "totals" in data and data["totals"] != list(sheet.totals):
            raise SheetError(
                f"totals: {data['totals']!r}, but the hands add up to {list(sheet.totals)!r}"
            )
        return sheet

    @classmethod
    def from_json(cls, text: str) -> ScoreSheet:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise SheetError(f"not valid JSON: {exc.msg} (line {exc.lineno})") from None
        return cls.from_dict(data)


def _load_ruleset(value: Any) -> Ruleset:
    if not isinstance(value, Mapping):
        raise SheetError(f"ruleset: must be {{'preset': ..., 'settings': {{...}}}}, not {value!r}")
    preset = value.get("preset")
    if not isinstance(preset, str) or preset not in PRESETS:
        raise SheetError(f"ruleset.preset: {preset!r} is not one of {', '.join(PRESETS)}")
    settings = value.get("settings", {})
    if not isinstance(settings, Mapping):
        raise SheetError(f"ruleset.settings: must be an object, not {settings!r}")
    try:
        return from_preset(preset, settings)
    except SaladError as exc:
        raise SheetError(f"ruleset.settings: {exc}") from None


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
