"""A move: a human's, read from its text and checked, or a bot's; stored first, then applied
in memory and broadcast, so that nothing ever shows a move the store does not hold."""

from __future__ import annotations

import logging

from sqlalchemy.exc import IntegrityError

from salad.cards import cards_of
from salad.engine import Game
from salad.errors import CardParseError, IllegalMoveError
from salad.locale import _
from salad.moves import Move, format_move, parse_move
from salad.server.errors import DAMAGED_DATABASE, ActionError
from salad.server.store import DamagedDatabase, MoveRow, StaleCopy, StoreTimeout
from salad.server.tables.connection import Conn
from salad.server.tables.passing import Choices
from salad.server.tables.registry import Registry
from salad.server.tables.table import Table, TableStatus
from salad.server.tables.turns import Turns
from salad.server.tables.wire import illegal_words
from salad.view import SPECTATOR, Phase

log = logging.getLogger("salad.server")

MOVE_TEXT_LIMIT = 16
"""The longest move text read; longer is refused unread."""


class MovePlayer:
    """Plays the moves of every table of a manager."""

    def __init__(self, registry: Registry, turns: Turns) -> None:
        self.registry = registry
        self.turns = turns
        """Scheduled after each move (bots and timers play theirs through :meth:`accept`)."""

    async def play(self, table: Table, seat: int, text: str, conn: Conn | None = None) -> None:
        """A human's move, given as text (``QS``, ``W+``, ``trump:H``), from ``conn``.

        The move may have waited for the lock while the host gave the seat away: it is played
        only if ``conn`` still holds the seat once the lock is taken.
        """
        if seat == SPECTATOR:
            raise ActionError(_("spectators cannot play"))
        shown = text if len(text) <= MOVE_TEXT_LIMIT else text[:MOVE_TEXT_LIMIT] + "..."
        if len(text) > MOVE_TEXT_LIMIT or not text.isprintable():
            raise ActionError(
                _("You cannot play {move}: it is not a card or choice").format(move=repr(shown))
            )
        async with table.lock:
            if conn is not None:
                seat = conn.seat
                if conn.closed or seat >= table.players or conn not in table.seats[seat].conns:
                    raise ActionError(_("this seat is no longer yours"), 409)
            game = table.game
            if table.status == TableStatus.LOBBY or game is None:
                raise ActionError(_("the game has not started yet"), 409)
            if table.status == TableStatus.OVER:
                raise ActionError(_("the game is over"), 409)
            if table.waiting():
                raise ActionError(
                    _("the next hand starts once everyone has pressed Next hand"), 409
                )
            if seat >= table.players:
                raise ActionError(_("there is no seat {seat} at this table").format(seat=seat + 1))
            choices = table.choices()
            if choices is not None:  # every seat chooses at once, its turn come or not
                self.hold_pass(table, choices, seat, text, shown)
                return
            if game.to_move != seat:
                name = table.seat_name(game.to_move)
                if game.phase == Phase.PASS:
                    said = _("Wait for {name} to pass: it is {name}'s turn")
                else:
                    said = _("Wait for {name} to play: it is {name}'s turn")
                raise ActionError(said.format(name=name), 409)
            try:
                move = table.read_move(seat, text)
            except CardParseError as exc:
                raise ActionError(
                    _("You cannot play {move}: {why}").format(move=repr(shown), why=exc)
                ) from None
            await self.accept(table, seat, move, "human")

    def hold_pass(self, table: Table, choices: Choices, seat: int, text: str, shown: str) -> None:
        """A card chosen to pass, in a pass phase played at once: held, and played when the
        seat's turn in the engine's order comes, at once if it has (:mod:`~.passing`)."""
        game = table.game
        assert game is not None
        free = choices.free(game, seat)
        if not free:
            raise ActionError(_("You have chosen your cards to pass: wait for the others"), 409)
        codes = table.json_codes()
        move = next((m for m in cards_of(free) if codes.text(m) == text), None)
        if move is None:
            try:
                move = parse_move(game.deck, text, among=free)
            except CardParseError as exc:
                raise ActionError(
                    _("You cannot pass {move}: {why}").format(move=repr(shown), why=exc)
                ) from None
        if not 0 <= move < game.deck.size or not free >> move & 1:
            why = _("you can only pass a card you hold and have not chosen yet")
            raise ActionError(
                _("You cannot pass {move}: {why}").format(move=repr(shown), why=why), 409
            )
        choices.held.setdefault(seat, []).append(move)
        self.turns.schedule(table)
        table.broadcast()

    async def accept(self, table: Table, seat: int, move: Move, by: str) -> None:
        """Store, then play and tell everyone (the table's lock is held): nothing ever sees a
        move the database does not hold yet. An illegal move, or the last card of a hand (which
        may end the game, whose result is stored with it), is first played on a copy."""
        game = table.game
        assert game is not None
        after: Game | None = None
        if move not in game.legal_moves() or sum(h.bit_count() for h in game.hands) <= 1:
            after = game.copy()
            try:
                after.play(move)
            except IllegalMoveError as exc:  # said to the player from its reason code
                raise ActionError(illegal_words(game, move, exc), 409) from None
        seq = table.moves + 1
        hands_before = len(game.hand_points)
        over = (list(after.totals), after.winners()) if after and after.is_over() else None
        row = MoveRow(seq, seat, move, format_move(game.deck, move), by)
        registry = self.registry
        await registry.check_sure(table)
        try:
            await registry.storage.add_move(table.id, table.game_number, row, over, table.epoch)
        except (IntegrityError, StaleCopy):
            # Move ``seq`` is in the database already, or another server loaded this table
            # since this copy was (stale() logs it with the table's id).
            registry.stale(table, f"move {seq}")
        except StoreTimeout as exc:  # the database froze or was cut off: one line, no trace
            log.warning("table %s: move %d could not be stored: %s", table.id, seq, exc)
            raise ActionError(_("the server could not store that move; try again"), 503) from None
        except DamagedDatabase as exc:  # one line, no trace: /healthz says so from now on
            log.error(
                "table %s: move %d could not be stored: the database is damaged: %s",
                table.id,
                seq,
                exc,
            )
            raise ActionError(_(DAMAGED_DATABASE), 503) from None
        except BaseException:
            log.exception("table %s: move %d could not be stored", table.id, seq)
            raise ActionError(_("the server could not store that move; try again"), 503) from None
        if after is None:
            game.play(move)  # legal: checked above, and nothing ran in between
            after = game
        table.game = after
        table.moves = seq
        table.turn_start = registry.touch(table.id)
        if over is not None:
            table.status = TableStatus.OVER
            table.changed()
            for finished in registry.finished:
                await finished(table)
        table.note_hand_end(hands_before)
        self.turns.schedule(table)
        table.broadcast()
