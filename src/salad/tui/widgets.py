"""The widgets of the game screen. Each draws what a function of :mod:`salad.tui.render` gives
it (through the screen, which knows the state), so a widget holds no game logic."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from rich.text import Text
from textual import events
from textual.app import RenderResult
from textual.dom import DOMNode
from textual.geometry import Size
from textual.widget import Widget

from salad.cards import Card
from salad.locale import _
from salad.tui.render import Span


def translate_bindings(node: DOMNode) -> None:
    """Show the descriptions of ``node``'s keys (``N_("Help")`` in its ``BINDINGS``) in the
    current language: the class is built once, the language is known when the app is."""
    table = node._bindings.key_to_bindings
    for key, bindings in table.items():
        table[key] = [
            dataclasses.replace(b, description=_(b.description)) if b.description else b
            for b in bindings
        ]


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
