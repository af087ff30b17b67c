"""One hand's entry on the score sheet: checked against the ruleset, then scored like the engine.

An entry is ``{field id: answer}`` (see :mod:`salad.sheet.questions`); checking names every
answer that does not add up, alone or against the answers before it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from salad.ruleset import CompiledRules, Kind
from salad.scoring import HandScore, score_hand
from salad.sheet.questions import CARD, CARDS, LAST, TOKEN, TRICKS, Field, hand_fields

__all__ = ["check_entry", "check_field", "score_entry", "whole_number"]


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
        if not whole_number(value):
            return [f"{field.title}: who? give one player ({', '.join(names)}), not {value!r}"]
        if not 0 <= value < n:
            return [f"{field.title}: seat {value} is not at the table (seats 0 to {n - 1})"]
        return []
    if not isinstance(value, list | tuple) or len(value) != n:
        got = len(value) if isinstance(value, list | tuple) else repr(value)
        return [f"{field.label}: give {n} numbers, one per player ({', '.join(names)}), not {got}"]
    for v in value:
        if not whole_number(v):
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


def whole_number(v: Any) -> bool:
    """An int that is not a bool (JSON has no other whole numbers)."""
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
