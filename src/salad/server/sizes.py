"""The most any one message of the server holds, given the limits on what goes into it.

A ruleset is bounded (:mod:`salad.settings_schema`: 64 hands and rounds, 64 penalties, 32 a
round, names of 60 characters, 2 to 16 players), as are a player's name (32 characters) and a
chat line (200): so is everything built from them. The largest table those limits allow
(tests/server/test_sizes.py builds it and plays it through: 64 penalties, each naming every card
of the deck, 32 of them in each hand) comes to about 109 KB of lobby, 24 KB of state and 336 KB
of how to play, because each says a penalty in words once and a hand by its penalties' places
(said once a hand, that lobby would be 3.6 MB), and a profile is bounded in what it lists; the
bounds below leave room above that and are what docs/protocol.md ("Limits") states.

A connection's unsent messages may reach
:data:`~salad.server.tables.connection.OUTBOX_BYTES` before it is dropped for falling behind:
many times the largest message, so that no one legitimate message ever drops a slow reader
(and a newer state takes the place of one waiting, lobby and all).
"""

from __future__ import annotations

KIB = 1024

LOBBY_BYTES = 160 * KIB
"""A table's lobby: ``GET /api/tables/{id}``, and the ``table`` of a state (sent on connecting
and when the lobby changes)."""

STATE_BYTES = 32 * KIB
"""A ``state`` message without its ``table``: the seat's view, the hand's end, the last trick."""

HOWTO_BYTES = 512 * KIB
"""How to play a table (``GET /api/tables/{id}/howto``), as JSON before it is compressed."""

PROFILE_BYTES = 128 * KIB
"""A player's profile (``GET /api/players/{who}``): a page of finished games, the latest
ratings, and the hand types and penalties the most played and costliest
(:data:`~salad.server.ratings.profile.KINDS` of each), however many rules files were played."""
