"""The terminal app of ``salad play``: one human against bots, in 80x24 or more.

The screen, top to bottom: the game and the hand (round, penalties, trump), the table (every seat
with the card it played to this trick, its points this hand and in all, the seat to move in
yellow), your hand sorted by suit with the legal cards bright, the latest news and a prompt, and
the keys. Bots think in worker threads and play after a short pause; hints come from the
strongest bot the same way, so the screen never freezes.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from rich import box
from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult, RenderResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.geometry import Size
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Button, Footer, Input, Static

from salad.cards import NO_SUIT, Card, Deck, cards_of
from salad.errors import SaladError
from salad.moves import Move
from salad.ruleset import Kind
from salad.tui.common import (
    Session,
    accepted_codes,
    card_label,
    cards_in_order,
    current_hand,
    last_trick,
    move_label,
    narrate,
    penalties_text,
    result_lines,
    sorted_hand,
    suit_label,
)
from salad.view import Phase, View

TRICK_PAUSE = 2.0
"""A finished trick stays on the table this many bot delays before the next lead."""

_PALETTE = ("#d75f00", "#008700", "#d70000", "#8700af", "#8a6a00", "#005fd7")
_RED_SYMBOLS = "♥♦"
_BLACK_SYMBOLS = "♣♠"


def suit_colour(deck: Deck, card: Card) -> str:
    """The ink of a card: red and black for the French suits, a palette for any other deck."""
    suit = deck.suit_of[card]
    if suit == NO_SUIT:
        return "blue3"
    symbol = deck.suits[suit].symbol
    if symbol in _RED_SYMBOLS:
        return "red3"
    if symbol in _BLACK_SYMBOLS:
        return "black"
    return _PALETTE[suit % len(_PALETTE)]


def card_face(deck: Deck, card: Card, state: str = "legal") -> Text:
    """A card as a small face: `` Q♠ `` in the suit's ink on white; dim when not playable."""
    label = f" {deck.symbol(card)} "
    ink = suit_colour(deck, card)
    if state == "cursor":
        style = f"bold {ink} on gold1"
    elif state == "hint":
        style = f"bold {ink} on pale_green1"
    elif state == "passed":
        style = "bold black on cyan"
    elif state == "dim":
        style = "grey58 on grey27"
    elif state == "winner":
        style = f"bold {ink} on pale_green1"
    else:
        style = f"bold {ink} on grey93"
    return Text(label, style=style)


# -- the widgets of the game screen ------------------------------------------------------------


class InfoBar(Widget):
    """The game, the hand and the trump; then the round and its penalties (on a third line
    only when they do not fit on one)."""

    DEFAULT_CSS = """
    InfoBar { height: auto; }
    """

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.lines(width))

    def render(self) -> RenderResult:
        return Text("\n").join(self.lines(self.size.width))

    def lines(self, width: int) -> list[Text]:
        screen = self.screen
        if not isinstance(screen, GameScreen):
            return [Text("")]
        s = screen.session
        g = s.game
        hand = current_hand(g)
        left = f" {g.ruleset.title}  ·  Hand {hand.index + 1} of {len(g.rules.hands)}"
        if g.seed is not None:
            left += f"  ·  seed {g.seed}"
        notes = []
        if g.ruleset.highest_wins:
            notes.append("highest total wins")
        if g.trump != NO_SUIT:
            notes.append(f"Trump {suit_label(g.deck, g.trump)}")
        right = " · ".join(notes) + " " if notes else ""
        bar = "bold white on dark_green"
        line1 = Text(left, style=bar)
        line1.append(" " * max(width - cell_len(left) - cell_len(right), 1), style=bar)
        line1.append(right, style="bold yellow on dark_green")
        line1.truncate(width)
        head = Text(f" {hand.round.name}", style="bold")
        full = penalties_text(hand)
        if head.cell_len + 5 + cell_len(full) <= width:
            head.append("  —  ", style="dim").append(full, style="yellow")
            return [line1, head]
        rest = penalties_text(hand, max(width - 3, 1))
        if head.cell_len + 3 + cell_len(rest) <= width:
            head.append(" — ", style="dim").append(rest, style="yellow")
            return [line1, head]
        tail = Text("   " + rest, style="yellow")
        tail.truncate(width, overflow="ellipsis")
        return [line1, head, tail]


@dataclass
class _Slot:
    x: int
    y: int


class TableView(Widget):
    """The table: every seat as a small box around the trick, you at the bottom."""

    DEFAULT_CSS = """
    TableView { height: 1fr; min-height: 9; }
    """

    def render(self) -> RenderResult:
        screen = self.screen
        if not isinstance(screen, GameScreen):
            return ""
        return screen.table_text(self.size.width, self.size.height)


class HandView(Widget):
    """Your cards, one row per suit; the legal ones bright, the chosen one yellow."""

    DEFAULT_CSS = """
    HandView { height: auto; min-height: 2; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.spans: list[tuple[int, int, int, Card]] = []
        """(row, first column, past the last column, card) of every card shown."""

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        screen = self.screen
        if not isinstance(screen, GameScreen):
            return 2
        return len(screen.hand_lines(width)[0])

    def render(self) -> RenderResult:
        screen = self.screen
        if not isinstance(screen, GameScreen):
            return ""
        lines, spans = screen.hand_lines(self.size.width)
        self.spans = spans
        return Text("\n").join(lines)

    def on_click(self, event: events.Click) -> None:
        screen = self.screen
        if not isinstance(screen, GameScreen):
            return
        for row, x0, x1, card in self.spans:
            if event.y == row and x0 <= event.x < x1:
                screen.click_card(card)
                return


class MessageBar(Widget):
    """The latest news and what to do now."""

    DEFAULT_CSS = """
    MessageBar { height: 2; }
    """

    def render(self) -> RenderResult:
        screen = self.screen
        if not isinstance(screen, GameScreen):
            return ""
        return screen.message_text(self.size.width)


# -- modal screens ---------------------------------------------------------------------------


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


# -- the game --------------------------------------------------------------------------------

HELP_KEYS = (
    ("← → ↑ ↓", "choose a card (only the legal ones)"),
    ("Enter, Space", "play (or pass) the chosen card"),
    ("mouse", "click a card to play it"),
    ("qs, 10h, ...", "type a card: it is played once complete (Esc cancels)"),
    ("h", "hint: the strongest bot's suggestion"),
    ("u", "undo your last play (and the bots' replies)"),
    ("l", "the last trick"),
    ("p", "the score sheet, hand by hand, with totals"),
    ("r", "the rules of this game"),
    ("Ctrl+S", "save the game (salad play --resume FILE continues it)"),
    ("?", "this help"),
    ("Ctrl+Q", "quit"),
)


class GameScreen(Screen[None]):
    """The table, your hand and the keys; it drives the bots between your moves."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "help", "Help"),
        Binding("h", "hint", "Hint"),
        Binding("u", "undo", "Undo"),
        Binding("l", "last_trick", "Last trick"),
        Binding("p", "sheet", "Scores"),
        Binding("r", "rules", "Rules"),
        Binding("ctrl+s", "save", "Save"),
        Binding("left", "move(-1)", show=False),
        Binding("right", "move(1)", show=False),
        Binding("up", "row(-1)", show=False),
        Binding("down", "row(1)", show=False),
        Binding("enter,space", "choose", show=False),
        Binding("escape", "clear", show=False),
    ]

    def __init__(self, session: Session, delay: float) -> None:
        super().__init__()
        self.session = session
        self.delay = delay
        self.generation = 0
        """Bumped by undo: a bot move computed before it is thrown away."""
        self.bot_pending = False
        self.blocked = False
        """A question or a hand's result is open: the bots wait."""
        self.hands_done = len(session.game.hand_points)
        self.over_shown = False
        self.cursor: Card | None = None
        self.hint_move: Move | None = None
        self.entry = ""
        self.news = ""
        self.error = ""
        self.codes = accepted_codes(session.deck)
        self.starts = {c[0] for c in self.codes}
        self._view: tuple[tuple[int, int], View] | None = None

    # -- layout ------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield InfoBar()
        yield TableView()
        yield HandView()
        yield MessageBar()
        yield Footer()

    def on_mount(self) -> None:
        g = self.session.game
        if not self.news:
            self.news = f"{self.session.names[g.dealer]} dealt. Good luck!"
        self.call_after_refresh(self.advance)

    def redraw(self) -> None:
        for widget in self.query("InfoBar, TableView, HandView, MessageBar"):
            widget.refresh(layout=isinstance(widget, HandView | InfoBar))

    @property
    def view(self) -> View:
        """Your view of the game (kept until the next move or undo: drawing asks often)."""
        key = (self.generation, len(self.session.game.log))
        if self._view is None or self._view[0] != key:
            self._view = (key, self.session.view())
        return self._view[1]

    # -- the flow of the game --------------------------------------------------------------
    def advance(self) -> None:
        """Start whatever comes next: a bot's move, a question for you, or the result."""
        s = self.session
        g = s.game
        self.redraw()
        if self.bot_pending or self.blocked:
            return
        if g.is_over():
            if not self.over_shown:
                self.over_shown = True
                self.show_result()
            return
        if s.human_turn():
            if g.phase == Phase.TRUMP:
                self.ask_trump()
            else:
                self.place_cursor()
                self.redraw()
            return
        self.start_bot()

    def start_bot(self) -> None:
        g = self.session.game
        seat = g.to_move
        view = g.view(seat)
        pause = self.delay
        if g.phase == Phase.PLAY and not view.trick and view.tricks:
            pause *= TRICK_PAUSE
        elif g.phase != Phase.PLAY:
            pause /= 2
        self.bot_pending = True
        generation = self.generation
        self.run_worker(
            lambda: self._bot_thread(generation, seat, view, pause),
            group="bots",
            thread=True,
            exit_on_error=False,
        )

    def _bot_thread(self, generation: int, seat: int, view: View, pause: float) -> None:
        """Think, then wait out the rest of the pause, so that every move stays in view."""
        end = time.monotonic() + pause
        try:
            move = self.session.bot_choose(seat, view)
        except Exception as exc:  # a bot's bug must not take the game down
            self._from_thread(self._bot_failed, generation, str(exc))
            return
        while time.monotonic() < end:
            if generation != self.generation:
                return
            time.sleep(min(0.05, max(end - time.monotonic(), 0)))
        self._from_thread(self._bot_done, generation, move)

    def _from_thread(self, callback: Callable[..., object], *args: object) -> None:
        with contextlib.suppress(RuntimeError):  # the app is closing
            self.app.call_from_thread(callback, *args)

    def _bot_done(self, generation: int, move: Move) -> None:
        if generation != self.generation:
            return
        self.bot_pending = False
        try:
            entries = self.session.play(move)
        except SaladError as exc:
            self._bot_failed(generation, str(exc))
            return
        self.after_move(entries)

    def _bot_failed(self, generation: int, message: str) -> None:
        if generation != self.generation:
            return
        self.bot_pending = False
        self.blocked = True
        self.error = f"A bot failed: {message}"
        self.redraw()

    def after_move(self, entries: Sequence[tuple[object, ...]]) -> None:
        s = self.session
        lines = [line for line in narrate(s, entries, symbols=True) if ":" not in line[:24]]
        if lines:
            self.news = " ".join(lines[-2:])
        self.error = ""
        if len(s.game.hand_points) > self.hands_done:
            self.hands_done = len(s.game.hand_points)
            if not s.game.is_over():
                self.show_hand_over(self.hands_done - 1)
                return
        self.advance()

    def human_move(self, move: Move, declared: bool = False) -> None:
        """Play (or pass) for you; a Wild that may be declared asks high or low first."""
        s = self.session
        g = s.game
        if not s.human_turn() or self.blocked:
            return
        self.entry = ""
        try:
            s.check(move)
        except SaladError as exc:
            self.error = f"You cannot play {move_label(g.deck, move)}: {exc}."
            self.redraw()
            return
        card = move % g.deck.size
        if g.phase == Phase.PLAY and not declared and g.deck.declare_mask >> card & 1:
            self.ask_declare(card)
            return
        self.hint_move = None
        self.cursor = None
        self.after_move(s.play(move))

    # -- questions ---------------------------------------------------------------------------
    def ask_declare(self, card: Card) -> None:
        deck = self.session.deck
        self.blocked = True
        name = card_label(deck, card)

        def done(answer: int | None) -> None:
            self.blocked = False
            if answer is not None:
                self.human_move(card + deck.size if answer == 0 else card, declared=True)
            else:
                self.advance()

        self.app.push_screen(
            ChoiceScreen(
                f"Play {name}",
                f"Declare {name} high (it beats every card of the led suit) "
                "or low (it loses to them)?",
                [("h/+", "High"), ("l/-", "Low")],
            ),
            done,
        )

    def ask_trump(self) -> None:
        s = self.session
        deck = s.deck
        self.blocked = True
        legal = s.game.legal_moves()
        options = []
        for i, move in enumerate(legal):
            suit = deck.suits[move - 2 * deck.size]
            options.append((f"{i + 1}/{suit.letter.lower()}", f"{suit.symbol} {suit.name}"))

        def done(answer: int | None) -> None:
            self.blocked = False
            if answer is None:
                self.advance()
            else:
                self.human_move(legal[answer])

        mine = " ".join(card_label(deck, c) for c in cards_in_order(deck, s.view().hand))
        self.app.push_screen(
            ChoiceScreen(
                "Pick the trump suit",
                f"You are in last place, so you pick the trump suit for hand "
                f"{s.game.hand_index + 1}: {s.game.round_name}.\nYour cards: {mine}",
                options,
                cancel=False,
            ),
            done,
        )

    def show_hand_over(self, index: int) -> None:
        s = self.session
        g = s.game
        self.blocked = True
        hand = g.rules.hands[index]
        points = g.hand_points[index]
        parts: list[RenderableType] = [
            Text(
                "  ".join(f"{s.names[x]} +{p}" for x, p in enumerate(points)),
                style="bold",
            ),
            Text(""),
            self.sheet_table(current=False),
        ]
        nxt = current_hand(g)
        parts.append(
            Text(
                f"\nNext: hand {nxt.index + 1}, {nxt.round.name} — {penalties_text(nxt)}",
                style="yellow",
            )
        )

        def done(_: str | None) -> None:
            self.blocked = False
            self.news = f"Hand {nxt.index + 1}: {nxt.round.name}. {s.names[g.dealer]} dealt."
            self.advance()

        self.app.push_screen(
            InfoScreen(
                f"Hand {index + 1} of {len(g.rules.hands)}: {hand.round.name} is over",
                Group(*parts),
                "Enter: deal the next hand",
            ),
            done,
        )

    def show_result(self) -> None:
        s = self.session
        lines = result_lines(s)
        body = Group(
            self.sheet_table(),
            Text(""),
            Text(lines[-1], style="bold yellow"),
            Text("   ".join(lines[:-1])),
        )
        self.news = lines[-1]
        self.redraw()

        def done(answer: str | None) -> None:
            if answer == "quit":
                self.app.exit(self.exit_message())

        self.app.push_screen(
            InfoScreen(
                "The game is over",
                body,
                "q: quit   Enter: look at the table   u: undo your last play",
                keys={"q": "quit", "ctrl+q": "quit", "u": "undo"},
            ),
            lambda answer: self.action_undo() if answer == "undo" else done(answer),
        )

    # -- drawing -------------------------------------------------------------------------------
    def table_text(self, width: int, height: int) -> Text:
        s = self.session
        g = s.game
        n = g.players
        view = self.view
        shown: tuple[Move, ...] = view.trick
        leader = view.leader
        winner = -1
        if g.phase == Phase.PLAY and not view.trick and view.tricks:
            done = view.tricks[-1]
            shown, leader, winner = done.moves, done.leader, done.winner
        played = {(leader + i) % n: m for i, m in enumerate(shown)}
        others = [(s.seat + k) % n for k in range(1, n)]
        slots, bw = _layout(len(others), width, height)
        rows: list[list[tuple[int, Text]]] = [[] for _ in range(height)]

        def put(x: int, y: int, text: Text) -> None:
            if 0 <= y < height:
                rows[y].append((x, text))

        for seat, slot in zip([*others, s.seat], [*slots, _Slot(-1, -1)], strict=True):
            if seat == s.seat:
                slot = _Slot((width - bw) // 2, height - 3)
            box_lines = self.seat_box(seat, bw, played.get(seat), winner)
            for i, line in enumerate(box_lines):
                put(slot.x, slot.y + i, line)
        # The middle of the table: which trick, the led suit, what just happened.
        centre = self.centre_lines(view, shown, winner)
        left = bw + 1 if n > 3 else 0
        inner = width - 2 * left
        top = max(0, (height - len(centre)) // 2)
        for i, line in enumerate(centre):
            line.truncate(inner)
            put(left + max(0, (inner - line.cell_len) // 2), top + i, line)
        out = []
        for items in rows:
            line = Text()
            for x, text in sorted(items, key=lambda item: item[0]):
                if x < line.cell_len:
                    continue
                line.append(" " * (x - line.cell_len))
                line.append_text(text)
            line.truncate(width)
            out.append(line)
        return Text("\n").join(out)

    def seat_box(self, seat: int, bw: int, move: Move | None, winner: int) -> list[Text]:
        s = self.session
        g = s.game
        view = self.view
        deck = g.deck
        to_move = g.to_move == seat and not g.is_over()
        if seat == winner:
            border = "bold green"
        elif to_move:
            border = "bold yellow"
        elif seat == s.seat:
            border = "cyan"
        else:
            border = "grey50"
        name = s.names[seat]
        marks = ""
        if seat == g.dealer:
            marks += " (D)"
        if view.token == seat:
            marks += " ●"
        title = f" {shorten(name, bw - 4 - len(marks))}{marks} "
        top = Text("╭", style=border)
        top.append(title, style="bold yellow" if to_move else "bold")
        top.append("─" * max(bw - 2 - cell_len(title), 0) + "╮", style=border)
        mid = Text("│ ", style=border)
        body = Text()
        if move is not None:
            body.append_text(card_face(deck, move % deck.size, "winner" if seat == winner else ""))
            if move >= deck.size:
                body.append(" high", style="bold")
            elif deck.declare_mask >> (move % deck.size) & 1:
                body.append(" low", style="bold")
            if seat == winner:
                body.append(" ★ takes it" if bw >= 20 else " ★", style="bold green")
        elif to_move:
            if seat == s.seat:
                body.append("▶ your turn" if bw >= 15 else "▶ play", style="bold yellow")
            elif self.bot_pending:
                body.append("thinking…", style="italic yellow")
        body.truncate(bw - 4)
        mid.append_text(body)
        mid.append(" " * max(bw - 2 - mid.cell_len, 0))
        mid.append(" │", style=border)
        run, tot = view.running[seat], view.totals[seat]
        stats = f" {run} pts · total {tot} "
        if cell_len(stats) > bw - 3:
            stats = f" {run} pts · tot {tot} "
        if cell_len(stats) > bw - 3:
            stats = f" {run} pts "
        bottom = Text("╰", style=border)
        bottom.append(stats, style="bold" if run else "")
        bottom.append("─" * max(bw - 2 - cell_len(stats), 0) + "╯", style=border)
        return [top, mid, bottom]

    def centre_lines(self, view: View, shown: tuple[Move, ...], winner: int) -> list[Text]:
        s = self.session
        g = s.game
        deck = g.deck
        lines: list[Text] = []
        if g.is_over():
            winners = g.winners()
            lines.append(Text("The game is over", style="bold"))
            if winners == [s.seat]:
                lines.append(Text("You win!", style="bold yellow"))
            else:
                who = " and ".join(s.names[w] for w in winners)
                lines.append(Text(f"{who} win{'s' if len(winners) == 1 else ''}", style="yellow"))
            lines.append(Text("p: the score sheet", style="dim"))
            return lines
        if g.phase == Phase.PASS:
            lines.append(Text("Passing cards", style="bold"))
            target = s.names[s.pass_target()]
            lines.append(Text(f"{g.ruleset.passing} to the {g.ruleset.pass_direction}"))
            lines.append(Text(f"(yours go to {target})", style="dim"))
            return lines
        if g.phase == Phase.TRUMP:
            lines.append(Text("Choosing trump", style="bold"))
            lines.append(Text(f"{s.names[g.to_move]} picks", style="dim"))
            return lines
        number = len(view.tricks)
        if winner >= 0:
            lines.append(Text(f"Trick {number} of {deck.cards_each}", style="bold"))
            info = last_trick(g)
            cost = info.cost if info is not None else 0
            verb = "take" if winner == s.seat else "takes"
            lines.append(
                Text(f"{s.names[winner]} {verb} it", style="bold green").append(
                    f"  +{cost}" if cost else "  no points",
                    style="bold red" if cost else "green",
                )
            )
        else:
            lines.append(Text(f"Trick {number + 1} of {deck.cards_each}", style="bold"))
            if view.led_suit != NO_SUIT:
                lines.append(Text(f"led {suit_label(deck, view.led_suit)}"))
            elif g.to_move == s.seat:
                lines.append(Text("your lead", style="yellow"))
            else:
                lines.append(Text(f"{s.names[g.to_move]} leads", style="dim"))
        if view.token >= 0:
            token = next(
                (p.penalty.name for p in current_hand(g).penalties if p.kind == Kind.TOKEN), "token"
            )
            lines.append(Text(f"● {token}: {s.names[view.token]}", style="dim"))
        return lines

    def legal_cards(self) -> list[Card]:
        s = self.session
        if not s.human_turn() or s.game.phase == Phase.TRUMP:
            return []
        size = s.deck.size
        return list(dict.fromkeys(m % size for m in s.game.legal_moves()))

    def hand_lines(self, width: int) -> tuple[list[Text], list[tuple[int, int, int, Card]]]:
        s = self.session
        g = s.game
        deck = g.deck
        view = self.view
        legal = set(self.legal_cards())
        hint_card = None if self.hint_move is None else self.hint_move % deck.size
        mine = view.hand
        header = Text(" Your hand", style="bold cyan")
        count = mine.bit_count()
        header.append(f" · {count} card{'s' if count != 1 else ''}", style="cyan")
        if g.phase == Phase.PASS and view.passed:
            chosen = " ".join(card_label(deck, c) for c in cards_of(view.passed))
            header.append(f" · passing {chosen}", style="cyan")
        elif view.received and not view.tricks:
            got = " ".join(card_label(deck, c) for c in cards_of(view.received))
            header.append(f" · received {got}", style="dim")
        header.append(" " + "─" * max(width - header.cell_len - 1, 0), style="grey37")
        lines = [header]
        spans: list[tuple[int, int, int, Card]] = []
        for row in sorted_hand(deck, mine):
            line = Text(" ")
            for card in row:
                face_state = "legal" if card in legal or not legal else "dim"
                if view.passed >> card & 1:
                    face_state = "passed"
                elif card == self.cursor and legal:
                    face_state = "cursor"
                elif card == hint_card:
                    face_state = "hint"
                face = card_face(deck, card, face_state)
                if line.cell_len + face.cell_len > width and line.cell_len > 1:
                    lines.append(line)
                    line = Text(" ")
                x0 = line.cell_len
                line.append_text(face)
                spans.append((len(lines), x0, line.cell_len, card))
                line.append(" ")
            lines.append(line)
        return lines, spans

    def message_text(self, width: int) -> Text:
        s = self.session
        g = s.game
        if self.error:
            first = Text(f" ✗ {self.error}", style="bold red")
        else:
            first = Text(f" {self.news}", style="italic")
        second = Text(" ")
        if self.entry:
            second.append("Card: ", style="bold")
            second.append(self.entry.upper() + "▌", style="bold reverse")
            second.append("   Backspace corrects, Esc cancels", style="dim")
        elif g.is_over():
            second.append("The game is over: p scores, Ctrl+Q quit.", style="bold")
        elif self.blocked:
            second.append("Waiting for your answer…", style="dim")
        elif s.human_turn():
            view = self.view
            if g.phase == Phase.PASS:
                left = g.ruleset.passing - view.passed.bit_count()
                second.append(
                    f"Pass {left} more card{'s' if left != 1 else ''} to "
                    f"{s.names[s.pass_target()]}: ",
                    style="bold yellow",
                )
            elif view.led_suit != NO_SUIT:
                follow = suit_label(g.deck, view.led_suit)
                second.append(f"Your turn: follow {follow} if you can.", style="bold yellow")
            else:
                second.append("Your lead.", style="bold yellow")
            second.append("  ←→ Enter, click, or type a card", style="yellow")
        else:
            second.append(f"{s.names[g.to_move]} to play…", style="dim")
        first.truncate(width, overflow="ellipsis")
        second.truncate(width, overflow="ellipsis")
        return Text("\n").join([first, second])

    def sheet_table(self, current: bool = True) -> Table:
        """The score sheet: a row per hand played, ``current`` adds this hand's points."""
        s = self.session
        g = s.game
        n = g.players
        col = max(5, min(10, (74 - 24) // n))
        table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False, show_edge=False)
        table.add_column("#", justify="right")
        table.add_column("Round", max_width=24, no_wrap=True, overflow="ellipsis")
        for x in range(n):
            name = s.names[x]
            table.add_column(name[:col], justify="right", style="cyan" if x == s.seat else None)
        for i, points in enumerate(g.hand_points):
            table.add_row(str(i + 1), g.rules.hands[i].round.name, *map(str, points))
        if current and not g.is_over():
            hand = current_hand(g)
            table.add_row(
                str(hand.index + 1),
                Text(f"{hand.round.name} (now)", style="italic"),
                *(Text(str(p), style="italic dim") for p in g.running_points()),
            )
        best = min(g.totals) if not g.ruleset.highest_wins else max(g.totals)
        table.add_section()
        table.add_row(
            "",
            Text("Total", style="bold"),
            *(Text(str(t), style="bold green" if t == best else "bold") for t in g.totals),
        )
        return table

    # -- the hand cursor -------------------------------------------------------------------
    def place_cursor(self) -> None:
        legal = self.legal_cards()
        if legal and self.cursor not in legal:
            ordered = self.ordered(legal)
            self.cursor = ordered[0]

    def ordered(self, cards: list[Card]) -> list[Card]:
        deck = self.session.deck
        order = cards_in_order(deck, self.view.hand)
        return [c for c in order if c in cards]

    def action_move(self, step: int) -> None:
        legal = self.ordered(self.legal_cards())
        if not legal:
            return
        if self.cursor not in legal:
            self.cursor = legal[0]
        else:
            assert self.cursor is not None
            self.cursor = legal[(legal.index(self.cursor) + step) % len(legal)]
        self.redraw()

    def action_row(self, step: int) -> None:
        legal = set(self.legal_cards())
        if not legal:
            return
        deck = self.session.deck
        rows = [[c for c in row if c in legal] for row in sorted_hand(deck, self.view.hand)]
        rows = [r for r in rows if r]
        here = next((i for i, r in enumerate(rows) if self.cursor in r), 0)
        col = rows[here].index(self.cursor) if self.cursor in rows[here] else 0
        target = rows[(here + step) % len(rows)]
        self.cursor = target[min(col, len(target) - 1)]
        self.redraw()

    def action_choose(self) -> None:
        if self.entry:
            self.entry = ""
        if self.cursor is not None and self.cursor in self.legal_cards():
            self.human_move(self.cursor)

    def action_clear(self) -> None:
        self.entry = ""
        self.error = ""
        self.redraw()

    def click_card(self, card: Card) -> None:
        s = self.session
        if not s.human_turn() or self.blocked:
            self.error = "Wait for your turn."
            self.redraw()
            return
        self.cursor = card
        self.human_move(card)

    # -- typing a card ---------------------------------------------------------------------
    def on_key(self, event: events.Key) -> None:
        char = event.character
        if self.entry and event.key == "backspace":
            event.stop()
            event.prevent_default()
            self.entry = self.entry[:-1]
            self.redraw()
            return
        if not char or not char.isprintable() or char == " ":
            return
        upper = char.upper()
        if not self.entry and upper not in self.starts:
            return
        event.stop()
        event.prevent_default()
        self.type_char(upper)

    def type_char(self, upper: str) -> None:
        s = self.session
        text = self.entry + upper
        self.error = ""
        if text in self.codes:
            self.entry = ""
            if not s.human_turn() or self.blocked:
                self.error = "Wait for your turn."
                self.redraw()
                return
            try:
                move = s.game.parse_move(text)
            except SaladError as exc:
                self.error = str(exc)
                self.redraw()
                return
            self.cursor = move % s.deck.size
            self.human_move(move)
            return
        if any(code.startswith(text) for code in self.codes):
            self.entry = text
        else:
            self.entry = ""
            self.error = f"{text} is not a card (type e.g. QS or 10H)."
        self.redraw()

    # -- the keys --------------------------------------------------------------------------
    def action_help(self) -> None:
        table = Table(box=None, show_header=False, padding=(0, 2, 0, 0))
        table.add_column(style="bold yellow", no_wrap=True)
        table.add_column()
        for key, what in HELP_KEYS:
            table.add_row(key, what)
        g = self.session.game
        how = "highest" if g.ruleset.highest_wins else "lowest"
        notes = Text(
            f"\nAvoid the penalties of each hand (top line); the {how} total after "
            f"{len(g.rules.hands)} hands wins. Follow the led suit if you can. Bright cards "
            "are the ones you may play; (D) marks the dealer, ★ the winner of a trick.",
            style="dim",
        )
        self.app.push_screen(InfoScreen("Keys", Group(table, notes)))

    def action_hint(self) -> None:
        s = self.session
        if not s.human_turn() or self.blocked or s.game.phase == Phase.TRUMP:
            self.error = "A hint is for your turn."
            self.redraw()
            return
        self.news = "Thinking about a hint…"
        self.error = ""
        self.redraw()
        stamp = (self.generation, len(s.game.log))
        view = s.view()

        def work() -> None:
            try:
                move = s.hint(view)
            except Exception as exc:
                self._from_thread(self._hint_failed, str(exc))
                return
            self._from_thread(self._hint_done, stamp, move)

        self.run_worker(work, group="hint", thread=True, exclusive=True, exit_on_error=False)

    def _hint_done(self, stamp: tuple[int, int], move: Move) -> None:
        s = self.session
        if stamp != (self.generation, len(s.game.log)):
            return
        self.hint_move = move
        self.cursor = move % s.deck.size
        self.news = f"Hint ({s.hint_bot_name}): play {move_label(s.deck, move)}; Enter plays it."
        self.redraw()

    def _hint_failed(self, message: str) -> None:
        self.error = f"No hint: {message}"
        self.redraw()

    def action_undo(self) -> None:
        s = self.session
        if not s.can_undo():
            self.error = "Nothing to undo: you have not played yet."
            self.redraw()
            return
        self.generation += 1
        self.bot_pending = False
        count = s.undo()
        self.hands_done = len(s.game.hand_points)
        self.over_shown = False
        self.cursor = None
        self.hint_move = None
        self.entry = ""
        self.error = ""
        self.news = f"Took back your last play ({count} move{'s' if count != 1 else ''})."
        self.advance()

    def action_last_trick(self) -> None:
        s = self.session
        info = last_trick(s.game)
        if info is None:
            self.error = "No trick has been played yet."
            self.redraw()
            return
        deck = s.deck
        table = Table(box=None, show_header=False, padding=(0, 2, 0, 0))
        table.add_column(no_wrap=True)
        table.add_column(no_wrap=True)
        table.add_column(no_wrap=True)
        for i, m in enumerate(info.moves):
            seat = info.seat(i, s.players)
            face = card_face(deck, m % deck.size, "winner" if seat == info.winner else "")
            if m >= deck.size:
                face.append(" high")
            note = "★ took it" if seat == info.winner else ("led" if i == 0 else "")
            table.add_row(s.names[seat], face, Text(note, style="green"))
        cost = f"+{info.cost} points" if info.cost else "no points"
        body = Group(table, Text(f"\n{s.names[info.winner]}: {cost}", style="bold"))
        self.app.push_screen(
            InfoScreen(f"Hand {info.hand_index + 1}, trick {info.number + 1}", body)
        )

    def action_sheet(self) -> None:
        s = self.session
        g = s.game
        parts: list[RenderableType] = [self.sheet_table()]
        if g.is_over():
            parts.append(Text(result_lines(s)[-1], style="bold yellow"))
        self.app.push_screen(InfoScreen("Score sheet", Group(*parts)))

    def action_rules(self) -> None:
        from salad.formats.describe import describe

        g = self.session.game
        self.app.push_screen(InfoScreen("Rules", Text(describe(g.ruleset, g.players))))

    def action_save(self) -> None:
        s = self.session
        if s.save_path is not None:
            self.save_to(s.save_path)
            return
        self.app.push_screen(
            SaveScreen("salad-game.json"),
            self._save_answer,
        )

    def _save_answer(self, answer: str | None) -> None:
        if answer:
            self.save_to(Path(answer))

    def save_to(self, path: Path) -> bool:
        try:
            saved = self.session.save(path)
        except SaladError as exc:
            self.error = f"Not saved: {exc}"
            self.redraw()
            return False
        self.error = ""
        self.news = f"Saved to {saved}."
        self.redraw()
        return True

    def exit_message(self) -> str:
        s = self.session
        g = s.game
        if g.is_over():
            saved = [f"The finished game is saved in {s.save_path}."] if s.save_path else []
            return "\n".join(["Final scores:", *result_lines(s), *saved])
        if s.save_path is not None:
            return f"Saved to {s.save_path}; continue with: salad play --resume {s.save_path}"
        return "Game not saved."

    def request_quit(self) -> None:
        s = self.session
        g = s.game
        if g.is_over() or not s.can_undo():
            if g.is_over() and s.save_path is not None:
                self.save_to(s.save_path)
            self.app.exit(self.exit_message())
            return
        if s.save_path is not None:
            if self.save_to(s.save_path):
                self.app.exit(self.exit_message())
            return

        def done(answer: int | None) -> None:
            if answer == 0:
                self.app.push_screen(SaveScreen("salad-game.json"), saved)
            elif answer == 1:
                self.app.exit(self.exit_message())

        def saved(answer: str | None) -> None:
            if answer and self.save_to(Path(answer)):
                self.app.exit(self.exit_message())

        self.app.push_screen(
            ChoiceScreen(
                "Quit",
                "The game is not finished. Save it first, to continue it later?",
                [("s", "Save and quit"), ("q", "Quit"), ("esc", "Keep playing")],
            ),
            lambda answer: done(answer if answer != 2 else None),
        )


def shorten(name: str, room: int) -> str:
    """A name cut to ``room`` characters, keeping a trailing seat number: ``Ran… 8``."""
    if len(name) <= room:
        return name
    head, _, number = name.rpartition(" ")
    if head and number.isdigit() and room > len(number) + 2:
        return head[: room - len(number) - 2] + "… " + number
    return name[: max(room - 1, 1)] + "…"


def _layout(others: int, width: int, height: int) -> tuple[list[_Slot], int]:
    """Where the other seats sit, clockwise from your left: up the left side, along the top,
    down the right side; and the width of a seat's box."""
    if others == 2:
        sides, top = 0, 2
    elif others >= 7:
        sides, top = 2, others - 4
    else:
        sides, top = 1, others - 2
    across = max(top, 3)
    bw = max(14, min(24, (width - (across + 1)) // across))
    mid = max(3, (height - 3) // 2)
    bottom = height - 3
    slots: list[_Slot] = []
    if sides == 2:
        slots.append(_Slot(0, bottom))
    if sides:
        slots.append(_Slot(0, mid))
    if top:
        gap = (width - top * bw) // (top + 1)
        for i in range(top):
            x = gap + i * (bw + gap)
            if others == 2:
                x = 0 if i == 0 else width - bw
            slots.append(_Slot(x, 0))
    if sides:
        slots.append(_Slot(width - bw, mid))
    if sides == 2:
        slots.append(_Slot(width - bw, bottom))
    return slots, bw


class SaladApp(App[str]):
    """``salad play``: the game screen over a plain background."""

    TITLE = "salad"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", "Quit", priority=True),
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

    async def action_quit(self) -> None:
        if isinstance(self.screen, GameScreen):
            self.game_screen.request_quit()
        elif isinstance(self.screen, ChoiceScreen) and self.screen.title_text == "Quit":
            self.exit(self.game_screen.exit_message())
        else:
            self.game_screen.request_quit()
