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

from click.core import Argument, Command, Context, Parameter
from click.formatting import HelpFormatter

from salad.locale import N_, _

__all__ = ["translated"]

PANEL = "rich_help_panel"
"""The attribute where Typer reads the title of the panel a parameter or command is shown in."""

METAVARS = (
    *(N_("TEXT"), N_("INTEGER"), N_("FLOAT"), N_("BOOLEAN"), N_("PATH")),
    *(N_("INTEGER RANGE"), N_("FLOAT RANGE")),
    *(N_("RULESET"), N_("RECORD"), N_("FILE")),
)
"""The words Click shows for a value from its type's or its argument's name (``--players
INTEGER``, ``salad rules [RULESET]``), marked for the catalog: :func:`_metavar` shows them in
the current language."""


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
        _metavar(param, ctx)
        if getattr(param, PANEL, None) is None:
            title = _("Arguments") if param.param_type_name == "argument" else _("Options")
            setattr(param, PANEL, title)
        else:
            setattr(param, PANEL, _text(getattr(param, PANEL)))
    for sub in getattr(command, "commands", {}).values():
        translated(sub, ctx)
        setattr(sub, PANEL, _text(getattr(sub, PANEL, None)) or _("Commands"))
    return command


def _metavar(param: Parameter, ctx: Context) -> None:
    """``param``'s word for its value in the current language: its own ``metavar`` translated,
    else the one Click would make from its type's name (an option's) or its name (an
    argument's), set only where the language has another word for it."""
    if param.nargs != 1:
        return
    if param.metavar is not None:
        param.metavar = _text(param.metavar)
        return
    if isinstance(param, Argument):
        word = (param.name or "").upper()
    elif param.type.get_metavar(param=param, ctx=ctx) is None:
        word = param.type.name.upper()
    else:  # a choice's values, a date's formats: words of the values themselves
        return
    if word and _(word) != word:
        optional = isinstance(param, Argument) and not param.required
        param.metavar = f"[{_(word)}]" if optional else _(word)
