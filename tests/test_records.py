"""Game records: round trips through JSON, replay, tamper detection, files and the listing."""

from __future__ import annotations

import copy
import json
import random
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from salad import Game, RecordError, RulesError, load_ruleset
from salad.cards import WildSpec, WildWins, cards_of
from salad.events import DEAL, DRAW, EXCHANGE, PASS, PLAY, TRUMP
from salad.formats.records import (
    FORMAT,
    dump_record,
    format_record,
    game_from_record,
    load_records,
    record_from_game,
    verify_record,
    write_records,
)
from salad.presets import CANADIAN, PRESETS, STANDARD_DECK
from salad.ruleset import Kind, Moon, Penalty, Selector
from salad.view import Phase

ALL_PRESETS = sorted(PRESETS)  # canadian, fruit-salad, extended (and skip-the-salad)
DOCS = Path(__file__).resolve().parent.parent / "docs" / "records.md"


# -- helpers ------------------------------------------------------------------------------------


def deal_randomly(game: Game, rng: random.Random) -> None:
    cards = cards_of(game.deck.in_play)
    rng.shuffle(cards)
    hands = [0] * game.players
    for i, card in enumerate(cards):
        hands[i % game.players] |= 1 << card
    game.deal(hands)


def play(game: Game, rng: random.Random, moves: int | None = None) -> Game:
    """Random legal moves (and random deals where the game waits for one)."""
    done = 0
    while not game.is_over() and (moves is None or done < moves):
        if game.phase == Phase.DEAL:
            deal_randomly(game, rng)
        else:
            game.play(rng.choice(game.legal_moves()))
        done += 1
    return game


def new_game(preset: str, players: int, seed: int, auto: bool = True, settings=None) -> Game:
    rs = load_ruleset(preset, settings)
    if auto:
        return Game(rs, players, seed=seed)
    return Game(rs, players, seed=seed, auto_deal=False)  # draws the first dealer from the seed


def finished(preset: str, players: int, seed: int, auto: bool = True, settings=None) -> Game:
    return play(new_game(preset, players, seed, auto, settings), random.Random(seed))


def through_json(record: dict[str, Any]) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(dump_record(record))
    return loaded


def normalised(game: Game) -> list[tuple[object, ...]]:
    """The log with cards as codes: identical copies of a card are interchangeable."""
    deck = game.deck
    size = deck.size

    def codes(mask: int) -> tuple[str, ...]:
        return tuple(sorted(deck.format(c) for c in cards_of(mask)))

    out: list[tuple[object, ...]] = []
    for entry in game.log:
        tag = entry[0]
        if tag == DRAW:
            rounds = tuple(tuple((s, deck.format(c)) for s, c in r) for r in entry[1])  # type: ignore[attr-defined]
            out.append((tag, rounds, entry[2]))
        elif tag == DEAL:
            out.append((tag, entry[1], entry[2], tuple(codes(m) for m in entry[3])))  # type: ignore[attr-defined]
        elif tag == EXCHANGE:
            out.append((tag, entry[1], tuple(codes(m) for m in entry[2])))  # type: ignore[attr-defined]
        elif tag in (PLAY, PASS):
            move = entry[2]
            assert isinstance(move, int)
            out.append((tag, entry[1], deck.format(move % size), move >= size))
        else:
            out.append(entry)
    return out


def single_copy(game: Game) -> bool:
    return len(set(game.deck.codes)) == game.deck.size


def check_round_trip(game: Game) -> dict[str, Any]:
    record = record_from_game(game)
    loaded = through_json(record)
    assert loaded == record
    assert verify_record(loaded) == game.totals
    rebuilt = game_from_record(loaded)
    assert normalised(rebuilt) == normalised(game)
    if single_copy(game):
        assert rebuilt.log == game.log
    assert rebuilt.totals == game.totals
    assert rebuilt.phase == game.phase and rebuilt.to_move == game.to_move
    assert rebuilt.auto_deal == game.auto_deal and rebuilt.seed == game.seed
    assert record_from_game(rebuilt) == record
    return record


def error(record: Any) -> str:
    with pytest.raises(RecordError) as info:
        verify_record(record)
    message = str(info.value)
    assert "\n" not in message
    return message


# -- round trips --------------------------------------------------------------------------------


@settings(max_examples=examples(50), deadline=None)
@given(
    preset=st.sampled_from(ALL_PRESETS),
    data=st.data(),
    seed=st.integers(0, 2**40),
    auto=st.booleans(),
)
def test_random_games_round_trip(preset: str, data: st.DataObject, seed: int, auto: bool) -> None:
    rs = load_ruleset(preset)
    players = data.draw(st.integers(rs.min_players, rs.max_players), label="players")
    game = finished(preset, players, seed, auto)
    record = check_round_trip(game)
    assert record["format"] == FORMAT
    assert record["winners"] == game.winners()
    assert len(record["hands"]) == len(game.rules.hands)
    assert sum(game.totals) == game.rules.checksum or any("moon" in h for h in record["hands"])


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_preset_round_trips(preset: str, players: int) -> None:
    game = finished(preset, players, seed=players * 11)
    record = check_round_trip(game)
    deck = game.deck
    assert record["hands"][0]["removed"] == [deck.format(c) for c in deck.removed]
    assert all(len(seat) == deck.cards_each for seat in record["hands"][0]["deal"])
    assert record["seed"] == str(players * 11)
    assert "draw" in record and record["first_dealer"] == game.first_dealer


HOUSE_RULES: list[dict[str, Any]] = [
    {"jokers": 2, "joker_points": 15},
    {"passing": 3, "pass_direction": "left"},
    {"passing": 2, "trump": "S", "trump_chooser": "last-place", "moon": "negative"},
    {"trump": "H", "points": {"queens": 30}, "objective": "high"},
    {"hands": ["no-queens", "salad"], "moon": "old", "moon_points": 50},
]


@pytest.mark.parametrize("house", HOUSE_RULES)
@pytest.mark.parametrize("auto", [True, False])
def test_house_rules_round_trip(house: dict[str, Any], auto: bool) -> None:
    for seed in range(3):
        game = finished("canadian", 4 + seed, seed, auto, settings=house)
        record = check_round_trip(game)
        assert record["ruleset"] == {"preset": "canadian", "settings": house}
        hand = record["hands"][-1]
        assert ("passes" in hand) == bool(house.get("passing"))
        assert ("trump" in hand) == bool(house.get("trump"))


def test_extended_with_two_decks_and_passing() -> None:
    # Two copies of every card: passing both copies of a card must replay.
    game = finished("extended", 7, seed=5, settings={"passing": 3})
    check_round_trip(game)


def test_skip_the_salad_with_every_topping() -> None:
    try:
        load_ruleset("skip-the-salad", {"toppings": "all"})
    except (RulesError, KeyError):
        pytest.skip("this build has no skip-the-salad toppings")
    for seed, players in ((1, 4), (2, 5), (3, 7)):
        game = finished("skip-the-salad", players, seed, seed % 2 == 1, {"toppings": "all"})
        record = check_round_trip(game)
        hand = record["hands"][1]
        assert "trump" in hand and "trump_seat" in hand and "passes" in hand


@pytest.fixture
def wild_preset(monkeypatch: pytest.MonkeyPatch) -> str:
    """A Skip-the-Salad-like preset: declaring Wilds, a card that always wins, a token."""
    deck = replace(
        STANDARD_DECK,
        wilds=(
            WildSpec("WW", "Wild", "W", 3, WildWins.DECLARED),
            WildSpec("SD", "Salad Dressing", "D", 1, WildWins.ALWAYS),
        ),
    )
    rotten = Penalty("rotten", "Rotten Tomato", Kind.TOKEN, 25, Selector(suits=("H",)))
    preset = replace(
        CANADIAN,
        preset="test-wilds",
        deck=deck,
        catalogue=(*CANADIAN.catalogue, rotten),
        every_hand=("rotten",),
        moon=Moon.NEGATIVE,
    )
    monkeypatch.setitem(PRESETS, "test-wilds", preset)
    return "test-wilds"


def test_declared_wilds_and_tokens_round_trip(wild_preset: str) -> None:
    highs = 0
    for seed in range(4):
        game = finished(wild_preset, 4, seed, auto=seed % 2 == 0)
        record = check_round_trip(game)
        highs += sum(
            c.endswith("+") for h in record["hands"] for t in h["tricks"] for c in t["cards"]
        )
    assert highs > 0
    text = format_record(record)
    assert "+" in text


def test_plus_on_an_ordinary_card_is_illegal(wild_preset: str) -> None:
    record = record_from_game(finished(wild_preset, 4, seed=1))
    trick = record["hands"][0]["tricks"][0]
    plain = next(i for i, c in enumerate(trick["cards"]) if c not in ("WW", "SD"))
    seat = (trick["leader"] + plain) % 4
    code = trick["cards"][plain]
    trick["cards"][plain] = code + "+"
    assert error(record) == (
        f"hand 1, trick 1, seat {seat}, card {code}+: seat {seat} may only declare a Wild high"
    )


# -- unfinished games ---------------------------------------------------------------------------


@settings(max_examples=examples(40), deadline=None)
@given(
    preset=st.sampled_from(["canadian", "fruit-salad"]),
    players=st.integers(3, 6),
    seed=st.integers(0, 2**32),
    cut=st.floats(0, 1),
    auto=st.booleans(),
    passing=st.booleans(),
)
def test_unfinished_games_round_trip_and_resume(
    preset: str, players: int, seed: int, cut: float, auto: bool, passing: bool
) -> None:
    house = {"passing": 2, "trump_chooser": "last-place"} if passing else None
    whole = finished(preset, players, seed, auto, house)
    moves = sum(
        1
        for e in whole.log
        if e[0] in (PLAY, PASS) or (e[0] == TRUMP and e[2] != -1) or (e[0] == DEAL and not auto)
    )
    partial = play(
        new_game(preset, players, seed, auto, house), random.Random(seed), int(cut * moves)
    )
    record = check_round_trip(partial)
    if not partial.is_over():
        assert record["winners"] == []
        last = record["hands"][-1] if record["hands"] else None
        if partial.phase == Phase.PLAY:
            assert last is not None and "current" in last and "points" not in last
    # Resuming the rebuilt game with the same moves finishes the same game.
    resumed = game_from_record(through_json(record))
    rng = random.Random(seed)
    play(new_game(preset, players, seed, auto, house), rng, int(cut * moves))
    play(resumed, rng)
    assert resumed.log == whole.log
    assert resumed.totals == whole.totals


def test_unfinished_game_mid_trick() -> None:
    game = play(new_game("canadian", 4, 9), random.Random(9), 60)
    record = check_round_trip(game)
    last = record["hands"][-1]
    assert "points" not in last
    assert last["current"]["leader"] == game.leader
    assert len(last["current"]["cards"]) == len(game.trick)
    assert record["totals"] == game.totals and record["winners"] == []
    assert "in progress" in format_record(record)
    assert "Not finished" in format_record(record)


def test_waiting_for_a_deal() -> None:
    game = new_game("canadian", 4, 2, auto=False)
    record = check_round_trip(game)
    assert record["hands"] == [] and "draw" in record and record["auto_deal"] is False
    play(game, random.Random(2), 1 + 52)  # the deal and hand 1
    assert game.phase == Phase.DEAL and game.hand_index == 1
    record = check_round_trip(game)
    assert "points" in record["hands"][-1] and "current" not in record["hands"][-1]


def test_missing_seeded_hand_is_caught() -> None:
    game = play(new_game("canadian", 4, 2), random.Random(2), 52)
    record = check_round_trip(game)
    assert record["hands"][-1]["tricks"] == []
    del record["hands"][-1]
    assert error(record) == "hand 2: is missing: seed 2 has dealt it"


# -- tampering ----------------------------------------------------------------------------------


@pytest.fixture
def game() -> Game:
    return finished("canadian", 4, seed=17)


@pytest.fixture
def record(game: Game) -> dict[str, Any]:
    return through_json(record_from_game(game))


@pytest.fixture
def manual() -> dict[str, Any]:
    return through_json(record_from_game(finished("canadian", 3, seed=4, auto=False)))


def test_untampered_records_verify(record: dict[str, Any], manual: dict[str, Any]) -> None:
    verify_record(record)
    verify_record(manual)


def test_card_dealt_twice(manual: dict[str, Any]) -> None:
    deal = manual["hands"][1]["deal"]
    deal[2][0] = deal[1][3]
    assert error(manual) == f"hand 2, deal, seat 2, card {deal[1][3]}: is dealt twice"


def test_wrong_card_count(manual: dict[str, Any]) -> None:
    deal = manual["hands"][0]["deal"]
    deal[1].append(deal[0].pop())
    assert error(manual) == "hand 1, deal, seat 0: holds 16 cards, not 17"


def test_removed_card_dealt(manual: dict[str, Any]) -> None:
    deal = manual["hands"][2]["deal"]
    deal[1][5] = "2C"  # 3 players: 2C is taken out
    assert error(manual) == "hand 3, deal, seat 1, card 2C: is taken out of the deck for 3 players"


def test_unknown_card_dealt(manual: dict[str, Any]) -> None:
    manual["hands"][0]["deal"][0][0] = "ZZ"
    assert error(manual).startswith("hand 1, deal, seat 0, card ZZ: unknown card 'ZZ'")


def test_wrong_removed(manual: dict[str, Any]) -> None:
    manual["hands"][3]["removed"] = ["2D"]
    assert error(manual) == ("hand 4: removed is 2C for 3 players, the record says 2D")


def test_cards_swapped_between_seats_breaks_play(manual: dict[str, Any]) -> None:
    # A deal that is a valid deal but not the one played: the play stops making sense.
    deal = manual["hands"][0]["deal"]
    deal[0][0], deal[1][0] = deal[1][0], deal[0][0]
    assert re.fullmatch(
        r"hand 1, trick \d+, seat [01], card \w\w: "
        r"seat [01] (does not hold that card|must follow \w+)",
        error(manual),
    )


def test_seeded_deal_swapped(record: dict[str, Any]) -> None:
    deal = record["hands"][4]["deal"]
    deal[0][0], deal[3][0] = deal[3][0], deal[0][0]
    assert (
        error(record)
        == f"hand 5, deal, seat 0, card {deal[0][0]}: seed 17 does not deal it to seat 0"
    )


def test_wrong_dealer(record: dict[str, Any]) -> None:
    hand = record["hands"][2]
    real = hand["dealer"]
    hand["dealer"] = (real + 1) % 4
    assert (
        error(record)
        == f"hand 3, seat {(real + 1) % 4}: is not the dealer: seat {real} deals hand 3"
    )


def test_wrong_leader(record: dict[str, Any]) -> None:
    trick = record["hands"][1]["tricks"][4]
    real = trick["leader"]
    trick["leader"] = (real + 2) % 4
    assert error(record) == (
        f"hand 2, trick 5, seat {(real + 2) % 4}: cannot lead: seat {real} (won trick 4) leads"
    )


def test_wrong_first_leader(record: dict[str, Any]) -> None:
    trick = record["hands"][0]["tricks"][0]
    trick["leader"] = (trick["leader"] + 1) % 4
    assert "cannot lead" in error(record) and "(at the dealer's left)" in error(record)


def find_unfollowed(record: dict[str, Any], game: Game) -> tuple[int, int, int, str, str]:
    """Swap a seat's followed card with an off-suit card it plays later: a revoke."""
    deck = game.deck
    n = game.players

    def suit(code: str) -> int:
        return deck.suit_of[deck.parse(code)]

    for h, hand in enumerate(record["hands"]):
        tricks = hand["tricks"]
        for t, trick in enumerate(tricks):
            led = suit(trick["cards"][0])
            for i in range(1, n):
                seat = (trick["leader"] + i) % n
                if suit(trick["cards"][i]) != led:
                    continue
                for later in tricks[t + 1 :]:
                    j = (seat - later["leader"]) % n
                    other = later["cards"][j]
                    if suit(other) != led:
                        trick["cards"][i], later["cards"][j] = other, trick["cards"][i]
                        return h, t, seat, other, deck.suits[led].name.lower()
    raise AssertionError("no revoke to make")


def test_illegal_card(record: dict[str, Any], game: Game) -> None:
    h, t, seat, card, suit = find_unfollowed(record, game)
    assert error(record) == (
        f"hand {h + 1}, trick {t + 1}, seat {seat}, card {card}: seat {seat} must follow {suit}"
    )


def test_card_not_held(record: dict[str, Any]) -> None:
    trick = record["hands"][0]["tricks"][0]
    deal = record["hands"][0]["deal"]
    leader = trick["leader"]
    stranger = next(c for c in deal[(leader + 1) % 4] if c not in trick["cards"])
    trick["cards"][0] = stranger
    assert error(record) == (
        f"hand 1, trick 1, seat {leader}, card {stranger}: seat {leader} does not hold that card"
    )


def test_wrong_winner(record: dict[str, Any]) -> None:
    trick = record["hands"][3]["tricks"][2]
    real = trick["winner"]
    card = trick["cards"][(real - trick["leader"]) % 4]
    trick["winner"] = (real + 1) % 4
    assert error(record) == (
        f"hand 4, trick 3, seat {real}, card {card}: wins the trick, "
        f"the record says seat {(real + 1) % 4}"
    )


def test_wrong_trick_size(record: dict[str, Any]) -> None:
    record["hands"][0]["tricks"][6]["cards"].pop()
    assert error(record) == "hand 1, trick 7: has 3 cards, not 4"


def test_wrong_points(record: dict[str, Any], game: Game) -> None:
    record["hands"][5]["points"][2] += 10
    real = game.hand_points[5][2]
    assert error(record) == f"hand 6, seat 2: scores {real}, the record says {real + 10}"


def test_wrong_moon(record: dict[str, Any]) -> None:
    record["hands"][1]["moon"] = 3
    assert error(record) == "hand 2, seat 3: does not shoot the moon"


def test_wrong_totals(record: dict[str, Any], game: Game) -> None:
    record["totals"][1] -= 5
    assert (
        error(record)
        == f"totals, seat 1: is {game.totals[1]}, the record says {game.totals[1] - 5}"
    )


def test_wrong_winners(record: dict[str, Any], game: Game) -> None:
    losers = [s for s in range(4) if s not in game.winners()]
    record["winners"] = losers[:1]
    assert error(record).startswith("winners: seat")


def test_wrong_first_dealer_with_draw(record: dict[str, Any], game: Game) -> None:
    record["first_dealer"] = (game.first_dealer + 1) % 4
    assert error(record) == (
        f"first_dealer: the draw gives seat {game.first_dealer}, "
        f"the record says seat {(game.first_dealer + 1) % 4}"
    )


def test_tampered_draw(record: dict[str, Any]) -> None:
    pair = record["draw"][0][1]
    real = pair[1]
    pair[1] = "AS" if real != "AS" else "AH"
    assert error(record) == (
        f"draw, round 1, seat 1, card {pair[1]}: seed 17 draws {real} for seat 1"
    )


def test_wrong_seed(record: dict[str, Any]) -> None:
    record["seed"] = "18"
    assert error(record).startswith("draw, round 1, seat ")


def test_draw_without_seed(record: dict[str, Any]) -> None:
    del record["seed"]
    record["auto_deal"] = False
    assert error(record) == "draw: a draw is only recorded with the seed that made it"


def test_wrong_round(record: dict[str, Any]) -> None:
    record["hands"][2]["round_id"] = "no-hearts"
    assert error(record) == ('hand 3: round_id is "no-queens" here, the record says "no-hearts"')


def test_too_many_hands(record: dict[str, Any]) -> None:
    record["hands"].append(copy.deepcopy(record["hands"][-1]))
    record["hands"][-1]["number"] = 7
    assert error(record) == "hand 7: is one too many: the ruleset plays 6 hands"


def test_unfinished_hand_followed_by_another(record: dict[str, Any]) -> None:
    del record["hands"][1]["points"]
    assert error(record) == "hand 2: points are missing"
    record["hands"][1]["tricks"].pop()
    assert error(record) == "hand 2: is not finished (12 of 13 tricks), but another hand follows"


TAMPERS: list[tuple[str, Any, str]] = [
    # (path, new value or DELETE, expected message)
    ("format", "salad-record/9", 'format: "salad-record/9" is not a known record format'),
    ("format", None, "format: null is not a known record format"),
    ("ruleset", "canadian", 'ruleset: must be a JSON object, not "canadian"'),
    ("ruleset.preset", "hearts", 'ruleset: preset "hearts" is not one of'),
    ("ruleset.settings", {"points": {"queens": "x"}}, "ruleset.settings: points.queens:"),
    ("ruleset.settings", [1], "ruleset.settings: must be a JSON object"),
    ("players", 4, "record: players must be a list, not 4"),
    ("players", [{"name": "A"}] * 2, "players: 2 is out of range for canadian (3 to 8)"),
    ("players.0", {"nom": "A"}, "players[0]: name must be a non-empty string, not null"),
    ("seed", 17, "seed: must be a whole number written as a string, not 17"),
    ("seed", "17x", 'seed: must be a whole number written as a string, not "17x"'),
    ("first_dealer", 4, "record: first_dealer must be a seat number 0 to 3, not 4"),
    ("first_dealer", True, "record: first_dealer must be a seat number 0 to 3, not true"),
    ("auto_deal", "yes", "record: auto_deal must be true or false"),
    ("draw", {"x": 1}, "record: draw must be a list"),
    ("draw.0.0", ["0", "QS"], "draw, round 1: the seat must be a seat number"),
    ("draw.0.0", 5, "draw, round 1: each draw must be [seat, card], not 5"),
    ("hands", {"1": {}}, "record: hands must be a list"),
    ("hands.0", [], "hand 1: must be a JSON object, not []"),
    ("hands.0.number", "1", 'hand 1: number must be a whole number, not "1"'),
    ("hands.0.number", 2, "hand 1: number is 2, expected 1"),
    ("hands.0.extra", 1, 'hand 1: unknown key "extra"'),
    ("hands.0.deal", [[]], "hand 1, deal: has 1 seats, not 4"),
    ("hands.0.deal.0", "QS", 'hand 1, deal, seat 0: the cards must be a list, not "QS"'),
    ("hands.0.deal.0.0", 12, "hand 1, deal, seat 0: the cards must be a list of card codes"),
    ("hands.0.removed", None, "hand 1: removed must be a list, not null"),
    ("hands.0.dealer", -1, "hand 1: dealer must be a seat number 0 to 3, not -1"),
    ("hands.0.tricks", None, "hand 1: tricks must be a list, not null"),
    ("hands.0.tricks.0", "5C", 'hand 1, trick 1: must be a JSON object, not "5C"'),
    ("hands.0.tricks.0.cards", "5C 6C", "hand 1, trick 1: cards must be a list"),
    ("hands.0.tricks.0.winner", 1.0, "hand 1, trick 1: winner must be a seat number"),
    ("hands.0.tricks.0.cards.0", "", "hand 1, trick 1, seat"),
    ("hands.0.points", {"0": 1}, "hand 1: points must be a list"),
    ("hands.0.points", [0, 0], "hand 1: points has 2 entries for 4 seats"),
    ("hands.0.points.0", "10", "hand 1: each of points must be a whole number"),
    ("hands.0.trump", "H", "hand 1: trump is none by the rules, the record says H"),
    ("hands.0.passes", [[], [], [], []], "hand 1: passes are given, but this ruleset passes no"),
    ("totals", [0, 0, 0], "totals: has 3 entries for 4 seats"),
    ("totals.0", None, "totals: each total must be a whole number, not null"),
    ("winners", None, "record: winners must be a list, not null"),
    ("winners", [7], "winners: each winner must be a seat number 0 to 3, not 7"),
    ("mystery", 1, 'record: unknown key "mystery"'),
]

DELETE = object()
DELETES = [
    ("format", "record: format is missing (expected 'salad-record/2')"),
    ("ruleset", "record: ruleset is missing"),
    ("ruleset.preset", "ruleset: preset is missing"),
    ("players", "record: players is missing"),
    ("first_dealer", "record: first_dealer is missing"),
    ("hands", "record: hands is missing"),
    ("totals", "record: totals is missing"),
    ("winners", "record: winners is missing"),
    ("hands.0.deal", "hand 1: deal is missing"),
    ("hands.0.round", "hand 1: round is missing"),
    ("hands.0.tricks.3.winner", "hand 1, trick 4: winner is missing"),
    ("hands.0.tricks.3.leader", "hand 1, trick 4: leader is missing"),
]


def set_path(record: Any, path: str, value: Any) -> None:
    *parents, last = path.split(".")
    obj = record
    for key in parents:
        obj = obj[int(key)] if isinstance(obj, list) else obj[key]
    if isinstance(obj, list):
        if value is DELETE:
            del obj[int(last)]
        else:
            obj[int(last)] = value
    elif value is DELETE:
        del obj[last]
    else:
        obj[last] = value


@pytest.mark.parametrize(("path", "value", "expected"), TAMPERS)
def test_malformed_records(record: dict[str, Any], path: str, value: Any, expected: str) -> None:
    set_path(record, path, value)
    assert error(record).startswith(expected)


@pytest.mark.parametrize(("path", "expected"), DELETES)
def test_missing_keys(record: dict[str, Any], path: str, expected: str) -> None:
    set_path(record, path, DELETE)
    assert error(record) == expected


@pytest.mark.parametrize("value", [None, [], "record", 3, [{"format": FORMAT}]])
def test_not_a_record(value: Any) -> None:
    assert error(value).startswith("record: must be a JSON object")


def test_rebuilding_a_bad_record_raises_record_error(record: dict[str, Any]) -> None:
    record["hands"][0]["tricks"][0]["winner"] = (record["hands"][0]["tricks"][0]["winner"] + 1) % 4
    with pytest.raises(RecordError, match=r"^hand 1, trick 1, seat \d, card \w\w: wins the trick"):
        game_from_record(record)


SMALL = through_json(
    record_from_game(finished("canadian", 8, seed=3, settings={"hands": ["no-king-of-spades"]}))
)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += paths(v, (*prefix, i))
    return out


SMALL_PATHS = paths(SMALL)[1:]
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.sampled_from(["QS", "", "x", "H", "2C+"]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["a", "name", "cards"]), inner, max_size=2)
    ),
    max_leaves=6,
)


@settings(max_examples=examples(300), deadline=None)
@given(
    changes=st.lists(
        st.tuples(st.sampled_from(SMALL_PATHS), JSON_VALUES | st.just(DELETE)),
        min_size=1,
        max_size=3,
    )
)
def test_fuzzed_records_never_crash(changes: list[tuple[tuple[Any, ...], Any]]) -> None:
    record = copy.deepcopy(SMALL)
    for path, value in changes:
        obj = record
        try:
            for key in path[:-1]:
                obj = obj[key]
            if value is DELETE:
                del obj[path[-1]]
            else:
                obj[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue
    try:
        verify_record(record)
    except RecordError as exc:
        assert "\n" not in str(exc) and str(exc)
    try:
        format_record(record)
    except RecordError as exc:
        assert "\n" not in str(exc)


# -- files --------------------------------------------------------------------------------------


def test_json_and_jsonl_files(tmp_path: Path) -> None:
    games = [
        finished(p, n, seed=n) for p, n in (("canadian", 4), ("fruit-salad", 5), ("extended", 6))
    ]
    records = [record_from_game(g, [{"name": f"P{s}"} for s in range(g.players)]) for g in games]
    many = tmp_path / "games.jsonl"
    write_records(many, records)
    assert len(many.read_text().splitlines()) == 3
    loaded = load_records(many)
    assert loaded == records
    assert [verify_record(r) for r in loaded] == [g.totals for g in games]
    one = tmp_path / "game.json"
    write_records(one, records[:1])
    text = one.read_text()
    assert text.startswith("{\n") and max(len(line) for line in text.splitlines()) <= 100
    assert load_records(one) == records[:1]
    assert load_records(str(one)) == records[:1]
    # JSON Lines under another name still loads.
    other = tmp_path / "games.txt"
    other.write_text(many.read_text())
    assert load_records(other) == records
    with pytest.raises(RecordError, match="3 records need a .jsonl file"):
        write_records(tmp_path / "x.json", records)


def test_players_field() -> None:
    game = finished("canadian", 4, seed=1)
    record = record_from_game(game)
    assert record["players"] == [{"name": f"Seat {s}"} for s in range(4)]
    players = [
        {"name": "Alice"},
        {"name": "Bob"},
        {"name": "Bot 2", "bot": "random", "level": 2},
        {},
    ]
    record = record_from_game(game, players)
    assert record["players"][2] == {"name": "Bot 2", "bot": "random", "level": 2}
    assert record["players"][3] == {"name": "Seat 3"}
    verify_record(record)
    with pytest.raises(RecordError, match="players: 2 entries for a 4-seat game"):
        record_from_game(game, players[:2])


BAD_FILES = [
    (
        "bad.json",
        '{"format": "salad-record/1",\n  "hands": [1, 2,]\n}',
        r"^{f}, line 2: not valid JSON",
    ),
    ("bad.jsonl", "{}\n\n[1, 2\n", r"^{f}, line 1: format is null, not 'salad-record/2'$"),
    ("bad2.jsonl", '{"format": "salad-record/1"}\n[1, 2\n', r"^{f}, line 2: not valid JSON"),
    (
        "bad3.jsonl",
        '{"format": "salad-record/1"}\n[1, 2]\n',
        r"^{f}, line 2: a record must be a JSON object, not list$",
    ),
    ("empty.json", "  \n", r"^{f}: empty file, no records$"),
    ("list.json", "[3]", r"^{f}: a record must be a JSON object, not int$"),
    (
        "old.json",
        '{"format": "salad-record/0"}',
        r"^{f}: format is \"salad-record/0\", not 'salad-record/2'$",
    ),
]


@pytest.mark.parametrize(("name", "text", "pattern"), BAD_FILES)
def test_malformed_files(tmp_path: Path, name: str, text: str, pattern: str) -> None:
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(RecordError) as info:
        load_records(path)
    message = str(info.value)
    assert "\n" not in message
    assert re.search(pattern.replace("{f}", re.escape(str(path))), message), message


def test_empty_jsonl_holds_no_records(tmp_path: Path) -> None:
    path = tmp_path / "none.jsonl"
    write_records(path, [])
    assert load_records(path) == []


def test_missing_and_binary_files(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="no such file"):
        load_records(tmp_path / "nope.json")
    binary = tmp_path / "x.json"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(RecordError, match="not UTF-8 text"):
        load_records(binary)


# -- the listing --------------------------------------------------------------------------------


def test_format_record_lists_every_trick() -> None:
    game = finished("canadian", 4, seed=8)
    names = [{"name": n} for n in ("Alice", "Bob", "Carol", "Dave")]
    record = record_from_game(game, names)
    text = format_record(record)
    assert text.startswith("Canadian Salad (preset canadian), 4 players")
    for rnd in ("No Tricks", "No Hearts", "No Queens", "No King of Spades", "No Last Trick"):
        assert rnd in text
    assert text.count("won by") == 6 * 13
    assert text.count("  Points: ") == 6 and text.count("  Totals: ") == 6
    assert "♠" in text and "First dealer: " in text
    best = ", ".join(names[w]["name"] for w in game.winners())
    assert re.search(rf"Winners? ?(\(tied\))?: {re.escape(best)}$", text)
    plain = format_record(record, symbols=False)
    assert "♠" not in plain and "QS" in plain


def test_format_record_shows_trump_and_passes() -> None:
    game = finished(
        "canadian", 4, seed=3, settings={"passing": 2, "trump": "D", "trump_chooser": "last-place"}
    )
    text = format_record(record_from_game(game), symbols=False)
    assert "Trump: D" in text and "picked by" in text and "Passes: " in text


# -- the documented example ---------------------------------------------------------------------


def test_docs_example_verifies() -> None:
    text = DOCS.read_text(encoding="utf-8")
    blocks = re.findall(r"```json\n(.*?)```", text, re.S)
    assert blocks
    record = json.loads(blocks[0])
    totals = verify_record(record)
    assert totals == record["totals"]
    documented = set(re.findall(r"^\| `(\w+)` \|", text, re.M))
    fields = (
        {k for k in record}
        | {k for h in record["hands"] for k in h}
        | {"trump", "trump_seat", "passes", "current", "moon", "draw", "seed"}
    )
    assert fields <= documented


def test_token_moves_are_recorded_and_verified():
    rs = load_ruleset("skip-the-salad", {"toppings": ["rotten-tomato"]})
    game = Game(rs, 4, seed=11)
    while not game.is_over():
        game.play(game.legal_moves()[0])
    record = record_from_game(game)
    tricks = [t for h in record["hands"] for t in h["tricks"]]
    moved = [t for t in tricks if "token" in t]
    assert moved and all(t["token"] == t["winner"] for t in moved)
    assert verify_record(record) == game.totals
    tampered = copy.deepcopy(record)
    first = next(t for h in tampered["hands"] for t in h["tricks"] if "token" in t)
    first["token"] = (first["token"] + 1) % 4
    with pytest.raises(RecordError, match="takes the token"):
        verify_record(tampered)
    tampered = copy.deepcopy(record)
    quiet = next(t for h in tampered["hands"] for t in h["tricks"] if "token" not in t)
    quiet["token"] = quiet["winner"]
    with pytest.raises(RecordError, match="passes no token"):
        verify_record(tampered)


SHAPES: list[tuple[str, Any, str]] = [
    # the schema (pydantic) names the key of a wrong type before anything is replayed
    ("hands.0.tricks.0.token", "x", 'hand 1, trick 1: token must be a seat number 0 to 3, not "x"'),
    ("hands.0.trump_seat", 1.5, "hand 1: trump_seat must be a seat number 0 to 3, not 1.5"),
    ("hands.0.trump", 3, "hand 1: trump must be a suit letter, not 3"),
    ("hands.0.removed", [1], "hand 1: removed must be a list of card codes, not [1]"),
    ("hands.0.tricks.0.cards.0", 5, "hand 1, trick 1: cards must be a list of card codes"),
    ("players.0.name", " ", 'players[0]: name must be a non-empty string, not " "'),
    ("players.0", "Ann", 'players[0]: must be a JSON object, not "Ann"'),
    ("ruleset.extra", 1, 'ruleset: unknown key "extra" (known: preset, settings)'),
    ("draw", [[[0, "QS", 1]]], 'draw, round 1: each draw must be [seat, card], not [0, "QS", 1]'),
    ("draw", [5], "draw, round 1: a round must be a list, not 5"),
    ("winners.0", "0", 'winners: each winner must be a seat number 0 to 3, not "0"'),
]


@pytest.mark.parametrize(("path", "value", "expected"), SHAPES)
def test_record_shapes(record: dict[str, Any], path: str, value: Any, expected: str) -> None:
    set_path(record, path, value)
    assert error(record).startswith(expected)


# -- issue 39: records any JSON tool can read -------------------------------------------------

BIG_SEED = 4414664977492776614
"""A seed above 2**53: a JSON number this large comes back rounded from JavaScript and jq."""

NODE_ROUND_TRIP = "process.stdout.write(JSON.stringify(JSON.parse(require('fs').readFileSync(0))))"


def through_javascript(record: dict[str, Any]) -> dict[str, Any]:
    """The record after ``JSON.parse`` and ``JSON.stringify`` in Node, as the web client and
    any JavaScript tool treat it."""
    import shutil
    import subprocess

    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (make test installs it)")
    done = subprocess.run(
        [node, "-e", NODE_ROUND_TRIP], input=json.dumps(record), capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    back: dict[str, Any] = json.loads(done.stdout)
    return back


def test_a_record_comes_back_whole_from_javascript() -> None:
    """A salad-record/2 writes its seed as a string: through Node's JSON.parse and
    JSON.stringify it still verifies. The same record in salad-record/1, its seed a number,
    comes back with the seed rounded and fails, as it did ("seed 4414664977492776400 draws 2S")."""
    game = Game(load_ruleset("canadian"), 4, seed=BIG_SEED)
    rng = random.Random(4)
    while not game.is_over():
        game.play(rng.choice(game.legal_moves()))
    record = record_from_game(game)
    assert record["format"] == "salad-record/2" and record["seed"] == str(BIG_SEED)
    back = through_javascript(record)
    assert back == record
    verify_record(back)
    old = {**record, "format": "salad-record/1", "seed": BIG_SEED}
    verify_record(old)  # the old format is still read
    rounded = through_javascript(old)
    assert rounded["seed"] != BIG_SEED
    with pytest.raises(RecordError, match=r"seed 4414664977492776\d+ draws"):
        verify_record(rounded)
