"""Bots by name: the built-in ones, and those other packages (or salad's higher floors) register
under the entry-point group ``salad.bots`` (see docs/external-bots.md, "A bot in a package").

A name resolves to a factory, ``factory(seed, **options) -> Bot``; a bot's module loads only when
the bot is first asked for (OpenSpiel's, say, is heavy)::

    >>> named_factory("random").__name__
    'RandomBot'
    >>> named_factory("nonesuch")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    salad.errors.SaladError: bots: unknown bot 'nonesuch' (known: random, basic, advanced, ...)
"""

from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points

from salad.bots.bot import BotFactory
from salad.errors import SaladError
from salad.locale import N_, _

GROUP = "salad.bots"
"""The entry-point group other packages list their bots under."""

REGISTRY: dict[str, str] = {
    "random": "salad.bots.random_bot:RandomBot",
    "basic": "salad.bots.basic:BasicBot",
    "advanced": "salad.bots.expert:AdvancedBot",
    "expert": "salad.bots.expert:ExpertBot",
    "oracle": "salad.bots.oracle:OracleBot",
}
"""The built-in bots: name → ``"module:factory"`` (as an entry point's value)."""

REFERENCE_ONLY: frozenset[str] = frozenset({"oracle"})
"""Bots for the lab's measurements only (the oracle sees every hand): refused at any table with
a human and never offered by the server or the terminal app."""


WORDS: dict[str, str] = {
    "random": N_("random"),
    "basic": N_("basic"),
    "advanced": N_("advanced"),
    "expert": N_("expert"),
}
"""The table bots' names as words of the catalogue (the web client's level names too)."""


def bot_word(name: str) -> str:
    """A bot's name as a word of the current language, in lower case: a table bot's from the
    catalogue, another's its name with spaces for its dashes::

        >>> bot_word("Basic"), bot_word("openspiel-ismcts")
        ('basic', 'openspiel ismcts')
    """
    key = name.strip().lower()
    return _(WORDS[key]) if key in WORDS else key.replace("-", " ")


def reference_only(name: str) -> bool:
    """Whether the bot ``name`` is for the lab only (:data:`REFERENCE_ONLY`)."""
    return name.strip().lower() in REFERENCE_ONLY


def _registered() -> dict[str, EntryPoint]:
    """The bots installed packages register, by lower-case name (built-ins win a clash)."""
    found: dict[str, EntryPoint] = {}
    for ep in entry_points(group=GROUP):
        key = ep.name.strip().lower()
        if key not in REGISTRY:
            found.setdefault(key, ep)
    return found


def bot_names() -> list[str]:
    """Every bot name known here: the built-ins, then the registered ones."""
    return [*REGISTRY, *_registered()]


def named_factory(name: str) -> BotFactory:
    """The factory of a built-in or registered bot; unknown names are refused in one line."""
    key = name.strip().lower()
    if key in REGISTRY:
        entry = EntryPoint(name=key, value=REGISTRY[key], group=GROUP)
    else:
        registered = _registered()
        if key not in registered:
            known = ", ".join([*REGISTRY, *registered])
            raise SaladError(f"bots: unknown bot {name!r} (known: {known})")
        entry = registered[key]
    try:
        factory: BotFactory = entry.load()
    except ImportError as exc:
        raise SaladError(f"bots: {name} is not available here ({exc})") from None
    return factory
