"""The widgets of the game screen. Each draws what a function of :mod:`salad.tui.render` gives
it (through the screen, which knows the state), so a widget holds no game logic."""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual import events
from textual.app import RenderResult
from textual.binding import Binding
from textual.geometry import Size
from textual.widget import Widget

from salad.cards import Card
from salad.locale import _, current, pgettext, using
from salad.tui.render import Span


class Speaking:
    """A Textual node (put first among its bases) whose keys' descriptions (``N_("Help")`` in
    its ``BINDINGS``) show in the language current when it is made.

    Textual reads ``BINDINGS`` when a class is made, so a node is made of a subclass of its class
    (one per language and keys moved, made once) whose ``BINDINGS`` are its own and its bases',
    translated, with the keys :meth:`moved_keys` names moved."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        moved = tuple(sorted(cls.moved_keys(*args, **kwargs).items()))
        return super().__new__(speaking(cls, current().code, moved))

    @classmethod
    def moved_keys(cls, *args: Any, **kwargs: Any) -> dict[str, str]:
        """The keys to bind elsewhere for a node made with these arguments: none."""
        return {}


def described(label: str) -> str:
    """A key's label in the current language: its words as a key's (``NP_("key", ...)``),
    else as anywhere."""
    if not label:
        return label
    as_key = pgettext("key", label)
    return as_key if as_key != label else _(label)


SPOKEN: dict[tuple[type[Any], str, tuple[tuple[str, str], ...]], type[Any]] = {}
"""The subclasses :func:`speaking` made, by class, language and keys moved."""


def speaking(cls: type[Any], code: str, moved: tuple[tuple[str, str], ...]) -> type[Any]:
    """``cls`` with its keys described in the language ``code`` and ``moved`` (key, new key):
    a subclass with every binding of its bases and its own (those given as :class:`Binding`),
    inheriting none (a moved key is not kept under its old one too)."""
    if getattr(cls, "speaks", None) == (code, moved):
        return cls
    if (cls, code, moved) in SPOKEN:
        return SPOKEN[cls, code, moved]
    keys = dict(moved)
    merged: dict[str, list[Any]] = {}  # as Textual merges: a base's key replaces an earlier one's
    with using(code):
        for base in reversed(cls.__mro__):
            own: dict[str, list[Any]] = {}
            for b in base.__dict__.get("BINDINGS", []):
                if isinstance(b, Binding):
                    b = dataclasses.replace(
                        b, key=keys.get(b.key, b.key), description=described(b.description)
                    )
                    own.setdefault(b.key, []).append(b)
                else:
                    own.setdefault(str(b[0]), []).append(b)
            merged.update(own)
    bindings = [b for group in merged.values() for b in group]
    namespace = {"BINDINGS": bindings, "speaks": (code, moved), "__module__": cls.__module__}
    made: type[Any] = types.new_class(
        cls.__name__, (cls,), {"inherit_bindings": False}, lambda ns: ns.update(namespace)
    )
    SPOKEN[cls, code, moved] = made
    return made


class InfoBar(Widget):
    """The game, the hand and the trump; then the round and its penalties."""

    DEFAULT_CSS = """
    InfoBar { height: auto; }
    """

    def __init__(self, lines: Callable[[int], list[Text]]) -> None:
        super().__init__()
        self.lines = lines
        """The lines for a width."""

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.lines(width))

    def render(self) -> RenderResult:
        return Text("\n").join(self.lines(self.size.width))


class TableView(Widget):
    """The table: every seat as a small box around the trick, you at the bottom."""

    DEFAULT_CSS = """
    TableView { height: 1fr; min-height: 9; }
    """

    def __init__(self, draw: Callable[[int, int], Text]) -> None:
        super().__init__()
        self.draw = draw
        """The table for a width and a height."""

    def render(self) -> RenderResult:
        return self.draw(self.size.width, self.size.height)


class HandView(Widget):
    """Your cards, one row per suit; the legal ones bright, the chosen one yellow."""

    DEFAULT_CSS = """
    HandView { height: auto; min-height: 2; }
    """

    def __init__(
        self,
        draw: Callable[[int], tuple[list[Text], list[Span]]],
        click: Callable[[Card], None],
    ) -> None:
        super().__init__()
        self.draw = draw
        """The lines for a width, and where each card is drawn."""
        self.click = click
        """Called with the card clicked."""
        self.spans: list[Span] = []
        """(row, first column, past the last column, card) of every card shown."""

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.draw(width)[0])

    def render(self) -> RenderResult:
        lines, spans = self.draw(self.size.width)
        self.spans = spans
        return Text("\n").join(lines)

    def on_click(self, event: events.Click) -> None:
        for row, x0, x1, card in self.spans:
            if event.y == row and x0 <= event.x < x1:
                self.click(card)
                return


class MessageBar(Widget):
    """The latest news and what to do now."""

    DEFAULT_CSS = """
    MessageBar { height: 2; }
    """

    def __init__(self, draw: Callable[[int], Text]) -> None:
        super().__init__()
        self.draw = draw
        """The two lines for a width."""

    def render(self) -> RenderResult:
        return self.draw(self.size.width)
