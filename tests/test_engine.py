"""The engine against docs/rules.md sections 1-3, with hands built by hand where rules need it."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping

import pytest

from salad import (
    CardParseError,
    Game,
    IllegalMoveError,
    Phase,
    RulesError,
    SaladError,
    load_ruleset,
)
from salad.cards import cards_of
from salad.events import Deal, Draw, GameOver, HandScored, Play, TrickWon
from salad.view import SPECTATOR

# -- helpers ---------------------------------------------------------------------------------


def table(
    preset: str = "canadian",
    players: int = 4,
    settings: Mapping | None = None,
    first_dealer: int = 0,
) -> Game:
    """A game that waits for :meth:`Game.deal` before every hand."""
    rs = load_ruleset(preset, settings)
    return Game(rs, players, first_dealer=first_dealer, auto_deal=False)


def hands_of(game: Game, *texts: str) -> list[int]:
    """Hands from card lists; copies of identical cards are handed out in order."""
    deck = game.deck
    out = []
    used = 0
    for text in texts:
        mask = 0
        for word in text.split():
            options = [
                c
                for c in range(deck.size)
                if deck.format(c) == deck.format(deck.parse(word)) and not (used | mask) >> c & 1
            ]
            mask |= 1 << options[0]
        used |= mask
        out.append(mask)
    return out


def fill(game: Game, fixed: Mapping[int, list[int]]) -> list[int]:
    """Give each seat its fixed cards, then the rest of the cards in play in index order."""
    n = game.players
    each = game.deck.cards_each
    hands = [0] * n
    used = 0
    for seat, cards in fixed.items():
        for card in cards:
            hands[seat] |= 1 << card
            used |= 1 << card
    rest = [c for c in cards_of(game.deck.in_play) if not used >> c & 1]
    for seat in range(n):
        while hands[seat].bit_count() < each:
            hands[seat] |= 1 << rest.pop(0)
    assert not rest
    return hands


def random_hands(game: Game, rng: random.Random) -> list[int]:
    cards = cards_of(game.deck.in_play)
    rng.shuffle(cards)
    each = game.deck.cards_each
    return [sum(1 << c for c in cards[i * each : (i + 1) * each]) for i in range(game.players)]


def play_out_hand(game: Game, choose: Callable[[Game], int] | None = None) -> None:
    hand = game.hand_index
    while game.phase == Phase.PLAY and game.hand_index == hand:
        game.play(choose(game) if choose else game.legal_moves()[0])


def play_out_game(game: Game, rng: random.Random | None = None) -> None:
    while not game.is_over():
        if game.phase == Phase.DEAL:
            game.deal(random_hands(game, rng or random.Random(0)))
        moves = game.legal_moves()
        game.play(rng.choice(moves) if rng else moves[0])


def codes(game: Game, mask: int) -> list[str]:
    return game.deck.format_mask(mask).split()


def snapshot(game: Game) -> tuple:
    return (
        game.phase,
        game.to_move,
        game.legal_moves(),
        list(game.hands),
        list(game.trick),
        game.led,
        game.leader,
        list(game.taken),
        list(game.tricks_won),
        list(game.totals),
        list(game.hand_points),
        game.hand_index,
        game.dealer,
        game.log,
    )


def events_of(game: Game, kind: type) -> list:
    return [e for e in game.events if isinstance(e, kind)]


# -- dealing, dealer, leader ---------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7, 8])
def test_player_at_dealers_left_leads_first(players):
    for dealer in range(players):
        game = Game(load_ruleset("canadian"), players, seed=11, first_dealer=dealer)
        assert game.dealer == dealer
        assert game.phase == Phase.PLAY
        assert game.to_move == (dealer + 1) % players
        assert game.leader == (dealer + 1) % players
        assert len(game.legal_moves()) == game.deck.cards_each  # any card may be led


@pytest.mark.parametrize(("players", "each"), [(3, 17), (4, 13), (5, 10), (6, 8), (7, 7), (8, 6)])
def test_auto_deal_gives_every_card_in_play(players, each):
    game = Game(load_ruleset("canadian"), players, seed=5, first_dealer=0)
    union = 0
    for seat in range(players):
        assert game.hand(seat).bit_count() == each
        assert not union & game.hand(seat)
        union |= game.hand(seat)
    assert union == game.deck.in_play


@pytest.mark.parametrize("players", [3, 4, 6])
def test_dealer_rotates_one_seat_left_each_hand(players):
    game = Game(load_ruleset("canadian"), players, seed=3, first_dealer=players - 1)
    play_out_game(game)
    deals = events_of(game, Deal)
    assert [d.hand for d in deals] == list(range(6))
    assert [d.dealer for d in deals] == [(players - 1 + k) % players for k in range(6)]
    # The first play of every hand is by the dealer's left.
    log = game.events
    for i, e in enumerate(log):
        if isinstance(e, Deal):
            first = next(x for x in log[i:] if isinstance(x, Play))
            assert first.seat == (e.dealer + 1) % players


def test_deal_is_checked():
    game = table()
    deck = game.deck
    good = random_hands(game, random.Random(1))
    with pytest.raises(SaladError, match="3 hands"):
        game.deal(good[:3])
    bad = list(good)
    moved = cards_of(bad[0])[0]
    bad[0] &= ~(1 << moved)
    bad[1] |= 1 << moved
    with pytest.raises(SaladError, match="seat 0"):
        game.deal(bad)
    dup = list(good)
    dup[1] = (dup[1] & ~(1 << cards_of(dup[1])[0])) | (1 << cards_of(dup[0])[0])
    with pytest.raises(SaladError, match="twice"):
        game.deal(dup)
    assert game.phase == Phase.DEAL
    game.deal(good)
    assert game.phase == Phase.PLAY
    with pytest.raises(SaladError, match="deal"):
        game.deal(good)
    assert deck.in_play == sum(good)


def test_no_move_while_waiting_for_the_deal():
    game = table()
    assert game.legal_moves() == []
    assert game.to_move == -1
    with pytest.raises(IllegalMoveError):
        game.play(0)


@pytest.mark.parametrize(("preset", "bad"), [("canadian", 2), ("canadian", 9), ("extended", 11)])
def test_game_rejects_player_counts_out_of_range(preset, bad):
    with pytest.raises(RulesError, match=str(bad)):
        Game(load_ruleset(preset), bad, seed=1)


def test_first_dealer_must_sit_at_the_table():
    with pytest.raises(SaladError, match="seat 4"):
        Game(load_ruleset("canadian"), 4, seed=1, first_dealer=4)
    with pytest.raises(SaladError):
        Game(load_ruleset("canadian"), 4, seed=1, first_dealer=-1)


# -- the first-dealer draw ----------------------------------------------------------------------


def check_draw(game: Game) -> Draw:
    draw = game.events[0]
    assert isinstance(draw, Draw)
    deck = game.deck
    seats = list(range(game.players))
    for rnd in draw.rounds:
        assert [s for s, _ in rnd] == seats
        cards = [c for _, c in rnd]
        assert len(set(cards)) == len(cards)
        best = max(deck.rank_of[c] for c in cards)
        seats = [s for s, c in rnd if deck.rank_of[c] == best]
    assert seats == [draw.dealer]  # the last round has a single highest card
    assert game.dealer == game.first_dealer == draw.dealer
    assert game.to_move == (draw.dealer + 1) % game.players
    return draw


@pytest.mark.parametrize("players", [3, 4, 8])
def test_first_dealer_draw_highest_deals_and_ties_draw_again(players):
    rounds_seen = set()
    dealers = set()
    for seed in range(200):
        game = Game(load_ruleset("canadian"), players, seed=seed)
        draw = check_draw(game)
        rounds_seen.add(len(draw.rounds))
        dealers.add(draw.dealer)
    assert 1 in rounds_seen
    assert max(rounds_seen) >= 2, "no tie in 200 draws: ties are never drawn again"
    assert dealers == set(range(players))


def test_draw_aces_are_high():
    deck = load_ruleset("canadian").deck_for(4)
    for seed in range(100):
        game = Game(load_ruleset("canadian"), 4, seed=seed)
        draw = game.events[0]
        last = dict(draw.rounds[-1])
        if any(deck.format(c)[0] == "A" for c in last.values()):
            assert deck.format(last[draw.dealer])[0] == "A"


def test_draw_is_reproducible_and_needs_a_seed():
    a = Game(load_ruleset("canadian"), 5, seed=42)
    b = Game(load_ruleset("canadian"), 5, seed=42)
    assert a.events[0] == b.events[0]
    with pytest.raises(SaladError):
        Game(load_ruleset("canadian"), 4, auto_deal=False)


# -- trick play ----------------------------------------------------------------------------------

# Seat 0 leads (the dealer is seat 3).
FOLLOW_HANDS = (
    "2H 3H 4H 5H 6H 7H 8H 2C 3C 4C 5C 6C 7C",
    "9H TH 8C 9C TC JC QC KC AC 2D 3D 4D 5D",
    "JH QH KH AH 6D 7D 8D 9D TD JD QD KD AD",
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
)


@pytest.fixture
def follow_game() -> Game:
    game = table(first_dealer=3)
    game.deal(hands_of(game, *FOLLOW_HANDS))
    return game


def test_follow_suit_is_enforced(follow_game):
    game = follow_game
    assert game.to_move == 0
    game.play("5H")
    assert game.to_move == 1
    assert codes(game, sum(1 << m for m in game.legal_moves())) == ["9H", "TH"]
    before = snapshot(game)
    with pytest.raises(IllegalMoveError, match=r"seat 1 .*8C.*must follow hearts"):
        game.play("8C")
    assert snapshot(game) == before
    game.play("9H")
    with pytest.raises(IllegalMoveError) as info:
        game.play("6D")
    message = str(info.value)
    assert "seat 2" in message
    assert "6D" in message
    assert "must follow hearts" in message
    assert isinstance(info.value, ValueError)
    game.play("JH")
    # Seat 3 has no hearts: any card.
    assert len(game.legal_moves()) == 13
    game.play("AS")
    trick = events_of(game, TrickWon)
    assert trick == [TrickWon(0, 0, 2)]  # JH, the highest heart, beats the off-suit AS


def test_winner_leads_next_trick(follow_game):
    game = follow_game
    for card in ("5H", "9H", "JH", "AS"):
        game.play(card)
    assert game.to_move == 2
    assert game.leader == 2
    assert game.tricks_won == [0, 0, 1, 0]
    assert game.taken[2] == game.deck.parse_many("5H 9H JH AS")
    assert game.trick == []
    assert len(game.legal_moves()) == 12  # a new lead: any card


def test_aces_are_high_in_a_trick(follow_game):
    game = follow_game
    for card in ("2H", "TH", "AH", "2S"):
        game.play(card)
    assert game.to_move == 2  # AH beats TH and 2H
    game.play("KH")  # seat 2 leads
    game.play("3S")  # seat 3 is void in hearts
    game.play("3H")
    game.play("9H")
    assert events_of(game, TrickWon)[-1] == TrickWon(0, 1, 2)  # KH beats 9H and 3H


def test_low_lead_wins_when_nobody_follows():
    game = table(first_dealer=3)
    game.deal(
        hands_of(
            game,
            "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
            "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
            "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
            "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
        )
    )
    for card in ("2C", "AD", "AH", "AS"):
        game.play(card)
    assert game.to_move == 0
    assert game.tricks_won == [1, 0, 0, 0]


def test_cannot_play_a_card_not_held(follow_game):
    game = follow_game
    before = snapshot(game)
    with pytest.raises(IllegalMoveError, match=r"seat 0 .*QS.*does not hold"):
        game.play("QS")
    with pytest.raises(IllegalMoveError):
        game.play(game.deck.parse("9H"))
    with pytest.raises(IllegalMoveError):
        game.play(-1)
    with pytest.raises(IllegalMoveError):
        game.play(10_000)
    with pytest.raises(CardParseError):
        game.play("ZZ")
    assert snapshot(game) == before


def test_declaring_an_ordinary_card_high_is_rejected_and_changes_nothing(follow_game):
    """A card index plus deck.size declares a Wild high; an ordinary card cannot be declared.

    The rejected move must leave the trick untouched: the leader may still lead any card.
    """
    game = follow_game
    before = snapshot(game)
    five_hearts = game.deck.parse("5H")
    with pytest.raises(IllegalMoveError, match="Wild"):
        game.play(five_hearts + game.deck.size)
    assert snapshot(game) == before
    assert len(game.legal_moves()) == 13
    game.play("2C")  # a club lead is still legal


def test_declaring_high_while_following_changes_nothing(follow_game):
    game = follow_game
    game.play("5H")
    before = snapshot(game)
    with pytest.raises(IllegalMoveError):
        game.play(game.deck.parse("9H") + game.deck.size)
    assert snapshot(game) == before


def test_moves_from_text_in_every_notation(follow_game):
    game = follow_game
    game.play("5h")
    game.play("10H")
    game.play("q♥")
    game.play("A♤")
    plays = events_of(game, Play)
    assert [game.deck.format(p.move) for p in plays] == ["5H", "TH", "QH", "AS"]
    assert [p.seat for p in plays] == [0, 1, 2, 3]


# -- scoring ---------------------------------------------------------------------------------------


def reserve_last(reserved: Mapping[int, int]) -> Callable[[Game], int]:
    """Play the lowest legal card, keeping each seat's reserved card for last."""

    def choose(game: Game) -> int:
        moves = game.legal_moves()
        keep = reserved.get(game.to_move)
        others = [m for m in moves if m != keep]
        return others[0] if others else moves[0]

    return choose


def test_seed_000_salad_last_trick_costs_175():
    """Seed 000: in hand 6 a last trick of KH QH 9H 8H costs its taker 175."""
    game = table(first_dealer=0)
    rng = random.Random(2024)
    for hand in range(5):
        assert game.round_name != "Salad (All of the Above)"
        game.deal(random_hands(game, rng))
        play_out_hand(game)
        assert game.hand_index == hand + 1
    assert game.dealer == 1
    # Seat 2 leads 12 clubs and wins every trick; seat 0 takes only the last trick.
    hands = hands_of(
        game,
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS AS KH",  # seat 0
        "2C 2D KS QH AH JH TH 7H 6H 5H 4H 3H 2H",  # seat 1
        "3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 9H",  # seat 2 (leads)
        "3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD 8H",  # seat 3
    )
    game.deal(hands)
    assert game.hand_index == 5
    assert "Salad" in game.round_name
    assert game.hand_checksum == 560
    assert game.to_move == 2
    reserved = {s: game.deck.parse(c) for s, c in ((0, "KH"), (1, "QH"), (2, "9H"), (3, "8H"))}
    choose = reserve_last(reserved)
    while game.trick_no < 12:
        game.play(choose(game))
    assert game.tricks_won == [0, 0, 12, 0]
    assert game.running_points()[0] == 0
    for card in ("9H", "8H", "KH", "QH"):
        game.play(card)
    assert game.is_over()
    last = events_of(game, TrickWon)[-1]
    assert last == TrickWon(5, 12, 0)
    points = game.hand_points[5]
    assert points[0] == 175  # 40 hearts + 25 queen + 10 trick + 100 last trick
    assert sum(points) == 560
    assert sum(game.totals) == 1120


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize(("players", "checksum"), [(3, 1200), (4, 1120), (5, 1060), (6, 1020)])
def test_game_hands_out_the_checksum(players, checksum, seed):
    game = Game(load_ruleset("canadian"), players, seed=seed)
    rng = random.Random(seed)
    play_out_game(game, rng)
    assert sum(game.totals) == checksum
    assert len(game.hand_points) == 6
    fixed = [h.fixed_total for h in game.rules.hands]
    assert [sum(p) for p in game.hand_points] == fixed
    assert game.totals == [sum(p[s] for p in game.hand_points) for s in range(players)]
    assert events_of(game, GameOver) == [GameOver(tuple(game.totals))]
    assert [e.points for e in events_of(game, HandScored)] == game.hand_points


def test_each_hand_scores_its_own_penalty():
    game = Game(load_ruleset("canadian"), 4, seed=9)
    play_out_game(game, random.Random(9))
    deck = game.deck
    hearts = deck.parse_many("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH")
    queens = deck.parse_many("QC QD QH QS")
    ks = deck.parse_many("KS")
    log = game.events
    taken = [[0] * 4 for _ in range(6)]
    tricks = [[0] * 4 for _ in range(6)]
    last = [-1] * 6
    current: list[int] = []
    for e in log:
        if isinstance(e, Play):
            current.append(e.move)
        elif isinstance(e, TrickWon):
            for m in current:
                taken[e.hand][e.winner] |= 1 << m
            tricks[e.hand][e.winner] += 1
            last[e.hand] = e.winner
            current = []
    for s in range(4):
        assert game.hand_points[0][s] == 10 * tricks[0][s]
        assert game.hand_points[1][s] == 10 * (taken[1][s] & hearts).bit_count()
        assert game.hand_points[2][s] == 25 * (taken[2][s] & queens).bit_count()
        assert game.hand_points[3][s] == (100 if taken[3][s] & ks else 0)
        assert game.hand_points[4][s] == (100 if last[4] == s else 0)
        assert game.hand_points[5][s] == (
            10 * tricks[5][s]
            + 10 * (taken[5][s] & hearts).bit_count()
            + 25 * (taken[5][s] & queens).bit_count()
            + (100 if taken[5][s] & ks else 0)
            + (100 if last[5] == s else 0)
        )


def test_changed_points_are_scored():
    game = Game(load_ruleset("canadian", {"points": {"queens": 30}}), 4, seed=4)
    play_out_game(game, random.Random(4))
    assert sum(game.hand_points[2]) == 120
    assert all(p % 30 == 0 for p in game.hand_points[2])
    assert sum(game.totals) == 1160


def test_chosen_hands_salad_includes_only_hands_played_before():
    rs = load_ruleset("canadian", {"hands": ["no-hearts", "salad"]})
    game = Game(rs, 4, seed=6)
    assert game.round_name == "No Hearts"
    play_out_hand(game)
    assert "Salad" in game.round_name
    hearts = game.deck.parse_many("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH")
    play_out_hand(game)
    assert game.is_over()
    assert len(game.hand_points) == 2
    # The Salad is only No Hearts again: no tricks, queens, KS or last trick.
    assert [sum(p) for p in game.hand_points] == [130, 130]
    assert sum(game.totals) == 260
    taken = [0] * 4
    current: list[int] = []
    for e in game.events:
        if isinstance(e, Play):
            current.append(e.move)
        elif isinstance(e, TrickWon):
            if e.hand == 1:
                for m in current:
                    taken[e.winner] |= 1 << m
            current = []
    assert list(game.hand_points[1]) == [10 * (t & hearts).bit_count() for t in taken]


def test_changed_hand_order_is_played():
    order = ["no-king-of-spades", "no-tricks"]
    game = Game(load_ruleset("canadian", {"hands": order}), 3, seed=8)
    assert game.round_name == "No King of Spades"
    play_out_hand(game)
    assert game.round_name == "No Tricks"
    play_out_hand(game)
    assert game.is_over()
    assert sorted(game.hand_points[0]) == [0, 0, 100]
    assert sum(game.hand_points[1]) == 170


# -- winners and standings ---------------------------------------------------------------


def test_lowest_total_wins_and_highest_loses():
    game = Game(load_ruleset("canadian"), 4, seed=12)
    assert game.winners() == []  # not over yet
    play_out_game(game, random.Random(12))
    low, high = min(game.totals), max(game.totals)
    assert game.winners() == [s for s in range(4) if game.totals[s] == low]
    places = game.standings()
    for s in range(4):
        assert places[s] == 1 + sum(t < game.totals[s] for t in game.totals)
        if game.totals[s] == high:
            assert places[s] == max(places)


def test_equal_totals_share_the_place():
    # One No King of Spades hand: one seat takes 100, the other three tie on 0.
    game = Game(load_ruleset("canadian", {"hands": ["no-king-of-spades"]}), 4, seed=1)
    play_out_hand(game)
    assert game.is_over()
    taker = game.totals.index(100)
    assert sorted(game.totals) == [0, 0, 0, 100]
    assert game.winners() == [s for s in range(4) if s != taker]
    assert game.standings() == [4 if s == taker else 1 for s in range(4)]


def test_everybody_tied_all_win():
    rs = load_ruleset("canadian", {"hands": ["no-king-of-spades"], "points": {"king-of-spades": 0}})
    game = Game(rs, 5, seed=2)
    play_out_hand(game)
    assert game.winners() == [0, 1, 2, 3, 4]
    assert game.standings() == [1, 1, 1, 1, 1]


# -- jokers ---------------------------------------------------------------------------------------

JOKER_HANDS = (
    "3C 4C 5C 6C 7C 8C 9C TC JC QC KC 2H 3D",  # seat 0
    "JK 3H 4H 5H 6H 7H 8H 9H TH JH QH KH 2S",  # seat 1
    "JK 4D 5D 6D 7D 8D 9D TD JD QD KD AD AC",  # seat 2
    "AH 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",  # seat 3
)


def joker_game(first_dealer: int) -> Game:
    game = table(settings={"jokers": 2}, first_dealer=first_dealer)
    assert codes(game, game.deck.all_mask & ~game.deck.in_play) == ["2C", "2D"]
    game.deal(hands_of(game, *JOKER_HANDS))
    return game


def test_joker_may_be_played_even_when_able_to_follow():
    game = joker_game(first_dealer=3)  # seat 0 leads
    game.play("2H")
    joker = game.deck.parse("JK", game.hand(1))
    moves = game.legal_moves()
    assert joker in moves
    hearts = game.hand(1) & game.deck.suit_masks[game.deck.parse_suit("H")]
    assert sorted(moves) == sorted([joker, *cards_of(hearts)])
    assert game.deck.parse("2S") not in moves  # seat 1 must follow hearts or play the joker
    game.play("JK")
    game.play("AC")  # seat 2 has no hearts
    game.play("AH")
    # The joker never wins: AH, the highest heart, takes the trick.
    assert events_of(game, TrickWon) == [TrickWon(0, 0, 3)]
    assert game.taken[3] >> joker & 1
    # No Tricks: 10 for the trick and 25 for the joker, in every hand.
    assert game.running_points() == [0, 0, 0, 35]


def test_joker_does_not_win_against_a_low_led_card():
    game = joker_game(first_dealer=3)  # seat 0 leads
    game.play("3D")
    game.play("JK")  # seat 1 has no diamonds
    game.play("4D")
    game.play("AS")
    assert events_of(game, TrickWon) == [TrickWon(0, 0, 2)]


def test_led_joker_lets_the_first_suited_card_set_the_suit():
    game = joker_game(first_dealer=0)  # seat 1 leads
    game.play("JK")
    assert len(game.legal_moves()) == 13  # nothing to follow yet
    game.play("5D")
    assert len(game.legal_moves()) == 13  # seat 3 has no diamonds
    game.play("AS")
    assert codes(game, sum(1 << m for m in game.legal_moves())) == ["3D"]
    with pytest.raises(IllegalMoveError, match="must follow diamonds"):
        game.play("2H")
    game.play("3D")
    assert events_of(game, TrickWon) == [TrickWon(0, 0, 2)]  # 5D: the led joker loses


def test_trick_of_only_jokers_goes_to_the_first():
    game = table(settings={"jokers": 4}, first_dealer=0)
    assert game.deck.cards_each == 14
    suits = {s: " ".join(r + s for r in "23456789TJQKA") for s in "CDHS"}
    game.deal(
        hands_of(
            game, "JK " + suits["C"], "JK " + suits["D"], "JK " + suits["H"], "JK " + suits["S"]
        )
    )
    for _ in range(4):
        game.play("JK")
    assert events_of(game, TrickWon) == [TrickWon(0, 0, 1)]
    assert game.to_move == 1
    assert game.running_points() == [0, 10 + 4 * 25, 0, 0]


def test_jokers_cost_points_in_every_hand():
    game = Game(load_ruleset("canadian", {"jokers": 2}), 4, seed=21)
    play_out_game(game, random.Random(21))
    assert [sum(p) for p in game.hand_points] == [180, 180, 150, 150, 150, 610]
    assert sum(game.totals) == 1420


# -- the extended game ----------------------------------------------------------------------------


@pytest.mark.parametrize("order", [(0, 1), (1, 0)])
def test_identical_cards_the_later_one_wins(order):
    game = table("extended", players=6, first_dealer=5)  # seat 0 leads
    assert game.deck.size == 104
    aces = [c for c in range(game.deck.size) if game.deck.format(c) == "AS"]
    first, second = aces[order[0]], aces[order[1]]
    game.deal(fill(game, {0: [first], 2: [second]}))
    game.play(first)
    game.play(game.legal_moves()[0])
    game.play(second)
    while not events_of(game, TrickWon):
        game.play(game.legal_moves()[0])
    # Two aces of spades tie for the trick: the later one, seat 2's, wins.
    assert events_of(game, TrickWon)[0].winner == 2
    assert game.to_move == 2


def test_identical_cards_below_a_higher_card_do_not_win():
    game = table("extended", players=6, first_dealer=5)  # seat 0 leads
    deck = game.deck
    kings = [c for c in range(deck.size) if deck.format(c) == "KS"]
    ace = next(c for c in range(deck.size) if deck.format(c) == "AS")
    game.deal(fill(game, {0: [kings[0]], 1: [ace], 2: [kings[1]]}))
    game.play(kings[0])
    game.play(ace)
    game.play(kings[1])
    while not events_of(game, TrickWon):
        game.play(game.legal_moves()[0])
    assert events_of(game, TrickWon)[0].winner == 1


SUIT_HANDS = tuple(" ".join(r + s for r in "23456789TJQKA") for s in "HDCS")


def test_extended_moon_shooter_scores_0_others_100():
    game = table("extended", first_dealer=3)  # seat 0 leads
    assert game.round_name == "No Red Cards"
    # Seat 0 holds every heart and seat 1 every diamond: seat 0 wins all 13 tricks and
    # takes all 26 red cards.
    game.deal(hands_of(game, *SUIT_HANDS))
    play_out_hand(game)
    assert game.tricks_won == [13, 0, 0, 0]
    scored = events_of(game, HandScored)[0]
    assert scored.moon == 0
    assert game.hand_points[0] == (0, 100, 100, 100)
    assert game.totals == [0, 100, 100, 100]


def test_extended_moon_in_no_tricks():
    game = table("extended", settings={"hands": ["no-tricks"]}, first_dealer=3)
    game.deal(hands_of(game, *SUIT_HANDS))
    play_out_hand(game)
    assert game.hand_points == [(0, 100, 100, 100)]


def test_extended_no_moon_without_every_counting_card():
    game = table("extended", first_dealer=3)
    # Seat 0 leads 2H and seat 3 must take it with AH (with 2D): seat 3 then leads 2S, seat 0
    # wins with AS and every later heart lead. Red cards split 23 to 3: no moon.
    game.deal(
        hands_of(
            game,
            "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AS",
            SUIT_HANDS[1],
            SUIT_HANDS[2],
            "AH 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS",
        )
    )
    play_out_hand(game)
    scored = events_of(game, HandScored)[0]
    assert scored.moon == -1
    assert game.tricks_won == [12, 0, 0, 1]
    assert game.hand_points[0] == (115, 0, 0, 15)


@pytest.mark.parametrize("round_id", ["no-last-trick", "no-king-of-spades"])
def test_extended_no_moon_in_single_event_hands(round_id):
    game = table("extended", settings={"hands": [round_id]}, first_dealer=3)
    game.deal(hands_of(game, *SUIT_HANDS))
    play_out_hand(game)
    scored = events_of(game, HandScored)[0]
    assert scored.moon == -1
    assert sorted(game.hand_points[0]) == [0, 0, 0, 75]


def test_extended_moon_in_all_of_the_above():
    # Hands: No Aces, then All of the Above, which is No Aces again.
    rs = load_ruleset("extended", {"hands": ["no-aces", "all-of-the-above"]})
    game = Game(rs, 4, first_dealer=3, auto_deal=False)
    game.deal(hands_of(game, *SUIT_HANDS))
    play_out_hand(game)
    assert game.hand_points[0] == (0, 100, 100, 100)  # seat 0 took all four aces
    game.deal(hands_of(game, *SUIT_HANDS))  # dealer 0 now: seat 1 leads diamonds
    play_out_hand(game)
    assert game.hand_points[1] == (100, 0, 100, 100)


def test_extended_full_game_twelve_hands_two_decks():
    game = Game(load_ruleset("extended"), 7, seed=3)
    assert game.deck.size == 104
    assert game.deck.cards_each == 14
    play_out_game(game, random.Random(3))
    assert len(game.hand_points) == 12
    for hand, (points, scored) in enumerate(
        zip(game.hand_points, events_of(game, HandScored), strict=True)
    ):
        if scored.moon < 0:
            assert sum(points) == game.rules.hands[hand].fixed_total
        else:
            assert points[scored.moon] == 0
            assert sorted(points) == [0] + [100] * 6


# -- views ------------------------------------------------------------------------------------


def dict_codes(value) -> set[str]:
    """Every string anywhere inside a JSON-ready value, a trailing '+' dropped."""
    out: set[str] = set()
    if isinstance(value, str):
        out.add(value.rstrip("+"))
    elif isinstance(value, Mapping):
        for v in value.values():
            out |= dict_codes(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            out |= dict_codes(v)
    return out


def assert_view_hides_others(game: Game, seat: int) -> None:
    view = game.view(seat)
    deck = game.deck
    data = view.to_dict()
    json.dumps(data)
    own = game.hand(seat) if seat != SPECTATOR else 0
    assert view.hand == own
    assert data["cards"] == codes(game, own)
    assert view.seat == seat
    if seat == SPECTATOR or seat != game.to_move:
        assert view.legal_moves == ()
    else:
        assert list(view.legal_moves) == game.legal_moves()
    played = view.played
    seen = dict_codes(data)
    visible = {deck.format(c) for c in cards_of(own | played)}
    for other in range(game.players):
        if other == seat:
            continue
        assert view.hand_sizes[other] == game.hand(other).bit_count()
        for card in cards_of(game.hand(other)):
            code = deck.format(card)
            if code not in visible:
                assert code not in seen, f"seat {seat} sees {code} of seat {other}"


def test_view_never_shows_another_seats_hand():
    game = Game(load_ruleset("canadian"), 4, seed=17)
    rng = random.Random(17)
    steps = 0
    while not game.is_over():
        if steps % 7 == 0:
            for seat in (SPECTATOR, 0, 1, 2, 3):
                assert_view_hides_others(game, seat)
        game.play(rng.choice(game.legal_moves()))
        steps += 1
    for seat in (SPECTATOR, 0, 1, 2, 3):
        assert_view_hides_others(game, seat)


def test_spectator_view_has_no_hand():
    game = Game(load_ruleset("canadian"), 5, seed=2)
    game.play(game.legal_moves()[0])
    view = game.view(SPECTATOR)
    assert view.seat == -1
    assert view.hand == 0
    assert view.legal_moves == ()
    data = view.to_dict()
    assert data["cards"] == []
    assert data["legal"] == []
    assert len(data["trick"]) == 1
    assert sorted(view.hand_sizes) == [9, 10, 10, 10, 10]


def test_view_shows_own_hand_and_public_trick():
    game = Game(load_ruleset("canadian"), 4, seed=2, first_dealer=0)
    lead = game.legal_moves()[0]
    game.play(lead)
    view = game.view(2)
    assert view.hand == game.hand(2)
    assert view.trick == (lead,)
    assert view.leader == 1
    assert view.to_move == 2
    assert list(view.legal_moves) == game.legal_moves()
    assert game.view(1).legal_moves == ()


def test_view_of_a_seat_not_at_the_table():
    game = Game(load_ruleset("canadian"), 4, seed=2)
    with pytest.raises(SaladError):
        game.view(4)
    with pytest.raises(SaladError):
        game.view(-2)


# -- undo, copy, log --------------------------------------------------------------------------


def test_undo_restores_the_state():
    game = Game(load_ruleset("canadian"), 4, seed=31)
    with pytest.raises(SaladError):
        game.undo()
    rng = random.Random(31)
    for _ in range(60):  # across the end of the first hand
        before = snapshot(game)
        game.play(rng.choice(game.legal_moves()))
        game.undo()
        assert snapshot(game) == before
        game.play(rng.choice(game.legal_moves()))


def test_undo_across_a_finished_hand_and_replaying_gives_the_same_deal():
    game = Game(load_ruleset("canadian"), 4, seed=32)
    play_out_hand(game)
    assert game.hand_index == 1
    after = snapshot(game)
    game.undo()
    assert game.hand_index == 0
    assert game.phase == Phase.PLAY
    assert sum(h.bit_count() for h in game.hands) == 1
    game.play(game.legal_moves()[0])
    assert snapshot(game) == after


def test_copy_is_independent():
    game = Game(load_ruleset("canadian"), 4, seed=33)
    for _ in range(10):
        game.play(game.legal_moves()[0])
    before = snapshot(game)
    twin = game.copy()
    assert snapshot(twin) == before
    while twin.hand_index == 0:
        twin.play(twin.legal_moves()[-1])
    assert snapshot(game) == before
    game.play(game.legal_moves()[0])
    assert snapshot(twin) != snapshot(game)


def test_events_tell_the_story():
    game = Game(load_ruleset("canadian"), 3, seed=34)
    play_out_game(game)
    events = game.events
    assert isinstance(events[0], Draw)
    assert isinstance(events[1], Deal)
    assert isinstance(events[-1], GameOver)
    assert len(events_of(game, Play)) == 6 * 51
    assert len(events_of(game, TrickWon)) == 6 * 17
    assert len(events_of(game, HandScored)) == 6
    assert len(game.log) == len(events)


def test_same_seed_same_game():
    def run(seed: int) -> list:
        game = Game(load_ruleset("fruit-salad"), 5, seed=seed)
        play_out_game(game, random.Random(1))
        return game.log

    assert run(77) == run(77)
    assert run(77) != run(78)


def test_undo_with_a_chosen_dealer_and_manual_deals():
    game = table(first_dealer=2)
    game.deal(random_hands(game, random.Random(5)))
    assert not events_of(game, Draw)
    history = [snapshot(game)]
    for _ in range(12):
        game.play(game.legal_moves()[-1])
        history.append(snapshot(game))
    for state in reversed(history[:-1]):
        game.undo()
        assert snapshot(game) == state
    with pytest.raises(SaladError):
        game.undo()
    assert game.dealer == 2
    assert game.to_move == 3
