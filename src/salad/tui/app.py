"""The terminal app of ``salad play``: one human against bots, in 80x24 or more.

The screen, top to bottom: the game and the hand (round, penalties, trump), the table (every seat
with the card it played to this trick, its points this hand and in all, the seat to move in
yellow), your hand sorted by suit with the legal cards bright, the latest news and a prompt, and
the keys (:mod:`salad.tui.game_screen`; drawn by :mod:`salad.tui.render`).

This is the one module the ``salad play`` command imports lazily: Textual is the optional
``tui`` extra.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import App
from textual.binding import Binding, BindingType

from salad.locale import N_, _
from salad.tui.dialogs import QUIT_TITLE, ChoiceScreen, SaveScreen
from salad.tui.game_screen import GameScreen
from salad.tui.session import Session
from salad.tui.widgets import Speaking


class SaladApp(Speaking, App[str]):
    """``salad play``: the game screen over a plain background."""

    TITLE = "salad"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", N_("Quit"), priority=True),
        # Before any screen's own keys: the game screen saves; over a box, this says why
        # nothing is saved (the key was silent there).
        Binding("ctrl+s", "save", show=False, priority=True),
    ]

    def __init__(self, session: Session, delay: float = 0.6, news: str = "") -> None:
        super().__init__()
        self.session = session
        self.delay = delay
        self.game_screen = GameScreen(session, delay)
        if news:
            self.game_screen.news = news

    def on_mount(self) -> None:
        self.push_screen(self.game_screen)

    def action_save(self) -> None:
        if isinstance(self.screen, GameScreen):
            self.game_screen.action_save()
        elif not isinstance(self.screen, SaveScreen):
            self.notify(_("Close this box first (Esc), then Ctrl+S saves the game."))

    async def action_quit(self) -> None:
        if isinstance(self.screen, GameScreen):
            self.game_screen.request_quit()
        elif isinstance(self.screen, ChoiceScreen) and self.screen.title_text == QUIT_TITLE():
            self.exit(self.game_screen.exit_message())
        else:
            self.game_screen.request_quit()
