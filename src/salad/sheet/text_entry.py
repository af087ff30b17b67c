"""The score sheet's text entry: answers and player names as a scorekeeper types them.

``3 4 3 3`` (a count per player in seat order), ``ann 2 bob 1`` (names with counts), or ``ann`` /
``1`` for a question with one player as the answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from salad.locale import _
from salad.sheet.names import name_key
from salad.sheet.questions import Field, SheetError

__all__ = ["find_player", "format_value", "parse_value"]


def find_player(text: str, names: Sequence[str], numbers: bool = True) -> int:
    """The seat a name, a unique beginning of a name, or (``numbers``) a number 1..n stands
    for; ``SheetError`` otherwise."""
    word = name_key(text)
    if not word:
        raise SheetError(_("who? give one of {names}").format(names=", ".join(names)))
    if numbers and _is_int(word):
        k = int(word)
        if 1 <= k <= len(names):
            return k - 1
        raise SheetError(
            _("{text!r}: players are numbered 1 to {n}").format(text=text.strip(), n=len(names))
        )
    for s, name in enumerate(names):
        if name_key(name) == word:
            return s
    matches = [s for s, name in enumerate(names) if name_key(name).startswith(word)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        some = _(" or ").join(names[s] for s in matches)
        raise SheetError(
            _("{text!r} could be {some}; type more of the name").format(
                text=text.strip(), some=some
            )
        )
    raise SheetError(
        _("{text!r} is not a player ({names})").format(text=text.strip(), names=", ".join(names))
    )


def _list(names: Sequence[str]) -> str:
    return ", ".join(names)


def parse_value(field: Field, text: str, names: Sequence[str]) -> list[int] | int:
    """One answer typed at a table. Per-player fields take one number per player in seat order
    (``3 4 3 3``), or names with counts where everyone left out took none (``ann 2 bob 1``, a
    name alone counting 1: ``ann ann bob``). One-player fields take a name, its beginning, or
    the player's number (1 to n). Raises ``SheetError`` with a one-line message."""
    if not field.per_player:
        try:
            return find_player(text, names)
        except SheetError as exc:
            raise SheetError(
                _("{field}: {problem}").format(field=field.title, problem=exc)
            ) from None
    words = text.replace(",", " ").replace("=", " ").replace(":", " ").split()
    n = len(names)
    if not words:
        raise SheetError(
            _(
                "{field}: give {n} numbers, one per player ({names}), "
                "or names with counts (e.g. {example})"
            ).format(
                field=field.name, n=n, names=", ".join(names), example=f"{name_key(names[0])} 2"
            )
        )
    if all(_is_int(w) for w in words):
        if len(words) != n:
            raise SheetError(
                _("{field}: {n} numbers needed, one per player ({names}), not {got}").format(
                    field=field.name, n=n, names=", ".join(names), got=len(words)
                )
            )
        return [int(w) for w in words]
    counts = [0] * n
    i = 0
    while i < len(words):
        word = words[i]
        if _is_int(word):
            example = " ".join(f"{name_key(x)} {k}" for k, x in enumerate(names[:2], 1))
            raise SheetError(
                _("{field}: {word} follows no name (write e.g. {example})").format(
                    field=field.name, word=word, example=example
                )
            )
        try:
            seat = find_player(word, names, numbers=False)
        except SheetError as exc:
            raise SheetError(
                _("{field}: {problem}").format(field=field.name, problem=exc)
            ) from None
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
