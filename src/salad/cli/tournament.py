"""The ``salad tournament`` command: bots against bots on a balanced schedule, rated.

The ratings need the ``lab`` extra (OpenSkill; Matplotlib for the plots): without it the command
says so in one line. The tournament itself is :mod:`salad.lab.tournament`.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from salad.cli.common import (
    RUN_LIMIT,
    AllowFallbackOpt,
    EntrantsOpt,
    RulesOpt,
    ScheduleSeedOpt,
    SwapOpt,
    ToppingsOpt,
    TournamentMoveTimeOpt,
    TournamentPlayersOpt,
    TournamentWorkersOpt,
    friendly,
    make_ruleset,
    refuse_fallback,
    require_extra,
)
from salad.lab.progress import format_rate
from salad.lab.tournament import Interrupted, TournamentResult, run_tournament
from salad.locale import N_, _, ngettext, pgettext

GamesOpt = Annotated[
    int,
    typer.Option(
        "--games",
        "-g",
        max=RUN_LIMIT,
        help=N_("Games in all (a larger number later extends the same run)."),
    ),
]
BackendOpt = Annotated[
    str,
    typer.Option(
        "--backend",
        help=N_(
            "local: processes on this machine; ray: a Ray cluster (pip install 'salad\\[ray]')."
        ),
    ),
]
AddressOpt = Annotated[
    str | None,
    typer.Option(
        "--address",
        help=N_("Ray cluster address, e.g. ray://head:10001 (default: start a local Ray)."),
    ),
]
OutOpt = Annotated[
    Path,
    typer.Option(
        "--out",
        "-o",
        help=N_(
            "Directory of the results; a stopped run resumes when run again with the same "
            "arguments and directory."
        ),
    ),
]
PlotsOpt = Annotated[bool, typer.Option("--plots/--no-plots", help=N_("Draw the PNG plots."))]

LAB_MODULES = ("openskill",)
"""What the ratings need from ``pip install 'canadian-salad[lab]'``."""
PLOT_MODULES = ("matplotlib",)
"""What the plots need from it (``--no-plots`` does without)."""


@friendly
def tournament_command(
    rules: RulesOpt = "canadian",
    players: TournamentPlayersOpt = None,
    toppings: ToppingsOpt = None,
    swap: SwapOpt = None,
    bots: EntrantsOpt = "",
    games: GamesOpt = 100,
    seed: ScheduleSeedOpt = 0,
    backend: BackendOpt = "local",
    address: AddressOpt = None,
    out: OutOpt = Path("tournament"),
    workers: TournamentWorkersOpt = None,
    move_time: TournamentMoveTimeOpt = None,
    plots: PlotsOpt = True,
    allow_fallback: AllowFallbackOpt = False,
) -> None:
    """Tournament between bots: every seat and every pairing in turn, duplicate deals,
    OpenSkill ratings, a leaderboard, CSV/JSONL files and plots in --out."""
    require_extra("tournament", "lab", *LAB_MODULES, *(PLOT_MODULES if plots else ()))
    rs = make_ruleset(rules, toppings, swap)
    try:
        with _terminate_as_interrupt():
            result = run_tournament(
                rs,
                players,
                bots,
                games,
                seed,
                backend=backend,
                address=address,
                out=out,
                workers=workers,
                move_time=move_time,
                progress=True,
                plots=plots,
            )
    except Interrupted as stop:
        typer.echo(
            _(
                "interrupted: {saved} of {total} games saved in {out}; "
                "run the same command to resume"
            ).format(saved=stop.saved, total=stop.total, out=out),
            err=True,
        )
        raise typer.Exit(130) from None
    except KeyboardInterrupt:  # while reading or writing the files: every game played is saved
        typer.echo(_("interrupted; run the same command to resume"), err=True)
        raise typer.Exit(130) from None
    console = Console(highlight=False)
    console.print(leaderboard_table(result))
    console.print()
    console.print(rounds_table(result))
    console.print()
    for line in summary_lines(result):
        console.print(line, markup=False, soft_wrap=True)
    for name, moves in result.fallback.items():
        said = _("{name}: its program failed; the fallback bot made {n} of its moves")
        console.print(said.format(name=name, n=moves), markup=False, soft_wrap=True)
    refuse_fallback(result.fallback, allow_fallback)


@contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """``kill`` (SIGTERM) stops the run like Ctrl-C: the workers are stopped, not orphaned."""

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, stop)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def leaderboard_table(result: TournamentResult) -> Table:
    """The leaderboard as a Rich table, best first."""
    rs = result.ruleset
    if rs.highest_wins:
        caption = _(
            "rating: OpenSkill ordinal mu - 3 sigma; points: mean per game, highest is best; "
            "place: mean finishing place"
        )
    else:
        caption = _(
            "rating: OpenSkill ordinal mu - 3 sigma; points: mean per game, lowest is best; "
            "place: mean finishing place"
        )
    table = Table(
        title=_("{title}: {games} games, {players} players, seed {seed}").format(
            title=_(rs.title), games=len(result.games), players=result.players, seed=result.seed
        ),
        caption=caption,
        box=box.SIMPLE_HEAD,
        show_edge=False,
        collapse_padding=True,
    )
    table.add_column("#", justify="right")
    table.add_column(pgettext("leaderboard", "entrant"), no_wrap=True)
    table.add_column(pgettext("leaderboard", "rating"), justify="right", style="bold")
    table.add_column("mu", justify="right")
    table.add_column("sigma", justify="right")
    table.add_column(pgettext("leaderboard", "games"), justify="right")
    table.add_column(pgettext("leaderboard", "points"), justify="right", min_width=6)
    table.add_column(pgettext("leaderboard", "wins"), justify="right")
    table.add_column(pgettext("leaderboard", "win %"), justify="right")
    table.add_column(pgettext("leaderboard", "place"), justify="right")
    for s in result.standings:
        rate = s.win_rate
        table.add_row(
            str(s.rank),
            _short(s.entrant),
            f"{s.rating.ordinal:.2f}",
            f"{s.rating.mu:.2f}",
            f"{s.rating.sigma:.2f}",
            str(s.games),
            _fmt(s.mean_points, 1),
            f"{s.wins:g}",
            "-" if rate is None else f"{rate:.0%}",
            _fmt(s.mean_place, 2),
        )
    return table


def rounds_table(result: TournamentResult) -> Table:
    """Mean points each entrant took per hand of each round, leaderboard order."""
    table = Table(
        title=_("mean points taken per hand, by round"),
        box=box.SIMPLE_HEAD,
        show_edge=False,
        collapse_padding=True,
    )
    table.add_column(pgettext("leaderboard", "entrant"), no_wrap=True)
    for _round_id, name in result.rounds:
        table.add_column(_(name), justify="right", min_width=5)
    for s in result.standings:
        table.add_row(
            _short(s.entrant), *(_fmt(s.rounds.get(rid), 1) for rid, _name in result.rounds)
        )
    return table


def summary_lines(result: TournamentResult) -> list[str]:
    if result.backend == "local":
        where = ngettext("{n} process", "{n} processes", result.workers).format(n=result.workers)
    else:
        where = _("Ray, {n} tasks at a time").format(n=result.workers)
    if result.played:
        line = _("played {n} games in {seconds} s ({rate}) on {where}").format(
            n=result.played,
            seconds=f"{result.elapsed:.1f}",
            rate=format_rate(result.played, result.elapsed),
            where=where,
        )
        if result.resumed:
            line += _("; {n} were already played").format(n=result.resumed)
        lines = [line]
    else:
        lines = [
            _("nothing left to play: all {n} games were already played").format(n=result.resumed)
        ]
    if result.out is not None:
        names = ", ".join(p.name for p in result.files)
        lines.append(_("results in {out}: {names}").format(out=result.out, names=names))
    return lines


def _short(label: str, width: int = 16) -> str:
    """A label cut in the middle to fit the table (the files hold it whole).

    >>> _short("cmd:examples/bots/first-legal.sh")
    'cmd:exam…egal.sh'
    """
    if len(label) <= width:
        return label
    tail = (width - 1) // 2
    return label[: width - 1 - tail] + "…" + label[-tail:]


def _fmt(x: float | None, digits: int) -> str:
    return "-" if x is None else f"{x:.{digits}f}"
