"""The ``salad play`` command: one game against bots, in a terminal app or as plain lines.

The terminal app needs Textual (the ``tui`` extra); ``--plain`` does not, so this module imports
the app only when it starts it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from salad.cli.common import (
    OpponentsOpt,
    PlayersOpt,
    SeedOpt,
    SwapOpt,
    ThinkTimeOpt,
    ToppingsOpt,
    friendly,
    make_ruleset,
)
from salad.errors import SaladError
from salad.locale import N_, _, ngettext
from salad.tui.plain import run_plain
from salad.tui.session import Session, kept_games, last_kept_game

DEFAULT_DELAY = 0.6
"""Seconds a bot waits before it plays in the terminal app, so that people can follow."""
DEFAULT_BOTS = "expert"
NEEDS_TUI = N_("salad play needs: pip install 'canadian-salad[tui]'")

GameRulesOpt = Annotated[
    str | None,
    typer.Option(
        "--rules",
        "-r",
        help=N_("Preset name or TOML rules file (default: canadian; not on resume)."),
    ),
]
SeatOpt = Annotated[
    int | None, typer.Option("--seat", help=N_("Your seat, 0 to players-1 (default 0)."))
]
ResumeOpt = Annotated[
    Path | None,
    typer.Option("--resume", help=N_("Continue the game saved in this salad-record/2 file.")),
]
ContinueOpt = Annotated[
    bool,
    typer.Option(
        "--continue",
        help=N_(
            "Carry on with the last game left unfinished without a --save file (quit, Ctrl-D, "
            "Ctrl-C, a closed terminal): kept after every move in the user's data directory."
        ),
    ),
]
SaveOpt = Annotated[
    Path | None,
    typer.Option("--save", help=N_("Save the game to this file, after every move.")),
]
PlainOpt = Annotated[
    bool,
    typer.Option(
        "--plain",
        help=N_("Plain lines of text on stdin/stdout (screen readers, pipes, dumb terminals)."),
    ),
]
BriefOpt = Annotated[
    bool,
    typer.Option(
        "--brief",
        help=N_(
            "With --plain: one line per card, and one line of state at your turn "
            "(for screen readers; 'look' shows the whole table)."
        ),
    ),
]
DelayOpt = Annotated[
    float,
    typer.Option(
        "--delay", min=0.0, help=N_("Seconds each bot move is shown before the next one.")
    ),
]


@friendly
def play_command(
    rules: GameRulesOpt = None,
    players: PlayersOpt = None,
    bots: OpponentsOpt = None,
    seat: SeatOpt = None,
    seed: SeedOpt = None,
    toppings: ToppingsOpt = None,
    swap: SwapOpt = None,
    move_time: ThinkTimeOpt = None,
    resume: ResumeOpt = None,
    carry_on: ContinueOpt = False,
    save: SaveOpt = None,
    plain: PlainOpt = False,
    brief: BriefOpt = False,
    delay: DelayOpt = DEFAULT_DELAY,
) -> None:
    """Play a whole game against bots: in a terminal app, or with --plain as lines of text.

    --bots names the bots of the other seats (default: expert; a resumed game keeps its own).
    """
    if carry_on:
        if resume is not None:
            raise SaladError(_("--continue carries on with the kept game: leave out --resume"))
        resume = last_kept_game()
        if resume is None:
            raise SaladError(
                _("--continue: no game is left unfinished (none in {folder})").format(
                    folder=kept_games()
                )
            )
    chosen = any((rules, players, seed is not None, toppings, swap, bots))
    if resume is None and not chosen and _is_terminal():
        resume = _offer_kept_game()  # the start screen's question, asked before it opens
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
                _("resume: {options} cannot change a saved game (its file has its rules)").format(
                    options=", ".join(given)
                )
            )
        session = Session.resume(resume, seat, bots or None, move_time, save)
    else:
        rs = make_ruleset("canadian" if rules is None else rules, toppings, swap)
        n = rs.default_players if players is None else players
        session = Session.new(rs, n, seat or 0, bots or DEFAULT_BOTS, seed, move_time, save)
    if not plain and os.environ.get("TERM") == "dumb":
        typer.echo(_("a dumb terminal (TERM=dumb): playing as plain lines (--plain)"), err=True)
        plain = True
    elif not plain and not _is_terminal():
        typer.echo(_("not a terminal: playing as plain lines (--plain)"), err=True)
        plain = True
    if brief:
        plain = True
    waiting = [] if resume is not None else list(kept_games().glob("*.json"))
    left = (
        ngettext(
            "{n} game left unfinished is kept: salad play --continue carries on with it.",
            "{n} games left unfinished are kept: salad play --continue carries on with the last.",
            len(waiting),
        ).format(n=len(waiting))
        if waiting
        else ""
    )
    if plain:
        if left:
            typer.echo(left)
        code = run_plain(session, resumed=resume, brief=brief)
    else:
        news = _("Resumed from {file}.").format(file=resume) if resume is not None else left
        code = _run_app(session, delay, news)
    if code:
        raise typer.Exit(code)


def _offer_kept_game() -> Path | None:
    """The last game left unfinished, if there is one and the player wants to carry on with it
    (asked on the terminal: a new game would start beside it)."""
    last = last_kept_game()
    if last is None:
        return None
    ask = _("A game left unfinished is kept ({file}). Carry on with it?").format(file=last.name)
    return last if typer.confirm(ask, default=True) else None


def _run_app(session: Session, delay: float, news: str) -> int:
    """The terminal app until the player quits; its last words are printed."""
    try:
        # Lazy: Textual is the optional `tui` extra, and --plain works without it.
        from salad.tui.app import SaladApp
    except ModuleNotFoundError as exc:
        if (exc.name or "").partition(".")[0] != "textual":
            raise
        raise SaladError(_(NEEDS_TUI)) from None
    app = SaladApp(session, delay=delay, news=news)
    message = app.run()
    code = app.return_code or 0
    if message:
        typer.echo(message, err=code != 0)
    return code


def _is_terminal() -> bool:
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False
