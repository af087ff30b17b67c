"""The score sheet for real cards: every check, the engine's scoring, files, and `salad score`."""

from __future__ import annotations

import csv
import io
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from salad import Game, load_ruleset
from salad.cli.score import score_command
from salad.cli.scorekeeper import HELP
from salad.events import Deal, HandScored, Play, TokenTaken, TrickWon
from salad.ruleset import Ruleset
from salad.sheet import (
    NAME_LIMIT,
    Field,
    ScoreSheet,
    SheetError,
    card_counts,
    check_names,
    find_player,
    hand_fields,
    name_problem,
    parse_value,
    score_hand,
    standings,
)

NAMES = ["Ann", "Bob", "Cy", "Di"]
CANADIAN = load_ruleset("canadian")


def sheet_at(rs: Ruleset, round_id: str, names: list[str] | None = None) -> ScoreSheet:
    """A sheet whose next hand is the first hand of ``round_id``, every earlier hand entered."""
    sheet = ScoreSheet(rs, names or NAMES)
    while sheet.rules.hands[sheet.next_hand].round.id != round_id:
        sheet.enter(valid_entry(sheet))
    return sheet


def valid_entry(sheet: ScoreSheet, index: int | None = None) -> dict[str, Any]:
    """Everything to seat 0: always adds up (seat 0 took every trick)."""
    entry: dict[str, Any] = {}
    for f in sheet.fields(index):
        if f.per_player:
            entry[f.id] = [f.total] + [0] * (sheet.players - 1)
        else:
            entry[f.id] = 0
    return entry


def label(sheet: ScoreSheet, field_id: str) -> str:
    return sheet.field(field_id).label


def title(sheet: ScoreSheet, field_id: str) -> str:
    return sheet.field(field_id).title


# -- fields ---------------------------------------------------------------------------------


def test_fields_follow_the_penalties_of_each_hand() -> None:
    rules = CANADIAN.compiled(4)
    kinds = [[(f.id, f.kind, f.total) for f in hand_fields(rules, i)] for i in range(6)]
    assert kinds[:5] == [
        [("tricks", "tricks", 13)],
        [("hearts", "cards", 13)],
        [("queens", "cards", 4)],
        [("king-of-spades", "card", 1)],
        [("last-trick", "last-trick", 1)],
    ]
    assert kinds[5] == [k for hand in kinds[:5] for k in hand]
    ks = hand_fields(rules, 3)[0]
    assert ks.code == "KS" and ks.title.endswith("(KS)") and ks.points == 100
    assert json.loads(json.dumps(ks.to_dict()))["question"] == ks.question
    with pytest.raises(SheetError, match="there are only 6 hands"):
        hand_fields(rules, 6)


def test_fields_count_what_is_in_play() -> None:
    # Fruit Salad takes out all four 2s for six players: 12 hearts; three players: 17 tricks.
    assert hand_fields(load_ruleset("fruit-salad").compiled(6), 1)[0].total == 12
    assert hand_fields(CANADIAN.compiled(3), 0)[0].total == 17
    # Two decks for six players in the extended game: two kings of spades are counted.
    ext = load_ruleset("extended").compiled(6)
    ks = next(f for f in hand_fields(ext, 9) if f.id == "king-of-spades")
    assert (ks.kind, ks.total) == ("cards", 2)
    # A penalty card that is removed for the player count asks nothing.
    rs = load_ruleset(
        "canadian",
        {
            "rounds": [
                {"id": "no-deuce", "penalties": [{"id": "deuce", "cards": ["2C"], "points": 50}]}
            ]
        },
    )
    index = list(rs.hands).index("no-deuce")
    assert [f.id for f in hand_fields(rs.compiled(4), index)] == ["deuce"]
    assert hand_fields(rs.compiled(5), index) == ()
    sheet = sheet_at(rs, "no-deuce", NAMES + ["Ed"])
    assert sheet.enter({}).points == (0, 0, 0, 0, 0)


def test_penalties_counting_the_same_cards_share_a_question() -> None:
    rs = load_ruleset(
        "canadian",
        {
            "penalties": [{"id": "red-hearts", "name": "Red hearts", "suits": ["H"], "points": 1}],
            "rounds": [{"id": "double", "penalties": ["hearts", "red-hearts"]}],
            "hands": ["double"],
        },
    )
    sheet = ScoreSheet(rs, NAMES)
    (field,) = sheet.fields()
    assert field.penalties == ("hearts", "red-hearts") and field.points == 11
    assert sheet.enter({"hearts": [13, 0, 0, 0]}).points == (143, 0, 0, 0)


def test_a_token_and_the_tomatoes_in_skip_the_salad() -> None:
    rs = load_ruleset("skip-the-salad", {"toppings": ["rotten-tomato"], "swap": ["2=no-evens"]})
    rules = rs.compiled(4)
    ids = [[f.id for f in hand_fields(rules, i)] for i in range(6)]
    assert ids[0] == ["tricks", "rotten-tomato"]
    assert ids[1] == ["evens", "rotten-tomato"]
    assert ids[5] == ["tricks", "evens", "queens", "king-of-onions", "last-trick", "rotten-tomato"]


# -- every check, with its message ------------------------------------------------------------


def test_tricks_must_add_up() -> None:
    sheet = ScoreSheet(CANADIAN, NAMES)
    assert sheet.check({"tricks": [3, 4, 3, 2]}) == [
        "Tricks: they add up to 12, but 13 were played"
    ]
    assert sheet.check({"tricks": [3, 4, 3, 4]}) == [
        "Tricks: they add up to 14, but 13 were played"
    ]
    assert sheet.check({"tricks": [-1, 4, 5, 5]}) == [
        "Tricks: Ann has -1; counts cannot be negative"
    ]
    assert sheet.check({"tricks": [14, 0, 0, 0]}) == ["Tricks: Ann has 14, but only 13 were played"]
    assert sheet.check({"tricks": [3, 4, 6]}) == [
        "Tricks: give 4 numbers, one per player (Ann, Bob, Cy, Di), not 3"
    ]
    assert sheet.check({"tricks": 13}) == [
        "Tricks: give 4 numbers, one per player (Ann, Bob, Cy, Di), not 13"
    ]
    assert sheet.check({"tricks": [3, "4", 3, 3]}) == ["Tricks: '4' is not a whole number"]
    assert sheet.check({"tricks": [3, True, 3, 6]}) == ["Tricks: True is not a whole number"]
    assert sheet.check({}) == [f"{title(sheet, 'tricks')}: not entered"]
    assert sheet.check({"tricks": [4, 3, 3, 3], "hearts": [13, 0, 0, 0]}) == [
        "unknown entry 'hearts' (hand 1 asks for: tricks)"
    ]
    assert sheet.check([4, 3, 3, 3]) == [  # type: ignore[arg-type]
        "hand 1: the entry must be a table of answers, not [4, 3, 3, 3]"
    ]
    with pytest.raises(SheetError) as info:
        sheet.enter({"tricks": [3, 4, 3, 2]})
    assert str(info.value) == "Tricks: they add up to 12, but 13 were played"
    assert sheet.entries == []


def test_cards_must_add_up_to_what_is_in_play() -> None:
    sheet = sheet_at(CANADIAN, "no-hearts")
    assert sheet.check({"hearts": [4, 4, 4, 0]}) == [
        "Hearts: they add up to 12, but 13 are in play"
    ]
    assert sheet.check({"hearts": [14, 0, 0, 0]}) == ["Hearts: Ann has 14, but only 13 are in play"]
    sheet.enter({"hearts": [4, 4, 4, 1]})
    assert sheet.check({"queens": [1, 1, 1, 2]}) == ["Queens: they add up to 5, but 4 are in play"]
    assert sheet.check({"queens": [0, -1, 3, 2]}) == [
        "Queens: Bob has -1; counts cannot be negative"
    ]
    # Five players: the 2C and 2D are out, but every heart is in play.
    five = sheet_at(CANADIAN, "no-hearts", NAMES + ["Ed"])
    assert five.check({"hearts": [3, 3, 3, 3, 0]}) == [
        "Hearts: they add up to 12, but 13 are in play"
    ]


def test_exactly_one_player_takes_a_single_card_and_the_last_trick() -> None:
    sheet = sheet_at(CANADIAN, "no-king-of-spades")
    ks = title(sheet, "king-of-spades")
    assert sheet.check({}) == [f"{ks}: not entered"]
    assert sheet.check({"king-of-spades": 4}) == [
        f"{ks}: seat 4 is not at the table (seats 0 to 3)"
    ]
    assert sheet.check({"king-of-spades": [0, 1]}) == [
        f"{ks}: who? give one player (Ann, Bob, Cy, Di), not [0, 1]"
    ]
    assert sheet.enter({"king-of-spades": 1}).points == (0, 100, 0, 0)
    last = title(sheet, "last-trick")
    assert sheet.check({"last-trick": -1}) == [
        f"{last}: seat -1 is not at the table (seats 0 to 3)"
    ]
    assert sheet.check({"last-trick": None}) == [
        f"{last}: who? give one player (Ann, Bob, Cy, Di), not None"
    ]


def test_in_the_salad_cards_need_tricks() -> None:
    sheet = sheet_at(CANADIAN, "salad")
    ks, last = title(sheet, "king-of-spades"), title(sheet, "last-trick")
    good = {
        "tricks": [4, 0, 4, 5],
        "hearts": [4, 0, 4, 5],
        "queens": [1, 0, 1, 2],
        "king-of-spades": 0,
        "last-trick": 3,
    }
    assert sheet.check(good) == []
    assert sheet.check({**good, "hearts": [4, 1, 3, 5]}) == ["Hearts: Bob took 1 but no tricks"]
    assert sheet.check({**good, "queens": [0, 1, 1, 2]}) == ["Queens: Bob took 1 but no tricks"]
    assert sheet.check({**good, "king-of-spades": 1}) == [f"{ks}: Bob took it but no tricks"]
    assert sheet.check({**good, "last-trick": 1}) == [f"{last}: Bob took it but no tricks"]
    # More cards than the tricks hold: one trick holds four cards.
    one = {**good, "tricks": [1, 3, 4, 5], "hearts": [5, 0, 3, 5]}
    assert sheet.check(one) == ["Hearts: Ann took 5 in 1 trick (a trick holds 4 cards)"]
    # Fewer than must be there: all 13 tricks are all 52 cards, so every heart.
    every = {**good, "tricks": [13, 0, 0, 0], "hearts": [12, 0, 1, 0], "last-trick": 0}
    every["queens"] = [4, 0, 0, 0]
    assert sheet.check(every) == [
        "Hearts: Ann took 13 tricks (52 cards), so at least 13 hearts, not 12",
        "Hearts: Cy took 1 but no tricks",
    ]
    # Every problem is named; the message of the error joins them on one line.
    bad = {**good, "hearts": [4, 1, 3, 5], "last-trick": 1}
    with pytest.raises(SheetError) as info:
        sheet.enter(bad)
    assert info.value.problems == [
        "Hearts: Bob took 1 but no tricks",
        f"{last}: Bob took it but no tricks",
    ]
    assert "\n" not in str(info.value) and str(info.value).count(";") == 1


def test_cards_inside_other_cards() -> None:
    """Extended: every queen is a face card, the KS is a face card, hearts are red cards."""
    sheet = sheet_at(load_ruleset("extended"), "all-of-the-above")
    ks = title(sheet, "king-of-spades")
    good = {
        "tricks": [7, 6, 0, 0],
        "red-cards": [13, 13, 0, 0],
        "even-cards": [12, 12, 0, 0],
        "hearts": [7, 6, 0, 0],
        "face-cards": [6, 6, 0, 0],
        "sevens": [2, 2, 0, 0],
        "aces": [2, 2, 0, 0],
        "queens": [2, 2, 0, 0],
        "one-eyed": [2, 1, 0, 0],
        "king-of-spades": 0,
        "last-trick": 0,
    }
    assert sheet.check(good) == []
    queens = {**good, "queens": [3, 1, 0, 0], "face-cards": [2, 10, 0, 0]}
    assert sheet.check(queens) == [
        "Queens: Ann took 3, but only 2 face cards",
        "Queens: Bob took 1, but 10 face cards hold at least 2",
    ]
    hearts = {**good, "hearts": [7, -1, 7, 0]}
    assert sheet.check(hearts) == ["Hearts: Bob has -1; counts cannot be negative"]
    hearts = {**good, "hearts": [6, 7, 0, 0], "red-cards": [20, 6, 0, 0]}
    assert sheet.check(hearts) == [
        "Hearts: Ann took 6, but 20 red cards hold at least 7",
        "Hearts: Bob took 7, but only 6 red cards",
    ]
    # The single card inside a count: Bob took the KS but no face cards, Ann all twelve.
    kings = {**good, "face-cards": [12, 0, 0, 0], "queens": [4, 0, 0, 0]}
    kings["one-eyed"] = [3, 0, 0, 0]
    kings["king-of-spades"] = 1
    assert sheet.check(kings) == [
        f"{ks}: Ann took 12 face cards, so Ann took it too",
        f"{ks}: Bob took it, but no face cards",
    ]


def test_the_token_holder() -> None:
    rs = load_ruleset("skip-the-salad", {"toppings": ["rotten-tomato"]})
    sheet = ScoreSheet(rs, NAMES)
    tomato = label(sheet, "rotten-tomato")
    assert sheet.check({"tricks": [15, 0, 0, 0]}) == [
        f"{title(sheet, 'rotten-tomato')}: not entered"
    ]
    assert sheet.check({"tricks": [15, 0, 0, 0], "rotten-tomato": 2}) == [
        f"{tomato}: Cy holds it but took no tricks"
    ]
    assert sheet.enter({"tricks": [8, 7, 0, 0], "rotten-tomato": 1}).points == (80, 95, 0, 0)
    # No Tomatoes: whoever holds the token took a tomato.
    assert sheet.check({"tomatoes": [14, 0, 0, 0], "rotten-tomato": 1}) == [
        f"{tomato}: Bob holds it but took no tomatoes"
    ]
    assert sheet.enter({"tomatoes": [13, 1, 0, 0], "rotten-tomato": 1}).points == (130, 35, 0, 0)


def test_names_are_checked() -> None:
    assert check_names(NAMES) == []
    assert check_names(["Ann", "ann", " ", "12", "A" * 30, "x,y"], 4) == [
        "names: 4 players need 4 names, not 6",
        "player 2: 'ann' is already taken by Ann",
        "player 3: a name cannot be empty",
        "player 4: '12' is a number; a name must not be one",
        f"player 5: {'A' * 24!r}... is too long (24 characters at most)",
        "player 6: 'x,y': a name may not hold , = : / or start with ?",
    ]
    with pytest.raises(SheetError, match="already taken"):
        ScoreSheet(CANADIAN, ["Ann", "Bob", "Cy", "ANN"])
    with pytest.raises(SheetError, match="out of range"):
        ScoreSheet(CANADIAN, ["Ann", "Bob"])
    with pytest.raises(SheetError, match="first dealer: seat 4"):
        ScoreSheet(CANADIAN, NAMES, first_dealer=4)


def test_names_are_found_without_their_accents() -> None:
    """At a keyboard without accents, "zoe" is Zoé and "helene 2" counts Hélène (they were found
    only with the exact accents); Zoé and Zoe are one name."""
    names = ["Zoé", "Hélène", "Bob", "Cy"]
    assert find_player("zoe", names) == 0 and find_player("HELE", names) == 1
    assert parse_value(ScoreSheet(CANADIAN, names).fields(1)[0], "helene 2", names) == [0, 2, 0, 0]
    assert check_names(["Zoé", "Zoe", "Bob", "Cy"]) == ["player 2: 'Zoe' is already taken by Zoé"]


def test_typed_answers() -> None:
    sheet = ScoreSheet(CANADIAN, ["Ann", "Anna Lee", "Bob", "Cy"])
    tricks = sheet.fields()[0]
    names = sheet.names
    assert parse_value(tricks, "3 4 3 3", names) == [3, 4, 3, 3]
    assert parse_value(tricks, "3, 4, 3, 3", names) == [3, 4, 3, 3]
    assert parse_value(tricks, "bob 5 cy=8", names) == [0, 0, 5, 8]
    assert parse_value(tricks, "ann 2 annal 3 b b", names) == [2, 3, 2, 0]
    errors = {
        "": "Tricks: give 4 numbers, one per player (Ann, Anna Lee, Bob, Cy), or names with "
        "counts (e.g. ann 2)",
        "3 4 3": "Tricks: 4 numbers needed, one per player (Ann, Anna Lee, Bob, Cy), not 3",
        "3 bob": "Tricks: 3 follows no name (write e.g. ann 1 annalee 2)",
        "ann +-3": "Tricks: '+-3' is not a player (Ann, Anna Lee, Bob, Cy)",
        "zed 3": "Tricks: 'zed' is not a player (Ann, Anna Lee, Bob, Cy)",
        "an 3": "Tricks: 'an' could be Ann or Anna Lee; type more of the name",
    }
    for text, message in errors.items():
        with pytest.raises(SheetError) as info:
            parse_value(tricks, text, names)
        assert str(info.value) == message
    ks = hand_fields(sheet.rules, 3)[0]
    assert parse_value(ks, "bob", names) == 2
    assert parse_value(ks, "4", names) == 3
    assert parse_value(ks, "anna", names) == 1
    assert parse_value(ks, "+2", names) == 1
    assert parse_value(ks, "Ann", names) == 0  # an exact name wins over a longer one
    with pytest.raises(SheetError) as info:
        parse_value(ks, "5", names)
    assert str(info.value) == f"{ks.title}: '5': players are numbered 1 to 4"
    with pytest.raises(SheetError) as info:
        parse_value(ks, "", names)
    assert str(info.value) == f"{ks.title}: who? give one of Ann, Anna Lee, Bob, Cy"


def test_check_field_against_the_earlier_answers() -> None:
    sheet = sheet_at(CANADIAN, "salad")
    earlier = {"tricks": [4, 0, 4, 5]}
    assert sheet.check_field("hearts", [4, 1, 3, 5], earlier) == [
        "Hearts: Bob took 1 but no tricks"
    ]
    assert sheet.check_field("hearts", [4, 1, 3, 5]) == []  # nothing earlier to compare with
    assert sheet.check_field("spades", [1]) == [
        "unknown entry 'spades' (hand 6 asks for: tricks, hearts, queens, king-of-spades, "
        "last-trick)"
    ]


# -- scoring: the same points as the engine -------------------------------------------------


def captures(game: Game) -> list[tuple[list[int], list[int], int, int, HandScored]]:
    """Per hand, from the event log only: tricks won, cards taken, last trick, token holder."""
    n, size = game.players, game.deck.size
    out = []
    taken, tricks, trick, last, token = [0] * n, [0] * n, 0, -1, -1
    for e in game.events:
        if isinstance(e, Deal):
            taken, tricks, trick, last, token = [0] * n, [0] * n, 0, -1, -1
        elif isinstance(e, Play):
            trick |= 1 << (e.move % size)
        elif isinstance(e, TrickWon):
            taken[e.winner] |= trick
            tricks[e.winner] += 1
            trick, last = 0, e.winner
        elif isinstance(e, TokenTaken):
            token = e.seat
        elif isinstance(e, HandScored):
            out.append((tricks, taken, last, token, e))
    return out


def entry_from(
    fields: tuple[Field, ...], tricks: list[int], taken: list[int], last: int, token: int
) -> dict[str, Any]:
    """What a scorekeeper would write down for these captures."""
    entry: dict[str, Any] = {}
    for f in fields:
        if f.kind == "tricks":
            entry[f.id] = tricks
        elif f.kind == "cards":
            entry[f.id] = [(t & f.mask).bit_count() for t in taken]
        elif f.kind == "card":
            entry[f.id] = next(s for s, t in enumerate(taken) if t & f.mask)
        elif f.kind == "last-trick":
            entry[f.id] = last
        else:
            entry[f.id] = token
    return entry


def random_game(rs: Ruleset, n: int, seed: int) -> Game:
    game = Game(rs, n, seed=seed)
    rng = random.Random(seed)
    while not game.is_over():
        game.play(rng.choice(game.legal_moves()))
    return game


def enter_game(game: Game) -> ScoreSheet:
    """Enter a played game in a sheet, comparing every hand with the engine's points."""
    sheet = ScoreSheet(game.ruleset, [f"P{s}" for s in range(game.players)])
    for index, (tricks, taken, last, token, scored) in enumerate(captures(game)):
        entry = entry_from(sheet.fields(), tricks, taken, last, token)
        score = sheet.enter(entry)
        assert score.points == scored.points, (index, entry)
        assert score.moon == scored.moon
        # The pure scoring function, fed the engine's masks directly.
        hand = sheet.rules.hands[index]
        direct = score_hand(sheet.rules, hand, tricks, card_counts(hand, taken), last, token)
        assert direct == score
    assert sheet.is_over() and sheet.totals == tuple(game.totals)
    assert [tuple(p) for p in game.hand_points] == [s.points for s in sheet.scores()]
    total, checksum = sheet.game_check()
    moons = any(s.moon >= 0 for s in sheet.scores())
    assert checksum == (None if moons else game.rules.checksum)
    assert checksum is None or total == checksum
    assert sheet.winners() == game.winners()
    assert sheet.standings() == game.standings()
    return sheet


GAMES = [
    ("canadian", None),
    ("fruit-salad", None),
    ("extended", None),
    ("skip-the-salad", {"toppings": "all"}),
    ("skip-the-salad", {"toppings": "rotten-tomato,blue-cheese-moon", "swap": ["2=no-evens"]}),
    ("canadian", {"jokers": 2, "points": {"queens": 30}, "toppings": "cornucopia"}),
]


@pytest.mark.parametrize(("preset", "settings"), GAMES)
def test_whole_games_score_as_the_engine(preset: str, settings: dict[str, Any] | None) -> None:
    rs = load_ruleset(preset, settings)
    for n in range(rs.min_players, rs.max_players + 1):
        for seed in range(4):
            enter_game(random_game(rs, n, seed))


def test_canadian_checksum_for_four_players() -> None:
    sheet = enter_game(random_game(CANADIAN, 4, 11))
    assert sheet.game_check() == (1120, 1120)


def shooting_game(rs: Ruleset, n: int, top: list[str], seed: int) -> Game:
    """Every hand the dealer's left is dealt ``top`` (cards that win whenever they are led,
    Wilds declared high) and leads them highest first: it takes every trick."""
    game = Game(rs, n, first_dealer=0, auto_deal=False)
    deck = game.deck
    rng = random.Random(seed)
    mine = deck.parse_many(top)
    rest = [c for c in range(deck.size) if deck.in_play >> c & 1 and not mine >> c & 1]
    while not game.is_over():
        if game.phase.name == "DEAL":
            rng.shuffle(rest)
            each = deck.cards_each
            others = [sum(1 << c for c in rest[i * each : (i + 1) * each]) for i in range(n - 1)]
            leader = (game.dealer + 1) % n
            hands = others[:leader] + [mine] + others[leader:]
            game.deal(hands)
            shooter = leader
            continue
        moves = game.legal_moves()
        if game.to_move == shooter:
            high = [m for m in moves if m >= deck.size]
            move = high[0] if high else max(moves, key=lambda m: deck.rank_of[m])
        else:
            move = rng.choice([m for m in moves if m < deck.size] or moves)
        game.play(move)
    return game


def test_old_moon_as_the_engine() -> None:
    """Extended: the shooter scores 0, everyone else 100, but never in No Last Trick."""
    hands = ["no-tricks", "no-aces", "no-queens", "no-last-trick", "all-of-the-above"]
    rs = load_ruleset("extended", {"hands": hands})
    top = [r + s for r in "AKQ" for s in "CDHS"] + ["JS"]
    game = shooting_game(rs, 4, top, 3)
    sheet = enter_game(game)
    moons = [s.moon for s in sheet.scores()]
    assert moons == [1, 2, 3, -1, 1]
    assert sheet.score(0).points == (100, 0, 100, 100)
    assert sheet.score(3).points == (75, 0, 0, 0)
    assert sheet.game_check() == (sum(sheet.totals), None)


def test_negative_moon_as_the_engine() -> None:
    """Skip the Salad's Blue Cheese Moon: the shooter scores the hand negative."""
    rs = load_ruleset("skip-the-salad", {"toppings": ["blue-cheese-moon", "rotten-tomato"]})
    top = ["W"] * 4 + [r + s for r in ("A", "K", "Q") for s in "RBT"] + ["AO", "KO"]
    game = shooting_game(rs, 4, top, 5)
    sheet = enter_game(game)
    moons = [s.moon for s in sheet.scores()]
    assert moons == [1, 2, 3, -1, -1, 2]  # no moon for a lone King of Onions, the last trick
    assert sheet.score(0).points == (0, -175, 0, 0)  # 15 tricks and the token, negative


# -- results ----------------------------------------------------------------------------------


def test_running_totals_leaders_and_standings() -> None:
    sheet = ScoreSheet(CANADIAN, NAMES, first_dealer=3)
    assert sheet.leaders() == [] and sheet.totals == (0, 0, 0, 0)
    sheet.enter({"tricks": [3, 4, 3, 3]})
    sheet.enter({"hearts": [4, 9, 0, 0]})
    assert sheet.running() == [(30, 40, 30, 30), (70, 130, 30, 30)]
    assert sheet.leaders(0) == [0, 2, 3] and sheet.leaders() == [2, 3]
    assert sheet.standings() == [3, 4, 1, 1]
    assert [sheet.dealer(i) for i in range(3)] == [3, 0, 1]
    assert sheet.winners() == []
    assert standings([10, 20, 20, 5], highest_wins=True) == [3, 1, 1, 4]
    # Correcting hand 1 corrects everything after it.
    sheet.correct(0, {"tricks": [13, 0, 0, 0]})
    assert sheet.running() == [(130, 0, 0, 0), (170, 90, 0, 0)]
    with pytest.raises(SheetError, match=r"^hand 3: only hands 1 to 2 are entered$"):
        sheet.correct(2, {"queens": [1, 1, 1, 1]})
    with pytest.raises(SheetError, match="Tricks: they add up to 12"):
        sheet.correct(0, {"tricks": [12, 0, 0, 0]})
    sheet.undo()
    assert len(sheet.entries) == 1
    for _ in range(5):
        sheet.enter(valid_entry(sheet))
    assert sheet.check({"tricks": [13, 0, 0, 0]}) == ["the game is over: all 6 hands are entered"]
    assert sheet.is_over() and sheet.winners() == [1, 2, 3]
    assert sheet.standings() == [4, 1, 1, 1]
    assert sheet.game_check() == (1120, 1120)


def test_highest_wins_and_the_trump_picker() -> None:
    rs = load_ruleset("skip-the-salad", {"toppings": ["cornucopia", "spicy-pepper"]})
    sheet = ScoreSheet(rs, NAMES, first_dealer=0)
    assert sheet.trump_picker(0) is None
    sheet.enter({"tricks": [5, 5, 5, 0]})
    assert sheet.leaders() == [0, 1, 2] and sheet.standings() == [1, 1, 1, 4]
    # Last place with the highest total winning: Di (0) picks before hand 2.
    assert sheet.trump_picker(1) == 3
    sheet.correct(0, {"tricks": [5, 0, 5, 5]})
    assert sheet.trump_picker(1) == 1
    sheet.correct(0, {"tricks": [0, 15, 0, 0]})
    assert sheet.trump_picker(1) == 2  # a tie: the one nearest the dealer's left after Bob


def test_summary_and_chart_are_json() -> None:
    sheet = ScoreSheet(CANADIAN, NAMES)
    sheet.enter({"tricks": [3, 4, 3, 3]})
    sheet.enter({"hearts": [4, 9, 0, 0]})
    summary = json.loads(json.dumps(sheet.summary()))
    assert summary["next"]["number"] == 3 and summary["next"]["fields"][0]["id"] == "queens"
    assert summary["hands"][1]["running"] == [70, 130, 30, 30]
    assert summary["hands"][1]["leaders"] == [2, 3]
    assert summary["hands"][0]["expected"] == 130 and summary["hands"][0]["sum"] == 130
    assert sheet.chart() == {
        "labels": ["Start", "1. No Tricks", "2. No Hearts"],
        "highest_wins": False,
        "series": [
            {"name": "Ann", "points": [0, 30, 70]},
            {"name": "Bob", "points": [0, 40, 130]},
            {"name": "Cy", "points": [0, 30, 30]},
            {"name": "Di", "points": [0, 30, 30]},
        ],
    }


def test_csv() -> None:
    sheet = ScoreSheet(CANADIAN, ["Ann", 'Bob "B"', "Cy", "Di"])
    sheet.enter({"tricks": [3, 4, 3, 3]})
    sheet.enter({"hearts": [4, 9, 0, 0]})
    assert sheet.to_csv() == (
        'hand,round,Ann,"Bob ""B""",Cy,Di,sum,moon\n'
        "1,No Tricks,30,40,30,30,130,\n"
        "2,No Hearts,40,90,0,0,130,\n"
        "total,,70,130,30,30,260,\n"
        "place,,3,4,1,1,,\n"
    )
    rows = list(csv.reader(io.StringIO(sheet.to_csv())))
    assert rows[0][3] == 'Bob "B"'


def test_csv_with_a_moon() -> None:
    game = shooting_game(
        load_ruleset("extended", {"hands": ["no-aces", "all-of-the-above"]}),
        4,
        [r + s for r in "AKQ" for s in "CDHS"] + ["JS"],
        1,
    )
    sheet = enter_game(game)
    rows = list(csv.reader(io.StringIO(sheet.to_csv())))
    assert rows[1] == ["1", "No Aces", "100", "0", "100", "100", "300", "P1"]
    assert rows[-2][0] == "total" and rows[-1][0] == "place"


# -- saving and loading -----------------------------------------------------------------------


def test_save_and_load_round_trip() -> None:
    rs = load_ruleset("skip-the-salad", {"toppings": "rotten-tomato,blue-cheese-moon"})
    game = random_game(rs, 5, 4)
    sheet = enter_game(game)
    sheet.first_dealer = game.first_dealer
    text = sheet.to_json()
    again = ScoreSheet.from_json(text)
    assert again.to_dict() == sheet.to_dict() and again.to_json() == text
    assert again.ruleset == rs and again.totals == tuple(game.totals)
    # Half a game, too.
    half = ScoreSheet(CANADIAN, NAMES)
    half.enter({"tricks": [3, 4, 3, 3]})
    assert ScoreSheet.from_json(half.to_json()).entries == half.entries


def test_loading_checks_everything() -> None:
    sheet = ScoreSheet(CANADIAN, NAMES)
    sheet.enter({"tricks": [3, 4, 3, 3]})
    sheet.enter({"hearts": [4, 9, 0, 0]})
    good = sheet.to_dict()

    def broken(change: Callable[[dict[str, Any]], None]) -> str:
        data = json.loads(json.dumps(good))
        change(data)
        with pytest.raises(SheetError) as info:
            ScoreSheet.from_dict(data)
        return str(info.value)

    assert broken(lambda d: d.update(format="x")) == "format: 'x' is not 'salad-score/1'"
    assert broken(lambda d: d.update(extra=1)).startswith("extra: unknown key")
    assert broken(lambda d: d["ruleset"].update(preset="nope")).startswith(
        "ruleset.preset: 'nope' is not one of canadian"
    )
    assert broken(lambda d: d["ruleset"].update(settings={"moon": "sideways"})).startswith(
        "ruleset.settings: moon:"
    )
    assert broken(lambda d: d.update(players=["Ann", "Bob", "Cy", "Ann"])) == (
        "players: player 4: 'Ann' is already taken by Ann"
    )
    assert broken(lambda d: d["hands"][1]["took"].update(hearts=[4, 8, 0, 0])) == (
        "hands[1] (hand 2): Hearts: they add up to 12, but 13 are in play"
    )
    assert broken(lambda d: d["hands"][1].update(points=[0, 0, 0, 0])) == (
        "hands[1] (hand 2).points: [0, 0, 0, 0], but what was taken scores [40, 90, 0, 0]"
    )
    assert broken(lambda d: d["hands"][0].update(round_id="no-hearts")) == (
        "hands[0] (hand 1).round_id: 'no-hearts', but this hand is 'no-tricks'"
    )
    assert broken(lambda d: d["hands"][0].update(moon=2)) == "hands[0] (hand 1).moon: 2, not -1"
    assert broken(lambda d: d.update(totals=[1, 2, 3, 4])) == (
        "totals: [1, 2, 3, 4], but the hands add up to [70, 130, 30, 30]"
    )
    assert broken(lambda d: d.update(hands=d["hands"] * 4)) == (
        "hands: 8 hands, but the game has 6"
    )
    assert broken(lambda d: d["hands"][0].pop("took")) == "hands[0] (hand 1): Tricks: not entered"
    with pytest.raises(SheetError, match=r"^not valid JSON: Expecting value \(line 1\)$"):
        ScoreSheet.from_json("nope")


def test_loading_checks_the_shape_first() -> None:
    """The saved sheet's keys and types (pydantic), each a one-line message naming the key."""
    sheet = ScoreSheet(CANADIAN, NAMES)
    sheet.enter({"tricks": [3, 4, 3, 3]})
    good = sheet.to_dict()
    cases: list[tuple[Callable[[dict[str, Any]], Any], str]] = [
        (lambda d: d.update(players="Ann"), "players: must be a list of names, not 'Ann'"),
        (lambda d: d.pop("players"), "players: must be a list of names, not None"),
        (lambda d: d.update(hands={"0": {}}), "hands: must be a list, not {'0': {}}"),
        (lambda d: d["hands"].append(3), "hands[1] (hand 2): must be an object, not 3"),
        (lambda d: d["hands"][0].update(x=1), "hands[0] (hand 1).x: unknown key"),
        (lambda d: d["ruleset"].update(settings=[1]), "ruleset.settings: must be a JSON object"),
        (lambda d: d["ruleset"].pop("preset"), "ruleset: preset is missing"),
    ]
    for change, expected in cases:
        data = json.loads(json.dumps(good))
        change(data)
        with pytest.raises(SheetError) as info:
            ScoreSheet.from_dict(data)
        assert str(info.value).startswith(expected), str(info.value)
    with pytest.raises(SheetError, match="^a score sheet must be a JSON object, not list$"):
        ScoreSheet.from_dict([good])


def test_name_problem() -> None:
    assert name_problem("Ann") == ""
    assert name_problem(" ann ", ["Ann"]) == "'ann' is already taken by Ann"
    assert name_problem("x" * 30) == f"{'x' * NAME_LIMIT!r}... is too long (24 characters at most)"


# -- the terminal command ---------------------------------------------------------------------

runner = CliRunner()


def score_app() -> typer.Typer:
    app = typer.Typer()
    app.command("score")(score_command)

    @app.callback()
    def main() -> None:
        """Test app."""

    return app


def run(args: list[str], lines: list[str]) -> Any:
    return runner.invoke(score_app(), ["score", *args], input="\n".join(lines) + "\n")


def test_the_command_is_registered() -> None:
    from salad.cli import app

    assert any(c.name == "score" for c in app.registered_commands)


def test_a_whole_game_in_the_terminal(tmp_path: Path) -> None:
    save, export = tmp_path / "game.json", tmp_path / "game.csv"
    lines = [
        "Ann, Bob, Cy, Di",
        "bob",  # deals first
        "3 4 3 2",  # a bad entry: re-prompted
        "3 4 3 3",
        "ann 4 bob 9",
        "ann bob cy di",
        "bob",
        "2",  # Bob again, by number
        "4 3 3 3",  # the salad: tricks
        "/back",
        "4 0 4 5",
        "4 1 3 5",  # Bob took a heart but no tricks
        "4 0 4 5",
        "1 0 1 2",
        "cy",
        "di",
        f"/csv {export}",
        f"/save {save}",
        "/quit",
    ]
    result = run([], lines)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Tricks: they add up to 12, but 13 were played\n" in out
    assert "Hearts: Bob took 1 but no tricks; type /back to change the tricks\n" in out
    assert "Hand 1 of 6: No Tricks  (Bob deals)" in out
    assert "Hand 1: Ann 30  Bob 40  Cy 30  Di 30   (sum 130 ok)" in out
    assert "Leading: Cy, Di" in out
    assert "Game total 1120, the checksum for 4 players: ok." in out
    sheet = ScoreSheet.from_json(save.read_text())
    assert sheet.is_over() and sheet.first_dealer == 1
    assert sheet.entries[5]["tricks"] == [4, 0, 4, 5]
    assert sum(sheet.totals) == 1120
    assert export.read_text() == sheet.to_csv()
    winner = sheet.names[sheet.winners()[0]]
    assert f"Winner: {winner}" in out


def test_fixing_showing_and_leaving(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    lines = [
        "Ann",
        "Bob",
        "Ann",  # taken: re-prompted
        "Cy",
        "",  # Player 4
        "",  # nobody deals first
        "/help",
        "3 4 3 3",
        "/fix 3",  # not entered yet
        "/fix 1",
        "",  # keeps the answer
        "/fix 1",
        "13 0 0 0",
        "/show",
        "/chart",
        "/frobnicate",
        "/quit",  # not saved: warned
        f"/save {save}",
        "/quit",
    ]
    result = run([], lines)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "'Ann' is already taken by Ann" in out
    assert "/fix N: N is the number of a hand entered (1)" in out
    assert "Correcting hand 1 of 6" in out
    assert "[3 4 3 3]" in out  # the old answer is the default
    assert "Running totals" in out and "Player 4" in out
    assert "unknown command /frobnicate: try /help" in out
    assert "The sheet is not saved" in out
    assert "/fix N" in out and "/csv [FILE]" in out  # the help
    sheet = ScoreSheet.from_json(save.read_text())
    assert sheet.names == ["Ann", "Bob", "Cy", "Player 4"]
    assert sheet.entries == [{"tricks": [13, 0, 0, 0]}]


def test_undo_takes_back_the_last_hand(tmp_path: Path) -> None:
    save = tmp_path / "u.json"
    lines = [
        "Ann, Bob, Cy, Di",
        "",
        "/undo",  # nothing entered yet
        "3 4 3 3",
        "4 9 0 0",
        "/undo",  # in hand 3: takes back hand 2
        "",  # hand 2 again: Enter keeps the answer taken back
        "/undo",
        "0 13 0 0",  # hand 2 entered anew
        f"/save {save}",
        "/quit",
    ]
    result = run([], lines)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "/undo: no hand is entered yet" in out
    assert "Took back hand 2 (No Hearts): enter it again" in out
    assert "[4 9 0 0]" in out
    assert "/undo          take back the last hand entered" in HELP
    sheet = ScoreSheet.from_json(save.read_text())
    assert sheet.entries == [{"tricks": [3, 4, 3, 3]}, {"hearts": [0, 13, 0, 0]}]


def test_problems_say_how_many_more_and_where_to_go_back() -> None:
    lines = [
        "Ann, Bob, Cy, Di",
        "",
        "3 4 3 3",
        "4 9 0 0",
        "1 1 1 1",
        "ann",
        "bob",
        "13 0 0 0",  # the salad: Ann took every trick
        "-1 20 0 0",  # two problems on its own: no /back hint
        "0 5 4 4",  # three players took hearts but no tricks
        "/quit",
        "/quit",
    ]
    out = run([], lines).output
    assert "Hearts: Ann has -1; counts cannot be negative\n" in out
    assert "1 more problem: fix this one first" in out
    assert "not 0; type /back to change the tricks\n" in out
    assert "3 more problems: fix this one first" in out
    assert "(and " not in out


def test_end_of_input_leaves_and_keeps_the_sheet_for_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-D (or Ctrl-C) with a hand entered: the sheet is kept in the user's data directory
    (it was lost: "Left without saving."), and --resume carries on with it."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    kept = tmp_path / "salad" / "sheet-in-progress.json"
    result = run(["--resume"], [])
    assert result.exit_code == 1
    assert f"error: --resume: no sheet is kept (none in {kept})" in result.output
    result = run([], ["Ann, Bob, Cy, Di", "", "3 4 3 3"])
    assert result.exit_code == 0
    assert result.output.rstrip().endswith(
        f"Left without saving to a file: the sheet is kept in {kept}; "
        "salad score --resume carries on with it."
    )
    assert ScoreSheet.from_json(kept.read_text()).entries == [{"tricks": [3, 4, 3, 3]}]
    result = run(["--resume"], ["4 9 0 0", "/quit", "/quit"])  # kept only: /quit warns
    assert result.exit_code == 0, result.output
    assert f"loaded from {kept}" in result.output and "Hand 2 of 6: No Hearts" in result.output
    assert "The sheet is not saved" in result.output
    assert len(ScoreSheet.from_json(kept.read_text()).entries) == 2
    result = run(["--resume", "--load", str(kept)], [])
    assert result.exit_code == 1 and "--resume carries on with the kept sheet" in result.output


def test_a_closed_terminal_loses_no_hand_entered(tmp_path: Path) -> None:
    """SIGHUP (the terminal closed) to a real `salad score` waiting for the second hand: the
    first is kept, whole, for --resume (no file was written: the sheet was lost)."""
    kept = tmp_path / "salad" / "sheet-in-progress.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "salad.cli", "score"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        env={**os.environ, "XDG_DATA_HOME": str(tmp_path)},
        text=True,
    )
    assert proc.stdin is not None
    try:
        proc.stdin.write("Ann, Bob, Cy, Di\n\n3 4 3 3\n")
        proc.stdin.flush()
        deadline = time.monotonic() + 30
        while not kept.exists() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        proc.send_signal(signal.SIGHUP)
        assert proc.wait(10) == -signal.SIGHUP
    finally:
        proc.kill()
    assert ScoreSheet.from_json(kept.read_text()).entries == [{"tricks": [3, 4, 3, 3]}]


def test_a_saved_sheet_is_written_after_every_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once the sheet has a file of the user's (/save, --load), every hand goes into it: Ctrl-D
    then loses nothing and says nothing, and the sheet kept until the /save is gone."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    save = tmp_path / "mine.json"
    result = run([], ["Ann, Bob, Cy, Di", "", "3 4 3 3", f"/save {save}", "4 9 0 0"])
    assert result.exit_code == 0, result.output
    assert "Left without saving" not in result.output
    assert len(ScoreSheet.from_json(save.read_text()).entries) == 2
    assert not (tmp_path / "data" / "salad" / "sheet-in-progress.json").exists()


def test_loading_and_carrying_on(tmp_path: Path) -> None:
    path = tmp_path / "half.json"
    sheet = ScoreSheet(CANADIAN, NAMES)
    for entry in ({"tricks": [3, 4, 3, 3]}, {"hearts": [4, 9, 0, 0]}):
        sheet.enter(entry)
    path.write_text(sheet.to_json())
    lines = ["1 1 1 1", "bob", "cy", "13 0 0 0", "13 0 0 0", "4 0 0 0", "ann", "ann", "/save"]
    result = run(["--load", str(path)], [*lines, "/quit"])
    assert result.exit_code == 0, result.output
    assert "loaded from" in result.output and "Hand 3 of 6: No Queens" in result.output
    assert f"Saved to {path}." in result.output
    done = ScoreSheet.from_json(path.read_text())
    assert done.is_over() and done.totals == (70 + 25 + 560, 130 + 25 + 100, 30 + 25 + 100, 55)


def test_command_errors(tmp_path: Path) -> None:
    result = run(["--rules", "nope"], [])
    assert result.exit_code == 1 and "error: rules: unknown preset or file 'nope'" in result.output
    result = run(["--players", "9"], [])
    assert result.exit_code == 1 and "out of range" in result.output
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "salad-score/1", "ruleset": {"preset": "canadian"}, "players": []}')
    result = run(["--load", str(bad)], [])
    assert result.exit_code == 1 and f"error: {bad}: players:" in result.output
    result = run(["--load", str(bad), "--rules", "extended"], [])
    assert result.exit_code == 1 and "--load takes the rules" in result.output
    result = run(["--load", str(tmp_path / "missing.json")], [])
    assert result.exit_code == 1 and "No such file" in result.output


def test_toppings_in_the_terminal() -> None:
    args = ["--rules", "skip-the-salad", "--toppings", "rotten-tomato,spicy-pepper", "-n", "3"]
    lines = ["Ann, Bob, Cy", "cy", "10 5 5", "cy", "bob", "5 5 4", "cy"]
    result = run(args, lines)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Who holds the Rotten Tomato?" in out
    assert "Rotten Tomato: Cy holds it but took no tricks" not in out
    assert "Hand 1: Ann 100  Bob 50  Cy 75" in out
    assert "Ann picks the trump (last place)." in out
    assert "Tomatoes: they add up to 1, but 14 are in play" in out
    assert "Hand 2: Ann 50  Bob 50  Cy 65" in out


def test_wide_names_line_up(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Names of wide letters (王 takes two columns) line up in /chart's bars and the final
    standings: they were padded by letters, not columns."""
    from rich.cells import cell_len

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    result = run([], ["王小明, Bob, 李, Di", "", "3 4 3 3", "/chart", "/quit", "/quit"])
    bars = [line for line in result.output.splitlines() if "###" in line]
    assert len(bars) == 4
    assert len({cell_len(line[: line.index("#")]) for line in bars}) == 1, bars
