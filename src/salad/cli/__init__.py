"""The `salad` command: one Typer app assembled from the command modules.

Each command lives in the module of its concern (:mod:`~salad.cli.game`: rules, simulate, demo,
match; :mod:`~salad.cli.records`; :mod:`~salad.cli.play`; :mod:`~salad.cli.score`;
:mod:`~salad.cli.tournament`; :mod:`~salad.cli.serve`); what they share (option types, the error
printer, the extras check) is in :mod:`~salad.cli.common`.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from salad import __version__
from salad.cli.common import make_ruleset
from salad.cli.errors import run_app
from salad.cli.game import demo, match, rules, simulate
from salad.cli.play import play_command
from salad.cli.records import record_app
from salad.cli.review import review_command
from salad.cli.score import score_command
from salad.cli.serve import serve
from salad.cli.tournament import tournament_command

__all__ = ["app", "main", "make_ruleset"]

app = typer.Typer(
    help="Canadian Salad (Fruit Salad, Wisconsin Scramble) and its variants.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"salad {__version__}")
        raise typer.Exit


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_show_version, is_eager=True, help="Show the version and exit."
        ),
    ] = False,
) -> None:
    """Canadian Salad (Fruit Salad, Wisconsin Scramble) and its variants."""


app.add_typer(record_app, name="record")
app.command("rules")(rules)
app.command("simulate")(simulate)
app.command("demo")(demo)
app.command("match")(match)
app.command("play")(play_command)
app.command("score")(score_command)
app.command("tournament")(tournament_command)
app.command("serve")(serve)
app.command("review")(review_command)


def main() -> None:
    """The `salad` console script (and ``python -m salad.cli``): every error is one line."""
    sys.exit(run_app(app))
