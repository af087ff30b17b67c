"""How the server refuses a request: one line for the client, and the status it goes with.

Every refusal, REST or websocket, is one line that says what and where (``name: must not be
empty``); pydantic's reports of a bad body or message are put on one line the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from salad.locale import N_, _

DAMAGED_DATABASE = N_("the server's database is damaged: it cannot answer until it is mended")
"""What a request that meets a damaged database is answered (503), in the client's language."""


class ActionError(Exception):
    """A refused request: one line for the client and an HTTP status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def one_line(errors: Sequence[Any]) -> str:
    """The first problems of a pydantic validation (``ValidationError.errors()``), on one line:
    ``players: Input should be ...``; a check of ours (a ``ValueError`` in a validator) reads
    as its own words, ``name: must not be empty``.

    >>> one_line([{"loc": ("body", "name"), "msg": "Value error, too long", "type": "value_error",
    ...            "ctx": {"error": ValueError("too long")}}])
    'name: too long'
    """
    parts = []
    for err in errors[:3]:
        loc = [str(x) for x in err.get("loc", ()) if x != "body"]
        msg = str(err.get("msg", "invalid"))
        kind = err.get("type")
        if kind == "json_invalid":
            msg = _("the body is not valid JSON")
            loc = []
        elif kind == "value_error" and "error" in err.get("ctx", {}):
            msg = str(err["ctx"]["error"])
        parts.append(f"{'.'.join(loc)}: {msg}" if loc else msg)
    return "; ".join(parts) or _("invalid request")
