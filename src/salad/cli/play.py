"""The ``salad play`` command: one game against bots, in a terminal app or as plain lines.

This module stays light (no Textual import) because the ``salad`` command imports it at start.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from salad.cli.common import SwapOpt, ToppingsOpt

DEFAULT_DELAY = 0.6
"""Seconds a bot waits before it plays in the terminal app, so that people can follow."""

RulesOpt = Annotated[
    str | None, typer.Option("--rules", "-r", help="Preset name or TOML rules file.")
]
PlayersOpt = Annotated[
    int | None, typer.Option("--players", "-n", help="Number of players (default: the ruleset's).")
]
BotsOpt = Annotated[
    str | None,
    typer.Option(
        "--bots",
        "-b",
        help="Bots for the other seats in seat order, comma-separated, or one for all "
        "(random, basic, advanced, expert). Default: expert.",
    ),
]
SeatOpt = Annotated[
    int | None, typer.Option("--seat", help="Your seat, 0 to players-1 (default 0).")
]
SeedOpt = Annotated[
    int | None, typer.Option("--seed", "-s", help="Seed: the same seed, the same deals.")
]
MoveTimeOpt = Annotated[
    float | None,
    typer.Option("--move-time", min=0.0, help="Seconds a searching bot may think per move."),
]
ResumeOpt = Annotated[
    Path | None,
    typer.Option("--resume", help="Continue the game saved in this salad-record/1 file."),
]
SaveOpt = Annotated[
    Path | None,
    typer.Option(
        "--save", help="Save the game to this file (on save, on quit, at the end of input)."
    ),
]
PlainOpt = Annotated[
    bool,
    typer.Option(
        "--plain",
        help="Plain lines of text on stdin/stdout (screen readers, pipes, dumb terminals).",
    ),
]
DelayOpt = Annotated[
    float,
    typer.Option("--delay", min=0.0, help="Seconds each bot move is shown before the next one."),
]


def play_command(
    rules: RulesOpt = None,
    players: PlayersOpt = None,
    bots: BotsOpt = None,
    seat: SeatOpt = None,
    seed: SeedOpt = None,
    toppings: ToppingsOpt = None,
    swap: SwapOpt = None,
    move_time: MoveTimeOpt = None,
    resume: ResumeOpt = None,
    save: SaveOpt = None,
    plain: PlainOpt = False,
    delay: DelayOpt = DEFAULT_DELAY,
) -> None:
    """Play a whole game against bots: in a terminal app, or with --plain as lines of text."""
    from salad.cli.common import friendly

    code = friendly(_play)(
        rules, players, bots, seat, seed, toppings, swap, move_time, resume, save, plain, delay
    )
    if code:
        raise typer.Exit(code)


def _play(
    rules: str | None,
    players: int | None,
    bots: str | None,
    seat: int | None,
    seed: int | None,
    toppings: str | None,
    swap: list[str] | None,
    move_time: float | None,
    resume: Path | None,
    save: Path | None,
    plain: bool,
    delay: float,
) -> int:
    from salad.cli.common import make_ruleset
    from salad.errors import SaladError
    from salad.tui.common import Session

    if resume is not None:
        given = [
            name
            for name, value in (
                ("--rules", rules),
                ("--players", players),
                ("--seed", seed),
                ("--toppings", toppings),
                ("--swap", swap),
            )
            if value
        ]
        if given:
            raise SaladError(
                f"resume: {', '.join(given)} cannot change a saved game (its file has its rules)"
            )
        session = Session.resume(resume, seat, bots, move_time, save)
    else:
        rs = make_ruleset(rules or "canadian", toppings, swap)
        n = rs.default_players if players is None else players
        session = Session.new(rs, n, seat or 0, bots or "expert", seed, move_time, save)
    if not plain and (os.environ.get("TERM") == "dumb" or not _is_terminal()):
        typer.echo("not a terminal: playing as plain lines (--plain)", err=True)
        plain = True
    if plain:
        from salad.tui.plain import run_plain

        return run_plain(session, resumed=resume is not None)
    from salad.tui.app import SaladApp

    news = f"Resumed from {resume}." if resume is not None else ""
    app = SaladApp(session, delay=delay, news=news)
    message = app.run()
    if message:
        typer.echo(message)
    return 0


def _is_terminal() -> bool:
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False
