"""A ``cmd:PROGRAM [ARGS]`` bot name → the factory of its :class:`ExternalBot`."""

from __future__ import annotations

import functools
from collections.abc import Callable

from salad.bots.external.bot import ExternalBot
from salad.bots.external.program import check_program, parse_command


def external_factory(name: str) -> Callable[..., ExternalBot]:
    """The factory for a ``cmd:...`` bot name (the program is checked, not run)."""
    argv = parse_command(name)
    check_program(argv)
    return functools.partial(ExternalBot, command=argv)
