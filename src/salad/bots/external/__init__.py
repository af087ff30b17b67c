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

The package's modules: :mod:`~salad.bots.external.protocol` (the messages and reading answers),
:mod:`~salad.bots.external.program` (running one program), :mod:`~salad.bots.external.pool`
(the programs of a process), :mod:`~salad.bots.external.bot` (the bot) and
:mod:`~salad.bots.external.factory` (a ``cmd:`` name to a bot factory).
"""

from __future__ import annotations

from salad.bots.external.bot import WARN_LIMIT, ExternalBot
from salad.bots.external.factory import external_factory
from salad.bots.external.pool import shutdown_all
from salad.bots.external.program import parse_command
from salad.bots.external.protocol import PROTOCOL, parse_answer, ruleset_info

__all__ = [
    "PROTOCOL",
    "WARN_LIMIT",
    "ExternalBot",
    "external_factory",
    "parse_answer",
    "parse_command",
    "ruleset_info",
    "shutdown_all",
]
