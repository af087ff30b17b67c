"""Help at a table of bots: hints and undo, for a human whose every other seat is a bot.

A hint (:func:`salad.bots.assist.hint`) is thought out in the bot worker pool and sent to the
asking connection only. An undo is stored first (:meth:`~salad.server.store.TableStore.take_back`)
and counted in the seat's entry of the game's players (``"undos": N``). At a table with another
human both are refused: nobody takes back a move another person has seen.
"""

from __future__ import annotations

import asyncio
import logging

from salad.bots.assist import Hint, hint, takeback_count
from salad.bots.seeds import bot_seed
from salad.locale import _
from salad.moves import format_move
from salad.server.errors import ActionError
from salad.server.messages import HintOut, UndoneOut
from salad.server.tables.connection import Conn
from salad.server.tables.passing import choice_view
from salad.server.tables.registry import Registry
from salad.server.tables.table import BOT, OVER, PLAYING, Table
from salad.server.tables.turns import BOT_TIMEOUT, Turns
from salad.server.tables.wire import TricksCache, error_message
from salad.view import SPECTATOR, View

log = logging.getLogger("salad.server")

_thinking: set[str] = set()
"""The tables with a hint being thought out: one at a time each, so that no client can fill
the bot pool with hints."""


def check_alone(table: Table, seat: int, what: str) -> None:
    """Refuse ``what`` unless ``seat`` is a human's and every other seat is a bot's."""
    if seat == SPECTATOR:
        raise ActionError(_("{what}: spectators cannot ask for that").format(what=what), 403)
    if any(s.kind != BOT for i, s in enumerate(table.seats) if i != seat):
        said = _("{what}: only at a table where every other seat is a bot")
        raise ActionError(said.format(what=what), 409)
    if table.status != PLAYING or table.game is None:
        if table.status == OVER:
            said = _("{what}: the game is over")
        else:
            said = _("{what}: the game has not started")
        raise ActionError(said.format(what=what), 409)


def ask_hint(table: Table, conn: Conn, turns: Turns) -> None:
    """Check a hint may be given now (ActionError if not), then think it out in the bot pool
    while the connection goes on (its answer, ``hint`` or ``error``, comes when it is ready)."""
    seat = conn.seat
    check_alone(table, seat, _("hint"))
    game = table.game
    assert game is not None
    view, choices = game.view(seat), table.choices()
    if choices is not None and game.to_move != seat and choices.needed(game, seat):
        view = choice_view(view, choices.shown(game, seat)[1])  # passing before its turn
    elif game.to_move != seat or not game.legal_moves():
        raise ActionError(_("hint: it is not your turn"), 409)
    if table.id in _thinking:
        raise ActionError(_("hint: the expert is still thinking about the last one"), 409)
    _thinking.add(table.id)
    turns.spawn(think(table, conn, view, table.moves, turns))


async def think(table: Table, conn: Conn, view: View, moves: int, turns: Turns) -> None:
    """The expert's move for the view, and why, sent to ``conn`` with the move number it is
    for (a client drops a hint for a state it has left)."""
    game = table.game
    assert game is not None
    seed = bot_seed("hint", game.seed, view.seat, moves)
    try:
        found: Hint = await asyncio.wait_for(turns.in_pool(table.id, hint, view, seed), BOT_TIMEOUT)
    except Exception:
        log.exception("table %s: a hint failed", table.id)
        conn.push(error_message(_("hint: the expert could not think of one; try again")))
        return
    finally:
        _thinking.discard(table.id)
    move = format_move(view.deck, found.move)
    reason = found.reason(view.deck)  # in the connection's language
    answer = HintOut(type="hint", move=move, reason=reason, bot=found.bot, moves=moves)
    conn.push(answer.model_dump_json())


async def undo(table: Table, conn: Conn, store: Registry, turns: Turns) -> None:
    """Take back ``conn``'s seat's last move and every bot move after it, stored first."""
    async with table.lock:
        seat = conn.seat
        check_alone(table, seat, _("undo"))
        if conn.closed or conn not in table.seats[seat].conns:
            raise ActionError(_("undo: seat {seat} is no longer yours").format(seat=seat + 1), 409)
        game = table.game
        assert game is not None
        count = takeback_count(game.log, seat)
        if not count:
            raise ActionError(_("undo: you have not made a move in this game yet"), 409)
        after = game.copy()
        for _taken in range(count):
            after.undo()
        keep = table.moves - count
        players = [dict(p) for p in table.game_players]
        players[seat]["undos"] = int(players[seat].get("undos", 0)) + 1
        try:
            await store.store(table, store.storage.take_back, table.game_number, keep, players)
        except ActionError:  # another server holds the table now
            raise
        except BaseException:
            log.exception("table %s: an undo could not be stored", table.id)
            raise ActionError(_("undo: the server could not store it; try again"), 503) from None
        table.game = after
        table.passes = None  # the choices held were made from the game as it was
        table.moves = keep
        table.game_players = players
        table.turn_start = asyncio.get_running_loop().time()
        turns.schedule(table)
        # The trick parts every connection holds may be of tricks now taken back.
        table.tricks_cache = TricksCache()
        note = UndoneOut(type="undone", seat=seat, count=count, moves=keep).model_dump_json()
        for c in table.connections():
            c.tricks = None
            c.push(note)
        table.broadcast()
