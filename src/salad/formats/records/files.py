"""Record files: one record as readable JSON, or many as JSON Lines (one record per line)."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from salad.errors import RecordError
from salad.formats.records.schema import FORMAT, FORMATS, Record, show
from salad.formats.writing import write_whole
from salad.locale import _

__all__ = ["dump_record", "load_records", "write_records"]


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
        raise RecordError(_("{file}: no such file").format(file=name)) from None
    except UnicodeDecodeError:
        raise RecordError(_("{file}: not UTF-8 text").format(file=name)) from None
    except OSError as exc:
        raise RecordError(
            _("{file}: cannot read ({reason})").format(file=name, reason=exc.strerror or exc)
        ) from None
    if not text.strip():
        if name.endswith(".jsonl"):
            return []
        raise RecordError(_("{file}: empty file, no records").format(file=name))
    if not name.endswith(".jsonl"):
        try:
            doc = _loads(text, name)
        except json.JSONDecodeError as exc:
            if len(text.strip().splitlines()) < 2 or not _first_line_is_object(text):
                raise RecordError(_bad_json(_line(name, exc.lineno), exc)) from None
        else:
            docs = doc if isinstance(doc, list) else [doc]
            for i, item in enumerate(docs):
                where = (
                    _("{file}, record {n}").format(file=name, n=i + 1) if len(docs) > 1 else name
                )
                _check_loaded(item, where)
            return docs
    records: list[Record] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            item = _loads(line, _line(name, number))
        except json.JSONDecodeError as exc:
            raise RecordError(_bad_json(_line(name, number), exc)) from None
        records.append(_check_loaded(item, _line(name, number)))
    return records


def _line(name: str, number: int) -> str:
    return _("{file}, line {n}").format(file=name, n=number)


def _bad_json(where: str, exc: json.JSONDecodeError) -> str:
    return _("{where}: not valid JSON: {problem} (column {column})").format(
        where=where, problem=exc.msg, column=exc.colno
    )


def _loads(text: str, where: str) -> Any:
    """``json.loads``; JSON nested deeper than Python can follow is a one-line RecordError."""
    try:
        return json.loads(text)
    except RecursionError:
        raise RecordError(_("{where}: nested too deeply to read").format(where=where)) from None


def _first_line_is_object(text: str) -> bool:
    first = text.strip().splitlines()[0]
    try:
        return isinstance(_loads(first, ""), dict)
    except (json.JSONDecodeError, RecordError):
        return False


def _check_loaded(item: Any, where: str) -> Record:
    if not isinstance(item, dict):
        raise RecordError(
            _("{where}: a record must be a JSON object, not {type}").format(
                where=where, type=type(item).__name__
            )
        )
    if item.get("format") not in FORMATS:
        raise RecordError(
            _("{where}: format is {given}, not {format!r}").format(
                where=where, given=show(item.get("format")), format=FORMAT
            )
        )
    return item


def write_records(path: str | os.PathLike[str], records: Sequence[Record]) -> None:
    """Write records: one per line to a ``.jsonl`` file, else one record as readable JSON;
    the file whole or not at all (:func:`~salad.formats.writing.write_whole`)."""
    name = str(path)
    if name.endswith(".jsonl"):
        text = "".join(dump_record(r) + "\n" for r in records)
    elif len(records) == 1:
        text = _pretty(records[0]) + "\n"
    else:
        raise RecordError(
            _("{file}: {n} records need a .jsonl file (one record per line)").format(
                file=name, n=len(records)
            )
        )
    try:
        write_whole(path, text)  # a write cut short leaves the last file whole
    except OSError as exc:
        raise RecordError(
            _("{file}: cannot write ({reason})").format(file=name, reason=exc.strerror or exc)
        ) from None


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
