"""What the terminal app's tests share: running a test of the app, and reading a widget."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from typing import Any

from rich.text import Text
from textual.widget import Widget

from salad.tui.app import SaladApp


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
