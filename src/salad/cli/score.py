"""`salad score`: keep the score of a game played with real cards, at the table, in the terminal.

Enter the names, then after every hand what each player took; the sheet checks each answer
against the ruleset (see :mod:`salad.sheet`), scores the hand and shows the running totals
and the leader. Commands work at every prompt: ``/fix N``, ``/back``, ``/show``, ``/chart``,
``/save [FILE]``, ``/csv [FILE]``, ``/quit``, ``/help`` (see :mod:`salad.cli.scorekeeper`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from salad.cli.attach import attach
from salad.cli.common import (
    OptionalRulesOpt,
    PlayersOpt,
    SwapOpt,
    ToppingsOpt,
    friendly,
    make_ruleset,
    players_for,
)
from salad.cli.scorekeeper import Scorekeeper, kept_file
from salad.errors import SaladError
from salad.locale import N_, _
from salad.sheet import ScoreSheet

LoadOpt = Annotated[
    Path | None,
    typer.Option("--load", "-l", help=N_("Carry on with a sheet saved with /save (JSON).")),
]
ResumeOpt = Annotated[
    bool,
    typer.Option(
        "--resume",
        help=N_(
            "Carry on with the sheet left without saving to a file (Ctrl-D, Ctrl-C, a "
            "closed terminal): kept after every hand in the user's data directory."
        ),
    ),
]
GroupOpt = Annotated[
    str | None,
    typer.Option(
        "--group",
        "-g",
        metavar=N_("URL-OR-FILE"),
        help=N_(
            "Attach the finished sheet of --load to a group of the site, and stop: the "
            "group's invite link (from its page), or a text file holding it. Each name counts "
            "for the member of that name, any other for a guest."
        ),
    ),
]


@friendly
def score_command(
    rules: OptionalRulesOpt = None,
    players: PlayersOpt = None,
    toppings: ToppingsOpt = None,
    swap: SwapOpt = None,
    load: LoadOpt = None,
    resume: ResumeOpt = False,
    group: GroupOpt = None,
) -> None:
    """Keep score at a table playing with real cards: enter what each player took after every
    hand; the sheet checks it, scores it and keeps the running totals. With --group, attach a
    finished sheet to a group of the site instead."""
    if resume:
        if load is not None or group is not None:
            raise SaladError(
                _("--resume carries on with the kept sheet: leave out --load and --group")
            )
        load = kept_file()
        if not load.exists():
            raise SaladError(_("--resume: no sheet is kept (none in {file})").format(file=load))
    if group is None:
        keeper = _open(rules, players, toppings, swap, load)
        if resume:  # kept, not saved to a file of the user's: /save asks for one
            keeper.path, keeper.dirty, keeper.keeping = None, True, True
        keeper.run()
        return
    if load is None or rules is not None or players is not None or toppings or swap:
        raise SaladError(
            _("--group attaches a sheet saved with /save: give it with --load FILE alone")
        )
    sheet = _load(load)
    if not sheet.is_over():
        raise SaladError(
            _("{file}: the sheet is not finished; only a finished sheet counts").format(file=load)
        )
    Console(highlight=False, soft_wrap=True).print(attach(group, sheet), markup=False)


def _open(
    rules: str | None,
    players: int | None,
    toppings: str | None,
    swap: list[str] | None,
    load: Path | None,
) -> Scorekeeper:
    console = Console(highlight=False, soft_wrap=True)
    if load is not None:
        if rules is not None or players is not None or toppings or swap:
            raise SaladError(
                _(
                    "--load takes the rules and the players from the file; "
                    "leave out --rules, --players, --toppings and --swap"
                )
            )
        sheet = _load(load)
        return Scorekeeper(console, sheet.ruleset, sheet.players, sheet, load)
    rs = make_ruleset("canadian" if rules is None else rules, toppings, swap)
    return Scorekeeper(console, rs, players_for(rs, players), None, None)


def _load(load: Path) -> ScoreSheet:
    """The sheet saved in ``load``, every hand checked again."""
    text = load.read_text(encoding="utf-8")
    try:
        return ScoreSheet.from_json(text)
    except SaladError as exc:
        raise SaladError(f"{load}: {exc}") from None
