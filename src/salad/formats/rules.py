"""Rules files: a ruleset written as TOML, a preset plus the settings of :func:`apply_settings`.

A rules file names the preset it starts from and then sets any settings at top level::

    preset = "canadian"
    title = "House Salad"
    jokers = 2

    [points]
    queens = 30

    [[rounds]]
    id = "no-black-jacks"
    name = "No Black Jacks"
    penalties = [{ id = "black-jacks", points = 50, cards = ["JC", "JS"] }]

The ruleset it gives has ``preset`` set to the preset's name and ``settings`` to everything else
the file set, so a game record that stores the two needs no file to replay::

    >>> rs = parse_rules('preset = "canadian"\\njokers = 2\\n[points]\\nqueens = 30\\n')
    >>> rs.preset, rs.settings
    ('canadian', {'jokers': 2, 'points': {'queens': 30}})
    >>> load_ruleset(rs.preset, rs.settings) == rs
    True

Every problem is a one-line :class:`~salad.errors.RulesError` naming the file and the key::

    >>> parse_rules("[points]\\nqueens = 'x'\\n", "house.toml")
    Traceback (most recent call last):
    ...
    salad.errors.RulesError: rules file house.toml: points.queens: must be a whole number, not 'x'

See ``docs/rules-files.md`` for every key.
"""

from __future__ import annotations

import difflib
import os
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from salad.errors import RulesError
from salad.locale import _
from salad.presets import PRESETS
from salad.ruleset import Ruleset
from salad.settings import SETTING_KEYS, apply_settings, preset_name

__all__ = [
    "FILE_KEYS",
    "load_rules_file",
    "load_ruleset",
    "parse_rules",
    "preset_name",
    "read_rules_file",
    "rules_settings",
]

FILE_KEYS = ("preset", *SETTING_KEYS)
"""Every top-level key a rules file may hold."""

DEFAULT_PRESET = "canadian"

_POSITION = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")
_AT_END = re.compile(r"\s*\(at end of document\)\s*$")


def load_ruleset(name: str = "canadian", settings: Mapping[str, Any] | None = None) -> Ruleset:
    """A preset by name (in any case, like bot names: ``Canadian``), or a TOML rules file by
    path, with optional extra settings.

    >>> load_ruleset("Fruit-Salad") is load_ruleset("fruit-salad")
    True
    """
    preset = preset_name(name)
    if preset is not None:
        rs = PRESETS[preset]
    elif name.endswith(".toml") or "/" in name:
        rs = load_rules_file(name)
    else:
        raise RulesError(
            _("rules: unknown preset or file {name!r} (presets: {presets})").format(
                name=name, presets=", ".join(PRESETS)
            )
        )
    return apply_settings(rs, settings) if settings else rs


def load_rules_file(path: str | os.PathLike[str]) -> Ruleset:
    """Read a TOML rules file and build its ruleset; any problem raises a one-line
    ``RulesError`` that starts ``rules file <path>:``."""
    label = os.fspath(path)
    return _build(read_rules_file(path), label)


def parse_rules(text: str, name: str = "<rules>") -> Ruleset:
    """Build a ruleset from the text of a rules file (``name`` labels its messages)."""
    return _build(_parse(text, name), name)


def read_rules_file(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The parsed TOML of a rules file, not yet checked against the rules."""
    label = os.fspath(path)
    file = Path(label).expanduser()
    try:
        data = file.read_bytes()
    except FileNotFoundError:
        raise _error(label, _("no such file")) from None
    except IsADirectoryError:
        raise _error(label, _("is a directory, not a file")) from None
    except PermissionError:
        raise _error(label, _("cannot be read: permission denied")) from None
    except OSError as exc:
        raise _error(
            label, _("cannot be read: {reason}").format(reason=exc.strerror or exc)
        ) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise _error(
            label,
            _("line {line}: not UTF-8 text (byte 0x{byte:02x})").format(
                line=line, byte=data[exc.start]
            ),
        ) from None
    return _parse(text, label)


def rules_settings(data: dict[str, Any], name: str = "<rules>") -> tuple[str, dict[str, Any]]:
    """Split a parsed rules file into its preset name and its settings."""
    try:
        for key in data:
            if key not in FILE_KEYS:
                raise RulesError(_hint(key, FILE_KEYS))
        given = data.get("preset", DEFAULT_PRESET)
        preset = preset_name(given) if isinstance(given, str) else None
        if preset is None:
            raise RulesError(
                _("preset: {given!r} is not a preset (presets: {presets})").format(
                    given=given, presets=", ".join(PRESETS)
                )
            )
    except RulesError as exc:
        raise _error(name, str(exc)) from None
    settings = {k: v for k, v in data.items() if k != "preset"}
    return preset, settings


def _parse(text: str, name: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _error(name, _toml_message(str(exc))) from None
    except RecursionError:
        raise _error(name, _("nested too deeply to read")) from None


def _build(data: dict[str, Any], name: str) -> Ruleset:
    preset, settings = rules_settings(data, name)
    if not settings:
        return PRESETS[preset]
    try:
        return apply_settings(PRESETS[preset], settings)
    except RulesError as exc:
        raise _error(name, str(exc)) from None


def _toml_message(message: str) -> str:
    """tomllib's message as ``line N, column M: TOML syntax error: ...``, on one line."""
    message = " ".join(message.split())
    found = _POSITION.search(message)
    if found:
        what = message[: found.start()]
        return _("line {line}, column {column}: TOML syntax error: {what}").format(
            line=found[1], column=found[2], what=what
        )
    found = _AT_END.search(message)
    if found:
        return _("end of file: TOML syntax error: {what}").format(what=message[: found.start()])
    return _("TOML syntax error: {what}").format(what=message)


def _hint(key: str, known: tuple[str, ...]) -> str:
    """``KEY: unknown key`` and the key meant, or the keys known."""
    close = difflib.get_close_matches(key, known, n=1, cutoff=0.75)
    if close:
        return _("{key}: unknown key (did you mean {close!r}?)").format(key=key, close=close[0])
    return _("{key}: unknown key (known: {known})").format(key=key, known=", ".join(known))


def _error(name: str, message: str) -> RulesError:
    return RulesError(
        _("rules file {name}: {message}").format(
            name=name, message=" ".join(re.split(r"[ \t\n\r\f\v]+", message.strip()))
        )
    )
