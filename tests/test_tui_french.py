"""The terminal app and the plain mode in French (Canada) and in the pseudo-locale: cards shown
and typed the French way (D♠, DP, 10C), every word from the catalog (#35)."""

from __future__ import annotations

import io
import re

import pytest
from textual.widgets import Footer
from tui_harness import run, screen_text, settle, widget_text

from salad.cli import make_ruleset
from salad.errors import CardParseError
from salad.formats.rules import load_ruleset
from salad.locale import cards as shown
from salad.locale import use, using
from salad.moves import move_code
from salad.presets import CANADIAN, SKIP_THE_SALAD
from salad.tui.app import SaladApp
from salad.tui.game_screen import GameScreen
from salad.tui.plain import run_plain
from salad.tui.render import Scene, hand_lines, info_lines, message_text, table_text
from salad.tui.session import Session
from salad.tui.widgets import HandView, InfoBar, MessageBar, TableView

NBSP = "\u00a0"
SIZE = (80, 24)


# -- cards in French ---------------------------------------------------------------------------


def test_french_cards_are_shown_named_and_typed_the_french_way() -> None:
    deck = CANADIAN.deck_for(4)
    queen, ten, jack = deck.parse("QS"), deck.parse("TH"), deck.parse("JD")
    with using("fr"):
        assert [shown.short(deck, c) for c in (queen, ten, jack)] == ["D♠", "10♥", "V♦"]
        assert [shown.typed(deck, c) for c in (queen, ten, jack)] == ["DP", "10C", "VK"]
        assert shown.name(deck, queen) == "Dame de pique"
        assert shown.name(deck, ten) == "10 de cœur"
        for text in ("dp", "DP", "d♠", "D♠", " Dp "):
            assert shown.parse(deck, text) == queen
        assert shown.parse(deck, "10c") == ten
        assert shown.parse(deck, "at") == deck.parse("AC")  # T is trèfle in French
        assert shown.examples(deck) == ("DP", "10C")
    # English codes stay English: in English, AC is the Ace of Clubs.
    assert shown.parse(deck, "ac") == deck.parse("AC")
    assert shown.short(deck, queen) == "Q♠"


@pytest.mark.parametrize("text", ["QS", "TH", "JD", "KC", "zz", ""])
def test_french_input_refuses_english_codes_in_one_french_line(text: str) -> None:
    deck = CANADIAN.deck_for(4)
    with using("fr"), pytest.raises(CardParseError) as caught:
        shown.parse(deck, text)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"«{NBSP}{text}{NBSP}» n'est pas une carte")
    assert "DP, 10C" in message


def test_french_ac_is_the_ace_of_hearts() -> None:
    """A mode, not a mix: AC is the Ace of Hearts in French (C = cœur)."""
    deck = CANADIAN.deck_for(4)
    with using("fr"):
        assert deck.format(shown.parse(deck, "AC")) == "AH"


def test_skip_the_salad_in_french_keeps_its_suit_letters() -> None:
    deck = SKIP_THE_SALAD.deck_for(4)
    with using("fr"):
        king = shown.parse(deck, "RO")
        assert deck.format(king) == "KO"
        assert shown.short(deck, king) == "R🧅"
        assert shown.name(deck, king) == "Roi d'Oignons"
        assert shown.name(deck, shown.parse(deck, "10t")) == "10 de Tomates"
        assert shown.name(deck, deck.parse("W")) == "Passe-partout"
        assert deck.format(shown.to_move(deck, "W+") % deck.size) == "W"
        assert shown.to_move(deck, "W+") >= deck.size  # declared high


def test_every_card_of_every_deck_reads_back_in_french() -> None:
    for rules in ("canadian", "fruit-salad", "skip-the-salad", "wisconsin-scramble"):
        for players in (3, 4, 7):
            try:
                deck = load_ruleset(rules).deck_for(players)
            except Exception:  # a preset that does not seat this many
                continue
            with using("fr"):
                for card, code in enumerate(deck.codes):
                    back = shown.parse(deck, shown.typed(deck, card))
                    assert deck.codes[back] == code, (rules, code)
                    back = shown.parse(deck, shown.short(deck, card))
                    assert deck.codes[back] == code, (rules, code)


# -- the plain mode ----------------------------------------------------------------------------


def queen_of_spades_lead() -> Session:
    """A game where you (seat 0) may play the Queen of Spades at your first turn."""
    rs = load_ruleset("canadian")
    for seed in range(1, 400):
        s = Session.new(rs, 4, 0, "random", seed)
        g = s.game
        while not s.human_turn():
            g.play(s.bot_choose(g.to_move, g.view(g.to_move)))
        if any(move_code(s.deck, m) == "QS" for m in g.legal_moves()):
            return Session.new(rs, 4, 0, "random", seed)
    raise AssertionError("no seed lets you play the Queen of Spades first")


def plain(session: Session, lines: list[str]) -> tuple[int, list[str], str]:
    out, err = io.StringIO(), io.StringIO()
    code = run_plain(session, io.StringIO("".join(f"{x}\n" for x in lines)), out, err)
    return code, out.getvalue().splitlines(), err.getvalue()


def test_plain_mode_in_french_accepts_dp_and_refuses_qs() -> None:
    with using("fr"):
        session = queen_of_spades_lead()
        code, lines, err = plain(session, ["QS", "DP"])
    assert code == 1 and "Traceback" not in err
    assert err.strip() == (
        f"fin de l'entrée{NBSP}: la partie s'arrête sans être finie; gardée dans "
        f"{session.kept}{NBSP}: salad play --continue la reprend"
    )
    refused = [x for x in lines if "QS" in x]
    assert refused == [
        f"«{NBSP}QS{NBSP}» n'est pas une carte{NBSP}: tape par exemple DP, 10C (ou aide)."
    ]
    assert f"Toi{NBSP}: D♠" in lines or f"Toi{NBSP}: DP" in lines  # played
    assert any(x.startswith("Ta main") for x in lines)
    assert any(x.startswith("Permises") and "DP" in x for x in lines)
    assert lines[0].startswith("Salade canadienne, 4 joueurs")


def test_plain_mode_in_french_speaks_french_commands() -> None:
    with using("fr"):
        session = queen_of_spades_lead()
        _code, lines, _err = plain(session, ["aide", "dernière", "pointage", "help"])
    text = "\n".join(lines)
    assert "Commandes" in text and "aide" in text and "enregistrer [FICHIER]" in text
    assert "Aucune levée n'a encore été jouée." in text
    assert text.count("Commandes") == 2  # the English word works too
    assert not re.search(r"\b(Your|You are|Trick|Legal|Points this hand)\b", text)


# -- the terminal app --------------------------------------------------------------------------


def new_app(seed: int = 1) -> SaladApp:
    app = SaladApp(Session.new(make_ruleset("canadian", None), 4, 0, "random", seed), delay=0.0)
    app.game_screen.hand_end_pause = 0.0
    return app


def test_the_app_in_french_shows_french_labels() -> None:
    async def body() -> None:
        use("fr")
        app = new_app()
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            info = widget_text(app, InfoBar)
            assert "Salade canadienne" in info and "Donne 1 sur 6" in info
            assert "Pas de levées" in info and "Levées 10 chacune" in info
            hand = app.game_screen.query_one(HandView).render()
            assert "Ta main" in str(hand) and "13 cartes" in str(hand)
            assert "Toi" in widget_text(app, TableView)
            footer = app.game_screen.query_one(Footer)
            app.game_screen.refresh_bindings()  # the footer shows the keys it is told of
            for _wait in range(500):
                if footer.children:
                    break
                await pilot.pause(0.01)
            await pilot.pause(0.05)
            screen = screen_text(app)
            for label in ("Aide", "Indice", "Annuler", "Règles", "Quitter"):
                assert label in screen, label
            footer = app.game_screen.query_one(Footer)
            assert footer.compact  # the French words need the compact footer at 80 columns
            # The rules moved to Ctrl+R: R types a King in French.
            await pilot.press("r")
            assert app.game_screen.entry == "R"
            await pilot.press("escape")
            await pilot.press("ctrl+r")
            await pilot.pause()
            assert "Règles" in screen_text(app)
            await pilot.press("escape")
            await pilot.press("question_mark")
            await pilot.pause()
            page = screen_text(app)
            assert "Touches" in page and "Ctrl+R" in page and "dp, 10c" in page
            await pilot.press("escape")
            await pilot.press("p")
            await pilot.pause()
            assert "Feuille de pointage" in screen_text(app)
            await pilot.press("escape")
            # Q starts no card in French; V (Valet) does, VS (English spades) is none.
            await pilot.press("q")
            assert app.game_screen.entry == ""
            await pilot.press("v", "s")
            message = widget_text(app, MessageBar)
            assert "VS n'est pas une carte (tape par exemple DP ou 10C)." in message
            # The bots play in worker threads: what they did is told in French too.
            gs = app.game_screen
            for _trick in range(3):
                await pilot.press("escape", "enter")
                await settle(pilot, app)
                if not isinstance(app.screen, GameScreen):
                    break
                assert "prend la levée" in gs.news or "tu prends" in gs.news, gs.news
                assert not re.search(r"\b(takes|trick|dealt|You)\b", gs.news), gs.news

    run(body)


ENGLISH = re.compile(r"\b[A-Za-z]{3,}\b")
ALLOWED = {"Random", "Ctrl", "pts", "tot", "Expert"}
"""Names (the bots'), keys and numbers' units may stay as they are."""


def unbracketed_words(text: str) -> list[str]:
    """The words of ``text`` outside the pseudo-locale's [brackets]."""
    outside = re.sub(r"\[[^\[\]]*\]", " ", re.sub(r"\[[^\[\]]*\]", " ", text))
    return [w for w in ENGLISH.findall(outside) if w not in ALLOWED]


def test_the_pseudo_locale_leaves_no_unbracketed_english_on_the_game_screen() -> None:
    with using("en-XA"):
        for rules, players, seed in (("canadian", 4, 1), ("skip-the-salad", 5, 2)):
            s = Session.new(make_ruleset(rules, None), players, 0, "random", seed)
            g = s.game
            for _step in range(60):  # a few tricks in: every part of the table filled
                if g.is_over():
                    break
                if s.human_turn():
                    scene = Scene(s, s.view())
                    texts = [line.plain for line in info_lines(s, 80)]
                    texts.append(table_text(scene, 80, 12).plain)
                    texts += [line.plain for line in hand_lines(scene, 80)[0]]
                    texts.append(message_text(scene, 80).plain)
                    assert not unbracketed_words("\n".join(texts)), texts
                g.play(
                    g.legal_moves()[0]
                    if s.human_turn()
                    else s.bot_choose(g.to_move, g.view(g.to_move))
                )
            narrated = s.narrate(g.log, symbols=True)
            assert not unbracketed_words("\n".join(narrated)), narrated


def test_the_pseudo_locale_in_the_app() -> None:
    async def body() -> None:
        use("en-XA")
        app = new_app(seed=2)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            assert isinstance(app.screen, GameScreen)
            for widget in (InfoBar, TableView, MessageBar):
                words = unbracketed_words(widget_text(app, widget))
                assert not words, (widget, words)

    run(body)
