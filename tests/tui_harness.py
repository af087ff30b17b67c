"""What the terminal app's tests share: running a test of the app, waiting for its bots, and
reading its screen and widgets."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from typing import Any

from rich.text import Text
from textual.pilot import Pilot
from textual.widget import Widget

from salad.tui.app import SaladApp
from salad.tui.game_screen import GameScreen


async def settle(pilot: Pilot[str], app: SaladApp) -> None:
    """Wait until the bots are done: your turn, a question or page open, or the game over."""
    gs = app.game_screen
    s = app.session
    for _ in range(2000):
        await pilot.pause(0.002)
        if gs.bot_pending:
            continue
        if isinstance(app.screen, GameScreen) and gs.hand_end is not None and not gs.summary_open:
            continue  # the last trick of a hand is on the table; its summary opens next
        if not isinstance(app.screen, GameScreen) or s.human_turn() or s.game.is_over():
            return
    raise AssertionError("the bots never stopped")


def screen_text(app: SaladApp) -> str:
    """What the screen shows, from Textual's SVG screenshot."""
    return app.export_screenshot().replace("&#160;", " ")


def widget_text(app: SaladApp, kind: type[Widget]) -> str:
    """The plain text the game screen's widget of ``kind`` draws."""
    rendered = app.game_screen.query_one(kind).render()
    assert isinstance(rendered, Text)
    return rendered.plain


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run an async test on its own thread and event loop: other test modules, such as the
    browser tests, may leave a loop running on the main thread. (A new thread starts in
    English: a test in another language sets it inside.)"""
    errors: list[BaseException] = []

    def target() -> None:
        try:
            asyncio.run(test())
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]
