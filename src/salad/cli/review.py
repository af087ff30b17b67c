"""`salad review`: the expert search's review of a finished game, decision by decision."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from salad.cli.common import RecordFile
from salad.cli.errors import friendly
from salad.errors import SaladError
from salad.formats.records import load_records
from salad.lab.review import DEFAULT_WORLDS, ReviewOptions, review_record
from salad.lab.review_text import format_review
from salad.locale import N_, _, ngettext

GameOpt = Annotated[
    int, typer.Option("--game", "-g", min=1, help=N_("Game N of a file of many (1 is the first)."))
]
SeatOpt = Annotated[int, typer.Option("--seat", "-s", help=N_("The seat to review."))]
AllOpt = Annotated[bool, typer.Option("--all", help=N_("Review every seat."))]
WorldsOpt = Annotated[
    int,
    typer.Option(
        "--worlds",
        "-w",
        help=N_("Sampled worlds per decision (the same worlds give the same review)."),
    ),
]
MoveTimeOpt = Annotated[
    float | None,
    typer.Option(
        "--move-time",
        help=N_("Seconds per decision at most (fewer worlds when slow: then not reproducible)."),
    ),
]
HindsightOpt = Annotated[
    bool, typer.Option("--hindsight", help=N_("Also search the true deal (every hand known)."))
]
JsonOut = Annotated[bool, typer.Option("--json", help=N_("Print the review as one JSON object."))]


@contextmanager
def _progress(show: bool) -> Iterator[Callable[[int, int], None]]:
    """A progress bar of decisions on stderr; yields ``update(done, total)``."""
    if not show:
        yield lambda done, total: None
        return
    with Progress(
        TextColumn("reviewing"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("decisions, left"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task("review", total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


@friendly
def review_command(
    record: RecordFile,
    game: GameOpt = 1,
    seat: SeatOpt = 0,
    all_seats: AllOpt = False,
    worlds: WorldsOpt = DEFAULT_WORLDS,
    move_time: MoveTimeOpt = None,
    hindsight: HindsightOpt = False,
    json_out: JsonOut = False,
) -> None:
    """Review a finished game: for each choice of a seat (default seat 0), the points the
    expert's search expects after every distinct legal choice, from what the seat knew then;
    the cost of the choice made, labelled good, inaccuracy, mistake or blunder."""
    if worlds < 1:
        raise SaladError(_("review: --worlds must be 1 or more, not {n}").format(n=worlds))
    if move_time is not None and move_time <= 0:
        raise SaladError(
            _("review: --move-time must be above 0 seconds, not {seconds}").format(
                seconds=f"{move_time:g}"
            )
        )
    records = load_records(record)
    if not records:
        raise SaladError(_("{file}: no records in the file").format(file=record))
    if game > len(records):
        raise SaladError(
            ngettext(
                "review: --game {game}: {file} holds {n} game",
                "review: --game {game}: {file} holds {n} games",
                len(records),
            ).format(game=game, file=record, n=len(records))
        )
    chosen = records[game - 1]
    players = chosen.get("players") if isinstance(chosen, dict) else None
    count = len(players) if isinstance(players, list) else 0
    if not all_seats and not 0 <= seat < max(count, 1):
        raise SaladError(
            _("review: --seat {seat}: the game has seats 0 to {last}").format(
                seat=seat, last=count - 1
            )
        )
    seats = list(range(count)) if all_seats else [seat]
    options = ReviewOptions(worlds=worlds, move_time=move_time, hindsight=hindsight)
    try:
        with _progress(not json_out) as update:
            review = review_record(chosen, seats, options, game_number=game, progress=update)
    except SaladError as exc:
        message = str(exc)
        raise SaladError(
            message
            if message.startswith("review:")
            else _("{file}: {problem}").format(file=record, problem=message)
        ) from None
    typer.echo(review.model_dump_json() if json_out else format_review(review))
