"""The dialogs of the terminal app: a page of text, a question with a few answers, and the
file to save in; and the questions and pages the game screen opens, built from them."""

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

from salad.cards import Card, Deck
from salad.locale import N_, _
from salad.locale.cards import suit_letter
from salad.moves import Move, trump_suit
from salad.tui.pages import hand_over_page, result_page
from salad.tui.session import Session
from salad.tui.widgets import Speaking
from salad.tui.words import card_label, cards_in_order


class InfoScreen(Speaking, ModalScreen[str | None]):
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
        Binding("escape,enter,space", "close", N_("Close")),
    ]

    def __init__(
        self,
        title: str,
        body: RenderableType,
        close_text: str = "",
        keys: dict[str, str] | None = None,
    ) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.close_text = close_text or _("Enter or Esc: back to the game")
        self.keys = keys or {}
        """Extra keys that close the page with a result."""

    def compose(self) -> ComposeResult:
        with Vertical() as box_:
            box_.border_title = self.title_text
            box_.styles.width = self.box_width()
            with VerticalScroll():
                yield Static(self.body)
            yield Static(Text(self.close_text), classes="close")

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


class ChoiceScreen(Speaking, ModalScreen[int | None]):
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
        Binding("escape", "cancel", N_("Cancel")),
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
            yield Static(Text(self.question))
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
        for i, (key, _label) in enumerate(self.options):
            if char and char in key.lower().split("/"):
                event.stop()
                self.dismiss(i)
                return

    def action_cancel(self) -> None:
        if self.cancel:
            self.dismiss(None)


class SaveScreen(Speaking, ModalScreen[str | None]):
    """Asks for the file to save the game in."""

    DEFAULT_CSS = """
    SaveScreen { align: center middle; }
    SaveScreen > Vertical {
        width: 70; height: auto; border: round $accent; background: $surface; padding: 0 1;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, default: str) -> None:
        super().__init__()
        self.default = default

    def compose(self) -> ComposeResult:
        with Vertical() as box_:
            box_.border_title = _("Save the game")
            yield Static(
                Text(_("File to save in (a salad-record/2 file); Enter saves, Esc cancels:"))
            )
            yield Input(value=self.default, id="path")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


# -- the questions and pages of the game -------------------------------------------------------


def declare_dialog(deck: Deck, card: Card) -> ChoiceScreen:
    """High (answer 0) or low (1) for a Wild that may be declared."""
    name = card_label(deck, card)
    return ChoiceScreen(
        _("Play {card}").format(card=name),
        _(
            "Declare {card} high (it beats every card of the led suit) or low (it loses to them)?"
        ).format(card=name),
        # TRANSLATORS: the keys of the answers High and Low: h or +, l or -
        [(_("h/+"), _("High")), (_("l/-"), _("Low"))],
    )


def trump_dialog(session: Session, legal: Sequence[Move]) -> ChoiceScreen:
    """The trump suit, among the ``legal`` trump choices (the answer is an index of them)."""
    s = session
    deck = s.deck
    options = []
    for i, move in enumerate(legal):
        suit = deck.suits[trump_suit(deck, move)]
        letter = suit_letter(suit).lower()
        options.append((f"{i + 1}/{letter}", f"{suit.symbol} {_(suit.name)}"))
    mine = " ".join(card_label(deck, c) for c in cards_in_order(deck, s.view().hand))
    question = _(
        "You are in last place, so you pick the trump suit for hand {number}: {round}."
    ).format(number=s.game.hand_index + 1, round=_(s.game.round_name))
    return ChoiceScreen(
        _("Pick the trump suit"),
        question + "\n" + _("Your cards: {cards}").format(cards=mine),
        options,
        cancel=False,
    )


def quit_dialog() -> ChoiceScreen:
    """Save and quit (answer 0), quit (1), or keep playing (2)."""
    return ChoiceScreen(
        QUIT_TITLE(),
        _(
            "The game is not finished. It is kept (salad play --continue carries on with it); "
            "save it to a file of yours first?"
        ),
        # TRANSLATORS: s and q are the keys of the first two answers
        [(_("s"), _("Save and quit")), (_("q"), _("Quit")), ("esc", _("Keep playing"))],
    )


def QUIT_TITLE() -> str:  # noqa: N802 (a constant in the current language)
    """The title of the quit question (the app knows it by it)."""
    return _("Quit")


def hand_over_dialog(session: Session, index: int) -> InfoScreen:
    """Hand ``index`` is over; Enter deals the next."""
    g = session.game
    hand = g.rules.hands[index]
    return InfoScreen(
        _("Hand {number} of {total}: {round} is over").format(
            number=index + 1, total=len(g.rules.hands), round=_(hand.round.name)
        ),
        hand_over_page(session, index),
        _("Enter: deal the next hand"),
    )


def result_dialog(session: Session) -> InfoScreen:
    """The game is over: its result, with keys to quit (``"quit"``) or undo (``"undo"``)."""
    return InfoScreen(
        _("The game is over"),
        result_page(session),
        _("q: quit   Enter: look at the table   u: undo your last play"),
        keys={"q": "quit", "ctrl+q": "quit", "u": "undo"},
    )
