"""Rules files (docs/rules.md section 6): the examples play, records reload, bad files say why."""

from __future__ import annotations

import doctest
import os
import random
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import salad.formats.rules
from salad import Game, RulesError, load_ruleset
from salad.events import SCORE, Play, TokenTaken, TrickWon
from salad.formats.rules import FILE_KEYS, load_rules_file, parse_rules
from salad.ruleset import Kind, Moon
from salad.settings import apply_settings

EXAMPLES = sorted((Path(__file__).parent.parent / "examples" / "rules").glob("*.toml"))


def write(tmp_path: Path, text: str, name: str = "house.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def play_out(rs, players: int, seed: int, pick_first: bool = False) -> Game:
    """A whole game of random legal moves (or always the first legal move)."""
    game = Game(rs, players, seed=seed)
    rng = random.Random(seed)
    while not game.is_over():
        moves = game.legal_moves()
        assert moves, f"no legal move in phase {game.phase}"
        game.play(moves[0] if pick_first else rng.choice(moves))
    return game


def check_totals(game: Game) -> None:
    """Each hand hands out its fixed total unless a moon was shot; so does the game."""
    compiled = game.rules
    scores = [e for e in game.log if e[0] == SCORE]
    assert len(scores) == len(compiled.hands)
    moons = 0
    for _, index, points, moon in scores:
        assert isinstance(index, int)
        assert isinstance(points, tuple)
        if moon == -1:
            assert sum(points) == compiled.hands[index].fixed_total
        else:
            moons += 1
    assert [sum(p) for p in zip(*game.hand_points, strict=True)] == game.totals
    if not moons:
        assert sum(game.totals) == compiled.checksum


# -- the examples ------------------------------------------------------------------------------


def test_there_are_examples():
    names = {p.name for p in EXAMPLES}
    assert {"house.toml", "quick.toml", "black-jacks.toml"} <= names


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_loads_and_plays_every_player_count(path):
    rs = load_rules_file(path)
    assert rs.settings
    for players in range(rs.min_players, rs.max_players + 1):
        for seed in (1, 2):
            check_totals(play_out(rs, players, seed))
    check_totals(play_out(rs, rs.default_players, 3, pick_first=True))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_record_reloads_the_same_ruleset(path):
    rs = load_rules_file(path)
    assert rs.preset in ("canadian", "fruit-salad", "extended", "skip-the-salad")
    again = load_ruleset(rs.preset, rs.settings)
    assert again == rs
    assert again.settings == rs.settings
    assert again.compiled(rs.default_players).checksum == rs.compiled(rs.default_players).checksum
    # load_ruleset dispatches a path to the rules file.
    assert load_ruleset(str(path)) == rs


def test_house_example():
    rs = load_rules_file(EXAMPLES[0].parent / "house.toml")
    assert rs.preset == "canadian"
    assert rs.penalty("queens").points == 30
    assert rs.penalty("hearts").points == 5
    assert rs.penalty("jokers").points == 20
    rules = rs.compiled(4)
    assert rules.deck.wild_mask.bit_count() == 2
    # 1120, hearts -65 twice, queens +20 twice, KS -50 twice, 2 jokers at 20 in 6 hands.
    assert rules.checksum == 1120 - 130 + 40 - 100 + 240


def test_quick_example_has_three_hands():
    rs = load_rules_file(EXAMPLES[0].parent / "quick.toml")
    assert rs.hands == ("no-hearts", "no-queens", "salad")
    assert [h.fixed_total for h in rs.compiled(4).hands] == [130, 100, 230]
    deck = rs.deck_for(3)
    assert [deck.format(c) for c in deck.removed] == ["2S"]


def test_black_jacks_example_adds_rounds_before_the_salad():
    rs = load_rules_file(EXAMPLES[0].parent / "black-jacks.toml")
    assert rs.hands[-3:] == ("no-black-jacks", "no-high-diamonds", "salad")
    rules = rs.compiled(4)
    deck = rules.deck
    jacks = rules.hands[5].penalties[0]
    assert jacks.mask == deck.parse_many("JC JS")
    assert jacks.points == 50
    diamonds = rules.hands[6].penalties[0]
    assert diamonds.mask == deck.parse_many("TD JD QD KD AD")
    assert rules.hands[6].round.name == "No High Diamonds"
    salad = {p.penalty.id for p in rules.hands[7].penalties}
    assert {"black-jacks", "high-diamonds", "tricks", "hearts"} <= salad
    assert rules.checksum == 1120 + 2 * 100 + 2 * 75


def test_spicy_example_token_round():
    rs = load_rules_file(EXAMPLES[0].parent / "spicy.toml")
    assert rs.passing == 3
    assert rs.pass_direction == "left"
    assert rs.trump_first == "C"
    assert rs.trump_chooser
    assert rs.moon == Moon.NEGATIVE
    potato = rs.penalty("potato")
    assert potato.kind == Kind.TOKEN
    assert rs.compiled(4).hands[4].fixed_total == 60


# -- records: (preset, settings) reloads the ruleset ----------------------------------------


def test_file_ruleset_equals_preset_plus_settings(tmp_path):
    path = write(
        tmp_path,
        """
preset = "fruit-salad"
jokers = 1
hands = ["no-queens", "no-tricks", "salad"]
[points]
queens = 40
[[rounds]]
id = "no-aces"
penalties = [{ id = "aces", ranks = ["A"], points = 15 }]
""",
    )
    rs = load_rules_file(path)
    assert rs.preset == "fruit-salad"
    assert rs.settings == {
        "jokers": 1,
        "hands": ["no-queens", "no-tricks", "salad"],
        "points": {"queens": 40},
        "rounds": [{"id": "no-aces", "penalties": [{"id": "aces", "ranks": ["A"], "points": 15}]}],
    }
    assert load_ruleset(rs.preset, rs.settings) == rs
    # hands given: the added round is known but not played.
    assert rs.hands == ("no-queens", "no-tricks", "salad")
    assert rs.round("no-aces").penalties == ("aces",)


def test_no_preset_means_canadian(tmp_path):
    rs = load_rules_file(write(tmp_path, "title = 'Mine'\n"))
    assert rs.preset == "canadian"
    assert rs.title == "Mine"
    assert load_ruleset("canadian", rs.settings) == rs


def test_empty_file_is_the_preset(tmp_path):
    assert load_rules_file(write(tmp_path, "")) == load_ruleset("canadian")
    assert load_rules_file(write(tmp_path, "preset = 'extended'\n")) == load_ruleset("extended")


def test_file_with_more_settings_layers_and_reloads(tmp_path):
    path = write(
        tmp_path,
        """
hands = ["no-tricks", "no-hearts", "salad"]
[points]
queens = 30
[[penalties]]
id = "black-jacks"
cards = ["JC", "JS"]
points = 50
""",
    )
    extra = {
        "points": {"hearts": 5},
        "rounds": [{"id": "no-black-jacks", "penalties": ["black-jacks"]}],
    }
    rs = load_ruleset(str(path), extra)
    assert rs.penalty("queens").points == 30
    assert rs.penalty("hearts").points == 5
    assert rs.hands == ("no-tricks", "no-hearts", "no-black-jacks", "salad")
    assert rs.settings["points"] == {"queens": 30, "hearts": 5}
    assert load_ruleset(rs.preset, rs.settings) == rs


def test_settings_on_settings_reload_the_same_ruleset():
    one = load_ruleset("canadian", {"jokers": 2, "joker_points": 10, "points": {"queens": 30}})
    two = load_ruleset("canadian", {**one.settings})
    assert one == two
    three = apply_settings(one, {"jokers": 3, "points": {"hearts": 1}})
    assert three.penalty("jokers").points == 10  # kept from the layer below
    assert three.penalty("queens").points == 30
    assert load_ruleset(three.preset, three.settings) == three


@pytest.mark.parametrize(
    ("first", "then", "check"),
    [
        # a later definition of a penalty beats earlier points for it
        (
            {"points": {"queens": 30}},
            {"penalties": [{"id": "queens", "points": 5, "ranks": ["Q"]}]},
            lambda rs: rs.penalty("queens").points == 5,
        ),
        # a smaller table keeps the default player count inside it
        ({"max_players": 8, "players": 8}, {"max_players": 7}, lambda rs: rs.default_players == 7),
        # taking the jokers out forgets their points
        (
            {"jokers": 1, "points": {"jokers": 40}},
            {"jokers": 0},
            lambda rs: "jokers" not in {p.id for p in rs.catalogue},
        ),
        # rounds added later join an earlier list of hands, before its Salad
        (
            {"hands": ["no-hearts", "salad"]},
            {
                "rounds": [
                    {"id": "no-aces", "penalties": [{"id": "aces", "ranks": ["A"], "points": 5}]}
                ]
            },
            lambda rs: rs.hands == ("no-hearts", "no-aces", "salad"),
        ),
        # a later hand list replaces the earlier one
        (
            {"hands": ["no-hearts", "salad"]},
            {"hands": ["no-queens"]},
            lambda rs: rs.hands == ("no-queens",),
        ),
    ],
)
def test_layered_settings_reload(first, then, check):
    rs = apply_settings(load_ruleset("canadian", first), then)
    assert check(rs)
    assert load_ruleset(rs.preset, rs.settings) == rs


def test_layers_a_record_cannot_store_are_refused():
    rs = load_ruleset(
        "canadian",
        {"rounds": [{"id": "r", "penalties": [{"id": "x", "points": 3, "cards": ["QS"]}]}]},
    )
    with pytest.raises(RulesError, match="^settings: .*give all the settings at once$"):
        apply_settings(rs, {"penalties": [{"id": "x", "points": 9, "cards": ["QH"]}]})


# -- bad files: one line, naming the file and the key ------------------------------------------


def error_of(tmp_path: Path, text: str, name: str = "house.toml") -> str:
    path = write(tmp_path, text, name)
    with pytest.raises(RulesError) as info:
        load_rules_file(path)
    message = str(info.value)
    assert "\n" not in message and "\r" not in message
    assert message.startswith(f"rules file {path}: ")
    # load_ruleset gives the same message for a path.
    with pytest.raises(RulesError) as again:
        load_ruleset(str(path))
    assert str(again.value) == message
    return message.removeprefix(f"rules file {path}: ")


def test_message_format_of_the_brief():
    with pytest.raises(RulesError) as info:
        parse_rules("[points]\nqueens = 'x'\n", "house.toml")
    assert (
        str(info.value) == "rules file house.toml: points.queens: must be a whole number, not 'x'"
    )


def test_missing_file(tmp_path):
    path = tmp_path / "nope.toml"
    with pytest.raises(RulesError) as info:
        load_rules_file(path)
    assert str(info.value) == f"rules file {path}: no such file"
    with pytest.raises(RulesError, match="no such file"):
        load_ruleset(str(path))


def test_directory_is_not_a_file(tmp_path):
    folder = tmp_path / "dir.toml"
    folder.mkdir()
    with pytest.raises(RulesError) as info:
        load_rules_file(folder)
    assert str(info.value) == f"rules file {folder}: is a directory, not a file"


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads anything")
def test_unreadable_file(tmp_path):
    path = write(tmp_path, "jokers = 1\n")
    path.chmod(0)
    try:
        with pytest.raises(RulesError, match="cannot be read: permission denied"):
            load_rules_file(path)
    finally:
        path.chmod(0o644)


def test_not_utf8(tmp_path):
    path = tmp_path / "latin.toml"
    path.write_bytes(b"title = 'ok'\ntitle2 = 'caf\xe9'\n")
    with pytest.raises(RulesError) as info:
        load_rules_file(path)
    assert str(info.value) == f"rules file {path}: line 2: not UTF-8 text (byte 0xe9)"


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("jokers = 2\npoints = {queens = }\n", "line 2, column 20"),
        ("jokers = 2\n\njokers 3\n", "line 3, column 8"),
        ("title = 'unterminated\n", "end of file"),
        ('a = "\\q"\n', "line 1, column 8"),
        ("jokers = 1\njokers = 2\n", "line 2"),
        ("[points]\nqueens = 30\n[points]\n", "line 3"),
        ("hands = [\n'no-tricks',\n", "end of file"),
    ],
)
def test_toml_syntax_error_has_line_number(tmp_path, text, where):
    message = error_of(tmp_path, text)
    assert message.startswith(where)
    assert "TOML syntax error" in message


BAD = [
    # (file text, key that must be named, words of the message)
    ('preset = "spinach"', "preset", "is not a preset"),
    ("preset = 3", "preset", "is not a preset"),
    ("dressing = true", "dressing", "unknown key"),
    ("joker = 2", "joker", "did you mean 'jokers'"),
    ("[point]\nqueens = 3", "point", "did you mean 'points'"),
    ("[points]\nqueens = 'x'", "points.queens", "must be a whole number, not 'x'"),
    ("[points]\nqueens = 2.5", "points.queens", "must be a whole number"),
    ("[points]\nqueens = true", "points.queens", "must be a whole number"),
    ("[points]\nqueens = 1000000", "points.queens", "out of range"),
    ("[points]\nspinach = 10", "points.spinach", "unknown penalty"),
    ("[points]\nqueen = 10", "points.queen", "did you mean 'queens'"),
    ("points = 5", "points", "must be a table"),
    ("jokers = 'two'", "jokers", "must be a whole number"),
    ("jokers = 9", "jokers", "out of range (0 to 8)"),
    ("jokers = -1", "jokers", "out of range"),
    ("joker_points = 10", "joker_points", "no jokers"),
    ("title = 3", "title", "must be a non-empty string"),
    ("title = ''", "title", "must be a non-empty string"),
    ('title = """two\nlines"""', "title", "must be one line"),
    ("title = 1979-05-27", "title", "must be a non-empty string"),
    ("hands = []", "hands", "at least one round"),
    ("hands = 5", "hands", "must be a list of strings"),
    ("hands = ['no-tricks', 'no-spinach']", "hands[1]", "unknown round 'no-spinach'"),
    ("hands = ['salad', 'no-tricks']", "hands[0]", "no penalties"),
    ("players = 12", "players", "12 is out of range (3 to 8)"),
    ("players = 2", "players", "out of range"),
    ("min_players = 1", "min_players", "out of range"),
    ("max_players = 20", "max_players", "out of range"),
    ("min_players = 6\nmax_players = 4", "min_players", "more than max_players"),
    ("max_players = 16\npassing = 4", "passing", "14 players hold only 3 each"),
    ("passing = 7", "passing", "out of range"),
    ("objective = 'middle'", "objective", "is not one of low, high"),
    ("moon = 'full'", "moon", "is not one of none, old, negative"),
    ("moon = true", "moon", "is not one of"),
    ("moon_points = -5", "moon_points", "out of range"),
    ("pass_direction = 'up'", "pass_direction", "is not one of left, right, across"),
    ("trump = 'X'", "trump", "is not a suit"),
    ("trump = 1", "trump", "must be a suit"),
    ("trump_chooser = 'first'", "trump_chooser", "is not one of"),
    ("removal = ['2C', 'ZZ']", "removal", "'ZZ' is not a card"),
    ("removal = ['2C']", "removal", "cannot be dealt"),
    ("jokers = 1\nremoval = ['JK', '2C', '2D', '3C', '3D']", "removal", "wild card"),
    ("penalties = 3", "penalties", "must be a list of tables"),
    ("penalties = [3]", "penalties[0]", "must be a table"),
    ("[[penalties]]\nname = 'x'\npoints = 5\ncards = ['QS']", "penalties[0].id", "missing"),
    ("[[penalties]]\nid = 'two words'\npoints = 5\ncards = ['QS']", "penalties[0].id", "letters"),
    ("[[penalties]]\nid = 'x'\ncards = ['QS']", "penalties[0].points", "missing"),
    ("[[penalties]]\nid = 'x'\npoints = 'five'\ncards = ['QS']", "penalties[0].points", "whole"),
    ("[[penalties]]\nid = 'x'\npoints = 5", "penalties[0]", "needs suits, ranks, cards or wild"),
    ("[[penalties]]\nid = 'x'\npoints = 5\nsuits = []", "penalties[0]", "needs suits"),
    ("[[penalties]]\nid = 'x'\npoints = 5\nkind = 'token'", "penalties[0]", "needs suits"),
    ("[[penalties]]\nid = 'x'\npoints = 5\ncards = ['QZ']", "penalties[0].cards", "'QZ' is not"),
    ("[[penalties]]\nid = 'x'\npoints = 5\ncards = 'QS QH'", "penalties[0].cards", "is not a card"),
    ("[[penalties]]\nid = 'x'\npoints = 5\nsuits = ['X']", "penalties[0].suits", "not a suit"),
    ("[[penalties]]\nid = 'x'\npoints = 5\nsuits = [1]", "penalties[0].suits", "list of strings"),
    ("[[penalties]]\nid = 'x'\npoints = 5\nranks = ['11']", "penalties[0].ranks", "not a rank"),
    ("[[penalties]]\nid = 'x'\npoints = 5\nwild = 'yes'", "penalties[0].wild", "true or false"),
    ("[[penalties]]\nid = 'x'\npoints = 5\nkind = 'cardz'", "penalties[0].kind", "is not one of"),
    ("[[penalties]]\nid = 'x'\npoints = 5\nsuit = ['H']", "penalties[0].suit", "'suits'"),
    (
        "[[penalties]]\nid = 'x'\npoints = 5\nkind = 'trick'\nsuits = ['H']",
        "penalties[0].suits",
        "counts no cards",
    ),
    ("rounds = {id = 'x'}", "rounds", "must be a list of tables"),
    ("[[rounds]]\nid = 'x'\npenalties = ['spinach']", "rounds[0].penalties[0]", "unknown penalty"),
    ("[[rounds]]\nid = 'x'\npenalties = ['queen']", "rounds[0].penalties[0]", "'queens'"),
    ("[[rounds]]\nid = 'x'\npenalties = []", "rounds[0].penalties", "at least one penalty"),
    ("[[rounds]]\nid = 'x'", "rounds[0].penalties", "at least one penalty"),
    ("[[rounds]]\nid = 'x'\npenalties = [3]", "rounds[0].penalties[0]", "penalty id or a table"),
    ("[[rounds]]\nid = 'x'\npenalties = 3", "rounds[0].penalties", "must be a list"),
    ("[[rounds]]\npenalties = ['tricks']", "rounds[0].id", "missing"),
    (
        "[[rounds]]\nid = 'x'\npenalties = ['tricks']\nall_previous = 1",
        "rounds[0].all_previous",
        "true",
    ),
    ("[[rounds]]\nid = 'x'\npenalties = ['tricks']\nrepeat = 2", "rounds[0].repeat", "unknown key"),
    (
        "[[rounds]]\nid = 'x'\n[[rounds.penalties]]\nid = 'y'\npoints = 5\ncards = ['1H']",
        "rounds[0].penalties[0].cards",
        "'1H' is not a card",
    ),
    (
        "[[rounds]]\nid = 'x'\n[[rounds.penalties]]\nid = 'y'\npoints = 5",
        "rounds[0].penalties[0]",
        "needs suits",
    ),
    ("[[rounds]]\nid = 'x'\npenalties = ['tricks']\n[[rounds]]\nid = 7", "rounds[1].id", "string"),
]


@pytest.mark.parametrize(("text", "key", "words"), BAD, ids=[b[1] + ":" + b[2] for b in BAD])
def test_bad_value(tmp_path, text, key, words):
    message = error_of(tmp_path, text + "\n")
    assert message.startswith(f"{key}: "), message
    assert words in message, message


def test_no_traceback_for_odd_toml(tmp_path):
    # Every TOML type in every place gives a RulesError, never another exception.
    values = [
        "1",
        "-1",
        "1.5",
        "true",
        "'x'",
        "''",
        "[]",
        "[1]",
        "['x']",
        "{}",
        "{a = 1}",
        "1979-05-27",
        "07:32:00",
        "1979-05-27T07:32:00Z",
        "inf",
        "nan",
    ]
    keys = [
        "preset",
        "title",
        "players",
        "min_players",
        "max_players",
        "points",
        "hands",
        "jokers",
        "joker_points",
        "objective",
        "moon",
        "moon_points",
        "passing",
        "pass_direction",
        "trump",
        "trump_chooser",
        "removal",
        "penalties",
        "rounds",
    ]
    for key in keys:
        for value in values:
            path = write(tmp_path, f"{key} = {value}\n")
            try:
                rs = load_rules_file(path)
            except RulesError as exc:
                assert "\n" not in str(exc)
                assert key in str(exc)
            else:
                assert load_ruleset(rs.preset, rs.settings) == rs


# -- any settings: an error or a ruleset that reloads ------------------------------------------

_junk = st.one_of(
    st.integers(-3, 20),
    st.sampled_from(["", "x", "H", "QS", "none", "salad", "tricks", "cards"]),
    st.booleans(),
    st.lists(st.sampled_from(["x", "no-hearts", "2C"]), max_size=2),
    st.dictionaries(st.sampled_from(["queens", "x"]), st.integers(-3, 3), max_size=2),
)


def _mostly(good: st.SearchStrategy) -> st.SearchStrategy:
    """Usually a plausible value, now and then junk of any type."""
    return st.integers(0, 9).flatmap(lambda n: _junk if n == 0 else good)


_penalty = st.fixed_dictionaries(
    {"id": st.sampled_from(["x", "y", "hearts", "queens"]), "points": st.integers(-50, 50)},
    optional={
        "kind": st.sampled_from(["cards", "token", "cards", "trick", "last-trick"]),
        "suits": st.lists(st.sampled_from(["H", "S", "clubs", "♦"]), min_size=1, max_size=2),
        "ranks": st.lists(st.sampled_from(["Q", "10", "ace", "2"]), max_size=2),
        "cards": st.lists(st.sampled_from(["QS", "10H", "2C", "AD"]), max_size=2),
        "wild": st.booleans(),
    },
)
_round = st.fixed_dictionaries(
    {"id": st.sampled_from(["r1", "r2", "no-hearts", "no-tricks"])},
    optional={
        "name": st.sampled_from(["Round One", "Another"]),
        "penalties": st.lists(
            st.one_of(st.sampled_from(["x", "tricks", "hearts", "last-trick"]), _penalty),
            min_size=1,
            max_size=2,
        ),
        "all_previous": st.booleans(),
    },
)
_ROUND_IDS = ["no-tricks", "no-hearts", "no-queens", "no-last-trick", "salad", "r1", "r2"]
_CARDS = ["2C", "2D", "2H", "2S", "3C", "3D", "3H", "3S", "4C", "4D"]
_settings = st.fixed_dictionaries(
    {},
    optional={
        "title": _mostly(st.sampled_from(["House", "Ours"])),
        "players": _mostly(st.integers(3, 6)),
        "min_players": _mostly(st.integers(3, 5)),
        "max_players": _mostly(st.integers(5, 10)),
        "jokers": _mostly(st.integers(0, 3)),
        "joker_points": _mostly(st.integers(-10, 40)),
        "objective": _mostly(st.sampled_from(["low", "high"])),
        "moon": _mostly(st.sampled_from(["none", "old", "negative"])),
        "moon_points": _mostly(st.integers(0, 200)),
        "passing": _mostly(st.integers(0, 3)),
        "pass_direction": _mostly(st.sampled_from(["left", "right", "across"])),
        "trump": _mostly(st.sampled_from(["H", "spades", "none", "♦"])),
        "trump_chooser": _mostly(st.sampled_from(["none", "last-place"])),
        "hands": _mostly(st.lists(st.sampled_from(_ROUND_IDS), min_size=1, max_size=6)),
        "removal": _mostly(st.permutations(_CARDS)),
        "points": _mostly(
            st.dictionaries(
                st.sampled_from(["queens", "hearts", "tricks", "x", "jokers"]),
                st.integers(-50, 50),
                max_size=3,
            )
        ),
        "penalties": _mostly(st.lists(_penalty, max_size=2)),
        "rounds": _mostly(st.lists(_round, max_size=2)),
    },
)


@given(
    preset=st.sampled_from(["canadian", "fruit-salad", "extended"]),
    settings=_settings,
    more=_settings,
)
def test_any_settings_give_an_error_or_a_ruleset_that_reloads(preset, settings, more):
    try:
        rs = load_ruleset(preset, settings)
    except RulesError as exc:
        assert "\n" not in str(exc)
        return
    assert rs.preset == preset
    assert rs.settings == settings
    assert load_ruleset(rs.preset, rs.settings) == rs
    rs.compiled(rs.default_players)
    try:
        layered = apply_settings(rs, more)
    except RulesError as exc:
        assert "\n" not in str(exc)
        return
    assert layered.preset == preset
    assert load_ruleset(layered.preset, layered.settings) == layered
    layered.compiled(layered.default_players)


# -- the documentation -----------------------------------------------------------------------

DOCS = Path(__file__).parent.parent / "docs" / "rules-files.md"


def test_every_toml_block_of_the_docs_loads_and_plays():
    blocks = re.findall(r"```toml\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 10
    for i, block in enumerate(blocks):
        rs = parse_rules(block, f"docs block {i}")
        check_totals(play_out(rs, rs.default_players, i))


def test_every_key_is_documented():
    text = DOCS.read_text(encoding="utf-8")
    for key in FILE_KEYS:
        assert f"`{key}`" in text, key
    for key in ("id", "name", "kind", "points", "suits", "ranks", "cards", "wild", "all_previous"):
        assert f"| `{key}` |" in text, key


def test_examples_of_the_docs_and_the_module(monkeypatch):
    monkeypatch.chdir(DOCS.parent.parent)
    result = doctest.testfile(str(DOCS), module_relative=False)
    assert result.attempted >= 4
    assert not result.failed
    result = doctest.testmod(salad.formats.rules)
    assert result.attempted >= 4
    assert not result.failed


def test_two_tokens_that_share_a_card_pass_only_on_their_cards():
    """A hand's tokens count the cards of any of them (their masks joined, not added: added,
    the Ace of Hearts counted twice carried into the Two of Spades)."""
    rs = parse_rules(
        """
preset = "canadian"
hands = ["pair"]
[[penalties]]
id = "hot"
kind = "token"
points = 10
suits = ["H"]
[[penalties]]
id = "ace"
kind = "token"
points = 5
cards = ["AH"]
[[rounds]]
id = "pair"
penalties = ["hot", "ace"]
"""
    )
    for seed in range(20):
        game = Game(rs, 4, seed=seed)
        rng = random.Random(seed)
        while not game.is_over():
            game.play(rng.choice(game.legal_moves()))
        trick: list[str] = []
        last: list[str] = []
        for event in game.events:
            if isinstance(event, Play):
                trick.append(game.format_move(event.move))
            elif isinstance(event, TrickWon):
                last, trick = trick, []
            elif isinstance(event, TokenTaken):
                assert any(card.endswith("H") for card in last), last
