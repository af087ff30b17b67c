"""A table's lobby: creating a table, joining it, the host's changes of its seats, starting a
game and a rematch. Each change is made under the table's lock, stored (fenced, see
:meth:`~salad.server.tables.registry.Registry.store`) and only then applied and broadcast."""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from salad.engine import Game
from salad.locale import N_, _, ngettext
from salad.ruleset import Ruleset
from salad.server.errors import ActionError
from salad.server.store import SeatRow, TableRow, hash_token
from salad.server.tables.pace import Pace
from salad.server.tables.registry import Registry
from salad.server.tables.table import BOT, HUMAN, OPEN, Seat, Table, TableStatus
from salad.server.tables.turns import Turns, bot_display_name, check_bot, default_bot
from salad.server.tables.wire import TricksCache
from salad.settings import to_ref


@dataclass
class Joined:
    table_id: str
    seat: int
    token: str


def new_token() -> str:
    """A seat's secret (192 random bits, URL-safe): the host's at creation, a guest's on joining."""
    return secrets.token_urlsafe(24)


def game_seed(table: Table) -> tuple[int, bool]:
    """The seed of the game about to start, and whether it is the host's practice seed.

    A client's seed deals the first game as chosen only at a table of the host against bots
    (practice). With any other human at the table it is mixed with 64 secret random bits of the
    server's, so that no one can foretell a hand: the seed actually dealt is seen only in the
    finished game's record. Later games always draw a fresh seed.
    """
    chosen = table.first_seed if table.game_number == 1 else None
    if chosen is None:
        return secrets.randbelow(2**63), False
    if all(s.kind == BOT for s in table.seats[1:]):
        return chosen, True
    secret = secrets.token_bytes(8)
    mixed = hashlib.blake2b(chosen.to_bytes(8, "big"), key=secret, digest_size=8).digest()
    return int.from_bytes(mixed, "big") >> 1, False


class Lobby:
    """Creates tables, seats players and bots, starts games."""

    def __init__(self, registry: Registry, turns: Turns) -> None:
        self.registry = registry
        self.turns = turns

    async def create(
        self,
        ruleset: Ruleset,
        host_name: str,
        seats: list[tuple[str, str | None]],
        turn_timer: float | None = None,
        bot_takeover: float | None = None,
        seed: int | None = None,
        start: bool = False,
        pace: Pace = Pace.NORMAL,
        host_player: str | None = None,
        group: str | None = None,
    ) -> Joined:
        """A new table: the host in seat 0 (``host_player``: the id of the player the site
        remembers them as) and ``seats`` (kind, bot) for the others; ``group``: the group it
        is made for (only its members join it)."""
        ruleset.check_players(len(seats) + 1)
        registry, storage = self.registry, self.registry.storage
        token = new_token()
        rows = [SeatRow(0, HUMAN, host_name, None, hash_token(token), host_player)]
        for i, (kind, bot) in enumerate(seats, start=1):
            if kind == BOT:
                b = bot or default_bot()
                rows.append(SeatRow(i, BOT, bot_display_name(b, i), b))
            else:
                rows.append(SeatRow(i, OPEN))
        while True:
            table_id = secrets.token_urlsafe(6)
            if table_id not in registry.tables and await registry.placement.claim(table_id):
                break
        row = TableRow(
            id=table_id,
            **to_ref(ruleset),
            players=len(rows),
            turn_timer=turn_timer,
            bot_takeover=bot_takeover,
            status=TableStatus.LOBBY,
            game_number=1,
            seed=seed,
            seats=rows,
            pace=pace,
            group_id=group,
        )
        await storage.create_table(row)
        table = Table(row, ruleset)
        await registry.entering(table)
        if registry.placement.fencing:
            table.epoch = await storage.fence(table_id)
        registry.add(table)
        if start:
            async with table.lock:
                await self.start_game(table)
        return Joined(table_id, 0, token)

    async def set_pace(self, table_id: str, token: str | None, pace: Pace) -> Table:
        """The host changes the table's pace, at any time: stored, then the bots play at it."""
        async with self._as_host(table_id, token) as table:
            if table.pace != pace:
                await self.registry.store(table, self.registry.storage.set_pace, pace.value)
                table.pace = pace
                table.changed()
                self.turns.schedule(table)
                table.broadcast()
            return table

    @asynccontextmanager
    async def _as_host(
        self, table_id: str, token: str | None, guest: int | None = None
    ) -> AsyncIterator[Table]:
        """The table, its lock held, once ``token`` is found to be its host's (and ``guest``,
        if given, one of its seats other than the host's)."""
        table = await self.registry.get(table_id)
        async with table.lock:
            if not token:
                raise ActionError(_("missing token: send Authorization: Bearer TOKEN"), 401)
            seat = table.seat_of_token(token)
            if seat is None:
                raise ActionError(_("wrong token for table {table}").format(table=table.id), 401)
            if seat != 0:
                raise ActionError(_("only the host (seat 0) may do that"), 403)
            if guest is not None and not 0 < guest < table.players:
                if guest == 0:
                    raise ActionError(_("seat 0 is the host's own seat"), 409)
                said = _("seat: {seat} is not a seat of this {n}-seat table")
                raise ActionError(said.format(seat=guest, n=table.players))
            yield table

    async def _save_seats(
        self, table: Table, seats: list[Seat], gone: Seat | None = None, why: str = ""
    ) -> None:
        """Store ``seats``, then make them the table's and broadcast it; the connections of the
        seat ``gone`` (the host gave it away or removed it) close, told ``why``."""
        rows = [
            SeatRow(i, s.kind, s.name, s.bot, s.token_hash, s.player) for i, s in enumerate(seats)
        ]
        await self.registry.store(table, self.registry.storage.save_seats, rows)
        table.seats = seats
        for i, s in enumerate(seats):
            for c in s.conns:
                c.seat = i
        table.changed()
        if gone is not None:
            for c in gone.conns:
                c.kick(4403, why)
        table.broadcast()

    async def join(
        self, table_id: str, name: str, seat: int | None, player: str | None = None
    ) -> Joined:
        """Seat ``name`` (``player``: the player the site remembers them as) in ``seat`` (None:
        the first open one); its new token."""
        table = await self.registry.get(table_id)
        async with table.lock:
            if table.status == TableStatus.OVER:
                raise ActionError(_("the game is over; the host may start a rematch"), 409)
            if seat is None:
                free = [i for i, s in enumerate(table.seats) if s.kind == OPEN]
                if not free:
                    raise ActionError(
                        _("table {table} has no open seat").format(table=table_id), 409
                    )
                seat = free[0]
            elif not 0 <= seat < table.players:
                said = _("seat: {seat} is not a seat of this {n}-seat table")
                raise ActionError(said.format(seat=seat, n=table.players))
            elif table.seats[seat].kind != OPEN:
                said = _("seat {seat} ({name}'s) is taken")
                raise ActionError(said.format(seat=seat, name=table.seat_name(seat)), 409)
            token = new_token()
            seats = [s.copy() for s in table.seats]
            seats[seat] = Seat(HUMAN, name, None, hash_token(token), player)
            seats[seat].away_since = asyncio.get_running_loop().time()
            await self._save_seats(table, seats)
            self.turns.schedule(table)
            return Joined(table_id, seat, token)

    async def set_seat(
        self, table_id: str, token: str | None, seat: int, kind: str, bot: str | None
    ) -> Table:
        """The host makes ``seat`` a bot's or (in the lobby) an open one; its holder is told."""
        async with self._as_host(table_id, token, seat) as table:
            if table.status != TableStatus.LOBBY and kind == OPEN:
                raise ActionError(_("a seat can only be opened before the game starts"), 409)
            seats = [s.copy() for s in table.seats]
            old = seats[seat]
            if kind == BOT:
                name = check_bot(bot)
                seats[seat] = Seat(BOT, bot_display_name(name, seat), name)
            else:
                seats[seat] = Seat(OPEN)
            await self._save_seats(table, seats, old, N_("the host gave your seat to someone else"))
            self.turns.schedule(table)
            return table

    async def remove_seat(self, table_id: str, token: str | None, seat: int) -> Table:
        """The host removes ``seat`` before the game starts; its holder is told."""
        async with self._as_host(table_id, token, seat) as table:
            if table.status != TableStatus.LOBBY:
                raise ActionError(_("seats can only be removed before the game starts"), 409)
            rs = table.ruleset
            if table.players - 1 < rs.min_players:
                said = _("{rules} needs at least {n} players")
                raise ActionError(said.format(rules=_(rs.title), n=rs.min_players), 409)
            seats = [s.copy() for s in table.seats]
            old = seats.pop(seat)
            await self._save_seats(table, seats, old, N_("the host removed your seat"))
            return table

    async def start(self, table_id: str, token: str | None) -> Table:
        """The host starts the first game."""
        async with self._as_host(table_id, token) as table:
            if table.status != TableStatus.LOBBY:
                raise ActionError(_("the game has already started"), 409)
            await self.start_game(table)
            return table

    async def rematch(self, table_id: str, token: str | None) -> Table:
        """The host starts the next game once one is over."""
        async with self._as_host(table_id, token) as table:
            if table.status != TableStatus.OVER:
                raise ActionError(_("a rematch needs a finished game"), 409)
            table.game_number += 1
            try:
                await self.start_game(table)
            except BaseException:  # nothing was started: the number goes back, and on up
                table.game_number -= 1
                raise
            return table

    async def start_game(self, table: Table) -> None:
        """Deal game :attr:`Table.game_number` (the table's lock is held): stored, then
        played and broadcast."""
        open_seats = [i for i, s in enumerate(table.seats) if s.kind == OPEN]
        if open_seats:
            listed = ", ".join(str(i + 1) for i in open_seats)  # people count seats from 1
            said = ngettext(
                "seat {seats} is still open: fill it or remove it",
                "seats {seats} are still open: fill them or remove them",
                len(open_seats),
            )
            raise ActionError(said.format(seats=listed), 409)
        table.ruleset.check_players(table.players)
        seed, practice = game_seed(table)
        players: list[dict[str, Any]] = [
            {
                "name": s.name or f"Seat {i}",
                **({"bot": s.bot} if s.kind == BOT else {}),
                **({"player": s.player} if s.player is not None and s.kind != BOT else {}),
            }
            for i, s in enumerate(table.seats)
        ]
        if practice:  # the host chose the deal: the record says so
            players[0]["practice"] = True
        game = Game(table.ruleset, table.players, seed=seed)
        storage = self.registry.storage
        await self.registry.store(table, storage.start_game, table.game_number, seed, players)
        table.game = game
        table.hand_end = None
        table.tricks_cache = TricksCache()
        table.moves = 0
        table.game_players = players
        table.status = TableStatus.PLAYING
        table.turn_start = asyncio.get_running_loop().time()
        table.changed()
        self.turns.schedule(table)
        table.broadcast()
