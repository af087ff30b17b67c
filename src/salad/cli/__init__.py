"""The `salad` command: one Typer app assembled from the command modules.

Each command lives in the module of its concern (:mod:`~salad.cli.game`: rules, simulate, demo,
match; :mod:`~salad.cli.records`; :mod:`~salad.cli.play`; :mod:`~salad.cli.score`;
:mod:`~salad.cli.tournament`; :mod:`~salad.cli.serve`); what they share (option types, the error
printer, the extras check) is in :mod:`~salad.cli.common`.

The command speaks the language of ``salad --lang CODE`` or else of the environment
(``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``): :func:`main` chooses it before
:func:`make_app` builds the app, since Typer reads the help texts then
(:mod:`~salad.cli.help`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Annotated, Any

import typer

from salad import __version__
from salad.cli.common import make_ruleset
from salad.cli.errors import click_exceptions, run_app
from salad.cli.game import demo, match, rules, simulate
from salad.cli.library_words import speak
from salad.cli.play import play_command
from salad.cli.records import make_record_app
from salad.cli.review import review_command
from salad.cli.score import score_command
from salad.cli.serve import serve
from salad.cli.tournament import tournament_command
from salad.locale import LANGUAGES, N_, PSEUDO, _, from_environment, language, use

__all__ = ["app", "language_asked", "main", "make_app", "make_ruleset"]


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"salad {__version__}")
        raise typer.Exit


def _choose_language(value: str | None) -> str | None:
    if value is not None:
        try:
            language(value)
        except ValueError:
            raise click_exceptions.UsageError(
                _("--lang: unknown language {code!r}: choose {languages}").format(
                    code=value, languages=", ".join([*LANGUAGES, PSEUDO.code])
                )
            ) from None
        use(value)
        speak(value)
    return value


def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_show_version,
            is_eager=True,
            help=N_("Show the version and exit."),
        ),
    ] = False,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            metavar="CODE",
            callback=_choose_language,
            is_eager=True,
            help=N_(
                "Language of the command: en (English) or fr (French). "
                "Default: from LANGUAGE, LC_ALL, LC_MESSAGES or LANG."
            ),
        ),
    ] = None,
) -> None:
    pass


TITLE = N_("Canadian Salad (Fruit Salad, Wisconsin Scramble) and its variants.")


def make_app() -> typer.Typer:
    """The `salad` app; its help texts are put in the current language when it runs
    (:func:`salad.cli.errors.run_app`)."""
    app = typer.Typer(
        help=TITLE,
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )
    # -h as well as --help, for every command (Click's contexts inherit it from the app's).
    app.callback(help=TITLE, context_settings={"help_option_names": ["-h", "--help"]})(_options)
    app.add_typer(make_record_app(), name="record")
    commands: dict[str, tuple[Callable[..., Any], str]] = {
        "rules": (
            rules,
            N_("Show a ruleset in words: deck, removals, rounds, penalties and the checksum."),
        ),
        "simulate": (
            simulate,
            N_("Play many games between bots and report the average points of each seat."),
        ),
        "demo": (
            demo,
            N_(
                "Watch one whole game between bots: the score sheet after every hand, and with "
                "--tricks every deal and every trick as well."
            ),
        ),
        "match": (
            match,
            N_("Duplicate match: every deal replayed with the bots rotated through every seat."),
        ),
        "play": (
            play_command,
            N_(
                "Play a whole game against bots: in a terminal "
                "app, or with --plain as lines of text."
            ),
        ),
        "score": (
            score_command,
            N_(
                "Keep score at a table playing with real cards: enter what each player took "
                "after every hand; the sheet checks it, scores it and keeps the running totals. "
                "With --group, attach a finished sheet to a group of the site instead."
            ),
        ),
        "tournament": (
            tournament_command,
            N_(
                "Tournament between bots: every seat and every pairing in turn, duplicate deals, "
                "OpenSkill ratings, a leaderboard, CSV/JSONL files and plots in --out."
            ),
        ),
        "serve": (serve, N_("Run the web server: lobby, tables, bots and the browser client.")),
        "review": (
            review_command,
            N_(
                "Review a finished game: for each choice of a seat (default seat 0), the points "
                "the expert's search expects after every distinct legal choice, from what the "
                "seat knew then; the cost of the choice made, labelled good, inaccuracy, mistake "
                "or blunder."
            ),
        ),
    }
    for name, (command, help_text) in commands.items():
        app.command(name, help=help_text)(command)
    return app


app = make_app()
"""The app in English (its help texts as written), for tests and ``typer.testing``."""


def language_asked(args: Sequence[str]) -> str:
    """The language a command line asks for: its ``--lang`` (before the command's name), else
    the environment's. A ``--lang`` naming no language is left to the app to refuse.

    >>> language_asked(["--lang", "fr", "rules"]), language_asked(["--lang=en-XA"])
    ('fr', 'en-XA')
    """
    for i, arg in enumerate(args):
        value = None
        if arg == "--lang" and i + 1 < len(args):
            value = args[i + 1]
        elif arg.startswith("--lang="):
            value = arg.partition("=")[2]
        elif not arg.startswith("-"):
            break
        if value is not None:
            try:
                return language(value).code
            except ValueError:
                break
    return from_environment()


def main() -> None:
    """The `salad` console script (and ``python -m salad.cli``): every error is one line."""
    use(language_asked(sys.argv[1:]))
    sys.exit(run_app(make_app()))
