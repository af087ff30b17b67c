"""The terminal app of `salad play`, driven by Textual's pilot at 80x24."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from textual import events
from tui_harness import run, screen_text, settle, widget_text

from salad.bots import make_bot
from salad.cli import make_ruleset
from salad.engine import Game
from salad.formats.rules import load_ruleset
from salad.tui.app import SaladApp
from salad.tui.dialogs import ChoiceScreen, InfoScreen
from salad.tui.game_screen import GameScreen
from salad.tui.render import Scene, hand_lines, legal_cards, message_text, table_text
from salad.tui.session import Session, default_names
from salad.tui.widgets import HandView, MessageBar, TableView
from salad.tui.words import cards_in_order
from salad.view import Phase

SIZE = (80, 24)


def new_app(
    rules: str = "canadian",
    players: int = 4,
    seed: int = 1,
    toppings: str | None = None,
    save: Path | None = None,
) -> SaladApp:
    rs = make_ruleset(rules, toppings)
    app = SaladApp(Session.new(rs, players, 0, "random", seed, save_path=save), delay=0.0)
    app.game_screen.hand_end_pause = 0.0
    return app


def test_a_whole_hand_by_keys() -> None:
    """Arrow keys and Enter play a whole hand; the screen shows the round, the cards and the
    result, and the next hand starts after Enter."""

    async def go() -> None:
        app = new_app(seed=1)
        async with app.run_test(size=SIZE) as pilot:
            s = app.session
            g = s.game
            await settle(pilot, app)
            svg = screen_text(app)
            assert "No Tricks" in svg and "Tricks 10 each" in svg
            assert "Your hand" in svg and "Hand 1 of 6" in svg
            for card in cards_in_order(g.deck, s.view().hand):
                assert g.deck.symbol(card) in svg
            table = widget_text(app, TableView)
            for name in s.names:
                assert name in table
            plays = 0
            while g.hand_index == 0:
                assert s.human_turn()
                before = len(g.log)
                await pilot.press("right", "left")
                cursor = app.game_screen.cursor
                assert cursor is not None and cursor in {m % g.deck.size for m in g.legal_moves()}
                await pilot.press("enter")
                plays += 1
                assert len(g.log) > before
                await settle(pilot, app)
            assert plays == g.deck.cards_each
            assert isinstance(app.screen, InfoScreen)
            assert "is over" in app.screen.title_text
            assert len(g.hand_points) == 1 and sum(g.hand_points[0]) == 130
            await pilot.press("enter")
            await settle(pilot, app)
            assert isinstance(app.screen, GameScreen)
            assert "Hand 2 of 6" in screen_text(app) and "No Hearts" in screen_text(app)

    run(go)


def test_typing_a_card_and_bad_input() -> None:
    async def go() -> None:
        app = new_app(seed=2)
        async with app.run_test(size=SIZE) as pilot:
            s = app.session
            g = s.game
            await settle(pilot, app)
            legal = [m for m in g.legal_moves()]
            held = cards_in_order(g.deck, s.view().hand)
            illegal = [c for c in held if c not in legal]
            assert illegal, "seed 2 deals you a card you may not lead"
            # a card you hold but may not play: a one-line reason, nothing played, and the
            # cursor stays where it was (it moved onto the refused card)
            cursor = app.game_screen.cursor
            before = len(g.log)
            await pilot.press(*g.deck.format(illegal[0]).lower())
            assert len(g.log) == before
            message = widget_text(app, MessageBar)
            assert "cannot play" in message and "follow" in message
            assert app.game_screen.cursor == cursor and cursor != illegal[0]
            before = len(g.log)
            await pilot.press("x", "z")  # not a card at all
            assert len(g.log) == before
            await pilot.press("2", "x")
            assert "not a card" in widget_text(app, MessageBar)
            code = g.deck.format(legal[0])
            if code.startswith("T"):
                code = "10" + code[1:]
            await pilot.press(*code.lower())
            assert any(e[0] == 5 and e[2] == legal[0] for e in g.log[before:])

    run(go)


def test_click_undo_hint_last_sheet_help() -> None:
    async def go() -> None:
        app = new_app(seed=3)
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            s = app.session
            g = s.game
            gs = app.game_screen
            await settle(pilot, app)
            await pilot.press("u")
            assert "Nothing to undo" in widget_text(app, MessageBar)
            state = (list(g.log), s.view())
            # Click the first legal card of the hand.
            hand = gs.query_one(HandView)
            legal = {m % g.deck.size for m in g.legal_moves()}
            row, x0, _, card = next(span for span in hand.spans if span[3] in legal)
            await pilot.click(HandView, offset=(x0 + 1, row))
            assert any(e[0] == 5 and e[1] == s.seat for e in g.log[len(state[0]) :])
            await settle(pilot, app)
            await pilot.press("l")
            assert isinstance(app.screen, InfoScreen) and "trick" in app.screen.title_text
            await pilot.press("escape")
            await pilot.press("u")
            await settle(pilot, app)
            assert g.log == state[0] and s.view() == state[1]
            assert "Took back" in widget_text(app, MessageBar)
            await pilot.press("h")
            for _ in range(500):
                await pilot.pause(0.01)
                if gs.hint_move is not None:
                    break
            assert gs.hint_move in g.legal_moves()
            assert "Hint" in widget_text(app, MessageBar)
            hinted = gs.hint_move
            before = len(g.log)
            await pilot.press("enter")  # plays the hinted card
            assert g.log[before][1:] == (s.seat, hinted)
            await settle(pilot, app)
            await pilot.press("p")
            assert isinstance(app.screen, InfoScreen) and app.screen.title_text == "Score sheet"
            await pilot.press("escape")
            await pilot.press("question_mark")
            assert isinstance(app.screen, InfoScreen) and app.screen.title_text == "Keys"
            await pilot.press("escape")
            await pilot.press("r")
            assert isinstance(app.screen, InfoScreen) and app.screen.title_text == "Rules"
            await pilot.press("ctrl+s")  # over a box: says why nothing is saved (it was silent)
            await pilot.pause(0.05)
            toasts = " ".join(str(t.render()) for t in app.screen.query("Toast"))
            assert "Close this box first (Esc), then Ctrl+S saves the game." in toasts
            await pilot.press("escape")
            assert isinstance(app.screen, GameScreen)

    run(go)


def test_save_and_resume_in_the_app(tmp_path: Path) -> None:
    path = tmp_path / "game.json"

    async def go() -> None:
        app = new_app(seed=4, save=path)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            for _ in range(3):
                await pilot.press("enter")
                await settle(pilot, app)
            await pilot.press("ctrl+s")
            assert path.exists()
            saved = (list(app.session.game.log), app.session.view())
        resumed = Session.resume(path)
        assert resumed.game.log == saved[0] and resumed.view() == saved[1]
        assert resumed.bot_names == ["", "random", "random", "random"]
        app2 = SaladApp(resumed, delay=0.0)
        async with app2.run_test(size=SIZE) as pilot:
            await settle(pilot, app2)
            assert app2.session.human_turn()
            await pilot.press("ctrl+q")  # saves to the same file and quits
        assert app2.return_value is not None and "resume" in app2.return_value

    run(go)


def test_passing_wild_cards_and_trump() -> None:
    """Skip the Salad with every topping: passing, Wilds declared high or low, trump chosen."""

    async def go() -> None:
        rs = make_ruleset("skip-the-salad", "all")
        # A game whose first hand leaves you (seat 0) in last place, to pick the trump.
        for seed in range(100):
            game = Game(rs, 3, seed=seed)
            bot = make_bot("random", seed)
            while game.hand_index == 0:
                game.play(bot.choose(game.view(game.to_move)))
            if game.phase == Phase.TRUMP and game.to_move == 0:
                break
        assert game.phase == Phase.TRUMP and game.to_move == 0
        bots = ["", "random", "random"]
        session = Session(game, 0, bots, default_names(bots, 0))
        app = SaladApp(session, delay=0.0)
        app.game_screen.hand_end_pause = 0.0
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            g = session.game
            declared = passed = 0
            assert isinstance(app.screen, ChoiceScreen)
            await pilot.press("2")
            assert g.trump == 1 and g.phase == Phase.PASS
            await settle(pilot, app)
            while g.hand_index == 1:
                if isinstance(app.screen, ChoiceScreen):
                    await pilot.press("h" if declared % 2 == 0 else "l")
                    declared += 1
                elif g.phase == Phase.PASS:
                    await pilot.press("enter")
                    passed += 1
                else:
                    wild = [m for m in g.legal_moves() if g.deck.declare_mask >> m & 1]
                    if wild:
                        app.game_screen.cursor = wild[0]
                    await pilot.press("enter")
                await settle(pilot, app)
            assert passed == rs.passing
            assert declared > 0

    run(go)


@pytest.mark.parametrize(
    ("rules", "players", "toppings"),
    [("canadian", 3, None), ("skip-the-salad", 8, "all"), ("extended", 10, None)],
)
def test_fits_80x24(rules: str, players: int, toppings: str | None) -> None:
    async def go() -> None:
        app = new_app(rules, players, seed=5, toppings=toppings)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            gs = app.game_screen
            for widget in gs.query("InfoBar, TableView, HandView, MessageBar, Footer"):
                region = widget.region
                assert region.height > 0 and region.bottom <= SIZE[1] and region.right <= SIZE[0]
            table = widget_text(app, TableView)
            for name in app.session.names:
                assert name.split()[-1] in table

    run(go)


def test_names_in_the_record_survive_resume(tmp_path: Path) -> None:
    rs = load_ruleset("canadian")
    s = Session.new(
        rs, 4, seat=2, bots="random,basic,random", seed=9, save_path=tmp_path / "g.json"
    )
    s.play(s.game.legal_moves()[0])
    s.save()
    back = Session.resume(tmp_path / "g.json")
    assert back.seat == 2 and back.names == s.names and back.bot_names == s.bot_names


def test_resume_in_another_seat(tmp_path: Path) -> None:
    rs = load_ruleset("canadian")
    s = Session.new(rs, 4, seat=0, bots="basic", seed=9, save_path=tmp_path / "g.json")
    s.save()
    back = Session.resume(tmp_path / "g.json", seat=2)
    assert back.names == ["Expert 0", "Basic 1", "You", "Basic 3"]
    assert back.bot_names == ["expert", "basic", "", "basic"]


def test_the_screen_is_drawn_without_textual() -> None:
    """render and pages draw the game from the session alone; neither imports Textual."""
    s = Session.new(load_ruleset("canadian"), 4, 0, "random", seed=1)
    g = s.game
    while not s.human_turn():
        s.play(s.bot_choose(g.to_move, g.view(g.to_move)))
    scene = Scene(s, s.view(), news="You dealt.", cursor=legal_cards(s)[0])
    table = table_text(scene, 80, 16).plain.splitlines()
    assert len(table) == 16 and all(len(line) <= 80 for line in table)
    assert "You (D)" in table[-3] and "your turn" in table[-2]
    for seat in range(1, 4):
        assert s.names[seat] in "\n".join(table)
    lines, spans = hand_lines(scene, 80)
    assert lines[0].plain.startswith(" Your hand · 13 cards")
    assert [card for *_, card in spans] == cards_in_order(g.deck, s.view().hand)
    message = message_text(scene, 80).plain.splitlines()
    assert message[0] == " You dealt." and message[1].startswith(" Your turn: follow")
    code = (
        "import sys; import salad.tui.render, salad.tui.pages, salad.tui.plain; "
        "sys.exit('textual' in sys.modules)"
    )
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


# -- issue 18: the screen answers while an expert thinks (on a worker thread) ----------------

THINK_S = 2.0
"""The expert's budget a move here: long enough to press keys while it thinks."""
ANSWER_S = 1.0
"""The longest a page may take to open and close meanwhile (0.15-0.3 s measured on a busy
2-core machine; a bot thinking on the screen's own thread would hold it for its whole 2 s)."""


def expert_leads_first() -> Session:
    """A game whose first move is an expert's (the human, seat 0, waits)."""
    rs = make_ruleset("canadian", None)
    for seed in range(1, 50):
        session = Session.new(rs, 4, 0, "expert", seed, move_time=THINK_S)
        if session.game.to_move != 0:
            return session
    raise AssertionError("no seed where a bot leads first")


async def key_answered(
    app: SaladApp, key: str, char: str | None, done: Callable[[], bool]
) -> float:
    """Seconds from a key reaching the app to ``done()``. (The pilot's own ``press`` waits
    for the whole process to go idle, which a thinking bot's thread never lets it.)"""
    event = events.Key(key, char)
    event.set_sender(app)
    start = time.perf_counter()
    assert app._driver is not None
    app._driver.send_message(event)
    while not done():
        assert time.perf_counter() - start < 5, f"{key}: no answer in 5 s"
        await asyncio.sleep(0.002)
    return time.perf_counter() - start


def test_pages_open_and_close_while_an_expert_thinks() -> None:
    async def go() -> None:
        app = SaladApp(expert_leads_first(), delay=0.0)
        async with app.run_test(size=SIZE) as pilot:
            gs = app.game_screen
            pages = [("question_mark", "?", "Keys"), ("r", "r", "Rules"), ("p", "p", "Score sheet")]
            times: list[float] = []  # each with an expert thinking from before to after
            for _ in range(2000):
                if len(times) == len(pages):
                    break
                if app.session.human_turn():
                    await pilot.press("right", "left", "enter")
                    continue
                if not gs.bot_pending:
                    await asyncio.sleep(0.01)
                    continue
                key, char, title = pages[len(times)]

                def opened(title: str = title) -> bool:
                    return isinstance(app.screen, InfoScreen) and app.screen.title_text == title

                took = await key_answered(app, key, char, opened)
                took += await key_answered(
                    app, "escape", None, lambda: isinstance(app.screen, GameScreen)
                )
                if gs.bot_pending:  # still thinking: the page came and went meanwhile
                    times.append(took)
            assert len(times) == len(pages), times
            assert max(times) < ANSWER_S, times

    run(go)
