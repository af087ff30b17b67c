"""The client's side of the websocket protocol (docs/protocol.md), for Python clients and tests.

A ``state`` message leaves out what its connection already has (the lobby while it has not
changed, the parts that change only when a trick ends: the keys the models of
:mod:`salad.server.messages` mark as kept); a client keeps the last of each:

>>> first = {"type": "state", "table": {"title": "T"}, "view": {"tricks": []},
...          "last_trick": None, "hand_rounds": [], "winners": []}
>>> second = {"type": "state", "view": {"to_move": 2}}
>>> complete_state(second, complete_state(first, None))["view"]
{'to_move': 2, 'tricks': []}
"""

from __future__ import annotations

from typing import Any

from salad.server.messages import StateOut, ViewOut, kept_keys

__all__ = ["KEPT", "VIEW_KEPT", "complete_state"]

KEPT = kept_keys(StateOut)
"""The top-level keys a ``state`` may leave out (besides the view's :data:`VIEW_KEPT`)."""
VIEW_KEPT = kept_keys(ViewOut)
"""The keys of a ``state``'s view it may leave out (``tricks``)."""


def complete_state(message: dict[str, Any], last: dict[str, Any] | None) -> dict[str, Any]:
    """``message`` with what it left out filled in from ``last``, the connection's previous
    (completed) state; ``last`` is None for the first state on a connection, which must hold
    everything. Changes ``message`` in place and returns it; ValueError if it cannot be filled.
    """
    view = message.get("view")
    if last is None:
        missing = [k for k in KEPT if k not in message]
        if view is not None:
            missing += [f"view.{k}" for k in VIEW_KEPT if k not in view]
        if missing:
            raise ValueError(f"state: the first state must hold {', '.join(missing)}")
        return message
    for key in KEPT:
        if key not in message:
            message[key] = last[key]
    if view is None:
        return message
    for key in VIEW_KEPT:
        if key not in view:
            before = last.get("view")
            if before is None:
                raise ValueError(f"state: a view without {key} after a state without a view")
            view[key] = before[key]
    return message
