"""Skip the Salad (docs/rules.md section 4): the deck, the Wilds, Salad Dressing, the rounds, the
swap-in rounds and every topping, one test per rule, on exact deals (``auto_deal=False``).

Points are checked against small reference computations written here from docs/rules.md, never
against the engine's own masks. Seats: seat i+1 sits to the left of seat i; with
``first_dealer=0`` seat 1 leads the first trick.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples
from test_cli import salad_here

from salad import Game, IllegalMoveError, Phase, RulesError, load_ruleset
from salad.cards import NO_SUIT, CardParseError, Deck, cards_of
from salad.events import Deal, HandScored, PassChosen, Play, TrickWon, TrumpChosen
from salad.formats import records
from salad.ruleset import Ruleset
from salad.toppings import TOPPINGS
from salad.view import SPECTATOR

SKIP = "skip-the-salad"
SWAP_INS = ("no-kings", "no-assassins", "no-royalty", "no-evens", "no-high-low")
BASE_ROUNDS = (
    "no-tricks",
    "no-tomatoes",
    "no-queens",
    "no-king-of-onions",
    "no-last-trick",
    "tossed-salad",
)
SUITS_3_TO_6 = ("R", "B", "T", "O")
RANKS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")

# The penalties of docs/rules.md section 4, written out again here: (points, what counts).
# A "what" is "trick", "last" or a predicate over (rank, suit) of a suited card.
REFERENCE = {
    "no-tricks": [(10, "trick")],
    "no-tomatoes": [(10, lambda r, s: s == "T")],
    "no-queens": [(25, lambda r, s: r == "Q")],
    "no-king-of-onions": [(100, lambda r, s: (r, s) == ("K", "O"))],
    "no-last-trick": [(100, "last")],
    "no-kings": [(25, lambda r, s: r == "K")],
    "no-assassins": [(25, lambda r, s: r == "A")],
    "no-royalty": [(25, lambda r, s: r in ("J", "Q", "K"))],
    "no-evens": [(10, lambda r, s: r in ("2", "4", "6", "8", "10"))],
    "no-high-low": [(25, lambda r, s: r in ("1", "A"))],
}


# -- helpers ------------------------------------------------------------------------------------


@functools.cache
def _rules(toppings: tuple[str, ...], swap: tuple[tuple[str, str], ...], extra: str) -> Ruleset:
    settings: dict = json.loads(extra)
    if toppings:
        settings["toppings"] = list(toppings)
    if swap:
        settings["swap"] = dict(swap)
    return load_ruleset(SKIP, settings or None)


def rules(
    toppings: Iterable[str] = (), swap: Mapping[str, str] | None = None, **extra: object
) -> Ruleset:
    """Skip the Salad with some toppings, swaps and other settings (cached)."""
    return _rules(
        tuple(toppings), tuple(sorted((swap or {}).items())), json.dumps(extra, sort_keys=True)
    )


def new_game(rs: Ruleset, players: int = 3, dealer: int = 0) -> Game:
    return Game(rs, players, first_dealer=dealer, auto_deal=False)


def is_wild(deck: Deck, card: int) -> bool:
    return deck.suit_of[card] == NO_SUIT


def rank_suit(deck: Deck, card: int) -> tuple[str, str]:
    """('10', 'T') for the ten of Tomatoes, from the card's code alone."""
    code = deck.format(card)
    return code[:-1], code[-1]


def build_hands(
    deck: Deck,
    players: int,
    given: Mapping[int, str],
    avoid: Mapping[int, str] | None = None,
) -> list[int]:
    """Hands holding the ``given`` codes; the rest of the deck fills the seats in card order,
    giving no seat a card of a suit letter (or ``W``/``SD``) listed for it in ``avoid``."""
    avoid = avoid or {}
    hands = [0] * players
    used = 0
    for seat, text in given.items():
        for word in text.split():
            card = deck.parse(word, deck.in_play & ~used)
            assert (deck.in_play & ~used) >> card & 1, f"{word} is not free to deal"
            hands[seat] |= 1 << card
            used |= 1 << card
    rest = cards_of(deck.in_play & ~used)

    def banned(seat: int, card: int) -> bool:
        code = deck.format(card)
        tags = avoid.get(seat, "").split()
        return code in tags or (not is_wild(deck, card) and code[-1] in tags)

    for seat in sorted(range(players), key=lambda s: s not in avoid):
        for card in list(rest):
            if hands[seat].bit_count() == deck.cards_each:
                break
            if not banned(seat, card):
                hands[seat] |= 1 << card
                rest.remove(card)
        assert hands[seat].bit_count() == deck.cards_each, f"cannot fill seat {seat}"
    assert not rest
    return hands


def deal(game: Game, given: Mapping[int, str], avoid: Mapping[int, str] | None = None) -> None:
    game.deal(build_hands(game.deck, game.players, given, avoid))


def random_deal(game: Game, seed: int) -> None:
    cards = cards_of(game.deck.in_play)
    random.Random(seed).shuffle(cards)
    n, each = game.players, game.deck.cards_each
    game.deal([sum(1 << c for c in cards[s * each : (s + 1) * each]) for s in range(n)])


def trick(game: Game, *moves: str) -> int:
    """Play one whole trick, moves in order from the leader; the seat that won it."""
    for move in moves:
        game.play(move)
    return last_event(game, TrickWon).winner


def last_event(game: Game, kind: type):
    return [e for e in game.events if isinstance(e, kind)][-1]


def finish_hand(game: Game) -> None:
    """Play the lowest legal move until the hand is scored."""
    while game.phase in (Phase.TRUMP, Phase.PASS, Phase.PLAY):
        game.play(game.legal_moves()[0])


def hand_tricks(game: Game, hand: int) -> list[tuple[list[int], int]]:
    """The tricks of hand ``hand`` (0-based) as (cards in play order, winner)."""
    out: list[tuple[list[int], int]] = []
    current: list[int] = []
    inside = False
    for event in game.events:
        if isinstance(event, Deal):
            inside = event.hand == hand
        elif inside and isinstance(event, Play):
            current.append(event.move % game.deck.size)
        elif inside and isinstance(event, TrickWon):
            out.append((current, event.winner))
            current = []
    return out


def hand_moves(game: Game, hand: int) -> list[tuple[list[int], int]]:
    """The tricks of hand ``hand`` as (moves with their declarations, leader)."""
    out: list[tuple[list[int], int]] = []
    current: list[int] = []
    leader = -1
    inside = False
    for event in game.events:
        if isinstance(event, Deal):
            inside = event.hand == hand
        elif inside and isinstance(event, Play):
            if not current:
                leader = event.seat
            current.append(event.move)
        elif inside and isinstance(event, TrickWon):
            out.append((current, leader))
            current = []
    return out


def reference_points(game: Game, hand: int, rounds: Sequence[str], token: bool = False) -> list:
    """What each seat takes in hand ``hand`` for the penalties of ``rounds``, counted from the
    tricks by the rules text (Wilds count for nothing but the trick they are in)."""
    deck = game.deck
    points = [0] * game.players
    tricks = hand_tricks(game, hand)
    penalties = [p for r in dict.fromkeys(rounds) for p in REFERENCE[r]]
    for cards, winner in tricks:
        for value, what in penalties:
            if what == "trick":
                points[winner] += value
            elif callable(what):
                suited = [c for c in cards if not is_wild(deck, c)]
                points[winner] += value * sum(what(*rank_suit(deck, c)) for c in suited)
    for value, what in penalties:
        if what == "last":
            points[tricks[-1][1]] += value
    if token:
        holder = [w for cards, w in tricks if any(rank_suit(deck, c)[1] == "T" for c in cards)]
        if holder:
            points[holder[-1]] += 25
    return points


def one_line_error(exc: BaseException) -> str:
    text = str(exc)
    assert text and "\n" not in text and "Traceback" not in text
    return text


# -- the deck -----------------------------------------------------------------------------------

# players: (cards removed, cards each) without Salad Dressing, then with it.
DECKS = {
    3: (("", 20), ("1R", 20)),
    4: (("", 15), ("1R", 15)),
    5: (("", 12), ("1R", 12)),
    6: (("", 10), ("1R", 10)),
    7: (("1R 1B 1T 1O", 10), ("1R 1B 1T 1O 1N", 10)),
    8: (("1R 1B", 9), ("1R 1B 1T", 9)),
}


@pytest.mark.parametrize("players", range(3, 9))
@pytest.mark.parametrize("dressing", [False, True], ids=["plain", "salad-dressing"])
def test_deck_for_each_player_count(players: int, dressing: bool) -> None:
    rs = rules(["salad-dressing"] if dressing else [])
    deck = rs.deck_for(players)
    suits = ("R", "B", "T", "O", "N") if players >= 7 else SUITS_3_TO_6
    assert tuple(s.letter for s in deck.suits) == suits
    assert [s.name for s in deck.suits][:4] == ["Carrots", "Broccoli", "Tomatoes", "Onions"]
    assert [r.letter for r in deck.spec.ranks] == list(RANKS)
    assert deck.spec.ranks[-1].name == "Assassin"
    removed, each = DECKS[players][dressing]
    assert " ".join(deck.format(c) for c in deck.removed) == removed
    assert deck.cards_each == each
    in_play = [deck.format(c) for c in cards_of(deck.in_play)]
    assert in_play.count("W") == 4  # Wilds are never removed
    assert in_play.count("SD") == (1 if dressing else 0)
    suited = [c for c in in_play if c not in ("W", "SD")]
    assert len(suited) == 14 * len(suits) - len(removed.split())
    assert len(set(suited)) == len(suited)
    assert len(in_play) == each * players
    # Removal takes the lowest cards, suits in the order listed, and only as many as needed.
    total = 14 * len(suits) + 4 + dressing
    expected = [f"{r}{s}" for r in RANKS for s in suits][: total % players]
    assert removed.split() == expected


def test_corn_only_from_seven_players() -> None:
    rs = rules()
    for players in range(3, 9):
        letters = {deck_suit.letter for deck_suit in rs.deck_for(players).suits}
        assert ("N" in letters) == (players >= 7)
    with pytest.raises(CardParseError):
        rs.deck_for(6).parse("5N")
    assert rs.deck_for(7).name(rs.deck_for(7).parse("5N")) == "Five of Corn"


# -- the notation -------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 7])
def test_codes_round_trip(players: int) -> None:
    deck = rules(["salad-dressing"]).deck_for(players)
    for card in range(deck.size):
        code = deck.format(card)
        back = deck.parse(code)
        assert deck.format(back) == code
        assert deck.parse(code.lower()) == back
        if not is_wild(deck, card):
            assert back == card
            assert deck.parse(deck.symbol(card)) == card
    assert deck.name(deck.parse("AO")) == "Assassin of Onions"
    assert deck.name(deck.parse("10t")) == "Ten of Tomatoes"
    assert deck.name(deck.parse("1T")) == "One of Tomatoes"
    assert deck.name(deck.parse("QT")) == "Queen of Tomatoes"
    assert deck.name(deck.parse("W")) == "Wild"
    assert deck.name(deck.parse("SD")) == "Salad Dressing"
    mask = deck.parse_many("W W W W 10R")
    assert deck.format_mask(mask) == "10R W W W W"
    with pytest.raises(CardParseError):
        deck.parse_many("W W W W W")


def test_no_code_is_shared_with_the_standard_deck() -> None:
    standard = load_ruleset("canadian", {"jokers": 2}).deck_for(4)
    standard_codes = {standard.format(c) for c in range(standard.size)}
    standard_codes |= {"10" + s for s in "CDHS"}
    for players in (3, 7, 8):
        veg = rules(["salad-dressing"]).deck_for(players)
        veg_codes = {veg.format(c) for c in range(veg.size)}
        assert not veg_codes & standard_codes
        for code in veg_codes:
            with pytest.raises(CardParseError):
                standard.parse(code)
        for code in standard_codes:
            with pytest.raises(CardParseError):
                veg.parse(code)
    # A ten is "10" here: "T" is the Tomatoes suit, never a rank.
    veg = rules().deck_for(4)
    for text in ("TT", "TR", "QS", "TH", "10H"):
        with pytest.raises(CardParseError):
            veg.parse(text)


def test_wild_move_notation() -> None:
    game = new_game(rules(), 3)
    deal(game, {1: "W W 5B"})
    size = game.deck.size
    high, low, plain = game.parse_move("W+"), game.parse_move("W-"), game.parse_move("W")
    assert high == low + size and low == plain and game.deck.format(low) == "W"
    assert game.format_move(high) == "W+" and game.format_move(low) == "W"
    assert game.hand(1) >> low & 1  # parse_move picks a Wild the seat to move holds
    assert high in game.legal_moves() and low in game.legal_moves()
    five = game.parse_move("5B")
    assert five + size not in game.legal_moves()
    with pytest.raises(IllegalMoveError, match="Wild"):
        game.play("5B+")
    game.play("W+")
    assert game.view(SPECTATOR).to_dict()["trick"] == [[1, "W+"]]


# -- trick play ---------------------------------------------------------------------------------


def test_sluffed_card_cannot_win() -> None:
    """The seed's example: Casey, out of Broccoli, sluffs the King of Onions; it cannot win."""
    game = new_game(rules(), 3)
    deal(game, {1: "2B", 2: "7B", 0: "KO"}, avoid={0: "B"})
    assert trick(game, "2B", "7B", "KO") == 2
    assert game.to_move == 2  # the winner leads the next trick


# -- Wilds --------------------------------------------------------------------------------------


def test_wild_led_first_suited_card_sets_the_led_suit() -> None:
    game = new_game(rules(), 4)
    deck = game.deck
    deal(game, {1: "W", 2: "5B 7R", 3: "9B 3T", 0: "W"})
    game.play("W-")
    assert game.led == NO_SUIT
    # Nothing to follow yet: seat 2 may play any card (a Wild high or low).
    hand = game.hand(2)
    anything = cards_of(hand) + [c + deck.size for c in cards_of(hand & deck.declare_mask)]
    assert sorted(game.legal_moves()) == sorted(anything)
    game.play("5B")
    assert game.led == deck.parse_suit("B")
    # Seat 3 holds Broccoli, so it must follow Broccoli: its Tomato is not legal.
    with pytest.raises(IllegalMoveError, match="broccoli"):
        game.play("3T")
    game.play("9B")
    game.play("W-")
    assert last_event(game, TrickWon).winner == 3  # low Wilds lose to every Broccoli


def test_two_wilds_led_leave_the_suit_open() -> None:
    game = new_game(rules(), 3)
    deal(game, {1: "W", 2: "W", 0: "1B 3T"})
    game.play("W-")
    game.play("W")
    assert game.led == NO_SUIT
    assert set(cards_of(game.hand(0))) <= set(game.legal_moves())
    game.play("1B")
    assert last_event(game, TrickWon).winner == 0  # even a one beats low Wilds


def test_wild_led_high_wins() -> None:
    game = new_game(rules(), 3)
    deal(game, {1: "W", 2: "5B", 0: "AB"})
    assert trick(game, "W+", "5B", "AB") == 1


def test_wild_may_be_played_while_able_to_follow_suit() -> None:
    game = new_game(rules(), 3)
    deal(game, {1: "AB", 2: "W 2B 3B", 0: "4B"})
    game.play("AB")
    wild = game.parse_move("W")
    assert {wild, wild + game.deck.size} <= set(game.legal_moves())
    assert all(
        is_wild(game.deck, m % game.deck.size) or game.deck.suit_of[m] == game.led
        for m in game.legal_moves()
    )
    game.play("W+")
    game.play("4B")
    assert last_event(game, TrickWon).winner == 2  # high beats even the Assassin


def test_high_wild_beats_every_card_of_the_led_suit() -> None:
    game = new_game(rules(), 3)
    deal(game, {1: "2B AR", 2: "W", 0: "AB"})
    assert trick(game, "2B", "W+", "AB") == 2


def test_first_of_several_high_wilds_wins() -> None:
    game = new_game(rules(), 3)
    deal(game, {1: "5B 7B", 2: "W W", 0: "W W AB"})
    assert trick(game, "5B", "W+", "W+") == 2
    # Seat 2 leads the next trick.
    assert trick(game, "W+", "W+", "7B") == 2


def test_low_wild_loses_to_every_card_of_the_led_suit() -> None:
    game = new_game(rules(), 3)
    deal(game, {1: "2B", 2: "W", 0: "3B"})
    assert trick(game, "2B", "W-", "3B") == 0
    game = new_game(rules(), 3)
    deal(game, {1: "1B", 2: "W", 0: "W"})
    assert trick(game, "1B", "W-", "W-") == 1


def test_all_wild_trick_goes_to_the_first_wild() -> None:
    for declared in (("W", "W", "W"), ("W+", "W+", "W+"), ("W+", "W-", "W+")):
        game = new_game(rules(), 3)
        deal(game, {1: "W", 2: "W", 0: "W"})
        assert trick(game, *declared) == 1, declared
        assert game.tricks_won == [0, 1, 0]


def test_all_wild_trick_goes_to_the_first_wild_even_when_a_later_one_is_declared_high() -> None:
    """docs/rules.md: "If every card in a trick is Wild, the first one played wins" -- no led suit
    exists, so "high" (beats every card of the led suit) has nothing to beat."""
    game = new_game(rules(), 3)
    deal(game, {1: "W", 2: "W", 0: "W"})
    assert trick(game, "W-", "W+", "W-") == 1


def test_wilds_count_for_no_penalty_but_their_trick_counts() -> None:
    # Every penalty selector of every round leaves the Wilds (and Salad Dressing) out.
    rs = rules(TOPPINGS)
    for players in range(3, 9):
        compiled = rs.compiled(players)
        for hand in compiled.hands:
            for p in hand.penalties:
                assert not p.mask & compiled.deck.wild_mask, (players, p.penalty.id)
    # No Tricks: an all-Wild trick is a trick like any other.
    game = new_game(rules(), 3)
    deal(game, {1: "W", 2: "W", 0: "W"})
    trick(game, "W", "W", "W")
    assert game.running_points() == [0, 10, 0]
    # Cards penalties: Wilds taken with Tomatoes cost nothing, in round 2 and in every swap-in.
    for swap, cards, cost in (
        ("no-tomatoes", ("9T", "W", "6T"), 20),
        ("no-kings", ("KB", "W", "W"), 25),
        ("no-evens", ("2B", "W", "W"), 10),
        ("no-high-low", ("1B", "W", "W"), 25),
        ("no-royalty", ("JB", "W", "W"), 25),
        ("no-assassins", ("AB", "W", "W"), 25),
    ):
        game = new_game(rules(swap={"1": swap}), 3)
        deal(game, {1: cards[0], 2: cards[1], 0: cards[2]})
        assert trick(game, *cards) == 1
        assert game.running_points() == [0, cost, 0], swap
    # Tossed Salad never counts the Wilds either.
    game = new_game(rules(hands=["no-tricks", "no-tomatoes", "tossed-salad"]), 3)
    for _ in range(2):
        random_deal(game, 5)
        finish_hand(game)
    assert game.dealer == 2
    leader = (game.dealer + 1) % 3
    deal(game, {leader: "W", (leader + 1) % 3: "W 3T", (leader + 2) % 3: "W"})
    assert game.round_name == "Tossed Salad"
    assert trick(game, "W", "W", "W") == leader
    assert game.running_points()[leader] == 10 and sum(game.running_points()) == 10


# -- Salad Dressing -----------------------------------------------------------------------------


def test_salad_dressing_led_wins_and_first_suited_card_sets_the_suit() -> None:
    game = new_game(rules(["salad-dressing"]), 3)
    deal(game, {1: "SD", 2: "5B 7R", 0: "AB 3T"})
    game.play("SD")
    assert game.led == NO_SUIT
    game.play("5B")
    assert game.led == game.deck.parse_suit("B")
    with pytest.raises(IllegalMoveError):
        game.play("3T")  # seat 0 holds Broccoli and must follow
    game.play("AB")
    assert last_event(game, TrickWon).winner == 1


def test_salad_dressing_followed_wins_over_assassins_and_high_wilds() -> None:
    game = new_game(rules(["salad-dressing"]), 3)
    deal(game, {1: "AB", 2: "SD 2B", 0: "W"})
    game.play("AB")
    assert game.parse_move("SD") in game.legal_moves()  # playable though it could follow
    with pytest.raises(IllegalMoveError, match="Wild"):
        game.play("SD+")  # Salad Dressing is not declared
    game.play("SD")
    game.play("W+")
    assert last_event(game, TrickWon).winner == 2


def test_salad_dressing_counts_for_no_penalty() -> None:
    game = new_game(rules(["salad-dressing"], swap={"1": "no-high-low"}), 3)
    deal(game, {1: "SD", 2: "AB", 0: "1B"})
    assert trick(game, "SD", "AB", "1B") == 1
    assert game.running_points() == [0, 50, 0]


# -- trumps (Spicy Pepper) ----------------------------------------------------------------------


def test_spicy_pepper_carrots_trump_in_round_one() -> None:
    game = new_game(rules(["spicy-pepper"]), 3)
    deal(game, {1: "AB", 2: "KB", 0: "2R"}, avoid={0: "B W"})
    assert game.phase == Phase.PLAY  # no choice in round one
    assert game.deck.suits[game.trump].name == "Carrots"
    assert [e for e in game.events if isinstance(e, TrumpChosen)][-1].seat == -1
    assert trick(game, "AB", "KB", "2R") == 0  # the lowest trump beats the Assassin


def test_highest_trump_wins() -> None:
    game = new_game(rules(["spicy-pepper"]), 3)
    deal(game, {1: "AB", 2: "3R", 0: "2R"}, avoid={0: "B W", 2: "B W"})
    assert trick(game, "AB", "3R", "2R") == 2


def test_must_follow_suit_although_holding_trump() -> None:
    game = new_game(rules(["spicy-pepper"]), 3)
    deal(game, {1: "5B", 2: "7B AR", 0: "9B"}, avoid={2: "W"})
    game.play("5B")
    deck = game.deck
    assert all(deck.suit_of[m] == deck.parse_suit("B") for m in game.legal_moves())
    before = game.log
    with pytest.raises(IllegalMoveError, match="must follow broccoli"):
        game.play("AR")
    assert game.log == before
    game.play("7B")
    game.play("9B")
    assert last_event(game, TrickWon).winner == 0


def test_high_wild_beats_trump_but_not_salad_dressing() -> None:
    """Our decision (docs/rules.md is silent): a Wild declared high beats every card but Salad
    Dressing, trumps included."""
    game = new_game(rules(["spicy-pepper", "salad-dressing"]), 3)
    deal(game, {1: "5B", 2: "W SD", 0: "AR KR"}, avoid={0: "B"})
    assert trick(game, "5B", "W+", "AR") == 2  # the high Wild beats the Assassin of trumps
    # Seat 2 leads Salad Dressing; seat 0's trump sets the suit and still loses.
    game.play("SD")
    game.play("KR")
    assert game.deck.suits[game.led].name == "Carrots"
    game.play(game.legal_moves()[0])
    assert last_event(game, TrickWon).winner == 2
    assert game.tricks_won == [0, 0, 2]


def kings_script(takers: Sequence[int]) -> tuple[dict[int, str], list[tuple[str, ...]]]:
    """3 players, seat 1 leads: a deal and four tricks in which ``takers[i]`` wins the king of
    the i-th suit (R B T O), everyone following suit, no Wild or Assassin played."""
    given: dict[int, list[str]] = {0: [], 1: [], 2: []}
    tricks: list[tuple[str, ...]] = []
    leader = 1
    low = {0: "2", 1: "3", 2: "4"}
    for suit, taker in zip("RBTO", takers, strict=True):
        order = [(leader + i) % 3 for i in range(3)]
        # The taker plays the king itself; the others follow low.
        moves = []
        for seat in order:
            code = f"K{suit}" if seat == taker else f"{low[seat]}{suit}"
            given[seat].append(code)
            moves.append(code)
        tricks.append(tuple(moves))
        leader = taker
    return {s: " ".join(c) for s, c in given.items()}, tricks


def play_kings_hand(game: Game, takers: Sequence[int]) -> None:
    given, tricks = kings_script(takers)
    deal(game, given)
    for moves, taker in zip(tricks, takers, strict=True):
        assert trick(game, *moves) == taker
    finish_hand(game)


@pytest.mark.parametrize(
    ("takers", "cornucopia", "totals", "chooser"),
    [
        # Hand 2's dealer is seat 1; from its left: seats 2, 0, 1.
        ((1, 1, 2, 2), False, [0, 50, 50], 2),  # tie for most: seat 2 is nearer the left
        ((1, 1, 1, 1), False, [0, 100, 0], 1),
        ((0, 1, 0, 1), False, [50, 50, 0], 0),
        ((1, 1, 2, 2), True, [0, 50, 50], 0),  # Cornucopia: last place is the lowest total
        ((1, 1, 1, 1), True, [0, 100, 0], 2),  # tie for fewest: seat 2 is nearer the left
        ((0, 0, 0, 0), True, [100, 0, 0], 2),
    ],
)
def test_last_place_chooses_trump_before_later_rounds(
    takers: tuple[int, ...], cornucopia: bool, totals: list[int], chooser: int
) -> None:
    toppings = ["spicy-pepper"] + (["cornucopia"] if cornucopia else [])
    game = new_game(rules(toppings, swap={"1": "no-kings"}), 3)
    play_kings_hand(game, takers)
    assert game.totals == totals
    random_deal(game, 1)
    assert game.phase == Phase.TRUMP
    assert game.to_move == chooser == game.last_place()
    assert game.trump == NO_SUIT
    size = game.deck.size
    assert game.legal_moves() == [2 * size + s for s in range(4)]
    assert game.view(chooser).legal_moves == tuple(game.legal_moves())
    with pytest.raises(IllegalMoveError):
        game.play(0)  # a card is no trump choice
    game.play("Onions")
    assert game.deck.suits[game.trump].name == "Onions"
    assert game.phase == Phase.PLAY and game.to_move == 2
    event = last_event(game, TrumpChosen)
    assert (event.hand, event.seat) == (1, chooser)


def test_trump_choice_at_seven_players_includes_corn() -> None:
    game = new_game(rules(["spicy-pepper"]), 7)
    random_deal(game, 3)
    finish_hand(game)
    random_deal(game, 4)
    assert game.phase == Phase.TRUMP
    assert len(game.legal_moves()) == 5
    game.play("N")
    assert game.deck.suits[game.trump].name == "Corn"


def test_trump_choice_comes_before_passing_and_both_before_play() -> None:
    game = new_game(rules(["spicy-pepper", "pass-the-veggies"]), 4)
    random_deal(game, 1)
    assert game.phase == Phase.PASS and game.deck.suits[game.trump].name == "Carrots"
    finish_hand(game)
    random_deal(game, 2)
    phases = []
    while game.phase != Phase.PLAY:
        phases.append(game.phase)
        game.play(game.legal_moves()[-1])
    assert phases == [Phase.TRUMP] + [Phase.PASS] * 8
    assert game.to_move == (game.dealer + 1) % 4


# -- Blue Cheese Moon ---------------------------------------------------------------------------


@pytest.mark.parametrize("moon", [False, True])
def test_blue_cheese_moon_collector_scores_negative(moon: bool) -> None:
    toppings = ["blue-cheese-moon"] if moon else []
    game = new_game(rules(toppings, swap={"1": "no-kings"}), 3)
    play_kings_hand(game, (1, 1, 1, 1))
    scored = last_event(game, HandScored)
    assert scored.points == ((0, -100, 0) if moon else (0, 100, 0))
    assert scored.moon == (1 if moon else -1)


def test_blue_cheese_moon_rounds_where_it_applies() -> None:
    rs = rules(["blue-cheese-moon"])
    moons = [h.moon for h in rs.compiled(4).hands]
    # No Last Trick and No King of Onions are single events: never a moon there.
    assert moons == [True, True, True, False, False, True]
    rs = rules(["blue-cheese-moon", "rotten-tomato"], swap={"1": "no-kings", "4": "no-evens"})
    assert [h.moon for h in rs.compiled(7).hands] == [True, True, True, True, False, True]
    assert not any(h.moon for h in rules().compiled(4).hands)


@pytest.mark.parametrize("round_id", ["no-king-of-onions", "no-last-trick"])
def test_blue_cheese_moon_never_flips_a_single_event_round(round_id: str) -> None:
    game = new_game(rules(["blue-cheese-moon"], swap={"1": round_id}), 3)
    deal(game, {1: "KO", 2: "2O", 0: "3O"})
    assert trick(game, "KO", "2O", "3O") == 1
    finish_hand(game)
    scored = last_event(game, HandScored)
    assert scored.moon == -1
    assert sorted(scored.points) == [0, 0, 100]
    if round_id == "no-king-of-onions":
        assert scored.points == (0, 100, 0)
    assert scored.points == tuple(reference_points(game, 0, [round_id]))


# -- Rotten Tomato ------------------------------------------------------------------------------


def test_rotten_tomato_changes_hands_and_costs_25() -> None:
    game = new_game(rules(["rotten-tomato"]), 3)
    deal(game, {1: "2B 4T 2R", 2: "3B 9T KT", 0: "4B 5T AT"}, avoid={1: "T"})
    assert game.token == -1 and game.view(0).token == -1
    assert trick(game, "2B", "3B", "4B") == 0 and game.token == -1  # no Tomato: no change
    assert trick(game, "5T", "4T", "9T") == 2 and game.token == 2
    assert game.running_points()[2] == 10 + 25
    assert game.view(1).token == 2
    assert trick(game, "KT", "AT", "2R") == 0
    assert game.token == 0  # seat 0's Assassin took it from seat 2
    finish_hand(game)
    expected = reference_points(game, 0, ["no-tricks"], token=True)
    assert list(game.hand_points[0]) == expected
    assert sum(game.hand_points[0]) == game.rules.hands[0].fixed_total == 20 * 10 + 25
    # Nobody holds it at the start of the next round.
    random_deal(game, 9)
    assert game.token == -1 and game.view(SPECTATOR).token == -1
    assert game.running_points() == [0, 0, 0]


def test_rotten_tomato_goes_with_a_sluffed_tomato_to_the_trick_winner() -> None:
    game = new_game(rules(["rotten-tomato"]), 3)
    deal(game, {1: "5B", 2: "W", 0: "9T"}, avoid={0: "B"})
    assert trick(game, "5B", "W+", "9T") == 2
    assert game.token == 2


# -- Pass the Veggies ---------------------------------------------------------------------------


def test_pass_the_veggies_two_cards_right_chosen_before_receiving() -> None:
    players = 4
    game = new_game(rules(["pass-the-veggies"]), players, dealer=0)
    random_deal(game, 11)
    dealt = list(game.hands)
    assert game.phase == Phase.PASS
    order = []
    chosen = [0] * players
    rng = random.Random(3)
    while game.phase == Phase.PASS:
        seat = game.to_move
        order.append(seat)
        view = game.view(seat)
        # Nothing has arrived yet: choices are made blind.
        assert view.received == 0 and view.hand == dealt[seat]
        assert set(view.legal_moves) == set(cards_of(dealt[seat] & ~chosen[seat]))
        for other in range(players):
            if other != seat:
                assert game.view(other).legal_moves == ()
                assert game.view(other).passed == chosen[other]
        if chosen[seat]:
            with pytest.raises(IllegalMoveError):
                game.play(cards_of(chosen[seat])[0])  # the same card twice
        with pytest.raises(IllegalMoveError):
            game.play(cards_of(dealt[(seat + 1) % players])[0])  # a card it does not hold
        card = rng.choice(view.legal_moves)
        chosen[seat] |= 1 << card
        game.play(card)
    assert order == [1, 1, 2, 2, 3, 3, 0, 0]  # every seat, from the dealer's left
    assert game.phase == Phase.PLAY and game.to_move == 1
    for seat in range(players):
        right = (seat - 1) % players
        left = (seat + 1) % players
        assert chosen[seat].bit_count() == 2
        # Passed to the right (seat - 1); received from the left (seat + 1).
        assert game.hands[seat] == (dealt[seat] & ~chosen[seat]) | chosen[left]
        assert chosen[seat] & game.hands[right] == chosen[seat]
        view = game.view(seat)
        assert (view.passed, view.received) == (chosen[seat], chosen[left])
        data = view.to_dict()
        assert data["passed"] == game.deck.format_mask(chosen[seat]).split()
        assert data["received"] == game.deck.format_mask(chosen[left]).split()
    spectator = game.view(SPECTATOR)
    assert (spectator.passed, spectator.received, spectator.hand) == (0, 0, 0)
    passes = [e for e in game.events if isinstance(e, PassChosen)]
    assert [e.seat for e in passes] == order


def test_pass_the_veggies_every_round() -> None:
    game = new_game(rules(["pass-the-veggies"]), 5, dealer=2)
    for hand in range(6):
        random_deal(game, hand)
        assert game.phase == Phase.PASS and game.to_move == (game.dealer + 1) % 5
        finish_hand(game)
    assert game.is_over()


# -- Cornucopia ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("takers", "cornucopia", "winners", "standings"),
    [
        ((1, 1, 2, 2), True, [1, 2], [3, 1, 1]),  # highest total wins; ties share
        ((1, 1, 2, 2), False, [0], [1, 2, 2]),
        ((1, 1, 1, 2), True, [1], [3, 1, 2]),
    ],
)
def test_cornucopia_highest_total_wins(
    takers: tuple[int, ...], cornucopia: bool, winners: list[int], standings: list[int]
) -> None:
    game = new_game(rules(["cornucopia"] if cornucopia else [], hands=["no-kings"]), 3)
    play_kings_hand(game, takers)
    assert game.is_over()
    assert game.winners() == winners
    assert game.standings() == standings


# -- rounds: Tossed Salad and the swap-ins ------------------------------------------------------


@pytest.mark.parametrize(
    ("swap", "players"),
    [({}, 4), ({"2": "no-evens", "4": "no-royalty"}, 4), ({"1": "no-high-low"}, 7)],
)
def test_tossed_salad_takes_every_penalty_of_the_rounds_played(
    swap: dict[str, str], players: int
) -> None:
    game = new_game(rules(swap=swap), players)
    played = [swap.get(str(i + 1), r) for i, r in enumerate(BASE_ROUNDS[:5])]
    assert [h.round.id for h in game.rules.hands] == [*played, "tossed-salad"]
    for hand in range(6):
        random_deal(game, 100 + hand)
        finish_hand(game)
        rounds = played if hand == 5 else [played[hand]]
        assert list(game.hand_points[hand]) == reference_points(game, hand, rounds)
    live = [p.penalty.id for p in game.rules.hands[5].penalties]
    assert live == [p.penalty.id for h in game.rules.hands[:5] for p in h.penalties]
    assert game.rules.hands[5].fixed_total == sum(h.fixed_total for h in game.rules.hands[:5])


# players: {round: fixed total}. 3-6 players: 4 of each rank; 7: Corn added, 1R 1B 1T 1O out.
SWAP_TOTALS = {
    4: {"no-kings": 100, "no-assassins": 100, "no-royalty": 300, "no-evens": 200,
        "no-high-low": 200},
    7: {"no-kings": 125, "no-assassins": 125, "no-royalty": 375, "no-evens": 250,
        "no-high-low": 150},
}  # fmt: skip


@pytest.mark.parametrize("players", [4, 7])
@pytest.mark.parametrize("round_id", SWAP_INS)
def test_swap_in_round_points(round_id: str, players: int) -> None:
    for number in ("1", "5"):
        rs = rules(swap={number: round_id})
        assert rs.hands[int(number) - 1] == round_id
        assert (
            rs.compiled(players).hands[int(number) - 1].fixed_total
            == (SWAP_TOTALS[players][round_id])
        )
    game = new_game(rules(swap={"1": round_id}), players)
    random_deal(game, 7)
    finish_hand(game)
    assert list(game.hand_points[0]) == reference_points(game, 0, [round_id])
    assert sum(game.hand_points[0]) == SWAP_TOTALS[players][round_id]


def test_base_round_points() -> None:
    game = new_game(rules(), 4)
    for hand in range(6):
        random_deal(game, hand)
        finish_hand(game)
        rounds = BASE_ROUNDS[:5] if hand == 5 else [BASE_ROUNDS[hand]]
        assert list(game.hand_points[hand]) == reference_points(game, hand, rounds)
    assert [h.fixed_total for h in game.rules.hands] == [150, 140, 100, 100, 100, 590]


# -- settings refused and accepted --------------------------------------------------------------


@pytest.mark.parametrize(
    ("topping", "reason"),
    [("rotten-tomato", "Tomatoes suit"), ("spicy-pepper", "Carrots suit")],
)
def test_toppings_refused_on_the_classic_preset(topping: str, reason: str) -> None:
    for preset in ("canadian", "fruit-salad", "extended"):
        with pytest.raises(RulesError) as info:
            load_ruleset(preset, {"toppings": [topping]})
        text = one_line_error(info.value)
        assert topping in text and reason in text and preset in text
    with pytest.raises(RulesError):
        load_ruleset("canadian", {"toppings": "all"})


@pytest.mark.parametrize("topping", ["pass-the-veggies", "blue-cheese-moon", "cornucopia"])
def test_toppings_accepted_on_the_classic_preset(topping: str) -> None:
    rs = load_ruleset("canadian", {"toppings": [topping]})
    game = Game(rs, 4, seed=2)
    while not game.is_over():
        game.play(game.legal_moves()[0])
    assert rs.settings == {"toppings": [topping]}
    assert rs.passing == (2 if topping == "pass-the-veggies" else 0)
    assert rs.highest_wins == (topping == "cornucopia")


@pytest.mark.parametrize(
    "swap",
    [
        {"7": "no-evens"},  # only 6 hands
        {"0": "no-evens"},
        {"6": "no-evens"},  # Tossed Salad cannot be swapped out
        {"2": "tossed-salad"},  # nor swapped in
        {"2": "no-such-round"},
        {"two": "no-evens"},
        {"2": ""},
        {"2": 3},
        ["2"],
        ["2:no-evens"],
        7,
    ],
)
def test_bad_swaps_refused(swap: object) -> None:
    with pytest.raises(RulesError) as info:
        load_ruleset(SKIP, {"swap": swap})
    assert one_line_error(info.value).startswith("swap")


def test_unknown_topping_refused() -> None:
    with pytest.raises(RulesError) as info:
        load_ruleset(SKIP, {"toppings": ["croutons"]})
    assert "croutons" in one_line_error(info.value)


def test_swap_and_toppings_settings_forms() -> None:
    a = load_ruleset(SKIP, {"swap": {"2": "no-evens"}, "toppings": "all"})
    b = load_ruleset(SKIP, {"swap": ["2=no-evens"], "toppings": list(TOPPINGS)})
    assert a.hands == b.hands and a.hands[1] == "no-evens"
    assert load_ruleset(a.preset, a.settings) == a


# -- properties over random toppings, swaps and player counts -----------------------------------


@st.composite
def setups(draw: st.DrawFn) -> tuple[Ruleset, int, int]:
    toppings = tuple(draw(st.lists(st.sampled_from(TOPPINGS), unique=True)))
    swap_rounds = st.sampled_from(SWAP_INS + BASE_ROUNDS[:5])
    swap = draw(st.dictionaries(st.sampled_from("12345"), swap_rounds, max_size=3))
    players = draw(st.integers(3, 8))
    seed = draw(st.integers(0, 2**32))
    return rules(toppings, swap), players, seed


def reference_last_place(game: Game) -> int:
    n = game.players
    order = [(game.dealer + 1 + i) % n for i in range(n)]
    sign = 1 if game.ruleset.highest_wins else -1
    worst = min(sign * game.totals[s] for s in order)
    return next(s for s in order if sign * game.totals[s] == worst)


def led_suit(deck: Deck, moves: Sequence[int]) -> int:
    """The suit of the first suited card: a led Wild or Salad Dressing sets nothing."""
    for move in moves:
        if not is_wild(deck, move % deck.size):
            return deck.suit_of[move % deck.size]
    return NO_SUIT


def reference_legal(deck: Deck, hand: int, trick: Sequence[int]) -> list[int]:
    """Follow the led suit if you can; Wilds and Salad Dressing may be played at any time;
    only a Wild (not Salad Dressing) may be declared high."""
    cards = cards_of(hand)
    suit = led_suit(deck, trick)
    follow = [c for c in cards if deck.suit_of[c] == suit]
    if suit != NO_SUIT and follow:
        cards = follow + [c for c in cards if is_wild(deck, c)]
    highs = [c + deck.size for c in cards if deck.format(c) == "W"]
    return sorted(cards + highs)


def reference_winner(deck: Deck, moves: Sequence[int], trump: int) -> int | None:
    """Index of the winning move: Salad Dressing; else the first Wild declared high (our
    decision: it beats trumps too); else the highest trump; else the highest of the led suit;
    a trick of Wilds only goes to the first. ``None`` for the one case tested on its own
    (all Wilds, the first low and a later one high)."""
    size = deck.size
    cards = [m % size for m in moves]
    for i, card in enumerate(cards):
        if deck.format(card) == "SD":
            return i
    highs = [i for i, m in enumerate(moves) if m >= size]
    if all(is_wild(deck, c) for c in cards):
        return 0 if not highs or highs[0] == 0 else None
    if highs:
        return highs[0]
    led = led_suit(deck, moves)
    for suit in (trump, led):
        ranked = [
            (RANKS.index(rank_suit(deck, c)[0]), i)
            for i, c in enumerate(cards)
            if suit != NO_SUIT and deck.suit_of[c] == suit
        ]
        if ranked:
            return max(ranked)[1]
    raise AssertionError("no winner")


def snapshot(game: Game) -> tuple:
    return (
        game.log,
        game.phase,
        game.to_move,
        tuple(game.hands),
        tuple(game.trick),
        game.led,
        game.trump,
        tuple(game.passed),
        tuple(game.totals),
        game.token,
    )


def play_randomly(game: Game, rng: random.Random, probe: float = 0.15) -> None:
    """Random legal moves to the end; now and then an illegal move that must change nothing.
    Checks the trump chooser and every legal-move list against the reference."""
    size = game.deck.size
    everything = range(-2, 2 * size + len(game.deck.suits) + 2)
    while not game.is_over():
        legal = game.legal_moves()
        assert legal
        if game.phase == Phase.TRUMP:
            assert game.to_move == reference_last_place(game)
        elif game.phase == Phase.PLAY:
            hand = game.hand(game.to_move)
            assert sorted(legal) == reference_legal(game.deck, hand, game.trick)
        if rng.random() < probe:
            illegal = [m for m in everything if m not in legal]
            move = rng.choice(illegal)
            before = snapshot(game)
            with pytest.raises(IllegalMoveError):
                game.play(move)
            assert snapshot(game) == before
        game.play(rng.choice(legal))


def check_hands(game: Game) -> None:
    deck = game.deck
    scored = [e for e in game.events if isinstance(e, HandScored)]
    assert len(scored) == len(game.rules.hands)
    for hand, event in enumerate(scored):
        tricks = hand_tricks(game, hand)
        played = [c for cards, _ in tricks for c in cards]
        assert len(tricks) == deck.cards_each
        assert len(played) == len(set(played)) == deck.cards_each * game.players
        assert sum(1 << c for c in played) == deck.in_play
        trumps = [e.suit for e in game.events if isinstance(e, TrumpChosen) and e.hand == hand]
        trump = trumps[-1] if trumps else NO_SUIT
        for (moves, leader), (_, winner) in zip(hand_moves(game, hand), tricks, strict=True):
            expected = reference_winner(deck, moves, trump)
            if expected is not None:
                assert winner == (leader + expected) % game.players
        fixed = game.rules.hands[hand].fixed_total
        if event.moon < 0:
            assert sum(event.points) == fixed
            if game.rules.hands[hand].moon:  # nobody collected every penalty unflipped
                assert fixed not in event.points
        else:
            assert game.rules.hands[hand].moon
            assert event.points[event.moon] == -fixed
            assert sum(event.points) == -fixed
    assert tuple(game.totals) == tuple(map(sum, zip(*game.hand_points, strict=True)))


@settings(max_examples=examples(150), deadline=None)
@given(setups())
def test_property_cards_once_legal_moves_only_fixed_totals(setup) -> None:
    rs, players, seed = setup
    game = Game(rs, players, seed=seed)
    play_randomly(game, random.Random(seed))
    check_hands(game)
    winners = game.winners()
    best = (max if rs.highest_wins else min)(game.totals)
    assert winners == [s for s in range(players) if game.totals[s] == best]


@settings(max_examples=examples(60), deadline=None)
@given(setups())
def test_property_exact_deals_legal_moves_only(setup) -> None:
    rs, players, seed = setup
    game = Game(rs, players, first_dealer=seed % players, auto_deal=False)
    rng = random.Random(seed)
    for hand in range(len(rs.hands)):
        random_deal(game, rng.randrange(2**32))
        while game.phase != Phase.DEAL and not game.is_over():
            legal = game.legal_moves()
            if rng.random() < 0.2:
                before = snapshot(game)
                illegal = [m for m in range(-1, 3 * game.deck.size) if m not in legal]
                with pytest.raises(IllegalMoveError):
                    game.play(rng.choice(illegal))
                assert snapshot(game) == before
            game.play(rng.choice(legal))
        assert len(game.hand_points) == hand + 1
    check_hands(game)


@settings(max_examples=examples(40), deadline=None)
@given(setups(), st.booleans())
def test_property_records_round_trip_and_verify(setup, auto: bool) -> None:
    rs, players, seed = setup
    if auto:
        game = Game(rs, players, seed=seed)
    else:
        game = Game(rs, players, first_dealer=seed % players, auto_deal=False)
    rng = random.Random(seed)
    while not game.is_over():
        if game.phase == Phase.DEAL:
            random_deal(game, rng.randrange(2**32))
        else:
            game.play(rng.choice(game.legal_moves()))
    record = records.record_from_game(game)
    record = json.loads(records.dump_record(record))
    assert records.verify_record(record) == game.totals
    rebuilt = records.game_from_record(record)
    assert records.record_from_game(rebuilt) == record
    assert rebuilt.hand_points == game.hand_points
    # The log holds card indices: equal up to which copy of the identical Wilds is which.
    assert [rebuilt.format_move(e.move) for e in rebuilt.events if isinstance(e, Play)] == [
        game.format_move(e.move) for e in game.events if isinstance(e, Play)
    ]


# -- the command line ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(3, 9))
def test_cli_simulate_and_verify_every_topping(players: int, tmp_path: Path) -> None:
    file = tmp_path / f"skip-{players}.jsonl"
    args = ["--toppings", "all", "--players", str(players), "--games", "2", "--seed", "1"]
    done = salad_here("simulate", "--rules", SKIP, *args, "--record", str(file))
    assert done.returncode == 0, done.stderr
    assert f"{players} players" in done.stdout
    assert len(file.read_text().splitlines()) == 2
    done = salad_here("record", "verify", str(file))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 2 and all(line.startswith("OK ") for line in lines)


def test_cli_refuses_bad_toppings_and_swaps_in_one_line() -> None:
    from typer.testing import CliRunner

    from salad.cli import app

    runner = CliRunner()
    for args, words in (
        (["rules", "canadian", "--toppings", "rotten-tomato"], "rotten-tomato"),
        (["rules", "canadian", "--toppings", "spicy-pepper"], "spicy-pepper"),
        (["simulate", "-r", "canadian", "--toppings", "spicy-pepper", "-g", "1"], "Carrots"),
        (["rules", SKIP, "--swap", "6=no-evens"], "swap.6"),
        (["rules", SKIP, "--swap", "9=no-evens"], "swap.9"),
        (["rules", SKIP, "--swap", "2=bogus"], "bogus"),
        (["rules", SKIP, "--swap", "2"], "ROUND=NAME"),
        (["rules", SKIP, "--toppings", "croutons"], "croutons"),
    ):
        done = runner.invoke(app, args)
        assert done.exit_code == 1, args
        assert done.stderr.startswith("error: ") and words in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
        assert "Traceback" not in done.stderr
        assert isinstance(done.exception, SystemExit)  # a clean exit, not a crash
    done = runner.invoke(
        app, ["rules", SKIP, "--toppings", "all", "--swap", "2=no-evens", "-n", "7"]
    )
    assert done.exit_code == 0, done.stderr
    assert "No Evens" in done.stdout and "1R 1B 1T 1O 1N" in done.stdout
    done = runner.invoke(app, ["rules", "canadian", "--toppings", "cornucopia,pass-the-veggies"])
    assert done.exit_code == 0, done.stderr
    assert "highest total wins" in done.stdout
