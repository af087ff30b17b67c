"""One line per error, whatever went wrong: bad option values, bad files, a closed pipe, Ctrl-C.

:func:`friendly` wraps each command (its own errors); :func:`run_app` runs the whole app so that
Click's usage errors (an unknown option, a value that is not a number) come out in the same
style, ``error: ...`` on one line of stderr, instead of a boxed usage block.
"""

from __future__ import annotations

import contextvars
import functools
import re
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import typer
from click import core as click_core
from click import exceptions as click_exceptions
from click.core import ParameterSource

from salad.cli.help import translated
from salad.cli.library_words import library_words
from salad.errors import SaladError
from salad.locale import _, current

__all__ = ["ParameterSource", "click_exceptions", "friendly", "one_line", "run_app", "usage_error"]

F = TypeVar("F", bound=Callable[..., Any])

USAGE_STATUS = 2
"""Exit status of a command line Click cannot parse (as Click has it)."""
INTERRUPTED_STATUS = 130


def one_line(text: str) -> str:
    """``text`` with every run of whitespace, line breaks included, as one space; a
    no-break space (French typography, before a colon) is kept."""
    return " ".join(_SPACES.split(str(text).strip(" \t\n\r\f\v")))


_SPACES = re.compile(r"[ \t\n\r\f\v]+")


def friendly(func: F) -> F:
    """Turn every bad-input error into one line on stderr and exit status 1."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except SaladError as exc:
            typer.echo(error_line(one_line(str(exc))), err=True)
            raise typer.Exit(1) from None
        except BrokenPipeError:
            raise  # the reader left (``| head``): not an error, see run_app
        except RecursionError:
            typer.echo(error_line(_("the input is nested too deeply to read")), err=True)
            raise typer.Exit(1) from None
        except OSError as exc:
            what = one_line(exc.strerror or str(exc))
            typer.echo(error_line(f"{exc.filename}: {what}" if exc.filename else what), err=True)
            raise typer.Exit(1) from None

    return wrapper  # type: ignore[return-value]


def error_line(message: str) -> str:
    """The line that tells of an error: ``error: MESSAGE`` (``erreur : ...`` in French)."""
    return _("error: {message}").format(message=message)


def run_app(app: typer.Typer, args: Sequence[str] | None = None) -> int:
    """Run the `salad` command line; its exit status. Every error is one line on stderr.

    Its help is in the current language; a ``--lang`` on the command line changes the language
    of this run only (it runs in a copy of the current context)."""
    return contextvars.copy_context().run(_run_app, app, args)


def _run_app(app: typer.Typer, args: Sequence[str] | None) -> int:
    command = translated(typer.main.get_command(app))
    with library_words(current().code):  # Click's own words too (`--lang` may change them)
        return _main(command, args)


def _main(command: click_core.Command, args: Sequence[str] | None) -> int:
    try:
        status = command.main(args=args, prog_name="salad", standalone_mode=False)
    except click_exceptions.NoArgsIsHelpError as exc:
        # Its message is the help; Typer's Rich help has printed itself while it was made
        # (its message is then empty): said once either way.
        if exc.format_message().strip():
            typer.echo(exc.format_message())
        return 0
    except click_exceptions.ClickException as exc:
        typer.echo(usage_error(exc), err=True)
        return exc.exit_code
    except typer.Abort:
        typer.echo("", err=True)
        return 1
    except KeyboardInterrupt:
        typer.echo(_("interrupted"), err=True)
        return INTERRUPTED_STATUS
    # A closed pipe (``salad record show F | head``) ends the run quietly: Typer's main
    # catches it and exits 1 with stdout and stderr pacified, once friendly() let it through.
    return status if isinstance(status, int) else 0


def usage_error(exc: click_exceptions.ClickException) -> str:
    """Click's message about a command line, on one line, with where to read more.

    >>> usage_error(click_exceptions.UsageError("No such option: --colour Did you mean --color?"))
    'error: no such option: --colour Did you mean --color?'
    """
    message = one_line(exc.format_message()).rstrip(".")
    message = message[:1].lower() + message[1:]
    ctx = getattr(exc, "ctx", None)
    if ctx is None:
        return error_line(message)
    return error_line(
        _("{message} (see {command} --help)").format(message=message, command=ctx.command_path)
    )
