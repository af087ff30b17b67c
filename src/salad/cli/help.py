"""The `salad` command's help in the language chosen (``salad --lang fr --help``).

The help texts (a command's ``help=``, an option's ``help=``) are written in English and marked
with ``N_()`` where they are defined: Typer reads them once, when it builds the Click commands.
:func:`translated` then puts each one in the current language, so the language must be chosen
before (:func:`salad.cli.main` does, from ``--lang`` or the environment). What Typer and its
Click write themselves is translated here where they let us: the usage line's
``Usage:``, the help option's text and the titles of the help's panels (``Options``,
``Arguments``, ``Commands``); their ``[default: ...]`` and ``[required]`` marks and the
parser's own errors (``No such option``) through gettext's global domain
(:mod:`salad.cli.library_words`).
"""

from __future__ import annotations

from typing import Any, cast

from click.core import Command, Context
from click.formatting import HelpFormatter

from salad.locale import _

__all__ = ["translated"]

PANEL = "rich_help_panel"
"""The attribute where Typer reads the title of the panel a parameter or command is shown in."""


class _Formatter(HelpFormatter):
    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        # TRANSLATORS: the first words of a command's help, before "salad rules [OPTIONS]"
        super().write_usage(prog, args, _("Usage: ") if prefix is None else prefix)


class _Context(Context):
    formatter_class = _Formatter


def _text(text: Any) -> Any:
    return _(text) if isinstance(text, str) and text else text


def translated(command: Command, parent: Context | None = None) -> Command:
    """``command`` (and every command under it), its help texts in the current language;
    ``parent``: the context of the command above it (its help option's names, ``-h``, come
    from there, as they will when it runs)."""
    command.help = _text(command.help)
    command.short_help = _text(command.short_help)
    command.context_class = _Context
    if command.options_metavar == "[OPTIONS]":
        command.options_metavar = _("[OPTIONS]")
    if getattr(command, "subcommand_metavar", None) == "COMMAND [ARGS]...":
        # TRANSLATORS: in the usage line of a command that has commands
        cast(Any, command).subcommand_metavar = _("COMMAND [ARGS]...")
    ctx = Context(command, parent=parent, **command.context_settings)
    help_option = command.get_help_option(ctx)  # made once: with the names it will have
    for param in [*command.params, *([help_option] if help_option is not None else [])]:
        if param is help_option:
            cast(Any, param).help = _("Show this message and exit.")
        elif hasattr(param, "help"):
            param.help = _text(param.help)
        if getattr(param, PANEL, None) is None:
            title = _("Arguments") if param.param_type_name == "argument" else _("Options")
            setattr(param, PANEL, title)
        else:
            setattr(param, PANEL, _text(getattr(param, PANEL)))
    for sub in getattr(command, "commands", {}).values():
        translated(sub, ctx)
        setattr(sub, PANEL, _text(getattr(sub, PANEL, None)) or _("Commands"))
    return command
