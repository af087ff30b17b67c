"""The bot that plays through an outside program (see the package's docstring)."""

from __future__ import annotations

import contextlib
import functools
import json
import math
import shlex
import sys
import weakref
from collections.abc import Sequence
from typing import Any

from salad.bots.catalog import named_factory
from salad.bots.external.pool import (
    Pool,
    acquire,
    add_busy,
    count_failure,
    count_warning,
    discard,
    end_game,
    is_current,
    pool_for,
    release,
    tell_hands,
)
from salad.bots.external.program import (
    PREFIX,
    GameContext,
    Program,
    ProgramFailure,
    parse_command,
)
from salad.bots.external.protocol import PROTOCOL, legal_texts, parse_answer, ruleset_info
from salad.errors import SaladError
from salad.moves import Move, format_move
from salad.view import Phase, View

DEFAULT_MOVE_TIME = 5.0
"""Seconds a program has for a move when no ``move_time`` is given."""
DEFAULT_START_TIME = 10.0
"""Seconds a program has to answer ``hello`` (interpreters and JITs start slowly)."""
DEFAULT_RESTARTS = 3
"""Crashes and time-outs a program may have in one salad process before it is retired."""
WARN_LIMIT = 20
"""Warnings of one kind printed per command; later ones are only counted."""

ERROR_KINDS = ("illegal", "malformed", "timeout", "crash")


class _Lease:
    """The program an :class:`ExternalBot` holds; released when the bot is closed or dies."""

    def __init__(self, pool: Pool) -> None:
        self.pool = pool
        self.prog: Program | None = None

    def release(self) -> None:
        prog, self.prog = self.prog, None
        if prog is not None:
            release(self.pool, prog)


class ExternalBot:
    """A bot played by an outside program (see the module's docstring and
    docs/external-bots.md).

    Options: ``move_time`` (seconds per move, 5), ``fallback`` (the bot that makes a move the
    program cannot: ``basic``, else ``random``), ``restarts`` (crashes and time-outs before the
    program is retired, 3), ``start_time`` (seconds to answer ``hello``, 10), ``quiet`` (no
    warnings on stderr). Other options are passed to the program in the ``game`` message.
    """

    def __init__(
        self, seed: int | None = None, *, command: str | Sequence[str], **options: Any
    ) -> None:
        self.argv = parse_command(command)
        self.name = PREFIX + shlex.join(self.argv)
        self.seed = seed
        self.move_time = _seconds(options.pop("move_time", None), DEFAULT_MOVE_TIME, "move_time")
        self.start_time = _seconds(
            options.pop("start_time", None), DEFAULT_START_TIME, "start_time"
        )
        restarts = options.pop("restarts", DEFAULT_RESTARTS)
        if isinstance(restarts, bool) or not isinstance(restarts, int) or restarts < 0:
            raise SaladError(f"bots: {self.name}: restarts must be a whole number, not {restarts}")
        self.restarts = restarts
        fallback = options.pop("fallback", None)
        if fallback is not None and not isinstance(fallback, str):
            raise SaladError(f"bots: {self.name}: fallback must be a bot name")
        self.fallback = fallback or _default_fallback()
        if self.fallback.lower().startswith(PREFIX):
            raise SaladError(f"bots: {self.name}: the fallback must be a built-in bot")
        self.quiet = bool(options.pop("quiet", False))
        self.options = {k: v for k, v in options.items() if _jsonable(v)}
        self.errors: dict[str, int] = dict.fromkeys(ERROR_KINDS, 0)
        """How many moves went wrong, by kind: illegal, malformed, timeout, crash."""
        self.fallback_moves = 0
        """Moves the fallback bot made for this bot."""
        self.stray_lines = 0
        """Lines the program wrote when nothing was asked (dropped)."""
        self._setup()

    def _setup(self) -> None:
        self._pool = pool_for(self.argv)
        self._lease = _Lease(self._pool)
        self._finalizer = weakref.finalize(self, self._lease.release)
        self._fallback_bot: Any = None

    # pickling: the configuration only; the program starts again where the bot is used
    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        for key in ("_pool", "_lease", "_finalizer", "_fallback_bot"):
            state.pop(key, None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._setup()

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<ExternalBot {self.name!r}>"

    @property
    def retired(self) -> bool:
        """The program failed too often; the fallback plays every move."""
        return self._pool.retired

    def close(self) -> None:
        """Give the program back to the pool (it keeps running for the next game)."""
        self._lease.release()

    # -- moves ---------------------------------------------------------------------------
    def choose(self, view: View) -> Move:
        if not view.legal_moves:
            raise SaladError(f"bots: {self.name}: seat {view.seat} has no move to make")
        if not is_current(self._pool):  # shutdown_all() stopped everything
            self._pool = self._lease.pool = pool_for(self.argv)
            self._lease.prog = None
        if self._pool.retired:
            return self._fall_back(view)
        try:
            prog = self._program_for(view)
            ctx = prog.context
            assert ctx is not None
            tell_hands(prog, ctx, view)
            stray = prog.stray
            prog.drain()
            ident = prog.next_id
            prog.next_id += 1
            message = {
                "type": "move",
                "id": ident,
                "legal": legal_texts(view),
                "time": self.move_time,
                "view": view.to_dict(),
            }
            ctx.last = view
            if _last_decision(view):
                ctx.done = True
            try:
                answer = prog.ask(message, self.move_time)
            finally:
                self._count_stray(prog.stray - stray)
        except ProgramFailure as failure:
            self._failed(failure)
            return self._fall_back(view)
        move, kind, why = parse_answer(view, answer)
        if move is not None:
            return move
        self.errors[kind] += 1
        fallback = self._fall_back(view)
        self._warn(kind, f"{kind} answer {_clip(answer)}: {why}; {self.fallback} plays instead")
        with contextlib.suppress(ProgramFailure):
            prog.send(
                {
                    "type": "error",
                    "id": ident,
                    "error": kind,
                    "detail": why,
                    "played": format_move(view.deck, fallback),
                }
            )
        return fallback

    def _count_stray(self, count: int) -> None:
        if count:
            self.stray_lines += count
            self._warn("stray", f"dropped {count} line(s) that answered nothing asked now")

    def game_over(self, view: View) -> None:
        """Tell the program the game is over (``view``: any seat's view of the finished
        game): the last ``hand_end`` and ``game_end`` with the final totals.

        Harnesses may call it; a program whose harness does not is told ``game_end`` (with
        ``totals: null``) when its next game starts or when salad stops it.
        """
        prog = self._lease.prog
        if prog is not None and prog.context is not None:
            end_game(prog, view)

    def _program_for(self, view: View) -> Program:
        """The program to ask, told about the game ``view`` is in."""
        prog = self._lease.prog
        if prog is not None and not prog.alive:
            raise ProgramFailure("crash", prog.exit_text("exited between moves"))
        if prog is None:
            prog = acquire(self._pool, view)
            if prog is not None and not prog.alive:
                discard(self._pool, prog)
                prog = None
            if prog is None:
                prog = Program(self.argv)
                add_busy(self._pool, prog)
                self._lease.prog = prog
                try:
                    hello = prog.start(self.start_time)
                except SaladError:  # it cannot be run at all: not a failure of the bot's
                    self._drop_program()
                    raise
                self._check_hello(hello)
            self._lease.prog = prog
        ctx = prog.context
        if ctx is None or not ctx.continues(view):
            end_game(prog)
            prog.send(
                {
                    "type": "game",
                    "protocol": PROTOCOL,
                    "seat": view.seat,
                    "players": view.players,
                    "move_time": self.move_time,
                    "ruleset": ruleset_info(view.ruleset, view.players),
                    "options": self.options,
                }
            )
            # The view of a game joined midway already holds the hands before it.
            prog.context = GameContext(
                view.ruleset, view.players, view.seat, view, len(view.hand_points)
            )
        return prog

    def _check_hello(self, line: str) -> None:
        try:
            answer = json.loads(line)
        except ValueError:
            return
        if isinstance(answer, dict):
            version = answer.get("protocol")
            if version is not None and version != PROTOCOL:
                self._warn(
                    "protocol", f"speaks protocol {version}; salad speaks {PROTOCOL} (going on)"
                )

    def _drop_program(self) -> None:
        prog, self._lease.prog = self._lease.prog, None
        if prog is None:
            return
        discard(self._pool, prog)
        prog.stop(grace=0.0)

    def _failed(self, failure: ProgramFailure) -> None:
        self.errors[failure.kind] += 1
        self._drop_program()
        retire = count_failure(self._pool, self.restarts)
        if retire:
            then = f"retired after {self._pool.failures} failures; {self.fallback} plays for it"
        else:
            then = f"{self.fallback} plays this move; the program restarts for the next"
        self._warn(failure.kind, f"{failure.detail}; {then}", force=retire)

    def _fall_back(self, view: View) -> Move:
        if self._fallback_bot is None:
            self._fallback_bot = named_factory(self.fallback)(self.seed)
        self.fallback_moves += 1
        move: Move = self._fallback_bot.choose(view)
        return move

    def _warn(self, kind: str, text: str, force: bool = False) -> None:
        if self.quiet:
            return
        count = count_warning(self._pool, kind)
        if count > WARN_LIMIT and not force:
            return
        more = f" (further {kind} warnings are not shown)" if count == WARN_LIMIT else ""
        print(f"salad: bot {self.name}: {text}{more}", file=sys.stderr, flush=True)


def _last_decision(view: View) -> bool:
    """Whether this is the seat's last decision of the game (its last card of the last hand)."""
    return (
        view.phase == Phase.PLAY
        and view.hand_index == len(view.ruleset.compiled(view.players).hands) - 1
        and view.hand.bit_count() == 1
    )


def _clip(text: str, width: int = 60) -> str:
    text = text.strip()
    return repr(text if len(text) <= width else text[: width - 3] + "...")


def _seconds(value: Any, default: float, what: str) -> float:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise SaladError(f"bots: {what} must be seconds, not {value!r}")
    if not (value > 0 and math.isfinite(value)):
        raise SaladError(f"bots: {what} must be a positive number of seconds, not {value}")
    return float(value)


def _jsonable(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


@functools.lru_cache(maxsize=1)
def _default_fallback() -> str:
    try:
        named_factory("basic")
    except SaladError:
        return "random"
    return "basic"
