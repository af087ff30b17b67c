"""A table whose stored rows cannot be read back, said plainly (issue #40).

Loading a table replays its game from the stored seed and moves (:func:`replay`), checking each
row as it goes: a seed that is not a whole number, a move out of sequence, by another seat than
the one to move, whose code is not its card's, or that the game refuses, makes the table
:class:`Damaged`. The client gets one JSON error (500) and, on a websocket, the close
:data:`DAMAGED`, after which the web client stops trying; the log gets one line with the
table's id and the cause (:meth:`~.registry.Registry.tell`), never a traceback.

>>> from salad import load_ruleset
>>> from salad.server.store import GameRow, MoveRow
>>> row = GameRow(1, "abc", [{}, {}, {}, {}], "playing")
>>> replay("ab12", load_ruleset("canadian"), 4, row, [])
Traceback (most recent call last):
...
salad.server.tables.damage.Damaged: table 'ab12' cannot be opened: what is stored of it is damaged
"""

from __future__ import annotations

from collections.abc import Sequence

from salad.engine import Game
from salad.errors import SaladError
from salad.locale import _
from salad.moves import format_move
from salad.ruleset import Ruleset
from salad.server.errors import ActionError
from salad.server.store import GameRow, MoveRow

DAMAGED = 4500
"""The close code of a connection to a table that cannot be opened (what is stored of it is
damaged): connecting again changes nothing, the web client stops."""


class Damaged(ActionError):
    """A table that cannot be opened: one line for the client (status 500), and its ``cause``
    (what is wrong, and where) for the log."""

    def __init__(self, table_id: str, cause: str) -> None:
        said = _("table {table} cannot be opened: what is stored of it is damaged")
        super().__init__(said.format(table=repr(table_id)), 500)
        self.table_id = table_id
        self.cause = cause


def replay(
    table_id: str, ruleset: Ruleset, players: int, row: GameRow, moves: Sequence[MoveRow]
) -> Game:
    """Game ``row`` of the table played again from its seed through ``moves``, each checked
    against the game (:class:`Damaged` at the first that does not fit)."""
    where = f"game {row.game_number}"
    seed = row.seed
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise Damaged(table_id, f"{where}: its seed {seed!r:.40} is not a whole number")
    game = Game(ruleset, players, seed=seed)
    for i, m in enumerate(moves, 1):
        at = f"{where}, move {i}"
        if m.seq != i:
            raise Damaged(table_id, f"{at}: stored as move {m.seq}")
        if not isinstance(m.move, int) or isinstance(m.move, bool):
            raise Damaged(table_id, f"{at}: {m.move!r:.40} is not a move")
        if m.seat != game.to_move:
            raise Damaged(table_id, f"{at}: made by seat {m.seat}, not seat {game.to_move}")
        try:
            game.play(m.move)
            code = format_move(game.deck, m.move)
        except (SaladError, ValueError, IndexError) as exc:
            raise Damaged(table_id, f"{at}: {exc}") from None
        if m.code != code:
            raise Damaged(table_id, f"{at}: {m.move} is {code}, stored as {m.code!r:.40}")
    return game
