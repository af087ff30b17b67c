"""The game screen of ``salad play``: the table, your hand and the keys. It drives the bots
between your moves: they think in worker threads and play after a short pause, and hints come
from the strongest bot the same way, so the screen never freezes.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer

from salad.bots.assist import Hint
from salad.cards import Card
from salad.errors import SaladError
from salad.locale import NP_, _, current, ngettext, pgettext, using
from salad.locale import cards as shown
from salad.moves import Move, card_of
from salad.tui.dialogs import (
    InfoScreen,
    SaveScreen,
    declare_dialog,
    hand_over_dialog,
    quit_dialog,
    result_dialog,
    trump_dialog,
)
from salad.tui.pages import (
    help_page,
    last_trick_page,
    rules_page,
    sheet_page,
)
from salad.tui.render import (
    Scene,
    Span,
    hand_lines,
    info_lines,
    legal_cards,
    message_text,
    table_text,
)
from salad.tui.session import Session
from salad.tui.widgets import HandView, InfoBar, MessageBar, Speaking, TableView
from salad.tui.words import (
    HandEnd,
    accepted_codes,
    card_examples,
    cards_in_order,
    current_hand,
    free_key,
    hand_end,
    last_trick,
    sorted_hand,
)
from salad.view import Phase, View

TRICK_PAUSE = 2.0
"""A finished trick stays on the table this many bot delays before the next lead."""
HAND_END_PAUSE = 1.5
"""The last trick of a hand stays on the table at least this many seconds before the hand's
summary opens (Enter opens it at once)."""


class GameScreen(Speaking, Screen[None]):
    """The table, your hand and the keys; it drives the bots between your moves."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "help", NP_("key", "Help")),
        Binding("h", "hint", NP_("key", "Hint")),
        Binding("u", "undo", NP_("key", "Undo")),
        Binding("l", "last_trick", NP_("key", "Last trick")),
        Binding("p", "sheet", NP_("key", "Scores")),
        Binding("r", "rules", NP_("key", "Rules")),
        Binding("ctrl+s", "save", NP_("key", "Save")),
        Binding("left", "move(-1)", show=False),
        Binding("right", "move(1)", show=False),
        Binding("up", "row(-1)", show=False),
        Binding("down", "row(1)", show=False),
        Binding("enter,space", "choose", show=False),
        Binding("escape", "clear", show=False),
    ]

    def __init__(self, session: Session, delay: float) -> None:
        super().__init__()
        self.language = current().code
        """The language the screen speaks (set before the app is built)."""
        self.session = session
        self.delay = delay
        self.generation = 0
        """Bumped by undo: a bot move computed before it is thrown away."""
        self.bot_pending = False
        self.blocked = False
        """A question or a hand's result is open: the bots wait."""
        self.hands_done = len(session.game.hand_points)
        self.over_shown = False
        self.hand_end: HandEnd | None = None
        """A hand just finished: its last trick stays on the table until its summary."""
        self.summary_open = False
        self.hand_end_pause = HAND_END_PAUSE
        self.cursor: Card | None = None
        self.hint_move: Move | None = None
        self.entry = ""
        self.news = ""
        self.error = ""
        self.codes = accepted_codes(session.deck)
        self.starts = {c[0] for c in self.codes}
        self._view: tuple[tuple[int, int], View] | None = None

    @classmethod
    def moved_keys(cls, session: Session, *args: Any, **kwargs: Any) -> dict[str, str]:
        """A key whose letter starts a card (French ``R``, a King) moves to Ctrl+letter: typing
        the card wins."""
        keys = [
            b.key
            for base in cls.__mro__
            for b in base.__dict__.get("BINDINGS", [])
            if isinstance(b, Binding)
        ]
        return {
            key: free_key(key, session.deck) for key in keys if free_key(key, session.deck) != key
        }

    # -- layout ------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield InfoBar(self.info_lines)
        yield TableView(self.table_text)
        yield HandView(self.hand_lines, self.click_card)
        yield MessageBar(self.message_text)
        yield Footer()

    def on_resize(self, event: events.Resize) -> None:
        """The keys close together when their words do not fit the width otherwise."""
        for footer in self.query(Footer):
            footer.compact = footer_width(self) > event.size.width

    def on_mount(self) -> None:
        g = self.session.game
        if not self.news:
            if g.dealer == self.session.seat:
                # TRANSLATORS: told to the dealer, {name} is the player's own name
                dealt = pgettext("you", "{name} dealt. Good luck!")
            else:
                dealt = _("{name} dealt. Good luck!")
            self.news = dealt.format(name=self.session.names[g.dealer])
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
            if not self.over_shown and self.hand_end is None:
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
        """Run ``callback`` on the app's loop, in the app's language (a worker thread starts
        in English: its context is not the app's)."""
        code = self.language

        def in_language() -> None:
            with using(code):
                callback(*args)

        with contextlib.suppress(RuntimeError):  # the app is closing
            self.app.call_from_thread(in_language)

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
        self.error = _("A bot failed: {message}").format(message=message)
        self.redraw()

    def after_move(self, entries: Sequence[tuple[object, ...]]) -> None:
        s = self.session
        lines = [line for line in s.narrate(entries, symbols=True) if ":" not in line[:24]]
        if lines:
            self.news = " ".join(lines[-2:])
        self.error = ""
        if len(s.game.hand_points) > self.hands_done:
            self.hands_done = len(s.game.hand_points)
            self.end_hand(self.hands_done - 1)
            return
        self.advance()

    def end_hand(self, index: int) -> None:
        """Hand ``index`` is over: its last trick is seen being won, then its summary opens
        (after a pause, or at once on Enter)."""
        s = self.session
        g = s.game
        ended = self.hand_end = hand_end(g, index)
        self.blocked = True
        self.summary_open = False
        self.cursor = None
        self.hint_move = None
        info = ended.trick
        if info.winner == s.seat:
            took = _("{name} take the last trick ({cost}).")
        else:
            took = _("{name} takes the last trick ({cost}).")
        cost = f"+{info.cost}" if info.cost else _("no points")
        self.news = " ".join(
            [
                took.format(name=s.names[info.winner], cost=cost),
                _("Hand {number} is over.").format(number=index + 1),
            ]
        )
        self.redraw()
        generation = self.generation

        def later() -> None:
            if generation == self.generation:
                self.open_summary()

        pause = max(self.delay * TRICK_PAUSE, self.hand_end_pause)
        if pause > 0:
            self.set_timer(pause, later)
        else:
            self.call_after_refresh(later)

    def open_summary(self) -> None:
        """The summary of the hand that just ended (the result, after the last hand)."""
        ended = self.hand_end
        if ended is None or self.summary_open:
            return
        self.summary_open = True
        if self.session.game.is_over():
            self.over_shown = True
            self.show_result()
        else:
            self.show_hand_over(ended.index)

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
            self.error = _("You cannot play {card}: {reason}.").format(
                card=shown.move_label(g.deck, move), reason=exc
            )
            self.redraw()
            return
        card = card_of(g.deck, move)
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

        def done(answer: int | None) -> None:
            self.blocked = False
            if answer is not None:
                self.human_move(card + deck.size if answer == 0 else card, declared=True)
            else:
                self.advance()

        self.app.push_screen(declare_dialog(deck, card), done)

    def ask_trump(self) -> None:
        s = self.session
        self.blocked = True
        legal = s.game.legal_moves()

        def done(answer: int | None) -> None:
            self.blocked = False
            if answer is None:
                self.advance()
            else:
                self.human_move(legal[answer])

        self.app.push_screen(trump_dialog(s, legal), done)

    def show_hand_over(self, index: int) -> None:
        s = self.session
        g = s.game
        self.blocked = True
        nxt = current_hand(g)

        def done(_answer: str | None) -> None:
            self.blocked = False
            self.hand_end = None
            self.summary_open = False
            if g.dealer == s.seat:
                dealt = pgettext("you", "Hand {number}: {round}. {name} dealt.")
            else:
                dealt = _("Hand {number}: {round}. {name} dealt.")
            self.news = dealt.format(
                number=nxt.index + 1, round=_(nxt.round.name), name=s.names[g.dealer]
            )
            self.advance()

        self.app.push_screen(hand_over_dialog(s, index), done)

    def show_result(self) -> None:
        s = self.session
        self.news = s.result_lines()[-1]
        self.redraw()

        def done(answer: str | None) -> None:
            if answer == "quit":
                self.exit_saving()

        self.app.push_screen(
            result_dialog(s),
            lambda answer: self.action_undo() if answer == "undo" else done(answer),
        )

    # -- drawing (by salad.tui.render) -----------------------------------------------------
    def scene(self) -> Scene:
        return Scene(
            self.session,
            self.view,
            bot_pending=self.bot_pending,
            blocked=self.blocked,
            cursor=self.cursor,
            hint_move=self.hint_move,
            entry=self.entry,
            news=self.news,
            error=self.error,
            ended=self.hand_end,
            summary_open=self.summary_open,
        )

    def info_lines(self, width: int) -> list[Text]:
        ended = self.hand_end
        return info_lines(self.session, width, -1 if ended is None else ended.index)

    def table_text(self, width: int, height: int) -> Text:
        return table_text(self.scene(), width, height)

    def hand_lines(self, width: int) -> tuple[list[Text], list[Span]]:
        return hand_lines(self.scene(), width)

    def message_text(self, width: int) -> Text:
        return message_text(self.scene(), width)

    def legal_cards(self) -> list[Card]:
        return legal_cards(self.session)

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
        if self.hand_end is not None and not self.summary_open:
            self.open_summary()
            return
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
            self.error = _("Wait for your turn.")
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
                self.error = _("Wait for your turn.")
                self.redraw()
                return
            try:
                move = s.parse_typed(text)
            except SaladError as exc:
                self.error = str(exc)
                self.redraw()
                return
            card = card_of(s.deck, move)
            if card in self.legal_cards():  # a refused card leaves the cursor where it was
                self.cursor = card
            self.human_move(move)
            return
        if any(code.startswith(text) for code in self.codes):
            self.entry = text
        else:
            self.entry = ""
            first, second = card_examples(s.deck)
            self.error = _("{text} is not a card (type e.g. {first} or {second}).").format(
                text=text, first=first, second=second
            )
        self.redraw()

    # -- the keys --------------------------------------------------------------------------
    def action_help(self) -> None:
        self.app.push_screen(InfoScreen(_("Keys"), help_page(self.session)))

    def action_hint(self) -> None:
        s = self.session
        if not s.human_turn() or self.blocked or s.game.phase == Phase.TRUMP:
            self.error = _("A hint is for your turn.")
            self.redraw()
            return
        self.news = _("Thinking about a hint…")
        self.error = ""
        self.redraw()
        stamp = (self.generation, len(s.game.log))
        view = s.view()

        def work() -> None:
            try:
                found = s.hint(view)
            except Exception as exc:
                self._from_thread(self._hint_failed, str(exc))
                return
            self._from_thread(self._hint_done, stamp, found)

        self.run_worker(work, group="hint", thread=True, exclusive=True, exit_on_error=False)

    def _hint_done(self, stamp: tuple[int, int], found: Hint) -> None:
        s = self.session
        if stamp != (self.generation, len(s.game.log)):
            return
        move = found.move
        self.hint_move = move
        self.cursor = card_of(s.deck, move)
        label = shown.move_label(s.deck, move)
        self.news = _("Hint ({bot}): play {card}: {reason}; Enter plays it.").format(
            bot=s.hint_bot_name, card=label, reason=s.hint_reason(found)
        )
        self.redraw()

    def _hint_failed(self, message: str) -> None:
        self.error = _("No hint: {message}").format(message=message)
        self.redraw()

    def action_undo(self) -> None:
        s = self.session
        if not s.can_undo():
            self.error = _("Nothing to undo: you have not played yet.")
            self.redraw()
            return
        self.generation += 1
        self.bot_pending = False
        count = s.undo()
        self.hands_done = len(s.game.hand_points)
        self.over_shown = False
        self.hand_end = None
        self.summary_open = False
        self.blocked = False
        self.cursor = None
        self.hint_move = None
        self.entry = ""
        self.error = ""
        self.news = ngettext(
            "Took back your last play ({n} move).", "Took back your last play ({n} moves).", count
        ).format(n=count)
        self.advance()

    def action_last_trick(self) -> None:
        s = self.session
        info = last_trick(s.game)
        if info is None:
            self.error = _("No trick has been played yet.")
            self.redraw()
            return
        title = _("Hand {hand}, trick {trick}").format(
            hand=info.hand_index + 1, trick=info.number + 1
        )
        self.app.push_screen(InfoScreen(title, last_trick_page(s, info)))

    def action_sheet(self) -> None:
        self.app.push_screen(InfoScreen(_("Score sheet"), sheet_page(self.session)))

    def action_rules(self) -> None:
        self.app.push_screen(InfoScreen(_("Rules"), rules_page(self.session)))

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
            self.error = _("Not saved: {reason}").format(reason=exc)
            self.redraw()
            return False
        self.error = ""
        self.news = _("Saved to {path}.").format(path=saved)
        self.redraw()
        return True

    def exit_message(self) -> str:
        s = self.session
        g = s.game
        if g.is_over():
            saved = (
                [_("The finished game is saved in {path}.").format(path=s.save_path)]
                if s.save_path
                else []
            )
            return "\n".join([_("Final scores:"), *s.result_lines(), *saved])
        if s.save_path is not None:
            return _("Saved to {path}; continue with: salad play --resume {path}").format(
                path=s.save_path
            )
        if s.keeping:
            return _(
                "The game is kept in {path}: salad play --continue carries on with it."
            ).format(path=s.kept)
        return _("Game not saved.")

    def exit_saving(self) -> None:
        """Quit, saving first when the game has a file (--save, or an earlier save); a save
        that fails quits with status 1 and says why."""
        s = self.session
        if s.save_path is not None:
            try:
                s.save()
            except SaladError as exc:
                self.app.exit(_("Not saved: {reason}").format(reason=exc), return_code=1)
                return
        self.app.exit(self.exit_message())

    def request_quit(self) -> None:
        s = self.session
        g = s.game
        if g.is_over() or not s.can_undo() or s.save_path is not None:
            self.exit_saving()
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
            quit_dialog(),
            lambda answer: done(answer if answer != 2 else None),
        )


def footer_width(screen: Screen[None]) -> int:
    """How wide the footer of ``screen`` is with its keys spaced out (``? Help  h Hint``)."""
    # The screen's and the app's own keys, as they are made (widgets.Speaking): the footer shows
    # those (Textual's own, such as Tab, are not shown).
    shown = [
        b
        for b in [*type(screen).BINDINGS, *type(screen.app).BINDINGS]
        if isinstance(b, Binding) and b.show and b.description
    ]
    keys = [b.key.replace("ctrl+", "^").replace("question_mark", "?") for b in shown]
    return 1 + sum(len(k) + len(b.description) + 3 for k, b in zip(keys, shown, strict=True))
