"""Game records: a whole game as JSON, rebuilt and checked by replaying it through the engine.

A record stores the ruleset (a preset plus its settings), the players, how the first dealer was
found, and every hand: the deal, the trump, the passes, every trick and the points. Replaying a
record re-plays every card through :class:`~salad.engine.Game`, so every rule the engine knows is
checked; the first problem is reported as one line naming hand, trick, seat and card. Many games
go in a JSON Lines file, one record per line. The format is described field by field in
``docs/records.md``.

The package holds the schema (types and keys, by pydantic), building a record from a game,
replaying one through the engine, the files, and a readable listing.

>>> from salad import Game, load_ruleset
>>> game = Game(load_ruleset("canadian"), players=4, seed=3)
>>> while not game.is_over():
...     game.play(game.legal_moves()[-1])
>>> record = record_from_game(game)
>>> verify_record(record) == game.totals
True
>>> game_from_record(record).log == game.log
True
"""

from __future__ import annotations

from salad.formats.records.build import record_from_game
from salad.formats.records.files import dump_record, load_records, write_records
from salad.formats.records.listing import format_record
from salad.formats.records.replay import game_from_record, verify_record
from salad.formats.records.schema import FORMAT, FORMATS, Record, record_seed

__all__ = [
    "FORMAT",
    "FORMATS",
    "Record",
    "dump_record",
    "format_record",
    "game_from_record",
    "load_records",
    "record_from_game",
    "record_seed",
    "verify_record",
    "write_records",
]
