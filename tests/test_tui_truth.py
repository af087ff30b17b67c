"""`salad play` tells the truth (issue 13): the finished game is saved on quit, the last trick
of a hand is seen being won before its points by penalty, texts come from the rules in play,
--save is checked at once, and the chosen card is marked without colour."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from rich.console import Console, RenderableType
from tui_harness import run, widget_text

from salad.bots import make_bot
from salad.cli import make_ruleset
from salad.errors import SaladError
from salad.formats.rules import load_ruleset
from salad.tui.app import SaladApp
from salad.tui.dialogs import InfoScreen
from salad.tui.game_screen import GameScreen
from salad.tui.pages import help_page
from salad.tui.render import Scene, hand_lines, legal_cards, table_text
from salad.tui.session import Session
from salad.tui.widgets import MessageBar, TableView

SALAD = str(Path(sys.executable).with_name("salad"))
SIZE = (80, 24)


def text_of(renderable: RenderableType) -> str:
    console = Console(width=100, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def played_out(session: Session) -> None:
    """Every seat, yours too, played by a random bot to the end of the game."""
    g = session.game
    bot = make_bot("random", 1)
    while not g.is_over():
        g.play(bot.choose(g.view(g.to_move)))


def test_quitting_from_the_game_over_dialog_saves_the_finished_game(tmp_path: Path) -> None:
    path = tmp_path / "done.json"
    session = Session.new(load_ruleset("canadian"), 4, 0, "random", seed=3, save_path=path)
    played_out(session)

    async def go() -> None:
        app = SaladApp(session, delay=0.0)
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(200):
                await pilot.pause(0.01)
                if isinstance(app.screen, InfoScreen):
                    break
            assert isinstance(app.screen, InfoScreen) and "over" in app.screen.title_text
            await pilot.press("q")
        assert app.return_value is not None and f"saved in {path}" in app.return_value

    run(go)
    assert path.exists()
    verify = subprocess.run([SALAD, "record", "verify", str(path)], capture_output=True, text=True)
    assert verify.returncode == 0, verify.stderr
    assert verify.stdout.startswith("OK ")


def test_a_failed_save_quits_with_status_1(tmp_path: Path) -> None:
    folder = tmp_path / "gone"
    folder.mkdir()
    session = Session.new(
        load_ruleset("canadian"), 4, 0, "random", seed=3, save_path=folder / "g.json"
    )
    shutil.rmtree(folder)

    async def go() -> None:
        app = SaladApp(session, delay=0.0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause(0.05)
            await pilot.press("ctrl+q")
            await pilot.pause(0.05)
        assert app.return_code == 1
        assert app.return_value is not None and app.return_value.startswith("Not saved:")

    run(go)


def test_the_last_trick_is_seen_being_won_then_the_points_by_penalty() -> None:
    async def go() -> None:
        app = SaladApp(Session.new(load_ruleset("canadian"), 4, 0, "random", 1), delay=0.0)
        gs = app.game_screen
        gs.hand_end_pause = 60.0  # the summary waits for Enter
        async with app.run_test(size=SIZE) as pilot:
            s = app.session
            g = s.game
            for _ in range(4000):
                await pilot.pause(0.002)
                if gs.hand_end is not None:
                    break
                if s.human_turn() and not gs.bot_pending and isinstance(app.screen, GameScreen):
                    await pilot.press("enter")
            assert gs.hand_end is not None and gs.hand_end.index == 0
            assert isinstance(app.screen, GameScreen)  # the table, not yet the summary
            table = widget_text(app, TableView)
            assert "Last trick of hand 1" in table
            assert "takes it" in table or "take it" in table
            assert "thinking" not in table and "your turn" not in table
            for points in g.hand_points[0]:
                assert f"{points} pts" in table
            message = widget_text(app, MessageBar)
            assert "to play" not in message and "Enter" in message
            await pilot.press("enter")
            assert isinstance(app.screen, InfoScreen) and "is over" in app.screen.title_text
            body = text_of(app.screen.body)
            assert "Tricks" in body and "This hand" in body and "Total" in body
            await pilot.press("enter")
            await pilot.pause(0.05)
            assert gs.hand_end is None and isinstance(app.screen, GameScreen)

    run(go)


def test_the_boxes_of_a_finished_game_show_the_hand_as_scored() -> None:
    """The last hand's points include its last trick (a box said 125 where the sheet said
    225)."""
    s = Session.new(load_ruleset("canadian"), 4, 0, "random", seed=2)
    played_out(s)
    table = table_text(Scene(s, s.view()), 100, 20).plain
    for seat, points in enumerate(s.game.hand_points[-1]):
        assert f"{points} pts · total {s.game.totals[seat]}" in table


def test_a_box_s_total_counts_the_hand_in_play() -> None:
    """Mid-hand, a box's total is the totals before the hand plus its points so far (it showed
    "100 pts · total 20": the hand in play left out)."""
    s = Session.new(load_ruleset("canadian"), 4, 0, "random", seed=2)
    g = s.game
    while g.hand_index < 1 or not any(g.view(0).running):  # into hand 2, points taken
        g.play(g.legal_moves()[0])
    view = s.view()
    table = table_text(Scene(s, view), 100, 20).plain
    for seat in range(4):
        run, before = view.running[seat], view.totals[seat]
        assert f"{run} pts · total {before + run}" in table


def test_the_card_that_led_the_trick_is_marked() -> None:
    """Mid-trick, the leader's box marks its card "led" (who led, and so the order of play, was
    not shown); only one box does."""
    s = Session.new(load_ruleset("canadian"), 4, 0, "random", seed=2)
    g = s.game
    while not (g.view(0).trick and len(g.view(0).trick) < 4):
        g.play(g.legal_moves()[0])
    view = s.view()
    table = table_text(Scene(s, view), 100, 20).plain
    boxes = [line for line in table.splitlines() if " led " in line and "│" in line]
    assert len(boxes) == 1, table


def test_help_and_examples_come_from_the_rules_in_play() -> None:
    rs = make_ruleset("skip-the-salad", "all")
    s = Session.new(rs, 4, 0, "random", seed=1)
    text = " ".join(text_of(help_page(s)).split())
    assert "QS" not in text.upper() and "10H" not in text.upper()
    assert "qo, 10t" in text
    assert "Avoid" not in text and "highest total" in text
    assert "● marks the holder of the Rotten Tomato" in text
    assert "SD: Salad Dressing" in text
    canadian = " ".join(text_of(help_page(Session.new(load_ruleset("canadian"), 4))).split())
    assert "qs, 10h" in canadian and "Avoid the penalties" in canadian
    assert "Rotten" not in canadian and "Salad Dressing" not in canadian


def test_the_chosen_card_is_marked_without_colour() -> None:
    s = Session.new(load_ruleset("canadian"), 4, 0, "random", seed=1)
    g = s.game
    while not s.human_turn():
        s.play(s.bot_choose(g.to_move, g.view(g.to_move)))
    cursor = legal_cards(s)[0]
    lines, _ = hand_lines(Scene(s, s.view(), cursor=cursor), 80)
    text = "\n".join(line.plain for line in lines)
    assert f"[{g.deck.symbol(cursor)}]" in text
    assert text.count("[") == 1


def test_save_is_checked_when_the_game_starts(tmp_path: Path) -> None:
    rs = load_ruleset("canadian")
    for bad in (tmp_path / "no" / "g.json", tmp_path):
        try:
            Session.new(rs, 4, save_path=bad)
        except SaladError as exc:
            assert str(exc).startswith("save: ")
        else:
            raise AssertionError(f"{bad} was accepted")
    result = subprocess.run(
        [SALAD, "play", "--plain", "--save", str(tmp_path / "no" / "g.json")],
        capture_output=True,
        text=True,
        input="",
    )
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.startswith("error: save: ") and len(result.stderr.splitlines()) == 1
