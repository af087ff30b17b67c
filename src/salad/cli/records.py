"""`salad record verify` and `salad record show`: the salad-record/2 files."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from salad.cli.common import RecordFile, friendly
from salad.errors import SaladError
from salad.formats.records import Record, format_record, load_records, verify_record
from salad.locale import N_, _, ngettext

GameOpt = Annotated[
    int | None,
    typer.Option("--game", "-g", min=1, help=N_("Only game N of a file of many (1 is the first).")),
]
PlainOpt = Annotated[bool, typer.Option(help=N_("Card codes instead of suit symbols."))]
VerifyOpt = Annotated[
    bool,
    typer.Option(
        "--verify/--no-verify",
        help=N_(
            "Replay each game first and refuse one that does not check out (--no-verify "
            "lists it anyway, marked as not verified)."
        ),
    ),
]


def _records(file: Path, game: int | None) -> list[tuple[str, Record]]:
    """The games of ``file`` (only game ``game`` if given), each with where it is, for
    messages: ``FILE`` for a file of one game, ``FILE game 3`` in a file of many."""
    records = load_records(file)
    if not records:
        raise SaladError(_("{file}: no records in the file").format(file=file))
    many = len(records) > 1
    named = [
        (_("{file} game {n}").format(file=file, n=i + 1) if many else f"{file}", r)
        for i, r in enumerate(records)
    ]
    if game is None:
        return named
    if game > len(records):
        raise SaladError(
            ngettext(
                "--game {game}: {file} holds {n} game",
                "--game {game}: {file} holds {n} games",
                len(records),
            ).format(game=game, file=file, n=len(records))
        )
    return [named[game - 1]]


def _verified(where: str, record: Record) -> list[int]:
    try:
        return verify_record(record)
    except SaladError as exc:
        raise SaladError(f"{where}: {exc}") from None


@friendly
def record_verify(file: RecordFile, game: GameOpt = None) -> None:
    """Replay every game of a record file and check every deal, card, winner and score."""
    for where, rec in _records(file, game):
        totals = _verified(where, rec)
        typer.echo(
            _("OK {where}: totals {totals}").format(
                where=where, totals=" ".join(str(t) for t in totals)
            )
        )


@friendly
def record_show(
    file: RecordFile, game: GameOpt = None, plain: PlainOpt = False, verify: VerifyOpt = True
) -> None:
    """Print a game trick by trick (every game of the file, or --game N), once it verifies."""
    for where, rec in _records(file, game):
        if verify:
            _verified(where, rec)
        else:
            typer.echo(
                _("NOT VERIFIED: {where} (--no-verify): it may break the rules").format(where=where)
            )
        typer.echo(format_record(rec, symbols=not plain))


def make_record_app() -> typer.Typer:
    """`salad record`: its commands."""
    record_app = typer.Typer(
        help=N_("Read, check and show salad-record/2 game records."), no_args_is_help=True
    )
    record_app.command(
        "verify",
        help=N_("Replay every game of a record file and check every deal, card, winner and score."),
    )(record_verify)
    record_app.command(
        "show",
        help=N_(
            "Print a game trick by trick (every game of the file, or --game N), once it verifies."
        ),
    )(record_show)
    return record_app
