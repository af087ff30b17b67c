"""`salad record verify` and `salad record show`: the salad-record/1 files."""

from __future__ import annotations

from typing import Annotated

import typer

from salad.cli.common import RecordFile, friendly
from salad.errors import SaladError
from salad.formats.records import format_record, load_records, verify_record

record_app = typer.Typer(
    help="Read, check and show salad-record/1 game records.", no_args_is_help=True
)


@record_app.command("verify")
@friendly
def record_verify(file: RecordFile) -> None:
    """Replay every game of a record file and check every deal, card, winner and score."""
    records = load_records(file)
    for i, rec in enumerate(records):
        where = f"{file}" + (f" game {i + 1}" if len(records) > 1 else "")
        try:
            totals = verify_record(rec)
        except SaladError as exc:
            raise SaladError(f"{where}: {exc}") from None
        typer.echo(f"OK {where}: totals {' '.join(str(t) for t in totals)}")


@record_app.command("show")
@friendly
def record_show(
    file: RecordFile,
    plain: Annotated[bool, typer.Option(help="Card codes instead of suit symbols.")] = False,
) -> None:
    """Print a game trick by trick."""
    for rec in load_records(file):
        typer.echo(format_record(rec, symbols=not plain))
