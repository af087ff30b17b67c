"""Properties over random seeds and random legal play, checked against a small reference model
of docs/rules.md sections 1-3 written here independently of the engine."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from salad import Game, IllegalMoveError, Phase, load_ruleset
from salad.cards import NO_SUIT, Deck, cards_of
from salad.events import Deal, Draw, GameOver, HandScored, Play, TrickWon
from salad.ruleset import Kind, Moon, Ruleset
from salad.view import SPECTATOR

# (preset, settings, min players, max players)
CONFIGS: list[tuple[str, Mapping | None, int, int]] = [
    ("canadian", None, 3, 8),
    ("fruit-salad", None, 3, 8),
    ("extended", None, 3, 10),
    ("canadian", {"jokers": 2}, 3, 8),
    ("fruit-salad", {"jokers": 3, "joker_points": 10}, 3, 8),
    ("extended", {"jokers": 1}, 3, 10),
    (
        "canadian",
        {"hands": ["no-queens", "salad", "no-tricks"], "points": {"queens": 40, "tricks": 5}},
        3,
        8,
    ),
    ("extended", {"hands": ["no-sevens", "no-aces", "all-of-the-above"]}, 3, 10),
]

RULESETS = [load_ruleset(p, s) for p, s, _, _ in CONFIGS]


@dataclass
class Case:
    config: int
    players: int
    seed: int
    moves: int

    @property
    def ruleset(self) -> Ruleset:
        return RULESETS[self.config]

    def game(self, **kwargs) -> Game:
        return Game(self.ruleset, self.players, seed=self.seed, **kwargs)


@st.composite
def cases(draw, configs: list[int] | None = None) -> Case:
    config = draw(st.sampled_from(configs or list(range(len(CONFIGS)))))
    _, _, lo, hi = CONFIGS[config]
    players = draw(st.integers(lo, hi))
    seed = draw(st.integers(0, 2**63 - 1))
    moves = draw(st.integers(0, 2**32 - 1))
    return Case(config, players, seed, moves)


# -- the reference model ---------------------------------------------------------------------------


def is_wild(deck: Deck, card: int) -> bool:
    return deck.suit_of[card] == NO_SUIT


def led_suit(deck: Deck, trick: list[int]) -> int:
    """The suit of the first suited card of a trick (a led joker sets nothing)."""
    for move in trick:
        card = move % deck.size
        if not is_wild(deck, card):
            return deck.suit_of[card]
    return NO_SUIT


def expected_legal(deck: Deck, hand: int, trick: list[int]) -> list[int]:
    cards = cards_of(hand)
    suit = led_suit(deck, trick)
    if suit == NO_SUIT:
        return cards
    follow = [c for c in cards if deck.suit_of[c] == suit]
    if not follow:
        return cards
    return sorted(follow + [c for c in cards if is_wild(deck, c)])


def expected_winner(deck: Deck, trick: list[int]) -> int:
    """Index in the trick: the highest card of the led suit, the later of identical cards;
    a trick of wild cards only goes to the first."""
    suit = led_suit(deck, trick)
    if suit == NO_SUIT:
        return 0
    best, best_rank = -1, -1
    for i, move in enumerate(trick):
        card = move % deck.size
        if deck.suit_of[card] == suit and deck.rank_of[card] >= best_rank:
            best, best_rank = i, deck.rank_of[card]
    return best


def matches(deck: Deck, selector, card: int) -> bool:
    if is_wild(deck, card):  # a penalty names wild cards by code (JK) or takes them all (wild)
        return bool(selector.wild) or deck.format(card) in selector.cards
    suit = deck.suits[deck.suit_of[card]].letter
    rank = deck.spec.ranks[deck.rank_of[card]].letter
    if (selector.suits or selector.ranks) and (
        (not selector.suits or suit in selector.suits)
        and (not selector.ranks or rank in selector.ranks)
    ):
        return True
    return deck.format(card) in selector.cards


def live_penalties(rs: Ruleset, index: int) -> list:
    rnd = rs.round(rs.hands[index])
    ids: list[str] = []
    if rnd.all_previous:
        for earlier in rs.hands[:index]:
            ids += rs.round(earlier).penalties
    ids += rnd.penalties
    ids += rs.every_hand
    return [rs.penalty(i) for i in dict.fromkeys(ids)]


def counting(deck: Deck, penalty) -> int:
    return sum(matches(deck, penalty.selector, c) for c in cards_of(deck.in_play))


def moon_possible(rs: Ruleset, deck: Deck, index: int) -> bool:
    if rs.moon == Moon.NONE:
        return False
    rnd = rs.round(rs.hands[index])
    if rnd.all_previous:
        return True
    own = [rs.penalty(i) for i in rnd.penalties]
    single = all(
        p.kind == Kind.LAST_TRICK or (p.kind == Kind.CARDS and counting(deck, p) <= 1) for p in own
    )
    return not single


def expected_points(
    rs: Ruleset, deck: Deck, players: int, index: int, taken, tricks, last: int
) -> tuple[list[int], int]:
    penalties = live_penalties(rs, index)
    points = [0] * players
    for p in penalties:
        for s in range(players):
            if p.kind == Kind.TRICK:
                points[s] += p.points * tricks[s]
            elif p.kind == Kind.CARDS:
                points[s] += p.points * sum(
                    matches(deck, p.selector, c) for c in cards_of(taken[s])
                )
            elif p.kind == Kind.LAST_TRICK:
                points[s] += p.points if s == last else 0
            else:
                pytest.fail(f"no token penalties in these rulesets: {p}")
    shooter = -1
    if moon_possible(rs, deck, index):
        total_tricks = sum(tricks)
        for s in range(players):
            counted = False
            ok = True
            for p in penalties:
                if p.kind == Kind.TRICK:
                    counted = True
                    ok &= tricks[s] == total_tricks
                elif p.kind == Kind.CARDS:
                    wanted = [c for c in cards_of(deck.in_play) if matches(deck, p.selector, c)]
                    counted |= bool(wanted)
                    ok &= all(taken[s] >> c & 1 for c in wanted)
                elif p.kind == Kind.LAST_TRICK:
                    counted = True
                    ok &= s == last
            if ok and counted:
                shooter = s
                break
    if shooter >= 0:
        assert rs.moon == Moon.OLD
        points = [rs.moon_points] * players
        points[shooter] = 0
    return points, shooter


def fixed_total(rs: Ruleset, deck: Deck, index: int) -> int:
    total = 0
    for p in live_penalties(rs, index):
        if p.kind == Kind.TRICK:
            total += p.points * deck.cards_each
        elif p.kind == Kind.CARDS:
            total += p.points * counting(deck, p)
        else:
            total += p.points
    return total


# -- checking a finished game against the model ----------------------------------------


def check_game(game: Game) -> None:
    rs, deck, n = game.ruleset, game.deck, game.players
    events = game.events
    assert isinstance(events[0], Draw)
    assert isinstance(events[-1], GameOver)
    assert events[-1].totals == tuple(game.totals)
    deals = [e for e in events if isinstance(e, Deal)]
    scores = [e for e in events if isinstance(e, HandScored)]
    assert len(deals) == len(scores) == len(rs.hands) == len(game.hand_points)
    first = events[0].dealer
    totals = [0] * n
    for k, deal in enumerate(deals):
        assert deal.hand == k
        assert deal.dealer == (first + k) % n
        union = 0
        for h in deal.hands:
            assert h.bit_count() == deck.cards_each
            assert not union & h
            union |= h
        assert union == deck.in_play
    hand = -1
    held: list[int] = []
    played = 0
    trick: list[int] = []
    seats: list[int] = []
    leader = -1
    taken: list[int] = []
    tricks: list[int] = []
    last = -1
    for e in events:
        if isinstance(e, Deal):
            hand = e.hand
            held = list(e.hands)
            played = 0
            trick, seats = [], []
            leader = (e.dealer + 1) % n
            taken, tricks, last = [0] * n, [0] * n, -1
        elif isinstance(e, Play):
            card = e.move % deck.size
            assert e.move < deck.size or deck.declare_mask >> card & 1
            assert e.seat == (leader + len(trick)) % n
            assert held[e.seat] >> card & 1, "a seat played a card it did not hold"
            assert card in expected_legal(deck, held[e.seat], trick)
            assert not played >> card & 1, "a card was played twice in one hand"
            held[e.seat] &= ~(1 << card)
            played |= 1 << card
            trick.append(e.move)
            seats.append(e.seat)
        elif isinstance(e, TrickWon):
            assert len(trick) == n
            assert e.hand == hand
            winner = seats[expected_winner(deck, trick)]
            assert e.winner == winner, f"trick {[deck.format(m % deck.size) for m in trick]}"
            for m in trick:
                taken[winner] |= 1 << (m % deck.size)
            tricks[winner] += 1
            last = winner
            leader = winner
            trick, seats = [], []
        elif isinstance(e, HandScored):
            assert e.hand == hand
            assert played == deck.in_play, "not every card in play was played this hand"
            assert not any(held)
            assert sum(tricks) == deck.cards_each
            points, shooter = expected_points(rs, deck, n, hand, taken, tricks, last)
            assert list(e.points) == points
            assert e.moon == shooter
            assert e.points == game.hand_points[hand]
            if shooter < 0:
                assert sum(e.points) == fixed_total(rs, deck, hand)
                assert sum(e.points) == game.rules.hands[hand].fixed_total
            for s in range(n):
                totals[s] += e.points[s]
    assert totals == game.totals
    if rs.moon == Moon.NONE:
        assert sum(game.totals) == game.rules.checksum
    best = min(totals)
    assert game.winners() == [s for s in range(n) if totals[s] == best]
    assert game.standings() == [1 + sum(o < t for o in totals) for t in totals]


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


def play_random_game(case: Case) -> Game:
    game = case.game()
    rng = random.Random(case.moves)
    while not game.is_over():
        moves = game.legal_moves()
        assert moves == expected_legal(game.deck, game.hand(game.to_move), game.trick)
        game.play(rng.choice(moves))
    return game


# -- properties -----------------------------------------------------------------------------------


@settings(max_examples=examples(200), deadline=None)
@given(cases())
def test_random_games_follow_the_rules(case):
    """Every card in play is played once per hand, only legal cards are played, the highest
    of the led suit wins, every hand scores as the model says and hands out its fixed total
    unless a moon was shot."""
    game = play_random_game(case)
    check_game(game)


@settings(max_examples=examples(60), deadline=None)
@given(cases(configs=[0]))
def test_canadian_game_total_is_20_t_plus_860(case):
    game = play_random_game(case)
    assert sum(game.totals) == 20 * game.deck.cards_each + 860 == game.rules.checksum


@settings(max_examples=examples(80), deadline=None)
@given(cases())
def test_illegal_cards_are_rejected_and_change_nothing(case):
    game = case.game()
    rng = random.Random(case.moves)
    size = game.deck.size
    tries = 0
    while not game.is_over():
        legal = game.legal_moves()
        if rng.random() < 0.2:
            illegal = [c for c in range(size) if c not in legal]
            if illegal:
                move = rng.choice(illegal)
                before = snapshot(game)
                with pytest.raises(IllegalMoveError, match=f"seat {game.to_move}"):
                    game.play(move)
                assert snapshot(game) == before
                tries += 1
        game.play(rng.choice(legal))
    check_game(game)
    assert tries > 0


@settings(max_examples=examples(80), deadline=None)
@given(cases())
def test_any_illegal_move_number_is_rejected_and_changes_nothing(case):
    """Moves are integers: a card, a card plus deck.size (a Wild declared high), a trump pick.
    Any number that is not a legal move must raise and leave the game as it was."""
    game = case.game()
    rng = random.Random(case.moves)
    size = game.deck.size
    while not game.is_over():
        legal = game.legal_moves()
        if rng.random() < 0.2:
            move = rng.randrange(-3, 2 * size + 6)
            if move not in legal:
                before = snapshot(game)
                with pytest.raises(IllegalMoveError):
                    game.play(move)
                assert snapshot(game) == before, f"move {move} changed the game"
        game.play(rng.choice(legal))
    check_game(game)


@settings(max_examples=examples(80), deadline=None)
@given(cases())
def test_undo_restores_the_exact_state(case):
    game = case.game()
    rng = random.Random(case.moves)
    undos = 0
    while not game.is_over():
        legal = game.legal_moves()
        if rng.random() < 0.04 or (
            game.trick_no == game.deck.cards_each - 1
            and len(game.trick) == game.players - 1
            and rng.random() < 0.5
        ):
            before = snapshot(game)
            game.play(rng.choice(legal))
            game.undo()
            assert snapshot(game) == before
            undos += 1
        game.play(rng.choice(legal))
    # Undo the very last move of the game too.
    last = [e for e in game.events if isinstance(e, Play)][-1]
    game.undo()
    assert not game.is_over()
    assert game.phase == Phase.PLAY
    assert game.to_move == last.seat
    assert game.legal_moves() == [last.move]
    game.play(last.move)
    check_game(game)


@settings(max_examples=examples(60), deadline=None)
@given(cases(), st.floats(0, 1))
def test_copy_is_independent(case, when):
    game = case.game()
    rng = random.Random(case.moves)
    total = len(game.rules.hands) * game.deck.cards_each * game.players
    for _ in range(int(when * (total - 1))):
        game.play(rng.choice(game.legal_moves()))
    before = snapshot(game)
    twin = game.copy()
    assert snapshot(twin) == before
    moves = []
    twin_rng = random.Random(case.moves + 1)
    while not twin.is_over():
        move = twin_rng.choice(twin.legal_moves())
        moves.append(move)
        twin.play(move)
    assert snapshot(game) == before, "playing on a copy changed the original"
    after_twin = snapshot(twin)
    for move in moves:
        game.play(move)
    assert game.log == twin.log
    assert snapshot(twin) == after_twin, "playing on the original changed the copy"
    check_game(game)


@settings(max_examples=examples(60), deadline=None)
@given(cases())
def test_same_seed_same_game(case):
    a = play_random_game(case)
    b = play_random_game(case)
    assert a.log == b.log
    assert a.totals == b.totals
    # The deals depend on the seed only, not on how the cards are played.
    c = play_random_game(Case(case.config, case.players, case.seed, case.moves + 1))
    assert [e for e in c.events if isinstance(e, Deal | Draw)] == [
        e for e in a.events if isinstance(e, Deal | Draw)
    ]


def strings_in(value) -> set[str]:
    out: set[str] = set()
    if isinstance(value, str):
        out.add(value.rstrip("+"))
    elif isinstance(value, Mapping):
        for v in value.values():
            out |= strings_in(v)
    elif isinstance(value, list | tuple):
        for v in value:
            out |= strings_in(v)
    return out


@settings(max_examples=examples(60), deadline=None)
@given(cases())
def test_views_never_show_another_seats_hand(case):
    game = case.game()
    rng = random.Random(case.moves)
    deck = game.deck
    while not game.is_over():
        if rng.random() < 0.05:
            for seat in [SPECTATOR, *range(game.players)]:
                view = game.view(seat)
                data = view.to_dict()
                json.dumps(data)
                own = game.hand(seat) if seat != SPECTATOR else 0
                assert view.hand == own
                assert view.passed == view.received == 0
                if seat == game.to_move:
                    assert list(view.legal_moves) == game.legal_moves()
                else:
                    assert view.legal_moves == ()
                seen = strings_in(data)
                known = {deck.format(c) for c in cards_of(own | view.played)}
                for other in range(game.players):
                    if other == seat:
                        continue
                    for card in cards_of(game.hand(other)):
                        code = deck.format(card)
                        assert code in known or code not in seen, (seat, other, code)
        game.play(rng.choice(game.legal_moves()))
