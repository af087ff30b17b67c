"""Bots in any language: a program that speaks JSON lines on its stdin and stdout.

A bot named ``cmd:PROGRAM [ARGS]`` (``--bots cmd:./mybot,basic,basic,basic``) is an
:class:`ExternalBot`: salad starts the program, tells it the protocol version, the ruleset, the
player count and its seat, sends it the seat's view whenever it must move and reads one line
back: the move. The protocol is described in ``docs/external-bots.md``; in short::

    salad → bot   {"type":"hello","protocol":1,...}          bot → salad   ready
    salad → bot   {"type":"game","seat":2,"players":4,"ruleset":{...},...}
    salad → bot   {"type":"move","id":7,"legal":["2C","5C"],"view":{...}}
                                                              bot → salad   5C
    salad → bot   {"type":"hand_end","hand":1,"points":[...],"totals":[...]}
    salad → bot   {"type":"game_end","totals":[...],"winners":[...]}
    salad → bot   {"type":"bye"}                              (stdin closes; the bot exits)

A program is started on the first move it must make (so an ``ExternalBot`` pickles and starts
its program in whatever process plays), and kept: when the bot object goes away its program
returns to a per-process pool and plays the next game an ``ExternalBot`` of the same command
needs. Every program is stopped cleanly when salad exits.

Nothing a program does can stop a game. An illegal answer, a line that is not a move, a crash
or a time-out (``move_time`` seconds, 5 by default) prints a one-line warning on stderr, is
counted in :attr:`ExternalBot.errors`, and the fallback bot (``basic``, else ``random``) makes
that move. A program that crashes or times out is killed and restarted for its next move; after
``restarts`` such restarts (3 by default) in one salad process it is retired and the fallback
plays its seat for the rest of the run.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import json
import math
import os
import queue
import shlex
import shutil
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from salad.cards import NO_SUIT
from salad.errors import CardParseError, SaladError
from salad.moves import Move
from salad.ruleset import Kind, Ruleset
from salad.view import Phase, View

__all__ = [
    "PROTOCOL",
    "ExternalBot",
    "external_factory",
    "parse_command",
    "parse_answer",
    "ruleset_info",
    "shutdown_all",
]

PROTOCOL = 1
"""The protocol version, sent in ``hello`` and ``game``; raised on incompatible changes."""

PREFIX = "cmd:"
DEFAULT_MOVE_TIME = 5.0
"""Seconds a program has for a move when no ``move_time`` is given."""
DEFAULT_START_TIME = 10.0
"""Seconds a program has to answer ``hello`` (interpreters and JITs start slowly)."""
DEFAULT_RESTARTS = 3
"""Crashes and time-outs a program may have in one salad process before it is retired."""
IDLE_LIMIT = 8
"""Idle programs kept per command; the least recently used beyond it are stopped."""
WARN_LIMIT = 20
"""Warnings of one kind printed per command; later ones are only counted."""
STOP_GRACE = 2.0
"""Seconds a program has to exit after ``bye`` before it is terminated."""

ERROR_KINDS = ("illegal", "malformed", "timeout", "crash")


# -- commands --------------------------------------------------------------------------------


def parse_command(spec: str | Sequence[str]) -> tuple[str, ...]:
    """``"cmd:node bot.js --fast"`` → ``("node", "bot.js", "--fast")`` (shell-style quoting).

    >>> parse_command("cmd:python3 'my bot.py' -v")
    ('python3', 'my bot.py', '-v')
    >>> parse_command(["./bot", "x"])
    ('./bot', 'x')
    """
    if not isinstance(spec, str):
        argv = tuple(str(a) for a in spec)
    else:
        text = spec.strip()
        if text[: len(PREFIX)].lower() == PREFIX:
            text = text[len(PREFIX) :]
        try:
            argv = tuple(shlex.split(text))
        except ValueError as exc:
            raise SaladError(f"bots: cannot read the command {text!r} ({exc})") from None
    if not argv:
        raise SaladError("bots: cmd: needs a program, e.g. cmd:./mybot or cmd:node bot.js")
    return argv


def check_program(argv: Sequence[str]) -> None:
    """Refuse a command whose program cannot be found (before any game starts)."""
    program = argv[0]
    if os.sep in program or (os.altsep and os.altsep in program):
        if not os.path.isfile(program):
            raise SaladError(f"bots: cmd: no program {program!r} (from {os.getcwd()})")
        if not os.access(program, os.X_OK):
            raise SaladError(f"bots: cmd: {program!r} is not executable (chmod +x it)")
    elif shutil.which(program) is None:
        raise SaladError(f"bots: cmd: program {program!r} is not on the PATH")


def external_factory(name: str) -> Callable[..., ExternalBot]:
    """The registry's factory for a ``cmd:...`` bot name (the program is checked, not run)."""
    argv = parse_command(name)
    check_program(argv)
    return functools.partial(ExternalBot, command=argv)


# -- the ruleset and the messages ------------------------------------------------------------


@functools.lru_cache(maxsize=64)
def ruleset_info(rs: Ruleset, players: int) -> dict[str, Any]:
    """The ``ruleset`` object of the ``game`` message (see docs/external-bots.md).

    >>> from salad import load_ruleset
    >>> info = ruleset_info(load_ruleset("canadian"), 4)
    >>> info["preset"], len(info["deck"]["cards"]), info["hands"][0]["round"]
    ('canadian', 52, 'No Tricks')
    >>> info["hands"][2]["penalties"][0]["cards"]
    ['QC', 'QD', 'QH', 'QS']
    """
    from salad.formats.describe import describe

    deck = rs.deck_for(players)
    compiled = rs.compiled(players)
    codes = deck.codes
    wilds = []
    in_deck = {codes[c] for c in range(deck.size) if deck.suit_of[c] == NO_SUIT}
    for w in rs.deck.wilds:
        if w.code in in_deck:
            wilds.append(
                {"code": w.code, "name": w.name, "count": w.count, "wins": w.wins.name.lower()}
            )
    hands = []
    for hand in compiled.hands:
        penalties = []
        for p in hand.penalties:
            item: dict[str, Any] = {
                "id": p.penalty.id,
                "name": p.penalty.name,
                "kind": p.kind.name.lower(),
                "points": p.points,
                "text": p.penalty.describe(),
            }
            if p.kind in (Kind.CARDS, Kind.TOKEN):
                item["cards"] = deck.format_mask(p.mask).split()
            penalties.append(item)
        hands.append(
            {
                "number": hand.index + 1,
                "round": hand.round.name,
                "penalties": penalties,
                "total": hand.fixed_total,
            }
        )
    return {
        "preset": rs.preset,
        "title": rs.title,
        "settings": rs.settings,
        "highest_wins": rs.highest_wins,
        "moon": rs.moon.name.lower(),
        "moon_points": rs.moon_points,
        "passing": rs.passing,
        "pass_direction": rs.pass_direction,
        "trump_first": rs.trump_first or None,
        "trump_chooser": rs.trump_chooser,
        "deck": {
            "suits": [{"letter": s.letter, "name": s.name, "symbol": s.symbol} for s in deck.suits],
            "ranks": [{"letter": r.letter, "name": r.name} for r in rs.deck.ranks],
            "wilds": wilds,
            "copies": rs.deck.copies_for(players),
            "cards": [codes[c] for c in range(deck.size) if deck.in_play >> c & 1],
            "removed": [codes[c] for c in deck.removed],
            "cards_each": deck.cards_each,
        },
        "hands": hands,
        "checksum": compiled.checksum,
        "description": describe(rs, players),
    }


def _dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def _winners(totals: Sequence[int], highest_wins: bool) -> list[int]:
    best = max(totals) if highest_wins else min(totals)
    return [s for s, t in enumerate(totals) if t == best]


def parse_answer(view: View, line: str) -> tuple[Move | None, str, str]:
    """A program's answer → ``(move, "", "")`` or ``(None, kind, why)``, ``kind`` being
    ``"malformed"`` (not a move of this deck) or ``"illegal"`` (a move, not a legal one).

    >>> from salad import Game, load_ruleset
    >>> game = Game(load_ruleset("canadian"), 4, seed=3)
    >>> view = game.view(game.to_move)
    >>> first = game.format_move(view.legal_moves[0])
    >>> parse_answer(view, first)[0] == view.legal_moves[0]
    True
    >>> parse_answer(view, '{"move": "%s"}' % first)[0] == view.legal_moves[0]
    True
    >>> parse_answer(view, "hello world")
    (None, 'malformed', "unknown card 'hello world' (expected e.g. QS, 10H, q♠)")
    """
    text = line.strip()
    if text[:1] in ("{", '"'):
        try:
            value = json.loads(text)
        except ValueError:
            return None, "malformed", "not valid JSON"
        if isinstance(value, dict):
            value = value.get("move")
        if not isinstance(value, str):
            return None, "malformed", 'no "move" string in the answer'
        text = value.strip()
    if not text:
        return None, "malformed", "an empty answer"
    deck = view.deck
    size = deck.size
    is_trump = text[:6].lower() == "trump:"
    if view.phase == Phase.TRUMP:
        try:
            move = 2 * size + deck.parse_suit(text[6:] if is_trump else text)
        except CardParseError as exc:
            return None, "malformed", str(exc)
    else:
        if is_trump:
            return None, "illegal", "no trump is chosen now"
        high = text.endswith("+")
        core = text[:-1] if high or text.endswith("-") else text
        among = view.hand & ~view.passed if view.phase == Phase.PASS else view.hand
        try:
            card = deck.parse(core, among)
        except CardParseError as exc:
            return None, "malformed", str(exc)
        move = card + size if high else card
    if move not in view.legal_moves:
        legal = " ".join(_format(view, m) for m in view.legal_moves)
        return None, "illegal", f"{text!r} is not legal now (legal: {legal})"
    return move, "", ""


def _format(view: View, move: Move) -> str:
    deck = view.deck
    if move >= 2 * deck.size:
        return "trump:" + deck.suits[move - 2 * deck.size].letter
    return deck.format(move % deck.size) + ("+" if move >= deck.size else "")


# -- running programs ------------------------------------------------------------------------


class _Failure(Exception):
    """The program crashed (``kind == "crash"``) or did not answer in time (``"timeout"``)."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(detail)
        self.kind = kind
        self.detail = detail


def _progress(view: View) -> tuple[int, int, int, int]:
    """Grows with every decision one seat makes in one game."""
    return (view.hand_index, int(view.phase), len(view.tricks), view.passed.bit_count())


@dataclass
class _Context:
    """The game a program is playing, as far as salad has told it."""

    ruleset: Ruleset
    players: int
    seat: int
    last: View
    hands_told: int
    done: bool = False
    """The seat has made its last decision of the game."""

    def continues(self, view: View) -> bool:
        """Whether ``view`` is a later decision of the same game and seat."""
        last = self.last
        if (
            view.seat != self.seat
            or view.players != self.players
            or (view.ruleset is not self.ruleset and view.ruleset != self.ruleset)
            or _progress(view) <= _progress(last)
            or view.hand_points[: len(last.hand_points)] != last.hand_points
        ):
            return False
        if view.hand_index != last.hand_index:
            return True
        if view.tricks[: len(last.tricks)] != last.tricks:
            return False
        return last.phase == Phase.TRUMP or view.trump == last.trump


class _Program:
    """One running bot program: its pipes, a reader thread, the game it is in."""

    def __init__(self, argv: tuple[str, ...]) -> None:
        self.argv = argv
        self.proc: subprocess.Popen[str] | None = None
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.owner = os.getpid()
        """The process that started it (a forked child leaves it alone)."""
        self.next_id = 1
        self.stray = 0
        """Lines dropped: written when nothing was asked, or answers to an older request."""
        self.context: _Context | None = None
        self.released = 0.0
        self.reader: threading.Thread | None = None

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.owner == os.getpid() and self.proc.poll() is None

    def start(self, start_time: float) -> str:
        """Start the program and say hello; the program's answer (its first line)."""
        try:
            proc = subprocess.Popen(
                list(self.argv),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=None,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
            )
        except OSError as exc:
            raise SaladError(
                f"bots: cannot start {shlex.join(self.argv)!r} ({exc.strerror or exc})"
            ) from None
        self.proc = proc
        assert proc.stdout is not None
        self.reader = threading.Thread(
            target=_read_lines, args=(proc.stdout, self.lines), daemon=True, name="salad-bot-io"
        )
        self.reader.start()
        from salad import __version__

        return self.ask({"type": "hello", "protocol": PROTOCOL, "salad": __version__}, start_time)

    def send(self, message: dict[str, Any]) -> None:
        proc = self.proc
        if proc is None or proc.stdin is None:
            raise _Failure("crash", "is not running")
        try:
            proc.stdin.write(_dumps(message) + "\n")
            proc.stdin.flush()
        except (OSError, ValueError):
            raise _Failure("crash", self.exit_text("closed its input")) from None

    def ask(self, message: dict[str, Any], timeout: float) -> str:
        """Send ``message`` and wait at most ``timeout`` seconds for one line back.

        A JSON answer carrying an ``id`` other than the message's is a late answer to an older
        request and is skipped; blank lines are skipped.
        """
        ident = message.get("id")
        self.send(message)
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise _Failure("timeout", f"did not answer within {timeout:g} s")
            try:
                line = self.lines.get(timeout=remaining)
            except queue.Empty:
                raise _Failure("timeout", f"did not answer within {timeout:g} s") from None
            if line is None:
                self.lines.put(None)  # stays at end of file
                raise _Failure("crash", self.exit_text("closed its output"))
            if not line.strip():
                continue
            if ident is not None and line.lstrip().startswith("{"):
                try:
                    answer = json.loads(line)
                except ValueError:
                    return line
                if isinstance(answer, dict) and "id" in answer and answer["id"] != ident:
                    self.stray += 1
                    continue
            return line

    def drain(self) -> None:
        """Drop the lines the program wrote when nothing was asked (counted in ``stray``)."""
        while True:
            try:
                line = self.lines.get_nowait()
            except queue.Empty:
                return
            if line is None:
                self.lines.put(None)
                return
            if line.strip():
                self.stray += 1

    def exit_text(self, what: str) -> str:
        proc = self.proc
        code = None
        if proc is not None:
            try:
                code = proc.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                code = None
        if code is None:
            return what
        if code < 0:
            return f"{what} (killed by signal {-code})"
        return f"{what} (exit code {code})"

    def say_bye(self) -> None:
        """Send ``bye`` and close the program's input: a well-behaved program exits now."""
        proc = self.proc
        if proc is None or proc.stdin is None or self.owner != os.getpid():
            return
        try:
            if proc.poll() is None:
                proc.stdin.write(_dumps({"type": "bye"}) + "\n")
                proc.stdin.flush()
        except (OSError, ValueError):
            pass
        with contextlib.suppress(OSError, ValueError):
            proc.stdin.close()

    def stop(self, grace: float = STOP_GRACE) -> None:
        """``bye`` and wait up to ``grace`` seconds; then terminate it, and kill it if need be."""
        proc = self.proc
        if proc is None or self.owner != os.getpid():
            return
        if grace > 0:
            self.say_bye()
        elif proc.stdin is not None:
            with contextlib.suppress(OSError, ValueError):
                proc.stdin.close()
        self.proc = None
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            proc.terminate()
            try:
                proc.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if self.reader is not None:
            self.reader.join(timeout=1.0)
        if proc.stdout is not None:
            with contextlib.suppress(OSError, ValueError):
                proc.stdout.close()


def _read_lines(stream: Any, lines: queue.Queue[str | None]) -> None:
    try:
        for line in stream:
            lines.put(line.rstrip("\r\n"))
    except (OSError, ValueError):
        pass
    finally:
        lines.put(None)


@dataclass
class _Pool:
    """The programs of one command in this process, and what they have done wrong."""

    argv: tuple[str, ...]
    idle: list[_Program] = field(default_factory=list)
    busy: set[_Program] = field(default_factory=set)
    failures: int = 0
    retired: bool = False
    warned: dict[str, int] = field(default_factory=dict)


_LOCK = threading.RLock()
_POOLS: dict[tuple[str, ...], _Pool] = {}
_SHUTDOWN_HOOKED = False


def _pool(argv: tuple[str, ...]) -> _Pool:
    global _SHUTDOWN_HOOKED
    with _LOCK:
        pool = _POOLS.get(argv)
        if pool is None:
            pool = _POOLS[argv] = _Pool(argv)
        if not _SHUTDOWN_HOOKED:
            _SHUTDOWN_HOOKED = True
            atexit.register(shutdown_all)
            # A multiprocessing worker leaves through os._exit: no atexit there.
            from multiprocessing import util

            util.Finalize(None, shutdown_all, exitpriority=10)
        return pool


def _forget_after_fork() -> None:
    """A forked child shares its parent's pipes: it must neither use nor stop those programs."""
    global _LOCK, _POOLS, _SHUTDOWN_HOOKED
    _LOCK = threading.RLock()
    _POOLS = {}
    _SHUTDOWN_HOOKED = False


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_after_fork)


def _acquire(pool: _Pool, view: View) -> _Program | None:
    """An idle program for ``view``: one in this very game, else a free one; ``None``: start one.

    A free program is one that has finished its game (or never had one), else the least
    recently used, once ``IDLE_LIMIT`` programs of the command are running.
    """
    with _LOCK:
        pick = None
        for prog in pool.idle:
            if prog.context is not None and prog.context.continues(view):
                pick = prog
                break
        if pick is None:
            for prog in pool.idle:
                if prog.context is None or prog.context.done:
                    pick = prog
                    break
        if pick is None and pool.idle and len(pool.idle) + len(pool.busy) >= IDLE_LIMIT:
            pick = min(pool.idle, key=lambda p: p.released)
        if pick is not None:
            pool.idle.remove(pick)
            pool.busy.add(pick)
        return pick


def _release(pool: _Pool, prog: _Program) -> None:
    """Give a program back to its pool (a dead one is dropped)."""
    extra: list[_Program] = []
    with _LOCK:
        pool.busy.discard(prog)
        if not prog.alive or _POOLS.get(pool.argv) is not pool:
            extra.append(prog)
        else:
            prog.released = time.monotonic()
            pool.idle.append(prog)
            while len(pool.idle) > IDLE_LIMIT:
                oldest = min(pool.idle, key=lambda p: p.released)
                pool.idle.remove(oldest)
                extra.append(oldest)
    for p in extra:
        _end_game(p)
        p.stop()


def _end_game(prog: _Program, view: View | None = None) -> None:
    """Tell a program its game is over: the hands it was not told of, then ``game_end``."""
    ctx = prog.context
    if ctx is None or not prog.alive:
        return
    prog.context = None
    try:
        if view is not None and view.phase == Phase.OVER:
            _tell_hands(prog, ctx, view)
            totals = list(view.totals)
            prog.send(
                {
                    "type": "game_end",
                    "totals": totals,
                    "winners": _winners(totals, ctx.ruleset.highest_wins),
                }
            )
        else:
            prog.send({"type": "game_end", "totals": None, "winners": None})
    except _Failure:
        pass


def _tell_hands(prog: _Program, ctx: _Context, view: View) -> None:
    """``hand_end`` for each hand scored since the program was last told."""
    compiled = ctx.ruleset.compiled(ctx.players)
    while ctx.hands_told < len(view.hand_points):
        k = ctx.hands_told
        points = view.hand_points[k]
        totals = [sum(p[s] for p in view.hand_points[: k + 1]) for s in range(ctx.players)]
        prog.send(
            {
                "type": "hand_end",
                "hand": k + 1,
                "round": compiled.hands[k].round.name,
                "points": list(points),
                "totals": totals,
            }
        )
        ctx.hands_told += 1


def shutdown_all() -> None:
    """Stop every program this process started (``bye``, then terminate what lingers)."""
    with _LOCK:
        progs = [p for pool in _POOLS.values() for p in (*pool.idle, *pool.busy)]
        _POOLS.clear()
    for p in progs:
        _end_game(p)
        p.say_bye()  # all at once, so that they exit in parallel
    deadline = time.monotonic() + STOP_GRACE
    for p in progs:
        p.stop(max(0.0, deadline - time.monotonic()))


# -- the bot ---------------------------------------------------------------------------------


class _Lease:
    """The program an :class:`ExternalBot` holds; released when the bot is closed or dies."""

    def __init__(self, pool: _Pool) -> None:
        self.pool = pool
        self.prog: _Program | None = None

    def release(self) -> None:
        prog, self.prog = self.prog, None
        if prog is not None:
            _release(self.pool, prog)


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
        self._pool = _pool(self.argv)
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
        if _POOLS.get(self.argv) is not self._pool:  # shutdown_all() stopped everything
            self._pool = self._lease.pool = _pool(self.argv)
            self._lease.prog = None
        if self._pool.retired:
            return self._fall_back(view)
        try:
            prog = self._program_for(view)
            ctx = prog.context
            assert ctx is not None
            _tell_hands(prog, ctx, view)
            stray = prog.stray
            prog.drain()
            ident = prog.next_id
            prog.next_id += 1
            message = {
                "type": "move",
                "id": ident,
                "legal": [_format(view, m) for m in view.legal_moves],
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
        except _Failure as failure:
            self._failed(failure)
            return self._fall_back(view)
        move, kind, why = parse_answer(view, answer)
        if move is not None:
            return move
        self.errors[kind] += 1
        fallback = self._fall_back(view)
        self._warn(kind, f"{kind} answer {_clip(answer)}: {why}; {self.fallback} plays instead")
        with contextlib.suppress(_Failure):
            prog.send(
                {
                    "type": "error",
                    "id": ident,
                    "error": kind,
                    "detail": why,
                    "played": _format(view, fallback),
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
            _end_game(prog, view)

    def _program_for(self, view: View) -> _Program:
        """The program to ask, told about the game ``view`` is in."""
        prog = self._lease.prog
        if prog is not None and not prog.alive:
            raise _Failure("crash", prog.exit_text("exited between moves"))
        if prog is None:
            prog = _acquire(self._pool, view)
            if prog is not None and not prog.alive:
                with _LOCK:
                    self._pool.busy.discard(prog)
                prog = None
            if prog is None:
                prog = _Program(self.argv)
                with _LOCK:
                    self._pool.busy.add(prog)
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
            _end_game(prog)
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
            prog.context = _Context(
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
        with _LOCK:
            self._pool.busy.discard(prog)
        prog.stop(grace=0.0)

    def _failed(self, failure: _Failure) -> None:
        self.errors[failure.kind] += 1
        self._drop_program()
        with _LOCK:
            self._pool.failures += 1
            retire = self._pool.failures > self.restarts and not self._pool.retired
            if retire:
                self._pool.retired = True
        if retire:
            then = f"retired after {self._pool.failures} failures; {self.fallback} plays for it"
        else:
            then = f"{self.fallback} plays this move; the program restarts for the next"
        self._warn(failure.kind, f"{failure.detail}; {then}", force=retire)

    def _fall_back(self, view: View) -> Move:
        if self._fallback_bot is None:
            from salad.bots import make_bot

            self._fallback_bot = make_bot(self.fallback, self.seed)
        self.fallback_moves += 1
        move: Move = self._fallback_bot.choose(view)
        return move

    def _warn(self, kind: str, text: str, force: bool = False) -> None:
        if self.quiet:
            return
        with _LOCK:
            count = self._pool.warned.get(kind, 0) + 1
            self._pool.warned[kind] = count
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
    from salad.bots import bot_factory

    try:
        bot_factory("basic")
    except SaladError:
        return "random"
    return "basic"
