"""Command-line option types shared by every `salad` command that starts a game."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console

from salad.errors import SaladError
from salad.formats.rules import load_ruleset
from salad.ruleset import Ruleset

RulesOpt = Annotated[str, typer.Option("--rules", "-r", help="Preset name or TOML rules file.")]
ToppingsOpt = Annotated[
    str | None,
    typer.Option(
        "--toppings",
        "-t",
        help="Toppings, comma-separated: rotten-tomato, pass-the-veggies, cornucopia, "
        "spicy-pepper, blue-cheese-moon, salad-dressing, or all.",
    ),
]
SwapOpt = Annotated[
    list[str] | None,
    typer.Option("--swap", help="Swap a round in: ROUND=NAME, e.g. 2=no-evens (repeatable)."),
]

err = Console(stderr=True)
F = TypeVar("F", bound=Callable[..., Any])

PlayersOpt = Annotated[
    int | None, typer.Option("--players", "-n", help="Number of players (default: the ruleset's).")
]
SeedOpt = Annotated[
    int | None, typer.Option("--seed", "-s", help="Seed: the same seed, the same game.")
]

BotsOpt = Annotated[
    str, typer.Option("--bots", "-b", help="Bot per seat, comma-separated, or one for all.")
]
RecordFile = Annotated[Path, typer.Argument(help="A .json or .jsonl record file.")]
RecordOpt = Annotated[
    Path | None, typer.Option("--record", help="Write every game to this file (JSON Lines).")
]
JsonOpt = Annotated[
    bool, typer.Option("--json", help="Print the summary as JSON on the last line.")
]


def friendly(func: F) -> F:
    """Turn every bad-input error into one line on stderr and exit status 1."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except SaladError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(1) from None
        except OSError as exc:
            where = f" {exc.filename}:" if exc.filename else ""
            typer.echo(f"error:{where} {exc.strerror or exc}", err=True)
            raise typer.Exit(1) from None

    return wrapper  # type: ignore[return-value]


def make_ruleset(rules: str, toppings: str | None = None, swap: list[str] | None = None) -> Ruleset:
    """A preset or rules file, with the command line's toppings and swaps on top."""
    settings: dict[str, Any] = {}
    if toppings:
        settings["toppings"] = toppings
    if swap:
        settings["swap"] = swap
    return load_ruleset(rules, settings or None)


def players_for(rs: Ruleset, players: int | None) -> int:
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
