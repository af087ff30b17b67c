"""Command-line option types shared by every `salad` command that starts a game."""

from __future__ import annotations

from typing import Annotated

import typer

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
