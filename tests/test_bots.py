"""The playing bots: legal moves everywhere, views only, seeds, the sampler, speed, sense."""

from __future__ import annotations

import importlib.metadata
import random
import statistics
import time
from collections.abc import Mapping
from typing import Any

import pytest

from salad import Game, load_ruleset
from salad.bots import REGISTRY, Bot, bot_factory, bot_names, catalog, make_bot, parse_bots
from salad.bots.policy import choose_play, hand_model
from salad.bots.random_bot import RandomBot
from salad.bots.search import distinct_moves
from salad.bots.seeds import bot_seed
from salad.cards import NO_SUIT
from salad.errors import SaladError
from salad.events import DEAL, PLAY
from salad.ruleset import Ruleset
from salad.sampler import sample_hands, shown_voids
from salad.view import Phase, View

TINY: dict[str, Any] = {"worlds": 1}
"""Search budget for the searching bots in tests: one sampled world per move."""

PRESETS: list[tuple[str, Mapping[str, Any] | None]] = [
    ("canadian", None),
    ("fruit-salad", None),
    ("extended", None),
    ("skip-the-salad", {"toppings": "all"}),
    ("canadian", {"jokers": 2}),  # wild cards that never win (section 3's house rule)
]
IDS = ["canadian", "fruit-salad", "extended", "skip-the-salad-all", "canadian-jokers"]


def ruleset(preset: str, settings: Mapping[str, Any] | None) -> Ruleset:
    return load_ruleset(preset, settings)


class Checked:
    """Wraps a bot: every move it makes must be one of its view's legal moves."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.moves = 0

    def choose(self, view: View) -> int:
        move = self.bot.choose(view)
        assert move in view.legal_moves, (self.name, move, view.legal_moves)
        self.moves += 1
        return move


def play(game: Game, bots: list[Checked], hands: int | None = None) -> Game:
    stop = len(game.rules.hands) if hands is None else hands
    while not game.is_over() and game.hand_index < stop:
        seat = game.to_move
        game.play(bots[seat].choose(game.view(seat)))
    return game


# -- legal moves in every preset -------------------------------------------------------------


@pytest.mark.parametrize("players", range(3, 9))
@pytest.mark.parametrize(("preset", "settings"), PRESETS, ids=IDS)
def test_basic_plays_whole_games_legally(
    preset: str, settings: Mapping[str, Any] | None, players: int
) -> None:
    rs = ruleset(preset, settings)
    bots = [Checked(make_bot("basic", seed=s)) for s in range(players)]
    game = play(Game(rs, players, seed=players), bots)
    assert game.is_over()
    if not any(
        rs.compiled(players).hands[h].moon for h in range(len(rs.hands))
    ):  # no moon: every hand hands out its fixed total
        assert sum(game.totals) == rs.compiled(players).checksum


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7, 8])
@pytest.mark.parametrize(("preset", "settings"), PRESETS, ids=IDS)
def test_searching_bots_play_legally(
    preset: str, settings: Mapping[str, Any] | None, players: int
) -> None:
    rs = ruleset(preset, settings)
    names = ["expert", "advanced", "basic", "random"] * 2
    bots = [Checked(make_bot(names[s], seed=s, **TINY)) for s in range(players)]
    # Three hands (a whole game at four players): the trump choice and passing of Skip the
    # Salad's toppings come up too.
    hands = None if players == 4 else 3
    game = play(Game(rs, players, seed=100 + players), bots, hands=hands)
    assert game.is_over() if hands is None else game.hand_index == hands
    assert bots[0].moves and bots[1].moves


def test_skip_the_salad_phases_are_all_met() -> None:
    """Trump choices, passes, Wild declarations: every kind of move is made by every bot."""
    rs = ruleset("skip-the-salad", {"toppings": "all"})
    kinds: dict[str, set[str]] = {}
    for name in ("basic", "advanced", "expert"):
        seen: set[str] = set()
        for seed in range(3):
            bot = make_bot(name, seed=seed, **TINY)
            others = [make_bot("basic", seed=s) for s in range(3)]
            game = Game(rs, 4, seed=seed)
            while not game.is_over() and game.hand_index < 3:
                seat = game.to_move
                view = game.view(seat)
                move = (bot if seat == 0 else others[seat - 1]).choose(view)
                assert move in view.legal_moves
                if seat == 0:
                    size = game.deck.size
                    if view.phase == Phase.TRUMP:
                        seen.add("trump")
                    elif view.phase == Phase.PASS:
                        seen.add("pass")
                    elif size <= move < 2 * size:
                        seen.add("wild-high")
                game.play(move)
        kinds[name] = seen
    for name, seen in kinds.items():
        assert {"pass", "wild-high"} <= seen, (name, seen)
    assert any("trump" in seen for seen in kinds.values())


# -- views only ------------------------------------------------------------------------------


def reshuffled(game: Game, seat: int, rng: random.Random) -> Game:
    """The same game as ``seat`` sees it, with the other seats' unplayed cards dealt anew."""
    view = game.view(seat)
    log = game.log
    start = max(i for i, e in enumerate(log) if e[0] == DEAL)
    played = [0] * game.players
    for entry in log[start:]:
        if entry[0] == PLAY:
            played[int(entry[1])] |= 1 << (int(entry[2]) % game.deck.size)  # type: ignore[call-overload]
    for _ in range(50):
        now = sample_hands(view, rng)
        if now != game.hands:
            break
    deal = tuple(h | p for h, p in zip(now, played, strict=True))
    new_log = [*log[:start], (DEAL, log[start][1], log[start][2], deal), *log[start + 1 :]]
    other = Game.replay(game.ruleset, game.players, new_log)
    assert other.hands != game.hands
    return other


@pytest.mark.parametrize("name", ["basic", "advanced", "expert"])
@pytest.mark.parametrize(
    ("preset", "settings"),
    [("canadian", None), ("skip-the-salad", {"toppings": "spicy-pepper,salad-dressing"})],
)
def test_bots_see_only_their_view(
    name: str, preset: str, settings: Mapping[str, Any] | None
) -> None:
    rs = ruleset(preset, settings)
    rng = random.Random(4)
    checked = 0
    for seed in range(4):
        game = Game(rs, 4, seed=seed)
        filler = make_bot("basic", seed=0)
        # Into the second hand, a few tricks in.
        while game.hand_index < 1 or len(game.view(0).tricks) < 2 + seed:
            game.play(filler.choose(game.view(game.to_move)))
        seat = game.to_move
        other = reshuffled(game, seat, rng)
        view = game.view(seat)
        assert other.view(seat) == view
        a = make_bot(name, seed=11, worlds=4)
        b = make_bot(name, seed=11, worlds=4)
        assert a.choose(view) == b.choose(other.view(seat))
        checked += 1
    assert checked == 4


# -- seeds -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["basic", "advanced", "expert"])
def test_a_seed_makes_a_bot_deterministic(name: str) -> None:
    rs = ruleset("skip-the-salad", {"toppings": "all"})

    def run() -> list[tuple[object, ...]]:
        bots = [make_bot(name if s < 2 else "basic", seed=7 + s, worlds=2) for s in range(4)]
        game = Game(rs, 4, seed=9)
        while game.hand_index < 2:  # the second hand opens with a trump choice
            game.play(bots[game.to_move].choose(game.view(game.to_move)))
        return game.log

    assert run() == run()


def test_every_bot_accepts_move_time() -> None:
    game = Game(load_ruleset(), 4, seed=3)
    view = game.view(game.to_move)
    for name in ("random", "basic", "advanced", "expert"):
        bot = make_bot(name, seed=1, move_time=0.05)
        start = time.perf_counter()
        assert bot.choose(view) in view.legal_moves
        assert time.perf_counter() - start < 1.0


# -- the sampler -----------------------------------------------------------------------------


def views_along(rs: Ruleset, players: int, seed: int, every: int = 5) -> list[View]:
    """Views of the seat to move at many points of a basic-bot game."""
    bots = [make_bot("basic", seed=s) for s in range(players)]
    game = Game(rs, players, seed=seed)
    out = []
    step = 0
    while not game.is_over():
        seat = game.to_move
        view = game.view(seat)
        if step % every == 0 and view.phase in (Phase.PLAY, Phase.PASS, Phase.TRUMP):
            out.append(view)
        game.play(bots[seat].choose(view))
        step += 1
    return out


@pytest.mark.parametrize(
    ("preset", "settings", "players"),
    [
        ("canadian", None, 4),
        ("canadian", None, 3),
        ("extended", None, 6),
        ("skip-the-salad", {"toppings": "all"}, 4),
        ("skip-the-salad", {"toppings": "pass-the-veggies"}, 7),
    ],
)
def test_sampler_deals_fit_the_view(
    preset: str, settings: Mapping[str, Any] | None, players: int
) -> None:
    rs = ruleset(preset, settings)
    rng = random.Random(2)
    for view in views_along(rs, players, seed=21):
        deck = view.deck
        voids = shown_voids(view)
        offset = rs.pass_offset or players // 2
        receiver = (view.seat + offset) % players
        for _ in range(3):
            hands = sample_hands(view, rng)
            assert hands[view.seat] == view.hand
            assert [h.bit_count() for h in hands] == list(view.hand_sizes)
            union = 0
            for h in hands:
                assert not union & h
                union |= h
            assert union == deck.in_play & ~view.played
            for s in range(players):
                if s == view.seat:
                    continue
                for suit in range(len(deck.suits)):
                    if voids[s] >> suit & 1:
                        assert not hands[s] & deck.suit_masks[suit]
            if view.received:  # after the exchange: what this seat passed is with the receiver
                assert view.passed & ~view.played & ~hands[receiver] == 0
            Game.from_view(view, hands)  # a state the engine accepts


def test_sampler_sees_voids() -> None:
    """A seat that did not follow suit is never dealt that suit."""
    rs = load_ruleset()
    rng = random.Random(5)
    found = 0
    for view in views_along(rs, 4, seed=33, every=1):
        voids = shown_voids(view)
        for s, v in enumerate(voids):
            if s != view.seat and v:
                found += 1
                for _ in range(5):
                    hands = sample_hands(view, rng)
                    for suit in range(4):
                        if v >> suit & 1:
                            assert not hands[s] & view.deck.suit_masks[suit]
    assert found


def test_shown_voids_ignore_wild_cards() -> None:
    rs = ruleset("skip-the-salad", {"toppings": "salad-dressing"})
    for view in views_along(rs, 4, seed=8, every=1):
        voids = shown_voids(view)
        for t in view.tricks:
            led = NO_SUIT
            for i, mv in enumerate(t.moves):
                suit = view.deck.suit_of[mv % view.deck.size]
                if suit == NO_SUIT:
                    continue
                if led == NO_SUIT:
                    led = suit
                elif suit != led:
                    assert voids[(t.leader + i) % 4] >> led & 1


# -- speed and sense -------------------------------------------------------------------------


def test_basic_is_fast() -> None:
    rs = ruleset("skip-the-salad", {"toppings": "all"})
    bot = make_bot("basic", seed=0)
    times = []
    for players in (4, 8):
        game = Game(rs, players, seed=5)
        while not game.is_over():
            view = game.view(game.to_move)
            start = time.perf_counter()
            move = bot.choose(view)
            times.append(time.perf_counter() - start)
            game.play(move)
    assert statistics.mean(times) < 0.005


def mean_points(rs: Ruleset, hero: str, deals: range) -> tuple[float, float]:
    """Mean total of ``hero`` (rotated over the seats) and of its random opponents."""
    mine, theirs = [], []
    for deal in deals:
        for seat in range(4):
            bots = [
                make_bot(hero if s == seat else "random", seed=deal * 10 + s, **TINY)
                for s in range(4)
            ]
            game = Game(rs, 4, seed=deal)
            while not game.is_over():
                game.play(bots[game.to_move].choose(game.view(game.to_move)))
            mine.append(game.totals[seat])
            theirs.extend(t for s, t in enumerate(game.totals) if s != seat)
    return statistics.mean(mine), statistics.mean(theirs)


def test_basic_avoids_points() -> None:
    mine, theirs = mean_points(load_ruleset(), "basic", range(3))
    assert mine < 0.7 * theirs


def test_basic_seeks_points_when_the_highest_total_wins() -> None:
    mine, theirs = mean_points(load_ruleset("canadian", {"objective": "high"}), "basic", range(3))
    assert mine > 1.2 * theirs


# -- the search's move folding ---------------------------------------------------------------


def dealt(fixed: Mapping[int, str], settings: Mapping[str, Any] | None = None) -> Game:
    """A canadian 4-player game (seat 0 leads) with the given cards, the rest dealt in order."""
    game = Game(load_ruleset("canadian", settings), 4, first_dealer=3, auto_deal=False)
    deck = game.deck
    hands = [deck.parse_many(fixed.get(s, "")) for s in range(4)]
    rest = deck.in_play
    for h in hands:
        rest &= ~h
    for card in range(deck.size):
        if rest >> card & 1:
            seat = next(s for s in range(4) if hands[s].bit_count() < deck.cards_each)
            hands[seat] |= 1 << card
    game.deal(hands)
    return game


def test_search_folds_interchangeable_cards() -> None:
    game = dealt({0: "2C 3C 4C 7C 8C TC 2D 3D 4D 5D 6D 7D 8D"})
    view = game.view(0)
    model = hand_model(view.ruleset, 4, view.hand_index)
    codes = [game.deck.format(m) for m in distinct_moves(view, model)]
    # 2C 3C 4C touch, so do 7C 8C; 5C 6C and 9C are out there; all diamonds up to 8D touch.
    assert codes == ["2C", "7C", "TC", "2D"]
    assert len(distinct_moves(view)) == 13  # without the model only copies fold

    # A card in the current trick keeps the cards around it apart: 8C ducks under 9C, TC wins.
    game = dealt({0: "9C", 1: "8C TC"})
    game.play(game.deck.parse("9C"))
    view = game.view(1)
    model = hand_model(view.ruleset, 4, view.hand_index)
    codes = [game.deck.format(m) for m in distinct_moves(view, model)]
    assert "8C" in codes and "TC" in codes


# -- the basic bot's rules -------------------------------------------------------------------


def basic_plays(game: Game, *cards: str) -> str:
    """Play ``cards`` (from the seats in turn), then ask the basic bot for the next seat."""
    for code in cards:
        game.play(code)
    move = make_bot("basic").choose(game.view(game.to_move))
    return game.format_move(move)


def test_basic_ducks_under_the_winning_card() -> None:
    game = dealt({0: "QC", 1: "5C 8C TC KC"}, {"hands": ["no-tricks"]})
    assert basic_plays(game, "QC") == "TC"


def test_basic_wins_with_its_highest_card_when_it_must() -> None:
    game = dealt({0: "2C", 1: "3C", 2: "4C", 3: "JC AC"}, {"hands": ["no-tricks"]})
    assert basic_plays(game, "2C", "3C", "4C") == "AC"


def test_basic_sheds_its_most_dangerous_card_when_void() -> None:
    hand = "QS AH 3D 4D 5D 6D 7D 8D 9D TD JD KD AD"
    game = dealt({0: "2C", 1: hand}, {"hands": ["no-queens"]})
    assert basic_plays(game, "2C") == "QS"
    game = dealt({0: "2C", 1: hand}, {"hands": ["no-king-of-spades"]})
    assert basic_plays(game, "2C") != "QS"  # the queen costs nothing in this round


def test_basic_keeps_a_low_card_for_a_dear_last_trick() -> None:
    """Void with AD and 2D left before the last trick: the ace goes, the two stays."""
    rs = load_ruleset("canadian", {"hands": ["no-last-trick"]})
    model = hand_model(rs, 4, 0)
    deck = rs.deck_for(4)
    card = deck.parse
    out = deck.parse_many("3C 4C 5C 6C KD 3S 4S")
    move = choose_play(
        model,
        [card("2D"), card("AD")],
        [card("2C")],
        led=0,
        trump=NO_SUIT,
        out=out,
        after_out=out,
        n_after=2,
        last_trick=False,
        token_mine=False,
    )
    assert deck.format(move) == "AD"


def test_basic_passes_its_dangerous_cards() -> None:
    game = dealt(
        {0: "KS 2C 3C 4C 5C 6C 2D 3D 4D 5D 6D 2H 3H"},
        {"hands": ["no-king-of-spades"], "passing": 2},
    )
    assert game.view(0).phase == Phase.PASS
    assert basic_plays(game) == "KS"


def test_basic_seeks_points_under_a_flipped_objective() -> None:
    # Last to play on a trick of hearts: avoiding points it ducks, seeking points it wins.
    fixed = {0: "5H", 1: "6H", 2: "7H", 3: "2H AH"}
    game = dealt(fixed, {"hands": ["no-hearts"]})
    assert basic_plays(game, "5H", "6H", "7H") == "2H"
    game = dealt(fixed, {"hands": ["no-hearts"], "objective": "high"})
    assert basic_plays(game, "5H", "6H", "7H") == "AH"


# -- the registry: built-ins, the salad.bots entry-point group, seeds ---------------------------


def test_bots_from_the_entry_point_group(monkeypatch: pytest.MonkeyPatch) -> None:
    registered = [
        importlib.metadata.EntryPoint("mybot", "salad.bots.random_bot:RandomBot", catalog.GROUP),
        importlib.metadata.EntryPoint("Basic", "salad.bots.random_bot:RandomBot", catalog.GROUP),
        importlib.metadata.EntryPoint("broken", "salad_no_such_module:Bot", catalog.GROUP),
    ]
    monkeypatch.setattr(
        catalog, "entry_points", lambda group: registered if group == catalog.GROUP else []
    )

    assert bot_names() == ["random", "basic", "advanced", "expert", "oracle", "mybot", "broken"]
    assert bot_factory("MyBot") is RandomBot
    assert bot_factory("basic") is not RandomBot  # a built-in name cannot be taken over
    with pytest.raises(SaladError, match=r"^bots: broken is not available here \("):
        bot_factory("broken")
    with pytest.raises(SaladError) as info:
        bot_factory("nonesuch")
    assert str(info.value) == (
        "bots: unknown bot 'nonesuch' "
        "(known: random, basic, advanced, expert, oracle, mybot, broken)"
    )


def test_installed_entry_points_name_the_openspiel_bot() -> None:
    # salad's own pyproject registers it; the bots floor holds no path to salad.adapters.
    assert "openspiel-ismcts" in bot_names()
    assert not any("adapters" in spec for spec in REGISTRY.values())


def test_parse_bots_seeds_each_seat_by_bot_seed() -> None:
    bots = parse_bots("random", 4, seed=7)
    game = Game(load_ruleset(), 4, seed=1)
    view = game.view(game.to_move)
    for i, bot in enumerate(bots):
        twin = make_bot("random", bot_seed("game", 7, i))
        assert [bot.choose(view) for _ in range(5)] == [twin.choose(view) for _ in range(5)]
