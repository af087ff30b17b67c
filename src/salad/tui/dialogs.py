"""The dialogs of the terminal app: a page of text, a question with a few answers, and the
file to save in."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.cells import cell_len
from rich.console import RenderableType
from rich.measure import Measurement
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static


class InfoScreen(ModalScreen[str | None]):
    """A page of text over the game (help, score sheet, last trick, hand over, game over)."""

    DEFAULT_CSS = """
    InfoScreen { align: center middle; }
    InfoScreen > Vertical {
        width: 76; height: auto; max-height: 100%;
        border: round $accent; background: $surface; padding: 0 1;
    }
    InfoScreen VerticalScroll { height: auto; max-height: 19; }
    InfoScreen .close { color: $text-muted; margin-top: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,space", "close", "Close"),
    ]

    def __init__(
        self,
        title: str,
        body: RenderableType,
        close_text: str = "Enter or Esc: back to the game",
        keys: dict[str, str] | None = None,
    ) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.close_text = close_text
        self.keys = keys or {}
        """Extra keys that close the page with a result."""

    def compose(self) -> ComposeResult:
        with Vertical() as box_:
            box_.border_title = self.title_text
            box_.styles.width = self.box_width()
            with VerticalScroll():
                yield Static(self.body)
            yield Static(self.close_text, classes="close")

    def box_width(self) -> int:
        """Wide enough for the page (and its title), and no wider than the screen."""
        console = self.app.console
        limit = max(self.app.size.width - 4, 20)
        widest = Measurement.get(console, console.options.update_width(limit), self.body).maximum
        wanted = max(widest, cell_len(self.title_text) + 4, cell_len(self.close_text))
        return min(wanted + 6, limit)  # borders, padding and a scroll bar

    def action_close(self) -> None:
        self.dismiss(None)

    def on_key(self, event: events.Key) -> None:
        if event.key in self.keys:
            event.stop()
            self.dismiss(self.keys[event.key])


class ChoiceScreen(ModalScreen[int | None]):
    """A question with a few answers, as buttons with keys: trump, high or low, quit."""

    DEFAULT_CSS = """
    ChoiceScreen { align: center middle; }
    ChoiceScreen > Vertical {
        width: 60; max-width: 100%; height: auto; border: round $accent;
        background: $surface; padding: 0 1;
    }
    ChoiceScreen Horizontal { height: auto; width: auto; margin-top: 1; }
    ChoiceScreen Button { margin: 0 1 0 0; min-width: 10; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("left", "app.focus_previous", show=False),
        Binding("right", "app.focus_next", show=False),
    ]

    def __init__(
        self,
        title: str,
        question: str,
        options: Sequence[tuple[str, str]],
        cancel: bool = True,
    ) -> None:
        """``options``: (key, label) pairs; the answer is the index of the one chosen."""
        super().__init__()
        self.title_text = title
        self.question = question
        self.options = list(options)
        self.cancel = cancel

    def compose(self) -> ComposeResult:
        buttons = sum(cell_len(label) + 12 for _, label in self.options)
        with Vertical() as box_:
            box_.border_title = self.title_text
            box_.styles.width = max(50, min(buttons + 4, 78))
            yield Static(self.question)
            with Horizontal():
                for i, (key, label) in enumerate(self.options):
                    shown = key.split("/")[0]
                    yield Button(Text(f"{label} ({shown})"), id=f"option-{i}", variant="primary")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id and event.button.id.startswith("option-"):
            self.dismiss(int(event.button.id.removeprefix("option-")))

    def on_key(self, event: events.Key) -> None:
        char = (event.character or "").lower()
        for i, (key, _) in enumerate(self.options):
            if char and char in key.lower().split("/"):
                event.stop()
                self.dismiss(i)
                return

    def action_cancel(self) -> None:
        if self.cancel:
            self.dismiss(None)


class SaveScreen(ModalScreen[str | None]):
    """Asks for the file to save the game in."""

    DEFAULT_CSS = """
    SaveScreen { align: center middle; }
    SaveScreen > Vertical {
        width: 70; height: auto; border: round $accent; background: $surface; padding: 0 1;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, default: str) -> None:
        super().__init__()
        self.default = default

    def compose(self) -> ComposeResult:
        with Vertical() as box_:
            box_.border_title = "Save the game"
            yield Static("File to save in (a salad-record/1 file); Enter saves, Esc cancels:")
            yield Input(value=self.default, id="path")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
