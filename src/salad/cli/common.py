"""What every `salad` command shares: option types, the error printer and the extras check.

An option used by more than one command is defined here once; where a command words its help
differently (or has another default), it has its own alias here, next to the common one.
"""

from __future__ import annotations

import functools
import importlib.util
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console

from salad.cli.errors import ParameterSource
from salad.cli.errors import friendly as friendly  # where the commands import it from
from salad.errors import SaladError
from salad.formats.rules import load_ruleset
from salad.locale import N_, _
from salad.ruleset import Ruleset

err = Console(stderr=True)
"""Progress bars and messages that are not the command's output go to stderr."""

F = TypeVar("F", bound=Callable[..., Any])

AllowFallbackOpt = Annotated[
    bool,
    typer.Option(
        "--allow-fallback",
        help=N_(
            "Exit 0 even when an external bot's program failed and the fallback bot made some "
            "of its moves (the summary counts them either way)."
        ),
    ),
]


def refuse_fallback(moves: dict[str, int], allow: bool) -> None:
    """Stop with one line when the fallback bot made moves for an external bot whose program
    failed (``moves``: by the bot it stood in for), unless ``allow``: its figures are not its
    program's."""
    if moves and not allow:
        raise SaladError(
            _(
                "an external bot's program failed ({bots}): the fallback bot made {n} of "
                "its moves, so its figures are not its own (--allow-fallback accepts the run)"
            ).format(bots=", ".join(moves), n=sum(moves.values()))
        )


RUN_LIMIT = 10_000_000
"""The most games (or deals) one run of simulate, match or tournament takes: days of play for
the fastest bots. More is a typo, refused at once (it ran for ever, with an ETA of centuries)."""


# -- lists of names ---------------------------------------------------------------------------
def _no_blank_names(example: str) -> Callable[..., str | None]:
    """A callback refusing a comma-separated option given with a blank name (``''``, ``',,,'``,
    ``'a,,b'``): those used to fall back to the default without a word. A default is not
    checked, only what the command line gave."""

    def check(ctx: typer.Context, param: typer.CallbackParam, value: str | None) -> str | None:
        if value is None or ctx.get_parameter_source(param.name or "") is not (
            ParameterSource.COMMANDLINE
        ):
            return value
        if not value.replace(",", "").strip():
            raise typer.BadParameter(
                _("nothing named in {value!r} (e.g. {example})").format(
                    value=value, example=example
                ),
                ctx,
                param_hint=_hint(param),
            )
        names = value.split(",")
        blank = [i + 1 for i, name in enumerate(names) if not name.strip()]
        if blank:
            raise typer.BadParameter(
                _("name {n} of {count} in {value!r} is blank").format(
                    n=blank[0], count=len(names), value=value
                ),
                ctx,
                param_hint=_hint(param),
            )
        return value

    return check


def _hint(param: typer.CallbackParam) -> str:
    """How Click names an option in a message: ``'--bots' / '-b'``."""
    return " / ".join(repr(o) for o in param.opts)


bot_names_given = _no_blank_names("--bots expert")
topping_names_given = _no_blank_names("--toppings rotten-tomato")


# -- the table: rules, players, toppings, swaps ---------------------------------------------------
RulesOpt = Annotated[str, typer.Option("--rules", "-r", help=N_("Preset name or TOML rules file."))]
OptionalRulesOpt = Annotated[
    str | None,
    typer.Option("--rules", "-r", help=N_("Preset name or TOML rules file (default: canadian).")),
]
"""--rules for a command that must know whether it was given (``score --load``)."""
ToppingsOpt = Annotated[
    str | None,
    typer.Option(
        "--toppings",
        "-t",
        callback=topping_names_given,
        help=N_(
            "Toppings, comma-separated: rotten-tomato, pass-the-veggies, cornucopia, "
            "spicy-pepper, blue-cheese-moon, salad-dressing, or all."
        ),
    ),
]
SwapOpt = Annotated[
    list[str] | None,
    typer.Option("--swap", help=N_("Swap a round in: ROUND=NAME, e.g. 2=no-evens (repeatable).")),
]
PlayersOpt = Annotated[
    int | None,
    typer.Option("--players", "-n", help=N_("Number of players (default: the ruleset's).")),
]
TournamentPlayersOpt = Annotated[
    int | None, typer.Option("--players", "-n", help=N_("Seats per game (default: the ruleset's)."))
]


# -- the bots -------------------------------------------------------------------------------------
BotsOpt = Annotated[
    str,
    typer.Option(
        "--bots",
        "-b",
        callback=bot_names_given,
        help=N_("Bot per seat, comma-separated, or one for all."),
    ),
]
MatchBotsOpt = Annotated[
    str,
    typer.Option(
        "--bots",
        "-b",
        callback=bot_names_given,
        help=N_("One bot per seat, comma-separated, e.g. expert,basic,basic,basic (required)."),
    ),
]
EntrantsOpt = Annotated[
    str,
    typer.Option(
        "--bots",
        "-b",
        callback=bot_names_given,
        help=N_(
            "The entrants, comma-separated, at least one per seat, e.g. "
            "expert,advanced,basic,random; a bot listed twice enters two copies."
        ),
    ),
]
OpponentsOpt = Annotated[
    str | None,
    typer.Option(
        "--bots",
        "-b",
        callback=bot_names_given,
        help=N_(
            "Bots for the other seats in seat order, comma-separated, or one for all "
            "(random, basic, advanced, expert). Default: expert; a resumed game keeps its own."
        ),
    ),
]
"""--bots of `salad play`: everyone but you."""
ThinkTimeOpt = Annotated[
    float | None,
    typer.Option("--move-time", help=N_("Seconds a searching bot may think per move.")),
]
MatchMoveTimeOpt = Annotated[
    float | None,
    typer.Option("--move-time", help=N_("Seconds per move, given to every bot as move_time.")),
]
TournamentMoveTimeOpt = Annotated[
    float | None,
    typer.Option(
        "--move-time",
        help=N_("Seconds per move, given to every bot (timed bots are not reproducible)."),
    ),
]

# -- seeds ----------------------------------------------------------------------------------------
SeedOpt = Annotated[
    int | None, typer.Option("--seed", "-s", help=N_("Seed: the same seed, the same game."))
]
PlaySeedOpt = Annotated[
    int | None, typer.Option("--seed", "-s", help=N_("Seed: the same seed, the same deals."))
]
DealSeedOpt = Annotated[
    int, typer.Option("--seed", "-s", help=N_("Deal d is the game with seed S+d."))
]
ScheduleSeedOpt = Annotated[
    int, typer.Option("--seed", "-s", help=N_("Seed of the schedule, the deals and the bots."))
]

# -- processes ------------------------------------------------------------------------------------
WorkersOpt = Annotated[
    int | None,
    typer.Option("--workers", "-w", help=N_("Processes to play on (default: every core).")),
]
TournamentWorkersOpt = Annotated[
    int | None,
    typer.Option(
        "--workers",
        "-w",
        help=N_(
            "Processes (local; default every core) or tasks at a time (ray; default its CPUs)."
        ),
    ),
]

# -- files ----------------------------------------------------------------------------------------
RecordFile = Annotated[Path, typer.Argument(help=N_("A .json or .jsonl record file."))]
RecordOpt = Annotated[
    Path | None, typer.Option("--record", help=N_("Write every game to this file (JSON Lines)."))
]
JsonOpt = Annotated[
    bool, typer.Option("--json", help=N_("Print the summary as JSON on the last line."))
]


# -- errors ---------------------------------------------------------------------------------------
def require_extra(command: str, extra: str, *modules: str) -> None:
    """Stop `salad COMMAND` with one line if a module of its install extra is missing.

    Raises :class:`SaladError` (one line through :func:`friendly`):
    ``salad serve needs: pip install 'canadian-salad[web]'``. Only looks the modules up (no
    import), so it costs nothing when they are there.

    >>> require_extra("rules", "core", "json")
    >>> require_extra("serve", "web", "no_such_module_here")
    Traceback (most recent call last):
    ...
    salad.errors.SaladError: salad serve needs: pip install 'canadian-salad[web]'
    """
    for name in modules:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):  # a parent package missing, or blocked in sys.modules
            found = False
        if not found:
            raise SaladError(
                _("salad {command} needs: pip install 'canadian-salad[{extra}]'").format(
                    command=command, extra=extra
                )
            )


# -- the ruleset and the players ------------------------------------------------------------------
def make_ruleset(rules: str, toppings: str | None = None, swap: list[str] | None = None) -> Ruleset:
    """A preset or rules file, with the command line's toppings and swaps on top."""
    settings: dict[str, Any] = {}
    if toppings is not None:
        settings["toppings"] = toppings
    if swap:
        settings["swap"] = swap
    return load_ruleset(rules, settings or None)


def players_for(rs: Ruleset, players: int | None) -> int:
    """The player count asked for (or the ruleset's), checked against the ruleset."""
    n = rs.default_players if players is None else players
    rs.check_players(n)
    return n


def _table(
    rules: RulesOpt = "canadian",
    players: PlayersOpt = None,
    toppings: ToppingsOpt = None,
    swap: SwapOpt = None,
) -> tuple[Ruleset, int]:
    """The ruleset and the player count that a game command's shared options ask for."""
    rs = make_ruleset(rules, toppings, swap)
    return rs, players_for(rs, players)


def game_options(command: Callable[..., None]) -> Callable[..., None]:
    """Give a command the options of `_table` (--rules, --players, --toppings, --swap).

    The command's first two parameters take the ruleset and the player count built from them;
    Typer sees (from the signature set here) those four options ahead of the command's others.
    """
    shared = list(inspect.signature(_table, eval_str=True).parameters.values())
    own = list(inspect.signature(command, eval_str=True).parameters.values())[2:]

    @functools.wraps(command)
    def wrapper(**options: Any) -> None:
        table = _table(**{p.name: options.pop(p.name) for p in shared})
        command(*table, **options)

    params = [*shared, *own]
    wrapper.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    wrapper.__annotations__ = {p.name: p.annotation for p in params}
    return wrapper
