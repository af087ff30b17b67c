"""One hand's entry on the score sheet: checked against the ruleset, then scored like the engine.

An entry is ``{field id: answer}`` (see :mod:`salad.sheet.questions`); checking names every
answer that does not add up, alone or against the answers before it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from salad.locale import _, ngettext
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
        return [_unknown(field_id, index, fields)]
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
        return [
            _("hand {n}: the entry must be a table of answers, not {entry!r}").format(
                n=index + 1, entry=entry
            )
        ]
    fields = hand_fields(rules, index)
    problems: list[str] = []
    ids = {f.id for f in fields}
    for key in entry:
        if key not in ids:
            problems.append(_unknown(key, index, fields))
    for f in fields:
        if f.id not in entry:
            problems.append(_("{field}: not entered").format(field=f.title))
            continue
        problems += check_field(rules, index, f.id, entry[f.id], names, entry)
    return problems


def _check_alone(rules: CompiledRules, field: Field, value: Any, names: Sequence[str]) -> list[str]:
    n = len(names)
    if not field.per_player:
        if not whole_number(value):
            return [
                _("{field}: who? give one player ({names}), not {value!r}").format(
                    field=field.title, names=", ".join(names), value=value
                )
            ]
        if not 0 <= value < n:
            return [
                _("{field}: seat {seat} is not at the table (seats 0 to {last})").format(
                    field=field.title, seat=value, last=n - 1
                )
            ]
        return []
    if not isinstance(value, list | tuple) or len(value) != n:
        got = len(value) if isinstance(value, list | tuple) else repr(value)
        return [
            _("{field}: give {n} numbers, one per player ({names}), not {got}").format(
                field=field.name, n=n, names=", ".join(names), got=got
            )
        ]
    for v in value:
        if not whole_number(v):
            return [_("{field}: {value!r} is not a whole number").format(field=field.name, value=v)]
    problems = []
    for s, v in enumerate(value):
        if v < 0:
            problems.append(
                _("{field}: {name} has {n}; counts cannot be negative").format(
                    field=field.name, name=names[s], n=v
                )
            )
        elif v > field.total:
            if field.kind == TRICKS:
                problems.append(
                    _("{field}: {name} has {n}, but only {total} were played").format(
                        field=field.name, name=names[s], n=v, total=field.total
                    )
                )
            else:
                problems.append(
                    _("{field}: {name} has {n}, but only {total} are in play").format(
                        field=field.name, name=names[s], n=v, total=field.total
                    )
                )
    if problems:
        return problems
    total = sum(value)
    if total != field.total:
        if field.kind == TRICKS:
            message = _("{field}: they add up to {sum}, but {total} were played")
        else:
            message = _("{field}: they add up to {sum}, but {total} are in play")
        return [message.format(field=field.name, sum=total, total=field.total)]
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
            return [
                _("{token}: {name} holds it but took no {cards}").format(
                    token=token.name, name=names[holder], cards=other.noun
                )
            ]
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
                problems.append(
                    _("{card}: {name} took it, but no {cards}").format(
                        card=small.title, name=who, cards=big.noun
                    )
                )
            else:
                problems.append(
                    _("{field}: {name} took {n}, but only {count} {cards}").format(
                        field=small.name, name=who, n=cs[s], count=cb[s], cards=big.noun
                    )
                )
        elif cs[s] < cb[s] - extra:
            need = cb[s] - extra
            if small.kind == CARD:
                problems.append(
                    _("{card}: {name} took {count} {cards}, so {name} took it too").format(
                        card=small.title, name=who, count=cb[s], cards=big.noun
                    )
                )
            else:
                problems.append(
                    _("{field}: {name} took {n}, but {count} {cards} hold at least {need}").format(
                        field=small.name, name=who, n=cs[s], count=cb[s], cards=big.noun, need=need
                    )
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
            return [
                _("{token}: {name} holds it but took no tricks").format(token=other.name, name=who)
            ]
        return [_("{card}: {name} took it but no tricks").format(card=other.title, name=who)]
    if other.kind != CARDS:
        return []
    in_play = rules.deck.in_play.bit_count()
    problems = []
    for s, v in enumerate(value):
        t, who = tricks[s], names[s]
        if v and not t:
            problems.append(
                _("{field}: {name} took {n} but no tricks").format(field=other.name, name=who, n=v)
            )
        elif v > t * n:
            problems.append(
                _("{field}: {name} took {n} in {tricks} (a trick holds {size} cards)").format(
                    field=other.name, name=who, n=v, tricks=_tricks(t), size=n
                )
            )
        elif v < t * n - (in_play - other.total):
            need = t * n - (in_play - other.total)
            problems.append(
                _(
                    "{field}: {name} took {tricks} ({count} cards), so at least {need} {cards}, "
                    "not {n}"
                ).format(
                    field=other.name,
                    name=who,
                    tricks=_tricks(t),
                    count=t * n,
                    need=need,
                    cards=other.noun,
                    n=v,
                )
            )
    return problems


def _tricks(k: int) -> str:
    return ngettext("{n} trick", "{n} tricks", k).format(n=k)


def _unknown(key: object, index: int, fields: Sequence[Field]) -> str:
    asked = ", ".join(f.id for f in fields) or _("nothing")
    return _("unknown entry {key!r} (hand {n} asks for: {asked})").format(
        key=key, n=index + 1, asked=asked
    )


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
